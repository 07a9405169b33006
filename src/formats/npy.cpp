// NumPy .npy arrays: header versions 1.0, 2.0 and 3.0; little-endian numeric types in C order.
#include <cstring>

#include "formats/internal.hpp"

namespace webnn::formats {

namespace {

constexpr char kMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

struct Descr {
  std::string_view name;
  DataType type;
};
constexpr Descr kDescrs[] = {{"<f4", DataType::kFloat32}, {"<f2", DataType::kFloat16}, {"<i4", DataType::kInt32},
                             {"<u4", DataType::kUint32},  {"<i8", DataType::kInt64},   {"<u8", DataType::kUint64},
                             {"|i1", DataType::kInt8},    {"|u1", DataType::kUint8}};

// The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& origin) : s_(text), origin_(origin) {}

  [[noreturn]] void error(const std::string& what) const {
    fail(origin_ + ": bad .npy header at character " + std::to_string(pos_) + ": " + what);
  }

  void parse(std::string& descr, bool& fortran, Shape& shape) {
    bool have_descr = false, have_fortran = false, have_shape = false;
    expect('{');
    while (true) {
      skip();
      if (peek() == '}') break;
      std::string key = string();
      expect(':');
      skip();
      if (key == "descr") {
        if (peek() != '\'' && peek() != '"') error("descr must be a string (structured dtypes are not supported)");
        descr = string();
        have_descr = true;
      } else if (key == "fortran_order") {
        fortran = boolean();
        have_fortran = true;
      } else if (key == "shape") {
        shape = tuple();
        have_shape = true;
      } else {
        error("unexpected key '" + key + "'");
      }
      skip();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != '}') error("expected ',' or '}'");
    }
    ++pos_;
    if (!have_descr || !have_fortran || !have_shape) error("the header needs descr, fortran_order and shape");
    skip();
    if (pos_ != s_.size()) error("unexpected text after the dictionary");
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  void expect(char c) {
    skip();
    if (peek() != c) error(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string string() {
    skip();
    char q = peek();
    if (q != '\'' && q != '"') error("expected a quoted string");
    size_t start = ++pos_;
    while (pos_ < s_.size() && s_[pos_] != q) {
      if (s_[pos_] == '\\') error("escapes in header strings are not supported");
      ++pos_;
    }
    if (pos_ >= s_.size()) error("unterminated string");
    return std::string(s_.substr(start, pos_++ - start));
  }
  bool boolean() {
    if (s_.substr(pos_, 4) == "True") return pos_ += 4, true;
    if (s_.substr(pos_, 5) == "False") return pos_ += 5, false;
    error("expected True or False");
  }
  Shape tuple() {
    expect('(');
    Shape shape;
    while (true) {
      skip();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') error("expected a dimension");
      uint64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        v = v * 10 + uint64_t(peek() - '0');
        if (v > UINT32_MAX) error("dimension out of range");
        ++pos_;
      }
      if (peek() == 'L') ++pos_;  // Python 2 longs
      if (shape.size() == kMaxRank) error("rank exceeds the maximum of " + std::to_string(kMaxRank));
      shape.push_back(uint32_t(v));
      skip();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != ')') error("expected ',' or ')'");
    }
    ++pos_;
    return shape;
  }

  std::string_view s_;
  const std::string& origin_;
  size_t pos_ = 0;
};

uint32_t read_le(const std::byte* p, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; ++i) v |= uint32_t(p[i]) << (8 * i);
  return v;
}

}  // namespace

NpyArray parse_npy(std::span<const std::byte> bytes, const std::string& origin) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0) fail(origin + ": not a .npy file (wrong magic)");
  unsigned major = unsigned(bytes[6]), minor = unsigned(bytes[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    fail(origin + ": unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor) +
         " (expected 1.0, 2.0 or 3.0)");
  size_t prefix = major == 1 ? 10 : 12;
  if (bytes.size() < prefix) fail(origin + ": truncated .npy header");
  uint64_t header_len = major == 1 ? read_le(bytes.data() + 8, 2) : read_le(bytes.data() + 8, 4);
  if (header_len > bytes.size() - prefix)
    fail(origin + ": truncated .npy header (" + std::to_string(header_len) + " bytes declared, " +
         std::to_string(bytes.size() - prefix) + " present)");
  std::string_view header(reinterpret_cast<const char*>(bytes.data() + prefix), size_t(header_len));

  std::string descr;
  bool fortran = false;
  NpyArray array;
  HeaderParser(header, origin).parse(descr, fortran, array.desc.shape);
  bool found = false;
  for (const Descr& d : kDescrs) {
    if (d.name == descr) {
      array.desc.data_type = d.type;
      found = true;
    }
  }
  if (!found) {
    if (descr == "|b1") fail(origin + ": bool arrays ('|b1') are not supported: WebNN has no bool type (store uint8)");
    if (!descr.empty() && descr[0] == '>') fail(origin + ": big-endian data ('" + descr + "') is not supported");
    fail(origin + ": unsupported dtype '" + descr + "' (expected <f4, <f2, <i4, <u4, <i8, <u8, |i1 or |u1)");
  }
  if (fortran) fail(origin + ": Fortran-order arrays are not supported (save in C order)");
  auto expected = array.desc.byte_length();
  if (!expected) fail(origin + ": the byte length of shape " + shape_to_string(array.desc.shape) + " overflows");
  uint64_t present = bytes.size() - prefix - header_len;
  if (present != *expected)
    fail(origin + ": " + array.desc.to_string() + " needs " + std::to_string(*expected) +
         " bytes of data but the file holds " + std::to_string(present) + (present < *expected ? " (truncated)" : ""));
  auto data = bytes.subspan(prefix + size_t(header_len));
  array.data.assign(data.begin(), data.end());
  return array;
}

NpyArray read_npy(const std::string& path) {
  std::string bytes = read_file(path, ".npy file");
  return parse_npy(as_bytes(bytes), path);
}

std::vector<std::byte> encode_npy(const OperandDescriptor& desc, std::span<const std::byte> data) {
  auto expected = desc.byte_length();
  if (!expected || *expected != data.size())
    throw_error(ErrorKind::kTypeError,
                "write_npy: " + std::to_string(data.size()) + " bytes do not hold " + desc.to_string());
  std::string dict = "{'descr': '";
  for (const Descr& d : kDescrs)
    if (d.type == desc.data_type) dict += d.name;
  dict += "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < desc.shape.size(); ++i) dict += (i ? ", " : "") + std::to_string(desc.shape[i]);
  if (desc.shape.size() == 1) dict += ",";
  dict += "), }";
  // The data starts on a 64-byte boundary, as numpy writes it; version 2.0 when 1.0's u16 is too small.
  size_t prefix = 10;
  size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  if (total - prefix > 0xffff) {
    prefix = 12;
    total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  }
  size_t header_len = total - prefix;
  dict.append(header_len - dict.size() - 1, ' ');
  dict += '\n';
  std::vector<std::byte> out;
  out.reserve(total + data.size());
  for (char c : kMagic) out.push_back(std::byte(c));
  out.push_back(std::byte(prefix == 10 ? 1 : 2));
  out.push_back(std::byte(0));
  for (size_t i = 0; i < prefix - 8; ++i) out.push_back(std::byte((header_len >> (8 * i)) & 0xff));
  for (char c : dict) out.push_back(std::byte(c));
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

void write_npy(const std::string& path, const OperandDescriptor& desc, std::span<const std::byte> data) {
  std::vector<std::byte> bytes = encode_npy(desc, data);
  AtomicWriter writer;
  size_t f = writer.begin(path);
  writer.append(f, bytes);
  writer.commit();
}

}  // namespace webnn::formats
