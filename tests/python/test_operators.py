"""Every operator of the C++ op table is a builder method with the spec's signature, and its
arguments convert by type as the spec's IDL says. The expectations come from the op table file
and the spec's IDL, read here independently of the module."""
import inspect
import math
import re

import numpy as np
import pytest

import webnn
from conftest import REPO, op_exists, shared_path


def snake(name):
    if name == "isNaN":
        return "is_nan"
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def table_ops():
    """The spec names of every OpKind, read from src/graph/op_table.def."""
    text = (REPO / "src" / "graph" / "op_table.def").read_text()
    return re.findall(r'^WEBNN_OP\(\w+, "(\w+)"', text, re.M)


# ---- every op is reachable ----


def test_every_op_kind_has_a_method():
    ops = table_ops()
    assert len(ops) == 95
    missing = [op for op in ops if not callable(getattr(webnn.MLGraphBuilder, snake(op), None))]
    assert missing == []
    assert set(webnn.OPERATORS) == {snake(op) for op in ops}


def test_method_names():
    for name in ("average_pool2d", "reduce_log_sum_exp", "gather_nd", "scatter_nd", "where", "is_nan",
                 "l2_pool2d", "conv_transpose2d", "lstm_cell", "round_even", "dequantize_linear"):
        assert name in webnn.OPERATORS
    assert webnn.MLGraphBuilder.where_ is webnn.MLGraphBuilder.where  # pywebnn's alias
    for absent in ("squeeze", "unsqueeze", "global_average_pool"):  # not in the spec: pywebnn's helpers
        assert absent not in webnn.OPERATORS


# ---- signatures against the spec's IDL ----


def idl_blocks():
    spec = shared_path("spec", "webnn.bs").read_text()
    return re.findall(r"<script type=idl>(.*?)</script>", spec, re.S)


def idl_methods():
    """spec name -> (argument names before the options, options dictionary name)."""
    methods = {}
    for block in idl_blocks():
        for body in re.findall(r"partial interface MLGraphBuilder\s*\{(.*?)\};", block, re.S):
            for m in re.finditer(r"(?:sequence<MLOperand>|MLOperand)\s+(\w+)\s*\((.*?)\)\s*;", body, re.S):
                args = " ".join(m.group(2).split())
                options = re.search(r"optional (\w+) options", args)
                required = re.sub(r",?\s*optional \w+ options = \{\}", "", args)
                required = re.sub(r"\([^)]*\)", "UNION", required)  # split's union type
                names = [a.split()[-1] for a in required.split(",") if a.strip()]
                methods[m.group(1)] = (names, options.group(1) if options else None)
    return methods


def idl_literal(text):
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    if text.startswith('"'):
        return text.strip('"')
    return float(text) if any(c in text for c in ".e") else int(text)


def idl_dictionaries():
    """dictionary name -> {member name: default or None}, with inherited members."""
    found = {}
    for block in idl_blocks():
        for name, parent, body in re.findall(r"dictionary (\w+)\s*(?::\s*(\w+))?\s*\{(.*?)\};", block, re.S):
            members = {}
            for line in body.split(";"):
                line = " ".join(line.split())
                if not line:
                    continue
                decl, _, default = line.partition(" = ")
                members[decl.split()[-1]] = idl_literal(default) if default else None
            found[name] = (parent, members)

    def resolve(name):
        parent, members = found[name]
        return {**(resolve(parent) if parent else {}), **members}

    return {name: resolve(name) for name in found}


def test_signatures_follow_the_idl():
    methods = idl_methods()
    dictionaries = idl_dictionaries()
    assert set(methods) - {"input", "constant", "build"} == set(table_ops())
    for op in table_ops():
        positional, options_type = methods[op]
        sig = inspect.signature(getattr(webnn.MLGraphBuilder, snake(op)))
        params = list(sig.parameters.values())[1:]
        got_positional = [p.name for p in params if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
        assert got_positional == [snake(n) for n in positional], op
        keywords = {p.name: p.default for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}
        members = dictionaries[options_type]
        assert set(keywords) == {snake(n) for n in members}, op
        for member, default in members.items():
            got = keywords[snake(member)]
            if default is None:
                if op == "clamp":  # MLNumber bounds: absent means unbounded
                    assert math.isinf(got), op
                else:
                    assert got is None, (op, member, got)
            else:
                assert got == default, (op, member, got, default)


# The stub and op_signatures.def being current is the CTest generated_files_up_to_date.
def test_stub_lists_every_operator():
    text = (REPO / "python" / "webnn" / "__init__.pyi").read_text()
    for name in webnn.OPERATORS:
        assert f"    def {name}(" in text


def test_docstrings():
    assert webnn.MLGraphBuilder.__doc__ and webnn.MLContext.__doc__ and webnn.AsyncMLContext.__doc__
    for name in webnn.OPERATORS:
        doc = getattr(webnn.MLGraphBuilder, name).__doc__
        assert doc.startswith("The spec's ") and "https://www.w3.org/TR/webnn/" in doc
    assert "padding, strides" in webnn.MLGraphBuilder.conv2d.__doc__


# ---- arguments ----


def test_positional_and_keyword_parameters(builder):
    x = builder.input("x", [2, 3])
    assert builder.reshape(x, [3, 2]).shape == [3, 2]
    assert builder.reshape(x, new_shape=(6,)).shape == [6]
    assert builder.slice(x, starts=[0, 1], sizes=[2, 2]).shape == [2, 2]
    assert builder.slice(x, [0, 0], [1, 3], strides=[1, 2]).shape == [1, 2]
    assert builder.cast(x, data_type="int32").data_type == "int32"
    assert builder.cast(x, np.int8).data_type == "int8"
    assert builder.softmax(x, axis=1).shape == [2, 3]
    assert builder.concat([x, x], axis=0).shape == [4, 3]
    assert builder.transpose(x).shape == [3, 2]
    assert builder.transpose(x, permutation=None).shape == [3, 2]
    pooled = builder.average_pool2d(builder.input("img", [1, 2, 4, 4]), window_dimensions=[2, 2], strides=[2, 2])
    assert pooled.shape == [1, 2, 2, 2]
    nhwc = builder.conv2d(builder.input("i", [1, 5, 5, 3]), builder.constant(np.ones((3, 3, 3, 8), np.float32)),
                          input_layout="nhwc", filter_layout="hwio", padding=[1, 1, 1, 1],
                          bias=builder.constant(np.zeros(8, np.float32)))
    assert nhwc.shape == [1, 5, 5, 8]
    assert builder.reduce_mean(x, axes=[1], keep_dimensions=True).shape == [2, 1]
    assert builder.gemm(x, x, b_transpose=True, alpha=2.0, c=builder.constant(np.zeros((2, 2), np.float32))).shape == [2, 2]


def test_multiple_outputs_are_lists(builder):
    x = builder.input("x", [2, 6])
    parts = builder.split(x, 3, axis=1)
    assert isinstance(parts, list) and [p.shape for p in parts] == [[2, 2]] * 3
    assert [p.shape for p in builder.split(x, [1, 5], axis=1)] == [[2, 1], [2, 5]]
    assert [p.shape for p in builder.split(x, splits=2)] == [[1, 6], [1, 6]]


def test_recurrent_ops_return_lists(context):
    def gru(b):
        x = b.input("x", [3, 2, 4])
        w = b.input("w", [1, 9, 4])
        r = b.input("r", [1, 9, 3])
        outs = b.gru(x, w, r, 3, 3, return_sequence=True)
        assert isinstance(outs, list) and [o.shape for o in outs] == [[1, 2, 3], [3, 1, 2, 3]]
        return {"y": outs[0], "seq": outs[1]}

    def lstm_cell(b):
        x = b.input("x", [2, 4])
        w = b.input("w", [12, 4])
        r = b.input("r", [12, 3])
        h = b.input("h", [2, 3])
        c = b.input("c", [2, 3])
        outs = b.lstm_cell(x, w, r, h, c, hidden_size=3)
        assert isinstance(outs, list) and [o.shape for o in outs] == [[2, 3], [2, 3]]
        return {"h": outs[0], "c": outs[1]}

    if not op_exists(context, gru) and not op_exists(context, lstm_cell):
        pytest.skip("gru and lstmCell have not landed yet")


def test_int64_options_are_exact(context):
    b = context.create_graph_builder()
    x = b.input("x", [3], "int64")
    low = 2**62 + 1
    graph = b.build({"y": b.clamp(x, min_value=low, max_value=2**63 - 1)})
    out = context.compute(graph, {"x": np.array([0, 2**62 + 2, 2**63 - 1], np.int64)})["y"]
    np.testing.assert_array_equal(out, [low, 2**62 + 2, 2**63 - 1])


CONVERSION_ERRORS = [
    # (call, message): each argument type of the IDL, rejected as its WebIDL conversion rejects it.
    (lambda b, x: b.reduce_mean(x, keep_dimensions=1), "keep_dimensions must be a bool, got int"),
    (lambda b, x: b.softmax(x, -1), r"axis must be an integer in \[0, 4294967295\], got -1"),
    (lambda b, x: b.softmax(x, 1.0), "axis must be an integer"),
    (lambda b, x: b.triangular(x, diagonal=2**31), r"diagonal must be an integer in \[-2147483648"),
    (lambda b, x: b.elu(x, alpha=float("nan")), "alpha must be a finite number"),
    (lambda b, x: b.elu(x, alpha="1"), "alpha must be a number, got str"),
    (lambda b, x: b.clamp(x, min_value=2**64), "outside the int64 and uint64 ranges"),
    (lambda b, x: b.clamp(x, max_value=True), "max_value must be a number, got bool"),
    (lambda b, x: b.cast(x, "float64"), "not a data type"),
    (lambda b, x: b.conv2d(x, x, input_layout="nhcw"), r'"nhcw" is not one of "nchw", "nhwc"'),
    (lambda b, x: b.reshape(x, [6, -1]), r"new_shape\[1\] must be an integer"),
    (lambda b, x: b.reshape(x, "6"), "new_shape must be a sequence of integers, got str"),
    (lambda b, x: b.average_pool2d(x, strides=7), "strides must be a sequence of integers, got int"),
    (lambda b, x: b.resample2d(x, scales=[1e39, 1.0]), "scales values must be finite float32"),
    (lambda b, x: b.gru(x, x, x, 1, 1, activations=["relu", "gelu"]), r'activations\[1\] "gelu" is not one of'),
    (lambda b, x: b.conv2d(x, x, bias=3), "bias must be an MLOperand or None, got int"),
    (lambda b, x: b.split(x, "ab"), "splits must be an integer or a sequence of integers"),
    (lambda b, x: b.concat(x, 0), "inputs must be a sequence of MLOperand"),
    (lambda b, x: b.concat([x, 1], 0), r"inputs\[1\] must be an MLOperand"),
    (lambda b, x: b.relu(x, label=5), "label must be a str"),
    (lambda b, x: b.relu(x, alpha=1.0), r"relu\(\): got an unexpected keyword argument 'alpha'"),
    (lambda b, x: b.conv2d(x, x, [1, 1, 1, 1]), r"conv2d\(\): too many positional arguments"),
    (lambda b, x: b.gru(x, x, x, 1), r"gru\(\): missing a required argument: 'hidden_size'"),
]


@pytest.mark.parametrize("call,message", CONVERSION_ERRORS)
def test_argument_conversion_errors(builder, call, message):
    x = builder.input("x", [2, 3])
    with pytest.raises(TypeError, match=message):
        call(builder, x)


def test_none_means_absent(builder):
    x = builder.input("x", [1, 1, 4, 4])
    w = builder.constant(np.ones((1, 1, 3, 3), np.float32))
    assert builder.conv2d(x, w, padding=None, strides=None, bias=None).shape == [1, 1, 2, 2]


# ---- an argument named by a Python keyword ----


def test_an_argument_named_by_a_python_keyword_takes_a_trailing_underscore():
    # No op of today's spec has one; an op that did (found adding a throwaway op with an option
    # `lambda`, docs/design.md, "Adding an operator") made `import webnn` fail. Its method takes
    # `lambda_` (PEP 8) and hands the native builder the spec's name.
    from webnn import _ops

    entry = {"kind": 0, "name": "shrink", "method": "shrink", "operands": [("input", False)],
             "parameters": [("from", "int")], "options": [("lambda", 0.5, "float")], "returns_sequence": False}
    method = _ops._make_method(entry)
    assert list(inspect.signature(method).parameters) == ["self", "input", "from_", "lambda_", "label"]
    assert "lambda_" in method.__doc__

    class Builder:
        def _add_operation(self, kind, operands, arguments):
            return kind, operands, arguments

    assert method(Builder(), "x", 3, lambda_=0.25) == (0, ["x"], {"from": 3, "lambda": 0.25})
    with pytest.raises(TypeError, match="lambda"):
        method(Builder(), "x", 3, **{"lambda": 0.25})
