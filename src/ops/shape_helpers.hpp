// Shape arithmetic shared by the op families: broadcasting, axis lists, conv/pool output sizes,
// and access to an operation's operands. One place for each rule so every op applies it alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace webnn::ops {

// The op's spec name, the prefix of every validation message ("conv2d").
std::string op_prefix(const Operation& op);

// Throws TypeError unless `op` has exactly `count` positional inputs (graph files can name any
// number; the public API always passes the right count).
void expect_input_count(const Operation& op, size_t count);
// The descriptor of positional input `index`.
const OperandDescriptor& input_desc(const Graph& graph, const Operation& op, size_t index);

// spec: #valid-dimension — an integer greater than zero that fits our bound.
bool is_valid_dimension(int64_t value);
// spec: #valid-tensor-count — greater than zero and at most 8192.
inline constexpr uint64_t kMaxTensorCount = 8192;
bool is_valid_tensor_count(uint64_t value);

// spec: #unidirectionally-broadcast-the-shapes; nullopt on failure.
std::optional<Shape> broadcast_unidirectional(const Shape& from, const Shape& to);
// spec: #bidirectionally-broadcast-the-shapes; nullopt on failure.
std::optional<Shape> broadcast_bidirectional(const Shape& a, const Shape& b);

// Throws TypeError unless every axis is below `rank` and no axis repeats. `what` names the
// argument in the message ("reduceMean: axes").
void check_axes(const std::string& what, const std::vector<uint32_t>& axes, size_t rank);

// Floor and ceiling of n / d for d > 0, exact for negative n.
int64_t floor_div(int64_t n, int64_t d);
int64_t ceil_div(int64_t n, int64_t d);

// spec: #mlgraphbuilder-calculate-conv-output-size — the real quotient
// (inputSize - effectiveFilterSize + beginningPadding + endingPadding) / stride + 1, kept exact as
// its floor and its ceiling. Either may be zero or negative when the window does not fit.
struct ConvOutputSize {
  int64_t floor = 0;
  int64_t ceil = 0;
};
ConvOutputSize conv_output_size(uint32_t input_size, uint32_t filter_size, uint32_t beginning_padding,
                                uint32_t ending_padding, uint32_t stride, uint32_t dilation);

// spec: #mlgraphbuilder-calculate-convtranspose-output-size —
// (inputSize - 1) * stride + (filterSize - 1) * dilation + 1 - beginningPadding - endingPadding,
// exact; zero or negative when the padding crops more than there is. Clamped to 2^62 (far beyond
// any valid dimension, and leaving room to add a stride or an output padding).
int64_t conv_transpose_output_size(uint32_t input_size, uint32_t filter_size, uint32_t beginning_padding,
                                   uint32_t ending_padding, uint32_t stride, uint32_t dilation);

// Throws TypeError unless `list` (the option `name`) has `size` values, none 0 when `nonzero`.
void check_option_list(const Operation& op, const char* name, const std::vector<uint32_t>& list, size_t size,
                       bool nonzero);

// Throws TypeError unless the option `name` is finite: the spec's `double` dictionary members are
// WebIDL restricted doubles, which reject NaN and +-Infinity ("elu: alpha must be a finite number").
void check_finite_option(const Operation& op, const char* name, double value);

// Resolves the list option `name` (a member of op.attrs) to the spec's default `fallback` when
// the caller left it out, checks it as check_option_list does and returns the value the operation
// uses.
const std::vector<uint32_t>& resolve_option_list(const Operation& op, const char* name, DefaultedDims& option,
                                                 std::vector<uint32_t> fallback, size_t size, bool nonzero);

// The same for an axes option: resolves it to `fallback`, checks it as check_axes does.
const std::vector<uint32_t>& resolve_axes(const std::string& what, DefaultedDims& option,
                                          std::vector<uint32_t> fallback, size_t rank);
// [begin, begin + 1, ..., end - 1]: the default axes of the ops whose default is "every axis"
// (from 0) or "every axis after the first" (from 1).
std::vector<uint32_t> axes_from(uint32_t begin, size_t end);

// "[1, 2, 3]" for a list of unsigned values (axes, strides, ...).
std::string list_to_string(const std::vector<uint32_t>& values);

}  // namespace webnn::ops
