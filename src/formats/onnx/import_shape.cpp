// ONNX import: shape and data movement onto WebNN's (src/ops/shape.cpp): Shape and Size (known at
// import), Reshape, Flatten, Squeeze, Unsqueeze (no operation of their own where nothing moves),
// Transpose, Concat, Split, Slice (negative steps through reverse), Pad, Expand, Tile,
// DepthToSpace, SpaceToDepth, Trilu, ReverseSequence and NonZero (of a value known at import);
// small constants fold (import_fold.cpp).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::formats::onnx_import {

namespace {

std::vector<uint32_t> to_u32(const NodeCtx& c, const std::vector<int64_t>& v, const std::string& what) {
  std::vector<uint32_t> out;
  for (int64_t x : v) {
    if (x < 0 || x > int64_t(kMaxDimension)) c.unsupported(what + " value " + std::to_string(x) + " is out of range");
    out.push_back(uint32_t(x));
  }
  return out;
}

void lower_shape(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  int64_t r = int64_t(s.size());
  int64_t start = c.attr_i("start", 0), end = c.attr_i("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, 0, r);
  std::vector<int64_t> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back(s[size_t(i)]);
  c.set_const_out(0, {DataType::kInt64, {uint32_t(dims.size())}}, bytes_of_int64s(DataType::kInt64, dims));
}

void lower_size(const NodeCtx& c) {
  c.set_const_out(0, {DataType::kInt64, {}}, bytes_of_int64s(DataType::kInt64, {int64_t(count_of(c.desc(0).shape))}));
}

void lower_reshape(const NodeCtx& c) {
  std::vector<int64_t> shape = c.opset < 5 ? c.attr_ints("shape") : c.const_ints(1, "shape");
  const Shape& in = c.desc(0).shape;
  bool allow_zero = c.attr_i("allowzero", 0) != 0;
  Shape out;
  int64_t infer = -1;
  uint64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t d = shape[i];
    if (d == 0 && !allow_zero) {
      if (i >= in.size()) c.invalid("shape copies dimension " + std::to_string(i) + " the input lacks");
      d = in[i];
    }
    if (d == -1) {
      if (infer >= 0) c.invalid("more than one -1 in the shape");
      infer = int64_t(i);
      out.push_back(1);
      continue;
    }
    if (d <= 0) c.unsupported("shape value " + std::to_string(d) + " (WebNN has no empty tensors)");
    out.push_back(uint32_t(d));
    known *= uint64_t(d);
  }
  uint64_t total = count_of(in);
  if (infer >= 0) {
    if (known == 0 || total % known) c.invalid("the shape does not divide the input's element count");
    out[size_t(infer)] = uint32_t(total / known);
  }
  if (count_of(out) != total) c.invalid("the shape holds another element count than the input");
  reshaped(c, out);
}

void lower_flatten(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  int64_t r = int64_t(s.size());
  int64_t axis = c.attr_i("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) c.invalid("axis out of range");
  uint32_t rows = 1, cols = 1;
  for (int64_t i = 0; i < r; ++i) (i < axis ? rows : cols) *= s[size_t(i)];
  reshaped(c, {rows, cols});
}

std::vector<int64_t> axes_arg(const NodeCtx& c, int64_t input_from_opset) {
  if (c.opset >= input_from_opset) return c.has_input(1) ? c.const_ints(1, "axes") : std::vector<int64_t>{};
  return c.attr_ints("axes");
}

void lower_squeeze(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  auto axes = norm_axes(c, axes_arg(c, 13), s.size());
  Shape out;
  for (size_t i = 0; i < s.size(); ++i) {
    bool drop = axes.empty() ? s[i] == 1 : std::find(axes.begin(), axes.end(), i) != axes.end();
    if (drop && s[i] != 1)
      c.invalid("cannot squeeze dimension " + std::to_string(i) + " of size " + std::to_string(s[i]));
    if (!drop) out.push_back(s[i]);
  }
  reshaped(c, out);
}

void lower_unsqueeze(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  auto raw = axes_arg(c, 13);
  size_t r = s.size() + raw.size();
  auto axes = norm_axes(c, raw, r);
  Shape out;
  size_t j = 0;
  for (size_t i = 0; i < r; ++i) {
    if (std::find(axes.begin(), axes.end(), i) != axes.end())
      out.push_back(1);
    else
      out.push_back(s.at(j++));
  }
  reshaped(c, out);
}

void lower_transpose(const NodeCtx& c) {
  size_t r = c.rank(0);
  auto p = c.attr_ints("perm");
  std::vector<uint32_t> perm;
  if (p.empty())
    for (size_t i = r; i-- > 0;) perm.push_back(uint32_t(i));
  else
    perm = norm_axes(c, p, r);
  if (perm.size() != r) c.invalid("perm must have one value per axis");
  const Value& x = c.in(0);
  if (foldable(c) && c.fold_fits(x.desc)) {
    Shape out;
    for (uint32_t a : perm) out.push_back(x.desc.shape[a]);
    if (fold_out(c, 0, {x.desc.data_type, out}, OpKind::kTranspose, {host_tensor(x)}, TransposeAttrs{perm}, x.is_bool))
      return;
  }
  OperandId id = c.operand(0);
  c.set_out(0, c.add(OpKind::kTranspose, {id}, TransposeAttrs{perm}), x.is_bool);
}

// Concat of constants, folded when the result is small (its size is checked before it is
// allocated); false when the node becomes an operation instead.
bool fold_concat(const NodeCtx& c, uint32_t axis) {
  if (!foldable(c)) return false;
  const size_t r = c.rank(0);
  const Value& first = c.in(0);
  Shape out = first.desc.shape;
  uint64_t along = 0;
  for (size_t i = 0; i < c.input_count(); ++i) {
    const Shape& s = c.desc(i).shape;
    if (s.size() != r || c.type(i) != first.desc.data_type) c.invalid("inputs of different ranks or types");
    for (size_t d = 0; d < r; ++d)
      if (d != axis && s[d] != out[d]) c.invalid("inputs differ outside the axis");
    along += s[axis];
  }
  if (along == 0 || along > kMaxFoldElements) return false;
  out[axis] = uint32_t(along);
  if (!c.fold_fits({first.desc.data_type, out})) return false;
  // An input empty along the axis adds nothing (and is no WebNN operand).
  std::vector<HostTensor> parts;
  for (size_t i = 0; i < c.input_count(); ++i)
    if (c.desc(i).shape[axis] != 0) parts.push_back(host_tensor(c.in(i)));
  return fold_out(c, 0, {first.desc.data_type, out}, OpKind::kConcat, parts, ConcatAttrs{axis}, first.is_bool);
}

void lower_concat(const NodeCtx& c) {
  // Required since opset 4 (opset 1 defaulted to 1).
  if (c.opset >= 4 && !c.has_attr("axis")) c.invalid("the required attribute axis is missing");
  const uint32_t axis = c.axis(c.attr_i("axis", 1), c.rank(0));
  if (fold_concat(c, axis)) return;
  std::vector<OperandId> ins;
  for (size_t i = 0; i < c.input_count(); ++i) ins.push_back(c.operand(i));
  c.set_out(0, c.add(OpKind::kConcat, ins, ConcatAttrs{axis}), c.in(0).is_bool);
}

void lower_split(const NodeCtx& c) {
  size_t r = c.rank(0);
  uint32_t axis = c.axis(c.attr_i("axis", 0), r);
  std::vector<int64_t> split =
      c.opset >= 13 ? (c.has_input(1) ? c.const_ints(1, "split") : std::vector<int64_t>{}) : c.attr_ints("split");
  uint32_t dim = c.desc(0).shape[axis];
  SplitAttrs a;
  a.axis = axis;
  size_t n = c.output_count();
  if (split.empty()) {
    int64_t parts = c.has_attr("num_outputs") ? c.attr_i("num_outputs", 1) : int64_t(n);
    if (parts < 1) c.invalid("no outputs");
    if (dim % parts == 0) {
      a.splits = uint32_t(parts);
    } else {
      // opset 18: the last part is smaller.
      uint32_t size = uint32_t((dim + parts - 1) / parts);
      std::vector<uint32_t> sizes;
      for (uint32_t left = dim; left > 0; left -= std::min(left, size)) sizes.push_back(std::min(left, size));
      a.splits = sizes;
    }
  } else {
    a.splits = to_u32(c, split, "split");
  }
  auto outs = c.add_multi(OpKind::kSplit, {c.operand(0)}, a);
  if (outs.size() != n) c.invalid("the number of outputs does not match the split");
  for (size_t i = 0; i < n; ++i) c.set_out(i, outs[i], c.in(0).is_bool);
}

void lower_slice(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  size_t r = s.size();
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.opset < 10) {
    starts = c.attr_ints("starts");
    ends = c.attr_ints("ends");
    axes = c.attr_ints("axes");
  } else {
    starts = c.const_ints(1, "starts");
    ends = c.const_ints(2, "ends");
    if (c.has_input(3)) axes = c.const_ints(3, "axes");
    if (c.has_input(4)) steps = c.const_ints(4, "steps");
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(int64_t(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    c.invalid("starts, ends, axes and steps differ in length");
  // counts: output elements per axis; sizes: WebNN's input extent, (count - 1) * stride + 1.
  std::vector<uint32_t> st(r, 0), sizes(s.begin(), s.end()), counts(s.begin(), s.end()), strides(r, 1), reverse_axes;
  bool empty = false;
  for (size_t i = 0; i < starts.size(); ++i) {
    uint32_t ax = c.axis(axes[i], r);
    int64_t dim = s[ax], step = steps[i];
    if (step == 0) c.invalid("a step of 0");
    if (step == std::numeric_limits<int64_t>::min()) c.invalid("a step of -2^63 (its magnitude has no int64)");
    int64_t b = starts[i], e = ends[i];
    if (b < 0) b += dim;
    if (e < 0) e += dim;
    int64_t size;
    if (step > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      size = e > b ? (e - b + step - 1) / step : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      size = b > e ? (b - e + (-step) - 1) / (-step) : 0;
      reverse_axes.push_back(ax);
      b = dim - 1 - b;  // the same elements, counted from the reversed axis
      step = -step;
    }
    if (size == 0) {
      // Empty: a value known at import may be (shape arithmetic: the dimensions after the last
      // of a 2-D shape), an operand may not.
      if (!c.is_const(0)) c.unsupported("the slice is empty (WebNN has no empty tensors)");
      empty = true;
      counts[ax] = 0;
      continue;
    }
    st[ax] = uint32_t(b);
    counts[ax] = uint32_t(size);
    sizes[ax] = uint32_t((size - 1) * step + 1);
    strides[ax] = uint32_t(step);
  }
  const Value& x = c.in(0);
  const OperandDescriptor out{x.desc.data_type, Shape(counts.begin(), counts.end())};
  if (empty) return c.set_const_out(0, out, BufferRef{}, x.is_bool);
  if (x.data && !x.id && count_of(s) <= kMaxFoldElements && c.fold_fits(out)) {
    // The elements the operations below take, sliced forward and then reversed: the one
    // intermediate value is of the output's size (fold_fits reserved scratch space for it).
    SliceAttrs forward{st, sizes, strides};
    for (uint32_t ax : reverse_axes) forward.starts[ax] = s[ax] - 1 - st[ax] - (counts[ax] - 1) * strides[ax];
    std::optional<HostTensor> v = fold_value(OpKind::kSlice, {host_tensor(x)}, forward);
    if (v && !reverse_axes.empty()) v = fold_value(OpKind::kReverse, {*v}, ReverseAttrs{reverse_axes});
    if (v) {
      if (v->desc != out) c.invalid("internal: the folded slice is " + v->desc.to_string());
      return c.set_const_out(0, out, std::move(v->data), x.is_bool);
    }
  }
  OperandId id = c.operand(0);
  if (!reverse_axes.empty()) id = c.add(OpKind::kReverse, {id}, ReverseAttrs{reverse_axes});
  SliceAttrs a;
  a.starts = st;
  a.sizes = sizes;
  a.strides = strides;
  c.set_out(0, c.add(OpKind::kSlice, {id}, a), x.is_bool);
}

void lower_pad(const NodeCtx& c) {
  size_t r = c.rank(0);
  std::vector<int64_t> pads;
  Number value = 0.0;
  DataType t = c.type(0);
  if (c.opset < 11) {
    pads = c.opset < 2 ? c.attr_ints("paddings") : c.attr_ints("pads");
    value = c.attr_f("value", 0.0f);
  } else {
    pads = c.const_ints(1, "pads");
    if (c.has_input(2)) {
      if (is_floating_point(t))
        value = c.const_doubles(2, "constant_value").at(0);
      else
        value = Number::from_int64(c.const_ints(2, "constant_value").at(0));
    }
  }
  std::vector<uint32_t> axes;
  if (c.has_input(3)) {
    axes = norm_axes(c, c.const_ints(3, "axes"), r);
  } else {
    for (size_t i = 0; i < r; ++i) axes.push_back(uint32_t(i));
  }
  if (pads.size() != 2 * axes.size()) c.invalid("pads must have 2 values per axis");
  std::string mode = c.attr_s("mode", "constant");
  PadAttrs a;
  a.beginning_padding.assign(r, 0);
  a.ending_padding.assign(r, 0);
  if (mode == "constant")
    a.mode = PaddingMode::kConstant;
  else if (mode == "edge")
    a.mode = PaddingMode::kEdge;
  else if (mode == "reflect")
    a.mode = PaddingMode::kReflection;
  else
    c.unsupported("pad mode \"" + mode + "\" has no WebNN equivalent");
  a.value = value;
  // Negative pads crop: a slice first.
  SliceAttrs crop;
  crop.starts.assign(r, 0);
  crop.sizes = c.desc(0).shape;
  bool cropping = false;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t b = pads[i], e = pads[i + axes.size()];
    uint32_t ax = axes[i];
    // A crop may remove at most the whole axis, a pad add at most what a dimension can hold.
    const int64_t dim = c.desc(0).shape[ax];
    if (b < -dim || e < -dim || (b < 0 && e < 0 && -b - e > dim) || b > int64_t(UINT32_MAX) || e > int64_t(UINT32_MAX))
      c.invalid("pads " + std::to_string(b) + " and " + std::to_string(e) + " do not fit axis " + std::to_string(ax) +
                " of size " + std::to_string(dim));
    if (b < 0) crop.starts[ax] = uint32_t(-b), crop.sizes[ax] -= uint32_t(-b), cropping = true, b = 0;
    if (e < 0) crop.sizes[ax] -= uint32_t(-e), cropping = true, e = 0;
    a.beginning_padding[ax] = uint32_t(b);
    a.ending_padding[ax] = uint32_t(e);
  }
  OperandId x = c.operand(0);
  if (cropping) x = c.add(OpKind::kSlice, {x}, crop);
  c.set_out(0, c.add(OpKind::kPad, {x}, a));
}

void lower_expand(const NodeCtx& c) {
  auto shape = c.const_ints(1, "shape");
  Shape target = to_u32(c, shape, "shape");
  auto out = ops::broadcast_bidirectional(c.desc(0).shape, target);
  if (!out) c.invalid("the shape does not broadcast with the input");
  const Value& x = c.in(0);
  if (x.data && !x.id && c.fold_fits({x.desc.data_type, *out}) &&
      fold_out(c, 0, {x.desc.data_type, *out}, OpKind::kExpand, {host_tensor(x)}, ExpandAttrs{*out}, x.is_bool))
    return;
  OperandId id = c.operand(0);
  if (c.desc_of(id).shape == *out) return c.set_out(0, c.add(OpKind::kIdentity, {id}), x.is_bool);
  c.set_out(0, c.add(OpKind::kExpand, {id}, ExpandAttrs{*out}), x.is_bool);
}

void lower_tile(const NodeCtx& c) {
  auto reps = to_u32(c, c.const_ints(1, "repeats"), "repeats");
  const Value& x = c.in(0);
  if (reps.size() != x.desc.shape.size()) c.invalid("repeats must have one value per axis of the input");
  Shape out = x.desc.shape;
  for (size_t i = 0; i < reps.size(); ++i) {
    if (reps[i] == 0) c.unsupported("a repeat of 0 (WebNN has no empty tensors)");
    out[i] = uint32_t(std::min<uint64_t>(uint64_t(out[i]) * reps[i], UINT32_MAX));
  }
  // A small constant folds (its tiled size checked before it is allocated); otherwise `tile`,
  // whose output the builder checks.
  if (x.data && !x.id && count_of(x.desc.shape) > 0 && c.fold_fits({x.desc.data_type, out}) &&
      fold_out(c, 0, {x.desc.data_type, out}, OpKind::kTile, {host_tensor(x)}, TileAttrs{reps}, x.is_bool))
    return;
  c.set_out(0, c.add(OpKind::kTile, {c.operand(0)}, TileAttrs{reps}), x.is_bool);
}

void lower_depth_to_space(const NodeCtx& c) {
  if (c.rank(0) != 4) c.invalid("input must be 4-D");
  Shape s = c.desc(0).shape;
  uint32_t b = uint32_t(c.attr_i("blocksize", 0));
  if (b == 0 || s[1] % (b * b)) c.invalid("blocksize must divide the channels");
  uint32_t n = s[0], ch = s[1] / (b * b), h = s[2], w = s[3];
  bool crd = c.attr_s("mode", "DCR") == "CRD";
  OperandId x = c.operand(0);
  OperandId t;
  if (crd) {
    t = c.transpose(c.reshape(x, {n, ch, b, b, h, w}), {0, 1, 4, 2, 5, 3});
  } else {
    t = c.transpose(c.reshape(x, {n, b, b, ch, h, w}), {0, 3, 4, 1, 5, 2});
  }
  c.set_out(0, c.reshape(t, {n, ch, h * b, w * b}));
}

void lower_space_to_depth(const NodeCtx& c) {
  if (c.rank(0) != 4) c.invalid("input must be 4-D");
  Shape s = c.desc(0).shape;
  uint32_t b = uint32_t(c.attr_i("blocksize", 0));
  if (b == 0 || s[2] % b || s[3] % b) c.invalid("blocksize must divide the height and width");
  uint32_t n = s[0], ch = s[1], h = s[2] / b, w = s[3] / b;
  OperandId t = c.transpose(c.reshape(c.operand(0), {n, ch, h, b, w, b}), {0, 3, 5, 1, 2, 4});
  c.set_out(0, c.reshape(t, {n, ch * b * b, h, w}));
}

// NonZero of a value known at import (PyTorch's opset 9 export of arange is NonZero of ones):
// the [rank, count] indices of its nonzero elements in row-major order (NaN is nonzero) are
// computed then. Of an operand the output's shape depends on the values, which WebNN cannot have.
void lower_non_zero(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  if (!c.is_const(0)) c.unsupported("its output shape depends on the input values (a shape only known at run time)");
  if (count_of(s) > kMaxFoldElements)
    c.unsupported("NonZero of a constant of more than " + std::to_string(kMaxFoldElements) +
                  " elements (the fold limit)");
  const std::vector<double> x = c.const_doubles(0, "X");
  std::vector<uint64_t> at;  // the flat positions of the nonzero elements
  for (uint64_t i = 0; i < x.size(); ++i)
    if (x[i] != 0) at.push_back(i);
  const OperandDescriptor out{DataType::kInt64, {uint32_t(s.size()), uint32_t(at.size())}};
  if (out.element_count() == 0u) return c.set_const_out(0, out, BufferRef{});
  if (!c.fold_fits(out)) c.unsupported("its " + out.to_string() + " output is beyond the fold limit");
  // Row r holds coordinate r of each position.
  c.set_const_out(0, out, bytes_of_int64s(DataType::kInt64, count_of(out.shape), [&](uint64_t k) {
                    const size_t r = k / at.size();
                    uint64_t rest = at[k % at.size()];
                    for (size_t d = s.size(); d-- > r + 1;) rest /= s[d];
                    return int64_t(rest % s[r]);
                  }));
}

void lower_trilu(const NodeCtx& c) {
  TriangularAttrs a;
  a.upper = c.attr_i("upper", 1) != 0;
  if (c.has_input(1)) {
    int64_t k = c.const_ints(1, "k").at(0);
    a.diagonal = int32_t(std::clamp<int64_t>(k, INT32_MIN, INT32_MAX));
  }
  c.set_out(0, c.add(OpKind::kTriangular, {c.operand(0)}, a));
}

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

}  // namespace

void reshaped(const NodeCtx& c, const Shape& shape) {
  const Value& x = c.in(0);
  if (x.data && !x.id) {
    c.set_const_out(0, {x.desc.data_type, shape}, *x.data, x.is_bool);
    return;
  }
  OperandId id = c.operand(0);
  if (c.desc_of(id).shape == shape) {
    // Identity, Dropout, a no-op reshape: the output is the input's operand under a second name.
    c.alias_out(0, id, x.is_bool);
    return;
  }
  c.set_out(0, c.reshape(id, shape), x.is_bool);
}

std::vector<uint32_t> norm_axes(const NodeCtx& c, const std::vector<int64_t>& axes, size_t rank) {
  std::vector<uint32_t> out;
  for (int64_t a : axes) {
    uint32_t n = c.axis(a, rank);
    if (std::find(out.begin(), out.end(), n) != out.end()) c.invalid("axis " + std::to_string(a) + " repeats");
    out.push_back(n);
  }
  return out;
}

OperandId slice_axis(const NodeCtx& c, OperandId x, size_t axis, int64_t start, int64_t count, int64_t stride) {
  const Shape& s = c.desc_of(x).shape;
  if (start == 0 && count == s[axis]) return x;
  SliceAttrs a;
  a.starts.assign(s.size(), 0);
  a.sizes = s;
  a.starts[axis] = uint32_t(start);
  a.sizes[axis] = uint32_t((count - 1) * stride + 1);
  if (stride != 1) {
    std::vector<uint32_t> strides(s.size(), 1);
    strides[axis] = uint32_t(stride);
    a.strides = std::move(strides);
  }
  return c.add(OpKind::kSlice, {x}, a);
}

Lowerings shape_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"Shape", lower_shape},
      {"Size", lower_size},
      {"Reshape", lower_reshape},
      {"Flatten", lower_flatten},
      {"Squeeze", lower_squeeze},
      {"Unsqueeze", lower_unsqueeze},
      {"Transpose", lower_transpose},
      {"Concat", lower_concat},
      {"Split", lower_split},
      {"Slice", lower_slice},
      {"Pad", lower_pad},
      {"Expand", lower_expand},
      {"Tile", lower_tile},
      {"DepthToSpace", lower_depth_to_space},
      {"SpaceToDepth", lower_space_to_depth},
      {"Trilu", lower_trilu},
      {"NonZero", lower_non_zero},
      {"ReverseSequence", lower_reverse_sequence},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
