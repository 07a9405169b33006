#!/usr/bin/python3
"""The network benchmark: MobileNetV2 (../shared/models), the same MobileNetV2 converted to float16
(weights and input, by bench/to_float16.py) and quantized to int8 in QDQ form (per-channel int8
weights, uint8 activations calibrated on the shared input.npy, by bench/quantize.py), ResNet-50 and a
BERT-base encoder layer
(bench/networks.py, built through the Python API), each run by `webnn bench` on the onednn and
reference backends and by ONNX Runtime (tools/ort/ort_run.mjs) on the ONNX export of the very same
graph file, in the same run, batch 1, on the same input data. Prints one Markdown table.

    /usr/bin/python3 bench/models.py [--threads 2] [--rounds 5] [--iterations 50] [--build build]
                                     [--shared ../shared] [--networks mobilenetv2,resnet50,...]
                                     [--accuracy-count 65536]

onednn and ONNX Runtime alternate for --rounds rounds of --iterations timed runs each (after 5
warm-up runs), so that drift in the machine's speed falls on both; a row reports the median over
the rounds of each round's p50. The reference backend runs one round of fewer iterations. build is
the time of `build()` (oneDNN primitive creation and weight reordering) and of ONNX Runtime's
session creation; peak RSS is each process's high-water mark (VmHWM of /proc/self/status).

A float16 or int8 network's rounds also time its float32 original on onednn, so that the table's
float16 / float32 and int8 / float32 ratios compare runs taken side by side, and its embedding on the
shared input.npy is compared with the float32 one (cosine similarity). When ONNX Runtime cannot run a model (no CPU
kernel for a node), its row says so instead of a time.

Then the accuracy table of bench/accuracy.py --summary: every element-wise operation's largest
float32 ULP error against float64 on both backends and ONNX Runtime (--accuracy-count 0 leaves it
out).
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import accuracy  # noqa: E402
import networks  # noqa: E402

import quantize  # noqa: E402
import to_float16  # noqa: E402

NETWORKS = ["mobilenetv2", "mobilenetv2_float16", "mobilenetv2_int8", "resnet50", "bert_encoder"]
# float16 or int8 network -> its float32 original
ORIGINAL_OF = {"mobilenetv2_float16": "mobilenetv2", "mobilenetv2_int8": "mobilenetv2"}


def run(cmd, may_fail=False):
    """The command's stdout; on failure exits, or (may_fail) returns None and the output's last line."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        if may_fail:
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            return None, lines[-1] if lines else f"exit code {proc.returncode}"
        sys.exit(f"models: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return (proc.stdout, None) if may_fail else proc.stdout


def metrics(text):
    """The key=value tokens that `webnn bench` and `ort_run.mjs bench` print."""
    out = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        if sep:
            try:
                out[key] = float(value)
            except ValueError:
                out[key] = value
    return out


def prepare(name, args, webnn, work):
    """The graph file of network `name` and its input arguments (NAME=FILE.npy)."""
    if name == "mobilenetv2_int8":  # calibrated on the shared photo, timed on the float32 network's input
        graph32, feeds32 = prepare(ORIGINAL_OF[name], args, webnn, work)
        photo = os.path.join(args.shared, "models", "mobilenetv2", "input.npy")
        return quantize.quantize(graph32, os.path.join(work, name), [f"input={photo}"], args.webnn), feeds32
    if name in ORIGINAL_OF:
        graph32, feeds32 = prepare(ORIGINAL_OF[name], args, webnn, work)
        graph = to_float16.to_float16(graph32, os.path.join(work, name))
        feeds = []
        for feed in feeds32:
            input_name, _, npy = feed.partition("=")
            path = os.path.join(work, name, input_name + ".npy")
            to_float16.convert_npy(npy, path)
            feeds.append(f"{input_name}={path}")
        return graph, feeds
    if name == "mobilenetv2":
        graph = os.path.join(args.shared, "models", "mobilenetv2", "mobilenetv2.json")
        if not os.path.exists(graph):
            sys.exit(f"models: {graph} is missing (pass --shared DIR)")
        with open(graph) as f:
            inputs = json.load(f)["inputs"]
        feeds = []
        rng = np.random.default_rng(7)
        for input_name, desc in inputs.items():
            path = os.path.join(work, f"{name}_{input_name}.npy")
            np.save(path, rng.standard_normal(desc["shape"]).astype(np.float32))
            feeds.append(f"{input_name}={path}")
        return graph, feeds
    graph, _ = networks.write(webnn, name, os.path.join(work, name))
    return graph, [f"input={os.path.join(work, name, 'input.npy')}"]


def bench_network(name, args, webnn, work):
    graph, feeds = prepare(name, args, webnn, work)
    onnx = os.path.join(work, name + ".onnx")
    run([args.webnn, "convert", graph, "--to", "onnx", onnx])
    inputs = [a for feed in feeds for a in ("--input", feed)]
    common = ["--threads", str(args.threads), "--warmup", "5"] + inputs
    original = None
    if name in ORIGINAL_OF:  # the float32 original, timed in the same rounds
        graph32, feeds32 = prepare(ORIGINAL_OF[name], args, webnn, work)
        original = [graph32, "--backend", "onednn", "--iterations", str(args.iterations), "--threads",
                    str(args.threads), "--warmup", "5"] + [a for feed in feeds32 for a in ("--input", feed)]
    ours, ort, ours32 = [], [], []
    ort_error = None
    for _ in range(args.rounds):
        ours.append(metrics(run([args.webnn, "bench", graph, "--backend", "onednn", "--iterations",
                                 str(args.iterations)] + common)))
        if original:
            ours32.append(metrics(run([args.webnn, "bench"] + original)))
        if ort_error is None:
            out, ort_error = run([args.node, args.ort_tool, "bench", onnx, "--iterations", str(args.iterations)]
                                 + common, may_fail=True)
            if out is not None:
                ort.append(metrics(out))
    ref_iterations = max(3, args.iterations // 10)
    ref = metrics(run([args.webnn, "bench", graph, "--backend", "reference", "--iterations", str(ref_iterations),
                       "--threads", str(args.threads), "--warmup", "1"] + inputs))

    def median(rows, key):
        return statistics.median(r[key] for r in rows) if rows else None

    result = {
        "network": name,
        "onednn_ms": median(ours, "p50_ms"),
        "reference_ms": ref["p50_ms"],
        "ort_ms": median(ort, "p50_ms"),
        "ort_error": ort_error,
        "build_ms": median(ours, "build_ms"),
        "ort_build_ms": median(ort, "build_ms"),
        "rss_mb": max(r["peak_rss_mb"] for r in ours),
        "ort_rss_mb": max(r["peak_rss_mb"] for r in ort) if ort else None,
        "ort_version": ort[0].get("backend", "") if ort else "",
        "rounds_ours": [r["p50_ms"] for r in ours],
        "rounds_ort": [r["p50_ms"] for r in ort],
    }
    if original:
        result["float32_ms"] = median(ours32, "p50_ms")
        result["rounds_float32"] = [r["p50_ms"] for r in ours32]
        result["cosine"] = embedding_cosine(graph, graph32, name.endswith("_float16"), args, work)
    return result


def embedding_cosine(graph_low, graph32, float16, args, work):
    """Cosine similarity of the float16 (or int8) and float32 networks' outputs on onednn, on the
    shared MobileNetV2 input (a real photo)."""
    npy = os.path.join(args.shared, "models", "mobilenetv2", "input.npy")
    npy_low = npy
    if float16:
        npy_low = os.path.join(work, "input_float16.npy")
        to_float16.convert_npy(npy, npy_low)
    outputs = []
    for graph, feed, out in ((graph_low, npy_low, "out_low"), (graph32, npy, "out32")):
        out_dir = os.path.join(work, out)
        run([args.webnn, "run", graph, "--backend", "onednn", "--threads", str(args.threads), "--input",
             f"input={feed}", "--output-dir", out_dir])
        outputs.append(np.concatenate([np.load(os.path.join(out_dir, f)).astype(np.float64).ravel()
                                       for f in sorted(os.listdir(out_dir))]))
    a, b = outputs
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(REPO, "build"), help="build tree (default: build/)")
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(REPO), "shared"),
                        help="the shared data directory (default: ../shared)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5, help="alternating onednn / ONNX Runtime rounds")
    parser.add_argument("--iterations", type=int, default=50, help="timed runs per round")
    parser.add_argument("--networks", default=",".join(NETWORKS), help="comma-separated subset of "
                        + ", ".join(NETWORKS))
    parser.add_argument("--node", default="node")
    parser.add_argument("--accuracy-count", type=int, default=65536,
                        help="inputs per operation of the accuracy table (bench/accuracy.py); 0 leaves it out")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    args.webnn = os.path.join(args.build, "webnn")
    args.ort_tool = os.path.join(REPO, "tools", "ort", "ort_run.mjs")
    chosen = [n for n in args.networks.split(",") if n]
    for n in chosen:
        if n not in NETWORKS:
            sys.exit(f"models: unknown network {n!r} (choose from {', '.join(NETWORKS)})")
    if args.rounds < 1 or args.iterations < 1 or args.threads < 1:
        sys.exit("models: --rounds, --iterations and --threads must be at least 1")
    if args.accuracy_count and (args.accuracy_count < 1024 or args.accuracy_count % 1024):
        sys.exit("models: --accuracy-count must be 0 or a multiple of 1024")
    if not os.path.exists(args.webnn):
        sys.exit(f"models: {args.webnn} is missing (scripts/build.sh)")
    webnn = networks.import_webnn(args.build)

    results = []
    with tempfile.TemporaryDirectory(prefix="webnn-models-") as work:
        for name in chosen:
            print(f"models: {name} ...", file=sys.stderr, flush=True)
            results.append(bench_network(name, args, webnn, work))

    host = machine()
    ort_version = next((r["ort_version"] for r in results if r["ort_version"]), "ONNX Runtime")
    print(f"Machine: {host}; batch 1, {args.threads} threads; {ort_version}; "
          f"median of {args.rounds} alternating rounds of {args.iterations} runs")
    print()
    print("| network | onednn p50 ms | reference p50 ms | ONNX Runtime p50 ms | onednn / ORT | build ms "
          "(ORT session) | peak RSS MB (ORT) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        if r["ort_ms"] is None:
            ort, ratio, build, rss = f"does not run: {r['ort_error']}", "-", f"{r['build_ms']:.0f}", f"{r['rss_mb']:.0f}"
        else:
            ort, ratio = f"{r['ort_ms']:.2f}", f"{r['onednn_ms'] / r['ort_ms']:.2f}x"
            build = f"{r['build_ms']:.0f} ({r['ort_build_ms']:.0f})"
            rss = f"{r['rss_mb']:.0f} ({r['ort_rss_mb']:.0f})"
        print(f"| {r['network']} | {r['onednn_ms']:.2f} | {r['reference_ms']:.1f} | {ort} | {ratio} | {build} | "
              f"{rss} |")
    for r in results:
        if "float32_ms" in r:
            print(f"\n{r['network']}: onednn p50 {r['onednn_ms']:.2f} ms against {r['float32_ms']:.2f} ms for "
                  f"float32 in the same rounds ({r['onednn_ms'] / r['float32_ms']:.2f}x); embedding cosine "
                  f"similarity to float32 {r['cosine']:.6f} (shared input.npy)")
    if args.accuracy_count:
        print(file=sys.stderr, flush=True)
        print("models: accuracy sweep ...", file=sys.stderr, flush=True)
        ops = list(accuracy.UNARY) + list(accuracy.BINARY)
        peers, errors = accuracy.measure(webnn, ops, args.accuracy_count, args.threads, args.node)
        print()
        accuracy.print_summary(peers, errors, ops, args.accuracy_count)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": host, "threads": args.threads, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
