// The builder's private state behind MLGraphBuilder and MLOperand (include/webnn/webnn.hpp), and
// the builder steps that bindings adding operations by kind share (python/, js/, src/capi/).
// Implemented in src/api/ml_graph_builder.cpp, over the runtime's handles (runtime/handles.hpp).
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

// The builder methods' shared steps, for bindings that add operations by kind (python/): the
// spec's "validating operand" of `operand` as `argument` of `method` (TypeError naming both), and
// adding an operation under the builder's lock after its "can build" check (src/api/ml_graph_builder.cpp).
OperandId validated_operand(const std::shared_ptr<BuilderImpl>& impl, const MLOperand& operand,
                            const std::string& method, const std::string& argument);
std::vector<MLOperand> add_by_kind(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, std::vector<OperandId> inputs,
                                   Attributes attrs, const std::string& label);
// The spec's "can build" check (InvalidStateError), for bindings that must make it before they
// validate their operands (js/).
void check_can_build(const std::shared_ptr<BuilderImpl>& impl, const std::string& method);
// MLGraphBuilder::add_operation's parts (src/api/operators.cpp): the op named `name` (TypeError
// for an unknown one); the names of `given` operands in the spec's order, a sequence<MLOperand>
// expanded ("inputs[0]", ...; TypeError for a wrong count); the attribute struct filled from the
// arguments a binding gave (TypeError naming an unknown or missing one), operand-valued options
// checked by `operand`.
OpKind operator_kind(const std::string& name);
std::vector<std::string> operand_names(OpKind kind, size_t given);
Attributes attributes_from(OpKind kind, const MLArguments& arguments,
                           const std::function<OperandId(const MLOperand&, const std::string&)>& operand);
// build()'s synchronous steps (outputs validated, the builder marked built); the graph it returns
// is compiled by context_build_graph, which a binding may run on another thread (js/).
std::shared_ptr<const Graph> freeze_for_build(const std::shared_ptr<BuilderImpl>& impl, const MLNamedOperands& outputs);

}  // namespace webnn::detail
