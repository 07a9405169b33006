// spec: #api-mlcontext-opsupportlimits. Built from the spec's tensor limits tables
// (src/ops/tensor_limits.inc) that validation checks against, so what a context reports and what
// build() accepts cannot disagree.
#include "graph/graph_builder.hpp"
#include "ops/ops.hpp"
#include "runtime/context_impl.hpp"

namespace webnn::detail {

namespace {

// Follows "same rank as" to the row that states the range.
MLRankRange rank_range(OpKind kind, const ops::TensorLimit& row) {
  const ops::TensorLimit* r = &row;
  for (int depth = 0; !r->same_rank_as.empty() && depth < 4; ++depth) {
    const ops::TensorLimit* next = ops::find_tensor_limit(kind, r->same_rank_as);
    if (!next) break;
    r = next;
  }
  return {r->min_rank, r->max_rank};
}

}  // namespace

MLOpSupportLimits ContextImpl::op_support_limits() const {
  MLOpSupportLimits limits;
  limits.preferred_input_layout = "nchw";
  limits.max_tensor_byte_length = kMaxTensorByteLength;
  const MLTensorLimits any{DataTypeSet::all().to_vector(), {0, static_cast<uint32_t>(kMaxRank)}};
  limits.input = any;
  limits.constant = any;
  limits.output = any;
  for (size_t k = 0; k < kOpKindCount; ++k) {
    const auto kind = static_cast<OpKind>(k);
    auto& op = limits.ops[std::string(op_name(kind))];
    for (const ops::TensorLimit& row : ops::tensor_limits(kind))
      op[ops::support_limits_member(row.operand)] =
          MLTensorLimits{ops::resolved_types(kind, row.operand).to_vector(), rank_range(kind, row)};
  }
  return limits;
}

}  // namespace webnn::detail
