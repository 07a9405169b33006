#!/usr/bin/python3
"""Writes a complete MobileNetV2 (1x3x224x224 -> 1x1280 embedding) in the webnn-graph formats,
with seeded random weights: OUT/mobilenetv2.json, .manifest.json, .weights and input.npy.

The architecture is the standard one (batch-norm folded into conv2d bias, clamp(0, 6), residual
adds, global average pool, reshape), the same shape of network as ../shared/models/mobilenetv2,
so the repository can run a real-sized network on its own. Weights use He initialisation from a
fixed seed: the outputs are deterministic but carry no meaning.

Usage: scripts/make_mobilenetv2.py OUTDIR
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graphgen import GraphWriter  # noqa: E402

# (expansion t, output channels c, repeats n, first stride s) of the inverted residual blocks.
BLOCKS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]


def conv(g, x, cin, cout, k, stride, groups, relu6):
    w = g.he("w", (cout, cin // groups, k, k), (cin // groups) * k * k)
    b = g.small("b", (cout,))
    opts = {"bias": b, "padding": [k // 2] * 4, "strides": [stride, stride]}
    if groups != 1:
        opts["groups"] = groups
    y = g.op("conv2d", [x, w], opts, prefix="conv")
    return g.op("clamp", [y], {"minValue": 0.0, "maxValue": 6.0}, prefix="relu6_") if relu6 else y


def build(seed=1):
    g = GraphWriter("mobilenetv2_random", seed)
    x = conv(g, g.input("input", (1, 3, 224, 224)), 3, 32, 3, 2, 1, True)
    cin = 32
    for t, c, n, s in BLOCKS:
        for r in range(n):
            stride = s if r == 0 else 1
            hidden = cin * t
            y = x
            if t != 1:
                y = conv(g, y, cin, hidden, 1, 1, 1, True)
            y = conv(g, y, hidden, hidden, 3, stride, hidden, True)
            y = conv(g, y, hidden, c, 1, 1, 1, False)
            if stride == 1 and cin == c:
                y = g.op("add", [y, x])
            x = y
            cin = c
    x = conv(g, x, cin, 1280, 1, 1, 1, True)
    pool = g.op("averagePool2d", [x], prefix="pool")
    g.output("embedding", g.op("reshape", [pool], {"newShape": [1, 1280]}, prefix="embedding"))
    return g


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build().write(sys.argv[1], "mobilenetv2")
