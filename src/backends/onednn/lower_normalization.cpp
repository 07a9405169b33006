// Normalizations along axes: softmax and layerNormalization over trailing axes, as oneDNN
// primitives on plain tensors; batchNormalization in its input's layout.
#include "backends/onednn/eltwise.hpp"
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

using dnnl::memory;

bool lower_softmax(LowerContext& cx, size_t index) {
  LayoutPlanner& layout = cx.layout;
  const Operation& op = cx.graph.operations[index];
  const OperandId input = op.inputs[0];
  // oneDNN's softmax gives 0 beside a NaN or a +Infinity where the reference gives a row of NaN:
  // the reference kernel runs it wherever one can reach it. -Infinity (an attention mask) it
  // computes as the reference does: exp(-Infinity) = 0, and a row of -Infinity only gives NaN.
  if (cx.specials[input] & (kNaN | kPlusInfinity)) return false;
  const memory::desc md = plain_view(cx.graph.desc(input).shape);
  const int axis = static_cast<int>(std::get<SoftmaxAttrs>(op.attrs).axis);
  dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, md, axis);
  dnnl::softmax_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
  const TensorId out = layout.define(op.outputs[0], md);
  add_primitive(cx.plan, pd, dnnl::softmax_forward(pd),
                {{DNNL_ARG_SRC, layout.plain(input), md}, {DNNL_ARG_DST, out, md}});
  if (cx.plan.assumes_finite_inputs) {
    // A NaN in the output says a NaN or an infinity came in after all (oneDNN leaves NaN where
    // it was and 0 beside it) or a row was -Infinity whole: the executable reruns the dispatch on
    // the plan for any inputs. Checking here rather than scanning the graph's inputs costs one
    // pass over the softmax's output instead of one over every input (a decoder's whole cache).
    Plan& plan = cx.plan;
    const OperandDescriptor& desc = cx.graph.desc(op.outputs[0]);
    const size_t count = static_cast<size_t>(*desc.byte_length()) / element_size(desc.data_type);
    add_run(
        plan,
        [&plan, out, count, type = desc.data_type] {
          if (has_nan_or_inf(plan.ptr[out], count, type)) plan.guard_failed = true;
        },
        {out}, {}, "softmax / check for NaN");
  }
  return true;
}

// batchNormalization with the given mean and variance (inference): oneDNN's batch_normalization
// with global statistics, in the input's own layout (a convolution's blocked one included), its
// channel axis seen as oneDNN's dimension 1. DenseNet's normalizations come before their
// convolutions, where no export can fold them: on the reference kernel they took 15 of its 50 ms.
bool lower_batch_normalization(LowerContext& cx, size_t index) {
  LayoutPlanner& layout = cx.layout;
  const Graph& g = cx.graph;
  const Operation& op = g.operations[index];
  const auto& attrs = std::get<BatchNormalizationAttrs>(op.attrs);
  const OperandId input = op.inputs[0], output = op.outputs[0];
  const Shape& shape = g.desc(input).shape;
  if (shape.size() < 2 || shape.size() > 5) return false;
  for (uint32_t d : shape)
    if (d == 0) return false;
  // oneDNN's N, C, spatial...: the first other axis, the channel axis, the rest in order.
  std::vector<int> axes;
  for (int k = 0; k < static_cast<int>(shape.size()); ++k)
    if (k != static_cast<int>(attrs.axis)) axes.push_back(k);
  axes.insert(axes.begin() + 1, static_cast<int>(attrs.axis));
  axes = canonical_axes(std::move(axes));
  const memory::desc src_md = layout.primary_md(input, axes);
  auto flags = dnnl::normalization_flags::use_global_stats;
  if (attrs.scale) flags |= dnnl::normalization_flags::use_scale;
  if (attrs.bias) flags |= dnnl::normalization_flags::use_shift;
  dnnl::batch_normalization_forward::desc desc(dnnl::prop_kind::forward_inference, src_md,
                                               static_cast<float>(attrs.epsilon), flags);
  dnnl::batch_normalization_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
  const memory::desc param_md = pd.mean_desc();
  std::vector<StepArg> args = {{DNNL_ARG_SRC, layout.in_layout(input, pd.src_desc(), axes), pd.src_desc()},
                               {DNNL_ARG_MEAN, layout.plain(op.inputs[1]), param_md},
                               {DNNL_ARG_VARIANCE, layout.plain(op.inputs[2]), param_md}};
  if (attrs.scale) args.push_back({DNNL_ARG_SCALE, layout.plain(attrs.scale->id), param_md});
  if (attrs.bias) args.push_back({DNNL_ARG_SHIFT, layout.plain(attrs.bias->id), param_md});
  args.push_back({DNNL_ARG_DST, layout.define(output, pd.dst_desc(), axes), pd.dst_desc()});
  add_primitive(cx.plan, pd, dnnl::batch_normalization_forward(pd), std::move(args));
  return true;
}

// oneDNN normalises over the last dimension: trailing contiguous axes fold into one.
bool lower_layer_normalization(LowerContext& cx, size_t index) {
  LayoutPlanner& layout = cx.layout;
  const Operation& op = cx.graph.operations[index];
  const auto& attrs = std::get<LayerNormalizationAttrs>(op.attrs);
  const OperandId input = op.inputs[0];
  const Shape& shape = cx.graph.desc(input).shape;
  const std::vector<uint32_t>& axes = *attrs.axes;
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
  std::vector<StepArg> args = {{DNNL_ARG_SRC, layout.plain(input), md}};
  if (attrs.scale) args.push_back({DNNL_ARG_SCALE, layout.plain(attrs.scale->id), param_md});
  if (attrs.bias) args.push_back({DNNL_ARG_SHIFT, layout.plain(attrs.bias->id), param_md});
  // Mean and variance are computed into scratch tensors of their own.
  for (int arg : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE}) {
    PlanTensor stats;
    stats.scratch = true;
    stats.desc = {DataType::kFloat32, {static_cast<uint32_t>(outer)}};
    stats.md = pd.mean_desc();
    stats.bytes = stats.md.get_size();
    args.push_back({arg, layout.add_tensor(std::move(stats)), pd.mean_desc()});
  }
  args.push_back({DNNL_ARG_DST, layout.define(op.outputs[0], plain_view(shape)), md});
  add_primitive(cx.plan, pd, dnnl::layer_normalization_forward(pd), std::move(args));
  return true;
}

}  // namespace webnn::onednn
