// Gather and scatter kernels: gather, gatherElements, gatherND, scatterElements, scatterND.
// spec: #api-mlgraphbuilder-gather, #api-mlgraphbuilder-gatherelements, #api-mlgraphbuilder-gathernd,
// #api-mlgraphbuilder-scatterelements, #api-mlgraphbuilder-scatternd
//
// Values are moved by their bits (every data type, NaN payloads and -0 kept). Indices (int32,
// uint32 or int64) are runtime data: an index i into a dimension of size n is first clamped into
// [-n, n - 1], then a negative one counts from the end (i + n). Out-of-range indices therefore
// read or write the nearest edge, never out of bounds; this is the clamp the spec's notes ask for
// and what WPT's out-of-bound gather cases expect. Scatters write the updates in row-major order of
// the indices, so with duplicate indices the last update wins.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"

namespace webnn::reference {

namespace {

// The element index that index `i` selects in a dimension of `n` elements (n >= 1).
template <class I>
size_t clamp_index(I i, uint32_t n) {
  if constexpr (std::is_unsigned_v<I>) {
    return i >= n ? size_t{n} - 1 : static_cast<size_t>(i);
  } else {
    const int64_t v = std::clamp<int64_t>(i, -int64_t{n}, int64_t{n} - 1);
    return static_cast<size_t>(v < 0 ? v + n : v);
  }
}

// Calls make.template operator()<I>() with I the storage type of the indices operand.
template <class Make>
Kernel with_index_type(const Graph& graph, const Operation& op, Make&& make) {
  const DataType type = graph.desc(op.inputs.at(1)).data_type;
  switch (type) {
    case DataType::kInt32:
      return make.template operator()<int32_t>();
    case DataType::kUint32:
      return make.template operator()<uint32_t>();
    case DataType::kInt64:
      return make.template operator()<int64_t>();
    default:
      throw_unsupported(op, type);
  }
}

size_t product(const Shape& shape, size_t begin, size_t end) {
  size_t n = 1;
  for (size_t d = begin; d < end; ++d) n *= shape[d];
  return n;
}

// gather: with outer = prod(input.shape[0, axis)) and inner = prod(input.shape(axis, rank)),
// output block (o, k) of `inner` elements is input block (o, clamp(indices[k])).
template <class I>
Kernel gather_kernel(const Graph& graph, const Operation& op) {
  const uint32_t axis = std::get<GatherAttrs>(op.attrs).axis;
  const OperandId in_id = op.inputs.at(0), idx_id = op.inputs.at(1), out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const size_t outer = product(in.shape, 0, axis);
  const uint32_t axis_size = in.shape.at(axis);
  const size_t block_bytes = product(in.shape, axis + 1, in.rank()) * element_size(in.data_type);
  const size_t count = element_count(graph.desc(idx_id));
  return [=](Values v) {
    const std::byte* src = v[in_id];
    const I* indices = typed<I>(v[idx_id]);
    std::byte* dst = v[out_id];
    for (size_t o = 0; o < outer; ++o)
      for (size_t k = 0; k < count; ++k, dst += block_bytes)
        std::memcpy(dst, src + (o * axis_size + clamp_index(indices[k], axis_size)) * block_bytes, block_bytes);
  };
}

// gatherElements and scatterElements walk the indices tensor; element c of it addresses the
// element of the data tensor (input or output) at c with c[axis] replaced by clamp(indices[c]).
// The walk's offsets are into the data tensor with the axis left out (stride 0).
struct ElementsPlan {
  Shape indices_shape;
  std::vector<size_t> data_strides;  // stride 0 at the axis
  size_t axis_stride;
  uint32_t axis_size;
};

ElementsPlan elements_plan(const Shape& data_shape, const Shape& indices_shape, uint32_t axis) {
  ElementsPlan plan{indices_shape, strides_of(data_shape), 0, data_shape.at(axis)};
  plan.axis_stride = plan.data_strides.at(axis);
  plan.data_strides[axis] = 0;
  return plan;
}

template <class I>
Kernel gather_elements_kernel(const Graph& graph, const Operation& op) {
  const uint32_t axis = std::get<GatherAttrs>(op.attrs).axis;
  const OperandId in_id = op.inputs.at(0), idx_id = op.inputs.at(1), out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const ElementsPlan plan = elements_plan(in.shape, graph.desc(idx_id).shape, axis);
  const size_t size = element_size(in.data_type);
  return [=](Values v) {
    visit_bits(size, [&]<class U>() {
      const U* src = typed<U>(v[in_id]);
      const I* indices = typed<I>(v[idx_id]);
      U* dst = typed<U>(v[out_id]);
      const std::vector<size_t> strides[1] = {plan.data_strides};
      for_each_offset(plan.indices_shape, strides, [&](size_t i, const size_t* o) {
        dst[i] = src[o[0] + clamp_index(indices[i], plan.axis_size) * plan.axis_stride];
      });
    });
  };
}

template <class I>
Kernel scatter_elements_kernel(const Graph& graph, const Operation& op) {
  const uint32_t axis = std::get<ScatterAttrs>(op.attrs).axis;
  const OperandId in_id = op.inputs.at(0), idx_id = op.inputs.at(1), upd_id = op.inputs.at(2);
  const OperandId out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const ElementsPlan plan = elements_plan(in.shape, graph.desc(idx_id).shape, axis);
  const size_t size = element_size(in.data_type);
  const size_t bytes = *in.byte_length();
  return [=](Values v) {
    if (v[out_id] != v[in_id]) std::memcpy(v[out_id], v[in_id], bytes);
    visit_bits(size, [&]<class U>() {
      const I* indices = typed<I>(v[idx_id]);
      const U* updates = typed<U>(v[upd_id]);
      U* dst = typed<U>(v[out_id]);
      const std::vector<size_t> strides[1] = {plan.data_strides};
      for_each_offset(plan.indices_shape, strides, [&](size_t i, const size_t* o) {
        dst[o[0] + clamp_index(indices[i], plan.axis_size) * plan.axis_stride] = updates[i];
      });
    });
  };
}

// gatherND and scatterND: indices [..., c] hold `tuples` coordinates of c values each; coordinate
// t addresses a slice of prod(data.shape[c, rank)) contiguous elements of the data tensor, which
// is slice t of the gathered output / of the updates.
struct NdPlan {
  Shape data_shape;
  std::vector<size_t> data_strides;
  size_t coordinate_size;
  size_t tuples;
  size_t element_bytes;
  size_t slice_bytes;

  // The byte offset in the data tensor of the slice that coordinate `t` addresses.
  template <class I>
  size_t slice_offset(const I* indices, size_t t) const {
    size_t offset = 0;
    for (size_t j = 0; j < coordinate_size; ++j)
      offset += clamp_index(indices[t * coordinate_size + j], data_shape[j]) * data_strides[j];
    return offset * element_bytes;
  }
};

NdPlan nd_plan(const OperandDescriptor& data, const Shape& indices_shape) {
  const size_t c = indices_shape.back();
  const size_t element_bytes = element_size(data.data_type);
  return {data.shape,
          strides_of(data.shape),
          c,
          product(indices_shape, 0, indices_shape.size() - 1),
          element_bytes,
          product(data.shape, c, data.rank()) * element_bytes};
}

template <class I>
Kernel gather_nd_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), idx_id = op.inputs.at(1), out_id = op.outputs.at(0);
  const NdPlan plan = nd_plan(graph.desc(in_id), graph.desc(idx_id).shape);
  return [=](Values v) {
    const I* indices = typed<I>(v[idx_id]);
    for (size_t t = 0; t < plan.tuples; ++t)
      std::memcpy(v[out_id] + t * plan.slice_bytes, v[in_id] + plan.slice_offset(indices, t), plan.slice_bytes);
  };
}

template <class I>
Kernel scatter_nd_kernel(const Graph& graph, const Operation& op) {
  const OperandId in_id = op.inputs.at(0), idx_id = op.inputs.at(1), upd_id = op.inputs.at(2);
  const OperandId out_id = op.outputs.at(0);
  const OperandDescriptor& in = graph.desc(in_id);
  const NdPlan plan = nd_plan(in, graph.desc(idx_id).shape);
  const size_t bytes = *in.byte_length();
  return [=](Values v) {
    if (v[out_id] != v[in_id]) std::memcpy(v[out_id], v[in_id], bytes);
    const I* indices = typed<I>(v[idx_id]);
    for (size_t t = 0; t < plan.tuples; ++t)
      std::memcpy(v[out_id] + plan.slice_offset(indices, t), v[upd_id] + t * plan.slice_bytes, plan.slice_bytes);
  };
}

}  // namespace

Kernel make_gather_kernel(const Graph& graph, const Operation& op) {
  switch (op.kind) {
    case OpKind::kGather:
      return with_index_type(graph, op, [&]<class I>() { return gather_kernel<I>(graph, op); });
    case OpKind::kGatherElements:
      return with_index_type(graph, op, [&]<class I>() { return gather_elements_kernel<I>(graph, op); });
    case OpKind::kGatherNd:
      return with_index_type(graph, op, [&]<class I>() { return gather_nd_kernel<I>(graph, op); });
    case OpKind::kScatterElements:
      return with_index_type(graph, op, [&]<class I>() { return scatter_elements_kernel<I>(graph, op); });
    case OpKind::kScatterNd:
      return with_index_type(graph, op, [&]<class I>() { return scatter_nd_kernel<I>(graph, op); });
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, describe(op) + ": not a gather or scatter operation");
}

}  // namespace webnn::reference
