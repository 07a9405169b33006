// Operator attributes to and from Python, one overload per field type of graph/attributes.hpp.
// Nothing here names an op or an option: the builder methods walk each attribute struct's
// `fields` declaration, and these overloads convert whatever field they meet.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "api/impl.hpp"
#include "common.hpp"

namespace webnn::python {

// Where a value goes, for conversions and their error messages ("conv2d: padding ...").
struct FieldTarget {
  const std::shared_ptr<detail::BuilderImpl>& builder;
  const std::string& method;  // the Python method name
  std::string name;           // the Python argument name
  std::string where() const { return method + ": " + name; }
};

[[noreturn]] void field_type_error(const FieldTarget& t, const std::string& expected, py::handle got);

// ---- Python -> field (TypeError on anything the IDL type would reject) ----

void from_python(py::handle v, bool& out, const FieldTarget& t);
void from_python(py::handle v, uint32_t& out, const FieldTarget& t);  // [EnforceRange] unsigned long
void from_python(py::handle v, int32_t& out, const FieldTarget& t);   // [EnforceRange] long
void from_python(py::handle v, double& out, const FieldTarget& t);    // double (finite)
void from_python(py::handle v, Number& out, const FieldTarget& t);    // MLNumber: exact integers
void from_python(py::handle v, DataType& out, const FieldTarget& t);
void from_python(py::handle v, std::vector<uint32_t>& out, const FieldTarget& t);
void from_python(py::handle v, OptionalDims& out, const FieldTarget& t);
void from_python(py::handle v, std::optional<std::vector<float>>& out, const FieldTarget& t);
void from_python(py::handle v, std::optional<OperandRef>& out, const FieldTarget& t);
void from_python(py::handle v, SplitSpec& out, const FieldTarget& t);
// A spec enum from its string.
template <SpecEnum E>
void from_python(py::handle v, E& out, const FieldTarget& t) {
  std::string allowed;
  for (std::string_view n : EnumNames<E>::kNames) allowed += (allowed.empty() ? "\"" : ", \"") + std::string(n) + "\"";
  if (!py::isinstance<py::str>(v)) field_type_error(t, "one of " + allowed, v);
  auto parsed = parse_enum<E>(std::string(py::str(v)));
  if (!parsed) throw_type_error(t.where() + " \"" + std::string(py::str(v)) + "\" is not one of " + allowed);
  out = *parsed;
}
// An optional list of spec enum values (the recurrent ops' activations).
template <SpecEnum E>
void from_python(py::handle v, std::optional<std::vector<E>>& out, const FieldTarget& t) {
  if (v.is_none()) {
    out.reset();
    return;
  }
  if (py::isinstance<py::str>(v) || !py::isinstance<py::sequence>(v)) field_type_error(t, "a sequence of strings", v);
  std::vector<E> values;
  size_t i = 0;
  for (py::handle item : v) {
    values.emplace_back();
    from_python(item, values.back(), {t.builder, t.method, t.name + "[" + std::to_string(i++) + "]"});
  }
  out = std::move(values);
}

// An option the spec gives a default: None leaves it to the default.
template <class T>
void from_python(py::handle v, Defaulted<T>& out, const FieldTarget& t) {
  std::optional<T> given;
  from_python(v, given, t);
  out = std::move(given);
}

// ---- field -> Python (the defaults a method signature shows) ----

py::object to_python(bool v);
py::object to_python(uint32_t v);
py::object to_python(int32_t v);
py::object to_python(double v);
py::object to_python(const Number& v);
py::object to_python(DataType v);
py::object to_python(const std::vector<uint32_t>& v);
py::object to_python(const SplitSpec& v);
template <SpecEnum E>
py::object to_python(E v) {
  return py::str(std::string(enum_name(v)));
}
template <class T>
py::object to_python(const std::optional<T>& v) {
  if (!v) return py::none();
  if constexpr (std::is_same_v<T, OperandRef>) {
    return py::none();  // never set in a default
  } else if constexpr (std::is_same_v<T, std::vector<float>>) {
    py::list out;
    for (float f : *v) out.append(f);
    return out;
  } else if constexpr (requires { EnumNames<typename T::value_type>::kNames; }) {
    py::list out;
    for (auto e : *v) out.append(std::string(enum_name(e)));
    return out;
  } else {
    return to_python(*v);
  }
}
template <class T>
py::object to_python(const Defaulted<T>& v) {
  return to_python(v.caller_value());
}

// ---- field -> its Python type annotation (for the stubs and docstrings) ----

template <class T>
struct TypeHint;
template <>
struct TypeHint<bool> {
  static std::string get() { return "bool"; }
};
template <>
struct TypeHint<uint32_t> {
  static std::string get() { return "int"; }
};
template <>
struct TypeHint<int32_t> {
  static std::string get() { return "int"; }
};
template <>
struct TypeHint<double> {
  static std::string get() { return "float"; }
};
template <>
struct TypeHint<Number> {
  static std::string get() { return "float"; }  // int is a float to type checkers
};
template <>
struct TypeHint<DataType> {
  static std::string get() { return "DataTypeLike"; }
};
template <>
struct TypeHint<std::vector<uint32_t>> {
  static std::string get() { return "Sequence[int]"; }
};
template <>
struct TypeHint<std::vector<float>> {
  static std::string get() { return "Sequence[float]"; }
};
template <>
struct TypeHint<OperandRef> {
  static std::string get() { return "MLOperand"; }
};
template <>
struct TypeHint<SplitSpec> {
  static std::string get() { return "int | Sequence[int]"; }
};
template <SpecEnum E>
struct TypeHint<E> {
  static std::string get() {
    std::string s = "Literal[";
    for (std::string_view n : EnumNames<E>::kNames) s += (s.size() > 8 ? ", \"" : "\"") + std::string(n) + "\"";
    return s + "]";
  }
};
template <SpecEnum E>
struct TypeHint<std::vector<E>> {
  static std::string get() { return "Sequence[" + TypeHint<E>::get() + "]"; }
};
template <class T>
struct TypeHint<std::optional<T>> {
  static std::string get() { return TypeHint<T>::get() + " | None"; }
};
template <class T>
struct TypeHint<Defaulted<T>> {
  static std::string get() { return TypeHint<T>::get() + " | None"; }
};

}  // namespace webnn::python
