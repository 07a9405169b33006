#include "backends/onednn/steps.hpp"

#include <algorithm>

namespace webnn::onednn {

dnnl::primitive_attr scratchpad_attr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

void add_primitive(Plan& plan, const dnnl::primitive_desc_base& pd, dnnl::primitive primitive,
                   std::vector<StepArg> args, std::string_view label) {
  Step step;
  step.label = label.empty() ? plan.label : std::string(label);
  step.primitive = std::move(primitive);
  step.args = std::move(args);
  step.scratchpad_md = pd.scratchpad_desc();
  plan.scratchpad_bytes = std::max(plan.scratchpad_bytes, step.scratchpad_md.get_size());
  plan.steps.push_back(std::move(step));
}

void add_run(Plan& plan, std::function<void()> run, std::vector<TensorId> reads, std::vector<TensorId> writes,
             std::string_view label) {
  Step step;
  step.label = label.empty() ? plan.label : std::string(label);
  step.run = std::move(run);
  step.reads = std::move(reads);
  step.writes = std::move(writes);
  plan.steps.push_back(std::move(step));
}

}  // namespace webnn::onednn
