"""What a hostile Python caller broke, one test per finding (docs/security.md); each failed before
its fix."""
import resource

import numpy as np
import pytest

import webnn


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---- 3. A huge thread count ----

@pytest.mark.parametrize("threads", [100000, 257, -1])
def test_thread_counts_out_of_range_are_refused_at_creation(threads):
    with pytest.raises(TypeError, match=r"num_threads must be in \[0, 256\]"):
        webnn.ML().create_context(num_threads=threads)


def test_the_maximum_thread_count_runs():
    ctx = webnn.ML().create_context(num_threads=256)
    b = ctx.create_graph_builder()
    g = b.build({"y": b.relu(b.input("x", [4], "float32"))})
    np.testing.assert_array_equal(ctx.compute(g, {"x": np.array([-1, 2, -3, 4], np.float32)})["y"], [0, 2, 0, 4])
    ctx.destroy()


# ---- 6. The byte limit is checked before the copy ----

@pytest.mark.parametrize("shape", [(2**15, 2**15), (2**16, 2**16)])
def test_oversized_constants_are_refused_before_any_copy(builder, shape):
    before = peak_rss_mb()
    view = np.broadcast_to(np.float32(1), shape)  # 4 bytes standing for 4 or 16 GiB
    with pytest.raises(TypeError, match="maxTensorByteLength"):
        builder.constant(view)
    with pytest.raises(TypeError, match="maxTensorByteLength"):
        builder.constant(np.broadcast_to(np.float64(1), shape), data_type="float32")
    assert peak_rss_mb() - before < 512, "the array was copied before the size check"


def test_oversized_inputs_are_refused_before_any_copy(context):
    b = context.create_graph_builder()
    g = b.build({"y": b.relu(b.input("x", [2], "float32"))})
    before = peak_rss_mb()
    with pytest.raises(TypeError, match="maxTensorByteLength"):
        context.compute(g, {"x": np.broadcast_to(np.float32(1), (2**15, 2**15))})
    assert peak_rss_mb() - before < 512
    # A memoryview with zero strides, read through its strides since issue 27.
    t = context.create_tensor([2], "float32", writable=True)
    with pytest.raises(TypeError, match="write_tensor: the buffer holds 4294967296 bytes, more than maxTensorByteLength"):
        context.write_tensor(t, memoryview(np.broadcast_to(np.float32(1), (2**15, 2**15))))
    assert peak_rss_mb() - before < 512


# ---- 7. Invalid input accepted ----

def test_saving_a_destroyed_graph_is_refused(context, tmp_path):
    b = context.create_graph_builder()
    g = b.build({"y": b.relu(b.input("x", [2], "float32"))})
    g.destroy()
    with pytest.raises(webnn.InvalidStateError, match="destroyed"):
        g.save(str(tmp_path / "g.json"))
    with pytest.raises(webnn.InvalidStateError, match="destroyed"):
        context.convert_to_onnx(g, str(tmp_path / "g.onnx"))
    assert list(tmp_path.iterdir()) == []


def test_colliding_save_paths_are_refused(context, tmp_path):
    b = context.create_graph_builder()
    w = b.constant(np.arange(64, dtype=np.float32))
    g = b.build({"y": b.add(b.input("x", [64], "float32"), w)})
    p = str(tmp_path / "g.json")
    with pytest.raises(webnn.DataError, match="the weights file and the graph file are the same file"):
        g.save(p, weights_path=p, inline_limit=0)
    with pytest.raises(webnn.DataError, match="the weights manifest and the graph file are the same file"):
        g.save(p, manifest_path=p, inline_limit=0)
    assert list(tmp_path.iterdir()) == []


def test_compute_refuses_an_output_array_of_the_wrong_shape(context):
    b = context.create_graph_builder()
    g = b.build({"y": b.relu(b.input("x", [2, 3], "float32"))})
    x = np.ones((2, 3), np.float32)
    wrong = np.zeros((3, 2), np.float32)  # the same size, another shape
    with pytest.raises(TypeError, match=r'outputs\["y"\] has shape \[3, 2\], the output is \[2, 3\]'):
        context.compute(g, {"x": x}, {"y": wrong})
    assert not wrong.any()
    right = np.zeros((2, 3), np.float32)
    context.compute(g, {"x": x}, {"y": right})
    np.testing.assert_array_equal(right, x)


# ---- 8. Unclear errors ----

def test_write_tensor_takes_bytes_as_bytes(context):
    t = context.create_tensor([5, 5], "float32", readable=True, writable=True)
    with pytest.raises(TypeError, match="holds 25 bytes but"):
        context.write_tensor(t, bytearray(25))
    data = np.arange(25, dtype=np.float32)
    context.write_tensor(t, bytearray(data.tobytes()))
    np.testing.assert_array_equal(context.read_tensor(t).reshape(-1), data)
    context.write_tensor(t, memoryview((data * 2).tobytes()))
    np.testing.assert_array_equal(context.read_tensor(t).reshape(-1), data * 2)


def test_a_nul_in_a_name_is_shown_escaped(builder):
    x = builder.input("x", [2], "float32")
    with pytest.raises(TypeError, match=r'duplicate input name "x\\x00tail"'):
        builder.input("x\x00tail", [2], "float32")
        builder.input("x\x00tail", [2], "float32")
    with pytest.raises(TypeError) as e:
        builder.input("n" * (1 << 20), [0], "float32")
    assert len(str(e.value)) < 1000 and "(1048576 bytes)" in str(e.value)
    del x


# ---- Issue 27, finding 4: byte order on every path ----
# Inputs in another byte order are converted (read as the values they hold); an output array in
# another byte order is filled with the results in its own byte order (docs/python.md).

SWAPPED = ">" if np.little_endian else "<"  # the byte order that is not native here


def swapped(dtype):
    return np.dtype(dtype).newbyteorder(SWAPPED)


@pytest.mark.parametrize("dtype,data_type", [("f4", "float32"), ("i4", "int32"), ("f2", "float16"),
                                             ("u8", "uint64"), ("i8", "int64")])
def test_read_tensor_fills_an_out_array_of_the_other_byte_order_with_its_values(context, dtype, data_type):
    t = context.create_tensor([3], data_type, readable=True, writable=True)
    values = np.array([1, 2, 3], dtype)
    context.write_tensor(t, values)
    out = np.zeros(3, swapped(dtype))
    got = context.read_tensor(t, out=out)
    assert got is out and out.dtype == swapped(dtype)
    np.testing.assert_array_equal(out, values)  # was [4.6e-41, 9e-44, 2.3e-41] for >f4


@pytest.mark.parametrize("dtype,data_type", [("f4", "float32"), ("i4", "int32")])
def test_compute_fills_an_outputs_array_of_the_other_byte_order_with_its_values(context, dtype, data_type):
    b = context.create_graph_builder()
    g = b.build({"y": b.add(b.input("x", [2, 2], data_type), b.constant(np.array(1, dtype)))})
    out = np.zeros((2, 2), swapped(dtype))
    x = np.arange(4, dtype=dtype).reshape(2, 2)
    result = context.compute(g, {"x": x}, {"y": out})
    assert result["y"] is out and out.dtype == swapped(dtype)
    np.testing.assert_array_equal(out, x + 1)


def test_inputs_of_the_other_byte_order_are_read_as_their_values_on_every_path(context):
    values = np.array([1.5, -2.0, 3.25, 4.0], np.float32).reshape(2, 2)
    other = values.astype(swapped("f4"))
    ints = np.array([7, -8, 9, 10], swapped("i4")).reshape(2, 2)
    b = context.create_graph_builder()
    x = b.input("x", [2, 2], "float32")
    c = b.constant(other)  # constant(ndarray)
    ci = b.constant(ints)
    cs = b.constant(other.reshape(-1), shape=[2, 2])  # constant(value, shape=)
    tensor = context.create_constant_tensor(other)  # create_constant_tensor
    ct = b.constant(tensor)
    g = b.build({"x": b.identity(x), "c": b.identity(c), "ci": b.identity(ci), "cs": b.identity(cs),
                 "ct": b.identity(ct)})
    out = context.compute(g, {"x": other})  # compute(inputs=)
    for name in ("x", "c", "cs", "ct"):
        np.testing.assert_array_equal(out[name], values)
    np.testing.assert_array_equal(out["ci"], [[7, -8], [9, 10]])
    t = context.create_tensor([2, 2], "float32", readable=True, writable=True)
    context.write_tensor(t, other)  # write_tensor(ndarray)
    np.testing.assert_array_equal(context.read_tensor(t), values)
    context.write_tensor(t, memoryview((values * 2).astype(swapped("f4"))))  # write_tensor(typed memoryview)
    np.testing.assert_array_equal(context.read_tensor(t), values * 2)


def test_write_tensor_reads_a_strided_memoryview_in_its_order(context):
    # A memoryview's strides were ignored: a reversed view was read forward from its last element,
    # past the end of the array, and a broadcast one (zero strides) past its one element.
    a = np.arange(8, dtype=np.float32)
    t = context.create_tensor([4], "float32", readable=True, writable=True)
    context.write_tensor(t, memoryview(a[::-2]))
    np.testing.assert_array_equal(context.read_tensor(t), [7, 5, 3, 1])
    context.write_tensor(t, memoryview(a[::2]))
    np.testing.assert_array_equal(context.read_tensor(t), [0, 2, 4, 6])
    context.write_tensor(t, memoryview(np.broadcast_to(np.float32(3), (4,))))
    np.testing.assert_array_equal(context.read_tensor(t), [3, 3, 3, 3])


def test_output_arrays_that_cannot_be_filled_are_refused_and_left_as_they_were(context):
    t = context.create_tensor([4], "float32", readable=True, writable=True)
    context.write_tensor(t, np.arange(4, dtype=np.float32))
    strided = np.zeros(8, np.float32)[::2]
    with pytest.raises(TypeError, match="read_tensor: out must be a C-contiguous ndarray"):
        context.read_tensor(t, out=strided)
    frozen = np.zeros(4, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="read_tensor: out is read-only"):
        context.read_tensor(t, out=frozen)
    with pytest.raises(TypeError, match="read_tensor: out is numpy float64, the result is float32"):
        context.read_tensor(t, out=np.zeros(4, np.float64))
    with pytest.raises(TypeError, match="read_tensor: out must be an ndarray, got list"):
        context.read_tensor(t, out=[0.0] * 4)
    assert not frozen.any() and not strided.any()

    b = context.create_graph_builder()
    x = b.input("x", [2], "float32")
    g = b.build({"a": b.relu(x), "b": b.neg(x)})
    first = np.zeros(2, np.float32)
    with pytest.raises(TypeError, match=r'compute: outputs\["b"\] is read-only'):
        context.compute(g, {"x": np.ones(2, np.float32)}, {"a": first, "b": frozen[:2]})
    assert not first.any(), "an output array was written before a later one was refused"
    with pytest.raises(TypeError, match=r'compute: outputs\["b"\] is numpy int32, the result is float32'):
        context.compute(g, {"x": np.ones(2, np.float32)}, {"a": first, "b": np.zeros(2, np.int32)})
    with pytest.raises(TypeError, match="compute: outputs must be a dict"):
        context.compute(g, {"x": np.ones(2, np.float32)}, [first])
    assert not first.any()
    # A strided outputs array is filled through its strides, as before.
    wide = np.zeros(4, np.float32)
    context.compute(g, {"x": np.ones(2, np.float32)}, {"b": wide[::2]})
    np.testing.assert_array_equal(wide, [-1, 0, -1, 0])


# ---- Issue 27, finding 7: None is not a number ----

def test_none_as_an_input_is_refused_naming_it(context):
    b = context.create_graph_builder()
    g = b.build({"y": b.relu(b.input("x", [3], "float32"))})
    with pytest.raises(TypeError, match='compute: input "x": expected an array or a number, got None'):
        context.compute(g, {"x": None})
    t = context.create_tensor([], "float32", readable=True, writable=True)
    context.write_tensor(t, np.float32(5))
    with pytest.raises(TypeError, match="write_tensor: expected an array or a number, got None"):
        context.write_tensor(t, None)  # was written as NaN
    assert context.read_tensor(t) == 5
    with pytest.raises(TypeError, match="constant: expected an array or a number, got None"):
        b.constant(None)
    with pytest.raises(TypeError, match="create_constant_tensor: expected an array or a number, got None"):
        context.create_constant_tensor(None)


@pytest.mark.parametrize("value,shape,data_type,message", [
    ([1, None, 3], [3], "float32", "element 1 in C order is None"),  # was [1, nan, 3]
    ([[1, 2], [3, None]], [2, 2], "int32", "element 3 in C order is None"),
    ("123", [], "float32", "expected an array or a number, got str"),  # was parsed as 123
    ([1.5, 2, 3], [3], "int32", "1.5 \\(element 0 in C order\\) is not an integer"),  # was truncated to 1
    ([1, 300, 3], [3], "uint8", "300 is out of range for uint8"),  # was wrapped to 44
    ([-1, 2, 3], [3], "uint32", "-1 is out of range for uint32"),
    ([2**63], [1], "int64", "9223372036854775808 is out of range for int64"),
    ([1, 1e6], [2], "float16", "1000000.0 \\(element 1 in C order\\) is out of range for float16"),  # was inf
])
def test_array_likes_that_are_not_their_numbers_are_refused(context, value, shape, data_type, message):
    b = context.create_graph_builder()
    g = b.build({"y": b.identity(b.input("x", shape, data_type))})
    with pytest.raises(TypeError, match='compute: input "x": .*' + message):
        context.compute(g, {"x": value})


def test_array_likes_that_are_their_numbers_are_taken(context):
    b = context.create_graph_builder()
    g = b.build({"i": b.identity(b.input("i", [3], "int8")), "f": b.identity(b.input("f", [2], "float32")),
                 "u": b.identity(b.input("u", [1], "uint64")), "h": b.identity(b.input("h", [2], "float16"))})
    out = context.compute(g, {"i": [-128, 2.0, 127], "f": [1, 2**70], "u": [2**64 - 1], "h": [65504, np.inf]})
    np.testing.assert_array_equal(out["i"], [-128, 2, 127])
    np.testing.assert_array_equal(out["f"], [1, np.float32(2**70)])  # rounded, as floats are
    assert out["u"][0] == 2**64 - 1
    np.testing.assert_array_equal(out["h"], [65504, np.inf])  # an infinity given is kept
