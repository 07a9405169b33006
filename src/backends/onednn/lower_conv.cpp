// conv2d and convTranspose2d as oneDNN (de)convolution primitives, with their fused chains, in
// every input and filter layout, with groups, dilations, padding and outputPadding/outputSizes;
// float32, or int8 for a QDQ anchor (lower_quantized.cpp).
#include <algorithm>
#include <optional>

#include "backends/onednn/fused_primitive.hpp"
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"

namespace webnn::onednn {

using dnnl::memory;

namespace {

// The filter as oneDNN's weights: logical dims (O, I, H, W), or (G, O/G, I/G, H, W) with groups,
// and the strides of the filter's own layout over them.
struct FilterView {
  Dims dims, strides;
  int64_t kernel[2];
};

FilterView filter_view(const Graph& g, const Operation& op, uint32_t groups) {
  const Shape& f = g.desc(op.inputs[1]).shape;
  // Position of o, i, h, w in the filter's shape, and the per-group sizes.
  int po, pi, ph, pw;
  int64_t o_total, i_per_group;
  if (op.kind == OpKind::kConv2d) {
    switch (std::get<Conv2dAttrs>(op.attrs).filter_layout) {
      case Conv2dFilterLayout::kOihw:
        po = 0, pi = 1, ph = 2, pw = 3;
        break;
      case Conv2dFilterLayout::kHwio:
        ph = 0, pw = 1, pi = 2, po = 3;
        break;
      case Conv2dFilterLayout::kOhwi:
        po = 0, ph = 1, pw = 2, pi = 3;
        break;
      case Conv2dFilterLayout::kIhwo:
      default:
        pi = 0, ph = 1, pw = 2, po = 3;
        break;
    }
    o_total = f[static_cast<size_t>(po)];
    i_per_group = f[static_cast<size_t>(pi)];
  } else {
    // convTranspose2d filters hold input channels (all groups) by output channels per group.
    switch (std::get<ConvTranspose2dAttrs>(op.attrs).filter_layout) {
      case ConvTranspose2dFilterLayout::kIohw:
        pi = 0, po = 1, ph = 2, pw = 3;
        break;
      case ConvTranspose2dFilterLayout::kHwoi:
        ph = 0, pw = 1, po = 2, pi = 3;
        break;
      case ConvTranspose2dFilterLayout::kOhwi:
      default:
        po = 0, ph = 1, pw = 2, pi = 3;
        break;
    }
    o_total = int64_t{f[static_cast<size_t>(po)]} * groups;
    i_per_group = f[static_cast<size_t>(pi)] / groups;
  }
  const Dims fs = row_major_strides(dims_of(f));
  FilterView v;
  v.kernel[0] = f[static_cast<size_t>(ph)];
  v.kernel[1] = f[static_cast<size_t>(pw)];
  const int64_t so = fs[static_cast<size_t>(po)], si = fs[static_cast<size_t>(pi)];
  const int64_t sh = fs[static_cast<size_t>(ph)], sw = fs[static_cast<size_t>(pw)];
  if (groups == 1) {
    v.dims = {o_total, i_per_group, v.kernel[0], v.kernel[1]};
    v.strides = {so, si, sh, sw};
  } else if (op.kind == OpKind::kConv2d) {
    const int64_t o_per_group = o_total / groups;
    v.dims = {groups, o_per_group, i_per_group, v.kernel[0], v.kernel[1]};
    v.strides = {o_per_group * so, so, si, sh, sw};
  } else {
    const int64_t o_per_group = o_total / groups;
    v.dims = {groups, o_per_group, i_per_group, v.kernel[0], v.kernel[1]};
    v.strides = {i_per_group * si, so, si, sh, sw};
  }
  return v;
}

// The filter in the primitive's weights layout: reordered once when constant, at every run
// otherwise.
TensorId weights(LowerContext& cx, OperandId filter, const FilterView& fv, const memory::desc& md,
                 memory::data_type type) {
  LayoutPlanner& layout = cx.layout;
  const TensorId src = layout.plain(filter);
  const memory::desc src_md(fv.dims, type, fv.strides);
  PlanTensor t;
  t.desc = cx.graph.desc(filter);
  t.md = md;
  t.plain = false;
  t.bytes = md.get_size();
  if (is_constant(cx.graph, filter)) return layout.add_reordered(src, src_md, std::move(t));
  const TensorId dst = layout.add_tensor(std::move(t));
  layout.add_reorder(src, src_md, dst);
  return dst;
}

}  // namespace

// A float32 3x3 convolution with stride 1, no dilation, no groups and channels in and out that
// fill blocks of 16: oneDNN's Winograd kernels compute it with fewer multiplications (F(2x2, 3x3) or
// F(4x4, 3x3)), 1.7x to 2.4x faster than its direct kernels on ResNet-50's layers here. They
// take nChw16c tensors only, so a graph with such a convolution keeps all its convolutions in
// nChw16c (as fast as NHWC for the others) rather than reorder around each Winograd one.
bool winograd_candidate(const Graph& g, const std::vector<uint8_t>& specials, size_t index) {
  const Operation& op = g.operations[index];
  if (op.kind != OpKind::kConv2d || !is_f32(g.desc(op.inputs[0])) || !is_f32(g.desc(op.outputs[0]))) return false;
  const auto& a = std::get<Conv2dAttrs>(op.attrs);
  const auto ones = [](const DefaultedDims& d) {
    return std::all_of(d->begin(), d->end(), [](uint32_t v) { return v == 1; });
  };
  if (a.groups != 1 || !ones(a.strides) || !ones(a.dilations)) return false;
  // Winograd weights are transformed once, at build: constant filters only.
  if (!is_constant(g, op.inputs[1])) return false;
  // Its transforms mix neighbouring elements: an infinity would make NaN of them.
  if (specials[op.inputs[0]] || specials[op.inputs[1]]) return false;
  const FilterView fv = filter_view(g, op, 1);
  const ImageDims in = image_dims(g.desc(op.inputs[0]).shape, a.input_layout);
  const ImageDims out = image_dims(g.desc(op.outputs[0]).shape, a.input_layout);
  // Whole blocks of 16 channels only: oneDNN 2.6's Winograd kernels crash or hang on padded
  // blocks (e.g. 64 -> 40 or 24 -> 40 channels; found by the sweep in onednn_backend_test).
  return fv.kernel[0] == 3 && fv.kernel[1] == 3 && in.channels % 16 == 0 && out.channels % 16 == 0;
}

bool lower_conv(LowerContext& cx, size_t index) { return lower_conv(cx, index, nullptr); }

bool lower_conv(LowerContext& cx, size_t index, const QuantizedAnchor* q) {
  const Graph& g = cx.graph;
  LayoutPlanner& layout = cx.layout;
  const Operation& op = g.operations[index];
  const bool transposed = op.kind == OpKind::kConvTranspose2d;
  // The options both convolutions share.
  DefaultedDims padding, strides, dilations;
  uint32_t groups;
  InputLayout input_layout;
  std::optional<OperandRef> bias;
  std::visit(
      [&](const auto& a) {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, Conv2dAttrs> || std::is_same_v<A, ConvTranspose2dAttrs>) {
          padding = a.padding, strides = a.strides, dilations = a.dilations;
          groups = a.groups, input_layout = a.input_layout, bias = a.bias;
        }
      },
      op.attrs);
  const OperandId input = q ? q->src : op.inputs[0], filter = q ? q->weights : op.inputs[1];
  const OperandId output = op.outputs[0];
  const OperandId final_output = q && q->quantize != kNone ? q->quantized_output : cx.fusion.chain_output(index);
  const memory::data_type src_type = *onednn_type(g.desc(input).data_type);
  const memory::data_type dst_type = *onednn_type(g.desc(final_output).data_type);
  const memory::data_type weights_type = q ? memory::data_type::s8 : memory::data_type::f32;
  const std::vector<int> axes = image_axes(input_layout);
  const ImageDims in = image_dims(g.desc(input).shape, input_layout);
  const ImageDims out = image_dims(g.desc(output).shape, input_layout);
  const std::vector<uint32_t>& pad = *padding;
  const std::vector<uint32_t>& stride = *strides;
  const std::vector<uint32_t>& dilation = *dilations;
  const FilterView fv = filter_view(g, op, groups);
  const Dims s = {stride[0], stride[1]};
  const Dims d = {int64_t{dilation[0]} - 1, int64_t{dilation[1]} - 1};
  const Dims pl = {pad[0], pad[2]};
  Dims pr = {pad[1], pad[3]};
  if (transposed) {
    // outputPadding and outputSizes extend the ending edge: oneDNN takes it as less padding.
    for (int k = 0; k < 2; ++k) {
      const int64_t kernel = (fv.kernel[k] - 1) * (d[k] + 1) + 1;
      const int64_t in_size = k == 0 ? in.height : in.width;
      const int64_t out_size = k == 0 ? out.height : out.width;
      pr[k] = (in_size - 1) * s[k] + kernel - pl[k] - out_size;
      if (pr[k] < 0) return false;
    }
  }
  // nChw16c when the graph's convolutions are blocked (an input of few channels, an image, is
  // read as it is; a graph output is written plain, and its input is then left to oneDNN, which
  // has no fast kernel from nChw16c to plain), else the layout oneDNN prefers.
  const bool graph_output = layout.is_graph_output(final_output);
  const bool blocked = cx.blocked_convs && !transposed && !graph_output && !q;
  const auto image_md = [](const ImageDims& d, bool block, memory::data_type type) {
    return memory::desc({d.batches, d.channels, d.height, d.width}, type,
                        block ? memory::format_tag::nChw16c : memory::format_tag::any);
  };
  const memory::desc src_any = image_md(in, blocked && in.channels >= 8, src_type);
  const memory::desc weights_any(fv.dims, weights_type, memory::format_tag::any);
  const memory::desc bias_md = bias ? plain_view(g.desc(bias->id).shape) : memory::desc();
  // An int8 convolution writes its own layout even for a graph output (reordered into the
  // caller's buffer after): oneDNN 2.6's only int8 kernel from NHWC to NCHW is its reference one.
  const memory::desc dst_start =
      graph_output && !q ? layout.plain_md(final_output, axes) : image_md(out, blocked, dst_type);
  auto algorithm = blocked && winograd_candidate(g, cx.specials, index) ? dnnl::algorithm::convolution_winograd
                                                                        : dnnl::algorithm::convolution_direct;
  PostOpArgs post;
  auto run_conv = [&](const auto& pd, dnnl::primitive primitive) {
    std::vector<StepArg> args;
    args.push_back({DNNL_ARG_SRC, layout.in_layout(input, pd.src_desc(), axes), pd.src_desc()});
    args.push_back({DNNL_ARG_WEIGHTS, weights(cx, filter, fv, pd.weights_desc(), weights_type), pd.weights_desc()});
    if (bias && q) {
      // oneDNN 2.6 adds the bias to the int32 accumulator, before the output scale.
      std::vector<float> scaled(*q->bias);
      for (size_t c = 0; c < scaled.size(); ++c)
        scaled[c] /= q->src_scale * q->weight_scales[q->weight_scales.size() == 1 ? 0 : c];
      args.push_back({DNNL_ARG_BIAS, layout.owned_f32(scaled), bias_md});
    } else if (bias) {
      args.push_back({DNNL_ARG_BIAS, layout.plain(bias->id), bias_md});
    }
    for (StepArg& a : post.args) args.push_back(a);
    const TensorId dst = fused_destination(cx, index, final_output, pd.dst_desc(), axes, post.sum_operand);
    args.push_back({DNNL_ARG_DST, dst, pd.dst_desc()});
    add_primitive(cx.plan, pd, std::move(primitive), std::move(args));
  };
  if (transposed) {
    using PD = dnnl::deconvolution_forward::primitive_desc;
    auto make = [&](const memory::desc& dst) {
      return dnnl::deconvolution_forward::desc(dnnl::prop_kind::forward_inference,
                                               dnnl::algorithm::deconvolution_direct, src_any, weights_any, bias_md,
                                               dst, s, d, pl, pr);
    };
    const PD pd = make_fused_pd<PD>(cx, index, axes, dst_start, make, post, false, q, 1 << 1);
    run_conv(pd, dnnl::deconvolution_forward(pd));
  } else {
    using PD = dnnl::convolution_forward::primitive_desc;
    auto make = [&](const memory::desc& dst) {
      return dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, algorithm, src_any, weights_any,
                                             bias_md, dst, s, d, pl, pr);
    };
    const auto fused_pd = [&] { return make_fused_pd<PD>(cx, index, axes, dst_start, make, post, false, q, 1 << 1); };
    std::optional<PD> pd;
    try {
      pd = fused_pd();
    } catch (const dnnl::error&) {
      if (algorithm != dnnl::algorithm::convolution_winograd) throw;
      // No Winograd kernel for this shape or chain: the direct one (the retry finds the
      // operands' layouts already made, so it adds no steps).
      algorithm = dnnl::algorithm::convolution_direct;
      pd = fused_pd();
    }
    run_conv(*pd, dnnl::convolution_forward(*pd));
  }
  return true;
}

}  // namespace webnn::onednn
