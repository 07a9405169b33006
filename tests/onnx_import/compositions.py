#!/usr/bin/python3
"""The ONNX import's compositions beyond what the backend test suite covers, against numpy.

- RNN (unrolled): forward, reverse and bidirectional, layout 0 and 1, clip, each activation, an
  initial state and biases, against a float64 recurrence written here; largest |difference| at
  most 1e-5 x largest |value|.
- Integer Mod: int8, int32 and int64 with every sign combination and the edges (INT_MIN mod -1,
  INT_MAX, INT_MIN mod INT_MIN), fmod 0 against numpy's mod (the divisor's sign) and fmod 1
  against numpy's fmod (the dividend's sign), exactly; uint8 and uint64 likewise.

Each model is built with the onnx Python package, run by `webnn run model.onnx` on the given
backend. Usage: compositions.py WEBNN_CLI WORK_DIR BACKEND. Exits 77 without python3-onnx.
"""
import os
import subprocess
import sys

import numpy as np

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


def rnn_case(rng, direction, layout, clip, activation):
    steps, batch, inputs, hidden = 4, 3, 5, 6
    dirs = 2 if direction == "bidirectional" else 1
    x = rng.standard_normal((batch, steps, inputs) if layout else (steps, batch, inputs)).astype(np.float32)
    w = (rng.standard_normal((dirs, hidden, inputs)) * 0.5).astype(np.float32)
    r = (rng.standard_normal((dirs, hidden, hidden)) * 0.5).astype(np.float32)
    b = rng.standard_normal((dirs, 2 * hidden)).astype(np.float32)
    h0 = rng.standard_normal((batch, dirs, hidden) if layout else (dirs, batch, hidden)).astype(np.float32)
    attrs = dict(hidden_size=hidden, direction=direction, layout=layout, activations=[activation] * dirs)
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
    f = {"Tanh": np.tanh, "Relu": lambda v: np.maximum(v, 0), "Sigmoid": lambda v: 1 / (1 + np.exp(-v))}[activation]
    y = np.zeros((steps, dirs, batch, hidden))
    y_h = np.zeros((dirs, batch, hidden))
    for d in range(dirs):
        h = hs[d]
        backward = direction == "reverse" or d == 1
        for t in (reversed(range(steps)) if backward else range(steps)):
            pre = xs[t] @ w[d].T.astype(np.float64) + h @ r[d].T.astype(np.float64) + b[d, :hidden] + b[d, hidden:]
            if clip is not None:
                pre = np.clip(pre, -clip, clip)
            h = f(pre)
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
    for dtype in (np.int8, np.int32, np.int64, np.uint8, np.uint64):
        for fmod in (0, 1):
            cases.append((f"Mod {np.dtype(dtype).name} fmod={fmod}", mod_case(dtype, fmod), True))
    failed = 0
    for name, (model, feeds, expected), exact in cases:
        got = run_model(cli, work, backend, model, feeds)
        if isinstance(got, str):
            print(f"FAIL {name}: {got}")
            failed += 1
            continue
        ok = True
        for key, want in expected.items():
            have = got[key]
            if have.shape != want.shape:
                print(f"FAIL {name}: {key} has shape {have.shape}, expected {want.shape}")
                ok = False
            elif exact:
                bad = np.nonzero(have != want)[0]
                if len(bad):
                    i = bad[0]
                    print(f"FAIL {name}: {len(bad)} wrong, e.g. {feeds['A'][i]} mod {feeds['B'][i]} = {have[i]}, "
                          f"expected {want[i]}")
                    ok = False
            else:
                scale = float(np.abs(want).max())
                diff = float(np.abs(have.astype(np.float64) - want).max())
                if diff > 1e-5 * scale:
                    print(f"FAIL {name}: {key} max |diff| {diff:.3g} > 1e-5 x {scale:.3g}")
                    ok = False
        print(f"{'PASS' if ok else 'FAIL'} {name}")
        failed += not ok
    print(f"{len(cases) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
