// int8 QDQ (quantized.hpp): an anchor whose input and filter are dequantizations of 8-bit tensors
// as one int8 convolution or matmul, the residual add of a QDQ network in one pass, per-tensor
// quantizeLinear / dequantizeLinear on our own kernels, each in its input's layout; and matrix
// products over dequantized 8-bit weights on our own kernel (weight_only.hpp).
#include <optional>

#include "backends/onednn/lowering.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

using dnnl::memory;

bool lower_int8(LowerContext& cx, size_t index) {
  const QuantizedAnchor* q = cx.quantized.anchor(index);
  if (!q) return false;
  const OpKind kind = cx.graph.operations[index].kind;
  bool lowered = false;
  try {
    lowered = kind == OpKind::kMatmul || kind == OpKind::kGemm ? lower_matmul(cx, index, q) : lower_conv(cx, index, q);
  } catch (const dnnl::error&) {
    lowered = false;
  }
  if (!lowered) {
    // The float32 path: the dequantizations it reads through get their own steps now.
    for (size_t dq : cx.quantized.release(index)) cx.lower(dq);
    return false;
  }
  for (size_t dq : q->dequantizes)
    if (cx.quantized.absorbed(dq)) cx.plan.placement[dq] = "onednn";
  if (q->quantize != kNone) cx.plan.placement[q->quantize] = "onednn";
  return true;
}

// Over the input's bytes in the layout it has (plain when that layout pads channel blocks); the
// output takes the same layout in its own type.
bool lower_own_quantization(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  LayoutPlanner& layout = cx.layout;
  const Operation& op = g.operations[index];
  const std::optional<QuantizeOp> own = own_quantization(g, op);
  if (!own) return false;
  const QuantizeOp q = *own;
  TensorId src = layout.primary(op.inputs[0]);
  const size_t n = static_cast<size_t>(*g.desc(op.inputs[0]).element_count());
  if (layout.tensor(src).md.get_size() != static_cast<size_t>(*g.desc(op.inputs[0]).byte_length()))
    src = layout.plain(op.inputs[0]);
  const TensorId dst =
      layout.define(op.outputs[0], layout.retyped(layout.tensor(src).md, op.outputs[0]), layout.tensor(src).axes);
  Plan* plan = &cx.plan;
  add_run(cx.plan, [plan, q, src, dst, n] { run_quantization(q, plan->ptr[src], plan->ptr[dst], n); }, {src}, {dst});
  return true;
}

// Over the first operand's bytes in its layout (plain when that layout pads channel blocks), the
// second read in the same layout, the output written in it.
bool lower_quantized_add(LowerContext& cx, size_t index) {
  const QuantizedAdd* found = cx.quantized.add(index);
  if (!found) return false;
  const QuantizedAdd& add = *found;
  LayoutPlanner& layout = cx.layout;
  TensorId a = layout.primary(add.a);
  const size_t n = static_cast<size_t>(*cx.graph.desc(add.a).element_count());
  if (layout.tensor(a).md.get_size() != n) a = layout.plain(add.a);
  const std::vector<int> axes = layout.tensor(a).axes;
  const memory::desc md = layout.tensor(a).md;
  const TensorId b = layout.in_layout(add.b, layout.retyped(md, add.b), axes);
  const TensorId dst = layout.define(add.output, layout.retyped(md, add.output), axes);
  Plan* plan = &cx.plan;
  add_run(cx.plan, [plan, add, a, b, dst, n] { run_quantized_add(add, plan->ptr[a], plan->ptr[b], plan->ptr[dst], n); },
          {a, b}, {dst});
  cx.plan.placement[add.quantize_op] = "onednn";
  for (size_t dq : add.dequantizes)
    if (cx.quantized.absorbed(dq)) cx.plan.placement[dq] = "onednn";
  return true;
}

// Plain row-major a, c and output. The operation's fused chain is given back to its members,
// which then run on their own (a decode step's outputs are a few rows).
bool lower_weight_only(LowerContext& cx, size_t index) {
  const WeightOnlyMatmul* found = cx.quantized.weight_only(index);
  if (!found) return false;
  const Operation& op = cx.graph.operations[index];
  LayoutPlanner& layout = cx.layout;
  cx.fusion.unfuse(index);
  const TensorId a = layout.plain(found->a);
  std::vector<TensorId> reads = {a};
  std::optional<TensorId> c;
  if (found->c) reads.push_back(*(c = layout.plain(*found->c)));
  const TensorId dst = layout.define(op.outputs[0], layout.plain_md(op.outputs[0]));
  Plan* plan = &cx.plan;
  add_run(cx.plan,
          [plan, m = *found, a, c, dst] {
            const auto* c_values = c ? reinterpret_cast<const float*>(plan->ptr[*c]) : nullptr;
            run_weight_only(m, reinterpret_cast<const float*>(plan->ptr[a]), c_values,
                            reinterpret_cast<float*>(plan->ptr[dst]));
          },
          std::move(reads), {dst});
  if (cx.quantized.absorbed(found->dequantize)) cx.plan.placement[found->dequantize] = "onednn";
  return true;
}

}  // namespace webnn::onednn
