"""pywebnn's spellings and conveniences, where the spec allows them (docs/python.md).

pywebnn is the Python face of the seed system, and code is written against it. Each name here is
either another spelling of a spec argument, mapped onto the spec's argument before the call binds
to the spec's signature, or a composition of spec operations (reshape, the pools, constant). No
IR operation is added: a graph built through these names holds only the spec's operations.
"""

from . import _webnn

# ---- spellings of the spec's arguments: (args, kwargs) -> (args, kwargs) ----


def _sequence(method, name, value):
    """value as a list, for an argument the spec types as a sequence (a string is not one)."""
    if not isinstance(value, (str, bytes)):
        try:
            return list(value)
        except TypeError:
            pass
    raise _webnn.TypeError(f"{method}: {name} must be a sequence of integers, got {type(value).__name__}")


def _pads(method):
    """pywebnn's `pads=` is the spec's `padding=`, passed through unchanged (pywebnn hands it to
    the spec's padding as it is, whatever its docstring says of the order)."""

    def adapt(args, kwargs):
        if "pads" in kwargs:
            if "padding" in kwargs:
                raise TypeError(f"{method}(): pads is pywebnn's name of padding; give one of them")
            kwargs["padding"] = kwargs.pop("pads")
        return args, kwargs

    return adapt


def _positional_options(method, operand_count, names):
    """Options given positionally after the operands, in pywebnn's order."""

    def adapt(args, kwargs):
        extra = args[operand_count:]
        if not extra:
            return args, kwargs
        if len(extra) > len(names):
            raise TypeError(
                f"{method}() takes at most {operand_count + len(names)} positional arguments "
                f"({len(args)} given)"
            )
        for name, value in zip(names, extra):
            if name in kwargs:
                raise TypeError(f"{method}() got multiple values for argument '{name}'")
            kwargs[name] = value
        return args[:operand_count], kwargs

    return adapt


def _pad_padding(args, kwargs):
    """pad(input, padding=[b0, ..., bn-1, e0, ..., en-1]): every beginning padding, then every
    ending padding, as pywebnn takes them; split into the spec's beginning_padding and
    ending_padding."""
    if "padding" not in kwargs:
        return args, kwargs
    padding = kwargs.pop("padding")
    if len(args) > 1 or "beginning_padding" in kwargs or "ending_padding" in kwargs:
        raise TypeError("pad(): padding is pywebnn's form of beginning_padding and ending_padding; give one form")
    operand = args[0] if args else kwargs.get("input")
    if not isinstance(operand, _webnn.MLOperand):
        return args, kwargs  # the spec's binding reports the missing or wrong input
    padding = _sequence("pad", "padding", padding)
    rank = len(operand.shape)
    if len(padding) != 2 * rank:
        raise _webnn.TypeError(
            f"pad: padding must hold 2 * rank = {2 * rank} values (every beginning padding, then every "
            f"ending padding) for an input of rank {rank}, got {len(padding)}"
        )
    kwargs["beginning_padding"] = padding[:rank]
    kwargs["ending_padding"] = padding[rank:]
    return args, kwargs


ADAPTERS = {
    "conv2d": _pads("conv2d"),
    "conv_transpose2d": _pads("conv_transpose2d"),
    "average_pool2d": _pads("average_pool2d"),
    "max_pool2d": _pads("max_pool2d"),
    "l2_pool2d": _pads("l2_pool2d"),
    "triangular": _positional_options("triangular", 1, ("upper", "diagonal")),
    "pad": _pad_padding,
}
"""Per operator method: the function that maps pywebnn's spelling onto the spec's arguments."""

ALIAS_NOTES = {
    "conv2d": "pywebnn's pads= is accepted as padding=.",
    "conv_transpose2d": "pywebnn's pads= is accepted as padding=.",
    "average_pool2d": "pywebnn's pads= is accepted as padding=.",
    "max_pool2d": "pywebnn's pads= is accepted as padding=.",
    "l2_pool2d": "pywebnn's pads= is accepted as padding=.",
    "triangular": "pywebnn's triangular(input, upper, diagonal) (options positionally) is accepted.",
    "pad": "pywebnn's pad(input, padding=[b0, ..., e0, ...]) (every beginning, then every ending) is accepted.",
}
"""The docstring line each adapted method gains."""


# ---- conveniences: compositions of spec operations ----


def _axes(method, axes, rank):
    """axes as a list of distinct integers in [0, rank); rank may be a function of the axis count
    (unsqueeze's output rank)."""
    axes = _sequence(method, "axes", axes)
    if callable(rank):
        rank = rank(len(axes))
    for axis in axes:
        if isinstance(axis, bool) or not hasattr(axis, "__index__"):
            raise _webnn.TypeError(f"{method}: axes must be integers, got {type(axis).__name__}")
        if not 0 <= axis < rank:
            raise _webnn.TypeError(f"{method}: axis {int(axis)} is out of range for rank {rank}")
    if len(set(axes)) != len(axes):
        raise _webnn.TypeError(f"{method}: axes {axes} hold an axis twice")
    return [int(a) for a in axes]


def squeeze(self, input, axes=None, *, label=""):
    """pywebnn's squeeze(): input without its size-1 dimensions (all of them, or those of axes),
    as the spec's reshape()."""
    shape = list(_operand(self, "squeeze", input).shape)
    if axes is None:
        axes = [i for i, d in enumerate(shape) if d == 1]
    else:
        axes = _axes("squeeze", axes, len(shape))
        for axis in axes:
            if shape[axis] != 1:
                raise _webnn.TypeError(f"squeeze: dimension {axis} of input {shape} is {shape[axis]}, not 1")
    return self.reshape(input, [d for i, d in enumerate(shape) if i not in axes], label=label)


def unsqueeze(self, input, axes, *, label=""):
    """pywebnn's unsqueeze(): input with a size-1 dimension at each of axes (positions in the
    output), as the spec's reshape()."""
    shape = list(_operand(self, "unsqueeze", input).shape)
    axes = _axes("unsqueeze", axes, lambda count: len(shape) + count)
    rest = iter(shape)
    return self.reshape(input, [1 if i in axes else next(rest) for i in range(len(shape) + len(axes))], label=label)


def global_average_pool(self, input, layout="nchw", *, label=""):
    """pywebnn's global_average_pool(): the spec's average_pool2d() over the whole spatial extent
    (no window_dimensions), [N, C, 1, 1] for "nchw" and [N, 1, 1, C] for "nhwc"."""
    return self.average_pool2d(input, layout=layout, label=label)


def global_max_pool(self, input, layout="nchw", *, label=""):
    """pywebnn's global_max_pool(): the spec's max_pool2d() over the whole spatial extent (no
    window_dimensions), [N, C, 1, 1] for "nchw" and [N, 1, 1, C] for "nhwc"."""
    return self.max_pool2d(input, layout=layout, label=label)


def operand_shape(self, operand):
    """pywebnn's operand_shape(): the spec's MLOperand.shape."""
    return list(_operand(self, "operand_shape", operand, "operand").shape)


def operand_data_type(self, operand):
    """pywebnn's operand_data_type(): the spec's MLOperand.dataType."""
    return _operand(self, "operand_data_type", operand, "operand").data_type


def _operand(builder, method, value, name="input"):
    if not isinstance(value, _webnn.MLOperand):
        raise _webnn.TypeError(f"{method}: {name} must be an MLOperand, got {type(value).__name__}")
    return value


HELPERS = {
    "squeeze": squeeze,
    "unsqueeze": unsqueeze,
    "global_average_pool": global_average_pool,
    "global_max_pool": global_max_pool,
    "operand_shape": operand_shape,
    "operand_data_type": operand_data_type,
}
"""pywebnn's convenience methods of MLGraphBuilder, none of them an operator of the op table."""


def create_host_tensor(self, shape, data_type="float32"):
    """pywebnn's create_host_tensor(): create_tensor(shape, data_type, readable=True,
    writable=True)."""
    return self.create_tensor(shape, data_type, readable=True, writable=True)


def install(builder_class, context_class):
    """Adds the conveniences to MLGraphBuilder and MLContext; returns the builder's names."""
    for name, function in HELPERS.items():
        function.__qualname__ = "MLGraphBuilder." + name
        setattr(builder_class, name, function)
    create_host_tensor.__qualname__ = "MLContext.create_host_tensor"
    context_class.create_host_tensor = create_host_tensor
    return list(HELPERS)
