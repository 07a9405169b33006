// The graph rewrites the onednn backend makes before compiling (docs/onednn.md, "Rewrites"): a
// graph that computes the same values, up to rounding, with fewer and faster operations. Imported
// models need them most: PyTorch's exports spell GELU and (below opset 17) layer normalization as
// chains of element-wise operations and reductions, and leave operations over constants that only
// its own constant folding would have removed.
//   - Folding: an operation whose operands are all constants and whose results are small (at most
//     kMaxFoldedElements each, none of them a graph output) is computed once, by the reference
//     kernels, and its results become constants. Fewer steps, and the NaN analysis (fusion.hpp)
//     sees their values: Swin-T's attention scale, pow(32, -0.5), otherwise "may make" a NaN and
//     sends every softmax after it to the reference kernel.
//   - Compositions: 0.5 * x * (1 + erf(x / sqrt(2))) in any of its association orders (x * 0.7071
//     for the division too) becomes gelu(x), which is the spec's definition of gelu; the chain
//     mean, x - mean, its square, their mean, + epsilon, sqrt, division, [* scale], [+ bias] over
//     trailing axes becomes layerNormalization. Only where every intermediate value is read inside
//     the composition alone and is no graph output.
//   - Identities: identity, and pad with no padding, become a reshape to the same shape (a view).
//   - Convolution taps that read only padding: a conv2d with a constant filter whose outer taps
//     meet the input at no output position (an atrous convolution dilated past its input) loses
//     those taps and their padding; oneDNN's reference implementation ran the whole window.
// The reference backend compiles the graph as written: it is the oracle the rewrites are tested
// against.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace webnn::onednn {

// The largest result, in elements, that folding computes at build time: masks, scales, index
// tables, the gathered bias of an attention, not weights.
inline constexpr uint64_t kMaxFoldedElements = 65536;

struct Rewritten {
  // The graph to compile: the input graph itself when nothing was rewritten.
  std::shared_ptr<const Graph> graph;
  // By operation of the input graph: the operation of `graph` that computes it (alone, or as part
  // of a composition), or kFolded.
  std::vector<size_t> computed_by;
  static constexpr size_t kFolded = static_cast<size_t>(-1);

  // The placement of each operation of the input graph, given that of `graph`'s: a composition's
  // members are placed where the operation that replaced it runs; folded ones "onednn" (the
  // backend computed them when it compiled).
  std::vector<std::string> original_placement(const std::vector<std::string>& placement) const;
};

Rewritten rewrite(std::shared_ptr<const Graph> graph);

}  // namespace webnn::onednn
