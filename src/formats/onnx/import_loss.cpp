// ONNX import: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (inference: the loss value of
// given scores) as gathers and reductions; targets known at import are checked.
#include <optional>
#include <string>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

// NegativeLogLikelihoodLoss of log-probabilities x [N, C, d...] at targets t [N, d...]: gathered
// along the class axis, weighted, the ignored targets zeroed, reduced as `reduction` says.
OperandId nll(const NodeCtx& c, OperandId x, OperandId t, std::optional<OperandId> weight,
              const std::string& reduction) {
  const Shape xs = c.desc_of(x).shape;
  const Shape ts = c.desc_of(t).shape;
  DataType ft = c.desc_of(x).data_type, it = c.desc_of(t).data_type;
  if (xs.size() < 2 || ts.size() + 1 != xs.size()) c.invalid("the target must have the input's rank minus 1");
  std::optional<OperandId> mask;
  OperandId safe = t;
  if (c.has_attr("ignore_index")) {
    mask = c.add(OpKind::kNotEqual, {t, c.scalar(it, double(c.attr_i("ignore_index", 0)))});
    // An ignored target may be out of range: it is read as class 0, then zeroed.
    safe = c.add(OpKind::kWhere, {*mask, t, c.scalar(it, 0)});
  }
  Shape idx_shape = ts;
  idx_shape.insert(idx_shape.begin() + 1, 1);
  OperandId picked = c.add(OpKind::kGatherElements, {x, c.reshape(safe, idx_shape)}, GatherAttrs{1});
  OperandId loss = c.add(OpKind::kNeg, {c.reshape(picked, ts)});
  std::optional<OperandId> w;
  if (weight) w = c.add(OpKind::kGather, {*weight, safe}, GatherAttrs{0});
  if (mask) {
    OperandId m = c.cast(*mask, ft);
    w = w ? c.add(OpKind::kMul, {*w, m}) : m;
  }
  if (w) loss = c.add(OpKind::kMul, {loss, *w});
  if (reduction == "none") return loss;
  if (reduction == "sum") return c.add(OpKind::kReduceSum, {loss}, ReduceAttrs{});
  if (reduction != "mean") c.invalid("unknown reduction \"" + reduction + "\"");
  if (!w) return c.add(OpKind::kReduceMean, {loss}, ReduceAttrs{});
  return c.add(OpKind::kDiv,
               {c.add(OpKind::kReduceSum, {loss}, ReduceAttrs{}), c.add(OpKind::kReduceSum, {*w}, ReduceAttrs{})});
}

// Targets known at import must be classes in [0, C) or ignore_index: ONNX calls any other target
// an error, which the gather of the lowering would clamp instead.
void check_const_targets(const NodeCtx& c) {
  if (!c.is_const(1) || c.rank(0) < 2) return;
  const Value& t = c.in(1);
  if (is_floating_point(t.desc.data_type)) c.invalid("the target must be integers, it is " + t.desc.to_string());
  const int64_t classes = c.desc(0).shape[1];
  const bool has_ignore = c.has_attr("ignore_index");
  const int64_t ignore = c.attr_i("ignore_index", 0);
  const uint64_t n = count_of(t.desc.shape);
  for (uint64_t e = 0; e < n; ++e) {
    const int64_t v = host_int64_at(t.desc, *t.data, e);
    if ((!has_ignore || v != ignore) && (v < 0 || v >= classes))
      c.invalid("target " + std::to_string(v) + " (element " + std::to_string(e) + ") is not a class in [0, " +
                std::to_string(classes) + ")" + (has_ignore ? " nor ignore_index " + std::to_string(ignore) : ""));
  }
}

void lower_nll_loss(const NodeCtx& c) {
  check_const_targets(c);
  std::optional<OperandId> weight;
  if (c.has_input(2)) weight = c.operand(2);
  c.set_out(0, nll(c, c.operand(0), c.operand(1), weight, c.attr_s("reduction", "mean")));
}

void lower_softmax_cross_entropy_loss(const NodeCtx& c) {
  check_const_targets(c);
  OperandId x = c.operand(0);
  ReduceAttrs ra;
  ra.axes = std::vector<uint32_t>{1};
  ra.keep_dimensions = true;
  OperandId shifted = c.add(OpKind::kSub, {x, c.add(OpKind::kReduceMax, {x}, ra)});
  OperandId lse = c.add(OpKind::kLog, {c.add(OpKind::kReduceSum, {c.add(OpKind::kExp, {shifted})}, ra)});
  OperandId log_prob = c.add(OpKind::kSub, {shifted, lse});
  std::optional<OperandId> weight;
  if (c.has_input(2)) weight = c.operand(2);
  c.set_out(0, nll(c, log_prob, c.operand(1), weight, c.attr_s("reduction", "mean")));
  c.set_out(1, log_prob);
}

}  // namespace

Lowerings loss_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"NegativeLogLikelihoodLoss", lower_nll_loss},
      {"SoftmaxCrossEntropyLoss", lower_softmax_cross_entropy_loss},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
