"""pywebnn's spellings and conveniences (docs/python.md, "pywebnn's spellings"): each one gives the
same graph and the same results as the spec's form it maps to, rejects what that form rejects,
and adds no operation of its own. The spec's TypeError is both a TypeError and a ValueError."""
import re

import numpy as np
import pytest

import webnn
from conftest import REPO
from webnn import _compat


def run(context, builder, outputs, inputs):
    return context.compute(builder.build(outputs), inputs)


# ---- the spec's TypeError ----


def test_type_error_is_a_type_error_and_a_value_error():
    assert issubclass(webnn.TypeError, TypeError) and issubclass(webnn.TypeError, ValueError)
    assert webnn.TypeError.__module__ == "webnn" and webnn.TypeError.__name__ == "TypeError"
    assert "TypeError" not in webnn.__all__  # `from webnn import *` leaves Python's TypeError alone
    for other in (webnn.DataError, webnn.OperationError, webnn.NotSupportedError, webnn.InvalidStateError):
        assert not issubclass(webnn.TypeError, other) and not issubclass(other, webnn.TypeError)


def test_validation_errors_are_caught_as_either(builder):
    x = builder.input("x", [2, 3])
    with pytest.raises(webnn.TypeError, match=r"^matmul: "):
        builder.matmul(x, x)
    with pytest.raises(ValueError, match=r"^reshape: "):  # pywebnn's except ValueError
        builder.reshape(x, [5])
    with pytest.raises(TypeError, match=r"^softmax: "):  # except TypeError keeps working
        builder.softmax(x, 2)


def test_conversion_errors_are_the_spec_type_error(builder, context):
    x = builder.input("x", [2, 3])
    with pytest.raises(webnn.TypeError, match='conv2d: input_layout "invalid" is not one of'):
        builder.conv2d(builder.input("i", [1, 1, 3, 3]), builder.input("f", [1, 1, 1, 1]), input_layout="invalid")
    with pytest.raises(webnn.TypeError, match="add: b must be an MLOperand, got int"):
        builder.add(x, 3)
    with pytest.raises(webnn.TypeError, match="create_tensor: "):
        context.create_tensor([2], "float64")


def test_calling_errors_stay_pythons_type_error(builder):
    x = builder.input("x", [2, 3])
    with pytest.raises(TypeError, match=r"softmax\(\): missing a required argument: 'axis'") as info:
        builder.softmax(x)
    assert type(info.value) is TypeError and not isinstance(info.value, ValueError)


# ---- pads= for padding= ----

CONV_PADDING = [1, 0, 2, 1]  # the spec's [beginH, endH, beginW, endW], asymmetric on purpose


def test_conv2d_pads_is_padding_unchanged(context):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 2, 5, 6)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    results = []
    for spelling in ("padding", "pads"):
        b = context.create_graph_builder()
        y = b.conv2d(b.input("x", [1, 2, 5, 6]), b.constant(w), strides=[1, 2], **{spelling: CONV_PADDING})
        assert y.shape == [1, 3, 4, 4]  # H: 5 + 1 + 0 - 2 = 4, W: (6 + 2 + 1 - 3) / 2 + 1 = 4
        results.append(run(context, b, {"y": y}, {"x": x})["y"])
    np.testing.assert_array_equal(results[0], results[1])


def test_conv_transpose2d_pads(builder):
    x = builder.input("x", [1, 4, 5, 5])
    w = builder.input("w", [4, 2, 3, 3])
    assert builder.conv_transpose2d(x, w, strides=[2, 2], pads=[1, 1, 1, 1]).shape == (
        builder.conv_transpose2d(x, w, strides=[2, 2], padding=[1, 1, 1, 1]).shape
    ) == [1, 2, 9, 9]


@pytest.mark.parametrize("pool", ["average_pool2d", "max_pool2d", "l2_pool2d"])
def test_pool_pads_is_padding_unchanged(context, pool):
    x = np.arange(1 * 2 * 5 * 6, dtype=np.float32).reshape(1, 2, 5, 6)
    results = []
    for spelling in ("padding", "pads"):
        b = context.create_graph_builder()
        y = getattr(b, pool)(b.input("x", [1, 2, 5, 6]), window_dimensions=[2, 3], **{spelling: CONV_PADDING})
        assert y.shape == [1, 2, 5, 7]  # H: 5 + 1 - 2 + 1, W: 6 + 3 - 3 + 1
        results.append(run(context, b, {"y": y}, {"x": x})["y"])
    np.testing.assert_array_equal(results[0], results[1])


def test_pads_with_padding_is_an_error(builder):
    x = builder.input("x", [1, 1, 4, 4])
    with pytest.raises(TypeError, match=r"max_pool2d\(\): pads is pywebnn's name of padding; give one of them"):
        builder.max_pool2d(x, pads=[0, 0, 0, 0], padding=[0, 0, 0, 0])
    with pytest.raises(webnn.TypeError, match="^maxPool2d: "):  # the spec's checks apply to pads too
        builder.max_pool2d(x, window_dimensions=[2, 2], pads=[1, 1])


# ---- triangular(input, upper, diagonal) ----


def test_triangular_positional_options(context):
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    for upper, diagonal in [(True, 0), (False, 0), (True, 1), (False, -1)]:
        b = context.create_graph_builder()
        i = b.input("x", [3, 4])
        got = run(context, b, {"p": b.triangular(i, upper, diagonal), "k": b.triangular(i, upper=upper, diagonal=diagonal)}, {"x": x})
        np.testing.assert_array_equal(got["p"], got["k"])
        np.testing.assert_array_equal(got["p"], np.triu(x, diagonal) if upper else np.tril(x, diagonal))
    b = context.create_graph_builder()
    i = b.input("x", [3, 4])
    np.testing.assert_array_equal(run(context, b, {"y": b.triangular(i, False)}, {"x": x})["y"], np.tril(x))


def test_triangular_positional_errors(builder):
    x = builder.input("x", [3, 3])
    with pytest.raises(TypeError, match=r"triangular\(\) takes at most 3 positional arguments \(4 given\)"):
        builder.triangular(x, True, 0, 1)
    with pytest.raises(TypeError, match=r"triangular\(\) got multiple values for argument 'upper'"):
        builder.triangular(x, True, upper=False)
    with pytest.raises(webnn.TypeError, match="triangular: upper must be a bool"):
        builder.triangular(x, 1)


# ---- pad(input, padding=[b..., e...]) ----


def test_pad_padding_is_beginnings_then_endings(context):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = context.create_graph_builder()
    i = b.input("x", [2, 3])
    y = b.pad(i, padding=[1, 2, 3, 0], mode="constant", value=-1.0)
    z = b.pad(i, [1, 2], [3, 0], mode="constant", value=-1.0)
    assert y.shape == [6, 5]
    got = run(context, b, {"y": y, "z": z}, {"x": x})
    np.testing.assert_array_equal(got["y"], np.pad(x, [(1, 3), (2, 0)], constant_values=-1))
    np.testing.assert_array_equal(got["y"], got["z"])


def test_pad_padding_errors(builder):
    x = builder.input("x", [2, 3])
    with pytest.raises(webnn.TypeError, match=r"pad: padding must hold 2 \* rank = 4 values .* rank 2, got 3"):
        builder.pad(x, padding=[1, 1, 1])
    with pytest.raises(webnn.TypeError, match="pad: padding must be a sequence of integers, got int"):
        builder.pad(x, padding=1)
    with pytest.raises(TypeError, match="give one form"):
        builder.pad(x, [1, 1], [1, 1], padding=[1, 1, 1, 1])
    with pytest.raises(webnn.TypeError, match="^pad: "):  # the spec's conversion of each value
        builder.pad(x, padding=[1, -1, 0, 0])


# ---- squeeze, unsqueeze: reshape ----


def test_squeeze_unsqueeze_are_reshapes(context):
    x = np.arange(12, dtype=np.float32).reshape(1, 3, 1, 4, 1)
    b = context.create_graph_builder()
    i = b.input("x", [1, 3, 1, 4, 1])
    outputs = {
        "all": b.squeeze(i),
        "some": b.squeeze(i, [0, 4]),
        "none": b.squeeze(b.input("y", [2, 3])),
        "un": b.unsqueeze(b.squeeze(i), axes=[0, 2, 4]),
    }
    assert [o.shape for o in outputs.values()] == [[3, 4], [3, 1, 4], [2, 3], [1, 3, 1, 4, 1]]
    graph = b.build(outputs)
    assert graph.operation_count == 5  # one reshape each, nothing else
    got = context.compute(graph, {"x": x, "y": np.zeros((2, 3), np.float32)})
    np.testing.assert_array_equal(got["all"], x.reshape(3, 4))
    np.testing.assert_array_equal(got["some"], x.reshape(3, 1, 4))
    np.testing.assert_array_equal(got["un"], x)


def test_squeeze_unsqueeze_errors(builder):
    x = builder.input("x", [1, 3])
    with pytest.raises(webnn.TypeError, match=r"squeeze: dimension 1 of input \[1, 3\] is 3, not 1"):
        builder.squeeze(x, [1])
    with pytest.raises(webnn.TypeError, match="squeeze: axis 2 is out of range for rank 2"):
        builder.squeeze(x, [2])
    with pytest.raises(webnn.TypeError, match="unsqueeze: axis 3 is out of range for rank 3"):
        builder.unsqueeze(x, [3])
    with pytest.raises(webnn.TypeError, match="unsqueeze: axes .* hold an axis twice"):
        builder.unsqueeze(x, [0, 0])
    with pytest.raises(webnn.TypeError, match="unsqueeze: axes must be integers, got float"):
        builder.unsqueeze(x, [0.0])
    with pytest.raises(ValueError, match="squeeze: input must be an MLOperand, got list"):
        builder.squeeze([1, 3])


# ---- global pools: the pools without window_dimensions ----


@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_global_pools(context, layout):
    x = np.random.default_rng(2).standard_normal((2, 3, 4, 5)).astype(np.float32)
    axes = (2, 3) if layout == "nchw" else (1, 2)
    b = context.create_graph_builder()
    i = b.input("x", list(x.shape))
    avg, mx = b.global_average_pool(i, layout=layout), b.global_max_pool(i, layout)
    assert avg.shape == mx.shape == ([2, 3, 1, 1] if layout == "nchw" else [2, 1, 1, 5])
    graph = b.build({"avg": avg, "max": mx})
    assert graph.operation_count == 2
    got = context.compute(graph, {"x": x})
    np.testing.assert_allclose(got["avg"], x.mean(axis=axes, keepdims=True), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got["max"], x.max(axis=axes, keepdims=True))


def test_global_pool_errors(builder):
    with pytest.raises(webnn.TypeError, match="^averagePool2d: "):
        builder.global_average_pool(builder.input("x", [3, 4, 5]))
    with pytest.raises(webnn.TypeError, match='max_pool2d: layout "invalid" is not one of'):
        builder.global_max_pool(builder.input("y", [1, 3, 4, 5]), layout="invalid")


def test_operand_introspection(builder):
    x = builder.input("x", [2, 3], "float16")
    assert builder.operand_shape(x) == x.shape == [2, 3]
    assert builder.operand_data_type(x) == x.data_type == "float16"
    with pytest.raises(webnn.TypeError, match="operand_shape: operand must be an MLOperand, got str"):
        builder.operand_shape("x")


# ---- create_host_tensor and pywebnn's tensor workflow ----


def test_create_host_tensor_workflow(context):
    t = context.create_host_tensor([2, 3], "float32")
    assert (t.readable, t.writable, t.shape, t.data_type, t.size) == (True, True, [2, 3], "float32", 6)
    np.testing.assert_array_equal(context.read_tensor(t), np.zeros((2, 3), np.float32))
    data = np.array([[1, -2, 3], [-4, 5, -6]], np.float32)
    context.write_tensor(t, data)
    np.testing.assert_array_equal(context.read_tensor(t), data)
    b = context.create_graph_builder()
    graph = b.build({"y": b.relu(b.input("x", [2, 3]))})
    out = context.create_host_tensor([2, 3])
    context.dispatch(graph, {"x": t}, {"y": out})
    np.testing.assert_array_equal(context.read_tensor(out), np.maximum(data, 0))
    assert context.create_tensor([2, 3]).readable is False  # the spec's defaults are unchanged


# ---- every alias and helper is documented ----


def test_docs_name_every_alias_and_helper():
    text = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
    section = text[text.index("## pywebnn's spellings") :]
    section = section[: section.index("\n## ", 1)]
    for name in list(_compat.ADAPTERS) + list(_compat.HELPERS) + ["create_host_tensor"]:
        assert re.search(rf"[`.]{name}\b", section), f"docs/python.md does not document {name}"
    assert set(webnn.PYWEBNN_HELPERS) == set(_compat.HELPERS)
    for name in webnn.PYWEBNN_HELPERS:
        assert name not in webnn.OPERATORS  # compositions, not operators
