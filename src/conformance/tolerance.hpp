// The one comparator of conformance results, with the WPT tolerance rules written down beside it
// (../shared/wpt/README.md, "How close is close enough").
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "graph/graph.hpp"

namespace webnn::conformance {

struct Tolerance {
  enum class Kind : uint8_t { kUlp, kAtol };
  Kind kind = Kind::kUlp;
  double value = 0;  // ULP count, or absolute tolerance
  std::string to_string() const;
};

// The tolerance WPT uses for the output of `op` in `graph` with data type `type`.
Tolerance tolerance_for(const Graph& graph, const Operation& op, DataType type);

struct Mismatch {
  size_t index = 0;
  double expected = 0;
  double actual = 0;
  double distance = 0;  // in ULP or absolute units, per the tolerance
};

// Compares two buffers of `count` elements of `type`. Integer types compare exactly whatever the
// tolerance; NaN equals NaN; infinities must match. Returns the first element out of tolerance.
std::optional<Mismatch> compare(DataType type, std::span<const std::byte> expected, std::span<const std::byte> actual,
                                const Tolerance& tolerance);

}  // namespace webnn::conformance
