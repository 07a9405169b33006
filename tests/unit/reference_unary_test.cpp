// Element-wise unary kernels of the reference backend: abs, ceil, cos, floor, identity, log, neg,
// reciprocal, roundEven, sin, sign, tan. Expected float values were computed offline with numpy
// 1.24 in float64 on the exact input value, then rounded once to the output type
// (np.float32(y), np.float16(y), numpy rounding float64 to float16 directly); the exact ops
// (abs, neg, sign, ceil, floor, roundEven = np.rint) were checked by hand as well. Integer values
// are by hand from the definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/dispatch.hpp"
#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

std::vector<float> run_f32(OpKind kind, const std::vector<float>& in) {
  const Shape shape{static_cast<uint32_t>(in.size())};
  return values<float>(run_op(kind, {f32(shape, in)}, NoAttrs{}, desc(DataType::kFloat32, shape)));
}
std::vector<float> run_f16(OpKind kind, const std::vector<float>& in) {
  const Shape shape{static_cast<uint32_t>(in.size())};
  return half_values(run_op(kind, {f16(shape, in)}, NoAttrs{}, desc(DataType::kFloat16, shape)));
}

// ---- float32 and float16, special values included ----

struct UnaryCase {
  OpKind kind;
  std::vector<float> f32_in, f32_out;
  std::vector<float> f16_in, f16_out;  // float16 values, written exactly
};

void PrintTo(const UnaryCase& c, std::ostream* os) { *os << op_name(c.kind); }

class FloatUnary : public testing::TestWithParam<UnaryCase> {};

TEST_P(FloatUnary, Float32) {
  const auto& c = GetParam();
  expect_same(run_f32(c.kind, c.f32_in), c.f32_out);
}

TEST_P(FloatUnary, Float16) {
  const auto& c = GetParam();
  expect_same(run_f16(c.kind, c.f16_in), c.f16_out);
}

// A rank-0 tensor holds one element: each case's first value.
TEST_P(FloatUnary, Scalar) {
  const auto& c = GetParam();
  const TensorData out = run_op(c.kind, {f32({}, {c.f32_in[0]})}, NoAttrs{}, desc(DataType::kFloat32, {}));
  expect_same(values<float>(out), {c.f32_out[0]});
  const TensorData half = run_op(c.kind, {f16({}, {c.f16_in[0]})}, NoAttrs{}, desc(DataType::kFloat16, {}));
  expect_same(half_values(half), {c.f16_out[0]});
}

// roundEven: ties to even, the sign kept (-0.5 -> -0, -0.49999997 -> -0); 8388607.5 is the
// largest float32 with a fraction, 1023.5 the largest such float16.
// clang-format off
const std::vector<float> kRoundEvenIn = {
    0.5f, 1.5f, 2.5f, 3.5f, -0.5f, -1.5f, -2.5f, -3.5f, 0.1f, 0.9f, 1.1f, 1.9f, 0.49999997f, -0.49999997f,
    0.50000006f, -0.0f, 8388607.5f, 8388606.5f, 8388609.0f, 3.4028235e+38f, -kInf, kInf, kNaN};
const std::vector<float> kRoundEvenOut = {
    0.0f, 2.0f, 2.0f, 4.0f, -0.0f, -2.0f, -2.0f, -4.0f, 0.0f, 1.0f, 1.0f, 2.0f, 0.0f, -0.0f,
    1.0f, -0.0f, 8388608.0f, 8388606.0f, 8388609.0f, 3.4028235e+38f, -kInf, kInf, kNaN};
const std::vector<float> kRoundEvenHalfIn = {
    0.5f, 1.5f, 2.5f, 3.5f, -0.5f, -1.5f, -2.5f, -3.5f, 0.0999755859375f, 0.89990234375f, 1.099609375f,
    1.900390625f, 0.499755859375f, -0.499755859375f, 1023.5f, 1022.5f, -1023.5f, -0.0f, 65504.0f, -kInf, kInf, kNaN};
const std::vector<float> kRoundEvenHalfOut = {
    0.0f, 2.0f, 2.0f, 4.0f, -0.0f, -2.0f, -2.0f, -4.0f, 0.0f, 1.0f, 1.0f,
    2.0f, 0.0f, -0.0f, 1024.0f, 1022.0f, -1024.0f, -0.0f, 65504.0f, -kInf, kInf, kNaN};
// clang-format on

INSTANTIATE_TEST_SUITE_P(
    Ops, FloatUnary,
    testing::Values(
        // abs(-0) = +0; NaN stays NaN.
        UnaryCase{
            OpKind::kAbs,
            {-2.5f, -0.0f, 0.0f, 1e-45f, -1e-45f, -3.4028235e+38f, 3.4028235e+38f, -kInf, kInf, kNaN},
            {2.5f, 0.0f, 0.0f, 1e-45f, 1e-45f, 3.4028235e+38f, 3.4028235e+38f, kInf, kInf, kNaN},
            {-2.5f, -0.0f, 0.0f, 5.960464477539063e-08f, -5.960464477539063e-08f, -65504.0f, 65504.0f, -kInf, kInf,
             kNaN},
            {2.5f, 0.0f, 0.0f, 5.960464477539063e-08f, 5.960464477539063e-08f, 65504.0f, 65504.0f, kInf, kInf, kNaN}},
        // neg(0) = -0, neg(-0) = +0.
        UnaryCase{OpKind::kNeg,
                  {-2.5f, -0.0f, 0.0f, 1e-45f, -3.4028235e+38f, 3.4028235e+38f, -kInf, kInf, kNaN},
                  {2.5f, 0.0f, -0.0f, -1e-45f, 3.4028235e+38f, -3.4028235e+38f, kInf, -kInf, kNaN},
                  {-2.5f, -0.0f, 0.0f, 5.960464477539063e-08f, -65504.0f, 65504.0f, -kInf, kInf, kNaN},
                  {2.5f, 0.0f, -0.0f, -5.960464477539063e-08f, 65504.0f, -65504.0f, kInf, -kInf, kNaN}},
        // sign: the smallest subnormals are nonzero; -0 gives +0; NaN gives 0 (the spec: "0 otherwise").
        UnaryCase{OpKind::kSign,
                  {-2.5f, -0.0f, 0.0f, 1e-45f, -1e-45f, -3.4028235e+38f, 3.4028235e+38f, -kInf, kInf, kNaN},
                  {-1.0f, 0.0f, 0.0f, 1.0f, -1.0f, -1.0f, 1.0f, -1.0f, 1.0f, 0.0f},
                  {-2.5f, -0.0f, 0.0f, 5.960464477539063e-08f, -5.960464477539063e-08f, -65504.0f, 65504.0f, -kInf,
                   kInf, kNaN},
                  {-1.0f, 0.0f, 0.0f, 1.0f, -1.0f, -1.0f, 1.0f, -1.0f, 1.0f, 0.0f}},
        // ceil(-0.5) = -0; 8388607.5 is the largest float32 with a fraction.
        UnaryCase{OpKind::kCeil,
                  {-2.5f, -1.5f, -0.5f, -0.25f, -0.0f, 0.0f, 0.25f, 0.5f, 1.5f, 2.0f, 8388607.5f, -8388607.5f,
                   16777216.0f, 3.4028235e+38f, -kInf, kInf, kNaN},
                  {-2.0f, -1.0f, -0.0f, -0.0f, -0.0f, 0.0f, 1.0f, 1.0f, 2.0f, 2.0f, 8388608.0f, -8388607.0f,
                   16777216.0f, 3.4028235e+38f, -kInf, kInf, kNaN},
                  {-2.5f, -1.5f, -0.5f, -0.25f, -0.0f, 0.0f, 0.25f, 0.5f, 1.5f, 2.0f, 1023.5f, -1022.5f, 2048.0f,
                   65504.0f, -kInf, kInf, kNaN},
                  {-2.0f, -1.0f, -0.0f, -0.0f, -0.0f, 0.0f, 1.0f, 1.0f, 2.0f, 2.0f, 1024.0f, -1022.0f, 2048.0f,
                   65504.0f, -kInf, kInf, kNaN}},
        UnaryCase{OpKind::kFloor,
                  {-2.5f, -1.5f, -0.5f, -0.25f, -0.0f, 0.0f, 0.25f, 0.5f, 1.5f, 2.0f, 8388607.5f, -8388607.5f,
                   16777216.0f, 3.4028235e+38f, -kInf, kInf, kNaN},
                  {-3.0f, -2.0f, -1.0f, -1.0f, -0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 2.0f, 8388607.0f, -8388608.0f,
                   16777216.0f, 3.4028235e+38f, -kInf, kInf, kNaN},
                  {-2.5f, -1.5f, -0.5f, -0.25f, -0.0f, 0.0f, 0.25f, 0.5f, 1.5f, 2.0f, 1023.5f, -1022.5f, 2048.0f,
                   65504.0f, -kInf, kInf, kNaN},
                  {-3.0f, -2.0f, -1.0f, -1.0f, -0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 2.0f, 1023.0f, -1023.0f, 2048.0f,
                   65504.0f, -kInf, kInf, kNaN}},
        UnaryCase{OpKind::kRoundEven, kRoundEvenIn, kRoundEvenOut, kRoundEvenHalfIn, kRoundEvenHalfOut},
        // cos, sin, tan: float16 inputs 0.0584716796875 (cos), 0.2093505859375 (sin) and 0.0357666015625
        // (tan) give a different float16 when the result is rounded to float32 first (numpy: 0.998046875,
        // 0.207763671875, 0.0357666015625): these check the single rounding.
        UnaryCase{
            OpKind::kCos,
            {0.0f, -0.0f, 0.5f, -1.0f, 2.0f, 3.1415927f, 100.0f, -1000.25f, 1e-30f, kInf, -kInf, kNaN},
            {1.0f, 1.0f, 0.87758255f, 0.5403023f, -0.41614684f, -1.0f, 0.8623189f, 0.3403228f, 1.0f, kNaN, kNaN, kNaN},
            {0.0f, -0.0f, 0.5f, -1.0f, 2.0f, 3.140625f, 100.0f, 0.0584716796875f, 0.2093505859375f, kInf, kNaN},
            {1.0f, 1.0f, 0.87744140625f, 0.54052734375f, -0.416259765625f, -1.0f, 0.8623046875f, 0.99853515625f,
             0.97802734375f, kNaN, kNaN}},
        UnaryCase{OpKind::kSin,
                  {0.0f, -0.0f, 0.5f, -1.0f, 2.0f, 3.1415927f, 100.0f, -1000.25f, 1e-30f, kInf, -kInf, kNaN},
                  {0.0f, -0.0f, 0.47942555f, -0.84147096f, 0.9092974f, -8.742278e-08f, -0.50636566f, -0.9403087f,
                   1e-30f, kNaN, kNaN, kNaN},
                  {0.0f, -0.0f, 0.5f, -1.0f, 2.0f, 3.140625f, 100.0f, 0.0584716796875f, 0.2093505859375f, kInf, kNaN},
                  {0.0f, -0.0f, 0.4794921875f, -0.84130859375f, 0.9091796875f, 0.0009675025939941406f, -0.50634765625f,
                   0.058441162109375f, 0.2078857421875f, kNaN, kNaN}},
        UnaryCase{OpKind::kTan,
                  {0.0f, -0.0f, 0.5f, -1.0f, 2.0f, 3.1415927f, 100.0f, -1000.25f, 1e-30f, kInf, -kInf, kNaN},
                  {0.0f, -0.0f, 0.5463025f, -1.5574077f, -2.1850398f, 8.742278e-08f, -0.58721393f, -2.7629905f, 1e-30f,
                   kNaN, kNaN, kNaN},
                  {0.0f, -0.0f, 0.5f, -1.0f, 2.0f, 1.5703125f, 100.0f, 0.0357666015625f, 0.2093505859375f, kInf, kNaN},
                  {0.0f, -0.0f, 0.54638671875f, -1.5576171875f, -2.185546875f, 2066.0f, -0.58740234375f,
                   0.035797119140625f, 0.2125244140625f, kNaN, kNaN}},
        // log: log(+-0) = -Infinity, log(negative) = NaN; float16 0.005340576171875 is a double-rounding
        // witness (through float32: -5.234375).
        UnaryCase{
            OpKind::kLog,
            {1.0f, 2.7182817f, 0.5f, 100.0f, 1e-45f, 3.4028235e+38f, 0.0f, -0.0f, -1.0f, kInf, -kInf, kNaN},
            {0.0f, 0.99999994f, -0.6931472f, 4.6051702f, -103.27893f, 88.72284f, -kInf, -kInf, kNaN, kInf, kNaN, kNaN},
            {1.0f, 2.71875f, 0.5f, 100.0f, 5.960464477539063e-08f, 65504.0f, 0.005340576171875f, 0.0f, -0.0f, -1.0f,
             kInf, kNaN},
            {0.0f, 1.0f, -0.693359375f, 4.60546875f, -16.640625f, 11.09375f, -5.23046875f, -kInf, -kInf, kNaN, kInf,
             kNaN}},
        // reciprocal: 1/+-0 = +-Infinity, 1/+-Infinity = +-0, overflow to Infinity (1e-40, float16 1e-5).
        UnaryCase{
            OpKind::kReciprocal,
            {2.0f, -4.0f, 3.0f, 0.1f, 1e-40f, 3e+38f, 0.0f, -0.0f, kInf, -kInf, kNaN},
            {0.5f, -0.25f, 0.33333334f, 10.0f, kInf, 3.333333e-39f, kInf, -kInf, 0.0f, -0.0f, kNaN},
            {2.0f, -4.0f, 3.0f, 0.0999755859375f, 5.960464477539063e-08f, 65504.0f, 1.0013580322265625e-05f, 0.0f,
             -0.0f, kInf, -kInf, kNaN},
            {0.5f, -0.25f, 0.333251953125f, 10.0f, kInf, 1.52587890625e-05f, kInf, kInf, -kInf, 0.0f, -0.0f, kNaN}}),
    [](const testing::TestParamInfo<UnaryCase>& info) { return std::string(op_name(info.param.kind)); });

TEST(ReferenceUnary, RoundEvenSpecExample) {
  // The example of the spec's operation list.
  expect_same(run_f32(OpKind::kRoundEven, {0.1f, 0.9f, 1.1f, 1.9f, -3.5f, -2.5f, -1.5f, 1.5f, 2.5f, 3.5f}),
              {0.0f, 1.0f, 1.0f, 2.0f, -4.0f, -2.0f, -2.0f, 2.0f, 2.0f, 4.0f});
}

TEST(ReferenceUnary, MultiDimensionalShapes) {
  const TensorData out =
      run_op(OpKind::kAbs, {f32({2, 1, 3}, {-1, 2, -3, 4, -5, 6})}, NoAttrs{}, desc(DataType::kFloat32, {2, 1, 3}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

// ---- abs, neg and sign of the integer types the spec allows: int8, int32, int64 ----

template <class T>
std::vector<T> run_int(OpKind kind, DataType type, const std::vector<T>& in) {
  const Shape shape{static_cast<uint32_t>(in.size())};
  return values<T>(run_op(kind, {tensor<T>(type, shape, in)}, NoAttrs{}, desc(type, shape)));
}

TEST(ReferenceUnary, AbsIntegersWrapAtTheMostNegativeValue) {
  // |INT_MIN| is not representable: it wraps to INT_MIN (two's complement).
  EXPECT_EQ(run_int<int8_t>(OpKind::kAbs, DataType::kInt8, {-128, -127, -1, 0, 1, 127}),
            (std::vector<int8_t>{-128, 127, 1, 0, 1, 127}));
  EXPECT_EQ(run_int<int32_t>(OpKind::kAbs, DataType::kInt32, {INT32_MIN, INT32_MIN + 1, -100, 0, INT32_MAX}),
            (std::vector<int32_t>{INT32_MIN, INT32_MAX, 100, 0, INT32_MAX}));
  // int64 beyond 2^53 stays exact (never through double).
  EXPECT_EQ(run_int<int64_t>(OpKind::kAbs, DataType::kInt64,
                             {INT64_MIN, -INT64_MAX, -9007199254740993, -100, 0, 9007199254740993}),
            (std::vector<int64_t>{INT64_MIN, INT64_MAX, 9007199254740993, 100, 0, 9007199254740993}));
}

TEST(ReferenceUnary, NegIntegersWrapAtTheMostNegativeValue) {
  EXPECT_EQ(run_int<int8_t>(OpKind::kNeg, DataType::kInt8, {-128, -127, -1, 0, 1, 127}),
            (std::vector<int8_t>{-128, 127, 1, 0, -1, -127}));
  EXPECT_EQ(run_int<int32_t>(OpKind::kNeg, DataType::kInt32, {INT32_MIN, -100, 0, INT32_MAX}),
            (std::vector<int32_t>{INT32_MIN, 100, 0, -INT32_MAX}));
  EXPECT_EQ(run_int<int64_t>(OpKind::kNeg, DataType::kInt64, {INT64_MIN, -INT64_MAX, 9007199254740993, 0}),
            (std::vector<int64_t>{INT64_MIN, INT64_MAX, -9007199254740993, 0}));
}

TEST(ReferenceUnary, SignIntegers) {
  EXPECT_EQ(run_int<int8_t>(OpKind::kSign, DataType::kInt8, {-128, -1, 0, 1, 2, 127}),
            (std::vector<int8_t>{-1, -1, 0, 1, 1, 1}));
  EXPECT_EQ(run_int<int32_t>(OpKind::kSign, DataType::kInt32, {INT32_MIN, 0, 2147483646, INT32_MAX}),
            (std::vector<int32_t>{-1, 0, 1, 1}));
  EXPECT_EQ(run_int<int64_t>(OpKind::kSign, DataType::kInt64, {INT64_MIN, -1, 0, 1, INT64_MAX}),
            (std::vector<int64_t>{-1, -1, 0, 1, 1}));
}

TEST(ReferenceUnary, IntegerScalars) {
  for (OpKind kind : {OpKind::kAbs, OpKind::kNeg, OpKind::kSign}) {
    SCOPED_TRACE(std::string(op_name(kind)));
    const TensorData out =
        run_op(kind, {tensor<int32_t>(DataType::kInt32, {}, {-7})}, NoAttrs{}, desc(DataType::kInt32, {}));
    EXPECT_EQ(values<int32_t>(out), (std::vector<int32_t>{kind == OpKind::kSign ? -1 : 7}));
  }
}

// Types outside an op's tensor-limits row have no kernel (validation rejects them first).
TEST(ReferenceUnary, TypesOutsideTheTableHaveNoKernel) {
  auto expect_unsupported = [](OpKind kind, TensorData in) {
    const DataType type = in.desc.data_type;
    try {
      run_unvalidated_op(kind, {std::move(in)}, NoAttrs{}, desc(type, {1}));
      ADD_FAILURE() << op_name(kind) << ": expected NotSupportedError";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kNotSupportedError);
      EXPECT_NE(e.message().find(std::string(op_name(kind))), std::string::npos) << e.message();
    }
  };
  expect_unsupported(OpKind::kNeg, tensor<uint8_t>(DataType::kUint8, {1}, {1}));
  expect_unsupported(OpKind::kAbs, tensor<uint32_t>(DataType::kUint32, {1}, {1}));
  expect_unsupported(OpKind::kSign, tensor<uint64_t>(DataType::kUint64, {1}, {1}));
  for (OpKind kind : {OpKind::kCeil, OpKind::kCos, OpKind::kFloor, OpKind::kLog, OpKind::kReciprocal,
                      OpKind::kRoundEven, OpKind::kSin, OpKind::kTan})
    expect_unsupported(kind, tensor<int32_t>(DataType::kInt32, {1}, {1}));
}

// ---- identity: a bit-exact copy of every data type ----

TEST(ReferenceUnary, IdentityCopiesEveryDataTypeBitForBit) {
  for (DataType type : kAllDataTypes) {
    SCOPED_TRACE(std::string(to_string(type)));
    // Bytes that are, per type: a NaN with a payload and -0 (float32), a NaN payload and -0
    // (float16), INT_MIN/UINT_MAX patterns for the integers.
    std::vector<std::byte> bytes(24);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::byte(0x80 + 37 * i);
    const uint32_t nan_payload = 0x7fc00123u, negative_zero = 0x80000000u;
    std::memcpy(bytes.data(), &nan_payload, 4);
    std::memcpy(bytes.data() + 4, &negative_zero, 4);
    const uint32_t count = static_cast<uint32_t>(bytes.size() / element_size(type));
    TensorData in{{type, {count}}, bytes};
    const TensorData out = run_op(OpKind::kIdentity, {in}, NoAttrs{}, desc(type, {count}));
    EXPECT_EQ(out.bytes, bytes);
  }
  const TensorData scalar = run_op(OpKind::kIdentity, {tensor<uint64_t>(DataType::kUint64, {}, {UINT64_MAX})},
                                   NoAttrs{}, desc(DataType::kUint64, {}));
  EXPECT_EQ(values<uint64_t>(scalar), (std::vector<uint64_t>{UINT64_MAX}));
}

}  // namespace
}  // namespace webnn::test
