// .npy reading and writing. Expected bytes are numpy's own output (np.save, numpy 1.24), with the
// element values worked out by hand.
#include <cstring>

#include "formats_test_util.hpp"

namespace webnn::formats {
namespace {

using testing::expect_error;
using testing::TempDir;

std::vector<std::byte> bytes_of(std::string_view s) {
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

// A header as numpy writes it: magic, version, little-endian length, the dict padded with spaces
// to a 128-byte total, then '\n' (every header below fits in 128 bytes).
std::string numpy_header(int major, std::string_view dict) {
  std::string h = "\x93NUMPY";
  h += char(major);
  h += '\0';
  size_t prefix = major == 1 ? 10 : 12;
  size_t len = 128 - prefix;
  h += char(len & 0xff);
  h += char(len >> 8);
  if (major != 1) h += std::string(2, '\0');
  h += dict;
  h += std::string(128 - h.size() - 1, ' ');
  h += '\n';
  return h;
}

TEST(FormatsNpy, ReadsEveryType) {
  struct Case {
    std::string dict;
    std::string data;
    OperandDescriptor desc;
    int major = 1;
  };
  const Case cases[] = {
      {"{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }",
       std::string("\x00\x3c\x00\xc0\x00\x38", 6),
       {DataType::kFloat16, {3}}},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (), }", "\xfb", {DataType::kInt8, {}}},
      {"{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2), }",
       std::string("\x01\x02\x03\xff", 4),
       {DataType::kUint8, {2, 2}}},
      {"{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }",
       std::string("\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\x00\x01\x00\x00", 16),
       {DataType::kInt64, {2}}},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
       std::string("\x00\x00\xc0\x3f\x00\x00\x20\x40", 8),
       {DataType::kFloat32, {2}},
       2},
      {"{'descr': '<u4', 'fortran_order': False, 'shape': (1,), }",
       std::string("\x07\x00\x00\x00", 4),
       {DataType::kUint32, {1}},
       3},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': (1, 1), }",
       std::string("\xfe\xff\xff\xff", 4),
       {DataType::kInt32, {1, 1}}},
      {"{'descr': '<u8', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\xff'), {DataType::kUint64, {1}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.dict);
    std::string file = numpy_header(c.major, c.dict) + c.data;
    NpyArray a = parse_npy(bytes_of(file), "case.npy");
    EXPECT_EQ(a.desc.to_string(), c.desc.to_string());
    EXPECT_EQ(a.data, bytes_of(c.data));
  }
}

TEST(FormatsNpy, WritesWhatNumpyWrites) {
  // np.save(np.array([1.0, -2.0, 0.5], dtype='<f2')): float16 1.0 = 0x3c00, -2.0 = 0xc000, 0.5 = 0x3800.
  std::string expected = numpy_header(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }") +
                         std::string("\x00\x3c\x00\xc0\x00\x38", 6);
  std::vector<std::byte> data = bytes_of(std::string("\x00\x3c\x00\xc0\x00\x38", 6));
  EXPECT_EQ(encode_npy({DataType::kFloat16, {3}}, data), bytes_of(expected));
  // Scalars are "()" and 2-D shapes "(2, 2)".
  std::vector<std::byte> one = bytes_of("\x05");
  EXPECT_EQ(encode_npy({DataType::kUint8, {}}, one),
            bytes_of(numpy_header(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (), }") + "\x05"));
  TempDir dir;
  std::vector<std::byte> four =
      bytes_of(std::string("\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00", 16));
  write_npy(dir.file("a.npy"), {DataType::kInt32, {2, 2}}, four);
  NpyArray back = read_npy(dir.file("a.npy"));
  EXPECT_EQ(back.desc.to_string(), "int32[2, 2]");
  EXPECT_EQ(back.data, four);
  EXPECT_EQ(testing::slurp(dir.file("a.npy")).substr(10, 59),
            "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }");
  expect_error(
      [&] {
        write_npy(dir.file("b.npy"), {DataType::kInt32, {3}}, four);
      },
      {"16 bytes", "int32[3]"}, ErrorKind::kTypeError);
}

TEST(FormatsNpy, RejectsBadFiles) {
  const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  auto parse = [](const std::string& s) { return parse_npy(bytes_of(s), "bad.npy"); };
  expect_error([&] { parse("PK\x03\x04 not numpy at all"); }, {"bad.npy", "wrong magic"});
  expect_error([&] { parse(numpy_header(1, f4) + std::string(7, '\0')); },
               {"bad.npy", "needs 8 bytes", "holds 7", "truncated"});
  expect_error([&] { parse(numpy_header(1, f4) + std::string(9, '\0')); }, {"bad.npy", "holds 9"});
  expect_error([&] { parse(numpy_header(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }") + "\x01"); },
               {"bad.npy", "bool", "|b1"});
  expect_error([&] { parse(numpy_header(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }") + "abcd"); },
               {"bad.npy", "big-endian"});
  expect_error(
      [&] { parse(numpy_header(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }") + "abcdefgh"); },
      {"bad.npy", "unsupported dtype '<c8'"});
  expect_error(
      [&] {
        parse(numpy_header(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }") + std::string(16, '\0'));
      },
      {"bad.npy", "Fortran"});
  expect_error([&] { parse(numpy_header(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }")); },
               {"bad.npy", "structured"});
  expect_error([&] { parse(numpy_header(1, "{'descr': '<f4', 'shape': (1,), }") + "abcd"); },
               {"bad.npy", "fortran_order"});
  expect_error([&] { parse(numpy_header(4, f4)); }, {"bad.npy", "version 4.0"});
  // Header length beyond the file.
  std::string h = numpy_header(1, f4);
  expect_error([&] { parse(h.substr(0, 60)); }, {"bad.npy", "truncated .npy header"});
  // A shape whose byte length overflows 64 bits.
  expect_error(
      [&] {
        parse(numpy_header(
            1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967295, 4294967295, 4294967295), }"));
      },
      {"bad.npy", "overflows"});
  expect_error([&] { parse(numpy_header(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999,), }")); },
               {"bad.npy", "dimension out of range"});
  expect_error([&] { read_npy("/nonexistent/x.npy"); }, {"/nonexistent/x.npy", "cannot open"});
}

}  // namespace
}  // namespace webnn::formats
