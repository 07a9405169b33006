#!/usr/bin/python3
"""Writes ResNet-50 (v1.5: the stride sits on the 3x3 convolution; 1x3x224x224 -> 1x1000 logits)
in the webnn-graph formats with seeded random weights: OUT/resnet50.json, .manifest.json,
.weights and input.npy. Batch normalisation is folded into each convolution's bias, as an
inference export does.

Usage: scripts/make_resnet50.py OUTDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graphgen import GraphWriter  # noqa: E402

# (bottleneck width, blocks, first stride) of the four stages; output channels are 4 x width.
STAGES = [(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)]


def conv(g, x, cin, cout, k, stride, relu):
    w = g.he("w", (cout, cin, k, k), cin * k * k)
    b = g.small("b", (cout,))
    y = g.op("conv2d", [x, w], {"bias": b, "padding": [k // 2] * 4, "strides": [stride, stride]}, prefix="conv")
    return g.op("relu", [y]) if relu else y


def build(seed=2):
    g = GraphWriter("resnet50_random", seed)
    x = conv(g, g.input("input", (1, 3, 224, 224)), 3, 64, 7, 2, True)
    x = g.op("maxPool2d", [x], {"windowDimensions": [3, 3], "strides": [2, 2], "padding": [1, 1, 1, 1]},
             prefix="pool")
    cin = 64
    for width, blocks, first_stride in STAGES:
        cout = width * 4
        for i in range(blocks):
            stride = first_stride if i == 0 else 1
            y = conv(g, x, cin, width, 1, 1, True)
            y = conv(g, y, width, width, 3, stride, True)
            y = conv(g, y, width, cout, 1, 1, False)
            shortcut = conv(g, x, cin, cout, 1, stride, False) if i == 0 else x
            x = g.op("relu", [g.op("add", [y, shortcut])])
            cin = cout
    x = g.op("averagePool2d", [x], prefix="gap")
    x = g.op("reshape", [x], {"newShape": [1, 2048]})
    fc_w = g.he("fc_w", (2048, 1000), 2048)
    fc_b = g.small("fc_b", (1000,))
    g.output("logits", g.op("gemm", [x, fc_w], {"c": fc_b}, prefix="logits"))
    return g


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build().write(sys.argv[1], "resnet50")
