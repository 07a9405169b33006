// quantizeLinear and dequantizeLinear: reference kernels. (Being written.)
#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"

namespace webnn::reference {

Kernel make_quantization_kernel(const Graph& graph, const Operation& op) {
  throw_error(ErrorKind::kNotSupportedError, describe(op) + ": the reference backend has no kernel yet");
}

}  // namespace webnn::reference
