// The options of loading and saving a graph file (webnn::Model::load and Model::save in
// webnn.hpp; the file formats of docs/formats.md take them as they are). A header of its own, so
// that the loaders do not depend on the rest of the API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace webnn {

struct ModelLoadOptions {
  // Default: NAME.weights / NAME.manifest.json beside the graph file NAME.json / NAME.webnn. They
  // are opened only when the graph refers to the weights file.
  std::string weights_path;
  std::string manifest_path;
  // ONNX models: values of symbolic input dimensions, and inputs frozen to the contents of .npy
  // files (inputs the model uses as shapes, axes or indices).
  std::map<std::string, uint32_t> dims;
  std::map<std::string, std::string> freeze;
  // The bytes the load may materialise beyond the file's own (an ONNX import's folded values, a
  // graph file's constants filled from a scalar); 1 GiB when absent.
  std::optional<uint64_t> memory_budget;
};

struct ModelSaveOptions {
  // Default: NAME.weights / NAME.manifest.json beside the graph file.
  std::string weights_path;
  std::string manifest_path;
  // Constants smaller than this many bytes are written inline, the others to the weights file.
  // 0 keeps every constant in the weights file; SIZE_MAX inlines all.
  size_t inline_limit = 64;
};

}  // namespace webnn
