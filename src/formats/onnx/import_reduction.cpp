// ONNX import: the reductions, ArgMax/ArgMin and CumSum onto WebNN's (src/ops/reduction.cpp), and
// TopK as rounds of reductions (docs/onnx.md, "TopK").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

void lower_cumsum(const NodeCtx& c) {
  CumulativeSumAttrs a;
  a.axis = c.axis(c.const_ints(1, "axis").at(0), c.rank(0));
  a.exclusive = c.attr_i("exclusive", 0) != 0;
  a.reversed = c.attr_i("reverse", 0) != 0;
  c.set_out(0, c.add(OpKind::kCumulativeSum, {c.operand(0)}, a));
}

// ---- TopK ----

// TopK's rounds each add about a dozen operations: a bound on the graph's size.
constexpr int64_t kMaxTopK = 1024;

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

}  // namespace

void lower_reduce(const NodeCtx& c, OpKind kind) {
  size_t r = c.rank(0);
  // Axes moved from an attribute to an input: ReduceSum at opset 13, the others at 18.
  bool axes_input = c.op_type() == "ReduceSum" ? c.opset >= 13 : c.opset >= 18;
  std::vector<int64_t> axes;
  if (axes_input) {
    if (c.has_input(1)) axes = c.const_ints(1, "axes");
  } else {
    axes = c.attr_ints("axes");
  }
  ReduceAttrs a;
  a.keep_dimensions = c.attr_i("keepdims", 1) != 0;
  if (axes.empty()) {
    if (c.attr_i("noop_with_empty_axes", 0) != 0) return c.set_out(0, c.add(OpKind::kIdentity, {c.operand(0)}));
  } else {
    auto n = norm_axes(c, axes, r);
    std::sort(n.begin(), n.end());
    a.axes = n;
  }
  c.set_out(0, c.add(kind, {c.operand(0)}, a));
}

void lower_arg_reduce(const NodeCtx& c, OpKind kind) {
  ArgMinMaxAttrs a;
  a.axis = c.axis(c.attr_i("axis", 0), c.rank(0));
  a.keep_dimensions = c.attr_i("keepdims", 1) != 0;
  a.output_data_type = DataType::kInt64;
  if (c.attr_i("select_last_index", 0) == 0) return c.set_out(0, c.add(kind, {c.operand(0)}, a));
  // The last index of the extreme value: the first index (the rule select_last_index = 0 relies
  // on too) along the reversed axis, counted from the end: n - 1 - index.
  OperandId reversed = c.add(OpKind::kReverse, {c.operand(0)}, ReverseAttrs{std::vector<uint32_t>{a.axis}});
  const double last = double(c.desc(0).shape[a.axis]) - 1;
  c.set_out(0, c.add(OpKind::kSub, {c.scalar(DataType::kInt64, last), c.add(kind, {reversed}, a)}));
}

Lowerings reduction_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"CumSum", lower_cumsum},
      {"TopK", lower_top_k},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
