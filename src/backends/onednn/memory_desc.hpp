// oneDNN memory descriptors of the plan's tensors: row-major views (through permuted axes, as 2-D
// rows, at a broadcast rank) and which data types carry a oneDNN layout at all.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "graph/graph.hpp"

namespace webnn::onednn {

using Dims = dnnl::memory::dims;

// oneDNN has no rank-0 memory: a scalar is a 1-D tensor of one element.
Dims dims_of(const Shape& shape);
Dims row_major_strides(const Dims& dims);
// The dims of a oneDNN descriptor as a Shape.
Shape dims_of_md(const dnnl::memory::desc& md);
// `shape` with ones prepended up to `rank` (numpy broadcasting aligns shapes at the right).
Shape pad_rank(const Shape& shape, size_t rank);

// The memory descriptor (float32 unless `type` says otherwise) of a row-major tensor of `shape`
// seen through `axes`: logical dimension i of the descriptor is axis axes[i] of the tensor (empty
// `axes`: the identity).
dnnl::memory::desc plain_view(const Shape& shape, const std::vector<int>& axes = {},
                              dnnl::memory::data_type type = dnnl::memory::data_type::f32);
// A broadcast of `b` (padded to `out`'s rank) over `out`, both row-major, as a 3-D view of the same
// bytes: adjacent axes that `b` broadcasts alike merge into one (axes of size 1 join any), and
// ones are prepended up to 3 axes. The [out, b] dims, or nullopt where more than 3 groups remain
// ([1, 56, 56, 96] against [1, 56, 56, 1]: [1, 3136, 96] against [1, 3136, 1]).
std::optional<std::pair<Dims, Dims>> broadcast_as_3d(const Shape& out, const Shape& b);
// A row-major tensor as the 2-D view [product of all dims but the last, last dim] of its bytes.
dnnl::memory::desc as_rows(const Shape& shape, dnnl::memory::data_type type = dnnl::memory::data_type::f32);
// Axes of an NCHW-ordered oneDNN view of a tensor in `layout` (empty: the identity, as everywhere).
std::vector<int> image_axes(InputLayout layout);
// `axes` as the plan's tensors hold them: empty for the identity.
std::vector<int> canonical_axes(std::vector<int> axes);

bool is_f32(const OperandDescriptor& desc);
// The oneDNN type of the tensors that carry a layout: float32, and the 8-bit types of int8 QDQ
// (quantized.hpp). Every other type stays plain, with no descriptor.
std::optional<dnnl::memory::data_type> onednn_type(DataType type);
bool has_md(const OperandDescriptor& desc);

}  // namespace webnn::onednn
