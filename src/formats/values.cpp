// JSON parsing with limits, and the value conversions shared by every format.
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "core/dispatch.hpp"
#include "formats/internal.hpp"

namespace webnn::formats {

void fail(const std::string& message) { throw_error(ErrorKind::kDataError, message); }

namespace {

// Thrown from the parser callback; caught in parse_json and turned into a DataError.
struct JsonLimitError {
  std::string message;
};

}  // namespace

Json parse_json(std::string_view text, const std::string& origin) {
  // One set of keys per open object, to reject duplicate keys (nlohmann would keep the last one
  // silently, hiding a duplicate constant or input).
  std::vector<std::set<std::string>> keys;
  Json::parser_callback_t callback = [&](int depth, Json::parse_event_t event, Json& parsed) -> bool {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        if (depth >= kMaxJsonDepth)
          throw JsonLimitError{"JSON nesting is deeper than " + std::to_string(kMaxJsonDepth) + " levels"};
        if (event == Json::parse_event_t::object_start) keys.emplace_back();
        break;
      case Json::parse_event_t::object_end:
        if (!keys.empty()) keys.pop_back();
        break;
      case Json::parse_event_t::key:
        if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second)
          throw JsonLimitError{"duplicate key \"" + parsed.get<std::string>() + "\""};
        break;
      default:
        break;
    }
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), callback);
  } catch (const JsonLimitError& e) {
    fail(origin + ": " + e.message);
  } catch (const Json::parse_error& e) {
    // nlohmann's message already says "at line L, column C" and what it expected.
    fail(origin + ": invalid JSON (byte " + std::to_string(e.byte) + "): " + e.what());
  } catch (const Json::exception& e) {
    fail(origin + ": invalid JSON: " + e.what());
  }
}

namespace {
const char* type_name(const Json& v) { return v.type_name(); }
}  // namespace

DataType json_data_type(const Json& value, const std::string& where) {
  if (!value.is_string()) fail(where + ": dataType must be a string, got " + type_name(value));
  const auto& s = value.get_ref<const std::string&>();
  auto type = parse_data_type(s);
  if (!type) {
    if (s == "int4" || s == "uint4")
      fail(where + ": data type \"" + s + "\" is not supported (WebNN as implemented here has no 4-bit types)");
    fail(where + ": unknown data type \"" + s + "\"");
  }
  return *type;
}

Shape json_shape(const Json& value, const std::string& where) {
  if (!value.is_array()) fail(where + ": shape must be an array of integers, got " + type_name(value));
  if (value.size() > kMaxRank)
    fail(where + ": shape has rank " + std::to_string(value.size()) + ", more than the maximum " +
         std::to_string(kMaxRank));
  Shape shape;
  for (size_t i = 0; i < value.size(); ++i) {
    const Json& d = value[i];
    if (!d.is_number_unsigned() || d.get<uint64_t>() > UINT32_MAX)
      fail(where + ": shape[" + std::to_string(i) + "] must be an integer in [0, 4294967295], got " + d.dump());
    shape.push_back(d.get<uint32_t>());
  }
  return shape;
}

uint64_t json_uint64(const Json& value, const std::string& where) {
  if (!value.is_number_unsigned()) fail(where + " must be a non-negative integer, got " + value.dump());
  return value.get<uint64_t>();
}

Number json_number(const Json& value, const std::string& where) {
  if (value.is_number_float()) return Number(value.get<double>());
  if (value.is_number_unsigned()) {
    uint64_t u = value.get<uint64_t>();
    if (u <= uint64_t(std::numeric_limits<int64_t>::max())) return Number::from_int64(int64_t(u));
    return Number::from_uint64(u);
  }
  if (value.is_number_integer()) return Number::from_int64(value.get<int64_t>());
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (s == "inf" || s == "Infinity" || s == "+inf") return Number(std::numeric_limits<double>::infinity());
    if (s == "-inf" || s == "-Infinity") return Number(-std::numeric_limits<double>::infinity());
    if (s == "nan" || s == "NaN") return Number(std::numeric_limits<double>::quiet_NaN());
    const char* first = s.data();
    const char* last = s.data() + s.size();
    if (!s.empty() && s[0] == '-') {
      int64_t i = 0;
      auto [p, ec] = std::from_chars(first, last, i);
      if (ec == std::errc() && p == last) return Number::from_int64(i);
    } else {
      uint64_t u = 0;
      auto [p, ec] = std::from_chars(first, last, u);
      if (ec == std::errc() && p == last) {
        if (u <= uint64_t(std::numeric_limits<int64_t>::max())) return Number::from_int64(int64_t(u));
        return Number::from_uint64(u);
      }
    }
    fail(where + ": \"" + s + "\" is not a number (expected a decimal integer, \"inf\", \"-inf\" or \"nan\")");
  }
  fail(where + ": expected a number, got " + std::string(type_name(value)));
}

Json double_json(double d) {
  if (std::isfinite(d)) return Json(d);
  return Json(Number(d).to_string());
}

Json number_json(const Number& n) {
  constexpr uint64_t kExact = uint64_t{1} << 53;  // every integer up to 2^53 is a double
  switch (n.kind()) {
    case Number::Kind::kDouble:
      return double_json(n.as_double());
    case Number::Kind::kInt64: {
      int64_t i = n.int64_value();
      if (i >= -int64_t(kExact) && i <= int64_t(kExact)) return Json(i);
      return Json(std::to_string(i));
    }
    case Number::Kind::kUint64: {
      uint64_t u = n.uint64_value();
      if (u <= kExact) return Json(u);
      return Json(std::to_string(u));
    }
  }
  return Json(nullptr);
}

namespace {

// Converts `n` to T exactly when T is an integer type; floats round as the API's cast does.
template <class T>
std::optional<T> convert_number(const Number& n) {
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(n.as_double());
  } else if constexpr (std::is_same_v<T, Float16>) {
    return Float16(static_cast<float>(n.as_double()));
  } else {
    switch (n.kind()) {
      case Number::Kind::kInt64: {
        int64_t v = n.int64_value();
        if (v < int64_t(std::numeric_limits<T>::min())) return std::nullopt;
        if (v > 0 && uint64_t(v) > uint64_t(std::numeric_limits<T>::max())) return std::nullopt;
        return static_cast<T>(v);
      }
      case Number::Kind::kUint64: {
        uint64_t v = n.uint64_value();
        if (v > uint64_t(std::numeric_limits<T>::max())) return std::nullopt;
        return static_cast<T>(v);
      }
      case Number::Kind::kDouble: {
        double d = n.as_double();
        if (!std::isfinite(d) || std::trunc(d) != d) return std::nullopt;
        // Compare in double against bounds a double holds exactly (2^63, 2^64 are powers of two).
        if (d < double(std::numeric_limits<T>::min())) return std::nullopt;
        if (d >= std::ldexp(1.0, std::numeric_limits<T>::digits)) return std::nullopt;
        return static_cast<T>(d);
      }
    }
    return std::nullopt;
  }
}

}  // namespace

BufferRef scalar_fill(const OperandDescriptor& desc, const Number& value, const std::string& where) {
  auto count = desc.element_count();
  auto bytes = desc.byte_length();
  // The builder bounds every tensor; refuse to allocate anything it would refuse anyway.
  if (!count || !bytes || *bytes > (uint64_t{1} << 31)) fail(where + ": " + desc.to_string() + " is too large");
  std::vector<std::byte> out(*bytes);
  visit_type(desc.data_type, [&]<class T>() {
    std::optional<T> v = convert_number<T>(value);
    if (!v)
      fail(where + ": scalar " + value.to_string() + " is not a " + std::string(to_string(desc.data_type)) + " value");
    for (uint64_t i = 0; i < *count; ++i) std::memcpy(out.data() + i * sizeof(T), &*v, sizeof(T));
  });
  return BufferRef::adopt(std::move(out));
}

std::optional<Number> uniform_value(const OperandDescriptor& desc, std::span<const std::byte> data) {
  size_t size = element_size(desc.data_type);
  if (data.empty() || data.size() % size != 0) return std::nullopt;
  for (size_t i = size; i < data.size(); i += size)
    if (std::memcmp(data.data(), data.data() + i, size) != 0) return std::nullopt;
  return visit_type(desc.data_type, [&]<class T>() -> std::optional<Number> {
    T v;
    std::memcpy(&v, data.data(), sizeof(T));
    std::optional<Number> n;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, Float16>) {
      double d = static_cast<float>(v);
      if (std::isnan(d)) return std::nullopt;  // NaN payloads would not survive
      n = Number(d);
    } else if constexpr (std::is_same_v<T, uint64_t>) {
      n = v <= uint64_t(std::numeric_limits<int64_t>::max()) ? Number::from_int64(int64_t(v)) : Number::from_uint64(v);
    } else {
      n = Number::from_int64(int64_t(v));
    }
    // Only when converting back reproduces the bytes exactly.
    std::optional<T> back = convert_number<T>(*n);
    if (!back || std::memcmp(&*back, data.data(), sizeof(T)) != 0) return std::nullopt;
    return n;
  });
}

std::span<const std::byte> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

}  // namespace webnn::formats
