// conv2d and convTranspose2d validation and output shape.
#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// spec: #api-mlgraphbuilder-conv2d
OperandDescriptor infer_conv2d(const Graph& graph, Operation& op) {
  expect_input_count(op, 2);
  auto& attrs = std::get<Conv2dAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& filter = input_desc(graph, op, 1);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "filter", filter, &input);

  const std::vector<uint32_t>& padding = resolve_option_list(op, "padding", attrs.padding, {0, 0, 0, 0}, 4, false);
  const std::vector<uint32_t>& strides = resolve_option_list(op, "strides", attrs.strides, {1, 1}, 2, true);
  const std::vector<uint32_t>& dilations = resolve_option_list(op, "dilations", attrs.dilations, {1, 1}, 2, true);
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

// spec: #api-mlgraphbuilder-convtranspose2d
//
// One rule is added to the spec's steps: the input channels must be divisible by groups (the
// spec checks only that they equal the filter's input channels). Without it the channels cannot
// be split into groups at all; the spec's own emulation of groups, webnn-baseline and ONNX
// require it.
OperandDescriptor infer_conv_transpose2d(const Graph& graph, Operation& op) {
  expect_input_count(op, 2);
  auto& attrs = std::get<ConvTranspose2dAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& filter = input_desc(graph, op, 1);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "filter", filter, &input);

  const std::vector<uint32_t>& padding = resolve_option_list(op, "padding", attrs.padding, {0, 0, 0, 0}, 4, false);
  const std::vector<uint32_t>& strides = resolve_option_list(op, "strides", attrs.strides, {1, 1}, 2, true);
  const std::vector<uint32_t>& dilations = resolve_option_list(op, "dilations", attrs.dilations, {1, 1}, 2, true);
  const std::vector<uint32_t>& output_padding =
      resolve_option_list(op, "outputPadding", attrs.output_padding, {0, 0}, 2, false);
  if (attrs.output_sizes) {
    check_option_list(op, "outputSizes", *attrs.output_sizes, 2, false);
  } else {
    // outputPadding only picks among the sizes a stride makes ambiguous; it is ignored (and not
    // checked) when outputSizes is given.
    type_error_if(output_padding[0] >= strides[0] || output_padding[1] >= strides[1],
                  who + ": outputPadding " + list_to_string(output_padding) + " must be smaller than strides " +
                      list_to_string(strides));
  }
  type_error_if(attrs.groups == 0, who + ": groups must not be 0");

  const auto [batches, input_channels, input_height, input_width] = image_dims(input.shape, attrs.input_layout);
  const auto [filter_output_channels, filter_input_channels, filter_height, filter_width] =
      filter_dims(filter.shape, attrs.filter_layout);
  type_error_if(input_channels != filter_input_channels,
                who + ": filter input channels (" + std::to_string(filter_input_channels) +
                    ") must equal input channels (" + std::to_string(input_channels) + ")");
  const std::string groups = std::to_string(attrs.groups);
  type_error_if(input_channels % attrs.groups != 0, who + ": input channels (" + std::to_string(input_channels) +
                                                        ") must be divisible by groups (" + groups + ")");
  const uint64_t output_channels = uint64_t{filter_output_channels} * attrs.groups;
  type_error_if(!is_valid_dimension(static_cast<int64_t>(output_channels)),
                who + ": output channels (filter output channels " + std::to_string(filter_output_channels) +
                    " * groups " + groups + ") is not a valid dimension");
  const auto out_c = static_cast<uint32_t>(output_channels);
  if (attrs.bias) {
    const OperandDescriptor& bias = graph.desc(attrs.bias->id);
    type_error_if(bias.shape != Shape{out_c},
                  who + ": bias shape " + shape_to_string(bias.shape) + " must be [" + std::to_string(out_c) + "]");
    check_tensor_limit(op.kind, "bias", bias, &input);
  }

  const int64_t calculated_height =
      conv_transpose_output_size(input_height, filter_height, padding[0], padding[1], strides[0], dilations[0]);
  const int64_t calculated_width =
      conv_transpose_output_size(input_width, filter_width, padding[2], padding[3], strides[1], dilations[1]);
  int64_t out_h = 0, out_w = 0;
  if (attrs.output_sizes) {
    out_h = (*attrs.output_sizes)[0];
    out_w = (*attrs.output_sizes)[1];
    // A size in [calculated, calculated + stride) is what some output padding below the stride gives.
    auto check = [&](int64_t size, int64_t calculated, uint32_t stride, const char* what) {
      if (size < calculated || size >= calculated + stride)
        throw_error(ErrorKind::kTypeError, who + ": outputSizes " + list_to_string(*attrs.output_sizes) + ": the " +
                                               what + " " + std::to_string(size) + " must be at least " +
                                               std::to_string(calculated) + " and less than " +
                                               std::to_string(calculated + stride));
    };
    check(out_h, calculated_height, strides[0], "height");
    check(out_w, calculated_width, strides[1], "width");
  } else {
    out_h = calculated_height + output_padding[0];
    out_w = calculated_width + output_padding[1];
  }
  type_error_if(!is_valid_dimension(out_h) || !is_valid_dimension(out_w),
                who + ": the output size [" + std::to_string(out_h) + ", " + std::to_string(out_w) +
                    "] is not a valid dimension (padding crops the whole output, or it is too large)");
  const auto h = static_cast<uint32_t>(out_h);
  const auto w = static_cast<uint32_t>(out_w);
  Shape out = attrs.input_layout == InputLayout::kNchw ? Shape{batches, out_c, h, w} : Shape{batches, h, w, out_c};
  return {input.data_type, std::move(out)};
}

}  // namespace

std::vector<OperandDescriptor> infer_conv(const Graph& graph, Operation& op) {
  if (op.kind == OpKind::kConv2d) return {infer_conv2d(graph, op)};
  if (op.kind == OpKind::kConvTranspose2d) return {infer_conv_transpose2d(graph, op)};
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a convolution operator");
}

}  // namespace webnn::ops
