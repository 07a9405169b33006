"""`webnn bench`: what it prints, and --tensors (writeTensor, dispatch, readTensor instead of compute()).

Run by CTest with the rest of tests/cli. Timings are not asserted, only that each mode runs the
graph, prints its figures, and refuses what it cannot time.
"""
import re

import numpy as np
import pytest

from test_cli_hardening import graph, npy_f32, webnn


def figures(stdout):
    return {k: float(v) for k, v in re.findall(r"(\w+_ms)=([\d.]+)", stdout)}


def test_bench_times_compute_and_the_tensor_calls(tmp_path):
    g = graph(tmp_path / "g.json", {"y": "y"})
    npy_f32(tmp_path / "x.npy", [1, -2], [2])
    for extra in ([], ["--tensors"]):
        r = webnn("bench", g, "--input", f"x={tmp_path / 'x.npy'}", "--iterations", "3", "--warmup", "1", *extra)
        assert r.returncode == 0, r.stderr
        f = figures(r.stdout)
        assert {"load_ms", "build_ms", "first_run_ms", "p50_ms", "mean_ms", "min_ms"} <= set(f), r.stdout
        assert 0 < f["min_ms"] <= f["p50_ms"]


def test_bench_tensors_refuses_an_input_left_to_its_default(tmp_path):
    # An ONNX input with an initializer runs on that value under compute(); dispatch has none, so
    # --tensors names the input instead of timing something else.
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    model = helper.make_model(
        helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y],
                          initializer=[numpy_helper.from_array(np.array([1, -2], np.float32), "x")]),
        opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    assert webnn("bench", path, "--iterations", "1").returncode == 0
    r = webnn("bench", path, "--iterations", "1", "--tensors")
    assert r.returncode != 0
    assert "input x has only its default value" in r.stderr
    npy_f32(tmp_path / "x.npy", [3, -4], [2])
    assert webnn("bench", path, "--input", f"x={tmp_path / 'x.npy'}", "--iterations", "1", "--tensors").returncode == 0
