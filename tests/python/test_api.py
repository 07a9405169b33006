"""The Python API's behaviour: contexts, the builder's inputs and constants, numpy in and out,
graphs, tensors, saving and loading. Expected values come from numpy."""
import numpy as np
import pytest

import webnn
from conftest import REPO


def add_graph(context, shape=(2, 3), data_type="float32"):
    b = context.create_graph_builder()
    x = b.input("x", list(shape), data_type)
    y = b.input("y", list(shape), data_type)
    return b.build({"sum": b.add(x, y)})


# ---- ML and MLContext ----


def test_create_context_reports_its_options():
    ml = webnn.ML()
    ctx = ml.create_context()
    assert ctx.power_preference == "default"
    assert isinstance(ctx.accelerated, bool)
    assert ctx.backend in ("onednn", "reference")  # the best CPU backend built in
    assert ctx.num_threads == 0
    low = ml.create_context(power_preference="low-power", accelerated=False, num_threads=2)
    assert low.power_preference == "low-power"
    assert low.accelerated is False
    assert low.num_threads == 2
    assert ml.create_context("high-performance").power_preference == "high-performance"
    assert ml.create_context(backend="auto").backend == ctx.backend  # pywebnn's "best available"


def test_create_context_rejects_bad_options():
    ml = webnn.ML()
    with pytest.raises(TypeError, match="power_preference"):
        ml.create_context(power_preference="fast")
    with pytest.raises(webnn.NotSupportedError, match="no backend named"):
        ml.create_context(backend="no-such-backend")
    with pytest.raises(TypeError, match="num_threads"):
        ml.create_context(num_threads=-1)


def test_context_manager_destroys_the_context():
    with webnn.ML().create_context() as ctx:
        assert not ctx.is_lost
    assert ctx.is_lost
    with pytest.raises(webnn.InvalidStateError, match="lost"):
        ctx.create_graph_builder()


def test_builders_from_context_and_constructor(context):
    for b in (context.create_graph_builder(), webnn.MLGraphBuilder(context)):
        x = b.input("x", [1])
        assert b.build({"y": b.relu(x)}).output_names == ["y"]


# ---- builder: inputs and constants ----


def test_input_forms(builder):
    a = builder.input("a", [2, 3])
    assert (a.shape, a.data_type, a.name) == ([2, 3], "float32", "a")
    b = builder.input("b", (4,), "int8")
    assert (b.shape, b.data_type) == ([4], "int8")
    c = builder.input("c", {"shape": [5], "dataType": "float16"})  # the spec's descriptor
    assert (c.shape, c.data_type) == ([5], "float16")
    d = builder.input("d", [1], np.uint64)
    assert d.data_type == "uint64"
    e = builder.input("e", [])
    assert e.shape == []
    assert builder.relu(a).name is None


def test_input_errors(builder):
    builder.input("x", [1])
    with pytest.raises(TypeError, match="duplicate input name"):
        builder.input("x", [1])
    with pytest.raises(TypeError, match="not a data type"):
        builder.input("y", [1], "float64x")
    with pytest.raises(TypeError, match="not a WebNN data type"):
        builder.input("y", [1], np.float64)
    with pytest.raises(TypeError, match="not a valid dimension"):
        builder.input("y", [0])
    with pytest.raises(TypeError, match="sequence of integers"):
        builder.input("y", "12")
    with pytest.raises(TypeError, match="out of range"):
        builder.input("y", [-1])


def test_constant_forms(builder):
    assert builder.constant(np.zeros((2, 3), np.float16)).data_type == "float16"
    assert builder.constant(np.zeros(4, np.uint64)).shape == [4]
    assert builder.constant(np.float16(1.5)).data_type == "float16"  # numpy scalars keep their dtype
    lst = builder.constant([1, 2, 3])
    assert (lst.shape, lst.data_type) == ([3], "float32")
    shaped = builder.constant([1, 2, 3, 4, 5, 6], [3, 2], "int32")
    assert (shaped.shape, shaped.data_type) == ([3, 2], "int32")
    converted = builder.constant(np.ones(3), data_type="float32")  # float64 converted on request
    assert converted.data_type == "float32"
    scalar = builder.constant("int64", 2**63 - 1)  # the spec's constant(dataType, value)
    assert (scalar.shape, scalar.data_type) == ([], "int64")


def test_constant_errors(builder):
    with pytest.raises(TypeError, match="float64 is not a WebNN data type"):
        builder.constant(np.ones(3))
    with pytest.raises(TypeError, match="uint8 for booleans"):
        builder.constant(np.array([True, False]))
    with pytest.raises(TypeError, match="holds 3 elements but shape"):
        builder.constant([1, 2, 3], [2, 2])
    with pytest.raises(TypeError, match="outside the int64 and uint64 ranges"):
        builder.constant("int64", 2**64)


def test_constant_values_are_copied(context):
    b = context.create_graph_builder()
    data = np.array([1, 2, 3], np.float32)
    c = b.constant(data)
    data[:] = 100  # the builder holds its own copy
    x = b.input("x", [3])
    graph = b.build({"y": b.add(x, c)})
    out = context.compute(graph, {"x": np.zeros(3, np.float32)})["y"]
    np.testing.assert_array_equal(out, [1, 2, 3])


def test_int64_constants_are_exact(context):
    b = context.create_graph_builder()
    big = 2**63 - 1
    x = b.input("x", [2], "int64")
    graph = b.build({"y": b.add(x, b.constant("int64", big)), "z": b.add(x, b.constant(np.array([big, -big])))})
    out = context.compute(graph, {"x": np.zeros(2, np.int64)})
    np.testing.assert_array_equal(out["y"], [big, big])
    np.testing.assert_array_equal(out["z"], [big, -big])


# ---- compute: numpy in and out ----


def test_compute_matches_numpy(context):
    graph = add_graph(context)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.full((2, 3), 0.5, np.float32)
    out = context.compute(graph, {"x": x, "y": y})
    assert list(out) == ["sum"]
    assert out["sum"].dtype == np.float32 and out["sum"].shape == (2, 3)
    np.testing.assert_array_equal(out["sum"], x + y)
    assert out["sum"].flags.writeable


def test_compute_reads_any_layout(context):
    graph = add_graph(context, (3, 2))
    base = np.arange(6, dtype=np.float32).reshape(2, 3)
    transposed = base.T  # not C-contiguous
    big_endian = np.arange(6, dtype=">f4").reshape(3, 2)
    out = context.compute(graph, {"x": transposed, "y": big_endian})["sum"]
    np.testing.assert_array_equal(out, transposed + big_endian.astype(np.float32))


def test_compute_converts_array_likes_but_not_ndarrays(context):
    graph = add_graph(context, (2,), "int32")
    out = context.compute(graph, {"x": [1, 2], "y": (3, 4)})["sum"]
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [4, 6])
    with pytest.raises(TypeError, match="expected int32 data, got numpy int64"):
        context.compute(graph, {"x": np.array([1, 2], np.int64), "y": [1, 2]})


def test_compute_checks_inputs(context):
    graph = add_graph(context)
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(TypeError, match='input "y"'):
        context.compute(graph, {"x": x})
    with pytest.raises(TypeError, match="not an input of the graph"):
        context.compute(graph, {"x": x, "y": x, "z": x})
    with pytest.raises(TypeError, match="float32\\[3, 2\\]"):
        context.compute(graph, {"x": x, "y": np.zeros((3, 2), np.float32)})


def test_compute_into_preallocated_outputs(context):
    graph = add_graph(context)
    x = np.ones((2, 3), np.float32)
    dst = np.empty((2, 3), np.float32)
    out = context.compute(graph, {"x": x, "y": x}, {"sum": dst})
    assert out["sum"] is dst
    np.testing.assert_array_equal(dst, 2 * x)
    with pytest.raises(TypeError, match="numpy float64"):
        context.compute(graph, {"x": x, "y": x}, {"sum": np.empty((2, 3))})


def test_float16_is_numpy_float16(context):
    b = context.create_graph_builder()
    x = b.input("x", [4], "float16")
    graph = b.build({"y": b.relu(x)})
    data = np.array([-1.5, 0.333, 65504, -0.0], np.float16)
    out = context.compute(graph, {"x": data})["y"]
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, np.maximum(data, np.float16(0)))


def test_scalar_graphs(context):
    b = context.create_graph_builder()
    x = b.input("x", [])
    graph = b.build({"y": b.add(x, b.constant(np.float32(2)))})
    out = context.compute(graph, {"x": np.float32(3)})["y"]
    assert out.shape == () and out == 5


# ---- build and graphs ----


def test_graph_properties(context):
    b = context.create_graph_builder()
    x = b.input("x", [2, 3])
    w = b.input("w", [3, 4], "float32")
    mm = b.matmul(x, w)
    graph = b.build({"out": b.relu(mm), "mm": mm})
    assert graph.input_names == ["x", "w"]
    assert graph.get_input_names() == graph.input_names  # pywebnn's names
    assert sorted(graph.output_names) == ["mm", "out"]
    assert graph.get_output_names() == graph.output_names
    assert graph.inputs == {"x": {"shape": [2, 3], "data_type": "float32"},
                            "w": {"shape": [3, 4], "data_type": "float32"}}
    assert graph.outputs["out"] == {"shape": [2, 4], "data_type": "float32"}
    assert graph.operation_count == 2
    assert graph.operand_count == 4
    assert not graph.destroyed


def test_build_errors(context):
    b = context.create_graph_builder()
    x = b.input("x", [1])
    with pytest.raises(TypeError, match="must be an MLOperand"):
        b.build({"y": 1})
    with pytest.raises(TypeError, match="graph input"):
        b.build({"y": x})
    b.build({"y": b.relu(x)})
    with pytest.raises(webnn.InvalidStateError, match="already built"):
        b.build({"y": b.relu(x)})


def test_operands_of_another_builder_are_rejected(context):
    b1, b2 = context.create_graph_builder(), context.create_graph_builder()
    x1 = b1.input("x", [1])
    x2 = b2.input("x", [1])
    with pytest.raises(TypeError, match="not an operand of this graph builder"):
        b2.add(x2, x1)
    with pytest.raises(TypeError, match="bias is not an operand of this graph builder"):
        w = b2.input("w", [1, 1, 1, 1])
        b2.conv2d(b2.input("i", [1, 1, 1, 1]), w, bias=b1.input("b", [1]))


def test_label_names_the_failing_operation(builder):
    x = builder.input("x", [2, 3])
    with pytest.raises(TypeError, match=r"^\[my-matmul\] matmul: "):
        builder.matmul(x, x, label="my-matmul")


def test_destroyed_graph_cannot_run(context):
    graph = add_graph(context)
    graph.destroy()
    assert graph.destroyed
    with pytest.raises(webnn.InvalidStateError, match="destroyed"):
        context.compute(graph, {"x": np.zeros((2, 3), np.float32), "y": np.zeros((2, 3), np.float32)})


def test_graph_of_another_context_is_rejected(context):
    graph = add_graph(context)
    other = webnn.ML().create_context()
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(TypeError, match="another context"):
        other.compute(graph, {"x": x, "y": x})


# ---- save and load ----


@pytest.mark.parametrize("suffix", [".json", ".webnn"])
def test_save_and_load_round_trip(context, tmp_path, suffix):
    b = context.create_graph_builder()
    x = b.input("x", [1, 64])
    w = b.constant(np.linspace(-1, 1, 64 * 8, dtype=np.float32).reshape(64, 8))  # to the weights file
    bias = b.constant(np.array([0.5, -0.5], np.float32))  # small: written inline
    y = b.add(b.reshape(b.matmul(x, w), [4, 2]), bias)
    graph = b.build({"y": y})
    path = tmp_path / ("model" + suffix)
    graph.save(path)  # str or os.PathLike
    assert (tmp_path / "model.weights").exists() and (tmp_path / "model.manifest.json").exists()

    loaded = webnn.load(path)
    assert loaded.input_names == ["x"] and loaded.outputs == graph.outputs
    assert loaded.operation_count == graph.operation_count
    data = np.random.default_rng(1).standard_normal((1, 64)).astype(np.float32)
    expected = context.compute(graph, {"x": data})["y"]
    np.testing.assert_array_equal(context.compute(loaded, {"x": data})["y"], expected)
    # A loaded graph runs on any context (of the same backend, for bit-identical results).
    other = webnn.ML().create_context(backend=context.backend)
    np.testing.assert_array_equal(other.compute(loaded, {"x": data})["y"], expected)
    np.testing.assert_array_equal(webnn.MLGraph.load(str(path)).outputs["y"]["shape"], [4, 2])  # pywebnn's name
    loaded.destroy()
    with pytest.raises(webnn.InvalidStateError, match="destroyed"):
        other.compute(loaded, {"x": data})


def test_save_and_load_with_explicit_weight_paths(context, tmp_path):
    b = context.create_graph_builder()
    x = b.input("x", [1, 32])
    graph = b.build({"y": b.add(x, b.constant(np.arange(32, dtype=np.float32).reshape(1, 32)))})
    graph.save(tmp_path / "g.json", weights_path=tmp_path / "w.bin", manifest_path=tmp_path / "m.json", inline_limit=0)
    assert (tmp_path / "w.bin").exists() and not (tmp_path / "g.weights").exists()
    loaded = webnn.load(str(tmp_path / "g.json"), str(tmp_path / "m.json"), str(tmp_path / "w.bin"))  # pywebnn's order
    out = context.compute(loaded, {"x": np.ones((1, 32), np.float32)})["y"]
    np.testing.assert_array_equal(out, np.arange(32).reshape(1, 32) + 1)
    with pytest.raises(webnn.DataError):
        webnn.load(tmp_path / "g.json")  # the default weights file beside it does not exist


def test_save_everything_inline(context, tmp_path):
    graph = add_graph(context)
    graph.save(str(tmp_path / "g.json"), inline_limit=2**62)
    assert not (tmp_path / "g.weights").exists()
    assert webnn.load(str(tmp_path / "g.json")).input_names == ["x", "y"]


def test_load_weights_reads_the_weights_a_graph_saved(context, tmp_path):
    b = context.create_graph_builder()
    w = np.linspace(-1, 1, 64 * 8, dtype=np.float32).reshape(64, 8)
    ids = np.arange(100, dtype=np.int32).reshape(4, 25)
    y = b.add(b.matmul(b.input("x", [1, 64]), b.constant(w)), b.cast(b.constant(ids[:1, :8]), "float32"))
    c = b.constant(ids)
    b.build({"y": y, "z": b.add(c, c)}).save(tmp_path / "g.json", inline_limit=0)
    tensors = webnn.load_weights(tmp_path / "g.manifest.json")  # g.weights beside it
    assert len(tensors) == 3
    by_shape = {t.shape: t for t in tensors.values()}
    np.testing.assert_array_equal(by_shape[(64, 8)], w)
    np.testing.assert_array_equal(by_shape[(4, 25)], ids)
    assert by_shape[(4, 25)].dtype == np.int32 and not by_shape[(4, 25)].flags.writeable
    same = webnn.load_weights(str(tmp_path / "g.manifest.json"), str(tmp_path / "g.weights"))
    assert sorted(same) == sorted(tensors)


def test_load_weights_errors(tmp_path):
    with pytest.raises(webnn.TypeError, match="weights_path"):
        webnn.load_weights(tmp_path / "weights.json")  # no NAME.manifest.json to find NAME.weights by
    with pytest.raises(webnn.DataError):
        webnn.load_weights(tmp_path / "missing.manifest.json")
    (tmp_path / "t.manifest.json").write_text(
        '{"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {"w": '
        '{"dataType": "float32", "shape": [4], "byteOffset": 8, "byteLength": 16, "layout": "row-major"}}}')
    (tmp_path / "t.weights").write_bytes(b"WGWT\x01\x00\x00\x00" + bytes(8))  # 8 of the 16 bytes
    with pytest.raises(webnn.DataError, match='"w".*beyond the end'):
        webnn.load_weights(tmp_path / "t.manifest.json")


def test_load_errors(tmp_path):
    with pytest.raises(webnn.DataError):
        webnn.load(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(webnn.DataError) as info:
        webnn.load(str(bad))
    assert "bad.json" in str(info.value)
    assert isinstance(info.value, ValueError)  # pywebnn's except ValueError still catches it


# ---- tensors ----


def test_tensor_properties(context):
    t = context.create_tensor([2, 3], "int32", readable=True)
    assert (t.shape, t.data_type, t.size) == ([2, 3], "int32", 6)
    assert (t.readable, t.writable, t.constant, t.destroyed) == (True, False, False, False)
    default = context.create_tensor([1])
    assert (default.data_type, default.readable, default.writable) == ("float32", False, False)  # the spec's defaults


def test_write_and_read_tensor(context):
    t = context.create_tensor([2, 2], "float16", readable=True, writable=True)
    np.testing.assert_array_equal(context.read_tensor(t), np.zeros((2, 2), np.float16))
    data = np.array([[1, 2], [3, 4]], np.float16)
    context.write_tensor(t, data)
    data[:] = 0  # write_tensor copied the bytes
    out = context.read_tensor(t)
    assert out.dtype == np.float16 and out.shape == (2, 2)
    np.testing.assert_array_equal(out, [[1, 2], [3, 4]])
    byob = np.empty((2, 2), np.float16)
    assert context.read_tensor(t, byob) is byob
    np.testing.assert_array_equal(byob, [[1, 2], [3, 4]])
    with pytest.raises(TypeError, match="numpy float32"):
        context.read_tensor(t, np.empty((2, 2), np.float32))


def test_tensor_access_rules(context):
    hidden = context.create_tensor([2], writable=True)
    with pytest.raises(TypeError, match="readable"):
        context.read_tensor(hidden)
    sealed = context.create_tensor([2], readable=True)
    with pytest.raises(TypeError, match="writable"):
        context.write_tensor(sealed, np.zeros(2, np.float32))
    with pytest.raises(TypeError, match="expected float32 data"):
        context.write_tensor(hidden, np.zeros(2, np.int32))
    with pytest.raises(TypeError):
        context.write_tensor(hidden, np.zeros(3, np.float32))
    sealed.destroy()
    assert sealed.destroyed
    with pytest.raises(TypeError, match="destroyed"):
        context.read_tensor(sealed)


@pytest.mark.parametrize("synchronous", [False, True])
def test_dispatch_with_tensors(synchronous):
    # synchronous=True runs each step on the calling thread before the call returns; what the
    # calls see is the timeline's order all the same (a write after a dispatch is not its input).
    context = webnn.ML().create_context(backend="reference", synchronous=synchronous)
    graph = add_graph(context)
    x = context.create_tensor([2, 3], writable=True)
    y = context.create_tensor([2, 3], writable=True)
    out = context.create_tensor([2, 3], readable=True)
    second = context.create_tensor([2, 3], readable=True)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    context.write_tensor(x, a)
    context.write_tensor(y, a * 10)
    assert context.dispatch(graph, {"x": x, "y": y}, {"sum": out}) is None
    context.write_tensor(x, a * 100)
    context.dispatch(graph, {"x": x, "y": y}, {"sum": second})
    np.testing.assert_array_equal(context.read_tensor(out), a * 11)
    into = np.zeros((2, 3), np.float32)
    context.read_tensor(second, out=into)
    np.testing.assert_array_equal(into, a * 110)
    with pytest.raises(TypeError, match='dispatch: input "x" must be an MLTensor, got ndarray'):
        context.dispatch(graph, {"x": a, "y": y}, {"sum": out})
    with pytest.raises(TypeError, match="not created with writable = true"):
        context.write_tensor(out, a)
    context.destroy()
    with pytest.raises(webnn.InvalidStateError):
        context.dispatch(graph, {"x": x, "y": y}, {"sum": out})


def test_constant_tensor(context):
    weights = np.arange(6, dtype=np.float32).reshape(3, 2)
    t = context.create_constant_tensor(weights)
    assert t.constant and t.shape == [3, 2]
    b = context.create_graph_builder()
    x = b.input("x", [1, 3])
    graph = b.build({"y": b.matmul(x, b.constant(t))})
    out = context.compute(graph, {"x": np.ones((1, 3), np.float32)})["y"]
    np.testing.assert_array_equal(out, np.ones((1, 3), np.float32) @ weights)
    with pytest.raises(TypeError, match="no shape or data_type"):
        b.constant(t, [6])


def test_destroyed_context(context):
    t = context.create_tensor([1], readable=True)
    graph = add_graph(context)
    context.destroy()
    assert context.is_lost and t.destroyed and graph.destroyed
    with pytest.raises(webnn.InvalidStateError):
        context.create_tensor([1])
    with pytest.raises(webnn.InvalidStateError):
        webnn.MLGraphBuilder(context)


def test_op_support_limits_uses_the_spec_member_names(context):
    limits = context.op_support_limits()
    assert limits["preferredInputLayout"] in ("nchw", "nhwc")
    assert limits["maxTensorByteLength"] > 0
    assert set(limits["input"]) == {"dataTypes", "rankRange"}
    assert set(limits["input"]["dataTypes"]) == set(webnn.DATA_TYPES)
    assert limits["conv2d"]["filter"]["rankRange"] == {"min": 4, "max": 4}
    assert "float32" in limits["averagePool2d"]["input"]["dataTypes"]
    for name in ("relu", "gatherND", "lstmCell", "where"):
        assert name in limits
    # The IDL's MLGruSupportLimits.output0, not the tensor-limits table's "outputs[0]".
    assert {"output0", "output1"} <= set(limits["gru"]) and "output2" in limits["lstm"]


def test_repr(context):
    b = context.create_graph_builder()
    x = b.input("x", [2])
    assert repr(x) == "<webnn.MLOperand float32[2]>"
    assert "backend=reference" in repr(context)
    assert "1 operations" in repr(b.build({"y": b.relu(x)}))
    assert "readable" in repr(context.create_tensor([1], readable=True))


def test_version():
    text = (REPO / "CMakeLists.txt").read_text()
    assert f"VERSION {webnn.__version__}" in text
