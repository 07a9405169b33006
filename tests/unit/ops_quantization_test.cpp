// quantizeLinear and dequantizeLinear: output descriptors, data types and the block-wise
// broadcasting rule of scale and zeroPoint.
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

using QuantizationTest = OpsTest;

TEST_F(QuantizationTest, QuantizeLinearOutputHasTheZeroPointTypeAndTheInputShape) {
  for (DataType zp : {kU8, kI8, kU32, kI32})
    EXPECT_EQ(output(OpKind::kQuantizeLinear, {input(kF32, {4, 6}), input(kF32, {4, 6}), input(zp, {4, 6})}, NoAttrs{}),
              (OperandDescriptor{zp, {4, 6}}));
  // Per-axis, block-wise and whole-tensor scales; float16; rank 0.
  EXPECT_EQ(shape(OpKind::kQuantizeLinear, {input(kF32, {4, 6}), input(kF32, {1, 6}), input(kI8, {1, 6})}, NoAttrs{}),
            (Shape{4, 6}));
  EXPECT_EQ(shape(OpKind::kQuantizeLinear, {input(kF32, {4, 6}), input(kF32, {2, 3}), input(kI8, {2, 3})}, NoAttrs{}),
            (Shape{4, 6}));
  EXPECT_EQ(output(OpKind::kQuantizeLinear, {input(kF16, {4, 6}), input(kF16, {1, 1}), input(kU8, {1, 1})}, NoAttrs{}),
            (OperandDescriptor{kU8, {4, 6}}));
  EXPECT_EQ(output(OpKind::kQuantizeLinear, {input(kF32, {}), input(kF32, {}), input(kI32, {})}, NoAttrs{}),
            (OperandDescriptor{kI32, {}}));
}

TEST_F(QuantizationTest, QuantizeLinearDataTypes) {
  const OpKind k = OpKind::kQuantizeLinear;
  expect_error(k, {input(kI8, {4}), input(kI8, {4}), input(kI8, {4})}, NoAttrs{}, "input data type int8");
  expect_error(k, {input(kF32, {4}), input(kF16, {4}), input(kI8, {4})}, NoAttrs{},
               "scale must have the same data type as input (float32), got float16");
  expect_error(k, {input(kF32, {4}), input(kF32, {4}), input(kF32, {4})}, NoAttrs{},
               "zeroPoint data type float32 is not one of the allowed data types");
  expect_error(k, {input(kF32, {4}), input(kF32, {4}), input(kI64, {4})}, NoAttrs{}, "zeroPoint data type int64");
}

TEST_F(QuantizationTest, QuantizeLinearShapes) {
  const OpKind k = OpKind::kQuantizeLinear;
  expect_error(k, {input(kF32, {4, 6}), input(kF32, {6}), input(kI8, {6})}, NoAttrs{},
               "scale must have the same rank as input (2), got rank 1");
  expect_error(k, {input(kF32, {4, 6}), input(kF32, {1, 6}), input(kI8, {6})}, NoAttrs{},
               "zeroPoint must have the same rank as input (2), got rank 1");
  expect_error(k, {input(kF32, {4, 6}), input(kF32, {1, 6}), input(kI8, {2, 6})}, NoAttrs{},
               "scale shape [1, 6] must equal zeroPoint shape [2, 6]");
  // 4 % 3 != 0: not blockwise broadcastable.
  expect_error(k, {input(kF32, {4, 6}), input(kF32, {3, 6}), input(kI8, {3, 6})}, NoAttrs{},
               "scale shape [3, 6] must be blockwise broadcastable to the input shape [4, 6]");
  // Larger than the input: 4 % 8 != 0.
  expect_error(k, {input(kF32, {4, 6}), input(kF32, {8, 6}), input(kI8, {8, 6})}, NoAttrs{}, "blockwise");
  auto missing = std::vector<OperandId>{input(kF32, {4}), input(kF32, {4})};
  expect_error(k, missing, NoAttrs{}, "expects 3 positional");
}

TEST_F(QuantizationTest, DequantizeLinearOutputHasTheScaleTypeAndTheInputShape) {
  for (DataType in : {kU8, kI8, kU32, kI32})
    for (DataType scale : {kF32, kF16})
      EXPECT_EQ(output(OpKind::kDequantizeLinear, {input(in, {2, 3, 4}), input(scale, {2, 1, 2}), input(in, {2, 1, 2})},
                       NoAttrs{}),
                (OperandDescriptor{scale, {2, 3, 4}}));
  EXPECT_EQ(output(OpKind::kDequantizeLinear, {input(kI8, {}), input(kF32, {}), input(kI8, {})}, NoAttrs{}),
            (OperandDescriptor{kF32, {}}));
}

TEST_F(QuantizationTest, DequantizeLinearErrors) {
  const OpKind k = OpKind::kDequantizeLinear;
  expect_error(k, {input(kF32, {4}), input(kF32, {4}), input(kF32, {4})}, NoAttrs{}, "input data type float32");
  expect_error(k, {input(kI64, {4}), input(kF32, {4}), input(kI64, {4})}, NoAttrs{}, "input data type int64");
  expect_error(k, {input(kI8, {4}), input(kI32, {4}), input(kI8, {4})}, NoAttrs{}, "scale data type int32");
  expect_error(k, {input(kI8, {4}), input(kF32, {4}), input(kU8, {4})}, NoAttrs{},
               "zeroPoint must have the same data type as input (int8), got uint8");
  expect_error(k, {input(kI8, {4, 6}), input(kF32, {2, 3, 1}), input(kI8, {2, 3, 1})}, NoAttrs{},
               "scale must have the same rank as input");
  expect_error(k, {input(kI8, {4, 6}), input(kF32, {2, 3}), input(kI8, {2, 2})}, NoAttrs{},
               "scale shape [2, 3] must equal zeroPoint shape [2, 2]");
  expect_error(k, {input(kI8, {4, 6}), input(kF32, {2, 4}), input(kI8, {2, 4})}, NoAttrs{},
               "must be blockwise broadcastable to the input shape [4, 6]");
}

}  // namespace
}  // namespace webnn::testing
