#!/usr/bin/env python3
"""Trains a small byte-level decoder-only transformer on an English text with PyTorch and saves it
in webnn-cpp's formats, for examples/text_generation_gpt.py.

    /usr/bin/python3 examples/train_text_model.py --out DIR [--steps N] [--corpus FILE] [--threads N]

The model (docs/transformers.md): vocabulary 256 (one token per byte), context 512, 4 pre-norm
layers of hidden size 192 with 4 causal self-attention heads, each position attending to itself and
the 127 before it (an attention window of 128), a GELU MLP of 768, rotary positions, LayerNorm,
biases, tied embeddings: 1.8 million parameters. The corpus is the GNU General Public License,
version 3 (/usr/share/common-licenses/GPL-3, installed on every Debian system by base-files; its
text may be copied and distributed verbatim by anyone); the last tenth is held out to measure the
loss. Each step trains on 4 windows of 128 bytes: with the attention window, what a position sees
in a 128-byte window is what it sees at any position of the 512 when generating. The default 800
steps take about 3 minutes of an idle 2-core machine and reach a held-out loss of about 2.25 nats a
byte; the text is the licence's words and phrases (docs/transformers.md). --steps 4 makes a run
of about half a minute whose loss still falls (the tests use it).

DIR receives model.json (the hyper-parameters and the training record), model.manifest.json +
model.weights (the weights, docs/formats.md) and model.onnx (the same model exported by
torch.onnx.export, with past keys and values, for the ONNX Runtime peer). The files are written
under temporary names and renamed into place at the end: an interrupted run (Ctrl-C) leaves DIR as
it was and exits with status 130.
"""
import argparse
import json
import math
import os
import signal
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import transformer_model as tm  # noqa: E402
import transformer_torch as tt  # noqa: E402

DEFAULT_CORPUS = "/usr/share/common-licenses/GPL-3"
HYPER_PARAMETERS = tm.HyperParameters(vocab_size=256, context_length=512, layers=4, hidden=192, heads=4,
                                      kv_heads=4, mlp_hidden=768, norm="layer_norm", norm_eps=1e-5,
                                      position="rope", activation="gelu", bias=True,
                                      tied_embeddings=True, tokenizer="bytes", attention_window=128)
# Each step trains on BATCH windows of the attention window's length (docs/transformers.md).
BATCH = 4
PEAK_LR = 3e-3


def windows(data, starts, length):
    return torch.from_numpy(np.stack([data[s:s + length + 1] for s in starts]).astype(np.int64))


def loss_of(model, batch):
    logits, _ = model(batch[:, :-1])
    return torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), batch[:, 1:].reshape(-1))


def learning_rate(step, steps):
    warmup = max(1, steps // 10)
    if step < warmup:
        return PEAK_LR * (step + 1) / warmup
    progress = (step - warmup) / max(1, steps - warmup)
    return PEAK_LR * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the checkpoint directory (created when missing)")
    parser.add_argument("--steps", type=int, default=800, help="optimizer steps (default 800)")
    parser.add_argument("--corpus", default=DEFAULT_CORPUS, help=f"the training text (default {DEFAULT_CORPUS})")
    parser.add_argument("--threads", type=int, default=2, help="PyTorch threads (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.steps < 1:
        parser.error("--steps must be at least 1")

    hp = HYPER_PARAMETERS
    T = hp.context_length
    W = hp.attention_window
    try:
        with open(args.corpus, "rb") as f:
            data = np.frombuffer(f.read(), np.uint8)
    except OSError as e:
        sys.exit(f"train_text_model.py: cannot read the corpus: {e}")
    held_out = len(data) // 10
    train, test = data[:-held_out], data[-held_out:]
    if len(train) <= T + 1 or len(test) <= T + 1:
        sys.exit(f"train_text_model.py: {args.corpus}: {len(data)} bytes is too short for windows of {T + 1}")

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    model = tt.Decoder(hp)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    rest = [p for n, p in model.named_parameters() if p.dim() < 2]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}],
                                  lr=PEAK_LR, betas=(0.9, 0.95))
    # A fixed set of held-out windows, so that losses before and after compare.
    test_batch = windows(test, np.linspace(0, len(test) - T - 1, 4).astype(int), T)

    def held_out_loss():
        with torch.no_grad():
            return float(loss_of(model.eval(), test_batch))

    print(f"{tm.parameter_count(hp):,} parameters; corpus {args.corpus} ({len(data):,} bytes); "
          f"{args.steps} steps of {BATCH} x {W} bytes", file=sys.stderr)
    initial = held_out_loss()
    print(f"held-out loss before training {initial:.3f}", file=sys.stderr)
    start = time.perf_counter()
    for step in range(args.steps):
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(step, args.steps)
        batch = windows(train, rng.integers(0, len(train) - W - 1, BATCH), W)
        loss = loss_of(model.train(), batch)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if step % 10 == 0 or step == args.steps - 1:
            print(f"step {step + 1}/{args.steps}  loss {loss.item():.3f}  {time.perf_counter() - start:.0f} s",
                  file=sys.stderr)
    seconds = time.perf_counter() - start
    final = held_out_loss()
    print(f"held-out loss after training {final:.3f} ({seconds:.0f} s)", file=sys.stderr)
    model.eval()
    sample = bytes(tt.greedy(model, list(b"This License"), 400))
    print("greedy sample: This License" + sample.decode("utf-8", "replace"), file=sys.stderr)

    created = not os.path.isdir(args.out)
    os.makedirs(args.out, exist_ok=True)
    paths = tm.checkpoint_paths(args.out)
    temporaries = {key: os.path.join(args.out, f".{os.path.basename(p)}.{os.getpid()}.tmp")
                   for key, p in paths.items()}
    done = False
    try:
        tm.write_weights(temporaries["weights"], temporaries["manifest"], tt.state_arrays(model))
        tt.export_onnx(model, temporaries["onnx"])
        record = {"corpus": os.path.abspath(args.corpus), "corpus_bytes": len(data), "steps": args.steps,
                  "batch": BATCH, "seed": args.seed, "seconds": round(seconds, 1),
                  "held_out_loss_before": round(initial, 4), "held_out_loss_after": round(final, 4)}
        with open(temporaries["hyper"], "w") as f:
            json.dump(tm.hyper_parameters_document(hp, training=record), f, indent=1)
            f.write("\n")
        # The set is renamed into place whole: Ctrl-C waits for the renames (model.json last: it
        # marks a complete checkpoint).
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for key in ("weights", "manifest", "onnx", "hyper"):
                os.replace(temporaries[key], paths[key])
            done = True
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    finally:
        for path in temporaries.values():
            if os.path.exists(path):
                os.unlink(path)
        if created and not done:
            os.rmdir(args.out)
    print(f"wrote {paths['hyper']}, {paths['manifest']}, {paths['weights']}, {paths['onnx']}", file=sys.stderr)


if __name__ == "__main__":
    # Ctrl-C raises KeyboardInterrupt even where SIGINT was inherited ignored (a background job).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        main()
    except KeyboardInterrupt:
        print("train_text_model.py: interrupted; nothing written", file=sys.stderr)
        sys.exit(130)
