"""The operator methods of MLGraphBuilder, made from the library's op table.

Every operator of the spec becomes one method named in snake_case, with the spec's signature:
operands positionally in the spec's order, required parameters positionally or by keyword, and
the members of its options dictionary as keyword-only arguments (plus ``label``). Each method
checks its arguments against that signature and hands them to the native ``_add_operation``,
which converts them by field type and validates the operation as the spec says. No operator is
written out here: adding an op to the C++ op table adds its method.
"""

import inspect

from . import _webnn

_POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD
_KEYWORD = inspect.Parameter.KEYWORD_ONLY
_SPEC = "https://www.w3.org/TR/webnn/#dom-mlgraphbuilder-"


def _signature(entry):
    params = [inspect.Parameter("self", _POSITIONAL)]
    for name, is_list in entry["operands"]:
        hint = "Sequence[MLOperand]" if is_list else "MLOperand"
        params.append(inspect.Parameter(name, _POSITIONAL, annotation=hint))
    for name, hint in entry["parameters"]:
        params.append(inspect.Parameter(name, _POSITIONAL, annotation=hint))
    for name, default, hint in entry["options"]:
        params.append(inspect.Parameter(name, _KEYWORD, default=default, annotation=hint))
    params.append(inspect.Parameter("label", _KEYWORD, default="", annotation="str"))
    returns = "list[MLOperand]" if entry["returns_sequence"] else "MLOperand"
    return inspect.Signature(params, return_annotation=returns)


def _docstring(entry, signature):
    lines = [f"The spec's {entry['name']}() ({_SPEC}{entry['name'].lower()})."]
    options = [name for name, _, _ in entry["options"]]
    if options:
        lines.append("Options (keyword-only): " + ", ".join(options) + ", label.")
    else:
        lines.append("Options (keyword-only): label.")
    if entry["returns_sequence"]:
        lines.append("Returns a list of MLOperand.")
    return "\n".join(lines)


def _make_method(entry):
    signature = _signature(entry)
    kind = entry["kind"]
    operand_names = [name for name, _ in entry["operands"]]

    def method(self, *args, **kwargs):
        arguments = signature.bind(self, *args, **kwargs).arguments
        del arguments["self"]
        operands = [arguments.pop(name) for name in operand_names]
        return self._add_operation(kind, operands, arguments)

    method.__name__ = entry["method"]
    method.__qualname__ = "MLGraphBuilder." + entry["method"]
    method.__signature__ = signature
    method.__doc__ = _docstring(entry, signature)
    return method


def op_table():
    """The native op table: one dict per operator (kind, name, method, operands, parameters,
    options, returns_sequence)."""
    return _webnn._op_table()


def install(builder_class):
    """Adds every operator method to ``builder_class``; returns their names."""
    names = []
    for entry in op_table():
        setattr(builder_class, entry["method"], _make_method(entry))
        names.append(entry["method"])
    # pywebnn's spelling, kept because it costs nothing: `where` is not a Python keyword, but
    # code written for pywebnn calls where_().
    builder_class.where_ = builder_class.where
    return names
