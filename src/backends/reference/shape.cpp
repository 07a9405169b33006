// Data movement: reshape, transpose, concat, split, slice, expand, pad, reverse, tile, triangular.
// spec: #api-mlgraphbuilder-reshape-method, #api-mlgraphbuilder-transpose, #api-mlgraphbuilder-concat,
// #api-mlgraphbuilder-split, #api-mlgraphbuilder-slice, #api-mlgraphbuilder-expand,
// #api-mlgraphbuilder-pad, #api-mlgraphbuilder-reverse-method, #api-mlgraphbuilder-tile,
// #api-mlgraphbuilder-triangular
//
// These never look at values, only move bytes, so they work on every data type by element size
// and are bit-exact (NaN payloads, -0). pad's constant is the MLNumber cast to the input's type;
// triangular's zero is the all-zero bit pattern, which is +0 or 0 in every type.
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"
#include "ops/number_cast.hpp"

namespace webnn::reference {

namespace {

// dst[i] = src[src_base + offset_i] for every element of `shape`, offset_i walking `src_strides`
// (all in elements of `size` bytes). Index arithmetic is modulo 2^64 (size_t), so a stride may be
// negative, written 0 - s: the sum src_base + offset_i is still the exact element index.
void gather_strided(const std::byte* src, size_t src_base, const std::vector<size_t>& src_strides, const Shape& shape,
                    size_t size, std::byte* dst) {
  const std::vector<size_t> strides[1] = {src_strides};
  visit_bits(size, [&]<class U>() {
    const U* s = reinterpret_cast<const U*>(src);
    U* d = reinterpret_cast<U*>(dst);
    for_each_offset(shape, strides, [&](size_t i, const size_t* o) { d[i] = s[src_base + o[0]]; });
  });
}

// How output coordinate c of one dimension maps to an input coordinate x, for pad and tile: the
// input spans [begin, begin + size) of the output (begin = 0 for tile). Outside that span,
// "constant" has no source (the fill), "edge" repeats the nearest edge element, "reflection"
// mirrors about the edge element (x -> -x, x -> 2(size - 1) - x; the builder keeps the padding
// below size, so one reflection lands inside) and tile wraps (c mod size). Computed per element
// rather than tabulated, so memory stays O(rank) however large the output.
struct AxisMap {
  enum class Rule : uint8_t { kConstant, kEdge, kReflection, kTile };
  Rule rule;
  int64_t begin;     // output coordinate of input coordinate 0
  int64_t size;      // input size
  int64_t out_size;  // output size
  int64_t stride;    // input stride in elements

  // The input coordinate c reads, or -1 for the fill.
  int64_t source(int64_t c) const {
    if (rule == Rule::kTile) return c % size;
    const int64_t x = c - begin;
    if (x >= 0 && x < size) return x;
    switch (rule) {
      case Rule::kEdge:
        return x < 0 ? 0 : size - 1;
      case Rule::kReflection:
        return x < 0 ? -x : 2 * (size - 1) - x;
      default:
        return -1;
    }
  }
};

// dst (row-major over the maps' output sizes) gets, per element, the input element its
// coordinates map to, or `fill` where any coordinate has no source.
template <class U>
void copy_mapped(const U* src, const std::vector<AxisMap>& maps, U fill, U* dst) {
  size_t out = 0;
  auto walk = [&](auto& self, size_t d, int64_t offset, bool outside) -> void {
    if (d == maps.size()) {
      dst[out++] = outside ? fill : src[offset];
      return;
    }
    const AxisMap& m = maps[d];
    for (int64_t c = 0; c < m.out_size; ++c) {
      const int64_t x = m.source(c);
      self(self, d + 1, x < 0 ? offset : offset + x * m.stride, outside || x < 0);
    }
  };
  walk(walk, 0, 0, false);
}

Kernel mapped_kernel(const Graph& graph, const Operation& op, std::vector<AxisMap> maps, const std::byte* fill_bytes) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const size_t size = element_size(graph.desc(in_id).data_type);
  std::array<std::byte, 8> fill{};  // the fill element's bytes (native order), zeros when absent
  if (fill_bytes) std::memcpy(fill.data(), fill_bytes, size);
  return [=](Values v) {
    visit_bits(size, [&]<class U>() {
      U f;
      std::memcpy(&f, fill.data(), sizeof(U));
      copy_mapped(typed<U>(v[in_id]), maps, f, typed<U>(v[out_id]));
    });
  };
}

Kernel reshape_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const size_t bytes = *graph.desc(out_id).byte_length();
  return [=](Values v) {
    if (bytes) std::memcpy(v[out_id], v[in_id], bytes);
  };
}

// Output dimension d is input dimension permutation[d].
Kernel transpose_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<TransposeAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const size_t rank = in.rank();
  const std::vector<uint32_t>& perm = *attrs.permutation;
  const std::vector<size_t> in_strides = strides_of(in.shape);
  std::vector<size_t> src_strides(rank);
  for (size_t d = 0; d < rank; ++d) src_strides[d] = in_strides[perm.at(d)];
  const Shape out_shape = graph.desc(out_id).shape;
  const size_t size = element_size(in.data_type);
  return [=](Values v) { gather_strided(v[in_id], 0, src_strides, out_shape, size, v[out_id]); };
}

// Output element o[d] reads input element starts[d] + o[d] * strides[d].
Kernel slice_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<SliceAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const size_t rank = in.rank();
  const std::vector<uint32_t>& steps = *attrs.strides;
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

// Output element o reads the input at o with every broadcast (size 1 or missing) dimension at 0.
Kernel expand_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const Shape out_shape = graph.desc(out_id).shape;
  const std::vector<size_t> src_strides = broadcast_strides(in.shape, out_shape);
  const size_t size = element_size(in.data_type);
  return [=](Values v) { gather_strided(v[in_id], 0, src_strides, out_shape, size, v[out_id]); };
}

// A reversed axis starts at its last element and walks with stride -s.
Kernel reverse_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<ReverseAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const std::vector<uint32_t>& axes = *attrs.axes;
  std::vector<size_t> src_strides = strides_of(in.shape);
  size_t base = 0;
  for (uint32_t axis : axes) {
    base += (in.shape.at(axis) - size_t{1}) * src_strides[axis];
    src_strides[axis] = size_t{0} - src_strides[axis];
  }
  const Shape shape = in.shape;
  const size_t size = element_size(in.data_type);
  return [=](Values v) { gather_strided(v[in_id], base, src_strides, shape, size, v[out_id]); };
}

// pad: input coordinate x sits at output coordinate x + beginningPadding (AxisMap gives the
// modes); the constant is the value cast to the input's data type.
Kernel pad_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<PadAttrs>(op.attrs);
  const OperandDescriptor& in = graph.desc(op.inputs.at(0));
  const std::vector<size_t> in_strides = strides_of(in.shape);
  AxisMap::Rule rule = AxisMap::Rule::kConstant;
  if (attrs.mode == PaddingMode::kEdge) rule = AxisMap::Rule::kEdge;
  if (attrs.mode == PaddingMode::kReflection) rule = AxisMap::Rule::kReflection;
  std::vector<AxisMap> maps;
  for (size_t d = 0; d < in.rank(); ++d) {
    const int64_t begin = attrs.beginning_padding.at(d), size = in.shape[d];
    maps.push_back({rule, begin, size, begin + size + attrs.ending_padding.at(d), static_cast<int64_t>(in_strides[d])});
  }
  std::byte value[8] = {};
  ops::store_number(attrs.value, in.data_type, value);
  return mapped_kernel(graph, op, std::move(maps), value);
}

// tile: output coordinate c reads input coordinate c mod size.
Kernel tile_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<TileAttrs>(op.attrs);
  const OperandDescriptor& in = graph.desc(op.inputs.at(0));
  const std::vector<size_t> in_strides = strides_of(in.shape);
  std::vector<AxisMap> maps;
  for (size_t d = 0; d < in.rank(); ++d) {
    const int64_t size = in.shape[d];
    maps.push_back(
        {AxisMap::Rule::kTile, 0, size, size * attrs.repetitions.at(d), static_cast<int64_t>(in_strides[d])});
  }
  return mapped_kernel(graph, op, std::move(maps), nullptr);
}

// Each matrix of the last two dimensions keeps element (i, j) when j - i >= diagonal (upper) or
// j - i <= diagonal (lower), as numpy's triu(x, k) and tril(x, k); the others become 0.
Kernel triangular_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<TriangularAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const size_t rows = in.shape.at(in.rank() - 2), cols = in.shape.at(in.rank() - 1);
  const size_t matrices = element_count(in) / (rows * cols);
  const bool upper = attrs.upper;
  const int64_t diagonal = attrs.diagonal;
  const size_t size = element_size(in.data_type);
  return [=](Values v) {
    visit_bits(size, [&]<class U>() {
      const U* src = typed<U>(v[in_id]);
      U* dst = typed<U>(v[out_id]);
      for (size_t m = 0, k = 0; m < matrices; ++m)
        for (size_t i = 0; i < rows; ++i)
          for (size_t j = 0; j < cols; ++j, ++k) {
            const int64_t offset = static_cast<int64_t>(j) - static_cast<int64_t>(i);
            dst[k] = (upper ? offset >= diagonal : offset <= diagonal) ? src[k] : U{0};
          }
    });
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
    case OpKind::kExpand:
      return expand_kernel(graph, op);
    case OpKind::kPad:
      return pad_kernel(graph, op);
    case OpKind::kReverse:
      return reverse_kernel(graph, op);
    case OpKind::kTile:
      return tile_kernel(graph, op);
    case OpKind::kTriangular:
      return triangular_kernel(graph, op);
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, describe(op) + ": not a shape operation");
}

}  // namespace webnn::reference
