#include "backends/onednn/impl_list.hpp"

#include <array>
#include <cstddef>
#include <iterator>

namespace webnn::onednn {

namespace {

constexpr Candidate kInt8 = {"int8 convolution / matmul (QDQ)", lower_int8, Operands::kAny};
constexpr Candidate kWeightOnly = {"weight-only int8 matrix product, ours", lower_weight_only, Operands::kAny};
constexpr Candidate kConvolution = {"convolution / deconvolution", lower_conv, Operands::kFloat32};
constexpr Candidate kMatmul = {"matmul", lower_matmul, Operands::kFloat32};
constexpr Candidate kPooling = {"pooling_v2", lower_pool, Operands::kFloat32};
constexpr Candidate kResampling = {"resampling", lower_resample, Operands::kFloat32};
constexpr Candidate kQuantizedAdd = {"QDQ add, ours", lower_quantized_add, Operands::kAny};
constexpr Candidate kBinary = {"binary", lower_binary, Operands::kFloat32};
constexpr Candidate kOwnEltwise = {"element-wise kernel, ours", lower_own_eltwise, Operands::kFloat32};
constexpr Candidate kEltwise = {"eltwise", lower_eltwise, Operands::kFloat32};
constexpr Candidate kSquare = {"eltwise square", lower_square, Operands::kFloat32};
constexpr Candidate kSoftmax = {"softmax", lower_softmax, Operands::kFloat32};
constexpr Candidate kLayerNormalization = {"layer_normalization", lower_layer_normalization, Operands::kFloat32};
constexpr Candidate kBatchNormalization = {"batch_normalization", lower_batch_normalization, Operands::kFloat32};
constexpr Candidate kReshape = {"view", lower_reshape, Operands::kFloat32};
constexpr Candidate kTranspose = {"reorder", lower_transpose, Operands::kFloat32};
constexpr Candidate kSlice = {"strided reorder", lower_slice, Operands::kFloat32};
constexpr Candidate kGather = {"strided reorder", lower_gather, Operands::kAny};
constexpr Candidate kConcat = {"copy, ours", lower_concat, Operands::kFloat32};
constexpr Candidate kFloat16Conversion = {"float16 conversion, ours", lower_float16_conversion, Operands::kAny};
constexpr Candidate kQuantization = {"quantize / dequantize kernel, ours", lower_own_quantization, Operands::kAny};

constexpr size_t kMaxCandidates = 3;

struct ImplList {
  OpKind kind;
  std::array<Candidate, kMaxCandidates> candidates;  // best first; the unused ones have no `lower`
};

// Our own element-wise kernels come before oneDNN's eltwise primitives where oneDNN's are
// inaccurate or change NaN and infinities (eltwise.hpp); an int8 anchor before its weight-only
// form, and both before the float32 one.
constexpr ImplList kImplLists[] = {
    {OpKind::kConv2d, {kInt8, kConvolution}},
    {OpKind::kConvTranspose2d, {kInt8, kConvolution}},
    {OpKind::kMatmul, {kInt8, kWeightOnly, kMatmul}},
    {OpKind::kGemm, {kInt8, kWeightOnly, kMatmul}},
    {OpKind::kAveragePool2d, {kPooling}},
    {OpKind::kMaxPool2d, {kPooling}},
    {OpKind::kResample2d, {kResampling}},
    {OpKind::kAdd, {kQuantizedAdd, kBinary}},
    {OpKind::kSub, {kBinary}},
    {OpKind::kMul, {kBinary}},
    {OpKind::kDiv, {kBinary}},
    {OpKind::kPow, {kSquare}},
    {OpKind::kRelu, {kOwnEltwise, kEltwise}},
    {OpKind::kClamp, {kOwnEltwise, kEltwise}},
    {OpKind::kHardSwish, {kOwnEltwise, kEltwise}},
    {OpKind::kHardSigmoid, {kOwnEltwise}},
    {OpKind::kExp, {kOwnEltwise}},
    {OpKind::kLog, {kOwnEltwise}},
    {OpKind::kSoftplus, {kOwnEltwise}},
    {OpKind::kGelu, {kOwnEltwise}},
    {OpKind::kErf, {kOwnEltwise}},
    {OpKind::kElu, {kOwnEltwise}},
    {OpKind::kSigmoid, {kEltwise}},
    {OpKind::kTanh, {kEltwise}},
    {OpKind::kLeakyRelu, {kEltwise}},
    {OpKind::kLinear, {kEltwise}},
    {OpKind::kAbs, {kEltwise}},
    {OpKind::kSqrt, {kEltwise}},
    {OpKind::kNeg, {kEltwise}},
    {OpKind::kSoftmax, {kSoftmax}},
    {OpKind::kLayerNormalization, {kLayerNormalization}},
    {OpKind::kBatchNormalization, {kBatchNormalization}},
    {OpKind::kReshape, {kReshape}},
    {OpKind::kTranspose, {kTranspose}},
    {OpKind::kSlice, {kSlice}},
    {OpKind::kGather, {kGather}},
    {OpKind::kConcat, {kConcat}},
    {OpKind::kCast, {kFloat16Conversion}},
    {OpKind::kQuantizeLinear, {kQuantization}},
    {OpKind::kDequantizeLinear, {kQuantization}},
};

// By OpKind: the index of its list in kImplLists, or -1.
constexpr std::array<int, kOpKindCount> kListOf = [] {
  std::array<int, kOpKindCount> list_of{};
  list_of.fill(-1);
  for (size_t i = 0; i < std::size(kImplLists); ++i)
    list_of[static_cast<size_t>(kImplLists[i].kind)] = static_cast<int>(i);
  return list_of;
}();

constexpr bool each_kind_once() {
  size_t listed = 0;
  for (int i : kListOf) listed += i >= 0;
  return listed == std::size(kImplLists);
}
static_assert(each_kind_once(), "an operation kind has two lists in kImplLists");

}  // namespace

std::span<const Candidate> candidates(OpKind kind) {
  const int i = kListOf[static_cast<size_t>(kind)];
  if (i < 0) return {};
  const std::array<Candidate, kMaxCandidates>& list = kImplLists[i].candidates;
  size_t n = 0;
  while (n < list.size() && list[n].lower) ++n;
  return {list.data(), n};
}

}  // namespace webnn::onednn
