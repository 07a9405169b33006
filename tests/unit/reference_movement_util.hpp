// Test helpers for the data movement kernels (shape and gather families). Such a kernel only copies
// elements, so a test runs it on tensors whose elements all have distinct bytes and checks that
// each output element is a bit copy of the source element a map names. The maps are computed
// independently with numpy on arange inputs (each test says how), for every data type at once.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "reference_graph_util.hpp"

namespace webnn::test {

inline constexpr DataType kIndexTypes[] = {DataType::kInt32, DataType::kUint32, DataType::kInt64};

// A tensor of `type` whose element k has byte b = (k + 1 + salt + 37 b) mod 256: elements differ in
// their first byte (up to 256 of them), and every byte of an element is used.
inline TensorData patterned(DataType type, Shape shape, int salt = 0) {
  const size_t size = element_size(type);
  size_t count = 1;
  for (uint32_t d : shape) count *= d;
  TensorData t{{type, std::move(shape)}, std::vector<std::byte>(count * size)};
  for (size_t k = 0; k < count; ++k)
    for (size_t b = 0; b < size; ++b) t.bytes[k * size + b] = std::byte((k + 1 + salt + 37 * b) & 0xff);
  return t;
}

// Checks each element i of `out`: map[i] = -1 is `fill` (element bytes; all zero when empty),
// 0 <= map[i] < 1000 is element map[i] of sources[0], and map[i] >= 1000 element map[i] - 1000 of
// sources[1].
inline void expect_moved(const TensorData& out, const std::vector<const TensorData*>& sources,
                         const std::vector<int64_t>& map, std::vector<std::byte> fill = {}) {
  const size_t size = element_size(out.desc.data_type);
  if (fill.empty()) fill.assign(size, std::byte{0});
  ASSERT_EQ(out.bytes.size(), map.size() * size) << to_string(out.desc.data_type);
  for (size_t i = 0; i < map.size(); ++i) {
    const std::byte* expected = fill.data();
    if (map[i] >= 0) {
      const TensorData& source = *sources.at(map[i] >= 1000 ? 1 : 0);
      const size_t k = static_cast<size_t>(map[i] % 1000);
      ASSERT_LT(k * size, source.bytes.size());
      expected = source.bytes.data() + k * size;
    }
    EXPECT_EQ(std::memcmp(out.bytes.data() + i * size, expected, size), 0)
        << to_string(out.desc.data_type) << " element " << i << " should be " << map[i];
  }
}

// An indices tensor of int32, uint32 or int64 holding `values` (each must fit the type).
inline TensorData indices(DataType type, Shape shape, const std::vector<int64_t>& values) {
  switch (type) {
    case DataType::kInt32:
      return tensor(type, std::move(shape), std::vector<int32_t>(values.begin(), values.end()));
    case DataType::kUint32:
      return tensor(type, std::move(shape), std::vector<uint32_t>(values.begin(), values.end()));
    default:
      return tensor(type, std::move(shape), values);
  }
}

// Whether every value fits index type `type`.
inline bool fits(DataType type, const std::vector<int64_t>& values) {
  for (int64_t v : values) {
    if (type == DataType::kInt32 && (v < INT32_MIN || v > INT32_MAX)) return false;
    if (type == DataType::kUint32 && (v < 0 || v > int64_t{UINT32_MAX})) return false;
  }
  return true;
}

}  // namespace webnn::test
