"""webnn: the W3C Web Neural Network API from Python, on webnn-cpp.

Names are the spec's in snake_case; operands and options are numpy-friendly::

    import numpy as np
    import webnn

    context = webnn.ML().create_context()
    builder = context.create_graph_builder()
    x = builder.input("x", [2, 3], "float32")
    w = builder.constant(np.ones((3, 4), np.float32))
    y = builder.relu(builder.matmul(x, w))
    graph = builder.build({"y": y})
    print(context.compute(graph, {"x": np.arange(6, dtype=np.float32).reshape(2, 3)})["y"])

Errors: the spec's TypeError is webnn.TypeError, a subclass of both Python's TypeError and
ValueError; DataError (a ValueError), OperationError, NotSupportedError, InvalidStateError,
AbortError and UnknownError (RuntimeErrors) are classes of this module. See docs/python.md for
the whole API, and for pywebnn's spellings that are accepted too.
"""

from ._webnn import (
    AbortError,
    DataError,
    InvalidStateError,
    ML,
    MLContext,
    MLGraph,
    MLGraphBuilder,
    MLOperand,
    MLTensor,
    NotSupportedError,
    OperationError,
    Service,
    TypeError,
    UnknownError,
    __version__,
    load,
    load_weights,
)
from . import _compat, _ops
from ._async import AsyncMLContext

OPERATORS = tuple(_ops.install(MLGraphBuilder))
"""The builder's operator methods, one per operator of the spec, in the op table's order."""

PYWEBNN_HELPERS = tuple(_compat.install(MLGraphBuilder, MLContext))
"""pywebnn's convenience methods of MLGraphBuilder (squeeze, unsqueeze, global_average_pool,
global_max_pool, operand_shape, operand_data_type): compositions of spec operations or the
operand's own attributes, not operators."""

DATA_TYPES = ("float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8")
"""The spec's MLOperandDataType names (numpy dtypes of the same names)."""

# pywebnn's MLGraph.load(path, ...), kept because it costs nothing.
MLGraph.load = staticmethod(load)

__all__ = [
    "ML",
    "MLContext",
    "MLGraphBuilder",
    "MLOperand",
    "MLGraph",
    "MLTensor",
    "AsyncMLContext",
    "Service",
    "load",
    "load_weights",
    "DataError",
    "OperationError",
    "NotSupportedError",
    "InvalidStateError",
    "AbortError",
    "UnknownError",
    "OPERATORS",
    "PYWEBNN_HELPERS",
    "DATA_TYPES",
]
