// Fuzzes the ONNX importer with mutated models: any input must import or throw webnn::Error (never
// crash, hang, read outside its buffers or allocate past its memory budget); an imported graph must
// write back to JSON and text.
// External data is refused here (no model directory).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/formats.hpp"
#include "formats/onnx/import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A sixteenth of the default memory budget (64 MiB): what a model may make the importer hold then
  // stays far inside the fuzzers' RSS ceiling (scripts/fuzz.sh), so that a blow-up past the budget
  // is the finding, not a model the budget admits; and the time one input takes stays far inside
  // the 20 s timeout. A quarter let a 278-byte Resize build 92 MB of tap tables, which took 20 s to
  // import and write as JSON under the sanitizers.
  webnn::formats::OnnxImportOptions options;
  options.memory_budget = webnn::formats::kDefaultMemoryBudget / 16;
  try {
    auto graph = webnn::formats::import_onnx_bytes(std::string_view(reinterpret_cast<const char*>(data), size), "",
                                                   "fuzz.onnx", options);
    (void)webnn::formats::to_json(*graph);
    (void)webnn::formats::to_dot(*graph);
  } catch (const webnn::Error&) {
  }
  return 0;
}
