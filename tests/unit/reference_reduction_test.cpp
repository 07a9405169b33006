// Reductions, argMin/argMax and cumulativeSum on the reference backend. Expected values are by hand
// from the spec's definitions or computed with numpy (float64 math rounded once to the output type).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

std::vector<float> iota24() {
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[i] = float(i);
  return v;
}

ReduceAttrs reduce_axes(OptionalDims axes, bool keep = false) {
  ReduceAttrs a;
  a.axes = std::move(axes);
  a.keep_dimensions = keep;
  return a;
}

// Runs a reduction whose output has the input's data type.
TensorData reduce(OpKind kind, TensorData in, const ReduceAttrs& attrs, Shape out_shape) {
  const DataType type = in.desc.data_type;
  return run_op(kind, {std::move(in)}, attrs, desc(type, std::move(out_shape)));
}

// [[1, -2, 3], [-4, 5, -6]]
TensorData x23() { return f32({2, 3}, {1, -2, 3, -4, 5, -6}); }

// ---- reduceMean (the first of the family) ----

TensorData reduce_mean(const ReduceAttrs& attrs, Shape out_shape) {
  return reduce(OpKind::kReduceMean, f32({2, 3, 4}, iota24()), attrs, std::move(out_shape));
}

TEST(ReferenceReduceMean, AbsentAxesReduceEverything) {
  EXPECT_EQ(values<float>(reduce_mean(ReduceAttrs{}, {})), (std::vector<float>{11.5f}));
  ReduceAttrs keep;
  keep.keep_dimensions = true;
  EXPECT_EQ(values<float>(reduce_mean(keep, {1, 1, 1})), (std::vector<float>{11.5f}));
}

TEST(ReferenceReduceMean, SelectedAxes) {
  ReduceAttrs attrs;
  attrs.axes = std::vector<uint32_t>{1};
  EXPECT_EQ(values<float>(reduce_mean(attrs, {2, 4})), (std::vector<float>{4, 5, 6, 7, 16, 17, 18, 19}));
  attrs.axes = std::vector<uint32_t>{2, 0};
  attrs.keep_dimensions = true;
  EXPECT_EQ(values<float>(reduce_mean(attrs, {1, 3, 1})), (std::vector<float>{7.5f, 11.5f, 15.5f}));
}

TEST(ReferenceReduceMean, EmptyAxesReduceNothing) {
  ReduceAttrs attrs;
  attrs.axes = std::vector<uint32_t>{};
  EXPECT_EQ(values<float>(reduce_mean(attrs, {2, 3, 4})), iota24());
}

TEST(ReferenceReduceMean, ScalarAndFloat16) {
  TensorData out = run_op(OpKind::kReduceMean, {f32({}, {4.5f})}, ReduceAttrs{}, desc(DataType::kFloat32, {}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{4.5f}));
  // mean of float16(0.1), float16(0.2), float16(0.3), rounded once: numpy gives 0.199951171875.
  out = run_op(OpKind::kReduceMean, {f16({3}, {0.1f, 0.2f, 0.3f})}, ReduceAttrs{}, desc(DataType::kFloat16, {}));
  EXPECT_EQ(half_values(out), (std::vector<float>{0.199951171875f}));
}

// ---- Float reductions ----

TEST(ReferenceReduce, SumFamilyAlongAnAxis) {
  const ReduceAttrs rows = reduce_axes(std::vector<uint32_t>{1});
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceSum, x23(), rows, {2})), (std::vector<float>{2, -5}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceL1, x23(), rows, {2})), (std::vector<float>{6, 15}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceSumSquare, x23(), rows, {2})), (std::vector<float>{14, 77}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceProduct, x23(), rows, {2})), (std::vector<float>{-6, 120}));
  // sqrt(14), sqrt(77) from numpy
  expect_near(values<float>(reduce(OpKind::kReduceL2, x23(), rows, {2})), {3.7416575f, 8.774964f});
  // log(sum(exp(row)))
  expect_near(values<float>(reduce(OpKind::kReduceLogSumExp, x23(), rows, {2})), {3.1328452f, 5.00014f});
  const ReduceAttrs cols = reduce_axes(std::vector<uint32_t>{0}, true);
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceProduct, x23(), cols, {1, 3})), (std::vector<float>{-4, -10, -18}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceMax, x23(), cols, {1, 3})), (std::vector<float>{1, 5, 3}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceMin, x23(), cols, {1, 3})), (std::vector<float>{-4, -2, -6}));
}

TEST(ReferenceReduce, AbsentAxesReduceEverything) {
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceSum, x23(), ReduceAttrs{}, {})), (std::vector<float>{-3}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceMax, x23(), reduce_axes({}, true), {1, 1})), (std::vector<float>{5}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceL1, x23(), reduce_axes(std::vector<uint32_t>{0, 1}), {})),
            (std::vector<float>{21}));
  expect_near(values<float>(reduce(OpKind::kReduceLogSumExp, x23(), ReduceAttrs{}, {})), {5.143843f});
}

TEST(ReferenceReduce, LogSum) {
  const TensorData p = f32({2, 3}, {0.5f, 1.5f, 2, 3, 4, 6});
  expect_near(values<float>(reduce(OpKind::kReduceLogSum, p, reduce_axes(std::vector<uint32_t>{1}), {2})),
              {1.3862944f, 2.5649493f});
  expect_near(values<float>(reduce(OpKind::kReduceLogSum, p, reduce_axes(std::vector<uint32_t>{0}), {3})),
              {1.2527629f, 1.704748f, 2.0794415f});
  // log of a negative sum is NaN, of a zero sum -inf.
  const std::vector<float> out =
      values<float>(reduce(OpKind::kReduceLogSum, f32({2, 2}, {-1, -2, 1, -1}), reduce_axes({{1}}), {2}));
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_EQ(out[1], -kInf);
}

// An empty axes list applies the reduction to each value on its own.
TEST(ReferenceReduce, EmptyAxesApplyTheFunctionToEachValue) {
  const ReduceAttrs none = reduce_axes(std::vector<uint32_t>{});
  const TensorData in = f32({2, 2}, {-3, 0.5f, 2, -0.25f});
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceSum, in, none, {2, 2})), (std::vector<float>{-3, 0.5f, 2, -0.25f}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceL1, in, none, {2, 2})), (std::vector<float>{3, 0.5f, 2, 0.25f}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceL2, in, none, {2, 2})), (std::vector<float>{3, 0.5f, 2, 0.25f}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceSumSquare, in, none, {2, 2})),
            (std::vector<float>{9, 0.25f, 4, 0.0625f}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceMax, in, none, {2, 2})), (std::vector<float>{-3, 0.5f, 2, -0.25f}));
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceProduct, in, none, {2, 2})), (std::vector<float>{-3, 0.5f, 2, -0.25f}));
  expect_near(values<float>(reduce(OpKind::kReduceLogSumExp, in, none, {2, 2})), {-3, 0.5f, 2, -0.25f});
}

TEST(ReferenceReduce, ScalarInput) {
  for (const ReduceAttrs& attrs : {ReduceAttrs{}, reduce_axes(std::vector<uint32_t>{}), reduce_axes({}, true)}) {
    EXPECT_EQ(values<float>(reduce(OpKind::kReduceSum, f32({}, {-4}), attrs, {})), (std::vector<float>{-4}));
    EXPECT_EQ(values<float>(reduce(OpKind::kReduceL1, f32({}, {-4}), attrs, {})), (std::vector<float>{4}));
    EXPECT_EQ(values<float>(reduce(OpKind::kReduceSumSquare, f32({}, {-4}), attrs, {})), (std::vector<float>{16}));
    EXPECT_EQ(values<float>(reduce(OpKind::kReduceMin, f32({}, {-4}), attrs, {})), (std::vector<float>{-4}));
    expect_near(values<float>(reduce(OpKind::kReduceLogSum, f32({}, {std::exp(1.0f)}), attrs, {})), {1.0f});
  }
}

// reduceMax/reduceMin propagate NaN (like max/min); infinities order as usual.
TEST(ReferenceReduce, MaxMinNaNAndInfinity) {
  const TensorData in = f32({3, 3}, {1, kNaN, 3, -kInf, 2, 7, kInf, -1, kNaN});
  const ReduceAttrs rows = reduce_axes(std::vector<uint32_t>{1});
  std::vector<float> max = values<float>(reduce(OpKind::kReduceMax, in, rows, {3}));
  std::vector<float> min = values<float>(reduce(OpKind::kReduceMin, in, rows, {3}));
  EXPECT_TRUE(std::isnan(max[0]));
  EXPECT_EQ(max[1], 7);
  EXPECT_TRUE(std::isnan(max[2]));  // NaN after +inf still wins
  EXPECT_TRUE(std::isnan(min[0]));
  EXPECT_EQ(min[1], -kInf);
  EXPECT_TRUE(std::isnan(min[2]));
  max = values<float>(reduce(OpKind::kReduceMax, f32({2}, {-kInf, -kInf}), ReduceAttrs{}, {}));
  EXPECT_EQ(max, (std::vector<float>{-kInf}));
}

// The log-sum-exp of large values does not overflow; -inf contributes nothing; NaN propagates.
TEST(ReferenceReduce, LogSumExpIsStable) {
  const ReduceAttrs rows = reduce_axes(std::vector<uint32_t>{1});
  const TensorData in = f32({5, 2}, {1000, 1000, 88, 87, -kInf, -kInf, kInf, 1, kNaN, 1});
  const std::vector<float> out = values<float>(reduce(OpKind::kReduceLogSumExp, in, rows, {5}));
  EXPECT_NEAR(out[0], 1000.6932f, 1e-3);  // 1000 + log 2
  EXPECT_NEAR(out[1], 88.31326f, 1e-4);   // numpy, in float64
  EXPECT_EQ(out[2], -kInf);
  EXPECT_EQ(out[3], kInf);
  EXPECT_TRUE(std::isnan(out[4]));
}

TEST(ReferenceReduce, Float16RoundsOnceFromTheExactSum) {
  // float16 1 + 2^-11 + 2^-24 lies just above the midpoint between 1 and 1 + 2^-10: rounded once it
  // is 1.0009765625 (numpy), but through float32 it would land on the midpoint and round to 1.
  const TensorData in = f16({3}, {1.0f, 0.00048828125f, 5.9604644775390625e-08f});
  EXPECT_EQ(half_values(reduce(OpKind::kReduceSum, in, ReduceAttrs{}, {})), (std::vector<float>{1.0009765625f}));
  const TensorData h = f16({3}, {0.1f, 0.2f, 0.3f});
  EXPECT_EQ(half_values(reduce(OpKind::kReduceSum, h, ReduceAttrs{}, {})), (std::vector<float>{0.60009765625f}));
  EXPECT_EQ(half_values(reduce(OpKind::kReduceL2, h, ReduceAttrs{}, {})), (std::vector<float>{0.374267578125f}));
  EXPECT_EQ(half_values(reduce(OpKind::kReduceMax, h, ReduceAttrs{}, {})), (std::vector<float>{0.300048828125f}));
  const std::vector<float> nan = half_values(reduce(OpKind::kReduceMin, f16({2}, {1, kNaN}), ReduceAttrs{}, {}));
  EXPECT_TRUE(std::isnan(nan[0]));
}

// ---- Integer reductions: exact, wrapping modulo 2^N ----

TEST(ReferenceReduce, Int32SumWrapsAndL1OfMinWraps) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max(), kMin = std::numeric_limits<int32_t>::min();
  auto i32 = [](Shape s, std::vector<int32_t> v) { return tensor(DataType::kInt32, std::move(s), v); };
  EXPECT_EQ(values<int32_t>(reduce(OpKind::kReduceSum, i32({2}, {kMax, 1}), ReduceAttrs{}, {})),
            (std::vector<int32_t>{kMin}));
  EXPECT_EQ(values<int32_t>(reduce(OpKind::kReduceL1, i32({2}, {-3, 4}), ReduceAttrs{}, {})),
            (std::vector<int32_t>{7}));
  EXPECT_EQ(values<int32_t>(reduce(OpKind::kReduceL1, i32({1}, {kMin}), ReduceAttrs{}, {})),
            (std::vector<int32_t>{kMin}));
  EXPECT_EQ(values<int32_t>(reduce(OpKind::kReduceSumSquare, i32({2}, {-3, 4}), ReduceAttrs{}, {})),
            (std::vector<int32_t>{25}));
  // 65536^2 = 2^32 wraps to 0; -3 * 5 * 7 = -105
  EXPECT_EQ(values<int32_t>(reduce(OpKind::kReduceProduct, i32({2}, {65536, 65536}), ReduceAttrs{}, {})),
            (std::vector<int32_t>{0}));
  EXPECT_EQ(values<int32_t>(reduce(OpKind::kReduceProduct, i32({3}, {-3, 5, 7}), ReduceAttrs{}, {})),
            (std::vector<int32_t>{-105}));
  EXPECT_EQ(values<int32_t>(reduce(OpKind::kReduceMin, i32({2, 2}, {5, -7, 2, 9}), reduce_axes({{1}}), {2})),
            (std::vector<int32_t>{-7, 2}));
}

TEST(ReferenceReduce, Uint32Wraps) {
  auto u32 = [](Shape s, std::vector<uint32_t> v) { return tensor(DataType::kUint32, std::move(s), v); };
  EXPECT_EQ(values<uint32_t>(reduce(OpKind::kReduceSum, u32({2}, {0xFFFFFFFFu, 2}), ReduceAttrs{}, {})),
            (std::vector<uint32_t>{1}));
  EXPECT_EQ(values<uint32_t>(reduce(OpKind::kReduceL1, u32({2}, {0xFFFFFFFFu, 7}), ReduceAttrs{}, {})),
            (std::vector<uint32_t>{6}));
  EXPECT_EQ(values<uint32_t>(reduce(OpKind::kReduceSumSquare, u32({1}, {65537}), ReduceAttrs{}, {})),
            (std::vector<uint32_t>{131073}));  // (2^16 + 1)^2 = 2^32 + 2^17 + 1
}

// 64-bit values beyond 2^53 stay exact (a double round trip would lose them).
TEST(ReferenceReduce, Int64AndUint64AreExact) {
  constexpr int64_t k2p53p1 = 9007199254740993;  // 2^53 + 1
  auto i64 = [](Shape s, std::vector<int64_t> v) { return tensor(DataType::kInt64, std::move(s), v); };
  auto u64 = [](Shape s, std::vector<uint64_t> v) { return tensor(DataType::kUint64, std::move(s), v); };
  EXPECT_EQ(values<int64_t>(reduce(OpKind::kReduceSum, i64({2}, {k2p53p1, 1}), ReduceAttrs{}, {})),
            (std::vector<int64_t>{9007199254740994}));
  EXPECT_EQ(values<int64_t>(reduce(OpKind::kReduceSum, i64({2}, {INT64_MAX, 1}), ReduceAttrs{}, {})),
            (std::vector<int64_t>{INT64_MIN}));
  // 3037000499^2 = 9223372030926249001 < 2^63
  EXPECT_EQ(values<int64_t>(reduce(OpKind::kReduceProduct, i64({2}, {3037000499, 3037000499}), ReduceAttrs{}, {})),
            (std::vector<int64_t>{9223372030926249001}));
  EXPECT_EQ(values<int64_t>(reduce(OpKind::kReduceSumSquare, i64({1}, {-3037000499}), ReduceAttrs{}, {})),
            (std::vector<int64_t>{9223372030926249001}));
  EXPECT_EQ(values<int64_t>(reduce(OpKind::kReduceMax, i64({2}, {k2p53p1, k2p53p1 - 1}), ReduceAttrs{}, {})),
            (std::vector<int64_t>{k2p53p1}));
  EXPECT_EQ(values<int64_t>(reduce(OpKind::kReduceMin, i64({2}, {INT64_MIN + 1, INT64_MIN}), ReduceAttrs{}, {})),
            (std::vector<int64_t>{INT64_MIN}));
  EXPECT_EQ(values<uint64_t>(reduce(OpKind::kReduceSum, u64({2}, {UINT64_MAX, 2}), ReduceAttrs{}, {})),
            (std::vector<uint64_t>{1}));
  EXPECT_EQ(values<uint64_t>(reduce(OpKind::kReduceMax, u64({2}, {UINT64_MAX - 1, UINT64_MAX}), ReduceAttrs{}, {})),
            (std::vector<uint64_t>{UINT64_MAX}));
  EXPECT_EQ(values<uint64_t>(reduce(OpKind::kReduceL1, u64({2}, {1ull << 63, 1ull << 62}), ReduceAttrs{}, {})),
            (std::vector<uint64_t>{(1ull << 63) + (1ull << 62)}));
}

TEST(ReferenceReduce, MaxMinOfInt8AndUint8) {
  const TensorData s8 = tensor<int8_t>(DataType::kInt8, {2, 2}, {-128, 127, -5, -6});
  EXPECT_EQ(values<int8_t>(reduce(OpKind::kReduceMax, s8, reduce_axes({{0}}), {2})), (std::vector<int8_t>{-5, 127}));
  EXPECT_EQ(values<int8_t>(reduce(OpKind::kReduceMin, s8, reduce_axes({{1}}), {2})), (std::vector<int8_t>{-128, -6}));
  const TensorData u8 = tensor<uint8_t>(DataType::kUint8, {3}, {0, 255, 7});
  EXPECT_EQ(values<uint8_t>(reduce(OpKind::kReduceMax, u8, ReduceAttrs{}, {})), (std::vector<uint8_t>{255}));
  EXPECT_EQ(values<uint8_t>(reduce(OpKind::kReduceMin, u8, ReduceAttrs{}, {})), (std::vector<uint8_t>{0}));
}

TEST(ReferenceReduce, FloatOnlyReductionsRejectIntegersAtCompile) {
  // Validation never lets these through; a hand-built graph is refused, not run.
  for (OpKind k : {OpKind::kReduceL2, OpKind::kReduceLogSum, OpKind::kReduceLogSumExp, OpKind::kReduceMean}) {
    try {
      run_unvalidated_op(k, {tensor<int32_t>(DataType::kInt32, {2}, {1, 2})}, ReduceAttrs{},
                         desc(DataType::kInt32, {}));
      ADD_FAILURE() << op_name(k) << ": expected NotSupportedError";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kNotSupportedError) << e.what();
    }
  }
  EXPECT_THROW(run_unvalidated_op(OpKind::kReduceSum, {tensor<int8_t>(DataType::kInt8, {2}, {1, 2})}, ReduceAttrs{},
                                  desc(DataType::kInt8, {})),
               Error);
}

// A reduction over the middle of a rank-4 tensor, checked against a plain loop.
TEST(ReferenceReduce, MiddleAxesOfRank4) {
  std::vector<float> in(2 * 3 * 4 * 5);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(int(i * 7 % 11) - 5);
  std::vector<float> expected(2 * 5, 0);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c)
        for (int d = 0; d < 5; ++d) expected[a * 5 + d] += in[((a * 3 + b) * 4 + c) * 5 + d];
  EXPECT_EQ(values<float>(reduce(OpKind::kReduceSum, f32({2, 3, 4, 5}, in), reduce_axes({{2, 1}}, true), {2, 1, 1, 5})),
            expected);
}

// ---- argMin / argMax ----

TensorData arg(OpKind kind, TensorData in, uint32_t axis, Shape out_shape, bool keep = false,
               DataType index_type = DataType::kInt32) {
  return run_op(kind, {std::move(in)}, ArgMinMaxAttrs{axis, keep, index_type}, desc(index_type, std::move(out_shape)));
}

TEST(ReferenceArgMinMax, AlongEachAxis) {
  // [[1, -2, 3], [-4, 5, -6]]
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMax, x23(), 1, {2})), (std::vector<int32_t>{2, 1}));
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMin, x23(), 1, {2})), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMax, x23(), 0, {1, 3}, true)), (std::vector<int32_t>{0, 1, 0}));
  EXPECT_EQ(values<int64_t>(arg(OpKind::kArgMin, x23(), 0, {3}, false, DataType::kInt64)),
            (std::vector<int64_t>{1, 0, 1}));
  // Rank 3, middle axis: input 0..23 as [2, 3, 4] is increasing along every axis.
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMax, f32({2, 3, 4}, iota24()), 1, {2, 4})),
            (std::vector<int32_t>{2, 2, 2, 2, 2, 2, 2, 2}));
}

TEST(ReferenceArgMinMax, TiesPickTheFirstIndex) {
  const TensorData in = f32({2, 4}, {3, 1, 3, 1, -0.0f, 0.0f, 0.0f, -0.0f});
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMax, in, 1, {2})), (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMin, in, 1, {2})), (std::vector<int32_t>{1, 0}));
  const TensorData ints = tensor<int32_t>(DataType::kInt32, {4}, {7, 7, 7, 7});
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMin, ints, 0, {})), (std::vector<int32_t>{0}));
}

// The first NaN wins for both, matching reduceMax/reduceMin, which return NaN.
TEST(ReferenceArgMinMax, FirstNaNWins) {
  const TensorData in = f32({3, 3}, {1, kNaN, kNaN, kInf, 2, kNaN, -kInf, 0, 1});
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMax, in, 1, {3})), (std::vector<int32_t>{1, 2, 2}));
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMin, in, 1, {3})), (std::vector<int32_t>{1, 2, 0}));
  const TensorData h = f16({3}, {2, kNaN, 5});
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMax, h, 0, {})), (std::vector<int32_t>{1}));
}

TEST(ReferenceArgMinMax, EveryIntegerTypeIsExact) {
  constexpr int64_t k = 9007199254740993;  // 2^53 + 1: equal to 2^53 as a double
  const TensorData s64 = tensor<int64_t>(DataType::kInt64, {3}, {k - 1, k, k - 1});
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMax, s64, 0, {})), (std::vector<int32_t>{1}));
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMin, s64, 0, {1}, true)), (std::vector<int32_t>{0}));
  const TensorData u64 = tensor<uint64_t>(DataType::kUint64, {3}, {UINT64_MAX - 1, UINT64_MAX, 0});
  EXPECT_EQ(values<int64_t>(arg(OpKind::kArgMax, u64, 0, {}, false, DataType::kInt64)), (std::vector<int64_t>{1}));
  const TensorData s8 = tensor<int8_t>(DataType::kInt8, {2, 2}, {-128, 127, 127, -128});
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMin, s8, 1, {2})), (std::vector<int32_t>{0, 1}));
  const TensorData u8 = tensor<uint8_t>(DataType::kUint8, {3}, {0, 255, 128});
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMax, u8, 0, {})), (std::vector<int32_t>{1}));
  const TensorData u32 = tensor<uint32_t>(DataType::kUint32, {2}, {0x80000000u, 1});
  EXPECT_EQ(values<int32_t>(arg(OpKind::kArgMax, u32, 0, {})), (std::vector<int32_t>{0}));
}

// ---- cumulativeSum ----

TensorData cumsum(TensorData in, uint32_t axis, bool exclusive, bool reversed) {
  const OperandDescriptor out = in.desc;
  return run_op(OpKind::kCumulativeSum, {std::move(in)}, CumulativeSumAttrs{axis, exclusive, reversed}, out);
}

// The spec's examples for [1, 2, 3, 4], and the two it leaves to combine.
TEST(ReferenceCumulativeSum, ExclusiveAndReversedCombinations) {
  const TensorData in = f32({4}, {1, 2, 3, 4});
  EXPECT_EQ(values<float>(cumsum(in, 0, false, false)), (std::vector<float>{1, 3, 6, 10}));
  EXPECT_EQ(values<float>(cumsum(in, 0, true, false)), (std::vector<float>{0, 1, 3, 6}));
  EXPECT_EQ(values<float>(cumsum(in, 0, false, true)), (std::vector<float>{10, 9, 7, 4}));
  EXPECT_EQ(values<float>(cumsum(in, 0, true, true)), (std::vector<float>{9, 7, 4, 0}));
}

TEST(ReferenceCumulativeSum, AlongEachAxisOfAMatrix) {
  const TensorData in = f32({2, 3}, {1, 2, 3, 10, 20, 30});
  EXPECT_EQ(values<float>(cumsum(in, 0, false, false)), (std::vector<float>{1, 2, 3, 11, 22, 33}));
  EXPECT_EQ(values<float>(cumsum(in, 1, false, false)), (std::vector<float>{1, 3, 6, 10, 30, 60}));
  EXPECT_EQ(values<float>(cumsum(in, 0, true, true)), (std::vector<float>{10, 20, 30, 0, 0, 0}));
  EXPECT_EQ(values<float>(cumsum(in, 1, true, true)), (std::vector<float>{5, 3, 0, 50, 30, 0}));
  // A single-element axis: inclusive copies, exclusive zeros.
  EXPECT_EQ(values<float>(cumsum(f32({3, 1}, {4, 5, 6}), 1, false, true)), (std::vector<float>{4, 5, 6}));
  EXPECT_EQ(values<float>(cumsum(f32({3, 1}, {4, 5, 6}), 1, true, false)), (std::vector<float>{0, 0, 0}));
}

TEST(ReferenceCumulativeSum, IntegersWrapAndStayExact) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(values<int32_t>(cumsum(tensor<int32_t>(DataType::kInt32, {3}, {kMax, 1, -5}), 0, false, false)),
            (std::vector<int32_t>{kMax, std::numeric_limits<int32_t>::min(), kMax - 4}));
  EXPECT_EQ(values<uint32_t>(cumsum(tensor<uint32_t>(DataType::kUint32, {2}, {0xFFFFFFFFu, 3}), 0, false, true)),
            (std::vector<uint32_t>{2, 3}));
  constexpr int64_t k = 9007199254740993;
  EXPECT_EQ(values<int64_t>(cumsum(tensor<int64_t>(DataType::kInt64, {3}, {k, 1, -2}), 0, false, false)),
            (std::vector<int64_t>{k, k + 1, k - 1}));
  EXPECT_EQ(values<uint64_t>(cumsum(tensor<uint64_t>(DataType::kUint64, {2}, {UINT64_MAX, 5}), 0, true, false)),
            (std::vector<uint64_t>{0, UINT64_MAX}));
}

TEST(ReferenceCumulativeSum, Float16RoundsEachOutputOnce) {
  // numpy: cumsum of float16(0.1, 0.2, 0.3) in float64, each rounded to float16
  EXPECT_EQ(half_values(cumsum(f16({3}, {0.1f, 0.2f, 0.3f}), 0, false, false)),
            (std::vector<float>{0.0999755859375f, 0.2998046875f, 0.60009765625f}));
  // The running sum is kept exact: 1 + 2^-11 then + 2^-24 rounds up to 1.0009765625 (see above).
  EXPECT_EQ(half_values(cumsum(f16({3}, {1.0f, 0.00048828125f, 5.9604644775390625e-08f}), 0, false, false)),
            (std::vector<float>{1.0f, 1.0f, 1.0009765625f}));
}

}  // namespace
}  // namespace webnn::test
