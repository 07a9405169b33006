"""Remote contexts from Python: a context of the WebNN service (webnn.Service, the same service
as `webnn serve`) computes what a local one does, keeps the timeline's order, refuses a wrong
token and frees what a client leaves behind."""
import os
import time

import numpy as np
import pytest

import webnn
from conftest import shared_path


class Served:
    def __init__(self, path):
        self.path = path
        self.service = webnn.Service(path, token=b"pass")

    @property
    def live_objects(self):
        return self.service.live_objects


@pytest.fixture
def service():
    served = Served(f"/tmp/webnn_py_{os.getpid()}_{time.monotonic_ns()}.sock")
    yield served
    served.service.stop()
    assert not os.path.exists(served.path), "the socket outlived the service"


def remote_context(service, token=b"pass"):
    return webnn.ML().create_context(backend="reference", remote="unix:" + service.path, token=token)


def test_remote_dispatch_keeps_the_timeline_order(service):
    context = remote_context(service)
    b = webnn.MLGraphBuilder(context)
    x = b.input("x", {"shape": [3], "data_type": "float32"})
    graph = b.build({"y": b.mul(x, b.constant(np.array([1, 2, 3], dtype=np.float32)))})
    tx = context.create_tensor([3], "float32", writable=True)
    ty = context.create_tensor([3], "float32", readable=True)
    results = []
    for i in range(20):
        context.write_tensor(tx, np.full(3, i, dtype=np.float32))
        context.dispatch(graph, {"x": tx}, {"y": ty})
        results.append(context.read_tensor(ty))
    for i, r in enumerate(results):
        np.testing.assert_array_equal(r, np.array([i, 2 * i, 3 * i], dtype=np.float32))


def test_remote_mobilenet_is_bit_identical(service):
    model = shared_path("models", "mobilenetv2", "mobilenetv2.json")
    image = np.load(shared_path("models", "mobilenetv2", "input.npy"))
    local = webnn.ML().create_context(backend="reference")
    remote = remote_context(service)
    graph = webnn.load(str(model))
    expected = local.compute(graph, {"input": image})
    got = remote.compute(graph, {"input": image})
    np.testing.assert_array_equal(got["embedding"], expected["embedding"])


def test_a_wrong_token_is_refused(service):
    # The spec's kind for a context that cannot be created.
    with pytest.raises(webnn.NotSupportedError, match="the token was refused"):
        remote_context(service, token=b"nope")


def test_what_a_client_leaves_is_freed(service):
    context = remote_context(service)
    tensor = context.create_tensor([1000], "float32", readable=True)
    dropped = context.create_tensor([1000], "float32", readable=True)
    del dropped  # its last handle: the service frees it too
    for _ in range(500):
        if service.live_objects == 2:
            break
        time.sleep(0.01)
    assert service.live_objects == 2  # the context and the tensor still held
    del context, tensor
    for _ in range(500):
        if service.live_objects == 0:
            break
        time.sleep(0.01)
    assert service.live_objects == 0
