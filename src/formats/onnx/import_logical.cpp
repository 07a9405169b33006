// ONNX import: comparisons, logical operators and Where onto WebNN's (src/ops/logical.cpp), which
// compute uint8 0/1 where ONNX has bool.
#include "formats/onnx/import_lowerings.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::formats::onnx_import {

namespace {

void lower_isinf(const NodeCtx& c) {
  bool neg = c.attr_i("detect_negative", 1) != 0, pos = c.attr_i("detect_positive", 1) != 0;
  OperandId x = c.operand(0);
  OperandId inf = c.add(OpKind::kIsInfinite, {x});
  if (neg && pos) return c.set_out(0, inf, true);
  if (!neg && !pos) {
    OperandId zero = c.add(OpKind::kMul, {inf, c.scalar(DataType::kUint8, 0)});
    return c.set_out(0, zero, true);
  }
  OperandId sign = c.add(pos ? OpKind::kGreater : OpKind::kLesser, {x, c.scalar(c.desc_of(x).data_type, 0)});
  c.set_out(0, c.add(OpKind::kLogicalAnd, {inf, sign}), true);
}

}  // namespace

void lower_compare(const NodeCtx& c, OpKind kind) {
  const bool folds = kind == OpKind::kEqual || kind == OpKind::kGreater || kind == OpKind::kLesser;
  if (folds && fold_binary(c, kind, true)) return;
  c.set_out(0, c.add(kind, {c.operand(0), c.operand(1)}), true);
}

void lower_logical(const NodeCtx& c, OpKind kind) {
  if (kind == OpKind::kLogicalNot) {  // Not of a small constant folds
    const OperandDescriptor out{DataType::kUint8, c.desc(0).shape};
    if (foldable(c) && c.fold_fits(out) &&
        fold_out(c, 0, out, OpKind::kLogicalNot, {host_tensor(c.in(0))}, NoAttrs{}, true))
      return;
  }
  std::vector<OperandId> ins;
  for (size_t i = 0; i < c.input_count(); ++i) ins.push_back(c.operand(i));
  c.set_out(0, c.add(kind, ins), true);
}

void lower_where(const NodeCtx& c) {
  if (foldable(c) && c.type(1) == c.type(2)) {
    const Value &cond = c.in(0), &x = c.in(1), &y = c.in(2);
    auto s1 = ops::broadcast_bidirectional(cond.desc.shape, x.desc.shape);
    auto shape = s1 ? ops::broadcast_bidirectional(*s1, y.desc.shape) : std::nullopt;
    if (shape && count_of(*shape) > 0) {
      const OperandDescriptor out{x.desc.data_type, *shape};
      if (c.fold_fits(out) && fold_out(c, 0, out, OpKind::kWhere, {host_tensor(cond), host_tensor(x), host_tensor(y)},
                                       NoAttrs{}, x.is_bool))
        return;
    }
  }
  c.set_out(0, c.add(OpKind::kWhere, {c.operand(0), c.operand(1), c.operand(2)}), c.in(1).is_bool);
}

Lowerings logical_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"IsInf", lower_isinf},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
