#!/usr/bin/python3
"""Converts a float32 webnn-graph (the JSON form with its weights manifest and weights file) to
float16: every float32 input, constant and cast target becomes float16, the weights are rounded to
nearest float16 (numpy's astype, round to nearest even), and the other tensors are copied as they
are. The graph's structure and options are untouched. Input .npy files given with --input are
converted the same way and written beside the graph.

    /usr/bin/python3 bench/to_float16.py GRAPH.json OUTDIR [--input NAME=FILE.npy ...]

writes OUTDIR/NAME_float16.json with its .manifest.json and .weights, and OUTDIR/NAME.npy for each
input. The bench (bench/models.py) makes the float16 MobileNetV2 this way from the shared one.
"""
import argparse
import json
import os
import struct
import sys

import numpy as np

NUMPY_TYPES = {"float32": np.float32, "float16": np.float16, "int32": np.int32, "uint32": np.uint32,
               "int64": np.int64, "uint64": np.uint64, "int8": np.int8, "uint8": np.uint8}
ALIGN = 64  # tensors in the weights file start at multiples of 64 bytes


def to_float16(graph_path, outdir, suffix="_float16"):
    """Writes the float16 form of graph_path into outdir; returns the new graph's path."""
    base = graph_path[:-len(".json")] if graph_path.endswith(".json") else graph_path
    with open(graph_path) as f:
        graph = json.load(f)
    if graph.get("format") != "webnn-graph-json":
        sys.exit(f"to_float16: {graph_path} is not a webnn-graph-json file")

    for desc in graph.get("inputs", {}).values():
        if desc["dataType"] == "float32":
            desc["dataType"] = "float16"
    for node in graph.get("nodes", []):
        options = node.get("options", {})
        if node.get("op") == "cast" and options.get("dataType") == "float32":
            options["dataType"] = "float16"

    weights_refs = {}
    for name, const in graph.get("consts", {}).items():
        init = const.get("init", {})
        was_float32 = const["dataType"] == "float32"
        if was_float32:
            const["dataType"] = "float16"
        if init.get("kind") == "weights":
            weights_refs[init["ref"]] = was_float32
        elif init.get("kind") == "inlineBytes" and was_float32:
            values = np.frombuffer(bytes(init["bytes"]), dtype="<f4").astype("<f2")
            init["bytes"] = list(values.tobytes())
        # "scalar" constants keep their value: it is cast to the new data type when built.

    name = os.path.basename(base) + suffix
    os.makedirs(outdir, exist_ok=True)
    if weights_refs:
        with open(base + ".manifest.json") as f:
            manifest = json.load(f)
        with open(base + ".weights", "rb") as f:
            blob = f.read()
        out_blob = bytearray(b"WGWT" + struct.pack("<I", 1))
        tensors = {}
        for key, entry in manifest["tensors"].items():
            data = blob[entry["byteOffset"]:entry["byteOffset"] + entry["byteLength"]]
            entry = dict(entry)
            if entry["dataType"] == "float32" and weights_refs.get(key, False):
                data = np.frombuffer(data, dtype="<f4").astype("<f2").tobytes()
                entry["dataType"] = "float16"
            out_blob += b"\0" * (-len(out_blob) % ALIGN)
            entry["byteOffset"] = len(out_blob)
            entry["byteLength"] = len(data)
            out_blob += data
            tensors[key] = entry
        manifest["tensors"] = tensors
        with open(os.path.join(outdir, name + ".manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)
        with open(os.path.join(outdir, name + ".weights"), "wb") as f:
            f.write(out_blob)
    graph["name"] = graph.get("name", "graph") + suffix
    path = os.path.join(outdir, name + ".json")
    with open(path, "w") as f:
        json.dump(graph, f, indent=1)
    return path


def convert_npy(src, dst):
    """Writes the .npy file src as float16 (float32 data) or unchanged (other types) to dst."""
    data = np.load(src)
    np.save(dst, data.astype(np.float16) if data.dtype == np.float32 else data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("graph", help="a webnn-graph JSON file (its .manifest.json and .weights beside it)")
    parser.add_argument("outdir")
    parser.add_argument("--input", action="append", default=[], help="NAME=FILE.npy: an input to convert")
    args = parser.parse_args()
    path = to_float16(args.graph, args.outdir)
    print(f"wrote {path}")
    for feed in args.input:
        input_name, sep, npy = feed.partition("=")
        if not sep:
            sys.exit(f"to_float16: --input {feed!r} is not NAME=FILE.npy")
        dst = os.path.join(args.outdir, input_name + ".npy")
        convert_npy(npy, dst)
        print(f"wrote {dst}")


if __name__ == "__main__":
    main()
