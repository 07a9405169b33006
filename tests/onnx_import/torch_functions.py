#!/usr/bin/python3
"""PyTorch functions and layers one at a time, as torch.onnx.export writes them, imported and run
by webnn against PyTorch's own output.

Each case is a small module over random inputs, exported by Debian's PyTorch 1.13 at opsets 11, 13
and 17 (those of them at or above the case's first opset; 9 and 10 where a case asks for PyTorch's
older forms), run with `webnn run model.onnx` on the
given backend and compared with PyTorch: the largest |difference| at most 1e-4 x the largest
|value| (+ 1e-6). Where PyTorch 1.13's export does not compute what PyTorch does, the case names
why and is compared with ONNX Runtime's output of the same model instead (tools/ort; such cases
fail when ONNX Runtime is not installed: scripts/setup.sh installs it). `refused` cases must fail
with the given part of the error.

Usage: torch_functions.py WEBNN_CLI WORK_DIR BACKEND [NAME...]
Exits 77 (skipped) when torch is not installed.
"""
import os
import sys

import peers
from shard import shard

try:
    import numpy as np
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError as e:  # pragma: no cover - the skip path
    print(f"skipped: {e}")
    sys.exit(77)

OPSETS = (9, 10, 11, 13, 17)  # a case runs at those from its first opset (default 11) on


class Fn(nn.Module):
    """f(modules, *inputs) as a module, the modules registered so that export sees their weights."""

    def __init__(self, f, modules=()):
        super().__init__()
        self.f = f
        self.mods = nn.ModuleList(modules)

    def forward(self, *x):
        return self.f(self.mods, *x)


def layer(module):
    return lambda: Fn(lambda ms, x: ms[0](x), [module])


def fn(f):
    return lambda: Fn(lambda ms, *x: f(*x))


def with_modules(f, *make):
    return lambda: Fn(f, [m() for m in make])


def activations(x):
    # Over [-2, 2). Softplus keeps its default threshold: PyTorch 1.13 exports softplus without
    # the threshold above which it is linear (ONNX Runtime computes what webnn does).
    x = 4 * x - 2
    return torch.cat([F.hardswish(x), F.softplus(x, beta=2), F.elu(x, 0.7), F.selu(x), F.mish(x),
                      F.logsigmoid(x), F.hardtanh(x, -0.5, 0.7), F.silu(x), F.gelu(x), F.relu6(x),
                      F.hardsigmoid(x), F.softsign(x), F.tanhshrink(x), F.softshrink(x, 0.3), F.hardshrink(x, 0.4),
                      F.leaky_relu(x, 0.03)], 1)


# (name, module constructor, input shapes, options): first_opset (default 11) and last_opset
# bound the opsets of OPSETS it is exported at (the first opset when none is); peer "ort" with a
# reason where PyTorch's export is at fault; refused: a part of the error webnn must give.
CASES = [
    ("interpolate nearest x2.5", fn(lambda x: F.interpolate(x, scale_factor=2.5, mode="nearest")), [(1, 2, 5, 7)], {}),
    ("interpolate bicubic", fn(lambda x: F.interpolate(x, size=(11, 9), mode="bicubic")), [(1, 2, 5, 7)], {}),
    ("interpolate bicubic align_corners",
     fn(lambda x: F.interpolate(x, size=(11, 9), mode="bicubic", align_corners=True)), [(1, 2, 5, 7)], {}),
    ("interpolate bilinear align_corners to a size",
     fn(lambda x: F.interpolate(x, size=(8, 11), mode="bilinear", align_corners=True)), [(1, 2, 5, 7)], {}),
    ("interpolate area", fn(lambda x: F.interpolate(x, size=(4, 3), mode="area")), [(1, 2, 8, 9)], {}),
    ("interpolate linear of a 3-D input", fn(lambda x: F.interpolate(x, scale_factor=3, mode="linear")),
     [(1, 2, 7)], {}),
    ("interpolate trilinear", fn(lambda x: F.interpolate(x, scale_factor=2, mode="trilinear")), [(1, 2, 3, 4, 5)], {}),
    ("AdaptiveAvgPool2d to sizes that do not divide", layer(nn.AdaptiveAvgPool2d((3, 5))), [(1, 2, 9, 10)], {}),
    ("AdaptiveMaxPool2d", layer(nn.AdaptiveMaxPool2d((2, 2))), [(1, 2, 8, 8)], {}),
    ("MaxPool2d ceil_mode dilation", layer(nn.MaxPool2d(3, stride=2, padding=1, dilation=2, ceil_mode=True)),
     [(1, 2, 11, 12)], {}),
    ("AvgPool2d ceil_mode count_include_pad=False",
     layer(nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)), [(1, 2, 11, 12)], {}),
    ("AvgPool2d count_include_pad", layer(nn.AvgPool2d(3, stride=2, padding=1)), [(1, 2, 11, 12)], {}),
    ("LPPool2d", layer(nn.LPPool2d(2, 3, stride=2)), [(1, 2, 11, 12)], {}),
    ("unfold (im2col)", fn(lambda x: F.unfold(x, 3, padding=1, stride=2)), [(1, 2, 7, 8)], {}),
    ("Conv2d reflect padding", layer(nn.Conv2d(2, 3, 3, padding=2, padding_mode="reflect")), [(1, 2, 7, 8)], {}),
    ("Conv2d replicate padding", layer(nn.Conv2d(2, 3, 3, padding=1, padding_mode="replicate")), [(1, 2, 7, 8)], {}),
    ("Conv2d circular padding", layer(nn.Conv2d(2, 3, 3, padding=1, padding_mode="circular")), [(1, 2, 7, 8)],
     {"peer": "ort", "why": "PyTorch 1.13 exports circular padding with the wrapped rows out of order"}),
    ("ConvTranspose1d groups dilation output_padding",
     layer(nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=2)), [(1, 4, 9)], {}),
    ("ConvTranspose3d output_padding", layer(nn.ConvTranspose3d(2, 3, 3, stride=2, padding=1, output_padding=1)),
     [(1, 2, 3, 4, 5)], {}),
    ("Conv3d depthwise", layer(nn.Conv3d(4, 4, 3, padding=1, groups=4)), [(1, 4, 3, 5, 6)], {}),
    ("LocalResponseNorm", layer(nn.LocalResponseNorm(3)), [(1, 5, 4, 4)], {}),
    ("GroupNorm", layer(nn.GroupNorm(2, 6)), [(2, 6, 4, 5)], {}),
    ("LayerNorm over two axes", layer(nn.LayerNorm([4, 5])), [(2, 3, 4, 5)], {}),
    ("InstanceNorm3d", layer(nn.InstanceNorm3d(3, affine=True)), [(2, 3, 4, 5, 6)], {}),
    ("PReLU", layer(nn.PReLU(3)), [(1, 3, 4, 4)], {}),
    ("activations", fn(activations), [(1, 3, 4, 4)], {}),
    ("CELU", fn(lambda x: F.celu(x, 1.3)), [(2, 5)], {"first_opset": 12}),
    ("GLU", fn(lambda x: F.glu(x, dim=1)), [(1, 4, 3)], {}),
    ("PixelUnshuffle", layer(nn.PixelUnshuffle(2)), [(1, 2, 4, 6)], {}),
    ("channel shuffle", fn(lambda x: x.view(1, 2, 3, 4, 4).transpose(1, 2).reshape(1, 6, 4, 4)), [(1, 6, 4, 4)], {}),
    ("flip and roll", fn(lambda x: torch.roll(torch.flip(x, [1, 3]), shifts=(2, -1), dims=(2, 3))), [(1, 3, 5, 6)], {}),
    ("cumsum", fn(lambda x: torch.cumsum(x, dim=2)), [(2, 3, 5)], {}),
    ("cumsum reversed", fn(lambda x: torch.flip(torch.cumsum(torch.flip(x, [1]), 1), [1])), [(2, 5)], {}),
    ("topk values", fn(lambda x: torch.topk(x, 3, dim=1).values), [(2, 7, 3)], {}),
    ("topk smallest indices", fn(lambda x: torch.topk(x, 3, dim=1, largest=False).indices.float()), [(2, 7, 3)], {}),
    ("argmax keepdim", fn(lambda x: torch.argmax(x, dim=1, keepdim=True).float()), [(2, 7, 3)], {}),
    ("sort descending", fn(lambda x: torch.sort(x, dim=-1, descending=True).values), [(2, 3, 6)], {}),
    ("einsum batched matmul", fn(lambda x: torch.einsum("bij,bjk->bik", x, x.transpose(1, 2))), [(2, 3, 4)],
     {"first_opset": 12}),
    ("einsum batched trace", fn(lambda x: torch.einsum("bii->b", x)), [(2, 4, 4)], {"first_opset": 12}),
    ("einsum of three operands", fn(lambda x, y: torch.einsum("ij,jk,k->i", x, y, y[0])), [(3, 4), (4, 5)],
     {"first_opset": 12}),
    ("gather", fn(lambda x: torch.gather(x, 1, torch.tensor([[0, 2, 1], [1, 1, 0]]).unsqueeze(-1).expand(2, 3, 4))),
     [(2, 3, 4)], {}),
    ("index_select", fn(lambda x: x.index_select(2, torch.tensor([3, 0, 0, 1]))), [(2, 3, 4)], {}),
    ("scatter", fn(lambda x: torch.zeros(2, 5).scatter(1, torch.tensor([[0, 4], [3, 1]]), x)), [(2, 2)], {}),
    ("scatter_add", fn(lambda x: torch.zeros(2, 5).scatter_add(1, torch.tensor([[0, 0, 4], [3, 1, 3]]), x)), [(2, 3)],
     {"first_opset": 16}),
    ("scatter_add below opset 16",
     fn(lambda x: torch.zeros(2, 5).scatter_add(1, torch.tensor([[0, 0, 4], [3, 1, 3]]), x)), [(2, 3)],
     {"last_opset": 15, "peer": "ort", "why": "below opset 16 PyTorch 1.13 exports scatter_add as a ScatterElements without a "
                            "reduction, which keeps one of the repeated indices' updates"}),
    ("index_put", fn(lambda x: x.index_put((torch.tensor([0, 2]),), torch.tensor([5.0]))), [(3, 4)],
     {"refused": "the shape holds another element count than the input",
      "why": "PyTorch 1.13 writes a Reshape of 1 element to [2, 4] (ONNX Runtime refuses it too)"}),
    ("masked_fill", fn(lambda x: x.masked_fill(x > 0.3, -1.0)), [(3, 4)], {}),
    ("where", fn(lambda x: torch.where(x > 0.5, x, torch.zeros_like(x) - 2)), [(3, 4)], {}),
    ("clamp", fn(lambda x: torch.clamp(x, min=-0.5, max=0.25)), [(3, 4)], {}),
    ("std and var", fn(lambda x: torch.cat([x.std(dim=1, keepdim=True), x.var(dim=1, unbiased=False, keepdim=True)],
                                           1)), [(3, 5)], {}),
    ("norms and normalize", fn(lambda x: torch.cat([x.norm(p=2, dim=1, keepdim=True), x.norm(p=1, dim=1, keepdim=True),
                                                    F.normalize(x, dim=1)], 1)), [(3, 5)], {}),
    ("cosine_similarity", fn(lambda x: F.cosine_similarity(x[:2], x[1:], dim=1)), [(3, 5)], {}),
    ("pairwise_distance", fn(lambda x: F.pairwise_distance(x[:2], x[1:])), [(3, 5)], {}),
    ("cdist", fn(lambda x: torch.cdist(x, x * 2)), [(1, 4, 3)], {}),
    ("logsumexp", fn(lambda x: torch.logsumexp(x, dim=1)), [(3, 5)], {}),
    ("softmax, log_softmax, softmin", fn(lambda x: torch.cat([F.softmax(x, 0), F.log_softmax(x, 2),
                                                               F.softmin(x, 1)], 1)), [(2, 3, 4)], {}),
    ("baddbmm", fn(lambda x: torch.baddbmm(x, x, x.transpose(1, 2), beta=0.5, alpha=2.0)), [(2, 3, 3)], {}),
    ("addmm", fn(lambda x: torch.addmm(x[:, :2], x, x.t()[:, :2], beta=0.3, alpha=1.5)), [(3, 3)], {}),
    ("tril and triu", fn(lambda x: torch.tril(x, -1) + torch.triu(x, 2)), [(2, 5, 5)], {"first_opset": 14}),
    ("repeat_interleave", fn(lambda x: x.repeat_interleave(2, dim=1)), [(2, 3)], {}),
    ("repeat", fn(lambda x: x.repeat(2, 1, 3)), [(2, 3)], {}),
    ("expand", fn(lambda x: x[:, :1].expand(3, 4) * x), [(3, 4)], {}),
    ("chunk and stack", fn(lambda x: torch.stack(torch.chunk(x, 3, dim=1), dim=0).sum(0)), [(2, 9)], {}),
    ("strided slices", fn(lambda x: x[:, 1::2, 1:-1:3]), [(2, 7, 9)], {}),
    ("arange and new_ones", fn(lambda x: x + torch.arange(x.shape[-1]).float() * 0.1 + x.new_ones(x.shape[-1])),
     [(2, 5)], {}),
    ("arange at opset 9 (NonZero of ones)", fn(lambda x: x + torch.arange(x.shape[-1]).float()), [(2, 5)],
     {"first_opset": 9, "last_opset": 9}),
    ("interpolate bilinear at opsets 9 and 10 (Upsample, Resize)",
     fn(lambda x: F.interpolate(x, scale_factor=2, mode="bilinear")), [(1, 2, 4, 5)],
     {"first_opset": 9, "last_opset": 10, "peer": "ort",
      "why": "below opset 11 PyTorch 1.13 exports it with asymmetric coordinates, not its half-pixel ones"}),
    ("MultiheadAttention with a key padding mask", with_modules(
        lambda ms, x: ms[0](x, x, x, key_padding_mask=torch.tensor([[False, False, True, True, False]]),
                            need_weights=False)[0], lambda: nn.MultiheadAttention(8, 2)), [(5, 1, 8)], {}),
    ("MultiheadAttention weights", with_modules(lambda ms, x: ms[0](x, x, x, need_weights=True)[1],
                                                lambda: nn.MultiheadAttention(8, 2)), [(5, 1, 8)], {}),
    ("LSTM 2 layers bidirectional", with_modules(lambda ms, x: ms[0](x)[0],
                                                 lambda: nn.LSTM(4, 6, num_layers=2, bidirectional=True)),
     [(5, 2, 4)], {}),
    ("GRU batch_first 2 layers, last state", with_modules(lambda ms, x: ms[0](x)[1],
                                                          lambda: nn.GRU(4, 5, batch_first=True, num_layers=2)),
     [(2, 5, 4)], {}),
    ("RNN relu bidirectional", with_modules(lambda ms, x: ms[0](x)[0],
                                            lambda: nn.RNN(4, 5, nonlinearity="relu", bidirectional=True)),
     [(5, 2, 4)], {}),
    ("EmbeddingBag mean", with_modules(
        lambda ms, x: ms[0](torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4])) * x,
        lambda: nn.EmbeddingBag(10, 3, mode="mean")), [(2, 3)], {}),
    ("det", fn(lambda x: torch.linalg.det(x)), [(3, 4, 4)], {}),
    ("grid_sample", with_modules(lambda ms, x: F.grid_sample(x, ms[0].weight.view(1, 3, 4, 2), align_corners=False),
                                 lambda: nn.Linear(1, 24)), [(1, 2, 5, 6)], {"first_opset": 16}),
    ("integer floor division and remainder",
     fn(lambda x: ((x * 10).long() // 3 % 4 + (x * 10).long().abs()).float()), [(3, 4)], {}),
    ("div rounding modes", fn(lambda x: torch.div(x * 10 - 5, 3, rounding_mode="floor") +
                              torch.div(x * 10 - 5, 3, rounding_mode="trunc")), [(3, 4)], {}),
    ("round and sign", fn(lambda x: torch.round(x * 5) + torch.sign(x - 0.5)), [(3, 4)], {}),
    ("powers and logs", fn(lambda x: torch.pow(x.abs() + 0.1, 2.5) + torch.rsqrt(x.abs() + 1) + x ** 3 +
                           torch.log1p(x.abs())), [(3, 4)], {}),
    ("trigonometry and erf", fn(lambda x: torch.sin(x) + torch.tan(x) + torch.atan(x) + torch.acos(x) +
                                torch.erf(x)), [(3, 4)], {}),
    ("isinf and isfinite (a Cast to double)", fn(lambda x: torch.isinf(1 / (x - x[0:1])).float() +
                                                 torch.isfinite(x).float()), [(3, 4)], {}),
    ("boolean logic", fn(lambda x: ((x > 0.2) & (x < 0.7) | ~(x > 0.9) ^ (x > 0.5)).float() + torch.isnan(x).float()),
     [(3, 4)], {}),
    ("reductions", fn(lambda x: x.amax(dim=(1, 2)) - x.amin(dim=0).sum() + x.prod(dim=1).sum() +
                      x.mean((0, 2), keepdim=True).sum()), [(2, 3, 4)], {}),
    ("two inputs", fn(lambda x, y: torch.matmul(x, y).relu() + y.sum()), [(2, 3, 4), (2, 4, 5)], {}),
    ("Embedding with padding_idx", with_modules(lambda ms, x: ms[0]((x * 9).long()),
                                                lambda: nn.Embedding(10, 3, padding_idx=0)), [(2, 4)], {}),
    ("pad reflect 1-D", fn(lambda x: F.pad(x, (2, 1), mode="reflect")), [(1, 2, 5)], {}),
    ("pad replicate 3-D", fn(lambda x: F.pad(x, (1, 2, 0, 1, 2, 0), mode="replicate")), [(1, 1, 3, 4, 5)], {}),
    ("pad constant, negative pads", fn(lambda x: F.pad(x, (-1, 2, 1, -1), value=0.5)), [(1, 2, 4, 5)], {}),
    ("one_hot", fn(lambda x: F.one_hot((x * 4).long(), 5).float()), [(2, 3)], {}),
    ("nn.Transformer", with_modules(lambda ms, x: ms[0](x, x[:3]),
                                    lambda: nn.Transformer(16, 2, 1, 1, 32, dropout=0.0)), [(5, 2, 16)], {}),
    ("avg_pool1d and max_pool1d", fn(lambda x: F.avg_pool1d(x, 3, 2, 1) + F.max_pool1d(x, 3, 2, 1)), [(1, 2, 9)], {}),
    ("max_pool2d indices", fn(lambda x: F.max_pool2d(x, 2, return_indices=True)[1].float()), [(1, 2, 4, 6)], {}),
    ("adaptive_avg_pool1d", fn(lambda x: F.adaptive_avg_pool1d(x, 4)), [(1, 2, 8)], {}),
    ("interpolate bilinear, recompute_scale_factor",
     fn(lambda x: F.interpolate(x, scale_factor=1.3, mode="bilinear", recompute_scale_factor=True)), [(1, 2, 5, 7)], {}),
    ("meshgrid", fn(lambda x: torch.stack(torch.meshgrid(x[0], x[1, :3], indexing="ij"))), [(2, 4)], {}),
    ("cross", fn(lambda x: torch.cross(x[:, :3], x[:, 3:], dim=1)), [(4, 6)], {}),
    ("outer", fn(lambda x: torch.outer(x[0], x[1])), [(2, 4)], {"first_opset": 12}),
    ("vector_norm and matrix_norm", fn(lambda x: torch.linalg.vector_norm(x, ord=3, dim=2) +
                                       torch.linalg.matrix_norm(x).unsqueeze(-1)), [(2, 3, 4)], {}),
    ("cross_entropy", fn(lambda x: F.cross_entropy(x, torch.tensor([1, 0, 3]))), [(3, 5)], {"first_opset": 12}),
    ("nll_loss with class weights", fn(lambda x: F.nll_loss(F.log_softmax(x, 1), torch.tensor([1, 0, 3]),
                                                            weight=torch.tensor([1.0, 2, 3, 4, 5]))), [(3, 5)],
     {"first_opset": 12}),
    ("binary_cross_entropy_with_logits", fn(lambda x: F.binary_cross_entropy_with_logits(x[0], x[1])), [(2, 5)],
     {"first_opset": 12}),
    ("kl_div", fn(lambda x: F.kl_div(F.log_softmax(x[0], 0), F.softmax(x[1], 0), reduction="batchmean")), [(2, 5)], {}),
    ("var_mean", fn(lambda x: torch.cat(torch.var_mean(x, 1, keepdim=True), 1)), [(2, 5)], {}),
    ("BatchNorm1d", layer(nn.BatchNorm1d(3)), [(4, 3, 5)], {}),
    ("Conv2d groups, no bias, per-axis stride and dilation",
     layer(nn.Conv2d(4, 8, 3, groups=2, bias=False, stride=(1, 2), dilation=(2, 1))), [(1, 4, 9, 9)], {}),
    ("split by sizes", fn(lambda x: torch.cat([p * (i + 1) for i, p in enumerate(torch.split(x, [1, 3, 2], dim=1))],
                                              1)), [(2, 6)], {}),
    ("narrow, select, movedim", fn(lambda x: torch.movedim(x.narrow(1, 1, 2).select(0, 1), 0, -1)), [(3, 4, 5)], {}),
    ("softmax after a -inf mask", fn(lambda x: F.softmax(x.masked_fill(torch.tensor([[True, False, False, True, False]]),
                                                                       float("-inf")), -1)), [(3, 5)], {}),
    ("clamp by tensors", fn(lambda x: torch.clamp(x, min=x[0:1] * 0.5, max=x[0:1] + 0.1)), [(3, 4)],
     {"first_opset": 12}),
    ("max over an axis with indices", fn(lambda x: torch.max(x, 1)[0] + torch.max(x, 1)[1].float()), [(3, 4)], {}),
    ("floor, ceil, remainder, fmod", fn(lambda x: torch.floor(x * 3) + torch.ceil(x * 2) +
                                        torch.remainder(x * 7 - 3, 2) + torch.fmod(x * 7 - 3, 2)), [(3, 4)], {}),
    ("integer sum", fn(lambda x: (x * 10).int().sum(1).float()), [(3, 4)], {}),
    ("argsort", fn(lambda x: torch.argsort(x, 1).float()), [(3, 4)], {}),
]


def main():
    cli, work, backend = sys.argv[1], sys.argv[2], sys.argv[3]
    names = sys.argv[4:]
    cases = shard([c for c in CASES if not names or c[0] in names])
    os.makedirs(work, exist_ok=True)
    ort = peers.ort_available()
    passed, failed = 0, []
    for i, (name, make, shapes, options) in enumerate(cases):
        torch.manual_seed(i)
        module = make().eval()
        xs = [torch.rand(*s) for s in shapes]
        with torch.no_grad():
            expected = module(*xs).numpy()
        feeds = {}
        for k, x in enumerate(xs):
            feeds[f"x{k}"] = os.path.join(work, f"case{i}_x{k}.npy")
            np.save(feeds[f"x{k}"], x.numpy())
        first, last = options.get("first_opset", 11), options.get("last_opset", 99)
        for opset in [o for o in OPSETS if first <= o <= last] or [first]:
            label = f"{name} (opset {opset})"
            path = os.path.join(work, f"case{i}_{opset}.onnx")
            try:
                with torch.no_grad():
                    torch.onnx.export(module, tuple(xs), path, input_names=list(feeds), output_names=["y"],
                                      opset_version=opset)
            except Exception as e:  # the case's opsets are wrong: PyTorch cannot export it there
                print(f"FAIL {label}: torch.onnx.export: {str(e).splitlines()[0]}")
                failed.append(label)
                continue
            got = peers.run_webnn(cli, path, feeds, os.path.join(work, f"case{i}_{opset}_{backend}"), backend)
            if "refused" in options:
                ok = isinstance(got, str) and options["refused"] in got
                print(f"{'PASS' if ok else 'FAIL'} {label} refused ({options['why']})" + ("" if ok else f": {got}"))
            elif isinstance(got, str):
                ok = False
                print(f"FAIL {label}: webnn run: {got}")
            elif options.get("peer") == "ort":
                theirs = peers.run_ort(path, feeds, os.path.join(work, f"case{i}_{opset}_ort")) if ort else \
                    "ONNX Runtime is not installed (scripts/setup.sh)"
                ratio = float("inf") if isinstance(theirs, str) else peers.relative_difference(got["y"], theirs["y"])
                ok = ratio <= 1e-4
                print(f"{'PASS' if ok else 'FAIL'} {label} against ONNX Runtime: "
                      f"{theirs if isinstance(theirs, str) else f'{ratio:.3g}'} ({options['why']})")
            else:
                ratio = peers.relative_difference(got["y"], expected)
                ok = ratio <= 1e-4 or float(np.abs(got["y"].astype(np.float64) - expected).max()) <= 1e-6
                print(f"{'PASS' if ok else 'FAIL'} {label}: max |diff| / max |value| = {ratio:.3g}")
            passed += ok
            if not ok:
                failed.append(label)
    print(f"{passed} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
