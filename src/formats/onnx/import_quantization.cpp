// ONNX import: QuantizeLinear and DequantizeLinear onto WebNN's (src/ops/quantization.cpp), and
// the quantized operators WebNN has no single op for (DynamicQuantizeLinear, QLinearMatMul,
// QLinearConv, MatMulInteger, ConvInteger) as compositions. docs/onnx.md, "Compositions where
// WebNN has no single op", says what each computes, when it is exact, and what it costs.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

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

// ---- QuantizeLinear and DequantizeLinear ----

// A per-tensor or per-axis scale/zero point reshaped to the input's rank (blockwise broadcast).
OperandId quant_param(const NodeCtx& c, OperandId p, size_t r, uint32_t axis) {
  Shape ps = c.desc_of(p).shape;
  Shape target(r, 1);
  if (ps.size() == 1 && ps[0] > 1)
    target[axis] = ps[0];
  else if (ps.size() > 1)
    c.unsupported("blocked quantization parameters");
  return c.reshape(p, target);
}

void lower_quantize(const NodeCtx& c, bool quantize) {
  size_t r = c.rank(0);
  // The axis matters only for per-axis (1-D) parameters.
  bool per_axis = c.rank(1) == 1 && c.desc(1).shape[0] > 1;
  uint32_t axis = per_axis ? c.axis(c.attr_i("axis", 1), r) : 0;
  if (c.has_attr("block_size") && c.attr_i("block_size", 0) != 0) c.unsupported("blocked quantization");
  OperandId x = c.operand(0);
  if (r == 0) x = c.reshape(x, {1});
  size_t rr = std::max<size_t>(r, 1);
  OperandId scale = quant_param(c, c.operand(1), rr, axis);
  OperandId zp;
  if (c.has_input(2)) {
    zp = quant_param(c, c.operand(2), rr, axis);
  } else {
    DataType zt = quantize ? DataType::kUint8 : c.desc_of(x).data_type;
    OperandDescriptor d{zt, c.desc_of(scale).shape};
    zp = c.int_table(d, "the zero point", [](uint64_t) { return 0; });
  }
  OperandId y = c.add(quantize ? OpKind::kQuantizeLinear : OpKind::kDequantizeLinear, {x, scale, zp});
  if (r == 0) y = c.reshape(y, {});
  c.set_out(0, y);
}

void lower_quantize_linear(const NodeCtx& c) { lower_quantize(c, true); }

void lower_dequantize_linear(const NodeCtx& c) { lower_quantize(c, false); }

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

}  // namespace

Lowerings quantization_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"QuantizeLinear", lower_quantize_linear},
      {"DequantizeLinear", lower_dequantize_linear},
      {"DynamicQuantizeLinear", lower_dynamic_quantize_linear},
      {"QLinearMatMul", lower_qlinear_matmul},
      {"QLinearConv", lower_qlinear_conv},
      {"MatMulInteger", lower_matmul_integer},
      {"ConvInteger", lower_conv_integer},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
