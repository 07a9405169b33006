// resample2d: output shapes worked out by hand from floor(inputSize * scale) or sizes along the
// two axes, and every error rule of #api-mlgraphbuilder-resample2d-method.
#include <cmath>
#include <limits>

#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

Resample2dAttrs resample(DefaultedFloats scales, OptionalDims sizes = {}, OptionalDims axes = {},
                         InterpolationMode mode = InterpolationMode::kNearestNeighbor) {
  return Resample2dAttrs{mode, std::move(scales), std::move(sizes), std::move(axes)};
}

class Resample2dTest : public OpsTest {
 protected:
  Shape out(Shape in, Resample2dAttrs attrs) {
    return shape(OpKind::kResample2d, {input(kF32, std::move(in))}, std::move(attrs));
  }
  void error(Shape in, Resample2dAttrs attrs, const std::string& fragment) {
    expect_error(OpKind::kResample2d, {input(kF32, std::move(in))}, std::move(attrs), fragment);
  }
};

TEST_F(Resample2dTest, DefaultsKeepTheShape) {
  EXPECT_EQ(out({1, 2, 3, 4}, Resample2dAttrs{}), (Shape{1, 2, 3, 4}));
  EXPECT_EQ(out({1, 2, 3, 4}, resample({}, {}, {}, InterpolationMode::kLinear)), (Shape{1, 2, 3, 4}));
}

TEST_F(Resample2dTest, Scales) {
  EXPECT_EQ(out({1, 2, 3, 4}, resample({{2.0f, 3.0f}})), (Shape{1, 2, 6, 12}));
  EXPECT_EQ(out({1, 1, 4, 5}, resample({{0.5f, 0.5f}})), (Shape{1, 1, 2, 2}));   // floor(2.5)
  EXPECT_EQ(out({1, 1, 4, 5}, resample({{1.5f, 0.25f}})), (Shape{1, 1, 6, 1}));  // 6, floor(1.25)
  // 0.7f is 0.699999988...: 10 * 0.7f floors to 6, not 7.
  EXPECT_EQ(out({1, 1, 10, 10}, resample({{0.7f, 0.75f}})), (Shape{1, 1, 6, 7}));
}

TEST_F(Resample2dTest, SizesWinOverScales) {
  EXPECT_EQ(out({1, 2, 3, 4}, resample({}, {{5, 7}})), (Shape{1, 2, 5, 7}));
  EXPECT_EQ(out({1, 2, 3, 4}, resample({{2.0f, 2.0f}}, {{1, 1}})), (Shape{1, 2, 1, 1}));
  EXPECT_EQ(out({1, 2, 3, 4}, resample({{0.01f, 0.01f}}, {{3, 4}})), (Shape{1, 2, 3, 4}));
}

TEST_F(Resample2dTest, AnyTwoDistinctAxes) {
  EXPECT_EQ(out({4, 6, 2, 2}, resample({{0.5f, 2.0f}}, {}, {{0, 1}})), (Shape{2, 12, 2, 2}));
  EXPECT_EQ(out({1, 4, 5, 3}, resample({{2.0f, 3.0f}}, {}, {{1, 2}})), (Shape{1, 8, 15, 3}));
  // The first scale goes with the first axis, also when the axes are not in order.
  EXPECT_EQ(out({1, 1, 4, 5}, resample({{2.0f, 3.0f}}, {}, {{3, 2}})), (Shape{1, 1, 12, 10}));
  EXPECT_EQ(out({2, 3, 4, 5}, resample({}, {{7, 9}}, {{3, 0}})), (Shape{9, 3, 4, 7}));
  EXPECT_EQ(out({2, 3, 4, 5}, resample({{3.0f, 2.0f}}, {}, {{0, 3}})), (Shape{6, 3, 4, 10}));
}

TEST_F(Resample2dTest, DataTypes) {
  for (DataType t : {kF32, kF16, kI8, kU8})
    EXPECT_EQ(output(OpKind::kResample2d, {input(t, {1, 1, 2, 2})}, resample({{2.0f, 2.0f}})),
              (OperandDescriptor{t, {1, 1, 4, 4}}));
  for (DataType t : {kI32, kU32, kI64, kU64})
    expect_error(OpKind::kResample2d, {input(t, {1, 1, 2, 2})}, Resample2dAttrs{}, "resample2d: input data type");
}

TEST_F(Resample2dTest, InputErrors) {
  error({1, 2, 3}, Resample2dAttrs{}, "input must be");
  error({1, 1, 2, 3, 4}, Resample2dAttrs{}, "input must be");
  expect_error(OpKind::kResample2d, {}, Resample2dAttrs{}, "1 positional");
}

TEST_F(Resample2dTest, ScalesErrors) {
  error({1, 1, 4, 4}, resample({{2.0f}}), "scales must have 2 values, got 1");
  error({1, 1, 4, 4}, resample({{2.0f, 2.0f, 2.0f}}), "scales must have 2 values, got 3");
  error({1, 1, 4, 4}, resample({{2.0f, 0.0f}}), "scales [2, 0] must be greater than 0");
  error({1, 1, 4, 4}, resample({{-1.0f, 2.0f}}), "must be greater than 0");
  // Checked even when sizes is given (and would win).
  error({1, 1, 4, 4}, resample({{-1.0f, 2.0f}}, {{2, 2}}), "scales");
  error({1, 1, 4, 4}, resample({{2.0f}}, {{2, 2}}), "scales");
  // NaN is not <= 0, so it passes that check and fails the output size one, as does Infinity.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  error({1, 1, 4, 4}, resample({{nan, 1.0f}}), "not a valid dimension");
  error({1, 1, 4, 4}, resample({{1.0f, inf}}), "not a valid dimension");
}

TEST_F(Resample2dTest, SizesErrors) {
  error({1, 1, 4, 4}, resample({}, {{2}}), "sizes must have 2 values");
  error({1, 1, 4, 4}, resample({}, {{2, 2, 2}}), "sizes must have 2 values");
  error({1, 1, 4, 4}, resample({}, {{2, 0}}), "sizes [2, 0] must not contain 0");
  error({1, 1, 4, 4}, resample({}, {{2147483648u, 2}}), "axis 2 (2147483648) is not a valid dimension");
}

TEST_F(Resample2dTest, AxesErrors) {
  error({1, 1, 4, 4}, resample({}, {}, {{2}}), "axes must have 2 values");
  error({1, 1, 4, 4}, resample({}, {}, {{1, 2, 3}}), "axes must have 2 values");
  error({1, 1, 4, 4}, resample({}, {}, {{2, 2}}), "appears more than once");
  error({1, 1, 4, 4}, resample({}, {}, {{2, 4}}), "out of range");
}

TEST_F(Resample2dTest, OutputSizeErrors) {
  error({1, 1, 3, 4}, resample({{0.2f, 1.0f}}), "axis 2 (3 * [0.2], floored) is not a valid dimension");  // 0.6
  error({1, 1, 3, 4}, resample({{1.0f, 0.2f}}), "axis 3");                                                // 0.8
  error({1, 1, 3, 4}, resample({{1e9f, 1.0f}}), "not a valid dimension");  // 3e9 > 2^31 - 1
}

}  // namespace
}  // namespace webnn::testing
