// ONNX import: compositions for the quantized operators (DynamicQuantizeLinear, QLinearMatMul,
// QLinearConv, MatMulInteger, ConvInteger) and for the index operators WebNN has no single op for
// (MaxUnpool, ReverseSequence, GatherND with batch_dims). docs/onnx.md, "Compositions where WebNN
// has no single op", says what each computes, when it is exact, and what it costs.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/import_internal.hpp"

namespace webnn::formats::onnx_import {

namespace {

// The saturation range of an 8-bit quantized type.
std::pair<double, double> range_of(const NodeCtx& c, DataType t) {
  if (t == DataType::kUint8) return {0, 255};
  if (t == DataType::kInt8) return {-128, 127};
  c.unsupported("quantized type " + std::string(onnx_type_name(onnx_type(t))) + " (8-bit types are supported)");
}

// Where a quantization parameter (a scale or zero point) of an operand of shape `xs` applies,
// reshaped so that it broadcasts against that operand: a single value (per tensor) applies
// everywhere; a 1-D one of `per_axis_size` values applies along `axis` of xs; any other shape is
// used as it is (ONNX's N-D per-row/per-column forms, which broadcast by numpy's rule).
OperandId quant_param_for(const NodeCtx& c, OperandId p, const Shape& xs, std::optional<size_t> axis,
                          const std::string& what) {
  const Shape ps = c.desc_of(p).shape;
  if (count_of(ps) == 1) return c.reshape(p, {});
  if (ps.size() == 1) {
    if (!axis || *axis >= xs.size() || ps[0] != xs[*axis])
      c.invalid(what + " has " + std::to_string(ps[0]) + " values, which match no axis it may apply to");
    Shape target(xs.size() - *axis, 1);
    target[0] = ps[0];
    return c.reshape(p, target);
  }
  if (ps.size() > xs.size()) c.invalid(what + " has a higher rank than the tensor it quantizes");
  return p;
}

// x − zero point in float32 (exact: both are 8-bit integers), or x in float32 when the zero point
// is absent. `zp_input` is the node's input index of the zero point.
OperandId dequantized(const NodeCtx& c, size_t x_input, size_t zp_input, std::optional<size_t> axis,
                      const std::string& what) {
  OperandId x = c.operand(x_input);
  DataType t = c.type(x_input);
  range_of(c, t);
  OperandId xf = c.cast(x, DataType::kFloat32);
  if (!c.has_input(zp_input)) return xf;
  if (c.type(zp_input) != t) c.invalid(what + "'s zero point and the tensor differ in type");
  OperandId zp = quant_param_for(c, c.operand(zp_input), c.desc_of(x).shape, axis, what + "'s zero point");
  return c.add(OpKind::kSub, {xf, c.cast(zp, DataType::kFloat32)});
}

// The axis of the rows of a matrix operand (its second-to-last axis), if it has one.
std::optional<size_t> rows_axis(const Shape& s) {
  if (s.size() < 2) return std::nullopt;
  return s.size() - 2;
}
std::optional<size_t> columns_axis(const Shape& s) {
  if (s.size() < 2) return std::nullopt;
  return s.size() - 1;
}

// saturate(roundEven(acc · multiplier) + zero point) in the zero point's type (uint8 when absent).
void requantize(const NodeCtx& c, OperandId acc, OperandId multiplier, size_t y_zp_input) {
  DataType yt = c.has_input(y_zp_input) ? c.type(y_zp_input) : DataType::kUint8;
  auto [lo, hi] = range_of(c, yt);
  OperandId y = c.add(OpKind::kRoundEven, {c.add(OpKind::kMul, {acc, multiplier})});
  if (c.has_input(y_zp_input)) {
    if (count_of(c.desc(y_zp_input).shape) != 1) c.unsupported("a per-axis output zero point");
    y = c.add(OpKind::kAdd, {y, c.cast(c.reshape(c.operand(y_zp_input), {}), DataType::kFloat32)});
  }
  y = c.add(OpKind::kClamp, {y}, ClampAttrs{lo, hi});
  c.set_out(0, c.cast(y, yt));
}

OperandId scalar_param(const NodeCtx& c, size_t i, const std::string& what) {
  if (count_of(c.desc(i).shape) != 1) c.unsupported(what + " with more than one value");
  if (c.type(i) != DataType::kFloat32) c.invalid(what + " must be float32");
  return c.reshape(c.operand(i), {});
}

}  // namespace

// ---- DynamicQuantizeLinear ----

// As ONNX's definition (and its reference implementation, for the all-zero input): the range
// [min(0, min x), max(0, max x)] maps onto [0, 255].
void lower_dynamic_quantize_linear(const NodeCtx& c) {
  if (c.type(0) != DataType::kFloat32) c.invalid("x must be float32");
  OperandId x = c.operand(0);
  if (c.rank(0) == 0) x = c.reshape(x, {1});
  const DataType f = DataType::kFloat32;
  OperandId lo = c.add(OpKind::kMin, {c.add(OpKind::kReduceMin, {x}, ReduceAttrs{}), c.scalar(f, 0)});
  OperandId hi = c.add(OpKind::kMax, {c.add(OpKind::kReduceMax, {x}, ReduceAttrs{}), c.scalar(f, 0)});
  OperandId range = c.add(OpKind::kSub, {hi, lo});
  // An all-zero input has no range: ONNX's reference then takes 1 for it (scale 1/255).
  OperandId empty = c.add(OpKind::kEqual, {range, c.scalar(f, 0)});
  range = c.add(OpKind::kWhere, {empty, c.scalar(f, 1), range});
  OperandId scale = c.add(OpKind::kDiv, {range, c.scalar(f, 255)});
  OperandId zp = c.add(OpKind::kNeg, {c.add(OpKind::kDiv, {lo, scale})});
  zp = c.add(OpKind::kRoundEven, {c.add(OpKind::kClamp, {zp}, ClampAttrs{0.0, 255.0})});
  OperandId y = c.add(OpKind::kAdd, {c.add(OpKind::kRoundEven, {c.add(OpKind::kDiv, {x, scale})}), zp});
  y = c.cast(c.add(OpKind::kClamp, {y}, ClampAttrs{0.0, 255.0}), DataType::kUint8);
  if (c.rank(0) == 0) y = c.reshape(y, {});
  c.set_out(0, y);
  if (c.wants_output(1)) c.set_out(1, scale);
  if (c.wants_output(2)) c.set_out(2, c.cast(zp, DataType::kUint8));
}

// ---- Integer and quantized matrix multiplication and convolution ----

// Inputs: A, B, a_zero_point, b_zero_point. The product of the zero-point-free operands is
// computed in float32 and cast to int32.
void lower_matmul_integer(const NodeCtx& c) {
  const Shape as = c.desc(0).shape, bs = c.desc(1).shape;
  OperandId a = dequantized(c, 0, 2, rows_axis(as), "A");
  OperandId b = dequantized(c, 1, 3, columns_axis(bs), "B");
  c.set_out(0, c.cast(matmul_of(c, a, b), DataType::kInt32));
}

// Inputs: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point.
void lower_qlinear_matmul(const NodeCtx& c) {
  const Shape as = c.desc(0).shape, bs = c.desc(3).shape;
  OperandId a = dequantized(c, 0, 2, rows_axis(as), "a");
  OperandId b = dequantized(c, 3, 5, columns_axis(bs), "b");
  OperandId acc = matmul_of(c, a, b);
  for (size_t i : {size_t{1}, size_t{4}, size_t{6}})
    if (c.type(i) != DataType::kFloat32) c.invalid("scales must be float32");
  OperandId a_scale = quant_param_for(c, c.operand(1), as, rows_axis(as), "a_scale");
  OperandId b_scale = quant_param_for(c, c.operand(4), bs, columns_axis(bs), "b_scale");
  // A per-row scale of a 2-D-or-more a is [.., M, 1]; with a 1-D b there is no column axis left
  // for it to broadcast against, so such a scale keeps its rows as the output's last axis.
  if (bs.size() == 1 && c.desc_of(a_scale).shape.size() >= 2) {
    Shape s = c.desc_of(a_scale).shape;
    s.pop_back();
    a_scale = c.reshape(a_scale, s);
  }
  if (as.size() == 1 && c.desc_of(b_scale).shape.size() >= 2) {
    Shape s = c.desc_of(b_scale).shape;
    s.erase(s.end() - 2);
    b_scale = c.reshape(b_scale, s);
  }
  OperandId multiplier = c.add(OpKind::kDiv, {c.add(OpKind::kMul, {a_scale, b_scale}), scalar_param(c, 6, "y_scale")});
  requantize(c, acc, multiplier, 7);
}

// Inputs: x, w, x_zero_point, w_zero_point. Conv's attributes, as Conv.
void lower_conv_integer(const NodeCtx& c) {
  if (c.has_input(2) && count_of(c.desc(2).shape) != 1) c.invalid("x_zero_point must be a single value");
  OperandId x = dequantized(c, 0, 2, std::nullopt, "x");
  OperandId w = dequantized(c, 1, 3, size_t{0}, "w");
  c.set_out(0, c.cast(conv_of(c, x, w, std::nullopt), DataType::kInt32));
}

// Inputs: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, B (int32,
// quantized with scale x_scale · w_scale and zero point 0).
void lower_qlinear_conv(const NodeCtx& c) {
  if (c.has_input(2) && count_of(c.desc(2).shape) != 1) c.invalid("x_zero_point must be a single value");
  OperandId x = dequantized(c, 0, 2, std::nullopt, "x");
  OperandId w = dequantized(c, 3, 5, size_t{0}, "w");
  std::optional<OperandId> bias;
  if (c.has_input(8)) {
    if (c.type(8) != DataType::kInt32) c.invalid("B must be int32");
    bias = c.cast(c.operand(8), DataType::kFloat32);
  }
  OperandId acc = conv_of(c, x, w, bias);
  // Per output channel w_scale [M] applies along the output's channel axis.
  const Shape ys = c.desc_of(acc).shape;
  if (c.type(4) != DataType::kFloat32) c.invalid("w_scale must be float32");
  OperandId w_scale = quant_param_for(c, c.operand(4), ys, size_t{1}, "w_scale");
  OperandId multiplier = c.add(
      OpKind::kDiv, {c.add(OpKind::kMul, {scalar_param(c, 1, "x_scale"), w_scale}), scalar_param(c, 6, "y_scale")});
  requantize(c, acc, multiplier, 7);
}

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

// ---- ReverseSequence ----

// y[.., t, ..] = x[.., idx, ..] along time_axis, idx = t < len ? len − 1 − t : t with len the
// batch entry's sequence length (clamped to [0, T]): gatherElements with int32 indices computed
// from a [T] iota and the lengths.
void lower_reverse_sequence(const NodeCtx& c) {
  const Shape xs = c.desc(0).shape;
  const size_t r = xs.size();
  if (r < 2) c.invalid("input must have at least 2 axes");
  uint32_t batch_axis = c.axis(c.attr_i("batch_axis", 1), r, "batch_axis");
  uint32_t time_axis = c.axis(c.attr_i("time_axis", 0), r, "time_axis");
  if (batch_axis > 1 || time_axis > 1 || batch_axis == time_axis)
    c.invalid("batch_axis and time_axis must be 0 and 1, or 1 and 0");
  if (c.desc(1).shape != Shape{xs[batch_axis]}) c.invalid("sequence_lens must have one value per batch entry");
  const uint32_t steps = xs[time_axis];
  if (c.is_const(1))
    for (int64_t len : c.const_ints(1, "sequence_lens"))
      if (len < 0 || len > int64_t(steps)) c.invalid("a sequence length outside [0, time steps]");
  Shape len_shape(r, 1);
  len_shape[batch_axis] = xs[batch_axis];
  const DataType i32 = DataType::kInt32;
  OperandId t = c.iota(i32, r, time_axis, steps, "the time steps");
  OperandId len = c.reshape(c.cast(c.operand(1), i32), len_shape);
  len = c.add(OpKind::kClamp, {len}, ClampAttrs{0.0, double(steps)});
  OperandId reversed = c.add(OpKind::kSub, {c.add(OpKind::kSub, {len, c.scalar(i32, 1, r)}), t});
  OperandId idx = c.add(OpKind::kWhere, {c.add(OpKind::kLesser, {t, len}), reversed, t});
  idx = c.add(OpKind::kExpand, {idx}, ExpandAttrs{xs});
  c.set_out(0, c.add(OpKind::kGatherElements, {c.operand(0), idx}, GatherAttrs{time_axis}), c.in(0).is_bool);
}

// ---- GatherND with batch_dims ----

// The batch axes are flattened into one, and each index tuple gets its batch's position as a
// leading coordinate: gatherND over [B, rest...] with (b, i...) tuples.
void lower_gather_nd(const NodeCtx& c) {
  const int64_t bd = c.attr_i("batch_dims", 0);
  const Shape ds = c.desc(0).shape, is = c.desc(1).shape;
  // Index tuples of the last axis' length, each component against its dimension after the batch's.
  if (bd >= 0 && !is.empty() && is.back() > 0 && size_t(bd) + is.back() <= ds.size())
    check_const_indices(c, 1, [&](uint64_t e) { return ds[size_t(bd) + e % is.back()]; });
  if (bd == 0) {
    c.set_out(0, c.add(OpKind::kGatherNd, {c.operand(0), c.operand(1)}), c.in(0).is_bool);
    return;
  }
  if (bd < 0 || size_t(bd) >= std::min(ds.size(), is.size())) c.invalid("batch_dims must be below both ranks");
  const size_t b = size_t(bd);
  for (size_t i = 0; i < b; ++i)
    if (ds[i] != is[i]) c.invalid("data and indices differ in a batch dimension");
  const uint32_t k = is.back();
  if (b + k > ds.size()) c.invalid("index tuples are longer than data's non-batch rank");
  const uint64_t batch = count_of(Shape(ds.begin(), ds.begin() + bd));
  if (batch > kMaxDimension) c.unsupported("more than 2^31 - 1 batch entries");
  Shape data_shape{uint32_t(batch)};
  data_shape.insert(data_shape.end(), ds.begin() + bd, ds.end());
  Shape idx_shape{uint32_t(batch)};
  idx_shape.insert(idx_shape.end(), is.begin() + bd, is.end());  // [B, M..., k]
  Shape coord_shape = idx_shape;
  coord_shape.back() = 1;
  const DataType it = c.type(1);
  OperandId coord = c.add(OpKind::kExpand, {c.iota(it, coord_shape.size(), 0, uint32_t(batch), "the batch positions")},
                          ExpandAttrs{coord_shape});
  OperandId idx =
      c.add(OpKind::kConcat, {coord, c.reshape(c.operand(1), idx_shape)}, ConcatAttrs{uint32_t(idx_shape.size() - 1)});
  OperandId y = c.add(OpKind::kGatherNd, {c.reshape(c.operand(0), data_shape), idx});
  Shape out(is.begin(), is.end() - 1);
  out.insert(out.end(), ds.begin() + bd + k, ds.end());
  c.set_out(0, c.reshape(y, out), c.in(0).is_bool);
}

}  // namespace webnn::formats::onnx_import
