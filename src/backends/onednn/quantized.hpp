// int8 QDQ patterns on the onednn backend. A float32 convolution, transposed convolution, matmul or
// gemm whose input is dequantizeLinear(x) of a uint8/int8 tensor with one scale and zero point,
// and whose filter (B) is dequantizeLinear(w) of a constant int8 tensor with zero point 0 and one
// scale or one per output channel, runs as one oneDNN int8 primitive on x and w: the scales become
// its output scales (x's scale times each channel's), x's zero point its source zero point, a
// float32 bias (a constant, or dequantizeLinear of constants) is divided by the output scale, as
// oneDNN adds it to the int32 accumulator. A quantizeLinear with one scale and zero point after
// the anchor's fused chain of element-wise post-ops is folded in too: the primitive then writes
// the uint8/int8 result (its scale divides the output scale, or is a last linear post-op when the
// chain is not made of relu and clamp, which commute with a positive scale), and its zero point is
// the destination zero point. These are exactly the forms oneDNN 2.6 expresses: it has no weight
// zero points for convolution, one combined output scale (per tensor or per output channel), and
// one zero point for the source and one for the destination. Every other quantized pattern (block
// scales, weight zero points, per-channel activation scales, float16 scales, ...) runs as before.
//
// The residual add of a QDQ network, dequantizeLinear of both operands, add, quantizeLinear, runs as
// one pass of our own over the 8-bit tensors (exactly the reference's values).
//
// Also: stand-alone per-tensor dequantizeLinear (uint8/int8 -> float32) and quantizeLinear
// (float32 -> uint8/int8) kernels of our own, vectorised, computing exactly what the reference
// kernels compute (docs/onednn.md, "int8").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "backends/onednn/fusion.hpp"
#include "backends/onednn/weight_only.hpp"
#include "graph/graph.hpp"

namespace webnn::onednn {

struct QuantizedAnchor {
  OperandId src = 0;  // the uint8/int8 input the anchor reads instead of its dequantized form
  float src_scale = 1;
  int32_t src_zero_point = 0;
  OperandId weights = 0;                   // the constant int8 filter (B)
  std::vector<float> weight_scales;        // one, or one per output channel (all groups)
  std::optional<std::vector<float>> bias;  // convolutions: the float32 bias values, when there is one
  // The quantizeLinear folded in (kNone: the primitive writes the chain's float32 output).
  size_t quantize = static_cast<size_t>(-1);
  OperandId quantized_output = 0;
  float dst_scale = 1;
  int32_t dst_zero_point = 0;
  std::vector<size_t> dequantizes;  // the dequantizeLinear operations it reads through
};

// A per-tensor quantize/dequantize (see own_quantization below).
struct QuantizeOp {
  bool quantize = false;
  bool is_signed = false;  // int8 (else uint8)
  float scale = 1;
  int32_t zero_point = 0;
};

// quantizeLinear(dequantizeLinear(a) + dequantizeLinear(b)), all per tensor and of one shape (the
// residual add of a QDQ network): one pass of our own over the 8-bit operands, computing what the
// three reference kernels and the float32 add compute.
struct QuantizedAdd {
  OperandId a = 0, b = 0;  // the 8-bit operands
  QuantizeOp dequantize_a, dequantize_b, quantize;
  size_t quantize_op = static_cast<size_t>(-1);
  OperandId output = 0;  // the quantizeLinear's
  std::vector<size_t> dequantizes;
};

class QuantizedFusion {
 public:
  QuantizedFusion(const Graph& graph, const Fusion& fusion);
  // The one-pass form of add `index`, when it has one.
  const QuantizedAdd* add(size_t index) const { return adds_[index] ? &*adds_[index] : nullptr; }
  // The int8 form of anchor `index`, when it has one.
  const QuantizedAnchor* anchor(size_t index) const { return anchors_[index] ? &*anchors_[index] : nullptr; }
  // The weight-only int8 form of matmul or gemm `index` (weight_only.hpp), when it has one.
  const WeightOnlyMatmul* weight_only(size_t index) const {
    return weight_only_[index] ? &*weight_only_[index] : nullptr;
  }
  // Whether operation `index` (a dequantizeLinear or quantizeLinear) is computed inside int8
  // anchors and weight-only products only, so it needs no step of its own.
  bool absorbed(size_t index) const { return absorbed_[index]; }
  // Anchor `index` could not become an int8 primitive: it runs as a float32 one. Returns the
  // dequantizeLinear operations it read through that must now be lowered (they precede it), and
  // gives its quantizeLinear back to the normal path.
  std::vector<size_t> release(size_t index);

 private:
  std::vector<std::optional<QuantizedAnchor>> anchors_;
  std::vector<std::optional<QuantizedAdd>> adds_;
  std::vector<std::optional<WeightOnlyMatmul>> weight_only_;
  std::vector<bool> absorbed_;
};

// The values of a constant float32, uint8, int8 or int32 operand as doubles; nullopt for any other
// operand.
std::optional<std::vector<double>> constant_values(const Graph& graph, OperandId id);

// A per-tensor quantizeLinear (float32 -> uint8/int8) or dequantizeLinear (uint8/int8 -> float32)
// with constant scale and zero point: the operations our own kernel runs.
std::optional<QuantizeOp> own_quantization(const Graph& graph, const Operation& op);

// Runs `op` over `n` elements (uint8/int8 in, float32 out, or the reverse), split over the calling
// thread's OpenMP team for large tensors. The results are those of the reference kernels.
void run_quantization(const QuantizeOp& op, const void* in, void* out, size_t n);
// The same for a QuantizedAdd over `n` elements of `a`, `b` and `out` (in one layout).
void run_quantized_add(const QuantizedAdd& op, const void* a, const void* b, void* out, size_t n);

}  // namespace webnn::onednn
