// matmul and gemm validation and output shape.
#include <algorithm>

#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// spec: #api-mlgraphbuilder-matmul. Both operands are at least 2-D in this version of the spec
// (no rank-1 promotion); the batch dimensions broadcast bidirectionally.
OperandDescriptor infer_matmul_op(const Graph& graph, const Operation& op) {
  expect_input_count(op, 2);
  const OperandDescriptor& a = input_desc(graph, op, 0);
  const OperandDescriptor& b = input_desc(graph, op, 1);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "a", a);
  check_tensor_limit(op.kind, "b", b, &a);
  const size_t rank_a = a.rank(), rank_b = b.rank();
  const uint32_t cols_a = a.shape[rank_a - 1], rows_a = a.shape[rank_a - 2];
  const uint32_t cols_b = b.shape[rank_b - 1], rows_b = b.shape[rank_b - 2];
  type_error_if(cols_a != rows_b, who + ": the columns of a (" + std::to_string(cols_a) +
                                      ") must equal the rows of b (" + std::to_string(rows_b) + "), shapes " +
                                      shape_to_string(a.shape) + " and " + shape_to_string(b.shape));
  const Shape batch_a(a.shape.begin(), a.shape.end() - 2);
  const Shape batch_b(b.shape.begin(), b.shape.end() - 2);
  auto out = broadcast_bidirectional(batch_a, batch_b);
  type_error_if(!out, who + ": batch shapes " + shape_to_string(batch_a) + " and " + shape_to_string(batch_b) +
                          " are not bidirectionally broadcastable");
  out->push_back(rows_a);
  out->push_back(cols_b);
  return {a.data_type, std::move(*out)};
}

// spec: #api-mlgraphbuilder-gemm. alpha and beta are cast to a's data type by the kernels.
OperandDescriptor infer_gemm(const Graph& graph, const Operation& op) {
  expect_input_count(op, 2);
  const auto& attrs = std::get<GemmAttrs>(op.attrs);
  const OperandDescriptor& a = input_desc(graph, op, 0);
  const OperandDescriptor& b = input_desc(graph, op, 1);
  const std::string who = op_prefix(op);
  check_tensor_limit(op.kind, "a", a);
  check_tensor_limit(op.kind, "b", b, &a);
  Shape shape_a = a.shape, shape_b = b.shape;
  if (attrs.a_transpose) std::reverse(shape_a.begin(), shape_a.end());
  if (attrs.b_transpose) std::reverse(shape_b.begin(), shape_b.end());
  type_error_if(shape_a[1] != shape_b[0], who + ": the columns of a (" + std::to_string(shape_a[1]) +
                                              ") must equal the rows of b (" + std::to_string(shape_b[0]) +
                                              ") after the transposes, shapes " + shape_to_string(shape_a) + " and " +
                                              shape_to_string(shape_b));
  const Shape out{shape_a[0], shape_b[1]};
  if (attrs.c) {
    const OperandDescriptor& c = graph.desc(attrs.c->id);
    type_error_if(!broadcast_unidirectional(c.shape, out), who + ": c shape " + shape_to_string(c.shape) +
                                                               " is not unidirectionally broadcastable to " +
                                                               shape_to_string(out));
    check_tensor_limit(op.kind, "c", c, &a);
  }
  return {a.data_type, out};
}

}  // namespace

std::vector<OperandDescriptor> infer_matmul(const Graph& graph, Operation& op) {
  switch (op.kind) {
    case OpKind::kMatmul:
      return {infer_matmul_op(graph, op)};
    case OpKind::kGemm:
      return {infer_gemm(graph, op)};
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a matrix multiplication operator");
}

}  // namespace webnn::ops
