#!/usr/bin/python3
"""ONNX import against our own graph files: MobileNetV2 (../shared/models/mobilenetv2) loaded from
its JSON graph + weights and from its ONNX export (`webnn convert ... --to onnx`), each run by
`webnn bench` in the same run, alternating, on the same input. Prints one Markdown table: the
median over --rounds processes of the load time (`load_ms`: reading and building the IR, the ONNX
import for the .onnx) and of each process's p50 run time, per backend, and the ratios .onnx / JSON.

    /usr/bin/python3 bench/onnx_import.py [--build build] [--shared ../shared] [--rounds 7]
                                          [--iterations 30] [--threads 2] [--backends onednn,reference]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from models import metrics, run  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(HERE), "..", "shared"))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--backends", default="onednn,reference")
    args = parser.parse_args()
    webnn = os.path.join(args.build, "webnn")
    graph = os.path.join(args.shared, "models", "mobilenetv2", "mobilenetv2.json")
    if not os.path.exists(graph):
        sys.exit(f"onnx_import: {graph} is missing (pass --shared DIR)")
    with tempfile.TemporaryDirectory() as work:
        onnx = os.path.join(work, "mobilenetv2.onnx")
        run([webnn, "convert", graph, "--to", "onnx", onnx])
        with open(graph) as f:
            inputs = json.load(f)["inputs"]
        feeds = []
        rng = np.random.default_rng(7)
        for name, desc in inputs.items():
            path = os.path.join(work, name + ".npy")
            np.save(path, rng.standard_normal(desc["shape"]).astype(np.float32))
            feeds += ["--input", f"{name}={path}"]
        print("| backend | load JSON (ms) | import .onnx (ms) | run JSON p50 (ms) | run .onnx p50 (ms) | "
              "load ratio | run ratio |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for backend in args.backends.split(","):
            iterations = args.iterations if backend != "reference" else max(3, args.iterations // 10)
            rows = {"json": [], "onnx": []}
            for _ in range(args.rounds):
                for form, path in (("json", graph), ("onnx", onnx)):
                    rows[form].append(metrics(run([webnn, "bench", path, "--backend", backend, "--iterations",
                                                   str(iterations), "--warmup", "3", "--threads",
                                                   str(args.threads)] + feeds)))

            def median(form, key):
                return statistics.median(r[key] for r in rows[form])

            load_json, load_onnx = median("json", "load_ms"), median("onnx", "load_ms")
            run_json, run_onnx = median("json", "p50_ms"), median("onnx", "p50_ms")
            print(f"| {backend} | {load_json:.1f} | {load_onnx:.1f} | {run_json:.2f} | {run_onnx:.2f} | "
                  f"{load_onnx / load_json:.1f} | {run_onnx / run_json:.3f} |")
        print(f"\nMobileNetV2, batch 1, {args.rounds} processes per row and form, alternating; medians of "
              f"load_ms and of each process's p50 over {args.iterations} runs (reference: "
              f"{max(3, args.iterations // 10)}), {args.threads} threads.")


if __name__ == "__main__":
    main()
