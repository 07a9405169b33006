#!/usr/bin/python3
"""Where a decode step's time goes, on the onednn backend: the per-step wall time seen from Python
(write the token and the position, dispatch, read the arg-max), the time the backend's executable
spends running the step's plan, and, inside it, the time of each kind of step by what it computes
(WEBNN_ONEDNN_PROFILE, docs/onednn.md "Profiling"), for the models of docs/transformers.md in
float32 and weight-only int8.

    PYTHONPATH=build/python /usr/bin/python3 bench/decode_profile.py [--models small,smollm]
        [--int8 channel] [--threads 2] [--prompt 128] [--steps 64] [--top 12] [--timeline synchronous|worker]

"outside the plan" is the step's wall time less the plan's: the Python call, the context's
validation and timeline hand-off, the tensor writes and the read (item 7 of issue 25).
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
import transformer_model as tm  # noqa: E402


def read_profiles(path):
    """[{header: str, runs: int, per_run_us: float, steps_us: float, rows: [(us, count, label)]}]."""
    plans = []
    with open(path) as f:
        for line in f:
            if line.startswith("# onednn plan:"):
                fields = line.split(";")
                runs = int(fields[0].split(",")[-1].split()[0])
                per_run = float(fields[1].split(":")[1].split()[0])
                steps = float(fields[1].split("steps")[1].split()[0])
                plans.append({"header": line.strip(), "runs": runs, "per_run_us": per_run, "steps_us": steps,
                              "rows": []})
            elif line.strip():
                us, count, label = line.rstrip("\n").split("\t")
                plans[-1]["rows"].append((float(us), int(count), label))
    return plans


def profile(hp, weights, threads, prompt_length, steps, top, synchronous):
    import webnn

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "profile.tsv")
        os.environ["WEBNN_ONEDNN_PROFILE"] = path
        try:
            context = webnn.ML().create_context(backend="onednn", num_threads=threads, synchronous=synchronous)
            model = tm.Model(context, hp, weights)
            gen = model.generator(prompt_length + steps, prompt_length)
            prompt = np.random.default_rng(3).integers(0, min(hp.vocab_size, 256), prompt_length).tolist()
            token = gen.prefill(prompt)["next"]
            walls = []
            for _ in range(steps):
                start = time.perf_counter()
                token = gen.step(token)["next"]
                walls.append(time.perf_counter() - start)
            gen.destroy()
            model.destroy()
            context.destroy()
            del gen, model, context
        finally:
            del os.environ["WEBNN_ONEDNN_PROFILE"]
        plans = read_profiles(path)
    decode = [p for p in plans if p["runs"] == steps]
    if not decode:
        raise SystemExit(f"decode_profile: no plan ran {steps} times ({[p['runs'] for p in plans]})")
    plan = decode[0]
    wall_us = statistics.median(walls) * 1e6
    mean_wall_us = statistics.fmean(walls) * 1e6
    print(f"  step wall time (Python): median {wall_us:.0f} us, mean {mean_wall_us:.0f} us "
          f"({1e6 / mean_wall_us:.1f} tokens/s)")
    print(f"  the plan, per run: {plan['per_run_us']:.0f} us; its steps {plan['steps_us']:.0f} us "
          f"({plan['header'].split(':')[1].split(';')[0].strip()})")
    outside = mean_wall_us - plan["per_run_us"]
    print(f"  outside the plan: {outside:.0f} us a step ({100 * outside / mean_wall_us:.1f}% of the mean step)")
    by_op = {}
    for us, count, label in plan["rows"]:
        op = label.split(" / ")[0]
        total, n = by_op.get(op, (0.0, 0))
        by_op[op] = (total + us, n + count)
    print("  by operation (us per step, steps):")
    for op, (us, n) in sorted(by_op.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"    {us:9.1f} {100 * us / plan['per_run_us']:5.1f}% {n:5d}  {op}")
    print("  by implementation:")
    for us, count, label in plan["rows"][:top]:
        print(f"    {us:9.1f} {100 * us / plan['per_run_us']:5.1f}% {count:5d}  {label}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="small,smollm")
    parser.add_argument("--int8", default="channel", help="also the weight-only int8 model: channel or a block "
                        "size; empty for float32 only")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--prompt", type=int, default=128)
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--timeline", choices=["synchronous", "worker"], default="synchronous",
                        help="run the steps on the calling thread, as the generator does (default), or on "
                        "the context's worker thread")
    args = parser.parse_args()
    print(f"threads {args.threads}, prompt {args.prompt}, {args.steps} decode steps; load average "
          f"{os.getloadavg()[0]:.1f}")
    for name in args.models.split(","):
        if name == "small":
            import train_text_model

            hp = train_text_model.HYPER_PARAMETERS
            weights = tm.random_weights(hp, seed=1)
        else:
            hp, weights = tm.SMOLLM_135M, tm.random_weights(tm.SMOLLM_135M, seed=135)
        variants = [("float32", weights)]
        if args.int8:
            variants.append((f"int8 ({args.int8})", tm.quantize_int8(weights, 0 if args.int8 == "channel"
                                                                     else int(args.int8))))
        for kind, w in variants:
            print(f"\n{name} ({tm.parameter_count(hp) / 1e6:.1f} M), {kind}:")
            profile(hp, w, args.threads, args.prompt, args.steps, args.top, args.timeline == "synchronous")


if __name__ == "__main__":
    main()
