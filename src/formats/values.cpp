// JSON parsing with limits, and the value conversions shared by every format.
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "core/dispatch.hpp"
#include "formats/internal.hpp"

namespace webnn::formats {

void fail(const std::string& message) { throw_error(ErrorKind::kDataError, message); }

namespace {

// Builds the document from nlohmann's SAX events. nlohmann's own callback parser rescans the
// parent object at every object end (quadratic in the number of siblings), and ordered_json's
// insert searches the object linearly, so the DOM is built here: members are appended directly,
// duplicate keys are found through one hash set per open object, and nesting is bounded.
class DomBuilder {
 public:
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  bool null() { return add(Json(nullptr)); }
  bool boolean(bool v) { return add(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return add(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return add(Json(v)); }
  bool number_float(Json::number_float_t v, const string_t&) { return add(Json(v)); }
  bool string(string_t& v) { return add(Json(std::move(v))); }
  bool binary(binary_t&) { return stop("binary values are not JSON"); }

  bool start_object(std::size_t) { return open(Json::object()); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(string_t& k) {
    Frame& f = stack_.back();
    if (!f.keys.insert(k).second) return stop("duplicate key " + quote(k));
    f.key = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    // nlohmann's message already says "at line L, column C" and what it expected.
    return stop("invalid JSON (byte " + std::to_string(position) + "): " + e.what());
  }

  Json& root() { return root_; }
  const std::string& error() const { return error_; }

 private:
  struct Frame {
    Json* value;
    std::unordered_set<std::string> keys;  // objects only
    std::string key;                       // the member being read
  };

  // Where the next value goes: the root, the end of the open array, or the open object's member.
  Json* slot() {
    if (stack_.empty()) return &root_;
    Frame& f = stack_.back();
    if (f.value->is_array()) {
      auto& array = *f.value->get_ptr<Json::array_t*>();
      array.emplace_back();
      return &array.back();
    }
    // Appended directly: ordered_map's own emplace would search every earlier member first.
    auto& members = static_cast<std::vector<std::pair<const std::string, Json>>&>(*f.value->get_ptr<Json::object_t*>());
    members.emplace_back(std::move(f.key), Json());
    return &members.back().second;
  }
  bool add(Json&& v) {
    *slot() = std::move(v);
    return true;
  }
  bool open(Json&& empty) {
    if (stack_.size() >= size_t(kMaxJsonDepth))
      return stop("JSON nesting is deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    Json* v = slot();
    *v = std::move(empty);
    stack_.push_back(Frame{v, {}, {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }
  bool stop(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  Json root_;
  std::vector<Frame> stack_;
  std::string error_;
};

}  // namespace

Json parse_json(std::string_view text, const std::string& origin) {
  // nlohmann's lexer takes a NUL byte for the end of the input, so "{}\0garbage" would pass.
  if (size_t nul = text.find('\0'); nul != std::string_view::npos)
    fail(origin + ": invalid JSON: a NUL byte at byte " + std::to_string(nul));
  DomBuilder dom;
  bool ok = false;
  try {
    ok = Json::sax_parse(text.begin(), text.end(), &dom, Json::input_format_t::json, /*strict=*/true);
  } catch (const Json::exception& e) {
    fail(origin + ": invalid JSON: " + e.what());
  }
  if (!ok) fail(origin + ": " + (dom.error().empty() ? std::string("invalid JSON") : dom.error()));
  return std::move(dom.root());
}

std::string excerpt(const Json& value) {
  constexpr size_t kMax = 64;
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() <= kMax) return text;
  return text.substr(0, kMax) + "... (" + std::to_string(text.size()) + " bytes)";
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
      fail(where + ": data type " + quote(s) + " is not supported (WebNN as implemented here has no 4-bit types)");
    fail(where + ": unknown data type " + quote(s));
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
      fail(where + ": shape[" + std::to_string(i) + "] must be an integer in [0, 4294967295], got " + excerpt(d));
    shape.push_back(d.get<uint32_t>());
  }
  return shape;
}

uint64_t json_uint64(const Json& value, const std::string& where) {
  if (!value.is_number_unsigned()) fail(where + " must be a non-negative integer, got " + excerpt(value));
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
    fail(where + ": " + quote(s) + " is not a number (expected a decimal integer, \"inf\", \"-inf\" or \"nan\")");
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
