// batchNormalization, instanceNormalization, layerNormalization and softmax validation and output
// shape.
#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// Checks an optional 1-D per-channel operand (`name`: "mean", "scale", ...) of a normalization
// against its tensor-limits row and the shape « channels », where channels is the input's size
// along `axis`.
void check_channel_param(const Graph& graph, const Operation& op, const OperandDescriptor& input,
                         const std::optional<OperandRef>& ref, const char* name, uint32_t axis) {
  if (!ref) return;
  const OperandDescriptor& param = graph.desc(ref->id);
  check_tensor_limit(op.kind, name, param, &input);
  type_error_if(param.shape != Shape{input.shape[axis]},
                op_prefix(op) + ": " + name + " shape " + shape_to_string(param.shape) + " must be [" +
                    std::to_string(input.shape[axis]) + "] (the input's size along axis " + std::to_string(axis) + ")");
}

// spec: #api-mlgraphbuilder-batchnorm. epsilon is cast to the input's data type by the kernel.
OperandDescriptor infer_batch_normalization(const Graph& graph, const Operation& op) {
  expect_input_count(op, 3);
  const auto& attrs = std::get<BatchNormalizationAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  type_error_if(attrs.axis >= input.rank(), op_prefix(op) + ": axis " + std::to_string(attrs.axis) +
                                                " must be less than the input rank " + std::to_string(input.rank()));
  check_channel_param(graph, op, input, OperandRef{op.inputs[1]}, "mean", attrs.axis);
  check_channel_param(graph, op, input, OperandRef{op.inputs[2]}, "variance", attrs.axis);
  check_channel_param(graph, op, input, attrs.scale, "scale", attrs.axis);
  check_channel_param(graph, op, input, attrs.bias, "bias", attrs.axis);
  return input;
}

// spec: #api-mlgraphbuilder-instancenorm. epsilon is cast to the input's data type by the kernel.
OperandDescriptor infer_instance_normalization(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const auto& attrs = std::get<InstanceNormalizationAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  const uint32_t axis = attrs.layout == InputLayout::kNchw ? 1 : 3;
  check_channel_param(graph, op, input, attrs.scale, "scale", axis);
  check_channel_param(graph, op, input, attrs.bias, "bias", axis);
  return input;
}

// spec: #api-mlgraphbuilder-layernorm. epsilon is cast to the input's data type by the kernels.
OperandDescriptor infer_layer_normalization(const Graph& graph, Operation& op) {
  expect_input_count(op, 1);
  auto& attrs = std::get<LayerNormalizationAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  const std::vector<uint32_t>& axes =
      resolve_axes(who + ": axes", attrs.axes, axes_from(1, input.rank()), input.rank());
  auto check_param = [&](const std::optional<OperandRef>& ref, const char* name) {
    if (!ref) return;
    const OperandDescriptor& param = graph.desc(ref->id);
    check_tensor_limit(op.kind, name, param, &input);
    type_error_if(param.rank() != axes.size(), who + ": " + name + " must have rank " + std::to_string(axes.size()) +
                                                   " (the number of axes), got rank " + std::to_string(param.rank()));
    for (size_t i = 0; i < axes.size(); ++i)
      if (param.shape[i] != input.shape[axes[i]])
        throw_error(ErrorKind::kTypeError, who + ": " + name + " shape " + shape_to_string(param.shape) +
                                               " must match the input's sizes along axes " + list_to_string(axes) +
                                               " of " + shape_to_string(input.shape));
  };
  check_param(attrs.scale, "scale");
  check_param(attrs.bias, "bias");
  return input;
}

// spec: #api-mlgraphbuilder-softmax-method
OperandDescriptor infer_softmax(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const uint32_t axis = std::get<SoftmaxAttrs>(op.attrs).axis;
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  type_error_if(axis >= input.rank(), op_prefix(op) + ": axis " + std::to_string(axis) +
                                          " must be less than the input rank " + std::to_string(input.rank()));
  return input;
}

}  // namespace

std::vector<OperandDescriptor> infer_normalization(const Graph& graph, Operation& op) {
  switch (op.kind) {
    case OpKind::kBatchNormalization:
      return {infer_batch_normalization(graph, op)};
    case OpKind::kInstanceNormalization:
      return {infer_instance_normalization(graph, op)};
    case OpKind::kLayerNormalization:
      return {infer_layer_normalization(graph, op)};
    case OpKind::kSoftmax:
      return {infer_softmax(graph, op)};
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a normalization operator");
}

}  // namespace webnn::ops
