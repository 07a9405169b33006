// The private state behind the public handles of include/webnn/webnn.hpp. Handles hold
// shared_ptrs to these; the context owns the timeline on which tensor data is touched.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "graph/graph_builder.hpp"
#include "webnn/webnn.hpp"

namespace webnn::detail {

struct ContextImpl;

struct TensorImpl {
  std::weak_ptr<ContextImpl> context;
  const ContextImpl* context_id = nullptr;  // identity check without locking the weak_ptr
  MLTensorDescriptor desc;
  bool is_constant = false;
  std::atomic<bool> destroyed{false};
  // Constant tensors: immutable bytes, shared with every graph that uses the tensor as a constant.
  BufferRef constant_data;
  // Other tensors: the bytes, touched only by steps running on the context timeline.
  std::vector<std::byte> data;
  // A remote context's tensor: its id in the service's context (set by its creation step).
  uint32_t remote_id = 0;

  TensorImpl() = default;
  TensorImpl(const TensorImpl&) = delete;
  TensorImpl& operator=(const TensorImpl&) = delete;
  // A remote tensor whose last handle goes is destroyed in the service too, as a local one's
  // bytes are freed (after every step that used it: those steps held it).
  ~TensorImpl();

  OperandDescriptor operand_desc() const { return {desc.data_type, desc.shape}; }
};

struct GraphImpl {
  std::weak_ptr<ContextImpl> context;
  const ContextImpl* context_id = nullptr;
  std::shared_ptr<const Graph> ir;
  std::unique_ptr<Executable> executable;  // used only on the context timeline
  std::map<std::string, OperandDescriptor> input_descriptors;
  std::map<std::string, OperandDescriptor> output_descriptors;
  std::atomic<bool> destroyed{false};
};

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
// build()'s synchronous steps (outputs validated, the builder marked built); the graph it returns
// is compiled by context_build_graph, which a binding may run on another thread (js/).
std::shared_ptr<const Graph> freeze_for_build(const std::shared_ptr<BuilderImpl>& impl, const MLNamedOperands& outputs);

// Implemented in src/runtime/. The builder needs only these members of the context.
bool context_is_lost(const ContextImpl& context);
uint64_t context_max_tensor_byte_length(const ContextImpl& context);
// Compiles `ir` on the context's backend and returns the graph handle (spec: build's
// "convert into an implementation-defined format" step). Throws OperationError on failure.
MLGraph context_build_graph(const std::shared_ptr<ContextImpl>& context, std::shared_ptr<const Graph> ir);

}  // namespace webnn::detail
