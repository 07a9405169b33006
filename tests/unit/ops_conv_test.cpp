// conv2d: output shapes worked out by hand from
// outputSize = floor((inputSize - ((filterSize - 1) * dilation + 1) + padBegin + padEnd) / stride) + 1,
// and every error rule of #api-mlgraphbuilder-conv2d.
// convTranspose2d: output shapes worked out by hand from
// outputSize = (inputSize - 1) * stride + (filterSize - 1) * dilation + 1 - padBegin - padEnd
//              + outputPadding,
// and every error rule of #api-mlgraphbuilder-convtranspose2d.
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

class ConvTranspose2dTest : public OpsTest {
 protected:
  Shape conv(Shape in, Shape filter, ConvTranspose2dAttrs attrs = {}) {
    return shape(OpKind::kConvTranspose2d, {input(kF32, std::move(in)), input(kF32, std::move(filter))},
                 std::move(attrs));
  }
  void conv_error(Shape in, Shape filter, ConvTranspose2dAttrs attrs, const std::string& fragment) {
    expect_error(OpKind::kConvTranspose2d, {input(kF32, std::move(in)), input(kF32, std::move(filter))},
                 std::move(attrs), fragment);
  }
};

TEST_F(ConvTranspose2dTest, DefaultsPaddingStridesDilations) {
  EXPECT_EQ(conv({1, 1, 3, 3}, {1, 1, 3, 3}), (Shape{1, 1, 5, 5}));  // 2 * 1 + 3
  EXPECT_EQ(conv({2, 1, 2, 2}, {1, 1, 2, 2}), (Shape{2, 1, 3, 3}));
  ConvTranspose2dAttrs s;
  s.strides = {{3, 2}};
  EXPECT_EQ(conv({1, 1, 3, 3}, {1, 2, 3, 3}, s), (Shape{1, 2, 9, 7}));  // 2 * 3 + 3, 2 * 2 + 3
  ConvTranspose2dAttrs d;
  d.dilations = {{2, 3}};
  EXPECT_EQ(conv({1, 1, 3, 3}, {1, 1, 2, 2}, d), (Shape{1, 1, 5, 6}));  // 2 + 1 * 2 + 1, 2 + 1 * 3 + 1
  ConvTranspose2dAttrs p;
  p.padding = {{1, 1, 1, 1}};
  EXPECT_EQ(conv({1, 1, 2, 2}, {1, 1, 2, 2}, p), (Shape{1, 1, 1, 1}));  // 1 + 2 - 2
  p.padding = {{0, 1, 2, 0}};
  p.strides = {{2, 2}};
  EXPECT_EQ(conv({1, 1, 3, 4}, {1, 1, 3, 3}, p), (Shape{1, 1, 6, 7}));  // 4 + 3 - 1, 6 + 3 - 2
}

TEST_F(ConvTranspose2dTest, OutputPaddingAndOutputSizes) {
  ConvTranspose2dAttrs a;
  a.strides = {{3, 2}};
  a.output_padding = {{1, 1}};
  EXPECT_EQ(conv({1, 1, 3, 3}, {1, 2, 3, 3}, a), (Shape{1, 2, 10, 8}));
  a.output_padding = {{2, 0}};
  EXPECT_EQ(conv({1, 1, 3, 3}, {1, 2, 3, 3}, a), (Shape{1, 2, 11, 7}));
  // outputSizes: any size in [calculated, calculated + stride), here [9, 12) x [7, 9).
  ConvTranspose2dAttrs o;
  o.strides = {{3, 2}};
  for (uint32_t h : {9u, 10u, 11u})
    for (uint32_t w : {7u, 8u}) {
      o.output_sizes = {{h, w}};
      EXPECT_EQ(conv({1, 1, 3, 3}, {1, 2, 3, 3}, o), (Shape{1, 2, h, w}));
    }
  // outputPadding is ignored (and not checked against strides) when outputSizes is given.
  o.output_sizes = {{10, 8}};
  o.output_padding = {{5, 7}};
  EXPECT_EQ(conv({1, 1, 3, 3}, {1, 2, 3, 3}, o), (Shape{1, 2, 10, 8}));
  // WPT "padding is the same upper padding": nhwc, ohwi, strides 2, padding [0, 1, 0, 1]: 2 * 2 + 3 - 1.
  ConvTranspose2dAttrs u;
  u.strides = {{2, 2}};
  u.padding = {{0, 1, 0, 1}};
  u.output_sizes = {{6, 6}};
  u.input_layout = InputLayout::kNhwc;
  u.filter_layout = ConvTranspose2dFilterLayout::kOhwi;
  EXPECT_EQ(conv({1, 3, 3, 1}, {2, 3, 3, 1}, u), (Shape{1, 6, 6, 2}));
  u.output_sizes = {{7, 6}};
  EXPECT_EQ(conv({1, 3, 3, 1}, {2, 3, 3, 1}, u), (Shape{1, 7, 6, 2}));
}

TEST_F(ConvTranspose2dTest, InputAndFilterLayouts) {
  // One filter of 2 output channels, 3 input channels, height 4, width 5, in each layout.
  ConvTranspose2dAttrs a;
  EXPECT_EQ(conv({1, 3, 6, 7}, {3, 2, 4, 5}, a), (Shape{1, 2, 9, 11}));
  a.filter_layout = ConvTranspose2dFilterLayout::kHwoi;
  EXPECT_EQ(conv({1, 3, 6, 7}, {4, 5, 2, 3}, a), (Shape{1, 2, 9, 11}));
  a.filter_layout = ConvTranspose2dFilterLayout::kOhwi;
  EXPECT_EQ(conv({1, 3, 6, 7}, {2, 4, 5, 3}, a), (Shape{1, 2, 9, 11}));
  a.input_layout = InputLayout::kNhwc;
  EXPECT_EQ(conv({1, 6, 7, 3}, {2, 4, 5, 3}, a), (Shape{1, 9, 11, 2}));
  a.filter_layout = ConvTranspose2dFilterLayout::kHwoi;
  EXPECT_EQ(conv({1, 6, 7, 3}, {4, 5, 2, 3}, a), (Shape{1, 9, 11, 2}));
  a.filter_layout = ConvTranspose2dFilterLayout::kIohw;
  EXPECT_EQ(conv({1, 6, 7, 3}, {3, 2, 4, 5}, a), (Shape{1, 9, 11, 2}));
}

TEST_F(ConvTranspose2dTest, GroupsBiasAndDataType) {
  ConvTranspose2dAttrs g;
  g.groups = 2;
  EXPECT_EQ(conv({1, 2, 2, 2}, {2, 1, 2, 2}, g), (Shape{1, 2, 3, 3}));  // output channels 1 * 2
  g.groups = 4;
  EXPECT_EQ(conv({1, 4, 2, 2}, {4, 3, 1, 1}, g), (Shape{1, 12, 2, 2}));
  ConvTranspose2dAttrs b;
  b.groups = 2;
  b.bias = ref(kF16, {6});
  const OperandDescriptor out =
      output(OpKind::kConvTranspose2d, {input(kF16, {1, 4, 3, 3}), input(kF16, {4, 3, 2, 2})}, b);
  EXPECT_EQ(out, (OperandDescriptor{kF16, {1, 6, 4, 4}}));
}

TEST_F(ConvTranspose2dTest, OperandErrors) {
  const OpKind k = OpKind::kConvTranspose2d;
  const ConvTranspose2dAttrs none;
  expect_error(k, {input(kF32, {1, 3, 3}), input(kF32, {1, 1, 3, 3})}, none, "input");
  expect_error(k, {input(kF32, {1, 1, 3, 3}), input(kF32, {1, 3, 3})}, none, "filter");
  expect_error(k, {input(kI32, {1, 1, 3, 3}), input(kI32, {1, 1, 3, 3})}, none, "int32");
  expect_error(k, {input(kF32, {1, 1, 3, 3}), input(kF16, {1, 1, 3, 3})}, none, "filter");
  expect_error(k, {input(kF32, {1, 1, 3, 3})}, none, "2 positional");
}

TEST_F(ConvTranspose2dTest, OptionListErrors) {
  ConvTranspose2dAttrs a;
  a.padding = {{1, 1, 1}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "padding");
  a = {};
  a.strides = {{1}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "strides");
  a.strides = {{0, 1}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "strides");
  a = {};
  a.dilations = {{1, 1, 1}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "dilations");
  a.dilations = {{1, 0}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "dilations");
  a = {};
  a.output_padding = {{0}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "outputPadding");
  a.output_padding = {{0, 0}};
  a.output_sizes = {{5, 5, 5}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "outputSizes");
  a = {};
  a.groups = 0;
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "groups");
}

TEST_F(ConvTranspose2dTest, OutputPaddingMustBeSmallerThanStrides) {
  ConvTranspose2dAttrs a;
  a.output_padding = {{1, 0}};  // default strides [1, 1]
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "outputPadding");
  a.strides = {{2, 2}};
  a.output_padding = {{1, 2}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "outputPadding [1, 2] must be smaller than strides [2, 2]");
  // A large dilation does not allow a larger output padding (the spec compares with strides only).
  a.dilations = {{4, 4}};
  a.output_padding = {{2, 0}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, a, "outputPadding");
}

TEST_F(ConvTranspose2dTest, ChannelErrors) {
  conv_error({1, 2, 3, 3}, {1, 1, 3, 3}, {}, "filter input channels (1) must equal input channels (2)");
  ConvTranspose2dAttrs hwoi;
  hwoi.filter_layout = ConvTranspose2dFilterLayout::kHwoi;  // input channels are last: 2, not 3
  conv_error({1, 3, 3, 3}, {3, 3, 1, 2}, hwoi, "filter input channels");
  ConvTranspose2dAttrs nhwc;
  nhwc.input_layout = InputLayout::kNhwc;  // channels are last: 3, not 1
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, nhwc, "filter input channels");
  ConvTranspose2dAttrs g;
  g.groups = 2;
  conv_error({1, 3, 3, 3}, {3, 1, 3, 3}, g, "input channels (3) must be divisible by groups (2)");
}

TEST_F(ConvTranspose2dTest, BiasErrors) {
  ConvTranspose2dAttrs a;
  a.bias = ref(kF32, {1});  // output channels are 2
  conv_error({1, 1, 3, 3}, {1, 2, 3, 3}, a, "bias shape [1] must be [2]");
  a.bias = ref(kF32, {2, 1});
  conv_error({1, 1, 3, 3}, {1, 2, 3, 3}, a, "bias");
  a.bias = ref(kF16, {2});
  conv_error({1, 1, 3, 3}, {1, 2, 3, 3}, a, "bias");
  ConvTranspose2dAttrs g;  // with groups, output channels are filter output channels * groups
  g.groups = 2;
  g.bias = ref(kF32, {1});
  conv_error({1, 2, 3, 3}, {2, 1, 3, 3}, g, "bias shape [1] must be [2]");
}

TEST_F(ConvTranspose2dTest, OutputSizesErrors) {
  // Calculated [9, 7] with strides [3, 2]: heights 9..11 and widths 7..8 only.
  ConvTranspose2dAttrs o;
  o.strides = {{3, 2}};
  o.output_sizes = {{8, 7}};
  conv_error({1, 1, 3, 3}, {1, 2, 3, 3}, o, "height 8 must be at least 9 and less than 12");
  o.output_sizes = {{12, 7}};
  conv_error({1, 1, 3, 3}, {1, 2, 3, 3}, o, "height 12");
  o.output_sizes = {{9, 6}};
  conv_error({1, 1, 3, 3}, {1, 2, 3, 3}, o, "width 6 must be at least 7 and less than 9");
  o.output_sizes = {{9, 9}};
  conv_error({1, 1, 3, 3}, {1, 2, 3, 3}, o, "width 9");
}

TEST_F(ConvTranspose2dTest, OutputSizeErrors) {
  ConvTranspose2dAttrs p;
  p.padding = {{2, 2, 0, 0}};  // 1 + 2 - 4 = -1
  conv_error({1, 1, 2, 2}, {1, 1, 2, 2}, p, "output size");
  p.padding = {{0, 0, 1, 2}};  // 1 + 2 - 3 = 0
  conv_error({1, 1, 2, 2}, {1, 1, 2, 2}, p, "output size");
  p.padding = {{0, 0, 2, 2}};
  p.strides = {{1, 2}};
  p.output_padding = {{0, 1}};  // 2 + 2 - 4 + 1 = 1: valid again
  EXPECT_EQ(conv({1, 1, 2, 2}, {1, 1, 2, 2}, p), (Shape{1, 1, 3, 1}));
  // A negative calculated size: outputSizes cannot reach it.
  ConvTranspose2dAttrs n;
  n.padding = {{3, 3, 0, 0}};  // 3 - 6 = -3
  n.output_sizes = {{1, 3}};
  conv_error({1, 1, 2, 2}, {1, 1, 2, 2}, n, "outputSizes");
  // Larger than the largest valid dimension.
  ConvTranspose2dAttrs big;
  big.strides = {{4294967295u, 1}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, big, "output size");
  big.dilations = {{4294967295u, 4294967295u}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, big, "output size");
  big.output_sizes = {{5, 5}};
  conv_error({1, 1, 3, 3}, {1, 1, 3, 3}, big, "outputSizes");
}

}  // namespace
}  // namespace webnn::testing
