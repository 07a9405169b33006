// Fuzzes the text graph parser: any input must either load or throw webnn::Error; a graph that
// loads must round-trip through both forms.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto graph =
        webnn::formats::parse_graph_text(text, webnn::fuzz::ZeroWeights(), "fuzz.text", webnn::fuzz::kMemoryBudget);
    // Round trips inline every constant; keep that bounded.
    if (graph->constant_bytes() <= (uint64_t{1} << 20)) webnn::fuzz::check_round_trip(*graph);
  } catch (const webnn::Error&) {
    // Expected: malformed input is reported, never crashes.
  }
  return 0;
}
