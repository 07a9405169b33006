// Element-wise binary and unary operators, activations, clamp and cast.
#include "ops/families.hpp"
#include "ops/number_cast.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// spec: #mlgraphbuilder-element-wise-binary-op
OperandDescriptor infer_binary(const Graph& graph, const Operation& op) {
  expect_input_count(op, 2);
  const OperandDescriptor& a = input_desc(graph, op, 0);
  const OperandDescriptor& b = input_desc(graph, op, 1);
  check_tensor_limit(op.kind, "a", a);
  check_tensor_limit(op.kind, "b", b, &a);
  auto shape = broadcast_bidirectional(a.shape, b.shape);
  type_error_if(!shape, op_prefix(op) + ": shapes " + shape_to_string(a.shape) + " and " + shape_to_string(b.shape) +
                            " are not bidirectionally broadcastable");
  return {a.data_type, std::move(*shape)};
}

// spec: #mlgraphbuilder-element-wise-unary-op, and the single-input activations (relu, sigmoid,
// tanh, gelu): the output copies the input's descriptor.
OperandDescriptor infer_unary(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  return input;
}

// spec: #api-mlgraphbuilder-clamp
OperandDescriptor infer_clamp(const Graph& graph, const Operation& op) {
  OperandDescriptor out = infer_unary(graph, op);
  const auto& attrs = std::get<ClampAttrs>(op.attrs);
  // The spec's text defaults minValue to Infinity and maxValue to -Infinity, which would make
  // clamp(input) throw; the defaults here are the evident intent (-Infinity, Infinity), as the
  // emulation beside the algorithm shows.
  type_error_if(cast_greater(attrs.min_value, attrs.max_value, out.data_type),
                op_prefix(op) + ": minValue (" + attrs.min_value.to_string() + ") must not be greater than maxValue (" +
                    attrs.max_value.to_string() + ") once cast to " + std::string(to_string(out.data_type)));
  return out;
}

// spec: #api-mlgraphbuilder-cast
OperandDescriptor infer_cast(const Graph& graph, const Operation& op) {
  OperandDescriptor out = infer_unary(graph, op);
  const DataType target = std::get<CastAttrs>(op.attrs).data_type;
  type_error_if(!resolved_types(op.kind, "output").contains(target),
                op_prefix(op) + ": dataType " + std::string(to_string(target)) + " is not an allowed output data type");
  out.data_type = target;
  return out;
}

}  // namespace

std::vector<OperandDescriptor> infer_elementwise(const Graph& graph, const Operation& op) {
  switch (op.kind) {
    case OpKind::kAdd:
    case OpKind::kSub:
    case OpKind::kMul:
    case OpKind::kDiv:
    case OpKind::kMax:
    case OpKind::kMin:
    case OpKind::kPow:
      return {infer_binary(graph, op)};
    case OpKind::kErf:
    case OpKind::kExp:
    case OpKind::kSqrt:
    case OpKind::kRelu:
    case OpKind::kSigmoid:
    case OpKind::kTanh:
    case OpKind::kGelu:
      return {infer_unary(graph, op)};
    case OpKind::kClamp:
      return {infer_clamp(graph, op)};
    case OpKind::kCast:
      return {infer_cast(graph, op)};
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not an element-wise operator");
}

}  // namespace webnn::ops
