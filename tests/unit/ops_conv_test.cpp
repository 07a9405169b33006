// conv2d: output shapes worked out by hand from
// outputSize = floor((inputSize - ((filterSize - 1) * dilation + 1) + padBegin + padEnd) / stride) + 1,
// and every error rule of #api-mlgraphbuilder-conv2d.
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

class Conv2dTest : public OpsTest {
 protected:
  Shape conv(Shape in, Shape filter, Conv2dAttrs attrs = {}) {
    return shape(OpKind::kConv2d, {input(kF32, std::move(in)), input(kF32, std::move(filter))}, std::move(attrs));
  }
  void conv_error(Shape in, Shape filter, Conv2dAttrs attrs, const std::string& fragment) {
    expect_error(OpKind::kConv2d, {input(kF32, std::move(in)), input(kF32, std::move(filter))}, std::move(attrs),
                 fragment);
  }
};

TEST_F(Conv2dTest, DefaultsPaddingStridesDilations) {
  EXPECT_EQ(conv({1, 1, 5, 5}, {1, 1, 3, 3}), (Shape{1, 1, 3, 3}));
  Conv2dAttrs a;
  a.padding = {{1, 1, 1, 1}};
  EXPECT_EQ(conv({1, 1, 5, 5}, {1, 1, 3, 3}, a), (Shape{1, 1, 5, 5}));
  a.strides = {{2, 2}};
  EXPECT_EQ(conv({1, 1, 5, 5}, {1, 1, 3, 3}, a), (Shape{1, 1, 3, 3}));  // (5-3+2)/2+1
  Conv2dAttrs d;
  d.dilations = {{2, 2}};
  EXPECT_EQ(conv({1, 1, 5, 5}, {1, 1, 3, 3}, d), (Shape{1, 1, 1, 1}));  // effective filter 5
}

TEST_F(Conv2dTest, AsymmetricPaddingAndStrides) {
  Conv2dAttrs a;
  a.padding = {{1, 0, 0, 1}};
  a.strides = {{2, 1}};
  // H: floor((7 - 3 + 1) / 2) + 1 = 3; W: (5 - 2 + 1) / 1 + 1 = 5.
  EXPECT_EQ(conv({1, 1, 7, 5}, {1, 1, 3, 2}, a), (Shape{1, 1, 3, 5}));
  // Batches and output channels carry through.
  EXPECT_EQ(conv({3, 2, 4, 6}, {8, 2, 1, 1}), (Shape{3, 8, 4, 6}));
}

TEST_F(Conv2dTest, InputAndFilterLayouts) {
  Conv2dAttrs a;
  a.input_layout = InputLayout::kNhwc;
  a.filter_layout = Conv2dFilterLayout::kHwio;
  EXPECT_EQ(conv({1, 5, 5, 2}, {3, 3, 2, 4}, a), (Shape{1, 3, 3, 4}));
  a.filter_layout = Conv2dFilterLayout::kOhwi;
  EXPECT_EQ(conv({1, 5, 5, 2}, {4, 3, 3, 2}, a), (Shape{1, 3, 3, 4}));
  a.filter_layout = Conv2dFilterLayout::kIhwo;
  EXPECT_EQ(conv({1, 5, 5, 2}, {2, 3, 3, 4}, a), (Shape{1, 3, 3, 4}));
  a.filter_layout = Conv2dFilterLayout::kOihw;
  EXPECT_EQ(conv({1, 5, 5, 2}, {4, 2, 3, 3}, a), (Shape{1, 3, 3, 4}));
  Conv2dAttrs n;
  n.filter_layout = Conv2dFilterLayout::kHwio;
  EXPECT_EQ(conv({1, 2, 5, 5}, {3, 3, 2, 4}, n), (Shape{1, 4, 3, 3}));
  // Non-square filter in ohwi: height 3, width 1.
  n.filter_layout = Conv2dFilterLayout::kOhwi;
  EXPECT_EQ(conv({1, 2, 5, 5}, {4, 3, 1, 2}, n), (Shape{1, 4, 3, 5}));
}

TEST_F(Conv2dTest, GroupsAndDepthwise) {
  Conv2dAttrs g;
  g.groups = 2;
  EXPECT_EQ(conv({1, 4, 5, 5}, {6, 2, 3, 3}, g), (Shape{1, 6, 3, 3}));
  Conv2dAttrs dw;
  dw.groups = 32;
  dw.padding = {{1, 1, 1, 1}};
  EXPECT_EQ(conv({1, 32, 112, 112}, {32, 1, 3, 3}, dw), (Shape{1, 32, 112, 112}));
  dw.padding = {{0, 1, 0, 1}};
  dw.strides = {{2, 2}};
  EXPECT_EQ(conv({1, 32, 112, 112}, {32, 1, 3, 3}, dw), (Shape{1, 32, 56, 56}));  // (112-3+1)/2+1
  dw.input_layout = InputLayout::kNhwc;
  dw.filter_layout = Conv2dFilterLayout::kIhwo;
  EXPECT_EQ(conv({1, 112, 112, 32}, {1, 3, 3, 32}, dw), (Shape{1, 56, 56, 32}));
}

TEST_F(Conv2dTest, BiasAndDataType) {
  Conv2dAttrs a;
  a.bias = ref(kF16, {4});
  const OperandDescriptor out = output(OpKind::kConv2d, {input(kF16, {1, 2, 5, 5}), input(kF16, {4, 2, 3, 3})}, a);
  EXPECT_EQ(out, (OperandDescriptor{kF16, {1, 4, 3, 3}}));
}

TEST_F(Conv2dTest, OperandErrors) {
  expect_error(OpKind::kConv2d, {input(kF32, {1, 5, 5}), input(kF32, {1, 1, 3, 3})}, Conv2dAttrs{}, "input");
  expect_error(OpKind::kConv2d, {input(kF32, {1, 1, 5, 5}), input(kF32, {1, 3, 3})}, Conv2dAttrs{}, "filter");
  expect_error(OpKind::kConv2d, {input(kI32, {1, 1, 5, 5}), input(kI32, {1, 1, 3, 3})}, Conv2dAttrs{}, "int32");
  expect_error(OpKind::kConv2d, {input(kF32, {1, 1, 5, 5}), input(kF16, {1, 1, 3, 3})}, Conv2dAttrs{}, "filter");
  expect_error(OpKind::kConv2d, {input(kF32, {1, 1, 5, 5})}, Conv2dAttrs{}, "2 positional");
}

TEST_F(Conv2dTest, OptionListErrors) {
  Conv2dAttrs a;
  a.padding = {{1, 1, 1}};
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, a, "padding");
  a = {};
  a.strides = {{1}};
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, a, "strides");
  a.strides = {{1, 0}};
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, a, "strides");
  a = {};
  a.dilations = {{1, 1, 1}};
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, a, "dilations");
  a.dilations = {{0, 1}};
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, a, "dilations");
  a = {};
  a.groups = 0;
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, a, "groups");
}

TEST_F(Conv2dTest, ChannelErrors) {
  Conv2dAttrs g;
  g.groups = 2;
  conv_error({1, 3, 5, 5}, {2, 1, 3, 3}, g, "divisible by groups");    // 3 % 2
  conv_error({1, 4, 5, 5}, {2, 1, 3, 3}, g, "filter input channels");  // 4 / 2 != 1
  conv_error({1, 4, 5, 5}, {3, 2, 3, 3}, g, "output channels");        // 3 % 2
  conv_error({1, 4, 5, 5}, {1, 3, 3, 3}, Conv2dAttrs{}, "filter input channels");
  Conv2dAttrs nhwc;
  nhwc.input_layout = InputLayout::kNhwc;  // channels are last: 5, not 1
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, nhwc, "filter input channels");
}

TEST_F(Conv2dTest, BiasErrors) {
  Conv2dAttrs a;
  a.bias = ref(kF32, {2});
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, a, "bias");
  a.bias = ref(kF32, {1, 1});
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, a, "bias");
  a.bias = ref(kF16, {1});
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, a, "bias");
}

TEST_F(Conv2dTest, OutputSizeErrors) {
  conv_error({1, 1, 5, 5}, {1, 1, 6, 6}, Conv2dAttrs{}, "output size");
  Conv2dAttrs d;
  d.dilations = {{3, 1}};  // effective height 7 > 5
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, d, "output size");
  d.dilations = {{4294967295u, 4294967295u}};
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, d, "output size");
  Conv2dAttrs p;  // a padding so large the output exceeds the largest valid dimension
  p.padding = {{4294967295u, 4294967295u, 0, 0}};
  conv_error({1, 1, 5, 5}, {1, 1, 3, 3}, p, "output size");
}

}  // namespace
}  // namespace webnn::testing
