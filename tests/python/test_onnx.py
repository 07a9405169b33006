"""context.convert_to_onnx(): the ONNX export from Python. The file is what the C++ exporter
writes (docs/onnx.md); when node and onnxruntime-node are installed (scripts/setup.sh), the model
also runs in ONNX Runtime through tools/ort/ort_run.mjs and matches context.compute().
webnn.load() of ONNX models: inputs with a default value, the import's memory budget, external
data that must stay in the model's directory (issue 27)."""
import shutil
import subprocess

import numpy as np
import pytest

import webnn
from conftest import REPO

ORT_TOOL = REPO / "tools" / "ort" / "ort_run.mjs"


def small_graph(context):
    b = context.create_graph_builder()
    x = b.input("x", [2, 3])
    w = b.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    h = b.input("h", [4], "float16")
    y = b.relu(b.matmul(x, w))
    return b.build({"y": y, "h2": b.add(h, h), "flag": b.greater(x, b.constant(np.float32(0.5)))})


def ort_available():
    node = shutil.which("node")
    return node is not None and (REPO / "tools" / "ort" / "node_modules" / "onnxruntime-node").exists()


def test_writes_an_onnx_model(context, tmp_path):
    graph = small_graph(context)
    context.convert_to_onnx(graph, tmp_path / "m.onnx")  # os.PathLike
    context.convert_to_onnx(graph, str(tmp_path / "again.onnx"))
    data = (tmp_path / "m.onnx").read_bytes()
    assert data[:2] == b"\x08\x08"  # ModelProto field 1, ir_version = 8
    assert b"webnn-cpp" in data
    assert (tmp_path / "again.onnx").read_bytes() == data  # deterministic


def test_loaded_graphs_export_too(context, tmp_path):
    small_graph(context).save(str(tmp_path / "g.webnn"))
    context.convert_to_onnx(webnn.load(str(tmp_path / "g.webnn")), tmp_path / "m.onnx")
    assert (tmp_path / "m.onnx").stat().st_size > 0


def test_errors(context, tmp_path):
    graph = small_graph(context)
    with pytest.raises(webnn.DataError):
        context.convert_to_onnx(graph, tmp_path / "no" / "such" / "dir" / "m.onnx")
    b = context.create_graph_builder()
    x = b.input("x", [2])
    clash = b.build({"x": b.relu(x)})  # ONNX has one name space for inputs and outputs
    with pytest.raises(webnn.NotSupportedError, match='output name "x"'):
        context.convert_to_onnx(clash, tmp_path / "clash.onnx")
    assert not (tmp_path / "clash.onnx").exists()


@pytest.mark.skipif(not ort_available(), reason="node or onnxruntime-node is missing (scripts/setup.sh)")
def test_runs_in_onnx_runtime_like_the_reference(context, tmp_path):
    graph = small_graph(context)
    context.convert_to_onnx(graph, tmp_path / "m.onnx")
    x = np.array([[0.25, -1.0, 2.0], [0.5, 0.75, -0.5]], np.float32)
    h = np.array([1.5, -2.0, 0.125, 1000.0], np.float16)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "h.npy", h)
    subprocess.run(["node", str(ORT_TOOL), "run", str(tmp_path / "m.onnx"), "--input", f"x={tmp_path / 'x.npy'}",
                    "--input", f"h={tmp_path / 'h.npy'}", "--output-dir", str(tmp_path / "out")],
                   check=True, capture_output=True)
    expected = context.compute(graph, {"x": x, "h": h})
    for name, value in expected.items():
        got = np.load(tmp_path / "out" / f"{name}.npy")
        assert got.dtype == value.dtype and got.shape == value.shape
        np.testing.assert_allclose(got, value, rtol=1e-6)


# ---- webnn.load() of ONNX models (issue 27) ----

def onnx_model(path, nodes, inputs, outputs, initializers=()):
    onnx = pytest.importorskip("onnx")
    from onnx import helper
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path.write_bytes(model.SerializeToString())  # onnx.save() would write external data files
    return str(path)


def test_an_onnx_input_with_a_default_runs_on_it_unless_given(context, tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    f = TensorProto.FLOAT
    path = onnx_model(tmp_path / "m.onnx", [helper.make_node("Add", ["x", "w"], ["y"])],
                      [helper.make_tensor_value_info("x", f, [2]), helper.make_tensor_value_info("w", f, [2])],
                      [helper.make_tensor_value_info("y", f, [2])],
                      [numpy_helper.from_array(np.array([10, 20], np.float32), "w")])
    g = webnn.load(path)
    assert g.input_names == ["x", "w"]
    x = np.array([1, 2], np.float32)
    np.testing.assert_array_equal(context.compute(g, {"x": x})["y"], [11, 22])
    np.testing.assert_array_equal(context.compute(g, {"x": x, "w": np.array([100, 200], np.float32)})["y"], [101, 202])
    with pytest.raises(TypeError, match='input "x"'):
        context.compute(g, {"w": x})


def test_the_memory_budget_is_an_option_of_load(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    nodes = [helper.make_node("Neg", ["c"], [f"n{i}"], name=f"neg{i}") for i in range(20)]
    outputs = [helper.make_tensor_value_info(f"n{i}", TensorProto.INT64, [65536]) for i in range(20)]
    path = onnx_model(tmp_path / "m.onnx", nodes, [], outputs,
                      [numpy_helper.from_array(np.arange(65536, dtype=np.int64), "c")])
    assert len(webnn.load(path).output_names) == 20
    with pytest.raises(webnn.NotSupportedError, match=r"\(Neg\).*its memory budget is 4194304 bytes"):
        webnn.load(path, memory_budget=4 << 20)


def test_onnx_external_data_through_a_symlink_is_refused(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    (tmp_path / "linkdir").symlink_to("/etc")
    w = TensorProto(name="w", data_type=TensorProto.UINT8, dims=[16])
    w.data_location = TensorProto.EXTERNAL
    w.external_data.add(key="location", value="linkdir/passwd")
    u8 = TensorProto.UINT8
    path = onnx_model(tmp_path / "m.onnx", [helper.make_node("Add", ["x", "w"], ["y"])],
                      [helper.make_tensor_value_info("x", u8, [16])], [helper.make_tensor_value_info("y", u8, [16])],
                      [w])
    with pytest.raises(webnn.DataError, match='initializer "w": external data "linkdir/passwd" leaves'):
        webnn.load(path)


@pytest.mark.parametrize("equation,shapes", [("i,j->ij", [(3,), (4,)]), ("bi,bj->bij", [(2, 3), (2, 4)]),
                                             ("bhi,bj->bjih", [(2, 5, 3), (2, 4)]), ("i,j->ji", [(3,), (2,)])])
def test_einsum_outer_products_import(context, tmp_path, equation, shapes):
    # Rotary position tables come out of torch.onnx.export as Einsum("i,j->ij"): a product with no
    # contracted label, once refused ("an equation other than a (batched) matmul").
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    expected = np.einsum(equation, a, b)
    path = onnx_model(tmp_path / "e.onnx", [helper.make_node("Einsum", ["a", "b"], ["y"], equation=equation)],
                      [helper.make_tensor_value_info("a", TensorProto.FLOAT, list(shapes[0])),
                       helper.make_tensor_value_info("b", TensorProto.FLOAT, list(shapes[1]))],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(expected.shape))])
    got = context.compute(webnn.load(path), {"a": a, "b": b})["y"]
    np.testing.assert_array_equal(got, expected)  # one product per element: exact


def test_einsum_with_a_repeated_label_takes_the_diagonal(context, tmp_path):
    # "ii,j->ij" was refused ("a label repeated within a term") until Einsum took every form: the
    # repeated label is the diagonal of a.
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    path = onnx_model(tmp_path / "e.onnx", [helper.make_node("Einsum", ["a", "b"], ["y"], equation="ii,j->ij")],
                      [helper.make_tensor_value_info("a", TensorProto.FLOAT, [3, 3]),
                       helper.make_tensor_value_info("b", TensorProto.FLOAT, [2])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2])])
    a = np.arange(9, dtype=np.float32).reshape(3, 3)
    b = np.array([1, -2], np.float32)
    got = context.compute(webnn.load(path), {"a": a, "b": b})["y"]
    np.testing.assert_array_equal(got, np.einsum("ii,j->ij", a, b))  # one product per element: exact


def test_a_shape_chain_through_any_integer_ops_is_known_at_build_time(context, tmp_path):
    # PyTorch's repeat_interleave export computes an Expand's shape as Shape -> ConstantOfShape ->
    # Mul -> Equal -> Where (-> Expand -> Split -> Concat ...): every step is known at import from
    # static shapes. Where had no fold of its own, so the Expand said its shape "must be known when
    # the graph is built, but it is computed at run time"; the reference kernels now compute every
    # integer operation over known values as the importer adds it.
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    i64 = TensorProto.INT64
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),                                    # [2]
        helper.make_node("ConstantOfShape", ["one"], ["ones"],
                         value=numpy_helper.from_array(np.array([1], np.int64))),   # [1]
        helper.make_node("Mul", ["ones", "minus_one"], ["m"]),                      # [-1]
        helper.make_node("Equal", ["s", "m"], ["is_m"]),                            # [F]
        helper.make_node("Where", ["is_m", "ones", "s"], ["count"]),                # [2]
        helper.make_node("Expand", ["three", "count"], ["threes"]),                 # [3, 3]
        helper.make_node("Split", ["threes", "halves"], ["g0", "g1"], axis=0),      # [3], [3]
        helper.make_node("Concat", ["one", "g0", "minus_one_1"], ["wanted"], axis=0),  # [1, 3, -1]
        helper.make_node("Equal", ["wanted", "m3"], ["is_m1"]),                     # [F, F, T]
        helper.make_node("Where", ["is_m1", "ones3", "wanted"], ["shape"]),         # [1, 3, 1]
        helper.make_node("Expand", ["z", "shape"], ["y"]),
    ]
    inits = [numpy_helper.from_array(np.array([1], np.int64), "one"),
             numpy_helper.from_array(np.array(-1, np.int64), "minus_one"),
             numpy_helper.from_array(np.array(3, np.int64), "three"),
             numpy_helper.from_array(np.array([1, 1], np.int64), "halves"),
             numpy_helper.from_array(np.array([-1], np.int64), "minus_one_1"),
             numpy_helper.from_array(np.array([-1, -1, -1], np.int64), "m3"),
             numpy_helper.from_array(np.array([1, 1, 1], np.int64), "ones3")]
    path = onnx_model(tmp_path / "chain.onnx", nodes,
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
                       helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 1, 4])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 4])], inits)
    g = webnn.load(path)
    z = np.array([[[1, 2, 3, 4]]], np.float32)
    y = context.compute(g, {"x": np.zeros(2, np.float32), "z": z})["y"]
    np.testing.assert_array_equal(y, np.broadcast_to(z, (1, 3, 4)))
