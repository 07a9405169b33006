// Element-wise binary/unary operators, activations, prelu, clamp and cast: output descriptors and
// every error rule.
#include <limits>

#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

class ElementwiseTest : public OpsTest {};

constexpr OpKind kBinary[] = {OpKind::kAdd, OpKind::kSub, OpKind::kMul, OpKind::kDiv,
                              OpKind::kMax, OpKind::kMin, OpKind::kPow};

TEST_F(ElementwiseTest, BinaryBroadcastsBidirectionally) {
  for (OpKind kind : kBinary) {
    SCOPED_TRACE(std::string(op_name(kind)));
    EXPECT_EQ(shape(kind, {input(kF32, {2, 3}), input(kF32, {2, 3})}, NoAttrs{}), (Shape{2, 3}));
    EXPECT_EQ(shape(kind, {input(kF32, {5, 1}), input(kF32, {1, 6})}, NoAttrs{}), (Shape{5, 6}));
    EXPECT_EQ(shape(kind, {input(kF32, {4}), input(kF32, {5, 4})}, NoAttrs{}), (Shape{5, 4}));
    EXPECT_EQ(shape(kind, {input(kF32, {8, 1, 6, 1}), input(kF32, {7, 1, 5})}, NoAttrs{}), (Shape{8, 7, 6, 5}));
    EXPECT_EQ(shape(kind, {input(kF32, {}), input(kF32, {3, 2})}, NoAttrs{}), (Shape{3, 2}));
    EXPECT_EQ(shape(kind, {input(kF32, {}), input(kF32, {})}, NoAttrs{}), Shape{});
    const OperandDescriptor d = output(kind, {input(kI64, {2, 1}), input(kI64, {3})}, NoAttrs{});
    EXPECT_EQ(d, (OperandDescriptor{kI64, {2, 3}}));
  }
}

TEST_F(ElementwiseTest, BinaryErrors) {
  for (OpKind kind : kBinary) {
    SCOPED_TRACE(std::string(op_name(kind)));
    expect_error(kind, {input(kF32, {2, 3}), input(kF16, {2, 3})}, NoAttrs{}, "same data type");
    expect_error(kind, {input(kF32, {2, 3}), input(kF32, {3, 2})}, NoAttrs{}, "broadcastable");
    expect_error(kind, {input(kF32, {4}), input(kF32, {5, 3})}, NoAttrs{}, "broadcastable");
    expect_error(kind, {input(kF32, {4})}, NoAttrs{}, "2 positional");
  }
}

TEST_F(ElementwiseTest, UnaryKeepsTheDescriptor) {
  for (OpKind kind :
       {OpKind::kErf, OpKind::kExp, OpKind::kSqrt, OpKind::kRelu, OpKind::kSigmoid, OpKind::kTanh, OpKind::kGelu}) {
    SCOPED_TRACE(std::string(op_name(kind)));
    EXPECT_EQ(output(kind, {input(kF16, {1, 2, 3})}, NoAttrs{}), (OperandDescriptor{kF16, {1, 2, 3}}));
    EXPECT_EQ(output(kind, {input(kF32, {})}, NoAttrs{}), (OperandDescriptor{kF32, {}}));
  }
  // relu also takes signed integers.
  EXPECT_EQ(output(OpKind::kRelu, {input(kI8, {4})}, NoAttrs{}), (OperandDescriptor{kI8, {4}}));
  EXPECT_EQ(output(OpKind::kRelu, {input(kI64, {4})}, NoAttrs{}), (OperandDescriptor{kI64, {4}}));
}

TEST_F(ElementwiseTest, UnaryRejectsOtherTypes) {
  for (OpKind kind : {OpKind::kErf, OpKind::kExp, OpKind::kSqrt, OpKind::kSigmoid, OpKind::kTanh, OpKind::kGelu}) {
    SCOPED_TRACE(std::string(op_name(kind)));
    expect_error(kind, {input(kI32, {2})}, NoAttrs{}, "int32");
  }
  expect_error(OpKind::kRelu, {input(kU8, {2})}, NoAttrs{}, "uint8");
  expect_error(OpKind::kRelu, {input(kU32, {2})}, NoAttrs{}, "uint32");
  expect_error(OpKind::kExp, {input(kF32, {2}), input(kF32, {2})}, NoAttrs{}, "1 positional");
}

// The unary ops by allowed data types (the tensor-limits rows).
constexpr OpKind kFloatUnary[] = {OpKind::kCeil,       OpKind::kCos,       OpKind::kFloor,   OpKind::kLog,
                                  OpKind::kReciprocal, OpKind::kRoundEven, OpKind::kSin,     OpKind::kTan,
                                  OpKind::kHardSwish,  OpKind::kSoftplus,  OpKind::kSoftsign};
constexpr OpKind kSignedUnary[] = {OpKind::kAbs, OpKind::kNeg, OpKind::kSign};

TEST_F(ElementwiseTest, NewUnaryOpsKeepTheDescriptor) {
  for (OpKind kind : kFloatUnary) {
    SCOPED_TRACE(std::string(op_name(kind)));
    EXPECT_EQ(output(kind, {input(kF16, {1, 2, 3})}, NoAttrs{}), (OperandDescriptor{kF16, {1, 2, 3}}));
    EXPECT_EQ(output(kind, {input(kF32, {})}, NoAttrs{}), (OperandDescriptor{kF32, {}}));
  }
  for (OpKind kind : kSignedUnary) {
    SCOPED_TRACE(std::string(op_name(kind)));
    for (DataType t : {kF32, kF16, kI8, kI32, kI64})
      EXPECT_EQ(output(kind, {input(t, {4, 1})}, NoAttrs{}), (OperandDescriptor{t, {4, 1}}));
    EXPECT_EQ(output(kind, {input(kI8, {})}, NoAttrs{}), (OperandDescriptor{kI8, {}}));
  }
  // identity takes every data type.
  for (DataType t : kAllDataTypes) {
    EXPECT_EQ(output(OpKind::kIdentity, {input(t, {2, 5})}, NoAttrs{}), (OperandDescriptor{t, {2, 5}}));
    EXPECT_EQ(output(OpKind::kIdentity, {input(t, {})}, NoAttrs{}), (OperandDescriptor{t, {}}));
  }
}

TEST_F(ElementwiseTest, NewUnaryOpsRejectOtherTypes) {
  for (OpKind kind : kFloatUnary) {
    SCOPED_TRACE(std::string(op_name(kind)));
    for (DataType t : {kI8, kU8, kI32, kU32, kI64, kU64})
      expect_error(kind, {input(t, {2})}, NoAttrs{}, std::string(to_string(t)));
  }
  // abs, neg and sign take signed integers but no unsigned type.
  for (OpKind kind : kSignedUnary) {
    SCOPED_TRACE(std::string(op_name(kind)));
    for (DataType t : {kU8, kU32, kU64}) expect_error(kind, {input(t, {2})}, NoAttrs{}, std::string(to_string(t)));
  }
  expect_error(OpKind::kIdentity, {input(kF32, {2}), input(kF32, {2})}, NoAttrs{}, "1 positional");
  expect_error(OpKind::kSoftsign, {}, NoAttrs{}, "1 positional");
}

// elu, hardSigmoid, leakyRelu and linear: float32/float16 only, and finite options.
TEST_F(ElementwiseTest, ScalarActivationsKeepTheDescriptor) {
  const std::pair<OpKind, Attributes> ops[] = {{OpKind::kElu, EluAttrs{0.5}},
                                               {OpKind::kHardSigmoid, HardSigmoidAttrs{-1.0, 2.0}},
                                               {OpKind::kLeakyRelu, LeakyReluAttrs{-3.0}},
                                               {OpKind::kLinear, LinearAttrs{-7.5, 1e300}}};
  for (const auto& [kind, attrs] : ops) {
    SCOPED_TRACE(std::string(op_name(kind)));
    EXPECT_EQ(output(kind, {input(kF32, {2, 3})}, attrs), (OperandDescriptor{kF32, {2, 3}}));
    EXPECT_EQ(output(kind, {input(kF16, {})}, attrs), (OperandDescriptor{kF16, {}}));
    for (DataType t : {kI8, kU8, kI32, kU32, kI64, kU64})
      expect_error(kind, {input(t, {2})}, attrs, std::string(to_string(t)));
  }
  // An option that overflows float16 when cast is valid: the cast gives Infinity.
  EXPECT_EQ(output(OpKind::kElu, {input(kF16, {2})}, EluAttrs{1e5}), (OperandDescriptor{kF16, {2}}));
  EXPECT_EQ(output(OpKind::kLinear, {input(kF16, {2})}, LinearAttrs{1.0, -1e30}), (OperandDescriptor{kF16, {2}}));
}

TEST_F(ElementwiseTest, ScalarActivationOptionsMustBeFinite) {
  const double bad[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity()};
  for (double v : bad) {
    SCOPED_TRACE(v);
    expect_error(OpKind::kElu, {input(kF32, {2})}, EluAttrs{v}, "alpha must be a finite number");
    expect_error(OpKind::kLeakyRelu, {input(kF32, {2})}, LeakyReluAttrs{v}, "alpha must be a finite number");
    expect_error(OpKind::kHardSigmoid, {input(kF32, {2})}, HardSigmoidAttrs{v, 0.5}, "alpha must be a finite number");
    expect_error(OpKind::kHardSigmoid, {input(kF32, {2})}, HardSigmoidAttrs{0.2, v}, "beta must be a finite number");
    expect_error(OpKind::kLinear, {input(kF16, {2})}, LinearAttrs{v, 0.0}, "alpha must be a finite number");
    expect_error(OpKind::kLinear, {input(kF16, {2})}, LinearAttrs{1.0, v}, "beta must be a finite number");
  }
}

TEST_F(ElementwiseTest, PreluBroadcastsSlopeAndInputBidirectionally) {
  EXPECT_EQ(output(OpKind::kPrelu, {input(kF32, {2, 3}), input(kF32, {3})}, NoAttrs{}),
            (OperandDescriptor{kF32, {2, 3}}));
  EXPECT_EQ(shape(OpKind::kPrelu, {input(kF32, {1, 2, 3}), input(kF32, {2, 1})}, NoAttrs{}), (Shape{1, 2, 3}));
  EXPECT_EQ(shape(OpKind::kPrelu, {input(kF32, {2, 3}), input(kF32, {})}, NoAttrs{}), (Shape{2, 3}));
  // The slope may be larger than the input: the output takes the broadcast shape.
  EXPECT_EQ(shape(OpKind::kPrelu, {input(kF32, {3}), input(kF32, {2, 1})}, NoAttrs{}), (Shape{2, 3}));
  EXPECT_EQ(shape(OpKind::kPrelu, {input(kF32, {}), input(kF32, {4})}, NoAttrs{}), (Shape{4}));
  EXPECT_EQ(shape(OpKind::kPrelu, {input(kF32, {}), input(kF32, {})}, NoAttrs{}), Shape{});
  for (DataType t : {kF16, kI8, kI32, kI64})
    EXPECT_EQ(output(OpKind::kPrelu, {input(t, {4}), input(t, {1})}, NoAttrs{}), (OperandDescriptor{t, {4}}));
}

TEST_F(ElementwiseTest, PreluErrors) {
  expect_error(OpKind::kPrelu, {input(kF32, {2, 3}), input(kF32, {2})}, NoAttrs{}, "not bidirectionally broadcastable");
  expect_error(OpKind::kPrelu, {input(kF32, {2, 3}), input(kF32, {3, 3})}, NoAttrs{}, "broadcastable");
  expect_error(OpKind::kPrelu, {input(kF32, {2, 3}), input(kF16, {3})}, NoAttrs{},
               "slope must have the same data type");
  expect_error(OpKind::kPrelu, {input(kI32, {3}), input(kI64, {3})}, NoAttrs{}, "same data type");
  for (DataType t : {kU8, kU32, kU64}) expect_error(OpKind::kPrelu, {input(t, {3}), input(t, {3})}, NoAttrs{}, "input");
  expect_error(OpKind::kPrelu, {input(kF32, {3})}, NoAttrs{}, "2 positional");
}

TEST_F(ElementwiseTest, ClampValidatesTheRangeInTheInputType) {
  EXPECT_EQ(output(OpKind::kClamp, {input(kF32, {2, 2})}, ClampAttrs{}), (OperandDescriptor{kF32, {2, 2}}));
  EXPECT_EQ(shape(OpKind::kClamp, {input(kF32, {3})}, ClampAttrs{1.0, 1.0}), Shape{3});
  EXPECT_EQ(output(OpKind::kClamp, {input(kU64, {3})}, ClampAttrs{5.0, Number::from_uint64(UINT64_MAX)}),
            (OperandDescriptor{kU64, {3}}));
  // Both bounds cast to 0 in uint8, so they are equal there.
  EXPECT_EQ(shape(OpKind::kClamp, {input(kU8, {3})}, ClampAttrs{-5.0, -1.0}), Shape{3});
  // 1.0001 is 1.0 in float16: equal bounds.
  EXPECT_EQ(shape(OpKind::kClamp, {input(kF16, {3})}, ClampAttrs{1.0001, 1.0}), Shape{3});
  // In int64 both become INT64_MAX.
  EXPECT_EQ(shape(OpKind::kClamp, {input(kI64, {3})},
                  ClampAttrs{Number::from_uint64(UINT64_MAX), Number::from_int64(INT64_MAX)}),
            Shape{3});

  expect_error(OpKind::kClamp, {input(kF32, {3})}, ClampAttrs{2.0, 1.0}, "minValue");
  expect_error(OpKind::kClamp, {input(kF32, {3})}, ClampAttrs{1.0001, 1.0}, "minValue");
  expect_error(OpKind::kClamp, {input(kI8, {3})}, ClampAttrs{200.0, 100.0}, "minValue");  // 127 > 100
  expect_error(OpKind::kClamp, {input(kU64, {3})},
               ClampAttrs{Number::from_uint64(UINT64_MAX), Number::from_uint64(UINT64_MAX - 1)}, "minValue");
}

TEST_F(ElementwiseTest, CastChangesOnlyTheType) {
  for (DataType from : kAllDataTypes) {
    for (DataType to : kAllDataTypes) {
      CastAttrs attrs;
      attrs.data_type = to;
      EXPECT_EQ(output(OpKind::kCast, {input(from, {2, 3})}, attrs), (OperandDescriptor{to, {2, 3}}));
    }
  }
  CastAttrs attrs;
  attrs.data_type = kI8;
  EXPECT_EQ(output(OpKind::kCast, {input(kF32, {})}, attrs), (OperandDescriptor{kI8, {}}));
}

TEST_F(ElementwiseTest, WrongAttributeKindIsRejected) {
  expect_error(OpKind::kClamp, {input(kF32, {3})}, NoAttrs{}, "attributes");
  expect_error(OpKind::kElu, {input(kF32, {3})}, LeakyReluAttrs{}, "attributes");
  expect_error(OpKind::kPrelu, {input(kF32, {3}), input(kF32, {3})}, EluAttrs{}, "attributes");
}

TEST_F(ElementwiseTest, LabelIsInTheMessage) {
  const size_t before = builder_.graph().operations.size();
  try {
    builder_.add_operation(OpKind::kAdd, {input(kF32, {2}), input(kF32, {3})}, NoAttrs{}, "add#1234");
    FAIL() << "expected a TypeError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    EXPECT_NE(e.message().find("add#1234"), std::string::npos) << e.message();
  }
  EXPECT_EQ(builder_.graph().operations.size(), before);
}

TEST_F(ElementwiseTest, OutputsChainIntoLaterOperations) {
  const OperandId a = input(kF32, {2, 1});
  const OperandId sum = builder_.add_operation(OpKind::kAdd, {a, input(kF32, {3})}, NoAttrs{})[0];
  EXPECT_EQ(builder_.desc(sum).shape, (Shape{2, 3}));
  EXPECT_EQ(shape(OpKind::kRelu, {sum}, NoAttrs{}), (Shape{2, 3}));
  EXPECT_EQ(builder_.graph().operations.size(), 2u);
}

}  // namespace
}  // namespace webnn::testing
