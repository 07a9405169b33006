// Data movement: reshape, transpose, concat, split, slice. spec: #api-mlgraphbuilder-reshape-method,
// #api-mlgraphbuilder-transpose, #api-mlgraphbuilder-concat, #api-mlgraphbuilder-split,
// #api-mlgraphbuilder-slice
//
// These never look at values, only move bytes, so they work on every data type by element size.
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"

namespace webnn::reference {

namespace {

// dst[i] = src[offset_i] for every element of `shape`, offset_i walking `src_strides` from
// `src_base` (all in elements of `size` bytes).
void gather_strided(const std::byte* src, size_t src_base, const std::vector<size_t>& src_strides, const Shape& shape,
                    size_t size, std::byte* dst) {
  const std::vector<size_t> strides[1] = {src_strides};
  auto run = [&]<class U>() {
    const U* s = reinterpret_cast<const U*>(src) + src_base;
    U* d = reinterpret_cast<U*>(dst);
    for_each_offset(shape, strides, [&](size_t i, const size_t* o) { d[i] = s[o[0]]; });
  };
  switch (size) {
    case 1:
      return run.template operator()<uint8_t>();
    case 2:
      return run.template operator()<uint16_t>();
    case 4:
      return run.template operator()<uint32_t>();
    default:
      return run.template operator()<uint64_t>();
  }
}

Kernel reshape_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const size_t bytes = *graph.desc(out_id).byte_length();
  return [=](Values v) {
    if (bytes) std::memcpy(v[out_id], v[in_id], bytes);
  };
}

// Output dimension d is input dimension permutation[d] (absent: the axes reversed).
Kernel transpose_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<TransposeAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const size_t rank = in.rank();
  std::vector<uint32_t> perm(rank);
  if (attrs.permutation) {
    perm = *attrs.permutation;
  } else {
    for (size_t d = 0; d < rank; ++d) perm[d] = static_cast<uint32_t>(rank - 1 - d);
  }
  const std::vector<size_t> in_strides = strides_of(in.shape);
  std::vector<size_t> src_strides(rank);
  for (size_t d = 0; d < rank; ++d) src_strides[d] = in_strides[perm.at(d)];
  const Shape out_shape = graph.desc(out_id).shape;
  const size_t size = element_size(in.data_type);
  return [=](Values v) { gather_strided(v[in_id], 0, src_strides, out_shape, size, v[out_id]); };
}

// Output element o[d] reads input element starts[d] + o[d] * strides[d] (strides absent: 1s).
Kernel slice_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<SliceAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const size_t rank = in.rank();
  const std::vector<uint32_t> steps = attrs.strides.value_or(std::vector<uint32_t>(rank, 1));
  const std::vector<size_t> in_strides = strides_of(in.shape);
  std::vector<size_t> src_strides(rank);
  size_t base = 0;
  for (size_t d = 0; d < rank; ++d) {
    base += attrs.starts.at(d) * in_strides[d];
    src_strides[d] = steps.at(d) * in_strides[d];
  }
  const Shape out_shape = graph.desc(out_id).shape;
  const size_t size = element_size(in.data_type);
  return [=](Values v) { gather_strided(v[in_id], base, src_strides, out_shape, size, v[out_id]); };
}

// concat and split both move contiguous blocks: with outer = prod(shape[0, axis)) and
// row(x) = prod(shape_x[axis, rank)) bytes, block j of piece x sits at j * row(x) in x and at
// j * row(whole) + (offset of x along the axis) in the whole.
struct Piece {
  OperandId id;
  size_t row_bytes;
  size_t offset_bytes;
};

std::vector<Piece> pieces_along(const Graph& graph, const std::vector<OperandId>& ids, uint32_t axis, size_t& outer) {
  std::vector<Piece> pieces;
  size_t offset = 0;
  outer = 1;
  for (OperandId id : ids) {
    const OperandDescriptor& d = graph.desc(id);
    outer = 1;
    for (size_t k = 0; k < axis; ++k) outer *= d.shape.at(k);
    size_t row = element_size(d.data_type);
    for (size_t k = axis; k < d.rank(); ++k) row *= d.shape[k];
    pieces.push_back({id, row, offset});
    offset += row;
  }
  return pieces;
}

Kernel concat_kernel(const Graph& graph, const Operation& op) {
  const uint32_t axis = std::get<ConcatAttrs>(op.attrs).axis;
  const OperandId out_id = op.outputs.at(0);
  size_t outer = 1;
  const std::vector<Piece> pieces = pieces_along(graph, op.inputs, axis, outer);
  size_t whole_row = 0;
  for (const Piece& p : pieces) whole_row += p.row_bytes;
  return [=](Values v) {
    std::byte* out = v[out_id];
    for (const Piece& p : pieces) {
      const std::byte* in = v[p.id];
      for (size_t j = 0; j < outer; ++j)
        if (p.row_bytes) std::memcpy(out + j * whole_row + p.offset_bytes, in + j * p.row_bytes, p.row_bytes);
    }
  };
}

// split: the output shapes (from the count or the list of sizes) are already in the graph.
Kernel split_kernel(const Graph& graph, const Operation& op) {
  const uint32_t axis = std::get<SplitAttrs>(op.attrs).axis;
  const OperandId in_id = op.inputs.at(0);
  size_t outer = 1;
  const std::vector<Piece> pieces = pieces_along(graph, op.outputs, axis, outer);
  size_t whole_row = 0;
  for (const Piece& p : pieces) whole_row += p.row_bytes;
  return [=](Values v) {
    const std::byte* in = v[in_id];
    for (const Piece& p : pieces) {
      std::byte* out = v[p.id];
      for (size_t j = 0; j < outer; ++j)
        if (p.row_bytes) std::memcpy(out + j * p.row_bytes, in + j * whole_row + p.offset_bytes, p.row_bytes);
    }
  };
}

}  // namespace

Kernel make_shape_kernel(const Graph& graph, const Operation& op) {
  switch (op.kind) {
    case OpKind::kReshape:
      return reshape_kernel(graph, op);
    case OpKind::kTranspose:
      return transpose_kernel(graph, op);
    case OpKind::kSlice:
      return slice_kernel(graph, op);
    case OpKind::kConcat:
      return concat_kernel(graph, op);
    case OpKind::kSplit:
      return split_kernel(graph, op);
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, describe(op) + ": not a shape operation");
}

}  // namespace webnn::reference
