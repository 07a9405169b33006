// Comparison, logical and selection operators: validation and output shapes.
#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

Shape broadcast_or_throw(const Operation& op, const char* what_a, const Shape& a, const char* what_b, const Shape& b) {
  auto shape = broadcast_bidirectional(a, b);
  type_error_if(!shape, op_prefix(op) + ": " + what_a + " shape " + shape_to_string(a) + " and " + what_b + " shape " +
                            shape_to_string(b) + " are not bidirectionally broadcastable");
  return std::move(*shape);
}

// spec: #mlgraphbuilder-element-wise-logical-op. The data-type steps of the algorithm (uint8 for
// the logical ops, same type for a and b) are the tensor-limits rows. For isNaN and isInfinite
// the algorithm's step restricts a to float32/float16 while the tensor-limits table allows any
// type; we follow the table, which opSupportLimits() reports too, and an integer input simply
// gives all zeros (an integer is never NaN or infinite).
OperandDescriptor infer_logical_op(const Graph& graph, const Operation& op, bool binary) {
  expect_input_count(op, binary ? 2 : 1);
  const OperandDescriptor& a = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "a", a);
  if (!binary) return {DataType::kUint8, a.shape};
  const OperandDescriptor& b = input_desc(graph, op, 1);
  check_tensor_limit(op.kind, "b", b, &a);
  return {DataType::kUint8, broadcast_or_throw(op, "a", a.shape, "b", b.shape)};
}

// spec: #api-mlgraphbuilder-where
OperandDescriptor infer_where(const Graph& graph, const Operation& op) {
  expect_input_count(op, 3);
  const OperandDescriptor& condition = input_desc(graph, op, 0);
  const OperandDescriptor& true_value = input_desc(graph, op, 1);
  const OperandDescriptor& false_value = input_desc(graph, op, 2);
  check_tensor_limit(op.kind, "condition", condition);
  check_tensor_limit(op.kind, "trueValue", true_value);
  check_tensor_limit(op.kind, "falseValue", false_value, &true_value);
  const Shape values = broadcast_or_throw(op, "trueValue", true_value.shape, "falseValue", false_value.shape);
  // The spec broadcasts the condition against the values' combined shape, not against each one.
  auto shape = broadcast_bidirectional(condition.shape, values);
  type_error_if(!shape, op_prefix(op) + ": condition shape " + shape_to_string(condition.shape) +
                            " is not bidirectionally broadcastable with the broadcast shape of trueValue and "
                            "falseValue " +
                            shape_to_string(values));
  return {true_value.data_type, std::move(*shape)};
}

}  // namespace

std::vector<OperandDescriptor> infer_logical(const Graph& graph, Operation& op) {
  switch (shape_rule(op.kind)) {
    case ShapeRule::kBinary:
      return {infer_logical_op(graph, op, /*binary=*/true)};
    case ShapeRule::kUnary:
      return {infer_logical_op(graph, op, /*binary=*/false)};
    case ShapeRule::kOwn:
    case ShapeRule::kReduce:
      break;
  }
  if (op.kind == OpKind::kWhere) return {infer_where(graph, op)};
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a comparison, logical or selection operator");
}

}  // namespace webnn::ops
