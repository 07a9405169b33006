// reduceMean. spec: #api-mlgraphbuilder-reduce
//
// Absent axes reduce every dimension; an empty list reduces none (each output is its own input
// value). keepDimensions only changes the shape, which the graph already holds, so the kernel
// works with the kept-dimension layout. Sums accumulate in double and round once.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"

namespace webnn::reference {

namespace {

template <class T>
Kernel reduce_mean_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<ReduceAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const Shape shape = graph.desc(in_id).shape;
  const size_t rank = shape.size();
  std::vector<bool> reduced(rank, !attrs.axes.has_value());
  if (attrs.axes)
    for (uint32_t a : *attrs.axes) reduced.at(a) = true;
  // Stride of each input dimension into the output (0 for reduced dimensions).
  std::vector<size_t> out_strides(rank, 0);
  size_t out_count = 1, group = 1;
  for (size_t d = rank; d-- > 0;) {
    if (reduced[d]) {
      group *= shape[d];
    } else {
      out_strides[d] = out_count;
      out_count *= shape[d];
    }
  }
  std::vector<double> sums(out_count);
  return [=, sums = std::move(sums)](Values v) mutable {
    const T* in = typed<T>(v[in_id]);
    T* out = typed<T>(v[out_id]);
    std::fill(sums.begin(), sums.end(), 0.0);
    const std::vector<size_t> strides[1] = {out_strides};
    for_each_offset(shape, strides, [&](size_t i, const size_t* o) { sums[o[0]] += static_cast<double>(load(in[i])); });
    for (size_t i = 0; i < out_count; ++i)
      out[i] = store<T>(static_cast<Compute<T>>(sums[i] / static_cast<double>(group)));
  };
}

}  // namespace

Kernel make_reduction_kernel(const Graph& graph, const Operation& op) {
  return make_float_kernel(graph, op, [&]<class T>() { return reduce_mean_kernel<T>(graph, op); });
}

}  // namespace webnn::reference
