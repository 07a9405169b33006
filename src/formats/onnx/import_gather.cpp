// ONNX import: Gather, GatherElements, GatherND (batch_dims too), the scatters (with reductions
// for indices known at import) and OneHot onto WebNN's gather and scatter operations
// (src/ops/gather.cpp); indices known at import are checked where ONNX calls an out-of-range
// index an error.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

// An ONNX index (negative counts from the end) checked against a dimension of `size`.
uint64_t checked_index(const NodeCtx& c, int64_t i, uint32_t size) {
  if (i < -int64_t(size) || i >= int64_t(size))
    c.invalid("index " + std::to_string(i) + " is out of range for a dimension of " + std::to_string(size));
  return uint64_t(i < 0 ? i + size : i);
}

void lower_gather(const NodeCtx& c) {
  size_t r = c.rank(0);
  uint32_t axis = c.axis(c.attr_i("axis", 0), r);
  const Value& x = c.in(0);
  if (foldable(c)) {
    auto idx = c.const_ints(1, "indices");
    const Shape& is = c.desc(1).shape;
    uint32_t dim = x.desc.shape[axis];
    for (auto& i : idx) i = int64_t(checked_index(c, i, dim));
    Shape out(x.desc.shape.begin(), x.desc.shape.begin() + axis);
    out.insert(out.end(), is.begin(), is.end());
    out.insert(out.end(), x.desc.shape.begin() + axis + 1, x.desc.shape.end());
    const OperandDescriptor od{x.desc.data_type, out};
    // The indices checked and counted from the start, as int64 (an index type gather takes).
    if (count_of(out) > 0 && c.fold_fits(od)) {
      const OperandDescriptor indices{DataType::kInt64, is};
      if (fold_out(c, 0, od, OpKind::kGather, {host_tensor(x), {indices, bytes_of_int64s(indices.data_type, idx)}},
                   GatherAttrs{axis}, x.is_bool))
        return;
    }
  }
  check_const_indices(c, 1, [&](uint64_t) { return x.desc.shape[axis]; });
  c.set_out(0, c.add(OpKind::kGather, {c.operand(0), c.operand(1)}, GatherAttrs{axis}), x.is_bool);
}

void lower_gather_elements(const NodeCtx& c) {
  uint32_t axis = c.axis(c.attr_i("axis", 0), c.rank(0));
  check_const_indices(c, 1, [&](uint64_t) { return c.desc(0).shape[axis]; });
  c.set_out(0, c.add(OpKind::kGatherElements, {c.operand(0), c.operand(1)}, GatherAttrs{axis}), c.in(0).is_bool);
}

// Scatter with a reduction (add, mul, max, min), which WebNN's scatters lack (they replace), for
// indices known at import: every update element's flat target in data is computed on the host,
// and the updates are applied in rounds whose targets are distinct (an element that several
// updates hit is reduced once per round, in the updates' order): per round, gather the current
// values at its targets, combine them with its updates, and scatterElements them back into the
// flattened data. Cost: as many rounds as the most-hit element has updates, each two gathers, the
// reduction and one scatterElements of that round's size.
void scatter_reduced(const NodeCtx& c, const std::string& reduction, const std::vector<int64_t>& targets) {
  static const std::map<std::string, OpKind> kinds = {
      {"add", OpKind::kAdd}, {"mul", OpKind::kMul}, {"max", OpKind::kMax}, {"min", OpKind::kMin}};
  auto kind = kinds.find(reduction);
  if (kind == kinds.end()) c.invalid("unknown reduction \"" + reduction + "\"");
  const Shape data_shape = c.desc(0).shape;
  const uint64_t n = count_of(data_shape);
  OperandId data = c.reshape(c.operand(0), {uint32_t(n)});
  const OperandId updates = c.reshape(c.operand(2), {uint32_t(targets.size())});
  // Round r takes, for each target, its r-th update.
  std::map<int64_t, uint32_t> hits;
  std::vector<std::vector<int64_t>> round_targets, round_updates;
  for (size_t u = 0; u < targets.size(); ++u) {
    const uint32_t r = hits[targets[u]]++;
    if (r == round_targets.size()) {
      round_targets.emplace_back();
      round_updates.emplace_back();
    }
    round_targets[r].push_back(targets[u]);
    round_updates[r].push_back(int64_t(u));
  }
  for (size_t r = 0; r < round_targets.size(); ++r) {
    const uint32_t m = uint32_t(round_targets[r].size());
    const OperandId at = c.constant({DataType::kInt32, {m}}, bytes_of_int64s(DataType::kInt32, round_targets[r]));
    const OperandId from = c.constant({DataType::kInt32, {m}}, bytes_of_int64s(DataType::kInt32, round_updates[r]));
    const OperandId combined = c.add(kind->second, {c.add(OpKind::kGather, {data, at}, GatherAttrs{0}),
                                                    c.add(OpKind::kGather, {updates, from}, GatherAttrs{0})});
    data = c.add(OpKind::kScatterElements, {data, at, combined}, ScatterAttrs{0});
  }
  c.set_out(0, c.reshape(data, data_shape));
}

// A row-major index's position in `shape`.
std::vector<uint64_t> unravel(uint64_t flat, const Shape& shape) {
  std::vector<uint64_t> pos(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    pos[i] = flat % shape[i];
    flat /= shape[i];
  }
  return pos;
}

uint64_t ravel(const std::vector<uint64_t>& pos, const Shape& shape) {
  uint64_t flat = 0;
  for (size_t i = 0; i < shape.size(); ++i) flat = flat * shape[i] + pos[i];
  return flat;
}

void lower_scatter_elements(const NodeCtx& c) {
  std::string red = c.attr_s("reduction", "none");
  uint32_t axis = c.axis(c.attr_i("axis", 0), c.rank(0));
  if (red != "none") {
    if (c.rank(1) != c.rank(0) || c.desc(1).shape != c.desc(2).shape)
      c.invalid("indices and updates must have data's rank and one shape");
    const std::vector<int64_t> indices = c.const_ints(1, "indices (of a scatter with a reduction)");
    const Shape& is = c.desc(1).shape;
    const Shape& ds = c.desc(0).shape;
    for (size_t a = 0; a < is.size(); ++a)
      if (a != axis && is[a] > ds[a]) c.invalid("indices are larger than data outside the axis");
    c.reserve({DataType::kInt32, {uint32_t(std::max<size_t>(indices.size(), 1))}}, "the scatter's targets",
              24 * uint64_t(indices.size()));
    std::vector<int64_t> targets(indices.size());
    for (uint64_t u = 0; u < indices.size(); ++u) {
      std::vector<uint64_t> pos = unravel(u, is);
      pos[axis] = checked_index(c, indices[u], ds[axis]);
      targets[u] = int64_t(ravel(pos, ds));
    }
    return scatter_reduced(c, red, targets);
  }
  check_const_indices(c, 1, [&](uint64_t) { return c.desc(0).shape[axis]; });
  c.set_out(0, c.add(OpKind::kScatterElements, {c.operand(0), c.operand(1), c.operand(2)}, ScatterAttrs{axis}),
            c.in(0).is_bool);
}

void lower_scatter_nd(const NodeCtx& c) {
  std::string red = c.attr_s("reduction", "none");
  if (red != "none") {
    const Shape& ds = c.desc(0).shape;
    const Shape& is = c.desc(1).shape;
    if (is.empty() || is.back() == 0 || is.back() > ds.size()) c.invalid("indices' last dimension is out of range");
    const size_t k = is.back();
    const Shape lead(ds.begin(), ds.begin() + long(k));
    const uint64_t slice = count_of(Shape(ds.begin() + long(k), ds.end()));
    const std::vector<int64_t> indices = c.const_ints(1, "indices (of a scatter with a reduction)");
    const uint64_t tuples = indices.size() / k;
    if (count_of(c.desc(2).shape) != tuples * slice) c.invalid("updates do not match indices and data");
    c.reserve({DataType::kInt32, {uint32_t(std::max<uint64_t>(tuples * slice, 1))}}, "the scatter's targets",
              24 * tuples * slice);
    std::vector<int64_t> targets;
    targets.reserve(tuples * slice);
    for (uint64_t t = 0; t < tuples; ++t) {
      std::vector<uint64_t> pos(k);
      for (size_t j = 0; j < k; ++j) pos[j] = checked_index(c, indices[t * k + j], ds[j]);
      const uint64_t base = ravel(pos, lead) * slice;
      for (uint64_t q = 0; q < slice; ++q) targets.push_back(int64_t(base + q));
    }
    return scatter_reduced(c, red, targets);
  }
  const Shape& is = c.desc(1).shape;
  if (!is.empty() && is.back() > 0 && is.back() <= c.rank(0))
    check_const_indices(c, 1, [&](uint64_t e) { return c.desc(0).shape[e % is.back()]; });
  c.set_out(0, c.add(OpKind::kScatterNd, {c.operand(0), c.operand(1), c.operand(2)}), c.in(0).is_bool);
}

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

// OneHot: where(indices (negative ones counted from depth) == the positions along the new axis,
// on value, off value).
void lower_one_hot(const NodeCtx& c) {
  const std::vector<double> depths = c.const_doubles(1, "depth");
  if (depths.size() != 1) c.invalid("depth must hold one value, it holds " + std::to_string(depths.size()));
  // Checked as the number it is before it becomes a dimension: nothing of depth's size is made
  // before, and a depth beyond WebNN's largest dimension is never narrowed into one.
  const double raw = std::trunc(depths[0]);
  if (!(raw >= 1)) c.unsupported("a depth of " + std::to_string(depths[0]) + " (WebNN has no empty tensors)");
  if (raw > double(kMaxDimension))
    c.unsupported("a depth of " + std::to_string(raw) + ", over WebNN's largest dimension (" +
                  std::to_string(kMaxDimension) + ")");
  const uint32_t depth = uint32_t(raw);
  const Shape is = c.desc(0).shape;
  const size_t r = is.size() + 1;
  const uint32_t axis = c.axis(c.attr_i("axis", -1), r);
  if (c.desc(2).shape != Shape{2}) c.invalid("values must hold 2 elements");
  Shape out = is;
  out.insert(out.begin() + axis, depth);
  c.check_tensor({c.type(2), out}, "the output");
  const DataType it = c.type(0);
  // The positions 0 .. depth - 1 along the axis: the one table of depth's size, reserved first.
  const OperandId positions = c.iota(it, r, axis, depth, "the positions 0 to depth - 1");
  OperandId idx = c.operand(0);
  OperandId wrapped = c.add(OpKind::kAdd, {idx, c.scalar(it, double(depth))});
  idx = c.add(OpKind::kWhere, {c.add(OpKind::kLesser, {idx, c.scalar(it, 0)}), wrapped, idx});
  Shape us = is;
  us.insert(us.begin() + axis, 1);
  OperandId hot = c.add(OpKind::kEqual, {c.reshape(idx, us), positions});
  OperandId values = c.operand(2);
  Shape one(r, 1);
  OperandId off = c.reshape(c.add(OpKind::kSlice, {values}, SliceAttrs{{0}, {1}, std::nullopt}), one);
  OperandId on = c.reshape(c.add(OpKind::kSlice, {values}, SliceAttrs{{1}, {1}, std::nullopt}), one);
  c.set_out(0, c.add(OpKind::kWhere, {hot, on, off}));
}

}  // namespace

void check_const_indices(const NodeCtx& c, size_t i, const std::function<uint32_t(uint64_t)>& size_of) {
  if (!c.is_const(i)) return;
  const Value& v = c.in(i);
  if (is_floating_point(v.desc.data_type)) c.invalid("indices must be integers, they are " + v.desc.to_string());
  const uint64_t n = count_of(v.desc.shape);
  for (uint64_t e = 0; e < n; ++e) {
    const int64_t index = host_int64_at(v.desc, *v.data, e), size = size_of(e);
    if (index < -size || index >= size)
      c.invalid("index " + std::to_string(index) + " (element " + std::to_string(e) +
                " of the indices) is out of range for a dimension of " + std::to_string(size) +
                " (ONNX defines no result for it)");
  }
}

Lowerings gather_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"Gather", lower_gather},
      {"GatherElements", lower_gather_elements},
      {"GatherND", lower_gather_nd},
      {"Scatter", lower_scatter_elements},
      {"ScatterElements", lower_scatter_elements},
      {"ScatterND", lower_scatter_nd},
      {"OneHot", lower_one_hot},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
