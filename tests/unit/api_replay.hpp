// Rebuilds an IR graph (a WPT case's) through the public C++ API: its inputs with
// MLGraphBuilder::input, its constants with constant(), and each operation with its generated
// MLGraphBuilder method and ML<Xxx>Options struct (api_replay.gen.inc, generated from the op table
// by scripts/gen_api.py), then build(). The options carry what the caller of the original gave;
// validation applies the spec's defaults again.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "graph/graph.hpp"
#include "webnn/webnn.hpp"

namespace api_replay {

template <webnn::SpecEnum E>
std::string name(E value) {
  return std::string(webnn::enum_name(value));
}
template <class T>
std::optional<T> given(const webnn::Defaulted<T>& option) {
  return option.caller_value();
}
template <class T>
std::optional<T> given(const std::optional<T>& option) {
  return option;
}
template <webnn::SpecEnum E>
std::optional<std::vector<std::string>> names(const webnn::Defaulted<std::vector<E>>& option) {
  if (!option.given()) return std::nullopt;
  std::vector<std::string> out;
  for (E e : *option) out.push_back(name(e));
  return out;
}
inline std::optional<webnn::MLOperand> operand(const std::optional<webnn::OperandRef>& ref,
                                               const std::function<webnn::MLOperand(webnn::OperandId)>& operand) {
  if (!ref) return std::nullopt;
  return operand(ref->id);
}
inline std::vector<webnn::MLOperand> results(webnn::MLOperand one) { return {std::move(one)}; }
inline std::vector<webnn::MLOperand> results(std::vector<webnn::MLOperand> many) { return many; }

#include "unit/api_replay.gen.inc"

// Builds `graph` on `context` through the C++ API; throws what the API throws.
inline webnn::MLGraph build_through_api(const webnn::MLContext& context, const webnn::Graph& graph) {
  webnn::MLGraphBuilder builder(context);
  std::vector<webnn::MLOperand> operands(graph.operands.size());
  for (webnn::OperandId id = 0; id < graph.operands.size(); ++id) {
    const webnn::Operand& o = graph.operands[id];
    if (o.kind == webnn::OperandKind::kInput) {
      operands[id] = builder.input(o.name, o.desc);
    } else if (o.kind == webnn::OperandKind::kConstant) {
      operands[id] = builder.constant(o.desc, graph.constant_data(id).span());
    }
  }
  for (const webnn::Operation& op : graph.operations) {
    const std::vector<webnn::MLOperand> results =
        replay_operation(builder, op, [&](webnn::OperandId id) { return operands.at(id); });
    if (results.size() != op.outputs.size())
      throw std::logic_error("replay: " + std::string(webnn::op_name(op.kind)) + " returned " +
                             std::to_string(results.size()) + " outputs, the IR has " +
                             std::to_string(op.outputs.size()));
    for (size_t i = 0; i < results.size(); ++i) operands.at(op.outputs[i]) = results[i];
  }
  webnn::MLNamedOperands outputs;
  for (const webnn::NamedOperand& out : graph.outputs) outputs[out.name] = operands.at(out.operand);
  return builder.build(outputs);
}

}  // namespace api_replay
