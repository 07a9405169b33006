#!/usr/bin/python3
"""An independent forward pass, in numpy, of a webnn-graph JSON network made of conv2d (nchw,
oihw, groups 1 or depthwise), clamp, add, global averagePool2d and reshape — the ops of
MobileNetV2. It shares no code with webnn-cpp: it reads the JSON, manifest and weights files with
the standard library and computes in float64.

Usage: numpy_forward.py GRAPH.json INPUT.npy ACTUAL.npy
Compares ACTUAL (webnn's output) with its own result and exits non-zero when the largest absolute
difference exceeds 1e-4 x the largest absolute value of the result.
"""
import json
import os
import sys

import numpy as np


def load_weights(graph_path):
    base = graph_path[: -len(".json")]
    manifest = json.load(open(base + ".manifest.json"))
    raw = open(base + ".weights", "rb").read()
    assert raw[:4] == b"WGWT", "bad weights magic"
    tensors = {}
    for key, t in manifest["tensors"].items():
        assert t["dataType"] == "float32"
        a = np.frombuffer(raw, dtype="<f4", count=int(np.prod(t["shape"])), offset=t["byteOffset"])
        tensors[key] = a.reshape(t["shape"]).astype(np.float64)
    return tensors


def conv2d(x, w, b, padding, strides, groups):
    n, c, h, wd = x.shape
    o, ig, kh, kw = w.shape
    pt, pb, pl, pr = padding
    sh, sw = strides
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    oh = (h + pt + pb - kh) // sh + 1
    ow = (wd + pl + pr - kw) // sw + 1
    out = np.zeros((n, o, oh, ow))
    if groups == 1:
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, :, i : i + sh * oh : sh, j : j + sw * ow : sw]  # n c oh ow
                out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    elif groups == c == o and ig == 1:
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, :, i : i + sh * oh : sh, j : j + sw * ow : sw]
                out += patch * w[:, 0, i, j][None, :, None, None]
    else:
        raise SystemExit(f"numpy_forward: conv2d groups={groups} not supported here")
    return out + b[None, :, None, None]


def forward(graph_path, x):
    g = json.load(open(graph_path))
    weights = load_weights(graph_path)
    values = {name: weights[c["init"]["ref"]] for name, c in g["consts"].items()}
    values[next(iter(g["inputs"]))] = x.astype(np.float64)
    for node in g["nodes"]:
        op, ins, opt = node["op"], node["inputs"], node.get("options", {})
        if op == "conv2d":
            y = conv2d(values[ins[0]], values[ins[1]], values[opt["bias"]], opt.get("padding", [0] * 4),
                       opt.get("strides", [1, 1]), opt.get("groups", 1))
        elif op == "clamp":
            y = np.clip(values[ins[0]], opt["minValue"], opt["maxValue"])
        elif op == "add":
            y = values[ins[0]] + values[ins[1]]
        elif op == "averagePool2d":
            y = values[ins[0]].mean(axis=(2, 3), keepdims=True)
        elif op == "reshape":
            y = values[ins[0]].reshape(opt["newShape"])
        else:
            raise SystemExit(f"numpy_forward: op {op} not supported here")
        values[node.get("outputs", [node["id"]])[0]] = y
    (out_name,) = g["outputs"].values()
    return values[out_name]


def main():
    graph, inp, actual = sys.argv[1:4]
    expected = forward(graph, np.load(inp))
    got = np.load(actual).astype(np.float64)
    assert got.shape == expected.shape, f"shape {got.shape} != {expected.shape}"
    diff = np.abs(got - expected).max()
    scale = np.abs(expected).max()
    print(f"{os.path.basename(graph)}: max |diff| = {diff:.3g}, max |ref| = {scale:.3g}, ratio = {diff / scale:.3g}")
    if not diff <= 1e-4 * scale:
        sys.exit("numpy_forward: outputs differ by more than 1e-4 x the largest value")


if __name__ == "__main__":
    main()
