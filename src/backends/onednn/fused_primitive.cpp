#include "backends/onednn/fused_primitive.hpp"

#include <algorithm>

#include "backends/onednn/memory_desc.hpp"

namespace webnn::onednn {

using dnnl::memory;

namespace {

// Whether the chain of `anchor` commutes with a division by a positive scale: relu, leakyRelu
// and clamp post-ops only (quantizeLinear's scale then folds into the output scale).
bool folds_dst_scale(const Fusion& fusion, size_t anchor) {
  const std::vector<PostOp>& post = fusion.post_ops(anchor);
  return std::all_of(post.begin(), post.end(), [](const PostOp& p) {
    return !p.binary && (p.algorithm == dnnl::algorithm::eltwise_relu || p.algorithm == dnnl::algorithm::eltwise_clip);
  });
}

// The chain link of `anchor` that adds `other`.
size_t sum_reader(const LowerContext& cx, size_t anchor, OperandId other) {
  for (size_t link : cx.fusion.chain(anchor)) {
    const Operation& op = cx.graph.operations[link];
    if (op.inputs.size() == 2 && (op.inputs[0] == other || op.inputs[1] == other)) return link;
  }
  return kNone;
}

}  // namespace

PostOpArgs post_ops(LowerContext& cx, size_t anchor, const memory::desc& dst_md, const std::vector<int>& axes,
                    bool two_d, const QuantizedAnchor* q) {
  const Graph& g = cx.graph;
  PostOpArgs out;
  int index = 0;
  const Shape& out_shape = g.desc(cx.fusion.chain_output(anchor)).shape;
  const bool quantize = q && q->quantize != kNone;
  const float inverse = quantize ? 1 / q->dst_scale : 1;
  const bool folded = quantize && folds_dst_scale(cx.fusion, anchor);
  const std::vector<PostOp>& chain = cx.fusion.post_ops(anchor);
  for (const PostOp& p : chain) {
    if (!p.binary) {
      // relu(x) / s = relu(x / s) and clamp(x, lo, hi) / s = clamp(x / s, lo / s, hi / s) for s > 0.
      // Otherwise the last post-op (the chain is all element-wise then) scales its result by 1 / s:
      // not a linear post-op of its own, as oneDNN 2.6's brgemm matmul gives a second post-op of
      // the same algorithm the first one's parameters (tested).
      const bool clip = p.algorithm == dnnl::algorithm::eltwise_clip;
      const bool last = &p == &chain.back();
      out.ops.append_eltwise(quantize && !folded && last ? inverse : 1.0f, p.algorithm,
                             folded && clip ? p.alpha * inverse : p.alpha, folded && clip ? p.beta * inverse : p.beta);
    } else if (g.desc(p.other).shape == out_shape && !out.sum_operand &&
               (p.algorithm == dnnl::algorithm::binary_add || p.algorithm == dnnl::algorithm::binary_sub)) {
      // x - other = x + (-1) * other
      out.ops.append_sum(p.algorithm == dnnl::algorithm::binary_add ? 1.0f : -1.0f);
      out.sum_operand = p.other;
    } else {
      // A full tensor in the destination's own layout, or a broadcast one read plain (and the
      // plain bytes as 2-D rows for a matmul run as one 2-D matmul).
      const Shape& other = g.desc(p.other).shape;
      memory::desc md;
      TensorId t;
      if (two_d) {
        md = as_rows(other);
        t = cx.layout.plain(p.other);
      } else if (other == out_shape) {
        md = dst_md;
        t = cx.layout.in_layout(p.other, md, axes);
      } else {
        md = plain_view(pad_rank(other, out_shape.size()), axes);
        t = cx.layout.plain(p.other);
      }
      out.ops.append_binary(p.algorithm, md);
      out.args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | DNNL_ARG_SRC_1, t, md});
    }
    ++index;
  }
  return out;
}

void set_int8_attr(const LowerContext& cx, dnnl::primitive_attr& attr, size_t anchor, const QuantizedAnchor& q,
                   int channel_mask) {
  const bool quantize = q.quantize != kNone;
  const float divide = quantize && folds_dst_scale(cx.fusion, anchor) ? q.dst_scale : 1.0f;
  std::vector<float> scales;
  for (float w : q.weight_scales) scales.push_back(q.src_scale * w / divide);
  attr.set_output_scales(scales.size() == 1 ? 0 : channel_mask, scales);
  if (q.src_zero_point != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {q.src_zero_point});
  if (quantize && q.dst_zero_point != 0) attr.set_zero_points(DNNL_ARG_DST, 0, {q.dst_zero_point});
}

TensorId fused_destination(LowerContext& cx, size_t anchor, OperandId id, const memory::desc& md,
                           const std::vector<int>& axes, const std::optional<OperandId>& sum_operand) {
  LayoutPlanner& layout = cx.layout;
  if (!sum_operand) return layout.define(id, md, axes);
  const OperandId other = *sum_operand;
  const TensorId t = layout.primary(other);
  const PlanTensor& x = layout.tensor(t);
  // In place when the bytes are already in the destination's layout and may be overwritten.
  if (x.axes == axes && x.md == md && !layout.is_graph_output(id) &&
      layout.overwritable(t, anchor, sum_reader(cx, anchor, other)))
    return layout.alias(t, id);
  // `x` dangles once a tensor is added: decide from it first.
  const bool direct = x.axes == axes;
  const TensorId dst = layout.define(id, md, axes);
  const TensorId src = direct ? t : layout.plain(other);
  layout.add_reorder(src, direct ? layout.tensor(src).md : plain_view(cx.graph.desc(other).shape, axes), dst);
  return dst;
}

}  // namespace webnn::onednn
