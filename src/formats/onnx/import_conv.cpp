// ONNX import: Conv and ConvTranspose onto WebNN's conv2d and convTranspose2d (src/ops/conv.cpp):
// 1-D as 2-D with height 1, 3-D as sums over the filter's depth taps (docs/onnx.md, "3-D Conv"),
// and the windows (pads, auto_pad, strides, dilations) the pools share.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

// Attribute values that index or size tensors: in [lo, 2^31 - 1], so that products of two stay
// within int64.
const std::vector<int64_t>& in_range(const NodeCtx& c, const std::vector<int64_t>& v, int64_t lo, const char* what) {
  for (int64_t x : v)
    if (x < lo || x > int64_t(kMaxDimension))
      c.invalid(std::string(what) + " value " + std::to_string(x) + " is out of range");
  return v;
}

// Pads axis `axis` of x with zeros: `begin` before, `end` after (nothing when both are 0).
OperandId pad_axis(const NodeCtx& c, OperandId x, size_t axis, int64_t begin, int64_t end) {
  if (begin == 0 && end == 0) return x;
  PadAttrs p;
  p.beginning_padding.assign(c.desc_of(x).shape.size(), 0);
  p.ending_padding.assign(c.desc_of(x).shape.size(), 0);
  p.beginning_padding[axis] = uint32_t(begin);
  p.ending_padding[axis] = uint32_t(end);
  return c.add(OpKind::kPad, {x}, p);
}

// The 2-D filter of a 5-D (O, I, KD, KH, KW) filter's depth tap t: (O, I, KH, KW).
OperandId depth_tap(const NodeCtx& c, OperandId w, uint32_t t) {
  Shape ws = c.desc_of(w).shape;
  return c.reshape(slice_axis(c, w, 2, t, 1), {ws[0], ws[1], ws[3], ws[4]});
}

// (N, C, D, H, W) -> (N, D, C, H, W) and back: the depth next to the batch, where 2-D ops see
// each depth slice as one more image.
const std::vector<uint32_t> kDepthToBatch = {0, 2, 1, 3, 4};

// A 3-D convolution (WebNN has conv2d only) as the sum over the filter's depth taps of 2-D
// convolutions: the input's depth moves beside the batch and is padded with zeros; tap t reads
// the depth slices t·dilation + od·stride for every output depth od (one strided slice), as a
// batch of images, and convolves them with the tap's 2-D filter; the taps' results are added.
// Cost: KD conv2d over N·OD images each (the work of the 3-D convolution) plus KD slices and
// KD − 1 adds of output-sized tensors.
OperandId conv3d(const NodeCtx& c, OperandId x, OperandId w, std::optional<OperandId> bias, const Window& win) {
  const Shape xs = c.desc_of(x).shape, ws = c.desc_of(w).shape;
  int64_t padded = int64_t(xs[2]) + win.begin[0] + win.end[0];
  int64_t span = padded - ((win.kernel[0] - 1) * win.dilations[0] + 1);
  if (span < 0) c.invalid("the filter's depth is larger than the padded input's");
  int64_t out_d = span / win.strides[0] + 1;
  x = pad_axis(c, c.transpose(x, kDepthToBatch), 1, win.begin[0], win.end[0]);
  Conv2dAttrs a;
  a.padding = padding_2d(win.begin, win.end);
  a.strides = last_2d(win.strides);
  a.dilations = last_2d(win.dilations);
  a.groups = static_cast<uint32_t>(c.attr_i("group", 1));
  std::optional<OperandId> sum;
  for (uint32_t t = 0; t < ws[2]; ++t) {
    OperandId slices = slice_axis(c, x, 1, t * win.dilations[0], out_d, win.strides[0]);
    slices = c.reshape(slices, {uint32_t(xs[0] * out_d), xs[1], xs[3], xs[4]});
    Conv2dAttrs at = a;
    if (t == 0 && bias) at.bias = OperandRef{*bias};
    OperandId y = c.add(OpKind::kConv2d, {slices, depth_tap(c, w, t)}, at);
    sum = sum ? c.add(OpKind::kAdd, {*sum, y}) : y;
  }
  const Shape ys = c.desc_of(*sum).shape;  // (N·OD, M, OH, OW)
  return c.transpose(c.reshape(*sum, {xs[0], uint32_t(out_d), ys[1], ys[2], ys[3]}), kDepthToBatch);
}

void lower_conv(const NodeCtx& c) {
  std::optional<OperandId> bias;
  if (c.has_input(2)) bias = c.operand(2);
  c.set_out(0, conv_of(c, c.operand(0), c.operand(1), bias));
}

// ---- ConvTranspose ----

// ConvTranspose's attributes for its spatial axes, resolved to explicit paddings and output
// padding (auto_pad and output_shape become pads).
struct TransposedWindow {
  std::vector<int64_t> strides, dilations, outpad, begin, end;
};

TransposedWindow transposed_window_of(const NodeCtx& c, const std::vector<int64_t>& in,
                                      const std::vector<int64_t>& kernel) {
  size_t n = in.size();
  auto per_axis = [&](const char* name, int64_t lo, int64_t def) {
    auto v = in_range(c, c.attr_ints(name), lo, name);
    if (v.empty()) v.assign(n, def);
    if (v.size() != n) c.invalid("an attribute does not match the spatial rank");
    return v;
  };
  TransposedWindow tw;
  tw.strides = per_axis("strides", 1, 1);
  tw.dilations = per_axis("dilations", 1, 1);
  tw.outpad = per_axis("output_padding", 0, 0);
  tw.begin.assign(n, 0);
  tw.end.assign(n, 0);
  auto out_shape = in_range(c, c.attr_ints("output_shape"), 1, "output_shape");
  if (!out_shape.empty() && out_shape.size() < n) c.invalid("output_shape must have one value per spatial axis");
  std::string auto_pad = c.attr_s("auto_pad", "NOTSET");
  if (!out_shape.empty() || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    if (out_shape.size() > n) out_shape.erase(out_shape.begin(), out_shape.end() - long(n));
    for (size_t i = 0; i < n; ++i) {
      int64_t target = out_shape.empty() ? in[i] * tw.strides[i] : out_shape[i];
      int64_t total = tw.strides[i] * (in[i] - 1) + tw.outpad[i] + ((kernel[i] - 1) * tw.dilations[i] + 1) - target;
      if (total < 0) {
        tw.outpad[i] -= total;  // the output is larger than the kernel covers: extra output padding
        total = 0;
      }
      bool upper = auto_pad == "SAME_UPPER";
      tw.begin[i] = upper ? total / 2 : total - total / 2;
      tw.end[i] = total - tw.begin[i];
    }
  } else if (auto_pad == "NOTSET") {
    auto pads = in_range(c, c.attr_ints("pads"), 0, "pads");
    if (!pads.empty()) {
      if (pads.size() != 2 * n) c.invalid("pads must have 2 values per spatial axis");
      for (size_t i = 0; i < n; ++i) tw.begin[i] = pads[i], tw.end[i] = pads[i + n];
    }
  }
  return tw;
}

// A 3-D transposed convolution (WebNN has convTranspose2d only) as a sum over the filter's depth
// taps: every input depth slice, as one more image of the batch, goes through convTranspose2d
// with tap t's 2-D filter; input depth id lands on full-output depth id·stride + t·dilation, so
// the results are spread `stride` apart (a zero pad between them) and shifted by t·dilation (a
// zero pad before), and the taps are added. The pads crop the sum's depth, and the bias is added
// last (output_padding's extra depths hold only the bias). Cost: KD convTranspose2d over N·D
// images (the work of the 3-D one) plus a few pads, slices and adds of output-sized tensors per
// tap.
void conv_transpose3d(const NodeCtx& c, const TransposedWindow& tw) {
  OperandId x = c.operand(0), w = c.operand(1);
  const Shape xs = c.desc_of(x).shape, ws = c.desc_of(w).shape;
  const int64_t n = xs[0], depth = xs[2], taps = ws[2], sd = tw.strides[0], dd = tw.dilations[0];
  const int64_t spread = (depth - 1) * sd + 1;  // the depths one tap's results cover
  const int64_t full = spread + (taps - 1) * dd + tw.outpad[0];
  const int64_t out_d = full - tw.begin[0] - tw.end[0];
  if (out_d < 1) c.invalid("the pads leave no output depth");
  x = c.reshape(c.transpose(x, kDepthToBatch), {uint32_t(n * depth), xs[1], xs[3], xs[4]});
  ConvTranspose2dAttrs a;
  a.padding = padding_2d(tw.begin, tw.end);
  a.strides = last_2d(tw.strides);
  a.dilations = last_2d(tw.dilations);
  a.output_padding = last_2d(tw.outpad);
  a.groups = static_cast<uint32_t>(c.attr_i("group", 1));
  std::optional<OperandId> sum;
  Shape ys;
  for (uint32_t t = 0; t < ws[2]; ++t) {
    OperandId y = c.add(OpKind::kConvTranspose2d, {x, depth_tap(c, w, t)}, a);
    ys = c.desc_of(y).shape;  // (N·D, M, OH, OW)
    const uint32_t features = ys[1] * ys[2] * ys[3];
    if (sd > 1) {
      y = pad_axis(c, c.reshape(y, {uint32_t(n), uint32_t(depth), 1, features}), 2, 0, sd - 1);
      y = slice_axis(c, c.reshape(y, {uint32_t(n), uint32_t(depth * sd), features}), 1, 0, spread);
    } else {
      y = c.reshape(y, {uint32_t(n), uint32_t(depth), features});
    }
    y = pad_axis(c, y, 1, t * dd, full - t * dd - spread);
    sum = sum ? c.add(OpKind::kAdd, {*sum, y}) : y;
  }
  OperandId y = slice_axis(c, *sum, 1, tw.begin[0], out_d);
  y = c.transpose(c.reshape(y, {uint32_t(n), uint32_t(out_d), ys[1], ys[2], ys[3]}), kDepthToBatch);
  if (c.has_input(2)) y = c.add(OpKind::kAdd, {y, c.reshape(c.operand(2), {ys[1], 1, 1, 1})});
  c.set_out(0, y);
}

void lower_conv_transpose(const NodeCtx& c) {
  size_t r = c.rank(0);
  if (r < 3 || r > 5)
    c.unsupported("WebNN has 2-D transposed convolutions, from which 1-D and 3-D ones are built; input rank " +
                  std::to_string(r));
  if (c.rank(1) != r) c.invalid("the weights' rank differs from the input's");
  TransposedWindow tw = transposed_window_of(c, spatial_of(c.desc(0).shape), spatial_of(c.desc(1).shape));
  for (size_t i = 0; i < r - 2; ++i)
    if (tw.begin[i] < 0 || tw.end[i] < 0) c.unsupported("negative pads");
  if (r == 5) return conv_transpose3d(c, tw);
  if (r == 3) {  // 1-D as 2-D with height 1
    for (auto* v : {&tw.strides, &tw.dilations}) v->insert(v->begin(), 1);
    for (auto* v : {&tw.outpad, &tw.begin, &tw.end}) v->insert(v->begin(), 0);
  }
  ConvTranspose2dAttrs a;
  a.padding = padding_2d(tw.begin, tw.end);
  a.strides = u32s(tw.strides);
  a.dilations = u32s(tw.dilations);
  a.output_padding = u32s(tw.outpad);
  a.groups = static_cast<uint32_t>(c.attr_i("group", 1));
  if (c.has_input(2)) a.bias = OperandRef{c.operand(2)};
  OperandId y = c.add(OpKind::kConvTranspose2d, {to_4d(c, c.operand(0)), to_4d(c, c.operand(1))}, a);
  if (r == 3) {
    Shape ys = c.desc_of(y).shape;
    y = c.reshape(y, {ys[0], ys[1], ys[3]});
  }
  c.set_out(0, y);
}

}  // namespace

Window window_of(const NodeCtx& c, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                 bool has_dilations) {
  size_t n = in.size();
  Window w;
  w.kernel = in_range(c, kernel, 1, "kernel_shape");
  w.strides = in_range(c, c.attr_ints("strides"), 1, "strides");
  if (w.strides.empty()) w.strides.assign(n, 1);
  w.dilations = has_dilations ? in_range(c, c.attr_ints("dilations"), 1, "dilations") : std::vector<int64_t>{};
  if (w.dilations.empty()) w.dilations.assign(n, 1);
  if (w.strides.size() != n || w.dilations.size() != n) c.invalid("strides/dilations do not match the kernel rank");
  for (size_t i = 0; i < n; ++i)
    if (w.strides[i] < 1 || w.dilations[i] < 1) c.invalid("strides and dilations must be positive");
  std::string auto_pad = c.attr_s("auto_pad", "NOTSET");
  w.begin.assign(n, 0);
  w.end.assign(n, 0);
  if (auto_pad == "NOTSET") {
    auto pads = c.attr_ints("pads");
    in_range(c, pads, 0, "pads");
    if (!pads.empty()) {
      if (pads.size() != 2 * n) c.invalid("pads must have 2 values per spatial axis");
      for (size_t i = 0; i < n; ++i) {
        w.begin[i] = pads[i];
        w.end[i] = pads[i + n];
        if (w.begin[i] < 0 || w.end[i] < 0) c.unsupported("negative pads");
      }
    }
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (size_t i = 0; i < n; ++i) {
      int64_t out = (in[i] + w.strides[i] - 1) / w.strides[i];
      int64_t total = std::max<int64_t>(0, (out - 1) * w.strides[i] + (kernel[i] - 1) * w.dilations[i] + 1 - in[i]);
      w.begin[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.end[i] = total - w.begin[i];
    }
  } else if (auto_pad != "VALID") {
    c.invalid("unknown auto_pad \"" + auto_pad + "\"");
  }
  return w;
}

std::vector<uint32_t> u32s(const std::vector<int64_t>& v) { return {v.begin(), v.end()}; }

OperandId to_4d(const NodeCtx& c, OperandId x) {
  Shape s = c.desc_of(x).shape;
  if (s.size() == 4) return x;
  if (s.size() != 3) c.invalid("an operand of rank " + std::to_string(s.size()) + " where rank 3 or 4 is expected");
  return c.reshape(x, {s[0], s[1], 1, s[2]});
}

std::vector<int64_t> spatial_of(const Shape& s) { return {s.begin() + 2, s.end()}; }

std::vector<uint32_t> padding_2d(const std::vector<int64_t>& begin, const std::vector<int64_t>& end) {
  size_t n = begin.size();
  return {uint32_t(begin[n - 2]), uint32_t(end[n - 2]), uint32_t(begin[n - 1]), uint32_t(end[n - 1])};
}

std::vector<uint32_t> last_2d(const std::vector<int64_t>& v) { return {uint32_t(v[v.size() - 2]), uint32_t(v.back())}; }

OperandId conv_of(const NodeCtx& c, OperandId x, OperandId w, std::optional<OperandId> bias) {
  const Shape xs = c.desc_of(x).shape, ws = c.desc_of(w).shape;
  size_t r = xs.size();
  if (r < 3 || r > 5)
    c.unsupported("WebNN has 2-D convolutions, from which 1-D and 3-D ones are built; input rank " + std::to_string(r));
  if (ws.size() != r) c.invalid("the weights' rank differs from the input's");
  std::vector<int64_t> in = spatial_of(xs), kernel = spatial_of(ws);
  auto kernel_attr = c.attr_ints("kernel_shape");
  if (!kernel_attr.empty() && kernel_attr != kernel) c.invalid("kernel_shape does not match the weights");
  Window win = window_of(c, in, kernel, true);
  if (r == 5) return conv3d(c, x, w, bias, win);
  if (r == 3) {  // 1-D as 2-D with height 1
    for (auto* v : {&win.kernel, &win.strides, &win.dilations}) v->insert(v->begin(), 1);
    for (auto* v : {&win.begin, &win.end}) v->insert(v->begin(), 0);
  }
  Conv2dAttrs a;
  a.padding = padding_2d(win.begin, win.end);
  a.strides = u32s(win.strides);
  a.dilations = u32s(win.dilations);
  a.groups = static_cast<uint32_t>(c.attr_i("group", 1));
  if (bias) a.bias = OperandRef{*bias};
  OperandId y = c.add(OpKind::kConv2d, {to_4d(c, x), to_4d(c, w)}, a);
  if (r == 3) {
    Shape ys = c.desc_of(y).shape;
    y = c.reshape(y, {ys[0], ys[1], ys[3]});
  }
  return y;
}

Lowerings conv_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"Conv", lower_conv},
      {"ConvTranspose", lower_conv_transpose},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
