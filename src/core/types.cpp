#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "webnn/types.hpp"

namespace webnn {

namespace {
constexpr std::string_view kTypeNames[kDataTypeCount] = {"float32", "float16", "int32", "uint32",
                                                         "int64",   "uint64",  "int8",  "uint8"};
constexpr size_t kTypeSizes[kDataTypeCount] = {4, 2, 4, 4, 8, 8, 1, 1};
}  // namespace

std::string_view to_string(DataType type) { return kTypeNames[static_cast<size_t>(type)]; }

std::optional<DataType> parse_data_type(std::string_view name) {
  for (int i = 0; i < kDataTypeCount; ++i)
    if (kTypeNames[i] == name) return static_cast<DataType>(i);
  return std::nullopt;
}

size_t element_size(DataType type) { return kTypeSizes[static_cast<size_t>(type)]; }

bool is_floating_point(DataType type) { return type == DataType::kFloat32 || type == DataType::kFloat16; }

std::vector<DataType> DataTypeSet::to_vector() const {
  std::vector<DataType> out;
  for (DataType t : kAllDataTypes)
    if (contains(t)) out.push_back(t);
  return out;
}

std::string DataTypeSet::to_string() const {
  std::string s;
  for (DataType t : to_vector()) {
    if (!s.empty()) s += ", ";
    s += webnn::to_string(t);
  }
  return s;
}

std::string shape_to_string(const Shape& shape) {
  // Messages quote shapes; one of a hostile rank must not make the message megabytes long.
  constexpr size_t kShown = 16;
  std::string s = "[";
  for (size_t i = 0; i < shape.size() && i < kShown; ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() > kShown) s += ", ... (" + std::to_string(shape.size()) + " dimensions)";
  return s + "]";
}

std::string escaped(std::string_view text, size_t max_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  const size_t shown = std::min(text.size(), max_bytes);
  for (size_t i = 0; i < shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    // The bidirectional controls U+202A-U+202E and U+2066-U+2069 (E2 80 AA-AE, E2 81 A6-A9) could
    // reorder the message around them (spec: the advisement on MLOperatorOptions.label).
    if (c == 0xe2 && i + 2 < text.size()) {
      const unsigned char c1 = static_cast<unsigned char>(text[i + 1]);
      const unsigned char c2 = static_cast<unsigned char>(text[i + 2]);
      if ((c1 == 0x80 && c2 >= 0xaa && c2 <= 0xae) || (c1 == 0x81 && c2 >= 0xa6 && c2 <= 0xa9)) {
        const unsigned code = c1 == 0x80 ? 0x2000u + (c2 - 0x80u) : 0x2040u + (c2 - 0x80u);
        out += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 15];
        i += 2;
        continue;
      }
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += char(c);
    }
  }
  if (shown < text.size()) out += "...";
  return out;
}

std::string quote(std::string_view text, size_t max_bytes) {
  std::string out(1, '"');
  out += escaped(text, max_bytes);
  out += '"';
  if (text.size() > max_bytes) out += " (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::optional<uint64_t> OperandDescriptor::element_count() const {
  uint64_t count = 1;
  for (uint32_t d : shape) {
    if (d != 0 && count > UINT64_MAX / d) return std::nullopt;
    count *= d;
  }
  return count;
}

std::optional<uint64_t> OperandDescriptor::byte_length() const {
  auto count = element_count();
  if (!count) return std::nullopt;
  uint64_t size = element_size(data_type);
  if (*count > UINT64_MAX / size) return std::nullopt;
  return *count * size;
}

std::string OperandDescriptor::to_string() const {
  return std::string(webnn::to_string(data_type)) + shape_to_string(shape);
}

double Number::as_double() const {
  switch (kind_) {
    case Kind::kDouble:
      return d_;
    case Kind::kInt64:
      return static_cast<double>(i_);
    case Kind::kUint64:
      return static_cast<double>(u_);
  }
  return d_;
}

std::string Number::to_string() const {
  switch (kind_) {
    case Kind::kInt64:
      return std::to_string(i_);
    case Kind::kUint64:
      return std::to_string(u_);
    case Kind::kDouble:
      break;
  }
  if (std::isnan(d_)) return "nan";
  if (std::isinf(d_)) return d_ > 0 ? "inf" : "-inf";
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d_);
  return std::string(buf, end);
}

bool operator==(const Number& a, const Number& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case Number::Kind::kInt64:
      return a.i_ == b.i_;
    case Number::Kind::kUint64:
      return a.u_ == b.u_;
    case Number::Kind::kDouble:
      return (std::isnan(a.d_) && std::isnan(b.d_)) || a.d_ == b.d_;
  }
  return false;
}

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kTypeError:
      return "TypeError";
    case ErrorKind::kDataError:
      return "DataError";
    case ErrorKind::kOperationError:
      return "OperationError";
    case ErrorKind::kNotSupportedError:
      return "NotSupportedError";
    case ErrorKind::kInvalidStateError:
      return "InvalidStateError";
    case ErrorKind::kAbortError:
      return "AbortError";
    case ErrorKind::kUnknownError:
      return "UnknownError";
  }
  return "UnknownError";
}

void throw_error(ErrorKind kind, const std::string& message) { throw Error(kind, message); }

}  // namespace webnn
