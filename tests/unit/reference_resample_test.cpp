// resample2d on the reference backend. Expected values come from numpy float64 applying the
// spec's formulas literally, per resampled axis (independently of the kernel, which works in
// integers): scale = outputSize / inputSize, coordinate = clamp((o + 0.5) / scale - 0.5, 0,
// inputSize - 1); nearest-neighbor takes index ceil(coordinate - 0.5); linear interpolates along
// the second axis (x), then the first (y). Results are rounded to the output type (float32,
// float16, or np.round — half to even — for int8 and uint8). The 8x8 case is the spec's own
// example.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

Resample2dAttrs attrs(InterpolationMode mode, DefaultedFloats scales, OptionalDims sizes = {}, OptionalDims axes = {}) {
  return Resample2dAttrs{mode, std::move(scales), std::move(sizes), std::move(axes)};
}
constexpr InterpolationMode kNearest = InterpolationMode::kNearestNeighbor;
constexpr InterpolationMode kLinear = InterpolationMode::kLinear;

std::vector<float> resample(const TensorData& in, const Resample2dAttrs& a, Shape out_shape) {
  const DataType type = in.desc.data_type;
  const TensorData out = run_op(OpKind::kResample2d, {in}, a, desc(type, std::move(out_shape)));
  return type == DataType::kFloat16 ? half_values(out) : values<float>(out);
}

TEST(ReferenceResample2d, TheSpecsLinearExample) {
  const std::vector<float> in = {0, 1, 2, 3, 0, 1, 2, 3, 12, 13, 14, 15, 12, 13, 14, 15};
  const std::vector<float> expected = {0,  0.25f,  0.75f,  1.25f,  1.75f,  2.25f,  2.75f,  3,   //
                                       0,  0.25f,  0.75f,  1.25f,  1.75f,  2.25f,  2.75f,  3,   //
                                       0,  0.25f,  0.75f,  1.25f,  1.75f,  2.25f,  2.75f,  3,   //
                                       3,  3.25f,  3.75f,  4.25f,  4.75f,  5.25f,  5.75f,  6,   //
                                       9,  9.25f,  9.75f,  10.25f, 10.75f, 11.25f, 11.75f, 12,  //
                                       12, 12.25f, 12.75f, 13.25f, 13.75f, 14.25f, 14.75f, 15,  //
                                       12, 12.25f, 12.75f, 13.25f, 13.75f, 14.25f, 14.75f, 15,  //
                                       12, 12.25f, 12.75f, 13.25f, 13.75f, 14.25f, 14.75f, 15};
  // By scales, by sizes, and both (sizes wins over scales that would give another shape).
  EXPECT_EQ(resample(f32({1, 1, 4, 4}, in), attrs(kLinear, {{2.0f, 2.0f}}), {1, 1, 8, 8}), expected);
  EXPECT_EQ(resample(f32({1, 1, 4, 4}, in), attrs(kLinear, {}, {{8, 8}}), {1, 1, 8, 8}), expected);
  EXPECT_EQ(resample(f32({1, 1, 4, 4}, in), attrs(kLinear, {{0.5f, 3.0f}}, {{8, 8}}), {1, 1, 8, 8}), expected);
  EXPECT_EQ(resample(f16({1, 1, 4, 4}, in), attrs(kLinear, {{2.0f, 2.0f}}), {1, 1, 8, 8}), expected);
}

TEST(ReferenceResample2d, UpsampleByANonIntegerRatio) {
  const std::vector<float> in = {1, 2, 3, 4, 5, 6};  // [1, 1, 2, 3] -> [1, 1, 5, 7]
  EXPECT_EQ(resample(f32({1, 1, 2, 3}, in), attrs(kNearest, {}, {{5, 7}}), {1, 1, 5, 7}),
            (std::vector<float>{1, 1, 2, 2, 2, 3, 3, 1, 1, 2, 2, 2, 3, 3, 1, 1, 2, 2, 2, 3, 3,  //
                                4, 4, 5, 5, 5, 6, 6, 4, 4, 5, 5, 5, 6, 6}));
  expect_near(resample(f32({1, 1, 2, 3}, in), attrs(kLinear, {}, {{5, 7}}), {1, 1, 5, 7}),
              {1.0f,
               1.1428571939468384f,
               1.5714285373687744f,
               2.0f,
               2.4285714626312256f,
               2.857142925262451f,
               3.0f,
               1.2999999523162842f,
               1.4428571462631226f,
               1.8714286088943481f,
               2.299999952316284f,
               2.7285714149475098f,
               3.1571428775787354f,
               3.299999952316284f,
               2.5f,
               2.642857074737549f,
               3.0714285373687744f,
               3.5f,
               3.9285714626312256f,
               4.357142925262451f,
               4.5f,
               3.700000047683716f,
               3.8428571224212646f,
               4.27142858505249f,
               4.699999809265137f,
               5.128571510314941f,
               5.557142734527588f,
               5.699999809265137f,
               4.0f,
               4.142857074737549f,
               4.5714287757873535f,
               5.0f,
               5.4285712242126465f,
               5.857142925262451f,
               6.0f},
              0, 1.2e-7);
}

TEST(ReferenceResample2d, DownsampleAndNearestTies) {
  std::vector<float> in(16);
  for (int i = 0; i < 16; ++i) in[i] = float(i);
  // 4 -> 2: the coordinates are 0.5 and 2.5, exactly between two elements: nearest takes the
  // lower one (ceil(x - 0.5)), linear the mean.
  EXPECT_EQ(resample(f32({1, 1, 4, 4}, in), attrs(kNearest, {{0.5f, 0.5f}}), {1, 1, 2, 2}),
            (std::vector<float>{0, 2, 8, 10}));
  EXPECT_EQ(resample(f32({1, 1, 4, 4}, in), attrs(kLinear, {{0.5f, 0.5f}}), {1, 1, 2, 2}),
            (std::vector<float>{2.5f, 4.5f, 10.5f, 12.5f}));
  // 5 -> 3 (scale 0.6): coordinates 1/3, 2, 11/3.
  const std::vector<float> row = {0, 1, 2, 3, 4};
  EXPECT_EQ(resample(f32({1, 1, 1, 5}, row), attrs(kNearest, {}, {{1, 3}}), {1, 1, 1, 3}),
            (std::vector<float>{0, 2, 4}));
  expect_near(resample(f32({1, 1, 1, 5}, row), attrs(kLinear, {{1.0f, 0.6f}}), {1, 1, 1, 3}),
              {0.3333333432674408f, 2.0f, 3.6666667461395264f}, 0, 1.2e-7);
}

TEST(ReferenceResample2d, ScalesUseTheRatioOfTheSizes) {
  // 5 * 1.5 floors to 7: the coordinates use scale 7 / 5, not 1.5 (with 1.5 the linear row would
  // be 0, 0.5, 1.17, ...).
  const std::vector<float> row = {0, 1, 2, 3, 4};
  expect_near(resample(f32({1, 1, 1, 5}, row), attrs(kLinear, {{1.0f, 1.5f}}), {1, 1, 1, 7}),
              {0.0f, 0.5714285969734192f, 1.2857142686843872f, 2.0f, 2.7142856121063232f, 3.4285714626312256f, 4.0f}, 0,
              1.2e-7);
  EXPECT_EQ(resample(f32({1, 1, 1, 5}, row), attrs(kNearest, {{1.0f, 1.5f}}), {1, 1, 1, 7}),
            (std::vector<float>{0, 1, 1, 2, 3, 3, 4}));
}

TEST(ReferenceResample2d, OtherAxes) {
  // axes [1, 2]: an NHWC image with 2 channels, 2x2 -> 3x4.
  EXPECT_EQ(
      resample(f32({1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40}), attrs(kLinear, {}, {{3, 4}}, {{1, 2}}), {1, 3, 4, 2}),
      (std::vector<float>{1,     10,    1.25f, 12.5f, 1.75f, 17.5f, 2,     20,    2,     20,    2.25f, 22.5f,  //
                          2.75f, 27.5f, 3,     30,    3,     30,    3.25f, 32.5f, 3.75f, 37.5f, 4,     40}));
  // axes [3, 0], out of order: the first size goes to axis 3, the second to axis 0.
  expect_near(resample(f32({2, 1, 1, 3}, {1, 2, 4, 8, 16, 32}), attrs(kLinear, {}, {{5, 3}}, {{3, 0}}), {3, 1, 1, 5}),
              {1.0f, 1.399999976158142f, 2.0f, 3.200000047683716f, 4.0f, 4.5f, 6.300000190734863f, 9.0f,
               14.399999618530273f, 18.0f, 8.0f, 11.199999809265137f, 16.0f, 25.600000381469727f, 32.0f},
              0, 1.2e-7);
  // axes [0, 1] with nearest: [2, 3, 1, 1] -> [3, 2, 1, 1].
  EXPECT_EQ(
      resample(f32({2, 3, 1, 1}, {0, 1, 2, 3, 4, 5}), attrs(kNearest, {{1.5f, 0.7f}}, {}, {{0, 1}}), {3, 2, 1, 1}),
      (std::vector<float>{0, 2, 0, 2, 3, 5}));
}

TEST(ReferenceResample2d, Float16RoundsOnce) {
  // Inputs are float16 values; numpy interpolates them in float64 and rounds to float16.
  EXPECT_EQ(resample(f16({1, 1, 2, 2}, {0.1f, 0.7f, -1.3f, 2.9f}), attrs(kLinear, {{1.5f, 1.5f}}), {1, 1, 3, 3}),
            (std::vector<float>{0.0999755859375f, 0.400146484375f, 0.7001953125f, -0.60009765625f, 0.60009765625f,
                                1.80078125f, -1.2998046875f, 0.80029296875f, 2.900390625f}));
}

TEST(ReferenceResample2d, Int8AndUint8RoundHalfToEven) {
  // int8 2x4 -> 2x8, linear; the exact values include -64.25, 0.5, 1.5, 2.5 and -2.25.
  const TensorData i8 = tensor<int8_t>(DataType::kInt8, {1, 1, 2, 4}, {-128, 127, 0, 2, 1, 3, -5, 6});
  TensorData out = run_op(OpKind::kResample2d, {i8}, attrs(kLinear, {}, {{2, 8}}), desc(DataType::kInt8, {1, 1, 2, 8}));
  EXPECT_EQ(values<int8_t>(out), (std::vector<int8_t>{-128, -64, 63, 95, 32, 0, 2, 2, 1, 2, 2, 1, -3, -2, 3, 6}));
  // uint8 1x6 -> 1x12: 63.75, 191.25, 191.75, 1.75, 1.25, 190.75, 192.75, ... stay within 0..255.
  const TensorData u8 = tensor<uint8_t>(DataType::kUint8, {1, 1, 1, 6}, {0, 255, 2, 1, 254, 9});
  out = run_op(OpKind::kResample2d, {u8}, attrs(kLinear, {{1.0f, 2.0f}}), desc(DataType::kUint8, {1, 1, 1, 12}));
  EXPECT_EQ(values<uint8_t>(out), (std::vector<uint8_t>{0, 64, 191, 192, 65, 2, 1, 64, 191, 193, 70, 9}));
  // Nearest copies: 2x3 -> 5x7 as in UpsampleByANonIntegerRatio.
  const TensorData n8 = tensor<uint8_t>(DataType::kUint8, {1, 1, 2, 3}, {1, 2, 3, 4, 5, 255});
  out = run_op(OpKind::kResample2d, {n8}, attrs(kNearest, {}, {{5, 7}}), desc(DataType::kUint8, {1, 1, 5, 7}));
  EXPECT_EQ(values<uint8_t>(out), (std::vector<uint8_t>{1, 1, 2, 2, 2, 3, 3, 1, 1,   2,   2, 2, 3, 3, 1, 1,   2,  2,
                                                        2, 3, 3, 4, 4, 5, 5, 5, 255, 255, 4, 4, 5, 5, 5, 255, 255}));
}

TEST(ReferenceResample2d, SpecialValues) {
  const float inf = INFINITY;
  // Scale 1 is the identity, infinities and NaN included: neighbours of weight 0 are left out
  // (the spec's formula read literally would turn inf * 0 into NaN).
  std::vector<float> y = resample(f32({1, 1, 1, 3}, {inf, NAN, -inf}), attrs(kLinear, {}), {1, 1, 1, 3});
  EXPECT_EQ(y[0], inf);
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], -inf);
  // Between inf and a finite value: inf; between inf and -inf: NaN.
  y = resample(f32({1, 1, 1, 3}, {inf, 1, -inf}), attrs(kLinear, {}, {{1, 6}}), {1, 1, 1, 6});
  EXPECT_EQ(y[0], inf);
  EXPECT_EQ(y[1], inf);  // coordinate 0.25
  EXPECT_EQ(y[4], -inf);
  // Nearest copies NaN and -0 bit for bit.
  y = resample(f32({1, 1, 1, 2}, {NAN, -0.0f}), attrs(kNearest, {{1.0f, 2.0f}}), {1, 1, 1, 4});
  EXPECT_TRUE(std::isnan(y[0]) && std::isnan(y[1]));
  EXPECT_TRUE(std::signbit(y[2]) && std::signbit(y[3]) && y[3] == 0);
}

TEST(ReferenceResample2d, RejectsOtherIntegerTypes) {
  EXPECT_THROW(run_op(OpKind::kResample2d, {tensor<int32_t>(DataType::kInt32, {1, 1, 1, 1}, {1})}, Resample2dAttrs{},
                      desc(DataType::kInt32, {1, 1, 1, 1})),
               Error);
}

}  // namespace
}  // namespace webnn::test
