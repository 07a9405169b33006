// What the ONNX export and import share about operators: the pairs of one ONNX operator and one
// WebNN operator (op_map.def), so that each name pair is written once. The importer registers each
// pair's ONNX op type with the lowering of its form (import_lowerings.cpp); the exporter writes
// each pair's WebNN op as its ONNX op (export.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "graph/graph.hpp"

namespace webnn::formats {

// How a pair's operands and attributes correspond (op_map.def describes each form).
enum class OnnxForm : uint8_t {
  kUnary,
  kPassThrough,
  kBinary,
  kVariadic,
  kCompare,
  kLogical,
  kPredicate,
  kSelect,
  kReduce,
  kArgReduce,
};

struct OnnxOpPair {
  std::string_view onnx;  // the ONNX op type
  OpKind kind;
  OnnxForm form;
};

inline constexpr OnnxOpPair kOnnxOpPairs[] = {
#define WEBNN_ONNX_OP(onnx, Enum, Form) {#onnx, OpKind::k##Enum, OnnxForm::k##Form},
#include "formats/onnx/op_map.def"
#undef WEBNN_ONNX_OP
};

// Each ONNX op type and each WebNN op is in one pair at most: otherwise a direction would be
// ambiguous.
constexpr bool onnx_op_pairs_are_one_to_one() {
  for (size_t i = 0; i < std::size(kOnnxOpPairs); ++i)
    for (size_t j = i + 1; j < std::size(kOnnxOpPairs); ++j)
      if (kOnnxOpPairs[i].onnx == kOnnxOpPairs[j].onnx || kOnnxOpPairs[i].kind == kOnnxOpPairs[j].kind) return false;
  return true;
}
static_assert(onnx_op_pairs_are_one_to_one(), "op_map.def pairs an ONNX op type or a WebNN op twice");

// The pair of a WebNN op; nullptr when it has none.
constexpr const OnnxOpPair* onnx_pair_of(OpKind kind) {
  for (const OnnxOpPair& pair : kOnnxOpPairs)
    if (pair.kind == kind) return &pair;
  return nullptr;
}

}  // namespace webnn::formats
