// Weight-only int8 matrix products (weight_only.hpp): matching, and the kernels.
#include "backends/onednn/weight_only.hpp"

#include <immintrin.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "backends/onednn/eltwise.hpp"
#include "backends/onednn/quantized.hpp"
#include "backends/onednn/simd.hpp"

namespace webnn::onednn {

namespace {

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx2,fma")
namespace avx512 {
using simd_avx512::kWidth;
using simd_avx512::sum;
using simd_avx512::V;
using simd_avx512::vfma;
// GCC 12 turns __builtin_convertvector from bytes to floats into one conversion per element, and
// warns of an uninitialised operand inside the unmasked intrinsics: the zero-masked forms, all
// lanes kept.
template <class Z>
V widen(const Z* p) {
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __mmask16 all = 0xffff;
  const __m512i i = std::is_same_v<Z, int8_t> ? _mm512_maskz_cvtepi8_epi32(all, b) : _mm512_maskz_cvtepu8_epi32(all, b);
  return reinterpret_cast<V>(_mm512_maskz_cvtepi32_ps(all, i));
}
#include "backends/onednn/weight_only_kernels.inc"
}  // namespace avx512
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma")
namespace avx2 {
using simd_avx2::kWidth;
using simd_avx2::sum;
using simd_avx2::V;
using simd_avx2::vfma;
template <class Z>
V widen(const Z* p) {
  const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  const __m256i i = std::is_same_v<Z, int8_t> ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
  return reinterpret_cast<V>(_mm256_cvtepi32_ps(i));
}
#include "backends/onednn/weight_only_kernels.inc"
}  // namespace avx2
#pragma GCC pop_options

// Any other x86-64 processor: a vector of one.
namespace scalar {
typedef float V __attribute__((vector_size(4)));
constexpr size_t kWidth = 1;
inline V vfma(V a, V b, V c) { return V{std::fma(a[0], b[0], c[0])}; }
template <class Z>
V widen(const Z* p) {
  return V{static_cast<float>(*p)};
}
inline float sum(V v) { return v[0]; }
#include "backends/onednn/weight_only_kernels.inc"
}  // namespace scalar

void dot_products(const WeightOnlyMatmul& op, const float* a, size_t rows, float* out, size_t n0, size_t n1) {
  switch (isa()) {
    case Isa::kAvx512:
      return avx512::dot_products(op, a, rows, out, n0, n1);
    case Isa::kAvx2:
      return avx2::dot_products(op, a, rows, out, n0, n1);
    case Isa::kScalar:
      return scalar::dot_products(op, a, rows, out, n0, n1);
  }
}

// Up to this many rows, each output is a dot product over the 8-bit weights; more rows multiply
// dequantized panels with sgemm.
constexpr size_t kDotRows = 8;
// Outputs per parallel chunk of the dot products (small: a projection of 192 outputs splits evenly
// over the threads).
constexpr size_t kChunk = 16;
// The sgemm path's panels: as few as the threads allow (each sgemm call packs a again), at most
// this many bytes of dequantized weights each.
constexpr size_t kPanelBytes = size_t{4} << 20;
// Below this many multiply-adds a second thread costs more than it saves. A decode step reads
// each matrix from memory once, and one core alone does not draw the memory's bandwidth: the 135M
// model's projections (0.1 M to 0.9 M multiply-adds) run on every thread.
constexpr size_t kParallelWork = size_t{1} << 16;

// `shape` without its leading 1s down to `rank` dimensions; nullopt when a dropped one is not 1.
std::optional<Shape> drop_leading_ones(const Shape& shape, size_t rank) {
  if (shape.size() < rank) return std::nullopt;
  const size_t drop = shape.size() - rank;
  if (!std::all_of(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(drop), [](uint32_t d) { return d == 1; }))
    return std::nullopt;
  return Shape(shape.begin() + static_cast<std::ptrdiff_t>(drop), shape.end());
}

// alpha * out + beta * c over [rows, n].
void epilogue(const WeightOnlyMatmul& op, const float* c, float* out) {
  const bool scale = op.alpha != 1.0f, add = op.c.has_value();  // beta 0 too: 0 * Infinity is NaN
  if (!scale && !add) return;
  for (size_t r = 0; r < op.rows; ++r) {
    float* o = out + r * op.n;
    const float* cr = add ? c + (op.c_rows == 1 ? 0 : r) * op.c_cols : nullptr;
    for (size_t j = 0; j < op.n; ++j) {
      float v = scale ? op.alpha * o[j] : o[j];
      if (add) v += op.beta * cr[op.c_cols == 1 ? 0 : j];
      o[j] = v;
    }
  }
}

// Outputs [n0, n1) of every row: the weights of those outputs dequantized into `panel` (the
// reference's values), then one sgemm. Returns false when sgemm fails.
template <class Z>
bool panel_product(const WeightOnlyMatmul& op, const float* a, float* out, size_t n0, size_t n1, float* panel) {
  const size_t k = op.k, blocks = k / op.block_k;
  const Z* w = reinterpret_cast<const Z*>(op.weights.get());
  for (size_t n = n0; n < n1; ++n) {
    float* p = panel + (n - n0) * k;
    const Z* row = w + n * k;
    for (size_t b = 0; b < blocks; ++b) {
      const float s = op.scales[n * blocks + b];
      const float z = op.zero_points.empty() ? 0.0f : op.zero_points[n * blocks + b];
      for (size_t i = b * op.block_k; i < (b + 1) * op.block_k; ++i) p[i] = (static_cast<float>(row[i]) - z) * s;
    }
  }
  const auto M = static_cast<dnnl_dim_t>(op.rows), N = static_cast<dnnl_dim_t>(n1 - n0), K = static_cast<dnnl_dim_t>(k);
  return dnnl_sgemm('N', 'T', M, N, K, 1.0f, a, K, panel, K, 0.0f, out + n0, static_cast<dnnl_dim_t>(op.n)) ==
         dnnl_success;
}

}  // namespace

std::optional<WeightOnlyMatmul> weight_only_matmul(const Graph& g, size_t index, size_t dq_index) {
  const Operation& op = g.operations[index];
  const Operation& dq = g.operations[dq_index];
  if ((op.kind != OpKind::kMatmul && op.kind != OpKind::kGemm) || dq.kind != OpKind::kDequantizeLinear ||
      op.inputs[1] != dq.outputs[0] || op.inputs[0] == dq.outputs[0])
    return std::nullopt;
  const OperandId a = op.inputs[0], w = dq.inputs[0];
  const DataType wt = g.desc(w).data_type;
  if (g.desc(a).data_type != DataType::kFloat32 || g.desc(op.outputs[0]).data_type != DataType::kFloat32 ||
      (wt != DataType::kInt8 && wt != DataType::kUint8) || !is_constant(g, w) ||
      g.desc(dq.inputs[1]).data_type != DataType::kFloat32)
    return std::nullopt;

  WeightOnlyMatmul m;
  m.dequantize = dq_index;
  m.a = a;
  m.is_signed = wt == DataType::kInt8;
  bool b_transposed = false;  // B is stored [n, k]
  if (op.kind == OpKind::kGemm) {
    const auto& attrs = std::get<GemmAttrs>(op.attrs);
    if (attrs.a_transpose) return std::nullopt;
    b_transposed = attrs.b_transpose;
    m.alpha = static_cast<float>(attrs.alpha);
    m.beta = static_cast<float>(attrs.beta);
    if (attrs.c) {
      m.c = attrs.c->id;
      const Shape& cs = g.desc(attrs.c->id).shape;
      if (g.desc(attrs.c->id).data_type != DataType::kFloat32 || cs.size() > 2) return std::nullopt;
      m.c_rows = cs.size() == 2 ? cs[0] : 1;
      m.c_cols = cs.empty() ? 1 : cs.back();
    }
  }
  const std::optional<Shape> ws = drop_leading_ones(g.desc(w).shape, 2);
  if (!ws) return std::nullopt;
  const Shape& as = g.desc(a).shape;
  m.k = as.back();
  m.n = b_transposed ? (*ws)[0] : (*ws)[1];
  if ((b_transposed ? (*ws)[1] : (*ws)[0]) != m.k || m.k == 0 || m.n == 0) return std::nullopt;
  m.rows = static_cast<size_t>(*g.desc(a).element_count()) / m.k;
  if (static_cast<uint64_t>(m.rows) * m.n != *g.desc(op.outputs[0]).element_count()) return std::nullopt;
  if (m.c && ((m.c_rows != 1 && m.c_rows != m.rows) || (m.c_cols != 1 && m.c_cols != m.n))) return std::nullopt;

  // Scales and zero points: one per block of the weights' two dimensions.
  const std::optional<Shape> ss = drop_leading_ones(g.desc(dq.inputs[1]).shape, 2);
  const std::optional<Shape> zs = drop_leading_ones(g.desc(dq.inputs[2]).shape, 2);
  const auto scales = constant_values(g, dq.inputs[1]);
  const auto zeros = constant_values(g, dq.inputs[2]);
  if (!ss || !zs || *ss != *zs || !scales || !zeros) return std::nullopt;
  if (std::any_of(scales->begin(), scales->end(), [](double s) { return !std::isfinite(s) || s == 0; }))
    return std::nullopt;
  const size_t scale_n = b_transposed ? (*ss)[0] : (*ss)[1], scale_k = b_transposed ? (*ss)[1] : (*ss)[0];
  if (scale_n == 0 || scale_k == 0 || m.n % scale_n != 0 || m.k % scale_k != 0) return std::nullopt;
  const size_t block_n = m.n / scale_n;
  m.block_k = m.k / scale_k;
  const bool any_zero_point = std::any_of(zeros->begin(), zeros->end(), [](double z) { return z != 0; });
  m.scales.resize(m.n * scale_k);
  if (any_zero_point) m.zero_points.resize(m.n * scale_k);
  for (size_t n = 0; n < m.n; ++n)
    for (size_t b = 0; b < scale_k; ++b) {
      const size_t i = b_transposed ? (n / block_n) * scale_k + b : b * scale_n + n / block_n;
      m.scales[n * scale_k + b] = static_cast<float>((*scales)[i]);
      if (any_zero_point) m.zero_points[n * scale_k + b] = static_cast<float>((*zeros)[i]);
    }

  // The weights as n rows of k bytes.
  const BufferRef& bytes = g.constant_data(w);
  if (b_transposed) {
    m.weights = bytes.data;
  } else {
    auto copy = std::shared_ptr<std::byte[]>(new std::byte[m.k * m.n]);
    for (size_t i = 0; i < m.k; ++i)
      for (size_t j = 0; j < m.n; ++j) copy[j * m.k + i] = bytes.data.get()[i * m.n + j];
    m.weights = std::shared_ptr<const std::byte>(copy, copy.get());
  }
  return m;
}

void run_weight_only(const WeightOnlyMatmul& op, const float* a, const float* c, float* out) {
  const auto chunks = static_cast<int64_t>((op.n + kChunk - 1) / kChunk);
  const bool parallel = op.rows * op.n * op.k >= kParallelWork && omp_get_max_threads() > 1;
  if (op.rows <= kDotRows) {
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      const size_t n0 = static_cast<size_t>(chunk) * kChunk;
      dot_products(op, a, op.rows, out, n0, std::min(op.n, n0 + kChunk));
    }
  } else {
    const size_t threads = parallel ? static_cast<size_t>(omp_get_max_threads()) : 1;
    const size_t widest = std::max<size_t>(16, kPanelBytes / (sizeof(float) * op.k));
    const size_t width = std::min(widest, (op.n + threads - 1) / threads);
    const auto panels = static_cast<int64_t>((op.n + width - 1) / width);
    int failed = 0;
#pragma omp parallel if (parallel) reduction(| : failed)
    {
      std::vector<float> panel(width * op.k);
#pragma omp for schedule(static)
      for (int64_t p = 0; p < panels; ++p) {
        const size_t n0 = static_cast<size_t>(p) * width, n1 = std::min(op.n, n0 + width);
        failed |= !(op.is_signed ? panel_product<int8_t>(op, a, out, n0, n1, panel.data())
                                 : panel_product<uint8_t>(op, a, out, n0, n1, panel.data()));
      }
    }
    if (failed) throw_error(ErrorKind::kOperationError, "onednn: the weight-only int8 matrix product's sgemm failed");
  }
  epilogue(op, c, out);
}

}  // namespace webnn::onednn
