// Shape and data movement operators: reshape, transpose, concat, split, slice, expand, pad, reverse,
// tile, triangular.
#include <algorithm>
#include <optional>

#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// spec: #api-mlgraphbuilder-reshape-method
OperandDescriptor infer_reshape(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const Shape& new_shape = std::get<ReshapeAttrs>(op.attrs).new_shape;
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  const TensorLimit* output_row = find_tensor_limit(op.kind, "output");
  type_error_if(output_row && (new_shape.size() < output_row->min_rank || new_shape.size() > output_row->max_rank),
                who + ": newShape " + shape_to_string(new_shape) + " has rank " + std::to_string(new_shape.size()) +
                    ", beyond the supported output ranks");
  uint64_t count = 1;
  for (uint32_t d : new_shape) {
    if (!is_valid_dimension(d))
      throw_error(ErrorKind::kTypeError, who + ": newShape " + shape_to_string(new_shape) + " contains " +
                                             std::to_string(d) + ", not a valid dimension");
    count *= d;  // each factor is below 2^31 and the running product is kept below 2^31: no overflow
    if (count > kMaxDimension)
      throw_error(ErrorKind::kTypeError, who + ": newShape " + shape_to_string(new_shape) +
                                             " holds more elements than the input " + shape_to_string(input.shape));
  }
  type_error_if(count != *input.element_count(), who + ": newShape " + shape_to_string(new_shape) + " holds " +
                                                     std::to_string(count) + " elements but the input " +
                                                     shape_to_string(input.shape) + " holds " +
                                                     std::to_string(*input.element_count()));
  return {input.data_type, new_shape};
}

// spec: #api-mlgraphbuilder-transpose. The spec's steps copy the input's descriptor; the output
// shape is the input's permuted (output[i] = input[permutation[i]]), as the operation defines it.
OperandDescriptor infer_transpose(const Graph& graph, Operation& op) {
  expect_input_count(op, 1);
  auto& attrs = std::get<TransposeAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  const size_t rank = input.rank();
  std::vector<uint32_t> reversed = axes_from(0, rank);
  std::reverse(reversed.begin(), reversed.end());
  attrs.permutation.resolve(std::move(reversed));
  const std::vector<uint32_t>& permutation = *attrs.permutation;
  type_error_if(permutation.size() != rank, who + ": permutation " + list_to_string(permutation) + " must have " +
                                                std::to_string(rank) + " values (the input rank)");
  check_axes(who + ": permutation", permutation, rank);
  OperandDescriptor out{input.data_type, {}};
  for (uint32_t axis : permutation) out.shape.push_back(input.shape[axis]);
  return out;
}

// spec: #api-mlgraphbuilder-concat
OperandDescriptor infer_concat(const Graph& graph, const Operation& op) {
  const uint32_t axis = std::get<ConcatAttrs>(op.attrs).axis;
  const std::string who = op_prefix(op);
  type_error_if(!is_valid_tensor_count(op.inputs.size()), who + ": the number of inputs (" +
                                                              std::to_string(op.inputs.size()) + ") must be 1 to " +
                                                              std::to_string(kMaxTensorCount));
  const OperandDescriptor& first = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "inputs", first);
  type_error_if(axis >= first.rank(), who + ": axis " + std::to_string(axis) + " must be less than the rank " +
                                          std::to_string(first.rank()) + " of inputs[0]");
  OperandDescriptor out = first;
  for (size_t index = 1; index < op.inputs.size(); ++index) {
    const OperandDescriptor& input = input_desc(graph, op, index);
    // Messages are built only on failure: this loop runs once per input.
    auto name = [&] { return who + ": inputs[" + std::to_string(index) + "]"; };
    if (input.data_type != first.data_type)
      throw_error(ErrorKind::kTypeError, name() + " has data type " + std::string(to_string(input.data_type)) +
                                             ", inputs[0] " + std::string(to_string(first.data_type)));
    if (input.rank() != first.rank())
      throw_error(ErrorKind::kTypeError, name() + " has rank " + std::to_string(input.rank()) + ", inputs[0] rank " +
                                             std::to_string(first.rank()));
    for (size_t dim = 0; dim < input.rank(); ++dim) {
      if (dim != axis) {
        if (input.shape[dim] != first.shape[dim])
          throw_error(ErrorKind::kTypeError, name() + " shape " + shape_to_string(input.shape) +
                                                 " differs from inputs[0] " + shape_to_string(first.shape) +
                                                 " in dimension " + std::to_string(dim) + ", which is not the axis");
      } else {
        const int64_t size = int64_t{out.shape[axis]} + input.shape[dim];
        if (!is_valid_dimension(size))
          throw_error(ErrorKind::kTypeError,
                      who + ": the concatenated size along axis " + std::to_string(axis) + " is not a valid dimension");
        out.shape[axis] = static_cast<uint32_t>(size);
      }
    }
  }
  return out;
}

// spec: #api-mlgraphbuilder-split
std::vector<OperandDescriptor> infer_split(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const auto& attrs = std::get<SplitAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  const uint32_t axis = attrs.axis;
  type_error_if(axis >= input.rank(), who + ": axis " + std::to_string(axis) + " must be less than the input rank " +
                                          std::to_string(input.rank()));
  const uint32_t size = input.shape[axis];
  std::vector<uint32_t> sizes;
  if (const auto* count = std::get_if<uint32_t>(&attrs.splits)) {
    type_error_if(!is_valid_tensor_count(*count),
                  who + ": splits (" + std::to_string(*count) + ") must be 1 to " + std::to_string(kMaxTensorCount));
    type_error_if(size % *count != 0, who + ": splits (" + std::to_string(*count) + ") must evenly divide the input " +
                                          "size " + std::to_string(size) + " along axis " + std::to_string(axis));
    sizes.assign(*count, size / *count);
  } else {
    sizes = std::get<std::vector<uint32_t>>(attrs.splits);
    type_error_if(!is_valid_tensor_count(sizes.size()), who + ": splits must list 1 to " +
                                                            std::to_string(kMaxTensorCount) + " sizes, got " +
                                                            std::to_string(sizes.size()));
    uint64_t sum = 0;
    for (uint32_t s : sizes) {
      if (s == 0) throw_error(ErrorKind::kTypeError, who + ": splits " + list_to_string(sizes) + " must not contain 0");
      sum += s;
    }
    type_error_if(sum != size, who + ": splits " + list_to_string(sizes) + " sum to " + std::to_string(sum) +
                                   " but the input size along axis " + std::to_string(axis) + " is " +
                                   std::to_string(size));
  }
  std::vector<OperandDescriptor> outs(sizes.size(), input);
  for (size_t i = 0; i < sizes.size(); ++i) outs[i].shape[axis] = sizes[i];
  return outs;
}

// spec: #api-mlgraphbuilder-slice
OperandDescriptor infer_slice(const Graph& graph, Operation& op) {
  expect_input_count(op, 1);
  auto& attrs = std::get<SliceAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  for (uint32_t s : attrs.sizes)
    if (s == 0)
      throw_error(ErrorKind::kTypeError, who + ": sizes " + list_to_string(attrs.sizes) + " must not contain 0");
  const size_t rank = input.rank();
  type_error_if(attrs.starts.size() != rank || attrs.sizes.size() != rank,
                who + ": starts " + list_to_string(attrs.starts) + " and sizes " + list_to_string(attrs.sizes) +
                    " must both have " + std::to_string(rank) + " values (the input rank)");
  attrs.strides.resolve(std::vector<uint32_t>(rank, 1));
  type_error_if(attrs.strides->size() != rank, who + ": strides " + list_to_string(*attrs.strides) + " must have " +
                                                   std::to_string(rank) + " values (the input rank)");
  OperandDescriptor out{input.data_type, {}};
  for (size_t i = 0; i < rank; ++i) {
    const uint64_t input_size = input.shape[i];
    const uint64_t start = attrs.starts[i];
    const uint64_t slice_size = attrs.sizes[i];
    const uint64_t stride = (*attrs.strides)[i];
    if (stride < 1)
      throw_error(ErrorKind::kTypeError, who + ": strides " + list_to_string(*attrs.strides) + " must not contain 0");
    if (start > input_size)
      throw_error(ErrorKind::kTypeError, who + ": start " + std::to_string(start) + " in dimension " +
                                             std::to_string(i) + " is beyond the input size " +
                                             std::to_string(input_size));
    if (start + slice_size > input_size)
      throw_error(ErrorKind::kTypeError, who + ": start " + std::to_string(start) + " + size " +
                                             std::to_string(slice_size) + " in dimension " + std::to_string(i) +
                                             " exceeds the input size " + std::to_string(input_size));
    out.shape.push_back(static_cast<uint32_t>(slice_size / stride + (slice_size % stride != 0 ? 1 : 0)));
  }
  return out;
}

// spec: #api-mlgraphbuilder-expand
OperandDescriptor infer_expand(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const Shape& new_shape = std::get<ExpandAttrs>(op.attrs).new_shape;
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  for (uint32_t d : new_shape)
    if (!is_valid_dimension(d))
      throw_error(ErrorKind::kTypeError, who + ": newShape " + shape_to_string(new_shape) + " contains " +
                                             std::to_string(d) + ", not a valid dimension");
  const std::optional<Shape> out = broadcast_unidirectional(input.shape, new_shape);
  type_error_if(!out, who + ": the input shape " + shape_to_string(input.shape) +
                          " is not unidirectionally broadcastable to newShape " + shape_to_string(new_shape));
  const TensorLimit* output_row = find_tensor_limit(op.kind, "output");
  type_error_if(output_row && (out->size() < output_row->min_rank || out->size() > output_row->max_rank),
                who + ": newShape " + shape_to_string(new_shape) + " has rank " + std::to_string(out->size()) +
                    ", beyond the supported output ranks");
  return {input.data_type, *out};
}

// spec: #api-mlgraphbuilder-pad. The padding value is cast to the input's data type by the kernel
// (ops/number_cast.hpp), which never fails.
OperandDescriptor infer_pad(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const auto& attrs = std::get<PadAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  const size_t rank = input.rank();
  type_error_if(attrs.beginning_padding.size() != rank || attrs.ending_padding.size() != rank,
                who + ": beginningPadding " + list_to_string(attrs.beginning_padding) + " and endingPadding " +
                    list_to_string(attrs.ending_padding) + " must both have " + std::to_string(rank) +
                    " values (the input rank)");
  OperandDescriptor out = input;
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t size = input.shape[i];
    const uint32_t begin = attrs.beginning_padding[i], end = attrs.ending_padding[i];
    // Reflection mirrors about the edge element without repeating it: at most size - 1 values.
    if (attrs.mode == PaddingMode::kReflection && (begin >= size || end >= size))
      throw_error(ErrorKind::kTypeError, who + ": reflection padding (" + std::to_string(begin) + ", " +
                                             std::to_string(end) + ") in dimension " + std::to_string(i) +
                                             " must be smaller than the input size " + std::to_string(size));
    const uint64_t padded = uint64_t{size} + begin + end;
    if (!is_valid_dimension(static_cast<int64_t>(padded)))
      throw_error(ErrorKind::kTypeError, who + ": the padded size " + std::to_string(padded) + " of dimension " +
                                             std::to_string(i) + " is not a valid dimension");
    out.shape[i] = static_cast<uint32_t>(padded);
  }
  return out;
}

// spec: #api-mlgraphbuilder-reverse-method. The spec says "return failure" for bad axes; a
// builder method reports failure as a TypeError.
OperandDescriptor infer_reverse(const Graph& graph, Operation& op) {
  expect_input_count(op, 1);
  auto& attrs = std::get<ReverseAttrs>(op.attrs);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  resolve_axes(op_prefix(op) + ": axes", attrs.axes, axes_from(0, input.rank()), input.rank());
  return input;
}

// spec: #api-mlgraphbuilder-tile
OperandDescriptor infer_tile(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const auto& repetitions = std::get<TileAttrs>(op.attrs).repetitions;
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  check_option_list(op, "repetitions", repetitions, input.rank(), /*nonzero=*/true);
  OperandDescriptor out = input;
  for (size_t i = 0; i < input.rank(); ++i) {
    const uint64_t size = uint64_t{input.shape[i]} * repetitions[i];
    if (!is_valid_dimension(static_cast<int64_t>(size)))
      throw_error(ErrorKind::kTypeError, who + ": the tiled size " + std::to_string(size) + " of dimension " +
                                             std::to_string(i) + " is not a valid dimension");
    out.shape[i] = static_cast<uint32_t>(size);
  }
  return out;
}

// spec: #api-mlgraphbuilder-triangular. upper and diagonal take any value.
OperandDescriptor infer_triangular(const Graph& graph, const Operation& op) {
  expect_input_count(op, 1);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  return input;
}

}  // namespace

std::vector<OperandDescriptor> infer_shape(const Graph& graph, Operation& op) {
  switch (op.kind) {
    case OpKind::kReshape:
      return {infer_reshape(graph, op)};
    case OpKind::kTranspose:
      return {infer_transpose(graph, op)};
    case OpKind::kConcat:
      return {infer_concat(graph, op)};
    case OpKind::kSplit:
      return infer_split(graph, op);
    case OpKind::kSlice:
      return {infer_slice(graph, op)};
    case OpKind::kExpand:
      return {infer_expand(graph, op)};
    case OpKind::kPad:
      return {infer_pad(graph, op)};
    case OpKind::kReverse:
      return {infer_reverse(graph, op)};
    case OpKind::kTile:
      return {infer_tile(graph, op)};
    case OpKind::kTriangular:
      return {infer_triangular(graph, op)};
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a shape operator");
}

}  // namespace webnn::ops
