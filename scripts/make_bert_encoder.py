#!/usr/bin/python3
"""Writes one BERT-base encoder layer (sequence 128, hidden 768, 12 heads of 64, feed-forward 3072,
post-layer-norm, GELU; 1x128x768 -> 1x128x768) in the webnn-graph formats with seeded random
weights: OUT/bert_encoder.json, .manifest.json, .weights and input.npy. No attention mask: every
position attends to every other, as for an unpadded sequence.

Usage: scripts/make_bert_encoder.py OUTDIR
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graphgen import GraphWriter  # noqa: E402

SEQ, HIDDEN, HEADS, FFN = 128, 768, 12, 3072
HEAD = HIDDEN // HEADS


def dense(g, x, cin, cout):
    w = g.const("w", g.rng.standard_normal((cin, cout)) * 0.02)
    b = g.small("b", (cout,))
    return g.op("add", [g.op("matmul", [x, w]), b])


def layer_norm(g, x):
    scale = g.const("ln_scale", 1.0 + g.rng.standard_normal(HIDDEN) * 0.01)
    bias = g.small("ln_bias", (HIDDEN,))
    return g.op("layerNormalization", [x], {"scale": scale, "bias": bias, "axes": [2], "epsilon": 1e-12},
                prefix="ln")


def heads(g, x, perm):
    return g.op("transpose", [g.op("reshape", [x], {"newShape": [1, SEQ, HEADS, HEAD]})], {"permutation": perm})


def build(seed=3):
    g = GraphWriter("bert_base_encoder_layer_random", seed)
    x = g.input("input", (1, SEQ, HIDDEN))
    q = heads(g, dense(g, x, HIDDEN, HIDDEN), [0, 2, 1, 3])  # [1, 12, 128, 64]
    k = heads(g, dense(g, x, HIDDEN, HIDDEN), [0, 2, 3, 1])  # [1, 12, 64, 128]
    v = heads(g, dense(g, x, HIDDEN, HIDDEN), [0, 2, 1, 3])
    scale = g.const("scale", np.array(1.0 / math.sqrt(HEAD)))
    scores = g.op("mul", [g.op("matmul", [q, k]), scale])
    probs = g.op("softmax", [scores], {"axis": 3})
    ctx = g.op("transpose", [g.op("matmul", [probs, v])], {"permutation": [0, 2, 1, 3]})
    ctx = g.op("reshape", [ctx], {"newShape": [1, SEQ, HIDDEN]})
    x = layer_norm(g, g.op("add", [dense(g, ctx, HIDDEN, HIDDEN), x]))
    h = g.op("gelu", [dense(g, x, HIDDEN, FFN)])
    y = layer_norm(g, g.op("add", [dense(g, h, FFN, HIDDEN), x]))
    g.output("output", y)
    return g


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build().write(sys.argv[1], "bert_encoder")
