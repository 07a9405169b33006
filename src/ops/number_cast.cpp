#include "ops/number_cast.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/dispatch.hpp"

namespace webnn::ops {

namespace {

double signed_lower(int bits) { return -std::ldexp(1.0, bits - 1); }

}  // namespace

float cast_to_float32(const Number& x) {
  // One rounding from the exact value: C++ conversions round to nearest even and overflow to
  // infinity at the same point as the spec's 2^128 bound.
  switch (x.kind()) {
    case Number::Kind::kInt64:
      return static_cast<float>(x.int64_value());
    case Number::Kind::kUint64:
      return static_cast<float>(x.uint64_value());
    case Number::Kind::kDouble:
      break;
  }
  return static_cast<float>(x.as_double());
}

Float16 cast_to_float16(const Number& x) {
  // Rounding through float32 first could round twice; round the double straight to a multiple of
  // the binary16 ulp at its exponent instead. Integers beyond 2^53 are far past the float16
  // range, so their conversion to double cannot change the outcome.
  const double v = x.as_double();
  if (std::isnan(v)) return Float16::from_bits(0x7e00);
  // Halfway between the largest finite value 65504 and the spec's upper bound 2^16 rounds up
  // (the bound counts as even).
  if (v >= 65520.0) return Float16::from_bits(0x7c00);
  if (v <= -65520.0) return Float16::from_bits(0xfc00);
  if (v == 0) return Float16(static_cast<float>(v));
  int exponent = 0;
  std::frexp(v, &exponent);                              // |v| = m * 2^exponent, m in [0.5, 1)
  const int e = std::max(exponent - 1, -14);             // binary16 exponent; subnormals share -14
  const double ulp = std::ldexp(1.0, e - 10);            // 10 fraction bits
  const double rounded = std::nearbyint(v / ulp) * ulp;  // default rounding: ties to even
  return Float16(static_cast<float>(rounded));           // exact: rounded is a binary16 value
}

int64_t cast_to_signed(const Number& x, int bits) {
  const int64_t hi = bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
  const int64_t lo = -hi - 1;
  switch (x.kind()) {
    case Number::Kind::kInt64:
      return std::min(std::max(x.int64_value(), lo), hi);
    case Number::Kind::kUint64:
      return x.uint64_value() > static_cast<uint64_t>(hi) ? hi : static_cast<int64_t>(x.uint64_value());
    case Number::Kind::kDouble:
      break;
  }
  const double v = x.as_double();
  if (std::isnan(v)) return 0;
  // Compare against the bounds in double: 2^(bits-1) is exact, hi may not be (bits = 64).
  if (v >= std::ldexp(1.0, bits - 1)) return hi;
  if (v <= signed_lower(bits)) return lo;
  const double r = std::nearbyint(v);
  if (r >= std::ldexp(1.0, bits - 1)) return hi;  // rounding up to the bound
  return static_cast<int64_t>(r);
}

uint64_t cast_to_unsigned(const Number& x, int bits) {
  const uint64_t hi = bits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
  switch (x.kind()) {
    case Number::Kind::kInt64:
      return x.int64_value() < 0 ? 0 : std::min(static_cast<uint64_t>(x.int64_value()), hi);
    case Number::Kind::kUint64:
      return std::min(x.uint64_value(), hi);
    case Number::Kind::kDouble:
      break;
  }
  const double v = x.as_double();
  if (std::isnan(v) || v <= 0) return 0;
  if (v >= std::ldexp(1.0, bits)) return hi;
  const double r = std::nearbyint(v);
  if (r >= std::ldexp(1.0, bits)) return hi;
  return static_cast<uint64_t>(r);
}

template <>
float cast_number<float>(const Number& x) {
  return cast_to_float32(x);
}
template <>
Float16 cast_number<Float16>(const Number& x) {
  return cast_to_float16(x);
}
template <>
int64_t cast_number<int64_t>(const Number& x) {
  return cast_to_signed(x, 64);
}
template <>
uint64_t cast_number<uint64_t>(const Number& x) {
  return cast_to_unsigned(x, 64);
}
template <>
int32_t cast_number<int32_t>(const Number& x) {
  return static_cast<int32_t>(cast_to_signed(x, 32));
}
// The spec's table says ConvertToInt(x, 32, "signed") for uint32, an evident slip: the range of
// uint32 is [0, 2^32 - 1] (WPT clamp uint32 uses maxValue 4294967290), so cast unsigned.
template <>
uint32_t cast_number<uint32_t>(const Number& x) {
  return static_cast<uint32_t>(cast_to_unsigned(x, 32));
}
template <>
int8_t cast_number<int8_t>(const Number& x) {
  return static_cast<int8_t>(cast_to_signed(x, 8));
}
template <>
uint8_t cast_number<uint8_t>(const Number& x) {
  return static_cast<uint8_t>(cast_to_unsigned(x, 8));
}

void store_number(const Number& x, DataType type, std::byte* out) {
  visit_type(type, [&]<class T>() {
    const T value = cast_number<T>(x);
    std::memcpy(out, &value, sizeof(T));
  });
}

bool cast_greater(const Number& a, const Number& b, DataType type) {
  return visit_type(type, [&]<class T>() {
    if constexpr (std::is_same_v<T, Float16>) {
      return static_cast<float>(cast_number<T>(a)) > static_cast<float>(cast_number<T>(b));
    } else {
      return cast_number<T>(a) > cast_number<T>(b);
    }
  });
}

}  // namespace webnn::ops
