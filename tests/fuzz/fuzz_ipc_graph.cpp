// Fuzzes the service's graph decoding (src/ipc/graph_codec.cpp) with mutated Cap'n Proto
// messages: any input must decode or throw webnn::Error (never crash, hang or read outside the
// message); a decoded graph must encode and decode again to the same message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "ipc/graph_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::shared_ptr<const webnn::Graph> graph;
  try {
    graph = webnn::ipc::parse_graph_message({reinterpret_cast<const std::byte*>(data), size}, uint64_t{1} << 24,
                                            "fuzz.capnp");
  } catch (const webnn::Error&) {
    return 0;
  }
  try {
    const std::vector<std::byte> once = webnn::ipc::serialize_graph(*graph);
    if (webnn::ipc::serialize_graph(*webnn::ipc::parse_graph_message(once, uint64_t{1} << 24)) != once) std::abort();
  } catch (const webnn::Error&) {
    std::abort();  // what decoded once must decode again
  }
  return 0;
}
