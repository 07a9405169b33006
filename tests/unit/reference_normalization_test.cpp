// layerNormalization and softmax on the reference backend; expected values from numpy (double
// precision, rounded to the output type).
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
