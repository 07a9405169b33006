// The one comparator of conformance results: distances in ULP and ATOL, NaN and infinities, and
// exact comparison of integers. Expected distances are from the IEEE 754 encodings by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "conformance/tolerance.hpp"
#include "core/float16.hpp"

namespace webnn::conformance {
namespace {

template <class T>
std::vector<std::byte> bytes(std::initializer_list<T> values) {
  std::vector<std::byte> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

const Tolerance kExact{Tolerance::Kind::kUlp, 0};

TEST(ConformanceTolerance, Float32UlpDistance) {
  const float one = 1.0f;
  const float next = std::nextafter(one, 2.0f);
  const float next2 = std::nextafter(next, 2.0f);
  auto e = bytes<float>({one});
  EXPECT_FALSE(compare(DataType::kFloat32, e, bytes<float>({next}), {Tolerance::Kind::kUlp, 1}));
  auto m = compare(DataType::kFloat32, e, bytes<float>({next2}), {Tolerance::Kind::kUlp, 1});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->distance, 2);
  EXPECT_EQ(m->index, 0u);
}

TEST(ConformanceTolerance, UlpAcrossZeroCountsBothSides) {
  const float tiny = std::numeric_limits<float>::denorm_min();
  // -tiny .. +tiny is two steps: -tiny -> -0/+0 -> +tiny.
  auto m = compare(DataType::kFloat32, bytes<float>({-tiny}), bytes<float>({tiny}), {Tolerance::Kind::kUlp, 1});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->distance, 2);
  EXPECT_FALSE(compare(DataType::kFloat32, bytes<float>({-0.0f}), bytes<float>({0.0f}), kExact));
}

TEST(ConformanceTolerance, NanAndInfinity) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(compare(DataType::kFloat32, bytes<float>({nan, inf}), bytes<float>({nan, inf}), kExact));
  EXPECT_TRUE(compare(DataType::kFloat32, bytes<float>({nan}), bytes<float>({0.0f}), {Tolerance::Kind::kAtol, 1e9}));
  EXPECT_TRUE(compare(DataType::kFloat32, bytes<float>({inf}), bytes<float>({-inf}), {Tolerance::Kind::kUlp, 1e12}));
  EXPECT_TRUE(compare(DataType::kFloat32, bytes<float>({inf}), bytes<float>({std::numeric_limits<float>::max()}),
                      {Tolerance::Kind::kAtol, 1e9}));
}

TEST(ConformanceTolerance, AbsoluteTolerance) {
  const Tolerance tol{Tolerance::Kind::kAtol, 1.0 / 1024};
  EXPECT_FALSE(compare(DataType::kFloat32, bytes<float>({0.5f}), bytes<float>({0.5f + 0.0009f}), tol));
  auto m = compare(DataType::kFloat32, bytes<float>({0.5f, 0.25f}), bytes<float>({0.5f, 0.25f + 0.002f}), tol);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->index, 1u);
}

TEST(ConformanceTolerance, Float16UlpInBinary16Units) {
  // 1.0 = 0x3c00; the next binary16 values are 0x3c01 and 0x3c02.
  auto e = bytes<uint16_t>({0x3c00});
  EXPECT_FALSE(compare(DataType::kFloat16, e, bytes<uint16_t>({0x3c01}), {Tolerance::Kind::kUlp, 1}));
  auto m = compare(DataType::kFloat16, e, bytes<uint16_t>({0x3c02}), {Tolerance::Kind::kUlp, 1});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->distance, 2);
  EXPECT_FLOAT_EQ(m->expected, 1.0);
}

TEST(ConformanceTolerance, IntegersAreExactWhateverTheTolerance) {
  auto m = compare(DataType::kInt64, bytes<int64_t>({int64_t{1} << 60}), bytes<int64_t>({(int64_t{1} << 60) + 1}),
                   {Tolerance::Kind::kAtol, 100});
  EXPECT_TRUE(m);
  EXPECT_FALSE(compare(DataType::kUint8, bytes<uint8_t>({0, 255}), bytes<uint8_t>({0, 255}), kExact));
}

TEST(ConformanceTolerance, SizeMismatchIsAMismatch) {
  EXPECT_TRUE(compare(DataType::kFloat32, bytes<float>({1, 2}), bytes<float>({1}), kExact));
}

}  // namespace
}  // namespace webnn::conformance
