// Reductions, argMin/argMax and cumulativeSum.
// spec: #api-mlgraphbuilder-reduce, #api-mlgraphbuilder-argminmax, #api-mlgraphbuilder-cumulativesum
//
// Reductions: axes left out reduce every dimension (validation resolves them); an empty list
// reduces none (each output is the
// reduction of its single input value, e.g. reduceL2(x) = |x|). keepDimensions only changes the
// shape, which the graph already holds, so the kernels work with the kept-dimension layout.
//
// Arithmetic:
//   - float32/float16 sums, products, norms and means accumulate in double and round once to the
//     output type (float16 straight from double, never through float32); reduceLogSumExp uses the
//     running maximum so that large inputs do not overflow.
//   - reduceMax/reduceMin and argMax/argMin propagate NaN: a NaN among the values gives NaN, and
//     the index of the first NaN.
//   - integers are exact and wrap modulo 2^N (reduceSum, reduceProduct, reduceL1, reduceSumSquare,
//     cumulativeSum); |INT_MIN| wraps to INT_MIN.
//   - argMax/argMin return the first index on ties.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"
#include "ops/number_cast.hpp"

namespace webnn::reference {

namespace {

// Accumulation in uint64_t: two's complement addition and multiplication modulo 2^64 reduce to
// the same result modulo 2^N as wrapping in T, without signed overflow.
template <class T>
uint64_t as_wrapping(T v) {
  return static_cast<uint64_t>(v);
}
template <class T>
uint64_t wrapping_abs(T v) {
  if constexpr (std::is_signed_v<T>) {
    return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  } else {
    return static_cast<uint64_t>(v);
  }
}

// ---- Reducers: State init(); void add(State&, T value); T finish(const State&, size_t count) ----

// Float sums of f(x) in double, finished by g(sum, count).
template <class T, class Map, class Finish>
struct FloatSum {
  using State = double;
  Map map;
  Finish finish_fn;
  State init() const { return 0.0; }
  void add(State& s, T v) const { s += map(static_cast<double>(load(v))); }
  T finish(const State& s, size_t count) const { return round_from_double<T>(finish_fn(s, count)); }
};
template <class T, class Map, class Finish>
FloatSum<T, Map, Finish> float_sum(Map map, Finish finish) {
  return {map, finish};
}

template <class T>
struct FloatProduct {
  using State = double;
  State init() const { return 1.0; }
  void add(State& s, T v) const { s *= static_cast<double>(load(v)); }
  T finish(const State& s, size_t) const { return round_from_double<T>(s); }
};

// log(sum(exp(x))) as m + log(sum(exp(x - m))) with m the running maximum.
template <class T>
struct FloatLogSumExp {
  struct State {
    double max = -std::numeric_limits<double>::infinity();
    double sum = 0.0;  // of exp(x - max)
  };
  State init() const { return {}; }
  void add(State& s, T v) const {
    const double x = static_cast<double>(load(v));
    if (std::isnan(x) || std::isnan(s.sum)) {
      s.sum = std::numeric_limits<double>::quiet_NaN();
    } else if (x == -std::numeric_limits<double>::infinity()) {
      // exp(-inf) = 0 adds nothing (and -inf - -inf would be NaN).
    } else if (x == s.max) {
      s.sum += 1.0;  // also +inf twice, where x - max would be NaN
    } else if (x > s.max) {
      s.sum = s.sum * std::exp(s.max - x) + 1.0;
      s.max = x;
    } else {
      s.sum += std::exp(x - s.max);
    }
  }
  T finish(const State& s, size_t) const {
    if (std::isnan(s.sum)) return round_from_double<T>(s.sum);
    return round_from_double<T>(s.max + std::log(s.sum));  // sum 0 (all -inf): -inf
  }
};

// Integer sums of f(x) modulo 2^64, truncated to T.
template <class T, class Map>
struct IntSum {
  using State = uint64_t;
  Map map;
  State init() const { return 0; }
  void add(State& s, T v) const { s += map(v); }
  T finish(const State& s, size_t) const { return static_cast<T>(s); }
};
template <class T, class Map>
IntSum<T, Map> int_sum(Map map) {
  return {map};
}

template <class T>
struct IntProduct {
  using State = uint64_t;
  State init() const { return 1; }
  void add(State& s, T v) const { s *= as_wrapping(v); }
  T finish(const State& s, size_t) const { return static_cast<T>(s); }
};

// Max (kMax) or min of every type, in the compute type (float16 widened exactly to float).
template <class T, bool kMax>
struct Extreme {
  using C = Compute<T>;
  using State = C;
  State init() const {
    if constexpr (std::is_floating_point_v<C>) {
      return kMax ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity();
    } else {
      return kMax ? std::numeric_limits<C>::lowest() : std::numeric_limits<C>::max();
    }
  }
  void add(State& s, T v) const {
    const C x = load(v);
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(s)) return;
      if (std::isnan(x)) {
        s = x;
        return;
      }
    }
    if (kMax ? x > s : x < s) s = x;
  }
  T finish(const State& s, size_t) const { return store<T>(s); }
};

// Which dimensions a reduction folds, and where each input element lands in the output.
struct ReduceLayout {
  Shape shape;                     // the input's
  std::vector<size_t> out_stride;  // per input dimension; 0 for reduced dimensions
  size_t out_count = 1;
  size_t group = 1;  // input elements per output element
  // The reduced dimensions are the trailing ones: output element o reduces input elements
  // o * group .. (o + 1) * group - 1, in that order (as the general walk visits them).
  bool trailing = true;
};

ReduceLayout reduce_layout(const Shape& shape, const std::vector<uint32_t>& axes) {
  ReduceLayout l;
  l.shape = shape;
  const size_t rank = shape.size();
  std::vector<bool> reduced(rank, false);
  for (uint32_t a : axes) reduced.at(a) = true;
  l.out_stride.assign(rank, 0);
  for (size_t d = rank; d-- > 0;) {
    if (reduced[d]) {
      l.group *= shape[d];
      if (l.out_count > 1) l.trailing = false;  // a kept dimension of more than one element after it
    } else {
      l.out_stride[d] = l.out_count;
      l.out_count *= shape[d];
    }
  }
  return l;
}

template <class T, class R>
Kernel reduce_kernel(const Graph& graph, const Operation& op, R reducer) {
  const auto& attrs = std::get<ReduceAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const ReduceLayout layout = reduce_layout(graph.desc(in_id).shape, *attrs.axes);
  std::vector<typename R::State> states(layout.out_count);
  return [=, states = std::move(states)](Values v) mutable {
    const T* in = typed<T>(v[in_id]);
    T* out = typed<T>(v[out_id]);
    if (layout.trailing) {  // the common case (a norm's mean over the last axis), without the walk
      for (size_t o = 0; o < layout.out_count; ++o) {
        typename R::State state = reducer.init();
        const T* group = in + o * layout.group;
        for (size_t k = 0; k < layout.group; ++k) reducer.add(state, group[k]);
        out[o] = reducer.finish(state, layout.group);
      }
      return;
    }
    std::fill(states.begin(), states.end(), reducer.init());
    const std::vector<size_t> strides[1] = {layout.out_stride};
    for_each_offset(layout.shape, strides, [&](size_t i, const size_t* o) { reducer.add(states[o[0]], in[i]); });
    for (size_t i = 0; i < layout.out_count; ++i) out[i] = reducer.finish(states[i], layout.group);
  };
}

template <class T>
Kernel float_reduce_kernel(const Graph& graph, const Operation& op) {
  auto identity = [](double x) { return x; };
  auto square = [](double x) { return x * x; };
  auto sum = [](double s, size_t) { return s; };
  switch (op.kind) {
    case OpKind::kReduceSum:
      return reduce_kernel<T>(graph, op, float_sum<T>(identity, sum));
    case OpKind::kReduceL1:
      return reduce_kernel<T>(graph, op, float_sum<T>([](double x) { return std::fabs(x); }, sum));
    case OpKind::kReduceSumSquare:
      return reduce_kernel<T>(graph, op, float_sum<T>(square, sum));
    case OpKind::kReduceL2:
      return reduce_kernel<T>(graph, op, float_sum<T>(square, [](double s, size_t) { return std::sqrt(s); }));
    case OpKind::kReduceLogSum:
      return reduce_kernel<T>(graph, op, float_sum<T>(identity, [](double s, size_t) { return std::log(s); }));
    case OpKind::kReduceMean:
      return reduce_kernel<T>(graph, op,
                              float_sum<T>(identity, [](double s, size_t n) { return s / static_cast<double>(n); }));
    case OpKind::kReduceProduct:
      return reduce_kernel<T>(graph, op, FloatProduct<T>{});
    case OpKind::kReduceLogSumExp:
      return reduce_kernel<T>(graph, op, FloatLogSumExp<T>{});
    default:
      break;
  }
  throw_unsupported(op, graph.desc(op.inputs.at(0)).data_type);
}

// The spec allows int32, uint32, int64 and uint64 for these four (not int8/uint8).
template <class T>
Kernel int_reduce_kernel(const Graph& graph, const Operation& op) {
  constexpr bool kWide = sizeof(T) >= 4;
  if constexpr (kWide) {
    switch (op.kind) {
      case OpKind::kReduceSum:
        return reduce_kernel<T>(graph, op, int_sum<T>([](T x) { return as_wrapping(x); }));
      case OpKind::kReduceL1:
        return reduce_kernel<T>(graph, op, int_sum<T>([](T x) { return wrapping_abs(x); }));
      case OpKind::kReduceSumSquare:
        return reduce_kernel<T>(graph, op, int_sum<T>([](T x) { return as_wrapping(x) * as_wrapping(x); }));
      case OpKind::kReduceProduct:
        return reduce_kernel<T>(graph, op, IntProduct<T>{});
      default:
        break;
    }
  }
  throw_unsupported(op, graph.desc(op.inputs.at(0)).data_type);
}

Kernel make_reduce(const Graph& graph, const Operation& op) {
  return visit_type(graph.desc(op.inputs.at(0)).data_type, [&]<class T>() -> Kernel {
    if (op.kind == OpKind::kReduceMax) return reduce_kernel<T>(graph, op, Extreme<T, true>{});
    if (op.kind == OpKind::kReduceMin) return reduce_kernel<T>(graph, op, Extreme<T, false>{});
    if constexpr (kIsFloat<T>) {
      return float_reduce_kernel<T>(graph, op);
    } else {
      return int_reduce_kernel<T>(graph, op);
    }
  });
}

// ---- argMin / argMax ----

// The input as [outer, n, inner] around `axis`.
struct AxisSplit {
  size_t outer = 1, n = 1, inner = 1;
};
AxisSplit split_at(const Shape& shape, uint32_t axis) {
  AxisSplit s;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < axis)
      s.outer *= shape[d];
    else if (d == axis)
      s.n = shape[d];
    else
      s.inner *= shape[d];
  }
  return s;
}

// True when `x` should replace the best value so far: strictly better (so ties keep the first
// index), or the first NaN (after which nothing replaces it).
template <class C, bool kMax>
bool replaces(C x, C best) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(best)) return false;
    if (std::isnan(x)) return true;
  }
  return kMax ? x > best : x < best;
}

template <class T, class Index, bool kMax>
Kernel arg_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const AxisSplit s = split_at(graph.desc(in_id).shape, std::get<ArgMinMaxAttrs>(op.attrs).axis);
  return [=](Values v) {
    const T* in = typed<T>(v[in_id]);
    Index* out = typed<Index>(v[out_id]);
    for (size_t o = 0; o < s.outer; ++o) {
      for (size_t i = 0; i < s.inner; ++i) {
        const T* line = in + o * s.n * s.inner + i;
        size_t best = 0;
        Compute<T> best_value = load(line[0]);
        for (size_t k = 1; k < s.n; ++k) {
          const Compute<T> x = load(line[k * s.inner]);
          if (replaces<Compute<T>, kMax>(x, best_value)) {
            best = k;
            best_value = x;
          }
        }
        out[o * s.inner + i] = static_cast<Index>(best);
      }
    }
  };
}

Kernel make_arg(const Graph& graph, const Operation& op) {
  const DataType index_type = graph.desc(op.outputs.at(0)).data_type;
  return visit_type(graph.desc(op.inputs.at(0)).data_type, [&]<class T>() -> Kernel {
    const bool is_max = op.kind == OpKind::kArgMax;
    if (index_type == DataType::kInt32)
      return is_max ? arg_kernel<T, int32_t, true>(graph, op) : arg_kernel<T, int32_t, false>(graph, op);
    if (index_type == DataType::kInt64)
      return is_max ? arg_kernel<T, int64_t, true>(graph, op) : arg_kernel<T, int64_t, false>(graph, op);
    throw_unsupported(op, index_type);
  });
}

// ---- cumulativeSum ----

template <class T>
Kernel cumulative_sum_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<CumulativeSumAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const AxisSplit s = split_at(graph.desc(in_id).shape, attrs.axis);
  const bool exclusive = attrs.exclusive, reversed = attrs.reversed;
  return [=](Values v) {
    const T* in = typed<T>(v[in_id]);
    T* out = typed<T>(v[out_id]);
    for (size_t o = 0; o < s.outer; ++o) {
      for (size_t i = 0; i < s.inner; ++i) {
        const size_t base = o * s.n * s.inner + i;
        // Floats run in double and round each output once; integers wrap modulo 2^64, then 2^N.
        std::conditional_t<kIsFloat<T>, double, uint64_t> sum = 0;
        for (size_t step = 0; step < s.n; ++step) {
          const size_t at = base + (reversed ? s.n - 1 - step : step) * s.inner;
          const auto x = [&] {
            if constexpr (kIsFloat<T>) {
              return static_cast<double>(load(in[at]));
            } else {
              return as_wrapping(in[at]);
            }
          }();
          if (!exclusive) sum += x;
          if constexpr (kIsFloat<T>) {
            out[at] = round_from_double<T>(sum);
          } else {
            out[at] = static_cast<T>(sum);
          }
          if (exclusive) sum += x;
        }
      }
    }
  };
}

Kernel make_cumulative_sum(const Graph& graph, const Operation& op) {
  const DataType type = graph.desc(op.inputs.at(0)).data_type;
  return visit_type(type, [&]<class T>() -> Kernel {
    // The spec allows float32, float16, int32, uint32, int64 and uint64.
    if constexpr (kIsFloat<T> || sizeof(T) >= 4) {
      return cumulative_sum_kernel<T>(graph, op);
    } else {
      throw_unsupported(op, type);
    }
  });
}

}  // namespace

Kernel make_reduction_kernel(const Graph& graph, const Operation& op) {
  switch (op.kind) {
    case OpKind::kArgMax:
    case OpKind::kArgMin:
      return make_arg(graph, op);
    case OpKind::kCumulativeSum:
      return make_cumulative_sum(graph, op);
    default:
      return make_reduce(graph, op);
  }
}

}  // namespace webnn::reference
