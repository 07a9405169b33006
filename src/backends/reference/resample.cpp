// resample2d. spec: #api-mlgraphbuilder-resample2d-method
//
// Along each resampled axis, output coordinate o maps to the input coordinate
//   clamp((o + 0.5) / scale - 0.5, 0, inputSize - 1),  scale = outputSize / inputSize
// (half-pixel centres, the spec's formula; the scale is the ratio of the sizes, also when the
// output size came from `scales`). It is computed exactly in integers, (2o + 1) * in - out over
// 2 * out, so the rounding of the nearest-neighbour mode, ceil(coordinate - 0.5) (halves go to the
// lower index), never depends on floating-point error.
//
// "nearest-neighbor" copies the chosen element bit for bit. "linear" interpolates along the
// second axis (the spec's x) and then the first (y) in double, leaving out a neighbour whose
// weight is 0 (so that a sample falling exactly on an element is that element, also when a
// neighbour is infinite or NaN), and casts the result to the operand type by the spec's casting
// (floats: nearest; int8 and uint8: round half to even; the result lies between the neighbours,
// so it never needs clamping).
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"
#include "ops/number_cast.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::reference {

namespace {

// The input elements one output coordinate samples along one axis: i0 with weight 1 - t and i1
// with weight t (t = 0 and i1 = i0 for the nearest-neighbour mode).
struct AxisSample {
  int64_t i0 = 0, i1 = 0;
  double t = 0;
};

std::vector<AxisSample> axis_samples(int64_t in, int64_t out, InterpolationMode mode) {
  std::vector<AxisSample> samples(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    AxisSample& s = samples[static_cast<size_t>(o)];
    const int64_t den = 2 * out;
    if (mode == InterpolationMode::kNearestNeighbor) {
      // ceil(coordinate - 0.5) = -floor(-((2o + 1) * in - 2 * out) / den); clamping the
      // coordinate first gives the same index as clamping the index after.
      const int64_t index = -ops::floor_div(2 * out - (2 * o + 1) * in, den);
      s.i0 = s.i1 = std::clamp<int64_t>(index, 0, in - 1);
      continue;
    }
    const int64_t num = (2 * o + 1) * in - out;  // coordinate = num / den
    if (num <= 0) continue;                      // clamped to 0
    const int64_t whole = num / den, rest = num % den;
    if (whole >= in - 1) {  // clamped to in - 1
      s.i0 = s.i1 = in - 1;
      continue;
    }
    s.i0 = whole;
    s.i1 = rest == 0 ? whole : whole + 1;
    s.t = static_cast<double>(rest) / static_cast<double>(den);
  }
  return samples;
}

template <class T>
Kernel resample2d_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<Resample2dAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const Shape& is = graph.desc(in_id).shape;
  const Shape& os = graph.desc(out_id).shape;
  const std::vector<uint32_t>& axes = *attrs.axes;
  const size_t y_axis = axes.at(0), x_axis = axes.at(1);
  const std::vector<AxisSample> ys = axis_samples(is.at(y_axis), os.at(y_axis), attrs.mode);
  const std::vector<AxisSample> xs = axis_samples(is.at(x_axis), os.at(x_axis), attrs.mode);

  // Walking the output: offset 0 is the input offset of the dimensions kept as they are; offsets
  // 1 and 2 are the output coordinates along the y and x axes.
  const std::vector<size_t> in_strides = strides_of(is);
  std::vector<size_t> kept(is.size()), y_coord(is.size(), 0), x_coord(is.size(), 0);
  for (size_t d = 0; d < is.size(); ++d) kept[d] = (d == y_axis || d == x_axis) ? 0 : in_strides[d];
  y_coord[y_axis] = 1;
  x_coord[x_axis] = 1;
  const auto y_stride = static_cast<int64_t>(in_strides[y_axis]), x_stride = static_cast<int64_t>(in_strides[x_axis]);
  const bool linear = attrs.mode == InterpolationMode::kLinear;

  return [=](Values v) {
    const T* in = typed<T>(v[in_id]);
    T* out = typed<T>(v[out_id]);
    const std::vector<size_t> strides[3] = {kept, y_coord, x_coord};
    for_each_offset(os, strides, [&](size_t i, const size_t* o) {
      const AxisSample& sy = ys[o[1]];
      const AxisSample& sx = xs[o[2]];
      const T* base = in + o[0];
      if (!linear) {
        out[i] = base[sy.i0 * y_stride + sx.i0 * x_stride];
        return;
      }
      auto row = [&](int64_t y) {
        const T* r = base + y * y_stride;
        const auto v0 = static_cast<double>(load(r[sx.i0 * x_stride]));
        if (sx.t == 0) return v0;
        return v0 * (1 - sx.t) + static_cast<double>(load(r[sx.i1 * x_stride])) * sx.t;
      };
      double value = row(sy.i0);
      if (sy.t != 0) value = value * (1 - sy.t) + row(sy.i1) * sy.t;
      out[i] = ops::cast_number<T>(Number(value));
    });
  };
}

}  // namespace

Kernel make_resample_kernel(const Graph& graph, const Operation& op) {
  const DataType type = graph.desc(op.inputs.at(0)).data_type;
  return visit_type(type, [&]<class T>() -> Kernel {
    if constexpr (kIsFloat<T> || std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
      return resample2d_kernel<T>(graph, op);
    } else {
      throw_unsupported(op, type);
    }
  });
}

}  // namespace webnn::reference
