// numpy arrays in and out: data types, shapes, and bytes without copies where the layout allows.
#include <numeric>

#include "common.hpp"
#include "graph/graph_builder.hpp"

namespace webnn::python {

namespace {

py::module_ numpy() { return py::module_::import("numpy"); }

std::string type_name(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

// No tensor may exceed maxTensorByteLength, so a larger array is refused while it is still a view
// (a broadcast view of 4 bytes can stand for gigabytes), before any conversion or copy.
void check_byte_length(const py::array& array, DataType type, const std::string& what) {
  OperandDescriptor desc{type, {}};
  bool too_large = false;
  for (py::ssize_t i = 0; i < array.ndim() && !too_large; ++i) {
    too_large = array.shape(i) > static_cast<py::ssize_t>(UINT32_MAX);
    if (!too_large) desc.shape.push_back(static_cast<uint32_t>(array.shape(i)));
  }
  const auto bytes = desc.byte_length();
  if (too_large || !bytes || *bytes > kDefaultMaxTensorByteLength)
    throw_type_error(what + ": " + std::to_string(array.size()) + " elements of " + std::string(to_string(type)) +
                     " exceed maxTensorByteLength (" + std::to_string(kDefaultMaxTensorByteLength) + " bytes)");
}

}  // namespace

py::dtype to_dtype(DataType type) {
  // float16 is numpy.float16 (IEEE binary16), the same bits as the library's.
  return py::dtype(std::string(to_string(type)));
}

std::optional<DataType> from_dtype(const py::dtype& dtype) {
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'f' && size == 4) return DataType::kFloat32;
  if (kind == 'f' && size == 2) return DataType::kFloat16;
  if (kind == 'i' && size == 4) return DataType::kInt32;
  if (kind == 'u' && size == 4) return DataType::kUint32;
  if (kind == 'i' && size == 8) return DataType::kInt64;
  if (kind == 'u' && size == 8) return DataType::kUint64;
  if (kind == 'i' && size == 1) return DataType::kInt8;
  if (kind == 'u' && size == 1) return DataType::kUint8;
  return std::nullopt;
}

DataType data_type_arg(py::handle value, const std::string& what) {
  if (py::isinstance<py::str>(value)) {
    const std::string name = py::str(value);
    if (auto type = parse_data_type(name)) return *type;
    throw_type_error(what + ": \"" + name +
                     "\" is not a data type (float32, float16, int32, uint32, int64, uint64, int8, uint8)");
  }
  py::dtype dtype;
  try {
    dtype = py::dtype::from_args(py::reinterpret_borrow<py::object>(value));
  } catch (const py::error_already_set&) {
    throw_type_error(what + ": expected a data type name such as \"float32\", got " + type_name(value));
  }
  if (auto type = from_dtype(dtype)) return *type;
  throw_type_error(what + ": numpy " + std::string(py::str(dtype)) + " is not a WebNN data type");
}

Shape shape_arg(py::handle value, const std::string& what) {
  if (py::isinstance<py::str>(value) || !py::isinstance<py::sequence>(value))
    throw_type_error(what + ": the shape must be a sequence of integers, got " + type_name(value));
  Shape shape;
  for (py::handle dim : value) {
    if (PyBool_Check(dim.ptr()) || !PyIndex_Check(dim.ptr()))
      throw_type_error(what + ": shape dimensions must be integers, got " + type_name(dim));
    const auto d = py::reinterpret_steal<py::object>(PyNumber_Index(dim.ptr()));
    if (!d) throw py::error_already_set();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(d.ptr(), &overflow);
    if (overflow != 0 || v < 0 || v > UINT32_MAX)
      throw_type_error(what + ": shape dimension " + std::string(py::str(d)) + " is out of range");
    shape.push_back(static_cast<uint32_t>(v));
  }
  return shape;
}

py::list shape_list(const Shape& shape) {
  py::list out;
  for (uint32_t d : shape) out.append(d);
  return out;
}

ArrayBytes array_bytes(py::handle value, std::optional<DataType> type, DtypeRule rule, const std::string& what) {
  py::array array;
  // An ndarray or a numpy scalar (np.float16(1.5)) keeps its dtype; other values take `type`.
  if (py::isinstance<py::array>(value) || py::isinstance(value, numpy().attr("generic"))) {
    array = numpy().attr("asarray")(value);
    const std::optional<DataType> own = from_dtype(array.dtype());
    if (own || type) check_byte_length(array, type && rule == DtypeRule::kConvert ? *type : own.value_or(*type), what);
    if (!own || (type && *own != *type)) {
      const std::string dtype = py::str(array.dtype());
      if (type && rule == DtypeRule::kConvert) {
        array = array.attr("astype")(to_dtype(*type));
      } else if (!own) {
        throw_type_error(what + ": numpy " + dtype + " is not a WebNN data type" +
                         (dtype == "bool" ? " (WebNN uses uint8 for booleans)" : "") + "; convert it with .astype()");
      } else {
        throw_type_error(what + ": expected " + std::string(to_string(*type)) + " data, got numpy " + dtype +
                         "; convert it with .astype()");
      }
    }
  } else {
    array = numpy().attr("asarray")(value, to_dtype(type.value_or(DataType::kFloat32)));
    check_byte_length(array, type.value_or(DataType::kFloat32), what);
  }
  if (!array.dtype().attr("isnative").cast<bool>())
    array = array.attr("astype")(array.dtype().attr("newbyteorder")("="));
  if (!(array.flags() & py::array::c_style)) array = numpy().attr("ascontiguousarray")(array);

  ArrayBytes out;
  out.type = *from_dtype(array.dtype());
  for (py::ssize_t i = 0; i < array.ndim(); ++i) {
    if (array.shape(i) > static_cast<py::ssize_t>(UINT32_MAX))
      throw_type_error(what + ": dimension " + std::to_string(i) + " is too large");
    out.shape.push_back(static_cast<uint32_t>(array.shape(i)));
  }
  out.array = std::move(array);
  return out;
}

ArrayBytes constant_array(py::handle value, py::handle shape, py::handle data_type, const std::string& what) {
  std::optional<DataType> type;
  if (!data_type.is_none()) type = data_type_arg(data_type, what);
  ArrayBytes a = array_bytes(value, type, DtypeRule::kConvert, what);
  if (!shape.is_none()) {
    Shape wanted = shape_arg(shape, what);
    const auto count = [](const Shape& s) {
      return std::accumulate(s.begin(), s.end(), uint64_t{1}, std::multiplies<>());
    };
    if (count(wanted) != count(a.shape))
      throw_type_error(what + ": the value holds " + std::to_string(count(a.shape)) + " elements but shape " +
                       shape_to_string(wanted) + " needs " + std::to_string(count(wanted)));
    a.array = a.array.attr("reshape")(shape_list(wanted));
    a.shape = std::move(wanted);
  }
  return a;
}

py::array owning_array(DataType type, const Shape& shape, std::vector<std::byte>&& bytes) {
  auto holder = std::make_unique<std::vector<std::byte>>(std::move(bytes));
  void* data = holder->data();
  py::capsule owner(holder.get(), [](void* p) { delete static_cast<std::vector<std::byte>*>(p); });
  holder.release();  // the capsule owns it now
  std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  return py::array(to_dtype(type), dims, data, owner);
}

}  // namespace webnn::python
