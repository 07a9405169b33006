// resample2d validation and output shape.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

std::string floats_to_string(const std::vector<float>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) s += ", ";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", static_cast<double>(values[i]));
    s += buffer;
  }
  return s + "]";
}

// spec: #api-mlgraphbuilder-resample2d-method
//
// The spec's steps are followed as written: scales are validated even when sizes is given (and
// then ignored), and any two distinct axes of the 4-D input are accepted.
OperandDescriptor infer_resample2d(const Graph& graph, Operation& op) {
  expect_input_count(op, 1);
  auto& attrs = std::get<Resample2dAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);

  attrs.scales.resolve({1.0f, 1.0f});
  const std::vector<float>& scales = *attrs.scales;
  type_error_if(scales.size() != 2, who + ": scales must have 2 values, got " + std::to_string(scales.size()));
  for (float s : scales)
    if (s <= 0)  // NaN passes here, as in the spec, and fails the output size check below
      throw_error(ErrorKind::kTypeError, who + ": scales " + floats_to_string(scales) + " must be greater than 0");
  if (attrs.sizes) check_option_list(op, "sizes", *attrs.sizes, 2, true);
  attrs.axes.resolve({2, 3});
  const std::vector<uint32_t>& axes = *attrs.axes;
  type_error_if(axes.size() != 2, who + ": axes must have 2 values, got " + std::to_string(axes.size()));
  check_axes(who + ": axes", axes, input.rank());

  Shape out = input.shape;
  for (size_t i = 0; i < 2; ++i) {
    const uint32_t input_size = input.shape[axes[i]];
    // floor(inputSize * scale) with the float scale widened exactly to double; NaN and infinite
    // products are not valid dimensions.
    const double size = attrs.sizes ? (*attrs.sizes)[i] : std::floor(input_size * static_cast<double>(scales[i]));
    if (!(size >= 1 && size <= static_cast<double>(kMaxDimension)))
      throw_error(ErrorKind::kTypeError,
                  who + ": the output size along axis " + std::to_string(axes[i]) + " (" +
                      (attrs.sizes ? std::to_string((*attrs.sizes)[i])
                                   : std::to_string(input_size) + " * " + floats_to_string({scales[i]}) + ", floored") +
                      ") is not a valid dimension");
    out[axes[i]] = static_cast<uint32_t>(size);
  }
  return {input.data_type, std::move(out)};
}

}  // namespace

std::vector<OperandDescriptor> infer_resample(const Graph& graph, Operation& op) {
  if (op.kind == OpKind::kResample2d) return {infer_resample2d(graph, op)};
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a resampling operator");
}

}  // namespace webnn::ops
