#!/usr/bin/python3
"""The ONNX import's signal compositions (DFT, STFT, MelWeightMatrix), TopK and RoiAlign against numpy.

- DFT: real signals of 8, 64, 400 and 1000 samples against numpy.fft in float64 (the largest
  |difference| over the largest |value| is printed: the accuracy docs/onnx.md quotes), complex
  input, onesided, inverse, dft_length padding and truncation, an inner axis of a 4-D input, DFT-20's
  axis input (negative, and its default -2); largest |difference| at most 1e-5 x largest |value|
  (1e-3 for a float16 input, whose output is rounded to float16).
- STFT: a window and frame_length, a step that leaves samples over, a complex signal two-sided,
  against frames cut and transformed by numpy here (same bound).
- MelWeightMatrix: two parameter sets against the ONNX definition written here in float64.
- TopK: largest and smallest, ties (the lower index first), k = the axis' size, an inner axis,
  ±inf and NaN in the input (NaN above every number; float16 too), int32 and int64 inputs holding
  their type's limits, opset 1's attribute k, sorted = 0, against a sort by (value, index) written
  here; values and indices exactly.
- RoiAlign: avg and max, half_pixel and output_half_pixel, spatial_scale, RoIs of two batch items
  reaching past every edge or thinner than a pixel, sampling ratios 1 to 3, opset 10, against a
  float64 per-point implementation of ONNX Runtime's definition (1e-5 bound).
- Refused: an inverse one-sided DFT, RoiAlign's sampling_ratio 0, a run-time dft_length, a
  run-time k, k = 0 and a double MelWeightMatrix are errors naming the reason.

Usage: compositions_signal.py WEBNN_CLI WORK_DIR BACKEND. Exits 77 without python3-onnx.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    from onnx import TensorProto, helper, numpy_helper
    from compositions import check_cases, check_refused, run_model
    from shard import shard
except ImportError as e:  # pragma: no cover - the skip path
    print(f"skipped: {e}")
    sys.exit(77)

ONNX_TYPE = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16, np.int32: TensorProto.INT32,
             np.int64: TensorProto.INT64}


def model_of(node, feeds, inits=None, opset=17):
    """A one-node model: `feeds` are its graph inputs, `inits` its initializers, outputs as the node's."""
    inputs = [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype.type], a.shape) for n, a in feeds.items()]
    outputs = [helper.make_tensor_value_info(n, TensorProto.UNDEFINED, None) for n in node.output]
    graph = helper.make_graph([node], node.op_type, inputs, outputs,
                              [numpy_helper.from_array(a, n) for n, a in (inits or {}).items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def complex_of(x):
    """[..., 1 or 2] real / real and imaginary parts as a float64 complex array."""
    x = x.astype(np.float64)
    return x[..., 0] + (1j * x[..., 1] if x.shape[-1] == 2 else 0)


def parts_of(z):
    return np.stack([z.real, z.imag], axis=-1)


def dft_reference(x, axis, n, onesided, inverse):
    z = complex_of(x)
    y = np.fft.ifft(z, n=n, axis=axis) if inverse else np.fft.fft(z, n=n, axis=axis)
    if onesided:
        y = np.take(y, np.arange(n // 2 + 1), axis=axis)
    return parts_of(y)


def dft_case(rng, shape, axis=1, n=None, onesided=0, inverse=0, opset=17, axis_input=True, dtype=np.float32):
    x = rng.standard_normal(shape).astype(dtype)
    inits, ins = {}, ["X"]
    if n is not None:
        inits["n"] = np.array(n, np.int64)
    ins.append("n" if n is not None else "")
    attrs = dict(onesided=onesided, inverse=inverse)
    if opset >= 20:
        if axis_input:
            inits["axis"] = np.array(axis, np.int64)
            ins.append("axis")
    else:
        attrs["axis"] = axis
    node = helper.make_node("DFT", ins, ["Y"], **attrs)
    length = n if n is not None else shape[axis]
    axis %= len(shape)  # counted on the input's rank, which includes the real/imaginary axis
    return model_of(node, {"X": x}, inits, opset), {"X": x}, {"Y": dft_reference(x, axis, length, onesided, inverse)}


def stft_case(rng, batch, length, parts, step, frame_length, window, onesided):
    x = rng.standard_normal((batch, length, parts)).astype(np.float32)
    inits = {"step": np.array(step, np.int64)}
    ins = ["X", "step", "", ""]
    w = None
    if window:
        w = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(frame_length) / frame_length)).astype(np.float32)
        inits["window"] = w
        ins[2] = "window"
    if frame_length is not None:
        inits["frame_length"] = np.array(frame_length, np.int64)
        ins[3] = "frame_length"
    node = helper.make_node("STFT", ins, ["Y"], onesided=onesided)
    frames = (length - frame_length) // step + 1
    z = complex_of(x)
    cut = np.stack([z[:, f * step:f * step + frame_length] for f in range(frames)], axis=1)
    if w is not None:
        cut = cut * w.astype(np.float64)
    y = np.fft.fft(cut, axis=2)
    if onesided:
        y = y[:, :, :frame_length // 2 + 1]
    return model_of(node, {"X": x}, inits), {"X": x}, {"Y": parts_of(y)}


def mel_reference(bands, n, rate, lo, hi):
    """ONNX's MelWeightMatrix definition, in float64."""
    mel = lambda f: 2595 * np.log10(1 + f / 700)
    step = (mel(hi) - mel(lo)) / (bands + 2)
    edges = 700 * (10 ** ((np.arange(bands + 2) * step + mel(lo)) / 2595) - 1)
    edges = np.floor((n + 1) * edges / rate).astype(int)
    out = np.zeros((n // 2 + 1, bands))
    for b in range(bands):
        left, center, right = edges[b], edges[b + 1], edges[b + 2]
        if center == left:
            out[center, b] = 1
        else:
            for j in range(left, center + 1):
                out[j, b] = (j - left) / (center - left)
        for j in range(center, right):
            out[j, b] = (right - j) / (right - center)
    return out


def mel_case(bands, n, rate, lo, hi, output_datatype=TensorProto.FLOAT):
    inits = {"bands": np.array(bands, np.int64), "n": np.array(n, np.int64), "rate": np.array(rate, np.int64),
             "lo": np.array(lo, np.float32), "hi": np.array(hi, np.float32)}
    node = helper.make_node("MelWeightMatrix", list(inits), ["Y"], output_datatype=output_datatype)
    expected = mel_reference(bands, n, rate, float(np.float32(lo)), float(np.float32(hi)))
    return model_of(node, {}, inits), {}, {"Y": expected}


def top_k_reference(x, k, axis, largest):
    """Values and indices of the k first elements ordered by (value descending or ascending, index)."""
    moved = np.moveaxis(x, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    def key(row, i):  # NaN above every number (numpy's sort, PyTorch's topk)
        nan = row[i] != row[i]
        return (not nan, -row[i] if not nan else 0, i) if largest else (nan, row[i] if not nan else 0, i)
    order = np.array([sorted(range(len(row)), key=lambda i: key(row, i))[:k] for row in flat.tolist()], np.int64)
    values = np.take_along_axis(flat, order, axis=1)
    shape = moved.shape[:-1] + (k,)
    return (np.moveaxis(values.reshape(shape), -1, axis), np.moveaxis(order.reshape(shape), -1, axis))


def top_k_case(x, k, axis=-1, largest=1, sorted_=1, opset=11, k_input=None):
    if opset >= 10:
        inits = {} if k_input else {"k": np.array([k], np.int64)}
        feeds = {"X": x, **({"k": k_input} if k_input is not None else {})}
        node = helper.make_node("TopK", ["X", "k"], ["V", "I"], axis=axis, largest=largest, sorted=sorted_)
    else:
        inits, feeds = {}, {"X": x}
        node = helper.make_node("TopK", ["X"], ["V", "I"], axis=axis, k=k)
    values, indices = top_k_reference(x, k, axis, largest)
    return model_of(node, feeds, inits, opset), feeds, {"V": values, "I": indices}


def roi_taps(v, size):
    """The two (pixel, weight) taps of coordinate v, None beyond [-1, size] (ONNX Runtime's rule)."""
    if v < -1 or v > size:
        return None
    v = max(v, 0.0)
    low = int(v)
    if low >= size - 1:
        return [(size - 1, 1.0), (size - 1, 0.0)]
    return [(low, 1 - (v - low)), (low + 1, v - low)]


def roi_align_reference(x, rois, batch, mode, coords, out_h, out_w, ratio, scale):
    """RoiAlign in float64, point by point, as ONNX Runtime defines it."""
    channels, h, w = x.shape[1:]
    out = np.zeros((len(rois), channels, out_h, out_w))
    offset = 0.5 if coords == "half_pixel" else 0.0
    for r, roi in enumerate(rois.astype(np.float64)):
        x1, y1, x2, y2 = roi * scale - offset
        roi_w, roi_h = x2 - x1, y2 - y1
        if coords == "output_half_pixel":
            roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
        bin_h, bin_w = roi_h / out_h, roi_w / out_w
        img = x[batch[r]].astype(np.float64)
        for ph in range(out_h):
            for pw in range(out_w):
                samples = []
                for iy in range(ratio):
                    for ix in range(ratio):
                        ty = roi_taps(y1 + ph * bin_h + (iy + .5) * bin_h / ratio, h)
                        tx = roi_taps(x1 + pw * bin_w + (ix + .5) * bin_w / ratio, w)
                        if ty is None or tx is None:
                            samples.append(np.zeros(channels))
                            continue
                        terms = [wy * wx * img[:, py, px] for py, wy in ty for px, wx in tx]
                        samples.append(np.sum(terms, 0) if mode == "avg" else np.max(terms, 0))
                out[r, :, ph, pw] = np.mean(samples, 0) if mode == "avg" else np.max(samples, 0)
    return out


def roi_align_case(rng, mode, coords, out_h, out_w, ratio, scale, opset=16):
    x = rng.standard_normal((2, 3, 7, 9)).astype(np.float32)
    # Inside, reaching past every edge (points beyond [-1, size] count as 0), thinner than a pixel.
    rois = np.array([[1.3, 0.7, 6.2, 5.9], [-3.1, -2.3, 4.4, 3.3], [5.6, 3.1, 11.7, 9.4], [2.2, 2.1, 2.4, 2.5],
                     [0, 0, 8, 6]], np.float32) / np.float32(scale)
    batch = np.array([1, 0, 1, 0, 1], np.int64)
    attrs = dict(mode=mode, output_height=out_h, output_width=out_w, sampling_ratio=ratio, spatial_scale=scale)
    if opset >= 16:
        attrs["coordinate_transformation_mode"] = coords
    node = helper.make_node("RoiAlign", ["X", "rois", "batch"], ["Y"], **attrs)
    feeds = {"X": x, "rois": rois, "batch": batch}
    expected = roi_align_reference(x, rois, batch, mode, coords, out_h, out_w, ratio, scale) if ratio else None
    return model_of(node, feeds, opset=opset), feeds, {"Y": expected}


def main():
    cli, work, backend = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(5)
    cases = []  # (name, (model, feeds, expected), True: exact, False: 1e-5 relative, or a relative bound)
    for length in (8, 64, 400, 1000):
        cases.append((f"DFT real length {length}", dft_case(rng, (2, length, 1)), False))
    cases += [
        ("DFT complex", dft_case(rng, (2, 12, 2)), False),
        ("DFT onesided odd length", dft_case(rng, (3, 9, 1), onesided=1), False),
        ("DFT onesided even length", dft_case(rng, (1, 16, 1), onesided=1), False),
        ("DFT inverse complex", dft_case(rng, (2, 10, 2), inverse=1), False),
        ("DFT inverse real", dft_case(rng, (2, 7, 1), inverse=1), False),
        ("DFT dft_length pads", dft_case(rng, (2, 6, 2), n=10), False),
        ("DFT dft_length truncates", dft_case(rng, (2, 12, 1), n=8, onesided=1), False),
        ("DFT inner axis of 4-D", dft_case(rng, (2, 3, 5, 2), axis=2), False),
        ("DFT axis 1 of 4-D, dft_length", dft_case(rng, (2, 5, 3, 1), axis=1, n=7), False),
        ("DFT-20 axis input -2", dft_case(rng, (2, 3, 6, 2), axis=-2, opset=20), False),
        ("DFT-20 axis input 1, inverse", dft_case(rng, (2, 4, 3, 2), axis=1, inverse=1, opset=20), False),
        ("DFT-20 default axis", dft_case(rng, (2, 3, 8, 1), axis=-2, opset=20, axis_input=False), False),
        ("DFT float16 (computed in float32)", dft_case(rng, (2, 32, 2), dtype=np.float16), 1e-3),
        ("STFT window, frame_length, step leaves samples", stft_case(rng, 2, 50, 1, 7, 16, True, 1), False),
        ("STFT frame_length only, two-sided", stft_case(rng, 1, 40, 1, 5, 10, False, 0), False),
        ("STFT complex two-sided, window", stft_case(rng, 2, 33, 2, 4, 8, True, 0), False),
        ("MelWeightMatrix 10 bands, 64-point, 16 kHz", mel_case(10, 64, 16000, 20.0, 8000.0), False),
        ("MelWeightMatrix 20 bands, 512-point, 22.05 kHz", mel_case(20, 512, 22050, 0.0, 11025.0), False),
    ]
    ties = rng.integers(-3, 4, (4, 9)).astype(np.float32)
    infs = np.array([[1, -np.inf, 3, np.inf, -np.inf, 0, np.inf, -np.inf]], np.float32)
    nans = np.array([[2, np.nan, -np.inf, 2, np.nan, np.inf], [np.nan, np.nan, 1, 0, -0.0, 1]], np.float32)
    i32 = np.array([[5, np.iinfo(np.int32).min, 7, np.iinfo(np.int32).max, np.iinfo(np.int32).min, 5,
                     np.iinfo(np.int32).max]], np.int32)
    i64 = np.array([[np.iinfo(np.int64).max, 3, np.iinfo(np.int64).min, -2, np.iinfo(np.int64).min,
                     np.iinfo(np.int64).max]], np.int64)
    cases += [
        ("TopK largest with ties", top_k_case(ties, 5), True),
        ("TopK smallest with ties", top_k_case(ties, 4, largest=0), True),
        ("TopK k = axis size", top_k_case(ties, 9), True),
        ("TopK inner axis of 3-D", top_k_case(rng.standard_normal((3, 6, 4)).astype(np.float32), 3, axis=1), True),
        ("TopK axis 0, smallest, sorted=0", top_k_case(ties, 3, axis=0, largest=0, sorted_=0), True),
        ("TopK largest with +-inf", top_k_case(infs, 8), True),
        ("TopK smallest with +-inf", top_k_case(infs, 8, largest=0), True),
        ("TopK largest with NaN", top_k_case(nans, 6), True),
        ("TopK smallest with NaN", top_k_case(nans, 6, largest=0), True),
        ("TopK int32 limits largest", top_k_case(i32, 7), True),
        ("TopK int32 limits smallest", top_k_case(i32, 7, largest=0), True),
        ("TopK int64 limits largest", top_k_case(i64, 6), True),
        ("TopK int64 limits smallest", top_k_case(i64, 5, largest=0), True),
        ("TopK-1 attribute k", top_k_case(ties, 2, axis=1, opset=1), True),
        ("TopK float16 with NaN", top_k_case(nans.astype(np.float16), 4), True),
    ]
    for mode in ("avg", "max"):
        for coords in ("half_pixel", "output_half_pixel"):
            cases.append((f"RoiAlign {mode} {coords} 3x4, ratio 2, scale 0.5",
                          roi_align_case(rng, mode, coords, 3, 4, 2, 0.5), False))
    cases += [("RoiAlign avg half_pixel 2x2, ratio 3", roi_align_case(rng, "avg", "half_pixel", 2, 2, 3, 1.0), False),
              ("RoiAlign max output_half_pixel 1x1, ratio 1",
               roi_align_case(rng, "max", "output_half_pixel", 1, 1, 1, 1.0), False),
              ("RoiAlign-10 (output_half_pixel)", roi_align_case(rng, "avg", "output_half_pixel", 2, 3, 2, 0.25, 10),
               False)]
    dft_inv_onesided = dft_case(rng, (1, 8, 1), onesided=1, inverse=1)
    dft_runtime_n = helper.make_node("DFT", ["X", "n"], ["Y"])
    x = np.zeros((1, 8, 1), np.float32)
    n = np.array(8, np.int64)
    refused = [
        ("DFT inverse onesided", *dft_inv_onesided[:2], "NotSupportedError"),
        ("DFT run-time dft_length", model_of(dft_runtime_n, {"X": x, "n": n}), {"X": x, "n": n}, "freeze"),
        ("TopK run-time k", *top_k_case(ties, 2, k_input=np.array([2], np.int64))[:2], "freeze"),
        ("TopK k = 0", *top_k_case(ties, 0)[:2], "NotSupportedError"),
        ("RoiAlign sampling_ratio 0", *roi_align_case(rng, "avg", "half_pixel", 2, 2, 0, 1.0)[:2], "sampling_ratio"),
        ("MelWeightMatrix double", *mel_case(4, 16, 8000, 0.0, 4000.0, TensorProto.DOUBLE)[:2], "double"),
    ]
    failed = check_refused(cli, work, backend, refused)
    cases = shard(cases)
    failed += check_cases(cli, work, backend, cases)
    print(f"{len(cases) + len(refused) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
