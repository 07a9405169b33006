// conv2d validation and output shape.
#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// spec: #api-mlgraphbuilder-conv2d
OperandDescriptor infer_conv2d(const Graph& graph, const Operation& op) {
  expect_input_count(op, 2);
  const auto& attrs = std::get<Conv2dAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& filter = input_desc(graph, op, 1);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "filter", filter, &input);

  const std::vector<uint32_t> padding = dims_or(attrs.padding, {0, 0, 0, 0});
  check_option_list(op, "padding", padding, 4, false);
  const std::vector<uint32_t> strides = dims_or(attrs.strides, {1, 1});
  check_option_list(op, "strides", strides, 2, true);
  const std::vector<uint32_t> dilations = dims_or(attrs.dilations, {1, 1});
  check_option_list(op, "dilations", dilations, 2, true);
  type_error_if(attrs.groups == 0, who + ": groups must not be 0");

  const auto [batches, input_channels, input_height, input_width] = image_dims(input.shape, attrs.input_layout);
  const auto [output_channels, filter_input_channels, filter_height, filter_width] =
      filter_dims(filter.shape, attrs.filter_layout);
  const std::string groups = std::to_string(attrs.groups);
  type_error_if(input_channels % attrs.groups != 0, who + ": input channels (" + std::to_string(input_channels) +
                                                        ") must be divisible by groups (" + groups + ")");
  type_error_if(input_channels / attrs.groups != filter_input_channels,
                who + ": filter input channels (" + std::to_string(filter_input_channels) +
                    ") must equal input channels / groups (" + std::to_string(input_channels) + " / " + groups + ")");
  type_error_if(output_channels % attrs.groups != 0, who + ": output channels (" + std::to_string(output_channels) +
                                                         ") must be divisible by groups (" + groups + ")");
  if (attrs.bias) {
    const OperandDescriptor& bias = graph.desc(attrs.bias->id);
    type_error_if(bias.shape != Shape{output_channels}, who + ": bias shape " + shape_to_string(bias.shape) +
                                                            " must be [" + std::to_string(output_channels) + "]");
    check_tensor_limit(op.kind, "bias", bias, &input);
  }

  const ConvOutputSize height =
      conv_output_size(input_height, filter_height, padding[0], padding[1], strides[0], dilations[0]);
  const ConvOutputSize width =
      conv_output_size(input_width, filter_width, padding[2], padding[3], strides[1], dilations[1]);
  type_error_if(!is_valid_dimension(height.floor) || !is_valid_dimension(width.floor),
                who + ": the output size [" + std::to_string(height.floor) + ", " + std::to_string(width.floor) +
                    "] is not valid: the dilated filter does not fit the padded input");
  const auto out_h = static_cast<uint32_t>(height.floor);
  const auto out_w = static_cast<uint32_t>(width.floor);
  Shape out = attrs.input_layout == InputLayout::kNchw ? Shape{batches, output_channels, out_h, out_w}
                                                       : Shape{batches, out_h, out_w, output_channels};
  return {input.data_type, std::move(out)};
}

}  // namespace

std::vector<OperandDescriptor> infer_conv(const Graph& graph, const Operation& op) {
  if (op.kind == OpKind::kConv2d) return {infer_conv2d(graph, op)};
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a convolution operator");
}

}  // namespace webnn::ops
