// spec: #algorithms-casting — casting an MLNumber to an operand data type (constant(dataType,
// value), clamp's minValue/maxValue, gemm's alpha/beta, ...). Integers held exactly by Number
// (bigint values) are cast without passing through double.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/float16.hpp"
#include "webnn/types.hpp"

namespace webnn::ops {

// ConvertToFloat(x, 32): nearest binary32, ties to even, overflow to +-Infinity.
float cast_to_float32(const Number& x);
// ConvertToFloat(x, 16): nearest binary16 rounded once from the exact value.
Float16 cast_to_float16(const Number& x);
// ConvertToInt(x, bits, "signed"): NaN -> 0, clamp to the range, round half to even.
int64_t cast_to_signed(const Number& x, int bits);
// ConvertToInt(x, bits, "unsigned").
uint64_t cast_to_unsigned(const Number& x, int bits);

// The value of `x` cast to `T`, the storage type of a data type (see core/dispatch.hpp).
template <class T>
T cast_number(const Number& x);
template <>
float cast_number<float>(const Number& x);
template <>
Float16 cast_number<Float16>(const Number& x);
template <>
int32_t cast_number<int32_t>(const Number& x);
template <>
uint32_t cast_number<uint32_t>(const Number& x);
template <>
int64_t cast_number<int64_t>(const Number& x);
template <>
uint64_t cast_number<uint64_t>(const Number& x);
template <>
int8_t cast_number<int8_t>(const Number& x);
template <>
uint8_t cast_number<uint8_t>(const Number& x);

// Writes `x` cast to `type` into `out` (element_size(type) bytes, native byte order).
void store_number(const Number& x, DataType type, std::byte* out);

// True when cast(a, type) > cast(b, type), comparing in `type` (NaN compares false).
bool cast_greater(const Number& a, const Number& b, DataType type);

}  // namespace webnn::ops
