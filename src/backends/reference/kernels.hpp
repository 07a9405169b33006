// The reference kernels: one factory per op family of graph/op_table.def (elementwise.cpp,
// logical.cpp, conv.cpp, pool.cpp, resample.cpp, matmul.cpp, normalization.cpp, reduction.cpp,
// shape.cpp, gather.cpp, recurrent.cpp, quantization.cpp) and make_kernel(), the switch on OpKind
// that picks one.
//
// A factory runs at compile time: it reads the op's attributes and descriptors, applies the spec's
// defaults for absent options, prepares what it can (repacked filters, scratch buffers) and returns
// a Kernel that only computes. At run time a kernel finds every operand's bytes in the value table,
// indexed by OperandId.
#pragma once

#include <cstddef>
#include <functional>
#include <span>

#include "graph/graph.hpp"

namespace webnn::reference {

// Operand bytes by OperandId: inputs and outputs bound to the caller's buffers, constants in
// place, intermediates in buffers the executable owns.
using Values = std::span<std::byte* const>;
using Kernel = std::function<void(Values)>;

Kernel make_elementwise_kernel(const Graph& graph, const Operation& op);
Kernel make_conv_kernel(const Graph& graph, const Operation& op);
Kernel make_pool_kernel(const Graph& graph, const Operation& op);
Kernel make_matmul_kernel(const Graph& graph, const Operation& op);
Kernel make_normalization_kernel(const Graph& graph, const Operation& op);
Kernel make_reduction_kernel(const Graph& graph, const Operation& op);
Kernel make_shape_kernel(const Graph& graph, const Operation& op);
Kernel make_logical_kernel(const Graph& graph, const Operation& op);
Kernel make_resample_kernel(const Graph& graph, const Operation& op);
Kernel make_gather_kernel(const Graph& graph, const Operation& op);
Kernel make_recurrent_kernel(const Graph& graph, const Operation& op);
Kernel make_quantization_kernel(const Graph& graph, const Operation& op);

// The kernel of `op`; throws NotSupportedError naming the op when it has none for its data types.
Kernel make_kernel(const Graph& graph, const Operation& op);

}  // namespace webnn::reference
