"""Every error kind of the spec as its Python exception: the class, its base (so except clauses
written for pywebnn still catch it) and the library's message."""
import numpy as np
import pytest

import webnn
from webnn._webnn import _testing

KINDS = [
    ("DataError", webnn.DataError, ValueError),
    ("OperationError", webnn.OperationError, RuntimeError),
    ("NotSupportedError", webnn.NotSupportedError, RuntimeError),
    ("InvalidStateError", webnn.InvalidStateError, RuntimeError),
    ("AbortError", webnn.AbortError, RuntimeError),
    ("UnknownError", webnn.UnknownError, RuntimeError),
]


@pytest.mark.parametrize("kind,cls,base", KINDS)
def test_each_kind_maps_to_its_class(kind, cls, base):
    assert issubclass(cls, base)
    assert cls.__module__ == "webnn" and cls.__name__ == kind
    assert cls.__doc__ and kind.replace("Error", "") in cls.__doc__
    with pytest.raises(cls) as info:
        _testing.raise_error(kind, "op: the rule that failed")
    assert type(info.value) is cls
    assert str(info.value) == "op: the rule that failed"  # the message, without a kind prefix


def test_type_error_is_a_type_error_and_a_value_error():
    # The spec's TypeError is about a bad value: `except TypeError` and pywebnn's `except
    # ValueError` both catch it.
    for base in (TypeError, ValueError):
        with pytest.raises(base) as info:
            _testing.raise_error("TypeError", "gather: indices must have an integer data type")
        assert type(info.value) is webnn.TypeError
        assert str(info.value) == "gather: indices must have an integer data type"


def test_the_kinds_are_distinct():
    classes = [cls for _, cls, _ in KINDS]
    for a in classes:
        for b in classes:
            assert (a is b) == issubclass(a, b)


# ---- each kind from a real call ----


def test_type_error_from_validation(builder):
    x = builder.input("x", [2, 3])
    with pytest.raises(TypeError, match=r"^matmul: .*"):
        builder.matmul(x, x)


def test_type_error_from_argument_conversion(builder):
    x = builder.input("x", [2, 3])
    with pytest.raises(TypeError, match="add: b must be an MLOperand, got int"):
        builder.add(x, 3)
    with pytest.raises(TypeError, match=r"softmax\(\): missing a required argument: 'axis'"):
        builder.softmax(x)


def test_data_error_from_a_bad_file(tmp_path):
    path = tmp_path / "g.webnn"
    path.write_text("webnn_graph \"g\" v1 {\n  inputs { x: f32[2]; }\n  nodes { y = nosuchop(x); }\n  outputs { y; }\n}\n")
    with pytest.raises(webnn.DataError) as info:
        webnn.load(str(path))
    assert "g.webnn" in str(info.value)


def test_not_supported_error_from_an_unknown_backend():
    with pytest.raises(webnn.NotSupportedError, match="no-such-backend"):
        webnn.ML().create_context(backend="no-such-backend")


def test_invalid_state_error_from_a_lost_context(context):
    b = context.create_graph_builder()
    x = b.input("x", [1])
    context.destroy()
    with pytest.raises(webnn.InvalidStateError, match="lost"):
        b.relu(x)
    with pytest.raises(RuntimeError):  # pywebnn's except RuntimeError still catches it
        b.build({"y": x})


def test_invalid_state_error_from_a_destroyed_tensor_read(context):
    b = context.create_graph_builder()
    graph = b.build({"y": b.relu(b.input("x", [1]))})
    x = context.create_tensor([1], writable=True)
    y = context.create_tensor([1], readable=True)
    with _testing.ComputeGate(context) as gate:  # keeps the read queued behind the compute
        context.dispatch(graph, {"x": x}, {"y": y})
        pending = context._read_tensor_async(y)
        y.destroy()
        gate.release()
    with pytest.raises(webnn.InvalidStateError, match="destroyed"):
        pending.result(timeout=10)


def test_errors_leave_the_builder_usable(builder, context):
    x = builder.input("x", [2, 3])
    with pytest.raises(TypeError):
        builder.matmul(x, x)
    graph = builder.build({"y": builder.relu(x)})
    out = context.compute(graph, {"x": -np.ones((2, 3), np.float32)})["y"]
    np.testing.assert_array_equal(out, np.zeros((2, 3)))
