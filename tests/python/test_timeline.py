"""The context timeline seen from Python: dispatch returns at once, work runs in call order, the
GIL is released while work runs, and AsyncMLContext awaits without blocking the event loop.

A ComputeGate (webnn._webnn._testing) holds every compute of a context on its timeline thread
until released, so the tests observe ordering without sleeping or timing anything."""
import asyncio
import subprocess
import sys
import threading

import numpy as np
import pytest

import webnn
from conftest import child_env
from webnn._webnn import _testing

SHAPE = [2, 3]


def double_graph(context):
    b = context.create_graph_builder()
    x = b.input("x", SHAPE)
    return b.build({"y": b.add(x, x)})


def tensors(context):
    x = context.create_tensor(SHAPE, writable=True, readable=True)
    y = context.create_tensor(SHAPE, readable=True)
    return x, y


def data(value):
    return np.full(SHAPE, value, np.float32)


# ---- the plain context ----


def test_dispatch_returns_while_the_compute_is_held(context):
    graph = double_graph(context)
    x, y = tensors(context)
    context.write_tensor(x, data(1))
    with _testing.ComputeGate(context) as gate:
        context.dispatch(graph, {"x": x}, {"y": y})  # returns although the compute cannot run
        assert gate.wait_arrived(1)
        pending = context._read_tensor_async(y)
        assert not pending.done()
        with pytest.raises(TimeoutError):
            pending.result(timeout=0.05)
        gate.release()
        np.testing.assert_array_equal(pending.result(timeout=10), data(2))


def test_steps_run_in_call_order(context):
    graph = double_graph(context)
    x, y = tensors(context)
    with _testing.ComputeGate(context) as gate:
        context.write_tensor(x, data(1))
        context.dispatch(graph, {"x": x}, {"y": y})
        context.write_tensor(x, data(5))  # queued after the dispatch: the compute still sees 1
        read_y = context._read_tensor_async(y)
        read_x = context._read_tensor_async(x)
        context.dispatch(graph, {"x": x}, {"y": y})
        read_y2 = context._read_tensor_async(y)
        gate.release()
        np.testing.assert_array_equal(read_y.result(timeout=10), data(2))
        np.testing.assert_array_equal(read_x.result(timeout=10), data(5))
        np.testing.assert_array_equal(read_y2.result(timeout=10), data(10))


def test_compute_releases_the_gil(context):
    graph = double_graph(context)
    results = {}

    def worker():
        results["y"] = context.compute(graph, {"x": data(3)})["y"]

    with _testing.ComputeGate(context) as gate:
        t = threading.Thread(target=worker)
        t.start()
        # This thread runs Python while the worker waits in compute(): the GIL is free.
        assert gate.wait_arrived(1)
        assert "y" not in results
        gate.release()
        t.join(10)
    assert not t.is_alive()
    np.testing.assert_array_equal(results["y"], data(6))


def test_read_tensor_releases_the_gil(context):
    graph = double_graph(context)
    x, y = tensors(context)
    context.write_tensor(x, data(4))
    results = {}
    with _testing.ComputeGate(context) as gate:
        context.dispatch(graph, {"x": x}, {"y": y})
        t = threading.Thread(target=lambda: results.setdefault("y", context.read_tensor(y)))
        t.start()
        assert gate.wait_arrived(1)
        t.join(0.05)
        assert t.is_alive() and "y" not in results
        gate.release()
        t.join(10)
    np.testing.assert_array_equal(results["y"], data(8))


def test_threads_share_a_context(context):
    graph = double_graph(context)
    errors, outputs = [], {}

    def worker(i):
        try:
            for k in range(20):
                value = i * 100 + k
                outputs[(i, k)] = context.compute(graph, {"x": data(value)})["y"]
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert len(outputs) == 120
    for (i, k), out in outputs.items():
        np.testing.assert_array_equal(out, data(2 * (i * 100 + k)))


def test_contexts_are_independent():
    ml = webnn.ML()
    held, free = ml.create_context(), ml.create_context()
    held_graph, free_graph = double_graph(held), double_graph(free)
    result = {}
    with _testing.ComputeGate(held) as gate:
        t = threading.Thread(target=lambda: result.setdefault("held", held.compute(held_graph, {"x": data(1)})))
        t.start()
        assert gate.wait_arrived(1)
        # The other context's timeline is not held back.
        np.testing.assert_array_equal(free.compute(free_graph, {"x": data(2)})["y"], data(4))
        assert "held" not in result
        gate.release()
        t.join(10)
    np.testing.assert_array_equal(result["held"]["y"], data(2))


def test_destroy_rejects_pending_reads(context):
    graph = double_graph(context)
    x, y = tensors(context)
    gate = _testing.ComputeGate(context)
    context.dispatch(graph, {"x": x}, {"y": y})
    assert gate.wait_arrived(1)
    pending = context._read_tensor_async(y)
    # destroy() waits for the compute that is running; release it from another thread.
    releaser = threading.Timer(0.05, gate.release)
    releaser.start()
    context.destroy()
    releaser.join()
    with pytest.raises(webnn.InvalidStateError, match="context was lost"):
        pending.result(timeout=10)
    gate.close()


# ---- AsyncMLContext ----


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def test_async_read_does_not_block_the_event_loop(context):
    graph = double_graph(context)
    x, y = tensors(context)
    actx = webnn.AsyncMLContext(context)
    gate = _testing.ComputeGate(context)

    async def main():
        await actx.write_tensor(x, data(7))
        dispatched = actx.dispatch(graph, {"x": x}, {"y": y})
        read = actx.read_tensor(y)
        ticks = 0
        # The loop keeps running other coroutines while the compute is held.
        while not gate.arrived or ticks < 20:
            await asyncio.sleep(0.001)
            ticks += 1
        assert not read.done() and not dispatched.done()
        gate.release()
        await dispatched
        return await read, ticks

    try:
        out, ticks = run(main())
    finally:
        gate.close()
    assert ticks >= 20
    np.testing.assert_array_equal(out, data(14))


def test_async_calls_keep_call_order(context):
    actx = webnn.AsyncMLContext(context)
    t = context.create_tensor(SHAPE, readable=True, writable=True)

    async def main():
        actx.write_tensor(t, data(1))
        first = actx.read_tensor(t)
        actx.write_tensor(t, data(2))
        second = actx.read_tensor_async(t)  # pywebnn's name
        # Awaited in the opposite order: each read saw the tensor as it was when it was called.
        return await second, await first

    second, first = run(main())
    np.testing.assert_array_equal(first, data(1))
    np.testing.assert_array_equal(second, data(2))


def test_async_compute_and_dispatch(context):
    graph = double_graph(context)
    actx = webnn.AsyncMLContext(context)
    x, y = tensors(context)

    async def main():
        results = await asyncio.gather(*(actx.compute(graph, {"x": data(i)}) for i in range(8)))
        await actx.write_tensor_async(x, data(9))
        await actx.dispatch(graph, {"x": x}, {"y": y})
        return results, context.read_tensor(y)

    results, y_value = run(main())
    for i, r in enumerate(results):
        np.testing.assert_array_equal(r["y"], data(2 * i))
    np.testing.assert_array_equal(y_value, data(18))


def test_async_errors(context):
    actx = webnn.AsyncMLContext(context)
    hidden = context.create_tensor(SHAPE, writable=True)
    graph = double_graph(context)

    async def main():
        # As in the spec: readTensor() rejects its promise, writeTensor() throws.
        with pytest.raises(TypeError, match="readable"):
            await actx.read_tensor(hidden)
        with pytest.raises(TypeError, match="expected float32"):
            actx.write_tensor(hidden, np.zeros(SHAPE, np.int32))
        with pytest.raises(TypeError, match="missing"):
            await actx.compute(graph, {})
        # A read still queued (behind a held compute) when its tensor is destroyed.
        x, y = tensors(context)
        with _testing.ComputeGate(context) as gate:
            context.dispatch(graph, {"x": x}, {"y": y})
            read = actx.read_tensor(y)
            y.destroy()
            gate.release()
        with pytest.raises(webnn.InvalidStateError, match="destroyed"):
            await read

    run(main())
    with pytest.raises(TypeError, match="expected an MLContext"):
        webnn.AsyncMLContext(object())


def test_async_context_forwards_the_rest(context):
    actx = webnn.AsyncMLContext(context)
    assert actx.context is context
    assert actx.power_preference == context.power_preference
    assert actx.op_support_limits()["preferredInputLayout"] == "nchw"
    assert actx.create_tensor([1]).shape == [1]


# ---- the worker's poll (docs/runtime.md, "The timeline's worker") ----

POLL_PROGRAM = """
import numpy as np, webnn
context = webnn.ML().create_context(backend="reference")
b = context.create_graph_builder()
x = b.input("x", [2, 3])
graph = b.build({"y": b.add(x, x)})
x, y = context.create_tensor([2, 3], writable=True), context.create_tensor([2, 3], readable=True)
for value in range(50):
    context.write_tensor(x, np.full([2, 3], value, np.float32))
    context.dispatch(graph, {"x": x}, {"y": y})
    assert (context.read_tensor(y) == 2 * value).all()
print("ok")
"""


@pytest.mark.parametrize("spin,valid", [("0", True), ("200", True), ("1000000", True), ("", False), ("abc", False),
                                        ("-1", False), ("12x", False), ("1000001", False)])
def test_the_poll_time_is_read_from_the_environment_and_a_bad_one_is_named(spin, valid):
    result = subprocess.run([sys.executable, "-c", POLL_PROGRAM], capture_output=True, text=True,
                            env=child_env(WEBNN_TIMELINE_SPIN_US=spin), timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"
    named = f'WEBNN_TIMELINE_SPIN_US="{spin}" is not a whole number of microseconds'
    assert (named in result.stderr) != valid, result.stderr
