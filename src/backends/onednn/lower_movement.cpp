// Operations that move or convert values without arithmetic: reshape (a view of the same bytes),
// transpose (a reorder from a strided view) and casts between float16 and float32 (one vectorised
// pass of our own, float16.hpp).
#include <cstdint>
#include <vector>

#include "backends/onednn/float16.hpp"
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

using dnnl::memory;

bool lower_reshape(LowerContext& cx, size_t index) {
  const Operation& op = cx.graph.operations[index];
  cx.layout.view(cx.layout.plain(op.inputs[0]), op.outputs[0]);
  return true;
}

bool lower_transpose(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  const Operation& op = g.operations[index];
  const OperandId input = op.inputs[0], output = op.outputs[0];
  const Shape& in_shape = g.desc(input).shape;
  if (in_shape.empty()) return false;
  const std::vector<uint32_t>& permutation = *std::get<TransposeAttrs>(op.attrs).permutation;
  const std::vector<int> axes(permutation.begin(), permutation.end());
  const memory::desc src_md = plain_view(in_shape, axes);
  const memory::desc dst_md = plain_view(g.desc(output).shape);
  dnnl::reorder::primitive_desc pd(cpu_engine(), src_md, cpu_engine(), dst_md, scratchpad_attr());
  add_primitive(
      cx.plan, pd, dnnl::reorder(pd),
      {{DNNL_ARG_FROM, cx.layout.plain(input), src_md}, {DNNL_ARG_TO, cx.layout.define(output, dst_md), dst_md}});
  return true;
}

// Over the plain bytes, split over the plan's threads (oneDNN's own float16 reorders are scalar on
// this processor).
bool lower_float16_conversion(LowerContext& cx, size_t index) {
  const Operation& op = cx.graph.operations[index];
  if (!is_float16_conversion(cx.graph, op)) return false;
  const OperandId input = op.inputs[0], output = op.outputs[0];
  const OperandDescriptor& out = cx.graph.desc(output);
  const TensorId src = cx.layout.plain(input);
  const TensorId dst = cx.layout.define(output, is_f32(out) ? plain_view(out.shape) : memory::desc());
  Plan* plan = &cx.plan;
  const auto count = static_cast<size_t>(*out.element_count());
  const bool to_float16 = !is_f32(out);
  add_run(cx.plan,
          [plan, src, dst, count, to_float16] {
            convert_float16_parallel(plan->ptr[src], plan->ptr[dst], count, to_float16);
          },
          {src}, {dst});
  return true;
}

}  // namespace webnn::onednn
