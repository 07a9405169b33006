// ONNX import: signal processing (DFT, STFT, MelWeightMatrix), TopK and RoiAlign, which WebNN has no single
// operation for, as compositions of WebNN operations (docs/onnx.md, "Compositions where WebNN has
// no single op", says what each computes, its accuracy and its cost).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "formats/onnx/import_internal.hpp"

namespace webnn::formats::onnx_import {

namespace {

// The largest DFT matrix built at import (2^26 float32 values: 256 MiB).
constexpr uint64_t kMaxDftMatrixElements = uint64_t{1} << 26;
// The largest MelWeightMatrix folded at import.
constexpr uint64_t kMaxMelElements = uint64_t{1} << 24;
// TopK's rounds each add about a dozen operations: a bound on the graph's size.
constexpr int64_t kMaxTopK = 1024;
// RoiAlign's largest output_height (or width) · sampling_ratio.
constexpr int64_t kMaxRoiPoints = int64_t{1} << 16;

void require_float(const NodeCtx& c, size_t i) {
  if (c.type(i) != DataType::kFloat32 && c.type(i) != DataType::kFloat16)
    c.unsupported(c.op_type() + " of a " + onnx_type_name(onnx_type(c.type(i))) +
                  " input (the importer lowers float and float16 inputs)");
}

// The one value of a scalar or 1-element input known at import time.
int64_t const_scalar(const NodeCtx& c, size_t i, const std::string& what) {
  std::vector<int64_t> v = c.const_ints(i, what);
  if (v.size() != 1) c.invalid(what + " must hold one value, it holds " + std::to_string(v.size()));
  return v[0];
}

// The DFT of x [..., L (axis), ..., 1 or 2] (real, or real and imaginary parts in the last axis) of
// length n (the first min(L, n) values, the rest zero): [..., K (axis), ..., 2] with K = n / 2 + 1
// (onesided) or n bins. The axis and the real/imaginary axis move last and the others fold into
// rows, so the transform is one matmul [rows, M·c] x [M·c, 2K] against a constant whose entries
// are cos and ±sin of 2π·(k·m mod n)/n (computed in double, rounded to float once), real and
// imaginary parts interleaved on both sides; the inverse has the opposite sign and the 1/n scale.
OperandId lower_dft_along(const NodeCtx& c, OperandId x, uint32_t axis, int64_t n, bool onesided, bool inverse) {
  const Shape s = c.desc_of(x).shape;
  const size_t r = s.size();
  const DataType t = c.desc_of(x).data_type;
  const uint32_t parts = s[r - 1];
  if (parts != 1 && parts != 2)
    c.invalid("the last axis holds the real (1) or real and imaginary (2) parts, its size is " + std::to_string(parts));
  if (axis + 1 >= r) c.invalid("the DFT axis must not be the real/imaginary axis (the last)");
  if (n < 1) c.invalid("the DFT length must be at least 1, it is " + std::to_string(n));
  const uint64_t m = std::min<uint64_t>(s[axis], uint64_t(n));
  const uint64_t bins = onesided ? uint64_t(n) / 2 + 1 : uint64_t(n);
  if (bins > kMaxDftMatrixElements || m * parts * bins * 2 > kMaxDftMatrixElements)
    c.unsupported("a DFT matrix of " + std::to_string(m * parts) + " x " + std::to_string(bins * 2) +
                  " values (the importer builds at most 2^26)");
  if (m < s[axis]) x = slice_axis(c, x, axis, 0, int64_t(m));

  // The other axes first (in order), then the DFT axis, then the real/imaginary axis.
  std::vector<uint32_t> perm;
  uint32_t rows = 1;
  for (uint32_t d = 0; d + 1 < r; ++d)
    if (d != axis) {
      perm.push_back(d);
      rows *= s[d];
    }
  perm.push_back(axis);
  perm.push_back(uint32_t(r - 1));
  bool moved = false;
  for (uint32_t d = 0; d < r; ++d) moved |= perm[d] != d;
  if (moved) x = c.transpose(x, perm);
  x = c.reshape(x, {rows, uint32_t(m * parts)});
  if (t != DataType::kFloat32) x = c.cast(x, DataType::kFloat32);

  const double pi = 3.14159265358979323846;
  const double sign = inverse ? 1 : -1, scale = inverse ? 1 / double(n) : 1;
  const size_t cols = size_t(bins) * 2;
  c.reserve({DataType::kFloat32, {uint32_t(m * parts), uint32_t(cols)}}, "the DFT matrix", 8 * m * parts * cols);
  std::vector<double> w(size_t(m) * parts * cols);
  for (uint64_t j = 0; j < m; ++j)
    for (uint64_t k = 0; k < bins; ++k) {
      // e^(sign·i·θ) with θ = 2π·j·k/n, its product reduced mod n first so θ stays exact.
      const double theta = 2 * pi * double((j * k) % uint64_t(n)) / double(n);
      const double re = std::cos(theta) * scale, im = sign * std::sin(theta) * scale;
      double* row = &w[size_t(j * parts) * cols + size_t(k) * 2];
      row[0] = re;  // real part in -> real part out
      row[1] = im;  //              -> imaginary part out
      if (parts == 2) {
        row[cols] = -im;  // imaginary part in -> real part out
        row[cols + 1] = re;
      }
    }
  OperandId dft_matrix =
      c.constant({DataType::kFloat32, {uint32_t(m * parts), uint32_t(cols)}}, bytes_of_doubles(DataType::kFloat32, w));
  OperandId y = c.add(OpKind::kMatmul, {x, dft_matrix});
  if (t != DataType::kFloat32) y = c.cast(y, t);

  Shape moved_shape;
  for (size_t d = 0; d + 2 < r; ++d) moved_shape.push_back(s[perm[d]]);
  moved_shape.push_back(uint32_t(bins));
  moved_shape.push_back(2);
  y = c.reshape(y, moved_shape);
  if (!moved) return y;
  std::vector<uint32_t> back(r);
  for (uint32_t d = 0; d < r; ++d) back[perm[d]] = d;
  return c.transpose(y, back);
}

}  // namespace

// DFT-17 (axis an attribute, default 1) and DFT-20 (axis the third input, default -2).
void lower_dft(const NodeCtx& c) {
  require_float(c, 0);
  const size_t r = c.rank(0);
  if (r < 2) c.invalid("the input must have rank 2 or more ([batch, signal..., 1 or 2])");
  int64_t a = c.attr_i("axis", 1);
  if (c.opset >= 20) a = c.has_input(2) ? const_scalar(c, 2, "axis") : -2;
  const uint32_t axis = c.axis(a, r);
  const bool inverse = c.attr_i("inverse", 0) != 0, onesided = c.attr_i("onesided", 0) != 0;
  if (inverse && onesided)
    c.unsupported("an inverse one-sided DFT (its input would be half a spectrum; ONNX-17 forbids the pair)");
  const int64_t n = c.has_input(1) ? const_scalar(c, 1, "dft_length") : int64_t(c.desc(0).shape[axis]);
  c.set_out(0, lower_dft_along(c, c.operand(0), axis, n, onesided, inverse));
}

// STFT-17: frames of the signal [batch, length, 1 or 2] read by one gather of their sample
// indices [frames, frame_length], multiplied by the window, then the DFT of each frame.
void lower_stft(const NodeCtx& c) {
  require_float(c, 0);
  const Shape s = c.desc(0).shape;
  if (s.size() != 3) c.invalid("the signal must be [batch, length, 1 or 2]");
  const int64_t step = const_scalar(c, 1, "frame_step");
  if (step < 1) c.invalid("frame_step must be at least 1, it is " + std::to_string(step));
  std::optional<int64_t> length;
  if (c.has_input(3)) length = const_scalar(c, 3, "frame_length");
  if (c.has_input(2)) {
    if (c.rank(2) != 1) c.invalid("the window must be 1-D");
    const int64_t w = c.desc(2).shape[0];
    if (length && *length != w)
      c.invalid("frame_length " + std::to_string(*length) + " differs from the window's length " + std::to_string(w));
    length = w;
  }
  if (!length) c.invalid("neither a window nor frame_length gives the frame length");
  if (*length < 1 || *length > int64_t(s[1]))
    c.invalid("frame length " + std::to_string(*length) + " outside [1, signal length " + std::to_string(s[1]) + "]");
  const int64_t frames = (int64_t(s[1]) - *length) / step + 1;
  if (uint64_t(frames) * uint64_t(*length) > kMaxDftMatrixElements)
    c.unsupported("more than 2^26 frame samples in all");
  const uint64_t frame_length = uint64_t(*length);
  OperandId at =
      c.int_table({DataType::kInt32, {uint32_t(frames), uint32_t(frame_length)}}, "the frames' sample indices",
                  [&](uint64_t e) { return int64_t(e / frame_length) * step + int64_t(e % frame_length); });
  OperandId x = c.add(OpKind::kGather, {c.operand(0), at}, GatherAttrs{1});  // [batch, frames, length, parts]
  if (c.has_input(2)) {
    OperandId window = c.operand(2);
    if (c.type(2) != c.type(0)) c.invalid("the window's type differs from the signal's");
    x = c.add(OpKind::kMul, {x, c.reshape(window, {1, 1, uint32_t(*length), 1})});
  }
  c.set_out(0, lower_dft_along(c, x, 2, *length, c.attr_i("onesided", 1) != 0, false));
}

// MelWeightMatrix-17 folded to a constant [dft_length / 2 + 1, num_mel_bins] as ONNX defines it:
// num_mel_bins + 2 edges equally spaced on the mel scale (mel(f) = 2595 log10(1 + f / 700)) from
// lower_edge_hertz, with step (mel(upper) - mel(lower)) / (num_mel_bins + 2), mapped back to hertz
// and to the DFT bin floor((dft_length + 1) · f / sample_rate); band i is the triangle rising from
// edge i to 1 at edge i + 1 and falling to edge i + 2.
void lower_mel_weight_matrix(const NodeCtx& c) {
  const int64_t bands = const_scalar(c, 0, "num_mel_bins"), n = const_scalar(c, 1, "dft_length");
  const int64_t rate = const_scalar(c, 2, "sample_rate");
  const std::vector<double> lo = c.const_doubles(3, "lower_edge_hertz"), hi = c.const_doubles(4, "upper_edge_hertz");
  if (lo.size() != 1 || hi.size() != 1) c.invalid("the edge frequencies must be scalars");
  if (bands < 1 || n < 1 || rate < 1)
    c.invalid("num_mel_bins, dft_length and sample_rate must be at least 1 (WebNN has no empty tensors)");
  const int64_t spectrum_bins = n / 2 + 1;
  if (uint64_t(bands) > kMaxMelElements || uint64_t(spectrum_bins) * uint64_t(bands) > kMaxMelElements)
    c.unsupported("a MelWeightMatrix of more than 2^24 values");
  bool is_bool = false;
  std::string name;
  auto type = webnn_type(int32_t(c.attr_i("output_datatype", onnx::TensorProto::FLOAT)), &is_bool, &name);
  if (!type) c.unsupported("WebNN has no " + name + " data type");

  auto mel = [](double f) { return 2595 * std::log10(1 + f / 700); };
  const double low = mel(lo[0]), step = (mel(hi[0]) - low) / double(bands + 2);
  std::vector<int64_t> edge(size_t(bands + 2));
  for (size_t i = 0; i < edge.size(); ++i) {
    const double hz = 700 * (std::pow(10, (double(i) * step + low) / 2595) - 1);
    const double bin = std::floor(double(n + 1) * hz / double(rate));
    if (!(bin >= 0 && bin < double(spectrum_bins)))
      c.invalid("the mel edge " + std::to_string(hz) + " Hz falls outside the " + std::to_string(spectrum_bins) +
                " DFT bins (the edges or the sample rate are out of range)");
    edge[i] = int64_t(bin);
  }
  c.reserve({*type, {uint32_t(spectrum_bins), uint32_t(bands)}}, "the matrix", 8 * uint64_t(spectrum_bins * bands));
  std::vector<double> w(size_t(spectrum_bins * bands), 0.0);
  auto at = [&](int64_t j, int64_t band) -> double& { return w[size_t(j * bands + band)]; };
  for (int64_t b = 0; b < bands; ++b) {
    const int64_t left = edge[size_t(b)], center = edge[size_t(b) + 1], right = edge[size_t(b) + 2];
    if (center == left)
      at(center, b) = 1;
    else
      for (int64_t j = left; j <= center; ++j) at(j, b) = double(j - left) / double(center - left);
    for (int64_t j = center; j < right; ++j) at(j, b) = double(right - j) / double(right - center);
  }
  c.set_const_out(0, {*type, {uint32_t(spectrum_bins), uint32_t(bands)}}, bytes_of_doubles(*type, w), is_bool);
}

// TopK (opsets 1, 10 and 11): k rounds, each picking the first remaining element in ONNX's order
// (value descending for largest, ascending for smallest; equal values by index ascending) and
// removing it from the candidates. NaN orders above every number, as numpy's sort and PyTorch's
// topk order it (ONNX leaves it open): largest gives the NaNs first, smallest last. A round takes
// the extreme value v of the candidates (reduceMax/Min over them, the others and NaN replaced by
// the type's far end), the mask of candidates equal to v, or of the NaN candidates when those come
// first (or when no number is left), the first position of that mask (argMax of 0/1 returns the
// first maximum), and the value at that position (gatherElements). The masks come from the
// candidates, not from the replaced values, so ±inf and the integer limits come out exactly.
void lower_top_k(const NodeCtx& c) {
  const Shape s = c.desc(0).shape;
  const DataType t = c.type(0);
  const uint32_t axis = c.axis(c.attr_i("axis", -1), s.size());
  if (c.opset < 10 && !c.has_attr("k")) c.invalid("the attribute k is missing");
  const int64_t k = c.opset >= 10 ? const_scalar(c, 1, "k") : c.attr_i("k", -1);
  if (k < 0 || k > int64_t(s[axis]))
    c.invalid("k = " + std::to_string(k) + " outside [0, " + std::to_string(s[axis]) + "] (the axis' size)");
  if (k == 0) c.unsupported("k = 0 (WebNN has no empty tensors)");
  if (k > kMaxTopK)
    c.unsupported("k = " + std::to_string(k) +
                  " (the composition adds about a dozen operations per value; the importer "
                  "builds at most " +
                  std::to_string(kMaxTopK) + ")");
  const bool largest = c.attr_i("largest", 1) != 0;
  const bool is_float = t == DataType::kFloat32 || t == DataType::kFloat16;

  // What a removed element (or a NaN) is replaced with: below (largest) or above every number.
  OperandId skip;
  const OperandDescriptor scalar_desc{t, {}};
  if (is_float) {
    const double inf = std::numeric_limits<double>::infinity();
    skip = c.constant(scalar_desc, bytes_of_doubles(t, {largest ? -inf : inf}));
  } else {
    // The integer types' extremes: wrapping casts of int64 limits (uint64's maximum is -1 wrapped).
    int64_t lowest = 0, highest = -1;
    switch (t) {
      case DataType::kInt8:
        lowest = INT8_MIN, highest = INT8_MAX;
        break;
      case DataType::kUint8:
        highest = UINT8_MAX;
        break;
      case DataType::kInt32:
        lowest = INT32_MIN, highest = INT32_MAX;
        break;
      case DataType::kUint32:
        highest = UINT32_MAX;
        break;
      case DataType::kInt64:
        lowest = INT64_MIN, highest = INT64_MAX;
        break;
      default:
        break;  // uint64
    }
    skip = c.constant(scalar_desc, bytes_of_int64s(t, {largest ? lowest : highest}));
  }
  OperandId positions = c.iota(DataType::kInt64, s.size(), axis, s[axis], "the positions along the axis");

  ReduceAttrs ra;
  ra.axes = std::vector<uint32_t>{axis};
  ra.keep_dimensions = true;
  ArgMinMaxAttrs aa;
  aa.axis = axis;
  aa.keep_dimensions = true;
  aa.output_data_type = DataType::kInt64;
  const OperandId x = c.operand(0);
  std::optional<OperandId> nan;
  OperandId numbers = x;  // x with NaN replaced by `skip`
  if (is_float) {
    nan = c.add(OpKind::kIsNaN, {x});
    numbers = c.add(OpKind::kWhere, {*nan, skip, x});
  }
  auto both = [&](const std::optional<OperandId>& a, OperandId b) {
    return a ? c.add(OpKind::kLogicalAnd, {*a, b}) : b;
  };
  std::optional<OperandId> candidates;  // none: every element
  std::vector<OperandId> values, indices;
  for (int64_t i = 0; i < k; ++i) {
    OperandId pool = candidates ? c.add(OpKind::kWhere, {*candidates, numbers, skip}) : numbers;
    OperandId v = c.add(largest ? OpKind::kReduceMax : OpKind::kReduceMin, {pool}, ra);
    OperandId hit = both(candidates, c.add(OpKind::kEqual, {x, v}));
    if (nan) {
      OperandId nan_hit = both(candidates, *nan);
      OperandId first = largest ? nan_hit : hit, second = largest ? hit : nan_hit;
      hit = c.add(OpKind::kWhere, {c.add(OpKind::kReduceMax, {first}, ra), first, second});
    }
    OperandId index = c.add(OpKind::kArgMax, {hit}, aa);
    values.push_back(c.add(OpKind::kGatherElements, {x, index}, GatherAttrs{axis}));
    indices.push_back(index);
    if (i + 1 < k) candidates = both(candidates, c.add(OpKind::kNotEqual, {positions, index}));
  }
  auto joined = [&](const std::vector<OperandId>& parts) {
    return parts.size() == 1 ? parts[0] : c.add(OpKind::kConcat, parts, ConcatAttrs{axis});
  };
  c.set_out(0, joined(values));
  if (c.wants_output(1)) c.set_out(1, joined(indices));
}

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

}  // namespace webnn::formats::onnx_import
