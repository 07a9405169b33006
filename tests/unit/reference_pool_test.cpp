// averagePool2d and maxPool2d on the reference backend. The input is 0..15 as a 4x4 plane; the
// expected values were worked out by hand and checked with a naive Python loop (padding and
// out-of-input elements excluded from the window, so from the average's count).
#include <gtest/gtest.h>

#include <cstdint>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

std::vector<float> iota16() {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = float(i);
  return v;
}

std::vector<float> pool(OpKind kind, const Pool2dAttrs& attrs, Shape out_shape, bool half = false) {
  const TensorData in = half ? f16({1, 1, 4, 4}, iota16()) : f32({1, 1, 4, 4}, iota16());
  const DataType type = in.desc.data_type;
  const TensorData out = run_op(kind, {in}, attrs, desc(type, std::move(out_shape)));
  return half ? half_values(out) : values<float>(out);
}

Pool2dAttrs window(uint32_t h, uint32_t w) {
  Pool2dAttrs a;
  a.window_dimensions = std::vector<uint32_t>{h, w};
  return a;
}

TEST(ReferencePool2d, StridedWindows) {
  Pool2dAttrs a = window(2, 2);
  a.strides = std::vector<uint32_t>{2, 2};
  EXPECT_EQ(pool(OpKind::kMaxPool2d, a, {1, 1, 2, 2}), (std::vector<float>{5, 7, 13, 15}));
  EXPECT_EQ(pool(OpKind::kAveragePool2d, a, {1, 1, 2, 2}), (std::vector<float>{2.5f, 4.5f, 10.5f, 12.5f}));
  EXPECT_EQ(pool(OpKind::kAveragePool2d, a, {1, 1, 2, 2}, true), (std::vector<float>{2.5f, 4.5f, 10.5f, 12.5f}));
}

TEST(ReferencePool2d, DefaultWindowIsTheWholeInput) {
  EXPECT_EQ(pool(OpKind::kAveragePool2d, Pool2dAttrs{}, {1, 1, 1, 1}), (std::vector<float>{7.5f}));
  EXPECT_EQ(pool(OpKind::kMaxPool2d, Pool2dAttrs{}, {1, 1, 1, 1}), (std::vector<float>{15}));
}

TEST(ReferencePool2d, AverageExcludesPaddingFromTheCount) {
  Pool2dAttrs a = window(3, 3);
  a.padding = std::vector<uint32_t>{1, 1, 1, 1};
  EXPECT_EQ(pool(OpKind::kAveragePool2d, a, {1, 1, 4, 4}),
            (std::vector<float>{2.5f, 3, 4, 4.5f, 4.5f, 5, 6, 6.5f, 8.5f, 9, 10, 10.5f, 10.5f, 11, 12, 12.5f}));
  a.strides = std::vector<uint32_t>{2, 2};
  EXPECT_EQ(pool(OpKind::kMaxPool2d, a, {1, 1, 2, 2}), (std::vector<float>{5, 7, 13, 15}));
  // Asymmetric padding and a non-square window.
  Pool2dAttrs b = window(2, 3);
  b.padding = std::vector<uint32_t>{1, 0, 0, 2};
  b.strides = std::vector<uint32_t>{2, 2};
  EXPECT_EQ(pool(OpKind::kAveragePool2d, b, {1, 1, 2, 2}), (std::vector<float>{1, 2.5f, 7, 8.5f}));
}

TEST(ReferencePool2d, CeilRoundingOverhangsTheInput) {
  // 4x4, window 3, stride 2: floor gives 1x1, ceil 2x2 with windows running past the edge.
  Pool2dAttrs a = window(3, 3);
  a.strides = std::vector<uint32_t>{2, 2};
  a.output_shape_rounding = RoundingType::kCeil;
  EXPECT_EQ(pool(OpKind::kMaxPool2d, a, {1, 1, 2, 2}), (std::vector<float>{10, 11, 14, 15}));
  EXPECT_EQ(pool(OpKind::kAveragePool2d, a, {1, 1, 2, 2}), (std::vector<float>{5, 6.5f, 11, 12.5f}));
  // outputSizes picks the ceil shape the same way.
  Pool2dAttrs b = window(3, 3);
  b.strides = std::vector<uint32_t>{2, 2};
  b.output_sizes = std::vector<uint32_t>{2, 2};
  EXPECT_EQ(pool(OpKind::kAveragePool2d, b, {1, 1, 2, 2}), (std::vector<float>{5, 6.5f, 11, 12.5f}));
  a.output_shape_rounding = RoundingType::kFloor;
  EXPECT_EQ(pool(OpKind::kAveragePool2d, a, {1, 1, 1, 1}), (std::vector<float>{5}));
  // Padding still applies with outputSizes (as src/ops/pool.cpp and WPT read the spec): windows
  // start at -1 and 1, giving floor((4 + 2 - 3) / 2 + 1) = 2 outputs per side.
  b.padding = std::vector<uint32_t>{1, 1, 1, 1};
  EXPECT_EQ(pool(OpKind::kAveragePool2d, b, {1, 1, 2, 2}), (std::vector<float>{2.5f, 4, 8.5f, 10}));
}

TEST(ReferencePool2d, Dilations) {
  Pool2dAttrs a = window(2, 2);
  a.dilations = std::vector<uint32_t>{2, 2};
  EXPECT_EQ(pool(OpKind::kAveragePool2d, a, {1, 1, 2, 2}), (std::vector<float>{5, 6, 9, 10}));
  EXPECT_EQ(pool(OpKind::kMaxPool2d, a, {1, 1, 2, 2}), (std::vector<float>{10, 11, 14, 15}));
}

TEST(ReferencePool2d, NhwcWithTwoChannels) {
  // Channel 0 holds 0..15, channel 1 holds 100 - (0..15), interleaved.
  std::vector<float> in;
  for (int i = 0; i < 16; ++i) {
    in.push_back(float(i));
    in.push_back(float(100 - i));
  }
  Pool2dAttrs a = window(2, 2);
  a.strides = std::vector<uint32_t>{2, 2};
  a.layout = InputLayout::kNhwc;
  TensorData out = run_op(OpKind::kMaxPool2d, {f32({1, 4, 4, 2}, in)}, a, desc(DataType::kFloat32, {1, 2, 2, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{5, 100, 7, 98, 13, 92, 15, 90}));
  out = run_op(OpKind::kAveragePool2d, {f32({1, 4, 4, 2}, in)}, a, desc(DataType::kFloat32, {1, 2, 2, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{2.5f, 97.5f, 4.5f, 95.5f, 10.5f, 89.5f, 12.5f, 87.5f}));
}

TEST(ReferencePool2d, MaxPoolIntegerTypes) {
  Pool2dAttrs a = window(2, 2);
  a.strides = std::vector<uint32_t>{2, 2};
  a.padding = std::vector<uint32_t>{1, 1, 1, 1};
  // int8 3x3 with negatives: padding must not contribute (it would be 0 > every value).
  const TensorData out = run_op(OpKind::kMaxPool2d,
                                {tensor<int8_t>(DataType::kInt8, {1, 1, 3, 3}, {-9, -8, -7, -6, -5, -4, -3, -2, -128})},
                                a, desc(DataType::kInt8, {1, 1, 2, 2}));
  EXPECT_EQ(values<int8_t>(out), (std::vector<int8_t>{-9, -7, -3, -2}));
  const TensorData big =
      run_op(OpKind::kMaxPool2d,
             {tensor<uint64_t>(DataType::kUint64, {1, 1, 1, 2}, {18446744073709551615ull, 9007199254740993ull})},
             Pool2dAttrs{}, desc(DataType::kUint64, {1, 1, 1, 1}));
  EXPECT_EQ(values<uint64_t>(big), (std::vector<uint64_t>{18446744073709551615ull}));
}

TEST(ReferencePool2d, AveragePoolRejectsIntegers) {
  EXPECT_THROW(run_op(OpKind::kAveragePool2d, {tensor<int32_t>(DataType::kInt32, {1, 1, 1, 1}, {1})}, Pool2dAttrs{},
                      desc(DataType::kInt32, {1, 1, 1, 1})),
               Error);
}

}  // namespace
}  // namespace webnn::test
