"""The WPT conformance data of ../shared/wpt/conformance driven through the Python API: each case
is built with the builder's methods (operands positionally, options as keyword arguments), run
with compute(), and judged by the library's one comparator with the WPT tolerances
(webnn._webnn._testing.compare_output). Every case must pass, on the default backend, on the
reference backend and through a remote context of the WebNN service."""
import json
import math
import os
import re
from pathlib import Path

import numpy as np
import pytest

import webnn
from webnn._webnn import _testing
from conftest import SHARED

CONFORMANCE = SHARED / "wpt" / "conformance"


def snake(name):
    if name == "isNaN":
        return "is_nan"
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def number(value):
    """A WPT number: a JSON number, or a string (BigInt "123n", digits, "Infinity", "NaN")."""
    if not isinstance(value, str):
        return value
    text = value[:-1] if value.endswith("n") else value
    special = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}
    return special[text] if text in special else int(text)


def tensor(entry):
    """The ndarray of an input or expected output: its data in its descriptor's type and shape."""
    desc = entry["descriptor"]
    shape = tuple(desc["shape"])
    data = entry["data"]
    if not isinstance(data, list):  # one number fills the whole tensor
        return np.full(shape, number(data), dtype=desc["dataType"])
    return np.array([number(v) for v in data], dtype=desc["dataType"]).reshape(shape)


def cases():
    if not CONFORMANCE.is_dir():
        return [pytest.param(None, id="absent", marks=pytest.mark.skip(reason=f"{CONFORMANCE} is absent"))]
    params = []
    for path in sorted(CONFORMANCE.glob("*.json")):
        for test in json.loads(path.read_text())["tests"]:
            params.append(pytest.param(test, id=f"{path.stem}::{test['name']}"))
    return params


def argument(value, operands):
    """A positional argument or option value: operand names become operands."""
    if isinstance(value, str) and value in operands:
        return operands[value]
    if isinstance(value, list) and value and all(isinstance(v, str) and v in operands for v in value):
        return [operands[v] for v in value]
    if isinstance(value, str) and re.fullmatch(r"-?\d+n", value):
        return number(value)
    return value


def build(context, graph):
    builder = context.create_graph_builder()
    operands, feeds = {}, {}
    for name, entry in graph["inputs"].items():
        array = tensor(entry)
        if entry.get("constant"):
            operands[name] = builder.constant(array)
        else:
            operands[name] = builder.input(name, list(array.shape), array.dtype.name)
            feeds[name] = array
    for op in graph["operators"]:
        positional, keywords = [], {}
        for arg in op["arguments"]:
            for key, value in arg.items():
                if key == "options":
                    keywords = {snake(k): argument(v, operands) for k, v in value.items()}
                else:
                    positional.append(argument(value, operands))
        result = getattr(builder, snake(op["name"]))(*positional, **keywords)
        names = op["outputs"] if isinstance(op["outputs"], list) else [op["outputs"]]
        results = result if isinstance(result, list) else [result]
        assert len(results) == len(names), f"{op['name']} returned {len(results)} outputs"
        operands.update(zip(names, results))
    outputs = {name: operands[name] for name in graph["expectedOutputs"]}
    return builder.build(outputs), feeds


@pytest.fixture(scope="module", params=["default", "reference", "remote"])
def wpt_context(request):
    """A context of this process (the default backend, the reference one), or one of the WebNN
    service (webnn.Service, as `webnn serve`) on its default backend."""
    if request.param != "remote":
        ctx = webnn.ML().create_context(**({} if request.param == "default" else {"backend": request.param}))
        yield ctx
        ctx.destroy()
        return
    path = f"/tmp/webnn_py_wpt_{os.getpid()}.sock"
    with webnn.Service(path):
        ctx = webnn.ML().create_context(remote="unix:" + path)
        yield ctx
        ctx.destroy()


@pytest.mark.parametrize("case", cases())
def test_wpt_case(wpt_context, case):
    graph_desc = case["graph"]
    graph, feeds = build(wpt_context, graph_desc)
    results = wpt_context.compute(graph, feeds)
    for name, entry in graph_desc["expectedOutputs"].items():
        expected = tensor(entry)
        actual = results[name]
        assert actual.dtype == expected.dtype and actual.shape == expected.shape, name
        mismatch = _testing.compare_output(graph, name, expected, actual)
        assert mismatch is None, mismatch
    graph.destroy()


def test_the_data_is_there():
    if not CONFORMANCE.is_dir():
        pytest.skip(f"{CONFORMANCE} is absent")
    assert len(list(CONFORMANCE.glob("*.json"))) >= 54
