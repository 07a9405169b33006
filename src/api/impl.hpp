// The builder's private state behind MLGraphBuilder and MLOperand (include/webnn/webnn.hpp), and
// the parts of MLGraphBuilder::add_operation that src/api/operators.cpp implements. Over the
// runtime's handles (runtime/handles.hpp).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "graph/graph_builder.hpp"
#include "runtime/handles.hpp"
#include "webnn/webnn.hpp"

namespace webnn::detail {

struct BuilderImpl {
  std::shared_ptr<ContextImpl> context;
  GraphBuilder ir;
  std::mutex mutex;  // builder calls from several threads are serialised
  // Constant tensors used by this builder, checked again at build (spec: destroyed → TypeError).
  std::vector<std::shared_ptr<TensorImpl>> constant_tensors;
  explicit BuilderImpl(std::shared_ptr<ContextImpl> ctx, uint64_t max_bytes) : context(std::move(ctx)), ir(max_bytes) {}
};

// MLGraphBuilder::add_operation's parts (src/api/operators.cpp): the op named `name` (TypeError
// for an unknown one); the names of `given` operands in the spec's order, a sequence<MLOperand>
// expanded ("inputs[0]", ...; TypeError for a wrong count); the attribute struct filled from the
// arguments a binding gave (TypeError naming an unknown or missing one), operand-valued options
// checked by `operand`.
OpKind operator_kind(const std::string& name);
std::vector<std::string> operand_names(OpKind kind, size_t given);
Attributes attributes_from(OpKind kind, const MLArguments& arguments,
                           const std::function<OperandId(const MLOperand&, const std::string&)>& operand);

}  // namespace webnn::detail
