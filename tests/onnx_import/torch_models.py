#!/usr/bin/python3
"""Real networks exported by Debian's PyTorch, imported and run by webnn.

Each network is built with seeded random weights, exported with torch.onnx.export, run by
`webnn run model.onnx` on the given backend and compared with PyTorch's own output: the largest
absolute difference must be at most 1e-4 x the largest absolute value. When ONNX Runtime is
installed (tools/ort), our output must match its output of the same model within the same bound.

Each model also goes ONNX -> .webnn -> JSON through `webnn convert` and must give the same JSON as
ONNX -> JSON directly: every name PyTorch wrote (`onnx::Conv_251`, `/layer1/Relu_output_0`, ...)
survives the text form's name rule (docs/formats.md, "Names in the text form").

Usage: torch_models.py WEBNN_CLI WORK_DIR BACKEND [NAME...]
Exits 77 (skipped) when torch or torchvision is not installed (scripts/setup.sh installs them).
"""
import json
import os
import re
import subprocess
import sys

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


def transformer_layer():
    # batch_first=False: PyTorch 1.13 cannot export the batch-first fast path.
    return torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, dropout=0.0)


# name -> (constructor, input shape)
MODELS = {
    "resnet18": (lambda: torchvision.models.resnet18(), (1, 3, 224, 224)),
    "mobilenet_v3_small": (lambda: torchvision.models.mobilenet_v3_small(), (1, 3, 224, 224)),
    "squeezenet1_1": (lambda: torchvision.models.squeezenet1_1(), (1, 3, 224, 224)),
    "efficientnet_b0": (lambda: torchvision.models.efficientnet_b0(), (1, 3, 224, 224)),
    "shufflenet_v2_x1_0": (lambda: torchvision.models.shufflenet_v2_x1_0(), (1, 3, 224, 224)),
    "transformer_encoder_layer": (transformer_layer, (10, 2, 64)),
    "lstm": (LstmModel, (7, 3, 16)),
}


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
    names = shard(sys.argv[4:] or list(MODELS))
    os.makedirs(work, exist_ok=True)
    # ONNX Runtime (tools/ort) when node and onnxruntime-node are installed.
    ort = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "ort", "ort_run.mjs")
    ort_module = os.path.join(os.path.dirname(ort), "node_modules", "onnxruntime-node")
    if not (os.path.exists(ort_module) and subprocess.run(["sh", "-c", "command -v node"], capture_output=True).returncode == 0):
        print("ONNX Runtime comparison skipped: node or onnxruntime-node missing (scripts/setup.sh)")
        ort = None
    failed = []
    for name in names:
        make, shape = MODELS[name]
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
        x = torch.randn(*shape)
        with torch.no_grad():
            expected = model(x).numpy()
        path = os.path.join(work, name + ".onnx")
        with torch.no_grad():
            torch.onnx.export(model, (x,), path, input_names=["x"], output_names=["y"], opset_version=13)
        np.save(os.path.join(work, name + "_x.npy"), x.numpy())
        error = check_names(cli, path, work, name)
        if error:
            print(f"FAIL {name}: names: {error}")
            failed.append(name)
        out_dir = os.path.join(work, name + "_" + backend)
        r = subprocess.run([cli, "run", path, "--input", f"x={os.path.join(work, name + '_x.npy')}",
                            "--output-dir", out_dir, "--backend", backend], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL {name}: webnn run: {r.stderr.strip()}")
            failed.append(name)
            continue
        got = np.load(os.path.join(out_dir, "y.npy"))
        scale = float(np.abs(expected).max())
        diff = float(np.abs(got.astype(np.float64) - expected).max()) if got.shape == expected.shape else float("inf")
        ok = got.shape == expected.shape and diff <= 1e-4 * scale
        print(f"{'PASS' if ok else 'FAIL'} {name}: max |diff| = {diff:.3g}, max |value| = {scale:.3g}, "
              f"ratio = {diff / scale if scale else diff:.3g}")
        if not ok:
            failed.append(name)
        if ort:
            ort_dir = os.path.join(work, name + "_ort")
            r = subprocess.run(["node", ort, "run", path, "--input", f"x={os.path.join(work, name + '_x.npy')}",
                                "--output-dir", ort_dir], capture_output=True, text=True)
            if r.returncode != 0:
                print(f"FAIL {name}: ONNX Runtime: {r.stderr.strip()[-300:]}")
                failed.append(name)
                continue
            theirs = np.load(os.path.join(ort_dir, "y.npy"))
            d = float(np.abs(got.astype(np.float64) - theirs).max())
            ok = d <= 1e-4 * scale
            print(f"{'PASS' if ok else 'FAIL'} {name} against ONNX Runtime: max |diff| = {d:.3g}")
            if not ok:
                failed.append(name)
    print(f"{len(names) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
