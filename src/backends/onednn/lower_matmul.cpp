// matmul (batch broadcasting) and gemm (transposes as strides, alpha and c as post-ops) as oneDNN
// matmul primitives with their fused chains; float32, or int8 for a QDQ anchor
// (lower_quantized.cpp).
#include <algorithm>

#include "backends/onednn/fused_primitive.hpp"
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"

namespace webnn::onednn {

using dnnl::memory;

namespace {

// Whether matmul `index` and its fused chain can run as one 2-D matmul over all rows of A: the
// output has batches, B has none of its own, and every binary operand of the chain either spans
// all rows or broadcasts one row.
bool runs_as_rows(const LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  const Operation& op = g.operations[index];
  const Shape& out = g.desc(op.outputs[0]).shape;
  if (out.size() < 3) return false;
  const Shape b = pad_rank(g.desc(op.inputs[1]).shape, out.size());
  if (!std::all_of(b.begin(), b.end() - 2, [](uint32_t d) { return d == 1; })) return false;
  const Shape lead(out.begin(), out.end() - 1);
  for (const PostOp& p : cx.fusion.post_ops(index)) {
    if (!p.binary) continue;
    const Shape other = pad_rank(g.desc(p.other).shape, out.size());
    const bool all_rows = std::equal(lead.begin(), lead.end(), other.begin());
    const bool one_row = std::all_of(other.begin(), other.end() - 1, [](uint32_t d) { return d == 1; });
    if (!all_rows && !one_row) return false;
  }
  return true;
}

}  // namespace

bool lower_matmul(LowerContext& cx, size_t index) { return lower_matmul(cx, index, nullptr); }

bool lower_matmul(LowerContext& cx, size_t index, const QuantizedAnchor* q) {
  const Graph& g = cx.graph;
  LayoutPlanner& layout = cx.layout;
  const Operation& op = g.operations[index];
  if (!cx.fusion.anchor_supported(index)) return false;
  const OperandId a = q ? q->src : op.inputs[0], b = q ? q->weights : op.inputs[1];
  const OperandId final_output = q && q->quantize != kNone ? q->quantized_output : cx.fusion.chain_output(index);
  const memory::data_type a_type = *onednn_type(g.desc(a).data_type), b_type = *onednn_type(g.desc(b).data_type);
  const memory::data_type dst_type = *onednn_type(g.desc(final_output).data_type);
  const Shape& out_shape = g.desc(op.outputs[0]).shape;
  const size_t rank = out_shape.size();
  memory::desc a_md, b_view;
  if (op.kind == OpKind::kGemm) {
    const auto& attrs = std::get<GemmAttrs>(op.attrs);
    const Shape& as = g.desc(a).shape;
    const Shape& bs = g.desc(b).shape;
    a_md = attrs.a_transpose ? memory::desc({as[1], as[0]}, a_type, Dims{1, as[1]}) : plain_view(as, {}, a_type);
    b_view = attrs.b_transpose ? memory::desc({bs[1], bs[0]}, b_type, Dims{1, bs[1]}) : plain_view(bs, {}, b_type);
  } else {
    a_md = plain_view(pad_rank(g.desc(a).shape, rank), {}, a_type);
    b_view = plain_view(pad_rank(g.desc(b).shape, rank), {}, b_type);
  }
  const memory::desc dst_md = plain_view(out_shape, {}, dst_type);
  // Batches over one shared B are one 2-D matmul over all rows of A: oneDNN prepacks B only for
  // 2-D matmuls (1.4x faster on BERT's [1, 128, 768] x [768, 3072]). The tensors keep their
  // logical shapes; only the primitive sees the 2-D views of the same bytes.
  const bool two_d = op.kind == OpKind::kMatmul && runs_as_rows(cx, index);
  memory::desc prim_dst = dst_md;
  if (two_d) {
    a_md = as_rows(g.desc(a).shape, a_type);
    b_view = as_rows(g.desc(b).shape, b_type);
    prim_dst = as_rows(out_shape, dst_type);
  }
  const bool b_constant = is_constant(g, b);
  const memory::desc b_md = b_constant ? memory::desc(b_view.dims(), b_type, memory::format_tag::any) : b_view;
  auto make = [&](const memory::desc& dst) { return dnnl::matmul::desc(a_md, b_md, dst); };
  PostOpArgs post;
  const int channel_mask = 1 << (static_cast<int>(prim_dst.dims().size()) - 1);
  auto pd = make_fused_pd<dnnl::matmul::primitive_desc>(cx, index, {}, prim_dst, make, post, two_d, q, channel_mask);
  std::vector<StepArg> args;
  args.push_back({DNNL_ARG_SRC, layout.plain(a), a_md});
  if (b_constant) {
    // Reordered once into the layout the primitive prefers.
    PlanTensor t;
    t.scratch = true;
    t.desc = g.desc(b);
    t.md = pd.weights_desc();
    t.plain = false;
    t.bytes = t.md.get_size();
    const TensorId w = layout.add_reordered(layout.plain(b), b_view, std::move(t));
    args.push_back({DNNL_ARG_WEIGHTS, w, pd.weights_desc()});
  } else {
    args.push_back({DNNL_ARG_WEIGHTS, layout.plain(b), b_view});
  }
  for (StepArg& arg : post.args) args.push_back(arg);
  args.push_back({DNNL_ARG_DST, fused_destination(cx, index, final_output, dst_md, {}, post.sum_operand), prim_dst});
  add_primitive(cx.plan, pd, dnnl::matmul(pd), std::move(args));
  return true;
}

}  // namespace webnn::onednn
