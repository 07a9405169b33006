#!/usr/bin/python3
"""Writes a complete MobileNetV2 (1x3x224x224 -> 1x1280 embedding) in the webnn-graph formats,
with seeded random weights: OUT/mobilenetv2.json, .manifest.json, .weights and input.npy.

The architecture is the standard one (batch-norm folded into conv2d bias, clamp(0, 6), residual
adds, global average pool, reshape), the same shape of network as ../shared/models/mobilenetv2,
so the repository can run a real-sized network on its own. Weights use He initialisation from a
fixed seed: the outputs are deterministic but carry no meaning.

Usage: scripts/make_mobilenetv2.py OUTDIR
"""
import json
import os
import struct
import sys

import numpy as np

# (expansion t, output channels c, repeats n, first stride s) of the inverted residual blocks.
BLOCKS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]


class Writer:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.consts = {}   # name -> array
        self.nodes = []    # (id, op, inputs, options)
        self.count = 0

    def conv(self, x, cin, cout, k, stride, groups, relu6):
        i = self.count
        self.count += 1
        w = f"w{i}"
        b = f"b{i}"
        fan_in = (cin // groups) * k * k
        self.consts[w] = (self.rng.standard_normal((cout, cin // groups, k, k)) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        self.consts[b] = (self.rng.standard_normal(cout) * 0.01).astype(np.float32)
        pad = k // 2
        out = f"conv{i}"
        opts = {"bias": b, "padding": [pad] * 4, "strides": [stride, stride]}
        if groups != 1:
            opts["groups"] = groups
        self.nodes.append((out, "conv2d", [x, w], opts))
        if relu6:
            self.nodes.append((out + "_relu6", "clamp", [out], {"minValue": 0.0, "maxValue": 6.0}))
            return out + "_relu6"
        return out

    def add(self, a, b):
        out = f"add{self.count}"
        self.count += 1
        self.nodes.append((out, "add", [a, b], {}))
        return out


def build(seed=1):
    g = Writer(seed)
    x = g.conv("input", 3, 32, 3, 2, 1, True)
    cin = 32
    for t, c, n, s in BLOCKS:
        for r in range(n):
            stride = s if r == 0 else 1
            hidden = cin * t
            y = x
            if t != 1:
                y = g.conv(y, cin, hidden, 1, 1, 1, True)
            y = g.conv(y, hidden, hidden, 3, stride, hidden, True)
            y = g.conv(y, hidden, c, 1, 1, 1, False)
            if stride == 1 and cin == c:
                y = g.add(y, x)
            x = y
            cin = c
    x = g.conv(x, cin, 1280, 1, 1, 1, True)
    g.nodes.append(("pool", "averagePool2d", [x], {}))
    g.nodes.append(("embedding", "reshape", ["pool"], {"newShape": [1, 1280]}))
    return g


def write(outdir):
    os.makedirs(outdir, exist_ok=True)
    g = build()
    base = os.path.join(outdir, "mobilenetv2")
    manifest = {"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {}}
    with open(base + ".weights", "wb") as f:
        f.write(b"WGWT" + struct.pack("<I", 1))
        offset = 8
        for name, arr in g.consts.items():
            data = arr.astype("<f4").tobytes()
            manifest["tensors"][name] = {"dataType": "float32", "shape": list(arr.shape), "byteOffset": offset,
                                         "byteLength": len(data), "layout": "row-major"}
            f.write(data)
            offset += len(data)
    with open(base + ".manifest.json", "w") as f:
        json.dump(manifest, f, indent=1)
    graph = {
        "format": "webnn-graph-json", "version": 2, "name": "mobilenetv2_random",
        "inputs": {"input": {"dataType": "float32", "shape": [1, 3, 224, 224]}},
        "consts": {n: {"dataType": "float32", "shape": list(a.shape), "init": {"kind": "weights", "ref": n}}
                   for n, a in g.consts.items()},
        "nodes": [{"id": i, "op": op, "inputs": ins, "options": opts, "outputs": [i]} for i, op, ins, opts in g.nodes],
        "outputs": {"embedding": "embedding"},
    }
    with open(base + ".json", "w") as f:
        json.dump(graph, f, indent=1)
    rng = np.random.default_rng(7)
    np.save(os.path.join(outdir, "input.npy"), rng.standard_normal((1, 3, 224, 224)).astype(np.float32))
    print(f"wrote {base}.json ({len(g.nodes)} operations, {len(g.consts)} constants, "
          f"{sum(a.nbytes for a in g.consts.values())} weight bytes) and {outdir}/input.npy")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    write(sys.argv[1])
