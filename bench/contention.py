#!/usr/bin/python3
"""MobileNetV2 with every core asked for, on a quiet machine and beside one busy process.

A user's machine is rarely idle: a browser runs other tabs, a server other models. With
--threads equal to the cores and one of them taken by another process, a team of OpenMP threads
that each own a static share of every primitive waits, at every barrier, for the member that the
scheduler has put behind the other process. This prints, in one run, `webnn bench` (oneDNN)
under libgomp's default wait policy and under OMP_WAIT_POLICY=passive, and ONNX Runtime
(tools/ort) on the ONNX export of the same graph, each quiet and beside a busy-looping process
pinned to nothing (the scheduler places it); medians over --rounds alternating rounds of the p50
of --iterations runs (docs/onednn.md, "Sharing the machine").

    bench/contention.py [--rounds 5] [--iterations 50] [--threads N] [--busy 1]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def p50_of(cmd, env=None):
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    return float(re.search(r"p50_ms=([\d.]+)", out).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--busy", type=int, default=1, help="busy-looping processes beside the run")
    ap.add_argument("--build", default=os.environ.get("WEBNN_BUILD_DIR", ROOT / "build"))
    ap.add_argument("--shared", default=os.environ.get("WEBNN_SHARED_DIR", ROOT.parent / "shared"))
    args = ap.parse_args()

    model = Path(args.shared) / "models" / "mobilenetv2"
    cli = Path(args.build) / "webnn"
    ort = ROOT / "tools" / "ort" / "ort_run.mjs"
    have_ort = (ROOT / "tools" / "ort" / "node_modules" / "onnxruntime-node").is_dir()
    tmp = Path(tempfile.mkdtemp(prefix="webnn-contention-"))
    onnx = tmp / "mobilenetv2.onnx"
    subprocess.run([cli, "convert", model / "mobilenetv2.json", "--to", "onnx", onnx], check=True, capture_output=True)
    inp = f"input={model / 'input.npy'}"
    common = ["--iterations", str(args.iterations), "--warmup", "5", "--threads", str(args.threads)]

    def env_with(**extra):
        env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
        env.update(extra)
        return env

    runs = {
        "webnn onednn, libgomp default": lambda: p50_of(
            [cli, "bench", model / "mobilenetv2.json", "--input", inp, "--backend", "onednn", *common], env_with()),
        "webnn onednn, OMP_WAIT_POLICY=passive": lambda: p50_of(
            [cli, "bench", model / "mobilenetv2.json", "--input", inp, "--backend", "onednn", *common],
            env_with(OMP_WAIT_POLICY="passive")),
    }
    if have_ort:
        runs["onnxruntime-node"] = lambda: p50_of(["node", ort, "bench", onnx, "--input", inp, *common])

    results = {(name, load): [] for name in runs for load in ("quiet", "busy")}
    for r in range(args.rounds):
        for load in ("quiet", "busy"):
            burners = []
            if load == "busy":
                burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
            try:
                for name, run in runs.items():
                    results[(name, load)].append(run())
            finally:
                for b in burners:
                    b.kill()
                    b.wait()
        print(f"round {r + 1}/{args.rounds}", file=sys.stderr)

    print(f"MobileNetV2, {args.threads} threads on {os.cpu_count()} cores, busy processes: {args.busy}, "
          f"rounds={args.rounds} iterations={args.iterations}; median of the rounds' p50 (ms)")
    print("| run | quiet | beside busy | busy / quiet |")
    print("|---|---:|---:|---:|")
    for name in runs:
        q = statistics.median(results[(name, "quiet")])
        b = statistics.median(results[(name, "busy")])
        print(f"| {name} | {q:.2f} | {b:.2f} | {b / q:.1f}x |")
    onnx.unlink()
    tmp.rmdir()


if __name__ == "__main__":
    main()
