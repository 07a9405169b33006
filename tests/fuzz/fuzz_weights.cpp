// Fuzzes the weights manifest + WGWT file. The input is split: a little-endian u32 manifest length,
// the manifest text, then the weights file bytes. Every tensor the manifest accepts is read in
// full, so AddressSanitizer sees any slice that escapes the file.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "formats/formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  uint32_t manifest_len =
      uint32_t(data[0]) | uint32_t(data[1]) << 8 | uint32_t(data[2]) << 16 | uint32_t(data[3]) << 24;
  size_t rest = size - 4;
  if (manifest_len > rest) manifest_len = uint32_t(rest);
  std::string_view manifest(reinterpret_cast<const char*>(data + 4), manifest_len);
  auto weights =
      webnn::BufferRef::copy_of({reinterpret_cast<const std::byte*>(data + 4 + manifest_len), rest - manifest_len});
  try {
    auto file = webnn::formats::WeightsFile::from_memory(manifest, weights, "fuzz.weights");
    volatile uint8_t sink = 0;
    for (const auto& [key, entry] : file->entries()) {
      webnn::BufferRef t = file->get(key, entry.desc, "tensor");
      if (t.size != entry.byte_length) __builtin_trap();
      const uint8_t* p = reinterpret_cast<const uint8_t*>(t.data.get());
      for (size_t i = 0; i < t.size; ++i) sink = sink ^ p[i];
    }
  } catch (const webnn::Error&) {
  }
  return 0;
}
