// One operation run on host tensors by the reference kernels, outside any context and timeline:
// for code that evaluates an op on values known ahead of time. The ONNX importer folds constants
// with it (as ONNX Runtime folds with its own kernels), so a folded value is exactly what running
// the op would give, and no second evaluator restates the kernels.
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace webnn::reference {

// A tensor in host memory: its descriptor and its bytes (C order, byte_length() of them).
struct HostTensor {
  OperandDescriptor desc;
  BufferRef data;
};

// Validates `kind` on `inputs` with `attrs` exactly as GraphBuilder validates every operation
// (src/ops/; a failure throws that error), then computes its outputs with the reference kernels.
// The inputs are read in place; each output is allocated once, at its descriptor's byte length,
// so a caller that bounds memory checks the output's size before calling.
std::vector<HostTensor> run_operation(OpKind kind, const std::vector<HostTensor>& inputs, const Attributes& attrs);

}  // namespace webnn::reference
