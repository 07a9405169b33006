// One validation entry point per op family; each lives in src/ops/<family>.cpp and switches on
// op.kind for the ops of its family (see graph/op_table.def).
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace webnn::ops {

std::vector<OperandDescriptor> infer_elementwise(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_conv(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_pool(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_matmul(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_normalization(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_reduction(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_shape(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_logical(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_resample(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_gather(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_recurrent(const Graph& graph, Operation& op);
std::vector<OperandDescriptor> infer_quantization(const Graph& graph, Operation& op);

}  // namespace webnn::ops
