"""Running an ONNX model with `webnn run` and with ONNX Runtime (tools/ort/ort_run.mjs), for the
scripts that compare the two with PyTorch (torch_models.py, torch_functions.py)."""
import os
import subprocess

import numpy as np

ORT_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "ort", "ort_run.mjs")


def ort_available():
    """Whether node and onnxruntime-node are installed (scripts/setup.sh installs both)."""
    module = os.path.join(os.path.dirname(ORT_SCRIPT), "node_modules", "onnxruntime-node")
    node = subprocess.run(["sh", "-c", "command -v node"], capture_output=True).returncode == 0
    return os.path.exists(module) and node


def run(command, feeds, out_dir):
    """Runs `command` (a `webnn run MODEL ...` or `ort_run.mjs run MODEL` line) with the .npy files
    of `feeds` ({input name: path}); returns {output name: array}, or the error as a string."""
    args = list(command)
    for name, path in feeds.items():
        args += ["--input", f"{name}={path}"]
    r = subprocess.run(args + ["--output-dir", out_dir], capture_output=True, text=True)
    if r.returncode != 0:
        return r.stderr.strip()[-400:] or f"exit status {r.returncode}"
    return {f[:-4]: np.load(os.path.join(out_dir, f)) for f in os.listdir(out_dir) if f.endswith(".npy")}


def run_webnn(cli, model, feeds, out_dir, backend):
    return run([cli, "run", model, "--backend", backend], feeds, out_dir)


def run_ort(model, feeds, out_dir):
    return run(["node", ORT_SCRIPT, "run", model], feeds, out_dir)


def relative_difference(got, want):
    """Largest |got - want| over the largest |want| (inf for another shape; the difference itself
    when want is all 0)."""
    if got.shape != want.shape:
        return float("inf")
    scale = float(np.abs(want).max()) if want.size else 0.0
    diff = float(np.abs(got.astype(np.float64) - want).max()) if want.size else 0.0
    return diff / scale if scale else diff
