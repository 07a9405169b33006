// How the spec declares each builder method: its positional operands and required parameters
// (graph/op_signatures.def, generated from the spec's IDL by scripts/gen_op_signatures.py).
// Language bindings that add operations generically (the Python module) present each method
// with this signature; the op table and the attribute structs supply everything else.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "graph/graph.hpp"

namespace webnn {

struct OpSignature {
  static constexpr size_t kMaxOperands = 5;    // lstmCell
  static constexpr size_t kMaxParameters = 2;  // gru, lstm, slice, pad

  std::string_view name;  // the spec's camelCase method name
  // Positional operands in the spec's order; unused entries are empty. A name ending in "[]" is a
  // sequence<MLOperand> (concat's inputs).
  std::string_view operands[kMaxOperands];
  // Required non-operand parameters after the operands, each the name of an attribute field.
  std::string_view parameters[kMaxParameters];
  bool returns_sequence = false;

  size_t operand_count() const { return count(operands); }
  size_t parameter_count() const { return count(parameters); }
  static bool is_sequence(std::string_view operand) { return operand.ends_with("[]"); }

 private:
  template <size_t N>
  static size_t count(const std::string_view (&names)[N]) {
    size_t n = 0;
    while (n < N && !names[n].empty()) ++n;
    return n;
  }
};

inline constexpr OpSignature kOpSignatures[] = {
#define OPERANDS(...) \
  { __VA_ARGS__ }
#define PARAMETERS(...) \
  { __VA_ARGS__ }
#define WEBNN_OP_SIGNATURE(name, operands, parameters, returns_sequence) {name, operands, parameters, returns_sequence},
#include "graph/op_signatures.def"
#undef WEBNN_OP_SIGNATURE
#undef PARAMETERS
#undef OPERANDS
};

// The signature of `kind`, or nullptr when the table lacks it (a test checks it never does).
inline const OpSignature* find_op_signature(OpKind kind) {
  for (const OpSignature& s : kOpSignatures)
    if (s.name == op_name(kind)) return &s;
  return nullptr;
}

}  // namespace webnn
