// Shared by the graph fuzz targets: a weights source that hands out zero bytes for any key (so
// inputs that refer to the weights file still reach the builder), and the round-trip oracle.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include "formats/formats.hpp"

namespace webnn::fuzz {

// The load's memory budget in the fuzzers: a quarter of the default, so that what a load may
// materialise stays well inside the fuzzers' RSS ceiling (scripts/fuzz.sh).
inline constexpr uint64_t kMemoryBudget = formats::kDefaultMemoryBudget / 4;

class ZeroWeights final : public formats::WeightsSource {
 public:
  BufferRef get(const std::string& key, const OperandDescriptor& desc, const std::string& what) const override {
    static const std::shared_ptr<const std::byte> zeros(new std::byte[kMax](), std::default_delete<std::byte[]>());
    auto bytes = desc.byte_length();
    if (!bytes || *bytes > kMax) throw_error(ErrorKind::kDataError, what + ": too large for the fuzzer's zero weights");
    return BufferRef{zeros, size_t(*bytes)};
  }

 private:
  static constexpr size_t kMax = size_t{16} << 20;
};

// A graph that loaded must write and load again, in both forms, and the written forms must be
// fixed points (writing the reloaded graph gives the same text). The text form spells every name
// (formats::text_name), so nothing may fail.
inline void check_round_trip(const Graph& g) {
  try {
    std::string json = formats::to_json(g);
    if (formats::to_json(*formats::parse_graph_json(json, formats::no_weights(), "roundtrip.json")) != json)
      std::abort();
  } catch (const Error&) {
    std::abort();
  }
  try {
    std::string text = formats::to_text(g);
    if (formats::to_text(*formats::parse_graph_text(text, formats::no_weights(), "roundtrip.webnn")) != text)
      std::abort();
  } catch (const Error&) {
    std::abort();
  }
}

}  // namespace webnn::fuzz
