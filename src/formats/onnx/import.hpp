// ONNX import (docs/onnx.md, "Import"): an ONNX ModelProto becomes our IR, each ONNX node lowered
// onto GraphBuilder's own operations, so the spec's validation runs on every imported graph.
//
// Values whose contents are known at import time (initializers, Constant nodes, Shape of a static
// shape and whatever integer arithmetic follows it) are folded on the host, so the shape
// computations PyTorch exports (Shape -> Gather -> Concat -> Reshape) become constants. Whatever
// WebNN cannot express throws NotSupportedError naming the node, its op type and the reason; the
// importer never builds a graph that computes something else.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "formats/formats.hpp"
#include "graph/graph.hpp"

namespace webnn::formats {

struct OnnxImportOptions {
  // Values for the symbolic dimensions (dim_param) of the graph inputs.
  std::map<std::string, uint32_t> dims;
  // Graph inputs replaced by constants (inputs the model uses as shapes, axes or indices).
  std::map<std::string, NpyArray> frozen;
  // The import's memory budget: the bytes of values the importer computes or builds (folded
  // values, tables of the compositions) held at once. The model's own bytes (initializers,
  // Constant nodes, external data) do not count. Exceeding it is a NotSupportedError naming the
  // node, the size and the budget.
  uint64_t memory_budget = kDefaultMemoryBudget;
};

// Thrown (a NotSupportedError) when a graph input is used where WebNN needs a value known when the
// graph is built (a shape, axes, pads, ...): freezing that input to a constant imports the model.
class OnnxNeedsConstantInput : public Error {
 public:
  OnnxNeedsConstantInput(const std::string& input, const std::string& message)
      : Error(ErrorKind::kNotSupportedError, message), input_(input) {}
  const std::string& input() const { return input_; }

 private:
  std::string input_;
};

// Imports a .onnx file. External data files are read from the model's directory only.
std::shared_ptr<const Graph> import_onnx(const std::string& path, const OnnxImportOptions& options = {});
// Imports a serialized ModelProto; external data is looked up in `base_dir` (empty: refused).
std::shared_ptr<const Graph> import_onnx_bytes(std::string_view bytes, const std::string& base_dir,
                                               const std::string& origin, const OnnxImportOptions& options = {});

// A serialized ONNX TensorProto (the backend test suite's input_N.pb / output_N.pb) as an array;
// ONNX bool becomes uint8 holding 0 or 1. Throws NotSupportedError for types WebNN lacks.
NpyArray read_onnx_tensor(const std::string& path);

}  // namespace webnn::formats
