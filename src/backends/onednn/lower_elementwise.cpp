// Element-wise operations: add, sub, mul, div as binary primitives (the second operand
// broadcasting), activations as eltwise primitives or, where oneDNN's are inaccurate or change NaN
// and infinities, on our own kernels (eltwise.hpp); each in its input's own layout.
#include <optional>
#include <utility>

#include "backends/onednn/eltwise.hpp"
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

using dnnl::memory;

// The first operand gives the layout; the second is read in it, or plain when it broadcasts. Only
// the second may broadcast, except for add and mul, which swap their operands.
bool lower_binary(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  LayoutPlanner& layout = cx.layout;
  const Operation& op = g.operations[index];
  OperandId a = op.inputs[0], b = op.inputs[1];
  const Shape& out_shape = g.desc(op.outputs[0]).shape;
  if (g.desc(a).shape != out_shape) {
    if (op.kind != OpKind::kAdd && op.kind != OpKind::kMul) return false;
    std::swap(a, b);
    if (g.desc(a).shape != out_shape) return false;
  }
  const TensorId ta = layout.primary(a);
  const memory::desc a_md = layout.tensor(ta).md;
  const std::vector<int> axes = layout.tensor(ta).axes;
  TensorId tb;
  memory::desc b_md;
  if (g.desc(b).shape == out_shape) {
    b_md = a_md;
    tb = layout.in_layout(b, b_md, axes);
  } else {
    b_md = plain_view(pad_rank(g.desc(b).shape, out_shape.size()), axes);
    tb = layout.plain(b);
  }
  dnnl::binary::desc desc(*binary_algorithm(op.kind), a_md, b_md, a_md);
  dnnl::binary::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
  add_primitive(cx.plan, pd, dnnl::binary(pd),
                {{DNNL_ARG_SRC_0, ta, a_md},
                 {DNNL_ARG_SRC_1, tb, b_md},
                 {DNNL_ARG_DST, layout.define(op.outputs[0], a_md, axes), a_md}});
  return true;
}

// Over the input's bytes in its own layout, unless that layout pads channel blocks (the padding
// must stay zero for the primitives reading it): then plain. In place when nothing reads the input
// afterwards (and the output is not a graph output, which is written straight into the caller's
// buffer instead).
bool lower_own_eltwise(LowerContext& cx, size_t index) {
  LayoutPlanner& layout = cx.layout;
  const Operation& op = cx.graph.operations[index];
  const std::optional<EltwiseOp> own = own_eltwise(cx.graph, op);
  if (!own) return false;
  const EltwiseOp e = *own;
  TensorId src = layout.primary(op.inputs[0]);
  const PlanTensor& t = layout.tensor(src);
  if (t.md.get_size() != static_cast<size_t>(*t.desc.byte_length())) src = layout.plain(op.inputs[0]);
  const memory::desc md = layout.tensor(src).md;
  const std::vector<int> axes = layout.tensor(src).axes;
  const TensorId dst = !layout.is_graph_output(op.outputs[0]) && layout.overwritable(src, index, index)
                           ? layout.alias(src, op.outputs[0])
                           : layout.define(op.outputs[0], md, axes);
  const size_t n = md.get_size() / sizeof(float);
  Plan* plan = &cx.plan;
  add_run(cx.plan,
          [plan, e, src, dst, n] {
            run_eltwise(e, reinterpret_cast<const float*>(plan->ptr[src]), reinterpret_cast<float*>(plan->ptr[dst]), n);
          },
          {src}, {dst});
  return true;
}

// One eltwise primitive, in the input's own layout.
bool lower_eltwise(LowerContext& cx, size_t index) {
  LayoutPlanner& layout = cx.layout;
  const Operation& op = cx.graph.operations[index];
  const std::vector<PostOp> chain = eltwise_chain(op);
  if (chain.size() != 1 || op.inputs.size() != 1) return false;
  const TensorId src = layout.primary(op.inputs[0]);
  const memory::desc md = layout.tensor(src).md;
  dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, chain[0].algorithm, md, chain[0].alpha,
                                   chain[0].beta);
  dnnl::eltwise_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
  add_primitive(
      cx.plan, pd, dnnl::eltwise_forward(pd),
      {{DNNL_ARG_SRC, src, md}, {DNNL_ARG_DST, layout.define(op.outputs[0], md, layout.tensor(src).axes), md}});
  return true;
}

}  // namespace webnn::onednn
