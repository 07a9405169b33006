// Fuzzes the .npy reader: any input must parse or throw webnn::Error; a parsed array must encode
// back to bytes that parse to the same array.
#include <cstddef>
#include <cstdint>

#include "formats/formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    auto array = webnn::formats::parse_npy({reinterpret_cast<const std::byte*>(data), size}, "fuzz.npy");
    auto bytes = webnn::formats::encode_npy(array.desc, array.data);
    auto again = webnn::formats::parse_npy(bytes, "again.npy");
    if (!(again.desc == array.desc) || again.data != array.data) __builtin_trap();
  } catch (const webnn::Error&) {
  }
  return 0;
}
