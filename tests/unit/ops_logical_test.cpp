// Comparison, logical and where operators: output descriptors and error rules.
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

const OpKind kComparisons[] = {OpKind::kEqual,          OpKind::kNotEqual, OpKind::kGreater,
                               OpKind::kGreaterOrEqual, OpKind::kLesser,   OpKind::kLesserOrEqual};
const OpKind kLogicalBinary[] = {OpKind::kLogicalAnd, OpKind::kLogicalOr, OpKind::kLogicalXor};

class LogicalTest : public OpsTest {};

TEST_F(LogicalTest, ComparisonsGiveUint8OfTheBroadcastShape) {
  for (OpKind k : kComparisons) {
    SCOPED_TRACE(std::string(op_name(k)));
    for (DataType t : {kF32, kF16, kI32, kU32, kI64, kU64, kI8, kU8})
      EXPECT_EQ(output(k, {input(t, {2, 3}), input(t, {2, 3})}, NoAttrs{}), (OperandDescriptor{kU8, {2, 3}}));
    EXPECT_EQ(shape(k, {input(kF32, {2, 1}), input(kF32, {3})}, NoAttrs{}), (Shape{2, 3}));
    EXPECT_EQ(shape(k, {input(kF32, {}), input(kF32, {4, 1, 2})}, NoAttrs{}), (Shape{4, 1, 2}));
    EXPECT_EQ(shape(k, {input(kF32, {5, 1, 3}), input(kF32, {4, 1})}, NoAttrs{}), (Shape{5, 4, 3}));
    EXPECT_EQ(shape(k, {input(kF32, {}), input(kF32, {})}, NoAttrs{}), Shape{});
  }
}

TEST_F(LogicalTest, ComparisonErrors) {
  for (OpKind k : kComparisons) {
    SCOPED_TRACE(std::string(op_name(k)));
    expect_error(k, {input(kF32, {2, 3}), input(kF16, {2, 3})}, NoAttrs{},
                 "b must have the same data type as a (float32), got float16");
    expect_error(k, {input(kF32, {2, 3}), input(kF32, {2})}, NoAttrs{},
                 "a shape [2, 3] and b shape [2] are not bidirectionally broadcastable");
    expect_error(k, {input(kF32, {2})}, NoAttrs{}, "expects 2 positional operand");
  }
}

TEST_F(LogicalTest, LogicalOpsTakeUint8) {
  for (OpKind k : kLogicalBinary) {
    SCOPED_TRACE(std::string(op_name(k)));
    EXPECT_EQ(output(k, {input(kU8, {3, 1}), input(kU8, {1, 4})}, NoAttrs{}), (OperandDescriptor{kU8, {3, 4}}));
    expect_error(k, {input(kF32, {2}), input(kF32, {2})}, NoAttrs{}, "a data type float32 is not one of the allowed");
    expect_error(k, {input(kI8, {2}), input(kI8, {2})}, NoAttrs{}, "int8");
    expect_error(k, {input(kU8, {2}), input(kI32, {2})}, NoAttrs{}, "b must have the same data type as a");
    expect_error(k, {input(kU8, {2}), input(kU8, {3})}, NoAttrs{}, "not bidirectionally broadcastable");
  }
  EXPECT_EQ(output(OpKind::kLogicalNot, {input(kU8, {2, 5})}, NoAttrs{}), (OperandDescriptor{kU8, {2, 5}}));
  EXPECT_EQ(output(OpKind::kLogicalNot, {input(kU8, {})}, NoAttrs{}), (OperandDescriptor{kU8, {}}));
  expect_error(OpKind::kLogicalNot, {input(kI32, {2})}, NoAttrs{}, "a data type int32 is not one of the allowed");
  expect_error(OpKind::kLogicalNot, {input(kU8, {2}), input(kU8, {2})}, NoAttrs{}, "expects 1 positional operand");
}

// The algorithm's float-only step for isNaN/isInfinite disagrees with the tensor-limits table
// ("any"); we follow the table (see src/ops/logical.cpp).
TEST_F(LogicalTest, IsNaNAndIsInfiniteKeepTheShape) {
  for (OpKind k : {OpKind::kIsNaN, OpKind::kIsInfinite}) {
    SCOPED_TRACE(std::string(op_name(k)));
    EXPECT_EQ(output(k, {input(kF16, {2, 3})}, NoAttrs{}), (OperandDescriptor{kU8, {2, 3}}));
    EXPECT_EQ(output(k, {input(kF32, {})}, NoAttrs{}), (OperandDescriptor{kU8, {}}));
    EXPECT_EQ(output(k, {input(kI32, {4})}, NoAttrs{}), (OperandDescriptor{kU8, {4}}));
  }
}

// ---- where ----

TEST_F(LogicalTest, WhereBroadcastsAllThree) {
  const OpKind k = OpKind::kWhere;
  auto where = [&](Shape c, Shape t, Shape f, DataType type = kF32) {
    return output(k, {input(kU8, std::move(c)), input(type, std::move(t)), input(type, std::move(f))}, NoAttrs{});
  };
  EXPECT_EQ(where({2, 3}, {2, 3}, {2, 3}), (OperandDescriptor{kF32, {2, 3}}));
  EXPECT_EQ(where({}, {2, 3}, {3}), (OperandDescriptor{kF32, {2, 3}}));
  EXPECT_EQ(where({2, 3}, {}, {}), (OperandDescriptor{kF32, {2, 3}}));                      // condition is the largest
  EXPECT_EQ(where({2, 1, 1}, {1, 3, 1}, {1, 1, 4}), (OperandDescriptor{kF32, {2, 3, 4}}));  // each adds one
  EXPECT_EQ(where({4, 1, 1}, {3, 1}, {2}), (OperandDescriptor{kF32, {4, 3, 2}}));
  EXPECT_EQ(where({}, {}, {}, kI64), (OperandDescriptor{kI64, {}}));
  for (DataType t : {kF16, kI32, kU32, kU64, kI8, kU8}) EXPECT_EQ(where({1}, {2}, {2}, t).data_type, t);
}

TEST_F(LogicalTest, WhereErrors) {
  const OpKind k = OpKind::kWhere;
  expect_error(k, {input(kF32, {2}), input(kF32, {2}), input(kF32, {2})}, NoAttrs{},
               "condition data type float32 is not one of the allowed data types");
  expect_error(k, {input(kI8, {2}), input(kF32, {2}), input(kF32, {2})}, NoAttrs{}, "condition data type int8");
  expect_error(k, {input(kU8, {2}), input(kF32, {2}), input(kI32, {2})}, NoAttrs{},
               "falseValue must have the same data type as trueValue (float32), got int32");
  expect_error(k, {input(kU8, {2}), input(kF32, {2, 3}), input(kF32, {2})}, NoAttrs{},
               "trueValue shape [2, 3] and falseValue shape [2] are not bidirectionally broadcastable");
  expect_error(k, {input(kU8, {4}), input(kF32, {2, 3}), input(kF32, {3})}, NoAttrs{},
               "condition shape [4] is not bidirectionally broadcastable with the broadcast shape of trueValue and "
               "falseValue [2, 3]");
  expect_error(k, {input(kU8, {2}), input(kF32, {2})}, NoAttrs{}, "expects 3 positional operand");
}

}  // namespace
}  // namespace webnn::testing
