// The spec's casting algorithm (#algorithms-casting); expected values worked out by hand from
// ConvertToFloat / ConvertToInt.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "ops/number_cast.hpp"

namespace webnn::ops {
namespace {

uint16_t half_bits(const Number& x) { return cast_to_float16(x).bits; }

TEST(NumberCast, Float32RoundsOnceToNearestEven) {
  EXPECT_EQ(cast_to_float32(0.1), 0.1f);
  // 2^24 + 1 and 2^24 + 3 are ties between two floats: ties go to the even significand.
  EXPECT_EQ(cast_to_float32(Number::from_int64(16777217)), 16777216.0f);
  EXPECT_EQ(cast_to_float32(Number::from_int64(16777219)), 16777220.0f);
  EXPECT_EQ(cast_to_float32(Number::from_uint64(UINT64_MAX)), 18446744073709551616.0f);
}

TEST(NumberCast, Float32OverflowsAtTheSpecBound) {
  const double flt_max = std::numeric_limits<float>::max();
  const double midpoint = (flt_max + std::ldexp(1.0, 128)) / 2;  // halfway to the 2^128 bound
  EXPECT_EQ(cast_to_float32(std::nextafter(midpoint, 0.0)), std::numeric_limits<float>::max());
  EXPECT_TRUE(std::isinf(cast_to_float32(midpoint)));
  EXPECT_EQ(cast_to_float32(-1e39), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(cast_to_float32(std::nan(""))));
  EXPECT_TRUE(std::signbit(cast_to_float32(-0.0)));
}

TEST(NumberCast, Float16RoundsOnceFromTheExactValue) {
  EXPECT_EQ(half_bits(1.0), 0x3c00);
  EXPECT_EQ(half_bits(1.0 / 3.0), 0x3555);  // 0.333251953125
  // 1 + 2^-11 + 2^-30 lies just above the midpoint of 1 and 1 + 2^-10; rounding through float32
  // first would land on the midpoint and then round to 1.
  EXPECT_EQ(half_bits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)), 0x3c01);
  EXPECT_EQ(half_bits(1.0 + std::ldexp(1.0, -11)), 0x3c00);  // exact tie: even significand
  EXPECT_EQ(half_bits(65519.0), 0x7bff);                     // 65504
  EXPECT_EQ(half_bits(65520.0), 0x7c00);                     // tie with the 2^16 bound: +Infinity
  EXPECT_EQ(half_bits(-70000.0), 0xfc00);
  EXPECT_EQ(half_bits(std::ldexp(1.0, -25)), 0x0000);      // tie between 0 and the least subnormal
  EXPECT_EQ(half_bits(3 * std::ldexp(1.0, -25)), 0x0002);  // tie between 1 and 2 subnormal ulps
  EXPECT_EQ(half_bits(-std::ldexp(1.0, -26)), 0x8000);     // negative rounding to zero keeps -0
  EXPECT_EQ(half_bits(Number::from_int64(100000)), 0x7c00);
  const uint16_t nan = half_bits(std::nan(""));
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x03ff, 0);
}

TEST(NumberCast, IntegersClampThenRoundHalfToEven) {
  EXPECT_EQ(cast_number<int8_t>(127.5), 127);
  EXPECT_EQ(cast_number<int8_t>(-128.5), -128);
  EXPECT_EQ(cast_number<int8_t>(2.5), 2);
  EXPECT_EQ(cast_number<int8_t>(3.5), 4);
  EXPECT_EQ(cast_number<int8_t>(-2.5), -2);
  EXPECT_EQ(cast_number<int8_t>(std::nan("")), 0);
  EXPECT_EQ(cast_number<int8_t>(std::numeric_limits<double>::infinity()), 127);
  EXPECT_EQ(cast_number<uint8_t>(-1.0), 0);
  EXPECT_EQ(cast_number<uint8_t>(255.4), 255);
  EXPECT_EQ(cast_number<uint8_t>(300.0), 255);
  EXPECT_EQ(cast_number<int32_t>(2147483647.5), 2147483647);
  EXPECT_EQ(cast_number<int32_t>(-1e10), INT32_MIN);
  EXPECT_EQ(cast_number<uint32_t>(4294967290.0), 4294967290u);
  EXPECT_EQ(cast_number<uint32_t>(5e9), UINT32_MAX);
  EXPECT_EQ(cast_number<uint32_t>(-1.0), 0u);
}

TEST(NumberCast, SixtyFourBitIntegersStayExact) {
  EXPECT_EQ(cast_number<int64_t>(9.3e18), INT64_MAX);
  EXPECT_EQ(cast_number<int64_t>(-9.3e18), INT64_MIN);
  EXPECT_EQ(cast_number<int64_t>(Number::from_uint64(UINT64_MAX)), INT64_MAX);
  EXPECT_EQ(cast_number<int64_t>(Number::from_int64(INT64_MIN + 1)), INT64_MIN + 1);
  EXPECT_EQ(cast_number<uint64_t>(Number::from_int64(-5)), 0u);
  EXPECT_EQ(cast_number<uint64_t>(std::ldexp(1.0, 64)), UINT64_MAX);
  EXPECT_EQ(cast_number<uint64_t>(Number::from_uint64(UINT64_MAX - 1)), UINT64_MAX - 1);
  EXPECT_EQ(cast_number<uint64_t>(Number::from_uint64(9007199254740993u)), 9007199254740993u);
}

TEST(NumberCast, StoreWritesTheCastValue) {
  std::byte buf[8] = {};
  store_number(-3.0, DataType::kInt8, buf);
  EXPECT_EQ(static_cast<int8_t>(buf[0]), -3);
  store_number(Number::from_int64(-2), DataType::kUint32, buf);
  uint32_t u = 1;
  std::memcpy(&u, buf, 4);
  EXPECT_EQ(u, 0u);
  store_number(1.0, DataType::kFloat16, buf);
  uint16_t h = 0;
  std::memcpy(&h, buf, 2);
  EXPECT_EQ(h, 0x3c00);
}

TEST(NumberCast, GreaterComparesInTheTargetType) {
  EXPECT_TRUE(cast_greater(2.0, 1.0, DataType::kFloat32));
  EXPECT_FALSE(cast_greater(200.0, 127.0, DataType::kInt8));    // both 127
  EXPECT_TRUE(cast_greater(200.0, 100.0, DataType::kInt8));     // 127 > 100
  EXPECT_FALSE(cast_greater(1.0001, 1.0, DataType::kFloat16));  // both 1.0 in float16
  EXPECT_TRUE(cast_greater(1.0001, 1.0, DataType::kFloat32));
  EXPECT_FALSE(cast_greater(std::nan(""), 1.0, DataType::kFloat32));
}

}  // namespace
}  // namespace webnn::ops
