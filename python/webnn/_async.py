"""AsyncMLContext: the context's waiting calls as awaitables, for asyncio programs."""

import asyncio

from . import _webnn


class AsyncMLContext:
    """Wraps an MLContext so that its waiting calls are awaitable under asyncio.

    Each call is queued on the context timeline when it is made, exactly as the plain context
    queues it, so calls keep their order whatever order the awaits come in; only the waiting
    happens off the event loop (on an executor thread, with the GIL released), so
    ``await actx.read_tensor(t)`` never blocks other coroutines.

    - ``dispatch(graph, inputs, outputs)`` queues the compute and returns an awaitable that
      completes once the compute has run (its results are then readable).
    - ``read_tensor(tensor)`` queues the read and returns an awaitable of the ndarray.
    - ``write_tensor(tensor, data)`` queues the write (the data is copied at once) and returns
      an awaitable that is already complete.
    - ``compute(graph, inputs)`` returns an awaitable of the outputs; ``inputs`` must not change
      until it completes.

    Errors come where the spec puts them: dispatch() and write_tensor() raise at the call (the
    spec's methods throw), read_tensor() and compute() when awaited (the spec's promises reject).
    Every other attribute (create_tensor, op_support_limits, destroy, ...) is the wrapped
    context's.
    ``read_tensor_async`` and ``write_tensor_async`` are pywebnn's names of the same methods.
    """

    def __init__(self, context):
        if not isinstance(context, _webnn.MLContext):
            raise TypeError(f"AsyncMLContext: expected an MLContext, got {type(context).__name__}")
        self._context = context

    @property
    def context(self):
        """The wrapped MLContext."""
        return self._context

    def _wait(self, pending):
        return asyncio.get_running_loop().run_in_executor(None, pending.result)

    def dispatch(self, graph, inputs, outputs):
        loop = asyncio.get_running_loop()
        self._context.dispatch(graph, inputs, outputs)
        # A one-byte read queued after the dispatch completes once the dispatch has run: the
        # timeline runs its steps in order.
        fence = self._context.create_tensor([1], "uint8", readable=True)
        pending = self._context._read_tensor_async(fence)

        def settle():
            pending.result()
            return None

        return loop.run_in_executor(None, settle)

    def read_tensor(self, tensor):
        asyncio.get_running_loop()  # called from a coroutine, like the awaitables it returns
        return self._wait(self._context._read_tensor_async(tensor))

    def write_tensor(self, tensor, data):
        future = asyncio.get_running_loop().create_future()
        self._context.write_tensor(tensor, data)
        future.set_result(None)
        return future

    def compute(self, graph, inputs, outputs=None):
        return asyncio.get_running_loop().run_in_executor(None, self._context.compute, graph, inputs, outputs)

    read_tensor_async = read_tensor
    write_tensor_async = write_tensor

    def __getattr__(self, name):
        return getattr(self._context, name)

    def __repr__(self):
        return f"<webnn.AsyncMLContext of {self._context!r}>"
