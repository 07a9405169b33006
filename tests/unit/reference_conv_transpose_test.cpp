// convTranspose2d on the reference backend. Expected values are worked out by hand, computed by
// numpy (float64, a scatter loop: each input element times each filter tap added at output
// (ih * stride + kh * dilation - padBegin, ...), outside the output dropped, bias added), and
// compared with a naive scatter written here over logical NCHW / IOHW coordinates, independent
// of the kernel (which gathers).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

TEST(ReferenceConvTranspose2d, HandComputed) {
  // Each input element spreads over a 2x2 block of ones: out[i][j] sums the inputs whose block
  // covers (i, j).
  GraphMaker g;
  const OperandId x = g.input("x", f32({1, 1, 2, 2}, {1, 2, 3, 4}));
  const OperandId w = g.constant(f32({1, 1, 2, 2}, {1, 1, 1, 1}));
  g.output("y", g.op(OpKind::kConvTranspose2d, {x, w}, ConvTranspose2dAttrs{}, desc(DataType::kFloat32, {1, 1, 3, 3})));
  EXPECT_EQ(values<float>(g.run().front()), (std::vector<float>{1, 3, 2, 4, 10, 6, 3, 7, 4}));
}

TEST(ReferenceConvTranspose2d, HandComputedStrideAndBias) {
  // Stride 2 leaves a gap between the 1x1 "blocks"; the filter [[1, 2], [3, 4]] stamps each input.
  GraphMaker g;
  const OperandId x = g.input("x", f32({1, 1, 1, 2}, {1, -1}));
  const OperandId w = g.constant(f32({1, 1, 2, 2}, {1, 2, 3, 4}));
  ConvTranspose2dAttrs a;
  a.strides = std::vector<uint32_t>{2, 3};
  a.bias = OperandRef{g.constant(f32({1}, {0.5f}))};
  // H: 0 * 2 + 2 = 2; W: 1 * 3 + 2 = 5.
  g.output("y", g.op(OpKind::kConvTranspose2d, {x, w}, a, desc(DataType::kFloat32, {1, 1, 2, 5})));
  EXPECT_EQ(values<float>(g.run().front()), (std::vector<float>{1.5f, 2.5f, 0.5f, -0.5f, -1.5f,  //
                                                                3.5f, 4.5f, 0.5f, -2.5f, -3.5f}));
}

// Logical NCHW data laid out in `layout`.
std::vector<float> lay_image(const std::vector<float>& nchw, const Shape& s, InputLayout layout) {
  if (layout == InputLayout::kNchw) return nchw;
  std::vector<float> out(nchw.size());
  for (uint32_t n = 0; n < s[0]; ++n)
    for (uint32_t c = 0; c < s[1]; ++c)
      for (uint32_t h = 0; h < s[2]; ++h)
        for (uint32_t w = 0; w < s[3]; ++w)
          out[((size_t(n) * s[2] + h) * s[3] + w) * s[1] + c] = nchw[((size_t(n) * s[1] + c) * s[2] + h) * s[3] + w];
  return out;
}
Shape image_shape(const Shape& nchw, InputLayout layout) {
  return layout == InputLayout::kNchw ? nchw : Shape{nchw[0], nchw[2], nchw[3], nchw[1]};
}
// Logical IOHW filter data (I, O/groups, H, W) laid out in `layout`, with its shape.
std::vector<float> lay_filter(const std::vector<float>& iohw, const Shape& s, ConvTranspose2dFilterLayout layout,
                              Shape* shape) {
  const uint32_t i_n = s[0], o_n = s[1], h_n = s[2], w_n = s[3];
  std::vector<float> out(iohw.size());
  for (uint32_t i = 0; i < i_n; ++i)
    for (uint32_t o = 0; o < o_n; ++o)
      for (uint32_t h = 0; h < h_n; ++h)
        for (uint32_t w = 0; w < w_n; ++w) {
          size_t dst = 0;
          switch (layout) {
            case ConvTranspose2dFilterLayout::kIohw:
              dst = ((size_t(i) * o_n + o) * h_n + h) * w_n + w;
              *shape = s;
              break;
            case ConvTranspose2dFilterLayout::kHwoi:
              dst = ((size_t(h) * w_n + w) * o_n + o) * i_n + i;
              *shape = {h_n, w_n, o_n, i_n};
              break;
            case ConvTranspose2dFilterLayout::kOhwi:
              dst = ((size_t(o) * h_n + h) * w_n + w) * i_n + i;
              *shape = {o_n, h_n, w_n, i_n};
              break;
          }
          out[dst] = iohw[((size_t(i) * o_n + o) * h_n + h) * w_n + w];
        }
  return out;
}

constexpr InputLayout kInputLayouts[] = {InputLayout::kNchw, InputLayout::kNhwc};
constexpr ConvTranspose2dFilterLayout kFilterLayouts[] = {
    ConvTranspose2dFilterLayout::kIohw, ConvTranspose2dFilterLayout::kHwoi, ConvTranspose2dFilterLayout::kOhwi};

// Runs one convTranspose2d with logical NCHW input and IOHW filter laid out as `attrs` says, the
// filter and bias as constants or graph inputs; returns the output back in logical NCHW order.
std::vector<float> run_transpose(const std::vector<float>& x, const Shape& x_shape, const std::vector<float>& w,
                                 const Shape& w_shape, const std::vector<float>* bias, ConvTranspose2dAttrs attrs,
                                 const Shape& y_nchw, bool half, bool weights_are_inputs) {
  auto make = [&](Shape s, const std::vector<float>& v) { return half ? f16(std::move(s), v) : f32(std::move(s), v); };
  const DataType type = half ? DataType::kFloat16 : DataType::kFloat32;
  GraphMaker g;
  const OperandId xi =
      g.input("x", make(image_shape(x_shape, attrs.input_layout), lay_image(x, x_shape, attrs.input_layout)));
  Shape laid_w_shape;
  const std::vector<float> laid_w = lay_filter(w, w_shape, attrs.filter_layout, &laid_w_shape);
  const OperandId wi =
      weights_are_inputs ? g.input("w", make(laid_w_shape, laid_w)) : g.constant(make(laid_w_shape, laid_w));
  if (bias) {
    const Shape b_shape{static_cast<uint32_t>(bias->size())};
    attrs.bias = OperandRef{weights_are_inputs ? g.input("b", make(b_shape, *bias)) : g.constant(make(b_shape, *bias))};
  }
  g.output("y", g.op(OpKind::kConvTranspose2d, {xi, wi}, attrs, desc(type, image_shape(y_nchw, attrs.input_layout))));
  const TensorData y = g.run(2).front();  // two runs: results must not accumulate across runs
  const std::vector<float> got = half ? half_values(y) : values<float>(y);
  if (attrs.input_layout == InputLayout::kNchw) return got;
  // Back from NHWC to logical NCHW.
  std::vector<float> out(got.size());
  const Shape& s = y_nchw;
  for (uint32_t n = 0; n < s[0]; ++n)
    for (uint32_t c = 0; c < s[1]; ++c)
      for (uint32_t h = 0; h < s[2]; ++h)
        for (uint32_t ww = 0; ww < s[3]; ++ww)
          out[((size_t(n) * s[1] + c) * s[2] + h) * s[3] + ww] = got[((size_t(n) * s[2] + h) * s[3] + ww) * s[1] + c];
  return out;
}

TEST(ReferenceConvTranspose2d, EveryOptionInEveryLayout) {
  // groups 2 (one input and one output channel each), strides [2, 2], padding [1, 0, 0, 1],
  // dilations [1, 2], outputPadding [1, 1], bias. Output 4 x 7: H = 1 * 2 + 2 - 1 + 1,
  // W = 2 * 2 + 3 - 1 + 1. Expected values from numpy (see the top of the file); they are exact.
  const std::vector<float> x = {-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1};  // [1, 2, 2, 3]
  const std::vector<float> w = {1, -2, 3, 1, 2, 0, -1, 1};                  // iohw [2, 1, 2, 2]
  const std::vector<float> bias = {0.5f, -1};
  const std::vector<float> expected = {
      -8.5f, 0.5f, -8.5f, 0.5f, -4.5f, 0.5f, -0.5f, 0.5f, 0.5f, 1.5f, 0.5f, 0.5f, 0.5f, -3.5f,  //
      0.5f,  0.5f, 3.5f,  0.5f, 7.5f,  0.5f, 2.5f,  0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f,   //
      -4,    -1,   5,     -1,   -2,    -1,   -3,    -3,   -1,   -1,   -1,   1,    -1,   -1,     //
      0,     -1,   -2,    -1,   -2,    -1,   0,     -1,   -1,   -1,   -1,   -1,   -1,   -1};
  ConvTranspose2dAttrs a;
  a.strides = std::vector<uint32_t>{2, 2};
  a.padding = std::vector<uint32_t>{1, 0, 0, 1};
  a.dilations = std::vector<uint32_t>{1, 2};
  a.output_padding = std::vector<uint32_t>{1, 1};
  a.groups = 2;
  for (InputLayout il : kInputLayouts)
    for (ConvTranspose2dFilterLayout fl : kFilterLayouts)
      for (bool half : {false, true})
        for (bool weights_are_inputs : {false, true}) {
          SCOPED_TRACE(std::string(enum_name(il)) + " " + std::string(enum_name(fl)) +
                       (half ? " float16" : " float32") + (weights_are_inputs ? " weights as inputs" : ""));
          a.input_layout = il;
          a.filter_layout = fl;
          EXPECT_EQ(run_transpose(x, {1, 2, 2, 3}, w, {2, 1, 2, 2}, &bias, a, {1, 2, 4, 7}, half, weights_are_inputs),
                    expected);
        }
}

TEST(ReferenceConvTranspose2d, OutputSizesGatherWhatTheEndPaddingWouldCrop) {
  // 2x2 input, 3x3 filter 1..9, strides 2, padding 1 all round: calculated 3x3; outputSizes [4, 4]
  // keeps the row and column that the ending padding of 1 would otherwise remove. numpy.
  ConvTranspose2dAttrs a;
  a.strides = std::vector<uint32_t>{2, 2};
  a.padding = std::vector<uint32_t>{1, 1, 1, 1};
  a.output_sizes = std::vector<uint32_t>{4, 4};
  const std::vector<float> w = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<float> expected = {5, 14, 10, 12, 14, 36, 24, 30, 15, 34, 20, 24, 24, 55, 32, 36};
  for (bool half : {false, true})
    EXPECT_EQ(run_transpose({1, 2, 3, 4}, {1, 1, 2, 2}, w, {1, 1, 3, 3}, nullptr, a, {1, 1, 4, 4}, half, false),
              expected);
  // outputPadding [1, 1] gives the same shape and values.
  a.output_sizes.reset();
  a.output_padding = std::vector<uint32_t>{1, 1};
  EXPECT_EQ(run_transpose({1, 2, 3, 4}, {1, 1, 2, 2}, w, {1, 1, 3, 3}, nullptr, a, {1, 1, 4, 4}, false, false),
            expected);
}

TEST(ReferenceConvTranspose2d, NanAndInfinityPropagate) {
  GraphMaker g;
  const float inf = INFINITY;
  const OperandId x = g.input("x", f32({1, 1, 1, 2}, {inf, NAN}));
  const OperandId w = g.constant(f32({1, 1, 1, 2}, {1, 2}));
  // Output width 3: [inf * 1, inf * 2 + NaN * 1, NaN * 2].
  g.output("y", g.op(OpKind::kConvTranspose2d, {x, w}, ConvTranspose2dAttrs{}, desc(DataType::kFloat32, {1, 1, 1, 3})));
  const std::vector<float> y = values<float>(g.run().front());
  EXPECT_EQ(y[0], inf);
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_TRUE(std::isnan(y[2]));
}

// ---- against a naive scatter ----

struct TransposeCase {
  uint32_t batches, in_c, in_h, in_w, out_c, k_h, k_w, groups;
  std::vector<uint32_t> padding, strides, dilations, output_padding;
  bool bias;
};

void PrintTo(const TransposeCase& c, std::ostream* os) {
  *os << "in_c=" << c.in_c << " out_c=" << c.out_c << " k=" << c.k_h << "x" << c.k_w << " groups=" << c.groups
      << " strides=" << c.strides[0] << "," << c.strides[1];
}

// Scatters every input element through every tap of its group's filters onto an uncropped canvas,
// then crops padBegin rows/columns at the start and keeps out_h x out_w.
std::vector<double> naive_transpose(const TransposeCase& c, const std::vector<float>& x, const std::vector<float>& w,
                                    const std::vector<float>& bias, uint32_t out_h, uint32_t out_w) {
  const uint32_t icg = c.in_c / c.groups, ocg = c.out_c / c.groups;
  const int64_t canvas_h = int64_t(c.in_h - 1) * c.strides[0] + int64_t(c.k_h - 1) * c.dilations[0] + 1;
  const int64_t canvas_w = int64_t(c.in_w - 1) * c.strides[1] + int64_t(c.k_w - 1) * c.dilations[1] + 1;
  std::vector<double> out(size_t(c.batches) * c.out_c * out_h * out_w, 0.0);
  for (uint32_t n = 0; n < c.batches; ++n)
    for (uint32_t ic = 0; ic < c.in_c; ++ic)
      for (uint32_t ih = 0; ih < c.in_h; ++ih)
        for (uint32_t iw = 0; iw < c.in_w; ++iw)
          for (uint32_t o = 0; o < ocg; ++o)
            for (uint32_t kh = 0; kh < c.k_h; ++kh)
              for (uint32_t kw = 0; kw < c.k_w; ++kw) {
                const int64_t ch = int64_t(ih) * c.strides[0] + int64_t(kh) * c.dilations[0];
                const int64_t cw = int64_t(iw) * c.strides[1] + int64_t(kw) * c.dilations[1];
                if (ch >= canvas_h || cw >= canvas_w) continue;
                const int64_t oh = ch - c.padding[0], ow = cw - c.padding[2];
                if (oh < 0 || ow < 0 || oh >= out_h || ow >= out_w) continue;
                const uint32_t oc = (ic / icg) * ocg + o;
                out[((size_t(n) * c.out_c + oc) * out_h + oh) * out_w + ow] +=
                    double(x[((size_t(n) * c.in_c + ic) * c.in_h + ih) * c.in_w + iw]) *
                    double(w[((size_t(ic) * ocg + o) * c.k_h + kh) * c.k_w + kw]);
              }
  if (c.bias)
    for (size_t i = 0; i < out.size(); ++i) out[i] += bias[(i / (size_t(out_h) * out_w)) % c.out_c];
  return out;
}

class ConvTranspose2dVsNaive : public testing::TestWithParam<TransposeCase> {};

TEST_P(ConvTranspose2dVsNaive, EveryLayoutFloat32AndFloat16) {
  const TransposeCase& c = GetParam();
  const uint32_t ocg = c.out_c / c.groups;
  const uint32_t out_h = (c.in_h - 1) * c.strides[0] + (c.k_h - 1) * c.dilations[0] + 1 - c.padding[0] - c.padding[1] +
                         c.output_padding[0];
  const uint32_t out_w = (c.in_w - 1) * c.strides[1] + (c.k_w - 1) * c.dilations[1] + 1 - c.padding[2] - c.padding[3] +
                         c.output_padding[1];
  std::mt19937 rng(99 + c.in_c * 5 + c.out_c);
  // Values on a 1/4 grid in [-2, 2]: products and their sums are exact in float32.
  auto draw = [&](size_t n) {
    std::vector<float> v(n);
    for (float& f : v) f = float(int(rng() % 17) - 8) / 4.0f;
    return v;
  };
  const std::vector<float> x = draw(size_t(c.batches) * c.in_c * c.in_h * c.in_w);
  const std::vector<float> w = draw(size_t(c.in_c) * ocg * c.k_h * c.k_w);
  const std::vector<float> bias = draw(c.out_c);
  const std::vector<double> expected = naive_transpose(c, x, w, bias, out_h, out_w);
  ConvTranspose2dAttrs a;
  a.padding = c.padding;
  a.strides = c.strides;
  a.dilations = c.dilations;
  a.output_padding = c.output_padding;
  a.groups = c.groups;
  for (InputLayout il : kInputLayouts)
    for (ConvTranspose2dFilterLayout fl : kFilterLayouts)
      for (bool half : {false, true}) {
        SCOPED_TRACE(std::string(enum_name(il)) + " " + std::string(enum_name(fl)) + (half ? " float16" : " float32"));
        a.input_layout = il;
        a.filter_layout = fl;
        const std::vector<float> got = run_transpose(
            x, {c.batches, c.in_c, c.in_h, c.in_w}, w, {c.in_c, ocg, c.k_h, c.k_w}, c.bias ? &bias : nullptr, a,
            {c.batches, c.out_c, out_h, out_w}, half, fl == ConvTranspose2dFilterLayout::kHwoi);
        ASSERT_EQ(got.size(), expected.size());
        for (size_t i = 0; i < got.size(); ++i) {
          // float32: exact; float16: the exact sum rounded once, so within half a float16 ULP.
          const double tol = half ? std::abs(expected[i]) / 2048 + 1e-7 : 0;
          ASSERT_NEAR(got[i], expected[i], tol) << "at " << i;
        }
      }
}

INSTANTIATE_TEST_SUITE_P(Cases, ConvTranspose2dVsNaive,
                         testing::Values(
                             // plain 3x3, batches, bias
                             TransposeCase{2, 3, 4, 5, 2, 3, 3, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, {0, 0}, true},
                             // strides larger than the filter (gaps), output padding
                             TransposeCase{1, 2, 3, 3, 3, 2, 2, 1, {0, 0, 0, 0}, {3, 2}, {1, 1}, {2, 1}, false},
                             // asymmetric padding, dilations, non-square filter
                             TransposeCase{1, 3, 5, 4, 4, 3, 2, 1, {2, 0, 1, 3}, {2, 3}, {2, 3}, {1, 0}, true},
                             // groups, depthwise-like (one input channel per group, two outputs each)
                             TransposeCase{1, 6, 4, 4, 9, 3, 3, 3, {1, 1, 1, 1}, {2, 2}, {1, 1}, {1, 1}, true},
                             TransposeCase{2, 4, 3, 5, 8, 2, 3, 4, {0, 1, 1, 0}, {1, 2}, {2, 1}, {0, 1}, true},
                             // padding larger than the filter: a big crop
                             TransposeCase{1, 2, 6, 6, 2, 2, 2, 2, {3, 2, 2, 3}, {2, 2}, {1, 1}, {0, 0}, false}));

}  // namespace
}  // namespace webnn::test
