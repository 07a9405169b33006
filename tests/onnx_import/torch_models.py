#!/usr/bin/python3
"""Real networks exported by Debian's PyTorch, imported and run by webnn.

Each network is built with seeded random weights, exported with torch.onnx.export, run by
`webnn run model.onnx` on the given backend and compared with PyTorch's own output: the largest
absolute difference must be at most 1e-4 x the largest absolute value. When ONNX Runtime is
installed (tools/ort), our output must match its output of the same model within the same bound.

Each model also goes ONNX -> .webnn -> JSON through `webnn convert` and must give the same JSON as
ONNX -> JSON directly: every name PyTorch wrote (`onnx::Conv_251`, `/layer1/Relu_output_0`, ...)
survives the text form's name rule (docs/formats.md, "Names in the text form").

Usage: torch_models.py WEBNN_CLI WORK_DIR BACKEND [--all | NAME...]
--all adds the torchvision sweep (EXTENDED: 21 more networks, a few minutes a backend; the figures
are in docs/onnx.md, "Real models"); CI runs MODELS.
Exits 77 (skipped) when torch or torchvision is not installed (scripts/setup.sh installs them).
"""
import json
import os
import re
import subprocess
import sys

import peers
from shard import shard

try:
    import numpy as np
    import torch
    import torchvision
except ImportError as e:  # pragma: no cover - the skip path
    print(f"skipped: {e}")
    sys.exit(77)


class LstmModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(input_size=16, hidden_size=32, num_layers=2)
        self.head = torch.nn.Linear(32, 10)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.head(y[-1])


class CausalLm(torch.nn.Module):
    """A GPT-style language model: token and position embeddings, pre-norm blocks with a causal
    mask (torch.triu: opset 14), a head over the vocabulary. Its input is token ids as floats."""

    def __init__(self, vocab=100, d=64, heads=4, layers=2):
        super().__init__()
        self.tok = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Embedding(16, d)
        block = torch.nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu", norm_first=True)
        self.blocks = torch.nn.TransformerEncoder(block, layers)
        self.norm = torch.nn.LayerNorm(d)
        self.head = torch.nn.Linear(d, vocab)

    def forward(self, x):
        ids = x.long()
        t = ids.shape[1]
        h = self.tok(ids) + self.pos(torch.arange(t).unsqueeze(0))
        mask = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
        return self.head(self.norm(self.blocks(h.transpose(0, 1), mask=mask).transpose(0, 1)))


class EinsumAttention(torch.nn.Module):
    """Attention written with torch.einsum (the scores, the weighted values, a diagonal)."""

    def __init__(self, d=32, heads=4):
        super().__init__()
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.heads = heads

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / (d // self.heads) ** 0.5
        y = torch.einsum("bhqk,bkhd->bqhd", scores.softmax(-1), v).reshape(b, t, d)
        return y + torch.einsum("bhii->bi", scores).sum(-1, keepdim=True).unsqueeze(-1)


class AudioNet(torch.nn.Module):
    """1-D convolutions over a waveform (strided, dilated), GroupNorm and InstanceNorm1d, a
    bidirectional GRU and a log-softmax per frame."""

    def __init__(self):
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv1d(1, 32, 10, stride=5), torch.nn.GroupNorm(8, 32), torch.nn.GELU(),
            torch.nn.Conv1d(32, 64, 3, stride=2, padding=1), torch.nn.GELU(),
            torch.nn.Conv1d(64, 64, 3, padding=2, dilation=2), torch.nn.InstanceNorm1d(64, affine=True),
            torch.nn.SiLU())
        self.gru = torch.nn.GRU(64, 48, batch_first=True, bidirectional=True)
        self.head = torch.nn.Linear(96, 12)

    def forward(self, x):
        y, _ = self.gru(self.features(x).transpose(1, 2))
        return torch.log_softmax(self.head(y), dim=-1)


class UNet(torch.nn.Module):
    """A small U-Net: max pools down, a transposed convolution and a bilinear upsample up, skip
    connections by concatenation, PixelShuffle before the last convolution."""

    def __init__(self):
        super().__init__()

        def block(i, o):
            return torch.nn.Sequential(torch.nn.Conv2d(i, o, 3, padding=1), torch.nn.BatchNorm2d(o), torch.nn.ReLU())

        self.e1, self.e2, self.e3 = block(3, 16), block(16, 32), block(32, 64)
        self.up = torch.nn.ConvTranspose2d(64, 32, 2, stride=2)
        self.d1, self.d2 = block(64, 32), block(48, 16)
        self.shuffle = torch.nn.PixelShuffle(2)
        self.out = torch.nn.Conv2d(4, 2, 1)

    def forward(self, x):
        pool = torch.nn.functional.max_pool2d
        a = self.e1(x)
        b = self.e2(pool(a, 2))
        d = self.d1(torch.cat([self.up(self.e3(pool(b, 2))), b], 1))
        d = torch.nn.functional.interpolate(d, scale_factor=2, mode="bilinear", align_corners=False)
        return torch.sigmoid(self.out(self.shuffle(self.d2(torch.cat([d, a], 1)))))


def transformer_layer():
    # batch_first=False: PyTorch 1.13 cannot export the batch-first fast path.
    return torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, dropout=0.0)


# name -> (constructor, input shape[, opset]); "ids" is a (1, 16) input of token ids as floats.
MODELS = {
    "resnet18": (lambda: torchvision.models.resnet18(), (1, 3, 224, 224)),
    "mobilenet_v3_small": (lambda: torchvision.models.mobilenet_v3_small(), (1, 3, 224, 224)),
    "squeezenet1_1": (lambda: torchvision.models.squeezenet1_1(), (1, 3, 224, 224)),
    "efficientnet_b0": (lambda: torchvision.models.efficientnet_b0(), (1, 3, 224, 224)),
    "shufflenet_v2_x1_0": (lambda: torchvision.models.shufflenet_v2_x1_0(), (1, 3, 224, 224)),
    "transformer_encoder_layer": (transformer_layer, (10, 2, 64)),
    "lstm": (LstmModel, (7, 3, 16)),
    "swin_t": (lambda: torchvision.models.swin_t(), (1, 3, 224, 224)),
    "causal_lm": (CausalLm, "ids", 14),
    "einsum_attention": (EinsumAttention, (2, 6, 32)),
    "audio_conv1d_gru": (AudioNet, (2, 1, 4000)),
    "unet": (UNet, (1, 3, 64, 64)),
}


class MainOutput(torch.nn.Module):
    """A segmentation network's "out" output (they return a dict)."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x)["out"]


def torchvision_model(name, **kwargs):
    return lambda: getattr(torchvision.models, name)(**kwargs)


def segmentation_model(name):
    return lambda: MainOutput(getattr(torchvision.models.segmentation, name)(weights_backbone=None))


def video_model(name):
    return lambda: getattr(torchvision.models.video, name)()


# The torchvision sweep (--all): every classification family, segmentation and video network of
# torchvision 0.14 that exports at opset 13 (ViT-B/16 only with gradients on: the no-grad export
# takes a fused attention PyTorch 1.13 cannot export).
EXTENDED = {
    "alexnet": (torchvision_model("alexnet"), (1, 3, 224, 224)),
    "vgg11_bn": (torchvision_model("vgg11_bn"), (1, 3, 224, 224)),
    "googlenet": (torchvision_model("googlenet", aux_logits=False, init_weights=True), (1, 3, 224, 224)),
    "inception_v3": (torchvision_model("inception_v3", aux_logits=False, init_weights=True), (1, 3, 299, 299)),
    "densenet121": (torchvision_model("densenet121"), (1, 3, 224, 224)),
    "mnasnet0_5": (torchvision_model("mnasnet0_5"), (1, 3, 224, 224)),
    "mobilenet_v2": (torchvision_model("mobilenet_v2"), (1, 3, 224, 224)),
    "mobilenet_v3_large": (torchvision_model("mobilenet_v3_large"), (1, 3, 224, 224)),
    "regnet_y_400mf": (torchvision_model("regnet_y_400mf"), (1, 3, 224, 224)),
    "resnext50_32x4d": (torchvision_model("resnext50_32x4d"), (1, 3, 224, 224)),
    "convnext_tiny": (torchvision_model("convnext_tiny"), (1, 3, 224, 224)),
    "vit_b_16": (torchvision_model("vit_b_16"), (1, 3, 224, 224)),
    "maxvit_t": (torchvision_model("maxvit_t"), (1, 3, 224, 224)),
    "efficientnet_v2_s": (torchvision_model("efficientnet_v2_s"), (1, 3, 224, 224)),
    "fcn_resnet50": (segmentation_model("fcn_resnet50"), (1, 3, 224, 224)),
    "deeplabv3_mobilenet_v3_large": (segmentation_model("deeplabv3_mobilenet_v3_large"), (1, 3, 224, 224)),
    "lraspp_mobilenet_v3_large": (segmentation_model("lraspp_mobilenet_v3_large"), (1, 3, 224, 224)),
    "r3d_18": (video_model("r3d_18"), (1, 3, 8, 112, 112)),
    "r2plus1d_18": (video_model("r2plus1d_18"), (1, 3, 8, 112, 112)),
    "s3d": (video_model("s3d"), (1, 3, 16, 224, 224)),
}
EXPORTED_WITH_GRADIENTS = {"vit_b_16"}


IDENTIFIER = re.compile(r"[A-Za-z_/$][A-Za-z0-9_./]*")


def check_names(cli, path, work, name):
    """ONNX -> .webnn -> JSON equals ONNX -> JSON, and keeps the model's names; returns an error or None."""
    stem = os.path.join(work, name + "_names")
    steps = [[path, "--to", "webnn", stem + ".webnn"], [stem + ".webnn", "--to", "json", stem + "_via_text.json"],
             [path, "--to", "json", stem + "_direct.json"]]
    for step in steps:
        r = subprocess.run([cli, "convert"] + step, capture_output=True, text=True)
        if r.returncode != 0:
            return f"webnn convert {' '.join(step)}: {r.stderr.strip()}"
    with open(stem + "_via_text.json") as f:
        via_text = json.load(f)
    with open(stem + "_direct.json") as f:
        direct = json.load(f)
    if via_text != direct:
        return "ONNX -> .webnn -> JSON differs from ONNX -> JSON"
    names = set(direct["inputs"]) | set(direct["consts"]) | {o for n in direct["nodes"] for o in n["outputs"]}
    awkward = sorted(n for n in names if not IDENTIFIER.fullmatch(n))
    print(f"PASS {name}: ONNX -> .webnn -> JSON keeps all {len(names)} names "
          f"({len(awkward)} not identifiers, e.g. {', '.join(awkward[:3])})")
    return None


def main():
    cli, work, backend = sys.argv[1], sys.argv[2], sys.argv[3]
    every = {**MODELS, **EXTENDED}
    args = sys.argv[4:]
    names = shard(list(every) if args == ["--all"] else args or list(MODELS))
    unknown = [n for n in names if n not in every]
    if unknown:
        raise SystemExit(f"unknown model(s): {', '.join(unknown)}; known: {', '.join(every)}")
    os.makedirs(work, exist_ok=True)
    ort = peers.ort_available()
    if not ort:
        print("ONNX Runtime comparison skipped: node or onnxruntime-node missing (scripts/setup.sh)")
    failed = set()
    for name in names:
        make, shape, opset = (every[name] + (13,))[:3]
        torch.manual_seed(0)
        model = make().eval()
        # Batch-norm statistics of a trained network rather than the identity ones of a fresh
        # one, so that the signal keeps its scale through the deep networks.
        for m in model.modules():
            if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.data.uniform_(0.8, 1.2)
                m.bias.data.uniform_(-0.1, 0.1)
            # A classifier head that starts at zero (ViT's) would make every output 0.
            if isinstance(m, torch.nn.Linear) and not m.weight.detach().any():
                m.weight.data.normal_(0, 0.02)
        x = torch.randint(0, 100, (1, 16)).float() if shape == "ids" else torch.randn(*shape)
        with torch.no_grad():
            expected = model(x).numpy()
        path = os.path.join(work, name + ".onnx")
        with torch.set_grad_enabled(name in EXPORTED_WITH_GRADIENTS):
            torch.onnx.export(model, (x,), path, input_names=["x"], output_names=["y"], opset_version=opset)
        np.save(os.path.join(work, name + "_x.npy"), x.numpy())
        error = check_names(cli, path, work, name)
        if error:
            print(f"FAIL {name}: names: {error}")
            failed.add(name)
        feeds = {"x": os.path.join(work, name + "_x.npy")}
        got = peers.run_webnn(cli, path, feeds, os.path.join(work, name + "_" + backend), backend)
        if isinstance(got, str):
            print(f"FAIL {name}: webnn run: {got}")
            failed.add(name)
            continue
        got = got["y"]
        ratio = peers.relative_difference(got, expected)
        ok = ratio <= 1e-4
        print(f"{'PASS' if ok else 'FAIL'} {name}: max |diff| / max |value| = {ratio:.3g} "
              f"(max |value| = {float(np.abs(expected).max()):.3g})")
        if not ok:
            failed.add(name)
        if ort:
            theirs = peers.run_ort(path, feeds, os.path.join(work, name + "_ort"))
            if isinstance(theirs, str):
                print(f"FAIL {name}: ONNX Runtime: {theirs}")
                failed.add(name)
                continue
            # Against ONNX Runtime's output, on PyTorch's scale (the bound above).
            d = float(np.abs(got.astype(np.float64) - theirs["y"]).max())
            ok = d <= 1e-4 * float(np.abs(expected).max())
            print(f"{'PASS' if ok else 'FAIL'} {name} against ONNX Runtime: max |diff| = {d:.3g}")
            if not ok:
                failed.add(name)
    print(f"{len(names) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
