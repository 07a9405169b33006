#include "backends/onednn/eltwise.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "backends/onednn/simd.hpp"
#include "ops/number_cast.hpp"

// SLEEF (libsleef-dev). sleef.h declares its AVX and AVX-512 functions only when the whole file is
// compiled for those instruction sets; this file compiles per function (the processor is checked
// at run time), so it declares the few it calls itself, with SLEEF's own names and types.
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx2,fma")
extern "C" {
__m512 Sleef_expf16_u10(__m512);
__m512 Sleef_logf16_u10(__m512);
__m512 Sleef_log1pf16_u10(__m512);
__m512 Sleef_expm1f16_u10(__m512);
__m512 Sleef_erff16_u10(__m512);
__m512d Sleef_expd8_u10(__m512d);
// The 8-wide functions dispatch to the processor's AVX2 (or AVX, FMA4) code.
__m256 Sleef_expf8_u10(__m256);
__m256 Sleef_logf8_u10(__m256);
__m256 Sleef_log1pf8_u10(__m256);
__m256 Sleef_expm1f8_u10(__m256);
__m256 Sleef_erff8_u10(__m256);
__m256d Sleef_expd4_u10(__m256d);
float Sleef_expf_u10(float);
float Sleef_logf_u10(float);
float Sleef_log1pf_u10(float);
float Sleef_expm1f_u10(float);
float Sleef_erff_u10(float);
double Sleef_exp_u10(double);
}
#pragma GCC pop_options

namespace webnn::onednn {

namespace {

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx2,fma")
namespace avx512 {
using simd_avx512::kWidth;
using simd_avx512::V;
using simd_avx512::vfma;
inline V vexp(V x) { return reinterpret_cast<V>(Sleef_expf16_u10(reinterpret_cast<__m512>(x))); }
inline V vlog(V x) { return reinterpret_cast<V>(Sleef_logf16_u10(reinterpret_cast<__m512>(x))); }
inline V vlog1p(V x) { return reinterpret_cast<V>(Sleef_log1pf16_u10(reinterpret_cast<__m512>(x))); }
inline V vexpm1(V x) { return reinterpret_cast<V>(Sleef_expm1f16_u10(reinterpret_cast<__m512>(x))); }
inline V verf(V x) { return reinterpret_cast<V>(Sleef_erff16_u10(reinterpret_cast<__m512>(x))); }
// exp in double, rounded once to float: within 0.5 ULP and a hair.
inline V vexp_rounded(V x) {
  typedef float Half __attribute__((vector_size(32)));
  typedef double D __attribute__((vector_size(64)));
  Half half[2];
  std::memcpy(half, &x, sizeof x);
  for (Half& h : half)
    h = __builtin_convertvector(
        reinterpret_cast<D>(Sleef_expd8_u10(reinterpret_cast<__m512d>(__builtin_convertvector(h, D)))), Half);
  std::memcpy(&x, half, sizeof x);
  return x;
}
#include "backends/onednn/eltwise_kernels.inc"
}  // namespace avx512
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma")
namespace avx2 {
using simd_avx2::kWidth;
using simd_avx2::V;
using simd_avx2::vfma;
inline V vexp(V x) { return reinterpret_cast<V>(Sleef_expf8_u10(reinterpret_cast<__m256>(x))); }
inline V vlog(V x) { return reinterpret_cast<V>(Sleef_logf8_u10(reinterpret_cast<__m256>(x))); }
inline V vlog1p(V x) { return reinterpret_cast<V>(Sleef_log1pf8_u10(reinterpret_cast<__m256>(x))); }
inline V vexpm1(V x) { return reinterpret_cast<V>(Sleef_expm1f8_u10(reinterpret_cast<__m256>(x))); }
inline V verf(V x) { return reinterpret_cast<V>(Sleef_erff8_u10(reinterpret_cast<__m256>(x))); }
inline V vexp_rounded(V x) {
  typedef float Half __attribute__((vector_size(16)));
  typedef double D __attribute__((vector_size(32)));
  Half half[2];
  std::memcpy(half, &x, sizeof x);
  for (Half& h : half)
    h = __builtin_convertvector(
        reinterpret_cast<D>(Sleef_expd4_u10(reinterpret_cast<__m256d>(__builtin_convertvector(h, D)))), Half);
  std::memcpy(&x, half, sizeof x);
  return x;
}
#include "backends/onednn/eltwise_kernels.inc"
}  // namespace avx2
#pragma GCC pop_options

// Any other x86-64 processor: one element at a time, SLEEF's scalar functions.
namespace scalar {
using V = float;
constexpr size_t kWidth = 1;
inline V vexp(V x) { return Sleef_expf_u10(x); }
inline V vlog(V x) { return Sleef_logf_u10(x); }
inline V vlog1p(V x) { return Sleef_log1pf_u10(x); }
inline V vexpm1(V x) { return Sleef_expm1f_u10(x); }
inline V verf(V x) { return Sleef_erff_u10(x); }
inline V vexp_rounded(V x) { return static_cast<float>(Sleef_exp_u10(x)); }
inline V vfma(V a, V b, V c) { return std::fma(a, b, c); }
#include "backends/onednn/eltwise_kernels.inc"
}  // namespace scalar

void run_serial(const EltwiseOp& op, const float* in, float* out, size_t n) {
  switch (isa()) {
    case Isa::kAvx512:
      return avx512::run(op, in, out, n);
    case Isa::kAvx2:
      return avx2::run(op, in, out, n);
    case Isa::kScalar:
      return scalar::run(op, in, out, n);
  }
}

// Below this many elements a second thread costs more than it saves.
constexpr size_t kParallelGrain = 1 << 15;

// The largest magnitude's bits of `count` values (sign cleared): at or above the exponent mask
// means a NaN or an infinity. One pass without branches, which the compiler vectorises; the bytes
// need not be aligned (callers' buffers).
template <class Bits>
Bits max_magnitude(const unsigned char* p, size_t count, Bits magnitude_mask) {
  Bits m = 0;
  for (size_t i = 0; i < count; ++i) {
    Bits v;
    std::memcpy(&v, p + i * sizeof(Bits), sizeof v);
    m = std::max<Bits>(m, v & magnitude_mask);
  }
  return m;
}

template <class Bits>
bool any_special(const void* data, size_t count, Bits magnitude_mask, Bits exponent_mask) {
  const auto* p = static_cast<const unsigned char*>(data);
  // Blocks of 16 KiB so that a NaN near the start ends the scan early.
  constexpr size_t kBlock = 16384 / sizeof(Bits);
  for (size_t i = 0; i < count; i += kBlock)
    if (max_magnitude(p + i * sizeof(Bits), std::min(kBlock, count - i), magnitude_mask) >= exponent_mask) return true;
  return false;
}

}  // namespace

bool has_own_eltwise(OpKind kind) {
  switch (kind) {
    case OpKind::kRelu:
    case OpKind::kExp:
    case OpKind::kLog:
    case OpKind::kSoftplus:
    case OpKind::kGelu:
    case OpKind::kErf:
    case OpKind::kHardSwish:
    case OpKind::kClamp:
    case OpKind::kElu:
    case OpKind::kHardSigmoid:
      return true;
    default:
      return false;
  }
}

std::optional<EltwiseOp> own_eltwise(const Graph& graph, const Operation& op) {
  if (!has_own_eltwise(op.kind) || op.inputs.size() != 1 || op.outputs.size() != 1 ||
      graph.desc(op.inputs[0]).data_type != DataType::kFloat32 ||
      graph.desc(op.outputs[0]).data_type != DataType::kFloat32)
    return std::nullopt;
  EltwiseOp e;
  e.kind = op.kind;
  switch (op.kind) {
    case OpKind::kClamp: {
      // spec: the bounds are cast to the input's data type.
      const auto& a = std::get<ClampAttrs>(op.attrs);
      e.alpha = ops::cast_number<float>(a.min_value);
      e.beta = ops::cast_number<float>(a.max_value);
      break;
    }
    case OpKind::kElu:
      e.alpha = ops::cast_number<float>(Number(std::get<EluAttrs>(op.attrs).alpha));
      break;
    case OpKind::kHardSigmoid: {
      const auto& a = std::get<HardSigmoidAttrs>(op.attrs);
      e.alpha = ops::cast_number<float>(Number(a.alpha));
      e.beta = ops::cast_number<float>(Number(a.beta));
      break;
    }
    default:  // no options
      break;
  }
  return e;
}

Isa isa() {
  static const Isa chosen = [] {
    const Isa best = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? Isa::kAvx512
                     : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")       ? Isa::kAvx2
                                                                                             : Isa::kScalar;
    // A lower set on request (the tests run every kernel): WEBNN_ONEDNN_OWN_ISA=avx2 or scalar.
    const char* asked = std::getenv("WEBNN_ONEDNN_OWN_ISA");
    const std::string_view want = asked ? asked : "";
    if (want == "scalar") return Isa::kScalar;
    if (want == "avx2" && best != Isa::kScalar) return Isa::kAvx2;
    return best;
  }();
  return chosen;
}

void run_eltwise(const EltwiseOp& op, const float* in, float* out, size_t n) {
  if (n < 2 * kParallelGrain || omp_get_max_threads() == 1) return run_serial(op, in, out, n);
  const auto chunks = static_cast<int64_t>((n + kParallelGrain - 1) / kParallelGrain);
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    const size_t begin = static_cast<size_t>(c) * kParallelGrain;
    run_serial(op, in + begin, out + begin, std::min(kParallelGrain, n - begin));
  }
}

bool has_nan_or_inf(const void* data, size_t count, DataType type) {
  switch (type) {
    case DataType::kFloat32:
      // Callers' buffers need not be aligned for float: the vector kernels load through memcpy,
      // the bit test below does not care.
      if (reinterpret_cast<uintptr_t>(data) % alignof(float) != 0)
        return any_special<uint32_t>(data, count, 0x7fffffffu, 0x7f800000u);
      switch (isa()) {
        case Isa::kAvx512:
          return avx512::any_nan_or_inf(static_cast<const float*>(data), count);
        case Isa::kAvx2:
          return avx2::any_nan_or_inf(static_cast<const float*>(data), count);
        case Isa::kScalar:
          return scalar::any_nan_or_inf(static_cast<const float*>(data), count);
      }
      return false;
    case DataType::kFloat16:
      return any_special<uint16_t>(data, count, 0x7fff, 0x7c00);
    default:
      return false;
  }
}

}  // namespace webnn::onednn
