// A convolution or matmul primitive with its fused chain (fusion.hpp) as oneDNN post-ops: the
// post-ops and their operands, an int8 anchor's scales and zero points, and the destination, which
// a sum post-op (a residual add) needs to hold the residual before the primitive runs.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <optional>
#include <vector>

#include "backends/onednn/lowering.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

// The post-ops of `anchor`'s fused chain, with `dst_md`/`axes` the layout of its output. The
// first add (or sub) of a full tensor becomes oneDNN's sum post-op, which accumulates into the
// destination: the fastest convolutions take no full-tensor binary post-op, and a residual
// connection is exactly that add. `sum_operand` is then the operand the destination must hold.
struct PostOpArgs {
  dnnl::post_ops ops;
  std::vector<StepArg> args;
  std::optional<OperandId> sum_operand;
};
// `two_d` is set for a matmul run as one 2-D matmul: every binary operand is then given to oneDNN
// as a 2-D view of the same bytes.
// `q`: the anchor's int8 form (quantized.hpp); with a quantizeLinear folded in, the chain's result
// is divided by its scale: in the output scale (when the chain commutes with it: the clamp bounds
// divided too), or as the scale of the chain's last post-op.
PostOpArgs post_ops(LowerContext& cx, size_t anchor, const dnnl::memory::desc& dst_md, const std::vector<int>& axes,
                    bool two_d, const QuantizedAnchor* q);

// The attributes of an int8 primitive: one output scale (x's scale times w's, divided by the
// folded quantizeLinear's) per tensor or per output channel (`channel_mask`), and the source and
// destination zero points.
void set_int8_attr(const LowerContext& cx, dnnl::primitive_attr& attr, size_t anchor, const QuantizedAnchor& q,
                   int channel_mask);

// The destination of a fused primitive whose chain output is `id`. With a sum post-op the
// destination must already hold `sum_operand`: its own bytes, overwritten in place when nothing
// reads them afterwards, else a copy made just before the primitive runs.
TensorId fused_destination(LowerContext& cx, size_t anchor, OperandId id, const dnnl::memory::desc& md,
                           const std::vector<int>& axes, const std::optional<OperandId>& sum_operand);

// The primitive descriptor of `anchor` with its post-ops (set into `post`). Binary post-ops fix
// src1's layout before the primitive chooses its destination's: a first descriptor without
// post-ops tells which layout the destination takes.
template <class PD, class MakeDesc>
PD make_fused_pd(LowerContext& cx, size_t anchor, const std::vector<int>& axes, dnnl::memory::desc dst_md,
                 MakeDesc&& make_desc, PostOpArgs& post, bool two_d = false, const QuantizedAnchor* q = nullptr,
                 int channel_mask = 0) {
  if (dst_md.data.format_kind == dnnl_format_kind_any) {
    PD probe(make_desc(dst_md), scratchpad_attr(), cpu_engine());
    dst_md = probe.dst_desc();
  }
  post = post_ops(cx, anchor, dst_md, axes, two_d, q);
  dnnl::primitive_attr attr = scratchpad_attr();
  attr.set_post_ops(post.ops);
  if (q) set_int8_attr(cx, attr, anchor, *q, channel_mask);
  return PD(make_desc(dst_md), attr, cpu_engine());
}

}  // namespace webnn::onednn
