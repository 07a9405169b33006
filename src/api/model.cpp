// Model: a graph as data, over the IR (graph/graph.hpp) and the file formats (src/formats/). The
// loaders validate through GraphBuilder, so a loaded model holds what the builder would have made.
#include "formats/formats.hpp"
#include "formats/onnx/export.hpp"
#include "runtime/handles.hpp"

namespace webnn {

namespace {

const Graph& graph_of(const std::shared_ptr<const Graph>& impl) {
  type_error_if(!impl, "Model: the handle is empty");
  return *impl;
}

std::vector<ModelOperand> named_operands(const Graph& graph, const std::vector<NamedOperand>& list,
                                         bool with_defaults) {
  std::vector<ModelOperand> out;
  for (const NamedOperand& named : list) {
    ModelOperand o{named.name, graph.desc(named.operand), {}};
    if (with_defaults) {
      auto it = graph.input_defaults.find(named.name);
      if (it != graph.input_defaults.end()) o.default_value = it->second.span();
    }
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace

Model Model::load(const std::string& path, const ModelLoadOptions& options) {
  return detail::make_handle<Model>(formats::load_graph(path, options));
}

void Model::save(const std::string& path, const ModelSaveOptions& options) const {
  formats::save_graph(graph_of(impl_), path, options);
}

void Model::export_onnx(const std::string& path) const { formats::export_onnx(graph_of(impl_), path); }

const std::string& Model::name() const { return graph_of(impl_).name; }

std::vector<ModelOperand> Model::inputs() const {
  const Graph& graph = graph_of(impl_);
  return named_operands(graph, graph.inputs, /*with_defaults=*/true);
}

std::vector<ModelOperand> Model::outputs() const {
  const Graph& graph = graph_of(impl_);
  return named_operands(graph, graph.outputs, /*with_defaults=*/false);
}

const std::map<std::string, std::string>& Model::frozen_inputs() const { return graph_of(impl_).frozen_inputs; }

size_t Model::operand_count() const { return graph_of(impl_).operands.size(); }

size_t Model::operation_count() const { return graph_of(impl_).operations.size(); }

std::map<std::string, size_t> Model::operation_counts() const {
  std::map<std::string, size_t> counts;
  for (const Operation& op : graph_of(impl_).operations) counts[std::string(op_name(op.kind))]++;
  return counts;
}

size_t Model::constant_count() const { return graph_of(impl_).constants.size(); }

uint64_t Model::constant_bytes() const { return graph_of(impl_).constant_bytes(); }

std::map<std::string, WeightsTensor> load_weights(const std::string& weights_path, const std::string& manifest_path) {
  std::shared_ptr<formats::WeightsFile> file = formats::WeightsFile::open(weights_path, manifest_path);
  std::map<std::string, WeightsTensor> out;
  for (const auto& [key, entry] : file->entries()) {
    BufferRef bytes = file->tensor(key);
    out[key] = WeightsTensor{entry.desc, std::move(bytes.data), bytes.size};
  }
  return out;
}

void convert_to_onnx(const MLGraph& graph, const std::string& path) { graph.model().export_onnx(path); }

}  // namespace webnn
