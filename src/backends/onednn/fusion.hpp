// Which operations fold into a convolution or matmul as oneDNN post-ops. An anchor (conv2d,
// convTranspose2d, matmul, gemm in float32) absorbs the chain of operations that follows it as long
// as each link is the only reader of the value before it, that value is not a graph output, and
// the link is an activation oneDNN computes exactly enough (relu, clamp, sigmoid, tanh, hardSwish,
// leakyRelu, linear, hardSigmoid, abs, sqrt, neg) or an add/sub/mul/div whose other operand is
// ready before the anchor runs (a residual, a bias, a scale). x * sigmoid(x) (SiLU) and
// x * hardSigmoid(x) with alpha 1/6 and beta 1/2 (hardSwish as PyTorch exports it below opset 14),
// where x is read by those two alone, are one link of two operations: oneDNN's swish or hardswish
// post-op.
//
// oneDNN's activation post-ops turn NaN into a number (relu, clamp, sigmoid) and -Infinity into NaN
// (relu, hardSwish), so an activation is fused only where the value it reads cannot hold a NaN or
// an infinity (may_hold_specials). The plan that fuses them runs only on inputs without any
// (docs/onednn.md, "NaN and infinities"). exp, log, softplus, gelu and elu are
// never fused: oneDNN 2.6 computes them inaccurately; they run our own kernels (eltwise.hpp).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "graph/graph.hpp"

namespace webnn::onednn {

// "No operation", "no tensor": the value of an index that points nowhere.
inline constexpr size_t kNone = static_cast<size_t>(-1);

inline bool is_constant(const Graph& g, OperandId id) { return g.operands[id].kind == OperandKind::kConstant; }

struct PostOp {
  bool binary = false;
  dnnl::algorithm algorithm = dnnl::algorithm::undef;
  float alpha = 0, beta = 0;  // eltwise parameters
  OperandId other = 0;        // binary: the operand that is not the chain's value
};

// Element i of float32 or float16 bytes (a constant's), as float.
float float_at(const void* data, size_t i, DataType type);

// The eltwise post-ops that compute `op` (one activation may take two, e.g. hardSigmoid =
// clip(linear(x))); empty when oneDNN has none accurate enough.
std::vector<PostOp> eltwise_chain(const Operation& op);

// The kinds of non-finite value an operand may hold, as bits of may_hold_specials' result.
enum Special : uint8_t { kNaN = 1, kPlusInfinity = 2, kMinusInfinity = 4, kAnySpecial = 7 };
// By OperandId: the kinds of NaN or infinity the value may hold (other than by overflow; 0 where it
// is finite): those of a constant holding any, all of them for a graph input when `inputs` says
// so and for the output of an operation that makes them from finite values (div, pow, reciprocal,
// log, sqrt, reduceLogSum, normalizations dividing by a given variance or with epsilon 0). An
// operation that only moves values (reshape, transpose, where, gather, pad with its value, ...)
// holds what its inputs hold; add and sub hold their inputs' infinities, and a NaN where two can
// cancel (so an attention mask of 0 and -Infinity added to finite scores holds -Infinity only);
// any other operation reading a special value may hold all of them. `rows_not_masked_whole`: assume
// that no row a softmax normalises is -Infinity whole, so that a softmax of values holding no other
// special value is finite (an attention mask; a row masked whole would be NaN), for a plan that
// checks each such softmax's output (Plan::assumes_finite_inputs).
std::vector<uint8_t> may_hold_specials(const Graph& graph, bool inputs, bool rows_not_masked_whole = false);
// The oneDNN algorithm of add, sub, mul and div.
std::optional<dnnl::algorithm> binary_algorithm(OpKind kind);

class Fusion {
 public:
  // `specials`: may_hold_specials of the graph.
  Fusion(const Graph& graph, const std::vector<uint8_t>& specials);
  // The anchor operation `index` was fused into, or size_t(-1).
  size_t fused_into(size_t index) const { return fused_into_[index]; }
  // The operations fused into `anchor`, in order.
  const std::vector<size_t>& chain(size_t anchor) const { return chains_[anchor]; }
  // The operand the anchor's fused primitive writes: the last link's output, or its own.
  OperandId chain_output(size_t anchor) const;
  // The anchor's own post-ops (gemm's alpha and c), then those of its chain.
  const std::vector<PostOp>& post_ops(size_t anchor) const { return post_ops_[anchor]; }
  // Whether an activation was fused anywhere (then the plan must not see a NaN or infinity).
  bool fused_activation() const { return fused_activation_; }
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
  bool fused_activation_ = false;
};

}  // namespace webnn::onednn
