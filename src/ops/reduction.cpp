// Reduction operators: validation and output shape.
#include <algorithm>

#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// spec: #mlgraphbuilder-calculate-reduction-output-sizes
Shape reduction_output_shape(const std::string& who, const Shape& input, const OptionalDims& axes_option,
                             bool keep_dimensions) {
  std::vector<uint32_t> axes;
  if (axes_option) {
    axes = *axes_option;
    check_axes(who + ": axes", axes, input.size());
  } else {
    for (uint32_t i = 0; i < input.size(); ++i) axes.push_back(i);
  }
  Shape out;
  for (uint32_t i = 0; i < input.size(); ++i) {
    const bool reduced = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!reduced)
      out.push_back(input[i]);
    else if (keep_dimensions)
      out.push_back(1);
  }
  return out;
}

// spec: #mlgraphbuilder-create-reduction-operation
OperandDescriptor infer_reduce(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const auto& attrs = std::get<ReduceAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  return {input.data_type, reduction_output_shape(op_prefix(op), input.shape, attrs.axes, attrs.keep_dimensions)};
}

}  // namespace

std::vector<OperandDescriptor> infer_reduction(const Graph& graph, const Operation& op) {
  if (op.kind == OpKind::kReduceMean) return {infer_reduce(graph, op)};
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a reduction operator");
}

}  // namespace webnn::ops
