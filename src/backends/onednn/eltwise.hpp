// Float32 element-wise kernels of our own for the onednn backend, where oneDNN 2.6's eltwise
// primitives and post-ops are inaccurate (log, exp, softplus, gelu, elu: up to millions of ULP,
// log(1) != 0, softplus below 0) or turn NaN and infinities into numbers (relu, clamp, hardSwish),
// and erf, which oneDNN has no eltwise for (the reference kernel's one element at a time took 2.8 ms
// of a ConvNeXt-tiny block).
// Each evaluates the operation's definition as the reference kernels do (NaN in, NaN out; the
// same limits at the infinities) to within a few float32 ULP, vectorised with SLEEF's accurate
// (1 ULP) exp, log, log1p, expm1 and erf for AVX-512 or AVX2, whichever the processor has
// (docs/onednn.md, "Accuracy"); exp in double, rounded once. Also the NaN/infinity scan of graph
// inputs.
#pragma once

#include <cstddef>
#include <optional>

#include "graph/graph.hpp"

namespace webnn::onednn {

// One element-wise operation with its options as float32 (the spec casts them to the input type).
struct EltwiseOp {
  OpKind kind = OpKind::kRelu;
  float alpha = 0, beta = 0;  // clamp: min, max; elu, leakyRelu: alpha; hardSigmoid, linear: alpha, beta
};

// Whether operations of `kind` have a kernel here (relu, clamp, exp, log, softplus, gelu, erf,
// elu, hardSwish, hardSigmoid).
bool has_own_eltwise(OpKind kind);
// The kernel of `op` when it has one here and its input and output are float32.
std::optional<EltwiseOp> own_eltwise(const Graph& graph, const Operation& op);

// out[i] = f(in[i]) for i < n; `in` may be `out`. Splits large tensors over the calling thread's
// OpenMP team.
void run_eltwise(const EltwiseOp& op, const float* in, float* out, size_t n);

// Whether any of the `count` elements at `data` is a NaN or an infinity (float32 and float16; other
// types have none).
bool has_nan_or_inf(const void* data, size_t count, DataType type);

// The vector instruction set our own kernels run on (eltwise.cpp, weight_only.cpp), chosen once
// from the processor: AVX-512 (F and DQ), else AVX2 with FMA, else scalar code; a lower one when
// the environment variable WEBNN_ONEDNN_OWN_ISA says "avx2" or "scalar" (for tests).
enum class Isa { kAvx512, kAvx2, kScalar };
Isa isa();

}  // namespace webnn::onednn
