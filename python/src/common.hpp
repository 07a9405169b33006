// Shared declarations of the Python extension webnn._webnn: numpy conversions, the graph handle
// Python sees, and the bind_* functions each file contributes to the module.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "webnn/webnn.hpp"

namespace webnn::python {

namespace py = pybind11;

// ---- Names ----

// "averagePool2d" -> "average_pool2d", "gatherND" -> "gather_nd", "isNaN" -> "is_nan".
std::string snake_case(std::string_view camel);

// ---- Errors (errors.cpp) ----

// The spec's TypeError (webnn.TypeError, a TypeError and a ValueError) for an argument the spec's
// WebIDL conversion or algorithm rejects. Python's own calling errors (a missing or unknown
// argument) stay Python's TypeError.
[[noreturn]] inline void throw_type_error(const std::string& message) { throw_error(ErrorKind::kTypeError, message); }

// ---- numpy (arrays.cpp) ----

py::dtype to_dtype(DataType type);
// The data type of a numpy dtype, or nullopt for dtypes WebNN lacks (float64, bool, ...).
std::optional<DataType> from_dtype(const py::dtype& dtype);
// A data type argument: a spec name ("float32") or anything numpy.dtype() accepts (np.float16).
// Throws TypeError naming `what`.
DataType data_type_arg(py::handle value, const std::string& what);
// A shape argument: a sequence of integers in [0, 2^32). Throws TypeError naming `what`.
Shape shape_arg(py::handle value, const std::string& what);
py::list shape_list(const Shape& shape);

// An array's bytes as the library reads them: C order, native byte order.
struct ArrayBytes {
  py::array array;  // keeps the bytes alive
  DataType type = DataType::kFloat32;
  Shape shape;
  std::span<const std::byte> bytes() const {
    return {static_cast<const std::byte*>(array.data()), static_cast<size_t>(array.nbytes())};
  }
};

// How an ndarray whose dtype is not the wanted data type is treated.
enum class DtypeRule : uint8_t {
  kExact,    // TypeError: a graph input or tensor must be given in its own data type
  kConvert,  // converted by numpy (the caller asked for that data type explicitly)
};

// `value` (an ndarray, or anything numpy.asarray() takes) as bytes of `type`; with no `type`, an
// ndarray keeps its dtype and other values become float32. Copies only when the array is not
// already C-contiguous in native byte order (another byte order is converted), or when it must be
// converted. An array-like must hold numbers that survive the conversion: None, strings, a
// fraction or an integer out of range for an integer type are TypeErrors naming `what`.
ArrayBytes array_bytes(py::handle value, std::optional<DataType> type, DtypeRule rule, const std::string& what);

// The raw bytes of bytes, a bytearray or a memoryview (the spec's AllowSharedBufferSource), in C
// order; a memoryview of typed data in another byte order is converted to native order. The
// ArrayBytes' type is uint8, its shape the byte count.
ArrayBytes buffer_bytes(py::handle value, const std::string& what);

// An ndarray the caller gave to receive a result of `type` (read_tensor's out, compute's
// outputs): writable, of `type` in either byte order, and C-contiguous when `c_contiguous`. Throws
// TypeError naming `what` ("read_tensor: out") otherwise.
py::array output_array(py::handle value, DataType type, bool c_contiguous, const std::string& what);
// Puts the native bytes the library wrote into `array` (from output_array) in its own byte order.
void native_to_array_order(py::array& array);

// A constant's value as builder.constant() and create_constant_tensor() take it: `value` with an
// optional `shape` (same element count) and `data_type` (converts).
ArrayBytes constant_array(py::handle value, py::handle shape, py::handle data_type, const std::string& what);

// An ndarray that takes ownership of `bytes` (no copy).
py::array owning_array(DataType type, const Shape& shape, std::vector<std::byte>&& bytes);

// ---- Graphs (context.cpp) ----

// Python's MLGraph. A graph built by a builder is bound to the builder's context, as the spec
// says; a graph loaded from a file runs on any context and is compiled once per context on first
// use.
class PyGraph {
 public:
  static std::shared_ptr<PyGraph> built(MLGraph graph);
  static std::shared_ptr<PyGraph> loaded(Model model);

  const Model& model() const { return model_; }
  // The executable graph for `context`. Compiles a loaded graph (with the GIL released) on its first
  // use with a context. Throws InvalidStateError once destroyed.
  MLGraph for_context(const MLContext& context);
  void destroy();
  bool destroyed() const;

 private:
  Model model_;
  MLGraph bound_;  // empty for loaded graphs
  mutable std::mutex mutex_;
  std::vector<MLGraph> compiled_;  // loaded graphs: one per context
  bool destroyed_ = false;
};

// ---- Module parts ----

void bind_errors(py::module_& m);
void bind_context(py::module_& m);
void bind_builder(py::module_& m);
void bind_testing(py::module_& m);
void bind_service(py::module_& m);  // service.cpp

}  // namespace webnn::python
