// Conversions of a built graph to other formats.
#include "formats/onnx/export.hpp"
#include "graph/graph.hpp"
#include "webnn/webnn.hpp"

namespace webnn {

void convert_to_onnx(const MLGraph& graph, const std::string& path) {
  std::shared_ptr<const Graph> ir = graph.ir();
  formats::export_onnx(*ir, path);
}

}  // namespace webnn
