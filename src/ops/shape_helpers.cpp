#include "ops/shape_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace webnn::ops {

std::string op_prefix(const Operation& op) { return std::string(op_name(op.kind)); }

void expect_input_count(const Operation& op, size_t count) {
  type_error_if(op.inputs.size() != count, op_prefix(op) + ": expects " + std::to_string(count) +
                                               " positional operand(s), got " + std::to_string(op.inputs.size()));
}

const OperandDescriptor& input_desc(const Graph& graph, const Operation& op, size_t index) {
  return graph.desc(op.inputs.at(index));
}

bool is_valid_dimension(int64_t value) { return value > 0 && static_cast<uint64_t>(value) <= kMaxDimension; }

bool is_valid_tensor_count(uint64_t value) { return value > 0 && value <= kMaxTensorCount; }

std::optional<Shape> broadcast_unidirectional(const Shape& from, const Shape& to) {
  if (from.size() > to.size()) return std::nullopt;
  const size_t pad = to.size() - from.size();
  Shape out;
  out.reserve(to.size());
  for (size_t i = 0; i < to.size(); ++i) {
    const uint32_t dim_from = i < pad ? 1 : from[i - pad];
    if (dim_from != to[i] && dim_from != 1) return std::nullopt;
    out.push_back(to[i]);
  }
  return out;
}

std::optional<Shape> broadcast_bidirectional(const Shape& a, const Shape& b) {
  const size_t size = std::max(a.size(), b.size());
  const size_t pad_a = size - a.size();
  const size_t pad_b = size - b.size();
  Shape out;
  out.reserve(size);
  for (size_t i = 0; i < size; ++i) {
    const uint32_t dim_a = i < pad_a ? 1 : a[i - pad_a];
    const uint32_t dim_b = i < pad_b ? 1 : b[i - pad_b];
    if (dim_a != dim_b && dim_a != 1 && dim_b != 1) return std::nullopt;
    out.push_back(std::max(dim_a, dim_b));
  }
  return out;
}

void check_axes(const std::string& what, const std::vector<uint32_t>& axes, size_t rank) {
  std::vector<char> seen(rank, 0);
  for (uint32_t axis : axes) {
    // Messages are built only on failure: this runs once per axis.
    if (axis >= rank)
      throw_error(ErrorKind::kTypeError, what + " " + list_to_string(axes) + ": axis " + std::to_string(axis) +
                                             " is out of range for rank " + std::to_string(rank));
    if (seen[axis] != 0)
      throw_error(ErrorKind::kTypeError,
                  what + " " + list_to_string(axes) + ": axis " + std::to_string(axis) + " appears more than once");
    seen[axis] = 1;
  }
}

int64_t floor_div(int64_t n, int64_t d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
int64_t ceil_div(int64_t n, int64_t d) { return -floor_div(-n, d); }

ConvOutputSize conv_output_size(uint32_t input_size, uint32_t filter_size, uint32_t beginning_padding,
                                uint32_t ending_padding, uint32_t stride, uint32_t dilation) {
  // (filter - 1) * dilation fits uint64 (both below 2^32); the padded input fits easily. A
  // numerator below -2^62 is clamped: both roundings are then far below 1 whatever the stride.
  const uint64_t effective = uint64_t{filter_size > 0 ? filter_size - 1 : 0} * dilation + 1;
  const uint64_t padded = uint64_t{input_size} + beginning_padding + ending_padding;
  constexpr uint64_t kClamp = uint64_t{1} << 62;
  const int64_t numerator = padded >= effective ? static_cast<int64_t>(padded - effective)
                                                : -static_cast<int64_t>(std::min(effective - padded, kClamp));
  const auto s = static_cast<int64_t>(stride);
  return {floor_div(numerator, s) + 1, ceil_div(numerator, s) + 1};
}

int64_t conv_transpose_output_size(uint32_t input_size, uint32_t filter_size, uint32_t beginning_padding,
                                   uint32_t ending_padding, uint32_t stride, uint32_t dilation) {
  // Each product of two values below 2^32 fits uint64; their sum saturates instead of wrapping.
  const uint64_t spread = uint64_t{input_size > 0 ? input_size - 1 : 0} * stride;
  const uint64_t effective_filter = uint64_t{filter_size > 0 ? filter_size - 1 : 0} * dilation + 1;
  constexpr uint64_t kLargest = std::numeric_limits<uint64_t>::max();
  const uint64_t grown = spread > kLargest - effective_filter ? kLargest : spread + effective_filter;
  const uint64_t cropped = uint64_t{beginning_padding} + ending_padding;
  if (grown < cropped) return -static_cast<int64_t>(cropped - grown);
  constexpr uint64_t kClamp = uint64_t{1} << 62;
  return static_cast<int64_t>(std::min(grown - cropped, kClamp));
}

void check_option_list(const Operation& op, const char* name, const std::vector<uint32_t>& list, size_t size,
                       bool nonzero) {
  type_error_if(list.size() != size, op_prefix(op) + ": " + name + " must have " + std::to_string(size) +
                                         " values, got " + std::to_string(list.size()));
  for (uint32_t v : list)
    if (nonzero && v == 0)
      throw_error(ErrorKind::kTypeError,
                  op_prefix(op) + ": " + name + " " + list_to_string(list) + " must not contain 0");
}

void check_finite_option(const Operation& op, const char* name, double value) {
  if (!std::isfinite(value))
    throw_error(ErrorKind::kTypeError,
                op_prefix(op) + ": " + name + " must be a finite number, got " + Number(value).to_string());
}

const std::vector<uint32_t>& resolve_option_list(const Operation& op, const char* name, DefaultedDims& option,
                                                 std::vector<uint32_t> fallback, size_t size, bool nonzero) {
  option.resolve(std::move(fallback));
  check_option_list(op, name, *option, size, nonzero);
  return *option;
}

const std::vector<uint32_t>& resolve_axes(const std::string& what, DefaultedDims& option,
                                          std::vector<uint32_t> fallback, size_t rank) {
  option.resolve(std::move(fallback));
  check_axes(what, *option, rank);
  return *option;
}

std::vector<uint32_t> axes_from(uint32_t begin, size_t end) {
  std::vector<uint32_t> axes;
  for (uint32_t i = begin; i < end; ++i) axes.push_back(i);
  return axes;
}

std::string list_to_string(const std::vector<uint32_t>& values) { return shape_to_string(values); }

}  // namespace webnn::ops
