// The IR builder: the one path by which operands and operations enter a Graph. The C++ API's
// MLGraphBuilder, the graph-file loaders and the Python bindings all build through it, so every
// graph is validated by the same spec algorithms (src/ops/) whatever its origin.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "webnn/limits.hpp"

namespace webnn {

// Runs `fn`; a webnn::Error it throws leads with the caller's operator label in brackets
// ("[conv_1] conv2d: ..."), escaped, as WPT's validation tests expect of every failing builder call
// that was given a label. Every step of an operator method runs inside it: "can build", validating
// its operands, validation and shape inference, the output limits.
template <class Fn>
auto labelled(const std::string& label, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const Error& e) {
    if (label.empty()) throw;
    std::string message(1, '[');
    message += escaped(label);
    message += "] ";
    message += e.message();
    throw Error(e.kind(), message);
  }
}

class GraphBuilder {
 public:
  explicit GraphBuilder(uint64_t max_tensor_byte_length = kMaxTensorByteLength);

  // spec: #api-mlgraphbuilder-input. Throws TypeError on an empty or duplicate name or an invalid
  // descriptor.
  OperandId add_input(const std::string& name, const OperandDescriptor& desc);
  // spec: #api-mlgraphbuilder-constant-buffer. `data.size` must equal the descriptor's byte length.
  OperandId add_constant(const OperandDescriptor& desc, BufferRef data, std::string name = {});
  // Validates the operation with src/ops/ and appends it; returns its outputs. Throws (TypeError,
  // ...) naming the op, its label and the rule, leaving the builder unchanged.
  std::vector<OperandId> add_operation(OpKind kind, std::vector<OperandId> inputs, Attributes attrs,
                                       std::string label = {});
  // Names an intermediate operand (graph files keep their names on a round trip).
  void set_operand_name(OperandId id, std::string name);

  // spec: #api-mlgraphbuilder-build. Keeps only what the outputs depend on. The builder can build
  // once; later calls throw InvalidStateError.
  std::shared_ptr<const Graph> build(const std::vector<NamedOperand>& outputs, std::string graph_name = {});

  bool has_built() const { return built_; }
  bool is_valid(OperandId id) const { return id < graph_.operands.size(); }
  const OperandDescriptor& desc(OperandId id) const { return graph_.operands.at(id).desc; }
  const Graph& graph() const { return graph_; }
  uint64_t max_tensor_byte_length() const { return max_tensor_byte_length_; }

  // spec: "check dimensions" plus our maxTensorByteLength bound; `what` names the operand.
  void check_descriptor(const OperandDescriptor& desc, const std::string& what) const;

 private:
  void check_can_build() const;
  Graph graph_;
  uint64_t max_tensor_byte_length_;
  bool built_ = false;
};

}  // namespace webnn
