// Comparison, logical and selection kernels.
// spec: #api-mlgraphbuilder-logical, #api-mlgraphbuilder-where
//
// Outputs of the comparisons and logical ops are uint8 0 or 1. Comparisons run in the compute type
// (float16 widened exactly to float; int64/uint64 compared as themselves, never through double),
// so IEEE rules hold: NaN compares false with everything, except notEqual, which is true; -0 equals
// +0. The logical ops and where treat any nonzero uint8 as true. isNaN and isInfinite give 0 for
// integer inputs. Broadcasting follows numpy (spec: #algorithms-broadcasting).
#include <cmath>
#include <type_traits>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"

namespace webnn::reference {

namespace {

template <OpKind K, class C>
bool compare(C a, C b) {
  if constexpr (K == OpKind::kEqual) return a == b;
  if constexpr (K == OpKind::kNotEqual) return a != b;
  if constexpr (K == OpKind::kGreater) return a > b;
  if constexpr (K == OpKind::kGreaterOrEqual) return a >= b;
  if constexpr (K == OpKind::kLesser) return a < b;
  if constexpr (K == OpKind::kLesserOrEqual) return a <= b;
  if constexpr (K == OpKind::kLogicalAnd) return a != 0 && b != 0;
  if constexpr (K == OpKind::kLogicalOr) return a != 0 || b != 0;
  if constexpr (K == OpKind::kLogicalXor) return (a != 0) != (b != 0);
  return false;
}

// out[i] = f(a, b) over the broadcast output shape, 0 or 1.
template <class T, OpKind K>
Kernel binary_predicate_kernel(const Graph& graph, const Operation& op) {
  const OperandId a_id = op.inputs.at(0), b_id = op.inputs.at(1), out_id = op.outputs.at(0);
  const Shape out_shape = graph.desc(out_id).shape;
  const std::vector<size_t> sa = broadcast_strides(graph.desc(a_id).shape, out_shape);
  const std::vector<size_t> sb = broadcast_strides(graph.desc(b_id).shape, out_shape);
  return [=](Values v) {
    const T* a = typed<T>(v[a_id]);
    const T* b = typed<T>(v[b_id]);
    uint8_t* out = typed<uint8_t>(v[out_id]);
    const std::vector<size_t> strides[2] = {sa, sb};
    for_each_offset(out_shape, strides,
                    [&](size_t i, const size_t* o) { out[i] = compare<K>(load(a[o[0]]), load(b[o[1]])) ? 1 : 0; });
  };
}

template <class T>
Kernel binary_predicate(const Graph& graph, const Operation& op) {
  switch (op.kind) {
    case OpKind::kEqual:
      return binary_predicate_kernel<T, OpKind::kEqual>(graph, op);
    case OpKind::kNotEqual:
      return binary_predicate_kernel<T, OpKind::kNotEqual>(graph, op);
    case OpKind::kGreater:
      return binary_predicate_kernel<T, OpKind::kGreater>(graph, op);
    case OpKind::kGreaterOrEqual:
      return binary_predicate_kernel<T, OpKind::kGreaterOrEqual>(graph, op);
    case OpKind::kLesser:
      return binary_predicate_kernel<T, OpKind::kLesser>(graph, op);
    case OpKind::kLesserOrEqual:
      return binary_predicate_kernel<T, OpKind::kLesserOrEqual>(graph, op);
    default:
      break;
  }
  if constexpr (std::is_same_v<T, uint8_t>) {
    switch (op.kind) {
      case OpKind::kLogicalAnd:
        return binary_predicate_kernel<T, OpKind::kLogicalAnd>(graph, op);
      case OpKind::kLogicalOr:
        return binary_predicate_kernel<T, OpKind::kLogicalOr>(graph, op);
      case OpKind::kLogicalXor:
        return binary_predicate_kernel<T, OpKind::kLogicalXor>(graph, op);
      default:
        break;
    }
  }
  throw_unsupported(op, graph.desc(op.inputs.at(0)).data_type);
}

template <class T, class F>
Kernel unary_predicate_kernel(const Graph& graph, const Operation& op, F f) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const size_t n = element_count(graph.desc(out_id));
  return [=](Values v) {
    const T* in = typed<T>(v[in_id]);
    uint8_t* out = typed<uint8_t>(v[out_id]);
    for (size_t i = 0; i < n; ++i) out[i] = f(load(in[i])) ? 1 : 0;
  };
}

template <class T>
Kernel unary_predicate(const Graph& graph, const Operation& op) {
  using C = Compute<T>;
  switch (op.kind) {
    case OpKind::kIsNaN:
      return unary_predicate_kernel<T>(graph, op, [](C x) {
        if constexpr (std::is_floating_point_v<C>) {
          return std::isnan(x);
        } else {
          return false;
        }
      });
    case OpKind::kIsInfinite:
      return unary_predicate_kernel<T>(graph, op, [](C x) {
        if constexpr (std::is_floating_point_v<C>) {
          return std::isinf(x);
        } else {
          return false;
        }
      });
    case OpKind::kLogicalNot:
      if constexpr (std::is_same_v<T, uint8_t>) return unary_predicate_kernel<T>(graph, op, [](C x) { return x == 0; });
      break;
    default:
      break;
  }
  throw_unsupported(op, graph.desc(op.inputs.at(0)).data_type);
}

// Selection copies the chosen value's storage unchanged (NaN payloads, -0 and float16 bits kept).
template <class T>
Kernel where_kernel(const Graph& graph, const Operation& op) {
  const OperandId c_id = op.inputs.at(0), t_id = op.inputs.at(1), f_id = op.inputs.at(2), out_id = op.outputs.at(0);
  const Shape out_shape = graph.desc(out_id).shape;
  const std::vector<size_t> sc = broadcast_strides(graph.desc(c_id).shape, out_shape);
  const std::vector<size_t> st = broadcast_strides(graph.desc(t_id).shape, out_shape);
  const std::vector<size_t> sf = broadcast_strides(graph.desc(f_id).shape, out_shape);
  return [=](Values v) {
    const uint8_t* condition = typed<uint8_t>(v[c_id]);
    const T* true_value = typed<T>(v[t_id]);
    const T* false_value = typed<T>(v[f_id]);
    T* out = typed<T>(v[out_id]);
    const std::vector<size_t> strides[3] = {sc, st, sf};
    for_each_offset(out_shape, strides, [&](size_t i, const size_t* o) {
      out[i] = condition[o[0]] != 0 ? true_value[o[1]] : false_value[o[2]];
    });
  };
}

}  // namespace

Kernel make_logical_kernel(const Graph& graph, const Operation& op) {
  if (op.kind == OpKind::kWhere) {
    const DataType condition_type = graph.desc(op.inputs.at(0)).data_type;
    if (condition_type != DataType::kUint8) throw_unsupported(op, condition_type);
    return visit_type(graph.desc(op.inputs.at(1)).data_type, [&]<class T>() { return where_kernel<T>(graph, op); });
  }
  return visit_type(graph.desc(op.inputs.at(0)).data_type, [&]<class T>() -> Kernel {
    if (op.inputs.size() == 2) return binary_predicate<T>(graph, op);
    return unary_predicate<T>(graph, op);
  });
}

}  // namespace webnn::reference
