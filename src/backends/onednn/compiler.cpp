// Lowers a graph onto oneDNN: float32 convolutions, matmul/gemm, pooling, element-wise and binary
// ops, softmax, layer normalization, reshapes and transposes become oneDNN primitives; every other
// node runs its reference kernel inside the same plan. Activations and binary ops that follow a
// convolution or matmul are fused into it as post-ops; convolutions choose their (blocked) layouts
// and tensors stay in them between oneDNN steps, reordered only where a consumer needs another
// layout. Constant weights are reordered once, here.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "backends/memory_plan.hpp"
#include "backends/onednn/eltwise.hpp"
#include "backends/onednn/float16.hpp"
#include "backends/onednn/fusion.hpp"
#include "backends/onednn/layout_planner.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/omp_threads.hpp"
#include "backends/onednn/plan.hpp"
#include "backends/onednn/quantized.hpp"
#include "backends/onednn/steps.hpp"
#include "backends/reference/kernels.hpp"
#include "core/float16.hpp"

namespace webnn::onednn {

using dnnl::memory;

const dnnl::engine& cpu_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

namespace {

class Compiler {
 public:
  Compiler(std::shared_ptr<const Graph> graph, const CompileOptions& options, bool finite_inputs)
      : g_(*graph),
        plan_(std::make_unique<Plan>()),
        specials_(may_hold_specials(g_, !finite_inputs)),
        fusion_(g_, specials_),
        quantized_(g_, fusion_),
        layout_(g_, *plan_, fusion_) {
    plan_->graph = std::move(graph);
    plan_->engine = cpu_engine();
    plan_->num_threads = options.num_threads > 0 ? options.num_threads : omp_get_num_procs();
    plan_->placement.assign(g_.operations.size(), "reference");
    for (size_t i = 0; i < g_.operations.size() && !blocked_convs_; ++i) blocked_convs_ = winograd_candidate(i);
    plan_->needs_finite_inputs = fusion_.fused_activation() || blocked_convs_;
  }

  std::unique_ptr<Plan> compile() {
    for (size_t i = 0; i < g_.operations.size(); ++i) {
      if (fusion_.fused_into(i) != kNone || quantized_.absorbed(i)) continue;  // lowered with its anchor
      lower(i);
    }
    layout_.bind_graph_outputs();
    return std::move(plan_);
  }

 private:
  void lower(size_t index) {
    if (lower_onednn(index)) return;
    fusion_.unfuse(index);
    lower_reference(index);
  }

  // ---- Reference fallback ----

  void lower_reference(size_t index) {
    const Operation& op = g_.operations[index];
    std::vector<TensorId> reads, writes;
    for_each_input(op, [&](OperandId id) { reads.push_back(layout_.plain(id)); });
    reference::Kernel kernel = reference::make_kernel(g_, op);  // throws NotSupportedError
    for (OperandId id : op.outputs) {
      writes.push_back(layout_.define(id, has_md(g_.desc(id)) ? layout_.plain_md(id) : memory::desc()));
      plan_->plain_of[id] = writes.back();
    }
    Plan* plan = plan_.get();
    add_run(
        *plan_, [plan, kernel = std::move(kernel)] { kernel(plan->values); }, std::move(reads), std::move(writes));
    plan_->placement[index] = "reference";
  }

  // ---- oneDNN lowering ----

  bool lower_onednn(size_t index) {
    const Operation& op = g_.operations[index];
    if (is_float16_conversion(g_, op)) {
      lower_float16_conversion(op);
      plan_->placement[index] = "onednn";
      return true;
    }
    if (const QuantizedAdd* add = quantized_.add(index)) {
      lower_quantized_add(index, *add);
      return true;
    }
    if (const std::optional<QuantizeOp> q = own_quantization(g_, op)) {
      lower_own_quantization(index, *q);
      plan_->placement[index] = "onednn";
      return true;
    }
    if (const QuantizedAnchor* q = quantized_.anchor(index)) {
      if (lower_int8(index, *q)) return true;
      // The float32 path: the dequantizations it reads through get their own steps now.
      for (size_t dq : quantized_.release(index)) lower(dq);
    }
    bool all_f32 = true;
    for_each_input(op, [&](OperandId id) { all_f32 = all_f32 && is_f32(g_.desc(id)); });
    for (OperandId id : op.outputs) all_f32 = all_f32 && is_f32(g_.desc(id));
    if (!all_f32) return false;
    bool lowered = false;
    try {
      switch (op.kind) {
        case OpKind::kConv2d:
        case OpKind::kConvTranspose2d:
          lowered = lower_conv(index);
          break;
        case OpKind::kMatmul:
        case OpKind::kGemm:
          lowered = lower_matmul(index);
          break;
        case OpKind::kAveragePool2d:
        case OpKind::kMaxPool2d:
          lowered = lower_pool(op);
          break;
        case OpKind::kAdd:
        case OpKind::kSub:
        case OpKind::kMul:
        case OpKind::kDiv:
          lowered = lower_binary(op);
          break;
        case OpKind::kSoftmax:
          lowered = lower_softmax(op);
          break;
        case OpKind::kLayerNormalization:
          lowered = lower_layer_normalization(op);
          break;
        case OpKind::kReshape:
          layout_.view(layout_.plain(op.inputs[0]), op.outputs[0]);
          lowered = true;
          break;
        case OpKind::kTranspose:
          lowered = lower_transpose(op);
          break;
        default:
          lowered = lower_eltwise(index);
          break;
      }
    } catch (const dnnl::error&) {
      lowered = false;  // oneDNN has no implementation for these shapes or options
    }
    if (lowered) {
      plan_->placement[index] = "onednn";
      for (size_t fused : fusion_.chain(index)) plan_->placement[fused] = "onednn";
    }
    return lowered;
  }

  // The post-ops of `anchor`'s fused chain, with `dst_md`/`axes` the layout of its output. The
  // first add (or sub) of a full tensor becomes oneDNN's sum post-op, which accumulates into the
  // destination: the fastest convolutions take no full-tensor binary post-op, and a residual
  // connection is exactly that add. `sum_operand` is then the operand the destination must hold.
  struct PostOpArgs {
    dnnl::post_ops ops;
    std::vector<StepArg> args;
    std::optional<OperandId> sum_operand;
  };
  // `two_d` is set for a matmul run as one 2-D matmul (runs_as_rows): every binary operand is then
  // given to oneDNN as a 2-D view of the same bytes.
  // `q`: the anchor's int8 form (quantized.hpp); with a quantizeLinear folded in, the chain's result
  // is divided by its scale: in the output scale (folds_dst_scale: the clamp bounds divided too),
  // or as the scale of the chain's last post-op.
  PostOpArgs post_ops(size_t anchor, const memory::desc& dst_md, const std::vector<int>& axes, bool two_d = false,
                      const QuantizedAnchor* q = nullptr) {
    PostOpArgs out;
    int index = 0;
    const Shape& out_shape = g_.desc(fusion_.chain_output(anchor)).shape;
    const bool quantize = q && q->quantize != kNone;
    const float inverse = quantize ? 1 / q->dst_scale : 1;
    const bool folded = quantize && folds_dst_scale(anchor);
    const std::vector<PostOp>& chain = fusion_.post_ops(anchor);
    for (const PostOp& p : chain) {
      if (!p.binary) {
        // relu(x) / s = relu(x / s) and clamp(x, lo, hi) / s = clamp(x / s, lo / s, hi / s) for s > 0.
        // Otherwise the last post-op (the chain is all element-wise then) scales its result by 1 / s:
        // not a linear post-op of its own, as oneDNN 2.6's brgemm matmul gives a second post-op of
        // the same algorithm the first one's parameters (tested).
        const bool clip = p.algorithm == dnnl::algorithm::eltwise_clip;
        const bool last = &p == &chain.back();
        out.ops.append_eltwise(quantize && !folded && last ? inverse : 1.0f, p.algorithm,
                               folded && clip ? p.alpha * inverse : p.alpha,
                               folded && clip ? p.beta * inverse : p.beta);
      } else if (g_.desc(p.other).shape == out_shape && !out.sum_operand &&
                 (p.algorithm == dnnl::algorithm::binary_add || p.algorithm == dnnl::algorithm::binary_sub)) {
        // x - other = x + (-1) * other
        out.ops.append_sum(p.algorithm == dnnl::algorithm::binary_add ? 1.0f : -1.0f);
        out.sum_operand = p.other;
      } else {
        // A full tensor in the destination's own layout, or a broadcast one read plain (and the
        // plain bytes as 2-D rows for a matmul run as one 2-D matmul).
        const Shape& other = g_.desc(p.other).shape;
        memory::desc md;
        TensorId t;
        if (two_d) {
          md = as_rows(other);
          t = layout_.plain(p.other);
        } else if (other == out_shape) {
          md = dst_md;
          t = layout_.in_layout(p.other, md, axes);
        } else {
          md = plain_view(pad_rank(other, out_shape.size()), axes);
          t = layout_.plain(p.other);
        }
        out.ops.append_binary(p.algorithm, md);
        out.args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | DNNL_ARG_SRC_1, t, md});
      }
      ++index;
    }
    return out;
  }

  // Whether the chain of `anchor` commutes with a division by a positive scale: relu, leakyRelu
  // and clamp post-ops only (quantizeLinear's scale then folds into the output scale).
  bool folds_dst_scale(size_t anchor) const {
    const std::vector<PostOp>& post = fusion_.post_ops(anchor);
    return std::all_of(post.begin(), post.end(), [](const PostOp& p) {
      return !p.binary &&
             (p.algorithm == dnnl::algorithm::eltwise_relu || p.algorithm == dnnl::algorithm::eltwise_clip);
    });
  }

  // The attributes of an int8 primitive: one output scale (x's scale times w's, divided by the
  // folded quantizeLinear's) per tensor or per output channel (`channel_mask`), and the source and
  // destination zero points.
  void set_int8_attr(dnnl::primitive_attr& attr, size_t anchor, const QuantizedAnchor& q, int channel_mask) {
    const bool quantize = q.quantize != kNone;
    const float divide = quantize && folds_dst_scale(anchor) ? q.dst_scale : 1.0f;
    std::vector<float> scales;
    for (float w : q.weight_scales) scales.push_back(q.src_scale * w / divide);
    attr.set_output_scales(scales.size() == 1 ? 0 : channel_mask, scales);
    if (q.src_zero_point != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {q.src_zero_point});
    if (quantize && q.dst_zero_point != 0) attr.set_zero_points(DNNL_ARG_DST, 0, {q.dst_zero_point});
  }

  // The int8 primitive of an anchor (quantized.hpp); false when oneDNN has none for it.
  bool lower_int8(size_t index, const QuantizedAnchor& q) {
    const OpKind kind = g_.operations[index].kind;
    bool lowered = false;
    try {
      lowered = kind == OpKind::kMatmul || kind == OpKind::kGemm ? lower_matmul(index, &q) : lower_conv(index, &q);
    } catch (const dnnl::error&) {
      lowered = false;
    }
    if (!lowered) return false;
    plan_->placement[index] = "onednn";
    for (size_t fused : fusion_.chain(index)) plan_->placement[fused] = "onednn";
    for (size_t dq : q.dequantizes)
      if (quantized_.absorbed(dq)) plan_->placement[dq] = "onednn";
    if (q.quantize != kNone) plan_->placement[q.quantize] = "onednn";
    return true;
  }

  // The chain link of `anchor` that adds `other`.
  size_t sum_reader(size_t anchor, OperandId other) const {
    for (size_t link : fusion_.chain(anchor)) {
      const Operation& op = g_.operations[link];
      if (op.inputs.size() == 2 && (op.inputs[0] == other || op.inputs[1] == other)) return link;
    }
    return kNone;
  }

  // The destination of a fused primitive whose chain output is `id`. With a sum post-op the
  // destination must already hold `sum_operand`: its own bytes, overwritten in place when nothing
  // reads them afterwards, else a copy made just before the primitive runs.
  TensorId fused_destination(size_t anchor, OperandId id, const memory::desc& md, const std::vector<int>& axes,
                             const std::optional<OperandId>& sum_operand) {
    if (!sum_operand) return layout_.define(id, md, axes);
    const OperandId other = *sum_operand;
    const TensorId t = layout_.primary(other);
    const PlanTensor& x = plan_->tensors[t];
    // In place when the bytes are already in the destination's layout and may be overwritten.
    if (x.axes == axes && x.md == md && !layout_.is_graph_output(id) &&
        layout_.overwritable(t, anchor, sum_reader(anchor, other)))
      return layout_.alias(t, id);
    // `x` dangles once a tensor is added: decide from it first.
    const bool direct = x.axes == axes;
    const TensorId dst = layout_.define(id, md, axes);
    const TensorId src = direct ? t : layout_.plain(other);
    layout_.add_reorder(src, direct ? plan_->tensors[src].md : plain_view(g_.desc(other).shape, axes), dst);
    return dst;
  }

  // Binary post-ops fix src1's layout before the primitive chooses its destination's: a first
  // descriptor without post-ops tells which layout the destination takes.
  template <class PD, class MakeDesc>
  PD make_fused_pd(size_t anchor, const std::vector<int>& axes, memory::desc dst_md, MakeDesc&& make_desc,
                   PostOpArgs& post, bool two_d = false, const QuantizedAnchor* q = nullptr, int channel_mask = 0) {
    if (dst_md.data.format_kind == dnnl_format_kind_any) {
      PD probe(make_desc(dst_md), scratchpad_attr(), cpu_engine());
      dst_md = probe.dst_desc();
    }
    post = post_ops(anchor, dst_md, axes, two_d, q);
    dnnl::primitive_attr attr = scratchpad_attr();
    attr.set_post_ops(post.ops);
    if (q) set_int8_attr(attr, anchor, *q, channel_mask);
    return PD(make_desc(dst_md), attr, cpu_engine());
  }

  // A float32 3x3 convolution with stride 1, no dilation, no groups and channels in and out that
  // fill blocks of 16: oneDNN's Winograd kernels compute it with fewer multiplications (F(2x2, 3x3) or
  // F(4x4, 3x3)), 1.7x to 2.4x faster than its direct kernels on ResNet-50's layers here. They
  // take nChw16c tensors only, so a graph with such a convolution keeps all its convolutions in
  // nChw16c (as fast as NHWC for the others) rather than reorder around each Winograd one.
  bool winograd_candidate(size_t index) const {
    const Operation& op = g_.operations[index];
    if (op.kind != OpKind::kConv2d || !is_f32(g_.desc(op.inputs[0])) || !is_f32(g_.desc(op.outputs[0]))) return false;
    const auto& a = std::get<Conv2dAttrs>(op.attrs);
    const auto ones = [](const OptionalDims& d) {
      return !d || std::all_of(d->begin(), d->end(), [](uint32_t v) { return v == 1; });
    };
    if (a.groups != 1 || !ones(a.strides) || !ones(a.dilations)) return false;
    // Winograd weights are transformed once, at build: constant filters only.
    if (g_.operands[op.inputs[1]].kind != OperandKind::kConstant) return false;
    // Its transforms mix neighbouring elements: an infinity would make NaN of them.
    if (specials_[op.inputs[0]] || specials_[op.inputs[1]]) return false;
    const FilterView fv = filter_view(op, 1);
    const ImageDims in = image_dims(g_.desc(op.inputs[0]).shape, a.input_layout);
    const ImageDims out = image_dims(g_.desc(op.outputs[0]).shape, a.input_layout);
    // Whole blocks of 16 channels only: oneDNN 2.6's Winograd kernels crash or hang on padded
    // blocks (e.g. 64 -> 40 or 24 -> 40 channels; found by the sweep in onednn_backend_test).
    return fv.kernel[0] == 3 && fv.kernel[1] == 3 && in.channels % 16 == 0 && out.channels % 16 == 0;
  }

  // `q`: the int8 form (quantized.hpp): reads the 8-bit input and filter, writes the quantized
  // output when a quantizeLinear is folded in.
  bool lower_conv(size_t index, const QuantizedAnchor* q = nullptr) {
    const Operation& op = g_.operations[index];
    const bool transposed = op.kind == OpKind::kConvTranspose2d;
    // The options both convolutions share.
    OptionalDims padding, strides, dilations;
    uint32_t groups;
    InputLayout layout;
    std::optional<OperandRef> bias;
    std::visit(
        [&](const auto& a) {
          using A = std::decay_t<decltype(a)>;
          if constexpr (std::is_same_v<A, Conv2dAttrs> || std::is_same_v<A, ConvTranspose2dAttrs>) {
            padding = a.padding, strides = a.strides, dilations = a.dilations;
            groups = a.groups, layout = a.input_layout, bias = a.bias;
          }
        },
        op.attrs);
    const OperandId input = q ? q->src : op.inputs[0], filter = q ? q->weights : op.inputs[1];
    const OperandId output = op.outputs[0];
    const OperandId final_output = q && q->quantize != kNone ? q->quantized_output : fusion_.chain_output(index);
    const memory::data_type src_type = *onednn_type(g_.desc(input).data_type);
    const memory::data_type dst_type = *onednn_type(g_.desc(final_output).data_type);
    const memory::data_type weights_type = q ? memory::data_type::s8 : memory::data_type::f32;
    const std::vector<int> axes = image_axes(layout);
    const ImageDims in = image_dims(g_.desc(input).shape, layout);
    const ImageDims out = image_dims(g_.desc(output).shape, layout);
    const std::vector<uint32_t> pad = padding.value_or(std::vector<uint32_t>{0, 0, 0, 0});
    const std::vector<uint32_t> stride = strides.value_or(std::vector<uint32_t>{1, 1});
    const std::vector<uint32_t> dilation = dilations.value_or(std::vector<uint32_t>{1, 1});
    const FilterView fv = filter_view(op, groups);
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
    const bool graph_output = layout_.is_graph_output(final_output);
    const bool blocked = blocked_convs_ && !transposed && !graph_output && !q;
    const auto image_md = [](const ImageDims& d, bool block, memory::data_type type) {
      return memory::desc({d.batches, d.channels, d.height, d.width}, type,
                          block ? memory::format_tag::nChw16c : memory::format_tag::any);
    };
    const memory::desc src_any = image_md(in, blocked && in.channels >= 8, src_type);
    const memory::desc weights_any(fv.dims, weights_type, memory::format_tag::any);
    const memory::desc bias_md = bias ? plain_view(g_.desc(bias->id).shape) : memory::desc();
    // An int8 convolution writes its own layout even for a graph output (reordered into the
    // caller's buffer after): oneDNN 2.6's only int8 kernel from NHWC to NCHW is its reference one.
    const memory::desc dst_start =
        graph_output && !q ? layout_.plain_md(final_output, axes) : image_md(out, blocked, dst_type);
    auto algorithm = blocked && winograd_candidate(index) ? dnnl::algorithm::convolution_winograd
                                                          : dnnl::algorithm::convolution_direct;
    PostOpArgs post;
    auto run_conv = [&](const auto& pd, dnnl::primitive primitive) {
      std::vector<StepArg> args;
      args.push_back({DNNL_ARG_SRC, layout_.in_layout(input, pd.src_desc(), axes), pd.src_desc()});
      args.push_back({DNNL_ARG_WEIGHTS, weights(filter, fv, pd.weights_desc(), weights_type), pd.weights_desc()});
      if (bias && q) {
        // oneDNN 2.6 adds the bias to the int32 accumulator, before the output scale.
        std::vector<float> scaled(*q->bias);
        for (size_t c = 0; c < scaled.size(); ++c)
          scaled[c] /= q->src_scale * q->weight_scales[q->weight_scales.size() == 1 ? 0 : c];
        args.push_back({DNNL_ARG_BIAS, layout_.owned_f32(scaled), bias_md});
      } else if (bias) {
        args.push_back({DNNL_ARG_BIAS, layout_.plain(bias->id), bias_md});
      }
      for (StepArg& a : post.args) args.push_back(a);
      const TensorId dst = fused_destination(index, final_output, pd.dst_desc(), axes, post.sum_operand);
      args.push_back({DNNL_ARG_DST, dst, pd.dst_desc()});
      add_primitive(*plan_, pd, std::move(primitive), std::move(args));
    };
    if (transposed) {
      using PD = dnnl::deconvolution_forward::primitive_desc;
      auto make = [&](const memory::desc& dst) {
        return dnnl::deconvolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                 dnnl::algorithm::deconvolution_direct, src_any, weights_any, bias_md,
                                                 dst, s, d, pl, pr);
      };
      const PD pd = make_fused_pd<PD>(index, axes, dst_start, make, post, false, q, 1 << 1);
      run_conv(pd, dnnl::deconvolution_forward(pd));
    } else {
      using PD = dnnl::convolution_forward::primitive_desc;
      auto make = [&](const memory::desc& dst) {
        return dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, algorithm, src_any, weights_any,
                                               bias_md, dst, s, d, pl, pr);
      };
      const auto fused_pd = [&] { return make_fused_pd<PD>(index, axes, dst_start, make, post, false, q, 1 << 1); };
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

  // The filter as oneDNN's weights: logical dims (O, I, H, W), or (G, O/G, I/G, H, W) with groups,
  // and the strides of the filter's own layout over them.
  struct FilterView {
    Dims dims, strides;
    int64_t kernel[2];
  };
  FilterView filter_view(const Operation& op, uint32_t groups) const {
    const Shape& f = g_.desc(op.inputs[1]).shape;
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
  TensorId weights(OperandId filter, const FilterView& fv, const memory::desc& md,
                   memory::data_type type = memory::data_type::f32) {
    const TensorId src = layout_.plain(filter);
    const memory::desc src_md(fv.dims, type, fv.strides);
    PlanTensor t;
    t.desc = g_.desc(filter);
    t.md = md;
    t.plain = false;
    t.bytes = md.get_size();
    const bool constant = g_.operands[filter].kind == OperandKind::kConstant;
    if (constant) {
      t.home = Home::kOwned;
      t.index = layout_.add_owned(std::vector<std::byte>(t.bytes));
    }
    const TensorId dst = layout_.add_tensor(std::move(t));
    if (constant) {
      layout_.reorder_now(src, src_md, dst);
    } else {
      layout_.add_reorder(src, src_md, dst);
    }
    return dst;
  }

  // Whether matmul `index` and its fused chain can run as one 2-D matmul over all rows of A: the
  // output has batches, B has none of its own, and every binary operand of the chain either spans
  // all rows or broadcasts one row.
  bool runs_as_rows(size_t index) const {
    const Operation& op = g_.operations[index];
    const Shape& out = g_.desc(op.outputs[0]).shape;
    if (out.size() < 3) return false;
    const Shape b = pad_rank(g_.desc(op.inputs[1]).shape, out.size());
    if (!std::all_of(b.begin(), b.end() - 2, [](uint32_t d) { return d == 1; })) return false;
    const Shape lead(out.begin(), out.end() - 1);
    for (const PostOp& p : fusion_.post_ops(index)) {
      if (!p.binary) continue;
      const Shape other = pad_rank(g_.desc(p.other).shape, out.size());
      const bool all_rows = std::equal(lead.begin(), lead.end(), other.begin());
      const bool one_row = std::all_of(other.begin(), other.end() - 1, [](uint32_t d) { return d == 1; });
      if (!all_rows && !one_row) return false;
    }
    return true;
  }

  // `q`: the int8 form (quantized.hpp), as for lower_conv.
  bool lower_matmul(size_t index, const QuantizedAnchor* q = nullptr) {
    const Operation& op = g_.operations[index];
    if (!fusion_.anchor_supported(index)) return false;
    const OperandId a = q ? q->src : op.inputs[0], b = q ? q->weights : op.inputs[1];
    const OperandId final_output = q && q->quantize != kNone ? q->quantized_output : fusion_.chain_output(index);
    const memory::data_type a_type = *onednn_type(g_.desc(a).data_type), b_type = *onednn_type(g_.desc(b).data_type);
    const memory::data_type dst_type = *onednn_type(g_.desc(final_output).data_type);
    const Shape& out_shape = g_.desc(op.outputs[0]).shape;
    const size_t rank = out_shape.size();
    memory::desc a_md, b_view;
    if (op.kind == OpKind::kGemm) {
      const auto& attrs = std::get<GemmAttrs>(op.attrs);
      const Shape& as = g_.desc(a).shape;
      const Shape& bs = g_.desc(b).shape;
      a_md = attrs.a_transpose ? memory::desc({as[1], as[0]}, a_type, Dims{1, as[1]}) : plain_view(as, {}, a_type);
      b_view = attrs.b_transpose ? memory::desc({bs[1], bs[0]}, b_type, Dims{1, bs[1]}) : plain_view(bs, {}, b_type);
    } else {
      a_md = plain_view(pad_rank(g_.desc(a).shape, rank), {}, a_type);
      b_view = plain_view(pad_rank(g_.desc(b).shape, rank), {}, b_type);
    }
    const memory::desc dst_md = plain_view(out_shape, {}, dst_type);
    // Batches over one shared B are one 2-D matmul over all rows of A: oneDNN prepacks B only for
    // 2-D matmuls (1.4x faster on BERT's [1, 128, 768] x [768, 3072]). The tensors keep their
    // logical shapes; only the primitive sees the 2-D views of the same bytes.
    const bool two_d = op.kind == OpKind::kMatmul && runs_as_rows(index);
    memory::desc prim_dst = dst_md;
    if (two_d) {
      a_md = as_rows(g_.desc(a).shape, a_type);
      b_view = as_rows(g_.desc(b).shape, b_type);
      prim_dst = as_rows(out_shape, dst_type);
    }
    const bool b_constant = g_.operands[b].kind == OperandKind::kConstant;
    const memory::desc b_md = b_constant ? memory::desc(b_view.dims(), b_type, memory::format_tag::any) : b_view;
    auto make = [&](const memory::desc& dst) { return dnnl::matmul::desc(a_md, b_md, dst); };
    PostOpArgs post;
    const int channel_mask = 1 << (static_cast<int>(prim_dst.dims().size()) - 1);
    auto pd = make_fused_pd<dnnl::matmul::primitive_desc>(index, {}, prim_dst, make, post, two_d, q, channel_mask);
    std::vector<StepArg> args;
    args.push_back({DNNL_ARG_SRC, layout_.plain(a), a_md});
    if (b_constant) {
      // Reordered once into the layout the primitive prefers.
      PlanTensor t;
      t.scratch = true;
      t.desc = g_.desc(b);
      t.md = pd.weights_desc();
      t.plain = false;
      t.bytes = t.md.get_size();
      t.home = Home::kOwned;
      t.index = layout_.add_owned(std::vector<std::byte>(t.bytes));
      const TensorId w = layout_.add_tensor(std::move(t));
      layout_.reorder_now(layout_.plain(b), b_view, w);
      args.push_back({DNNL_ARG_WEIGHTS, w, pd.weights_desc()});
    } else {
      args.push_back({DNNL_ARG_WEIGHTS, layout_.plain(b), b_view});
    }
    for (StepArg& arg : post.args) args.push_back(arg);
    args.push_back({DNNL_ARG_DST, fused_destination(index, final_output, dst_md, {}, post.sum_operand), prim_dst});
    add_primitive(*plan_, pd, dnnl::matmul(pd), std::move(args));
    return true;
  }

  bool lower_pool(const Operation& op) {
    const auto& attrs = std::get<Pool2dAttrs>(op.attrs);
    const OperandId input = op.inputs[0], output = op.outputs[0];
    const std::vector<int> axes = image_axes(attrs.layout);
    const ImageDims in = image_dims(g_.desc(input).shape, attrs.layout);
    const ImageDims out = image_dims(g_.desc(output).shape, attrs.layout);
    const std::vector<uint32_t> window = attrs.window_dimensions.value_or(std::vector<uint32_t>{in.height, in.width});
    const std::vector<uint32_t> pad = attrs.padding.value_or(std::vector<uint32_t>{0, 0, 0, 0});
    const std::vector<uint32_t> stride = attrs.strides.value_or(std::vector<uint32_t>{1, 1});
    const std::vector<uint32_t> dilation = attrs.dilations.value_or(std::vector<uint32_t>{1, 1});
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
      if (specials_[input]) return false;
      plan_->needs_finite_inputs = true;
    }
    const dnnl::algorithm algorithm =
        op.kind == OpKind::kMaxPool2d ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding;
    const TensorId src = layout_.primary(input);
    const memory::desc src_md =
        plan_->tensors[src].axes == axes ? plan_->tensors[src].md : plain_view(g_.desc(input).shape, axes);
    const bool graph_output = layout_.is_graph_output(output);
    const memory::desc dst_md = graph_output ? plain_view(g_.desc(output).shape, axes)
                                             : memory::desc({out.batches, out.channels, out.height, out.width},
                                                            memory::data_type::f32, memory::format_tag::any);
    dnnl::pooling_v2_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src_md, dst_md,
                                        {stride[0], stride[1]}, {window[0], window[1]},
                                        {int64_t{dilation[0]} - 1, int64_t{dilation[1]} - 1}, pl, pr);
    dnnl::pooling_v2_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
    add_primitive(*plan_, pd, dnnl::pooling_v2_forward(pd),
                  {{DNNL_ARG_SRC, layout_.in_layout(input, pd.src_desc(), axes), pd.src_desc()},
                   {DNNL_ARG_DST, layout_.define(output, pd.dst_desc(), axes), pd.dst_desc()}});
    return true;
  }

  // add, sub, mul, div: the first operand gives the layout; the second is read in it, or plain
  // when it broadcasts.
  bool lower_binary(const Operation& op) {
    OperandId a = op.inputs[0], b = op.inputs[1];
    const Shape& out_shape = g_.desc(op.outputs[0]).shape;
    if (g_.desc(a).shape != out_shape) {
      if (op.kind != OpKind::kAdd && op.kind != OpKind::kMul) return false;
      std::swap(a, b);
      if (g_.desc(a).shape != out_shape) return false;
    }
    const TensorId ta = layout_.primary(a);
    const memory::desc a_md = plan_->tensors[ta].md;
    const std::vector<int> axes = plan_->tensors[ta].axes;
    TensorId tb;
    memory::desc b_md;
    if (g_.desc(b).shape == out_shape) {
      b_md = a_md;
      tb = layout_.in_layout(b, b_md, axes);
    } else {
      b_md = plain_view(pad_rank(g_.desc(b).shape, out_shape.size()), axes);
      tb = layout_.plain(b);
    }
    dnnl::binary::desc desc(*binary_algorithm(op.kind), a_md, b_md, a_md);
    dnnl::binary::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
    add_primitive(*plan_, pd, dnnl::binary(pd),
                  {{DNNL_ARG_SRC_0, ta, a_md},
                   {DNNL_ARG_SRC_1, tb, b_md},
                   {DNNL_ARG_DST, layout_.define(op.outputs[0], a_md, axes), a_md}});
    return true;
  }

  // Our own kernel (eltwise.hpp) over the input's bytes in its own layout, unless that layout
  // pads channel blocks (the padding must stay zero for the primitives reading it): then plain.
  // In place when nothing reads the input afterwards (and the output is not a graph output, which
  // is written straight into the caller's buffer instead).
  bool lower_own_eltwise(size_t index, const EltwiseOp& e) {
    const Operation& op = g_.operations[index];
    TensorId src = layout_.primary(op.inputs[0]);
    const PlanTensor& t = plan_->tensors[src];
    if (t.md.get_size() != static_cast<size_t>(*t.desc.byte_length())) src = layout_.plain(op.inputs[0]);
    const memory::desc md = plan_->tensors[src].md;
    const std::vector<int> axes = plan_->tensors[src].axes;
    const TensorId dst = !layout_.is_graph_output(op.outputs[0]) && layout_.overwritable(src, index, index)
                             ? layout_.alias(src, op.outputs[0])
                             : layout_.define(op.outputs[0], md, axes);
    const size_t n = md.get_size() / sizeof(float);
    Plan* plan = plan_.get();
    add_run(*plan_,
            [plan, e, src, dst, n] {
              run_eltwise(e, reinterpret_cast<const float*>(plan->ptr[src]), reinterpret_cast<float*>(plan->ptr[dst]),
                          n);
            },
            {src}, {dst});
    return true;
  }

  // A per-tensor quantizeLinear or dequantizeLinear on our own kernel (quantized.hpp), over the
  // input's bytes in the layout it has (plain when that layout pads channel blocks); the output
  // takes the same layout in its own type.
  void lower_own_quantization(size_t index, const QuantizeOp& q) {
    const Operation& op = g_.operations[index];
    TensorId src = layout_.primary(op.inputs[0]);
    const size_t n = static_cast<size_t>(*g_.desc(op.inputs[0]).element_count());
    if (plan_->tensors[src].md.get_size() != static_cast<size_t>(*g_.desc(op.inputs[0]).byte_length()))
      src = layout_.plain(op.inputs[0]);
    const TensorId dst =
        layout_.define(op.outputs[0], layout_.retyped(plan_->tensors[src].md, op.outputs[0]), plan_->tensors[src].axes);
    Plan* plan = plan_.get();
    add_run(*plan_, [plan, q, src, dst, n] { run_quantization(q, plan->ptr[src], plan->ptr[dst], n); }, {src}, {dst});
  }

  // A residual add of a QDQ network in one pass (quantized.hpp): over the first operand's bytes in
  // its layout (plain when that layout pads channel blocks), the second read in the same layout,
  // the output written in it.
  void lower_quantized_add(size_t index, const QuantizedAdd& add) {
    TensorId a = layout_.primary(add.a);
    const size_t n = static_cast<size_t>(*g_.desc(add.a).element_count());
    if (plan_->tensors[a].md.get_size() != n) a = layout_.plain(add.a);
    const std::vector<int> axes = plan_->tensors[a].axes;
    const memory::desc md = plan_->tensors[a].md;
    const TensorId b = layout_.in_layout(add.b, layout_.retyped(md, add.b), axes);
    const TensorId dst = layout_.define(add.output, layout_.retyped(md, add.output), axes);
    Plan* plan = plan_.get();
    add_run(*plan_,
            [plan, add, a, b, dst, n] { run_quantized_add(add, plan->ptr[a], plan->ptr[b], plan->ptr[dst], n); },
            {a, b}, {dst});
    plan_->placement[index] = "onednn";
    plan_->placement[add.quantize_op] = "onednn";
    for (size_t dq : add.dequantizes)
      if (quantized_.absorbed(dq)) plan_->placement[dq] = "onednn";
  }

  // Activations that oneDNN computes as one eltwise primitive, in the input's own layout; ours
  // where oneDNN's is inaccurate or changes NaN or infinities (eltwise.hpp).
  bool lower_eltwise(size_t index) {
    const Operation& op = g_.operations[index];
    if (const std::optional<EltwiseOp> e = own_eltwise(g_, op)) return lower_own_eltwise(index, *e);
    const std::vector<PostOp> chain = eltwise_chain(op);
    if (chain.size() != 1 || op.inputs.size() != 1) return false;
    const TensorId src = layout_.primary(op.inputs[0]);
    const memory::desc md = plan_->tensors[src].md;
    dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, chain[0].algorithm, md, chain[0].alpha,
                                     chain[0].beta);
    dnnl::eltwise_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
    add_primitive(
        *plan_, pd, dnnl::eltwise_forward(pd),
        {{DNNL_ARG_SRC, src, md}, {DNNL_ARG_DST, layout_.define(op.outputs[0], md, plan_->tensors[src].axes), md}});
    return true;
  }

  bool lower_softmax(const Operation& op) {
    const OperandId input = op.inputs[0];
    // oneDNN's softmax gives 0 beside a NaN where the reference gives a row of NaN: the reference
    // kernel runs it wherever a NaN can reach it.
    if (specials_[input]) return false;
    plan_->needs_finite_inputs = true;
    const memory::desc md = plain_view(g_.desc(input).shape);
    const int axis = static_cast<int>(std::get<SoftmaxAttrs>(op.attrs).axis);
    dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, md, axis);
    dnnl::softmax_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
    add_primitive(*plan_, pd, dnnl::softmax_forward(pd),
                  {{DNNL_ARG_SRC, layout_.plain(input), md}, {DNNL_ARG_DST, layout_.define(op.outputs[0], md), md}});
    return true;
  }

  // oneDNN normalises over the last dimension: trailing contiguous axes fold into one.
  bool lower_layer_normalization(const Operation& op) {
    const auto& attrs = std::get<LayerNormalizationAttrs>(op.attrs);
    const OperandId input = op.inputs[0];
    const Shape& shape = g_.desc(input).shape;
    std::vector<uint32_t> axes;
    if (attrs.axes) {
      axes = *attrs.axes;
    } else {
      for (uint32_t i = 1; i < shape.size(); ++i) axes.push_back(i);
    }
    if (axes.empty()) return false;
    for (size_t i = 0; i < axes.size(); ++i)
      if (axes[i] != shape.size() - axes.size() + i) return false;
    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < shape.size(); ++i) (i < shape.size() - axes.size() ? outer : inner) *= shape[i];
    const memory::desc md({outer, inner}, memory::data_type::f32, Dims{inner, 1});
    const memory::desc param_md({inner}, memory::data_type::f32, Dims{1});
    auto flags = dnnl::normalization_flags::none;
    if (attrs.scale) flags |= dnnl::normalization_flags::use_scale;
    if (attrs.bias) flags |= dnnl::normalization_flags::use_shift;
    dnnl::layer_normalization_forward::desc desc(dnnl::prop_kind::forward_inference, md,
                                                 static_cast<float>(attrs.epsilon), flags);
    dnnl::layer_normalization_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
    std::vector<StepArg> args = {{DNNL_ARG_SRC, layout_.plain(input), md}};
    if (attrs.scale) args.push_back({DNNL_ARG_SCALE, layout_.plain(attrs.scale->id), param_md});
    if (attrs.bias) args.push_back({DNNL_ARG_SHIFT, layout_.plain(attrs.bias->id), param_md});
    // Mean and variance are computed into scratch tensors of their own.
    for (int arg : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE}) {
      PlanTensor stats;
      stats.scratch = true;
      stats.desc = {DataType::kFloat32, {static_cast<uint32_t>(outer)}};
      stats.md = pd.mean_desc();
      stats.bytes = stats.md.get_size();
      args.push_back({arg, layout_.add_tensor(std::move(stats)), pd.mean_desc()});
    }
    args.push_back({DNNL_ARG_DST, layout_.define(op.outputs[0], plain_view(shape)), md});
    add_primitive(*plan_, pd, dnnl::layer_normalization_forward(pd), std::move(args));
    return true;
  }

  // A cast between float16 and float32 (float16.hpp): one vectorised pass over the plain bytes,
  // split over the plan's threads (oneDNN's own float16 reorders are scalar on this processor).
  void lower_float16_conversion(const Operation& op) {
    const OperandId input = op.inputs[0], output = op.outputs[0];
    const OperandDescriptor& out = g_.desc(output);
    const TensorId src = layout_.plain(input);
    const TensorId dst = layout_.define(output, is_f32(out) ? plain_view(out.shape) : memory::desc());
    Plan* plan = plan_.get();
    const auto count = static_cast<size_t>(*out.element_count());
    const bool to_float16 = !is_f32(out);
    add_run(*plan_,
            [plan, src, dst, count, to_float16] {
              convert_float16_parallel(plan->ptr[src], plan->ptr[dst], count, to_float16);
            },
            {src}, {dst});
  }

  // A reorder from a strided view of the input to the plain output.
  bool lower_transpose(const Operation& op) {
    const OperandId input = op.inputs[0], output = op.outputs[0];
    const Shape& in_shape = g_.desc(input).shape;
    if (in_shape.empty()) return false;
    std::vector<uint32_t> permutation =
        std::get<TransposeAttrs>(op.attrs).permutation.value_or(std::vector<uint32_t>{});
    if (!std::get<TransposeAttrs>(op.attrs).permutation)
      for (size_t i = in_shape.size(); i-- > 0;) permutation.push_back(static_cast<uint32_t>(i));
    const std::vector<int> axes(permutation.begin(), permutation.end());
    const memory::desc src_md = plain_view(in_shape, axes);
    const memory::desc dst_md = plain_view(g_.desc(output).shape);
    dnnl::reorder::primitive_desc pd(cpu_engine(), src_md, cpu_engine(), dst_md, scratchpad_attr());
    add_primitive(
        *plan_, pd, dnnl::reorder(pd),
        {{DNNL_ARG_FROM, layout_.plain(input), src_md}, {DNNL_ARG_TO, layout_.define(output, dst_md), dst_md}});
    return true;
  }

  const Graph& g_;
  std::unique_ptr<Plan> plan_;
  std::vector<bool> specials_;  // by OperandId: may hold a NaN or an infinity (may_hold_specials)
  Fusion fusion_;
  QuantizedFusion quantized_;
  LayoutPlanner layout_;
  bool blocked_convs_ = false;  // convolutions in nChw16c (the graph has Winograd ones)
};

}  // namespace

// A graph whose every operand is small and whose operands hold few elements in all runs on one
// thread: its work takes microseconds, less than waking the other threads (OpenMP's passive
// wait, as `webnn serve` runs, costs tens of microseconds per parallel region).
bool runs_on_one_thread(const Graph& g) {
  constexpr uint64_t kLargestOperand = 4096, kAllOperands = 32768;
  uint64_t all = 0;
  for (const Operand& operand : g.operands) {
    const uint64_t n = operand.desc.element_count().value_or(UINT64_MAX);
    if (n >= kLargestOperand) return false;
    all += n;
  }
  return all < kAllOperands;
}

std::unique_ptr<Plan> compile_plan(std::shared_ptr<const Graph> graph, const CompileOptions& given,
                                   bool finite_inputs) {
  CompileOptions options = given;
  options.num_threads = runs_on_one_thread(*graph) ? 1
                        : given.num_threads > 0    ? given.num_threads
                                                   : omp_get_num_procs();
  // oneDNN sizes its work decomposition by the thread count at creation: create with the count
  // the plan runs with, and leave the caller's OpenMP setting as it was.
  const OmpThreads threads(options.num_threads);
  // float16 operations compute in float32 (float16.hpp): the plan runs the widened graph, and
  // reports placement by the caller's operations.
  const size_t operations = graph->operations.size();
  const Float16Widening widened = widen_float16(std::move(graph));
  std::unique_ptr<Plan> plan = Compiler(widened.graph, options, finite_inputs).compile();
  plan->placement = widened.original_placement(plan->placement, operations);
  return plan;
}

}  // namespace webnn::onednn
