// Which operations fold into a convolution or matmul as oneDNN post-ops. An anchor (conv2d,
// convTranspose2d, matmul, gemm in float32) absorbs the chain of operations that follows it as long
// as each link is the only reader of the value before it, that value is not a graph output, and
// the link is an activation oneDNN computes (relu, clamp, sigmoid, tanh, gelu, elu, hardSwish,
// leakyRelu, linear, hardSigmoid, softplus, abs, sqrt, exp, log, neg) or an add/sub/mul/div whose
// other operand is ready before the anchor runs (a residual, a bias, a scale).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <optional>
#include <vector>

#include "graph/graph.hpp"

namespace webnn::onednn {

struct PostOp {
  bool binary = false;
  dnnl::algorithm algorithm = dnnl::algorithm::undef;
  float alpha = 0, beta = 0;  // eltwise parameters
  OperandId other = 0;        // binary: the operand that is not the chain's value
};

// The eltwise post-ops that compute `op` (one activation may take two, e.g. hardSigmoid =
// clip(linear(x))); empty when oneDNN has none.
std::vector<PostOp> eltwise_chain(const Operation& op);
// The oneDNN algorithm of add, sub, mul and div.
std::optional<dnnl::algorithm> binary_algorithm(OpKind kind);

class Fusion {
 public:
  explicit Fusion(const Graph& graph);
  // The anchor operation `index` was fused into, or size_t(-1).
  size_t fused_into(size_t index) const { return fused_into_[index]; }
  // The operations fused into `anchor`, in order.
  const std::vector<size_t>& chain(size_t anchor) const { return chains_[anchor]; }
  // The operand the anchor's fused primitive writes: the last link's output, or its own.
  OperandId chain_output(size_t anchor) const;
  // The anchor's own post-ops (gemm's alpha and c), then those of its chain.
  const std::vector<PostOp>& post_ops(size_t anchor) const { return post_ops_[anchor]; }
  // Whether `anchor` can be one oneDNN primitive at all (gemm with beta other than 0 or 1 cannot).
  bool anchor_supported(size_t anchor) const { return supported_[anchor]; }
  // Gives the chain of an anchor that could not become a oneDNN primitive back to its members,
  // which are then lowered one by one.
  void unfuse(size_t anchor);
  // Whether every operation that reads `id`, other than `except`, comes before `anchor` in graph
  // order (so `id`'s bytes may be overwritten when `anchor` runs).
  bool read_only_before(OperandId id, size_t anchor, size_t except) const;

 private:
  const Graph& graph_;
  std::vector<size_t> fused_into_;
  std::vector<std::vector<size_t>> chains_;
  std::vector<std::vector<PostOp>> post_ops_;
  std::vector<bool> supported_;
  std::vector<std::vector<size_t>> readers_;  // by OperandId: the operations reading it, in order
};

}  // namespace webnn::onednn
