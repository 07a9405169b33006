#include "backends/onednn/memory_desc.hpp"

#include <algorithm>

namespace webnn::onednn {

using dnnl::memory;

Dims dims_of(const Shape& shape) {
  if (shape.empty()) return {1};
  return Dims(shape.begin(), shape.end());
}

Dims row_major_strides(const Dims& dims) {
  Dims strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

Shape dims_of_md(const memory::desc& md) {
  Shape shape;
  for (int64_t d : md.dims()) shape.push_back(static_cast<uint32_t>(d));
  return shape;
}

Shape pad_rank(const Shape& shape, size_t rank) {
  Shape out(rank - std::min(rank, shape.size()), 1);
  out.insert(out.end(), shape.begin(), shape.end());
  return out;
}

memory::desc plain_view(const Shape& shape, const std::vector<int>& axes, memory::data_type type) {
  const Dims dims = dims_of(shape);
  const Dims strides = row_major_strides(dims);
  if (axes.empty()) return memory::desc(dims, type, strides);
  Dims d, s;
  for (int a : axes) {
    d.push_back(dims[static_cast<size_t>(a)]);
    s.push_back(strides[static_cast<size_t>(a)]);
  }
  return memory::desc(d, type, s);
}

std::optional<std::pair<Dims, Dims>> broadcast_as_3d(const Shape& out, const Shape& b) {
  Dims full, part;
  std::optional<bool> broadcast;  // whether the current group is broadcast
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 1) continue;
    const bool here = b[i] == 1;
    if (broadcast != here) {
      full.push_back(1);
      part.push_back(1);
      broadcast = here;
    }
    full.back() *= out[i];
    if (!here) part.back() *= out[i];
  }
  if (full.size() > 3) return std::nullopt;
  while (full.size() < 3) {
    full.insert(full.begin(), 1);
    part.insert(part.begin(), 1);
  }
  return std::pair{full, part};
}

memory::desc as_rows(const Shape& shape, memory::data_type type) {
  const int64_t cols = shape.empty() ? 1 : shape.back();
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) rows *= shape[i];
  return memory::desc({rows, cols}, type, Dims{cols, 1});
}

std::vector<int> canonical_axes(std::vector<int> axes) {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != static_cast<int>(i)) return axes;
  return {};
}

std::vector<int> image_axes(InputLayout layout) {
  return layout == InputLayout::kNchw ? std::vector<int>{} : std::vector<int>{0, 3, 1, 2};
}

bool is_f32(const OperandDescriptor& desc) { return desc.data_type == DataType::kFloat32; }

std::optional<memory::data_type> onednn_type(DataType type) {
  switch (type) {
    case DataType::kFloat32:
      return memory::data_type::f32;
    case DataType::kUint8:
      return memory::data_type::u8;
    case DataType::kInt8:
      return memory::data_type::s8;
    default:
      return std::nullopt;
  }
}

bool has_md(const OperandDescriptor& desc) { return onednn_type(desc.data_type).has_value(); }

}  // namespace webnn::onednn
