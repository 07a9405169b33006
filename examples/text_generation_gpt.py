#!/usr/bin/env python3
"""Generates text with a checkpoint of examples/train_text_model.py through WebNN, with the KV
cache kept in MLTensors between dispatches.

    PYTHONPATH=build/python /usr/bin/python3 examples/text_generation_gpt.py DIR --prompt TEXT \\
        [--max-tokens N] [--greedy | --temperature T [--top-k K] [--seed S]] \\
        [--backend NAME] [--threads N] [--remote unix:PATH] [--int8 channel|32|64|128]

It builds a prefill graph for the prompt and a decode graph for one token (examples/
transformer_model.py; the design is in docs/transformers.md), then generates --max-tokens tokens
(default 200): greedily (the default), or drawn from softmax(logits / T) restricted to the K most
likely tokens (K 0: all) with a seeded generator. Tokens stream to stdout as they come (bytes for
a byte-level model, ids otherwise); the time to the first token and the decode rate go to stderr.
--int8 quantizes the weight matrices to int8 when loading (weight-only: one scale per output
channel, or per block of 32, 64 or 128 inputs; docs/transformers.md, "int8").

Everything that can be wrong with the input — the checkpoint, an empty prompt, a prompt or
--max-tokens that does not fit the model's context — is reported before anything is dispatched
or printed, with exit status 2. Ctrl-C stops at once with status 130; the script writes no files.
"""
import argparse
import os
import signal
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import transformer_model as tm  # noqa: E402

PROG = "text_generation_gpt.py"


def fail(message):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args():
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", help="the directory train_text_model.py wrote")
    parser.add_argument("--prompt", required=True, help="the text to continue")
    parser.add_argument("--max-tokens", type=int, default=200, help="tokens to generate (default 200)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--greedy", action="store_true", help="always the most likely token (the default)")
    mode.add_argument("--temperature", type=float, help="sample at this temperature (> 0)")
    parser.add_argument("--top-k", type=int, help="sample among the K most likely tokens (default 0: all)")
    parser.add_argument("--seed", type=int, help="the sampling seed (default 0)")
    parser.add_argument("--backend", default="", help="onednn, reference (default: the best available)")
    parser.add_argument("--threads", type=int, default=0, help="backend threads (0: the backend's default)")
    parser.add_argument("--remote", default="", help="unix:PATH of a WebNN service (webnn serve)")
    parser.add_argument("--int8", choices=["channel", "32", "64", "128"],
                        help="weight-only int8: one scale per output channel, or per block of this many inputs")
    args = parser.parse_args()
    if args.temperature is None and (args.top_k is not None or args.seed is not None):
        parser.error("--top-k and --seed go with --temperature")
    if args.temperature is not None and not args.temperature > 0:
        parser.error(f"--temperature must be positive, got {args.temperature}")
    if args.top_k is not None and args.top_k < 0:
        parser.error(f"--top-k must be 0 or more, got {args.top_k}")
    if args.max_tokens < 1:
        parser.error(f"--max-tokens must be at least 1, got {args.max_tokens}")
    return args


def tokenize(hp, text):
    if hp.tokenizer == "bytes":
        return list(text.encode("utf-8"))
    # A model without a tokenizer (the random SmolLM-shaped one) reads ids.
    try:
        ids = [int(t) for t in text.split()]
    except ValueError:
        fail(f"this model has no tokenizer: give the prompt as token ids separated by spaces, not {text!r}")
    bad = [i for i in ids if not 0 <= i < hp.vocab_size]
    if bad:
        fail(f"prompt token {bad[0]} is outside the vocabulary of {hp.vocab_size}")
    return ids


def emit(hp, token):
    if hp.tokenizer == "bytes":
        sys.stdout.buffer.write(bytes([token]))
    else:
        sys.stdout.buffer.write(f"{token} ".encode())
    sys.stdout.buffer.flush()


def main():
    args = parse_args()
    try:
        hp, weights = tm.load_checkpoint(args.checkpoint)
    except tm.CheckpointError as e:
        fail(str(e))
    except (ValueError, RuntimeError) as e:  # webnn.DataError (a ValueError): the weights file
        fail(str(e))
    if args.int8:
        try:
            weights = tm.quantize_int8(weights, 0 if args.int8 == "channel" else int(args.int8))
        except ValueError as e:
            fail(str(e))
    prompt = tokenize(hp, args.prompt)
    if not prompt:
        fail("the prompt is empty")
    context = hp.context_length
    if len(prompt) > context:
        fail(f"the prompt is {len(prompt)} tokens, longer than the model's context of {context}")
    if len(prompt) + args.max_tokens > context:
        fail(f"--max-tokens {args.max_tokens} goes past the model's context: the prompt's {len(prompt)} tokens "
             f"leave room for at most {context - len(prompt)}")

    import webnn

    # The loop waits for every token: a synchronous context runs each step on this thread, without
    # the two thread hand-offs a round trip through the context's worker costs (docs/transformers.md).
    ctx = webnn.ML().create_context(backend=args.backend, num_threads=args.threads, remote=args.remote,
                                    synchronous=True)
    model = gen = None
    try:
        start = time.perf_counter()
        model = tm.Model(ctx, hp, weights)
        # The last token is printed, never fed back: its position needs no cache row.
        gen = model.generator(len(prompt) + args.max_tokens - 1, len(prompt))
        built = time.perf_counter() - start
        sampling = args.temperature is not None
        rng = np.random.default_rng(args.seed or 0)

        def choose(result):
            if not sampling:
                return result["next"]
            return tm.sample(result["logits"], args.temperature, args.top_k or 0, rng)

        start = time.perf_counter()
        token = choose(gen.prefill(prompt, want_logits=sampling))
        first = time.perf_counter() - start
        emit(hp, token)
        start = time.perf_counter()
        for _ in range(args.max_tokens - 1):
            token = choose(gen.step(token, want_logits=sampling))
            emit(hp, token)
        decode = time.perf_counter() - start
        sys.stdout.buffer.write(b"\n")
        sys.stdout.buffer.flush()
        steps = args.max_tokens - 1
        rate = f"{steps / decode:.1f} tokens/s" if steps else "no decode steps"
        print(f"backend {ctx.backend}; graphs built and compiled in {built:.2f} s; first token after "
              f"{first * 1000:.1f} ms (prompt of {len(prompt)} tokens); decode {rate} "
              f"({steps} steps, cache of {gen.cache_length} positions)", file=sys.stderr)
    finally:
        # Tensors, graphs and the context go before exit, also on Ctrl-C or an error.
        if gen is not None:
            gen.destroy()
        if model is not None:
            model.destroy()
        ctx.destroy()


if __name__ == "__main__":
    # Ctrl-C raises KeyboardInterrupt even where SIGINT was inherited ignored (a background job).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        main()
    except KeyboardInterrupt:
        sys.stdout.flush()
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        sys.exit(130)
