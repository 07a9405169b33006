// Recurrent operators (gru, gruCell, lstm, lstmCell): validation and output shapes. (Being written: the ops of this family are not
// validated yet and are rejected with NotSupportedError.)
#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

std::vector<OperandDescriptor> infer_recurrent(const Graph& graph, const Operation& op) {
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not implemented yet");
}

}  // namespace webnn::ops
