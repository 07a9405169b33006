// The last candidate of every operation: its reference kernel (backends/reference), run inside the
// plan on plain row-major tensors.
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/steps.hpp"
#include "backends/reference/kernels.hpp"

namespace webnn::onednn {

void lower_reference(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  LayoutPlanner& layout = cx.layout;
  const Operation& op = g.operations[index];
  std::vector<TensorId> reads, writes;
  for_each_input(op, [&](OperandId id) { reads.push_back(layout.plain(id)); });
  reference::Kernel kernel = reference::make_kernel(g, op);  // throws NotSupportedError
  for (OperandId id : op.outputs) {
    writes.push_back(layout.define(id, has_md(g.desc(id)) ? layout.plain_md(id) : dnnl::memory::desc()));
    cx.plan.plain_of[id] = writes.back();
  }
  Plan* plan = &cx.plan;
  add_run(
      cx.plan, [plan, kernel = std::move(kernel)] { kernel(plan->values); }, std::move(reads), std::move(writes));
  cx.plan.placement[index] = "reference";
}

}  // namespace webnn::onednn
