// Gather and scatter operators: gather, gatherElements, gatherND, scatterElements, scatterND.
// Validation and output shapes. The index values are runtime data and are not checked here; the
// kernels clamp them into range (docs/operators.md).
#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

void check_axis(const std::string& who, uint32_t axis, const OperandDescriptor& input) {
  type_error_if(axis >= input.rank(), who + ": axis " + std::to_string(axis) + " must be less than the input rank " +
                                          std::to_string(input.rank()));
}

// gatherElements and scatterElements: indices must have the input's shape except along the axis.
void check_indices_shape_along_axis(const std::string& who, uint32_t axis, const OperandDescriptor& input,
                                    const OperandDescriptor& indices) {
  Shape expected = input.shape;
  expected[axis] = indices.shape[axis];
  type_error_if(indices.shape != expected, who + ": indices shape " + shape_to_string(indices.shape) +
                                               " must equal the input shape " + shape_to_string(input.shape) +
                                               " except along axis " + std::to_string(axis));
}

// gatherND and scatterND: the last dimension of indices is the length of each coordinate; the
// result (gatherND's output, scatterND's updates) has shape
// indices.shape[0, rank - 1) + input.shape[coordinateSize, inputRank).
Shape nd_slices_shape(const std::string& who, const OperandDescriptor& input, const OperandDescriptor& indices) {
  const size_t indexable_size = indices.rank() - 1;
  const uint32_t coordinate_size = indices.shape[indexable_size];
  type_error_if(coordinate_size > input.rank(), who + ": the last dimension of indices " +
                                                    shape_to_string(indices.shape) + " (" +
                                                    std::to_string(coordinate_size) +
                                                    ") must not exceed the input rank " + std::to_string(input.rank()));
  Shape out(indices.shape.begin(), indices.shape.begin() + static_cast<std::ptrdiff_t>(indexable_size));
  out.insert(out.end(), input.shape.begin() + coordinate_size, input.shape.end());
  return out;
}

// spec: #api-mlgraphbuilder-gather
OperandDescriptor infer_gather_op(const Graph& graph, const Operation& op) {
  expect_input_count(op, 2);
  const uint32_t axis = std::get<GatherAttrs>(op.attrs).axis;
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& indices = input_desc(graph, op, 1);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "indices", indices);
  check_axis(who, axis, input);
  // input.shape[0, axis) + indices.shape + input.shape(axis, rank)
  Shape out(input.shape.begin(), input.shape.begin() + axis);
  out.insert(out.end(), indices.shape.begin(), indices.shape.end());
  out.insert(out.end(), input.shape.begin() + axis + 1, input.shape.end());
  return {input.data_type, out};
}

// spec: #api-mlgraphbuilder-gatherelements. The spec's steps copy the input's descriptor for the
// output, but the output is indexed by the indices (its examples: input [4, 3] and indices [2, 3]
// give an output [2, 3]); the output takes the indices' shape and the input's data type.
OperandDescriptor infer_gather_elements(const Graph& graph, const Operation& op) {
  expect_input_count(op, 2);
  const uint32_t axis = std::get<GatherAttrs>(op.attrs).axis;
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& indices = input_desc(graph, op, 1);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "indices", indices, &input);
  check_axis(who, axis, input);
  check_indices_shape_along_axis(who, axis, input, indices);
  return {input.data_type, indices.shape};
}

// spec: #api-mlgraphbuilder-gathernd
OperandDescriptor infer_gather_nd(const Graph& graph, const Operation& op) {
  expect_input_count(op, 2);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& indices = input_desc(graph, op, 1);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "indices", indices);
  return {input.data_type, nd_slices_shape(op_prefix(op), input, indices)};
}

// spec: #api-mlgraphbuilder-scatterelements
OperandDescriptor infer_scatter_elements(const Graph& graph, const Operation& op) {
  expect_input_count(op, 3);
  const uint32_t axis = std::get<ScatterAttrs>(op.attrs).axis;
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& indices = input_desc(graph, op, 1);
  const OperandDescriptor& updates = input_desc(graph, op, 2);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "indices", indices, &input);
  check_tensor_limit(op.kind, "updates", updates, &input);
  check_axis(who, axis, input);
  check_indices_shape_along_axis(who, axis, input, indices);
  type_error_if(updates.shape != indices.shape, who + ": updates shape " + shape_to_string(updates.shape) +
                                                    " must equal the indices shape " + shape_to_string(indices.shape));
  return input;
}

// spec: #api-mlgraphbuilder-scatternd
OperandDescriptor infer_scatter_nd(const Graph& graph, const Operation& op) {
  expect_input_count(op, 3);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  const OperandDescriptor& indices = input_desc(graph, op, 1);
  const OperandDescriptor& updates = input_desc(graph, op, 2);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "indices", indices);
  check_tensor_limit(op.kind, "updates", updates, &input);
  const Shape expected = nd_slices_shape(who, input, indices);
  type_error_if(updates.shape != expected, who + ": updates shape " + shape_to_string(updates.shape) + " must be " +
                                               shape_to_string(expected) +
                                               " (indices.shape[0, rank - 1) + input.shape[coordinateSize, rank))");
  return input;
}

}  // namespace

std::vector<OperandDescriptor> infer_gather(const Graph& graph, Operation& op) {
  switch (op.kind) {
    case OpKind::kGather:
      return {infer_gather_op(graph, op)};
    case OpKind::kGatherElements:
      return {infer_gather_elements(graph, op)};
    case OpKind::kGatherNd:
      return {infer_gather_nd(graph, op)};
    case OpKind::kScatterElements:
      return {infer_scatter_elements(graph, op)};
    case OpKind::kScatterNd:
      return {infer_scatter_nd(graph, op)};
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a gather or scatter operator");
}

}  // namespace webnn::ops
