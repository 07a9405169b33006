// Element-wise binary and unary operators, activations, clamp and cast.
#include <type_traits>
#include <variant>

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

// The ops of the table's kUnary rule: infer_unary, then the options of the scalar activations.
// spec: #api-mlgraphbuilder-elu, #api-mlgraphbuilder-hard-sigmoid, #api-mlgraphbuilder-leakyrelu,
// #api-mlgraphbuilder-linear. The options (alpha, beta) are `double` members, WebIDL restricted
// doubles: NaN and infinities are a TypeError. The algorithms then cast them to the input's data
// type, which cannot fail (a float16 cast may overflow to +-Infinity); the kernels do that cast.
OperandDescriptor infer_unary_rule(const Graph& graph, const Operation& op) {
  OperandDescriptor out = infer_unary(graph, op);
  std::visit(
      [&]<class A>(const A& attrs) {
        A::fields(attrs, [&](const char* name, const auto& value) {
          if constexpr (std::is_same_v<std::decay_t<decltype(value)>, double>) check_finite_option(op, name, value);
        });
      },
      op.attrs);
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

std::vector<OperandDescriptor> infer_elementwise(const Graph& graph, Operation& op) {
  switch (shape_rule(op.kind)) {
    case ShapeRule::kBinary:
      return {infer_binary(graph, op)};
    case ShapeRule::kUnary:
      return {infer_unary_rule(graph, op)};
    case ShapeRule::kOwn:
    case ShapeRule::kReduce:
      break;
  }
  switch (op.kind) {
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
