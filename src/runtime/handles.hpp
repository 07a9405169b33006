// The private state behind the public handles of include/webnn/webnn.hpp that the runtime owns:
// tensors and graphs. Handles hold shared_ptrs to these; the context owns the timeline on which
// tensor data is touched. The builder's state is the API's (api/impl.hpp), above this layer.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "webnn/webnn.hpp"

namespace webnn::detail {

struct ContextImpl;

// The library's own access to the state behind a public handle (the handles declare it their
// friend): impl_of(handle) reads it, make_handle<Handle>(state) makes a handle over it.
struct HandleAccess {
  template <class Handle>
  static const auto& impl(const Handle& handle) {
    return handle.impl_;
  }
  template <class Handle, class State>
  static Handle make(std::shared_ptr<State> state) {
    Handle handle;
    handle.impl_ = std::move(state);
    return handle;
  }
  static const std::shared_ptr<BuilderImpl>& builder(const MLOperand& operand) { return operand.builder_; }
  static MLOperand operand(std::shared_ptr<BuilderImpl> builder, uint32_t id) { return {std::move(builder), id}; }
};

template <class Handle>
const auto& impl_of(const Handle& handle) {
  return HandleAccess::impl(handle);
}
template <class Handle, class State>
Handle make_handle(std::shared_ptr<State> state) {
  return HandleAccess::make<Handle>(std::move(state));
}

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
  // How long its last dispatch took on the timeline, in nanoseconds (0: it has not run here).
  std::atomic<int64_t> last_run_ns{0};
};

// What the builder (src/api/) needs of the context; implemented in src/runtime/context_impl.cpp.
bool context_is_lost(const ContextImpl& context);
uint64_t context_max_tensor_byte_length(const ContextImpl& context);
// Compiles `ir` on the context's backend and returns the graph handle (spec: build's
// "convert into an implementation-defined format" step). Throws OperationError on failure.
MLGraph context_build_graph(const std::shared_ptr<ContextImpl>& context, std::shared_ptr<const Graph> ir);
// The same for in-tree users that hold the IR (tests, tools, the service).
inline MLGraph context_build_graph(const MLContext& context, std::shared_ptr<const Graph> ir) {
  return context_build_graph(impl_of(context), std::move(ir));
}

}  // namespace webnn::detail
