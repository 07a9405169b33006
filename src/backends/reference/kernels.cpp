#include "backends/reference/kernels.hpp"

namespace webnn::reference {

// The op table's family column names the factory: ops of family F are built by
// make_F_kernel(), so a new op of an existing family needs no change here.
Kernel make_kernel(const Graph& graph, const Operation& op) {
  switch (op.kind) {
#define WEBNN_OP(Enum, name, Attrs, family, ...) \
  case OpKind::k##Enum:                          \
    return make_##family##_kernel(graph, op);
#include "graph/op_table.def"
#undef WEBNN_OP
  }
  throw_error(ErrorKind::kNotSupportedError, describe(op) + ": the reference backend has no kernel");
}

}  // namespace webnn::reference
