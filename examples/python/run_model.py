#!/usr/bin/env python3
"""Runs a webnn-graph model (.json or .webnn, with its weights file beside it) on an image and
prints a summary of the output and the timings.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/run_model.py \\
        ../shared/models/mobilenetv2/mobilenetv2.json ../shared/models/mobilenetv2/test.jpg

The image (any format Pillow reads: Debian's python3-pil) is preprocessed the usual ImageNet way:
RGB, bilinear resize to the model's input size, scaled to [0, 1], normalised with the ImageNet
mean and std, CHW (or HWC for an NHWC input), batch 1. A .npy file is used as the input as is.
"""
import argparse
import time

import numpy as np

import webnn

MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


def load_image(path, shape, data_type):
    if path.endswith(".npy"):
        return np.load(path).astype(data_type).reshape(shape)
    try:
        from PIL import Image
    except ImportError:
        raise SystemExit("run_model.py: reading images needs Pillow (Debian: apt install python3-pil); "
                         "or pass a preprocessed .npy file")
    channels_first = shape[1] == 3
    height, width = (shape[2], shape[3]) if channels_first else (shape[1], shape[2])
    image = Image.open(path).convert("RGB").resize((width, height), Image.BILINEAR)
    pixels = (np.asarray(image, np.float32) / 255 - MEAN) / STD  # HWC
    if channels_first:
        pixels = pixels.transpose(2, 0, 1)
    return pixels[None].astype(data_type)


def summary(name, value, top):
    flat = value.reshape(-1).astype(np.float64)
    print(f"output {name}: {value.dtype}{list(value.shape)}  min {flat.min():.6g}  max {flat.max():.6g}  "
          f"mean {flat.mean():.6g}  std {flat.std():.6g}")
    order = np.argsort(flat)[::-1][:top]
    print(f"  top {len(order)}: " + ", ".join(f"[{i}] {flat[i]:.6g}" for i in order))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="NAME.json or NAME.webnn")
    parser.add_argument("image", help="an image file, or a preprocessed .npy input")
    parser.add_argument("--backend", default="", help="backend name (default: the best available)")
    parser.add_argument("--threads", type=int, default=0, help="backend threads (0: its default)")
    parser.add_argument("--runs", type=int, default=10, help="timed runs after the first")
    parser.add_argument("--top", type=int, default=5, help="how many of the largest values to list")
    args = parser.parse_args()

    t0 = time.perf_counter()
    graph = webnn.load(args.model)
    t_load = time.perf_counter() - t0
    (input_name, desc), = graph.inputs.items()
    data = load_image(args.image, desc["shape"], desc["data_type"])

    context = webnn.ML().create_context(backend=args.backend, num_threads=args.threads)
    print(f"model {args.model}: {graph.operation_count} operations; input {input_name} "
          f"{desc['data_type']}{desc['shape']}; backend {context.backend}")
    t0 = time.perf_counter()
    outputs = context.compute(graph, {input_name: data})  # compiles the graph for this context
    t_first = time.perf_counter() - t0
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        context.compute(graph, {input_name: data})
        times.append(time.perf_counter() - t0)

    for name, value in outputs.items():
        summary(name, value, args.top)
    print(f"load {t_load * 1e3:.1f} ms; first run (with compilation) {t_first * 1e3:.1f} ms", end="")
    if times:
        ms = np.array(times) * 1e3
        print(f"; {len(ms)} runs: median {np.median(ms):.2f} ms, min {ms.min():.2f} ms, max {ms.max():.2f} ms")
    else:
        print()
    context.destroy()


if __name__ == "__main__":
    main()
