// Reduction operators (reduceL1 ... reduceSumSquare), argMin/argMax and cumulativeSum: validation
// and output shapes.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// spec: #mlgraphbuilder-calculate-reduction-output-sizes
Shape reduction_output_shape(const std::string& who, const Shape& input, DefaultedDims& axes_option,
                             bool keep_dimensions) {
  const std::vector<uint32_t>& axes =
      resolve_axes(who + ": axes", axes_option, axes_from(0, input.size()), input.size());
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

// spec: #mlgraphbuilder-create-reduction-operation. The per-op allowedDataTypes lists of the
// spec's method steps are the input rows of the tensor-limits tables (reduceMax/reduceMin pass
// none: any type). A scalar input is valid with absent or empty axes and gives a scalar.
OperandDescriptor infer_reduce(const Graph& graph, Operation& op) {
  expect_input_count(op, 1);
  auto& attrs = std::get<ReduceAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  return {input.data_type, reduction_output_shape(op_prefix(op), input.shape, attrs.axes, attrs.keep_dimensions)};
}

// The largest value of an integer index data type (argMin/argMax outputDataType).
uint64_t index_type_max(DataType type) {
  switch (type) {
    case DataType::kInt32:
      return static_cast<uint64_t>(std::numeric_limits<int32_t>::max());
    case DataType::kInt64:
      return static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    default:
      return 0;
  }
}

// spec: #api-mlgraphbuilder-argminmax ("create an argMin/argMax operation")
OperandDescriptor infer_arg_min_max(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const auto& attrs = std::get<ArgMinMaxAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  type_error_if(attrs.axis >= input.rank(), who + ": axis " + std::to_string(attrs.axis) +
                                                " must be less than the input rank " + std::to_string(input.rank()));
  type_error_if(!resolved_types(op.kind, "output").contains(attrs.output_data_type),
                who + ": outputDataType " + std::string(to_string(attrs.output_data_type)) +
                    " is not one of the allowed data types (" + resolved_types(op.kind, "output").to_string() + ")");
  // The indices run to shape[axis] - 1, but the spec bounds shape[axis] itself.
  type_error_if(input.shape[attrs.axis] > index_type_max(attrs.output_data_type),
                who + ": input dimension " + std::to_string(input.shape[attrs.axis]) + " of axis " +
                    std::to_string(attrs.axis) + " does not fit outputDataType " +
                    std::string(to_string(attrs.output_data_type)));
  DefaultedDims axes = std::vector<uint32_t>{attrs.axis};
  return {attrs.output_data_type, reduction_output_shape(who, input.shape, axes, attrs.keep_dimensions)};
}

// spec: #api-mlgraphbuilder-cumulativesum
OperandDescriptor infer_cumulative_sum(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const auto& attrs = std::get<CumulativeSumAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  type_error_if(attrs.axis >= input.rank(), op_prefix(op) + ": axis " + std::to_string(attrs.axis) +
                                                " must be less than the input rank " + std::to_string(input.rank()));
  return input;
}

}  // namespace

std::vector<OperandDescriptor> infer_reduction(const Graph& graph, Operation& op) {
  if (shape_rule(op.kind) == ShapeRule::kReduce) return {infer_reduce(graph, op)};
  switch (op.kind) {
    case OpKind::kArgMax:
    case OpKind::kArgMin:
      return {infer_arg_min_max(graph, op)};
    case OpKind::kCumulativeSum:
      return {infer_cumulative_sum(graph, op)};
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a reduction operator");
}

}  // namespace webnn::ops
