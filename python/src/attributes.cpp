// Python values to attribute fields and back, following the WebIDL conversions of the spec's
// argument types: [EnforceRange] integers reject out-of-range values, restricted doubles and
// floats reject NaN and infinities, MLNumber keeps integers exact, enums accept only their
// strings. Every rejection is a TypeError, as in the spec.
#include "attributes.hpp"

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

void dims(py::handle v, std::vector<uint32_t>& out, const FieldTarget& t) {
  if (py::isinstance<py::str>(v) || !py::isinstance<py::sequence>(v)) field_type_error(t, "a sequence of integers", v);
  out.clear();
  size_t i = 0;
  for (py::handle item : v)
    out.push_back(static_cast<uint32_t>(
        integer_in(item, 0, UINT32_MAX, {t.builder, t.method, t.name + "[" + std::to_string(i++) + "]"})));
}

}  // namespace

void field_type_error(const FieldTarget& t, const std::string& expected, py::handle got) {
  throw_type_error(t.where() + " must be " + expected + ", got " + type_name(got));
}

void from_python(py::handle v, bool& out, const FieldTarget& t) {
  if (!is_bool(v)) field_type_error(t, "a bool", v);
  out = v.cast<bool>();
}

void from_python(py::handle v, uint32_t& out, const FieldTarget& t) {
  out = static_cast<uint32_t>(integer_in(v, 0, UINT32_MAX, t));
}

void from_python(py::handle v, int32_t& out, const FieldTarget& t) {
  out = static_cast<int32_t>(integer_in(v, INT32_MIN, INT32_MAX, t));
}

void from_python(py::handle v, double& out, const FieldTarget& t) {
  if (is_bool(v) || py::isinstance<py::str>(v) || !PyNumber_Check(v.ptr())) field_type_error(t, "a number", v);
  const double d = PyFloat_AsDouble(v.ptr());
  if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
  if (!std::isfinite(d)) throw_type_error(t.where() + " must be a finite number, got " + std::to_string(d));
  out = d;
}

void from_python(py::handle v, Number& out, const FieldTarget& t) {
  if (py::object i = as_int(v)) {
    int overflow = 0;
    const long long s = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (overflow == 0) {
      out = Number::from_int64(s);
      return;
    }
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
      if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) {
        out = Number::from_uint64(u);
        return;
      }
      PyErr_Clear();
    }
    throw_type_error(t.where() + " " + std::string(py::str(i)) + " is outside the int64 and uint64 ranges");
  }
  if (is_bool(v) || py::isinstance<py::str>(v) || !PyNumber_Check(v.ptr())) field_type_error(t, "a number", v);
  const double d = PyFloat_AsDouble(v.ptr());
  if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
  out = Number(d);  // MLNumber is an unrestricted double: NaN and infinities are allowed
}

void from_python(py::handle v, DataType& out, const FieldTarget& t) { out = data_type_arg(v, t.where()); }

void from_python(py::handle v, std::vector<uint32_t>& out, const FieldTarget& t) { dims(v, out, t); }

void from_python(py::handle v, OptionalDims& out, const FieldTarget& t) {
  if (v.is_none()) {
    out.reset();
    return;
  }
  out.emplace();
  dims(v, *out, t);
}

void from_python(py::handle v, std::optional<std::vector<float>>& out, const FieldTarget& t) {
  if (v.is_none()) {
    out.reset();
    return;
  }
  if (py::isinstance<py::str>(v) || !py::isinstance<py::sequence>(v)) field_type_error(t, "a sequence of numbers", v);
  std::vector<float> values;
  size_t i = 0;
  for (py::handle item : v) {
    double d = 0;
    from_python(item, d, {t.builder, t.method, t.name + "[" + std::to_string(i++) + "]"});
    if (std::fabs(d) > std::numeric_limits<float>::max())
      throw_type_error(t.where() + " values must be finite float32 values, got " + std::to_string(d));
    values.push_back(static_cast<float>(d));
  }
  out = std::move(values);
}

void from_python(py::handle v, std::optional<OperandRef>& out, const FieldTarget& t) {
  if (v.is_none()) {
    out.reset();
    return;
  }
  if (!py::isinstance<MLOperand>(v)) field_type_error(t, "an MLOperand or None", v);
  out = OperandRef{detail::validated_operand(t.builder, v.cast<const MLOperand&>(), t.method, t.name)};
}

void from_python(py::handle v, SplitSpec& out, const FieldTarget& t) {
  if (as_int(v)) {
    out = static_cast<uint32_t>(integer_in(v, 0, UINT32_MAX, t));
    return;
  }
  if (py::isinstance<py::str>(v) || !py::isinstance<py::sequence>(v))
    field_type_error(t, "an integer or a sequence of integers", v);
  std::vector<uint32_t> sizes;
  dims(v, sizes, t);
  out = std::move(sizes);
}

py::object to_python(bool v) { return py::bool_(v); }
py::object to_python(uint32_t v) { return py::int_(v); }
py::object to_python(int32_t v) { return py::int_(v); }
py::object to_python(double v) { return py::float_(v); }
py::object to_python(const Number& v) {
  switch (v.kind()) {
    case Number::Kind::kInt64:
      return py::int_(v.int64_value());
    case Number::Kind::kUint64:
      return py::int_(v.uint64_value());
    case Number::Kind::kDouble:
      break;
  }
  return py::float_(v.as_double());
}
py::object to_python(DataType v) { return py::str(std::string(to_string(v))); }
py::object to_python(const std::vector<uint32_t>& v) { return shape_list(v); }
py::object to_python(const SplitSpec& v) {
  if (const auto* n = std::get_if<uint32_t>(&v)) return py::int_(*n);
  return shape_list(std::get<std::vector<uint32_t>>(v));
}

}  // namespace webnn::python
