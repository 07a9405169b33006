"""MobileNetV2 from ../shared/models loaded and run from Python: the JSON and text forms give
bit-identical outputs, both match the independent numpy forward pass of tests/model/
numpy_forward.py, and the graph survives a save/load round trip through Python."""
import importlib.util

import numpy as np
import pytest

import webnn
from conftest import REPO, shared_path


def numpy_forward():
    spec = importlib.util.spec_from_file_location("numpy_forward", REPO / "tests" / "model" / "numpy_forward.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.forward


@pytest.fixture(scope="module")
def mobilenet():
    model = shared_path("models", "mobilenetv2")
    data = np.load(model / "input.npy")
    context = webnn.ML().create_context(backend="reference")
    graph = webnn.load(str(model / "mobilenetv2.json"))
    embedding = context.compute(graph, {"input": data})["embedding"]
    yield model, data, context, embedding
    context.destroy()


def test_mobilenet_shape_and_description(mobilenet):
    model, _, _, embedding = mobilenet
    graph = webnn.load(str(model / "mobilenetv2.json"))
    assert graph.inputs == {"input": {"shape": [1, 3, 224, 224], "data_type": "float32"}}
    assert graph.outputs == {"embedding": {"shape": [1, 1280], "data_type": "float32"}}
    assert graph.operation_count == 99
    assert embedding.shape == (1, 1280) and embedding.dtype == np.float32


def test_mobilenet_matches_numpy(mobilenet):
    model, data, _, embedding = mobilenet
    expected = numpy_forward()(str(model / "mobilenetv2.json"), data)
    diff = np.abs(embedding.astype(np.float64) - expected).max()
    assert diff <= 1e-4 * np.abs(expected).max()


def test_mobilenet_text_form_is_bit_identical(mobilenet):
    model, data, context, embedding = mobilenet
    text = webnn.load(str(model / "mobilenetv2.webnn"))
    np.testing.assert_array_equal(context.compute(text, {"input": data})["embedding"], embedding)


def test_mobilenet_save_and_reload(mobilenet, tmp_path):
    model, data, context, embedding = mobilenet
    webnn.load(str(model / "mobilenetv2.json")).save(str(tmp_path / "copy.webnn"))
    other = webnn.ML().create_context(backend=context.backend)
    out = other.compute(webnn.load(str(tmp_path / "copy.webnn")), {"input": data})["embedding"]
    np.testing.assert_array_equal(out, embedding)


def test_mobilenet_with_tensors(mobilenet):
    model, data, context, embedding = mobilenet
    graph = webnn.load(str(model / "mobilenetv2.json"))
    x = context.create_tensor([1, 3, 224, 224], writable=True)
    y = context.create_tensor([1, 1280], readable=True)
    context.write_tensor(x, data)
    context.dispatch(graph, {"input": x}, {"embedding": y})
    np.testing.assert_array_equal(context.read_tensor(y), embedding)
