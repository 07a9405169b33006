// The types of the op table's per-op columns (graph/op_table.def) and the constants its rows are
// written in. The accessors, one per column, are declared in graph.hpp beside op_name().
#pragma once

#include <cstdint>

namespace webnn {

// How an op's output descriptor follows from its operands, where several ops share the rule.
enum class ShapeRule : uint8_t {
  kOwn,     // the op's own algorithm in its family's file
  kUnary,   // one operand; the output has its shape, and every double option must be finite
  kBinary,  // two operands of one data type, broadcast bidirectionally into the output's shape
  kReduce,  // one operand reduced over `axes`, keeping them as 1s when `keepDimensions` (ReduceAttrs)
};
// The data type of a kUnary or kBinary output is the family's: the operand's for element-wise ops,
// uint8 for comparisons and logical ops.

// What an op does to its operands' values.
enum class ValueRule : uint8_t {
  kComputes,                  // computes new values; finite operands give finite results but for overflow
  kMoves,                     // only moves, copies or selects them (reshape, slice, gather, where, ...): exact
  kMakesSpecials,             // may make a NaN or an infinity out of finite operands (div, log, sqrt, ...;
                              // batchNormalization divides by the square root of a *given* variance + epsilon)
  kMakesSpecialsIfNoEpsilon,  // the same only when its `epsilon` option is 0: it divides by the
                              // square root of a variance it computes (never negative) + epsilon
};

// How close an op's float output must be to the expected one, by the WPT rules
// (../shared/wpt/README.md, "How close is close enough"): `base` ULPs (or an absolute tolerance),
// per data type, plus `per_count` ULPs for each value that one output element accumulates.
struct ToleranceRule {
  enum class Kind : uint8_t { kUlp, kAtol };
  // What an output element accumulates, as conformance::tolerance_for counts it.
  enum class Count : uint8_t {
    kNone,
    kConvWindow,   // filterHeight x filterWidth x (inputChannels / groups)
    kInnerDim,     // K, the last dimension of matmul's a
    kGemm,         // 2 x K, +1 if alpha != 1, +1 if c is given and beta != 0, +1 more if beta != 1
    kPoolWindow,   // windowHeight x windowWidth (the whole input when absent)
    kSoftmaxAxis,  // the size of the softmax axis
    kReduced,      // the number of reduced elements
    kScanAxis,     // the size of the scanned axis
  };
  Kind kind = Kind::kUlp;
  double float32 = 0;  // the base for float32 (and the exact integer types, where it does not matter)
  double float16 = 0;  // the base for float16
  Count count = Count::kNone;
  double per_count = 0;
};

// The vocabulary of op_table.def's rows.
namespace op_table {

using enum ShapeRule;
using enum ValueRule;
using enum ToleranceRule::Count;

constexpr ToleranceRule ulp(double both) { return {ToleranceRule::Kind::kUlp, both, both}; }
constexpr ToleranceRule ulp(double float32, double float16) { return {ToleranceRule::Kind::kUlp, float32, float16}; }
constexpr ToleranceRule atol(double both) { return {ToleranceRule::Kind::kAtol, both, both}; }
// per_count x (what `count` counts) + base ULPs, in every data type.
constexpr ToleranceRule ulp_per(ToleranceRule::Count count, double per_count, double base) {
  return {ToleranceRule::Kind::kUlp, base, base, count, per_count};
}

constexpr ToleranceRule kExact = ulp(0);
// The README's "erf-like" ops: ATOL 1/1024 for float32, 1/512 for float16.
constexpr ToleranceRule kErfLike{ToleranceRule::Kind::kAtol, 1.0 / 1024, 1.0 / 512};

}  // namespace op_table

}  // namespace webnn
