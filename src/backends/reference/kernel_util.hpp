// Helpers shared by the reference kernels: the arithmetic type of each storage type, shapes and
// strides, numpy broadcasting and an N-D index walker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "core/dispatch.hpp"
#include "core/float16.hpp"
#include "graph/graph.hpp"
#include "ops/number_cast.hpp"
#include "webnn/types.hpp"

namespace webnn::reference {

// float16 is computed in float32 and rounded once when stored; every other type computes in
// itself.
template <class T>
struct ComputeOf {
  using type = T;
};
template <>
struct ComputeOf<Float16> {
  using type = float;
};
template <class T>
using Compute = typename ComputeOf<T>::type;

template <class T>
inline Compute<T> load(T v) {
  if constexpr (std::is_same_v<T, Float16>) {
    return static_cast<float>(v);
  } else {
    return v;
  }
}
template <class T>
inline T store(Compute<T> v) {
  if constexpr (std::is_same_v<T, Float16>) {
    return Float16(v);
  } else {
    return v;
  }
}

// A result computed in double rounded once to the float storage type T (float16 straight from
// the double, never through float32, which could round twice).
template <class T>
inline T round_from_double(double v) {
  if constexpr (std::is_same_v<T, Float16>) {
    return ops::cast_to_float16(Number(v));
  } else {
    return static_cast<T>(v);
  }
}

template <class T>
inline constexpr bool kIsFloat = std::is_same_v<T, float> || std::is_same_v<T, Float16>;

template <class T>
inline T* typed(std::byte* p) {
  return reinterpret_cast<T*>(p);
}
template <class T>
inline const T* typed(const std::byte* p) {
  return reinterpret_cast<const T*>(p);
}

// Calls fn.template operator()<U>() with U the unsigned integer of `element_bytes` bytes (1, 2, 4
// or 8): data movement copies elements by their bits, so NaN payloads, -0 and float16 survive.
template <class Fn>
decltype(auto) visit_bits(size_t element_bytes, Fn&& fn) {
  switch (element_bytes) {
    case 1:
      return fn.template operator()<uint8_t>();
    case 2:
      return fn.template operator()<uint16_t>();
    case 4:
      return fn.template operator()<uint32_t>();
    default:
      return fn.template operator()<uint64_t>();
  }
}

inline size_t element_count(const Shape& shape) {
  size_t n = 1;
  for (uint32_t d : shape) n *= d;
  return n;
}
inline size_t element_count(const OperandDescriptor& desc) { return element_count(desc.shape); }

// Row-major strides in elements.
inline std::vector<size_t> strides_of(const Shape& shape) {
  std::vector<size_t> s(shape.size());
  size_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

// Strides (in elements) for reading a tensor of `shape` at the coordinates of `out_shape` under
// numpy broadcasting: the shapes are aligned at the right, and broadcast dimensions (size 1, or
// missing) get stride 0. spec: #algorithms-broadcasting
inline std::vector<size_t> broadcast_strides(const Shape& shape, const Shape& out_shape) {
  std::vector<size_t> out(out_shape.size(), 0);
  const std::vector<size_t> s = strides_of(shape);
  const size_t offset = out_shape.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) out[offset + i] = shape[i] == 1 ? 0 : s[i];
  return out;
}

// Calls fn(out_index, offsets) for every element of `shape` in row-major order, where
// offsets[k] = sum_d coord[d] * strides[k][d]. `K` strided operands are walked together; the last
// dimension is the inner loop. A rank-0 shape has one element.
template <size_t K, class Fn>
void for_each_offset(const Shape& shape, const std::vector<size_t> (&strides)[K], Fn&& fn) {
  const size_t rank = shape.size();
  const size_t total = element_count(shape);
  if (total == 0) return;
  size_t offsets[K] = {};
  if (rank == 0) {
    fn(size_t{0}, static_cast<const size_t*>(offsets));
    return;
  }
  const size_t inner = shape[rank - 1];
  size_t inner_stride[K];
  for (size_t k = 0; k < K; ++k) inner_stride[k] = strides[k][rank - 1];
  std::vector<uint32_t> coord(rank, 0);
  size_t index = 0;
  while (index < total) {
    size_t o[K];
    for (size_t k = 0; k < K; ++k) o[k] = offsets[k];
    for (size_t i = 0; i < inner; ++i) {
      fn(index + i, static_cast<const size_t*>(o));
      for (size_t k = 0; k < K; ++k) o[k] += inner_stride[k];
    }
    index += inner;
    // Advance the outer coordinates (odometer), updating the offsets incrementally.
    for (size_t d = rank - 1; d-- > 0;) {
      if (++coord[d] < shape[d]) {
        for (size_t k = 0; k < K; ++k) offsets[k] += strides[k][d];
        break;
      }
      for (size_t k = 0; k < K; ++k) offsets[k] -= strides[k][d] * (shape[d] - 1);
      coord[d] = 0;
    }
  }
}

// A copy of a constant operand's elements (the bytes of a weights file need not be aligned for T).
template <class T>
std::vector<T> read_constant(const Graph& graph, OperandId id) {
  const BufferRef& buffer = graph.constant_data(id);
  std::vector<T> out(buffer.size / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), buffer.data.get(), out.size() * sizeof(T));
  return out;
}

[[noreturn]] inline void throw_unsupported(const Operation& op, DataType type) {
  throw_error(ErrorKind::kNotSupportedError,
              describe(op) + ": the reference backend has no kernel for data type " + std::string(to_string(type)));
}

// Makes the kernel of a float-only op (the spec allows float32 and float16 for it) by calling
// make.template operator()<T>() with T = float or Float16, on the type of the op's first input.
template <class Make>
auto make_float_kernel(const Graph& graph, const Operation& op, Make&& make) {
  const DataType type = graph.desc(op.inputs.at(0)).data_type;
  switch (type) {
    case DataType::kFloat32:
      return make.template operator()<float>();
    case DataType::kFloat16:
      return make.template operator()<Float16>();
    default:
      throw_unsupported(op, type);
  }
}

}  // namespace webnn::reference
