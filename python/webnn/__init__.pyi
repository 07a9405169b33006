"""Type stubs of the webnn package (webnn-cpp). The operator methods of MLGraphBuilder are
generated from the op table by scripts/gen_python_stub.py; a test checks they are current."""

import builtins
from collections.abc import Awaitable, Mapping, Sequence
from os import PathLike
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

__version__: str

DataType = Literal["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8"]
PowerPreference = Literal["default", "high-performance", "low-power"]
# A data type argument: a spec name, or a numpy dtype of the same name (np.float16, "int8").
DataTypeLike = DataType | np.dtype[Any] | type[np.generic]

OPERATORS: tuple[str, ...]
PYWEBNN_HELPERS: tuple[str, ...]
DATA_TYPES: tuple[str, ...]

class TypeError(builtins.TypeError, ValueError):
    """The spec's TypeError: an argument or operand the spec rejects. A subclass of both
    TypeError and ValueError."""

class DataError(ValueError):
    """The spec's DataError: data that does not fit (a graph or weights file, a buffer)."""

class OperationError(RuntimeError):
    """The spec's OperationError: an operation failed while running (compilation, compute)."""

class NotSupportedError(RuntimeError):
    """The spec's NotSupportedError: valid, but not supported by this implementation or backend."""

class InvalidStateError(RuntimeError):
    """The spec's InvalidStateError: the object is destroyed, lost or already built."""

class AbortError(RuntimeError):
    """The spec's AbortError: the work was aborted."""

class UnknownError(RuntimeError):
    """The spec's UnknownError: a failure with no more specific kind."""

class OperandDescriptorDict(dict[str, Any]):
    """{"shape": list[int], "data_type": DataType}"""

class ML:
    """The spec's ML: creates contexts."""
    def __init__(self) -> None: ...
    def create_context(
        self,
        power_preference: PowerPreference = "default",
        accelerated: bool = True,
        *,
        backend: str = "",
        num_threads: int = 0,
        remote: str = "",
        token: bytes = b"",
        synchronous: bool = False,
    ) -> MLContext:
        """A new MLContext (spec: createContext()). backend picks one by name ("reference";
        "" or "auto": the best available); num_threads bounds the backend's threads;
        remote="unix:PATH" makes it a context of the WebNN service listening there
        (webnn serve), token= the bytes that service asks for; synchronous=True runs each
        timeline step on the calling thread before the call returns (dispatch waits for its
        compute), saving the two thread hand-offs of each round trip."""

class Service:
    """The WebNN service on a Unix socket (docs/service.md), served on a background thread
    until stop() or the end of a with block. Clients: ML().create_context(remote="unix:PATH")."""
    def __init__(self, socket: str, *, token: bytes = b"") -> None: ...
    def stop(self) -> None:
        """Ends every connection (after the call each is running) and removes the socket."""
    @property
    def live_objects(self) -> int:
        """Contexts, tensors and graphs the clients hold now."""
    def __enter__(self) -> Service: ...
    def __exit__(self, *args: object) -> None: ...

class MLContext:
    """The spec's MLContext: where graphs are compiled and run, in call order."""
    @property
    def accelerated(self) -> bool: ...
    @property
    def power_preference(self) -> PowerPreference: ...
    @property
    def backend(self) -> str: ...
    @property
    def num_threads(self) -> int: ...
    @property
    def is_lost(self) -> bool: ...
    def create_graph_builder(self) -> MLGraphBuilder: ...
    def compute(
        self,
        graph: MLGraph,
        inputs: Mapping[str, npt.ArrayLike],
        outputs: Mapping[str, np.ndarray] | None = None,
    ) -> dict[str, np.ndarray]:
        """Runs graph on inputs and returns name -> ndarray (waits, GIL released)."""
    def dispatch(self, graph: MLGraph, inputs: Mapping[str, MLTensor], outputs: Mapping[str, MLTensor]) -> None:
        """Queues graph on the context timeline and returns at once."""
    def create_tensor(
        self,
        shape: Sequence[int],
        data_type: DataTypeLike = "float32",
        readable: bool = False,
        writable: bool = False,
    ) -> MLTensor: ...
    def create_host_tensor(self, shape: Sequence[int], data_type: DataTypeLike = "float32") -> MLTensor:
        """pywebnn's name: create_tensor(shape, data_type, readable=True, writable=True)."""
    def create_constant_tensor(
        self,
        value: npt.ArrayLike,
        shape: Sequence[int] | None = None,
        data_type: DataTypeLike | None = None,
    ) -> MLTensor: ...
    def write_tensor(self, tensor: MLTensor, data: npt.ArrayLike) -> None: ...
    def read_tensor(self, tensor: MLTensor, out: np.ndarray | None = None) -> np.ndarray:
        """The tensor's bytes once the work queued before has run (waits, GIL released)."""
    def convert_to_onnx(self, graph: MLGraph, path: str | PathLike[str]) -> None:
        """Writes graph as an ONNX model (opset 17) to path; NotSupportedError names an op ONNX
        cannot express exactly."""
    def op_support_limits(self) -> dict[str, Any]:
        """The spec's MLOpSupportLimits, with its member names (preferredInputLayout, dataTypes,
        rankRange, per-op members such as "conv2d")."""
    def destroy(self) -> None: ...
    def __enter__(self) -> MLContext: ...
    def __exit__(self, *args: object) -> None: ...

class AsyncMLContext:
    """An MLContext whose waiting calls are awaitable; calls are queued when made."""
    def __init__(self, context: MLContext) -> None: ...
    @property
    def context(self) -> MLContext: ...
    def dispatch(
        self, graph: MLGraph, inputs: Mapping[str, MLTensor], outputs: Mapping[str, MLTensor]
    ) -> Awaitable[None]: ...
    def read_tensor(self, tensor: MLTensor) -> Awaitable[np.ndarray]: ...
    def write_tensor(self, tensor: MLTensor, data: npt.ArrayLike) -> Awaitable[None]: ...
    def compute(
        self,
        graph: MLGraph,
        inputs: Mapping[str, npt.ArrayLike],
        outputs: Mapping[str, np.ndarray] | None = None,
    ) -> Awaitable[dict[str, np.ndarray]]: ...
    def read_tensor_async(self, tensor: MLTensor) -> Awaitable[np.ndarray]: ...
    def write_tensor_async(self, tensor: MLTensor, data: npt.ArrayLike) -> Awaitable[None]: ...
    def __getattr__(self, name: str) -> Any: ...

class MLTensor:
    """The spec's MLTensor: typed memory that dispatch() reads and writes."""
    @property
    def data_type(self) -> DataType: ...
    @property
    def shape(self) -> list[int]: ...
    @property
    def size(self) -> int: ...
    @property
    def readable(self) -> bool: ...
    @property
    def writable(self) -> bool: ...
    @property
    def constant(self) -> bool: ...
    @property
    def destroyed(self) -> bool: ...
    def destroy(self) -> None: ...

class MLGraph:
    """The spec's MLGraph: a built graph, or one loaded with webnn.load()."""
    @property
    def input_names(self) -> list[str]: ...
    @property
    def output_names(self) -> list[str]: ...
    @property
    def inputs(self) -> dict[str, OperandDescriptorDict]: ...
    @property
    def outputs(self) -> dict[str, OperandDescriptorDict]: ...
    @property
    def operand_count(self) -> int: ...
    @property
    def operation_count(self) -> int: ...
    @property
    def destroyed(self) -> bool: ...
    def get_input_names(self) -> list[str]: ...
    def get_output_names(self) -> list[str]: ...
    def destroy(self) -> None: ...
    def save(
        self,
        path: str | PathLike[str],
        *,
        weights_path: str | PathLike[str] | None = None,
        manifest_path: str | PathLike[str] | None = None,
        inline_limit: int = 64,
    ) -> None:
        """Writes webnn-graph JSON (.json) or text (.webnn), with a weights file for large constants."""
    @staticmethod
    def load(
        path: str | PathLike[str],
        manifest_path: str | PathLike[str] | None = None,
        weights_path: str | PathLike[str] | None = None,
        *,
        memory_budget: int | None = None,
    ) -> MLGraph: ...

def load(
    path: str | PathLike[str],
    manifest_path: str | PathLike[str] | None = None,
    weights_path: str | PathLike[str] | None = None,
    *,
    memory_budget: int | None = None,
) -> MLGraph:
    """Loads a webnn-graph file (.json or .webnn) or an ONNX model (.onnx); the graph runs on any context."""

def load_weights(
    manifest_path: str | PathLike[str],
    weights_path: str | PathLike[str] | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """Reads a weights manifest and its weights file as {key: read-only ndarray} over the mapped file."""

class MLOperand:
    """The spec's MLOperand: a value in a graph being built."""
    @property
    def data_type(self) -> DataType: ...
    @property
    def shape(self) -> list[int]: ...
    @property
    def name(self) -> str | None: ...

class MLGraphBuilder:
    """The spec's MLGraphBuilder; every operator is a method named in snake_case."""
    def __init__(self, context: MLContext) -> None: ...
    def input(
        self,
        name: str,
        shape: Sequence[int] | Mapping[str, Any],
        data_type: DataTypeLike = "float32",
    ) -> MLOperand: ...
    def constant(
        self,
        value: npt.ArrayLike | MLTensor | DataType,
        shape: Sequence[int] | float | None = None,
        data_type: DataTypeLike | None = None,
    ) -> MLOperand:
        """A constant: an ndarray or array-like (reshaped by shape, converted to data_type), a
        constant MLTensor, or constant(data_type_name, scalar) as in the spec."""
    def build(self, outputs: Mapping[str, MLOperand]) -> MLGraph: ...
    # ---- operators: generated by scripts/gen_python_stub.py from the op table; do not edit ----
    def add(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's add() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-add)."""
    def sub(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's sub() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-sub)."""
    def mul(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's mul() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-mul)."""
    def div(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's div() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-div)."""
    def max(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's max() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-max)."""
    def min(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's min() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-min)."""
    def pow(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's pow() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-pow)."""
    def abs(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's abs() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-abs)."""
    def ceil(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's ceil() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-ceil)."""
    def cos(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's cos() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-cos)."""
    def erf(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's erf() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-erf)."""
    def exp(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's exp() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-exp)."""
    def floor(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's floor() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-floor)."""
    def identity(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's identity() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-identity)."""
    def log(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's log() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-log)."""
    def neg(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's neg() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-neg)."""
    def reciprocal(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's reciprocal() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reciprocal)."""
    def round_even(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's roundEven() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-roundeven)."""
    def sin(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's sin() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-sin)."""
    def sign(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's sign() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-sign)."""
    def sqrt(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's sqrt() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-sqrt)."""
    def tan(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's tan() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-tan)."""
    def relu(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's relu() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-relu)."""
    def sigmoid(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's sigmoid() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-sigmoid)."""
    def tanh(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's tanh() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-tanh)."""
    def gelu(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's gelu() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-gelu)."""
    def elu(
        self,
        input: MLOperand,
        *,
        alpha: float = 1.0,
        label: str = '',
    ) -> MLOperand:
        """The spec's elu() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-elu)."""
    def hard_sigmoid(
        self,
        input: MLOperand,
        *,
        alpha: float = 0.2,
        beta: float = 0.5,
        label: str = '',
    ) -> MLOperand:
        """The spec's hardSigmoid() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-hardsigmoid)."""
    def hard_swish(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's hardSwish() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-hardswish)."""
    def leaky_relu(
        self,
        input: MLOperand,
        *,
        alpha: float = 0.01,
        label: str = '',
    ) -> MLOperand:
        """The spec's leakyRelu() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-leakyrelu)."""
    def linear(
        self,
        input: MLOperand,
        *,
        alpha: float = 1.0,
        beta: float = 0.0,
        label: str = '',
    ) -> MLOperand:
        """The spec's linear() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-linear)."""
    def prelu(
        self,
        input: MLOperand,
        slope: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's prelu() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-prelu)."""
    def softplus(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's softplus() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-softplus)."""
    def softsign(
        self,
        input: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's softsign() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-softsign)."""
    def clamp(
        self,
        input: MLOperand,
        *,
        min_value: float = ...,
        max_value: float = ...,
        label: str = '',
    ) -> MLOperand:
        """The spec's clamp() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-clamp)."""
    def cast(
        self,
        input: MLOperand,
        data_type: DataTypeLike,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's cast() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-cast)."""
    def equal(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's equal() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-equal)."""
    def not_equal(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's notEqual() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-notequal)."""
    def greater(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's greater() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-greater)."""
    def greater_or_equal(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's greaterOrEqual() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-greaterorequal)."""
    def lesser(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's lesser() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-lesser)."""
    def lesser_or_equal(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's lesserOrEqual() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-lesserorequal)."""
    def logical_not(
        self,
        a: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's logicalNot() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-logicalnot)."""
    def logical_and(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's logicalAnd() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-logicaland)."""
    def logical_or(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's logicalOr() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-logicalor)."""
    def logical_xor(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's logicalXor() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-logicalxor)."""
    def is_nan(
        self,
        a: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's isNaN() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-isnan)."""
    def is_infinite(
        self,
        a: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's isInfinite() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-isinfinite)."""
    def where(
        self,
        condition: MLOperand,
        true_value: MLOperand,
        false_value: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's where() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-where)."""
    def conv2d(
        self,
        input: MLOperand,
        filter: MLOperand,
        *,
        padding: Sequence[int] | None = None,
        strides: Sequence[int] | None = None,
        dilations: Sequence[int] | None = None,
        groups: int = 1,
        input_layout: Literal["nchw", "nhwc"] = 'nchw',
        filter_layout: Literal["oihw", "hwio", "ohwi", "ihwo"] = 'oihw',
        bias: MLOperand | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's conv2d() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-conv2d)."""
    def conv_transpose2d(
        self,
        input: MLOperand,
        filter: MLOperand,
        *,
        padding: Sequence[int] | None = None,
        strides: Sequence[int] | None = None,
        dilations: Sequence[int] | None = None,
        output_padding: Sequence[int] | None = None,
        output_sizes: Sequence[int] | None = None,
        groups: int = 1,
        input_layout: Literal["nchw", "nhwc"] = 'nchw',
        filter_layout: Literal["iohw", "hwoi", "ohwi"] = 'iohw',
        bias: MLOperand | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's convTranspose2d() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-convtranspose2d)."""
    def average_pool2d(
        self,
        input: MLOperand,
        *,
        window_dimensions: Sequence[int] | None = None,
        padding: Sequence[int] | None = None,
        strides: Sequence[int] | None = None,
        dilations: Sequence[int] | None = None,
        layout: Literal["nchw", "nhwc"] = 'nchw',
        output_shape_rounding: Literal["floor", "ceil"] = 'floor',
        output_sizes: Sequence[int] | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's averagePool2d() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-averagepool2d)."""
    def l2_pool2d(
        self,
        input: MLOperand,
        *,
        window_dimensions: Sequence[int] | None = None,
        padding: Sequence[int] | None = None,
        strides: Sequence[int] | None = None,
        dilations: Sequence[int] | None = None,
        layout: Literal["nchw", "nhwc"] = 'nchw',
        output_shape_rounding: Literal["floor", "ceil"] = 'floor',
        output_sizes: Sequence[int] | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's l2Pool2d() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-l2pool2d)."""
    def max_pool2d(
        self,
        input: MLOperand,
        *,
        window_dimensions: Sequence[int] | None = None,
        padding: Sequence[int] | None = None,
        strides: Sequence[int] | None = None,
        dilations: Sequence[int] | None = None,
        layout: Literal["nchw", "nhwc"] = 'nchw',
        output_shape_rounding: Literal["floor", "ceil"] = 'floor',
        output_sizes: Sequence[int] | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's maxPool2d() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-maxpool2d)."""
    def resample2d(
        self,
        input: MLOperand,
        *,
        mode: Literal["nearest-neighbor", "linear"] = 'nearest-neighbor',
        scales: Sequence[float] | None = None,
        sizes: Sequence[int] | None = None,
        axes: Sequence[int] | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's resample2d() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-resample2d)."""
    def matmul(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's matmul() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-matmul)."""
    def gemm(
        self,
        a: MLOperand,
        b: MLOperand,
        *,
        c: MLOperand | None = None,
        alpha: float = 1.0,
        beta: float = 1.0,
        a_transpose: bool = False,
        b_transpose: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's gemm() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-gemm)."""
    def batch_normalization(
        self,
        input: MLOperand,
        mean: MLOperand,
        variance: MLOperand,
        *,
        scale: MLOperand | None = None,
        bias: MLOperand | None = None,
        axis: int = 1,
        epsilon: float = 1e-05,
        label: str = '',
    ) -> MLOperand:
        """The spec's batchNormalization() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-batchnormalization)."""
    def instance_normalization(
        self,
        input: MLOperand,
        *,
        scale: MLOperand | None = None,
        bias: MLOperand | None = None,
        epsilon: float = 1e-05,
        layout: Literal["nchw", "nhwc"] = 'nchw',
        label: str = '',
    ) -> MLOperand:
        """The spec's instanceNormalization() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-instancenormalization)."""
    def layer_normalization(
        self,
        input: MLOperand,
        *,
        scale: MLOperand | None = None,
        bias: MLOperand | None = None,
        axes: Sequence[int] | None = None,
        epsilon: float = 1e-05,
        label: str = '',
    ) -> MLOperand:
        """The spec's layerNormalization() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-layernormalization)."""
    def softmax(
        self,
        input: MLOperand,
        axis: int,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's softmax() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-softmax)."""
    def reduce_l1(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceL1() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reducel1)."""
    def reduce_l2(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceL2() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reducel2)."""
    def reduce_log_sum(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceLogSum() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reducelogsum)."""
    def reduce_log_sum_exp(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceLogSumExp() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reducelogsumexp)."""
    def reduce_max(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceMax() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reducemax)."""
    def reduce_mean(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceMean() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reducemean)."""
    def reduce_min(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceMin() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reducemin)."""
    def reduce_product(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceProduct() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reduceproduct)."""
    def reduce_sum(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceSum() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reducesum)."""
    def reduce_sum_square(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        keep_dimensions: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's reduceSumSquare() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reducesumsquare)."""
    def arg_max(
        self,
        input: MLOperand,
        axis: int,
        *,
        keep_dimensions: bool = False,
        output_data_type: DataTypeLike = 'int32',
        label: str = '',
    ) -> MLOperand:
        """The spec's argMax() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-argmax)."""
    def arg_min(
        self,
        input: MLOperand,
        axis: int,
        *,
        keep_dimensions: bool = False,
        output_data_type: DataTypeLike = 'int32',
        label: str = '',
    ) -> MLOperand:
        """The spec's argMin() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-argmin)."""
    def cumulative_sum(
        self,
        input: MLOperand,
        axis: int,
        *,
        exclusive: bool = False,
        reversed: bool = False,
        label: str = '',
    ) -> MLOperand:
        """The spec's cumulativeSum() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-cumulativesum)."""
    def reshape(
        self,
        input: MLOperand,
        new_shape: Sequence[int],
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's reshape() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reshape)."""
    def transpose(
        self,
        input: MLOperand,
        *,
        permutation: Sequence[int] | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's transpose() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-transpose)."""
    def concat(
        self,
        inputs: Sequence[MLOperand],
        axis: int,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's concat() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-concat)."""
    def split(
        self,
        input: MLOperand,
        splits: int | Sequence[int],
        *,
        axis: int = 0,
        label: str = '',
    ) -> list[MLOperand]:
        """The spec's split() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-split)."""
    def slice(
        self,
        input: MLOperand,
        starts: Sequence[int],
        sizes: Sequence[int],
        *,
        strides: Sequence[int] | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's slice() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-slice)."""
    def expand(
        self,
        input: MLOperand,
        new_shape: Sequence[int],
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's expand() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-expand)."""
    def pad(
        self,
        input: MLOperand,
        beginning_padding: Sequence[int],
        ending_padding: Sequence[int],
        *,
        mode: Literal["constant", "edge", "reflection"] = 'constant',
        value: float = 0.0,
        label: str = '',
    ) -> MLOperand:
        """The spec's pad() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-pad)."""
    def reverse(
        self,
        input: MLOperand,
        *,
        axes: Sequence[int] | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's reverse() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-reverse)."""
    def tile(
        self,
        input: MLOperand,
        repetitions: Sequence[int],
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's tile() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-tile)."""
    def triangular(
        self,
        input: MLOperand,
        *,
        upper: bool = True,
        diagonal: int = 0,
        label: str = '',
    ) -> MLOperand:
        """The spec's triangular() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-triangular)."""
    def gather(
        self,
        input: MLOperand,
        indices: MLOperand,
        *,
        axis: int = 0,
        label: str = '',
    ) -> MLOperand:
        """The spec's gather() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-gather)."""
    def gather_elements(
        self,
        input: MLOperand,
        indices: MLOperand,
        *,
        axis: int = 0,
        label: str = '',
    ) -> MLOperand:
        """The spec's gatherElements() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-gatherelements)."""
    def gather_nd(
        self,
        input: MLOperand,
        indices: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's gatherND() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-gathernd)."""
    def scatter_elements(
        self,
        input: MLOperand,
        indices: MLOperand,
        updates: MLOperand,
        *,
        axis: int = 0,
        label: str = '',
    ) -> MLOperand:
        """The spec's scatterElements() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-scatterelements)."""
    def scatter_nd(
        self,
        input: MLOperand,
        indices: MLOperand,
        updates: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's scatterND() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-scatternd)."""
    def gru(
        self,
        input: MLOperand,
        weight: MLOperand,
        recurrent_weight: MLOperand,
        steps: int,
        hidden_size: int,
        *,
        bias: MLOperand | None = None,
        recurrent_bias: MLOperand | None = None,
        initial_hidden_state: MLOperand | None = None,
        reset_after: bool = True,
        return_sequence: bool = False,
        direction: Literal["forward", "backward", "both"] = 'forward',
        layout: Literal["zrn", "rzn"] = 'zrn',
        activations: Sequence[Literal["relu", "sigmoid", "tanh"]] | None = None,
        label: str = '',
    ) -> list[MLOperand]:
        """The spec's gru() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-gru)."""
    def gru_cell(
        self,
        input: MLOperand,
        weight: MLOperand,
        recurrent_weight: MLOperand,
        hidden_state: MLOperand,
        hidden_size: int,
        *,
        bias: MLOperand | None = None,
        recurrent_bias: MLOperand | None = None,
        reset_after: bool = True,
        layout: Literal["zrn", "rzn"] = 'zrn',
        activations: Sequence[Literal["relu", "sigmoid", "tanh"]] | None = None,
        label: str = '',
    ) -> MLOperand:
        """The spec's gruCell() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-grucell)."""
    def lstm(
        self,
        input: MLOperand,
        weight: MLOperand,
        recurrent_weight: MLOperand,
        steps: int,
        hidden_size: int,
        *,
        bias: MLOperand | None = None,
        recurrent_bias: MLOperand | None = None,
        peephole_weight: MLOperand | None = None,
        initial_hidden_state: MLOperand | None = None,
        initial_cell_state: MLOperand | None = None,
        return_sequence: bool = False,
        direction: Literal["forward", "backward", "both"] = 'forward',
        layout: Literal["iofg", "ifgo"] = 'iofg',
        activations: Sequence[Literal["relu", "sigmoid", "tanh"]] | None = None,
        label: str = '',
    ) -> list[MLOperand]:
        """The spec's lstm() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-lstm)."""
    def lstm_cell(
        self,
        input: MLOperand,
        weight: MLOperand,
        recurrent_weight: MLOperand,
        hidden_state: MLOperand,
        cell_state: MLOperand,
        hidden_size: int,
        *,
        bias: MLOperand | None = None,
        recurrent_bias: MLOperand | None = None,
        peephole_weight: MLOperand | None = None,
        layout: Literal["iofg", "ifgo"] = 'iofg',
        activations: Sequence[Literal["relu", "sigmoid", "tanh"]] | None = None,
        label: str = '',
    ) -> list[MLOperand]:
        """The spec's lstmCell() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-lstmcell)."""
    def quantize_linear(
        self,
        input: MLOperand,
        scale: MLOperand,
        zero_point: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's quantizeLinear() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-quantizelinear)."""
    def dequantize_linear(
        self,
        input: MLOperand,
        scale: MLOperand,
        zero_point: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """The spec's dequantizeLinear() (https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-dequantizelinear)."""
    # ---- end of the generated operators ----
    def where_(
        self,
        condition: MLOperand,
        true_value: MLOperand,
        false_value: MLOperand,
        *,
        label: str = '',
    ) -> MLOperand:
        """pywebnn's name of where()."""
    def squeeze(self, input: MLOperand, axes: Sequence[int] | None = None, *, label: str = "") -> MLOperand:
        """pywebnn's squeeze(): reshape() without the size-1 dimensions (all, or those of axes)."""
    def unsqueeze(self, input: MLOperand, axes: Sequence[int], *, label: str = "") -> MLOperand:
        """pywebnn's unsqueeze(): reshape() with a size-1 dimension at each of axes."""
    def global_average_pool(
        self, input: MLOperand, layout: Literal["nchw", "nhwc"] = "nchw", *, label: str = ""
    ) -> MLOperand:
        """pywebnn's global_average_pool(): average_pool2d() over the whole spatial extent."""
    def global_max_pool(
        self, input: MLOperand, layout: Literal["nchw", "nhwc"] = "nchw", *, label: str = ""
    ) -> MLOperand:
        """pywebnn's global_max_pool(): max_pool2d() over the whole spatial extent."""
    def operand_shape(self, operand: MLOperand) -> list[int]:
        """pywebnn's name of operand.shape."""
    def operand_data_type(self, operand: MLOperand) -> DataType:
        """pywebnn's name of operand.data_type."""
