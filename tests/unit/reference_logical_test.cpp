// Comparison, logical and where kernels of the reference backend. Expected values are by hand from
// the spec's definitions and IEEE 754 rules (checked against numpy's comparisons).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

using Bools = std::vector<uint8_t>;

TensorData u8(Shape s, std::vector<uint8_t> v) { return tensor(DataType::kUint8, std::move(s), v); }

Bools predicate(OpKind kind, std::vector<TensorData> inputs, Shape out_shape) {
  return values<uint8_t>(run_op(kind, std::move(inputs), NoAttrs{}, desc(DataType::kUint8, std::move(out_shape))));
}

// a = [1, NaN, inf, -inf, -0, 2], b = [1, NaN, inf, inf, +0, NaN]
struct CompareCase {
  OpKind kind;
  Bools expected;
};

class ReferenceCompare : public testing::TestWithParam<CompareCase> {};

TEST_P(ReferenceCompare, IeeeRulesInFloat32AndFloat16) {
  const std::vector<float> a = {1, kNaN, kInf, -kInf, -0.0f, 2};
  const std::vector<float> b = {1, kNaN, kInf, kInf, 0.0f, kNaN};
  EXPECT_EQ(predicate(GetParam().kind, {f32({6}, a), f32({6}, b)}, {6}), GetParam().expected);
  EXPECT_EQ(predicate(GetParam().kind, {f16({6}, a), f16({6}, b)}, {6}), GetParam().expected);
}

// NaN compares false except for notEqual; -0 == +0.
INSTANTIATE_TEST_SUITE_P(Ops, ReferenceCompare,
                         testing::Values(CompareCase{OpKind::kEqual, {1, 0, 1, 0, 1, 0}},
                                         CompareCase{OpKind::kNotEqual, {0, 1, 0, 1, 0, 1}},
                                         CompareCase{OpKind::kGreater, {0, 0, 0, 0, 0, 0}},
                                         CompareCase{OpKind::kGreaterOrEqual, {1, 0, 1, 0, 1, 0}},
                                         CompareCase{OpKind::kLesser, {0, 0, 0, 1, 0, 0}},
                                         CompareCase{OpKind::kLesserOrEqual, {1, 0, 1, 1, 1, 0}}));

TEST(ReferenceCompareOps, Broadcasting) {
  // [2, 1] against [3] -> [2, 3]: rows 1 and 4 against 0, 2, 4
  const TensorData a = f32({2, 1}, {1, 4});
  const TensorData b = f32({3}, {0, 2, 4});
  EXPECT_EQ(predicate(OpKind::kGreater, {a, b}, {2, 3}), (Bools{1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(predicate(OpKind::kLesserOrEqual, {a, b}, {2, 3}), (Bools{0, 1, 1, 0, 0, 1}));
  // Scalar against a tensor, both ways round.
  EXPECT_EQ(predicate(OpKind::kEqual, {f32({}, {2}), f32({2, 2}, {2, 3, 2, 1})}, {2, 2}), (Bools{1, 0, 1, 0}));
  EXPECT_EQ(predicate(OpKind::kLesser, {f32({2, 2}, {2, 3, 2, 1}), f32({}, {2})}, {2, 2}), (Bools{0, 0, 0, 1}));
  EXPECT_EQ(predicate(OpKind::kNotEqual, {f32({}, {kNaN}), f32({}, {kNaN})}, {}), (Bools{1}));
}

TEST(ReferenceCompareOps, IntegersCompareExactly) {
  constexpr int64_t k = 9007199254740993;  // 2^53 + 1: equal to 2^53 as a double
  const TensorData a64 = tensor<int64_t>(DataType::kInt64, {3}, {k, INT64_MIN, -1});
  const TensorData b64 = tensor<int64_t>(DataType::kInt64, {3}, {k - 1, INT64_MIN + 1, -1});
  EXPECT_EQ(predicate(OpKind::kEqual, {a64, b64}, {3}), (Bools{0, 0, 1}));
  EXPECT_EQ(predicate(OpKind::kGreater, {a64, b64}, {3}), (Bools{1, 0, 0}));
  EXPECT_EQ(predicate(OpKind::kLesser, {a64, b64}, {3}), (Bools{0, 1, 0}));
  const TensorData au = tensor<uint64_t>(DataType::kUint64, {2}, {UINT64_MAX, 0});
  const TensorData bu = tensor<uint64_t>(DataType::kUint64, {2}, {UINT64_MAX - 1, 0});
  EXPECT_EQ(predicate(OpKind::kGreater, {au, bu}, {2}), (Bools{1, 0}));
  EXPECT_EQ(predicate(OpKind::kGreaterOrEqual, {au, bu}, {2}), (Bools{1, 1}));
  // Unsigned stays unsigned; signed stays signed.
  const TensorData s8a = tensor<int8_t>(DataType::kInt8, {2}, {-128, 127});
  const TensorData s8b = tensor<int8_t>(DataType::kInt8, {2}, {0, -1});
  EXPECT_EQ(predicate(OpKind::kLesser, {s8a, s8b}, {2}), (Bools{1, 0}));
  EXPECT_EQ(predicate(OpKind::kGreater, {u8({2}, {200, 1}), u8({2}, {100, 2})}, {2}), (Bools{1, 0}));
  const TensorData u32a = tensor<uint32_t>(DataType::kUint32, {1}, {0x80000000u});
  const TensorData u32b = tensor<uint32_t>(DataType::kUint32, {1}, {1});
  EXPECT_EQ(predicate(OpKind::kGreater, {u32a, u32b}, {1}), (Bools{1}));
  const TensorData i32a = tensor<int32_t>(DataType::kInt32, {2}, {-5, 7});
  const TensorData i32b = tensor<int32_t>(DataType::kInt32, {2}, {-5, 8});
  EXPECT_EQ(predicate(OpKind::kLesserOrEqual, {i32a, i32b}, {2}), (Bools{1, 1}));
}

TEST(ReferenceLogicalOps, NonzeroIsTrue) {
  const TensorData a = u8({4}, {0, 0, 2, 255});
  const TensorData b = u8({4}, {0, 7, 0, 1});
  EXPECT_EQ(predicate(OpKind::kLogicalAnd, {a, b}, {4}), (Bools{0, 0, 0, 1}));
  EXPECT_EQ(predicate(OpKind::kLogicalOr, {a, b}, {4}), (Bools{0, 1, 1, 1}));
  EXPECT_EQ(predicate(OpKind::kLogicalXor, {a, b}, {4}), (Bools{0, 1, 1, 0}));
  EXPECT_EQ(predicate(OpKind::kLogicalNot, {a}, {4}), (Bools{1, 1, 0, 0}));
  EXPECT_EQ(predicate(OpKind::kLogicalNot, {u8({}, {9})}, {}), (Bools{0}));
  // [2, 1] with [2] -> [2, 2]
  EXPECT_EQ(predicate(OpKind::kLogicalXor, {u8({2, 1}, {0, 3}), u8({2}, {0, 4})}, {2, 2}), (Bools{0, 1, 1, 0}));
}

TEST(ReferenceLogicalOps, IsNaNAndIsInfinite) {
  const std::vector<float> v = {0, -0.0f, 1, kNaN, -kNaN, kInf, -kInf, 65504, 3.4e38f};
  EXPECT_EQ(predicate(OpKind::kIsNaN, {f32({9}, v)}, {9}), (Bools{0, 0, 0, 1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(predicate(OpKind::kIsInfinite, {f32({9}, v)}, {9}), (Bools{0, 0, 0, 0, 0, 1, 1, 0, 0}));
  // float16: 65504 is the largest finite value; 3.4e38 overflows to infinity when stored.
  EXPECT_EQ(predicate(OpKind::kIsNaN, {f16({9}, v)}, {9}), (Bools{0, 0, 0, 1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(predicate(OpKind::kIsInfinite, {f16({9}, v)}, {9}), (Bools{0, 0, 0, 0, 0, 1, 1, 0, 1}));
  // float16 by bits: a signalling-pattern NaN, the smallest subnormal, infinity.
  const TensorData bits = tensor<uint16_t>(DataType::kFloat16, {3}, {0x7c01, 0x0001, 0xfc00});
  EXPECT_EQ(predicate(OpKind::kIsNaN, {bits}, {3}), (Bools{1, 0, 0}));
  EXPECT_EQ(predicate(OpKind::kIsInfinite, {bits}, {3}), (Bools{0, 0, 1}));
  // Integers are never NaN or infinite.
  const TensorData ints = tensor<int32_t>(DataType::kInt32, {2}, {std::numeric_limits<int32_t>::max(), 0});
  EXPECT_EQ(predicate(OpKind::kIsNaN, {ints}, {2}), (Bools{0, 0}));
  EXPECT_EQ(predicate(OpKind::kIsInfinite, {ints}, {2}), (Bools{0, 0}));
}

// ---- where ----

TensorData where(TensorData c, TensorData t, TensorData f, Shape out_shape) {
  const DataType type = t.desc.data_type;
  return run_op(OpKind::kWhere, {std::move(c), std::move(t), std::move(f)}, NoAttrs{},
                desc(type, std::move(out_shape)));
}

TEST(ReferenceWhere, SameShapes) {
  EXPECT_EQ(values<float>(where(u8({4}, {1, 0, 255, 0}), f32({4}, {1, 2, 3, 4}), f32({4}, {-1, -2, -3, -4}), {4})),
            (std::vector<float>{1, -2, 3, -4}));
  EXPECT_EQ(values<float>(where(u8({}, {0}), f32({}, {1}), f32({}, {2}), {})), (std::vector<float>{2}));
}

TEST(ReferenceWhere, EveryBroadcastingForm) {
  const TensorData t23 = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const TensorData f23 = f32({2, 3}, {-1, -2, -3, -4, -5, -6});
  // Scalar condition.
  EXPECT_EQ(values<float>(where(u8({}, {1}), t23, f23, {2, 3})), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // Row-vector condition; column-vector condition.
  EXPECT_EQ(values<float>(where(u8({3}, {1, 0, 1}), t23, f23, {2, 3})), (std::vector<float>{1, -2, 3, 4, -5, 6}));
  EXPECT_EQ(values<float>(where(u8({2, 1}, {0, 1}), t23, f23, {2, 3})), (std::vector<float>{-1, -2, -3, 4, 5, 6}));
  // Scalar trueValue, scalar falseValue, both scalar.
  const TensorData c23 = u8({2, 3}, {1, 0, 0, 0, 1, 1});
  EXPECT_EQ(values<float>(where(c23, f32({}, {9}), f23, {2, 3})), (std::vector<float>{9, -2, -3, -4, 9, 9}));
  EXPECT_EQ(values<float>(where(c23, t23, f32({}, {0}), {2, 3})), (std::vector<float>{1, 0, 0, 0, 5, 6}));
  EXPECT_EQ(values<float>(where(c23, f32({}, {7}), f32({}, {8}), {2, 3})), (std::vector<float>{7, 8, 8, 8, 7, 7}));
  // The condition is the largest operand: values broadcast up to it.
  EXPECT_EQ(values<float>(where(c23, f32({3}, {10, 20, 30}), f32({2, 1}, {-1, -2}), {2, 3})),
            (std::vector<float>{10, -1, -1, -2, 20, 30}));
  // All three differ and the output is larger than each: [2,1,1], [1,3,1], [1,1,2] -> [2,3,2].
  const std::vector<float> out =
      values<float>(where(u8({2, 1, 1}, {1, 0}), f32({1, 3, 1}, {1, 2, 3}), f32({1, 1, 2}, {-1, -2}), {2, 3, 2}));
  EXPECT_EQ(out, (std::vector<float>{1, 1, 2, 2, 3, 3, -1, -2, -1, -2, -1, -2}));
  // Lower-rank values under a higher-rank condition: [3] values, [2, 2, 3] condition.
  std::vector<uint8_t> c(12);
  for (size_t i = 0; i < c.size(); ++i) c[i] = static_cast<uint8_t>(i % 2);
  const std::vector<float> out3 = values<float>(where(u8({2, 2, 3}, c), f32({3}, {1, 2, 3}), f32({1}, {0}), {2, 2, 3}));
  EXPECT_EQ(out3, (std::vector<float>{0, 2, 0, 1, 0, 3, 0, 2, 0, 1, 0, 3}));
}

// Selection copies values bit for bit: NaN, -0, float16 bits and 64-bit integers beyond 2^53.
TEST(ReferenceWhere, CopiesValuesExactly) {
  const std::vector<float> out = values<float>(where(u8({2}, {1, 0}), f32({2}, {kNaN, 1}), f32({2}, {1, -0.0f}), {2}));
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_TRUE(std::signbit(out[1]));
  const TensorData t = tensor<uint16_t>(DataType::kFloat16, {2}, {0x7e01, 0x3c00});
  const TensorData f = tensor<uint16_t>(DataType::kFloat16, {2}, {0x0001, 0x8000});
  EXPECT_EQ(values<uint16_t>(where(u8({2}, {1, 0}), t, f, {2})), (std::vector<uint16_t>{0x7e01, 0x8000}));
  constexpr int64_t k = 9007199254740993;
  EXPECT_EQ(values<int64_t>(where(u8({2}, {0, 1}), tensor<int64_t>(DataType::kInt64, {2}, {k, INT64_MIN}),
                                  tensor<int64_t>(DataType::kInt64, {2}, {k - 1, 0}), {2})),
            (std::vector<int64_t>{k - 1, INT64_MIN}));
  EXPECT_EQ(values<uint64_t>(where(u8({}, {3}), tensor<uint64_t>(DataType::kUint64, {1}, {UINT64_MAX}),
                                   tensor<uint64_t>(DataType::kUint64, {1}, {0}), {1})),
            (std::vector<uint64_t>{UINT64_MAX}));
  EXPECT_EQ(values<int8_t>(where(u8({2}, {1, 0}), tensor<int8_t>(DataType::kInt8, {2}, {-128, 1}),
                                 tensor<int8_t>(DataType::kInt8, {2}, {5, 127}), {2})),
            (std::vector<int8_t>{-128, 127}));
}

}  // namespace
}  // namespace webnn::test
