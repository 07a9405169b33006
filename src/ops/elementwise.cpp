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
// tanh, gelu, hardSwish, softplus, softsign): the output copies the input's descriptor. The data
// types each op allows (the spec's allowedDataTypes) are its tensor-limits row; identity's row
// allows every type.
OperandDescriptor infer_unary(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  return input;
}

// spec: #api-mlgraphbuilder-elu, #api-mlgraphbuilder-hard-sigmoid, #api-mlgraphbuilder-leakyrelu,
// #api-mlgraphbuilder-linear. The options (alpha, beta) are `double` members, WebIDL restricted
// doubles: NaN and infinities are a TypeError. The algorithms then cast them to the input's data
// type, which cannot fail (a float16 cast may overflow to +-Infinity); the kernels do that cast.
template <class A>
OperandDescriptor infer_scalar_activation(const Graph& graph, const Operation& op) {
  OperandDescriptor out = infer_unary(graph, op);
  A::fields(std::get<A>(op.attrs), [&](const char* name, double value) { check_finite_option(op, name, value); });
  return out;
}

// spec: #api-mlgraphbuilder-prelu — slope has the input's data type, the two shapes broadcast
// bidirectionally (slope first, as the algorithm writes it) and the output has the input's data
// type and the broadcast shape.
OperandDescriptor infer_prelu(const Graph& graph, const Operation& op) {
  expect_input_count(op, 2);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& slope = input_desc(graph, op, 1);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "slope", slope, &input);
  auto shape = broadcast_bidirectional(slope.shape, input.shape);
  type_error_if(!shape, op_prefix(op) + ": slope shape " + shape_to_string(slope.shape) + " and input shape " +
                            shape_to_string(input.shape) + " are not bidirectionally broadcastable");
  return {input.data_type, std::move(*shape)};
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
    case OpKind::kAbs:
    case OpKind::kCeil:
    case OpKind::kCos:
    case OpKind::kErf:
    case OpKind::kExp:
    case OpKind::kFloor:
    case OpKind::kIdentity:
    case OpKind::kLog:
    case OpKind::kNeg:
    case OpKind::kReciprocal:
    case OpKind::kRoundEven:
    case OpKind::kSin:
    case OpKind::kSign:
    case OpKind::kSqrt:
    case OpKind::kTan:
    case OpKind::kRelu:
    case OpKind::kSigmoid:
    case OpKind::kTanh:
    case OpKind::kGelu:
    case OpKind::kHardSwish:
    case OpKind::kSoftplus:
    case OpKind::kSoftsign:
      return {infer_unary(graph, op)};
    case OpKind::kElu:
      return {infer_scalar_activation<EluAttrs>(graph, op)};
    case OpKind::kHardSigmoid:
      return {infer_scalar_activation<HardSigmoidAttrs>(graph, op)};
    case OpKind::kLeakyRelu:
      return {infer_scalar_activation<LeakyReluAttrs>(graph, op)};
    case OpKind::kLinear:
      return {infer_scalar_activation<LinearAttrs>(graph, op)};
    case OpKind::kPrelu:
      return {infer_prelu(graph, op)};
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
