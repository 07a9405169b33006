// quantizeLinear and dequantizeLinear: validation and output shapes.
#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// spec: #blockwise-broadcast-the-shapes — same rank, and every dimension of `from` divides the
// matching dimension of `to` exactly (each element of `from` covers a block of `to`).
bool blockwise_broadcastable(const Shape& from, const Shape& to) {
  if (from.size() != to.size()) return false;
  for (size_t i = 0; i < to.size(); ++i)
    if (from[i] == 0 || to[i] % from[i] != 0) return false;
  return true;
}

// The steps both methods share once the data types are checked: scale and zeroPoint have the
// input's rank, equal shapes, and blockwise broadcast to the input.
void check_scale_and_zero_point(const std::string& who, const OperandDescriptor& input, const OperandDescriptor& scale,
                                const OperandDescriptor& zero_point) {
  type_error_if(scale.shape != zero_point.shape, who + ": scale shape " + shape_to_string(scale.shape) +
                                                     " must equal zeroPoint shape " +
                                                     shape_to_string(zero_point.shape));
  type_error_if(!blockwise_broadcastable(scale.shape, input.shape),
                who + ": scale shape " + shape_to_string(scale.shape) +
                    " must be blockwise broadcastable to the input shape " + shape_to_string(input.shape) +
                    " (each dimension must divide the input's)");
}

// spec: #api-mlgraphbuilder-quantizelinear
OperandDescriptor infer_quantize_linear(const Graph& graph, const Operation& op) {
  expect_input_count(op, 3);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& scale = input_desc(graph, op, 1);
  const OperandDescriptor& zero_point = input_desc(graph, op, 2);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "scale", scale, &input);
  check_tensor_limit(op.kind, "zeroPoint", zero_point, &input);
  check_scale_and_zero_point(op_prefix(op), input, scale, zero_point);
  return {zero_point.data_type, input.shape};
}

// spec: #api-mlgraphbuilder-dequantizelinear
OperandDescriptor infer_dequantize_linear(const Graph& graph, const Operation& op) {
  expect_input_count(op, 3);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& scale = input_desc(graph, op, 1);
  const OperandDescriptor& zero_point = input_desc(graph, op, 2);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "scale", scale, &input);
  check_tensor_limit(op.kind, "zeroPoint", zero_point, &input);
  check_scale_and_zero_point(op_prefix(op), input, scale, zero_point);
  return {scale.data_type, input.shape};
}

}  // namespace

std::vector<OperandDescriptor> infer_quantization(const Graph& graph, Operation& op) {
  switch (op.kind) {
    case OpKind::kQuantizeLinear:
      return {infer_quantize_linear(graph, op)};
    case OpKind::kDequantizeLinear:
      return {infer_dequantize_linear(graph, op)};
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a quantization operator");
}

}  // namespace webnn::ops
