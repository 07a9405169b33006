#!/usr/bin/python3
"""Where a network's time goes on the onednn backend: runs `webnn bench` with ONEDNN_VERBOSE=1
and sums oneDNN's own execution times per primitive implementation over the timed runs, with the
convolutions' FLOP rate (2 · output elements · input channels per group · kernel area). The
verbose log's timing adds a little to each primitive; compare the sum with the p50 `webnn bench`
prints. Steps of our own (the backend's element-wise kernels and scans) are not in oneDNN's log.

    /usr/bin/python3 bench/onednn_profile.py [GRAPH] [--iterations 200] [--threads 0] [--build build]

--threads is `webnn bench`'s (0: every core).

GRAPH defaults to ../shared/models/mobilenetv2/mobilenetv2.json.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

CONV = re.compile(r"(?:g(\d+))?mb(\d+)_ic(\d+)oc(\d+)_ih\d+oh(\d+)kh(\d+)\D.*_iw\d+ow(\d+)kw(\d+)")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("graph", nargs="?", default=os.path.join(root, "..", "shared", "models", "mobilenetv2",
                                                                 "mobilenetv2.json"))
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--build", default=os.path.join(root, "build"))
    args = parser.parse_args()
    env = dict(os.environ, ONEDNN_VERBOSE="1")
    run = subprocess.run([os.path.join(args.build, "webnn"), "bench", args.graph, "--backend", "onednn",
                          "--iterations", str(args.iterations), "--warmup", "0", "--threads", str(args.threads)],
                         capture_output=True, text=True, env=env)
    if run.returncode != 0:
        sys.exit(f"webnn bench failed: {run.stderr.strip()}")
    lines = [line.split(",") for line in (run.stdout + run.stderr).splitlines()
             if line.startswith("onednn_verbose,exec,")]
    # Build-time primitives (weight reorders) run before the first inference: keep the last
    # `iterations` runs' worth of primitives, found from the per-run count of the last run.
    per_run = len(lines) // (args.iterations + 1)
    timed = lines[-per_run * args.iterations:] if per_run else []
    time_ms, flops, count = collections.Counter(), collections.Counter(), collections.Counter()
    for f in timed:
        impl = f"{f[3]} {f[4]}"
        time_ms[impl] += float(f[-1])
        count[impl] += 1
        m = CONV.search(f[-2])
        if f[3] == "convolution" and m:
            g, mb, ic, oc, oh, kh, ow, kw = (int(v) if v else 1 for v in m.groups())
            flops[impl] += 2 * mb * oc * oh * ow * (ic // g) * kh * kw
    n = args.iterations
    print(f"{per_run} oneDNN primitives per run, {n} runs; " +
          next((l for l in run.stdout.splitlines() if l.startswith("p50_ms")), ""))
    print("| primitive | per run | time per run | GFLOP/s |\n|---|---:|---:|---:|")
    for impl, t in time_ms.most_common():
        rate = f"{flops[impl] / (t * 1e-3) / 1e9:.0f}" if flops[impl] else ""
        print(f"| {impl} | {count[impl] // n} | {t / n * 1000:.1f} us | {rate} |")
    print(f"| all | {per_run} | {sum(time_ms.values()) / n * 1000:.1f} us | |")


if __name__ == "__main__":
    main()
