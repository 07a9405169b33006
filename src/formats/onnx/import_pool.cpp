// ONNX import: MaxPool, AveragePool, LpPool (1-D, 2-D and 3-D; MaxPool's Indices), their global
// forms and MaxUnpool onto WebNN's 2-D pools (src/ops/pool.cpp) and scatterElements.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

// One WebNN 2-D pool of a 4-D x with explicit window, paddings and output sizes.
OperandId pool2d(const NodeCtx& c, OpKind kind, OperandId x, const std::vector<uint32_t>& window,
                 const std::vector<uint32_t>& padding, const std::vector<uint32_t>& strides,
                 const std::vector<uint32_t>& dilations, const std::vector<uint32_t>& out_sizes) {
  Pool2dAttrs a;
  a.window_dimensions = window;
  a.padding = padding;
  a.strides = strides;
  a.dilations = dilations;
  a.output_sizes = out_sizes;
  return c.add(kind, {x}, a);
}

constexpr uint64_t kMaxIndexWindow = uint64_t{1} << 12;

// MaxPool's Indices output of a 1-D, 2-D or 3-D pool (WebNN's maxPool2d has none): the flat
// index in the input of each window's maximum, the first in the window's scan order (the last
// spatial axis fastest) when several are equal, as ONNX Runtime takes it, or the first NaN (whose
// window's maximum is NaN). `storage_order` 1 numbers the spatial positions with the first spatial
// axis fastest (column by column in 2-D). The window offsets are visited last to first: each
// strided `slice` of the input padded with −∞ is compared with the pooled output y (of x's rank),
// and `where` keeps the offset's index (a strided slice of a constant index image, −1 in the
// padding) where they are equal, so the first offset that holds the maximum wins. The batch and
// channel offsets of the flat index are added last. Cost: per window offset two strided slices,
// `equal`, `isNaN`, `logicalOr` and `where` of the output's size.
OperandId max_pool_indices(const NodeCtx& c, OperandId x, OperandId y, const std::vector<int64_t>& kernel,
                           const Window& w, const std::vector<int64_t>& out_sizes, bool column_major) {
  const Shape xs = c.desc_of(x).shape;
  const size_t dims = kernel.size(), rank = dims + 2;
  const uint32_t n = xs[0], ch = xs[1];
  uint64_t window = 1;
  for (int64_t k : kernel) window *= uint64_t(k);
  // Five operations per window offset.
  if (window > kMaxIndexWindow)
    c.unsupported("MaxPool's Indices of a window of more than " + std::to_string(kMaxIndexWindow) + " elements");
  // Padding that covers every window, ceil_mode's last ones included.
  std::vector<uint32_t> in(dims), padded(dims), end(dims);
  uint64_t positions = 1, image = 1;
  for (size_t i = 0; i < dims; ++i) {
    in[i] = xs[2 + i];
    const int64_t covered = (out_sizes[i] - 1) * w.strides[i] + (kernel[i] - 1) * w.dilations[i] + 1;
    end[i] = uint32_t(std::max<int64_t>(w.end[i], covered - in[i] - w.begin[i]));
    const uint64_t length = uint64_t(in[i]) + uint64_t(w.begin[i]) + end[i];
    positions *= length;
    image *= in[i];
    if (positions > kMaxFoldElements * 256)
      c.unsupported("MaxPool's Indices of a padded input of more than " + std::to_string(kMaxFoldElements * 256) +
                    " positions (the importer builds its index image for up to that many)");
    padded[i] = uint32_t(length);
  }
  PadAttrs p;
  p.beginning_padding = {0, 0};
  p.ending_padding = {0, 0};
  for (size_t i = 0; i < dims; ++i) {
    p.beginning_padding.push_back(uint32_t(w.begin[i]));
    p.ending_padding.push_back(end[i]);
  }
  p.value = -std::numeric_limits<double>::infinity();
  const OperandId padded_x = c.add(OpKind::kPad, {x}, p);
  // Each padded position's index in the unpadded input, -1 in the padding.
  Shape image_shape{1, 1};
  image_shape.insert(image_shape.end(), padded.begin(), padded.end());
  const OperandId index_image =
      c.int_table({DataType::kInt64, image_shape}, "the index image", [&](uint64_t e) -> int64_t {
        std::vector<int64_t> at(dims);
        for (size_t i = dims; i-- > 0;) {
          at[i] = int64_t(e % padded[i]) - int64_t(w.begin[i]);
          e /= padded[i];
          if (at[i] < 0 || at[i] >= int64_t(in[i])) return -1;
        }
        int64_t index = 0;
        if (column_major)
          for (size_t i = dims; i-- > 0;) index = index * in[i] + at[i];
        else
          for (size_t i = 0; i < dims; ++i) index = index * in[i] + at[i];
        return index;
      });
  std::vector<uint32_t> strides{1, 1}, span{n, ch}, image_span{1, 1};
  for (size_t i = 0; i < dims; ++i) {
    strides.push_back(uint32_t(w.strides[i]));
    const uint32_t length = uint32_t(out_sizes[i] - 1) * uint32_t(w.strides[i]) + 1;
    span.push_back(length);
    image_span.push_back(length);
  }
  std::optional<OperandId> result;
  for (uint64_t k = window; k-- > 0;) {  // offsets last to first, the last spatial axis fastest
    std::vector<uint32_t> starts(rank, 0);
    uint64_t rest = k;
    for (size_t i = dims; i-- > 0;) {
      starts[2 + i] = uint32_t(int64_t(rest % uint64_t(kernel[i])) * w.dilations[i]);
      rest /= uint64_t(kernel[i]);
    }
    const OperandId value = c.add(OpKind::kSlice, {padded_x}, SliceAttrs{starts, span, strides});
    const OperandId index = c.add(OpKind::kSlice, {index_image}, SliceAttrs{starts, image_span, strides});
    // A NaN in the window makes the maximum NaN (the pools propagate it): its index is the NaN's.
    const OperandId equal =
        c.add(OpKind::kLogicalOr, {c.add(OpKind::kEqual, {value, y}), c.add(OpKind::kIsNaN, {value})});
    result = c.add(OpKind::kWhere, {equal, index, result ? *result : c.scalar(DataType::kInt64, -1, rank)});
  }
  Shape base_shape(rank, 1);
  base_shape[0] = n;
  base_shape[1] = ch;
  const OperandId base = c.int_table({DataType::kInt64, base_shape}, "the offsets of the images",
                                     [&](uint64_t k) { return int64_t(k * image); });
  return c.add(OpKind::kAdd, {*result, base});
}

// ONNX's 1-D, 2-D and 3-D MaxPool, AveragePool and LpPool (p = 2). A 3-D window is a box, so
// the pool separates: a 2-D pool over (H, W) of the (N, C·D, H, W) view, then a 2-D pool of
// window (KD, 1) over the depth of the (N, C, D, OH·OW) view, with the depth's paddings, stride,
// dilation and output size. The maximum of maxima is the maximum; the valid elements of a window
// are a product of valid depths and valid (h, w), so the mean of the per-depth means of valid
// elements is the mean of the window's valid elements (count_include_pad = 0, WebNN's rule);
// sqrt(sum of squared l2 norms) is the window's l2 norm. Cost: two pools and three reshapes.
void lower_pool(const NodeCtx& c, OpKind kind) {
  size_t r = c.rank(0);
  if (r < 3 || r > 5)
    c.unsupported("WebNN has 2-D pooling, from which 1-D and 3-D pools are built; input rank " + std::to_string(r));
  if (c.wants_output(1) && kind != OpKind::kMaxPool2d) c.invalid("only MaxPool has an Indices output");
  if (kind == OpKind::kL2Pool2d && c.attr_i("p", 2) != 2)
    c.unsupported("WebNN has only the p = 2 Lp pool (l2Pool2d), p = " + std::to_string(c.attr_i("p", 2)));
  OperandId x = c.operand(0);
  const Shape xs = c.desc_of(x).shape;
  size_t n = r - 2;
  std::vector<int64_t> in = spatial_of(xs);
  auto kernel = c.attr_ints("kernel_shape");
  if (kernel.size() != n) c.invalid("kernel_shape must have one value per spatial axis");
  Window w = window_of(c, in, kernel, kind == OpKind::kMaxPool2d || c.opset >= 19);
  bool ceil_mode = c.attr_i("ceil_mode", 0) != 0;
  std::vector<int64_t> out_sizes;
  for (size_t i = 0; i < n; ++i) {
    int64_t span = in[i] + w.begin[i] + w.end[i] - ((kernel[i] - 1) * w.dilations[i] + 1);
    if (span < 0) c.unsupported("the window is larger than the padded input");
    int64_t out = ceil_mode ? (span + w.strides[i] - 1) / w.strides[i] + 1 : span / w.strides[i] + 1;
    // A window must start inside the input or its leading padding.
    if (ceil_mode && (out - 1) * w.strides[i] >= in[i] + w.begin[i]) --out;
    out_sizes.push_back(out);
  }
  if (kind == OpKind::kAveragePool2d && c.attr_i("count_include_pad", 0) != 0) {
    bool any = false;
    for (size_t i = 0; i < n; ++i) any |= w.begin[i] || w.end[i];
    if (any) {
      // WebNN's average leaves padding out; ONNX counts it: pad with zeros first.
      PadAttrs p;
      p.beginning_padding = {0, 0};
      p.ending_padding = {0, 0};
      for (size_t i = 0; i < n; ++i) {
        int64_t covered = (out_sizes[i] - 1) * w.strides[i] + (kernel[i] - 1) * w.dilations[i] + 1;
        if (covered > in[i] + w.begin[i] + w.end[i])
          c.unsupported("count_include_pad with ceil_mode windows past the padding");
        p.beginning_padding.push_back(uint32_t(w.begin[i]));
        p.ending_padding.push_back(uint32_t(w.end[i]));
        in[i] += w.begin[i] + w.end[i];
        w.begin[i] = w.end[i] = 0;
      }
      x = c.add(OpKind::kPad, {x}, p);
    }
  }
  if (n == 1) {  // as 2-D with height 1
    OperandId y =
        pool2d(c, kind, to_4d(c, x), {1, uint32_t(kernel[0])}, {0, 0, uint32_t(w.begin[0]), uint32_t(w.end[0])},
               {1, uint32_t(w.strides[0])}, {1, uint32_t(w.dilations[0])}, {1, uint32_t(out_sizes[0])});
    y = c.reshape(y, {xs[0], xs[1], uint32_t(out_sizes[0])});
    c.set_out(0, y);
    if (c.wants_output(1))
      c.set_out(1, max_pool_indices(c, x, y, kernel, w, out_sizes, c.attr_i("storage_order", 0) != 0));
    return;
  }
  const std::vector<uint32_t> window_hw = last_2d(kernel), padding_hw = padding_2d(w.begin, w.end);
  if (n == 2) {
    const OperandId y = pool2d(c, kind, x, window_hw, padding_hw, u32s(w.strides), u32s(w.dilations), u32s(out_sizes));
    c.set_out(0, y);
    if (c.wants_output(1))
      c.set_out(1, max_pool_indices(c, x, y, kernel, w, out_sizes, c.attr_i("storage_order", 0) != 0));
    return;
  }
  const uint32_t out_d = uint32_t(out_sizes[0]), out_h = uint32_t(out_sizes[1]), out_w = uint32_t(out_sizes[2]);
  OperandId y = c.reshape(x, {xs[0], uint32_t(xs[1] * in[0]), uint32_t(in[1]), uint32_t(in[2])});
  y = pool2d(c, kind, y, window_hw, padding_hw, last_2d(w.strides), last_2d(w.dilations), {out_h, out_w});
  y = c.reshape(y, {xs[0], xs[1], uint32_t(in[0]), out_h * out_w});
  y = pool2d(c, kind, y, {uint32_t(kernel[0]), 1}, {uint32_t(w.begin[0]), uint32_t(w.end[0]), 0, 0},
             {uint32_t(w.strides[0]), 1}, {uint32_t(w.dilations[0]), 1}, {out_d, out_h * out_w});
  y = c.reshape(y, {xs[0], xs[1], out_d, out_h, out_w});
  c.set_out(0, y);
  if (c.wants_output(1))
    c.set_out(1, max_pool_indices(c, x, y, kernel, w, out_sizes, c.attr_i("storage_order", 0) != 0));
}

void lower_max_pool(const NodeCtx& c) { lower_pool(c, OpKind::kMaxPool2d); }

void lower_average_pool(const NodeCtx& c) { lower_pool(c, OpKind::kAveragePool2d); }

void lower_lp_pool(const NodeCtx& c) { lower_pool(c, OpKind::kL2Pool2d); }

// A global pool of any spatial rank: one 2-D pool of the (N, C, rows, last axis) view, where rows
// is the product of the other spatial sizes (the window is the whole view either way).
void lower_global_pool(const NodeCtx& c, OpKind kind) {
  size_t r = c.rank(0);
  if (r < 3) c.invalid("the input must have at least one spatial axis, rank " + std::to_string(r));
  if (kind == OpKind::kL2Pool2d && c.attr_i("p", 2) != 2) c.unsupported("WebNN has only the p = 2 Lp pool");
  const Shape xs = c.desc(0).shape;
  uint64_t rows = 1;
  for (size_t i = 2; i + 1 < r; ++i) rows *= xs[i];
  OperandId y = c.add(kind, {c.reshape(c.operand(0), {xs[0], xs[1], uint32_t(rows), xs[r - 1]})}, Pool2dAttrs{});
  Shape ys(r, 1);
  ys[0] = xs[0];
  ys[1] = xs[1];
  c.set_out(0, c.reshape(y, ys));
}

void lower_global_average_pool(const NodeCtx& c) { lower_global_pool(c, OpKind::kAveragePool2d); }

void lower_global_max_pool(const NodeCtx& c) { lower_global_pool(c, OpKind::kMaxPool2d); }

void lower_global_lp_pool(const NodeCtx& c) { lower_global_pool(c, OpKind::kL2Pool2d); }

// ---- MaxUnpool ----

// The values land at their flat indices (over the whole tensor, as MaxPool's Indices output gives
// them) of a zero tensor of the shape inferred from kernel_shape, strides and pads:
// scatterElements on the flattened tensor. An output_shape places that tensor at the origin of a
// larger zero tensor (a pad at the end of each axis), as the ONNX reference implementation and
// the backend test do; the indices keep addressing the inferred shape.
void lower_max_unpool(const NodeCtx& c) {
  const Shape xs = c.desc(0).shape;
  if (xs.size() < 3) c.invalid("X must have a batch, a channel and spatial axes");
  if (c.desc(1).shape != xs) c.invalid("I must have X's shape");
  const size_t n = xs.size() - 2;
  std::vector<int64_t> kernel = c.attr_ints("kernel_shape"), strides = c.attr_ints("strides"),
                       pads = c.attr_ints("pads");
  if (kernel.size() != n) c.invalid("kernel_shape must have one value per spatial axis");
  if (strides.empty()) strides.assign(n, 1);
  if (pads.empty()) pads.assign(2 * n, 0);
  if (strides.size() != n || pads.size() != 2 * n) c.invalid("strides and pads must match the spatial axes");
  Shape inferred{xs[0], xs[1]};
  for (size_t i = 0; i < n; ++i) {
    if (kernel[i] < 1 || strides[i] < 1 || pads[i] < 0 || pads[i + n] < 0 || kernel[i] > int64_t(kMaxDimension) ||
        strides[i] > int64_t(kMaxDimension) || pads[i] > int64_t(kMaxDimension) || pads[i + n] > int64_t(kMaxDimension))
      c.invalid("kernel_shape and strides must be positive and pads not negative");
    int64_t d = (int64_t(xs[i + 2]) - 1) * strides[i] + kernel[i] - pads[i] - pads[i + n];
    if (d < 1 || d > int64_t(kMaxDimension)) c.invalid("the output size " + std::to_string(d) + " is out of range");
    inferred.push_back(uint32_t(d));
  }
  const uint64_t total = count_of(inferred);
  if (total > kMaxDimension) c.unsupported("an output of more than 2^31 - 1 elements (scattered as one axis)");
  const DataType t = c.type(0);
  OperandId zeros = c.add(OpKind::kExpand, {c.scalar(t, 0, 1)}, ExpandAttrs{{uint32_t(total)}});
  const uint32_t count = uint32_t(count_of(xs));
  OperandId values = c.reshape(c.operand(0), {count}), indices = c.reshape(c.operand(1), {count});
  OperandId y = c.reshape(c.add(OpKind::kScatterElements, {zeros, indices, values}, ScatterAttrs{0}), inferred);
  if (c.has_input(2)) {
    std::vector<int64_t> os = c.const_ints(2, "output_shape");
    if (os.size() != xs.size()) c.invalid("output_shape must have X's rank");
    PadAttrs p;
    p.beginning_padding.assign(os.size(), 0);
    for (size_t i = 0; i < os.size(); ++i) {
      if (os[i] < int64_t(inferred[i]) || os[i] > int64_t(kMaxDimension))
        c.invalid("output_shape must be at least the shape the attributes give in every axis");
      p.ending_padding.push_back(uint32_t(os[i] - inferred[i]));
    }
    if (Shape(os.begin(), os.end()) != inferred) y = c.add(OpKind::kPad, {y}, p);
  }
  c.set_out(0, y);
}

}  // namespace

Lowerings pool_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"MaxPool", lower_max_pool},
      {"AveragePool", lower_average_pool},
      {"LpPool", lower_lp_pool},
      {"GlobalAveragePool", lower_global_average_pool},
      {"GlobalMaxPool", lower_global_max_pool},
      {"GlobalLpPool", lower_global_lp_pool},
      {"MaxUnpool", lower_max_unpool},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
