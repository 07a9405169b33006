// ONNX import: Resize and Upsample onto WebNN's resample2d where it computes the same, and as
// separable passes of import-time taps otherwise; GridSample and RoiAlign, which sample at
// arbitrary points, as gathers of their taps (docs/onnx.md, "Compositions where WebNN has no
// single op").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

// How a Resize maps output positions to input ones (ONNX's attributes).
struct ResizeSpec {
  std::string mode;     // nearest, linear, cubic
  std::string coord;    // coordinate_transformation_mode
  std::string nearest;  // nearest_mode
  double cubic_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;  // linear and cubic downscales stretch their kernel by 1 / scale
  double extrapolation = 0;
  std::vector<double> roi;  // tf_crop_and_resize: starts then ends, one per axis
};

// One axis of a separable resampling, computed at import: output position o is the sum over taps
// t of weight[t][o] · x[index[t][o]], or the extrapolation value where `inside` is 0
// (tf_crop_and_resize).
struct AxisTaps {
  std::vector<std::vector<int32_t>> index;
  std::vector<std::vector<double>> weight;
  std::vector<uint8_t> inside;  // empty: everywhere
  bool identity = true;
};

// The most taps an antialiased axis may take (2 · ceil(1 / scale) for linear, 2 · ceil(2 / scale)
// for cubic): a downscale of up to 32x linear, 16x cubic. Each tap is a gather of the output.
constexpr int64_t kMaxAntialiasTaps = 64;

// The taps of one output position along an axis: the first one's offset from the position below
// the coordinate (ceil(x) - 1), how many there are, and whether the kernel is stretched (an
// antialiased linear or cubic downscale).
struct TapWindow {
  int64_t start = 0;
  size_t count = 1;
  bool stretched = false;
};

TapWindow tap_window(const NodeCtx& c, const ResizeSpec& r, double scale) {
  if (r.mode == "nearest") return {0, 1};
  const double support = r.mode == "cubic" ? 2 : 1;
  if (!r.antialias || scale >= 1) return {int64_t(1 - support), size_t(2 * support)};
  const double stretched = std::floor(-support / scale);
  if (!(-stretched <= double(kMaxAntialiasTaps / 2)))
    c.unsupported("an antialiased " + r.mode + " downscale by " + std::to_string(scale) +
                  " (the importer takes up to " + std::to_string(kMaxAntialiasTaps) + " taps per output position)");
  const int64_t start = int64_t(stretched) + 1;
  return {start, size_t(2 - 2 * start), true};
}

// The interpolation kernel at distance u (in input positions, already scaled by the antialias
// stretch): the triangle of linear, or the cubic convolution kernel with coefficient A.
double resize_kernel(const ResizeSpec& r, double u) {
  u = std::abs(u);
  if (r.mode == "linear") return std::max(0.0, 1 - u);
  const double A = r.cubic_a;
  if (u <= 1) return ((A + 2) * u - (A + 3)) * u * u + 1;
  if (u < 2) return ((A * u - 5 * A) * u + 8 * A) * u - 4 * A;
  return 0;
}

// ONNX's definition of Resize along one axis of `in` positions resized to `out` with `scale`
// (`length` = scale · in, which is fractional for a scale that gives no whole size, and which
// align_corners, pytorch_half_pixel and tf_crop_and_resize use where they say length_resized):
// the output position's coordinate in the input, then the nearest index (by nearest_mode), the two
// linear taps or the four cubic ones (coefficient A), each index clamped to the input (edge
// padding) or, with exclude_outside, dropped and the weights renormalized. An antialiased
// downscale (scale < 1) evaluates the kernel at scale · (i - x) over the widened window of
// `window` (tap_window) and divides the weights by their sum, as ONNX's reference does.
AxisTaps axis_taps(const NodeCtx& c, const ResizeSpec& r, const TapWindow& window, size_t axis, size_t rank,
                   uint32_t in, uint32_t out, double scale, double length) {
  const size_t taps = window.count;
  AxisTaps a;
  a.index.assign(taps, std::vector<int32_t>(out));
  a.weight.assign(taps, std::vector<double>(out));
  const bool crop = r.coord == "tf_crop_and_resize";
  if (crop) a.inside.assign(out, 1);
  for (uint32_t o = 0; o < out; ++o) {
    double x = 0;
    const double oh = o + 0.5;
    if (r.coord == "half_pixel") {
      x = oh / scale - 0.5;
    } else if (r.coord == "pytorch_half_pixel") {
      x = length > 1 ? oh / scale - 0.5 : 0;
    } else if (r.coord == "align_corners") {
      x = length == 1 ? 0 : double(o) * (in - 1) / (length - 1);
    } else if (r.coord == "asymmetric") {
      x = o / scale;
    } else if (r.coord == "tf_half_pixel_for_nn") {
      x = oh / scale;
    } else if (r.coord == "half_pixel_symmetric") {
      const double adjustment = out / length, center = in / 2.0;
      x = center * (1 - adjustment) + oh / scale - 0.5;
    } else if (crop) {
      const double start = r.roi[axis], end = r.roi[rank + axis];
      x = length > 1 ? start * (in - 1) + o * (end - start) * (in - 1) / (length - 1) : 0.5 * (start + end) * (in - 1);
      if (x < 0 || x > double(in) - 1) a.inside[o] = 0;
    } else {
      c.unsupported("coordinate_transformation_mode \"" + r.coord + "\"");
    }
    const double base = std::floor(x), t = x - base;
    const int64_t i0 = int64_t(base);
    std::vector<std::pair<int64_t, double>> picked;
    if (window.stretched) {
      const double below = std::ceil(x) - 1;  // the coordinate is in (below, below + 1]
      double sum = 0;
      for (size_t k = 0; k < taps; ++k) {
        const int64_t i = int64_t(below) + window.start + int64_t(k);
        const double w = resize_kernel(r, scale * (double(i) - x));
        picked.push_back({i, w});
        sum += w;
      }
      for (auto& p : picked) p.second /= sum;
    } else if (r.mode == "nearest") {
      bool up = false;
      if (t > 0) {
        if (r.nearest == "round_prefer_floor")
          up = t > 0.5;
        else if (r.nearest == "round_prefer_ceil")
          up = t >= 0.5;
        else if (r.nearest == "floor")
          up = false;
        else if (r.nearest == "ceil")
          up = true;
        else
          c.invalid("unknown nearest_mode \"" + r.nearest + "\"");
      }
      picked = {{i0 + (up ? 1 : 0), 1.0}};
    } else if (r.mode == "cubic") {
      const double A = r.cubic_a, u = 1 - t;
      picked = {{i0 - 1, ((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A},
                {i0, ((A + 2) * t - (A + 3)) * t * t + 1},
                {i0 + 1, ((A + 2) * u - (A + 3)) * u * u + 1},
                {i0 + 2, ((A * (u + 1) - 5 * A) * (u + 1) + 8 * A) * (u + 1) - 4 * A}};
    } else {
      picked = {{i0, 1 - t}, {i0 + 1, t}};
    }
    if (r.exclude_outside) {
      double sum = 0;
      for (auto& [i, w] : picked) {
        if (i < 0 || i >= int64_t(in)) w = 0;
        sum += w;
      }
      if (sum != 0)
        for (auto& p : picked) p.second /= sum;
    }
    for (size_t k = 0; k < taps; ++k) {
      const int32_t i = int32_t(std::clamp<int64_t>(picked[k].first, 0, int64_t(in) - 1));
      a.index[k][o] = i;
      a.weight[k][o] = picked[k].second;
      if (picked[k].second != 0 && (i != int32_t(o) || picked[k].second != 1)) a.identity = false;
    }
    if (crop && !a.inside[o]) a.identity = false;
  }
  if (in != out) a.identity = false;
  return a;
}

// The longest axis Resize computes taps for at import (each tap is an index and a weight per
// position, as host vectors and graph constants).
constexpr uint32_t kMaxResizeTaps = uint32_t{1} << 22;

// Resize as separable passes with taps computed at import (axis_taps): per resized axis, one
// `gather` of the output positions' indices per tap, multiplied by the taps' weights and added.
// Every mode, coordinate transformation, nearest_mode, exclude_outside and tf_crop_and_resize
// (extrapolation by `where`), for any axes, with ONNX's own scale in the coordinates (so scales
// that give no whole output size too).
void resample_by_taps(const NodeCtx& c, const ResizeSpec& r, const std::vector<uint32_t>& out,
                      const std::vector<double>& scale, const std::vector<double>& length) {
  OperandId x = c.operand(0);
  const DataType type = c.type(0);
  const bool floats = type == DataType::kFloat32 || type == DataType::kFloat16;
  if (!floats && r.mode != "nearest") c.unsupported(r.mode + " resize of an integer tensor");
  const Shape in = c.desc(0).shape;
  const size_t rank = in.size();
  for (size_t axis = 0; axis < rank; ++axis) {
    if (out[axis] > kMaxResizeTaps)
      c.unsupported("a resized axis of " + std::to_string(out[axis]) +
                    " positions (the importer computes taps for up to " + std::to_string(kMaxResizeTaps) + ")");
    // The taps' host vectors (an index and a weight per tap and position) before they are made.
    Shape along_out(rank, 1);
    along_out[axis] = out[axis];
    const TapWindow window = tap_window(c, r, scale[axis]);
    c.reserve({DataType::kFloat32, along_out}, "the resize taps", 16 * uint64_t(window.count) * out[axis]);
    const AxisTaps a = axis_taps(c, r, window, axis, rank, in[axis], out[axis], scale[axis], length[axis]);
    if (a.identity) continue;
    Shape along(rank, 1);
    along[axis] = out[axis];
    std::optional<OperandId> y;
    for (size_t k = 0; k < a.index.size(); ++k) {
      // A tap whose weights are all 0 is left out (but one stays, for an all-zero output).
      bool used = k + 1 == a.index.size() && !y;
      for (double w : a.weight[k]) used |= w != 0;
      if (!used) continue;
      const OperandId index = c.constant({DataType::kInt32, {out[axis]}},
                                         bytes_of_int64s(DataType::kInt32, {a.index[k].begin(), a.index[k].end()}));
      OperandId term = c.add(OpKind::kGather, {x, index}, GatherAttrs{uint32_t(axis)});
      if (r.mode != "nearest")
        term = c.add(OpKind::kMul, {term, c.constant({type, along}, bytes_of_doubles(type, a.weight[k]))});
      y = y ? c.add(OpKind::kAdd, {*y, term}) : term;
    }
    if (!a.inside.empty()) {
      const OperandId inside =
          c.constant({DataType::kUint8, along}, bytes_of_int64s(DataType::kUint8, {a.inside.begin(), a.inside.end()}));
      y = c.add(OpKind::kWhere, {inside, *y, c.scalar(type, r.extrapolation)});
    }
    x = *y;
  }
  c.set_out(0, x == c.operand(0) ? c.add(OpKind::kIdentity, {x}) : x);
}

// A Resize's output along each axis: its size, the scale its coordinates use and the resized
// length (scale · input size, fractional when the scale gives no whole size).
struct ResizeGeometry {
  std::vector<uint32_t> out;
  std::vector<double> scale, length;
  bool whole = true;  // every output size is exactly scale · input size
};

// From scales (output floor(in · scale)) or sizes (scale size / in), one per axis of the input.
// With a keep_aspect_ratio_policy other than stretch, the sizes of `axes` give one scale (their
// smallest ratio for not_larger, their largest for not_smaller) and those axes' outputs are
// in · scale rounded half up, as ONNX's reference computes them.
ResizeGeometry resize_geometry(const NodeCtx& c, const std::vector<double>& scales, const std::vector<int64_t>& sizes,
                               const std::string& policy = "stretch", const std::vector<uint32_t>& axes = {}) {
  const Shape& s = c.desc(0).shape;
  const size_t rank = s.size();
  ResizeGeometry g;
  g.out.assign(s.begin(), s.end());
  g.scale.assign(rank, 1.0);
  g.length.assign(s.begin(), s.end());
  std::optional<double> kept;
  if (!sizes.empty() && policy != "stretch") {
    for (uint32_t axis : axes) {
      const double ratio = double(sizes[axis]) / s[axis];
      kept = !kept ? ratio : policy == "not_larger" ? std::min(*kept, ratio) : std::max(*kept, ratio);
    }
  }
  for (size_t i = 0; i < rank; ++i) {
    if (kept) {
      if (std::find(axes.begin(), axes.end(), uint32_t(i)) == axes.end()) continue;
      const double size = std::floor(s[i] * *kept + 0.5);
      if (!(size >= 1 && size <= double(UINT32_MAX))) c.invalid("a kept-aspect size out of range");
      g.out[i] = uint32_t(size);
      g.scale[i] = *kept;
      g.length[i] = s[i] * *kept;
      g.whole &= double(g.out[i]) == g.length[i];
    } else if (!sizes.empty()) {
      if (sizes[i] < 1 || sizes[i] > int64_t(UINT32_MAX)) c.invalid("a size out of range: " + std::to_string(sizes[i]));
      g.out[i] = uint32_t(sizes[i]);
      g.scale[i] = double(sizes[i]) / s[i];
      g.length[i] = double(sizes[i]);
    } else {
      g.scale[i] = scales[i];
      const double size = std::floor(s[i] * scales[i]);
      if (!(size >= 1 && size <= double(UINT32_MAX))) c.invalid("a scale out of range: " + std::to_string(scales[i]));
      g.out[i] = uint32_t(size);
      g.length[i] = s[i] * scales[i];
      // WebNN's coordinates use outputSize / inputSize; ONNX uses the scale: they agree when the
      // output size is exact.
      g.whole &= double(g.out[i]) == g.length[i];
    }
  }
  return g;
}

// Resize/Upsample: WebNN's resample2d where it computes the same (a 4-D input, two consecutive axes, whole
// output sizes, nearest with half_pixel coordinates rounding halves down or asymmetric/floor for
// whole upscales, linear with half_pixel, no antialiased downscale), and separable passes with
// import-time taps otherwise (resample_by_taps).
void resample(const NodeCtx& c, const ResizeSpec& r, const ResizeGeometry& g) {
  const Shape& s = c.desc(0).shape;
  size_t rank = s.size();
  const std::vector<uint32_t>& out = g.out;
  std::vector<uint32_t> axes;
  bool downscaled = false;
  for (size_t i = 0; i < rank; ++i) {
    if (out[i] != s[i]) axes.push_back(uint32_t(i));
    downscaled |= g.scale[i] < 1;
  }
  // A valid output before anything is computed for it (the taps below are host vectors and
  // constants of the output's lengths).
  c.im.builder().check_descriptor({c.type(0), Shape(out.begin(), out.end())}, c.where() + ": the output");
  if (axes.empty() && r.coord != "tf_crop_and_resize") return c.set_out(0, c.add(OpKind::kIdentity, {c.operand(0)}));
  if (axes.size() == 1 && rank >= 2)
    axes =
        axes[0] + 1 < rank ? std::vector<uint32_t>{axes[0], axes[0] + 1} : std::vector<uint32_t>{axes[0] - 1, axes[0]};
  bool direct = rank == 4 && g.whole && !r.exclude_outside && !(r.antialias && downscaled) && axes.size() == 2 &&
                axes[1] == axes[0] + 1;
  Resample2dAttrs a;
  if (direct) {
    a.axes = axes;
    a.sizes = std::vector<uint32_t>{out[axes[0]], out[axes[1]]};
    bool integral_up = true;
    for (uint32_t ax : axes) integral_up &= out[ax] % s[ax] == 0;
    if (r.mode == "nearest") {
      a.mode = InterpolationMode::kNearestNeighbor;
      const bool half_pixel =
          (r.coord == "half_pixel" || r.coord == "pytorch_half_pixel") && r.nearest == "round_prefer_floor";
      const bool asym_floor = r.coord == "asymmetric" && r.nearest == "floor" && integral_up;
      direct = half_pixel || asym_floor;
    } else if (r.mode == "linear") {
      a.mode = InterpolationMode::kLinear;
      direct = r.coord == "half_pixel" || (r.coord == "pytorch_half_pixel" && out[axes[0]] > 1 && out[axes[1]] > 1);
    } else {
      direct = false;
    }
  }
  if (!direct) return resample_by_taps(c, r, out, g.scale, g.length);
  c.set_out(0, c.add(OpKind::kResample2d, {c.operand(0)}, a));
}

void lower_resize(const NodeCtx& c) {
  ResizeSpec r;
  r.mode = c.attr_s("mode", "nearest");
  if (r.mode != "nearest" && r.mode != "linear" && r.mode != "cubic") c.invalid("unknown mode \"" + r.mode + "\"");
  r.coord = c.opset >= 11 ? c.attr_s("coordinate_transformation_mode", "half_pixel") : "asymmetric";
  r.nearest = c.opset >= 11 ? c.attr_s("nearest_mode", "round_prefer_floor") : "floor";
  r.cubic_a = c.attr_f("cubic_coeff_a", -0.75f);
  r.exclude_outside = c.attr_i("exclude_outside", 0) != 0;
  r.extrapolation = c.attr_f("extrapolation_value", 0.f);
  const int64_t antialias = c.attr_i("antialias", 0);
  if (antialias != 0 && antialias != 1) c.invalid("antialias must be 0 or 1");
  // ONNX: antialiasing is for the linear and cubic modes (its reference and ONNX Runtime refuse
  // it for nearest).
  if (antialias == 1 && r.mode == "nearest") c.invalid("antialias applies to the linear and cubic modes, not nearest");
  r.antialias = antialias == 1;
  const std::string policy = c.attr_s("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    c.invalid("unknown keep_aspect_ratio_policy \"" + policy + "\"");
  // The axes scales, sizes and roi give values for (opset 18): all of them when absent.
  const size_t rank = c.rank(0);
  std::vector<uint32_t> axes;
  if (c.has_attr("axes")) {
    for (int64_t a : c.attr_ints("axes")) {
      const uint32_t axis = c.axis(a, rank, "axes");
      if (std::find(axes.begin(), axes.end(), axis) != axes.end()) c.invalid("axes names an axis twice");
      axes.push_back(axis);
    }
  } else {
    for (size_t i = 0; i < rank; ++i) axes.push_back(uint32_t(i));
  }
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  if (c.opset < 11) {
    scales = c.const_doubles(1, "scales");
  } else {
    if (c.has_input(2)) scales = c.const_doubles(2, "scales");
    if (c.has_input(3)) sizes = c.const_ints(3, "sizes");
    if (!sizes.empty()) scales.clear();
  }
  if (!sizes.empty() ? sizes.size() != axes.size() : scales.size() != axes.size())
    c.invalid("scales or sizes must have one value per axis" + std::string(c.has_attr("axes") ? " of axes" : ""));
  // One value per axis of the input: the others keep their size (scale 1, roi [0, 1]).
  const Shape& in = c.desc(0).shape;
  std::vector<double> all_scales;
  std::vector<int64_t> all_sizes;
  if (sizes.empty()) all_scales.assign(rank, 1.0);
  if (!sizes.empty()) all_sizes.assign(in.begin(), in.end());
  for (size_t i = 0; i < axes.size(); ++i) {
    if (sizes.empty())
      all_scales[axes[i]] = scales[i];
    else
      all_sizes[axes[i]] = sizes[i];
  }
  if (r.coord == "tf_crop_and_resize") {
    const std::vector<double> roi = c.const_doubles(1, "roi");
    if (roi.size() != 2 * axes.size()) c.invalid("roi must have two values per axis");
    r.roi.assign(rank, 0.0);
    r.roi.resize(2 * rank, 1.0);
    for (size_t i = 0; i < axes.size(); ++i) {
      r.roi[axes[i]] = roi[i];
      r.roi[rank + axes[i]] = roi[axes.size() + i];
    }
  }
  resample(c, r, resize_geometry(c, all_scales, all_sizes, policy, axes));
}

void lower_upsample(const NodeCtx& c) {
  std::string mode = c.attr_s("mode", "nearest");
  std::vector<double> scales;
  if (c.opset < 9) {
    for (float f : c.attr_floats("scales")) scales.push_back(f);
  } else {
    scales = c.const_doubles(1, "scales");
  }
  if (scales.size() != c.rank(0)) c.invalid("scales must have one value per axis");
  ResizeSpec r;
  r.mode = mode == "bilinear" ? "linear" : mode;
  if (r.mode != "nearest" && r.mode != "linear") c.invalid("unknown mode \"" + mode + "\"");
  r.coord = "asymmetric";
  r.nearest = "floor";
  resample(c, r, resize_geometry(c, scales, {}));
}

// ---- GridSample ----

// The ONNX reference's reflection of coordinates v (float32) into [lo, hi], folded as often as it
// takes: a triangle wave of period 2 (hi - lo).
OperandId reflect_into(const NodeCtx& c, OperandId v, double lo, double hi) {
  auto f = [&](double d) { return c.scalar(DataType::kFloat32, d); };
  const double span = hi - lo;
  OperandId t = c.add(OpKind::kSub, {v, f(lo)});
  OperandId periods = c.add(OpKind::kFloor, {c.add(OpKind::kDiv, {t, f(2 * span)})});
  t = c.add(OpKind::kSub, {t, c.add(OpKind::kMul, {periods, f(2 * span)})});
  OperandId folded =
      c.add(OpKind::kWhere, {c.add(OpKind::kGreater, {t, f(span)}), c.add(OpKind::kSub, {f(2 * span), t}), t});
  return c.add(OpKind::kAdd, {folded, f(lo)});
}

OperandId outside(const NodeCtx& c, OperandId v, double lo, double hi) {
  return c.add(OpKind::kLogicalOr, {c.add(OpKind::kLesser, {v, c.scalar(DataType::kFloat32, lo)}),
                                    c.add(OpKind::kGreater, {v, c.scalar(DataType::kFloat32, hi)})});
}

// GridSample (opset 16 and its 4-D form in later opsets) of x [N, C, H, W] at grid [N, Ho, Wo, 2]
// as the ONNX reference computes it: coordinates unnormalized in float32 (rounded half to even for
// nearest), moved into the border ([-0.5, size - 0.5], or [0, size - 1] with align_corners) by
// padding_mode, then taps at whole positions (1, 2x2 or 4x4) read by gatherElements from the
// flattened [N, C, H*W] input, each tap's index clamped (border), reflected (reflection) or
// masked to 0 (zeros), weighted and summed.
void lower_grid_sample(const NodeCtx& c) {
  std::string mode = c.attr_s("mode", c.opset >= 20 ? "linear" : "bilinear");
  const std::string padding = c.attr_s("padding_mode", "zeros");
  const bool align = c.attr_i("align_corners", 0) != 0;
  if (mode == "linear") mode = "bilinear";
  if (mode == "cubic") mode = "bicubic";
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic") c.invalid("unknown mode \"" + mode + "\"");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    c.invalid("unknown padding_mode \"" + padding + "\"");
  if (c.rank(0) != 4)
    c.unsupported("GridSample of a rank-" + std::to_string(c.rank(0)) + " input (the importer lowers 4-D inputs)");
  const Shape xs = c.desc(0).shape, gs = c.desc(1).shape;
  if (gs.size() != 4 || gs[0] != xs[0] || gs[3] != 2)
    c.invalid("the grid must be [N, H_out, W_out, 2] for an input [N, C, H, W]");
  const DataType ft = c.type(0);
  if (ft != DataType::kFloat32 && ft != DataType::kFloat16)
    c.unsupported("GridSample of a " + onnx_type_name(onnx_type(ft)) + " input (the importer samples float inputs)");
  const uint32_t n = xs[0], channels = xs[1], h = xs[2], w = xs[3], points = gs[1] * gs[2];
  if (uint64_t(h) * w > (uint64_t(1) << 24)) c.unsupported("an input of more than 2^24 pixels per channel");
  auto f = [&](double d) { return c.scalar(DataType::kFloat32, d); };
  OperandId grid = c.cast(c.reshape(c.operand(1), {n, points, 2}), DataType::kFloat32);

  // Per axis (x, then y): the taps, each a whole position [N, P] and its weight (none for nearest).
  struct Tap {
    OperandId index;  // int32, in range
    std::optional<OperandId> weight;
    std::optional<OperandId> valid;  // zeros padding
  };
  auto taps_of = [&](uint32_t component, uint32_t size) {
    OperandId v = c.reshape(slice_axis(c, grid, 2, component, 1), {n, points});
    OperandId v1 = c.add(OpKind::kAdd, {v, f(1)});
    v = align ? c.add(OpKind::kMul, {c.add(OpKind::kDiv, {v1, f(2)}), f(double(size) - 1)})
              : c.add(OpKind::kDiv, {c.add(OpKind::kSub, {c.add(OpKind::kMul, {v1, f(size)}), f(1)}), f(2)});
    if (mode == "nearest") v = c.add(OpKind::kRoundEven, {v});
    const double lo = align ? 0 : -0.5, hi = align ? double(size) - 1 : double(size) - 0.5;
    if (padding == "border")
      v = c.add(OpKind::kWhere,
                {outside(c, v, lo, hi), c.add(OpKind::kClamp, {v}, ClampAttrs{0.0, double(size) - 1}), v});
    if (padding == "reflection" && hi > lo)
      v = c.add(OpKind::kWhere, {outside(c, v, lo, hi), reflect_into(c, v, lo, hi), v});
    std::vector<std::pair<OperandId, std::optional<OperandId>>> at;  // whole position, weight
    if (mode == "nearest") {
      at.push_back({v, std::nullopt});
    } else {
      OperandId x0 = c.add(OpKind::kFloor, {v});
      OperandId t = c.add(OpKind::kSub, {v, x0});
      auto shifted = [&](double d) { return d == 0 ? x0 : c.add(OpKind::kAdd, {x0, f(d)}); };
      if (mode == "bilinear") {
        at.push_back({x0, c.add(OpKind::kSub, {f(1), t})});
        at.push_back({shifted(1), t});
      } else {
        // The cubic convolution coefficients of the ONNX reference (A = -0.75) at distances
        // 1 + t, t, 1 - t and 2 - t.
        const double a = -0.75;
        auto mul = [&](OperandId p, OperandId q) { return c.add(OpKind::kMul, {p, q}); };
        auto add = [&](OperandId p, double d) { return c.add(OpKind::kAdd, {p, f(d)}); };
        auto outer = [&](OperandId d) {  // ((A d - 5A) d + 8A) d - 4A
          return add(mul(add(mul(add(c.add(OpKind::kMul, {d, f(a)}), -5 * a), d), 8 * a), d), -4 * a);
        };
        auto inner = [&](OperandId d) {  // ((A + 2) d - (A + 3)) d d + 1
          return add(mul(mul(add(c.add(OpKind::kMul, {d, f(a + 2)}), -(a + 3)), d), d), 1);
        };
        OperandId one_minus_t = c.add(OpKind::kSub, {f(1), t});
        at.push_back({shifted(-1), outer(add(t, 1))});
        at.push_back({x0, inner(t)});
        at.push_back({shifted(1), inner(one_minus_t)});
        at.push_back({shifted(2), outer(c.add(OpKind::kSub, {f(2), t}))});
      }
    }
    std::vector<Tap> taps;
    for (auto& [pos, weight] : at) {
      Tap tap{pos, weight, std::nullopt};
      if (padding == "zeros")
        tap.valid = c.add(OpKind::kLogicalAnd, {c.add(OpKind::kGreaterOrEqual, {pos, f(0)}),
                                                c.add(OpKind::kLesserOrEqual, {pos, f(double(size) - 1)})});
      if (padding == "reflection" && hi > lo)
        pos = c.add(OpKind::kWhere, {outside(c, pos, 0, double(size) - 1), reflect_into(c, pos, lo, hi), pos});
      tap.index = c.cast(c.add(OpKind::kClamp, {pos}, ClampAttrs{0.0, double(size) - 1}), DataType::kInt32);
      taps.push_back(tap);
    }
    return taps;
  };
  const std::vector<Tap> tx = taps_of(0, w), ty = taps_of(1, h);

  OperandId flat = c.reshape(c.operand(0), {n, channels, h * w});
  std::optional<OperandId> sum;
  for (const Tap& y : ty) {
    OperandId row = c.add(OpKind::kMul, {y.index, c.scalar(DataType::kInt32, w)});
    for (const Tap& x : tx) {
      OperandId index = c.reshape(c.add(OpKind::kAdd, {row, x.index}), {n, 1, points});
      index = c.add(OpKind::kExpand, {index}, ExpandAttrs{{n, channels, points}});
      OperandId value = c.add(OpKind::kGatherElements, {flat, index}, GatherAttrs{2});
      std::optional<OperandId> weight;
      if (x.weight && y.weight) weight = c.add(OpKind::kMul, {*y.weight, *x.weight});
      if (weight) value = c.add(OpKind::kMul, {value, c.cast(c.reshape(*weight, {n, 1, points}), ft)});
      if (x.valid && y.valid) {
        OperandId valid = c.reshape(c.add(OpKind::kLogicalAnd, {*y.valid, *x.valid}), {n, 1, points});
        value = c.add(OpKind::kWhere, {valid, value, c.scalar(ft, 0)});
      }
      sum = sum ? c.add(OpKind::kAdd, {*sum, value}) : value;
    }
  }
  c.set_out(0, c.reshape(*sum, {n, channels, gs[1], gs[2]}));
}

// ---- RoiAlign ----

// RoiAlign's largest output_height (or width) · sampling_ratio.
constexpr int64_t kMaxRoiPoints = int64_t{1} << 16;

// RoiAlign (opsets 10 and 16) as ONNX Runtime computes it (the backend suite's expected values
// come from it): per RoI [x1, y1, x2, y2] · spatial_scale (− 0.5 for half_pixel), bins of
// size / output size (at least 1 pixel wide for output_half_pixel), sampling_ratio² points per bin at
// start + bin · (p + (i + 0.5) / sampling_ratio) in float32. A point beyond [−1, size] on either axis
// counts as 0; otherwise it is clamped into [0, size − 1] and read bilinearly from its floor and
// the next pixel (the last pixel twice at the edge). The coordinates of each axis are [R, points]
// tensors; the four taps' indices b·H·W + y·W + x pick rows of the [N·H·W, C] view of the input
// (one gather per tap, so RoIs of any batch item share it), weighted by the products of the axes'
// weights. avg adds the taps and averages the bin's points; max takes the largest weighted tap and
// the largest over the bin's points (ONNX Runtime's rule). A batch index outside [0, N) is not
// checked at run time (ONNX Runtime fails): the gather clamps the combined index, never out of bounds.
void lower_roi_align(const NodeCtx& c) {
  require_float(c, 0);
  const Shape xs = c.desc(0).shape, rs = c.desc(1).shape, bs = c.desc(2).shape;
  if (xs.size() != 4) c.invalid("X must be 4-D [N, C, H, W]");
  if (rs.size() != 2 || rs[1] != 4) c.invalid("rois must be [num_rois, 4]");
  if (bs.size() != 1 || bs[0] != rs[0]) c.invalid("batch_indices must be [num_rois]");
  if (c.type(2) != DataType::kInt64 && c.type(2) != DataType::kInt32) c.invalid("batch_indices must be integers");
  const std::string mode = c.attr_s("mode", "avg");
  if (mode != "avg" && mode != "max") c.invalid("unknown mode \"" + mode + "\"");
  const std::string coords =
      c.attr_s("coordinate_transformation_mode", c.opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (coords != "half_pixel" && coords != "output_half_pixel")
    c.invalid("unknown coordinate_transformation_mode \"" + coords + "\"");
  const int64_t out_h = c.attr_i("output_height", 1), out_w = c.attr_i("output_width", 1);
  const int64_t ratio = c.attr_i("sampling_ratio", 0);
  if (out_h < 1 || out_w < 1) c.invalid("output_height and output_width must be at least 1");
  if (ratio < 0) c.invalid("sampling_ratio must not be negative");
  if (ratio == 0) c.unsupported("sampling_ratio = 0 (the number of sampling points would depend on each RoI's size)");
  const double scale = c.attr_f("spatial_scale", 1.0f);
  const uint32_t n = xs[0], channels = xs[1], h = xs[2], w = xs[3], rois = rs[0];
  // The sampling points per axis are host vectors and constants; the gathered values are
  // [R, points_h · points_w, C]: both checked before anything is made.
  if (out_h > kMaxRoiPoints || out_w > kMaxRoiPoints || ratio > kMaxRoiPoints || out_h * ratio > kMaxRoiPoints ||
      out_w * ratio > kMaxRoiPoints)
    c.unsupported("more than " + std::to_string(kMaxRoiPoints) + " sampling points along an axis");
  const uint64_t points = uint64_t(out_h * ratio) * uint64_t(out_w * ratio);
  if (points > kMaxDimension) c.unsupported(std::to_string(points) + " sampling points per RoI");
  c.im.builder().check_descriptor({c.type(0), {rois, uint32_t(points), channels}}, c.where() + ": the sampled values");
  if (uint64_t(n) * h * w >= (uint64_t(1) << 31)) c.unsupported("an input of 2^31 or more pixels per channel in all");
  const DataType ft = c.type(0);
  auto f = [&](double d) { return c.scalar(DataType::kFloat32, d); };
  auto op = [&](OpKind kind, OperandId a, OperandId b) { return c.add(kind, {a, b}); };
  OperandId roi = c.cast(c.operand(1), DataType::kFloat32);

  struct Tap {
    OperandId index;   // int32 [R, points]
    OperandId weight;  // float32 [R, points], 0 for points outside
  };
  // The taps of axis `col` (0: x, 1: y) of size `size`, `bins` output bins.
  auto taps_of = [&](uint32_t col, uint32_t size, int64_t bins) {
    const double offset = coords == "half_pixel" ? 0.5 : 0;
    auto edge = [&](uint32_t k) {
      return op(OpKind::kSub, op(OpKind::kMul, slice_axis(c, roi, 1, k, 1), f(scale)), f(offset));
    };
    OperandId start = edge(col), extent = op(OpKind::kSub, edge(col + 2), start);  // [R, 1]
    if (coords == "output_half_pixel") extent = op(OpKind::kMax, extent, f(1));
    OperandId bin = op(OpKind::kDiv, extent, f(double(bins)));
    // start + p · bin + (i + 0.5) · bin / ratio for bin p and sample i, in ONNX Runtime's order.
    const uint32_t points = uint32_t(bins * ratio);
    std::vector<double> p(points), i(points);
    for (uint32_t j = 0; j < points; ++j) {
      p[j] = double(j / uint32_t(ratio));
      i[j] = double(j % uint32_t(ratio)) + 0.5;
    }
    auto row = [&](const std::vector<double>& v) {
      return c.constant({DataType::kFloat32, {1, points}}, bytes_of_doubles(DataType::kFloat32, v));
    };
    OperandId v = op(OpKind::kAdd, op(OpKind::kAdd, start, op(OpKind::kMul, row(p), bin)),
                     op(OpKind::kDiv, op(OpKind::kMul, row(i), bin), f(double(ratio))));
    OperandId valid = c.add(OpKind::kLogicalNot, {outside(c, v, -1, double(size))});
    v = c.add(OpKind::kClamp, {v}, ClampAttrs{0.0, double(size) - 1});
    OperandId low = c.add(OpKind::kFloor, {v});
    OperandId t = op(OpKind::kSub, v, low);
    OperandId high = c.add(OpKind::kClamp, {op(OpKind::kAdd, low, f(1))}, ClampAttrs{0.0, double(size) - 1});
    OperandId zero = f(0);
    auto masked = [&](OperandId weight) { return c.add(OpKind::kWhere, {valid, weight, zero}); };
    return std::vector<Tap>{{c.cast(low, DataType::kInt32), masked(op(OpKind::kSub, f(1), t))},
                            {c.cast(high, DataType::kInt32), masked(t)}};
  };
  const uint32_t ph = uint32_t(out_h * ratio), pw = uint32_t(out_w * ratio);
  const std::vector<Tap> ty = taps_of(1, h, out_h), tx = taps_of(0, w, out_w);

  // The input as rows of channels [N·H·W, C]; a RoI's first row is b·H·W.
  OperandId table = c.reshape(c.transpose(c.operand(0), {0, 2, 3, 1}), {n * h * w, channels});
  OperandId base =
      c.reshape(op(OpKind::kMul, c.cast(c.operand(2), DataType::kInt32), c.scalar(DataType::kInt32, double(h) * w)),
                {rois, 1, 1});
  std::optional<OperandId> acc;
  for (const Tap& y : ty) {
    OperandId y_rows =
        op(OpKind::kAdd, base, c.reshape(op(OpKind::kMul, y.index, c.scalar(DataType::kInt32, w)), {rois, ph, 1}));
    for (const Tap& x : tx) {
      OperandId index = c.reshape(op(OpKind::kAdd, y_rows, c.reshape(x.index, {rois, 1, pw})), {rois, ph * pw});
      OperandId value = c.add(OpKind::kGather, {table, index}, GatherAttrs{0});  // [R, ph·pw, C]
      OperandId weight = op(OpKind::kMul, c.reshape(y.weight, {rois, ph, 1}), c.reshape(x.weight, {rois, 1, pw}));
      value = op(OpKind::kMul, value, c.cast(c.reshape(weight, {rois, ph * pw, 1}), ft));
      acc = !acc ? value : op(mode == "avg" ? OpKind::kAdd : OpKind::kMax, *acc, value);
    }
  }
  // [R, bin y, sample y, bin x, sample x, C]: average or maximum over the bin's samples.
  OperandId grid =
      c.reshape(*acc, {rois, uint32_t(out_h), uint32_t(ratio), uint32_t(out_w), uint32_t(ratio), channels});
  ReduceAttrs ra;
  ra.axes = std::vector<uint32_t>{2, 4};
  OperandId pooled = c.add(mode == "avg" ? OpKind::kReduceMean : OpKind::kReduceMax, {grid}, ra);  // [R, OH, OW, C]
  c.set_out(0, c.transpose(pooled, {0, 3, 1, 2}));
}

}  // namespace

Lowerings resample_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"Resize", lower_resize},
      {"Upsample", lower_upsample},
      {"GridSample", lower_grid_sample},
      {"RoiAlign", lower_roi_align},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
