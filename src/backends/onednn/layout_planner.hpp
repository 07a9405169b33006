// Where each value of a plan lives and in which memory layout. An operand's *primary* tensor is
// the one it was first written in (a graph input or constant in place, or what its producer
// wrote); a consumer that needs another layout gets a *variant*, reordered from it once per layout
// and shared by every consumer (at build time for constants); a reshape is a *view* of the same
// bytes, an in-place result an *alias* of them. Reference kernels, copies and graph outputs read
// the plain row-major form. The lowerings (lowering.hpp) ask for operands in the layout their
// primitive chose and define the tensors they write; the planner adds the reorders between them.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "backends/onednn/fusion.hpp"
#include "backends/onednn/plan.hpp"

namespace webnn::onednn {

class LayoutPlanner {
 public:
  LayoutPlanner(const Graph& graph, Plan& plan, const Fusion& fusion);

  const PlanTensor& tensor(TensorId t) const { return plan_.tensors[t]; }
  // Whether operand `id` is a graph output (then written plain, into the caller's buffer).
  bool is_graph_output(OperandId id) const { return first_output_[id] != kNone; }

  // The row-major descriptor of operand `id` seen through `axes`, in its own type (has_md).
  dnnl::memory::desc plain_md(OperandId id, const std::vector<int>& axes = {}) const;
  // `md` with the data type of operand `id` (the same layout: offsets count elements).
  dnnl::memory::desc retyped(dnnl::memory::desc md, OperandId id) const;

  // The tensor operand `id` was first materialised in; throws OperationError when nothing wrote it
  // yet.
  TensorId primary(OperandId id);
  // Defines the tensor an operation writes for operand `id`: the caller's output buffer when the
  // operand is a graph output and the layout is plain, else arena bytes. `aligned`: arena bytes
  // always (64-byte aligned; the caller's buffer need not be), copied to the caller's buffer at
  // the end, for a primitive that faults on an unaligned destination.
  TensorId define(OperandId id, const dnnl::memory::desc& md, std::vector<int> axes = {}, bool aligned = false);
  // Operand `id` in the layout `md` over `axes`, reordered (once per layout) when it is not there
  // yet. Constants are reordered here, at compile time. Any plain request is served by plain().
  TensorId in_layout(OperandId id, const dnnl::memory::desc& md, const std::vector<int>& axes = {});
  // The descriptor of operand `id`'s primary tensor when that tensor has `axes`, else its plain view
  // through them: the source a primitive that takes any layout is created with.
  dnnl::memory::desc primary_md(OperandId id, const std::vector<int>& axes);
  // Operand `id` in plain row-major layout: what reference kernels, copies and plain views read.
  // A blocked tensor is reordered to the plain view over its own axes.
  TensorId plain(OperandId id);
  // Operand `id` as a plain view of `root`'s bytes with its own descriptor (reshape).
  TensorId view(TensorId root, OperandId id);
  // Operand `id` defined as the bytes of tensor `t`, in its layout (written in place).
  TensorId alias(TensorId t, OperandId id);
  // Whether operation `index` may overwrite the bytes of tensor `t`: they are intermediate, hold
  // no graph output (copied out at the end), and no operand they hold (or anything sharing its
  // buffer) is read after `index` except by `except`.
  bool overwritable(TensorId t, size_t index, size_t except) const;

  TensorId add_tensor(PlanTensor t);
  // A float32 tensor of `values` the plan owns (an int8 convolution's rescaled bias).
  TensorId owned_f32(const std::vector<float>& values);
  // A reorder step from `src` seen through `src_md` into `dst`.
  void add_reorder(TensorId src, const dnnl::memory::desc& src_md, TensorId dst);
  // Tensor `t` (its md set) made of constant `src`'s bytes seen through `src_md`, reordered now,
  // at compile time, into bytes the plan owns; shared with every plan that reorders the same
  // storage the same way (derived_bytes.hpp).
  TensorId add_reordered(TensorId src, const dnnl::memory::desc& src_md, PlanTensor t);

  // Every graph output not yet written in place is copied (or reordered) into the caller's buffer.
  void bind_graph_outputs();

 private:
  // Bytes the plan owns for its whole life (Home::kOwned), its own: their index.
  size_t add_owned(std::span<const std::byte> bytes);
  TensorId add_variant(OperandId id, TensorId src, dnnl::memory::desc src_md, dnnl::memory::desc md,
                       std::vector<int> axes);
  TensorId root(TensorId t) const;
  // The storage constant tensor `t`'s bytes live in (a graph constant's, or owned bytes) and
  // where they start.
  std::pair<std::shared_ptr<const void>, const std::byte*> constant_bytes(TensorId t) const;
  bool same_layout(TensorId t, const dnnl::memory::desc& md, const std::vector<int>& axes) const;

  const Graph& g_;
  Plan& plan_;
  const Fusion& fusion_;
  std::vector<TensorId> primary_;                // by OperandId
  std::vector<std::vector<TensorId>> variants_;  // by OperandId: reordered copies
  std::vector<size_t> first_output_;             // by OperandId: first graph output index, or kNone
};

}  // namespace webnn::onednn
