// batchNormalization, instanceNormalization, layerNormalization and softmax on the reference
// backend; expected values from numpy (double precision from the operands' values, epsilon cast to
// the operand type first, rounded to the output type).
#include <gtest/gtest.h>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

const std::vector<float> kInput = {1, 2, 3, 4, 5, 6, -1, 0, 1, 4, 8, 0};  // shape [2, 2, 3]

TEST(ReferenceLayerNormalization, DefaultAxesAreAllButTheFirst) {
  const TensorData out = run_op(OpKind::kLayerNormalization, {f32({2, 2, 3}, kInput)}, LayerNormalizationAttrs{},
                                desc(DataType::kFloat32, {2, 2, 3}));
  expect_near(values<float>(out),
              {-1.4638476371765137f, -0.8783085346221924f, -0.29276952147483826f, 0.29276952147483826f,
               0.8783085346221924f, 1.4638476371765137f, -0.96490079164505f, -0.6432672142982483f,
               -0.32163360714912415f, 0.6432672142982483f, 1.9298015832901f, -0.6432672142982483f},
              1e-6, 1e-6);
}

TEST(ReferenceLayerNormalization, UnsortedAxesWithScaleAndBias) {
  // axes [2, 0]: scale and bias have shape [3, 2] = [size of dim 2, size of dim 0].
  GraphMaker g;
  const OperandId x = g.input("x", f32({2, 2, 3}, kInput));
  LayerNormalizationAttrs attrs;
  attrs.axes = std::vector<uint32_t>{2, 0};
  attrs.scale = OperandRef{g.constant(f32({3, 2}, {0.5f, 1, 1.5f, 2, 2.5f, 3}))};
  attrs.bias = OperandRef{g.constant(f32({3, 2}, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f}))};
  g.output("y", g.op(OpKind::kLayerNormalization, {x}, attrs, desc(DataType::kFloat32, {2, 2, 3})));
  expect_near(values<float>(g.run().front()),
              {0.10000000149011612f, 1.461891531944275f, 4.372971534729004f, -0.002778219524770975f,
               0.6083346605300903f, 2.041673183441162f, -1.3491886854171753f, -1.1491886377334595f, 0.6000000238418579f,
               -0.00555643904954195f, 3.277790069580078f, -4.950023651123047f},
              1e-6, 1e-6);
}

TEST(ReferenceLayerNormalization, Float16UsesEpsilonCastToFloat16) {
  LayerNormalizationAttrs attrs;
  attrs.axes = std::vector<uint32_t>{0};
  const TensorData out =
      run_op(OpKind::kLayerNormalization, {f16({4}, {1, 2, 3, 4})}, attrs, desc(DataType::kFloat16, {4}));
  EXPECT_EQ(half_values(out), (std::vector<float>{-1.341796875f, -0.447265625f, 0.447265625f, 1.341796875f}));
}

TEST(ReferenceLayerNormalization, EmptyAxesNormalizesEachElementAlone) {
  LayerNormalizationAttrs attrs;
  attrs.axes = std::vector<uint32_t>{};
  GraphMaker g;
  const OperandId x = g.input("x", f32({3}, {1, -2, 5}));
  attrs.bias = OperandRef{g.constant(f32({}, {0.25f}))};
  g.output("y", g.op(OpKind::kLayerNormalization, {x}, attrs, desc(DataType::kFloat32, {3})));
  EXPECT_EQ(values<float>(g.run().front()), (std::vector<float>{0.25f, 0.25f, 0.25f}));  // (x - x) / sqrt(eps) + bias
}

// [2, 3, 2, 2] input and per-channel parameters shared by the batch and instance tests.
const std::vector<float> kImage = {-1.5f, 0.25f, 3, 7, 2, -4, 0.5f, 1, 9,  -2, 6,  0.125f,
                                   1,     2,     3, 4, 5, 6,  7,    8, -9, 10, 11, -12};
const std::vector<float> kMean = {0.5f, -1, 2}, kVariance = {4, 0.25f, 9}, kScale = {2, -0.5f, 1.5f},
                         kBias = {0.1f, 0.2f, -0.3f};

// NCHW [2, C, 2, 2] data as NHWC.
std::vector<float> to_nhwc(const std::vector<float>& nchw, uint32_t channels) {
  std::vector<float> out(nchw.size());
  for (uint32_t n = 0; n < 2; ++n)
    for (uint32_t c = 0; c < channels; ++c)
      for (uint32_t p = 0; p < 4; ++p) out[(n * 4 + p) * channels + c] = nchw[(n * channels + c) * 4 + p];
  return out;
}

TEST(ReferenceBatchNormalization, EveryOptionAlongAxis1) {
  GraphMaker g;
  const OperandId x = g.input("x", f32({2, 3, 2, 2}, kImage));
  BatchNormalizationAttrs a;
  a.scale = OperandRef{g.constant(f32({3}, kScale))};
  a.bias = OperandRef{g.constant(f32({3}, kBias))};
  a.epsilon = 1e-3;
  g.output("y", g.op(OpKind::kBatchNormalization, {x, g.constant(f32({3}, kMean)), g.constant(f32({3}, kVariance))}, a,
                     desc(DataType::kFloat32, {2, 3, 2, 2})));
  expect_near(
      values<float>(g.run().front()),
      {-1.899749994277954f, -0.14996875822544098f, 2.5996875762939453f,  6.599187850952148f,  -2.794018030166626f,
       3.1940178871154785f, -1.297008991241455f,   -1.7960119247436523f, 3.199805498123169f,  -2.299888849258423f,
       1.6998889446258545f, -1.23744797706604f,    0.5999374985694885f,  1.5998125076293945f, 2.5996875762939453f,
       3.599562644958496f,  -5.788035869598389f,   -6.786041736602783f,  -7.784047603607178f, -8.78205394744873f,
       -5.799694538116455f, 3.699777841567993f,    4.199749946594238f,   -7.2996110916137695f},
      0, 2.4e-7);
}

TEST(ReferenceBatchNormalization, Float16WithEpsilonCastToFloat16) {
  // The same call in float16 (epsilon 1e-3 cast to float16 first; bias 0.1 is 0.0999755859375).
  GraphMaker g;
  const OperandId x = g.input("x", f16({2, 3, 2, 2}, kImage));
  BatchNormalizationAttrs a;
  a.scale = OperandRef{g.input("scale", f16({3}, kScale))};
  a.bias = OperandRef{g.input("bias", f16({3}, kBias))};
  a.epsilon = 1e-3;
  g.output("y", g.op(OpKind::kBatchNormalization, {x, g.input("m", f16({3}, kMean)), g.input("v", f16({3}, kVariance))},
                     a, desc(DataType::kFloat16, {2, 3, 2, 2})));
  EXPECT_EQ(
      half_values(g.run().front()),
      (std::vector<float>{-1.8994140625f, -0.1500244140625f, 2.599609375f, 6.59765625f,  -2.794921875f, 3.193359375f,
                          -1.296875f,     -1.7958984375f,    3.19921875f,  -2.30078125f, 1.7001953125f, -1.2373046875f,
                          0.60009765625f, 1.599609375f,      2.599609375f, 3.599609375f, -5.7890625f,   -6.78515625f,
                          -7.78515625f,   -8.78125f,         -5.80078125f, 3.69921875f,  4.19921875f,   -7.30078125f}));
}

TEST(ReferenceBatchNormalization, OtherAxesAndRanks) {
  // axis 3 (channels last), default epsilon 1e-5 (as float32), no scale or bias; mean and
  // variance are graph inputs.
  TensorData out =
      run_op(OpKind::kBatchNormalization, {f32({2, 2, 2, 3}, to_nhwc(kImage, 3)), f32({3}, kMean), f32({3}, kVariance)},
             BatchNormalizationAttrs{std::nullopt, std::nullopt, 3, 1e-5}, desc(DataType::kFloat32, {2, 2, 2, 3}));
  expect_near(
      values<float>(out),
      {-0.9999987483024597f, 5.999879837036133f,   2.333332061767578f,   -0.12499984353780746f, -5.999879837036133f,
       -1.3333325386047363f, 1.2499984502792358f,  2.9999399185180664f,  1.3333325386047363f,   3.2499959468841553f,
       3.999919891357422f,   -0.6249996423721313f, 0.24999968707561493f, 11.999759674072266f,   -3.6666646003723145f,
       0.7499990463256836f,  13.999719619750977f,  2.6666650772094727f,  1.2499984502792358f,   15.999679565429688f,
       2.9999983310699463f,  1.749997854232788f,   17.9996395111084f,    -4.666664123535156f},
      0, 2.4e-7);
  // Rank 1, axis 0; a variance of 0 leaves only epsilon: (10 - 4) / sqrt(1e-5).
  out = run_op(OpKind::kBatchNormalization,
               {f32({6}, {1, -2, 3, 0.5f, 10, -7}), f32({6}, {0, 1, 2, 3, 4, 5}), f32({6}, {1, 2, 0.5f, 4, 0, 8})},
               BatchNormalizationAttrs{std::nullopt, std::nullopt, 0, 1e-5}, desc(DataType::kFloat32, {6}));
  expect_near(values<float>(out),
              {0.9999949932098389f, -2.1213150024414062f, 1.4141994714736938f, -1.2499984502792358f,
               1897.3665771484375f, -4.242638111114502f},
              0, 2.4e-7);
  // Rank 3, axis 2, bias only: x = -10..13 as [2, 3, 4].
  std::vector<float> x3(24);
  for (int i = 0; i < 24; ++i) x3[i] = float(i - 10);
  GraphMaker g;
  BatchNormalizationAttrs a;
  a.axis = 2;
  a.bias = OperandRef{g.constant(f32({4}, {1, 2, 3, 4}))};
  const OperandId x = g.input("x", f32({2, 3, 4}, x3));
  g.output("y", g.op(OpKind::kBatchNormalization,
                     {x, g.constant(f32({4}, {1, -1, 0.5f, 2})), g.constant(f32({4}, {1, 4, 0.25f, 16}))}, a,
                     desc(DataType::kFloat32, {2, 3, 4})));
  expect_near(values<float>(g.run().front()), {-9.999944686889648f,  -1.9999949932098389f,
                                               -13.999659538269043f, 1.7500007152557373f,
                                               -5.999965190887451f,  2.4999951619975036e-06f,
                                               -5.999820232391357f,  2.750000476837158f,
                                               -1.9999849796295166f, 2.0f,
                                               2.0000200271606445f,  3.75f,
                                               1.9999949932098389f,  3.999997615814209f,
                                               9.999859809875488f,   4.75f,
                                               5.999975204467773f,   5.999995231628418f,
                                               17.99970054626465f,   5.749999523162842f,
                                               9.999955177307129f,   7.999992370605469f,
                                               25.999540328979492f,  6.749999046325684f},
              1e-12, 2.4e-7);
}

TEST(ReferenceBatchNormalization, NegativeVarianceGivesNaN) {
  const TensorData out = run_op(OpKind::kBatchNormalization, {f32({1, 1}, {2}), f32({1}, {1}), f32({1}, {-1})},
                                BatchNormalizationAttrs{}, desc(DataType::kFloat32, {1, 1}));
  EXPECT_TRUE(std::isnan(values<float>(out)[0]));
}

// The image with its last plane (batch 1, channel 2) made constant: its variance is 0.
std::vector<float> instance_input() {
  std::vector<float> x = kImage;
  for (int i = 20; i < 24; ++i) x[i] = 5;
  return x;
}

TEST(ReferenceInstanceNormalization, EveryOptionNchw) {
  GraphMaker g;
  const OperandId x = g.input("x", f32({2, 3, 2, 2}, instance_input()));
  InstanceNormalizationAttrs a;
  a.scale = OperandRef{g.constant(f32({3}, kScale))};
  a.bias = OperandRef{g.constant(f32({3}, kBias))};
  a.epsilon = 1e-3;
  g.output("y", g.op(OpKind::kInstanceNormalization, {x}, a, desc(DataType::kFloat32, {2, 3, 2, 2})));
  expect_near(values<float>(g.run().front()),
              {-2.1986382007598877f,  -1.1077589988708496f,  0.6064795851707458f,   3.099917411804199f,
               -0.26161304116249084f, 1.0417649745941162f,   0.06423145532608032f,  -0.04438338056206703f,
               1.6431455612182617f,   -2.094489574432373f,   0.6237905025482178f,   -1.3724465370178223f,
               -2.5822088718414307f,  -0.7940696477890015f,  0.9940696358680725f,   2.7822089195251465f,
               0.8705522418022156f,   0.4235174059867859f,   -0.02351740561425686f, -0.4705522358417511f,
               -0.30000001192092896f, -0.30000001192092896f, -0.30000001192092896f, -0.30000001192092896f},
              1e-7, 2.4e-7);
}

TEST(ReferenceInstanceNormalization, NhwcDefaults) {
  const TensorData out = run_op(OpKind::kInstanceNormalization, {f32({2, 2, 2, 3}, to_nhwc(instance_input(), 3))},
                                InstanceNormalizationAttrs{std::nullopt, std::nullopt, 1e-5, InputLayout::kNhwc},
                                desc(DataType::kFloat32, {2, 2, 2, 3}));
  expect_near(values<float>(out), {-1.1493743658065796f, 0.9233123660087585f,  1.2954633235931396f,
                                   -0.6039085388183594f, -1.6836873292922974f, -1.1963567733764648f,
                                   0.25325196981430054f, 0.27156245708465576f, 0.6158760190010071f,
                                   1.5000308752059937f,  0.4888124465942383f,  -0.7149824500083923f,
                                   -1.3416354656219482f, -1.3416354656219482f, 0.0f,
                                   -0.4472118020057678f, -0.4472118020057678f, 0.0f,
                                   0.4472118020057678f,  0.4472118020057678f,  0.0f,
                                   1.3416354656219482f,  1.3416354656219482f,  0.0f},
              1e-7, 2.4e-7);
}

TEST(ReferenceInstanceNormalization, Float16) {
  TensorData out = run_op(OpKind::kInstanceNormalization, {f16({2, 3, 2, 2}, instance_input())},
                          InstanceNormalizationAttrs{}, desc(DataType::kFloat16, {2, 3, 2, 2}));
  EXPECT_EQ(half_values(out), (std::vector<float>{-1.1494140625f,
                                                  -0.60400390625f,
                                                  0.253173828125f,
                                                  1.5f,
                                                  0.92333984375f,
                                                  -1.68359375f,
                                                  0.271484375f,
                                                  0.48876953125f,
                                                  1.2958984375f,
                                                  -1.1962890625f,
                                                  0.61572265625f,
                                                  -0.71484375f,
                                                  -1.341796875f,
                                                  -0.447265625f,
                                                  0.447265625f,
                                                  1.341796875f,
                                                  -1.341796875f,
                                                  -0.447265625f,
                                                  0.447265625f,
                                                  1.341796875f,
                                                  0,
                                                  0,
                                                  0,
                                                  0}));
  GraphMaker g;
  const OperandId x = g.input("x", f16({2, 3, 2, 2}, instance_input()));
  InstanceNormalizationAttrs a;
  a.scale = OperandRef{g.input("s", f16({3}, kScale))};
  a.bias = OperandRef{g.input("b", f16({3}, kBias))};
  a.epsilon = 1e-3;
  g.output("y", g.op(OpKind::kInstanceNormalization, {x}, a, desc(DataType::kFloat16, {2, 3, 2, 2})));
  EXPECT_EQ(half_values(g.run().front()),
            (std::vector<float>{-2.19921875f,     -1.107421875f,    0.6064453125f,    3.099609375f,      -0.26171875f,
                                1.0419921875f,    0.064208984375f,  -0.04443359375f,  1.6435546875f,     -2.09375f,
                                0.62353515625f,   -1.3720703125f,   -2.58203125f,     -0.7939453125f,    0.994140625f,
                                2.78125f,         0.87060546875f,   0.423583984375f,  -0.0235595703125f, -0.470703125f,
                                -0.300048828125f, -0.300048828125f, -0.300048828125f, -0.300048828125f}));
}

TEST(ReferenceSoftmax, EitherAxisIsMaxSubtracted) {
  const std::vector<float> in = {1, 2, 3, -1, 0, 1000};  // 1000 would overflow exp without the max
  SoftmaxAttrs attrs;
  attrs.axis = 1;
  TensorData out = run_op(OpKind::kSoftmax, {f32({2, 3}, in)}, attrs, desc(DataType::kFloat32, {2, 3}));
  expect_near(values<float>(out), {0.09003057330846786f, 0.2447284758090973f, 0.6652409434318542f, 0, 0, 1}, 1e-7,
              1e-6);
  attrs.axis = 0;
  out = run_op(OpKind::kSoftmax, {f32({2, 3}, in)}, attrs, desc(DataType::kFloat32, {2, 3}));
  expect_near(values<float>(out),
              {0.8807970881462097f, 0.8807970881462097f, 0, 0.11920291930437088f, 0.11920291930437088f, 1}, 1e-7, 1e-6);
  attrs.axis = 0;
  out = run_op(OpKind::kSoftmax, {f16({3}, {1, 2, 3})}, attrs, desc(DataType::kFloat16, {3}));
  EXPECT_EQ(half_values(out), (std::vector<float>{0.09002685546875f, 0.2447509765625f, 0.6650390625f}));
}

}  // namespace
}  // namespace webnn::test
