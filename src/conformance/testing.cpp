// include/webnn/testing.hpp: the test entry points, over the runtime's hook and the one comparator
// of conformance results (tolerance.hpp).
#include "webnn/testing.hpp"

#include <filesystem>

#include "conformance/tolerance.hpp"
#include "conformance/wpt.hpp"
#include "runtime/handles.hpp"
#include "runtime/test_hooks.hpp"

namespace webnn {

void set_compute_hook_for_testing(const MLContext& context, std::function<void()> hook) {
  detail::set_before_compute_hook(context, std::move(hook));
}

std::optional<std::string> compare_with_wpt_tolerance(const Model& model, const std::string& name,
                                                      std::span<const std::byte> expected,
                                                      std::span<const std::byte> actual) {
  type_error_if(!model, "compare: the model is an empty handle");
  const Graph& graph = *detail::impl_of(model);
  const NamedOperand* output = nullptr;
  for (const NamedOperand& o : graph.outputs)
    if (o.name == name) output = &o;
  type_error_if(!output, "compare: " + quote(name) + " is not an output of the graph");
  const OperandDescriptor& desc = graph.desc(output->operand);
  const uint64_t n = desc.byte_length().value_or(0);
  type_error_if(expected.size() != n || actual.size() != n, "compare: " + quote(name) + " is " + desc.to_string() +
                                                                " (" + std::to_string(n) + " bytes); expected holds " +
                                                                std::to_string(expected.size()) + " and actual " +
                                                                std::to_string(actual.size()));
  const Operation* producer = nullptr;
  for (const Operation& op : graph.operations)
    for (OperandId id : op.outputs)
      if (id == output->operand) producer = &op;
  const conformance::Tolerance tolerance =
      producer ? conformance::tolerance_for(graph, *producer, desc.data_type) : conformance::Tolerance{};
  auto mismatch = conformance::compare(desc.data_type, expected, actual, tolerance);
  if (!mismatch) return std::nullopt;
  return name + "[" + std::to_string(mismatch->index) + "] = " + std::to_string(mismatch->actual) + ", expected " +
         std::to_string(mismatch->expected) + " (distance " + std::to_string(mismatch->distance) + ", tolerance " +
         tolerance.to_string() + ")";
}

std::vector<ConformanceResult> run_conformance(const std::string& path, const MLContextOptions& context,
                                               const std::string& filter) {
  const conformance::RunOptions options{context, filter};
  return std::filesystem::is_directory(path) ? conformance::run_directory(path, options)
                                             : conformance::run_file(path, options);
}

}  // namespace webnn
