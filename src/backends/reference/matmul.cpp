// matmul and gemm. spec: #api-mlgraphbuilder-matmul, #api-mlgraphbuilder-gemm
//
// Both accumulate in float32 (float16 operands are widened once and the result rounded once).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"
#include "ops/number_cast.hpp"

namespace webnn::reference {

namespace {

// out[m][n] (+)= sum_k a[m][k] * b[k][n] with row strides; i-k-j order keeps the inner loop
// contiguous over n.
void gemm_f32(const float* a, const float* b, float* out, int64_t m_n, int64_t k_n, int64_t n_n) {
  for (int64_t m = 0; m < m_n; ++m) {
    float* o = out + m * n_n;
    std::fill(o, o + n_n, 0.0f);
    for (int64_t k = 0; k < k_n; ++k) {
      const float av = a[m * k_n + k];
      const float* br = b + k * n_n;
      for (int64_t n = 0; n < n_n; ++n) o[n] += av * br[n];
    }
  }
}

template <class T>
void widen(const T* src, size_t n, float* dst) {
  for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(load(src[i]));
}

// matmul: stacks of matrices over the leading dimensions, broadcast as numpy does. A rank-1
// operand is promoted to a matrix (a: [1, K], b: [K, 1]) as numpy does; the graph's output shape
// already reflects the promotion and removal.
template <class T>
Kernel matmul_kernel(const Graph& graph, const Operation& op) {
  const OperandId a_id = op.inputs.at(0), b_id = op.inputs.at(1), out_id = op.outputs.at(0);
  Shape as = graph.desc(a_id).shape, bs = graph.desc(b_id).shape;
  if (as.size() == 1) as.insert(as.begin(), 1);
  if (bs.size() == 1) bs.push_back(1);
  const int64_t m_n = as[as.size() - 2], k_n = as.back(), n_n = bs.back();
  const Shape a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
  Shape batch(std::max(a_batch.size(), b_batch.size()), 1);
  for (size_t i = 0; i < batch.size(); ++i) {
    const size_t ai = i + a_batch.size(), bi = i + b_batch.size();
    const uint32_t ad = ai >= batch.size() ? a_batch[ai - batch.size()] : 1;
    const uint32_t bd = bi >= batch.size() ? b_batch[bi - batch.size()] : 1;
    batch[i] = std::max(ad, bd);
  }
  // Offsets of each batch's matrices, in matrices.
  std::vector<size_t> a_offsets, b_offsets;
  {
    const std::vector<size_t> strides[2] = {broadcast_strides(a_batch, batch), broadcast_strides(b_batch, batch)};
    for_each_offset(batch, strides, [&](size_t, const size_t* o) {
      a_offsets.push_back(o[0]);
      b_offsets.push_back(o[1]);
    });
  }
  const size_t a_count = element_count(as), b_count = element_count(bs);
  const size_t out_matrix = static_cast<size_t>(m_n * n_n);
  constexpr bool kNative = std::is_same_v<T, float>;
  std::vector<float> a_f(kNative ? 0 : a_count), b_f(kNative ? 0 : b_count),
      out_f(kNative ? 0 : out_matrix * a_offsets.size());
  return [=, a_f = std::move(a_f), b_f = std::move(b_f), out_f = std::move(out_f)](Values v) mutable {
    const float* a;
    const float* b;
    float* out;
    if constexpr (kNative) {
      a = typed<float>(v[a_id]), b = typed<float>(v[b_id]), out = typed<float>(v[out_id]);
    } else {
      widen(typed<T>(v[a_id]), a_count, a_f.data());
      widen(typed<T>(v[b_id]), b_count, b_f.data());
      a = a_f.data(), b = b_f.data(), out = out_f.data();
    }
    for (size_t i = 0; i < a_offsets.size(); ++i)
      gemm_f32(a + a_offsets[i] * m_n * k_n, b + b_offsets[i] * k_n * n_n, out + i * out_matrix, m_n, k_n, n_n);
    if constexpr (!kNative) {
      T* dst = typed<T>(v[out_id]);
      for (size_t i = 0; i < out_f.size(); ++i) dst[i] = store<T>(out_f[i]);
    }
  };
}

// gemm: alpha * A' * B' + beta * C, alpha and beta cast to the operands' type as the spec says,
// C (absent: 0) broadcast unidirectionally to [M, N].
template <class T>
Kernel gemm_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<GemmAttrs>(op.attrs);
  const OperandId a_id = op.inputs.at(0), b_id = op.inputs.at(1), out_id = op.outputs.at(0);
  const Shape& as = graph.desc(a_id).shape;
  const Shape& bs = graph.desc(b_id).shape;
  const bool at = attrs.a_transpose, bt = attrs.b_transpose;
  const int64_t m_n = at ? as[1] : as[0], k_n = at ? as[0] : as[1], n_n = bt ? bs[0] : bs[1];
  const float alpha = static_cast<float>(load(ops::cast_number<T>(Number(attrs.alpha))));
  const float beta = static_cast<float>(load(ops::cast_number<T>(Number(attrs.beta))));
  const bool has_c = attrs.c.has_value();
  const OperandId c_id = has_c ? attrs.c->id : 0;
  const Shape out_shape{static_cast<uint32_t>(m_n), static_cast<uint32_t>(n_n)};
  const std::vector<size_t> c_strides =
      has_c ? broadcast_strides(graph.desc(c_id).shape, out_shape) : std::vector<size_t>{0, 0};
  std::vector<float> a_f(static_cast<size_t>(m_n * k_n)), b_f(static_cast<size_t>(k_n * n_n)),
      out_f(static_cast<size_t>(m_n * n_n));
  return [=, a_f = std::move(a_f), b_f = std::move(b_f), out_f = std::move(out_f)](Values v) mutable {
    // Bring A' to [M, K] and B' to [K, N] row-major float32.
    const T* a = typed<T>(v[a_id]);
    const T* b = typed<T>(v[b_id]);
    for (int64_t m = 0; m < m_n; ++m)
      for (int64_t k = 0; k < k_n; ++k) a_f[m * k_n + k] = static_cast<float>(load(a[at ? k * m_n + m : m * k_n + k]));
    for (int64_t k = 0; k < k_n; ++k)
      for (int64_t n = 0; n < n_n; ++n) b_f[k * n_n + n] = static_cast<float>(load(b[bt ? n * k_n + k : k * n_n + n]));
    gemm_f32(a_f.data(), b_f.data(), out_f.data(), m_n, k_n, n_n);
    T* out = typed<T>(v[out_id]);
    const T* c = has_c ? typed<T>(v[c_id]) : nullptr;
    for (int64_t m = 0; m < m_n; ++m)
      for (int64_t n = 0; n < n_n; ++n) {
        float r = alpha * out_f[m * n_n + n];
        if (c) r += beta * static_cast<float>(load(c[m * c_strides[0] + n * c_strides[1]]));
        out[m * n_n + n] = store<T>(r);
      }
  };
}

}  // namespace

Kernel make_matmul_kernel(const Graph& graph, const Operation& op) {
  return make_float_kernel(graph, op, [&]<class T>() -> Kernel {
    return op.kind == OpKind::kGemm ? gemm_kernel<T>(graph, op) : matmul_kernel<T>(graph, op);
  });
}

}  // namespace webnn::reference
