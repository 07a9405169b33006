// ONNX import: the normalizations and the softmax family onto WebNN's (src/ops/normalization.cpp):
// BatchNormalization, InstanceNormalization, LayerNormalization (with its Mean and InvStdDev), LRN
// and MeanVarianceNormalization, Softmax, LogSoftmax and Hardmax (2-D before opset 13).
#include <algorithm>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

void lower_batch_norm(const NodeCtx& c) {
  if (c.attr_i("training_mode", 0) != 0) c.unsupported("training mode is outside the WebNN specification");
  for (size_t i = 1; i < c.output_count(); ++i)
    if (c.wants_output(i)) c.unsupported("the training outputs (running mean and variance) are not supported");
  if (c.opset < 9 && c.attr_i("spatial", 1) == 0) c.unsupported("spatial = 0 is not supported");
  BatchNormalizationAttrs a;
  a.scale = OperandRef{c.operand(1)};
  a.bias = OperandRef{c.operand(2)};
  a.epsilon = c.attr_f("epsilon", 1e-5f);
  a.axis = 1;
  c.set_out(0, c.add(OpKind::kBatchNormalization, {c.operand(0), c.operand(3), c.operand(4)}, a));
}

void lower_instance_norm(const NodeCtx& c) {
  // WebNN's instanceNormalization takes 4-D inputs; the statistics are over every spatial axis,
  // so N x C x D1 x ... x Dn is normalized as N x C x (D1 ... Dn-1) x Dn (and N x C x D1 x 1).
  size_t r = c.rank(0);
  if (r < 3) c.invalid("the input must have a batch, a channel and a spatial axis, rank " + std::to_string(r));
  OperandId x = c.operand(0);
  Shape s = c.desc_of(x).shape;
  if (r == 3) x = c.reshape(x, {s[0], s[1], s[2], 1});
  if (r > 4) {
    uint32_t inner = 1;  // the element count is a valid tensor's, so the product fits
    for (size_t i = 2; i + 1 < r; ++i) inner *= s[i];
    x = c.reshape(x, {s[0], s[1], inner, s[r - 1]});
  }
  InstanceNormalizationAttrs a;
  a.scale = OperandRef{c.operand(1)};
  a.bias = OperandRef{c.operand(2)};
  a.epsilon = c.attr_f("epsilon", 1e-5f);
  OperandId y = c.add(OpKind::kInstanceNormalization, {x}, a);
  c.set_out(0, c.reshape(y, s));
}

void lower_layer_norm(const NodeCtx& c) {
  size_t r = c.rank(0);
  uint32_t axis = c.axis(c.attr_i("axis", -1), r);
  LayerNormalizationAttrs a;
  std::vector<uint32_t> axes;
  for (uint32_t i = axis; i < r; ++i) axes.push_back(i);
  a.axes = axes;
  a.epsilon = c.attr_f("epsilon", 1e-5f);
  a.scale = OperandRef{c.operand(1)};
  if (c.has_input(2)) a.bias = OperandRef{c.operand(2)};
  c.set_out(0, c.add(OpKind::kLayerNormalization, {c.operand(0)}, a));
  if (c.wants_output(1) || c.wants_output(2)) {
    // Mean and InvStdDev, computed in float32 (stash_type 1).
    if (c.type(0) != DataType::kFloat32 || c.attr_i("stash_type", 1) != 1)
      c.unsupported("the Mean and InvStdDev outputs of a tensor other than float32");
    OperandId x = c.operand(0);
    ReduceAttrs ra;
    ra.axes = axes;
    ra.keep_dimensions = true;
    OperandId mean = c.add(OpKind::kReduceMean, {x}, ra);
    OperandId d = c.add(OpKind::kSub, {x, mean});
    OperandId var = c.add(OpKind::kReduceMean, {c.add(OpKind::kMul, {d, d})}, ra);
    OperandId eps = c.scalar(DataType::kFloat32, a.epsilon);
    c.set_out(1, mean);
    c.set_out(2, c.add(OpKind::kReciprocal, {c.add(OpKind::kSqrt, {c.add(OpKind::kAdd, {var, eps})})}));
  }
}

void lower_lrn(const NodeCtx& c) {
  // y = x / (bias + alpha / size * sum over a window of channels of x^2) ^ beta, the window sum
  // as an average pool over channels (padded with zeros, counted: pad first).
  if (c.rank(0) != 4) c.unsupported("LRN on a rank other than 4");
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  Shape s = c.desc_of(x).shape;
  int64_t size = c.attr_i("size", 0);
  if (size < 1) c.invalid("size must be positive");
  double alpha = c.attr_f("alpha", 1e-4f), beta = c.attr_f("beta", 0.75f), bias = c.attr_f("bias", 1.0f);
  uint32_t lo = uint32_t((size - 1) / 2), hi = uint32_t(size - 1 - (size - 1) / 2);
  OperandId sq = c.add(OpKind::kMul, {x, x});
  // [N, C, H, W] -> [N, 1, C, H*W]: a window of `size` along the height.
  OperandId v = c.reshape(sq, {s[0], 1, s[1], s[2] * s[3]});
  PadAttrs p;
  p.beginning_padding = {0, 0, lo, 0};
  p.ending_padding = {0, 0, hi, 0};
  v = c.add(OpKind::kPad, {v}, p);
  Pool2dAttrs pa;
  pa.window_dimensions = std::vector<uint32_t>{uint32_t(size), 1};
  v = c.add(OpKind::kAveragePool2d, {v}, pa);  // the mean of `size` squares
  v = c.reshape(v, s);
  OperandId d = c.add(OpKind::kAdd, {c.add(OpKind::kMul, {v, c.scalar(t, alpha)}), c.scalar(t, bias)});
  d = c.add(OpKind::kPow, {d, c.scalar(t, beta)});
  c.set_out(0, c.add(OpKind::kDiv, {x, d}));
}

// MeanVarianceNormalization, as ONNX's function defines it: (x - E[x]) / (sqrt(E[x^2] - E[x]^2)
// + 1e-9) over `axes`.
void lower_mvn(const NodeCtx& c) {
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  auto raw = c.attr_ints("axes");
  if (!c.has_attr("axes")) raw = {0, 2, 3};
  ReduceAttrs ra;
  auto axes = norm_axes(c, raw, c.rank(0));
  std::sort(axes.begin(), axes.end());
  ra.axes = axes;
  ra.keep_dimensions = true;
  OperandId mean = c.add(OpKind::kReduceMean, {x}, ra);
  OperandId mean_sq = c.add(OpKind::kReduceMean, {c.add(OpKind::kMul, {x, x})}, ra);
  OperandId var = c.add(OpKind::kSub, {mean_sq, c.add(OpKind::kMul, {mean, mean})});
  OperandId std_dev = c.add(OpKind::kAdd, {c.add(OpKind::kSqrt, {var}), c.scalar(t, 1e-9)});
  c.set_out(0, c.add(OpKind::kDiv, {c.add(OpKind::kSub, {x, mean}), std_dev}));
}

// ---- Softmax ----

// The operand softmax-like ops work on, and its axis: opset < 13 flattens the input to 2-D at
// `axis` (default 1), later opsets take the input as it is (axis default -1).
struct SoftmaxOperand {
  OperandId v;
  uint32_t axis;
};
SoftmaxOperand softmax_operand(const NodeCtx& c, OperandId x) {
  const Shape& s = c.desc_of(x).shape;
  uint32_t axis = c.axis(c.attr_i("axis", c.opset < 13 ? 1 : -1), s.size());
  if (c.opset >= 13) return {x, axis};
  uint32_t rows = 1, cols = 1;
  for (size_t i = 0; i < s.size(); ++i) (i < axis ? rows : cols) *= s[i];
  return {c.reshape(x, {rows, cols}), 1};
}

void lower_softmax_family(const NodeCtx& c, bool log) {
  OperandId x = c.operand(0);
  const Shape s = c.desc_of(x).shape;
  const auto [v, axis] = softmax_operand(c, x);
  OperandId y;
  if (!log) {
    y = c.add(OpKind::kSoftmax, {v}, SoftmaxAttrs{axis});
  } else {
    ReduceAttrs ra;
    ra.axes = std::vector<uint32_t>{axis};
    ra.keep_dimensions = true;
    OperandId shifted = c.add(OpKind::kSub, {v, c.add(OpKind::kReduceMax, {v}, ra)});
    OperandId lse = c.add(OpKind::kLog, {c.add(OpKind::kReduceSum, {c.add(OpKind::kExp, {shifted})}, ra)});
    y = c.add(OpKind::kSub, {shifted, lse});
  }
  c.set_out(0, c.reshape(y, s));
}

void lower_softmax(const NodeCtx& c) { lower_softmax_family(c, false); }

// Hardmax: 1 where argMax along the axis points, else 0 (opset < 13: the input flattened to 2-D
// at the axis). Equal values: ONNX takes the first; WebNN leaves argMax's choice implementation
// dependent (both backends here take the first).
void lower_hardmax(const NodeCtx& c) {
  OperandId x = c.operand(0);
  const Shape s = c.desc_of(x).shape;
  const auto [v, axis] = softmax_operand(c, x);
  const Shape vs = c.desc_of(v).shape;
  ArgMinMaxAttrs a;
  a.axis = axis;
  a.keep_dimensions = true;
  a.output_data_type = DataType::kInt32;
  OperandId am = c.add(OpKind::kArgMax, {v}, a);
  OperandId positions = c.iota(DataType::kInt32, vs.size(), axis, vs[axis], "the positions along the axis");
  OperandId hot = c.cast(c.add(OpKind::kEqual, {positions, am}), c.desc_of(x).data_type);
  // The comparison broadcasts to the input's shape only along the axis: expand to the full shape.
  if (c.desc_of(hot).shape != vs) hot = c.add(OpKind::kExpand, {hot}, ExpandAttrs{vs});
  c.set_out(0, c.reshape(hot, s));
}

void lower_log_softmax(const NodeCtx& c) { lower_softmax_family(c, true); }

}  // namespace

Lowerings normalization_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"BatchNormalization", lower_batch_norm}, {"InstanceNormalization", lower_instance_norm},
      {"LayerNormalization", lower_layer_norm}, {"LRN", lower_lrn},
      {"MeanVarianceNormalization", lower_mvn}, {"Softmax", lower_softmax},
      {"LogSoftmax", lower_log_softmax},        {"Hardmax", lower_hardmax},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
