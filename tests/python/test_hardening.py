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
