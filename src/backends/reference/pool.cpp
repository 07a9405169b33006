// averagePool2d, l2Pool2d and maxPool2d. spec: #api-mlgraphbuilder-pool2d
//
// Window element (kh, kw) of output (oh, ow) reads input row oh * strideH + kh * dilationH -
// padTop (and likewise for columns). Elements in the padding, or past the input's end when
// "ceil" rounding or outputSizes lets a window overhang, are not part of the window: max ignores
// them and average divides by the number of elements actually inside the input (padding is
// excluded from the count, as XNNPACK, Core ML and DirectML do for WebNN); l2 is the square root
// of the sum of the squares of those elements (a padding of zeros would add nothing, so the
// choice does not arise for it). A window with no element inside the input (possible only with
// padding wider than the window) yields 0 for average and l2 and the type's lowest value
// (-Infinity for floats) for max. Sums accumulate in double and round once.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"

namespace webnn::reference {

namespace {

struct PoolGeometry {
  int64_t batches, channels, in_h, in_w, out_h, out_w;
  int64_t win_h, win_w, pad_top, pad_left, stride_h, stride_w, dil_h, dil_w;
  // Element strides of the batch, channel, row and column dimensions (input, then output).
  int64_t in_sn, in_sc, in_sh, in_sw, out_sn, out_sc, out_sh, out_sw;
};

PoolGeometry pool_geometry(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<Pool2dAttrs>(op.attrs);
  const Shape& is = graph.desc(op.inputs.at(0)).shape;
  const Shape& os = graph.desc(op.outputs.at(0)).shape;
  const bool nhwc = attrs.layout == InputLayout::kNhwc;
  const ImageDims in = image_dims(is, attrs.layout), out = image_dims(os, attrs.layout);
  PoolGeometry g{};
  g.batches = in.batches;
  g.channels = in.channels;
  g.in_h = in.height, g.in_w = in.width;
  g.out_h = out.height, g.out_w = out.width;
  // Padding is kept when outputSizes is given, although one sentence of the spec's steps zeroes
  // it: src/ops/pool.cpp infers shapes that way, as WPT expects (see the note there).
  const std::vector<uint32_t>& window = *attrs.window_dimensions;
  const std::vector<uint32_t>& padding = *attrs.padding;
  const std::vector<uint32_t>& strides = *attrs.strides;
  const std::vector<uint32_t>& dilations = *attrs.dilations;
  g.win_h = window.at(0), g.win_w = window.at(1);
  g.pad_top = padding.at(0), g.pad_left = padding.at(2);
  g.stride_h = strides.at(0), g.stride_w = strides.at(1);
  g.dil_h = dilations.at(0), g.dil_w = dilations.at(1);
  auto set_strides = [&](int64_t h, int64_t w, int64_t& sn, int64_t& sc, int64_t& sh, int64_t& sw) {
    if (nhwc) {
      sc = 1, sw = g.channels, sh = w * g.channels, sn = h * w * g.channels;
    } else {
      sw = 1, sh = w, sc = h * w, sn = g.channels * h * w;
    }
  };
  set_strides(g.in_h, g.in_w, g.in_sn, g.in_sc, g.in_sh, g.in_sw);
  set_strides(g.out_h, g.out_w, g.out_sn, g.out_sc, g.out_sh, g.out_sw);
  return g;
}

// Calls fn(input offset) for every window element inside the input.
template <class Fn>
void for_each_window_element(const PoolGeometry& g, int64_t base, int64_t oh, int64_t ow, Fn&& fn) {
  for (int64_t kh = 0; kh < g.win_h; ++kh) {
    const int64_t ih = oh * g.stride_h + kh * g.dil_h - g.pad_top;
    if (ih < 0 || ih >= g.in_h) continue;
    for (int64_t kw = 0; kw < g.win_w; ++kw) {
      const int64_t iw = ow * g.stride_w + kw * g.dil_w - g.pad_left;
      if (iw < 0 || iw >= g.in_w) continue;
      fn(base + ih * g.in_sh + iw * g.in_sw);
    }
  }
}

enum class PoolKind { kMax, kAverage, kL2 };

template <class T, PoolKind kKind>
void pool(const T* in, T* out, const PoolGeometry& g) {
  using C = Compute<T>;
  for (int64_t n = 0; n < g.batches; ++n)
    for (int64_t c = 0; c < g.channels; ++c) {
      const int64_t in_base = n * g.in_sn + c * g.in_sc;
      const int64_t out_base = n * g.out_sn + c * g.out_sc;
      for (int64_t oh = 0; oh < g.out_h; ++oh)
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          T& dst = out[out_base + oh * g.out_sh + ow * g.out_sw];
          if constexpr (kKind == PoolKind::kMax) {
            C best = std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity()
                                                          : std::numeric_limits<C>::lowest();
            bool nan = false;
            for_each_window_element(g, in_base, oh, ow, [&](int64_t i) {
              const C x = load(in[i]);
              if constexpr (std::is_floating_point_v<C>) nan = nan || x != x;
              if (best < x) best = x;
            });
            if constexpr (std::is_floating_point_v<C>) {
              if (nan) best = std::numeric_limits<C>::quiet_NaN();
            }
            dst = store<T>(best);
          } else if constexpr (kKind == PoolKind::kAverage) {
            double sum = 0;
            int64_t count = 0;
            for_each_window_element(g, in_base, oh, ow, [&](int64_t i) {
              sum += static_cast<double>(load(in[i]));
              ++count;
            });
            dst = round_from_double<T>(count == 0 ? 0.0 : sum / static_cast<double>(count));
          } else {
            double sum_of_squares = 0;
            for_each_window_element(g, in_base, oh, ow, [&](int64_t i) {
              const auto x = static_cast<double>(load(in[i]));
              sum_of_squares += x * x;
            });
            dst = round_from_double<T>(std::sqrt(sum_of_squares));
          }
        }
    }
}

}  // namespace

Kernel make_pool_kernel(const Graph& graph, const Operation& op) {
  const DataType type = graph.desc(op.inputs.at(0)).data_type;
  const PoolGeometry g = pool_geometry(graph, op);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  return visit_type(type, [&]<class T>() -> Kernel {
    if (op.kind == OpKind::kMaxPool2d) {
      return [=](Values v) { pool<T, PoolKind::kMax>(typed<T>(v[in_id]), typed<T>(v[out_id]), g); };
    }
    if constexpr (kIsFloat<T>) {
      if (op.kind == OpKind::kAveragePool2d)
        return [=](Values v) { pool<T, PoolKind::kAverage>(typed<T>(v[in_id]), typed<T>(v[out_id]), g); };
      if (op.kind == OpKind::kL2Pool2d)
        return [=](Values v) { pool<T, PoolKind::kL2>(typed<T>(v[in_id]), typed<T>(v[out_id]), g); };
    }
    throw_unsupported(op, type);
  });
}

}  // namespace webnn::reference
