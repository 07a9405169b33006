// The wg-weights-manifest + WGWT weights file: validation before any read, and slices that share
// the file's memory.
#include <cstring>

#include "formats_test_util.hpp"

namespace webnn::formats {
namespace {

using testing::expect_error;
using testing::TempDir;

// "WGWT", version 1, then 8 float32 values 0..7 at offset 8 (40 bytes in all).
std::string weights_bytes(uint32_t version = 1, const char* magic = "WGWT") {
  std::string s(magic, 4);
  for (int i = 0; i < 4; ++i) s += char((version >> (8 * i)) & 0xff);
  for (int i = 0; i < 8; ++i) {
    float v = float(i);
    s.append(reinterpret_cast<const char*>(&v), 4);
  }
  return s;
}

std::string manifest(const std::string& tensors) {
  return R"({"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {)" + tensors + "}}";
}

const std::string kA =
    R"("a": {"dataType": "float32", "shape": [2, 2], "byteOffset": 8, "byteLength": 16, "layout": "row-major"})";
const std::string kB = R"("b": {"dataType": "float32", "shape": [4], "byteOffset": 24, "byteLength": 16})";

std::span<const std::byte> as_bytes_view(const std::string& s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

std::shared_ptr<WeightsFile> from(const std::string& m, const std::string& w) {
  return WeightsFile::from_memory(m, BufferRef::copy_of(as_bytes_view(w)), "t.weights");
}

TEST(FormatsWeights, ReadsSlicesThatShareTheFile) {
  TempDir dir;
  testing::write_file(dir.file("t.weights"), weights_bytes());
  testing::write_file(dir.file("t.manifest.json"), manifest(kA + "," + kB));
  auto w = WeightsFile::open(dir.file("t.weights"), dir.file("t.manifest.json"));
  ASSERT_EQ(w->entries().size(), 2u);
  BufferRef a = w->tensor("a");
  BufferRef b = w->get("b", {DataType::kFloat32, {4}}, "constant \"b\"");
  ASSERT_EQ(a.size, 16u);
  float values[4];
  std::memcpy(values, b.data.get(), 16);
  EXPECT_EQ(values[0], 4.0f);
  EXPECT_EQ(values[3], 7.0f);
  // Both slices point into one mapping: b starts 16 bytes after a.
  EXPECT_EQ(b.data.get() - a.data.get(), 16);
  // The slices keep the mapping alive after the WeightsFile is gone.
  w.reset();
  std::memcpy(values, a.data.get(), 16);
  EXPECT_EQ(values[1], 1.0f);
}

TEST(FormatsWeights, RejectsBadHeaders) {
  expect_error([&] { from(manifest(kA), weights_bytes(1, "WGWX")); }, {"t.weights", "bad magic"});
  expect_error([&] { from(manifest(kA), weights_bytes(2)); }, {"t.weights", "version 2"});
  expect_error([&] { from(manifest(kA), "WGW"); }, {"t.weights", "too short"});
  TempDir dir;
  testing::write_file(dir.file("empty.weights"), "");
  testing::write_file(dir.file("m.json"), manifest(kA));
  expect_error([&] { WeightsFile::open(dir.file("empty.weights"), dir.file("m.json")); }, {"empty.weights", "empty"});
  expect_error([&] { WeightsFile::open(dir.file("none.weights"), dir.file("m.json")); },
               {"none.weights", "cannot open"});
}

TEST(FormatsWeights, RejectsBadManifests) {
  const std::string w = weights_bytes();
  // offset + length beyond the 40-byte file.
  expect_error(
      [&] { from(manifest(R"("x": {"dataType": "float32", "shape": [4], "byteOffset": 32, "byteLength": 16})"), w); },
      {"tensor \"x\"", "byteOffset 32 + byteLength 16", "beyond the end", "40 bytes"});
  // An offset so large that offset + length wraps around 64 bits.
  expect_error(
      [&] {
        from(manifest(
                 R"("x": {"dataType": "uint8", "shape": [16], "byteOffset": 18446744073709551610, "byteLength": 16})"),
             w);
      },
      {"tensor \"x\"", "beyond the end"});
  // byteLength disagrees with shape x type size.
  expect_error(
      [&] { from(manifest(R"("x": {"dataType": "float32", "shape": [4], "byteOffset": 8, "byteLength": 12})"), w); },
      {"tensor \"x\"", "byteLength 12", "float32[4]", "16 bytes"});
  // A shape whose byte length overflows.
  expect_error(
      [&] {
        from(
            manifest(
                R"("x": {"dataType": "float32", "shape": [4294967295, 4294967295, 4294967295], "byteOffset": 8, "byteLength": 16})"),
            w);
      },
      {"tensor \"x\"", "overflows"});
  expect_error(
      [&] { from(manifest(R"("x": {"dataType": "float32", "shape": [1], "byteOffset": 4, "byteLength": 4})"), w); },
      {"tensor \"x\"", "header"});
  expect_error(
      [&] { from(manifest(R"("x": {"dataType": "int4", "shape": [2], "byteOffset": 8, "byteLength": 1})"), w); },
      {"tensor \"x\"", "int4", "not supported"});
  expect_error([&] { from(manifest(R"("x": {"dataType": "float32", "shape": [1], "byteOffset": 8})"), w); },
               {"tensor \"x\"", "missing \"byteLength\""});
  expect_error(
      [&] { from(manifest(R"("x": {"dataType": "float32", "shape": [1], "byteOffset": -8, "byteLength": 4})"), w); },
      {"tensor \"x\"", "byteOffset must be a non-negative integer"});
  expect_error(
      [&] {
        from(
            manifest(
                R"("x": {"dataType": "float32", "shape": [1], "byteOffset": 8, "byteLength": 4, "layout": "col-major"})"),
            w);
      },
      {"tensor \"x\"", "layout"});
  expect_error([&] { from(R"({"format": "wg-weights-manifest", "version": 2, "tensors": {}})", w); },
               {"manifest", "version 2"});
  expect_error([&] { from(R"({"format": "other", "version": 1, "tensors": {}})", w); }, {"manifest", "format"});
  expect_error(
      [&] { from(R"({"format": "wg-weights-manifest", "version": 1, "endianness": "big", "tensors": {}})", w); },
      {"endianness"});
  expect_error([&] { from(R"({"format": "wg-weights-manifest", "version": 1, "tensors": {)", w); },
               {"manifest", "invalid JSON"});
  expect_error([&] { from(manifest(kA + "," + kA), w); }, {"duplicate key \"a\""});
}

TEST(FormatsWeights, LookupsCheckKeyAndDescriptor) {
  auto w = from(manifest(kA), weights_bytes());
  expect_error(
      [&] {
        w->get("nope", {DataType::kFloat32, {4}}, "constant \"c\"");
      },
      {"constant \"c\"", "\"nope\"", "not in the manifest"});
  expect_error(
      [&] {
        w->get("a", {DataType::kFloat32, {4}}, "constant \"c\"");
      },
      {"constant \"c\"", "float32[4]", "float32[2, 2]"});
}

TEST(FormatsWeights, MisalignedTensorsAreCopiedOnce) {
  // A float32 tensor at offset 9 cannot be read in place as float; it is copied into aligned memory.
  std::string w = weights_bytes() + "12345";
  auto file = from(manifest(R"("x": {"dataType": "float32", "shape": [1], "byteOffset": 9, "byteLength": 4})"), w);
  BufferRef x = file->tensor("x");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(x.data.get()) % 4, 0u);
  EXPECT_EQ(0, std::memcmp(x.data.get(), w.data() + 9, 4));
}

}  // namespace
}  // namespace webnn::formats
