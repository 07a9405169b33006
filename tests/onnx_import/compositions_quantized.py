#!/usr/bin/python3
"""The ONNX import's quantized and index compositions beyond what the backend test suite covers.

Expected values are computed here with numpy from the operators' definitions, never by our code:
- DynamicQuantizeLinear: random data, values whose x / scale is exactly a half (0.5, 1.5, 2.5,
  253.5, 254.5 with scale 1: rounding half up gives another answer), a zero point that is exactly
  a half, all-negative and all-positive inputs, and the all-zero input (scale 1/255, zero point 0,
  as ONNX's reference implementation does); y and the zero point exactly, the scale to float32.
- MatMulInteger and ConvInteger: uint8 and int8, per-tensor, per-row/per-column and
  per-output-channel zero points, batched matmul, K = 300 and the extreme K = 256 sum
  (256 * 255 * -128), Conv pads, strides, dilations, group and 1-D with auto_pad; int32 exactly.
- QLinearMatMul and QLinearConv: per-row/per-column and per-channel scales and zero points, int8
  and uint8 outputs, an int32 bias; against float64 requantization, exact except where the
  float64 value is within 1e-4 of a half (the float32 product may round the other way there).
- MaxUnpool (2-D, 1-D, with pads and with a larger output_shape), ReverseSequence (both axis
  orders, lengths 0 to T, lengths as a graph input), GatherND with batch_dims 1 and 2: exactly.
- GRU and LSTM with layout = 1 (initial states, biases, an LSTM peephole whose output part is
  zero), the unrolled LSTM (an output-gate peephole, peepholes as a graph input, clip,
  input_forget), the unrolled GRU (clip, linear_before_reset), GRU and LSTM with ONNX's other
  activations (HardSigmoid, LeakyRelu, Softsign, Elu, with activation_alpha/beta, per direction,
  lowercase names), and RNN, GRU and LSTM with
  sequence_lens shorter than the steps (lengths 0 to T, known at import or a graph input, every
  direction, with and without initial states), against a float64 recurrence run batch entry by
  batch entry over each one's own steps; largest |difference| at most 1e-5 x largest |value|.
- Refused: a sequence length above the steps, a 2-D sequence_lens, an activation ONNX does not
  have, more activation_alpha values than the activations take.

Usage: compositions_quantized.py WEBNN_CLI WORK_DIR BACKEND. Exits 77 without python3-onnx.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    from onnx import helper, mapping, numpy_helper
    from compositions import activation_attrs, check_refused, recurrent_functions, run_model
    from shard import shard
except ImportError as e:  # pragma: no cover - the skip path
    print(f"skipped: {e}")
    sys.exit(77)


def model_of(node, feeds, inits, outputs, opset=14):
    """A one-node model: `feeds` are graph inputs, `inits` initializers, `outputs` output names."""
    def info(name, a):
        return helper.make_tensor_value_info(name, mapping.NP_TYPE_TO_TENSOR_TYPE[a.dtype], a.shape)
    graph = helper.make_graph([node], node.op_type, [info(n, a) for n, a in feeds.items()],
                              [helper.make_tensor_value_info(o, 0, None) for o in outputs],
                              [numpy_helper.from_array(a, n) for n, a in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


# ---- DynamicQuantizeLinear ----

def dql_case(x):
    f = np.float32
    lo, hi = min(f(0), f(x.min())), max(f(0), f(x.max()))
    rng_ = f(1) if hi == lo else f(hi - lo)
    scale = f(rng_ / f(255))
    zp = np.clip(np.rint(f(0) - f(lo / scale)), 0, 255)
    y = np.clip(np.rint(x / scale) + zp, 0, 255).astype(np.uint8)
    node = helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "y_scale", "y_zero_point"])
    model = model_of(node, {"x": x}, {}, ["y", "y_scale", "y_zero_point"], opset=11)
    return model, {"x": x}, {"y": y, "y_scale": np.array(scale, np.float32),
                             "y_zero_point": np.array(zp, np.uint8)}, "exact"


# ---- Integer and quantized matmul and conv ----

def conv_ref(x, w, pads, strides, dilations, group):
    """float64 N-D (1-D or 2-D) convolution from the definition; pads [begins..., ends...]."""
    n = x.ndim - 2
    x = np.pad(x, [(0, 0), (0, 0)] + [(pads[i], pads[i + n]) for i in range(n)])
    if n == 1:
        x, w = x[:, :, None, :], w[:, :, None, :]
        strides, dilations = [1] + list(strides), [1] + list(dilations)
    batch, _, h, wd = x.shape
    m, cg, kh, kw = w.shape
    oh = (h - ((kh - 1) * dilations[0] + 1)) // strides[0] + 1
    ow = (wd - ((kw - 1) * dilations[1] + 1)) // strides[1] + 1
    y = np.zeros((batch, m, oh, ow))
    mg = m // group
    for o in range(m):
        g = o // mg
        for i in range(kh):
            for j in range(kw):
                patch = x[:, g * cg:(g + 1) * cg, i * dilations[0]:i * dilations[0] + (oh - 1) * strides[0] + 1:strides[0],
                          j * dilations[1]:j * dilations[1] + (ow - 1) * strides[1] + 1:strides[1]]
                y[:, o] += np.einsum("bchw,c->bhw", patch, w[o, :, i, j])
    return y[:, :, 0, :] if n == 1 else y


def rand_q(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, size=shape).astype(dtype)


def matmul_integer_case(rng, a_shape, b_shape, at, bt, a_zp_shape, b_zp_shape, a=None, b=None):
    a = rand_q(rng, at, a_shape) if a is None else a
    b = rand_q(rng, bt, b_shape) if b is None else b
    feeds, inputs = {"A": a, "B": b}, ["A", "B"]
    af, bf = a.astype(np.int64), b.astype(np.int64)
    if a_zp_shape is not None:
        za = rand_q(rng, at, a_zp_shape)
        feeds["a_zp"] = za
        af = af - (za.reshape(-1, 1) if za.ndim == 1 and za.size > 1 else za).astype(np.int64)
    inputs.append("a_zp" if a_zp_shape is not None else "")
    if b_zp_shape is not None:
        zb = rand_q(rng, bt, b_zp_shape)
        feeds["b_zp"] = zb
        bf = bf - zb.astype(np.int64)
        inputs.append("b_zp")
    node = helper.make_node("MatMulInteger", inputs, ["Y"])
    return model_of(node, feeds, {}, ["Y"], opset=10), feeds, {"Y": np.matmul(af, bf).astype(np.int32)}, "exact"


def conv_integer_case(rng, x_shape, w_shape, xt, wt, per_channel, group=1, pads=None, strides=None,
                      dilations=None, auto_pad=None):
    x, w = rand_q(rng, xt, x_shape), rand_q(rng, wt, w_shape)
    zx = rand_q(rng, xt, ())
    zw = rand_q(rng, wt, (w_shape[0],) if per_channel else ())
    n = len(x_shape) - 2
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    attrs = dict(group=group, strides=strides, dilations=dilations)
    if auto_pad:
        attrs["auto_pad"] = auto_pad
        pads = [0] * (2 * n)
        for i in range(n):  # SAME_UPPER: the extra pad at the end
            out = -(-x_shape[i + 2] // strides[i])
            total = max(0, (out - 1) * strides[i] + (w_shape[i + 2] - 1) * dilations[i] + 1 - x_shape[i + 2])
            pads[i], pads[i + n] = total // 2, total - total // 2
    else:
        pads = pads or [0] * (2 * n)
        attrs["pads"] = pads
    xd = x.astype(np.float64) - float(zx)
    wd = w.astype(np.float64) - zw.astype(np.float64).reshape((-1,) + (1,) * (len(w_shape) - 1))
    y = conv_ref(xd, wd, pads, strides, dilations, group)
    node = helper.make_node("ConvInteger", ["x", "w", "x_zp", "w_zp"], ["y"], **attrs)
    feeds = {"x": x, "w": w, "x_zp": zx, "w_zp": zw}
    return model_of(node, feeds, {}, ["y"], opset=10), feeds, {"y": y.astype(np.int32)}, "exact"


def requantized(acc, multiplier, zp, yt):
    """float64 requantization, and where it is within 1e-4 of a half (may round either way)."""
    v = acc * multiplier
    near_half = np.abs(np.abs(v - np.floor(v)) - 0.5) < 1e-4
    info = np.iinfo(yt)
    return np.clip(np.rint(v) + float(zp), info.min, info.max).astype(yt), near_half


def qlinear_matmul_case(rng, a_shape, b_shape, at, bt, yt, per_axis):
    a, b = rand_q(rng, at, a_shape), rand_q(rng, bt, b_shape)
    m, n = a_shape[-2], b_shape[-1]
    sa = rng.uniform(0.005, 0.02, (m,) if per_axis else ()).astype(np.float32)
    sb = rng.uniform(0.005, 0.02, (n,) if per_axis else ()).astype(np.float32)
    za, zb = rand_q(rng, at, (m,) if per_axis else ()), rand_q(rng, bt, (n,) if per_axis else ())
    zy = rand_q(rng, yt, ())
    acc = np.matmul(a.astype(np.float64) - (za.reshape(-1, 1) if per_axis else za).astype(np.float64),
                    b.astype(np.float64) - zb.astype(np.float64))
    scale_ab = (sa.reshape(-1, 1) if per_axis else sa).astype(np.float64) * sb.astype(np.float64)
    sy = np.float32(np.abs(acc * scale_ab).max() / 100)
    y, near_half = requantized(acc, scale_ab / np.float64(sy), zy, yt)
    feeds = {"a": a, "a_scale": sa, "a_zp": za, "b": b, "b_scale": sb, "b_zp": zb,
             "y_scale": np.array(sy, np.float32), "y_zp": zy}
    node = helper.make_node("QLinearMatMul", list(feeds), ["y"])
    return model_of(node, feeds, {}, ["y"], opset=10), feeds, {"y": (y, near_half)}, "quant"


def qlinear_conv_case(rng, x_shape, w_shape, xt, wt, yt, group, pads, strides, dilations, bias):
    x, w = rand_q(rng, xt, x_shape), rand_q(rng, wt, w_shape)
    m = w_shape[0]
    sx, sw = np.float32(rng.uniform(0.005, 0.02)), rng.uniform(0.005, 0.02, (m,)).astype(np.float32)
    zx, zw = rand_q(rng, xt, ()), rand_q(rng, wt, (m,))
    acc = conv_ref(x.astype(np.float64) - float(zx), w.astype(np.float64) - zw.astype(np.float64).reshape(-1, 1, 1, 1),
                   pads, strides, dilations, group)
    feeds = {"x": x, "x_scale": np.array(sx), "x_zp": zx, "w": w, "w_scale": sw, "w_zp": zw}
    if bias:
        b = rng.integers(-5000, 5000, (m,)).astype(np.int32)
        acc = acc + b.astype(np.float64).reshape(1, -1, 1, 1)
    scale = np.float64(sx) * sw.astype(np.float64).reshape(1, -1, 1, 1)
    sy = np.float32(np.abs(acc * scale).max() / 100)
    zy = rand_q(rng, yt, ())
    y, near_half = requantized(acc, scale / np.float64(sy), zy, yt)
    feeds.update({"y_scale": np.array(sy, np.float32), "y_zp": zy})
    if bias:
        feeds["B"] = b
    node = helper.make_node("QLinearConv", list(feeds), ["y"], group=group, pads=pads, strides=strides,
                            dilations=dilations)
    return model_of(node, feeds, {}, ["y"], opset=10), feeds, {"y": (y, near_half)}, "quant"


# ---- MaxUnpool, ReverseSequence, GatherND ----

def max_unpool_case(rng, x_shape, kernel, strides, pads=None, output_shape=None):
    n = len(kernel)
    pads = pads or [0] * (2 * n)
    inferred = list(x_shape[:2]) + [(x_shape[i + 2] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + n]
                                     for i in range(n)]
    x = rng.standard_normal(x_shape).astype(np.float32)
    idx = rng.choice(int(np.prod(inferred)), size=x.size, replace=False).astype(np.int64).reshape(x_shape)
    y = np.zeros(int(np.prod(inferred)), np.float32)
    y[idx.reshape(-1)] = x.reshape(-1)
    y = y.reshape(inferred)
    inits = {}
    inputs = ["X", "I"]
    if output_shape is not None:  # the inferred tensor at the origin of a larger one
        y = np.pad(y, [(0, o - i) for o, i in zip(output_shape, inferred)])
        inits["output_shape"] = np.array(output_shape, np.int64)
        inputs.append("output_shape")
    node = helper.make_node("MaxUnpool", inputs, ["Y"], kernel_shape=kernel, strides=strides, pads=pads)
    feeds = {"X": x, "I": idx}
    return model_of(node, feeds, inits, ["Y"], opset=11), feeds, {"Y": y}, "exact"


def reverse_sequence_case(rng, x_shape, batch_axis, time_axis, lens, lens_as_input, dtype):
    x = rng.integers(-1000, 1000, x_shape).astype(dtype)
    lens = np.array(lens, np.int64)
    y = x.copy()
    for b, n in enumerate(lens):
        src = [slice(None)] * x.ndim
        src[batch_axis], src[time_axis] = b, slice(0, n)
        dst = list(src)
        dst[time_axis] = slice(n - 1, None, -1) if n > 0 else slice(0, 0)
        y[tuple(src)] = x[tuple(dst)]
    feeds = {"x": x, "lens": lens} if lens_as_input else {"x": x}
    inits = {} if lens_as_input else {"lens": lens}
    node = helper.make_node("ReverseSequence", ["x", "lens"], ["y"], batch_axis=batch_axis, time_axis=time_axis)
    return model_of(node, feeds, inits, ["y"], opset=10), feeds, {"y": y}, "exact"


def gather_nd_case(rng, data_shape, indices_shape, batch_dims):
    data = rng.integers(-100, 100, data_shape).astype(np.int32)
    k = indices_shape[-1]
    bounds = np.array(data_shape[batch_dims:batch_dims + k])
    indices = (rng.integers(0, 1 << 20, indices_shape) % bounds).astype(np.int64)
    indices[..., 0] -= bounds[0] * (rng.integers(0, 2, indices_shape[:-1]))  # negative indices too
    batch = int(np.prod(data_shape[:batch_dims]))
    d = data.reshape((batch,) + tuple(data_shape[batch_dims:]))
    ind = indices.reshape((batch, -1, k))
    out = np.stack([np.stack([d[b][tuple(ind[b, j])] for j in range(ind.shape[1])]) for b in range(batch)])
    out = out.reshape(tuple(indices_shape[:-1]) + tuple(data_shape[batch_dims + k:]))
    node = helper.make_node("GatherND", ["data", "indices"], ["output"], batch_dims=batch_dims)
    feeds = {"data": data, "indices": indices}
    return model_of(node, feeds, {}, ["output"], opset=13), feeds, {"output": out}, "exact"


# ---- GRU and LSTM with layout = 1 ----

def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def recurrent_case(rng, op, direction, peephole=False, sequence_lens=None, clip=None, input_forget=0,
                   p_input=False, lens_input=False, linear_before_reset=0, initial=True, activations=None,
                   alphas=(), betas=()):
    """A layout-1 RNN, GRU or LSTM node and its expected outputs. The reference runs each batch
    entry's own sequence: steps 0 to length - 1 (reversed for a backward direction) from the
    initial state; Y is zero past the entry's length, and Y_h and Y_c are its last state, or zero
    for a length of 0 (ONNX leaves padded outputs unsaid; these are ONNX Runtime's, checked against
    onnxruntime-node 1.30 on layout 0, which is all it runs)."""
    steps, batch, inputs, hidden = 4, 3, 5, 6
    dirs = 2 if direction == "bidirectional" else 1
    gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
    x = rng.standard_normal((batch, steps, inputs)).astype(np.float32)
    w = (rng.standard_normal((dirs, gates * hidden, inputs)) * 0.5).astype(np.float32)
    r = (rng.standard_normal((dirs, gates * hidden, hidden)) * 0.5).astype(np.float32)
    bias = rng.standard_normal((dirs, 2 * gates * hidden)).astype(np.float32)
    h0 = rng.standard_normal((batch, dirs, hidden)).astype(np.float32)
    c0 = rng.standard_normal((batch, dirs, hidden)).astype(np.float32)
    p = rng.standard_normal((dirs, 3 * hidden)).astype(np.float32)
    if not initial:
        h0[:], c0[:] = 0, 0
    if peephole != "output":
        p[:, hidden:2 * hidden] = 0  # no output peephole: WebNN's lstm takes P as it is
    inits = {"W": w, "R": r, "B": bias}
    inputs_ = ["X", "W", "R", "B", "", "h0" if initial else ""]
    if initial:
        inits["h0"] = h0
    feeds = {"X": x}
    lens = np.full(batch, steps, np.int64)
    if sequence_lens is not None:
        lens = np.array(sequence_lens, np.int64)
        (feeds if lens_input else inits)["lens"] = lens.astype(np.int32)
        inputs_[4] = "lens"
    if op == "LSTM":
        if initial:
            inits["c0"] = c0
        inputs_.append("c0" if initial else "")
        if peephole:
            (feeds if p_input else inits)["P"] = p
            inputs_.append("P")
    outputs = ["Y", "Y_h"] + (["Y_c"] if op == "LSTM" else [])
    attrs = dict(hidden_size=hidden, direction=direction, layout=1)
    if clip is not None:
        attrs["clip"] = clip
    if input_forget:
        attrs["input_forget"] = input_forget
    if linear_before_reset:
        attrs["linear_before_reset"] = linear_before_reset
    per_direction = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[op]
    if activations is not None:
        attrs.update(activation_attrs(activations, alphas, betas))
    fns = recurrent_functions(activations or per_direction * dirs, alphas, betas)
    node = helper.make_node(op, inputs_, outputs, **attrs)
    model = model_of(node, feeds, inits, outputs)
    cl = (lambda v: np.clip(v, -clip, clip)) if clip is not None else (lambda v: v)
    y = np.zeros((batch, steps, dirs, hidden))
    y_h = np.zeros((batch, dirs, hidden))
    y_c = np.zeros((batch, dirs, hidden))
    refused = lens.ndim != 1 or (lens > steps).any() or None in fns  # the import must refuse it: no reference
    for d in range(0 if refused else dirs):
        W, R = w[d].astype(np.float64), r[d].astype(np.float64)
        Wb, Rb = bias[d, :gates * hidden].astype(np.float64), bias[d, gates * hidden:].astype(np.float64)
        part = [slice(g * hidden, (g + 1) * hidden) for g in range(gates)]
        backward = direction == "reverse" or d == 1
        k = len(per_direction)
        f_, g_, h_ = (fns[k * d:k * (d + 1)] + [None, None])[:3]
        for b in range(batch):
            h, c = h0[b, d].astype(np.float64), c0[b, d].astype(np.float64)
            n = int(lens[b])
            for t in (reversed(range(n)) if backward else range(n)):
                xw, hr = x[b, t].astype(np.float64) @ W.T + Wb, h @ R.T
                if op == "RNN":
                    h = f_(cl(xw + hr + Rb))
                elif op == "GRU":  # gates z, r, h
                    z = f_(cl(xw[part[0]] + hr[part[0]] + Rb[part[0]]))
                    rr = f_(cl(xw[part[1]] + hr[part[1]] + Rb[part[1]]))
                    if linear_before_reset:
                        ht = g_(cl(xw[part[2]] + rr * (hr[part[2]] + Rb[part[2]])))
                    else:
                        ht = g_(cl(xw[part[2]] + (rr * h) @ R[part[2]].T + Rb[part[2]]))
                    h = (1 - z) * ht + z * h
                else:  # gates i, o, f, c; peepholes i, o, f
                    pi, po, pf = (p[d, j * hidden:(j + 1) * hidden].astype(np.float64) if peephole else 0
                                  for j in range(3))
                    pre = xw + hr + Rb
                    i = f_(cl(pre[part[0]] + pi * c))
                    f = 1 - i if input_forget else f_(cl(pre[part[2]] + pf * c))
                    c = f * c + i * g_(cl(pre[part[3]]))
                    o = f_(cl(pre[part[1]] + po * c))
                    h = o * h_(c)
                y[b, t, d] = h
            if n > 0:
                y_h[b, d], y_c[b, d] = h, c
    expected = {"Y": y, "Y_h": y_h}
    if op == "LSTM":
        expected["Y_c"] = y_c
    return model, feeds, expected, "close"


def compare(name, got, expected, mode):
    """Failure messages for one case (empty when it passes)."""
    errors = []
    for key, want in expected.items():
        near_half = None
        if mode == "quant":
            want, near_half = want
        have = got[key]
        if have.shape != want.shape or (mode != "close" and have.dtype != want.dtype):
            errors.append(f"{key} is {have.dtype}{list(have.shape)}, expected {want.dtype}{list(want.shape)}")
        elif mode == "close":
            scale = float(np.abs(want).max())
            diff = float(np.abs(have.astype(np.float64) - want).max())
            if diff > 1e-5 * scale:
                errors.append(f"{key} max |diff| {diff:.3g} > 1e-5 x {scale:.3g}")
        else:
            wrong = have != want
            if near_half is not None:
                ties = wrong & near_half & (np.abs(have.astype(np.int64) - want.astype(np.int64)) == 1)
                if ties.any():
                    print(f"  {name}: {int(ties.sum())} of {want.size} differ by 1 at a float64 value within 1e-4 "
                          "of a half")
                wrong &= ~ties
            if wrong.any():
                i = tuple(np.argwhere(wrong)[0])
                errors.append(f"{key}: {int(wrong.sum())} of {want.size} wrong, e.g. at {i} {have[i]}, "
                              f"expected {want[i]}")
    return errors


def main():
    cli, work, backend = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(5)
    u8, i8 = np.uint8, np.int8
    cases = [
        ("DynamicQuantizeLinear random", dql_case(rng.standard_normal((3, 4, 5)).astype(np.float32))),
        ("DynamicQuantizeLinear halves round to even",
         dql_case(np.array([0, 255, 0.5, 1.5, 2.5, 253.5, 254.5, 3.5], np.float32))),
        ("DynamicQuantizeLinear zero point at a half",
         dql_case(np.array([-2.5, 252.5, 0.5, 1.5, -1.5, 100.5], np.float32))),
        ("DynamicQuantizeLinear all negative", dql_case(-rng.uniform(0.5, 3, (2, 7)).astype(np.float32))),
        ("DynamicQuantizeLinear all positive", dql_case(rng.uniform(0.5, 3, (7,)).astype(np.float32))),
        ("DynamicQuantizeLinear all zero", dql_case(np.zeros((2, 3), np.float32))),
        ("MatMulInteger uint8 x int8, per-row and per-column zero points, K = 300",
         matmul_integer_case(rng, (5, 300), (300, 4), u8, i8, (5,), (4,))),
        ("MatMulInteger batched int8 x uint8, scalar zero points",
         matmul_integer_case(rng, (2, 3, 6, 7), (3, 7, 5), i8, u8, (), ())),
        ("MatMulInteger 1-D A, no zero points", matmul_integer_case(rng, (9,), (2, 9, 3), u8, u8, None, None)),
        ("MatMulInteger K = 256 extreme sum (256 * 255 * -128)",
         matmul_integer_case(rng, (2, 256), (256, 3), u8, i8, None, None, a=np.full((2, 256), 255, u8),
                             b=np.full((256, 3), -128, i8))),
        ("ConvInteger uint8, per-channel w zero point, pads, strides, dilations",
         conv_integer_case(rng, (2, 3, 9, 8), (4, 3, 3, 2), u8, u8, True, pads=[1, 0, 2, 1], strides=[2, 1],
                           dilations=[1, 2])),
        ("ConvInteger int8 group 2", conv_integer_case(rng, (1, 4, 6, 6), (6, 2, 3, 3), i8, i8, False, group=2,
                                                       pads=[1, 1, 1, 1])),
        ("ConvInteger 1-D auto_pad SAME_UPPER", conv_integer_case(rng, (2, 3, 10), (5, 3, 4), u8, i8, True,
                                                                  strides=[3], auto_pad="SAME_UPPER")),
        ("QLinearMatMul uint8 x int8 -> int8, per-row and per-column", qlinear_matmul_case(
            rng, (6, 40), (40, 5), u8, i8, i8, True)),
        ("QLinearMatMul batched int8 -> uint8, per tensor", qlinear_matmul_case(
            rng, (2, 4, 30), (2, 30, 3), i8, i8, u8, False)),
        ("QLinearConv uint8 x int8 -> uint8, per-channel, bias, pads, strides", qlinear_conv_case(
            rng, (2, 3, 8, 7), (4, 3, 3, 3), u8, i8, u8, 1, [1, 1, 0, 1], [2, 1], [1, 1], True)),
        ("QLinearConv int8 -> int8, group 2, dilations, no bias", qlinear_conv_case(
            rng, (1, 4, 7, 7), (4, 2, 2, 2), i8, i8, i8, 2, [0, 0, 0, 0], [1, 1], [2, 2], False)),
        ("MaxUnpool 2-D", max_unpool_case(rng, (2, 3, 3, 4), [2, 2], [2, 2])),
        ("MaxUnpool 2-D pads, kernel 3 stride 2", max_unpool_case(rng, (1, 2, 3, 3), [3, 3], [2, 2], [1, 0, 1, 1])),
        ("MaxUnpool 1-D output_shape larger", max_unpool_case(rng, (2, 2, 4), [2], [2], output_shape=[2, 2, 11])),
        ("ReverseSequence time-major, lengths 0..T", reverse_sequence_case(
            rng, (5, 4, 3), 1, 0, [5, 0, 3, 1], False, np.float32)),
        ("ReverseSequence batch-major, lengths a graph input", reverse_sequence_case(
            rng, (3, 6, 2, 2), 0, 1, [2, 6, 4], True, np.int32)),
        ("GatherND batch_dims 1", gather_nd_case(rng, (3, 4, 5, 2), (3, 2, 2), 1)),
        ("GatherND batch_dims 2", gather_nd_case(rng, (2, 3, 4, 5), (2, 3, 6, 1), 2)),
        ("GatherND batch_dims 1, full index tuples", gather_nd_case(rng, (4, 3, 5), (4, 7, 2), 1)),
        ("GRU layout 1 forward", recurrent_case(rng, "GRU", "forward")),
        ("GRU layout 1 bidirectional, full sequence_lens", recurrent_case(rng, "GRU", "bidirectional",
                                                                          sequence_lens=[4, 4, 4])),
        ("LSTM layout 1 reverse", recurrent_case(rng, "LSTM", "reverse")),
        ("LSTM layout 1 bidirectional, input and forget peepholes", recurrent_case(rng, "LSTM", "bidirectional",
                                                                                   peephole=True)),
        ("LSTM unrolled: output-gate peephole", recurrent_case(rng, "LSTM", "forward", peephole="output")),
        ("LSTM unrolled: peepholes a graph input, bidirectional", recurrent_case(
            rng, "LSTM", "bidirectional", peephole="output", p_input=True)),
        ("LSTM unrolled: clip 0.5, reverse", recurrent_case(rng, "LSTM", "reverse", peephole="output", clip=0.5)),
        ("LSTM unrolled: input_forget", recurrent_case(rng, "LSTM", "forward", input_forget=1)),
        ("GRU sequence_lens [4, 2, 0]", recurrent_case(rng, "GRU", "forward", sequence_lens=[4, 2, 0])),
        ("GRU sequence_lens a graph input, reverse, linear_before_reset", recurrent_case(
            rng, "GRU", "reverse", sequence_lens=[1, 3, 4], lens_input=True, linear_before_reset=1)),
        ("GRU sequence_lens [2, 0, 3], bidirectional, clip 0.5, no initial state", recurrent_case(
            rng, "GRU", "bidirectional", sequence_lens=[2, 0, 3], clip=0.5, initial=False)),
        ("GRU clip 0.5, linear_before_reset, bidirectional", recurrent_case(
            rng, "GRU", "bidirectional", clip=0.5, linear_before_reset=1)),
        ("LSTM sequence_lens [4, 2, 0], bidirectional", recurrent_case(
            rng, "LSTM", "bidirectional", sequence_lens=[4, 2, 0])),
        ("LSTM sequence_lens a graph input, reverse, peepholes", recurrent_case(
            rng, "LSTM", "reverse", peephole=True, sequence_lens=[3, 1, 2], lens_input=True)),
        ("LSTM sequence_lens [0, 3, 1], no initial state", recurrent_case(
            rng, "LSTM", "forward", sequence_lens=[0, 3, 1], initial=False)),
        ("RNN sequence_lens [1, 4, 2], bidirectional", recurrent_case(
            rng, "RNN", "bidirectional", sequence_lens=[1, 4, 2])),
        ("RNN sequence_lens a graph input, reverse, no initial state", recurrent_case(
            rng, "RNN", "reverse", sequence_lens=[0, 2, 4], lens_input=True, initial=False)),
        ("GRU HardSigmoid and LeakyRelu with alpha and beta", recurrent_case(
            rng, "GRU", "forward", activations=["HardSigmoid", "LeakyRelu"], alphas=(0.25, 0.1), betas=(0.45,))),
        ("GRU bidirectional, other activations per direction", recurrent_case(
            rng, "GRU", "bidirectional", activations=["Sigmoid", "Tanh", "HardSigmoid", "Softsign"])),
        ("LSTM HardSigmoid, Tanh, Softsign", recurrent_case(
            rng, "LSTM", "reverse", activations=["HardSigmoid", "Tanh", "Softsign"], alphas=(0.2,), betas=(0.5,))),
        ("LSTM bidirectional, LeakyRelu and Elu in one direction, lowercase names", recurrent_case(
            rng, "LSTM", "bidirectional", activations=["sigmoid", "leakyrelu", "tanh", "Sigmoid", "Tanh", "Elu"],
            alphas=(0.05, 0.8))),
        ("LSTM relu as its h (WebNN's lstm)", recurrent_case(
            rng, "LSTM", "forward", activations=["Sigmoid", "Tanh", "Relu"])),
    ]
    refused = [("GRU sequence length above the steps", recurrent_case(rng, "GRU", "forward",
                                                                       sequence_lens=[4, 5, 4]),
                "a sequence length outside [0, steps]"),
               ("LSTM 2-D sequence_lens", recurrent_case(rng, "LSTM", "forward", sequence_lens=[[4, 2, 4]]),
                "sequence_lens must be 1-D"),
               ("GRU with an activation ONNX does not have", recurrent_case(
                   rng, "GRU", "forward", activations=["Sigmoid", "Gelu"]), 'unknown activation "Gelu"'),
               ("RNN with more alphas than its activations take", recurrent_case(
                   rng, "RNN", "forward", activations=["LeakyRelu"], alphas=(0.1, 0.2)), "more values")]
    failed = check_refused(cli, work, backend,
                            [(name, model, feeds, error) for name, (model, feeds, _, _), error in refused])
    cases = shard(cases)
    for name, (model, feeds, expected, mode) in cases:
        got = run_model(cli, work, backend, model, feeds)
        errors = [got] if isinstance(got, str) else compare(name, got, expected, mode)
        print(f"{'FAIL' if errors else 'PASS'} {name}" + "".join(f"\n  {e}" for e in errors))
        failed += bool(errors)
    print(f"{len(cases) + len(refused) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
