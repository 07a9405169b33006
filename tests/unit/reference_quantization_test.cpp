// quantizeLinear and dequantizeLinear on the reference backend. Saturation and ties are derived by
// hand from the spec's formula; the block-wise, per-axis and float16 cases come from a numpy script
// (np.repeat for the block-wise expansion, np.round for round-half-to-even, the quotient rounded
// to the input type as the emulation's div).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

template <class Z>
std::vector<Z> quantize(TensorData input, TensorData scale, TensorData zero_point) {
  const DataType out_type = zero_point.desc.data_type;
  const Shape shape = input.desc.shape;
  return values<Z>(run_op(OpKind::kQuantizeLinear, {std::move(input), std::move(scale), std::move(zero_point)},
                          NoAttrs{}, desc(out_type, shape)));
}

TensorData dequantize(TensorData input, TensorData scale, TensorData zero_point) {
  const DataType out_type = scale.desc.data_type;
  const Shape shape = input.desc.shape;
  return run_op(OpKind::kDequantizeLinear, {std::move(input), std::move(scale), std::move(zero_point)}, NoAttrs{},
                desc(out_type, shape));
}

template <class Z>
TensorData ints(DataType type, Shape shape, const std::vector<Z>& v) {
  size_t n = 1;
  for (uint32_t d : shape) n *= d;
  EXPECT_EQ(n, v.size()) << "test data must fill the shape";
  return tensor(type, std::move(shape), v);
}

TEST(ReferenceQuantizeLinear, TiesRoundToEven) {
  // One scale and zero point for the whole [8] input.
  EXPECT_EQ(quantize<int8_t>(f32({8}, {0.5f, 1.5f, 2.5f, 3.5f, -0.5f, -1.5f, -2.5f, -3.5f}), f32({1}, {1}),
                             ints<int8_t>(DataType::kInt8, {1}, {0})),
            (std::vector<int8_t>{0, 2, 2, 4, 0, -2, -2, -4}));
  // The tie is on input / scale, before the zero point is added.
  EXPECT_EQ(quantize<uint8_t>(f32({4}, {5, 7, -5, 1}), f32({1}, {2}), ints<uint8_t>(DataType::kUint8, {1}, {10})),
            (std::vector<uint8_t>{12, 14, 8, 10}));
}

TEST(ReferenceQuantizeLinear, SaturatesAtBothEndsOfEveryType) {
  const TensorData in_i8 = f32({7}, {-1000, 1000, -128.4f, 127.4f, 200, kInf, -kInf});
  EXPECT_EQ(quantize<int8_t>(in_i8, f32({1}, {1}), ints<int8_t>(DataType::kInt8, {1}, {0})),
            (std::vector<int8_t>{-128, 127, -128, 127, 127, 127, -128}));
  // The zero point can push a representable quotient out of range.
  EXPECT_EQ(quantize<int8_t>(f32({2}, {100, -100}), f32({1}, {1}), ints<int8_t>(DataType::kInt8, {1}, {100})),
            (std::vector<int8_t>{127, 0}));
  EXPECT_EQ(quantize<uint8_t>(f32({5}, {-5, 300, 254.6f, 255.4f, -0.4f}), f32({1}, {1}),
                              ints<uint8_t>(DataType::kUint8, {1}, {0})),
            (std::vector<uint8_t>{0, 255, 255, 255, 0}));
  EXPECT_EQ(quantize<int32_t>(f32({4}, {3e9f, -3e9f, 16777216, -kInf}), f32({1}, {1}),
                              ints<int32_t>(DataType::kInt32, {1}, {0})),
            (std::vector<int32_t>{INT32_MAX, INT32_MIN, 16777216, INT32_MIN}));
  // The zero point is added exactly: 2147483520 + 127 = INT32_MAX, and 2147483520 - 127 is not a
  // float32 value.
  EXPECT_EQ(quantize<int32_t>(f32({1}, {2147483520.0f}), f32({1}, {1}), ints<int32_t>(DataType::kInt32, {1}, {127})),
            (std::vector<int32_t>{INT32_MAX}));
  EXPECT_EQ(quantize<int32_t>(f32({1}, {2147483520.0f}), f32({1}, {1}), ints<int32_t>(DataType::kInt32, {1}, {-127})),
            (std::vector<int32_t>{2147483393}));
  EXPECT_EQ(quantize<uint32_t>(f32({4}, {-1, 5e9f, 4294967040.0f, kInf}), f32({1}, {1}),
                               ints<uint32_t>(DataType::kUint32, {1}, {0})),
            (std::vector<uint32_t>{0, UINT32_MAX, 4294967040u, UINT32_MAX}));
  EXPECT_EQ(quantize<uint32_t>(f32({1}, {4294967040.0f}), f32({1}, {1}), ints<uint32_t>(DataType::kUint32, {1}, {300})),
            (std::vector<uint32_t>{UINT32_MAX}));
}

TEST(ReferenceQuantizeLinear, NaNGivesZeroAsCastDoes) {
  EXPECT_EQ(quantize<uint8_t>(f32({1}, {kNaN}), f32({1}, {1}), ints<uint8_t>(DataType::kUint8, {1}, {7})),
            (std::vector<uint8_t>{0}));
}

TEST(ReferenceQuantizeLinear, ScalarScale) {
  EXPECT_EQ(quantize<int8_t>(f32({}, {-7.5f}), f32({}, {0.5f}), ints<int8_t>(DataType::kInt8, {}, {3})),
            (std::vector<int8_t>{-12}));
  // A [1, 1] scale covers a whole [2, 3] input.
  EXPECT_EQ(quantize<int8_t>(f32({2, 3}, {1, 2, 3, -1, -2, -3}), f32({1, 1}, {0.25f}),
                             ints<int8_t>(DataType::kInt8, {1, 1}, {-1})),
            (std::vector<int8_t>{3, 7, 11, -5, -9, -13}));
}

TEST(ReferenceQuantizeLinear, PerAxisScales) {
  // scale [1, 3]: one scale and zero point per column.
  EXPECT_EQ(quantize<uint8_t>(f32({2, 3}, {1.0f, -2.0f, 3.3f, 250.0f, 7.7f, -0.9f}), f32({1, 3}, {0.5f, 0.1f, 2.0f}),
                              ints<uint8_t>(DataType::kUint8, {1, 3}, {128, 0, 3})),
            (std::vector<uint8_t>{130, 0, 5, 255, 77, 3}));
}

TEST(ReferenceQuantizeLinear, BlockWiseScales) {
  // input [4, 6] with scale [2, 3]: every scale element covers a 2 x 2 block.
  std::vector<float> x;
  for (int i = 0; i < 24; ++i) x.push_back(static_cast<float>(i) * 1.75f - 20.0f);
  EXPECT_EQ(
      quantize<int8_t>(f32({4, 6}, x), f32({2, 3}, {0.5f, 1.0f, 2.0f, 4.0f, 0.25f, 3.0f}),
                       ints<int8_t>(DataType::kInt8, {2, 3}, {0, 10, -3, 5, -7, 2})),
      (std::vector<int8_t>{-40, -36, -6, -5, -9, -9, -19, -16, 4, 6, -4, -3, 5, 6, 11, 18, 5, 5, 8, 8, 53, 60, 8, 9}));
}

TEST(ReferenceQuantizeLinear, Float16QuotientIsRoundedToFloat16First) {
  // 1 / 0.39990234375 = 2.5006...: a float16 division gives exactly 2.5, which rounds to even (2);
  // the float32 quotient would give 3.
  EXPECT_EQ(
      quantize<int8_t>(f16({6}, {1.0f, 2.5f, 3.5f, -2.5f, 100.0f, -300.0f}), f16({6}, {0.39990234375f, 1, 1, 1, 1, 1}),
                       ints<int8_t>(DataType::kInt8, {6}, {0, 0, 0, 0, 0, 0})),
      (std::vector<int8_t>{2, 2, 4, -2, 100, -128}));
}

TEST(ReferenceDequantizeLinear, Int8PerAxis) {
  const TensorData out =
      dequantize(ints<int8_t>(DataType::kInt8, {2, 3}, {-128, -1, 0, 1, 127, 50}), f32({1, 3}, {0.1f, 0.2f, 0.3f}),
                 ints<int8_t>(DataType::kInt8, {1, 3}, {-128, 5, 0}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{0.0f, -1.2000000476837158f, 0.0f, 12.90000057220459f,
                                                    24.399999618530273f, 15.000000953674316f}));
}

TEST(ReferenceDequantizeLinear, Int8BlockWise) {
  std::vector<int8_t> x;
  for (int i = 0; i < 24; ++i) x.push_back(static_cast<int8_t>(i - 12));
  const TensorData out =
      dequantize(ints<int8_t>(DataType::kInt8, {4, 6}, x), f32({2, 3}, {0.5f, 1.0f, 2.0f, 4.0f, 0.25f, 3.0f}),
                 ints<int8_t>(DataType::kInt8, {2, 3}, {0, 10, -3, 5, -7, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{-6.0f,  -5.5f,  -20.0f, -19.0f, -10.0f, -8.0f,  -3.0f, -2.5f,
                                                    -14.0f, -13.0f, 2.0f,   4.0f,   -20.0f, -16.0f, 2.25f, 2.5f,
                                                    6.0f,   9.0f,   4.0f,   8.0f,   3.75f,  4.0f,   24.0f, 27.0f}));
}

TEST(ReferenceDequantizeLinear, Uint8WithFloat16ScaleRoundsOnce) {
  // float16(0.1) = 0.0999755859375; 100 * that = 9.99755859375 rounds to float16 10.0.
  const TensorData out = dequantize(ints<uint8_t>(DataType::kUint8, {4}, {100, 255, 0, 7}), f16({1}, {0.1f}),
                                    ints<uint8_t>(DataType::kUint8, {1}, {0}));
  EXPECT_EQ(out.desc.data_type, DataType::kFloat16);
  EXPECT_EQ(half_values(out), (std::vector<float>{10.0f, 25.5f, 0.0f, 0.69970703125f}));
}

TEST(ReferenceDequantizeLinear, ThirtyTwoBitExtremes) {
  // The difference of two 32-bit values is exact; the result is rounded once to float32.
  const TensorData u =
      dequantize(ints<uint32_t>(DataType::kUint32, {4}, {UINT32_MAX, 0, 123456789, 3}), f32({4}, {1, 1, 0.001f, 0.5f}),
                 ints<uint32_t>(DataType::kUint32, {4}, {0, UINT32_MAX, 0, 1}));
  EXPECT_EQ(values<float>(u), (std::vector<float>{4294967296.0f, -4294967296.0f, 123456.796875f, 1.0f}));
  const TensorData s =
      dequantize(ints<int32_t>(DataType::kInt32, {4}, {INT32_MIN, INT32_MAX, 16777217, -5}), f32({4}, {1, 1, 1, 0.5f}),
                 ints<int32_t>(DataType::kInt32, {4}, {INT32_MAX, INT32_MIN, 0, 3}));
  EXPECT_EQ(values<float>(s), (std::vector<float>{-4294967296.0f, 4294967296.0f, 16777216.0f, -4.0f}));
}

TEST(ReferenceQuantization, RoundTripRecoversQuantizedValues) {
  // Values on the quantization grid come back unchanged; 0.75 is 1.5 steps, a tie that rounds to 2.
  GraphMaker g;
  const OperandId x = g.input("x", f32({2, 4}, {-1.0f, -0.5f, 0.0f, 0.25f, 1.5f, 2.0f, -2.0f, 0.75f}));
  const OperandId scale = g.constant(f32({2, 1}, {0.25f, 0.5f}));
  const OperandId zp = g.constant(ints<uint8_t>(DataType::kUint8, {2, 1}, {128, 100}));
  const OperandId q = g.op(OpKind::kQuantizeLinear, {x, scale, zp}, NoAttrs{}, desc(DataType::kUint8, {2, 4}));
  g.output("q", q);
  g.output("y", g.op(OpKind::kDequantizeLinear, {q, scale, zp}, NoAttrs{}, desc(DataType::kFloat32, {2, 4})));
  const auto out = g.run();
  EXPECT_EQ(values<uint8_t>(out[0]), (std::vector<uint8_t>{124, 126, 128, 129, 103, 104, 96, 102}));
  EXPECT_EQ(values<float>(out[1]), (std::vector<float>{-1.0f, -0.5f, 0.0f, 0.25f, 1.5f, 2.0f, -2.0f, 1.0f}));
}

}  // namespace
}  // namespace webnn::test
