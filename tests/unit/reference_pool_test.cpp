// averagePool2d, l2Pool2d and maxPool2d on the reference backend. The input is 0..15 as a 4x4
// plane; the expected values were worked out by hand and checked with a naive Python loop
// (padding and out-of-input elements excluded from the window, so from the average's count).
// l2Pool2d's values come from numpy float64: sqrt of the sum of squares over the window's
// elements inside the input, rounded to float32 (or float16).
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

TEST(ReferenceL2Pool2d, WindowsStridesAndTheDefaultWholeInput) {
  Pool2dAttrs a = window(2, 2);
  a.strides = std::vector<uint32_t>{2, 2};
  // sqrt(0 + 1 + 16 + 25) = sqrt(42), sqrt(4 + 9 + 36 + 49) = sqrt(98), ...
  expect_near(pool(OpKind::kL2Pool2d, a, {1, 1, 2, 2}),
              {6.480740547180176f, 9.899495124816895f, 21.40093421936035f, 25.337718963623047f}, 0, 1e-7);
  expect_near(pool(OpKind::kL2Pool2d, Pool2dAttrs{}, {1, 1, 1, 1}), {35.2136344909668f}, 0, 1e-7);  // sqrt(1240)
  // float16 input, computed in double and rounded once to float16.
  EXPECT_EQ(pool(OpKind::kL2Pool2d, a, {1, 1, 2, 2}, true),
            (std::vector<float>{6.48046875f, 9.8984375f, 21.40625f, 25.34375f}));
}

TEST(ReferenceL2Pool2d, PaddingAddsNothing) {
  Pool2dAttrs a = window(3, 3);
  a.padding = std::vector<uint32_t>{1, 1, 1, 1};
  expect_near(pool(OpKind::kL2Pool2d, a, {1, 1, 4, 4}),
              {6.480740547180176f, 9.05538558959961f, 11.135528564453125f, 9.899495124816895f, 13.67479419708252f,
               18.083141326904297f, 20.639766693115234f, 17.860570907592773f, 22.338308334350586f, 28.827070236206055f,
               31.654382705688477f, 26.96293830871582f, 21.40093421936035f, 27.459060668945312f, 29.866369247436523f,
               25.337718963623047f},
              0, 1e-7);
  // Asymmetric padding and a non-square window.
  Pool2dAttrs b = window(2, 3);
  b.padding = std::vector<uint32_t>{1, 0, 0, 2};
  b.strides = std::vector<uint32_t>{2, 2};
  expect_near(pool(OpKind::kL2Pool2d, b, {1, 1, 2, 2}),
              {2.2360680103302f, 3.605551242828369f, 17.944358825683594f, 17.492855072021484f}, 0, 1e-7);
}

TEST(ReferenceL2Pool2d, CeilRoundingOutputSizesAndDilations) {
  Pool2dAttrs a = window(3, 3);
  a.strides = std::vector<uint32_t>{2, 2};
  a.output_shape_rounding = RoundingType::kCeil;
  const std::vector<float> ceil = {18.083141326904297f, 17.860570907592773f, 27.459060668945312f, 25.337718963623047f};
  expect_near(pool(OpKind::kL2Pool2d, a, {1, 1, 2, 2}), ceil, 0, 1e-7);
  a.output_shape_rounding = RoundingType::kFloor;
  expect_near(pool(OpKind::kL2Pool2d, a, {1, 1, 1, 1}), {18.083141326904297f}, 0, 1e-7);
  a.output_sizes = std::vector<uint32_t>{2, 2};  // the ceil shape
  expect_near(pool(OpKind::kL2Pool2d, a, {1, 1, 2, 2}), ceil, 0, 1e-7);
  a.padding = std::vector<uint32_t>{1, 1, 1, 1};  // windows start at -1 and 1
  expect_near(pool(OpKind::kL2Pool2d, a, {1, 1, 2, 2}),
              {6.480740547180176f, 11.135528564453125f, 22.338308334350586f, 31.654382705688477f}, 0, 1e-7);
  Pool2dAttrs d = window(2, 2);
  d.dilations = std::vector<uint32_t>{2, 2};
  expect_near(pool(OpKind::kL2Pool2d, d, {1, 1, 2, 2}),
              {12.961481094360352f, 14.560219764709473f, 19.79899024963379f, 21.63330841064453f}, 0, 1e-7);
}

TEST(ReferenceL2Pool2d, NhwcWithTwoChannels) {
  std::vector<float> in;  // channel 0 holds 0..15, channel 1 holds 100 - (0..15), interleaved
  for (int i = 0; i < 16; ++i) {
    in.push_back(float(i));
    in.push_back(float(100 - i));
  }
  Pool2dAttrs a = window(2, 2);
  a.strides = std::vector<uint32_t>{2, 2};
  a.layout = InputLayout::kNhwc;
  const TensorData out = run_op(OpKind::kL2Pool2d, {f32({1, 4, 4, 2}, in)}, a, desc(DataType::kFloat32, {1, 2, 2, 2}));
  expect_near(values<float>(out),
              {6.480740547180176f, 195.0435791015625f, 9.899495124816895f, 191.04449462890625f, 21.40093421936035f,
               179.0474853515625f, 25.337718963623047f, 175.04856872558594f},
              0, 1e-7);
}

TEST(ReferenceL2Pool2d, SignsSpecialValuesAndEmptyWindows) {
  // 1x1 window, padding 2 rows on top: the first two output rows see only padding and give 0.
  Pool2dAttrs a = window(1, 2);
  a.padding = std::vector<uint32_t>{2, 0, 0, 0};
  a.strides = std::vector<uint32_t>{1, 2};
  const float inf = INFINITY;
  const TensorData out =
      run_op(OpKind::kL2Pool2d, {f32({1, 1, 3, 4}, {-3, 4, 0, -0.0f, inf, 1, NAN, 2, -inf, 1, 1, 1})}, a,
             desc(DataType::kFloat32, {1, 1, 5, 2}));
  const std::vector<float> y = values<float>(out);
  EXPECT_EQ((std::vector<float>(y.begin(), y.begin() + 6)), (std::vector<float>{0, 0, 0, 0, 5, 0}));
  EXPECT_EQ(y[6], inf);
  EXPECT_TRUE(std::isnan(y[7]));
  EXPECT_EQ(y[8], inf);  // (-inf)^2 = inf
  EXPECT_FLOAT_EQ(y[9], std::sqrt(2.0f));
}

TEST(ReferencePool2d, AveragePoolRejectsIntegers) {
  EXPECT_THROW(run_op(OpKind::kAveragePool2d, {tensor<int32_t>(DataType::kInt32, {1, 1, 1, 1}, {1})}, Pool2dAttrs{},
                      desc(DataType::kInt32, {1, 1, 1, 1})),
               Error);
}

}  // namespace
}  // namespace webnn::test
