// resample2d of a rank-4 float32 tensor as oneDNN's resampling primitive. oneDNN maps output
// coordinate o to (o + 0.5) * in / out - 0.5, clamped to the input, which is the spec's half-pixel
// mapping with scale = outputSize / inputSize (as the reference kernel reads it, also when the
// size came from `scales`). Its linear mode weighs the neighbours in float32 where the reference
// does in float64 (a few ULP apart) and multiplies a zero weight by an infinity, so it runs only
// where no NaN or infinity can reach it. Its nearest mode rounds halves away from zero where the
// spec's ceil(coordinate - 0.5) takes the lower index, so it runs only where no coordinate is a
// half: integer upsampling, and downsampling by an odd integer. Its jit kernel faults on a
// destination that is not 64-byte aligned (a 3.2 MB output into a malloc'd buffer, 16 bytes past
// a 64-byte boundary), so it never writes the caller's buffer: a graph output is copied there.
#include <cstdint>
#include <vector>

#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

using dnnl::memory;

namespace {

bool nearest_has_no_halves(int64_t in, int64_t out) { return out % in == 0 || (in % out == 0 && (in / out) % 2 == 1); }

}  // namespace

bool lower_resample(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  LayoutPlanner& layout = cx.layout;
  const Operation& op = g.operations[index];
  const auto& attrs = std::get<Resample2dAttrs>(op.attrs);
  const OperandId input = op.inputs[0], output = op.outputs[0];
  const Shape& in = g.desc(input).shape;
  const Shape& out = g.desc(output).shape;
  if (in.size() != 4) return false;
  const std::vector<uint32_t>& spatial = *attrs.axes;
  // oneDNN's N, C, H, W: the two other axes in order, then the resampled ones in the options' order.
  std::vector<int> axes;
  for (int k = 0; k < 4; ++k)
    if (k != static_cast<int>(spatial[0]) && k != static_cast<int>(spatial[1])) axes.push_back(k);
  axes.push_back(static_cast<int>(spatial[0]));
  axes.push_back(static_cast<int>(spatial[1]));
  axes = canonical_axes(std::move(axes));
  for (uint32_t axis : spatial)
    if (in[axis] == 0 || out[axis] == 0) return false;
  dnnl::algorithm algorithm = dnnl::algorithm::resampling_linear;
  if (attrs.mode == InterpolationMode::kNearestNeighbor) {
    for (uint32_t axis : spatial)
      if (!nearest_has_no_halves(in[axis], out[axis])) return false;
    algorithm = dnnl::algorithm::resampling_nearest;
  } else {
    if (cx.specials[input]) return false;
    cx.plan.needs_finite_inputs = true;
  }
  const memory::desc src_md = layout.primary_md(input, axes);
  const memory::desc view = plain_view(out, axes);
  const memory::desc dst_md = layout.is_graph_output(output)
                                  ? view
                                  : memory::desc(view.dims(), memory::data_type::f32, memory::format_tag::any);
  constexpr bool kAligned = true;
  dnnl::resampling_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src_md, dst_md);
  dnnl::resampling_forward::primitive_desc pd(desc, scratchpad_attr(), cpu_engine());
  add_primitive(cx.plan, pd, dnnl::resampling_forward(pd),
                {{DNNL_ARG_SRC, layout.in_layout(input, pd.src_desc(), axes), pd.src_desc()},
                 {DNNL_ARG_DST, layout.define(output, pd.dst_desc(), axes, kAligned), pd.dst_desc()}});
  return true;
}

}  // namespace webnn::onednn
