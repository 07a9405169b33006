// Reductions, argMin/argMax and cumulativeSum: output descriptors and error rules. (reduceMean's
// own shape cases are in ops_normalization_test.cpp; the same code serves every reduction.)
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

const OpKind kReductions[] = {OpKind::kReduceL1,        OpKind::kReduceL2,      OpKind::kReduceLogSum,
                              OpKind::kReduceLogSumExp, OpKind::kReduceMax,     OpKind::kReduceMean,
                              OpKind::kReduceMin,       OpKind::kReduceProduct, OpKind::kReduceSum,
                              OpKind::kReduceSumSquare};

class ReductionTest : public OpsTest {
 protected:
  OperandDescriptor reduce(OpKind kind, DataType type, Shape in, OptionalDims axes, bool keep = false) {
    return output(kind, {input(type, std::move(in))}, ReduceAttrs{std::move(axes), keep});
  }
};

TEST_F(ReductionTest, EveryReductionSharesTheShapeRules) {
  for (OpKind k : kReductions) {
    SCOPED_TRACE(std::string(op_name(k)));
    EXPECT_EQ(reduce(k, kF32, {2, 3, 4}, {}), (OperandDescriptor{kF32, {}}));
    EXPECT_EQ(reduce(k, kF32, {2, 3, 4}, {}, true), (OperandDescriptor{kF32, {1, 1, 1}}));
    EXPECT_EQ(reduce(k, kF32, {2, 3, 4}, {{2, 0}}), (OperandDescriptor{kF32, {3}}));
    EXPECT_EQ(reduce(k, kF32, {2, 3, 4}, {{1}}, true), (OperandDescriptor{kF32, {2, 1, 4}}));
    EXPECT_EQ(reduce(k, kF32, {2, 3, 4}, {{0, 1, 2}}), (OperandDescriptor{kF32, {}}));
    // An empty list reduces nothing, with or without keepDimensions.
    EXPECT_EQ(reduce(k, kF32, {2, 3, 4}, {{}}), (OperandDescriptor{kF32, {2, 3, 4}}));
    EXPECT_EQ(reduce(k, kF32, {2, 3, 4}, {{}}, true), (OperandDescriptor{kF32, {2, 3, 4}}));
    // A scalar reduces to a scalar with absent or empty axes.
    EXPECT_EQ(reduce(k, kF16, {}, {}), (OperandDescriptor{kF16, {}}));
    EXPECT_EQ(reduce(k, kF16, {}, {{}}, true), (OperandDescriptor{kF16, {}}));
  }
}

TEST_F(ReductionTest, AxesErrors) {
  for (OpKind k : kReductions) {
    SCOPED_TRACE(std::string(op_name(k)));
    expect_error(k, {input(kF32, {2, 3})}, ReduceAttrs{{{1, 1}}, false}, "axis 1 appears more than once");
    expect_error(k, {input(kF32, {2, 3})}, ReduceAttrs{{{2}}, false}, "axis 2 is out of range for rank 2");
    expect_error(k, {input(kF32, {})}, ReduceAttrs{{{0}}, true}, "out of range for rank 0");
  }
}

// The spec's allowedDataTypes per reduction (the tensor-limits input rows).
TEST_F(ReductionTest, DataTypes) {
  for (OpKind k : {OpKind::kReduceL1, OpKind::kReduceSum, OpKind::kReduceSumSquare, OpKind::kReduceProduct}) {
    SCOPED_TRACE(std::string(op_name(k)));
    for (DataType t : {kF32, kF16, kI32, kU32, kI64, kU64}) EXPECT_EQ(reduce(k, t, {2}, {}).data_type, t);
    expect_error(k, {input(kI8, {2})}, ReduceAttrs{}, "input data type int8 is not one of the allowed");
    expect_error(k, {input(kU8, {2})}, ReduceAttrs{}, "uint8");
  }
  for (OpKind k : {OpKind::kReduceL2, OpKind::kReduceLogSum, OpKind::kReduceLogSumExp, OpKind::kReduceMean}) {
    SCOPED_TRACE(std::string(op_name(k)));
    EXPECT_EQ(reduce(k, kF16, {2}, {}).data_type, kF16);
    expect_error(k, {input(kI32, {2})}, ReduceAttrs{}, "input data type int32 is not one of the allowed");
    expect_error(k, {input(kU64, {2})}, ReduceAttrs{}, "uint64");
  }
  for (OpKind k : {OpKind::kReduceMax, OpKind::kReduceMin})
    for (DataType t : {kF32, kF16, kI32, kU32, kI64, kU64, kI8, kU8}) EXPECT_EQ(reduce(k, t, {2}, {}).data_type, t);
}

// ---- argMin / argMax ----

TEST_F(ReductionTest, ArgMinMaxShapes) {
  for (OpKind k : {OpKind::kArgMin, OpKind::kArgMax}) {
    SCOPED_TRACE(std::string(op_name(k)));
    EXPECT_EQ(output(k, {input(kF32, {2, 3, 4})}, ArgMinMaxAttrs{1, false, kI32}), (OperandDescriptor{kI32, {2, 4}}));
    EXPECT_EQ(output(k, {input(kF32, {2, 3, 4})}, ArgMinMaxAttrs{2, true, kI64}), (OperandDescriptor{kI64, {2, 3, 1}}));
    EXPECT_EQ(output(k, {input(kF16, {5})}, ArgMinMaxAttrs{0, false, kI32}), (OperandDescriptor{kI32, {}}));
    EXPECT_EQ(output(k, {input(kU8, {5})}, ArgMinMaxAttrs{0, true, kI64}), (OperandDescriptor{kI64, {1}}));
    // The default outputDataType is int32.
    EXPECT_EQ(output(k, {input(kI64, {2, 2})}, ArgMinMaxAttrs{}), (OperandDescriptor{kI32, {2}}));
  }
}

TEST_F(ReductionTest, ArgMinMaxErrors) {
  for (OpKind k : {OpKind::kArgMin, OpKind::kArgMax}) {
    SCOPED_TRACE(std::string(op_name(k)));
    expect_error(k, {input(kF32, {2, 3})}, ArgMinMaxAttrs{2, false, kI32}, "axis 2 must be less than the input rank 2");
    expect_error(k, {input(kF32, {})}, ArgMinMaxAttrs{0, false, kI32}, "input must be a tensor of rank >= 1");
    for (DataType t : {kF32, kF16, kU32, kU64, kI8, kU8})
      expect_error(k, {input(kF32, {2, 3})}, ArgMinMaxAttrs{0, false, t},
                   "outputDataType " + std::string(to_string(t)) + " is not one of the allowed data types");
    expect_error(k, {}, ArgMinMaxAttrs{}, "expects 1 positional operand");
  }
}

// ---- cumulativeSum ----

TEST_F(ReductionTest, CumulativeSumKeepsTheInputDescriptor) {
  for (DataType t : {kF32, kF16, kI32, kU32, kI64, kU64})
    EXPECT_EQ(output(OpKind::kCumulativeSum, {input(t, {2, 3})}, CumulativeSumAttrs{1, true, true}),
              (OperandDescriptor{t, {2, 3}}));
  EXPECT_EQ(output(OpKind::kCumulativeSum, {input(kF32, {7})}, CumulativeSumAttrs{}), (OperandDescriptor{kF32, {7}}));
}

TEST_F(ReductionTest, CumulativeSumErrors) {
  const OpKind k = OpKind::kCumulativeSum;
  expect_error(k, {input(kF32, {2, 3})}, CumulativeSumAttrs{2, false, false},
               "axis 2 must be less than the input rank 2");
  expect_error(k, {input(kF32, {})}, CumulativeSumAttrs{}, "input must be a tensor of rank >= 1");
  expect_error(k, {input(kI8, {2})}, CumulativeSumAttrs{}, "input data type int8 is not one of the allowed");
  expect_error(k, {input(kU8, {2})}, CumulativeSumAttrs{}, "uint8");
}

}  // namespace
}  // namespace webnn::testing
