"""Builds the benchmark networks through webnn's own Python API (MLGraphBuilder) with seeded random
weights: ResNet-50 v1.5 and one BERT-base encoder layer. The outputs are deterministic but carry no
meaning; the networks have the real architectures, shapes and sizes.

    /usr/bin/python3 bench/networks.py resnet50|bert_encoder OUTDIR [--build DIR]

writes OUTDIR/NAME.json with its .manifest.json and .weights (graph.save) and OUTDIR/input.npy.
The module is found in --build/python (default build/python), or wherever Python finds `webnn`.
"""
import argparse
import math
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Net:
    """A builder with a seeded weight generator."""

    def __init__(self, webnn, seed):
        self.context = webnn.ML().create_context(backend="reference")
        self.b = self.context.create_graph_builder()
        self.rng = np.random.default_rng(seed)

    def const(self, array):
        return self.b.constant(np.asarray(array, dtype=np.float32))

    def he(self, shape, fan_in):
        return self.const(self.rng.standard_normal(shape) * math.sqrt(2.0 / fan_in))

    def small(self, shape, scale=0.01):
        return self.const(self.rng.standard_normal(shape) * scale)


# ---- ResNet-50 v1.5: the stride sits on the 3x3 convolution; 1x3x224x224 -> 1x1000 logits;
# batch normalisation folded into each convolution's bias, as an inference export does.

RESNET_STAGES = [(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)]  # (width, blocks, first stride)


def resnet50(webnn, seed=2):
    n = Net(webnn, seed)
    b = n.b

    def conv(x, cin, cout, k, stride, relu):
        y = b.conv2d(x, n.he((cout, cin, k, k), cin * k * k), bias=n.small((cout,)), padding=[k // 2] * 4,
                     strides=[stride, stride])
        return b.relu(y) if relu else y

    x = conv(b.input("input", [1, 3, 224, 224]), 3, 64, 7, 2, True)
    x = b.max_pool2d(x, window_dimensions=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])
    cin = 64
    for width, blocks, first_stride in RESNET_STAGES:
        for i in range(blocks):
            stride = first_stride if i == 0 else 1
            y = conv(x, cin, width, 1, 1, True)
            y = conv(y, width, width, 3, stride, True)
            y = conv(y, width, width * 4, 1, 1, False)
            shortcut = conv(x, cin, width * 4, 1, stride, False) if i == 0 else x
            x = b.relu(b.add(y, shortcut))
            cin = width * 4
    x = b.reshape(b.average_pool2d(x), [1, 2048])
    logits = b.gemm(x, n.he((2048, 1000), 2048), c=n.small((1000,)))
    return n, {"logits": logits}, [1, 3, 224, 224]


# ---- One BERT-base encoder layer: sequence 128, hidden 768, 12 heads of 64, feed-forward 3072,
# post-layer-norm, GELU; 1x128x768 -> 1x128x768. No attention mask (an unpadded sequence).

SEQ, HIDDEN, HEADS, FFN = 128, 768, 12, 3072
HEAD = HIDDEN // HEADS


def bert_encoder(webnn, seed=3):
    n = Net(webnn, seed)
    b = n.b

    def dense(x, cin, cout):
        return b.add(b.matmul(x, n.const(n.rng.standard_normal((cin, cout)) * 0.02)), n.small((cout,)))

    def layer_norm(x):
        scale = n.const(1.0 + n.rng.standard_normal(HIDDEN) * 0.01)
        return b.layer_normalization(x, scale=scale, bias=n.small((HIDDEN,)), axes=[2], epsilon=1e-12)

    def heads(x, perm):
        return b.transpose(b.reshape(x, [1, SEQ, HEADS, HEAD]), permutation=perm)

    x = b.input("input", [1, SEQ, HIDDEN])
    q = heads(dense(x, HIDDEN, HIDDEN), [0, 2, 1, 3])  # [1, 12, 128, 64]
    k = heads(dense(x, HIDDEN, HIDDEN), [0, 2, 3, 1])  # [1, 12, 64, 128]
    v = heads(dense(x, HIDDEN, HIDDEN), [0, 2, 1, 3])
    scores = b.mul(b.matmul(q, k), n.const(1.0 / math.sqrt(HEAD)))
    probs = b.softmax(scores, 3)
    ctx = b.reshape(b.transpose(b.matmul(probs, v), permutation=[0, 2, 1, 3]), [1, SEQ, HIDDEN])
    x = layer_norm(b.add(dense(ctx, HIDDEN, HIDDEN), x))
    y = layer_norm(b.add(dense(b.gelu(dense(x, HIDDEN, FFN)), FFN, HIDDEN), x))
    return n, {"output": y}, [1, SEQ, HIDDEN]


NETWORKS = {"resnet50": resnet50, "bert_encoder": bert_encoder}


def write(webnn, name, outdir):
    """Builds network `name` and saves it to outdir/name.json; returns that path."""
    net, outputs, input_shape = NETWORKS[name](webnn)
    graph = net.b.build(outputs)
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, name + ".json")
    graph.save(path)
    data = np.random.default_rng(7).standard_normal(input_shape).astype(np.float32)
    np.save(os.path.join(outdir, "input.npy"), data)
    return path, graph.operation_count


def import_webnn(build_dir):
    sys.path.insert(0, os.path.join(build_dir, "python"))
    import webnn

    return webnn


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("network", choices=sorted(NETWORKS))
    parser.add_argument("outdir")
    parser.add_argument("--build", default=os.path.join(REPO, "build"), help="build tree (default: build/)")
    args = parser.parse_args()
    path, operations = write(import_webnn(args.build), args.network, args.outdir)
    print(f"wrote {path} ({operations} operations) and {os.path.join(args.outdir, 'input.npy')}")


if __name__ == "__main__":
    main()
