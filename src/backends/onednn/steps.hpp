// Appending steps to a plan: a oneDNN primitive with its arguments (and the scratchpad it asks
// for), or a function of ours (a reference kernel, a kernel of our own, a copy) with the tensors it
// reads and writes.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <functional>
#include <string_view>
#include <vector>

#include "backends/onednn/plan.hpp"

namespace webnn::onednn {

// Every primitive of a plan uses the plan's one scratchpad (Plan::scratchpad_bytes).
dnnl::primitive_attr scratchpad_attr();

// Each step is labelled `label`, or the plan's current label (Plan::label) when it is empty.
void add_primitive(Plan& plan, const dnnl::primitive_desc_base& pd, dnnl::primitive primitive,
                   std::vector<StepArg> args, std::string_view label = {});
void add_run(Plan& plan, std::function<void()> run, std::vector<TensorId> reads, std::vector<TensorId> writes,
             std::string_view label = {});

}  // namespace webnn::onednn
