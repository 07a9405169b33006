// numpy arrays in and out: data types, shapes, and bytes without copies where the layout allows.
#include <algorithm>
#include <numeric>

#include "common.hpp"
#include "webnn/limits.hpp"

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
  if (too_large || !bytes || *bytes > kMaxTensorByteLength)
    throw_type_error(what + ": " + std::to_string(array.size()) + " elements of " + std::string(to_string(type)) +
                     " exceed maxTensorByteLength (" + std::to_string(kMaxTensorByteLength) + " bytes)");
}

// A value for error messages: None as None, anything else by its type's name.
std::string describe(py::handle value) { return value.is_none() ? "None" : type_name(value); }

bool is_native(const py::array& array) { return array.dtype().attr("isnative").cast<bool>(); }

// An array-like (a list, a number, anything numpy.asarray() reads) as an ndarray of `type`, when
// every element is a number that survives the conversion. numpy alone would make None a NaN
// ([1, None] -> [1, nan]), parse strings ("1.5"), truncate 1.5 to 1, wrap 300 to 44 in int8 and
// round 1e6 to infinity in float16; each is a TypeError here naming the input and the element.
py::array array_like(py::handle value, DataType type, const std::string& what) {
  if (value.is_none() || py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value))
    throw_type_error(what + ": expected an array or a number, got " + describe(value));
  const std::string wanted = std::string(to_string(type));
  py::array probe;  // the value as numpy types it by itself
  try {
    probe = numpy().attr("asarray")(value);
  } catch (const py::error_already_set& e) {
    throw_type_error(what + ": expected an array or a number (" + std::string(e.what()) + ")");
  }
  const char kind = probe.dtype().kind();
  const py::array flat = probe.attr("ravel")();
  const auto element = [&](const py::object& index) {
    return std::string(py::repr(flat[index])) + " (element " + std::string(py::str(index)) + " in C order)";
  };
  if (kind == 'O') {
    // Python objects numpy could not type: ints past 64 bits, or something that is not a number.
    const py::list items = flat.attr("tolist")();
    for (size_t i = 0; i < items.size(); ++i)
      if (items[i].is_none() || py::isinstance<py::str>(items[i]) || py::isinstance<py::bytes>(items[i]))
        throw_type_error(what + ": expected numbers, but element " + std::to_string(i) + " in C order is " +
                         (items[i].is_none() ? "None" : type_name(items[i]) + " " + std::string(py::repr(items[i]))));
  } else if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
    throw_type_error(what + ": expected numbers, got numpy " + std::string(py::str(probe.dtype())));
  }
  const bool floating = type == DataType::kFloat32 || type == DataType::kFloat16;
  if (!floating && (kind == 'i' || kind == 'u' || kind == 'f') && flat.size() > 0) {
    if (kind == 'f') {
      const py::array whole =
          numpy().attr("isfinite")(flat).attr("__and__")(flat.attr("__eq__")(numpy().attr("trunc")(flat)));
      if (!whole.attr("all")().cast<bool>())
        throw_type_error(what + ": " + element(numpy().attr("argmin")(whole)) +
                         " is not an integer, but the data type is " + wanted);
    }
    // As Python numbers, which compare exactly (numpy compares uint64 with int64 as float64).
    const py::object info = numpy().attr("iinfo")(to_dtype(type));
    const py::object lo = flat.attr("min")().attr("item")(), hi = flat.attr("max")().attr("item")();
    if (lo < info.attr("min") || hi > info.attr("max"))
      throw_type_error(what + ": " + std::string(py::repr(lo < info.attr("min") ? lo : hi)) + " is out of range for " +
                       wanted);
  }
  py::array array;
  std::string failure;
  const py::object quiet = numpy().attr("errstate")(py::arg("over") = "ignore");  // reported below instead
  quiet.attr("__enter__")();
  try {
    array = numpy().attr("asarray")(value, to_dtype(type));
  } catch (const py::error_already_set& e) {
    failure = e.what();
  }
  quiet.attr("__exit__")(py::none(), py::none(), py::none());
  if (!failure.empty()) throw_type_error(what + ": cannot be read as " + wanted + " (" + failure + ")");
  if (floating && kind != 'O' && kind != 'b' && flat.size() > 0) {
    const py::array overflowed =
        numpy().attr("isinf")(array.attr("ravel")()).attr("__and__")(numpy().attr("isfinite")(flat));
    if (overflowed.attr("any")().cast<bool>())
      throw_type_error(what + ": " + element(numpy().attr("argmax")(overflowed)) + " is out of range for " + wanted);
  }
  return array;
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
    array = array_like(value, type.value_or(DataType::kFloat32), what);
    check_byte_length(array, type.value_or(DataType::kFloat32), what);
  }
  // Converted, not refused: the values are what count, and numpy knows the array's byte order.
  if (!is_native(array)) array = array.attr("astype")(array.dtype().attr("newbyteorder")("="));
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

ArrayBytes buffer_bytes(py::handle value, const std::string& what) {
  py::array array;
  if (py::isinstance<py::bytes>(value) || PyByteArray_Check(value.ptr())) {
    array = numpy().attr("frombuffer")(value, numpy().attr("uint8"));  // contiguous: read in place
  } else {
    // A memoryview may be strided (negative strides included) and typed in either byte order;
    // numpy reads it as its format and strides say, and its bytes are taken in C order and native
    // byte order.
    try {
      array = numpy().attr("asarray")(value);
    } catch (const py::error_already_set& e) {
      throw_type_error(what + ": the buffer cannot be read as an array (" + std::string(e.what()) + ")");
    }
    // Checked while it is still a view: a memoryview with zero strides can stand for gigabytes.
    if (static_cast<uint64_t>(array.nbytes()) > kMaxTensorByteLength)
      throw_type_error(what + ": the buffer holds " + std::to_string(array.nbytes()) +
                       " bytes, more than maxTensorByteLength (" + std::to_string(kMaxTensorByteLength) + " bytes)");
    if (!is_native(array)) array = array.attr("astype")(array.dtype().attr("newbyteorder")("="));
    array = numpy().attr("ascontiguousarray")(array);
  }
  ArrayBytes out;
  out.type = DataType::kUint8;
  out.shape = {static_cast<uint32_t>(std::min<uint64_t>(array.nbytes(), UINT32_MAX))};
  out.array = std::move(array);
  return out;
}

py::array output_array(py::handle value, DataType type, bool c_contiguous, const std::string& what) {
  if (!py::isinstance<py::array>(value)) throw_type_error(what + " must be an ndarray, got " + describe(value));
  auto array = py::reinterpret_borrow<py::array>(value);
  const std::optional<DataType> own = from_dtype(array.dtype());
  if (!own || *own != type)
    throw_type_error(what + " is numpy " + std::string(py::str(array.dtype())) + ", the result is " +
                     std::string(to_string(type)));
  if (!array.writeable()) throw_type_error(what + " is read-only; it must be a writable ndarray");
  if (c_contiguous && !(array.flags() & py::array::c_style))
    throw_type_error(what + " must be a C-contiguous ndarray (the bytes are written in place)");
  return array;
}

void native_to_array_order(py::array& array) {
  if (!is_native(array)) array.attr("byteswap")(py::arg("inplace") = true);
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
