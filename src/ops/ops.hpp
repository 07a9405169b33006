// Validation and shape inference for every operator: the spec's builder-method algorithms.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"

namespace webnn::ops {

// Validates `op` (kind, positional inputs and attributes filled in; outputs empty) against the
// spec, resolves its attributes — every Defaulted option the caller left out gets the spec's
// default, so that backends, converters and the tolerance rules read the values the operation
// uses — and returns the descriptors of its outputs in order. `graph` holds every operand `op`
// may refer to. Throws webnn::Error (TypeError, as the spec says, unless it names another kind)
// with a message that names the op and the rule: "conv2d: input must be a 4-D tensor, got rank
// 3"; `op` may then be partly resolved (the caller drops it).
std::vector<OperandDescriptor> infer(const Graph& graph, Operation& op);

// One row of the spec's "tensor limits" table of an op (src/ops/tensor_limits.inc, generated from
// the spec by scripts/gen_tensor_limits.py).
struct TensorLimit {
  std::string_view op;            // spec method name
  std::string_view operand;       // "input", "filter", "bias", "output", "a", "inputs", ...
  DataTypeSet allowed_types;      // empty when same_type_as is set
  std::string_view same_type_as;  // operand whose data type this one must equal, or empty
  uint32_t min_rank;
  uint32_t max_rank;              // kMaxRank for "N"
  std::string_view same_rank_as;  // operand whose rank this one must equal, or empty
};

// Every row for `op`, in the spec's order.
std::span<const TensorLimit> tensor_limits(OpKind op);
// The row of `operand`, or nullptr.
const TensorLimit* find_tensor_limit(OpKind op, std::string_view operand);
// The member of the op's MLOpSupportLimits dictionary that reports `operand`'s row: the operand's
// name, except that the tables' "outputs[i]" (gru, lstm, lstmCell) is the IDL's "output<i>".
std::string support_limits_member(std::string_view operand);
// The data types the row accepts, resolving "same as" to the referenced operand's set.
DataTypeSet resolved_types(OpKind op, std::string_view operand);

// Checks an operand against its table row: data type (the allowed list, or equal to
// `reference`'s when the row says "same as") and rank (the range, or equal to `reference`'s).
// Throws TypeError naming the op and the operand.
void check_tensor_limit(OpKind op, std::string_view operand, const OperandDescriptor& desc,
                        const OperandDescriptor* reference = nullptr);

}  // namespace webnn::ops
