// ONNX import: comparisons, logical operators and Where onto WebNN's (src/ops/logical.cpp), which
// compute uint8 0/1 where ONNX has bool.
#include "formats/onnx/import_lowerings.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::formats::onnx_import {

namespace {

template <OpKind K>
void compare(const NodeCtx& c) {
  constexpr bool kFolds = K == OpKind::kEqual || K == OpKind::kGreater || K == OpKind::kLesser;
  if (kFolds && fold_binary(c, K, true)) return;
  c.set_out(0, c.add(K, {c.operand(0), c.operand(1)}), true);
}

template <OpKind K>
void logical(const NodeCtx& c) {
  std::vector<OperandId> ins;
  for (size_t i = 0; i < c.input_count(); ++i) ins.push_back(c.operand(i));
  c.set_out(0, c.add(K, ins), true);
}

void lower_not(const NodeCtx& c) {
  const OperandDescriptor out{DataType::kUint8, c.desc(0).shape};
  if (foldable(c) && c.fold_fits(out) &&
      fold_out(c, 0, out, OpKind::kLogicalNot, {host_tensor(c.in(0))}, NoAttrs{}, true))
    return;
  c.set_out(0, c.add(OpKind::kLogicalNot, {c.operand(0)}), true);
}

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

}  // namespace

Lowerings logical_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"Equal", compare<OpKind::kEqual>},
      {"Greater", compare<OpKind::kGreater>},
      {"GreaterOrEqual", compare<OpKind::kGreaterOrEqual>},
      {"Less", compare<OpKind::kLesser>},
      {"LessOrEqual", compare<OpKind::kLesserOrEqual>},
      {"And", logical<OpKind::kLogicalAnd>},
      {"Or", logical<OpKind::kLogicalOr>},
      {"Xor", logical<OpKind::kLogicalXor>},
      {"Not", lower_not},
      {"IsNaN", logical<OpKind::kIsNaN>},
      {"IsInf", lower_isinf},
      {"Where", lower_where},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
