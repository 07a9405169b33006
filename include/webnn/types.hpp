// Core value types shared by every layer: data types, descriptors, numbers, errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "webnn/export.h"

namespace webnn {

// spec: #enumdef-mloperanddatatype
enum class DataType : uint8_t { kFloat32, kFloat16, kInt32, kUint32, kInt64, kUint64, kInt8, kUint8 };
inline constexpr int kDataTypeCount = 8;
inline constexpr DataType kAllDataTypes[kDataTypeCount] = {DataType::kFloat32, DataType::kFloat16, DataType::kInt32,
                                                           DataType::kUint32,  DataType::kInt64,   DataType::kUint64,
                                                           DataType::kInt8,    DataType::kUint8};

// The spec's name ("float32", ...).
WEBNN_EXPORT std::string_view to_string(DataType type);
// Parses a spec name; nullopt when it is not one.
WEBNN_EXPORT std::optional<DataType> parse_data_type(std::string_view name);
WEBNN_EXPORT size_t element_size(DataType type);
WEBNN_EXPORT bool is_floating_point(DataType type);

// A set of data types, as the spec's "allowed data types" lists.
class WEBNN_EXPORT DataTypeSet {
 public:
  constexpr DataTypeSet() = default;
  constexpr DataTypeSet(std::initializer_list<DataType> types) {
    for (DataType t : types) bits_ |= bit(t);
  }
  static constexpr DataTypeSet all() { return from_bits(0xff); }
  static constexpr DataTypeSet from_bits(uint8_t bits) {
    DataTypeSet s;
    s.bits_ = bits;
    return s;
  }
  constexpr bool contains(DataType t) const { return (bits_ & bit(t)) != 0; }
  constexpr uint8_t bits() const { return bits_; }
  std::vector<DataType> to_vector() const;
  std::string to_string() const;  // "float32, float16"

 private:
  static constexpr uint8_t bit(DataType t) { return uint8_t(1u << static_cast<unsigned>(t)); }
  uint8_t bits_ = 0;
};

using Shape = std::vector<uint32_t>;

WEBNN_EXPORT std::string shape_to_string(const Shape& shape);  // "[1, 3, 224, 224]"

// Implementation limits. The spec lets implementations bound ranks and sizes.
inline constexpr size_t kMaxRank = 8;
// spec: "valid dimension" is in the range of long; we also bound the element count by it.
inline constexpr uint64_t kMaxDimension = 0x7fffffffu;

// spec: #dictdef-mloperanddescriptor
struct WEBNN_EXPORT OperandDescriptor {
  DataType data_type = DataType::kFloat32;
  Shape shape;

  // Element count and byte length; nullopt when the product overflows uint64.
  std::optional<uint64_t> element_count() const;
  std::optional<uint64_t> byte_length() const;
  size_t rank() const { return shape.size(); }
  std::string to_string() const;  // "float32[1, 3]"
  friend bool operator==(const OperandDescriptor&, const OperandDescriptor&) = default;
};

// spec: #typedefdef-mlnumber — a bigint or an unrestricted double. Integers that a double cannot
// hold exactly keep their exact value here.
class WEBNN_EXPORT Number {
 public:
  enum class Kind : uint8_t { kDouble, kInt64, kUint64 };
  constexpr Number() = default;
  constexpr Number(double v) : kind_(Kind::kDouble), d_(v) {}  // NOLINT(google-explicit-constructor)
  static constexpr Number from_int64(int64_t v) {
    Number n;
    n.kind_ = Kind::kInt64;
    n.i_ = v;
    return n;
  }
  static constexpr Number from_uint64(uint64_t v) {
    Number n;
    n.kind_ = Kind::kUint64;
    n.u_ = v;
    return n;
  }
  Kind kind() const { return kind_; }
  double as_double() const;
  int64_t int64_value() const { return i_; }
  uint64_t uint64_value() const { return u_; }
  // Exact decimal text for integers, shortest round-trip text for doubles ("inf", "-inf", "nan").
  std::string to_string() const;
  friend WEBNN_EXPORT bool operator==(const Number& a, const Number& b);

 private:
  Kind kind_ = Kind::kDouble;
  double d_ = 0;
  int64_t i_ = 0;
  uint64_t u_ = 0;
};

// spec: the DOMException names and TypeError that WebNN methods throw.
enum class ErrorKind : uint8_t {
  kTypeError,
  kDataError,
  kOperationError,
  kNotSupportedError,
  kInvalidStateError,
  kAbortError,
  kUnknownError,
};
WEBNN_EXPORT std::string_view to_string(ErrorKind kind);

// Exported with its type information (typeid, catch and dynamic_cast in a program see the library's).
class WEBNN_EXPORT Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message)
      : std::runtime_error(std::string(to_string(kind)) + ": " + message), kind_(kind), message_(message) {}
  ErrorKind kind() const { return kind_; }
  // The message without the kind prefix.
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_;
  std::string message_;
};

[[noreturn]] WEBNN_EXPORT void throw_error(ErrorKind kind, const std::string& message);

// Text from outside (a name, a JSON value, a path) as an error message quotes it: in double quotes,
// with control bytes, quotes and backslashes escaped (so a NUL cannot cut the message short) and,
// past `max_bytes`, cut with the total length given: "abc..." (1048576 bytes).
WEBNN_EXPORT std::string quote(std::string_view text, size_t max_bytes = 96);
// The same text escaped, without the quotes (bidirectional controls are escaped too, as \u202e).
WEBNN_EXPORT std::string escaped(std::string_view text, size_t max_bytes = 96);
inline void type_error_if(bool condition, const std::string& message) {
  if (condition) throw_error(ErrorKind::kTypeError, message);
}

}  // namespace webnn
