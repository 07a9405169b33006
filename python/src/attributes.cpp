// Python values to operator arguments and back, following the WebIDL conversions of the spec's
// argument types: [EnforceRange] integers reject out-of-range values, restricted doubles and
// floats reject NaN and infinities, MLNumber keeps integers exact, enums accept only their
// strings. Every rejection is a TypeError, as in the spec.
#include "attributes.hpp"

#include <cmath>
#include <limits>

namespace webnn::python {

namespace {

std::string type_name(py::handle v) { return py::str(py::type::handle_of(v).attr("__name__")); }

bool is_bool(py::handle v) {
  return PyBool_Check(v.ptr()) || py::isinstance(v, py::module_::import("numpy").attr("bool_"));
}

// An integer-like value (int, numpy integer; not bool) as a Python int, or a null object.
py::object as_int(py::handle v) {
  if (is_bool(v) || PyFloat_Check(v.ptr()) || !PyIndex_Check(v.ptr())) return {};
  auto i = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!i) throw py::error_already_set();
  return i;
}

long long integer_in(py::handle v, long long lo, long long hi, const FieldTarget& t) {
  const std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  py::object i = as_int(v);
  if (!i) field_type_error(t, range, v);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow != 0 || x < lo || x > hi)
    throw_type_error(t.where() + " must be " + range + ", got " + std::string(py::str(i)));
  return x;
}

std::vector<uint32_t> dims(py::handle v, const FieldTarget& t) {
  if (py::isinstance<py::str>(v) || !py::isinstance<py::sequence>(v)) field_type_error(t, "a sequence of integers", v);
  std::vector<uint32_t> out;
  size_t i = 0;
  for (py::handle item : v)
    out.push_back(
        static_cast<uint32_t>(integer_in(item, 0, UINT32_MAX, {t.method, t.name + "[" + std::to_string(i++) + "]"})));
  return out;
}

double finite_double(py::handle v, const FieldTarget& t) {
  if (is_bool(v) || py::isinstance<py::str>(v) || !PyNumber_Check(v.ptr())) field_type_error(t, "a number", v);
  const double d = PyFloat_AsDouble(v.ptr());
  if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
  if (!std::isfinite(d)) throw_type_error(t.where() + " must be a finite number, got " + std::to_string(d));
  return d;
}

std::string allowed_values(const MLArgumentInfo& info) {
  std::string allowed;
  for (const std::string& n : info.values) allowed += (allowed.empty() ? "\"" : ", \"") + n + "\"";
  return allowed;
}

std::string enum_value(py::handle v, const MLArgumentInfo& info, const FieldTarget& t) {
  const std::string allowed = allowed_values(info);
  if (!py::isinstance<py::str>(v)) field_type_error(t, "one of " + allowed, v);
  const std::string s = py::str(v);
  for (const std::string& n : info.values)
    if (n == s) return s;
  throw_type_error(t.where() + " \"" + s + "\" is not one of " + allowed);
}

bool is_sequence(py::handle v) { return !py::isinstance<py::str>(v) && py::isinstance<py::sequence>(v); }

}  // namespace

void field_type_error(const FieldTarget& t, const std::string& expected, py::handle got) {
  throw_type_error(t.where() + " must be " + expected + ", got " + type_name(got));
}

Number number_from_python(py::handle v, const FieldTarget& t) {
  if (py::object i = as_int(v)) {
    int overflow = 0;
    const long long s = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (overflow == 0) return Number::from_int64(s);
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
      if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) return Number::from_uint64(u);
      PyErr_Clear();
    }
    throw_type_error(t.where() + " " + std::string(py::str(i)) + " is outside the int64 and uint64 ranges");
  }
  if (is_bool(v) || py::isinstance<py::str>(v) || !PyNumber_Check(v.ptr())) field_type_error(t, "a number", v);
  const double d = PyFloat_AsDouble(v.ptr());
  if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
  return Number(d);  // MLNumber is an unrestricted double: NaN and infinities are allowed
}

std::optional<MLArgument> from_python(py::handle v, const MLArgumentInfo& info, const FieldTarget& t) {
  switch (info.type) {
    case MLArgumentType::kBoolean:
      if (!is_bool(v)) field_type_error(t, "a bool", v);
      return v.cast<bool>();
    case MLArgumentType::kUnsignedLong:
      return static_cast<uint32_t>(integer_in(v, 0, UINT32_MAX, t));
    case MLArgumentType::kLong:
      return static_cast<int32_t>(integer_in(v, INT32_MIN, INT32_MAX, t));
    case MLArgumentType::kDouble:
      return finite_double(v, t);
    case MLArgumentType::kNumber:
      return number_from_python(v, t);
    case MLArgumentType::kDataType:
      return data_type_arg(v, t.where());
    case MLArgumentType::kEnum:
      return enum_value(v, info, t);
    case MLArgumentType::kDimensions:
      return dims(v, t);
    case MLArgumentType::kOptionalDimensions:
      if (v.is_none()) return std::nullopt;
      return dims(v, t);
    case MLArgumentType::kOptionalFloats: {
      if (v.is_none()) return std::nullopt;
      if (!is_sequence(v)) field_type_error(t, "a sequence of numbers", v);
      std::vector<float> values;
      size_t i = 0;
      for (py::handle item : v) {
        const double d = finite_double(item, {t.method, t.name + "[" + std::to_string(i++) + "]"});
        if (std::fabs(d) > std::numeric_limits<float>::max())
          throw_type_error(t.where() + " values must be finite float32 values, got " + std::to_string(d));
        values.push_back(static_cast<float>(d));
      }
      return values;
    }
    case MLArgumentType::kOptionalEnumList: {
      if (v.is_none()) return std::nullopt;
      if (!is_sequence(v)) field_type_error(t, "a sequence of strings", v);
      std::vector<std::string> values;
      size_t i = 0;
      for (py::handle item : v)
        values.push_back(enum_value(item, info, {t.method, t.name + "[" + std::to_string(i++) + "]"}));
      return values;
    }
    case MLArgumentType::kOptionalOperand:
      if (v.is_none()) return std::nullopt;
      if (!py::isinstance<MLOperand>(v)) field_type_error(t, "an MLOperand or None", v);
      return v.cast<MLOperand>();
    case MLArgumentType::kSplits:
      if (as_int(v)) return static_cast<uint32_t>(integer_in(v, 0, UINT32_MAX, t));
      if (!is_sequence(v)) field_type_error(t, "an integer or a sequence of integers", v);
      return dims(v, t);
  }
  throw_type_error(t.where() + ": an argument of an unknown type");
}

py::object default_to_python(const MLArgumentInfo& info) {
  if (!info.default_value) return py::none();
  return std::visit(
      [](const auto& v) -> py::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return py::bool_(v);
        } else if constexpr (std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t>) {
          return py::int_(v);
        } else if constexpr (std::is_same_v<T, double>) {
          return py::float_(v);
        } else if constexpr (std::is_same_v<T, Number>) {
          switch (v.kind()) {
            case Number::Kind::kInt64:
              return py::int_(v.int64_value());
            case Number::Kind::kUint64:
              return py::int_(v.uint64_value());
            case Number::Kind::kDouble:
              break;
          }
          return py::float_(v.as_double());
        } else if constexpr (std::is_same_v<T, DataType>) {
          return py::str(std::string(to_string(v)));
        } else if constexpr (std::is_same_v<T, std::string>) {
          return py::str(v);
        } else if constexpr (std::is_same_v<T, std::vector<uint32_t>>) {
          return shape_list(v);
        } else {
          return py::none();  // no default of the other kinds
        }
      },
      *info.default_value);
}

std::string type_hint(const MLArgumentInfo& info) {
  auto literal = [&] {
    std::string s = "Literal[";
    for (const std::string& n : info.values) s += (s.size() > 8 ? ", \"" : "\"") + n + "\"";
    return s + "]";
  };
  switch (info.type) {
    case MLArgumentType::kBoolean:
      return "bool";
    case MLArgumentType::kUnsignedLong:
    case MLArgumentType::kLong:
      return "int";
    case MLArgumentType::kDouble:
    case MLArgumentType::kNumber:  // int is a float to type checkers
      return "float";
    case MLArgumentType::kDataType:
      return "DataTypeLike";
    case MLArgumentType::kEnum:
      return literal();
    case MLArgumentType::kDimensions:
      return "Sequence[int]";
    case MLArgumentType::kOptionalDimensions:
      return "Sequence[int] | None";
    case MLArgumentType::kOptionalFloats:
      return "Sequence[float] | None";
    case MLArgumentType::kOptionalEnumList:
      return "Sequence[" + literal() + "] | None";
    case MLArgumentType::kOptionalOperand:
      return "MLOperand | None";
    case MLArgumentType::kSplits:
      return "int | Sequence[int]";
  }
  return "object";
}

}  // namespace webnn::python
