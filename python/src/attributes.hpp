// Operator arguments to and from Python, one conversion per kind of argument the library describes
// (webnn::operators(), MLArgumentType). Nothing here names an op or an option: the builder
// methods walk each operator's description, and these conversions take whatever argument they meet.
#pragma once

#include <optional>
#include <string>

#include "common.hpp"

namespace webnn::python {

// Where a value goes, for conversions and their error messages ("conv2d: padding ...").
struct FieldTarget {
  const std::string& method;  // the Python method name
  std::string name;           // the Python argument name
  std::string where() const { return method + ": " + name; }
};

[[noreturn]] void field_type_error(const FieldTarget& t, const std::string& expected, py::handle got);

// The Python value of an argument `info` describes, converted as its IDL type says: a TypeError
// for anything the IDL type would reject ([EnforceRange] integers out of range, NaN where a
// restricted double goes, a string not of the enum), nullopt for None where the argument is
// optional (the spec's default then applies).
std::optional<MLArgument> from_python(py::handle v, const MLArgumentInfo& info, const FieldTarget& t);
// An MLNumber: integers kept exact (int64 or uint64), other numbers as doubles.
Number number_from_python(py::handle v, const FieldTarget& t);

// The default a method signature shows for an option (None when it has none).
py::object default_to_python(const MLArgumentInfo& info);
// The argument's Python type annotation (for the stubs and docstrings).
std::string type_hint(const MLArgumentInfo& info);

}  // namespace webnn::python
