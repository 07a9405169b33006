// averagePool2d, l2Pool2d and maxPool2d validation and output shape (one path, the spec's
// "create a pooling operation"; the data types each allows come from its tensor-limits rows).
#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// spec: #mlgraphbuilder-pooling-op
//
// Two sentences of the spec's steps are not followed, because they contradict the rest of the
// spec and the WPT validation suite its implementations pass (e.g. "Test pool2d with strides,
// padding and outputSizes=[4, 4]" expects [1, 3, 4, 4] from a 7x7 input, window 4, padding 1,
// stride 2): "if outputSizes exists ... set padding to [0, 0, 0, 0]" (padding stays as given) and
// "if its items are not smaller than ... strides, throw" (outputSizes is checked against the
// floor/ceil output sizes only).
OperandDescriptor infer_pool2d(const Graph& graph, Operation& op) {
  expect_input_count(op, 1);
  auto& attrs = std::get<Pool2dAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);

  const auto [batches, channels, input_height, input_width] = image_dims(input.shape, attrs.layout);
  const std::vector<uint32_t>& window =
      resolve_option_list(op, "windowDimensions", attrs.window_dimensions, {input_height, input_width}, 2, true);
  const std::vector<uint32_t>& padding = resolve_option_list(op, "padding", attrs.padding, {0, 0, 0, 0}, 4, false);
  const std::vector<uint32_t>& strides = resolve_option_list(op, "strides", attrs.strides, {1, 1}, 2, true);
  if (attrs.output_sizes) check_option_list(op, "outputSizes", *attrs.output_sizes, 2, false);
  const std::vector<uint32_t>& dilations = resolve_option_list(op, "dilations", attrs.dilations, {1, 1}, 2, true);

  const ConvOutputSize height =
      conv_output_size(input_height, window[0], padding[0], padding[1], strides[0], dilations[0]);
  const ConvOutputSize width =
      conv_output_size(input_width, window[1], padding[2], padding[3], strides[1], dilations[1]);
  int64_t out_h = 0, out_w = 0;
  if (attrs.output_sizes) {
    out_h = (*attrs.output_sizes)[0];
    out_w = (*attrs.output_sizes)[1];
    const bool is_floor = out_h == height.floor && out_w == width.floor;
    const bool is_ceil = out_h == height.ceil && out_w == width.ceil;
    type_error_if(!is_floor && !is_ceil, who + ": outputSizes " + list_to_string(*attrs.output_sizes) + " must be [" +
                                             std::to_string(height.floor) + ", " + std::to_string(width.floor) +
                                             "] (floor) or [" + std::to_string(height.ceil) + ", " +
                                             std::to_string(width.ceil) + "] (ceil)");
  } else if (attrs.output_shape_rounding == RoundingType::kFloor) {
    out_h = height.floor, out_w = width.floor;
  } else {
    out_h = height.ceil, out_w = width.ceil;
  }
  type_error_if(!is_valid_dimension(out_h) || !is_valid_dimension(out_w),
                who + ": the output size [" + std::to_string(out_h) + ", " + std::to_string(out_w) +
                    "] is not valid: the dilated window does not fit the padded input");
  const auto h = static_cast<uint32_t>(out_h);
  const auto w = static_cast<uint32_t>(out_w);
  Shape out = attrs.layout == InputLayout::kNchw ? Shape{batches, channels, h, w} : Shape{batches, h, w, channels};
  return {input.data_type, std::move(out)};
}

}  // namespace

std::vector<OperandDescriptor> infer_pool(const Graph& graph, Operation& op) {
  switch (op.kind) {
    case OpKind::kAveragePool2d:
    case OpKind::kL2Pool2d:
    case OpKind::kMaxPool2d:
      return {infer_pool2d(graph, op)};
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a pooling operator");
}

}  // namespace webnn::ops
