#include <algorithm>
#include <vector>

#include "ops/ops.hpp"

namespace webnn::ops {

namespace {
constexpr TensorLimit kRows[] = {
#include "ops/tensor_limits.inc"
};

// Rows grouped by OpKind, built once.
const std::vector<std::vector<TensorLimit>>& rows_by_op() {
  static const auto table = [] {
    std::vector<std::vector<TensorLimit>> t(kOpKindCount);
    for (const TensorLimit& row : kRows)
      if (auto kind = parse_op_name(row.op)) t[static_cast<size_t>(*kind)].push_back(row);
    return t;
  }();
  return table;
}

std::string rank_text(const TensorLimit& row) {
  if (row.min_rank == row.max_rank) return "a " + std::to_string(row.min_rank) + "-D tensor";
  if (row.max_rank >= kMaxRank) return "a tensor of rank >= " + std::to_string(row.min_rank);
  return "a tensor of rank " + std::to_string(row.min_rank) + " to " + std::to_string(row.max_rank);
}
}  // namespace

std::span<const TensorLimit> tensor_limits(OpKind op) { return rows_by_op()[static_cast<size_t>(op)]; }

const TensorLimit* find_tensor_limit(OpKind op, std::string_view operand) {
  for (const TensorLimit& row : tensor_limits(op))
    if (row.operand == operand) return &row;
  return nullptr;
}

DataTypeSet resolved_types(OpKind op, std::string_view operand) {
  const TensorLimit* row = find_tensor_limit(op, operand);
  for (int depth = 0; row && !row->same_type_as.empty() && depth < 4; ++depth)
    row = find_tensor_limit(op, row->same_type_as);
  return row ? row->allowed_types : DataTypeSet{};
}

void check_tensor_limit(OpKind op, std::string_view operand, const OperandDescriptor& desc,
                        const OperandDescriptor* reference) {
  const TensorLimit* row = find_tensor_limit(op, operand);
  if (!row) return;
  const std::string who = std::string(op_name(op)) + ": " + std::string(operand);
  if (!row->same_type_as.empty()) {
    if (reference && desc.data_type != reference->data_type)
      throw_error(ErrorKind::kTypeError, who + " must have the same data type as " + std::string(row->same_type_as) +
                                             " (" + std::string(to_string(reference->data_type)) + "), got " +
                                             std::string(to_string(desc.data_type)));
  } else if (!row->allowed_types.contains(desc.data_type)) {
    throw_error(ErrorKind::kTypeError, who + " data type " + std::string(to_string(desc.data_type)) +
                                           " is not one of the allowed data types (" + row->allowed_types.to_string() +
                                           ")");
  }
  if (!row->same_rank_as.empty()) {
    if (reference && desc.rank() != reference->rank())
      throw_error(ErrorKind::kTypeError, who + " must have the same rank as " + std::string(row->same_rank_as) + " (" +
                                             std::to_string(reference->rank()) + "), got rank " +
                                             std::to_string(desc.rank()));
  } else if (desc.rank() < row->min_rank || desc.rank() > row->max_rank) {
    throw_error(ErrorKind::kTypeError,
                who + " must be " + rank_text(*row) + ", got rank " + std::to_string(desc.rank()));
  }
}

std::string support_limits_member(std::string_view operand) {
  constexpr std::string_view kIndexed = "outputs[";
  if (operand.starts_with(kIndexed) && operand.ends_with("]"))
    return "output" + std::string(operand.substr(kIndexed.size(), operand.size() - kIndexed.size() - 1));
  return std::string(operand);
}

}  // namespace webnn::ops
