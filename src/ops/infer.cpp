#include "ops/families.hpp"
#include "ops/ops.hpp"

namespace webnn::ops {

std::vector<OperandDescriptor> infer(const Graph& graph, Operation& op) {
  switch (op.kind) {
#define WEBNN_OP(Enum, name, Attrs, family, ...) \
  case OpKind::k##Enum:                          \
    return infer_##family(graph, op);
#include "graph/op_table.def"
#undef WEBNN_OP
  }
  throw_error(ErrorKind::kNotSupportedError, "unknown operator");
}

}  // namespace webnn::ops
