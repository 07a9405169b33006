// Element-wise kernels: binary arithmetic with broadcasting, unary math and activations, clamp and
// cast. spec: #api-mlgraphbuilder-binary, #api-mlgraphbuilder-unary, #api-mlgraphbuilder-cast
//
// Floating point: float32 ops whose IEEE result is exact-rounded in float (+, -, *, /, sqrt) run
// in float; transcendental ones (exp, erf, tanh, sigmoid, gelu, pow) run in double and round once
// to float. float16 computes in float32 and rounds once when stored.
//
// Integers are exact and wrap modulo 2^N on overflow (two's complement), like the spec's integer
// casting. Implementation-defined corners, chosen here and relied on by the tests:
//   - integer division by zero yields 0; INT_MIN / -1 wraps to INT_MIN;
//   - integer pow with a negative exponent truncates 1 / a^|b| toward zero (1 for a = 1, +-1 for
//     a = -1, 0 otherwise, including a = 0);
//   - max, min, clamp and relu propagate NaN.
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

template <class T>
Kernel float_unary_kernel(const Graph& graph, const Operation& op) {
  if constexpr (!kIsFloat<T>) {
    throw_unsupported(op, graph.desc(op.inputs.at(0)).data_type);
  } else {
    switch (op.kind) {
      case OpKind::kErf:
        return unary_map<T>(graph, op, [](float x) { return static_cast<float>(std::erf(double{x})); });
      case OpKind::kExp:
        return unary_map<T>(graph, op, [](float x) { return static_cast<float>(std::exp(double{x})); });
      case OpKind::kSqrt:
        return unary_map<T>(graph, op, [](float x) { return std::sqrt(x); });
      case OpKind::kSigmoid:
        return unary_map<T>(graph, op, [](float x) { return static_cast<float>(1.0 / (1.0 + std::exp(-double{x}))); });
      case OpKind::kTanh:
        return unary_map<T>(graph, op, [](float x) { return static_cast<float>(std::tanh(double{x})); });
      case OpKind::kGelu:
        // spec: #api-mlgraphbuilder-gelu-method — 0.5 * x * (1 + erf(x / sqrt(2)))
        return unary_map<T>(graph, op, [](float x) {
          const double d = x;
          return static_cast<float>(0.5 * d * (1.0 + std::erf(d / std::sqrt(2.0))));
        });
      default:
        break;
    }
    throw_error(ErrorKind::kNotSupportedError, describe(op) + ": not a unary operation");
  }
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
        return binary_kernel<T>(graph, op);
      case OpKind::kErf:
      case OpKind::kExp:
      case OpKind::kSqrt:
      case OpKind::kSigmoid:
      case OpKind::kTanh:
      case OpKind::kGelu:
        return float_unary_kernel<T>(graph, op);
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
