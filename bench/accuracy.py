#!/usr/bin/python3
"""The float32 accuracy of every element-wise operation against float64, on both backends and on
ONNX Runtime (tools/ort/ort_run.mjs on the ONNX export of the very same graph), standalone and as a
fused post-op of a conv2d and of a matmul. Prints one Markdown table and every special-value
mismatch.

    /usr/bin/python3 bench/accuracy.py [--build build] [--threads 2] [--count 65536] [--ops log,gelu]
                                       [--node node] [--no-ort] [--summary] [--json FILE]

Each operation gets --count finite inputs spread over its useful range (half uniform over the
range, half log-uniform magnitudes from the smallest subnormal up, both signs where the range has
them, plus op-specific dense regions such as 1 +- 1e-5 for log), and, in a separate run, the
special values: +-0, subnormals, +-FLT_MIN, +-FLT_MAX, +-Infinity, NaN and a few exact points.
Binary operations get a second operand drawn the same way (specials: every pair). A variant
`conv` feeds the operation from a 1x1 convolution by the filter [[[[1]]]] (the convolution's
output is its input, exactly), `matmul` from a [N, 1] x [[1]] matmul: on the onednn backend the
operation then runs as a oneDNN post-op when it is fused.

The expected value is the operation's definition (the spec's formula, as the reference backend
evaluates it) in float64 on the exact float32 input. `ulp` is the largest error in units of the
float32 spacing at the expected value, over the outputs whose expected magnitude is above 1e-3
(and not beyond float32's range); `small rel` the largest relative error of the outputs whose
expected magnitude is between 1e-30 and 1e-3. A mismatch is an output whose kind (NaN, +Infinity,
-Infinity, a number) or sign differs from the expected one's, or a number more than 1e-3 off
relatively; the finite sweep's mismatches are counted, the special inputs' are listed.
--summary prints one row per operation, the worst of its three variants (bench/models.py prints
that table after the network table).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
F32 = np.float32
FMAX = float(np.finfo(F32).max)
FMIN = float(np.finfo(F32).tiny)
TINY = float(np.nextafter(F32(0), F32(1)))  # smallest subnormal, 1.4e-45

VARIANTS = ["alone", "conv", "matmul"]


def f32(x):
    return float(F32(x))


# ---- the float64 definitions (the spec's formulas, as src/backends/reference evaluates them) ----

erf = np.vectorize(math.erf, otypes=[np.float64])
erfc = np.vectorize(math.erfc, otypes=[np.float64])


def relu(x):
    return np.where(x < 0, 0.0, x)


def clamp(lo, hi):
    return lambda x: np.where(x < lo, lo, np.where(hi < x, hi, x))


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def gelu(x):
    # 0.5 x (1 + erf(x / sqrt 2)) without its cancellation in the negative tail; its limit at
    # -Infinity is the spec formula's -Infinity x 0 = NaN.
    return np.where(x == -np.inf, np.nan, 0.5 * x * erfc(-x / math.sqrt(2.0)))


def softplus(x):
    return np.where(x > 0, x + np.log1p(np.exp(-np.abs(x))), np.log1p(np.exp(np.minimum(x, 0))))


def hard_swish(x):
    factor = np.where(x + 3 < 0, 0.0, np.where(6 < x + 3, 6.0, x + 3))
    return np.where(factor == 0, 0.0, x * factor / 6.0)


def round_even(x):
    return np.round(x)  # numpy rounds halves to even


def sign(x):
    return np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0))  # the spec's "0 otherwise": NaN too


def softsign(x):
    return np.where(np.isinf(x), np.sign(x), x / (1 + np.abs(x)))


def nan_max(a, b):
    return np.where(np.isnan(a) | np.isnan(b), np.nan, np.maximum(a, b))


def nan_min(a, b):
    return np.where(np.isnan(a) | np.isnan(b), np.nan, np.minimum(a, b))


ALPHA = f32(0.2)  # hardSigmoid, and every option, as the float32 the spec casts it to
LEAK = f32(0.01)

# name -> (builder call, float64 definition, useful range (lo, hi), extra dense points)
UNARY = {
    "abs": (lambda b, x: b.abs(x), np.abs, (-1e4, 1e4), []),
    "ceil": (lambda b, x: b.ceil(x), np.ceil, (-1e4, 1e4), []),
    "cos": (lambda b, x: b.cos(x), np.cos, (-100, 100), []),
    "erf": (lambda b, x: b.erf(x), erf, (-6, 6), []),
    "exp": (lambda b, x: b.exp(x), np.exp, (-104, 89), [0]),
    "floor": (lambda b, x: b.floor(x), np.floor, (-1e4, 1e4), []),
    "identity": (lambda b, x: b.identity(x), lambda x: x, (-FMAX, FMAX), []),
    "log": (lambda b, x: b.log(x), np.log, (0, FMAX), [1]),
    "neg": (lambda b, x: b.neg(x), np.negative, (-FMAX, FMAX), []),
    "reciprocal": (lambda b, x: b.reciprocal(x), lambda x: 1.0 / x, (-FMAX, FMAX), []),
    "roundEven": (lambda b, x: b.round_even(x), round_even, (-1e4, 1e4), []),
    "sin": (lambda b, x: b.sin(x), np.sin, (-100, 100), []),
    "sign": (lambda b, x: b.sign(x), sign, (-1e4, 1e4), []),
    "sqrt": (lambda b, x: b.sqrt(x), np.sqrt, (0, FMAX), [1]),
    "tan": (lambda b, x: b.tan(x), np.tan, (-100, 100), []),
    "relu": (lambda b, x: b.relu(x), relu, (-1e4, 1e4), []),
    "clamp(0,6)": (lambda b, x: b.clamp(x, min_value=0, max_value=6), clamp(0.0, 6.0), (-10, 10), []),
    "clamp()": (lambda b, x: b.clamp(x), clamp(-math.inf, math.inf), (-FMAX, FMAX), []),
    "sigmoid": (lambda b, x: b.sigmoid(x), sigmoid, (-104, 89), [0]),
    "tanh": (lambda b, x: b.tanh(x), np.tanh, (-10, 10), [0]),
    "gelu": (lambda b, x: b.gelu(x), gelu, (-10, 10), [0]),
    "elu": (lambda b, x: b.elu(x), lambda x: np.where(x < 0, np.expm1(x), x), (-20, 20), [0]),
    "hardSigmoid": (lambda b, x: b.hard_sigmoid(x, alpha=0.2, beta=0.5),
                    lambda x: clamp(0.0, 1.0)(ALPHA * x + 0.5), (-5, 5), []),
    "hardSwish": (lambda b, x: b.hard_swish(x), hard_swish, (-5, 5), []),
    "leakyRelu": (lambda b, x: b.leaky_relu(x, alpha=0.01), lambda x: np.where(x < 0, LEAK * x, x), (-1e4, 1e4), []),
    "linear": (lambda b, x: b.linear(x, alpha=1.5, beta=0.25), lambda x: 1.5 * x + 0.25, (-1e4, 1e4), []),
    "softplus": (lambda b, x: b.softplus(x), softplus, (-110, 110), [0]),
    "softsign": (lambda b, x: b.softsign(x), softsign, (-1e4, 1e4), []),
}

BINARY = {
    "add": (lambda b, x, y: b.add(x, y), np.add, (-1e4, 1e4)),
    "sub": (lambda b, x, y: b.sub(x, y), np.subtract, (-1e4, 1e4)),
    "mul": (lambda b, x, y: b.mul(x, y), np.multiply, (-1e4, 1e4)),
    "div": (lambda b, x, y: b.div(x, y), np.divide, (-1e4, 1e4)),
    "max": (lambda b, x, y: b.max(x, y), nan_max, (-1e4, 1e4)),
    "min": (lambda b, x, y: b.min(x, y), nan_min, (-1e4, 1e4)),
    "pow": (lambda b, x, y: b.pow(x, y), np.power, (0, 20)),
}

SPECIALS = [0.0, -0.0, TINY, -TINY, 1e-40, -1e-40, FMIN, -FMIN, FMAX, -FMAX, math.inf, -math.inf, math.nan,
            1.0, -1.0, 0.5, -0.5, 6.0, f32(1 + 2**-23), f32(1 - 2**-24), 88.5, -88.5, 1e30, -1e30,
            2.0, -2.0, 3.0, -3.0, 20.0, -20.0, 1e-10, -1e-10]  # 32: whole blocks of 16 channels


def sweep(rng, lo, hi, dense, count):
    """`count` float32 values in [lo, hi]: half uniform, half log-uniform magnitudes."""
    n_uniform = count // 2
    n_dense = count // 16 if dense else 0
    n_log = count - n_uniform - n_dense
    # Uniform over the range, in float64 first (lo..hi may span float32's whole range).
    uniform = rng.uniform(lo / 2, hi / 2, n_uniform) * 2
    top = max(abs(lo), abs(hi))
    magnitude = 10.0 ** rng.uniform(math.log10(TINY), math.log10(top), n_log)
    signs = np.where(rng.random(n_log) < 0.5, -1.0, 1.0) if lo < 0 else np.ones(n_log)
    logs = np.clip(magnitude * signs, lo, hi)
    parts = [uniform, logs]
    if n_dense:
        centres = rng.choice(np.array(dense, dtype=np.float64), n_dense)
        parts.append(centres + rng.uniform(-1e-4, 1e-4, n_dense) * np.maximum(np.abs(centres), 1))
    x = np.concatenate(parts).astype(F32)
    return np.clip(x, F32(lo), F32(hi))


# ---- measuring ----


def ulp_of(exact):
    """float32's spacing at each |exact| (the spacing of the subnormals below FLT_MIN)."""
    e = np.maximum(np.abs(exact), FMIN)
    return np.exp2(np.floor(np.log2(e)) - 23)


def kind(values):
    return np.where(np.isnan(values), 0, np.where(values == np.inf, 1, np.where(values == -np.inf, 2, 3)))


class Stats:
    def __init__(self):
        self.ulp = 0.0
        self.small_rel = 0.0
        self.mismatches = 0
        self.listed = []

    def merge(self, got, exact, inputs, list_them):
        got = got.astype(np.float64).ravel()
        exact = exact.astype(np.float64).ravel()
        with np.errstate(all="ignore"):
            # What the exact value is as float32: beyond the range it is an infinity.
            expected = exact.astype(F32).astype(np.float64)
            in_range = np.isfinite(exact) & (np.abs(exact) <= FMAX)
            err = np.abs(got - exact)
            big = in_range & (np.abs(exact) > 1e-3)
            ulps = np.where(np.isfinite(got), err / ulp_of(exact), np.inf)
            if big.any():
                self.ulp = max(self.ulp, float(np.max(ulps[big])))
            small = in_range & (np.abs(exact) > 1e-30) & (np.abs(exact) <= 1e-3)
            if small.any():
                self.small_rel = max(self.small_rel, float(np.max(err[small] / np.abs(exact[small]))))
            bad = kind(got) != kind(expected)
            bad |= (np.sign(got) * np.sign(expected)) < 0
            bad |= big & (err > 1e-3 * np.abs(exact))
        for i in np.flatnonzero(bad):
            self.mismatches += 1
            if list_them:
                args = ", ".join(f"{float(a[i]):.9g}" for a in inputs)
                self.listed.append(f"({args}) = {got[i]:.9g}, expected {exact[i]:.9g}")


def build(context, name, variant, n, binary, specials):
    """The graph of `name` fed by `variant`, over n elements, and its input shape. The finite sweep
    goes through the shapes real networks use (a 1x1 convolution over 16 channels, a matmul with 16
    columns, each by an identity filter); the special values through a depthwise 1x1 convolution
    and a [n, 1] x [[1]] matmul, so that no NaN or infinity reaches another element (0 x Infinity)."""
    b = context.create_graph_builder()
    if variant == "alone":
        shape = [n]
    elif variant == "conv":
        shape = [1, 16, 1, n // 16] if specials else [1, 16, 64, n // 1024]
    else:
        shape = [n, 1] if specials else [n // 16, 16]
    x = b.input("x", shape)
    y = b.input("y", shape) if binary else None
    if variant == "conv" and specials:
        v = b.conv2d(x, b.constant(np.ones((16, 1, 1, 1), dtype=F32)), groups=16)
    elif variant == "conv":
        v = b.conv2d(x, b.constant(np.eye(16, dtype=F32).reshape(16, 16, 1, 1)))
    elif variant == "matmul":
        v = b.matmul(x, b.constant(np.eye(shape[1], dtype=F32)))
    else:
        v = x
    out = BINARY[name][0](b, v, y) if binary else UNARY[name][0](b, v)
    return b.build({"out": out}), shape


def measure(webnn, chosen, count=65536, threads=2, node="node", with_ort=True):
    """Runs the sweep of the operations `chosen`; returns the peers measured and
    {(op, variant, peer): Stats}."""
    if count < 1024 or count % 1024:
        raise ValueError("accuracy: the count must be a multiple of 1024")
    ml = webnn.ML()
    contexts = {name: ml.create_context(backend=name, num_threads=threads) for name in ("onednn", "reference")}
    peers = list(contexts) + (["ort"] if with_ort else [])
    rng = np.random.default_rng(16)
    results = {}  # (op, variant, peer) -> Stats
    jobs = []  # ONNX Runtime's: (op, variant, inputs, exact, specials, file stem, input files)
    with tempfile.TemporaryDirectory(prefix="webnn-accuracy-") as work:
        for name in chosen:
            binary = name in BINARY
            if binary:
                lo, hi = BINARY[name][2]
                xs = sweep(rng, lo, hi, [], count)
                ys = sweep(rng, lo, hi, [], count)
                sx, sy = np.meshgrid(np.array(SPECIALS, dtype=F32), np.array(SPECIALS, dtype=F32))
                sets = [(xs, ys, False), (sx.ravel(), sy.ravel(), True)]
            else:
                _, _, (lo, hi), dense = UNARY[name]
                sets = [(sweep(rng, lo, hi, dense, count), None, False), (np.array(SPECIALS, dtype=F32), None, True)]
            definition = BINARY[name][1] if binary else UNARY[name][1]
            for variant in VARIANTS:
                for peer in peers:
                    results[(name, variant, peer)] = Stats()
                for x, y, specials in sets:
                    inputs = [x] if y is None else [x, y]
                    # A convolution or matmul adds its products to +0: its output of -0 is +0.
                    fed = [a.astype(np.float64) + (0.0 if variant != "alone" and i == 0 else -0.0)
                           for i, a in enumerate(inputs)]
                    with np.errstate(all="ignore"):
                        exact = definition(*fed)
                    for peer, context in contexts.items():
                        graph, shape = build(context, name, variant, x.size, binary, specials)
                        feeds = {"x": x.reshape(shape)}
                        if binary:
                            feeds["y"] = y.reshape(shape)
                        got = context.compute(graph, feeds)["out"]
                        results[(name, variant, peer)].merge(got, exact, inputs, specials)
                    if with_ort:
                        stem = os.path.join(work, f"{len(jobs)}")
                        contexts["reference"].convert_to_onnx(graph, stem + ".onnx")
                        files = {}
                        for key, value in feeds.items():
                            files[key] = f"{stem}_{key}.npy"
                            np.save(files[key], value)
                        jobs.append((name, variant, inputs, exact, specials, stem, files))
        if jobs:
            run_ort(jobs, results, work, node, threads)
    return peers, results


def run_ort(jobs, results, work, node, threads):
    """All the ONNX Runtime jobs in one process (ort_run.mjs batch)."""
    spec = {"jobs": [{"model": stem + ".onnx", "inputs": files, "output_dir": stem + "_out"}
                     for (_, _, _, _, _, stem, files) in jobs]}
    with open(os.path.join(work, "jobs.json"), "w") as f:
        json.dump(spec, f)
    tool = os.path.join(REPO, "tools", "ort", "ort_run.mjs")
    proc = subprocess.run([node, tool, "batch", os.path.join(work, "jobs.json"), os.path.join(work, "results.json"),
                           "--threads", str(threads)], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"accuracy: ONNX Runtime failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    with open(os.path.join(work, "results.json")) as f:
        statuses = json.load(f)["results"]
    for (name, variant, inputs, exact, specials, stem, _), status in zip(jobs, statuses):
        if status["status"] != "ok":
            results[(name, variant, "ort")].listed.append(f"ONNX Runtime: {status['message'][:200]}")
            continue
        got = np.load(os.path.join(stem + "_out", "out.npy"))
        results[(name, variant, "ort")].merge(got, exact, inputs, specials)


def fmt_ulp(v):
    return "inf" if math.isinf(v) else (f"{v:.0f}" if v >= 10 else f"{v:.2f}")


def print_full(peers, results, chosen, count, threads):
    print(f"Largest error against float64 over {count} inputs per operation (ulp: outputs above 1e-3 "
          f"in magnitude; small rel: relative error of outputs between 1e-30 and 1e-3), {threads} threads")
    print()
    header = "| operation | variant |" + "".join(f" {p} ulp | {p} small rel |" for p in peers)
    print(header + " mismatches (" + ", ".join(peers) + ") |")
    print("|---|---|" + "---:|---:|" * len(peers) + "---|")
    for name in chosen:
        for variant in VARIANTS:
            row = f"| {name} | {variant} |"
            for p in peers:
                s = results[(name, variant, p)]
                row += f" {fmt_ulp(s.ulp)} | {s.small_rel:.1e} |"
            row += " " + " / ".join(str(results[(name, variant, p)].mismatches) for p in peers) + " |"
            print(row)
    print_mismatches(peers, results, chosen)


def print_summary(peers, results, chosen, count):
    """One row per operation: the worst of its three variants."""
    print(f"Largest error in float32 ULP against float64 (outputs above 1e-3 in magnitude; {count} inputs "
          f"per operation over its useful range, standalone and as a fused post-op of conv2d and matmul; "
          f"mismatches: NaN, infinities or signs that differ, specials included)")
    print()
    print("| operation |" + "".join(f" {p} |" for p in peers) + " mismatches (" + ", ".join(peers) + ") |")
    print("|---|" + "---:|" * len(peers) + "---|")
    for name in chosen:
        row = f"| {name} |"
        for p in peers:
            row += f" {fmt_ulp(max(results[(name, v, p)].ulp for v in VARIANTS))} |"
        counts = [sum(results[(name, v, p)].mismatches for v in VARIANTS) for p in peers]
        print(row + " " + " / ".join(str(c) for c in counts) + " |")
    print_mismatches(peers, results, chosen)


def print_mismatches(peers, results, chosen):
    print()
    print("Special-value mismatches (input(s) = output, expected float64 value):")
    any_listed = False
    for name in chosen:
        for variant in VARIANTS:
            for p in peers:
                for line in results[(name, variant, p)].listed:
                    any_listed = True
                    print(f"  {p} {name} [{variant}]: {line}")
    if not any_listed:
        print("  none")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(REPO, "build"), help="build tree (default: build/)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--count", type=int, default=65536, help="finite inputs per operation (a multiple of 1024)")
    parser.add_argument("--ops", default="", help="comma-separated subset of the operations")
    parser.add_argument("--node", default="node")
    parser.add_argument("--no-ort", action="store_true", help="leave ONNX Runtime out")
    parser.add_argument("--summary", action="store_true", help="one row per operation (as bench/models.py prints)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import webnn

    names = list(UNARY) + list(BINARY)
    chosen = [n for n in args.ops.split(",") if n] or names
    for n in chosen:
        if n not in names:
            sys.exit(f"accuracy: unknown operation {n!r} (choose from {', '.join(names)})")
    if args.count < 1024 or args.count % 1024:
        sys.exit("accuracy: --count must be a multiple of 1024")
    peers, results = measure(webnn, chosen, args.count, args.threads, args.node, not args.no_ort)
    if args.summary:
        print_summary(peers, results, chosen, args.count)
    else:
        print_full(peers, results, chosen, args.count, args.threads)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{n}|{v}|{p}": {"ulp": s.ulp, "small_rel": s.small_rel, "mismatches": s.mismatches,
                                        "listed": s.listed} for (n, v, p), s in results.items()}, f, indent=1)


if __name__ == "__main__":
    main()
