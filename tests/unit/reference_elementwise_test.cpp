// Element-wise kernels of the reference backend. Expected values are by hand from the spec's
// definitions or computed with numpy (float32 results of double-precision math).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/dispatch.hpp"
#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

const std::vector<float> kUnaryInput = {-2.5f, -1.0f, -0.25f, 0.0f, 0.5f, 1.0f, 2.0f, 3.5f};

TensorData binary(OpKind kind, TensorData a, TensorData b, Shape out_shape) {
  const DataType type = a.desc.data_type;
  return run_op(kind, {std::move(a), std::move(b)}, NoAttrs{}, desc(type, std::move(out_shape)));
}

// ---- Binary float32 with broadcasting ([2, 3] with [3]) ----

struct BinaryCase {
  OpKind kind;
  std::vector<float> expected;
};

class BinaryFloat32 : public testing::TestWithParam<BinaryCase> {};

TEST_P(BinaryFloat32, BroadcastsRowVector) {
  const auto& c = GetParam();
  const TensorData out =
      binary(c.kind, f32({2, 3}, {1.5f, -2.25f, 3.0f, 0.1f, 7.0f, -0.5f}), f32({3}, {0.5f, 4.0f, -3.0f}), {2, 3});
  // Basic arithmetic is correctly rounded: exact equality with numpy's float32 results.
  EXPECT_EQ(values<float>(out), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Ops, BinaryFloat32,
    testing::Values(BinaryCase{OpKind::kAdd, {2.0f, 1.75f, 0.0f, 0.6000000238418579f, 11.0f, -3.5f}},
                    BinaryCase{OpKind::kSub, {1.0f, -6.25f, 6.0f, -0.4000000059604645f, 3.0f, 2.5f}},
                    BinaryCase{OpKind::kMul, {0.75f, -9.0f, -9.0f, 0.05000000074505806f, 28.0f, 1.5f}},
                    BinaryCase{OpKind::kDiv, {3.0f, -0.5625f, -1.0f, 0.20000000298023224f, 1.75f, 0.1666666716337204f}},
                    BinaryCase{OpKind::kMax, {1.5f, 4.0f, 3.0f, 0.5f, 7.0f, -0.5f}},
                    BinaryCase{OpKind::kMin, {0.5f, -2.25f, -3.0f, 0.10000000149011612f, 4.0f, -3.0f}}));

TEST(ReferenceBinary, PowFloat32) {
  const TensorData out =
      binary(OpKind::kPow, f32({4}, {2.0f, 9.0f, 0.5f, -2.0f}), f32({4}, {3.0f, 0.5f, -1.5f, 2.0f}), {4});
  expect_near(values<float>(out), {8.0f, 3.0f, 2.8284270763397217f, 4.0f});
}

TEST(ReferenceBinary, BroadcastsBothWays) {
  // [2, 1] + [1, 3] -> [2, 3]
  const TensorData out = binary(OpKind::kAdd, f32({2, 1}, {10, 20}), f32({1, 3}, {1, 2, 3}), {2, 3});
  EXPECT_EQ(values<float>(out), (std::vector<float>{11, 12, 13, 21, 22, 23}));
}

TEST(ReferenceBinary, BroadcastsScalarAndHigherRank) {
  // rank 0 * [2, 2]
  TensorData out = binary(OpKind::kMul, f32({}, {3}), f32({2, 2}, {1, 2, 3, 4}), {2, 2});
  EXPECT_EQ(values<float>(out), (std::vector<float>{3, 6, 9, 12}));
  // [3, 1, 2] - [4, 1] -> [3, 4, 2]
  std::vector<float> a(6), b(4), expected;
  for (int i = 0; i < 6; ++i) a[i] = float(i * 10);
  for (int i = 0; i < 4; ++i) b[i] = float(i);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 2; ++k) expected.push_back(a[i * 2 + k] - b[j]);
  out = binary(OpKind::kSub, f32({3, 1, 2}, a), f32({4, 1}, b), {3, 4, 2});
  EXPECT_EQ(values<float>(out), expected);
}

TEST(ReferenceBinary, ScalarsRankZero) {
  const TensorData out = binary(OpKind::kDiv, f32({}, {1}), f32({}, {8}), {});
  EXPECT_EQ(values<float>(out), (std::vector<float>{0.125f}));
}

TEST(ReferenceBinary, AddEveryDataType) {
  EXPECT_EQ(values<float>(binary(OpKind::kAdd, f32({2}, {1.5f, -1}), f32({2}, {2, 0.25f}), {2})),
            (std::vector<float>{3.5f, -0.75f}));
  EXPECT_EQ(half_values(binary(OpKind::kAdd, f16({2}, {1.5f, -1}), f16({2}, {2, 0.25f}), {2})),
            (std::vector<float>{3.5f, -0.75f}));
  auto ints = [](DataType type, auto zero) {
    using T = decltype(zero);
    const TensorData out = binary(OpKind::kAdd, tensor<T>(type, {3}, {T(1), T(20), T(100)}),
                                  tensor<T>(type, {3}, {T(2), T(7), T(27)}), {3});
    EXPECT_EQ(values<T>(out), (std::vector<T>{T(3), T(27), T(127)})) << to_string(type);
  };
  ints(DataType::kInt32, int32_t{});
  ints(DataType::kUint32, uint32_t{});
  ints(DataType::kInt64, int64_t{});
  ints(DataType::kUint64, uint64_t{});
  ints(DataType::kInt8, int8_t{});
  ints(DataType::kUint8, uint8_t{});
}

TEST(ReferenceBinary, Int64BeyondDoublePrecisionIsExact) {
  const int64_t big = (int64_t{1} << 53) + 1;  // not representable in double
  const TensorData out = binary(OpKind::kAdd, tensor<int64_t>(DataType::kInt64, {2}, {big, INT64_MAX - 2}),
                                tensor<int64_t>(DataType::kInt64, {2}, {2, 1}), {2});
  EXPECT_EQ(values<int64_t>(out), (std::vector<int64_t>{9007199254740995, INT64_MAX - 1}));
  const TensorData m = binary(OpKind::kMul, tensor<uint64_t>(DataType::kUint64, {1}, {4294967297ull}),
                              tensor<uint64_t>(DataType::kUint64, {1}, {4294967295ull}), {1});
  EXPECT_EQ(values<uint64_t>(m), (std::vector<uint64_t>{18446744073709551615ull}));  // 2^64 - 1
}

TEST(ReferenceBinary, IntegerOverflowWraps) {
  TensorData out = binary(OpKind::kAdd, tensor<int8_t>(DataType::kInt8, {2}, {127, -128}),
                          tensor<int8_t>(DataType::kInt8, {2}, {1, -1}), {2});
  EXPECT_EQ(values<int8_t>(out), (std::vector<int8_t>{-128, 127}));
  out = binary(OpKind::kSub, tensor<uint8_t>(DataType::kUint8, {1}, {1}), tensor<uint8_t>(DataType::kUint8, {1}, {2}),
               {1});
  EXPECT_EQ(values<uint8_t>(out), (std::vector<uint8_t>{255}));
  out = binary(OpKind::kMul, tensor<int32_t>(DataType::kInt32, {1}, {65536}),
               tensor<int32_t>(DataType::kInt32, {1}, {65536}), {1});
  EXPECT_EQ(values<int32_t>(out), (std::vector<int32_t>{0}));
}

TEST(ReferenceBinary, IntegerDivisionTruncatesTowardZero) {
  const TensorData out = binary(OpKind::kDiv, tensor<int32_t>(DataType::kInt32, {6}, {7, -7, 7, -7, 5, INT32_MIN}),
                                tensor<int32_t>(DataType::kInt32, {6}, {2, 2, -2, -2, 0, -1}), {6});
  // Division by zero gives 0 and INT32_MIN / -1 wraps (implementation-defined choices).
  EXPECT_EQ(values<int32_t>(out), (std::vector<int32_t>{3, -3, -3, 3, 0, INT32_MIN}));
  const TensorData u = binary(OpKind::kDiv, tensor<uint8_t>(DataType::kUint8, {2}, {255, 9}),
                              tensor<uint8_t>(DataType::kUint8, {2}, {16, 3}), {2});
  EXPECT_EQ(values<uint8_t>(u), (std::vector<uint8_t>{15, 3}));
}

TEST(ReferenceBinary, IntegerMaxMinPow) {
  const auto a = tensor<int64_t>(DataType::kInt64, {4}, {-5, 3, 2, -2});
  const auto b = tensor<int64_t>(DataType::kInt64, {4}, {4, -9, 10, 3});
  EXPECT_EQ(values<int64_t>(binary(OpKind::kMax, a, b, {4})), (std::vector<int64_t>{4, 3, 10, 3}));
  EXPECT_EQ(values<int64_t>(binary(OpKind::kMin, a, b, {4})), (std::vector<int64_t>{-5, -9, 2, -2}));
  // (-5)^4 = 625, 3^-9 truncates to 0, 2^10 = 1024, (-2)^3 = -8
  EXPECT_EQ(values<int64_t>(binary(OpKind::kPow, a, b, {4})), (std::vector<int64_t>{625, 0, 1024, -8}));
  // 3^40 = 12157665459056928801 exactly (> 2^63, fits uint64)
  const auto p = binary(OpKind::kPow, tensor<uint64_t>(DataType::kUint64, {1}, {3}),
                        tensor<uint64_t>(DataType::kUint64, {1}, {40}), {1});
  EXPECT_EQ(values<uint64_t>(p), (std::vector<uint64_t>{12157665459056928801ull}));
}

TEST(ReferenceBinary, MaxMinPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const TensorData out = binary(OpKind::kMax, f32({2}, {nan, 1}), f32({2}, {1, nan}), {2});
  const auto v = values<float>(out);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_TRUE(std::isnan(v[1]));
}

TEST(ReferenceBinary, Float16RoundsOnceToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even gives 1.
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: ties to even gives 1 + 2^-9.
  TensorData out =
      binary(OpKind::kAdd, f16({3}, {1, 1, 60000}), f16({3}, {0.00048828125f, 0.00146484375f, 10000}), {3});
  EXPECT_EQ(half_values(out), (std::vector<float>{1.0f, 1.001953125f, INFINITY}));
  // numpy float16: 0.1 * 3 = 0.2998046875, 1 / 3 = 0.333251953125
  out = binary(OpKind::kMul, f16({1}, {0.1f}), f16({1}, {3}), {1});
  EXPECT_EQ(half_values(out), (std::vector<float>{0.2998046875f}));
  out = binary(OpKind::kDiv, f16({1}, {1}), f16({1}, {3}), {1});
  EXPECT_EQ(half_values(out), (std::vector<float>{0.333251953125f}));
}

// ---- Unary ----

struct UnaryCase {
  OpKind kind;
  std::vector<float> f32_expected;
  std::vector<float> f16_expected;
};

class Unary : public testing::TestWithParam<UnaryCase> {};

TEST_P(Unary, Float32AndFloat16) {
  const auto& c = GetParam();
  TensorData out = run_op(c.kind, {f32({2, 4}, kUnaryInput)}, NoAttrs{}, desc(DataType::kFloat32, {2, 4}));
  expect_near(values<float>(out), c.f32_expected, 1e-7, 2e-7);
  out = run_op(c.kind, {f16({8}, kUnaryInput)}, NoAttrs{}, desc(DataType::kFloat16, {8}));
  expect_near(half_values(out), c.f16_expected, 0, 1e-3);  // within one float16 ulp
}

INSTANTIATE_TEST_SUITE_P(
    Ops, Unary,
    testing::Values(UnaryCase{OpKind::kErf,
                              {-0.9995930194854736f, -0.8427007794380188f, -0.27632638812065125f, 0.0f,
                               0.5204998850822449f, 0.8427007794380188f, 0.9953222870826721f, 0.9999992847442627f},
                              {-0.99951171875f, -0.8427734375f, -0.2763671875f, 0.0f, 0.5205078125f, 0.8427734375f,
                               0.9951171875f, 1.0f}},
                    UnaryCase{OpKind::kExp,
                              {0.08208499848842621f, 0.3678794503211975f, 0.7788007855415344f, 1.0f,
                               1.6487212181091309f, 2.7182817459106445f, 7.389056205749512f, 33.11545181274414f},
                              {0.08209228515625f, 0.367919921875f, 0.77880859375f, 1.0f, 1.6484375f, 2.71875f,
                               7.390625f, 33.125f}},
                    UnaryCase{OpKind::kSigmoid,
                              {0.07585818320512772f, 0.2689414322376251f, 0.43782350420951843f, 0.5f,
                               0.622459352016449f, 0.7310585975646973f, 0.8807970881462097f, 0.970687747001648f},
                              {0.07586669921875f, 0.26904296875f, 0.437744140625f, 0.5f, 0.62255859375f, 0.73095703125f,
                               0.880859375f, 0.970703125f}},
                    UnaryCase{OpKind::kTanh,
                              {-0.9866142868995667f, -0.7615941762924194f, -0.24491865932941437f, 0.0f,
                               0.46211716532707214f, 0.7615941762924194f, 0.9640275835990906f, 0.9981778860092163f},
                              {-0.98681640625f, -0.76171875f, -0.244873046875f, 0.0f, 0.462158203125f, 0.76171875f,
                               0.9638671875f, 0.998046875f}},
                    UnaryCase{OpKind::kGelu,
                              {-0.015524162910878658f, -0.15865525603294373f, -0.10032341629266739f, 0.0f,
                               0.3457312285900116f, 0.8413447737693787f, 1.9544997215270996f, 3.499185800552368f},
                              {-0.01552581787109375f, -0.15869140625f, -0.100341796875f, 0.0f, 0.345703125f,
                               0.84130859375f, 1.9541015625f, 3.5f}}));

TEST(ReferenceUnary, Sqrt) {
  TensorData out = run_op(OpKind::kSqrt, {f32({5}, {0, 0.25f, 2, 9, 1e-8f})}, NoAttrs{}, desc(DataType::kFloat32, {5}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{0.0f, 0.5f, 1.4142135381698608f, 3.0f, 9.999999747378752e-05f}));
  out = run_op(OpKind::kSqrt, {f32({}, {-1})}, NoAttrs{}, desc(DataType::kFloat32, {}));
  EXPECT_TRUE(std::isnan(values<float>(out)[0]));
  out = run_op(OpKind::kSqrt, {f16({2}, {2, 0.25f})}, NoAttrs{}, desc(DataType::kFloat16, {2}));
  EXPECT_EQ(half_values(out), (std::vector<float>{1.4140625f, 0.5f}));  // numpy float16 sqrt(2)
}

TEST(ReferenceUnary, UnaryRejectsIntegersAtCompileTime) {
  try {
    run_unvalidated_op(OpKind::kExp, {tensor<int32_t>(DataType::kInt32, {1}, {1})}, NoAttrs{},
                       desc(DataType::kInt32, {1}));
    FAIL() << "expected NotSupportedError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotSupportedError);
    EXPECT_NE(e.message().find("exp"), std::string::npos);
  }
}

TEST(ReferenceUnary, ReluEveryAllowedType) {
  EXPECT_EQ(values<float>(run_op(OpKind::kRelu, {f32({4}, {-1.5f, 0, 2.5f, -0.0f})}, NoAttrs{},
                                 desc(DataType::kFloat32, {4})))[2],
            2.5f);
  EXPECT_EQ(
      values<float>(run_op(OpKind::kRelu, {f32({3}, {-1.5f, 0, 2.5f})}, NoAttrs{}, desc(DataType::kFloat32, {3}))),
      (std::vector<float>{0, 0, 2.5f}));
  EXPECT_EQ(half_values(run_op(OpKind::kRelu, {f16({3}, {-1.5f, 0, 2.5f})}, NoAttrs{}, desc(DataType::kFloat16, {3}))),
            (std::vector<float>{0, 0, 2.5f}));
  EXPECT_EQ(values<int8_t>(run_op(OpKind::kRelu, {tensor<int8_t>(DataType::kInt8, {4}, {-128, 0, 126, 127})}, NoAttrs{},
                                  desc(DataType::kInt8, {4}))),
            (std::vector<int8_t>{0, 0, 126, 127}));
  EXPECT_EQ(values<int32_t>(run_op(OpKind::kRelu, {tensor<int32_t>(DataType::kInt32, {3}, {INT32_MIN, -1, INT32_MAX})},
                                   NoAttrs{}, desc(DataType::kInt32, {3}))),
            (std::vector<int32_t>{0, 0, INT32_MAX}));
  EXPECT_EQ(values<int64_t>(run_op(OpKind::kRelu,
                                   {tensor<int64_t>(DataType::kInt64, {5}, {-INT64_MAX, -100, 0, 100, INT64_MAX})},
                                   NoAttrs{}, desc(DataType::kInt64, {5}))),
            (std::vector<int64_t>{0, 0, 0, 100, INT64_MAX}));
}

// ---- clamp ----

TEST(ReferenceClamp, Float32BoundsAndDefaults) {
  ClampAttrs attrs;
  attrs.min_value = -1.0;
  attrs.max_value = 2.5;
  TensorData out = run_op(OpKind::kClamp, {f32({5}, {-3, -1, 0.5f, 2.5f, 7})}, attrs, desc(DataType::kFloat32, {5}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{-1, -1, 0.5f, 2.5f, 2.5f}));
  // No bounds: unchanged, infinities included.
  out = run_op(OpKind::kClamp, {f32({3}, {-INFINITY, 1, INFINITY})}, ClampAttrs{}, desc(DataType::kFloat32, {3}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{-INFINITY, 1, INFINITY}));
  // Relu6 as in MobileNetV2.
  attrs.min_value = 0.0;
  attrs.max_value = 6.0;
  out = run_op(OpKind::kClamp, {f32({2, 2}, {-0.5f, 3, 6.5f, 6})}, attrs, desc(DataType::kFloat32, {2, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{0, 3, 6, 6}));
}

TEST(ReferenceClamp, Float16BoundsAreCastToFloat16) {
  ClampAttrs attrs;
  attrs.min_value = 0.1;  // float16(0.1) = 0.0999755859375
  attrs.max_value = 1.0;
  const TensorData out = run_op(OpKind::kClamp, {f16({3}, {0, 0.5f, 3})}, attrs, desc(DataType::kFloat16, {3}));
  EXPECT_EQ(half_values(out), (std::vector<float>{0.0999755859375f, 0.5f, 1.0f}));
}

TEST(ReferenceClamp, IntegerTypes) {
  ClampAttrs attrs;
  attrs.min_value = -2.0;
  attrs.max_value = 125.0;
  EXPECT_EQ(
      values<int8_t>(run_op(OpKind::kClamp, {tensor<int8_t>(DataType::kInt8, {8}, {-128, 127, -4, -2, 1, 0, 2, 4})},
                            attrs, desc(DataType::kInt8, {8}))),
      (std::vector<int8_t>{-2, 125, -2, -2, 1, 0, 2, 4}));
  attrs.min_value = 5.0;
  attrs.max_value = 4294967290.0;
  EXPECT_EQ(
      values<uint32_t>(run_op(OpKind::kClamp, {tensor<uint32_t>(DataType::kUint32, {4}, {4294967295u, 127, 5, 0})},
                              attrs, desc(DataType::kUint32, {4}))),
      (std::vector<uint32_t>{4294967290u, 127, 5, 5}));
  // A bound out of the type's range saturates (uint8: max 300 -> 255, min -7 -> 0).
  attrs.min_value = -7.0;
  attrs.max_value = 300.0;
  EXPECT_EQ(values<uint8_t>(run_op(OpKind::kClamp, {tensor<uint8_t>(DataType::kUint8, {2}, {0, 255})}, attrs,
                                   desc(DataType::kUint8, {2}))),
            (std::vector<uint8_t>{0, 255}));
}

TEST(ReferenceClamp, Int64AndUint64BigintBoundsAreExact) {
  ClampAttrs attrs;
  attrs.min_value = -2.0;
  attrs.max_value = Number::from_int64(9007199254740993);  // 2^53 + 1
  EXPECT_EQ(values<int64_t>(run_op(OpKind::kClamp,
                                   {tensor<int64_t>(DataType::kInt64, {3}, {-41, 9007199254740995, 9007199254740992})},
                                   attrs, desc(DataType::kInt64, {3}))),
            (std::vector<int64_t>{-2, 9007199254740993, 9007199254740992}));
  attrs.min_value = 5.0;
  attrs.max_value = Number::from_uint64(18446744073709551613ull);
  EXPECT_EQ(values<uint64_t>(run_op(OpKind::kClamp,
                                    {tensor<uint64_t>(DataType::kUint64, {3}, {18446744073709551615ull, 127, 0})},
                                    attrs, desc(DataType::kUint64, {3}))),
            (std::vector<uint64_t>{18446744073709551613ull, 127, 5}));
}

// ---- cast ----

template <class To, class From>
std::vector<To> cast(DataType from, DataType to, const std::vector<From>& in) {
  const Shape shape{static_cast<uint32_t>(in.size())};
  CastAttrs attrs;
  attrs.data_type = to;
  return values<To>(run_op(OpKind::kCast, {tensor<From>(from, shape, in)}, attrs, desc(to, shape)));
}

TEST(ReferenceCast, FloatToIntTruncatesTowardZero) {
  EXPECT_EQ(
      (cast<int32_t, float>(DataType::kFloat32, DataType::kInt32, {102.1578369140625f, -43.5f, -2.5f, 83.5f, -0.9f})),
      (std::vector<int32_t>{102, -43, -2, 83, 0}));
  EXPECT_EQ((cast<uint8_t, float>(DataType::kFloat32, DataType::kUint8, {102.15f, 43.6f, 2.61f})),
            (std::vector<uint8_t>{102, 43, 2}));
  EXPECT_EQ(
      (cast<int64_t, uint16_t>(DataType::kFloat16, DataType::kInt64, {float_to_half(-7.75f), float_to_half(65504)})),
      (std::vector<int64_t>{-7, 65504}));
}

TEST(ReferenceCast, FloatToIntOutOfRangeSaturatesAndNaNIsZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ((cast<int8_t, float>(DataType::kFloat32, DataType::kInt8, {300, -300, nan, INFINITY, -INFINITY})),
            (std::vector<int8_t>{127, -128, 0, 127, -128}));
  EXPECT_EQ((cast<uint32_t, float>(DataType::kFloat32, DataType::kUint32, {-1, 5e9f})),
            (std::vector<uint32_t>{0, 4294967295u}));
  EXPECT_EQ((cast<int64_t, float>(DataType::kFloat32, DataType::kInt64, {1e19f, -1e19f, 9007199254740992.0f})),
            (std::vector<int64_t>{INT64_MAX, INT64_MIN, 9007199254740992}));
  EXPECT_EQ((cast<uint64_t, float>(DataType::kFloat32, DataType::kUint64, {2e19f, 1e19f})),
            (std::vector<uint64_t>{UINT64_MAX, 9999999980506447872ull}));  // float32(1e19) exactly (numpy)
}

TEST(ReferenceCast, IntToIntWrapsAround) {
  EXPECT_EQ((cast<uint8_t, int8_t>(DataType::kInt8, DataType::kUint8, {-1, -128, 127})),
            (std::vector<uint8_t>{255, 128, 127}));
  EXPECT_EQ((cast<int8_t, int32_t>(DataType::kInt32, DataType::kInt8, {200, 256, -129, 127})),
            (std::vector<int8_t>{-56, 0, 127, 127}));
  EXPECT_EQ((cast<int32_t, uint32_t>(DataType::kUint32, DataType::kInt32, {4294967295u, 2147483648u})),
            (std::vector<int32_t>{-1, INT32_MIN}));
  // int64 beyond 2^53 is carried exactly.
  EXPECT_EQ((cast<uint64_t, int64_t>(DataType::kInt64, DataType::kUint64, {9007199254740993, -1})),
            (std::vector<uint64_t>{9007199254740993ull, UINT64_MAX}));
  EXPECT_EQ(
      (cast<int64_t, uint64_t>(DataType::kUint64, DataType::kInt64, {18446744073709551615ull, 9223372036854775809ull})),
      (std::vector<int64_t>{-1, INT64_MIN + 1}));
  EXPECT_EQ((cast<int32_t, int64_t>(DataType::kInt64, DataType::kInt32, {4294967297, -4294967297})),
            (std::vector<int32_t>{1, -1}));
}

TEST(ReferenceCast, ToFloatRoundsToNearestEven) {
  // int64 2^53 + 1 -> float32 rounds to 2^53 (ties to even); 2^24 + 1 -> 2^24.
  EXPECT_EQ((cast<float, int64_t>(DataType::kInt64, DataType::kFloat32, {9007199254740993, 16777217, -3})),
            (std::vector<float>{9007199254740992.0f, 16777216.0f, -3.0f}));
  // float32 -> float16: 1 + 2^-11 ties to 1; 65520 overflows to Infinity; 2049 ties to 2048.
  std::vector<uint16_t> h = cast<uint16_t, float>(DataType::kFloat32, DataType::kFloat16,
                                                  {1.00048828125f, 65520.0f, 2049.0f, 0.1f, -70000.0f});
  std::vector<float> hf;
  for (uint16_t b : h) hf.push_back(half_to_float(b));
  EXPECT_EQ(hf, (std::vector<float>{1.0f, INFINITY, 2048.0f, 0.0999755859375f, -INFINITY}));
  // Integers to float16.
  h = cast<uint16_t, int32_t>(DataType::kInt32, DataType::kFloat16, {2051, -70000, 7});
  EXPECT_EQ(half_to_float(h[0]), 2052.0f);  // halfway between 2050 and 2052, ties to even
  EXPECT_EQ(half_to_float(h[1]), -INFINITY);
  EXPECT_EQ(half_to_float(h[2]), 7.0f);
  EXPECT_EQ((cast<float, uint64_t>(DataType::kUint64, DataType::kFloat32, {18446744073709551615ull})),
            (std::vector<float>{18446744073709551616.0f}));
  EXPECT_EQ((cast<float, uint16_t>(DataType::kFloat16, DataType::kFloat32, {float_to_half(0.1f)})),
            (std::vector<float>{0.0999755859375f}));
}

TEST(ReferenceCast, EveryPairRoundTripsSmallValues) {
  // 0, 1, 7 and 100 are exact in every type: casting between any two types keeps them.
  for (DataType from : kAllDataTypes)
    for (DataType to : kAllDataTypes) {
      visit_type(from, [&]<class F>() {
        std::vector<F> in;
        for (int v : {0, 1, 7, 100}) {
          if constexpr (std::is_same_v<F, Float16>) {
            in.push_back(Float16(float(v)));
          } else {
            in.push_back(static_cast<F>(v));
          }
        }
        CastAttrs attrs;
        attrs.data_type = to;
        const TensorData out = run_op(OpKind::kCast, {tensor<F>(from, {4}, in)}, attrs, desc(to, {4}));
        visit_type(to, [&]<class T>() {
          const std::vector<T> got = values<T>(out);
          std::vector<double> as_double;
          for (const T& v : got) {
            if constexpr (std::is_same_v<T, Float16>) {
              as_double.push_back(static_cast<float>(v));
            } else {
              as_double.push_back(static_cast<double>(v));
            }
          }
          EXPECT_EQ(as_double, (std::vector<double>{0, 1, 7, 100})) << to_string(from) << " -> " << to_string(to);
        });
      });
    }
}

}  // namespace
}  // namespace webnn::test
