// Fuzzes the ONNX importer with mutated models: any input must import or throw webnn::Error (never
// crash, hang or read outside its buffers); an imported graph must write back to JSON and text.
// External data is refused here (no model directory).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/formats.hpp"
#include "formats/onnx/import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    auto graph =
        webnn::formats::import_onnx_bytes(std::string_view(reinterpret_cast<const char*>(data), size), "", "fuzz.onnx");
    (void)webnn::formats::to_json(*graph);
    (void)webnn::formats::to_dot(*graph);
  } catch (const webnn::Error&) {
  }
  return 0;
}
