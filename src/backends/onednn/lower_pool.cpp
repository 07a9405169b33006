// averagePool2d and maxPool2d as oneDNN pooling_v2 primitives (dilations, ceil rounding and
// outputSizes as extra end padding, NCHW or NHWC; the average excludes padding, as the reference
// does).
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

using dnnl::memory;

bool lower_pool(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  LayoutPlanner& layout = cx.layout;
  const Operation& op = g.operations[index];
  const auto& attrs = std::get<Pool2dAttrs>(op.attrs);
  const OperandId input = op.inputs[0], output = op.outputs[0];
  const std::vector<int> axes = image_axes(attrs.layout);
  const ImageDims in = image_dims(g.desc(input).shape, attrs.layout);
  const ImageDims out = image_dims(g.desc(output).shape, attrs.layout);
  const std::vector<uint32_t>& window = *attrs.window_dimensions;
  const std::vector<uint32_t>& pad = *attrs.padding;
  const std::vector<uint32_t>& stride = *attrs.strides;
  const std::vector<uint32_t>& dilation = *attrs.dilations;
  Dims pl = {pad[0], pad[2]}, pr = {pad[1], pad[3]};
  const int64_t in_size[2] = {in.height, in.width}, out_size[2] = {out.height, out.width};
  for (int k = 0; k < 2; ++k) {
    const int64_t kernel = (int64_t{window[k]} - 1) * dilation[k] + 1;
    // oneDNN checks out = (in - kernel + pl + pr) / stride + 1 exactly: ceil rounding and
    // outputSizes extend the ending padding.
    const int64_t needed = (out_size[k] - 1) * stride[k] + kernel - in_size[k] - pl[k];
    if ((in_size[k] - kernel + pl[k] + pr[k]) / stride[k] + 1 != out_size[k]) pr[k] = needed;
    // Windows wholly in the padding have no defined average in oneDNN: the reference kernel
    // handles them (docs/choices.md).
    if (pl[k] >= kernel || pr[k] < 0 || (out_size[k] - 1) * stride[k] - pl[k] >= in_size[k]) return false;
  }
  // oneDNN's max pool skips NaN and gives -FLT_MAX for a window of -Infinity: the reference
  // kernel runs it wherever either can reach it.
  if (op.kind == OpKind::kMaxPool2d) {
    if (cx.specials[input]) return false;
    cx.plan.needs_finite_inputs = true;
  }
  const dnnl::algorithm algorithm =
      op.kind == OpKind::kMaxPool2d ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding;
  const memory::desc src_md = layout.primary_md(input, axes);
  const bool graph_output = layout.is_graph_output(output);
  const memory::desc dst_md = graph_output ? plain_view(g.desc(output).shape, axes)
                                           : memory::desc({out.batches, out.channels, out.height, out.width},
                                                          memory::data_type::f32, memory::format_tag::any);
  dnnl::pooling_v2_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src_md, dst_md,
                                      {stride[0], stride[1]}, {window[0], window[1]},
                                      {int64_t{dilation[0]} - 1, int64_t{dilation[1]} - 1}, pl, pr);
  dnnl::pooling_v2_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
  add_primitive(cx.plan, pd, dnnl::pooling_v2_forward(pd),
                {{DNNL_ARG_SRC, layout.in_layout(input, pd.src_desc(), axes), pd.src_desc()},
                 {DNNL_ARG_DST, layout.define(output, pd.dst_desc(), axes), pd.dst_desc()}});
  return true;
}

}  // namespace webnn::onednn
