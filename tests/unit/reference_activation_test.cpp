// Activation kernels of the reference backend: elu, hardSigmoid, hardSwish, leakyRelu, linear,
// prelu, softplus, softsign. Expected float values were computed offline with numpy 1.24 in
// float64 from the spec's definitions on the exact input value (options cast first to the input
// type: np.float32(alpha) or np.float16(alpha)), then rounded once (np.float32(y), np.float16(y));
// softplus as np.logaddexp(0, x), elu with np.expm1. Integer prelu values are by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

std::vector<float> run_f32(OpKind kind, const std::vector<float>& in, Attributes attrs = NoAttrs{}) {
  const Shape shape{static_cast<uint32_t>(in.size())};
  return values<float>(run_op(kind, {f32(shape, in)}, std::move(attrs), desc(DataType::kFloat32, shape)));
}
std::vector<float> run_f16(OpKind kind, const std::vector<float>& in, Attributes attrs = NoAttrs{}) {
  const Shape shape{static_cast<uint32_t>(in.size())};
  return half_values(run_op(kind, {f16(shape, in)}, std::move(attrs), desc(DataType::kFloat16, shape)));
}

// ---- elu ----

TEST(ReferenceElu, DefaultAlpha) {
  // elu(-Infinity) = -alpha; -0 stays -0 (piecewise, like relu).
  expect_same(
      run_f32(OpKind::kElu, {-kInf, -1000.0f, -2.0f, -0.5f, -1e-30f, -0.0f, 0.0f, 0.5f, 3.0f, 1e+30f, kInf, kNaN},
              EluAttrs{}),
      {-1.0f, -1.0f, -0.86466473f, -0.39346933f, -1e-30f, -0.0f, 0.0f, 0.5f, 3.0f, 1e+30f, kInf, kNaN});
  expect_same(
      run_f16(OpKind::kElu,
              {-kInf, -65504.0f, -2.0f, -0.5f, -5.960464477539063e-08f, -0.0f, 0.0f, 0.5f, 3.0f, 65504.0f, kInf, kNaN},
              EluAttrs{}),
      {-1.0f, -1.0f, -0.86474609375f, -0.3935546875f, -5.960464477539063e-08f, -0.0f, 0.0f, 0.5f, 3.0f, 65504.0f, kInf,
       kNaN});
}

TEST(ReferenceElu, AlphaIsCastToTheInputType) {
  // alpha -3.468180406374035 is -3.4681804180145264 in float32 and -3.46875 in float16.
  expect_same(run_f32(OpKind::kElu, {-kInf, -2.0f, -0.5f, -1e-30f, -0.0f, 3.0f}, EluAttrs{-3.468180406374035}),
              {3.4681804f, 2.9988132f, 1.3646227f, 3.4681804e-30f, -0.0f, 3.0f});
  expect_same(
      run_f16(OpKind::kElu, {-kInf, -2.0f, -0.5f, -5.960464477539063e-08f, -0.0f, 3.0f}, EluAttrs{-3.468180406374035}),
      {3.46875f, 3.0f, 1.365234375f, 1.7881393432617188e-07f, -0.0f, 3.0f});
}

TEST(ReferenceElu, Float16AlphaOverflowAffectsOnlyNegativeInputs) {
  // 1e5 cast to float16 is +Infinity; x >= 0 passes through instead of becoming 0 * Infinity.
  expect_same(run_f16(OpKind::kElu, {-kInf, -2.0f, -0.0f, 0.0f, 0.5f, kInf, kNaN}, EluAttrs{1e5}),
              {-kInf, -kInf, -0.0f, 0.0f, 0.5f, kInf, kNaN});
}

// ---- hardSigmoid ----

TEST(ReferenceHardSigmoid, DefaultOptions) {
  // alpha 0.2 and beta 0.5 cast to float32: 0.2f * -2.5 + 0.5 is slightly below 0.
  const std::vector<float> in = {-kInf, -3.0f, -2.5f, -1.0f, -0.0f, 0.0f, 0.1f, 1.0f, 2.5f, 3.0f, kInf, kNaN};
  expect_same(run_f32(OpKind::kHardSigmoid, in, HardSigmoidAttrs{}),
              {0.0f, 0.0f, 0.0f, 0.3f, 0.5f, 0.5f, 0.52f, 0.7f, 1.0f, 1.0f, 1.0f, kNaN});
  // In float16 alpha is 0.199951171875, so -2.5 gives 0.0001220703125 rather than 0.
  expect_same(run_f16(OpKind::kHardSigmoid, in, HardSigmoidAttrs{}),
              {0.0f, 0.0f, 0.0001220703125f, 0.300048828125f, 0.5f, 0.5f, 0.52001953125f, 0.7001953125f, 1.0f, 1.0f,
               1.0f, kNaN});
}

TEST(ReferenceHardSigmoid, AlphaAndBeta) {
  const std::vector<float> in = {-kInf, -3.0f, -2.5f, -1.0f, -0.0f, 0.0f, 0.1f, 1.0f, 2.5f, 3.0f, kInf, kNaN};
  const HardSigmoidAttrs attrs{-0.7854232544278235, 0.4361860418530341};
  expect_same(run_f32(OpKind::kHardSigmoid, in, attrs),
              {1.0f, 1.0f, 1.0f, 1.0f, 0.43618605f, 0.43618605f, 0.35764372f, 0.0f, 0.0f, 0.0f, 0.0f, kNaN});
  expect_same(run_f16(OpKind::kHardSigmoid, in, attrs), {1.0f, 1.0f, 1.0f, 1.0f, 0.436279296875f, 0.436279296875f,
                                                         0.357666015625f, 0.0f, 0.0f, 0.0f, 0.0f, kNaN});
}

// ---- hardSwish ----

TEST(ReferenceHardSwish, Values) {
  // hardSwish(-Infinity) = 0 (the spec's expression would give -Infinity * 0 = NaN).
  expect_same(run_f32(OpKind::kHardSwish, {-kInf, -4.0f, -3.0f, -1.5f, -1.0f, -0.0f, 0.0f, 1e-30f, 1.0f, 2.9f, 3.0f,
                                           4.0f, 1e+30f, kInf, kNaN}),
              {0.0f, 0.0f, 0.0f, -0.375f, -0.33333334f, -0.0f, 0.0f, 5e-31f, 0.6666667f, 2.8516667f, 3.0f, 4.0f, 1e+30f,
               kInf, kNaN});
  // The smallest float16 subnormal gives half of itself plus a little: 5.96e-8 rounded once (0 if
  // rounded to float32 first, a tie).
  expect_same(run_f16(OpKind::kHardSwish, {-kInf, -4.0f, -3.0f, -1.5f, -1.0f, -0.0f, 0.0f, 5.960464477539063e-08f, 1.0f,
                                           2.900390625f, 3.0f, 4.0f, 65504.0f, kInf, kNaN}),
              {0.0f, 0.0f, 0.0f, -0.375f, -0.333251953125f, -0.0f, 0.0f, 5.960464477539063e-08f, 0.66650390625f,
               2.8515625f, 3.0f, 4.0f, 65504.0f, kInf, kNaN});
}

// ---- leakyRelu ----

TEST(ReferenceLeakyRelu, DefaultAlpha) {
  expect_same(run_f32(OpKind::kLeakyRelu, {-kInf, -100.0f, -1.0f, -1e-45f, -0.0f, 0.0f, 2.0f, 3e+38f, kInf, kNaN},
                      LeakyReluAttrs{}),
              {-kInf, -1.0f, -0.01f, -0.0f, -0.0f, 0.0f, 2.0f, 3e+38f, kInf, kNaN});
  expect_same(run_f16(OpKind::kLeakyRelu,
                      {-kInf, -100.0f, -1.0f, -5.960464477539063e-08f, -0.0f, 0.0f, 2.0f, 65504.0f, kInf, kNaN},
                      LeakyReluAttrs{}),
              {-kInf, -1.0f, -0.01000213623046875f, -0.0f, -0.0f, 0.0f, 2.0f, 65504.0f, kInf, kNaN});
}

TEST(ReferenceLeakyRelu, Alphas) {
  const std::vector<float> in = {-kInf, -100.0f, -1.0f, -1e-45f, -0.0f, 0.0f, 2.0f, 3e+38f, kInf, kNaN};
  expect_same(run_f32(OpKind::kLeakyRelu, in, LeakyReluAttrs{35.799162942273234}),
              {-kInf, -3579.9165f, -35.799164f, -5e-44f, -0.0f, 0.0f, 2.0f, 3e+38f, kInf, kNaN});
  // alpha 0: negative inputs give -0, and 0 * -Infinity is NaN.
  expect_same(run_f32(OpKind::kLeakyRelu, in, LeakyReluAttrs{0.0}),
              {kNaN, -0.0f, -0.0f, -0.0f, -0.0f, 0.0f, 2.0f, 3e+38f, kInf, kNaN});
  // alpha 1e5 is +Infinity in float16: only negative inputs change.
  expect_same(run_f16(OpKind::kLeakyRelu,
                      {-kInf, -100.0f, -1.0f, -5.960464477539063e-08f, -0.0f, 0.0f, 2.0f, 65504.0f, kInf, kNaN},
                      LeakyReluAttrs{1e5}),
              {-kInf, -kInf, -kInf, -kInf, -0.0f, 0.0f, 2.0f, 65504.0f, kInf, kNaN});
}

// ---- linear ----

TEST(ReferenceLinear, DefaultIsTheIdentityExceptMinusZero) {
  // 1 * -0 + 0 = +0, as the spec's expression gives.
  expect_same(
      run_f32(OpKind::kLinear, {-kInf, -2.0f, -0.0f, 0.0f, 0.1f, 1.0f, 1e+30f, 3e+38f, kInf, kNaN}, LinearAttrs{}),
      {-kInf, -2.0f, 0.0f, 0.0f, 0.1f, 1.0f, 1e+30f, 3e+38f, kInf, kNaN});
}

TEST(ReferenceLinear, AlphaAndBeta) {
  const LinearAttrs attrs{-7.398793812746618, -5.919095653700928};
  expect_same(run_f32(OpKind::kLinear, {-kInf, -2.0f, -0.0f, 0.0f, 0.1f, 1.0f, 1e+30f, 3e+38f, kInf, kNaN}, attrs),
              {kInf, 8.878492f, -5.9190955f, -5.9190955f, -6.658975f, -13.317889f, -7.398794e+30f, -kInf, -kInf, kNaN});
  // float16: alpha -7.3984375, beta -5.91796875; 10000 overflows.
  expect_same(run_f16(OpKind::kLinear,
                      {-kInf, -2.0f, -0.0f, 0.0f, 0.0999755859375f, 1.0f, 10000.0f, 65504.0f, kInf, kNaN}, attrs),
              {kInf, 8.875f, -5.91796875f, -5.91796875f, -6.65625f, -13.3125f, -kInf, -kInf, -kInf, kNaN});
}

// ---- softplus ----

TEST(ReferenceSoftplus, StableForLargeMagnitudes) {
  // softplus(1000) = 1000 and softplus(3e38) = 3e38: no overflow of exp(x).
  expect_same(run_f32(OpKind::kSoftplus, {-kInf, -1000.0f, -100.0f, -20.0f, -1.0f, -1e-30f, -0.0f, 0.0f, 1.0f, 20.0f,
                                          88.0f, 100.0f, 1000.0f, 3e+38f, kInf, kNaN}),
              {0.0f, 0.0f, 3.8e-44f, 2.0611537e-09f, 0.3132617f, 0.6931472f, 0.6931472f, 0.6931472f, 1.3132616f, 20.0f,
               88.0f, 100.0f, 1000.0f, 3e+38f, kInf, kNaN});
  // float16 -6.389617919921875e-05 gives 0.69287109375 rounded once (0.693359375 through float32).
  expect_same(run_f16(OpKind::kSoftplus, {-kInf, -100.0f, -20.0f, -1.0f, -6.389617919921875e-05f, -0.0f, 0.0f, 1.0f,
                                          11.0f, 20.0f, 65504.0f, kInf, kNaN}),
              {0.0f, 0.0f, 0.0f, 0.313232421875f, 0.69287109375f, 0.693359375f, 0.693359375f, 1.3134765625f, 11.0f,
               20.0f, 65504.0f, kInf, kNaN});
}

// ---- softsign ----

TEST(ReferenceSoftsign, Values) {
  // softsign(+-Infinity) = +-1, the limit (the spec's expression would give Infinity / Infinity).
  expect_same(
      run_f32(OpKind::kSoftsign, {-kInf, -3e+38f, -3.0f, -1.0f, -1e-45f, -0.0f, 0.0f, 0.5f, 1.0f, 100.0f, 16777216.0f,
                                  3e+38f, kInf, kNaN}),
      {-1.0f, -1.0f, -0.75f, -0.5f, -1e-45f, -0.0f, 0.0f, 0.33333334f, 0.5f, 0.990099f, 0.99999994f, 1.0f, 1.0f, kNaN});
  expect_same(run_f16(OpKind::kSoftsign, {-kInf, -65504.0f, -3.0f, -1.0f, -5.960464477539063e-08f, -0.0f, 0.0f, 0.5f,
                                          1.0f, 100.0f, 2048.0f, 65504.0f, kInf, kNaN}),
              {-1.0f, -1.0f, -0.75f, -0.5f, -5.960464477539063e-08f, -0.0f, 0.0f, 0.333251953125f, 0.5f, 0.990234375f,
               0.99951171875f, 1.0f, 1.0f, kNaN});
}

// ---- every activation on a rank-0 tensor, and integer inputs rejected ----

TEST(ReferenceActivation, Scalars) {
  struct Case {
    OpKind kind;
    Attributes attrs;
    float in, out;
  };
  // By hand: elu(-0) = -0; hardSigmoid(1) = 0.2f + 0.5f = 0.7f; hardSwish(3) = 3; leakyRelu(-2) =
  // -0.02f; linear(2) = 2 * 2 + 1; softplus(0) = ln 2; softsign(-1) = -0.5.
  const Case cases[] = {{OpKind::kElu, EluAttrs{}, -0.0f, -0.0f},
                        {OpKind::kHardSigmoid, HardSigmoidAttrs{}, 1.0f, 0.7f},
                        {OpKind::kHardSwish, NoAttrs{}, 3.0f, 3.0f},
                        {OpKind::kLeakyRelu, LeakyReluAttrs{}, -2.0f, -0.02f},
                        {OpKind::kLinear, LinearAttrs{2.0, 1.0}, 2.0f, 5.0f},
                        {OpKind::kSoftplus, NoAttrs{}, 0.0f, 0.6931472f},
                        {OpKind::kSoftsign, NoAttrs{}, -1.0f, -0.5f}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(op_name(c.kind)));
    const TensorData out = run_op(c.kind, {f32({}, {c.in})}, c.attrs, desc(DataType::kFloat32, {}));
    expect_same(values<float>(out), {c.out});
  }
}

TEST(ReferenceActivation, IntegersHaveNoKernel) {
  const std::pair<OpKind, Attributes> ops[] = {
      {OpKind::kElu, EluAttrs{}},       {OpKind::kHardSigmoid, HardSigmoidAttrs{}},
      {OpKind::kHardSwish, NoAttrs{}},  {OpKind::kLeakyRelu, LeakyReluAttrs{}},
      {OpKind::kLinear, LinearAttrs{}}, {OpKind::kSoftplus, NoAttrs{}},
      {OpKind::kSoftsign, NoAttrs{}}};
  for (const auto& [kind, attrs] : ops) {
    SCOPED_TRACE(std::string(op_name(kind)));
    EXPECT_THROW(run_op(kind, {tensor<int32_t>(DataType::kInt32, {1}, {1})}, attrs, desc(DataType::kInt32, {1})),
                 Error);
  }
}

// ---- prelu ----

TensorData prelu(TensorData input, TensorData slope, Shape out_shape) {
  const DataType type = input.desc.data_type;
  return run_op(OpKind::kPrelu, {std::move(input), std::move(slope)}, NoAttrs{}, desc(type, std::move(out_shape)));
}

TEST(ReferencePrelu, Float32BroadcastsTheSlope) {
  // [2, 3] input, [3] slope: negative inputs are multiplied by their column's slope; -0 stays -0
  // and NaN passes through.
  const TensorData out =
      prelu(f32({2, 3}, {-2.0f, -0.5f, 0.0f, -0.0f, 3.0f, kNaN}), f32({3}, {0.25f, -1.0f, 2.0f}), {2, 3});
  expect_same(values<float>(out), {-0.5f, 0.5f, 0.0f, -0.0f, 3.0f, kNaN});
}

TEST(ReferencePrelu, BroadcastsBidirectionally) {
  // input [3] and slope [2, 1] give a [2, 3] output, as the spec's bidirectional broadcast says.
  const TensorData out = prelu(f32({3}, {-1.0f, 2.0f, -3.0f}), f32({2, 1}, {0.5f, -2.0f}), {2, 3});
  expect_same(values<float>(out), {-0.5f, 2.0f, -1.5f, 2.0f, 2.0f, 6.0f});
  // A rank-0 input with a [2] slope.
  expect_same(values<float>(prelu(f32({}, {-2.0f}), f32({2}, {1.0f, 3.0f}), {2})), {-2.0f, -6.0f});
  // Both rank 0.
  expect_same(values<float>(prelu(f32({}, {-4.0f}), f32({}, {0.5f}), {})), {-2.0f});
}

TEST(ReferencePrelu, NonFiniteSlopesChangeOnlyNegativeInputs) {
  const TensorData out = prelu(f32({2, 3}, {1.0f, -1.0f, 0.0f, 1.0f, -1.0f, -0.0f}), f32({2, 1}, {kInf, kNaN}), {2, 3});
  expect_same(values<float>(out), {1.0f, -kInf, 0.0f, 1.0f, kNaN, -0.0f});
}

TEST(ReferencePrelu, Float16RoundsOnce) {
  // slope float16(0.1) = 0.0999755859375; numpy float16 of each exact product.
  const TensorData out = prelu(f16({4}, {-3.0f, 1.5f, -65504.0f, -0.1f}), f16({1}, {0.1f}), {4});
  expect_same(half_values(out), {-0.2998046875f, 1.5f, -6548.0f, -0.0099945068359375f});
}

TEST(ReferencePrelu, IntegersWrap) {
  // int8: -128 * 2 = -256 wraps to 0; 127 is not negative.
  EXPECT_EQ(values<int8_t>(prelu(tensor<int8_t>(DataType::kInt8, {6}, {-128, -1, 0, 5, 127, -64}),
                                 tensor<int8_t>(DataType::kInt8, {1}, {2}), {6})),
            (std::vector<int8_t>{0, -2, 0, 5, 127, -128}));
  // int32: INT32_MIN * -1 wraps to INT32_MIN.
  EXPECT_EQ(values<int32_t>(prelu(tensor<int32_t>(DataType::kInt32, {3}, {INT32_MIN, -3, 7}),
                                  tensor<int32_t>(DataType::kInt32, {}, {-1}), {3})),
            (std::vector<int32_t>{INT32_MIN, 3, 7}));
  // int64 beyond 2^53 is exact: -9007199254740993 * 3 = -27021597764222979.
  EXPECT_EQ(values<int64_t>(prelu(tensor<int64_t>(DataType::kInt64, {2, 2}, {-9007199254740993, 4, INT64_MIN, -1}),
                                  tensor<int64_t>(DataType::kInt64, {2, 1}, {3, -1}), {2, 2})),
            (std::vector<int64_t>{-27021597764222979, 4, INT64_MIN, 1}));
}

}  // namespace
}  // namespace webnn::test
