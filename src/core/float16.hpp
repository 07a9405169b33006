// IEEE binary16 storage and conversion (through the FP16 library). float16 values are computed in
// float32 and rounded once, to nearest even, when stored.
#pragma once

#include <fp16.h>

#include <cstdint>

namespace webnn {

struct Float16 {
  uint16_t bits = 0;
  Float16() = default;
  explicit Float16(float v) : bits(fp16_ieee_from_fp32_value(v)) {}
  static Float16 from_bits(uint16_t b) {
    Float16 h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return fp16_ieee_to_fp32_value(bits); }
};
static_assert(sizeof(Float16) == 2);

inline float half_to_float(uint16_t bits) { return fp16_ieee_to_fp32_value(bits); }
inline uint16_t float_to_half(float v) { return fp16_ieee_from_fp32_value(v); }

}  // namespace webnn
