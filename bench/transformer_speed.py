#!/usr/bin/python3
"""Decoding speed of the transformers of docs/transformers.md through WebNN, with PyTorch eager
(the same weights, a KV cache, the same threads, in a process of its own) measured in the same run
as the peer.

    PYTHONPATH=build/python /usr/bin/python3 bench/transformer_speed.py [--checkpoint DIR] [--threads 2]
        [--prompt 128] [--steps 64] [--models small,smollm] [--backends onednn,reference] [--rounds 3]
        [--int8 channel,32]

Models: "small", the byte-level GPT of examples/train_text_model.py (its checkpoint with
--checkpoint, seeded random weights of its shape otherwise: speed does not depend on the values),
and "smollm", the Llama decoder of SmolLM-135M's shape with seeded random weights. For each model
and runner: the time to the first token (a prefill of --prompt tokens, the result read back) and
the decode rate over --steps steps after it (the token in, the arg-max id out, cache of prompt +
steps positions); the median over --rounds rounds, the runners alternating within a round. The
reference backend does one round of at most 8 steps on the 135M model. --int8 adds the same model
with weight-only int8 weights (transformer_model.quantize_int8: "channel", one scale per output
channel, or a block size along the input) on the first backend listed.

Then where a decode step's time goes: the round trip of an empty dispatch (write a 4-byte token and
position, dispatch a one-operation graph, read 4 bytes; on a synchronous context, as the generator
makes it, and on one whose steps run on its worker thread), a memory copy's bandwidth (numpy, 256 MiB)
and, for each model, the bytes of weights a step reads and the rate that bandwidth would allow.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
import transformer_model as tm  # noqa: E402

import webnn  # noqa: E402


def small_model(checkpoint):
    if checkpoint:
        return tm.load_checkpoint(checkpoint)
    import train_text_model

    hp = train_text_model.HYPER_PARAMETERS
    return hp, tm.random_weights(hp, seed=1)


def load_model(name, checkpoint):
    if name == "small":
        return small_model(checkpoint)
    return tm.SMOLLM_135M, tm.random_weights(tm.SMOLLM_135M, seed=135)


def prompt_tokens(hp, length):
    return np.random.default_rng(3).integers(0, min(hp.vocab_size, 256), length).tolist()


def timed_decode(prefill, step, prompt, steps):
    """Greedy decoding timed: prefill(ids) and step(id) each return the next id. Returns the
    prefill's seconds, the steps' rate (steps per second) and the chosen ids (prefill's first)."""
    start = time.perf_counter()
    token = prefill(prompt)
    first = time.perf_counter() - start
    chosen = [token]
    start = time.perf_counter()
    for _ in range(steps):
        token = step(token)
        chosen.append(token)
    return first, (steps / (time.perf_counter() - start) if steps else 0.0), chosen


def webnn_decoder(gen):
    """(prefill, step) of a transformer_model generator, for timed_decode."""
    return (lambda ids: gen.prefill(ids)["next"]), (lambda token: gen.step(token)["next"])


def torch_decoder(model):
    """(prefill, step) of a transformer_torch model with its growing cache, for timed_decode (call
    it under torch.no_grad())."""
    import torch

    cache = None

    def prefill(ids):
        nonlocal cache
        logits, cache = model(torch.tensor([ids]))
        return int(logits[0, -1].argmax())

    def step(token):
        nonlocal cache
        logits, cache = model(torch.tensor([[token]]), cache)
        return int(logits[0, -1].argmax())

    return prefill, step


class WebnnRunner:
    def __init__(self, backend, threads, hp, weights, prompt, steps):
        self.context = webnn.ML().create_context(backend=backend, num_threads=threads, synchronous=True)
        start = time.perf_counter()
        self.model = tm.Model(self.context, hp, weights)
        self.gen = self.model.generator(len(prompt) + steps, len(prompt))
        self.build_s = time.perf_counter() - start
        self.prompt, self.steps = prompt, steps

    def run(self, steps):
        return timed_decode(*webnn_decoder(self.gen), self.prompt, steps)[:2]

    def close(self):
        self.context.destroy()


def _torch_worker(connection, threads, model_name, checkpoint, prompt, steps):
    """PyTorch in a process of its own: its OpenMP team and WebNN's would otherwise be two teams in
    one process, which makes libgomp put idle workers to sleep (docs/onednn.md, "Threads and
    determinism") and slows both."""
    import torch

    import transformer_torch as tt

    torch.set_num_threads(threads or os.cpu_count())
    hp, weights = load_model(model_name, checkpoint)
    start = time.perf_counter()
    model = tt.from_weights(hp, weights)
    connection.send(time.perf_counter() - start)
    while connection.recv():
        with torch.no_grad():
            connection.send(timed_decode(*torch_decoder(model), prompt, steps)[:2])


class ProcessRunner:
    """A runner in a spawned Python process: worker(connection, *args) sends its build time, then a
    result for each True it receives, and returns on False."""

    def __init__(self, worker, *args):
        import multiprocessing

        spawn = multiprocessing.get_context("spawn")
        self.connection, child = spawn.Pipe()
        self.process = spawn.Process(target=worker, args=(child, *args))
        self.process.start()
        self.build_s = self.connection.recv()

    def run(self):
        self.connection.send(True)
        return self.connection.recv()

    def close(self):
        self.connection.send(False)
        self.process.join()


def dispatch_round_trip(backend, threads, synchronous, count=2000):
    """Seconds per write(token) + write(position) + dispatch + read of a one-operation graph."""
    context = webnn.ML().create_context(backend=backend, num_threads=threads, synchronous=synchronous)
    b = context.create_graph_builder()
    graph = b.build({"y": b.add(b.input("token", [1], "int32"), b.input("position", [1], "int32"))})
    token = context.create_tensor([1], "int32", writable=True)
    position = context.create_tensor([1], "int32", writable=True)
    out = context.create_tensor([1], "int32", readable=True)
    one = np.array([1], np.int32)
    for i in range(count + 100):
        if i == 100:
            start = time.perf_counter()
        context.write_tensor(token, one)
        context.write_tensor(position, one)
        context.dispatch(graph, {"token": token, "position": position}, {"y": out})
        context.read_tensor(out)
    seconds = (time.perf_counter() - start) / count
    context.destroy()
    return seconds


def copy_bandwidth():
    """Bytes per second of a 256 MiB numpy copy (read + write counted once each: 2 x size)."""
    src = np.ones(64 << 20, np.float32)
    dst = np.empty_like(src)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - start)
    return 2 * src.nbytes / best


def weight_bytes_per_step(hp, int8=False):
    """Bytes a decode step reads from the weights: all but the embedding table, of which it gathers
    one row, unless the output projection (tied or not) reads it whole. int8: the matrices one byte
    an element (their scales, a few per row, left out), the rest float32."""
    shapes = tm.tensor_shapes(hp)
    elements = {n: int(np.prod(s)) for n, s in shapes.items() if n != "position.weight"}
    if not hp.tied_embeddings:
        elements["embedding.weight"] = hp.hidden  # one row gathered; lm_head read whole
    return sum(count * (1 if int8 and tm.is_quantizable(n, shapes[n]) else 4) for n, count in elements.items())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoint", help="a train_text_model.py checkpoint for the small model")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--prompt", type=int, default=128, help="prompt tokens (default 128)")
    parser.add_argument("--steps", type=int, default=64, help="decode steps timed (default 64)")
    parser.add_argument("--models", default="small,smollm")
    parser.add_argument("--backends", default="onednn,reference")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--int8", default="channel", help="weight-only int8 runners: channel and/or block "
                        "sizes, comma-separated; empty for none (default channel)")
    args = parser.parse_args()

    print(f"threads {args.threads}, prompt {args.prompt} tokens, {args.steps} decode steps, "
          f"median of {args.rounds} rounds; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}\n")
    print("| model | runner | build s | first token ms | decode tokens/s |")
    print("|---|---|---:|---:|---:|")
    bandwidth = copy_bandwidth()
    models = {}
    for name in args.models.split(","):
        hp, weights = load_model(name, args.checkpoint)
        models[name] = hp
        prompt = prompt_tokens(hp, args.prompt)
        # One WebNN context alive at a time: each context's timeline thread has its own OpenMP team,
        # and libgomp, counting more threads than cores, would put idle workers to sleep between
        # parallel regions (docs/onednn.md, "Threads and determinism"). A runner is built anew in
        # each round; PyTorch runs in a process of its own.
        makers = {}
        for backend in args.backends.split(","):
            makers[f"webnn {backend}"] = (backend, weights)
        for kind in filter(None, args.int8.split(",")):
            backend = args.backends.split(",")[0]
            makers[f"webnn {backend} int8 ({kind})"] = (backend, tm.quantize_int8(weights, 0 if kind == "channel"
                                                                                 else int(kind)))
        torch_runner = ProcessRunner(_torch_worker, args.threads, name, args.checkpoint, prompt, args.steps)
        results = {key: [] for key in [*makers, "PyTorch eager"]}
        builds = {key: [] for key in results}
        builds["PyTorch eager"].append(torch_runner.build_s)
        for round_ in range(args.rounds):
            for key, (backend, w) in makers.items():
                slow = backend == "reference" and name == "smollm"
                if slow and round_:
                    continue
                runner = WebnnRunner(backend, args.threads, hp, w, prompt, args.steps)
                builds[key].append(runner.build_s)
                results[key].append(runner.run(min(args.steps, 8) if slow else args.steps))
                runner.close()
            results["PyTorch eager"].append(torch_runner.run())
        torch_runner.close()
        for key in results:
            first = statistics.median(r[0] for r in results[key])
            rate = statistics.median(r[1] for r in results[key])
            print(f"| {name} ({tm.parameter_count(hp) / 1e6:.1f} M) | {key} | {statistics.median(builds[key]):.2f} | "
                  f"{first * 1000:.1f} | {rate:.1f} |")
        del weights, makers

    print(f"\nmemory copy: {bandwidth / 1e9:.1f} GB/s (numpy, 256 MiB, read + write)")
    for backend in args.backends.split(","):
        print(f"empty dispatch round trip ({backend}): "
              f"{dispatch_round_trip(backend, args.threads, True) * 1e6:.0f} us synchronous (as the generator), "
              f"{dispatch_round_trip(backend, args.threads, False) * 1e6:.0f} us on the timeline's worker thread")
    for name, hp in models.items():
        per_step, per_step_int8 = weight_bytes_per_step(hp), weight_bytes_per_step(hp, int8=True)
        T = args.prompt + args.steps
        C = tm.chunk_length(T)
        position = 2 * hp.layers * hp.kv_heads * hp.head_dim * 4  # bytes of one cache position
        cache = position * (T + C + 2 * C + 2 * T / C)
        print(f"{name}: a decode step reads {per_step / 1e6:.1f} MB of weights, {per_step_int8 / 1e6:.1f} MB "
              f"in int8 (at the copy bandwidth: {bandwidth / per_step:.0f} and {bandwidth / per_step_int8:.0f} "
              f"tokens/s at most) and moves {cache / 1e6:.2f} MB of its cache of {T} positions (attention "
              f"reads them and the chunk of {C}, the chunk is copied, a flush copies the cache every {C} steps)")

if __name__ == "__main__":
    main()
