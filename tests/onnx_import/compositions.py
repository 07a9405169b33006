#!/usr/bin/python3
"""The ONNX import's compositions beyond what the backend test suite covers, against numpy.

- RNN (unrolled): forward, reverse and bidirectional, layout 0 and 1, clip, every ONNX recurrent
  activation (Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign and
  Softplus too, with activation_alpha/beta given and defaulted, one per direction), an initial
  state and biases, against a float64 recurrence written here; largest |difference| at most
  1e-5 x largest |value|.
- Integer Mod: int8, int32 and int64 with every sign combination and the edges (INT_MIN mod -1,
  INT_MAX, INT_MIN mod INT_MIN), fmod 0 against numpy's mod (the divisor's sign) and fmod 1
  against numpy's fmod (the dividend's sign), exactly; uint8 and uint64 likewise.
- 3-D Conv, ConvTranspose and pools (built from 2-D ops): asymmetric pads, auto_pad, strides and
  dilations that differ per axis, groups, bias, output_padding and output_shape, ceil_mode,
  count_include_pad, LpPool, and the global pools of 5-D inputs, against float64 loops over the
  window written here; largest |difference| at most 1e-5 x largest |value|.
- Det (cofactor expansion) of 1x1 to 4x4 matrices, batched and not, against numpy's float64 det
  (same bound); by elimination with partial pivoting, 5x5 to 32x32 batched and not, and six 6x6
  matrices that need pivoting or have a zero pivot (a zero column, equal rows, a permutation,
  off-diagonal pivots, a det of ~1e18), largest |difference| at most 1e-4 x largest |value|; a
  257x257 Det is a NotSupportedError.
- GridSample: bilinear, nearest and bicubic, with zeros, border and reflection padding, with and
  without align_corners, a batch of 2 and grid points well outside [-1, 1] (and points exactly at
  the halves nearest rounds to even), against a float64 per-point sampler written here from the
  ONNX operator's definition (same bound); a 3-D input is a NotSupportedError naming the rank.
- ScatterElements and ScatterND with a reduction (add, mul, max, min; indices known at import,
  several updates to one element, negative indices), against numpy's ufunc.at, same bound.
- BitShift of uint8, uint32 and uint64, both directions: shifts of 0, of the width − 1, of the
  width and beyond (0), bits shifted out at the top, a broadcast shift; exactly, against Python's
  integers.
- BitwiseAnd, BitwiseOr, BitwiseXor and BitwiseNot (opset 18; bit by bit, arithmetic) of int8,
  uint8, int32, uint32, int64 and uint64: the type's limits, 0, -1, alternating bits and random
  values, B broadcast over A's rows; exactly, against numpy's bitwise functions.
- Atan, Asin and Acos (range reduction and a Taylor series): 60,000 inputs each over the
  domain, ±0, ±1, ±∞, NaN and values outside [−1, 1]; at most 4 ULP from numpy's float64
  functions (3.4 measured) and NaN exactly where numpy has it.
- MaxPool's Indices output (1-D, 2-D and 3-D): pads, strides, dilations, ceil_mode, storage_order
  0 and 1, a batch of 2 with 3 channels, ties (small integers; the first in the window's scan
  order wins) and a NaN (its index); exactly, against loops over the windows.
- TfIdfVectorizer: TF, IDF and TFIDF with weights, gram lengths 1 to 3, skips up to 2, a
  minimum length above 1 with unigrams in the pool, 1-D and 2-D, int32 and int64 tokens;
  exactly, against counting written here from the operator's definition.
- Resize beyond WebNN's resample2d (separable passes with import-time taps): cubic with its
  coefficient and exclude_outside, align_corners with a scale that gives no whole size, linear
  over two axes that are not neighbours, nearest of an int32 tensor with round_prefer_ceil and
  ceil, pytorch_half_pixel to a length of 1, tf_crop_and_resize with points outside the roi
  (extrapolation_value), half_pixel_symmetric; opset 18's antialias (linear and cubic downscales,
  exclude_outside, align_corners with a scale that gives no whole size, one axis down and one up,
  a 20x downscale of 40 taps), axes (a subset, negative, reversed, with tf_crop_and_resize's roi)
  and keep_aspect_ratio_policy (not_larger, not_smaller, over every axis and over axes, a half
  rounded up); against a float64 reference written here from the operator's definition, output by
  output (edge-padded neighbours, as ONNX's reference picks them), same bound. Refused: antialias
  with nearest, an axis named twice, an antialiased downscale beyond 64 taps.

Each model is built with the onnx Python package, run by `webnn run model.onnx` on the given
backend. Usage: compositions.py WEBNN_CLI WORK_DIR BACKEND. Exits 77 without python3-onnx.
"""
import itertools
import os
import subprocess
import sys

import numpy as np
from shard import shard

try:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:  # pragma: no cover - the skip path
    print(f"skipped: {e}")
    sys.exit(77)


def run_model(cli, work, backend, model, feeds):
    """Saves `model`, runs it with the .npy feeds, returns {output name: array} or an error string."""
    path = os.path.join(work, "model.onnx")
    onnx.save(model, path)
    args = [cli, "run", path, "--backend", backend, "--output-dir", os.path.join(work, "out")]
    for name, value in feeds.items():
        np.save(os.path.join(work, name + ".npy"), value)
        args += ["--input", f"{name}={os.path.join(work, name + '.npy')}"]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return r.stderr.strip()
    return {o.name: np.load(os.path.join(work, "out", o.name + ".npy")) for o in model.graph.output}


def check_refused(cli, work, backend, refused):
    """Runs each (name, model, feeds, a part of the expected error) and returns how many did not
    fail with that error."""
    failed = 0
    for name, model, feeds, error in refused:
        got = run_model(cli, work, backend, model, feeds)
        ok = isinstance(got, str) and error in got
        print(f"{'PASS' if ok else 'FAIL'} {name} refused" + ("" if ok else f": {got}"))
        failed += not ok
    return failed


def check_cases(cli, work, backend, cases):
    """Runs each (name, (model, feeds, {output: expected}), exact) and returns how many failed.
    `exact` True: the same type and values (NaN where NaN is expected); False: largest |difference|
    at most 1e-5 x largest |value|; a number: that bound instead of 1e-5."""
    failed = 0
    for name, (model, feeds, expected), exact in cases:
        got = run_model(cli, work, backend, model, feeds)
        if isinstance(got, str):
            print(f"FAIL {name}: {got}")
            failed += 1
            continue
        ok, note = True, ""
        for key, want in expected.items():
            have = got[key]
            if have.shape != want.shape:
                print(f"FAIL {name}: {key} has shape {have.shape}, expected {want.shape}")
                ok = False
            elif exact is True:
                same = have == want
                if np.issubdtype(have.dtype, np.floating):
                    same |= np.isnan(have) & np.isnan(np.asarray(want, np.float64))
                bad = np.argwhere(~same)
                if have.dtype != want.dtype:
                    print(f"FAIL {name}: {key} is {have.dtype}, expected {want.dtype}")
                    ok = False
                elif len(bad):
                    i = tuple(bad[0])
                    inputs = ", ".join(f"{k}{list(i) if v.shape == have.shape else ''} = "
                                       f"{v[i] if v.shape == have.shape else '...'}" for k, v in feeds.items())
                    print(f"FAIL {name}: {key}: {len(bad)} wrong, e.g. at {list(i)}: {have[i]}, expected {want[i]} "
                          f"({inputs})")
                    ok = False
            else:
                scale = float(np.abs(want).max())
                diff = float(np.abs(have.astype(np.float64) - want).max())
                note = f" (max |diff| / max |value| = {diff / scale:.2g})" if scale else ""
                bound = exact or 1e-5
                if diff > bound * scale:
                    print(f"FAIL {name}: {key} max |diff| {diff:.3g} > {bound:g} x {scale:.3g}")
                    ok = False
        print(f"{'PASS' if ok else 'FAIL'} {name}{note}")
        failed += not ok
    return failed


def recurrent_functions(names, alphas=(), betas=()):
    """numpy functions for ONNX's recurrent activations, written from their operators' formulas.
    activation_alpha and activation_beta are consumed in order by the activations that take such a
    parameter (ONNX Runtime's reading of "in the order of activation functions"); one not given
    is the ONNX operator's default."""
    alphas, betas = list(alphas), list(betas)
    takes = {"leakyrelu": (0.01, None), "thresholdedrelu": (1.0, None), "elu": (1.0, None),
             "hardsigmoid": (0.2, 0.5), "affine": (1.0, 0.0), "scaledtanh": (None, None)}
    fns = []
    for name in names:
        n = name.lower()
        alpha = beta = None
        if n in takes:
            alpha = alphas.pop(0) if alphas else takes[n][0]
            if n in ("hardsigmoid", "affine", "scaledtanh"):
                beta = betas.pop(0) if betas else takes[n][1]
        fns.append({
            "tanh": np.tanh, "relu": lambda v: np.maximum(v, 0), "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
            "affine": lambda v, a=alpha, b=beta: a * v + b,
            "leakyrelu": lambda v, a=alpha: np.where(v >= 0, v, a * v),
            "thresholdedrelu": lambda v, a=alpha: np.where(v > a, v, 0.0),
            "scaledtanh": lambda v, a=alpha, b=beta: a * np.tanh(b * v),
            "hardsigmoid": lambda v, a=alpha, b=beta: np.clip(a * v + b, 0, 1),
            "elu": lambda v, a=alpha: np.where(v >= 0, v, a * (np.exp(v) - 1)),
            "softsign": lambda v: v / (1 + np.abs(v)), "softplus": lambda v: np.log1p(np.exp(v)),
        }.get(n))  # None for a name ONNX does not have (a case the import must refuse)
    return fns


def activation_attrs(names, alphas=(), betas=()):
    """A recurrent node's activations, activation_alpha and activation_beta attributes (those given)."""
    attrs = {"activations": list(names)}
    if alphas:
        attrs["activation_alpha"] = list(alphas)
    if betas:
        attrs["activation_beta"] = list(betas)
    return attrs


def rnn_case(rng, direction, layout, clip, activation, alphas=(), betas=()):
    """An RNN node and its float64 recurrence; `activation` names one activation, or a list of
    one per direction."""
    steps, batch, inputs, hidden = 4, 3, 5, 6
    dirs = 2 if direction == "bidirectional" else 1
    x = rng.standard_normal((batch, steps, inputs) if layout else (steps, batch, inputs)).astype(np.float32)
    w = (rng.standard_normal((dirs, hidden, inputs)) * 0.5).astype(np.float32)
    r = (rng.standard_normal((dirs, hidden, hidden)) * 0.5).astype(np.float32)
    b = rng.standard_normal((dirs, 2 * hidden)).astype(np.float32)
    h0 = rng.standard_normal((batch, dirs, hidden) if layout else (dirs, batch, hidden)).astype(np.float32)
    names = [activation] * dirs if isinstance(activation, str) else list(activation)
    attrs = dict(hidden_size=hidden, direction=direction, layout=layout, **activation_attrs(names, alphas, betas))
    if clip is not None:
        attrs["clip"] = clip
    node = helper.make_node("RNN", ["X", "W", "R", "B", "", "h0"], ["Y", "Y_h"], **attrs)
    inits = [numpy_helper.from_array(a, n) for a, n in ((w, "W"), (r, "R"), (b, "B"), (h0, "h0"))]
    graph = helper.make_graph([node], "rnn", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None),
                               helper.make_tensor_value_info("Y_h", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 7
    # The recurrence in float64, time-major.
    xs = x.astype(np.float64).transpose(1, 0, 2) if layout else x.astype(np.float64)
    hs = h0.astype(np.float64).transpose(1, 0, 2) if layout else h0.astype(np.float64)
    fns = recurrent_functions(names, alphas, betas)
    y = np.zeros((steps, dirs, batch, hidden))
    y_h = np.zeros((dirs, batch, hidden))
    for d in range(dirs):
        h = hs[d]
        backward = direction == "reverse" or d == 1
        for t in (reversed(range(steps)) if backward else range(steps)):
            pre = xs[t] @ w[d].T.astype(np.float64) + h @ r[d].T.astype(np.float64) + b[d, :hidden] + b[d, hidden:]
            if clip is not None:
                pre = np.clip(pre, -clip, clip)
            h = fns[d](pre)
            y[t, d] = h
        y_h[d] = h
    if layout:
        y, y_h = y.transpose(2, 0, 1, 3), y_h.transpose(1, 0, 2)
    return model, {"X": x}, {"Y": y, "Y_h": y_h}


def mod_case(dtype, fmod):
    info = np.iinfo(dtype)
    values = [0, 1, 2, 3, 5, 7, 100, info.max, info.max - 1]
    if info.min < 0:
        values += [-v for v in values[1:7]] + [info.min, info.min + 1, -info.max]
    values = np.array(sorted(set(values)), dtype=dtype)
    divisors = values[values != 0]  # ONNX leaves a zero divisor undefined
    a = np.repeat(values, len(divisors)).astype(dtype)
    b = np.tile(divisors, len(values)).astype(dtype)
    onnx_type = onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]
    node = helper.make_node("Mod", ["A", "B"], ["C"], fmod=fmod)
    graph = helper.make_graph([node], "mod", [helper.make_tensor_value_info("A", onnx_type, a.shape),
                                              helper.make_tensor_value_info("B", onnx_type, b.shape)],
                              [helper.make_tensor_value_info("C", onnx_type, a.shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    # Python's integers: no overflow in the oracle (INT_MIN mod -1 is 0).
    expected = []
    for p, q in zip(a.tolist(), b.tolist()):
        if fmod:
            m = abs(p) % abs(q)
            expected.append(-m if p < 0 else m)
        else:
            expected.append(p % q)
    return model, {"A": a, "B": b}, {"C": np.array(expected, dtype=dtype)}


def single_node_model(node, x_shape, inits, opset=17):
    graph = helper.make_graph([node], node.op_type, [helper.make_tensor_value_info("X", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(a, n) for n, a in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def same_pads(size, kernel, stride, dilation, upper):
    """auto_pad SAME_*: the output is ceil(size / stride); the total padding, the odd one at the end (upper)."""
    out = -(-size // stride)
    total = max(0, (out - 1) * stride + (kernel - 1) * dilation + 1 - size)
    return (total // 2, total - total // 2) if upper else (total - total // 2, total // 2)


def pads_3d(attrs, x_shape, kernel, strides, dilations, pads, auto_pad):
    """Sets a 3-D node's auto_pad or pads attribute; returns the (begin, end) padding of each axis."""
    if auto_pad:
        attrs["auto_pad"] = auto_pad
        return zip(*(same_pads(x_shape[2 + i], kernel[i], strides[i], dilations[i], auto_pad == "SAME_UPPER")
                     for i in range(3)))
    attrs["pads"] = pads
    return pads[:3], pads[3:]


def conv3d_case(rng, x_shape, w_shape, group, strides, dilations, pads=None, auto_pad=None, bias=True):
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    b = rng.standard_normal(w_shape[0]).astype(np.float32)
    attrs = dict(group=group, strides=strides, dilations=dilations)
    kernel = w_shape[2:]
    begin, end = pads_3d(attrs, x_shape, kernel, strides, dilations, pads, auto_pad)
    node = helper.make_node("Conv", ["X", "W", "B"] if bias else ["X", "W"], ["Y"], **attrs)
    inits = {"W": w, "B": b} if bias else {"W": w}
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + list(zip(begin, end)))
    out = [(xp.shape[2 + i] - ((kernel[i] - 1) * dilations[i] + 1)) // strides[i] + 1 for i in range(3)]
    m, cg = w_shape[0], w_shape[1]
    mg = m // group
    y = np.zeros((x_shape[0], m, *out))
    for k in np.ndindex(*kernel):
        window = tuple(slice(k[i] * dilations[i], k[i] * dilations[i] + (out[i] - 1) * strides[i] + 1, strides[i])
                       for i in range(3))
        xs = xp[(slice(None), slice(None)) + window]
        for g in range(group):
            y[:, g * mg:(g + 1) * mg] += np.einsum("nc...,mc->nm...", xs[:, g * cg:(g + 1) * cg],
                                                   w[g * mg:(g + 1) * mg][(slice(None), slice(None)) + k])
    if bias:
        y += b.reshape(-1, 1, 1, 1)
    return single_node_model(node, x.shape, inits), {"X": x}, {"Y": y}


def conv_transpose3d_case(rng, x_shape, w_shape, group, strides, dilations, pads, output_padding=(0, 0, 0),
                          output_shape=None):
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    b = rng.standard_normal(w_shape[1] * group).astype(np.float32)
    kernel = w_shape[2:]
    attrs = dict(group=group, strides=strides, dilations=dilations, output_padding=list(output_padding))
    full = [(x_shape[2 + i] - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 + output_padding[i]
            for i in range(3)]
    if output_shape:
        attrs["output_shape"] = output_shape
        # ONNX: total padding = full - output_shape, the larger half at the beginning (auto_pad NOTSET).
        total = [full[i] - output_shape[i] for i in range(3)]
        begin, end = [t - t // 2 for t in total], [t // 2 for t in total]
    else:
        attrs["pads"] = pads
        begin, end = pads[:3], pads[3:]
    node = helper.make_node("ConvTranspose", ["X", "W", "B"], ["Y"], **attrs)
    c, mg = w_shape[0], w_shape[1]
    cg = c // group
    y = np.zeros((x_shape[0], mg * group, *full))
    xd = x.astype(np.float64)
    for k in np.ndindex(*kernel):
        window = tuple(slice(k[i] * dilations[i], k[i] * dilations[i] + (x_shape[2 + i] - 1) * strides[i] + 1,
                             strides[i]) for i in range(3))
        for g in range(group):
            y[(slice(None), slice(g * mg, (g + 1) * mg)) + window] += np.einsum(
                "nc...,cm->nm...", xd[:, g * cg:(g + 1) * cg], w[g * cg:(g + 1) * cg][(slice(None), slice(None)) + k])
    y = y[(slice(None), slice(None)) + tuple(slice(begin[i], full[i] - end[i]) for i in range(3))]
    y = y + b.reshape(-1, 1, 1, 1)
    return single_node_model(node, x.shape, {"W": w, "B": b}), {"X": x}, {"Y": y}


def pool3d_case(rng, op, x_shape, kernel, strides, pads=None, auto_pad=None, dilations=(1, 1, 1), ceil_mode=0,
                count_include_pad=0):
    x = rng.standard_normal(x_shape).astype(np.float32)
    attrs = dict(kernel_shape=kernel, strides=strides)
    if op == "MaxPool":
        attrs["dilations"] = list(dilations)
    if op == "AveragePool":
        attrs["count_include_pad"] = count_include_pad
    if op == "LpPool":
        attrs["p"] = 2
    if op != "LpPool":
        attrs["ceil_mode"] = ceil_mode
    begin, end = pads_3d(attrs, x_shape, kernel, strides, dilations, pads, auto_pad)
    node = helper.make_node(op, ["X"], ["Y"], **attrs)
    out, extra = [], []
    for i in range(3):
        span = x_shape[2 + i] + begin[i] + end[i] - ((kernel[i] - 1) * dilations[i] + 1)
        o = (-(-span // strides[i]) if ceil_mode else span // strides[i]) + 1
        if ceil_mode and (o - 1) * strides[i] >= x_shape[2 + i] + begin[i]:
            o -= 1  # the last window would start in the ending padding
        out.append(o)
        extra.append(max(0, (o - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - span -
                         ((kernel[i] - 1) * dilations[i] + 1)))
    # Padding is NaN (left out), or zeros that count (count_include_pad); past it (ceil_mode) NaN.
    pad_value = 0.0 if count_include_pad else np.nan
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + list(zip(begin, end)), constant_values=pad_value)
    xp = np.pad(xp, [(0, 0), (0, 0)] + [(0, e) for e in extra], constant_values=np.nan)
    taps = []
    for k in np.ndindex(*kernel):
        window = tuple(slice(k[i] * dilations[i], k[i] * dilations[i] + (out[i] - 1) * strides[i] + 1, strides[i])
                       for i in range(3))
        taps.append(xp[(slice(None), slice(None)) + window])
    taps = np.stack(taps)
    if op == "MaxPool":
        y = np.nanmax(taps, axis=0)
    elif op == "AveragePool":
        y = np.nanmean(taps, axis=0)
    else:
        y = np.sqrt(np.nansum(taps * taps, axis=0))
    return single_node_model(node, x.shape, {}), {"X": x}, {"Y": y}


def global_pool_case(rng, op, x_shape):
    x = rng.standard_normal(x_shape).astype(np.float32)
    node = helper.make_node(op, ["X"], ["Y"], **({"p": 2} if op == "GlobalLpPool" else {}))
    flat = x.astype(np.float64).reshape(x_shape[0], x_shape[1], -1)
    y = {"GlobalMaxPool": lambda v: v.max(-1), "GlobalAveragePool": lambda v: v.mean(-1),
         "GlobalLpPool": lambda v: np.sqrt((v * v).sum(-1))}[op](flat)
    return single_node_model(node, x.shape, {}), {"X": x}, {"Y": y.reshape(x_shape[:2] + (1,) * (len(x_shape) - 2))}


def det_case(rng, shape, x=None):
    x = rng.standard_normal(shape).astype(np.float32) if x is None else x.astype(np.float32)
    node = helper.make_node("Det", ["X"], ["Y"])
    return single_node_model(node, x.shape, {}), {"X": x}, {"Y": np.linalg.det(x.astype(np.float64))}


def det_special_cases(rng):
    """6x6 matrices that test the elimination's pivoting and its zero pivots, each a case of its own
    (the bound is relative to each one's determinant): a zero column (0 exactly), a permutation with
    zeros on the diagonal (-1 exactly: every step swaps), a random matrix batched with one whose
    two rows are equal (det ~0), one whose largest entries sit off the diagonal, and one scaled by
    1000 (det ~1e18)."""
    zero_column = rng.standard_normal((6, 6))
    zero_column[:, 3] = 0
    permutation = np.eye(6)[[2, 0, 1, 3, 5, 4]]
    equal_rows = rng.standard_normal((2, 6, 6))
    equal_rows[1][4] = equal_rows[1][1]
    off_diagonal = rng.standard_normal((6, 6)) * 0.01 + np.eye(6)[::-1] * 5

    def exact(name, x, want):
        model, feeds, _ = det_case(rng, None, x)
        return (name, (model, feeds, {"Y": np.array(want, np.float32)}), True)
    return [exact("Det 6x6 with a zero column: 0", zero_column, 0.0),
            exact("Det 6x6 permutation, zeros on the diagonal: -1", permutation, -1.0),
            ("Det 6x6 random and one with two equal rows", det_case(rng, None, equal_rows), 1e-4),
            ("Det 6x6 with its largest entries off the diagonal", det_case(rng, None, off_diagonal), 1e-4),
            ("Det 6x6 scaled by 1000 (~1e18)", det_case(rng, None, rng.standard_normal((6, 6)) * 1000), 1e-4)]


def grid_reflect(v, lo, hi):
    """Folds v into [lo, hi] at its ends, as often as it takes."""
    if hi == lo:
        return lo
    while v < lo or v > hi:
        v = 2 * lo - v if v < lo else 2 * hi - v
    return v


def grid_sample_reference(x, grid, mode, padding, align):
    """GridSample of x [N, C, H, W] at grid [N, Ho, Wo, 2] in float64, one output point at a time."""
    n, ch, h, w = x.shape
    x = x.astype(np.float64)
    out = np.zeros((n, ch) + grid.shape[1:3])

    def pixel(b, r, col):
        """The [C] pixel at whole position (r, col) after padding."""
        if padding == "zeros":
            return x[b, :, r, col] if 0 <= r < h and 0 <= col < w else np.zeros(ch)
        if padding == "border":
            return x[b, :, min(max(r, 0), h - 1), min(max(col, 0), w - 1)]
        lo_r, hi_r = (0, h - 1) if align else (-0.5, h - 0.5)
        lo_c, hi_c = (0, w - 1) if align else (-0.5, w - 0.5)
        return x[b, :, int(grid_reflect(r, lo_r, hi_r)), int(grid_reflect(col, lo_c, hi_c))]

    def cubic(t):
        a = -0.75

        def far(d):  # 1 < d < 2
            return a * d ** 3 - 5 * a * d ** 2 + 8 * a * d - 4 * a

        def near(d):  # d <= 1
            return (a + 2) * d ** 3 - (a + 3) * d ** 2 + 1
        return [far(1 + t), near(t), near(1 - t), far(2 - t)]

    for b in range(n):
        for i in range(grid.shape[1]):
            for j in range(grid.shape[2]):
                pos = []
                for value, size in ((float(grid[b, i, j, 1]), h), (float(grid[b, i, j, 0]), w)):
                    p = (value + 1) / 2 * (size - 1) if align else ((value + 1) * size - 1) / 2
                    if mode == "nearest":
                        p = float(np.rint(p))  # half to even
                    lo, hi = (0, size - 1) if align else (-0.5, size - 0.5)
                    if p < lo or p > hi:
                        p = min(max(p, 0), size - 1) if padding == "border" else (
                            grid_reflect(p, lo, hi) if padding == "reflection" else p)
                    pos.append(p)
                if mode == "nearest":
                    out[b, :, i, j] = pixel(b, int(pos[0]), int(pos[1]))
                    continue
                r0, c0 = int(np.floor(pos[0])), int(np.floor(pos[1]))
                tr, tc = pos[0] - r0, pos[1] - c0
                if mode == "bilinear":
                    rows, cols = [(r0, 1 - tr), (r0 + 1, tr)], [(c0, 1 - tc), (c0 + 1, tc)]
                else:
                    rows = list(zip(range(r0 - 1, r0 + 3), cubic(tr)))
                    cols = list(zip(range(c0 - 1, c0 + 3), cubic(tc)))
                out[b, :, i, j] = sum(wr * wc * pixel(b, r, col) for r, wr in rows for col, wc in cols)
    return out


def grid_sample_case(rng, mode, padding, align, x_shape, out_hw=(6, 7)):
    x = rng.standard_normal(x_shape).astype(np.float32)
    # Most points in [-1.1, 1.1], some far outside (several reflections), and (sizes of powers of 2,
    # where float32 holds them exactly) a few where a nearest coordinate is a half.
    grid = rng.uniform(-1.1, 1.1, (x_shape[0],) + out_hw + (2,)).astype(np.float32)
    grid[0, 0, :3] = [[-3.3, 0.2], [2.6, -2.9], [4.4, 5.1]]
    h, w = x_shape[2:]
    if not align and x_shape[2:] == (4, 8):  # ((g + 1) w - 1) / 2 = k + 1/2  <=>  g = (2k + 2) / w - 1
        grid[1, 1, :3, 0] = [2 / w - 1, 4 / w - 1, 2 * w / w - 1]
        grid[1, 1, :3, 1] = [4 / h - 1, 6 / h - 1, 2 / h - 1]
    node = helper.make_node("GridSample", ["X", "G"], ["Y"], mode=mode, padding_mode=padding,
                            align_corners=int(align))
    graph = helper.make_graph([node], "grid_sample", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape),
                                                      helper.make_tensor_value_info("G", TensorProto.FLOAT, grid.shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
    model.ir_version = 8
    return model, {"X": x, "G": grid}, {"Y": grid_sample_reference(x, grid, mode, padding, align)}


def resize_coordinate(o, coord, scale, length, size_in, size_out, roi_start, roi_end):
    """The input coordinate of output position o (ONNX's coordinate_transformation_mode)."""
    if coord == "half_pixel":
        return (o + 0.5) / scale - 0.5
    if coord == "pytorch_half_pixel":
        return (o + 0.5) / scale - 0.5 if length > 1 else 0.0
    if coord == "align_corners":
        return 0.0 if length == 1 else o * (size_in - 1) / (length - 1)
    if coord == "asymmetric":
        return o / scale
    if coord == "tf_half_pixel_for_nn":
        return (o + 0.5) / scale
    if coord == "half_pixel_symmetric":
        adjustment = size_out / length
        return size_in / 2 * (1 - adjustment) + (o + 0.5) / scale - 0.5
    if coord == "tf_crop_and_resize":
        if length > 1:
            return roi_start * (size_in - 1) + o * (roi_end - roi_start) * (size_in - 1) / (length - 1)
        return 0.5 * (roi_start + roi_end) * (size_in - 1)
    raise ValueError(coord)


def resize_kernel(mode, a, u):
    """The interpolation kernel at distance u: linear's triangle or the cubic convolution kernel."""
    u = abs(u)
    if mode == "linear":
        return max(0.0, 1 - u)
    if u <= 1:
        return (a + 2) * u ** 3 - (a + 3) * u ** 2 + 1
    return a * u ** 3 - 5 * a * u ** 2 + 8 * a * u - 4 * a if u < 2 else 0.0


def resize_line(line, x, mode, nearest_mode, a, exclude_outside, antialias_scale=None):
    """One output value from a 1-D line at input coordinate x: the taps ONNX's definition gives,
    the neighbours taken from the line padded with its edge values. With antialias_scale (a
    downscale's scale), the kernel is stretched by 1 / scale: it weighs every position within
    support / scale of x, and the weights are divided by their sum."""
    n = len(line)
    base = np.floor(x)
    t = x - base
    if antialias_scale is not None:
        reach = (2 if mode == "cubic" else 1) / antialias_scale
        idx = [i for i in range(int(np.floor(x - reach)) - 1, int(np.ceil(x + reach)) + 2) if abs(i - x) < reach]
        w = np.array([resize_kernel(mode, a, antialias_scale * (i - x)) for i in idx])
        w = w / w.sum()
    elif mode == "nearest":
        up = {"round_prefer_floor": t > 0.5, "round_prefer_ceil": t >= 0.5, "floor": False, "ceil": True}[nearest_mode]
        idx, w = [int(base) + (1 if t > 0 and up else 0)], [1.0]
    elif mode == "linear":
        idx, w = [int(base), int(base) + 1], [1 - t, t]
    else:
        u = 1 - t
        idx = [int(base) - 1, int(base), int(base) + 1, int(base) + 2]
        w = [((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a, ((a + 2) * t - (a + 3)) * t * t + 1,
             ((a + 2) * u - (a + 3)) * u * u + 1, ((a * (u + 1) - 5 * a) * (u + 1) + 8 * a) * (u + 1) - 4 * a]
    w = np.array(w, np.float64)
    if exclude_outside:
        w = np.array([0.0 if i < 0 or i >= n else v for i, v in zip(idx, w)])
        w = w / w.sum()
    padded = [line[min(max(i, 0), n - 1)] for i in idx]
    return float(np.dot(w, padded))


def resize_reference(x, sizes, scales, mode, coord, nearest_mode="round_prefer_floor", a=-0.75, exclude_outside=0,
                     roi=None, extrapolation=0.0, antialias=0, axes=None, policy="stretch"):
    """Resize from ONNX's definition, one axis after the other (the operator is separable). `axes`
    (opset 18) names the axes scales, sizes and roi give values for; keep_aspect_ratio_policy
    `policy` turns sizes into one scale, the smallest (not_larger) or largest (not_smaller) of
    their ratios, and the outputs into in x scale rounded half up."""
    y = x.astype(np.float64)
    rank = x.ndim
    if axes is not None:
        axes = [d % rank for d in axes]
        if sizes is not None:
            sizes = [sizes[axes.index(d)] if d in axes else x.shape[d] for d in range(rank)]
        else:
            scales = [scales[axes.index(d)] if d in axes else 1.0 for d in range(rank)]
        if roi is not None:
            k = len(axes)
            roi = [roi[axes.index(d)] if d in axes else 0.0 for d in range(rank)] + \
                  [roi[k + axes.index(d)] if d in axes else 1.0 for d in range(rank)]
    else:
        axes = list(range(rank))
    kept = None
    if sizes is not None and policy != "stretch":
        ratios = [sizes[d] / x.shape[d] for d in axes]
        kept = min(ratios) if policy == "not_larger" else max(ratios)
    for axis in range(rank):
        size_in = x.shape[axis]
        if kept is not None:
            scale = kept if axis in axes else 1.0
            length = size_in * scale
            size_out = int(np.floor(length + 0.5))
        elif sizes is not None:
            size_out, scale, length = sizes[axis], sizes[axis] / size_in, float(sizes[axis])
        else:
            scale = scales[axis]
            length = size_in * scale
            size_out = int(np.floor(length))
        crop = coord == "tf_crop_and_resize"
        if size_out == size_in and scale == 1 and not crop:
            continue
        moved = np.moveaxis(y, axis, -1)
        out = np.zeros(moved.shape[:-1] + (size_out,))
        for o in range(size_out):
            xo = resize_coordinate(o, coord, scale, length, size_in, size_out,
                                   roi[axis] if crop else 0, roi[rank + axis] if crop else 0)
            if crop and (xo < 0 or xo > size_in - 1):
                out[..., o] = extrapolation
                continue
            aa = scale if antialias and mode != "nearest" and scale < 1 else None
            for index in np.ndindex(moved.shape[:-1]):
                out[index + (o,)] = resize_line(moved[index], xo, mode, nearest_mode, a, exclude_outside, aa)
        y = np.moveaxis(out, -1, axis)
    return y


def resize_case(rng, x_shape, mode, coord, sizes=None, scales=None, dtype=np.float32, opset=18, **attrs):
    x = (rng.standard_normal(x_shape) * 4).astype(dtype) if dtype == np.float32 else \
        rng.integers(-100, 100, x_shape).astype(dtype)
    roi = attrs.pop("roi", None)
    inits = {"roi": np.array(roi if roi is not None else [], np.float32)}
    inputs = ["X", "roi"]
    if scales is not None:
        inits["scales"] = np.array(scales, np.float32)
        inputs.append("scales")
    else:
        inits["sizes"] = np.array(sizes, np.int64)
        inputs += ["", "sizes"]
    node = helper.make_node("Resize", inputs, ["Y"], mode=mode, coordinate_transformation_mode=coord, **attrs)
    elem = TensorProto.FLOAT if dtype == np.float32 else TensorProto.INT32
    graph = helper.make_graph([node], "resize", [helper.make_tensor_value_info("X", elem, x_shape)],
                              [helper.make_tensor_value_info("Y", elem, None)],
                              [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    want = resize_reference(x, sizes, None if scales is None else np.array(scales, np.float32).astype(np.float64),
                            mode, coord, attrs.get("nearest_mode", "round_prefer_floor"),
                            attrs.get("cubic_coeff_a", -0.75), attrs.get("exclude_outside", 0), roi,
                            attrs.get("extrapolation_value", 0.0), attrs.get("antialias", 0), attrs.get("axes"),
                            attrs.get("keep_aspect_ratio_policy", "stretch"))
    return model, {"X": x}, {"Y": want}


def scatter_reduction_case(rng, op, reduction, data_shape, indices, updates_shape, axis=0):
    data = rng.standard_normal(data_shape).astype(np.float32)
    updates = (rng.standard_normal(updates_shape) + 1.5).astype(np.float32)
    indices = np.array(indices, np.int64)
    attrs = dict(reduction=reduction)
    if op == "ScatterElements":
        attrs["axis"] = axis
    node = helper.make_node(op, ["X", "I", "U"], ["Y"], **attrs)
    graph = helper.make_graph([node], "scatter", [helper.make_tensor_value_info("X", TensorProto.FLOAT, data_shape),
                                                  helper.make_tensor_value_info("U", TensorProto.FLOAT, updates_shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(indices, "I")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    ufunc = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}[reduction]
    want = data.astype(np.float64)
    if op == "ScatterElements":
        idx = [np.indices(indices.shape)[a] for a in range(indices.ndim)]
        idx[axis] = np.where(indices < 0, indices + data_shape[axis], indices)
        ufunc.at(want, tuple(idx), updates.astype(np.float64))
    else:
        k = indices.shape[-1]
        for t, tup in enumerate(indices.reshape(-1, k)):
            tup = tuple(int(v) + (data_shape[j] if v < 0 else 0) for j, v in enumerate(tup))
            want[tup] = ufunc(want[tup], updates.reshape((-1,) + tuple(data_shape[k:]))[t].astype(np.float64))
    return model, {"X": data, "U": updates}, {"Y": want}


def bit_shift_case(dtype, direction):
    bits = np.iinfo(dtype).bits
    top = int(np.iinfo(dtype).max)
    x = np.array([[1, 3, top, top, 0x5A, 1, 7, 2], [top, 0x81, 1, 2, 3, 4, 5, 6]], dtype)
    s = np.array([0, 1, bits - 1, bits, bits + 3, 2, 3, bits - 2], dtype)  # broadcast over the rows
    mask = (1 << bits) - 1
    want = [[((int(v) << int(k)) & mask if direction == "LEFT" else int(v) >> int(k)) if k < bits else 0
             for v, k in zip(row, s)] for row in x]
    elem = {np.uint8: TensorProto.UINT8, np.uint32: TensorProto.UINT32, np.uint64: TensorProto.UINT64}[dtype]
    node = helper.make_node("BitShift", ["A", "B"], ["Y"], direction=direction)
    graph = helper.make_graph([node], "bitshift", [helper.make_tensor_value_info("A", elem, x.shape),
                                                   helper.make_tensor_value_info("B", elem, s.shape)],
                              [helper.make_tensor_value_info("Y", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model, {"A": x, "B": s}, {"Y": np.array(want, dtype)}


def bitwise_case(rng, dtype, op):
    """BitwiseAnd/Or/Xor (B broadcast over A's rows) and BitwiseNot of opset 18, against Python's
    integers in two's complement: the type's limits, 0, -1, alternating bits and random values."""
    info = np.iinfo(dtype)
    edges = [0, info.max, info.min, 1, info.max // 3, (info.max // 3) * 2 + 1]
    edges += [-1, -2] if info.min < 0 else [info.max - 1, 2]
    x = np.array([edges, rng.integers(info.min, info.max, 8, dtype=dtype, endpoint=True)], dtype)
    y = rng.integers(info.min, info.max, 8, dtype=dtype, endpoint=True)
    y[:3] = [info.max, 0, info.min]
    want = {"BitwiseAnd": np.bitwise_and(x, y), "BitwiseOr": np.bitwise_or(x, y), "BitwiseXor": np.bitwise_xor(x, y),
            "BitwiseNot": np.invert(x)}[op]
    elem = {np.int8: TensorProto.INT8, np.uint8: TensorProto.UINT8, np.int32: TensorProto.INT32,
            np.uint32: TensorProto.UINT32, np.int64: TensorProto.INT64, np.uint64: TensorProto.UINT64}[dtype]
    unary = op == "BitwiseNot"
    inputs = [helper.make_tensor_value_info("A", elem, x.shape)]
    if not unary:
        inputs.append(helper.make_tensor_value_info("B", elem, y.shape))
    graph = helper.make_graph([helper.make_node(op, ["A"] if unary else ["A", "B"], ["Y"])], "bitwise", inputs,
                              [helper.make_tensor_value_info("Y", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model, ({"A": x} if unary else {"A": x, "B": y}), {"Y": want}


def inverse_trig_case(op):
    if op == "Atan":
        x = np.concatenate([np.linspace(-5, 5, 20001), np.logspace(-8, 8, 20001), -np.logspace(-8, 8, 20001),
                            [0, -0.0, np.inf, -np.inf, np.nan, 1, -1, np.tan(np.pi / 8)]])
    else:
        x = np.concatenate([np.linspace(-1, 1, 60001), [0, -0.0, 1, -1, 1.5, -2, np.inf, np.nan, 1 - 1e-7]])
    x = x.astype(np.float32)
    node = helper.make_node(op, ["X"], ["Y"])
    graph = helper.make_graph([node], op, [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    with np.errstate(invalid="ignore"):
        want = {"Atan": np.arctan, "Asin": np.arcsin, "Acos": np.arccos}[op](x.astype(np.float64))
    return model, {"X": x}, want


def ulp_errors(got, want):
    """Why `got` is not within 4 ULP (of float32, at the float64 value) of `want` with NaN where it is NaN."""
    if not np.array_equal(np.isnan(got), np.isnan(want)):
        return "NaN positions differ"
    finite = ~np.isnan(want)
    ulp = np.abs(got[finite].astype(np.float64) - want[finite]) / \
        np.spacing(np.abs(want[finite]).astype(np.float32)).astype(np.float64)
    return f"{ulp.max():.2f} ULP" if ulp.max() > 4 else ""


def max_pool_indices_case(rng, x_shape, kernel, strides, pads, dilations=None, ceil_mode=0, storage_order=0,
                          nan=False):
    """MaxPool with its Indices output over 1, 2 or 3 spatial axes, against loops over each window:
    the first maximum in the window's scan order (the last axis fastest), or the first NaN; the
    flat index numbers positions with the last spatial axis fastest, or the first with
    storage_order 1."""
    x = rng.integers(-4, 5, x_shape).astype(np.float32)  # small integers: windows with ties
    dims = len(kernel)
    dilations = dilations or (1,) * dims
    if nan:
        x[(1, 2) + (1,) * dims] = np.nan
    n, ch, spatial = x_shape[0], x_shape[1], x_shape[2:]
    out = []
    for i in range(dims):
        size = spatial[i] + pads[i] + pads[i + dims] - ((kernel[i] - 1) * dilations[i] + 1)
        o = (-(-size // strides[i]) if ceil_mode else size // strides[i]) + 1
        if ceil_mode and (o - 1) * strides[i] >= spatial[i] + pads[i]:
            o -= 1
        out.append(o)
    want_y = np.full((n, ch) + tuple(out), -np.inf)
    want_i = np.zeros((n, ch) + tuple(out), np.int64)
    image = int(np.prod(spatial))
    for b in range(n):
        for c in range(ch):
            for o in itertools.product(*(range(v) for v in out)):
                best, where_ = -np.inf, -1
                for k in itertools.product(*(range(v) for v in kernel)):
                    at = [o[i] * strides[i] - pads[i] + k[i] * dilations[i] for i in range(dims)]
                    if not all(0 <= at[i] < spatial[i] for i in range(dims)):
                        continue
                    v = x[(b, c) + tuple(at)]
                    if np.isnan(best):
                        continue
                    if np.isnan(v) or v > best or where_ < 0:
                        best = v
                        order = range(dims - 1, -1, -1) if storage_order else range(dims)
                        where_ = 0
                        for i in order:
                            where_ = where_ * spatial[i] + at[i]
                want_y[(b, c) + o] = best
                want_i[(b, c) + o] = (b * ch + c) * image + where_
    node = helper.make_node("MaxPool", ["X"], ["Y", "I"], kernel_shape=list(kernel), strides=list(strides),
                            pads=list(pads), dilations=list(dilations), ceil_mode=ceil_mode,
                            storage_order=storage_order)
    graph = helper.make_graph([node], "maxpool", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None),
                               helper.make_tensor_value_info("I", TensorProto.INT64, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
    model.ir_version = 8
    return model, {"X": x}, {"Y": want_y.astype(np.float32), "I": want_i}


def tfidf_case(rng, x_shape, dtype, mode, min_n, max_n, max_skip, grams_by_n, weights=None):
    x = rng.integers(0, 4, x_shape).astype(dtype)  # 4 distinct tokens: many repeated grams
    pool, starts, grams = [], [], []
    for n, gs in enumerate(grams_by_n):
        starts.append(len(pool))
        for g in gs:
            assert len(g) == n + 1
            pool += g
            grams.append(tuple(g))
    outputs = list(rng.permutation(len(grams) + 2)[:len(grams)])  # some output columns stay 0
    rows = x.reshape(-1, x_shape[-1])
    want = np.zeros((rows.shape[0], max(outputs) + 1))
    for r, row in enumerate(rows):
        count = {}
        for n in range(min_n, max_n + 1):
            for skip in range(0, 1 if n == 1 else max_skip + 1):
                for i in range(len(row) - (n - 1) * (skip + 1)):
                    g = tuple(int(row[i + j * (skip + 1)]) for j in range(n))
                    count[g] = count.get(g, 0) + 1
        for k, g in enumerate(grams):
            tf = count.get(g, 0)
            w = 1.0 if weights is None else weights[k]
            want[r, outputs[k]] = tf if mode == "TF" else (w if tf > 0 else 0) if mode == "IDF" else tf * w
    attrs = dict(mode=mode, min_gram_length=min_n, max_gram_length=max_n, max_skip_count=max_skip,
                 ngram_counts=starts, ngram_indexes=[int(o) for o in outputs], pool_int64s=pool)
    if weights is not None:
        attrs["weights"] = weights
    node = helper.make_node("TfIdfVectorizer", ["X"], ["Y"], **attrs)
    elem = TensorProto.INT32 if dtype == np.int32 else TensorProto.INT64
    graph = helper.make_graph([node], "tfidf", [helper.make_tensor_value_info("X", elem, x_shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model, {"X": x}, {"Y": (want if len(x_shape) == 2 else want[0]).astype(np.float32)}


def instance_norm_case(rng, x_shape, epsilon=1e-5):
    """InstanceNormalization of any rank from 3 up (WebNN's takes 4-D), against float64 statistics
    over every spatial axis."""
    x = rng.uniform(-2, 2, x_shape).astype(np.float32)
    scale = rng.uniform(0.5, 1.5, x_shape[1]).astype(np.float32)
    bias = rng.uniform(-1, 1, x_shape[1]).astype(np.float32)
    axes = tuple(range(2, len(x_shape)))
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)
    bshape = (1, -1) + (1,) * len(axes)
    want = (x64 - mean) / np.sqrt(var + epsilon) * scale.reshape(bshape) + bias.reshape(bshape)
    node = helper.make_node("InstanceNormalization", ["X", "scale", "B"], ["Y"], epsilon=epsilon)
    return single_node_model(node, x_shape, {"scale": scale, "B": bias}), {"X": x}, {"Y": want}


def folded_pads_case(rng):
    """Pads computed at import through a composition and an empty slice: Mod of two int64
    constants (a composition of several operations, folded as it is built) and a slice of the
    input's shape that selects nothing, concatenated with zeros."""
    x = rng.uniform(-1, 1, (1, 2, 3, 3)).astype(np.float32)
    const = lambda name, v: helper.make_node("Constant", [], [name], value=numpy_helper.from_array(
        np.asarray(v, np.int64), name))
    nodes = [const("seven", [7]), const("four", [4]), const("zeros", [0] * 7),
             const("start", [4]), const("end", [10]),
             helper.make_node("Mod", ["seven", "four"], ["three"]),
             helper.make_node("Shape", ["X"], ["shape"]),
             helper.make_node("Slice", ["shape", "start", "end"], ["nothing"]),
             helper.make_node("Concat", ["zeros", "nothing", "three"], ["pads"], axis=0),
             helper.make_node("Pad", ["X", "pads"], ["Y"])]
    graph = helper.make_graph(nodes, "folded", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    return model, {"X": x}, {"Y": np.pad(x, [(0, 0), (0, 0), (0, 0), (0, 3)])}


def dropout_case(rng, ratio, training):
    """Dropout (opset 12) with its ratio and training_mode given as constants."""
    x = rng.uniform(-1, 1, (2, 5)).astype(np.float32)
    node = helper.make_node("Dropout", ["X", "ratio", "training"], ["Y"])
    model = single_node_model(node, x.shape, {"ratio": np.asarray(ratio, np.float32),
                                              "training": np.asarray(training, np.bool_)}, opset=13)
    return model, {"X": x}, {"Y": x}


def widened_double_case(rng, tail_op=None, output_double=False):
    """PyTorch's isinf / isfinite: Cast of float32 to double, then IsInf and IsNaN, cast back to
    float32 (and to float16); exact against numpy. `tail_op` ("Add") or `output_double` make a model
    that computes in double or returns one, which is refused."""
    x = rng.uniform(-1, 1, (3, 5)).astype(np.float32)
    x[0, :4] = [np.inf, -np.inf, np.nan, 0.0]
    d = TensorProto.DOUBLE
    nodes = [helper.make_node("Cast", ["X"], ["xd"], to=d),
             helper.make_node("IsInf", ["xd"], ["inf"]),
             helper.make_node("IsNaN", ["xd"], ["nan"]),
             helper.make_node("Or", ["inf", "nan"], ["bad"]),
             helper.make_node("Cast", ["bad"], ["Y"], to=TensorProto.FLOAT),
             helper.make_node("Cast", ["xd"], ["Z"], to=TensorProto.FLOAT16)]
    outputs = [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None),
               helper.make_tensor_value_info("Z", TensorProto.FLOAT16, None)]
    if tail_op:
        nodes.append(helper.make_node(tail_op, ["xd", "xd"], ["W"]))
        outputs.append(helper.make_tensor_value_info("W", d, None))
    if output_double:
        outputs.append(helper.make_tensor_value_info("xd", d, None))
    graph = helper.make_graph(nodes, "widened", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape)],
                              outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    want = (np.isinf(x) | np.isnan(x)).astype(np.float32)
    return model, {"X": x}, {"Y": want, "Z": x.astype(np.float16)}


def non_zero_case(rng):
    """NonZero of a constant (PyTorch's opset 9 arange is NonZero of ones), its indices gathered
    from the input: exact, against numpy's nonzero."""
    x = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
    mask = np.array([[0, 1.5, 0, -2], [0, 0, 0, 0], [np.nan, 0, 3, 0]], np.float32)
    nodes = [helper.make_node("Constant", [], ["mask"], value=numpy_helper.from_array(mask, "mask")),
             helper.make_node("NonZero", ["mask"], ["nz"]),
             helper.make_node("Transpose", ["nz"], ["points"], perm=[1, 0]),
             helper.make_node("GatherND", ["X", "points"], ["Y"])]
    graph = helper.make_graph(nodes, "nonzero", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    return model, {"X": x}, {"Y": x[np.nonzero(mask)]}


def einsum_case(rng, equation, shapes, dtype=np.float32):
    """Einsum of inputs X0, X1, ... of `shapes`, against numpy's einsum in float64 (integers: in
    int64, exactly)."""
    elem = {np.float32: TensorProto.FLOAT, np.int32: TensorProto.INT32, np.int64: TensorProto.INT64}[dtype]
    if dtype == np.float32:
        xs = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
    else:
        xs = [rng.integers(-20, 20, s).astype(dtype) for s in shapes]
    try:
        wide = np.float64 if dtype == np.float32 else np.int64
        want = np.asarray(np.einsum(equation, *[x.astype(wide) for x in xs])).astype(wide if dtype == np.float32 else dtype)
    except ValueError:  # an invalid equation, for the refusals
        want = None
    names = [f"X{i}" for i in range(len(xs))]
    node = helper.make_node("Einsum", names, ["Y"], equation=equation)
    graph = helper.make_graph([node], "einsum", [helper.make_tensor_value_info(n, elem, x.shape)
                                                 for n, x in zip(names, xs)],
                              [helper.make_tensor_value_info("Y", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    return model, dict(zip(names, xs)), {"Y": np.asarray(want)}


def main():
    cli, work, backend = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(3)
    cases = []
    for direction, layout, clip, activation in [("forward", 0, None, "Tanh"), ("reverse", 0, None, "Relu"),
                                                ("bidirectional", 0, 0.5, "Sigmoid"), ("bidirectional", 1, None, "Tanh"),
                                                ("reverse", 1, 2.0, "Tanh"), ("forward", 1, None, "Sigmoid")]:
        cases.append((f"RNN {direction} layout={layout} clip={clip} {activation}",
                      rnn_case(rng, direction, layout, clip, activation), False))
    for names, alphas, betas in [("LeakyRelu", (0.2,), ()), ("LeakyRelu", (), ()), ("ThresholdedRelu", (0.1,), ()),
                                 ("ThresholdedRelu", (), ()), ("Elu", (0.7,), ()), ("Softsign", (), ()),
                                 ("Softplus", (), ()), ("Affine", (0.5,), (0.1,)), ("ScaledTanh", (1.5, 2.0), (0.5, 0.25)),
                                 (["HardSigmoid", "Elu"], (0.3, 0.7), (0.4,)), ("HardSigmoid", (), ())]:
        cases.append((f"RNN bidirectional {names} alpha={list(alphas)} beta={list(betas)}",
                      rnn_case(rng, "bidirectional", 0, None, names, alphas, betas), False))
    for dtype in (np.int8, np.int32, np.int64, np.uint8, np.uint64):
        for fmod in (0, 1):
            cases.append((f"Mod {np.dtype(dtype).name} fmod={fmod}", mod_case(dtype, fmod), True))
    cases += [
        ("Conv 3-D pads, per-axis strides and dilations", conv3d_case(
            rng, (2, 3, 7, 6, 5), (4, 3, 3, 2, 2), 1, [2, 1, 2], [2, 1, 1], pads=[1, 0, 2, 2, 1, 0]), False),
        ("Conv 3-D groups, no bias", conv3d_case(
            rng, (1, 4, 5, 5, 4), (6, 2, 2, 3, 3), 2, [1, 2, 1], [1, 1, 2], pads=[0, 1, 1, 1, 0, 1], bias=False), False),
        ("Conv 3-D auto_pad SAME_UPPER", conv3d_case(
            rng, (1, 2, 6, 5, 7), (3, 2, 3, 3, 2), 1, [2, 2, 3], [1, 1, 1], auto_pad="SAME_UPPER"), False),
        ("Conv 3-D auto_pad SAME_LOWER, depthwise", conv3d_case(
            rng, (2, 3, 5, 4, 4), (3, 1, 2, 2, 3), 3, [1, 1, 2], [2, 1, 1], auto_pad="SAME_LOWER"), False),
        ("ConvTranspose 3-D strides, dilations, pads", conv_transpose3d_case(
            rng, (2, 3, 3, 4, 3), (3, 2, 3, 2, 2), 1, [2, 1, 2], [1, 2, 1], [1, 0, 1, 2, 1, 0]), False),
        ("ConvTranspose 3-D groups, output_padding", conv_transpose3d_case(
            rng, (1, 4, 3, 3, 4), (4, 3, 2, 3, 2), 2, [3, 2, 2], [2, 1, 1], [0, 1, 0, 1, 0, 1], (2, 1, 1)), False),
        ("ConvTranspose 3-D output_shape", conv_transpose3d_case(
            rng, (1, 2, 3, 3, 3), (2, 2, 3, 3, 3), 1, [2, 2, 2], [1, 1, 1], None, output_shape=[6, 7, 5]), False),
        ("MaxPool 3-D pads, dilations, ceil_mode", pool3d_case(
            rng, "MaxPool", (2, 3, 9, 6, 7), [2, 3, 2], [2, 1, 2], [1, 0, 1, 0, 1, 1], dilations=(2, 2, 1),
            ceil_mode=1), False),
        ("MaxPool 3-D auto_pad SAME_UPPER", pool3d_case(
            rng, "MaxPool", (1, 2, 6, 5, 7), [3, 3, 3], [2, 2, 2], auto_pad="SAME_UPPER"), False),
        ("AveragePool 3-D pads, ceil_mode", pool3d_case(
            rng, "AveragePool", (2, 3, 7, 5, 6), [3, 2, 2], [2, 2, 1], [1, 1, 0, 1, 0, 1], ceil_mode=1), False),
        ("AveragePool 3-D count_include_pad", pool3d_case(
            rng, "AveragePool", (1, 2, 5, 6, 7), [2, 2, 3], [1, 2, 2], [1, 0, 1, 1, 1, 0], count_include_pad=1),
         False),
        ("AveragePool 3-D auto_pad SAME_LOWER", pool3d_case(
            rng, "AveragePool", (1, 2, 5, 6, 4), [2, 3, 2], [1, 2, 1], auto_pad="SAME_LOWER"), False),
        ("LpPool 3-D p=2 pads, strides", pool3d_case(
            rng, "LpPool", (2, 2, 5, 5, 6), [2, 2, 2], [1, 1, 2], [0, 1, 1, 1, 0, 0]), False),
    ]
    for op in ("GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool"):
        cases.append((f"{op} 5-D", global_pool_case(rng, op, (2, 3, 4, 3, 5)), False))
    for shape in ((3, 1, 1), (4, 2, 2), (2, 3, 3, 3), (5, 4, 4), (4, 4)):
        cases.append((f"Det {shape}", det_case(rng, shape), False))
    for shape in ((5, 5), (3, 6, 6), (2, 2, 8, 8), (16, 16), (2, 32, 32)):
        cases.append((f"Det {shape} (elimination)", det_case(rng, shape), 1e-4))
    cases += det_special_cases(rng)
    for mode in ("bilinear", "nearest", "bicubic"):
        for padding in ("zeros", "border", "reflection"):
            for align in (False, True):
                cases.append((f"GridSample {mode} {padding} align_corners={int(align)}",
                              grid_sample_case(rng, mode, padding, align, (2, 3, 5, 3) if align else (2, 3, 4, 8)),
                              False))
    cases.append(("GridSample bilinear 1x1 input", grid_sample_case(rng, "bilinear", "border", False, (1, 2, 1, 1)),
                  False))
    for dtype in (np.uint8, np.uint32, np.uint64):
        for direction in ("LEFT", "RIGHT"):
            cases.append((f"BitShift {np.dtype(dtype).name} {direction}", bit_shift_case(dtype, direction), True))
    bit_rng = np.random.default_rng(7)  # its own: the other cases' inputs stay as they were
    for dtype in (np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64):
        for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"):
            cases.append((f"{op} {np.dtype(dtype).name}", bitwise_case(bit_rng, dtype, op), True))
    grams = [[[0], [2], [3]], [[0, 1], [1, 1], [3, 2], [2, 2]], [[0, 1, 2], [1, 1, 1]]]
    cases += [
        ("TfIdfVectorizer TF, lengths 1-3, skips up to 2, 2-D int64", tfidf_case(
            rng, (3, 17), np.int64, "TF", 1, 3, 2, grams), True),
        ("TfIdfVectorizer IDF with weights, 1-D int32", tfidf_case(
            rng, (23,), np.int32, "IDF", 1, 2, 1, grams[:2], weights=[0.5, 1.5, 2, 3, 0.25, 4, 1]), True),
        ("TfIdfVectorizer TFIDF, minimum length 2 (unigrams in the pool count 0)", tfidf_case(
            rng, (2, 12), np.int32, "TFIDF", 2, 3, 1, grams,
            weights=[1, 2, 3, 0.5, 0.25, 2, 4, 1.5, 3]), True),
    ]
    cases += [
        ("MaxPool Indices: pads, strides, ties, NaN", max_pool_indices_case(
            rng, (2, 3, 6, 7), (3, 3), (2, 2), (1, 1, 1, 0), nan=True), True),
        ("MaxPool Indices: dilations, ceil_mode, storage_order 1", max_pool_indices_case(
            rng, (2, 3, 7, 6), (2, 3), (2, 1), (0, 1, 1, 1), dilations=(2, 1), ceil_mode=1, storage_order=1), True),
        ("MaxPool Indices 1-D: pads, stride 2, ties, NaN", max_pool_indices_case(
            rng, (2, 3, 11), (3,), (2,), (1, 1), nan=True), True),
        ("MaxPool Indices 1-D: dilation 2, ceil_mode", max_pool_indices_case(
            rng, (1, 2, 10), (2,), (3,), (0, 1), dilations=(2,), ceil_mode=1), True),
        ("MaxPool Indices 3-D: pads, strides, ties, NaN", max_pool_indices_case(
            rng, (2, 3, 4, 5, 6), (2, 3, 2), (2, 1, 2), (1, 0, 1, 0, 1, 1), nan=True), True),
        ("MaxPool Indices 3-D: dilations, ceil_mode, storage_order 1", max_pool_indices_case(
            rng, (1, 2, 5, 4, 6), (2, 2, 3), (1, 2, 2), (0, 1, 1, 1, 0, 0), dilations=(2, 1, 1), ceil_mode=1,
            storage_order=1), True),
    ]
    cases += [
        ("ScatterElements add, axis 1, an element hit three times, negative indices", scatter_reduction_case(
            rng, "ScatterElements", "add", (3, 5), [[1, -4, 1, 1], [0, 4, -1, 2], [3, 3, 3, 0]], (3, 4), axis=1),
         False),
        ("ScatterElements mul, axis 0", scatter_reduction_case(
            rng, "ScatterElements", "mul", (4, 3), [[0, 1, 0], [0, 1, 3]], (2, 3)), False),
        ("ScatterElements max", scatter_reduction_case(
            rng, "ScatterElements", "max", (6,), [5, 0, 5, 5, 2], (5,)), False),
        ("ScatterElements min", scatter_reduction_case(
            rng, "ScatterElements", "min", (6,), [5, 0, 5, -1, 2], (5,)), False),
        ("ScatterND add of slices, a slice hit twice", scatter_reduction_case(
            rng, "ScatterND", "add", (4, 3, 2), [[1], [3], [1]], (3, 3, 2)), False),
        ("ScatterND mul of elements, negative indices", scatter_reduction_case(
            rng, "ScatterND", "mul", (3, 4), [[0, 1], [-1, -1], [0, 1]], (3,)), False),
        ("ScatterND max", scatter_reduction_case(
            rng, "ScatterND", "max", (2, 3, 2), [[1, 2], [1, 2], [0, 0]], (3, 2)), False),
        ("Resize cubic A=-0.5 exclude_outside, half_pixel up", resize_case(
            rng, (1, 2, 4, 5), "cubic", "half_pixel", sizes=[1, 2, 7, 9], cubic_coeff_a=-0.5, exclude_outside=1), False),
        ("Resize cubic align_corners, scales 0.6 (no whole size)", resize_case(
            rng, (1, 1, 5, 7), "cubic", "align_corners", scales=[1, 1, 0.6, 0.6]), False),
        ("Resize linear asymmetric, axes 1 and 3", resize_case(
            rng, (2, 3, 4, 5), "linear", "asymmetric", sizes=[2, 5, 4, 8]), False),
        ("Resize nearest int32 round_prefer_ceil tf_half_pixel_for_nn", resize_case(
            rng, (1, 1, 6, 6), "nearest", "tf_half_pixel_for_nn", sizes=[1, 1, 4, 9], dtype=np.int32,
            nearest_mode="round_prefer_ceil"), False),
        ("Resize nearest ceil asymmetric, scales 1.7", resize_case(
            rng, (1, 2, 3, 4), "nearest", "asymmetric", scales=[1, 1, 1.7, 1.7], nearest_mode="ceil"), False),
        ("Resize linear pytorch_half_pixel to a length of 1", resize_case(
            rng, (1, 1, 4, 6), "linear", "pytorch_half_pixel", sizes=[1, 1, 1, 3]), False),
        ("Resize cubic tf_crop_and_resize with extrapolation", resize_case(
            rng, (1, 1, 5, 6), "cubic", "tf_crop_and_resize", sizes=[1, 1, 4, 5],
            roi=[0, 0, -0.2, 0.3, 1, 1, 0.9, 1.4], extrapolation_value=10.0), False),
        ("Resize linear half_pixel_symmetric, scales 1.5", resize_case(
            rng, (1, 1, 4, 5), "linear", "half_pixel_symmetric", scales=[1, 1, 1.5, 1.5]), False),
        ("Resize antialias linear half_pixel, scales 0.5", resize_case(
            rng, (1, 1, 8, 10), "linear", "half_pixel", scales=[1, 1, 0.5, 0.5], antialias=1, opset=19), False),
        ("Resize antialias linear, sizes 3x4 of 9x11", resize_case(
            rng, (1, 2, 9, 11), "linear", "half_pixel", sizes=[1, 2, 3, 4], antialias=1, opset=19), False),
        ("Resize antialias cubic, scales 0.6", resize_case(
            rng, (1, 1, 10, 10), "cubic", "half_pixel", scales=[1, 1, 0.6, 0.6], antialias=1, opset=19), False),
        ("Resize antialias cubic exclude_outside pytorch_half_pixel", resize_case(
            rng, (1, 1, 12, 7), "cubic", "pytorch_half_pixel", sizes=[1, 1, 5, 3], antialias=1, exclude_outside=1,
            opset=19), False),
        ("Resize antialias linear align_corners, scales 0.3 (no whole size)", resize_case(
            rng, (1, 1, 13, 9), "linear", "align_corners", scales=[1, 1, 0.3, 0.5], antialias=1, opset=19), False),
        ("Resize antialias linear asymmetric, one axis down one up", resize_case(
            rng, (1, 1, 10, 4), "linear", "asymmetric", scales=[1, 1, 0.4, 2], antialias=1, opset=19), False),
        ("Resize antialias linear, a 20x downscale (40 taps)", resize_case(
            rng, (1, 1, 3, 100), "linear", "half_pixel", sizes=[1, 1, 3, 5], antialias=1, opset=19), False),
        ("Resize axes 2 and 3, sizes", resize_case(
            rng, (1, 2, 6, 8), "linear", "half_pixel", sizes=[3, 5], axes=[2, 3], opset=19), False),
        ("Resize axes [-1], scales, nearest", resize_case(
            rng, (2, 3, 5), "nearest", "asymmetric", scales=[1.6], axes=[-1], opset=19), False),
        ("Resize axes [3, 2] (reversed), sizes, cubic", resize_case(
            rng, (1, 1, 6, 8), "cubic", "half_pixel", sizes=[11, 4], axes=[3, 2], opset=19), False),
        ("Resize keep_aspect_ratio_policy not_larger", resize_case(
            rng, (1, 1, 6, 8), "linear", "half_pixel", sizes=[1, 1, 9, 9], keep_aspect_ratio_policy="not_larger",
            opset=19), False),
        ("Resize keep_aspect_ratio_policy not_smaller over every axis", resize_case(
            rng, (1, 1, 6, 8), "linear", "half_pixel", sizes=[1, 1, 9, 9], keep_aspect_ratio_policy="not_smaller",
            opset=19), False),
        ("Resize not_larger over axes 2 and 3, nearest (a half rounded up)", resize_case(
            rng, (1, 1, 5, 7), "nearest", "half_pixel", sizes=[4, 4], axes=[2, 3],
            keep_aspect_ratio_policy="not_larger", opset=19), False),
        ("Resize not_smaller over axes 2 and 3, antialias", resize_case(
            rng, (1, 1, 10, 14), "linear", "half_pixel", sizes=[3, 3], axes=[2, 3],
            keep_aspect_ratio_policy="not_smaller", antialias=1, opset=19), False),
        ("Resize tf_crop_and_resize over axes 2 and 3", resize_case(
            rng, (1, 1, 6, 7), "linear", "tf_crop_and_resize", sizes=[4, 5], axes=[2, 3],
            roi=[0.1, -0.2, 0.9, 1.1], extrapolation_value=3.0, opset=19), False),
    ]
    for equation, shapes, dtype in [
            ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)], np.float32),
            ("bhqd,bhkd->bhqk", [(2, 3, 5, 4), (2, 3, 6, 4)], np.float32),
            ("bqhd,bkhd->bhqk", [(2, 5, 3, 4), (2, 6, 3, 4)], np.float32),
            ("ij,ij->i", [(4, 5), (4, 5)], np.float32),
            ("i,i->", [(7,), (7,)], np.float32),
            ("i,j->ij", [(3,), (4,)], np.float32),
            ("ii->i", [(5, 5)], np.float32),
            ("ii->", [(5, 5)], np.float32),
            ("bii->b", [(3, 4, 4)], np.float32),
            ("iji->ji", [(3, 2, 3)], np.float32),
            ("ij->", [(3, 4)], np.float32),
            ("ij->ji", [(3, 4)], np.float32),
            ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], np.float32),
            ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)], np.float32),
            ("i,i,i->i", [(6,), (6,), (6,)], np.float32),
            ("ij,kj->", [(3, 4), (2, 4)], np.float32),
            ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)], np.float32),
            ("...ii->...i", [(2, 3, 4, 4)], np.float32),
            ("ij,jk", [(2, 3), (3, 4)], np.float32),
            ("ba", [(2, 3)], np.float32),
            ("Ab,bC->AC", [(2, 3), (3, 4)], np.float32),
            ("ij,jk->ik", [(2, 1), (3, 4)], np.float32),  # j of size 1 broadcasts, as in numpy
            ("bij,bj->bi", [(1, 3, 4), (5, 4)], np.float32),
            ("abc,cd->abd", [(2, 3, 4), (4, 5)], np.int32),
            ("ij,jk->ik", [(3, 4), (4, 2)], np.int64),
            ("ii->i", [(4, 4)], np.int64)]:
        cases.append((f"Einsum {equation} {np.dtype(dtype).name}", einsum_case(rng, equation, shapes, dtype),
                      True if dtype != np.float32 else False))
    cases += [
        ("InstanceNormalization 3-D", instance_norm_case(rng, (2, 3, 7)), False),
        ("InstanceNormalization 5-D", instance_norm_case(rng, (2, 3, 4, 5, 6)), False),
        ("InstanceNormalization 6-D", instance_norm_case(rng, (1, 2, 3, 2, 4, 3), epsilon=1e-3), False),
        ("Resize linear half_pixel of a 3-D input", resize_case(
            rng, (1, 2, 7), "linear", "half_pixel", sizes=[1, 2, 12], opset=13), False),
        ("Resize linear half_pixel of a 5-D input, its last two axes", resize_case(
            rng, (1, 2, 3, 4, 5), "linear", "half_pixel", sizes=[1, 2, 3, 8, 7], opset=13), False),
        ("Pads folded at import through Mod and an empty slice of a shape", folded_pads_case(rng), True),
        ("Dropout in training mode with a ratio of 0 (nothing dropped)", dropout_case(rng, 0.0, True), True),
        ("NonZero of a constant (with a NaN), its indices gathered", non_zero_case(rng), True),
        ("IsInf and IsNaN of a float32 cast to double, cast back to float32 and float16",
         widened_double_case(rng), True),
    ]
    grid_3d = helper.make_node("GridSample", ["X", "G"], ["Y"])
    grid_3d = helper.make_model(helper.make_graph(
        [grid_3d], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, (1, 1, 2, 2, 2)),
                         helper.make_tensor_value_info("G", TensorProto.FLOAT, (1, 1, 1, 1, 3))],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)]), opset_imports=[helper.make_opsetid("", 20)])
    grid_3d.ir_version = 9
    # What cannot be lowered is refused: (name, model, feeds, a part of the expected error).
    refused = [("Det 257x257", *det_case(rng, (257, 257))[:2], "up to 256x256"),
               ("Resize antialias nearest", *resize_case(rng, (1, 1, 4, 4), "nearest", "half_pixel",
                                                          scales=[1, 1, 0.5, 0.5], antialias=1, opset=19)[:2],
                "antialias applies to the linear and cubic modes"),
               ("Resize axes naming an axis twice", *resize_case(rng, (1, 1, 4, 4), "linear", "half_pixel",
                                                                  sizes=[2, 2], axes=[2, -2], opset=19)[:2],
                "axes names an axis twice"),
               ("Resize antialias beyond 64 taps", *resize_case(rng, (1, 1, 2, 200), "linear", "half_pixel",
                                                                 sizes=[1, 1, 2, 5], antialias=1, opset=19)[:2],
                "taps per output position"),
               ("Einsum with a label of two sizes", *einsum_case(rng, "ij,jk->ik", [(2, 3), (4, 5)])[:2],
                "label 'j' has sizes 3 and 4"),
               ("Einsum diagonal of a matrix that is not square", *einsum_case(rng, "ii->i", [(2, 3)])[:2],
                "label 'i' has sizes 2 and 3 in term 0"),
               ("Einsum output label in no input", *einsum_case(rng, "ij->ik", [(2, 3)])[:2],
                "label 'k' is in no input"),
               ("Dropout in training mode with a ratio of 0.5", *dropout_case(rng, 0.5, True)[:2],
                "training mode is outside the WebNN specification"),
               ("Add of a float32 cast to double", *widened_double_case(rng, tail_op="Add")[:2],
                "is a double (WebNN has no double data type"),
               ("a float32 cast to double as a graph output", *widened_double_case(rng, output_double=True)[:2],
                "graph output \"xd\" is a double"),
               ("NonZero of a graph input", single_node_model(helper.make_node("NonZero", ["X"], ["Y"]), (2, 3), {}),
                {"X": np.ones((2, 3), np.float32)}, "its output shape depends on the input values"),
               ("GridSample 5-D", grid_3d, {"X": np.zeros((1, 1, 2, 2, 2), np.float32),
                                          "G": np.zeros((1, 1, 1, 1, 3), np.float32)}, "rank-5")]
    failed = 0
    for op in ("Atan", "Asin", "Acos"):
        model, feeds, want = inverse_trig_case(op)
        got = run_model(cli, work, backend, model, feeds)
        error = got if isinstance(got, str) else ulp_errors(got["Y"], want)
        print(f"{'FAIL' if error else 'PASS'} {op} over its domain and the special values" +
              (f": {error}" if error else ""))
        failed += bool(error)
    failed += check_refused(cli, work, backend, refused)
    cases = shard(cases)
    failed += check_cases(cli, work, backend, cases)
    print(f"{len(cases) + len(refused) + 3 - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
