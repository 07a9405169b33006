// Element-wise operations: add, sub, mul, div as binary primitives (the second operand
// broadcasting), activations as eltwise primitives or, where oneDNN's are inaccurate or change NaN
// and infinities, on our own kernels (eltwise.hpp); each in its input's own layout.
#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "backends/onednn/eltwise.hpp"
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/quantized.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

using dnnl::memory;

namespace {

bool is_reference_impl(const dnnl::primitive_desc_base& pd) {
  return std::string_view(pd.impl_info_str()).rfind("ref", 0) == 0;
}

// The eltwise primitive `algorithm` of op's first input, in that input's own layout.
void add_eltwise(LowerContext& cx, const Operation& op, dnnl::algorithm algorithm, float alpha, float beta) {
  LayoutPlanner& layout = cx.layout;
  const TensorId src = layout.primary(op.inputs[0]);
  const memory::desc md = layout.tensor(src).md;
  dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, md, alpha, beta);
  dnnl::eltwise_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
  add_primitive(
      cx.plan, pd, dnnl::eltwise_forward(pd),
      {{DNNL_ARG_SRC, src, md}, {DNNL_ARG_DST, layout.define(op.outputs[0], md, layout.tensor(src).axes), md}});
}

}  // namespace

// The first operand gives the layout; the second is read in it, or plain when it broadcasts. Only
// the second may broadcast, except for add and mul, which swap their operands. A broadcast that
// oneDNN would compute with its reference implementation runs over a 3-D view of plain tensors
// instead where one exists (broadcast_as_3d): oneDNN 2.6's binary takes its reference
// implementation for many broadcasts over 4-D and 5-D tensors — [1, 56, 56, 96] less its
// [1, 56, 56, 1] row means took 15 ms on this VM, the [1, 3136, 96] view 0.15 ms — and its jit one
// for every broadcast of a 3-D tensor (docs/onednn.md, "Broadcasts").
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
  const Shape b_shape = pad_rank(g.desc(b).shape, out_shape.size());
  const bool broadcast = b_shape != out_shape;
  const memory::desc b_md = broadcast ? plain_view(b_shape, axes) : a_md;
  const TensorId tb = broadcast ? layout.plain(b) : layout.in_layout(b, b_md, axes);
  dnnl::binary::desc desc(*binary_algorithm(op.kind), a_md, b_md, a_md);
  dnnl::binary::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
  if (broadcast && is_reference_impl(pd)) {
    if (auto grouped = broadcast_as_3d(out_shape, b_shape)) {
      const memory::desc full(grouped->first, memory::data_type::f32, row_major_strides(grouped->first));
      const memory::desc part(grouped->second, memory::data_type::f32, row_major_strides(grouped->second));
      dnnl::binary::desc view_desc(*binary_algorithm(op.kind), full, part, full);
      dnnl::binary::primitive_desc view_pd(view_desc, scratchpad_attr(), cpu_engine());
      add_primitive(cx.plan, view_pd, dnnl::binary(view_pd),
                    {{DNNL_ARG_SRC_0, layout.plain(a), full},
                     {DNNL_ARG_SRC_1, tb, part},
                     {DNNL_ARG_DST, layout.define(op.outputs[0], plain_view(out_shape)), full}});
      return true;
    }
  }
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

// pow(x, 2) with the exponent a constant of 2s that adds no axes: oneDNN's eltwise_square, x * x
// in one rounding, which is pow's correctly rounded value (and its -0, infinities and NaN). The
// reference kernel's std::pow took 2.7 ms for a [1, 56, 56, 384] tensor on this VM (docs/onednn.md,
// "Broadcasts"); PyTorch's LayerNorm below opset 17 exports one per normalization.
bool lower_square(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  const Operation& op = g.operations[index];
  if (op.inputs.size() != 2 || g.desc(op.inputs[0]).shape != g.desc(op.outputs[0]).shape) return false;
  const auto exponent = constant_values(g, op.inputs[1]);
  if (!exponent || g.desc(op.inputs[1]).data_type != DataType::kFloat32 ||
      !std::all_of(exponent->begin(), exponent->end(), [](double e) { return e == 2.0; }))
    return false;
  add_eltwise(cx, op, dnnl::algorithm::eltwise_square, 0.0f, 0.0f);
  return true;
}

// One eltwise primitive, in the input's own layout.
bool lower_eltwise(LowerContext& cx, size_t index) {
  const Operation& op = cx.graph.operations[index];
  const std::vector<PostOp> chain = eltwise_chain(op);
  if (chain.size() != 1 || op.inputs.size() != 1) return false;
  add_eltwise(cx, op, chain[0].algorithm, chain[0].alpha, chain[0].beta);
  return true;
}

}  // namespace webnn::onednn
