// The vector types our own kernels (eltwise.cpp, weight_only.cpp) are written over, per instruction
// set: V, a GCC vector of kWidth floats; vfma, a fused multiply-add; sum, of the lanes. Each set's
// functions are compiled for it (`#pragma GCC target`); a kernel file includes its kernels once per
// set, inside a namespace that takes these names, and calls the set isa() (eltwise.hpp) chose.
#pragma once

#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <cstring>

namespace webnn::onednn {

#pragma GCC push_options
#pragma GCC target("avx2,fma")
namespace simd_avx2 {
typedef float V __attribute__((vector_size(32)));
constexpr size_t kWidth = 8;
inline V vfma(V a, V b, V c) {
  return reinterpret_cast<V>(
      _mm256_fmadd_ps(reinterpret_cast<__m256>(a), reinterpret_cast<__m256>(b), reinterpret_cast<__m256>(c)));
}
inline float sum(V v) {
  const __m256 x = reinterpret_cast<__m256>(v);
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  return _mm_cvtss_f32(_mm_add_ss(h, _mm_movehdup_ps(h)));
}
}  // namespace simd_avx2
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx2,fma")
namespace simd_avx512 {
typedef float V __attribute__((vector_size(64)));
constexpr size_t kWidth = 16;
inline V vfma(V a, V b, V c) {
  return reinterpret_cast<V>(
      _mm512_fmadd_ps(reinterpret_cast<__m512>(a), reinterpret_cast<__m512>(b), reinterpret_cast<__m512>(c)));
}
// The two halves added, then AVX2's sum (GCC 12 warns of an uninitialised operand inside
// _mm512_reduce_add_ps).
inline float sum(V v) {
  __m256 half[2];
  std::memcpy(half, &v, sizeof v);
  return simd_avx2::sum(reinterpret_cast<simd_avx2::V>(_mm256_add_ps(half[0], half[1])));
}
}  // namespace simd_avx512
#pragma GCC pop_options

}  // namespace webnn::onednn
