// For each kind of operation, the ways the onednn backend can run it, best first, as oneDNN's own
// implementation lists read: the compiler takes the first candidate that accepts an operation and
// falls back to the operation's reference kernel (lower_reference) when none does. A kind not
// listed runs its reference kernel.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "backends/onednn/lowering.hpp"

namespace webnn::onednn {

enum class Operands : uint8_t {
  kAny,      // the candidate checks its operands' types itself
  kFloat32,  // tried only when every input and output of the operation is float32
};

struct Candidate {
  std::string_view name;  // what it runs, in oneDNN's terms where it is a primitive
  Lowering lower = nullptr;
  Operands operands = Operands::kAny;
};

// The candidates of `kind`, best first (empty: the reference kernel alone).
std::span<const Candidate> candidates(OpKind kind);

}  // namespace webnn::onednn
