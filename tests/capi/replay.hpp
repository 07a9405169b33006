// Rebuilds an IR graph (a WPT case's, a graph file's) through the C ABI: its inputs with
// webnn_graph_builder_input, its constants with webnn_graph_builder_constant, and each operation
// with its generated webnn_graph_builder_<op> function and C options struct (replay.gen.inc,
// generated from the op table), then webnn_graph_builder_build. Nothing of the IR graph reaches
// the C context except through those calls.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "webnn/webnn.h"

namespace capi_replay {

template <class T>
const T* ptr(const std::optional<std::vector<T>>& v) {
  static const T present_but_empty{};  // an empty list is a non-NULL pointer with count 0
  if (!v) return nullptr;
  return v->empty() ? &present_but_empty : v->data();
}
template <class T>
size_t count(const std::optional<std::vector<T>>& v) {
  return v ? v->size() : 0;
}
// An option with a spec default: what the caller gave (NULL when it left it to the default).
template <class T>
const T* ptr(const webnn::Defaulted<std::vector<T>>& v) {
  static const T present_but_empty{};
  const std::vector<T>* given = v.if_given();
  if (!given) return nullptr;
  return given->empty() ? &present_but_empty : given->data();
}
template <class T>
size_t count(const webnn::Defaulted<std::vector<T>>& v) {
  return v.given() ? v->size() : 0;
}
inline const uint32_t* ptr(const std::vector<uint32_t>& v) { return v.empty() ? nullptr : v.data(); }

inline WebnnNumber to_c(const webnn::Number& n) {
  switch (n.kind()) {
    case webnn::Number::Kind::kInt64:
      return webnn_number_int64(n.int64_value());
    case webnn::Number::Kind::kUint64:
      return webnn_number_uint64(n.uint64_value());
    case webnn::Number::Kind::kDouble:
      break;
  }
  return webnn_number_double(n.as_double());
}

inline WebnnSplits to_c(const webnn::SplitSpec& s) {
  if (const auto* n = std::get_if<uint32_t>(&s)) return webnn_splits_count(*n);
  const auto& list = std::get<std::vector<uint32_t>>(s);
  static const uint32_t empty = 0;
  return webnn_splits_list(list.empty() ? &empty : list.data(), list.size());
}

template <class CEnum, class E>
std::optional<std::vector<CEnum>> enum_list(const std::optional<std::vector<E>>& v) {
  if (!v) return std::nullopt;
  std::vector<CEnum> out;
  for (E e : *v) out.push_back(static_cast<CEnum>(e));
  return out;
}
template <class CEnum, class E>
std::optional<std::vector<CEnum>> enum_list(const webnn::Defaulted<std::vector<E>>& v) {
  return enum_list<CEnum>(v.caller_value());
}

#include "capi/replay.gen.inc"

struct Built {
  WebnnGraph* graph = nullptr;
  WebnnStatus status = WEBNN_STATUS_SUCCESS;
  std::string message;  // the failing call's last error
};

// Builds `graph` on `context` through the C ABI.
inline Built build_through_c(WebnnContext* context, const webnn::Graph& graph) {
  Built built;
  WebnnGraphBuilder* builder = nullptr;
  auto failed = [&](WebnnStatus s) {
    if (s == WEBNN_STATUS_SUCCESS) return false;
    built.status = s;
    built.message = webnn_last_error_message();
    return true;
  };
  if (failed(webnn_graph_builder_create(context, &builder))) return built;
  std::vector<WebnnOperand*> operands(graph.operands.size(), nullptr);
  auto run = [&]() -> bool {
    for (webnn::OperandId id = 0; id < graph.operands.size(); ++id) {
      const webnn::Operand& o = graph.operands[id];
      const WebnnOperandDescriptor d{static_cast<WebnnDataType>(o.desc.data_type),
                                     o.desc.shape.empty() ? nullptr : o.desc.shape.data(), o.desc.shape.size()};
      if (o.kind == webnn::OperandKind::kInput) {
        if (failed(webnn_graph_builder_input(builder, o.name.c_str(), &d, &operands[id]))) return false;
      } else if (o.kind == webnn::OperandKind::kConstant) {
        const auto bytes = graph.constant_data(id).span();
        if (failed(webnn_graph_builder_constant(builder, &d, bytes.data(), bytes.size(), &operands[id]))) return false;
      }
    }
    std::vector<WebnnOperand*> results;
    for (const webnn::Operation& op : graph.operations) {
      if (failed(replay_operation(
              builder, op, [&](webnn::OperandId id) { return operands.at(id); }, results)))
        return false;
      if (results.size() != op.outputs.size()) {
        built.status = WEBNN_STATUS_UNKNOWN_ERROR;
        built.message = "replay: " + std::string(webnn::op_name(op.kind)) + " returned " +
                        std::to_string(results.size()) + " outputs, the IR has " + std::to_string(op.outputs.size());
        return false;
      }
      for (size_t i = 0; i < results.size(); ++i) operands.at(op.outputs[i]) = results[i];
    }
    std::vector<WebnnNamedOperand> outputs;
    for (const webnn::NamedOperand& out : graph.outputs)
      outputs.push_back({out.name.c_str(), operands.at(out.operand)});
    return !failed(webnn_graph_builder_build(builder, outputs.data(), outputs.size(), &built.graph));
  };
  run();
  webnn_graph_builder_release(builder);
  return built;
}

}  // namespace capi_replay
