// quantizeLinear and dequantizeLinear. spec: #api-mlgraphbuilder-quantizelinear,
// #api-mlgraphbuilder-dequantizelinear
//
// scale and zeroPoint are blockwise broadcast: along each dimension one of their elements covers
// input.shape[d] / scale.shape[d] consecutive input elements.
//
// quantizeLinear: q = input / scale in the input's type (float32, or float32 rounded to float16:
// the emulation's `div`), then roundEven(q) + zeroPoint saturated to the zeroPoint's type, exactly
// (NaN gives 0, as cast does). dequantizeLinear: (input - zeroPoint) * scale computed in double
// and rounded once to the scale's type.
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

template <class Z>
inline constexpr bool kIsQuantized = std::is_same_v<Z, int8_t> || std::is_same_v<Z, uint8_t> ||
                                     std::is_same_v<Z, int32_t> || std::is_same_v<Z, uint32_t>;

// The walk of the input in blocks: each input dimension d splits into (scale.shape[d],
// input.shape[d] / scale.shape[d]). Splitting a dimension into an outer and an inner part keeps
// the row-major index, so the walk's index is the input's and the strides only locate the scale.
struct BlockWalk {
  Shape shape;                     // 2 * rank dimensions
  std::vector<size_t> strides[1];  // into scale and zeroPoint
};

BlockWalk block_walk(const Shape& input, const Shape& scale) {
  BlockWalk w;
  const std::vector<size_t> scale_strides = strides_of(scale);
  for (size_t d = 0; d < input.size(); ++d) {
    w.shape.push_back(scale[d]);
    w.shape.push_back(input[d] / scale[d]);
    w.strides[0].push_back(scale_strides[d]);
    w.strides[0].push_back(0);
  }
  return w;
}

// Saturates an integral double (or +-inf) to Z; NaN gives 0.
template <class Z>
Z saturate(double v) {
  if (std::isnan(v)) return Z{0};
  constexpr double lo = static_cast<double>(std::numeric_limits<Z>::min());
  constexpr double hi = static_cast<double>(std::numeric_limits<Z>::max());
  return static_cast<Z>(v < lo ? lo : (v > hi ? hi : v));
}

// T: input and scale (float32 or float16); Z: zeroPoint and output.
template <class T, class Z>
Kernel quantize_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), scale_id = op.inputs.at(1), zp_id = op.inputs.at(2);
  const OperandId out_id = op.outputs.at(0);
  const BlockWalk walk = block_walk(graph.desc(in_id).shape, graph.desc(scale_id).shape);
  return [=](Values v) {
    const T* in = typed<T>(v[in_id]);
    const T* scale = typed<T>(v[scale_id]);
    const Z* zero_point = typed<Z>(v[zp_id]);
    Z* out = typed<Z>(v[out_id]);
    for_each_offset(walk.shape, walk.strides, [&](size_t i, const size_t* o) {
      const T quotient = store<T>(load(in[i]) / load(scale[o[0]]));
      const double rounded = std::nearbyint(static_cast<double>(load(quotient)));  // ties to even
      out[i] = saturate<Z>(rounded + static_cast<double>(zero_point[o[0]]));
    });
  };
}

// Z: input and zeroPoint; T: scale and output.
template <class T, class Z>
Kernel dequantize_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), scale_id = op.inputs.at(1), zp_id = op.inputs.at(2);
  const OperandId out_id = op.outputs.at(0);
  const BlockWalk walk = block_walk(graph.desc(in_id).shape, graph.desc(scale_id).shape);
  return [=](Values v) {
    const Z* in = typed<Z>(v[in_id]);
    const T* scale = typed<T>(v[scale_id]);
    const Z* zero_point = typed<Z>(v[zp_id]);
    T* out = typed<T>(v[out_id]);
    for_each_offset(walk.shape, walk.strides, [&](size_t i, const size_t* o) {
      // The difference is exact; so is the product for 8-bit inputs and float16 scales. Only a
      // 32-bit difference beyond 2^29 times a float32 scale is rounded in double before float32.
      const double difference = static_cast<double>(in[i]) - static_cast<double>(zero_point[o[0]]);
      out[i] = ops::cast_number<T>(Number(difference * static_cast<double>(load(scale[o[0]]))));
    });
  };
}

}  // namespace

Kernel make_quantization_kernel(const Graph& graph, const Operation& op) {
  const bool quantize = op.kind == OpKind::kQuantizeLinear;
  // quantizeLinear: float input, integer zeroPoint; dequantizeLinear: integer input, float scale.
  const DataType float_type = graph.desc(op.inputs.at(quantize ? 0 : 1)).data_type;
  const DataType int_type = graph.desc(op.inputs.at(2)).data_type;
  return visit_type(float_type, [&]<class T>() -> Kernel {
    if constexpr (!kIsFloat<T>) {
      throw_unsupported(op, float_type);
    } else {
      return visit_type(int_type, [&]<class Z>() -> Kernel {
        if constexpr (!kIsQuantized<Z>) {
          throw_unsupported(op, int_type);
        } else {
          return quantize ? quantize_kernel<T, Z>(graph, op) : dequantize_kernel<T, Z>(graph, op);
        }
      });
    }
  });
}

}  // namespace webnn::reference
