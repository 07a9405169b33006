// int8 QDQ patterns (quantized.hpp): matching, and the per-tensor quantize/dequantize kernels.
#include "backends/onednn/quantized.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace webnn::onednn {

std::optional<std::vector<double>> constant_values(const Graph& g, OperandId id) {
  if (!is_constant(g, id)) return std::nullopt;
  const OperandDescriptor& d = g.desc(id);
  const std::byte* bytes = g.constant_data(id).data.get();
  const auto count = static_cast<size_t>(*d.element_count());
  std::vector<double> out(count);
  auto read = [&]<class T>() {
    for (size_t i = 0; i < count; ++i) {
      T v;
      std::memcpy(&v, bytes + i * sizeof(T), sizeof(T));
      out[i] = static_cast<double>(v);
    }
  };
  switch (d.data_type) {
    case DataType::kFloat32:
      read.operator()<float>();
      break;
    case DataType::kUint8:
      read.operator()<uint8_t>();
      break;
    case DataType::kInt8:
      read.operator()<int8_t>();
      break;
    case DataType::kInt32:
      read.operator()<int32_t>();
      break;
    default:
      return std::nullopt;
  }
  return out;
}

namespace {

bool is_8bit(DataType t) { return t == DataType::kUint8 || t == DataType::kInt8; }

// A constant float32 scale with one value, finite and not zero, and its constant zero point.
struct PerTensor {
  float scale;
  int32_t zero_point;
};
std::optional<PerTensor> per_tensor(const Graph& g, const Operation& op) {
  const auto scale = constant_values(g, op.inputs[1]);
  const auto zp = constant_values(g, op.inputs[2]);
  if (!scale || !zp || scale->size() != 1 || g.desc(op.inputs[1]).data_type != DataType::kFloat32) return std::nullopt;
  const auto s = static_cast<float>((*scale)[0]);
  if (!std::isfinite(s) || s == 0) return std::nullopt;
  return PerTensor{s, static_cast<int32_t>((*zp)[0])};
}

// The axis of the output channels in the filter (B) of anchor `op`, and how many times each
// filter channel repeats over the output channels (convTranspose2d's filter holds one group's).
struct ChannelAxis {
  size_t axis;
  uint32_t groups = 1;
};
std::optional<ChannelAxis> channel_axis(const Graph& g, const Operation& op) {
  switch (op.kind) {
    case OpKind::kConv2d: {
      const auto layout = std::get<Conv2dAttrs>(op.attrs).filter_layout;
      return ChannelAxis{layout == Conv2dFilterLayout::kOihw || layout == Conv2dFilterLayout::kOhwi ? 0u : 3u};
    }
    case OpKind::kConvTranspose2d: {
      const auto& a = std::get<ConvTranspose2dAttrs>(op.attrs);
      const size_t axis = a.filter_layout == ConvTranspose2dFilterLayout::kIohw   ? 1
                          : a.filter_layout == ConvTranspose2dFilterLayout::kHwoi ? 2
                                                                                  : 0;
      return ChannelAxis{axis, a.groups};
    }
    case OpKind::kMatmul:
      return ChannelAxis{g.desc(op.inputs[1]).shape.size() - 1};
    case OpKind::kGemm:
      return ChannelAxis{std::get<GemmAttrs>(op.attrs).b_transpose ? 0u : 1u};
    default:
      return std::nullopt;
  }
}

// The weight scales of filter dequantization `dq` for anchor `op`: one, or one per output channel;
// none when the scale has another shape, a zero point is not 0, or w is not a constant int8.
std::optional<std::vector<float>> weight_scales(const Graph& g, const Operation& op, const Operation& dq) {
  if (!is_constant(g, dq.inputs[0]) || g.desc(dq.inputs[0]).data_type != DataType::kInt8 ||
      g.desc(dq.inputs[1]).data_type != DataType::kFloat32)
    return std::nullopt;
  const auto scale = constant_values(g, dq.inputs[1]);
  const auto zp = constant_values(g, dq.inputs[2]);
  if (!scale || !zp) return std::nullopt;
  if (std::any_of(zp->begin(), zp->end(), [](double z) { return z != 0; })) return std::nullopt;
  std::vector<float> s(scale->begin(), scale->end());
  if (std::any_of(s.begin(), s.end(), [](float v) { return !std::isfinite(v) || v == 0; })) return std::nullopt;
  if (s.size() == 1) return s;
  const std::optional<ChannelAxis> c = channel_axis(g, op);
  const Shape& shape = g.desc(dq.inputs[1]).shape;
  const Shape& w = g.desc(dq.inputs[0]).shape;
  if (!c || c->axis >= shape.size()) return std::nullopt;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != (i == c->axis ? w[i] : 1)) return std::nullopt;
  std::vector<float> all;
  for (uint32_t group = 0; group < c->groups; ++group) all.insert(all.end(), s.begin(), s.end());
  return all;
}

// The float32 values of a convolution bias: a constant, or dequantizeLinear of constants with one
// scale and zero point or one per element (the reference's arithmetic: (q - zp) * scale in double,
// rounded once).
std::optional<std::vector<float>> bias_values(const Graph& g, OperandId bias, const std::vector<size_t>& producer,
                                              size_t* dq) {
  if (g.desc(bias).data_type != DataType::kFloat32) return std::nullopt;
  if (is_constant(g, bias)) {
    const auto v = constant_values(g, bias);
    return std::vector<float>(v->begin(), v->end());
  }
  const size_t p = producer[bias];
  if (p == kNone || g.operations[p].kind != OpKind::kDequantizeLinear) return std::nullopt;
  const Operation& op = g.operations[p];
  const auto q = constant_values(g, op.inputs[0]);
  const auto scale = constant_values(g, op.inputs[1]);
  const auto zp = constant_values(g, op.inputs[2]);
  if (!q || !scale || !zp || g.desc(op.inputs[1]).data_type != DataType::kFloat32) return std::nullopt;
  if (scale->size() != 1 && scale->size() != q->size()) return std::nullopt;
  std::vector<float> out(q->size());
  for (size_t i = 0; i < q->size(); ++i) {
    const size_t k = scale->size() == 1 ? 0 : i;
    out[i] = static_cast<float>(((*q)[i] - (*zp)[k]) * (*scale)[k]);
  }
  *dq = p;
  return out;
}

}  // namespace

QuantizedFusion::QuantizedFusion(const Graph& g, const Fusion& fusion)
    : anchors_(g.operations.size()),
      adds_(g.operations.size()),
      weight_only_(g.operations.size()),
      absorbed_(g.operations.size(), false) {
  std::vector<std::vector<size_t>> readers(g.operands.size());
  std::vector<size_t> producer(g.operands.size(), kNone);
  std::vector<bool> is_output(g.operands.size(), false);
  for (size_t i = 0; i < g.operations.size(); ++i) {
    for_each_input(g.operations[i], [&](OperandId id) { readers[id].push_back(i); });
    for (OperandId id : g.operations[i].outputs) producer[id] = i;
  }
  for (const NamedOperand& out : g.outputs) is_output[out.operand] = true;
  const auto dequantized = [&](OperandId id) -> const Operation* {
    const size_t p = producer[id];
    if (p == kNone || g.operations[p].kind != OpKind::kDequantizeLinear) return nullptr;
    return &g.operations[p];
  };

  for (size_t index = 0; index < g.operations.size(); ++index) {
    const Operation& op = g.operations[index];
    const bool conv = op.kind == OpKind::kConv2d || op.kind == OpKind::kConvTranspose2d;
    if ((!conv && op.kind != OpKind::kMatmul && op.kind != OpKind::kGemm) || fusion.fused_into(index) != kNone ||
        !fusion.anchor_supported(index) || g.desc(op.outputs[0]).data_type != DataType::kFloat32)
      continue;
    const Operation* dx = dequantized(op.inputs[0]);
    const Operation* dw = dequantized(op.inputs[1]);
    if (!dx || !dw || !is_8bit(g.desc(dx->inputs[0]).data_type)) continue;
    const std::optional<PerTensor> x = per_tensor(g, *dx);
    std::optional<std::vector<float>> ws = weight_scales(g, op, *dw);
    if (!x || !ws) continue;
    QuantizedAnchor a;
    a.src = dx->inputs[0];
    a.src_scale = x->scale;
    a.src_zero_point = x->zero_point;
    a.weights = dw->inputs[0];
    a.weight_scales = std::move(*ws);
    a.dequantizes = {producer[op.inputs[0]], producer[op.inputs[1]]};
    std::optional<OperandRef> bias;
    if (op.kind == OpKind::kConv2d) bias = std::get<Conv2dAttrs>(op.attrs).bias;
    if (op.kind == OpKind::kConvTranspose2d) bias = std::get<ConvTranspose2dAttrs>(op.attrs).bias;
    if (bias) {
      size_t dq = kNone;
      a.bias = bias_values(g, bias->id, producer, &dq);
      if (!a.bias) continue;
      if (dq != kNone) a.dequantizes.push_back(dq);
    }
    // A quantizeLinear after the chain, when the chain has element-wise post-ops only.
    const OperandId value = fusion.chain_output(index);
    const std::vector<PostOp>& post = fusion.post_ops(index);
    if (!is_output[value] && readers[value].size() == 1 &&
        std::none_of(post.begin(), post.end(), [](const PostOp& p) { return p.binary; })) {
      const size_t qi = readers[value][0];
      const Operation& q = g.operations[qi];
      if (q.kind == OpKind::kQuantizeLinear && q.inputs[0] == value && is_8bit(g.desc(q.outputs[0]).data_type)) {
        const std::optional<PerTensor> y = per_tensor(g, q);
        if (y && y->scale > 0 && std::isnormal(1 / y->scale)) {
          a.quantize = qi;
          a.quantized_output = q.outputs[0];
          a.dst_scale = y->scale;
          a.dst_zero_point = y->zero_point;
          absorbed_[qi] = true;
        }
      }
    }
    anchors_[index] = std::move(a);
  }

  // Residual adds: quantizeLinear(dequantizeLinear(a) + dequantizeLinear(b)), per tensor, one shape.
  for (size_t index = 0; index < g.operations.size(); ++index) {
    const Operation& op = g.operations[index];
    if (op.kind != OpKind::kAdd || fusion.fused_into(index) != kNone) continue;
    const OperandId value = op.outputs[0];
    if (is_output[value] || readers[value].size() != 1 || g.desc(value).data_type != DataType::kFloat32) continue;
    const Operation* da = dequantized(op.inputs[0]);
    const Operation* db = dequantized(op.inputs[1]);
    const size_t qi = readers[value][0];
    const Operation& q = g.operations[qi];
    if (!da || !db || q.kind != OpKind::kQuantizeLinear || q.inputs[0] != value || absorbed_[qi]) continue;
    const Shape& shape = g.desc(value).shape;
    if (g.desc(op.inputs[0]).shape != shape || g.desc(op.inputs[1]).shape != shape) continue;
    const std::optional<QuantizeOp> qa = own_quantization(g, *da);
    const std::optional<QuantizeOp> qb = own_quantization(g, *db);
    const std::optional<QuantizeOp> qy = own_quantization(g, q);
    if (!qa || !qb || !qy) continue;
    QuantizedAdd a;
    a.a = da->inputs[0];
    a.b = db->inputs[0];
    a.dequantize_a = *qa;
    a.dequantize_b = *qb;
    a.quantize = *qy;
    a.quantize_op = qi;
    a.output = q.outputs[0];
    a.dequantizes = {producer[op.inputs[0]], producer[op.inputs[1]]};
    absorbed_[qi] = true;
    adds_[index] = std::move(a);
  }

  // Weight-only int8 products: a float32 matmul or gemm that is no int8 anchor, whose B is a
  // dequantized constant.
  for (size_t index = 0; index < g.operations.size(); ++index) {
    const Operation& op = g.operations[index];
    if ((op.kind != OpKind::kMatmul && op.kind != OpKind::kGemm) || anchors_[index]) continue;
    const size_t p = producer[op.inputs[1]];
    if (p != kNone && g.operations[p].kind == OpKind::kDequantizeLinear)
      weight_only_[index] = weight_only_matmul(g, index, p);
  }

  // A dequantizeLinear is absorbed when only int8 anchors, one-pass adds and weight-only products
  // read its result, through it.
  for (size_t i = 0; i < g.operations.size(); ++i) {
    const Operation& op = g.operations[i];
    if (op.kind != OpKind::kDequantizeLinear || is_output[op.outputs[0]]) continue;
    const OperandId value = op.outputs[0];
    bool only_anchors = !readers[value].empty();
    for (size_t r : readers[value]) {
      if (adds_[r]) continue;  // an add reads it only as one of its two operands, which it replaces
      if (weight_only_[r] && weight_only_[r]->dequantize == i) {
        // Only as B (gemm's c, for one, reads it as a float32 operand).
        size_t uses = 0;
        for_each_input(g.operations[r], [&](OperandId id) { uses += id == value; });
        only_anchors = only_anchors && uses == 1;
        continue;
      }

      const auto& a = anchors_[r];
      only_anchors =
          only_anchors && a && std::find(a->dequantizes.begin(), a->dequantizes.end(), i) != a->dequantizes.end();
      // The anchor must read the value only in the places the int8 form replaces: input, filter, bias
      // (gemm's c, for one, reads it as a float32 post-op).
      if (only_anchors) {
        const Operation& anchor = g.operations[r];
        size_t uses = 0, replaced = 0;
        for_each_input(anchor, [&](OperandId id) { uses += id == value; });
        replaced += anchor.inputs[0] == value;
        replaced += anchor.inputs[1] == value;
        std::optional<OperandRef> bias;
        if (anchor.kind == OpKind::kConv2d) bias = std::get<Conv2dAttrs>(anchor.attrs).bias;
        if (anchor.kind == OpKind::kConvTranspose2d) bias = std::get<ConvTranspose2dAttrs>(anchor.attrs).bias;
        replaced += bias && bias->id == value;
        only_anchors = uses == replaced;
      }
    }
    absorbed_[i] = only_anchors;
  }
}

std::vector<size_t> QuantizedFusion::release(size_t index) {
  std::vector<size_t> lower;
  if (!anchors_[index]) return lower;
  for (size_t dq : anchors_[index]->dequantizes) {
    if (!absorbed_[dq]) continue;
    absorbed_[dq] = false;
    lower.push_back(dq);
  }
  if (anchors_[index]->quantize != kNone) absorbed_[anchors_[index]->quantize] = false;
  anchors_[index].reset();
  std::sort(lower.begin(), lower.end());
  return lower;
}

std::optional<QuantizeOp> own_quantization(const Graph& g, const Operation& op) {
  if (op.kind != OpKind::kQuantizeLinear && op.kind != OpKind::kDequantizeLinear) return std::nullopt;
  QuantizeOp q;
  q.quantize = op.kind == OpKind::kQuantizeLinear;
  const DataType float_type = g.desc(q.quantize ? op.inputs[0] : op.outputs[0]).data_type;
  const DataType int_type = g.desc(q.quantize ? op.outputs[0] : op.inputs[0]).data_type;
  if (float_type != DataType::kFloat32 || !is_8bit(int_type)) return std::nullopt;
  const auto scale = constant_values(g, op.inputs[1]);
  const auto zp = constant_values(g, op.inputs[2]);
  if (!scale || !zp || scale->size() != 1) return std::nullopt;
  q.is_signed = int_type == DataType::kInt8;
  q.scale = static_cast<float>((*scale)[0]);
  q.zero_point = static_cast<int32_t>((*zp)[0]);
  return q;
}

namespace {

// (x - zp) * scale: the difference is exact, the float32 product is the reference's double product
// rounded once (it is exact in double).
template <class Z>
void dequantize_serial(const QuantizeOp& op, const Z* in, float* out, size_t n) {
  const float zp = static_cast<float>(op.zero_point);
  for (size_t i = 0; i < n; ++i) out[i] = (static_cast<float>(in[i]) - zp) * op.scale;
}

// roundEven(x / scale) + zp saturated; NaN gives 0 (the reference's saturate).
template <class Z>
Z quantize_one(float x, float scale, float zp) {
  const float r = std::nearbyint(x / scale) + zp;
  if (std::isnan(r)) return Z{0};
  constexpr auto lo = static_cast<float>(std::numeric_limits<Z>::min());
  constexpr auto hi = static_cast<float>(std::numeric_limits<Z>::max());
  return static_cast<Z>(r < lo ? lo : (r > hi ? hi : r));
}

#pragma GCC push_options
#pragma GCC target("avx2")
template <class Z>
void quantize_avx2(const QuantizeOp& op, const float* in, Z* out, size_t n) {
  constexpr bool is_signed = std::is_same_v<Z, int8_t>;
  const __m256 scale = _mm256_set1_ps(op.scale), zp = _mm256_set1_ps(static_cast<float>(op.zero_point));
  const __m256 lo = _mm256_set1_ps(is_signed ? -128.0f : 0.0f), hi = _mm256_set1_ps(is_signed ? 127.0f : 255.0f);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 r = _mm256_add_ps(
        _mm256_round_ps(_mm256_div_ps(_mm256_loadu_ps(in + i), scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC),
        zp);
    const __m256 ordered = _mm256_cmp_ps(r, r, _CMP_ORD_Q);  // NaN gives 0
    r = _mm256_and_ps(_mm256_min_ps(_mm256_max_ps(r, lo), hi), ordered);
    const __m256i v = _mm256_cvtps_epi32(r);
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    const __m128i b = is_signed ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), b);
  }
  const float zpf = static_cast<float>(op.zero_point);
  for (; i < n; ++i) out[i] = quantize_one<Z>(in[i], op.scale, zpf);
}

template <class Z>
void dequantize_avx2(const QuantizeOp& op, const Z* in, float* out, size_t n) {
  const __m256 scale = _mm256_set1_ps(op.scale), zp = _mm256_set1_ps(static_cast<float>(op.zero_point));
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + i));
    const __m256i v = std::is_same_v<Z, int8_t> ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
    _mm256_storeu_ps(out + i, _mm256_mul_ps(_mm256_sub_ps(_mm256_cvtepi32_ps(v), zp), scale));
  }
  dequantize_serial(op, in + i, out + i, n - i);
}
#pragma GCC pop_options

bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}

template <class Z>
void run_serial(const QuantizeOp& op, const void* in, void* out, size_t n) {
  if (op.quantize) {
    const auto* x = static_cast<const float*>(in);
    auto* y = static_cast<Z*>(out);
    if (has_avx2()) return quantize_avx2(op, x, y, n);
    const float zp = static_cast<float>(op.zero_point);
    for (size_t i = 0; i < n; ++i) y[i] = quantize_one<Z>(x[i], op.scale, zp);
  } else {
    const auto* x = static_cast<const Z*>(in);
    auto* y = static_cast<float*>(out);
    if (has_avx2()) return dequantize_avx2(op, x, y, n);
    dequantize_serial(op, x, y, n);
  }
}

constexpr size_t kParallelGrain = 32768;

}  // namespace

namespace {

template <class A, class B, class Z>
void quantized_add_serial(const QuantizedAdd& op, const A* a, const B* b, Z* out, size_t n) {
  const float za = static_cast<float>(op.dequantize_a.zero_point), sa = op.dequantize_a.scale;
  const float zb = static_cast<float>(op.dequantize_b.zero_point), sb = op.dequantize_b.scale;
  const float zy = static_cast<float>(op.quantize.zero_point), sy = op.quantize.scale;
  for (size_t i = 0; i < n; ++i) {
    const float x = (static_cast<float>(a[i]) - za) * sa + (static_cast<float>(b[i]) - zb) * sb;
    out[i] = quantize_one<Z>(x, sy, zy);
  }
}

#pragma GCC push_options
#pragma GCC target("avx2")
// The float32 value of 8 elements of an 8-bit tensor, dequantized.
template <class Z>
__m256 dequantize8(const Z* in, __m256 zp, __m256 scale) {
  const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in));
  const __m256i v = std::is_same_v<Z, int8_t> ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
  return _mm256_mul_ps(_mm256_sub_ps(_mm256_cvtepi32_ps(v), zp), scale);
}

template <class A, class B, class Z>
void quantized_add_avx2(const QuantizedAdd& op, const A* a, const B* b, Z* out, size_t n) {
  constexpr bool is_signed = std::is_same_v<Z, int8_t>;
  const __m256 za = _mm256_set1_ps(static_cast<float>(op.dequantize_a.zero_point));
  const __m256 sa = _mm256_set1_ps(op.dequantize_a.scale);
  const __m256 zb = _mm256_set1_ps(static_cast<float>(op.dequantize_b.zero_point));
  const __m256 sb = _mm256_set1_ps(op.dequantize_b.scale);
  const __m256 zy = _mm256_set1_ps(static_cast<float>(op.quantize.zero_point));
  const __m256 sy = _mm256_set1_ps(op.quantize.scale);
  const __m256 lo = _mm256_set1_ps(is_signed ? -128.0f : 0.0f), hi = _mm256_set1_ps(is_signed ? 127.0f : 255.0f);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    // The sum of the two rounded products, as the reference adds them (this code is compiled
    // without FMA, so no multiply-add contracts them).
    const __m256 x = _mm256_add_ps(dequantize8(a + i, za, sa), dequantize8(b + i, zb, sb));
    __m256 r = _mm256_add_ps(_mm256_round_ps(_mm256_div_ps(x, sy), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), zy);
    const __m256 ordered = _mm256_cmp_ps(r, r, _CMP_ORD_Q);
    r = _mm256_and_ps(_mm256_min_ps(_mm256_max_ps(r, lo), hi), ordered);
    const __m256i v = _mm256_cvtps_epi32(r);
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), is_signed ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w));
  }
  quantized_add_serial(op, a + i, b + i, out + i, n - i);
}
#pragma GCC pop_options

template <class A, class B, class Z>
void quantized_add(const QuantizedAdd& op, const void* a, const void* b, void* out, size_t n) {
  const auto* x = static_cast<const A*>(a);
  const auto* y = static_cast<const B*>(b);
  auto* z = static_cast<Z*>(out);
  const auto part = [&](size_t begin, size_t count) {
    if (has_avx2()) return quantized_add_avx2(op, x + begin, y + begin, z + begin, count);
    quantized_add_serial(op, x + begin, y + begin, z + begin, count);
  };
  if (n < 2 * kParallelGrain || omp_get_max_threads() == 1) return part(0, n);
  const auto chunks = static_cast<int64_t>((n + kParallelGrain - 1) / kParallelGrain);
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    const size_t begin = static_cast<size_t>(c) * kParallelGrain;
    part(begin, std::min(kParallelGrain, n - begin));
  }
}

template <class A, class B>
void quantized_add_to(const QuantizedAdd& op, const void* a, const void* b, void* out, size_t n) {
  op.quantize.is_signed ? quantized_add<A, B, int8_t>(op, a, b, out, n)
                        : quantized_add<A, B, uint8_t>(op, a, b, out, n);
}

template <class A>
void quantized_add_from(const QuantizedAdd& op, const void* a, const void* b, void* out, size_t n) {
  op.dequantize_b.is_signed ? quantized_add_to<A, int8_t>(op, a, b, out, n)
                            : quantized_add_to<A, uint8_t>(op, a, b, out, n);
}

}  // namespace

void run_quantized_add(const QuantizedAdd& op, const void* a, const void* b, void* out, size_t n) {
  op.dequantize_a.is_signed ? quantized_add_from<int8_t>(op, a, b, out, n)
                            : quantized_add_from<uint8_t>(op, a, b, out, n);
}

void run_quantization(const QuantizeOp& op, const void* in, void* out, size_t n) {
  const auto serial = op.is_signed ? run_serial<int8_t> : run_serial<uint8_t>;
  const size_t int_bytes = 1, float_bytes = sizeof(float);
  const size_t in_size = op.quantize ? float_bytes : int_bytes, out_size = op.quantize ? int_bytes : float_bytes;
  if (n < 2 * kParallelGrain || omp_get_max_threads() == 1) return serial(op, in, out, n);
  const auto chunks = static_cast<int64_t>((n + kParallelGrain - 1) / kParallelGrain);
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    const size_t begin = static_cast<size_t>(c) * kParallelGrain;
    const size_t count = std::min(kParallelGrain, n - begin);
    serial(op, static_cast<const std::byte*>(in) + begin * in_size, static_cast<std::byte*>(out) + begin * out_size,
           count);
  }
}

}  // namespace webnn::onednn
