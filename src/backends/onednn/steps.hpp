// Appending steps to a plan: a oneDNN primitive with its arguments (and the scratchpad it asks
// for), or a function of ours (a reference kernel, a kernel of our own, a copy) with the tensors it
// reads and writes.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <functional>
#include <vector>

#include "backends/onednn/plan.hpp"

namespace webnn::onednn {

// Every primitive of a plan uses the plan's one scratchpad (Plan::scratchpad_bytes).
dnnl::primitive_attr scratchpad_attr();

void add_primitive(Plan& plan, const dnnl::primitive_desc_base& pd, dnnl::primitive primitive,
                   std::vector<StepArg> args);
void add_run(Plan& plan, std::function<void()> run, std::vector<TensorId> reads, std::vector<TensorId> writes);

}  // namespace webnn::onednn
