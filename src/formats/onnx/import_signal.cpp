// ONNX import: signal processing (DFT, STFT, MelWeightMatrix and the Hann, Hamming and Blackman
// windows), which WebNN has no operations for: compositions of WebNN operations and constants
// computed at import (docs/onnx.md, "Compositions where WebNN has no single op", says what each
// computes, its accuracy and its cost).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

// The largest DFT matrix built at import (2^26 float32 values: 256 MiB).
constexpr uint64_t kMaxDftMatrixElements = uint64_t{1} << 26;
// The largest MelWeightMatrix folded at import.
constexpr uint64_t kMaxMelElements = uint64_t{1} << 24;

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

// Hann, Hamming and Blackman windows: constants of the (known) size.
void lower_window(const NodeCtx& c, int kind) {
  int64_t size = c.const_ints(0, "size").at(0);
  if (size < 1) c.unsupported("an empty window (WebNN has no empty tensors)");
  if (size > int64_t(kMaxFoldElements)) c.unsupported("a window of more than 65536 values");
  bool periodic = c.attr_i("periodic", 1) != 0;
  bool is_bool = false;
  std::string name;
  auto type = webnn_type(int32_t(c.attr_i("output_datatype", onnx::TensorProto::FLOAT)), &is_bool, &name);
  if (!type) c.unsupported("WebNN has no " + name + " data type");
  c.reserve({*type, {uint32_t(size)}}, "the window", 8 * uint64_t(size));
  double n = double(periodic ? size : size - 1);
  const double pi = 3.14159265358979323846;
  std::vector<double> v(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    double a = n > 0 ? 2 * pi * double(i) / n : 0;
    if (kind == 0)
      v[size_t(i)] = 0.5 - 0.5 * std::cos(a);
    else if (kind == 1)
      v[size_t(i)] = 25.0 / 46.0 - (1 - 25.0 / 46.0) * std::cos(a);
    else
      v[size_t(i)] = 0.42 - 0.5 * std::cos(a) + 0.08 * std::cos(2 * a);
  }
  c.set_const_out(0, {*type, {uint32_t(size)}}, bytes_of_doubles(*type, v));
}

void lower_hann_window(const NodeCtx& c) { lower_window(c, 0); }

void lower_hamming_window(const NodeCtx& c) { lower_window(c, 1); }

void lower_blackman_window(const NodeCtx& c) { lower_window(c, 2); }

}  // namespace

void require_float(const NodeCtx& c, size_t i) {
  if (c.type(i) != DataType::kFloat32 && c.type(i) != DataType::kFloat16)
    c.unsupported(c.op_type() + " of a " + onnx_type_name(onnx_type(c.type(i))) +
                  " input (the importer lowers float and float16 inputs)");
}

int64_t const_scalar(const NodeCtx& c, size_t i, const std::string& what) {
  std::vector<int64_t> v = c.const_ints(i, what);
  if (v.size() != 1) c.invalid(what + " must hold one value, it holds " + std::to_string(v.size()));
  return v[0];
}

Lowerings signal_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"DFT", lower_dft},
      {"STFT", lower_stft},
      {"MelWeightMatrix", lower_mel_weight_matrix},
      {"HannWindow", lower_hann_window},
      {"HammingWindow", lower_hamming_window},
      {"BlackmanWindow", lower_blackman_window},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
