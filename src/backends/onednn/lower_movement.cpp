// Operations that move or convert values without arithmetic: reshape (a view of the same bytes);
// transpose, slice and a gather by constant indices that step evenly (a reorder from a strided view
// of the input); concat (a copy of our own, in its inputs' blocked layout or plain); casts between
// float16 and float32 (one vectorised pass of our own, float16.hpp).
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

#include "backends/onednn/float16.hpp"
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

using dnnl::memory;

bool lower_reshape(LowerContext& cx, size_t index) {
  const Operation& op = cx.graph.operations[index];
  cx.layout.view(cx.layout.plain(op.inputs[0]), op.outputs[0]);
  return true;
}

bool lower_transpose(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  const Operation& op = g.operations[index];
  const OperandId input = op.inputs[0], output = op.outputs[0];
  const Shape& in_shape = g.desc(input).shape;
  if (in_shape.empty()) return false;
  const std::vector<uint32_t>& permutation = *std::get<TransposeAttrs>(op.attrs).permutation;
  const std::vector<int> axes(permutation.begin(), permutation.end());
  const memory::desc src_md = plain_view(in_shape, axes);
  const memory::desc dst_md = plain_view(g.desc(output).shape);
  dnnl::reorder::primitive_desc pd(cpu_engine(), src_md, cpu_engine(), dst_md, scratchpad_attr());
  add_primitive(
      cx.plan, pd, dnnl::reorder(pd),
      {{DNNL_ARG_FROM, cx.layout.plain(input), src_md}, {DNNL_ARG_TO, cx.layout.define(output, dst_md), dst_md}});
  return true;
}

namespace {

// Operation `index`'s float32 output as a reorder from its input's plain bytes seen as `dims` with
// `strides` (in elements), starting `offset` elements in.
void add_strided_copy(LowerContext& cx, size_t index, const Dims& dims, const Dims& strides, int64_t offset) {
  const Operation& op = cx.graph.operations[index];
  memory::desc src_md(dims, memory::data_type::f32, strides);
  src_md.data.offset0 = offset;
  const memory::desc dst_md = plain_view(cx.graph.desc(op.outputs[0]).shape);
  dnnl::reorder::primitive_desc pd(cpu_engine(), src_md, cpu_engine(), dst_md, scratchpad_attr());
  add_primitive(cx.plan, pd, dnnl::reorder(pd),
                {{DNNL_ARG_FROM, cx.layout.plain(op.inputs[0]), src_md},
                 {DNNL_ARG_TO, cx.layout.define(op.outputs[0], dst_md), dst_md}});
}

bool has_elements(const Shape& shape) {
  return !shape.empty() && std::none_of(shape.begin(), shape.end(), [](uint32_t d) { return d == 0; });
}

}  // namespace

bool lower_slice(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  const Operation& op = g.operations[index];
  const Shape& in = g.desc(op.inputs[0]).shape;
  const Shape& out = g.desc(op.outputs[0]).shape;
  if (!has_elements(in) || !has_elements(out)) return false;
  const auto& a = std::get<SliceAttrs>(op.attrs);
  const std::vector<uint32_t>& steps = *a.strides;
  const Dims in_strides = row_major_strides(dims_of(in));
  Dims strides(in.size());
  int64_t offset = 0;
  for (size_t k = 0; k < in.size(); ++k) {
    strides[k] = in_strides[k] * steps[k];
    offset += int64_t{a.starts[k]} * in_strides[k];
  }
  add_strided_copy(cx, index, dims_of(out), strides, offset);
  return true;
}

// gather(input, indices) along `axis`, indices constant: when they select i0, i0 + d, i0 + 2d, ...
// (after the reference kernel's clamp) the output is a strided view of the input, a scalar index
// (qkv[0]) included.
bool lower_gather(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  const Operation& op = g.operations[index];
  const OperandId input = op.inputs[0], indices = op.inputs[1];
  if (!is_f32(g.desc(input)) || !is_f32(g.desc(op.outputs[0])) || !is_constant(g, indices)) return false;
  const Shape& in = g.desc(input).shape;
  const Shape& out = g.desc(op.outputs[0]).shape;
  if (!has_elements(in) || !has_elements(out)) return false;
  const uint32_t axis = std::get<GatherAttrs>(op.attrs).axis;
  const int64_t n = in[axis];
  const OperandDescriptor& idx = g.desc(indices);
  const auto count = static_cast<size_t>(*idx.element_count());
  const std::byte* bytes = g.constant_data(indices).data.get();
  std::vector<int64_t> selected(count);
  for (size_t k = 0; k < count; ++k) {
    int64_t i;
    if (idx.data_type == DataType::kInt64) {
      std::memcpy(&i, bytes + k * 8, 8);
    } else if (idx.data_type == DataType::kInt32) {
      int32_t v;
      std::memcpy(&v, bytes + k * 4, 4);
      i = v;
    } else if (idx.data_type == DataType::kUint32) {
      uint32_t v;
      std::memcpy(&v, bytes + k * 4, 4);
      i = v;
    } else {
      return false;
    }
    i = std::clamp<int64_t>(i, -n, n - 1);  // the reference kernel's clamp (reference/gather.cpp)
    selected[k] = i < 0 ? i + n : i;
  }
  const int64_t step = count > 1 ? selected[1] - selected[0] : 1;
  if (step < 1) return false;
  for (size_t k = 1; k < count; ++k)
    if (selected[k] - selected[k - 1] != step) return false;
  const Dims in_strides = row_major_strides(dims_of(in));
  Dims strides(in_strides.begin(), in_strides.begin() + axis);
  const Dims idx_strides = row_major_strides(dims_of(idx.shape));
  for (size_t j = 0; j < idx.shape.size(); ++j) strides.push_back(idx_strides[j] * step * in_strides[axis]);
  strides.insert(strides.end(), in_strides.begin() + axis + 1, in_strides.end());
  if (strides.empty()) strides.push_back(1);  // a scalar out of a 1-D input
  add_strided_copy(cx, index, dims_of(out), strides, selected[0] * in_strides[axis]);
  return true;
}

namespace {

// The order of a blocked descriptor's outer dimensions in memory (the largest stride first) and its
// inner blocks: what two tensors share when their bytes are laid out alike.
struct BlockedLayout {
  std::vector<int> order;
  std::vector<std::pair<int64_t, int64_t>> inner;  // (block, dimension), outermost first
  std::vector<int> axes;
  bool operator==(const BlockedLayout&) const = default;
};

std::optional<BlockedLayout> blocked_layout(const PlanTensor& t) {
  const dnnl_memory_desc_t& d = t.md.data;
  // Dense, unpadded, not plain (the plain path serves plain tensors).
  if (t.plain || d.format_kind != dnnl_blocked || d.offset0 != 0 ||
      t.md.get_size() != static_cast<size_t>(*t.desc.byte_length()))
    return std::nullopt;
  BlockedLayout l;
  l.order.resize(static_cast<size_t>(d.ndims));
  std::iota(l.order.begin(), l.order.end(), 0);
  std::stable_sort(l.order.begin(), l.order.end(),
                   [&](int x, int y) { return d.format_desc.blocking.strides[x] > d.format_desc.blocking.strides[y]; });
  for (int k = 0; k < d.format_desc.blocking.inner_nblks; ++k)
    l.inner.emplace_back(d.format_desc.blocking.inner_blks[k], d.format_desc.blocking.inner_idxs[k]);
  l.axes = t.axes;
  return l;
}

// A dense descriptor of `dims` in layout `l`, or nullopt where a dimension does not fill its blocks.
std::optional<memory::desc> dense(const BlockedLayout& l, const Dims& dims) {
  const int n = static_cast<int>(dims.size());
  if (n != static_cast<int>(l.order.size()) || n > DNNL_MAX_NDIMS) return std::nullopt;
  dnnl_memory_desc_t d = memory::desc(dims, memory::data_type::f32, memory::format_tag::any).data;
  d.format_kind = dnnl_blocked;
  std::vector<int64_t> block(static_cast<size_t>(n), 1);
  int64_t inner = 1;
  d.format_desc.blocking.inner_nblks = static_cast<int>(l.inner.size());
  for (size_t k = 0; k < l.inner.size(); ++k) {
    d.format_desc.blocking.inner_blks[k] = l.inner[k].first;
    d.format_desc.blocking.inner_idxs[k] = l.inner[k].second;
    block[static_cast<size_t>(l.inner[k].second)] *= l.inner[k].first;
    inner *= l.inner[k].first;
  }
  int64_t stride = inner;
  for (auto k = l.order.rbegin(); k != l.order.rend(); ++k) {
    const auto i = static_cast<size_t>(*k);
    if (dims[i] % block[i] != 0) return std::nullopt;
    d.padded_dims[*k] = dims[i];
    d.format_desc.blocking.strides[*k] = stride;
    stride *= dims[i] / block[i];
  }
  return memory::desc(d);
}

// Operand `id`'s dims seen through `axes` (logical dimension i is axis axes[i]).
Dims dims_through(const Shape& shape, const std::vector<int>& axes) {
  Dims dims;
  for (size_t i = 0; i < shape.size(); ++i) dims.push_back(shape[axes.empty() ? i : static_cast<size_t>(axes[i])]);
  return dims;
}

// A concat in one blocked layout: its output's descriptor and axes, each input's tensor in that
// layout, and the elements that precede the axis in memory order (rows).
struct ConcatLayout {
  memory::desc md;
  std::vector<int> axes;
  std::vector<TensorId> srcs;
  size_t rows = 1;
};

// The blocked layout that most of the inputs' bytes are in (a convolution's nChw16c or channels-last
// output), when every input and the output can be dense in it; the inputs in another layout are
// reordered into it (once per operand and layout: DenseNet's concats re-read a block's input).
std::optional<ConcatLayout> blocked_concat(LowerContext& cx, const Operation& op) {
  const uint32_t axis = std::get<ConcatAttrs>(op.attrs).axis;
  std::vector<std::pair<BlockedLayout, size_t>> candidates;  // layout, bytes in it
  for (OperandId input : op.inputs) {
    const PlanTensor& t = cx.layout.tensor(cx.layout.primary(input));
    const std::optional<BlockedLayout> l = blocked_layout(t);
    if (!l) continue;
    auto it = std::find_if(candidates.begin(), candidates.end(), [&](const auto& c) { return c.first == *l; });
    if (it == candidates.end()) it = candidates.insert(candidates.end(), {*l, 0});
    it->second += t.bytes;
  }
  if (candidates.empty()) return std::nullopt;
  const BlockedLayout& l = std::max_element(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
                             return a.second < b.second;
                           })->first;
  ConcatLayout out;
  out.axes = l.axes;
  const Graph& g = cx.graph;
  const std::optional<memory::desc> out_md = dense(l, dims_through(g.desc(op.outputs[0]).shape, l.axes));
  if (!out_md) return std::nullopt;
  std::vector<memory::desc> mds;
  for (OperandId input : op.inputs) {
    const std::optional<memory::desc> md = dense(l, dims_through(g.desc(input).shape, l.axes));
    if (!md) return std::nullopt;
    mds.push_back(*md);
  }
  for (size_t i = 0; i < op.inputs.size(); ++i) out.srcs.push_back(cx.layout.in_layout(op.inputs[i], mds[i], l.axes));
  out.md = *out_md;
  const int md_axis =
      l.axes.empty()
          ? static_cast<int>(axis)
          : static_cast<int>(std::find(l.axes.begin(), l.axes.end(), static_cast<int>(axis)) - l.axes.begin());
  const Dims out_dims = dims_through(g.desc(op.outputs[0]).shape, l.axes);
  for (int k : l.order) {
    if (k == md_axis) break;
    int64_t outer = out_dims[static_cast<size_t>(k)];
    for (const auto& [block, dim] : l.inner)
      if (dim == k) outer /= block;
    out.rows *= static_cast<size_t>(outer);
  }
  return out;
}

}  // namespace

// concat along one axis: every output row (the elements before the axis in memory order) is each
// input's block in turn. In the blocked layout most of its inputs are in (a convolution's blocked
// or channels-last output: DenseNet's and U-Net's concats read convolutions and feed them), else
// over plain tensors. The output's bytes split evenly over the plan's threads, whatever
// the shape: oneDNN's concat parallelises over rows and took 0.43 ms for Swin-T's concat of
// [1, 53, 56, 96] and [1, 3, 56, 96] (one row), against 0.02 ms for a sequential copy.
bool lower_concat(LowerContext& cx, size_t index) {
  const Graph& g = cx.graph;
  const Operation& op = g.operations[index];
  const Shape& out = g.desc(op.outputs[0]).shape;
  const uint32_t axis = std::get<ConcatAttrs>(op.attrs).axis;
  const std::optional<ConcatLayout> kept = blocked_concat(cx, op);
  size_t rows = 1;
  if (kept) {
    rows = kept->rows;
  } else {
    for (uint32_t k = 0; k < axis; ++k) rows *= out[k];
  }
  std::vector<TensorId> srcs;
  std::vector<size_t> ends;  // by input: where its block ends in an output row, in bytes
  size_t row_bytes = 0;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const OperandDescriptor& d = g.desc(op.inputs[i]);
    row_bytes += static_cast<size_t>(*d.byte_length()) / std::max<size_t>(rows, 1);
    ends.push_back(row_bytes);
    srcs.push_back(kept ? kept->srcs[i] : cx.layout.plain(op.inputs[i]));
  }
  const TensorId dst =
      kept ? cx.layout.define(op.outputs[0], kept->md, kept->axes) : cx.layout.define(op.outputs[0], plain_view(out));
  Plan* plan = &cx.plan;
  add_run(cx.plan,
          [plan, srcs, ends, dst, rows, row_bytes] {
            const size_t total = rows * row_bytes;
            const auto parts = static_cast<int64_t>(std::clamp<size_t>(total / (64 * 1024), 1, omp_get_max_threads()));
#pragma omp parallel for schedule(static) if (parts > 1)
            for (int64_t part = 0; part < parts; ++part) {
              size_t at = total * static_cast<size_t>(part) / static_cast<size_t>(parts);
              const size_t stop = total * static_cast<size_t>(part + 1) / static_cast<size_t>(parts);
              while (at < stop) {
                const size_t row = at / row_bytes, in_row = at % row_bytes;
                const size_t i = static_cast<size_t>(std::upper_bound(ends.begin(), ends.end(), in_row) - ends.begin());
                const size_t begin = i == 0 ? 0 : ends[i - 1];
                const size_t block = ends[i] - begin, offset = in_row - begin;
                const size_t n = std::min(block - offset, stop - at);
                std::memcpy(plan->ptr[dst] + at, plan->ptr[srcs[i]] + row * block + offset, n);
                at += n;
              }
            }
          },
          srcs, {dst});
  return true;
}

// Over the plain bytes, split over the plan's threads (oneDNN's own float16 reorders are scalar on
// this processor).
bool lower_float16_conversion(LowerContext& cx, size_t index) {
  const Operation& op = cx.graph.operations[index];
  if (!is_float16_conversion(cx.graph, op)) return false;
  const OperandId input = op.inputs[0], output = op.outputs[0];
  const OperandDescriptor& out = cx.graph.desc(output);
  const TensorId src = cx.layout.plain(input);
  const TensorId dst = cx.layout.define(output, is_f32(out) ? plain_view(out.shape) : memory::desc());
  Plan* plan = &cx.plan;
  const auto count = static_cast<size_t>(*out.element_count());
  const bool to_float16 = !is_f32(out);
  add_run(cx.plan,
          [plan, src, dst, count, to_float16] {
            convert_float16_parallel(plan->ptr[src], plan->ptr[dst], count, to_float16);
          },
          {src}, {dst});
  return true;
}

}  // namespace webnn::onednn
