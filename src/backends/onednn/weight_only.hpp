// Weight-only int8 matrix products on the onednn backend: a float32 matmul or gemm whose B is
// dequantizeLinear of a constant int8 or uint8 matrix with constant float32 scales and zero points
// (one per tensor, per output channel, or per block along either axis, as dequantizeLinear's
// block-wise scales express) reads the 8-bit weights directly and never materialises their float32
// copy. This is how decoders are quantized for memory bandwidth (docs/transformers.md, "int8"):
// a decode step is a few rows times every weight matrix, so reading a quarter of the bytes is most
// of a step's time.
//
// Up to 8 rows (a decode step), each output is a dot product of the row with the 8-bit weights,
// widened to float32 in registers: per block of K, sum((w - zero_point) * x) * scale (vectorised
// for AVX-512 and AVX2, a scalar loop otherwise). More rows (a prompt) dequantize a panel of
// outputs at a time into a buffer of the thread's (the reference's values, (w - zp) * scale) and
// multiply it with oneDNN's sgemm (docs/onednn.md, "Weight-only int8"). gemm's alpha, beta and c
// are applied after the product. The result differs from the reference's (dequantizeLinear, then a
// float32 product) only in the order of the float32 roundings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "graph/graph.hpp"

namespace webnn::onednn {

struct WeightOnlyMatmul {
  size_t dequantize = 0;  // the dequantizeLinear operation B comes from
  OperandId a = 0;        // the float32 left operand, read as rows of k
  size_t rows = 0, k = 0, n = 0;
  bool is_signed = true;  // int8 weights (else uint8)
  // The weights as n rows of k bytes (each output's column of B): the constant's own bytes when it
  // is laid out so (gemm with bTranspose), else a transposed copy the plan owns.
  std::shared_ptr<const std::byte> weights;
  // Scales and zero points by (output, block of k): n rows of k / block_k values.
  size_t block_k = 0;
  std::vector<float> scales;
  std::vector<float> zero_points;  // empty when every zero point is 0
  // gemm: alpha * (a x B) + beta * c, with c broadcast to [rows, n] from [c_rows, c_cols].
  float alpha = 1, beta = 0;
  std::optional<OperandId> c;
  size_t c_rows = 1, c_cols = 1;
};

// The weight-only form of matmul or gemm `index` reading B through dequantizeLinear `dq`, when the
// operation has one (float32 a and output, B two-dimensional once batch dimensions of 1 are
// dropped, constant 8-bit weights with constant finite non-zero scales and constant zero points,
// no aTranspose).
std::optional<WeightOnlyMatmul> weight_only_matmul(const Graph& graph, size_t index, size_t dq);

// Writes the [rows, n] result of `op` into `out` from `a` ([rows, k]) and `c` (when op.c).
void run_weight_only(const WeightOnlyMatmul& op, const float* a, const float* c, float* out);

}  // namespace webnn::onednn
