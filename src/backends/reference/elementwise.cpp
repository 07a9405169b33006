// Element-wise kernels: binary arithmetic and prelu with broadcasting, unary math and
// activations, identity, clamp and cast. spec: #api-mlgraphbuilder-binary,
// #api-mlgraphbuilder-unary, #api-mlgraphbuilder-cast
//
// Floating point: every float unary op and activation evaluates its definition in double on the
// exact input value and rounds once to the output type, float16 straight from the double (never
// through float32). Binary ops and prelu run in the type itself (pow through double), float16 in
// float32 and rounded when stored: float32 carries more than twice float16's precision, so one
// +, -, * or / rounded to float32 and then to float16 is the correctly rounded float16 result.
//
// Integers are exact and wrap modulo 2^N on overflow (two's complement), like the spec's integer
// casting. Implementation-defined corners, chosen here and relied on by the tests:
//   - integer division by zero yields 0; INT_MIN / -1 wraps to INT_MIN;
//   - integer pow with a negative exponent truncates 1 / a^|b| toward zero (1 for a = 1, +-1 for
//     a = -1, 0 otherwise, including a = 0);
//   - abs and neg of INT_MIN wrap to INT_MIN;
//   - max, min, clamp, relu, hardSigmoid and sign propagate NaN;
//   - elu, leakyRelu and prelu are evaluated piecewise, x < 0 ? alpha * f(x) : x. That is the
//     spec's max(0, x) + alpha * min(0, x) (or exp(min(0, x)) - 1) for every finite alpha, except
//     that -0 stays -0 (as relu keeps it) and an infinite alpha or slope (a float16 cast that
//     overflowed, a slope value) changes only negative inputs instead of turning x >= 0 into
//     0 * Infinity = NaN;
//   - where the spec's expression is 0 * Infinity or Infinity / Infinity at an infinite input, the
//     function's limit is returned: hardSwish(-Infinity) = 0, softsign(+-Infinity) = +-1.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"
#include "ops/number_cast.hpp"

namespace webnn::reference {

namespace {

// ---- Integer arithmetic that wraps instead of overflowing (no undefined behaviour) ----

template <class T>
using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;

template <class T>
T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <class T>
T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <class T>
T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
template <class T>
T wrap_neg(T a) {
  return static_cast<T>(uint64_t{0} - static_cast<uint64_t>(a));
}
template <class T>
T int_div(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (a == std::numeric_limits<T>::min() && b == -1) return a;  // wraps
  }
  return static_cast<T>(a / b);  // C++ truncates toward zero, as the spec asks
}
template <class T>
T int_pow(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) {
      if (a == 1) return 1;
      if (a == -1) return (b % 2 == 0) ? 1 : -1;
      return 0;
    }
  }
  uint64_t base = static_cast<uint64_t>(a);
  uint64_t e = static_cast<uint64_t>(b);
  uint64_t result = 1;
  while (e != 0) {  // square and multiply, wrapping modulo 2^64 then to T
    if (e & 1) result *= base;
    base *= base;
    e >>= 1;
  }
  return static_cast<T>(result);
}

template <class C>
C nan_max(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
  }
  return a < b ? b : a;
}
template <class C>
C nan_min(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
  }
  return b < a ? b : a;
}

// ---- Binary ops ----

template <class T>
Compute<T> apply_binary(OpKind kind, Compute<T> a, Compute<T> b) {
  using C = Compute<T>;
  if constexpr (std::is_floating_point_v<C>) {
    switch (kind) {
      case OpKind::kAdd:
        return a + b;
      case OpKind::kSub:
        return a - b;
      case OpKind::kMul:
        return a * b;
      case OpKind::kDiv:
        return a / b;
      case OpKind::kMax:
        return nan_max(a, b);
      case OpKind::kMin:
        return nan_min(a, b);
      case OpKind::kPow:
        return static_cast<C>(std::pow(static_cast<double>(a), static_cast<double>(b)));
      case OpKind::kPrelu:  // a is the input, b the slope; NaN passes through
        return a < C{0} ? b * a : a;
      default:
        break;
    }
  } else {
    switch (kind) {
      case OpKind::kAdd:
        return wrap_add(a, b);
      case OpKind::kSub:
        return wrap_sub(a, b);
      case OpKind::kMul:
        return wrap_mul(a, b);
      case OpKind::kDiv:
        return int_div(a, b);
      case OpKind::kMax:
        return nan_max(a, b);
      case OpKind::kMin:
        return nan_min(a, b);
      case OpKind::kPow:
        return int_pow(a, b);
      case OpKind::kPrelu:
        if constexpr (std::is_signed_v<C>) return a < C{0} ? wrap_mul(b, a) : a;
        return a;
      default:
        break;
    }
  }
  return C{};
}

template <class T, OpKind K>
void binary_loop(const T* a, const T* b, T* out, const Shape& out_shape, const std::vector<size_t>& sa,
                 const std::vector<size_t>& sb, bool same_shape) {
  if (same_shape) {
    const size_t n = element_count(out_shape);
    for (size_t i = 0; i < n; ++i) out[i] = store<T>(apply_binary<T>(K, load(a[i]), load(b[i])));
    return;
  }
  const std::vector<size_t> strides[2] = {sa, sb};
  for_each_offset(out_shape, strides, [&](size_t i, const size_t* o) {
    out[i] = store<T>(apply_binary<T>(K, load(a[o[0]]), load(b[o[1]])));
  });
}

template <class T>
Kernel binary_kernel(const Graph& graph, const Operation& op) {
  const OperandId a_id = op.inputs.at(0), b_id = op.inputs.at(1), out_id = op.outputs.at(0);
  const Shape out_shape = graph.desc(out_id).shape;
  const Shape& a_shape = graph.desc(a_id).shape;
  const Shape& b_shape = graph.desc(b_id).shape;
  const bool same_shape = a_shape == out_shape && b_shape == out_shape;
  std::vector<size_t> sa = broadcast_strides(a_shape, out_shape);
  std::vector<size_t> sb = broadcast_strides(b_shape, out_shape);
  auto make = [&]<OpKind K>() -> Kernel {
    return [=](Values v) {
      binary_loop<T, K>(typed<T>(v[a_id]), typed<T>(v[b_id]), typed<T>(v[out_id]), out_shape, sa, sb, same_shape);
    };
  };
  switch (op.kind) {
    case OpKind::kAdd:
      return make.template operator()<OpKind::kAdd>();
    case OpKind::kSub:
      return make.template operator()<OpKind::kSub>();
    case OpKind::kMul:
      return make.template operator()<OpKind::kMul>();
    case OpKind::kDiv:
      return make.template operator()<OpKind::kDiv>();
    case OpKind::kMax:
      return make.template operator()<OpKind::kMax>();
    case OpKind::kMin:
      return make.template operator()<OpKind::kMin>();
    case OpKind::kPow:
      return make.template operator()<OpKind::kPow>();
    case OpKind::kPrelu:
      return make.template operator()<OpKind::kPrelu>();
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, describe(op) + ": not a binary operation");
}

// ---- Unary ops ----

template <class T, class F>
Kernel unary_map(const Graph& graph, const Operation& op, F f) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const size_t n = element_count(graph.desc(out_id));
  return [=](Values v) {
    const T* in = typed<T>(v[in_id]);
    T* out = typed<T>(v[out_id]);
    for (size_t i = 0; i < n; ++i) out[i] = store<T>(f(load(in[i])));
  };
}

// The float ops: f(x) in double on the exact input value, rounded once to T.
template <class T, class F>
Kernel float_map(const Graph& graph, const Operation& op, F f) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const size_t n = element_count(graph.desc(out_id));
  return [=](Values v) {
    const T* in = typed<T>(v[in_id]);
    T* out = typed<T>(v[out_id]);
    for (size_t i = 0; i < n; ++i) out[i] = round_from_double<T>(f(static_cast<double>(load(in[i]))));
  };
}

// min(hi, max(lo, x)) that propagates NaN (as max and min do).
double clamp_nan(double x, double lo, double hi) { return x < lo ? lo : (hi < x ? hi : x); }

// roundEven: halves to the even neighbour, the sign kept (-0.5 -> -0), NaN and +-Infinity
// unchanged. Written out rather than std::nearbyint, which depends on the current rounding mode.
// x - floor(x) is exact: x is a float32 or float16 value held in a double.
double round_half_even(double x) {
  if (!std::isfinite(x)) return x;
  const double below = std::floor(x);
  const double fraction = x - below;
  const bool up = fraction > 0.5 || (fraction == 0.5 && std::fmod(below, 2.0) != 0.0);
  return std::copysign(up ? below + 1.0 : below, x);
}

// sign: -1, 0 or 1; -0 gives +0 (the spec's "0 otherwise"); NaN gives NaN (see docs/operators.md).
// spec: "1 if > 0, -1 if < 0, and 0 otherwise": NaN and -0 give +0.
double sign_of(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

// ln(1 + exp(x)) without overflow: for x > 0 it is x + ln(1 + exp(-x)), so softplus(1000) = 1000.
double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

// An activation option (a finite double) cast to the input's data type, as the spec's algorithms
// do before building the operator; it may overflow to +-Infinity in float16.
template <class T>
double option_in(double value) {
  return static_cast<double>(load(ops::cast_number<T>(Number(value))));
}

template <class T>
Kernel float_kernel(const Graph& graph, const Operation& op) {
  if constexpr (!kIsFloat<T>) {
    throw_unsupported(op, graph.desc(op.inputs.at(0)).data_type);
  } else {
    switch (op.kind) {
      case OpKind::kAbs:
        return float_map<T>(graph, op, [](double x) { return std::fabs(x); });
      case OpKind::kCeil:
        return float_map<T>(graph, op, [](double x) { return std::ceil(x); });
      case OpKind::kCos:
        return float_map<T>(graph, op, [](double x) { return std::cos(x); });
      case OpKind::kErf:
        return float_map<T>(graph, op, [](double x) { return std::erf(x); });
      case OpKind::kExp:
        return float_map<T>(graph, op, [](double x) { return std::exp(x); });
      case OpKind::kFloor:
        return float_map<T>(graph, op, [](double x) { return std::floor(x); });
      case OpKind::kLog:
        return float_map<T>(graph, op, [](double x) { return std::log(x); });
      case OpKind::kNeg:
        return float_map<T>(graph, op, [](double x) { return -x; });
      case OpKind::kReciprocal:
        return float_map<T>(graph, op, [](double x) { return 1.0 / x; });
      case OpKind::kRoundEven:
        return float_map<T>(graph, op, round_half_even);
      case OpKind::kSin:
        return float_map<T>(graph, op, [](double x) { return std::sin(x); });
      case OpKind::kSign:
        return float_map<T>(graph, op, sign_of);
      case OpKind::kSqrt:
        return float_map<T>(graph, op, [](double x) { return std::sqrt(x); });
      case OpKind::kTan:
        return float_map<T>(graph, op, [](double x) { return std::tan(x); });
      case OpKind::kSigmoid:
        return float_map<T>(graph, op, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
      case OpKind::kTanh:
        return float_map<T>(graph, op, [](double x) { return std::tanh(x); });
      case OpKind::kGelu:
        // spec: #api-mlgraphbuilder-gelu-method — 0.5 * x * (1 + erf(x / sqrt(2)))
        return float_map<T>(graph, op, [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); });
      case OpKind::kElu: {
        // spec: #api-mlgraphbuilder-elu — max(0, x) + alpha * (exp(min(0, x)) - 1), piecewise
        const double alpha = option_in<T>(std::get<EluAttrs>(op.attrs).alpha);
        return float_map<T>(graph, op, [alpha](double x) { return x < 0 ? alpha * std::expm1(x) : x; });
      }
      case OpKind::kHardSigmoid: {
        // spec: #api-mlgraphbuilder-hard-sigmoid — max(0, min(1, alpha * x + beta))
        const auto& attrs = std::get<HardSigmoidAttrs>(op.attrs);
        const double alpha = option_in<T>(attrs.alpha), beta = option_in<T>(attrs.beta);
        return float_map<T>(graph, op, [alpha, beta](double x) { return clamp_nan(alpha * x + beta, 0.0, 1.0); });
      }
      case OpKind::kHardSwish:
        // spec: #api-mlgraphbuilder-hard-swish — x * max(0, min(6, x + 3)) / 6; a zero factor gives
        // 0 even for x = -Infinity.
        return float_map<T>(graph, op, [](double x) {
          const double factor = clamp_nan(x + 3.0, 0.0, 6.0);
          return factor == 0.0 ? 0.0 : x * factor / 6.0;
        });
      case OpKind::kLeakyRelu: {
        // spec: #api-mlgraphbuilder-leakyrelu — max(0, x) + alpha * min(0, x), piecewise
        const double alpha = option_in<T>(std::get<LeakyReluAttrs>(op.attrs).alpha);
        return float_map<T>(graph, op, [alpha](double x) { return x < 0 ? alpha * x : x; });
      }
      case OpKind::kLinear: {
        // spec: #api-mlgraphbuilder-linear — alpha * x + beta
        const auto& attrs = std::get<LinearAttrs>(op.attrs);
        const double alpha = option_in<T>(attrs.alpha), beta = option_in<T>(attrs.beta);
        return float_map<T>(graph, op, [alpha, beta](double x) { return alpha * x + beta; });
      }
      case OpKind::kSoftplus:
        // spec: #api-mlgraphbuilder-softplus-method — ln(1 + exp(x))
        return float_map<T>(graph, op, softplus);
      case OpKind::kSoftsign:
        // spec: #api-mlgraphbuilder-softsign-method — x / (1 + |x|), +-1 at +-Infinity
        return float_map<T>(graph, op,
                            [](double x) { return std::isinf(x) ? std::copysign(1.0, x) : x / (1.0 + std::fabs(x)); });
      default:
        break;
    }
    throw_error(ErrorKind::kNotSupportedError, describe(op) + ": not a unary operation");
  }
}

// abs, neg and sign of the signed integer types the spec allows (int8, int32, int64): exact, with
// abs and neg of the most negative value wrapping to itself.
template <class T>
Kernel integer_sign_kernel(const Graph& graph, const Operation& op) {
  if constexpr (!std::is_integral_v<T> || !std::is_signed_v<T>) {
    throw_unsupported(op, graph.desc(op.inputs.at(0)).data_type);
  } else {
    switch (op.kind) {
      case OpKind::kAbs:
        return unary_map<T>(graph, op, [](T x) { return x < 0 ? wrap_neg(x) : x; });
      case OpKind::kNeg:
        return unary_map<T>(graph, op, [](T x) { return wrap_neg(x); });
      case OpKind::kSign:
        return unary_map<T>(graph, op, [](T x) { return static_cast<T>((x > 0) - (x < 0)); });
      default:
        break;
    }
    throw_error(ErrorKind::kNotSupportedError, describe(op) + ": not a sign operation");
  }
}

// identity copies the bytes of any data type.
Kernel identity_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const size_t bytes = *graph.desc(out_id).byte_length();
  return [=](Values v) {
    if (bytes) std::memcpy(v[out_id], v[in_id], bytes);
  };
}

template <class T>
Kernel relu_kernel(const Graph& graph, const Operation& op) {
  using C = Compute<T>;
  if constexpr (std::is_unsigned_v<C>) {
    return unary_map<T>(graph, op, [](C x) { return x; });
  } else {
    // x < 0 is false for NaN and -0, so both pass through unchanged.
    return unary_map<T>(graph, op, [](C x) { return x < C{0} ? C{0} : x; });
  }
}

// spec: #api-mlgraphbuilder-clamp — the bounds are MLNumbers cast to the input's data type.
template <class T>
Kernel clamp_kernel(const Graph& graph, const Operation& op) {
  using C = Compute<T>;
  const auto& attrs = std::get<ClampAttrs>(op.attrs);
  const C lo = load(ops::cast_number<T>(attrs.min_value));
  const C hi = load(ops::cast_number<T>(attrs.max_value));
  return unary_map<T>(graph, op, [lo, hi](C x) { return x < lo ? lo : (hi < x ? hi : x); });
}

// ---- cast ----
// spec: #api-mlgraphbuilder-cast. Float to float and integer to float: nearest representable
// value, +-Infinity out of range. Integer to integer: the low N bits, two's complement.
// Float to integer: truncation toward zero. Out of range it is implementation-defined; this
// backend saturates to the target's range and maps NaN to 0.
template <class To, class From>
To cast_value(From v) {
  if constexpr (kIsFloat<To>) {
    if constexpr (kIsFloat<From>) {
      return store<To>(static_cast<float>(load(v)));  // float16 -> float32 is exact
    } else {
      // One rounding to float32. For float16 targets a second rounding happens only for
      // |v| > 2^24, where both roundings already give +-Infinity.
      return store<To>(static_cast<float>(v));
    }
  } else if constexpr (kIsFloat<From>) {
    const double d = static_cast<double>(load(v));
    if (std::isnan(d)) return To{0};
    // Bounds compared in double: max() may round up to 2^N, which is itself out of range.
    if (d >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    if (d <= static_cast<double>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
    return static_cast<To>(std::trunc(d));
  } else {
    return static_cast<To>(v);  // C++20: modulo 2^N
  }
}

template <class From>
Kernel cast_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const size_t n = element_count(graph.desc(out_id));
  return visit_type(graph.desc(out_id).data_type, [&]<class To>() -> Kernel {
    return [=](Values v) {
      const From* in = typed<From>(v[in_id]);
      To* out = typed<To>(v[out_id]);
      for (size_t i = 0; i < n; ++i) out[i] = cast_value<To>(in[i]);
    };
  });
}

}  // namespace

Kernel make_elementwise_kernel(const Graph& graph, const Operation& op) {
  const DataType type = graph.desc(op.inputs.at(0)).data_type;
  return visit_type(type, [&]<class T>() -> Kernel {
    switch (op.kind) {
      case OpKind::kAdd:
      case OpKind::kSub:
      case OpKind::kMul:
      case OpKind::kDiv:
      case OpKind::kMax:
      case OpKind::kMin:
      case OpKind::kPow:
      case OpKind::kPrelu:
        return binary_kernel<T>(graph, op);
      case OpKind::kAbs:
      case OpKind::kNeg:
      case OpKind::kSign:
        if constexpr (kIsFloat<T>) {
          return float_kernel<T>(graph, op);
        } else {
          return integer_sign_kernel<T>(graph, op);
        }
      case OpKind::kCeil:
      case OpKind::kCos:
      case OpKind::kErf:
      case OpKind::kExp:
      case OpKind::kFloor:
      case OpKind::kLog:
      case OpKind::kReciprocal:
      case OpKind::kRoundEven:
      case OpKind::kSin:
      case OpKind::kSqrt:
      case OpKind::kTan:
      case OpKind::kSigmoid:
      case OpKind::kTanh:
      case OpKind::kGelu:
      case OpKind::kElu:
      case OpKind::kHardSigmoid:
      case OpKind::kHardSwish:
      case OpKind::kLeakyRelu:
      case OpKind::kLinear:
      case OpKind::kSoftplus:
      case OpKind::kSoftsign:
        return float_kernel<T>(graph, op);
      case OpKind::kIdentity:
        return identity_kernel(graph, op);
      case OpKind::kRelu:
        return relu_kernel<T>(graph, op);
      case OpKind::kClamp:
        return clamp_kernel<T>(graph, op);
      case OpKind::kCast:
        return cast_kernel<T>(graph, op);
      default:
        break;
    }
    throw_error(ErrorKind::kNotSupportedError, describe(op) + ": not an element-wise operation");
  });
}

}  // namespace webnn::reference
