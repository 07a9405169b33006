// conv2d on the reference backend, checked against a hand-computed case and against a naive
// seven-loop evaluation of the spec's definition over logical (n, c, h, w) / (o, i, h, w)
// coordinates, written independently of the kernel (different loop order, double accumulation,
// explicit layout index formulas).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

TEST(ReferenceConv2d, HandComputed) {
  // input 0..8 as 3x3, filter [[1, 2], [3, 4]]: out = [[27, 37], [57, 67]].
  std::vector<float> in(9);
  for (int i = 0; i < 9; ++i) in[i] = float(i);
  GraphMaker g;
  const OperandId x = g.input("x", f32({1, 1, 3, 3}, in));
  const OperandId w = g.constant(f32({1, 1, 2, 2}, {1, 2, 3, 4}));
  g.output("y", g.op(OpKind::kConv2d, {x, w}, Conv2dAttrs{}, desc(DataType::kFloat32, {1, 1, 2, 2})));
  EXPECT_EQ(values<float>(g.run().front()), (std::vector<float>{27, 37, 57, 67}));
}

TEST(ReferenceConv2d, HandComputedPaddingStrideBias) {
  // Same input, padding 1 all round, stride 2, bias 0.5. Windows start at input rows/columns -1
  // and 1: out = [0*4, 1*3 + 2*4, 3*2 + 6*4, 4*1 + 5*2 + 7*3 + 8*4] + 0.5.
  std::vector<float> in(9);
  for (int i = 0; i < 9; ++i) in[i] = float(i);
  GraphMaker g;
  const OperandId x = g.input("x", f32({1, 1, 3, 3}, in));
  const OperandId w = g.constant(f32({1, 1, 2, 2}, {1, 2, 3, 4}));
  const OperandId b = g.constant(f32({1}, {0.5f}));
  Conv2dAttrs attrs;
  attrs.padding = std::vector<uint32_t>{1, 1, 1, 1};
  attrs.strides = std::vector<uint32_t>{2, 2};
  attrs.bias = OperandRef{b};
  g.output("y", g.op(OpKind::kConv2d, {x, w}, attrs, desc(DataType::kFloat32, {1, 1, 2, 2})));
  EXPECT_EQ(values<float>(g.run().front()), (std::vector<float>{0.5f, 11.5f, 30.5f, 67.5f}));
}

struct ConvCase {
  uint32_t batches, in_c, in_h, in_w, out_c, k_h, k_w, groups;
  std::vector<uint32_t> padding, strides, dilations;
  InputLayout input_layout;
  Conv2dFilterLayout filter_layout;
  bool bias;
  bool filter_is_input;  // a non-constant filter takes the run-time repacking path
};

uint32_t out_size(uint32_t in, uint32_t k, uint32_t pb, uint32_t pe, uint32_t s, uint32_t d) {
  return (in + pb + pe - ((k - 1) * d + 1)) / s + 1;
}

// Naive conv2d on logical NCHW input, OIHW filter; returns NCHW output.
std::vector<double> naive_conv(const ConvCase& c, const std::vector<float>& x, const std::vector<float>& w,
                               const std::vector<float>& bias, uint32_t oh_n, uint32_t ow_n) {
  const uint32_t icg = c.in_c / c.groups, ocg = c.out_c / c.groups;
  std::vector<double> out(size_t(c.batches) * c.out_c * oh_n * ow_n, 0.0);
  for (uint32_t n = 0; n < c.batches; ++n)
    for (uint32_t o = 0; o < c.out_c; ++o)
      for (uint32_t oh = 0; oh < oh_n; ++oh)
        for (uint32_t ow = 0; ow < ow_n; ++ow) {
          double acc = c.bias ? bias[o] : 0.0;
          const uint32_t grp = o / ocg;
          for (uint32_t i = 0; i < icg; ++i)
            for (uint32_t kh = 0; kh < c.k_h; ++kh)
              for (uint32_t kw = 0; kw < c.k_w; ++kw) {
                const int64_t ih = int64_t(oh) * c.strides[0] + int64_t(kh) * c.dilations[0] - c.padding[0];
                const int64_t iw = int64_t(ow) * c.strides[1] + int64_t(kw) * c.dilations[1] - c.padding[2];
                if (ih < 0 || iw < 0 || ih >= c.in_h || iw >= c.in_w) continue;
                const uint32_t ic = grp * icg + i;
                acc += double(x[((size_t(n) * c.in_c + ic) * c.in_h + ih) * c.in_w + iw]) *
                       double(w[((size_t(o) * icg + i) * c.k_h + kh) * c.k_w + kw]);
              }
          out[((size_t(n) * c.out_c + o) * oh_n + oh) * ow_n + ow] = acc;
        }
  return out;
}

void PrintTo(const ConvCase& c, std::ostream* os) {
  *os << "in_c=" << c.in_c << " out_c=" << c.out_c << " k=" << c.k_h << "x" << c.k_w << " groups=" << c.groups
      << " layouts=" << enum_name(c.input_layout) << "/" << enum_name(c.filter_layout);
}

class Conv2dVsNaive : public testing::TestWithParam<ConvCase> {};

TEST_P(Conv2dVsNaive, Float32AndFloat16) {
  const ConvCase& c = GetParam();
  const uint32_t icg = c.in_c / c.groups;
  const uint32_t oh_n = out_size(c.in_h, c.k_h, c.padding[0], c.padding[1], c.strides[0], c.dilations[0]);
  const uint32_t ow_n = out_size(c.in_w, c.k_w, c.padding[2], c.padding[3], c.strides[1], c.dilations[1]);
  std::mt19937 rng(1234 + c.in_c * 7 + c.out_c);
  // Values on a 1/8 grid in [-2, 2]: exact in float16 too.
  auto draw = [&](size_t n) {
    std::vector<float> v(n);
    for (float& f : v) f = float(int(rng() % 33) - 16) / 8.0f;
    return v;
  };
  const std::vector<float> x = draw(size_t(c.batches) * c.in_c * c.in_h * c.in_w);  // logical NCHW
  const std::vector<float> w = draw(size_t(c.out_c) * icg * c.k_h * c.k_w);         // logical OIHW
  const std::vector<float> bias = draw(c.out_c);
  const std::vector<double> expected = naive_conv(c, x, w, bias, oh_n, ow_n);

  // Lay the logical tensors out as the case asks.
  const bool nhwc = c.input_layout == InputLayout::kNhwc;
  std::vector<float> x_laid(x.size());
  for (uint32_t n = 0; n < c.batches; ++n)
    for (uint32_t ch = 0; ch < c.in_c; ++ch)
      for (uint32_t h = 0; h < c.in_h; ++h)
        for (uint32_t ww = 0; ww < c.in_w; ++ww) {
          const size_t src = ((size_t(n) * c.in_c + ch) * c.in_h + h) * c.in_w + ww;
          const size_t dst = nhwc ? ((size_t(n) * c.in_h + h) * c.in_w + ww) * c.in_c + ch : src;
          x_laid[dst] = x[src];
        }
  std::vector<float> w_laid(w.size());
  Shape w_shape;
  for (uint32_t o = 0; o < c.out_c; ++o)
    for (uint32_t i = 0; i < icg; ++i)
      for (uint32_t h = 0; h < c.k_h; ++h)
        for (uint32_t ww = 0; ww < c.k_w; ++ww) {
          size_t dst = 0;
          switch (c.filter_layout) {
            case Conv2dFilterLayout::kOihw:
              dst = ((size_t(o) * icg + i) * c.k_h + h) * c.k_w + ww;
              w_shape = {c.out_c, icg, c.k_h, c.k_w};
              break;
            case Conv2dFilterLayout::kHwio:
              dst = ((size_t(h) * c.k_w + ww) * icg + i) * c.out_c + o;
              w_shape = {c.k_h, c.k_w, icg, c.out_c};
              break;
            case Conv2dFilterLayout::kOhwi:
              dst = ((size_t(o) * c.k_h + h) * c.k_w + ww) * icg + i;
              w_shape = {c.out_c, c.k_h, c.k_w, icg};
              break;
            case Conv2dFilterLayout::kIhwo:
              dst = ((size_t(i) * c.k_h + h) * c.k_w + ww) * c.out_c + o;
              w_shape = {icg, c.k_h, c.k_w, c.out_c};
              break;
          }
          w_laid[dst] = w[((size_t(o) * icg + i) * c.k_h + h) * c.k_w + ww];
        }
  const Shape x_shape = nhwc ? Shape{c.batches, c.in_h, c.in_w, c.in_c} : Shape{c.batches, c.in_c, c.in_h, c.in_w};
  const Shape y_shape = nhwc ? Shape{c.batches, oh_n, ow_n, c.out_c} : Shape{c.batches, c.out_c, oh_n, ow_n};

  for (bool half : {false, true}) {
    auto make = [&](Shape s, const std::vector<float>& v) { return half ? f16(s, v) : f32(s, v); };
    const DataType type = half ? DataType::kFloat16 : DataType::kFloat32;
    GraphMaker g;
    const OperandId xi = g.input("x", make(x_shape, x_laid));
    const OperandId wi = c.filter_is_input ? g.input("w", make(w_shape, w_laid)) : g.constant(make(w_shape, w_laid));
    Conv2dAttrs attrs;
    attrs.padding = c.padding;
    attrs.strides = c.strides;
    attrs.dilations = c.dilations;
    attrs.groups = c.groups;
    attrs.input_layout = c.input_layout;
    attrs.filter_layout = c.filter_layout;
    if (c.bias)
      attrs.bias =
          OperandRef{c.filter_is_input ? g.input("b", make({c.out_c}, bias)) : g.constant(make({c.out_c}, bias))};
    g.output("y", g.op(OpKind::kConv2d, {xi, wi}, attrs, desc(type, y_shape)));
    const TensorData y = g.run(2).front();  // two runs: results must not accumulate across runs
    const std::vector<float> got = half ? half_values(y) : values<float>(y);
    ASSERT_EQ(got.size(), expected.size());
    for (uint32_t n = 0; n < c.batches; ++n)
      for (uint32_t o = 0; o < c.out_c; ++o)
        for (uint32_t h = 0; h < oh_n; ++h)
          for (uint32_t ww = 0; ww < ow_n; ++ww) {
            const size_t logical = ((size_t(n) * c.out_c + o) * oh_n + h) * ow_n + ww;
            const size_t laid = nhwc ? ((size_t(n) * oh_n + h) * ow_n + ww) * c.out_c + o : logical;
            // Products of 1/8-grid values are exact in float32; float16 rounds the final sum once.
            const double e = expected[logical];
            const double tol = half ? std::abs(e) * 1.0 / 1024 + 1e-3 : 1e-4;
            ASSERT_NEAR(got[laid], e, tol)
                << (half ? "float16" : "float32") << " at n=" << n << " o=" << o << " h=" << h << " w=" << ww;
          }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Conv2dVsNaive,
    testing::Values(
        // plain 3x3, every filter layout, both input layouts
        ConvCase{1,
                 3,
                 7,
                 6,
                 4,
                 3,
                 3,
                 1,
                 {0, 0, 0, 0},
                 {1, 1},
                 {1, 1},
                 InputLayout::kNchw,
                 Conv2dFilterLayout::kOihw,
                 false,
                 false},
        ConvCase{1,
                 3,
                 7,
                 6,
                 4,
                 3,
                 3,
                 1,
                 {0, 0, 0, 0},
                 {1, 1},
                 {1, 1},
                 InputLayout::kNchw,
                 Conv2dFilterLayout::kHwio,
                 true,
                 false},
        ConvCase{1,
                 3,
                 7,
                 6,
                 4,
                 3,
                 3,
                 1,
                 {0, 0, 0, 0},
                 {1, 1},
                 {1, 1},
                 InputLayout::kNhwc,
                 Conv2dFilterLayout::kOhwi,
                 true,
                 false},
        ConvCase{1,
                 3,
                 7,
                 6,
                 4,
                 3,
                 3,
                 1,
                 {0, 0, 0, 0},
                 {1, 1},
                 {1, 1},
                 InputLayout::kNhwc,
                 Conv2dFilterLayout::kIhwo,
                 false,
                 false},
        // asymmetric padding, strides, dilations, batches
        ConvCase{2,
                 4,
                 9,
                 8,
                 6,
                 3,
                 2,
                 1,
                 {1, 2, 0, 1},
                 {2, 1},
                 {1, 2},
                 InputLayout::kNchw,
                 Conv2dFilterLayout::kOihw,
                 true,
                 false},
        ConvCase{2,
                 4,
                 9,
                 8,
                 6,
                 3,
                 2,
                 1,
                 {2, 1, 1, 0},
                 {1, 3},
                 {2, 1},
                 InputLayout::kNhwc,
                 Conv2dFilterLayout::kHwio,
                 true,
                 false},
        // groups and depthwise (MobileNet style: groups = channels, stride 2, padding 1)
        ConvCase{1,
                 6,
                 8,
                 8,
                 9,
                 3,
                 3,
                 3,
                 {1, 1, 1, 1},
                 {1, 1},
                 {1, 1},
                 InputLayout::kNchw,
                 Conv2dFilterLayout::kOihw,
                 true,
                 false},
        ConvCase{1,
                 8,
                 9,
                 9,
                 8,
                 3,
                 3,
                 8,
                 {1, 1, 1, 1},
                 {2, 2},
                 {1, 1},
                 InputLayout::kNchw,
                 Conv2dFilterLayout::kOihw,
                 true,
                 false},
        ConvCase{1,
                 8,
                 9,
                 9,
                 16,
                 3,
                 3,
                 8,
                 {0, 1, 1, 0},
                 {2, 1},
                 {1, 1},
                 InputLayout::kNhwc,
                 Conv2dFilterLayout::kIhwo,
                 true,
                 false},
        // pointwise 1x1 (the fast path), with channel counts not multiples of its blocks
        ConvCase{2,
                 19,
                 13,
                 11,
                 21,
                 1,
                 1,
                 1,
                 {0, 0, 0, 0},
                 {1, 1},
                 {1, 1},
                 InputLayout::kNchw,
                 Conv2dFilterLayout::kOihw,
                 true,
                 false},
        ConvCase{1,
                 12,
                 5,
                 30,
                 10,
                 1,
                 1,
                 2,
                 {0, 0, 0, 0},
                 {1, 1},
                 {1, 1},
                 InputLayout::kNchw,
                 Conv2dFilterLayout::kOihw,
                 false,
                 false},
        ConvCase{1,
                 12,
                 6,
                 6,
                 10,
                 1,
                 1,
                 1,
                 {0, 0, 0, 0},
                 {2, 2},
                 {1, 1},
                 InputLayout::kNhwc,
                 Conv2dFilterLayout::kOhwi,
                 true,
                 false},
        // filter and bias as graph inputs (repacked at run time); kernel larger than input with padding
        ConvCase{1,
                 2,
                 3,
                 3,
                 3,
                 5,
                 5,
                 1,
                 {2, 2, 2, 2},
                 {1, 1},
                 {1, 1},
                 InputLayout::kNchw,
                 Conv2dFilterLayout::kHwio,
                 true,
                 true},
        ConvCase{1,
                 4,
                 6,
                 7,
                 4,
                 3,
                 3,
                 2,
                 {1, 0, 0, 1},
                 {2, 2},
                 {2, 1},
                 InputLayout::kNhwc,
                 Conv2dFilterLayout::kOihw,
                 true,
                 true}));

TEST(ReferenceConv2d, RejectsIntegerTypes) {
  GraphMaker g;
  g.skip_validation();
  const OperandId x = g.input("x", tensor<int32_t>(DataType::kInt32, {1, 1, 1, 1}, {1}));
  const OperandId w = g.constant(tensor<int32_t>(DataType::kInt32, {1, 1, 1, 1}, {1}));
  g.output("y", g.op(OpKind::kConv2d, {x, w}, Conv2dAttrs{}, desc(DataType::kInt32, {1, 1, 1, 1})));
  EXPECT_THROW(g.run(), Error);
}

}  // namespace
}  // namespace webnn::test
