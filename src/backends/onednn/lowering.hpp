// The lowerings of the onednn backend, by family: each turns one operation (and the chain fused
// into it, fusion.hpp) into steps of the plan, or declines: it returns false when the operation
// has a form it does not take, or lets a dnnl::error through when oneDNN refuses its descriptor.
// The compiler then tries the operation's next candidate (impl_list.hpp), its reference kernel
// last (lower_reference).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "backends/onednn/fusion.hpp"
#include "backends/onednn/layout_planner.hpp"
#include "backends/onednn/plan.hpp"
#include "backends/onednn/quantized.hpp"

namespace webnn::onednn {

// What every lowering works with: the graph, the plan being built with its tensors, and the
// decisions taken before lowering (what fuses, what is quantized, where a NaN can reach).
struct LowerContext {
  const Graph& graph;
  Plan& plan;
  LayoutPlanner& layout;
  Fusion& fusion;
  QuantizedFusion& quantized;
  const std::vector<uint8_t>& specials;  // by OperandId: the Special kinds it may hold (may_hold_specials)
  bool blocked_convs = false;            // convolutions in nChw16c (the graph has Winograd ones)
  // Lowers operation `index` the way the compiler does: its best candidate, else its reference
  // kernel (the dequantizations of an int8 anchor that fell back to float32).
  std::function<void(size_t)> lower;
};

// A lowering of operation `index`: true when it added the operation's steps.
using Lowering = bool (*)(LowerContext& cx, size_t index);

// ---- Convolutions (lower_conv.cpp) ----

// conv2d and convTranspose2d in float32.
bool lower_conv(LowerContext& cx, size_t index);
// The same in the int8 form `q` (quantized.hpp): reads the 8-bit input and filter, writes the
// quantized output when a quantizeLinear is folded in.
bool lower_conv(LowerContext& cx, size_t index, const QuantizedAnchor* q);
// Whether conv2d `index` runs on oneDNN's Winograd kernels, which make the graph's convolutions
// blocked (LowerContext::blocked_convs).
bool winograd_candidate(const Graph& g, const std::vector<uint8_t>& specials, size_t index);

// ---- Matrix products (lower_matmul.cpp) ----

// matmul and gemm in float32, or in the int8 form `q` as for lower_conv.
bool lower_matmul(LowerContext& cx, size_t index);
bool lower_matmul(LowerContext& cx, size_t index, const QuantizedAnchor* q);

// ---- Pooling (lower_pool.cpp) ----

// averagePool2d, maxPool2d.
bool lower_pool(LowerContext& cx, size_t index);

// ---- Resampling (lower_resample.cpp) ----

bool lower_resample(LowerContext& cx, size_t index);  // resample2d of rank 4

// ---- Element-wise (lower_elementwise.cpp) ----

// add, sub, mul, div as a binary primitive.
bool lower_binary(LowerContext& cx, size_t index);
// An activation on our own kernel (eltwise.hpp).
bool lower_own_eltwise(LowerContext& cx, size_t index);
// An activation as one eltwise primitive.
bool lower_eltwise(LowerContext& cx, size_t index);
bool lower_square(LowerContext& cx, size_t index);  // pow(x, 2)

// ---- Normalization (lower_normalization.cpp) ----

bool lower_softmax(LowerContext& cx, size_t index);
bool lower_layer_normalization(LowerContext& cx, size_t index);
bool lower_batch_normalization(LowerContext& cx, size_t index);

// ---- Moving and converting values (lower_movement.cpp) ----

bool lower_reshape(LowerContext& cx, size_t index);
bool lower_transpose(LowerContext& cx, size_t index);
bool lower_slice(LowerContext& cx, size_t index);
bool lower_gather(LowerContext& cx, size_t index);  // constant indices that step evenly
bool lower_concat(LowerContext& cx, size_t index);
// A cast between float16 and float32 (float16.hpp).
bool lower_float16_conversion(LowerContext& cx, size_t index);

// ---- int8 QDQ (lower_quantized.cpp) ----

// An anchor's int8 primitive; when it has none, gives the anchor back to the float32 path.
bool lower_int8(LowerContext& cx, size_t index);
// A per-tensor quantizeLinear or dequantizeLinear on our own kernel.
bool lower_own_quantization(LowerContext& cx, size_t index);
// A QDQ residual add in one pass.
bool lower_quantized_add(LowerContext& cx, size_t index);
// A matmul or gemm over dequantized 8-bit constant weights on our own kernel (weight_only.hpp).
bool lower_weight_only(LowerContext& cx, size_t index);

// ---- The last resort (lower_reference.cpp) ----

// The operation's reference kernel on plain tensors; throws NotSupportedError when it has none.
void lower_reference(LowerContext& cx, size_t index);

}  // namespace webnn::onednn
