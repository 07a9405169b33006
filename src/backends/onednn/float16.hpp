// float16 graphs on the onednn backend, computed in float32. oneDNN 2.6 has no fast float16 kernel
// on a processor without AVX512-FP16: its convolution, matmul, eltwise and binary primitives refuse
// float16, and its reorders convert float16 element by element (tens of nanoseconds each). So
// before compiling, a graph with float16 operations is rewritten into one that computes them in
// float32 (widen_float16), and every conversion between the two types runs as one vectorised,
// multi-threaded pass (convert_float16):
//   - the float16 operations that oneDNN computes, and those that only move or select values,
//     take float32 operands instead: graph inputs are converted once on entry, constants once at
//     build time, graph outputs once on exit;
//   - their float-valued options that the spec casts to the input's data type (clamp's bounds,
//     linear's alpha and beta, gemm's alpha and beta, epsilon, pad's value, ...) are cast to
//     float16 first, so they hold the values the spec computes with;
//   - every other float16 operation keeps its exact float16 semantics on its reference kernel and
//     reads float16 values: casts, comparisons, isNaN/isInfinite, argMin/argMax, floor, ceil,
//     roundEven, sign, quantizeLinear, reductions, the normalizations other than layer
//     normalization, recurrent networks, ... A float32 value they read is rounded to float16 first
//     (a conversion): the value the spec's float16 operation before it produces.
// Between widened operations values stay float32 (unrounded): a chain of them rounds once, at its
// end, so it is more accurate than the spec's float16 evaluation and may differ from it by a float16
// ULP or so; and a value past float16's range (|x| >= 65520) stays finite until the next rounding
// point instead of becoming Infinity at once (docs/onednn.md).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace webnn::onednn {

struct Float16Widening {
  // The graph to compile: the input graph itself when it has no float16 operation to widen.
  std::shared_ptr<const Graph> graph;
  // By operation of `graph`: the operation of the input graph it computes, or kAddedConversion.
  std::vector<size_t> origin;
  static constexpr size_t kAddedConversion = static_cast<size_t>(-1);

  // The placement of each operation of the input graph (`count` of them), given that of `graph`'s.
  std::vector<std::string> original_placement(const std::vector<std::string>& placement, size_t count) const;
};

Float16Widening widen_float16(std::shared_ptr<const Graph> graph);

// Whether `op` is a cast between float16 and float32 (in either direction).
bool is_float16_conversion(const Graph& graph, const Operation& op);

// Converts `count` values, float16 to float32 (exact) or float32 to float16 (nearest even,
// overflowing to +-Infinity), with F16C instructions where the processor has them. Neither buffer
// needs any alignment. The serial form runs on the calling thread alone (at build time); the
// parallel one splits the work over the calling thread's OpenMP team (a step of a running plan).
void convert_float16(const std::byte* src, std::byte* dst, size_t count, bool to_float16);
void convert_float16_parallel(const std::byte* src, std::byte* dst, size_t count, bool to_float16);

}  // namespace webnn::onednn
