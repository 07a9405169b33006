#!/usr/bin/python3
"""Quantizes a float32 MobileNetV2-style webnn-graph (conv2d with bias, clamp, add, averagePool2d,
reshape; the JSON form with its weights manifest and weights file) into QDQ form:

- every convolution filter becomes dequantizeLinear(int8 filter, per-output-channel scale
  max|w| / 127, zero point 0): symmetric int8 weights, per channel;
- every bias becomes dequantizeLinear(int32 bias, scale = input scale x filter scale, zero point 0),
  the form ONNX Runtime's QDQ fusion expects;
- every activation a convolution, an add or the pool reads (the input image, each clamp output,
  each convolution output without a clamp, each add output) goes through quantizeLinear ->
  dequantizeLinear with one uint8 scale and zero point, calibrated on the given input: the range
  [min(0, lowest value), max(0, highest value)] seen on it, as ONNX Runtime's MinMax calibration.

The calibration runs the float32 graph with every intermediate as an output (`webnn run` on the
reference backend). The embedding stays float32 (the pool averages dequantized values).

    /usr/bin/python3 bench/quantize.py GRAPH.json OUTDIR --input input=FILE.npy [--webnn build/webnn]

writes OUTDIR/NAME_int8.json with its .manifest.json and .weights. The bench (bench/models.py)
makes the int8 MobileNetV2 this way from the shared one and its input.npy.

ONNX Runtime fuses the ONNX export of the result (`webnn convert ... --to onnx`) into its own int8
kernels as it is: webnn's exporter writes the int32 bias dequantization as Cast/Sub/Mul arithmetic,
which ONNX Runtime folds at session creation (the same p50 as with a DequantizeLinear node there,
measured).
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

ALIGN = 64


class Weights:
    """A webnn weights file being written: tensors aligned to 64 bytes, and their manifest."""

    def __init__(self):
        self.blob = bytearray(b"WGWT" + struct.pack("<I", 1))
        self.tensors = {}

    def add(self, key, array, data_type):
        self.blob += b"\0" * (-len(self.blob) % ALIGN)
        data = np.ascontiguousarray(array).tobytes()
        self.tensors[key] = {"dataType": data_type, "shape": list(array.shape), "byteOffset": len(self.blob),
                             "byteLength": len(data), "layout": "row-major"}
        self.blob += data


def load(graph_path):
    base = graph_path[:-len(".json")]
    with open(graph_path) as f:
        graph = json.load(f)
    with open(base + ".manifest.json") as f:
        manifest = json.load(f)
    with open(base + ".weights", "rb") as f:
        blob = f.read()
    types = {"float32": np.float32, "int32": np.int32, "int8": np.int8, "uint8": np.uint8}

    def tensor(name):
        const = graph["consts"][name]
        init = const["init"]
        if init.get("kind") != "weights":
            sys.exit(f"quantize: constant {name} is not in the weights file")
        entry = manifest["tensors"][init["ref"]]
        data = blob[entry["byteOffset"]:entry["byteOffset"] + entry["byteLength"]]
        return np.frombuffer(data, dtype=types[entry["dataType"]]).reshape(const["shape"])

    return graph, tensor


def calibrate(graph_path, graph, feeds, webnn, work):
    """Every node output's (min, max) on the inputs, from the float32 graph on the reference backend."""
    probe = dict(graph)
    probe["outputs"] = {out: out for node in graph["nodes"] for out in node["outputs"]}
    # In the work directory, beside links to the original's weights (found by the graph's name).
    base = graph_path[:-len(".json")]
    probe_base = os.path.join(work, os.path.basename(base))
    for suffix in (".manifest.json", ".weights"):
        os.symlink(os.path.abspath(base + suffix), probe_base + suffix)
    with open(probe_base + ".json", "w") as f:
        json.dump(probe, f)
    out_dir = os.path.join(work, "calibration")
    cmd = [webnn, "run", probe_base + ".json", "--backend", "reference", "--output-dir", out_dir]
    for feed in feeds:
        cmd += ["--input", feed]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"quantize: {' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    ranges = {}
    for name in probe["outputs"]:
        a = np.load(os.path.join(out_dir, name + ".npy"))
        ranges[name] = (float(a.min()), float(a.max()))
    for feed in feeds:
        name, _, npy = feed.partition("=")
        a = np.load(npy)
        ranges[name] = (float(a.min()), float(a.max()))
    return ranges


def uint8_params(lo, hi):
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = (hi - lo) / 255 if hi > lo else 1.0
    zero_point = int(np.clip(np.round(-lo / scale), 0, 255))
    return np.float32(scale), zero_point


def quantize(graph_path, outdir, feeds, webnn):
    graph, tensor = load(graph_path)
    if graph.get("format") != "webnn-graph-json":
        sys.exit(f"quantize: {graph_path} is not a webnn-graph-json file")
    allowed = {"conv2d", "clamp", "add", "averagePool2d", "reshape"}
    for node in graph["nodes"]:
        if node["op"] not in allowed:
            sys.exit(f"quantize: {node['op']} is not an operation of this network ({', '.join(sorted(allowed))})")
        if node["op"] == "conv2d" and (node.get("options", {}).get("filterLayout", "oihw") != "oihw"
                                       or node.get("options", {}).get("inputLayout", "nchw") != "nchw"):
            sys.exit("quantize: convolutions must use the default nchw / oihw layouts")
    with tempfile.TemporaryDirectory(prefix="webnn-quantize-") as work:
        ranges = calibrate(graph_path, graph, feeds, webnn, work)

    readers = {}
    for node in graph["nodes"]:
        for i in node["inputs"]:
            readers.setdefault(i, []).append(node["op"])
    quantized = [name for name in list(graph["inputs"]) + [o for n in graph["nodes"] for o in n["outputs"]]
                 if any(op in ("conv2d", "add", "averagePool2d") for op in readers.get(name, []))]

    weights = Weights()
    consts = {}
    nodes = []
    params = {}  # activation -> (scale, zero point)
    dequantized = {}  # activation -> the name of its dequantized value

    def const(name, array, data_type):
        weights.add(name, array, data_type)
        consts[name] = {"dataType": data_type, "shape": list(array.shape), "init": {"kind": "weights", "ref": name}}
        return name

    def qdq(name):
        scale, zp = uint8_params(*ranges[name])
        params[name] = (scale, zp)
        s = const(name + "_scale", np.array([[[[scale]]]], np.float32), "float32")
        z = const(name + "_zp", np.array([[[[zp]]]], np.uint8), "uint8")
        nodes.append({"id": name + "_q", "op": "quantizeLinear", "inputs": [name, s, z], "outputs": [name + "_q"]})
        nodes.append({"id": name + "_dq", "op": "dequantizeLinear", "inputs": [name + "_q", s, z],
                      "outputs": [name + "_dq"]})
        dequantized[name] = name + "_dq"

    for name in graph["inputs"]:
        if name in quantized:
            qdq(name)
    for node in graph["nodes"]:
        node = json.loads(json.dumps(node))
        if node["op"] == "conv2d":
            x, w_name = node["inputs"]
            w = tensor(w_name).astype(np.float64)
            wmax = np.abs(w).reshape(w.shape[0], -1).max(axis=1)
            wscale = np.where(wmax > 0, wmax / 127, 1.0).astype(np.float32)
            wq = np.clip(np.round(w / wscale.reshape(-1, 1, 1, 1)), -127, 127).astype(np.int8)
            ws = const(w_name + "_scale", wscale.reshape(-1, 1, 1, 1), "float32")
            wz = const(w_name + "_zp", np.zeros((w.shape[0], 1, 1, 1), np.int8), "int8")
            nodes.append({"id": w_name + "_dq", "op": "dequantizeLinear",
                          "inputs": [const(w_name + "_q", wq, "int8"), ws, wz], "outputs": [w_name + "_dq"]})
            node["inputs"] = [dequantized[x], w_name + "_dq"]
            b_name = node.get("options", {}).get("bias")
            if b_name:
                bscale = (np.float64(params[x][0]) * wscale.astype(np.float64)).astype(np.float32)
                bq = np.round(tensor(b_name).astype(np.float64) / bscale).astype(np.int32)
                nodes.append({"id": b_name + "_dq", "op": "dequantizeLinear",
                              "inputs": [const(b_name + "_q", bq, "int32"), const(b_name + "_scale", bscale, "float32"),
                                         const(b_name + "_zp", np.zeros(bq.shape, np.int32), "int32")],
                              "outputs": [b_name + "_dq"]})
                node["options"]["bias"] = b_name + "_dq"
        else:
            node["inputs"] = [dequantized.get(i, i) for i in node["inputs"]]
        nodes.append(node)
        for out in node["outputs"]:
            if out in quantized:
                qdq(out)

    name = os.path.basename(graph_path)[:-len(".json")] + "_int8"
    os.makedirs(outdir, exist_ok=True)
    out = dict(graph)
    out["name"] = graph.get("name", "graph") + "_int8"
    out["consts"] = consts
    out["nodes"] = nodes
    with open(os.path.join(outdir, name + ".manifest.json"), "w") as f:
        json.dump({"format": "wg-weights-manifest", "version": 1, "endianness": "little",
                   "tensors": weights.tensors}, f, indent=1)
    with open(os.path.join(outdir, name + ".weights"), "wb") as f:
        f.write(weights.blob)
    path = os.path.join(outdir, name + ".json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("graph", help="a float32 webnn-graph JSON file (its .manifest.json and .weights beside it)")
    parser.add_argument("outdir")
    parser.add_argument("--input", action="append", default=[], help="NAME=FILE.npy: a calibration input")
    parser.add_argument("--webnn", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                        "build", "webnn"))
    args = parser.parse_args()
    if not args.input:
        sys.exit("quantize: give the calibration input with --input NAME=FILE.npy")
    print(f"wrote {quantize(args.graph, args.outdir, args.input, args.webnn)}")


if __name__ == "__main__":
    main()
