// averagePool2d / l2Pool2d / maxPool2d (one validation path): output shapes from
// floor-or-ceil((inputSize - ((window - 1) * dilation + 1) + padBegin + padEnd) / stride + 1),
// and every error rule of #mlgraphbuilder-pooling-op.
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

constexpr OpKind kPools[] = {OpKind::kAveragePool2d, OpKind::kL2Pool2d, OpKind::kMaxPool2d};

class Pool2dTest : public OpsTest {
 protected:
  Shape pool(OpKind kind, Shape in, Pool2dAttrs attrs = {}) {
    return shape(kind, {input(kF32, std::move(in))}, std::move(attrs));
  }
  void pool_error(OpKind kind, Shape in, Pool2dAttrs attrs, const std::string& fragment) {
    expect_error(kind, {input(kF32, std::move(in))}, std::move(attrs), fragment);
  }
};

TEST_F(Pool2dTest, GlobalWindowByDefault) {
  for (OpKind kind : kPools) {
    EXPECT_EQ(pool(kind, {1, 3, 4, 4}), (Shape{1, 3, 1, 1}));
    Pool2dAttrs nhwc;
    nhwc.layout = InputLayout::kNhwc;
    EXPECT_EQ(pool(kind, {1, 7, 7, 2048}, nhwc), (Shape{1, 1, 1, 2048}));
  }
}

TEST_F(Pool2dTest, WindowStridesPaddingDilations) {
  for (OpKind kind : kPools) {
    Pool2dAttrs a;
    a.window_dimensions = {{3, 3}};
    EXPECT_EQ(pool(kind, {1, 3, 4, 4}, a), (Shape{1, 3, 2, 2}));
    a.layout = InputLayout::kNhwc;
    EXPECT_EQ(pool(kind, {1, 5, 5, 2}, a), (Shape{1, 3, 3, 2}));
    Pool2dAttrs s;
    s.window_dimensions = {{2, 2}};
    s.strides = {{2, 2}};
    EXPECT_EQ(pool(kind, {1, 1, 112, 112}, s), (Shape{1, 1, 56, 56}));
    Pool2dAttrs d;
    d.window_dimensions = {{2, 2}};
    d.dilations = {{2, 2}};  // effective window 3
    EXPECT_EQ(pool(kind, {1, 1, 5, 5}, d), (Shape{1, 1, 3, 3}));
    Pool2dAttrs p;
    p.window_dimensions = {{3, 3}};
    p.padding = {{1, 1, 0, 2}};
    EXPECT_EQ(pool(kind, {1, 1, 5, 5}, p), (Shape{1, 1, 5, 5}));
  }
}

TEST_F(Pool2dTest, RoundingTypeAndOutputSizes) {
  for (OpKind kind : kPools) {
    // 7x7, window 4, padding 1, stride 2: (7 - 4 + 2) / 2 + 1 = 3.5.
    Pool2dAttrs a;
    a.window_dimensions = {{4, 4}};
    a.padding = {{1, 1, 1, 1}};
    a.strides = {{2, 2}};
    EXPECT_EQ(pool(kind, {1, 3, 7, 7}, a), (Shape{1, 3, 3, 3}));
    a.output_shape_rounding = RoundingType::kCeil;
    EXPECT_EQ(pool(kind, {1, 3, 7, 7}, a), (Shape{1, 3, 4, 4}));
    // outputSizes picks floor or ceil and overrides outputShapeRounding.
    a.output_sizes = {{3, 3}};
    EXPECT_EQ(pool(kind, {1, 3, 7, 7}, a), (Shape{1, 3, 3, 3}));
    a.output_shape_rounding = RoundingType::kFloor;
    a.output_sizes = {{4, 4}};
    EXPECT_EQ(pool(kind, {1, 3, 7, 7}, a), (Shape{1, 3, 4, 4}));
    a.layout = InputLayout::kNhwc;
    EXPECT_EQ(pool(kind, {1, 7, 7, 3}, a), (Shape{1, 4, 4, 3}));
    // Ceil rounding keeps a window that overhangs by less than a stride: ceil((5 - 6) / 2 + 1) = 1.
    Pool2dAttrs c;
    c.window_dimensions = {{6, 6}};
    c.strides = {{2, 2}};
    c.output_shape_rounding = RoundingType::kCeil;
    EXPECT_EQ(pool(kind, {1, 1, 5, 5}, c), (Shape{1, 1, 1, 1}));
    c.output_shape_rounding = RoundingType::kFloor;
    pool_error(kind, {1, 1, 5, 5}, c, "output size");
  }
}

TEST_F(Pool2dTest, DataTypes) {
  for (DataType t : {kI32, kU32, kI8, kU8, kF16})
    EXPECT_EQ(output(OpKind::kMaxPool2d, {input(t, {1, 3, 4, 4})}, Pool2dAttrs{}),
              (OperandDescriptor{t, {1, 3, 1, 1}}));
  expect_error(OpKind::kAveragePool2d, {input(kI64, {1, 2, 3, 3})}, Pool2dAttrs{}, "int64");
  expect_error(OpKind::kAveragePool2d, {input(kU8, {1, 2, 3, 3})}, Pool2dAttrs{}, "uint8");
  EXPECT_EQ(output(OpKind::kAveragePool2d, {input(kF16, {1, 2, 3, 3})}, Pool2dAttrs{}),
            (OperandDescriptor{kF16, {1, 2, 1, 1}}));
  // l2Pool2d: float32 and float16 only, like averagePool2d.
  EXPECT_EQ(output(OpKind::kL2Pool2d, {input(kF16, {1, 2, 3, 3})}, Pool2dAttrs{}),
            (OperandDescriptor{kF16, {1, 2, 1, 1}}));
  for (DataType t : {kI32, kU32, kI64, kU64, kI8, kU8})
    expect_error(OpKind::kL2Pool2d, {input(t, {1, 2, 3, 3})}, Pool2dAttrs{}, "l2Pool2d: input data type");
}

TEST_F(Pool2dTest, Errors) {
  for (OpKind kind : kPools) {
    SCOPED_TRACE(std::string(op_name(kind)));
    pool_error(kind, {1, 5, 5}, {}, "input");
    Pool2dAttrs a;
    a.window_dimensions = {{1, 1, 1, 1}};
    pool_error(kind, {1, 2, 5, 5}, a, "windowDimensions");
    a.window_dimensions = {{0, 2}};
    pool_error(kind, {1, 2, 5, 5}, a, "windowDimensions");
    a.window_dimensions = {{8, 2}};
    pool_error(kind, {1, 2, 5, 5}, a, "output size");
    a.window_dimensions = {{2, 8}};
    pool_error(kind, {1, 2, 5, 5}, a, "output size");
    a = {};
    a.padding = {{2, 2}};
    pool_error(kind, {1, 2, 5, 5}, a, "padding");
    a = {};
    a.strides = {{2}};
    pool_error(kind, {1, 2, 5, 5}, a, "strides");
    a.strides = {{0, 2}};
    pool_error(kind, {1, 2, 5, 5}, a, "strides");
    a = {};
    a.dilations = {{1, 1, 2}};
    pool_error(kind, {1, 2, 5, 5}, a, "dilations");
    a.dilations = {{1, 0}};
    pool_error(kind, {1, 2, 5, 5}, a, "dilations");
    // 5x5, window 2, padding 2, stride 2: (5 - 2 + 4) / 2 + 1 = 4.5, so [4, 4] or [5, 5] only.
    Pool2dAttrs o;
    o.window_dimensions = {{2, 2}};
    o.padding = {{2, 2, 2, 2}};
    o.strides = {{2, 2}};
    o.output_sizes = {{3, 3}};
    pool_error(kind, {1, 2, 5, 5}, o, "outputSizes");
    o.output_sizes = {{4, 5}};  // mixes floor and ceil
    pool_error(kind, {1, 2, 5, 5}, o, "outputSizes");
    o.output_sizes = {{1, 2, 4, 4}};
    pool_error(kind, {1, 2, 5, 5}, o, "outputSizes");
    o.output_sizes = {{0, 4}};
    pool_error(kind, {1, 2, 5, 5}, o, "outputSizes");
    Pool2dAttrs big;
    big.padding = {{4294967295u, 4294967295u, 0, 0}};
    pool_error(kind, {1, 3, 5, 5}, big, "output size");
    big.padding = {{0, 0, 4294967295u, 4294967295u}};
    pool_error(kind, {1, 3, 5, 5}, big, "output size");
  }
}

}  // namespace
}  // namespace webnn::testing
