#!/usr/bin/python3
"""Decoding with a KV cache, webnn-cpp against ONNX Runtime and PyTorch in one run: the time to the
first token and the steady decode rate at several context lengths, for the models of
docs/transformers.md in float32 and weight-only int8, beside the machine's memory bandwidth.

    PYTHONPATH=build/python /usr/bin/python3 bench/decode.py [--models small,smollm] [--threads 2]
        [--prompt 128] [--steps 32] [--rounds 3] [--contexts 128,512,2048] [--block 32]
        [--torch-steps 8] [--checkpoint DIR] [--backend onednn]

Per model ("small", the byte-level GPT of examples/train_text_model.py, its --checkpoint or seeded
random weights of its shape; "smollm", the Llama decoder of SmolLM-135M's shape, seeded random
weights) and runner:

- first token: a prompt of --prompt ids run and its arg-max read;
- decode tokens/s at context P: after a prefill of P - S ids, S = --steps greedy steps (the token
  in, its arg-max out), filling positions P - S .. P - 1; contexts past a model's maximum are cut
  to it. WebNN's caches are P positions long (examples/text_generation_gpt.py sizes them to the
  prompt and the answer the same way); ONNX Runtime's and PyTorch's grow by one position a step.

Runners, each in a process of its own (two OpenMP teams in one process slow both, docs/onednn.md),
asked in turn within each round, the median of --rounds rounds reported:

- webnn: the model through the Python API (examples/transformer_model.py), float32, and int8 with
  one scale per output channel and with blocks of --block along the input (quantize_int8);
- ONNX Runtime (onnxruntime-node, tools/ort/ort_run.mjs decode): the PyTorch twin exported by
  torch.onnx.export the way Hugging Face exports decoders (past_key.i / past_value.i in with a
  growing length, present_* out, fed back as they come), every graph optimization, the same
  threads; int8: every MatMul with a constant weight becomes ONNX Runtime's weight-only operator
  MatMulNBits (bits 8, blocks of --block, the same integers and scales as webnn's), with
  accuracy_level 0 (float32 arithmetic, as webnn's) and 4 (activations quantized to int8 too);
- PyTorch eager with a KV cache (examples/transformer_torch.py), float32, one round of the first
  --torch-steps of the steps (it is the slowest by far).

Every runner but PyTorch does one unmeasured round first.

Then the bandwidth limit: a memory copy timed in the same run, and tokens/s x the bytes of weights a
step reads as a fraction of it; and each target of issue 25 with its ratio. The greedy tokens of
the runners are compared too: a fast runner that chose other tokens would be fast and wrong.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, HERE)
import transformer_model as tm  # noqa: E402
import transformer_speed as ts  # noqa: E402

ORT_RUN = os.path.join(ROOT, "tools", "ort", "ort_run.mjs")


def plan_contexts(hp, wanted, steps):
    """The contexts to measure for a model: those asked for, cut to its maximum, each > steps."""
    out = []
    for p in wanted:
        p = min(p, hp.context_length)
        if p > steps and p not in out:
            out.append(p)
    return out


def measure_decoding(first, decoders, ids, prompt, prefill_steps, steps):
    """A runner's round: the time of `first`'s prefill of `prompt` ids, and for each context p of
    `decoders` ((prefill, step) pairs, ts.timed_decode's) the rate of `steps` greedy steps after a
    prefill of p - prefill_steps ids, with the ids chosen."""
    result = {"first_ms": ts.timed_decode(*first, ids[:prompt], 0)[0] * 1000, "decode": {}, "tokens": {}}
    for p, decoder in decoders.items():
        _, result["decode"][p], result["tokens"][p] = ts.timed_decode(*decoder, ids[:p - prefill_steps], steps)
    return result


def _webnn_worker(connection, backend, threads, model_name, checkpoint, block, ids, prompt, contexts, steps):
    import webnn

    hp, weights = ts.load_model(model_name, checkpoint)
    if block is not None:
        weights = tm.quantize_int8(weights, block)
    start = time.perf_counter()
    context = webnn.ML().create_context(backend=backend, num_threads=threads, synchronous=True)
    model = tm.Model(context, hp, weights)
    first = model.generator(min(prompt + steps, hp.context_length), prompt)
    generators = {p: model.generator(p, p - steps) for p in contexts}
    connection.send(time.perf_counter() - start)
    while connection.recv():
        result = measure_decoding(ts.webnn_decoder(first), {p: ts.webnn_decoder(gen) for p, gen in generators.items()},
                                  ids, prompt, steps, steps)
        connection.send(result)
    context.destroy()


def _torch_worker(connection, threads, model_name, checkpoint, ids, prompt, contexts, prefill_steps, steps):
    """As _webnn_worker, but only `steps` of the prefill_steps steps after each prefill are run."""
    import torch

    import transformer_torch as tt

    torch.set_num_threads(threads)
    hp, weights = ts.load_model(model_name, checkpoint)
    start = time.perf_counter()
    model = tt.from_weights(hp, weights)
    connection.send(time.perf_counter() - start)
    while connection.recv():
        with torch.no_grad():
            decoder = ts.torch_decoder(model)
            result = measure_decoding(decoder, {p: decoder for p in contexts}, ids, prompt, prefill_steps, steps)
        connection.send(result)


class OrtRunner:
    """tools/ort/ort_run.mjs decode on an ONNX file, kept running between rounds."""

    def __init__(self, path, ids_path, threads, prompt, contexts, steps):
        self.process = subprocess.Popen(
            ["node", ORT_RUN, "decode", path, "--ids", ids_path, "--prompt", str(prompt), "--contexts",
             ",".join(map(str, contexts)), "--steps", str(steps), "--threads", str(threads)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.build_s = self._read()["ready"] / 1000

    def _read(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"ort_run.mjs decode ended (exit status {self.process.wait()})")
        return json.loads(line)

    def run(self):
        self.process.stdin.write("run\n")
        self.process.stdin.flush()
        result = self._read()
        result["decode"] = {int(p): r for p, r in result["decode"].items()}
        result["tokens"] = {int(p): t for p, t in result["tokens"].items()}
        return result

    def close(self):
        self.process.stdin.close()  # end of input: the decode mode releases its session and exits
        self.process.wait(timeout=60)


def to_matmul_nbits(src, dst, block, level):
    """Rewrites every MatMul of src whose B is a constant [K, N] matrix, K a multiple of block, as
    com.microsoft MatMulNBits with 8-bit weights: the integers and scales transformer_model's
    quantize_matrix gives the [N, K] weight in blocks of `block` along K, each integer stored as
    q + 128 (ONNX Runtime's default zero point); an embedding table that a Gather reads gets its
    dequantized int8 values. Returns the count of MatMuls rewritten."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(src)
    graph = model.graph
    constants = {i.name: i for i in graph.initializer}
    # The embedding rows a Gather reads hold their int8 values too (as quantize_int8 gives webnn's
    # gather), in float32: ONNX Runtime then computes with exactly webnn's int8 weights.
    for node in graph.node:
        table = constants.get(node.input[0]) if node.op_type == "Gather" else None
        # (the export names the checkpoint's tensors "model.<name>", OnnxStep's attribute)
        if table is not None and tm.is_quantizable(table.name.removeprefix("model."), tuple(table.dims)) \
                and table.dims[1] % block == 0:
            values = tm.quantize_matrix(numpy_helper.to_array(table), block, table.name).dequantized()
            table.CopyFrom(numpy_helper.from_array(values, table.name))
    nodes, dropped, count = [], set(), 0
    for node in graph.node:
        b = constants.get(node.input[1]) if node.op_type == "MatMul" else None
        if b is None or len(b.dims) != 2 or b.dims[0] % block:
            nodes.append(node)
            continue
        weight = tm.quantize_matrix(numpy_helper.to_array(b).T, block, b.name)  # of the [N, K] weight
        n, k = weight.shape
        q = (weight.q.astype(np.int16) + 128).astype(np.uint8).reshape(n, k // block, block)
        name = f"{b.name}.nbits{count}"
        graph.initializer.extend([numpy_helper.from_array(q, f"{name}.q"),
                                  numpy_helper.from_array(weight.scale.reshape(-1), f"{name}.scale")])
        nodes.append(helper.make_node("MatMulNBits", [node.input[0], f"{name}.q", f"{name}.scale"], list(node.output),
                                      name=f"{node.name}.nbits", domain="com.microsoft", K=k, N=n, bits=8,
                                      block_size=block, accuracy_level=level))
        dropped.add(b.name)
        count += 1
    used = {i for node in nodes for i in node.input}
    keep = [i for i in graph.initializer if i.name not in dropped or i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(keep)
    del graph.node[:]
    graph.node.extend(nodes)
    model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    onnx.save(model, dst)
    return count


def export(hp, weights, directory, block, levels):
    """The float32 ONNX export and its MatMulNBits rewrites: {"float32": path, level: path}."""
    import torch

    import transformer_torch as tt

    paths = {"float32": os.path.join(directory, "float32.onnx")}
    with torch.no_grad():
        tt.export_onnx(tt.from_weights(hp, weights), paths["float32"])
    for level in levels:
        paths[level] = os.path.join(directory, f"int8_level{level}.onnx")
        if not to_matmul_nbits(paths["float32"], paths[level], block, level):
            raise RuntimeError("the export has no MatMul with a constant weight to quantize")
    return paths


def agreement(tokens, reference):
    """Of the steps' tokens, how many equal reference's (per context, summed), as 'k/n'."""
    same = total = 0
    for p, chosen in reference.items():
        mine = tokens.get(p, [])
        for a, b in zip(mine, chosen):
            same += a == b
            total += 1
    return f"{same}/{total}"


def measure_model(name, args, tmp):
    hp, weights = ts.load_model(name, args.checkpoint)
    contexts = plan_contexts(hp, args.contexts, args.steps)
    length = max(max(contexts), args.prompt)
    ids = np.random.default_rng(3).integers(0, min(hp.vocab_size, 256), length)
    ids_path = os.path.join(tmp, f"{name}.ids.npy")
    np.save(ids_path, ids.astype(np.int64))
    ids = ids.tolist()
    levels = [0, 4]
    started = time.perf_counter()
    paths = export(hp, weights, tmp, args.block, levels)
    print(f"[{name}: ONNX exports written in {time.perf_counter() - started:.0f} s]", file=sys.stderr)
    del weights
    common = (ids, args.prompt, contexts, args.steps)

    def webnn(block):
        return lambda: ts.ProcessRunner(_webnn_worker, args.backend, args.threads, name, args.checkpoint, block,
                                        *common)

    def ort(path):
        return lambda: OrtRunner(path, ids_path, args.threads, args.prompt, contexts, args.steps)

    makers = {"webnn float32": webnn(None), "ONNX Runtime float32": ort(paths["float32"]),
              "webnn int8 (channel)": webnn(0), f"webnn int8 ({args.block})": webnn(args.block)}
    for level in levels:
        makers[f"ONNX Runtime int8 ({args.block}, level {level})"] = ort(paths[level])
    results = {key: [] for key in makers}
    builds = {}
    # All runners are started first; an idle one waits on its pipe (its threads asleep), and the
    # rounds alternate between them: round r of every runner before round r + 1 of any.
    runners = {}
    try:
        for key, make in makers.items():
            runners[key] = make()
            builds[key] = runners[key].build_s
            print(f"[{name}: {key} ready in {builds[key]:.1f} s]", file=sys.stderr)
            runners[key].run()  # warm-up: first-run costs (page faults, lazy initialisation) are not counted
        for round_ in range(args.rounds):
            for key, runner in runners.items():
                # ONNX Runtime's pool threads spin a while after a run: a pause keeps them from
                # taking the cores from the next runner (seen: the small model at half speed).
                time.sleep(0.5)
                results[key].append(runner.run())
            print(f"[{name}: round {round_ + 1} of {args.rounds} done]", file=sys.stderr)
    finally:
        for runner in runners.values():
            runner.close()
    torch_runner = ts.ProcessRunner(_torch_worker, args.threads, name, args.checkpoint, ids, args.prompt,
                                    contexts, args.steps, min(args.torch_steps, args.steps))
    builds["PyTorch eager float32"] = torch_runner.build_s
    results["PyTorch eager float32"] = [torch_runner.run()]
    torch_runner.close()

    summary = {}
    for key, rounds in results.items():
        summary[key] = {
            "first_ms": statistics.median(r["first_ms"] for r in rounds),
            "decode": {p: statistics.median(r["decode"][p] for r in rounds) for p in rounds[0]["decode"]},
            "tokens": rounds[0]["tokens"],
        }
    return hp, contexts, builds, summary


def report(name, hp, contexts, builds, summary, bandwidth, args):
    print(f"\n### {name} ({tm.parameter_count(hp) / 1e6:.1f} M parameters)\n")
    header = " | ".join(f"tokens/s at {p}" for p in contexts)
    print(f"| runner | build s | first token ms ({args.prompt}) | {header} | tokens as webnn float32's |")
    print("|---|---:|---:|" + "---:|" * len(contexts) + "---|")
    reference = summary["webnn float32"]["tokens"]
    int8_reference = summary[f"webnn int8 ({args.block})"]["tokens"]
    for key, s in summary.items():
        rates = " | ".join(f"{s['decode'][p]:.1f}" if p in s["decode"] else "-" for p in contexts)
        if "int8 (channel)" in key:
            same = "- (no twin)"
        else:
            same = agreement(s["tokens"], int8_reference if "int8" in key else reference)
        print(f"| {key} | {builds[key]:.1f} | {s['first_ms']:.1f} | {rates} | {same} |")
    print(f"\n(int8 rows are compared with webnn's int8 in blocks of {args.block}, whose integers and scales ONNX "
          "Runtime's int8 models hold; per channel is another quantization, with no twin here.)")

    fp32_bytes = ts.weight_bytes_per_step(hp)
    int8_bytes = ts.weight_bytes_per_step(hp, int8=True)
    webnn, ort = summary["webnn float32"], summary["ONNX Runtime float32"]
    int8_key = f"webnn int8 ({args.block})"
    first = contexts[0]
    print(f"\nweights a step reads: {fp32_bytes / 1e6:.1f} MB float32, {int8_bytes / 1e6:.1f} MB int8; at "
          f"context {first}, webnn float32 moves {webnn['decode'][first] * fp32_bytes / bandwidth:.0%} of the copy "
          f"bandwidth, int8 ({args.block}) {summary[int8_key]['decode'][first] * int8_bytes / bandwidth:.0%}, "
          f"int8 (channel) {summary['webnn int8 (channel)']['decode'][first] * int8_bytes / bandwidth:.0%}")
    print("\ntargets (issue 25):")
    for p in contexts:
        best_ort_int8 = max(summary[k]["decode"][p] for k in summary if k.startswith("ONNX Runtime int8"))
        best_webnn_int8 = max(summary[k]["decode"][p] for k in summary if k.startswith("webnn int8"))
        print(f"- context {p}: decode float32 {webnn['decode'][p] / ort['decode'][p]:.2f}x ONNX Runtime's, int8 "
              f"{best_webnn_int8 / best_ort_int8:.2f}x its best int8 (target 1.25x); webnn int8 "
              f"{best_webnn_int8 / webnn['decode'][p]:.2f}x webnn float32 (target 2x)")
    ort_int8_first = min(summary[k]["first_ms"] for k in summary if k.startswith("ONNX Runtime int8"))
    webnn_int8_first = min(summary[k]["first_ms"] for k in summary if k.startswith("webnn int8"))
    print(f"- first token: webnn float32 {webnn['first_ms'] / ort['first_ms']:.2f}x ONNX Runtime's time, int8 "
          f"{webnn_int8_first / ort_int8_first:.2f}x its best int8 time (target <= 1x)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="small,smollm")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--prompt", type=int, default=128, help="prompt ids for the first token (default 128)")
    parser.add_argument("--steps", type=int, default=32, help="decode steps timed per context (default 32)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--contexts", default="128,512,2048",
                        type=lambda text: [int(p) for p in text.split(",")])
    parser.add_argument("--block", type=int, default=32, help="int8 block size along the input (default 32)")
    parser.add_argument("--torch-steps", type=int, default=8, help="PyTorch's decode steps (default 8)")
    parser.add_argument("--checkpoint", help="a train_text_model.py checkpoint for the small model")
    parser.add_argument("--backend", default="onednn")
    args = parser.parse_args()

    print(f"## bench/decode.py: threads {args.threads}, first token of {args.prompt} ids, {args.steps} decode steps "
          f"per context (PyTorch {args.torch_steps}), median of {args.rounds} rounds; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    bandwidth = ts.copy_bandwidth()
    print(f"\nmemory copy: {bandwidth / 1e9:.1f} GB/s (numpy, 256 MiB, read + write)")
    with tempfile.TemporaryDirectory(prefix="webnn-decode-") as tmp:
        for name in args.models.split(","):
            hp, contexts, builds, summary = measure_model(name, args, tmp)
            report(name, hp, contexts, builds, summary, bandwidth, args)
            for f in os.listdir(tmp):
                os.remove(os.path.join(tmp, f))


if __name__ == "__main__":
    main()
