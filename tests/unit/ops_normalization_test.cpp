// batchNormalization, instanceNormalization, layerNormalization, softmax and reduceMean: shapes and
// error rules.
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

class NormalizationTest : public OpsTest {
 protected:
  LayerNormalizationAttrs ln(OptionalDims axes, std::optional<Shape> scale = {}, std::optional<Shape> bias = {},
                             DataType type = kF32) {
    LayerNormalizationAttrs a;
    a.axes = std::move(axes);
    if (scale) a.scale = ref(type, *scale);
    if (bias) a.bias = ref(type, *bias);
    return a;
  }
};

TEST_F(NormalizationTest, LayerNormalizationKeepsTheInputDescriptor) {
  const OperandDescriptor in{kF32, {2, 3, 4}};
  EXPECT_EQ(output(OpKind::kLayerNormalization, {input(kF32, {2, 3, 4})}, ln({}, Shape{3, 4}, Shape{3, 4})), in);
  EXPECT_EQ(output(OpKind::kLayerNormalization, {input(kF32, {2, 3, 4})}, ln({{2}}, Shape{4}, Shape{4})), in);
  EXPECT_EQ(output(OpKind::kLayerNormalization, {input(kF32, {2, 3, 4})}, ln({{0, 2}}, Shape{2, 4})), in);
  // The order of axes gives the order of the scale's dimensions.
  EXPECT_EQ(output(OpKind::kLayerNormalization, {input(kF32, {2, 3, 4})}, ln({{2, 0}}, Shape{4, 2})), in);
  EXPECT_EQ(output(OpKind::kLayerNormalization, {input(kF32, {2, 3, 4})}, ln({{}}, Shape{}, Shape{})), in);
  // Rank 1 input: the default axes are empty, so scale is a scalar.
  EXPECT_EQ(shape(OpKind::kLayerNormalization, {input(kF32, {5})}, ln({}, Shape{})), Shape{5});
  EXPECT_EQ(shape(OpKind::kLayerNormalization, {input(kF32, {})}, ln({})), Shape{});
  EXPECT_EQ(output(OpKind::kLayerNormalization, {input(kF16, {2, 3})}, ln({}, Shape{3}, {}, kF16)),
            (OperandDescriptor{kF16, {2, 3}}));
}

TEST_F(NormalizationTest, LayerNormalizationErrors) {
  const OpKind k = OpKind::kLayerNormalization;
  expect_error(k, {input(kI32, {2, 3})}, ln({}), "int32");
  expect_error(k, {input(kF32, {2, 3, 4})}, ln({{1, 1}}), "more than once");
  expect_error(k, {input(kF32, {2, 3, 4})}, ln({{3}}), "out of range");
  expect_error(k, {input(kF32, {2, 3, 4})}, ln({}, Shape{4}), "scale must have rank 2");
  expect_error(k, {input(kF32, {2, 3, 4})}, ln({}, Shape{4, 3}), "scale shape");
  expect_error(k, {input(kF32, {2, 3, 4})}, ln({}, {}, Shape{3, 5}), "bias shape");
  expect_error(k, {input(kF32, {2, 3, 4})}, ln({{1}}, {}, Shape{3, 1}), "bias must have rank 1");
  expect_error(k, {input(kF32, {2, 3, 4})}, ln({}, Shape{3, 4}, {}, kF16), "scale must have the same data type");
  LayerNormalizationAttrs a = ln({});
  a.bias = ref(kF16, {3, 4});
  expect_error(k, {input(kF32, {2, 3, 4})}, a, "bias must have the same data type");
}

TEST_F(NormalizationTest, BatchNormalizationKeepsTheInputDescriptor) {
  const OpKind k = OpKind::kBatchNormalization;
  // Default axis 1; mean and variance have the size of that dimension.
  EXPECT_EQ(output(k, {input(kF32, {2, 3, 4, 5}), input(kF32, {3}), input(kF32, {3})}, BatchNormalizationAttrs{}),
            (OperandDescriptor{kF32, {2, 3, 4, 5}}));
  BatchNormalizationAttrs a;
  a.axis = 3;
  a.scale = ref(kF16, {5});
  a.bias = ref(kF16, {5});
  a.epsilon = 1e-3;
  EXPECT_EQ(output(k, {input(kF16, {2, 3, 4, 5}), input(kF16, {5}), input(kF16, {5})}, a),
            (OperandDescriptor{kF16, {2, 3, 4, 5}}));
  // Rank 1 (axis 0) to rank 6: the allowed ranks are 1 to N.
  BatchNormalizationAttrs axis0;
  axis0.axis = 0;
  EXPECT_EQ(shape(k, {input(kF32, {6}), input(kF32, {6}), input(kF32, {6})}, axis0), Shape{6});
  EXPECT_EQ(shape(k, {input(kF32, {1, 2, 1, 1, 1, 3}), input(kF32, {2}), input(kF32, {2})}, BatchNormalizationAttrs{}),
            (Shape{1, 2, 1, 1, 1, 3}));
}

TEST_F(NormalizationTest, BatchNormalizationErrors) {
  const OpKind k = OpKind::kBatchNormalization;
  const BatchNormalizationAttrs none;
  expect_error(k, {input(kI32, {2, 3}), input(kI32, {3}), input(kI32, {3})}, none, "int32");
  expect_error(k, {input(kF32, {}), input(kF32, {1}), input(kF32, {1})}, none, "input must be");
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3})}, none, "3 positional");
  BatchNormalizationAttrs axis;
  axis.axis = 2;
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3}), input(kF32, {3})}, axis,
               "axis 2 must be less than the input rank 2");
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {2}), input(kF32, {3})}, none,
               "mean shape [2] must be [3] (the input's size along axis 1)");
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {1, 3}), input(kF32, {3})}, none, "mean must be");
  expect_error(k, {input(kF32, {2, 3}), input(kF16, {3}), input(kF32, {3})}, none, "mean must have the same data type");
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3}), input(kF32, {2})}, none, "variance shape [2] must be [3]");
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3}), input(kF32, {})}, none, "variance must be");
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3}), input(kF16, {3})}, none, "variance must have the same");
  BatchNormalizationAttrs p;
  p.scale = ref(kF32, {2});
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3}), input(kF32, {3})}, p, "scale shape [2] must be [3]");
  p.scale = ref(kF16, {3});
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3}), input(kF32, {3})}, p, "scale must have the same data type");
  p = {};
  p.bias = ref(kF32, {3, 1});
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3}), input(kF32, {3})}, p, "bias must be");
  p.bias = ref(kF32, {4});
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3}), input(kF32, {3})}, p, "bias shape [4] must be [3]");
  p.bias = ref(kF16, {3});
  expect_error(k, {input(kF32, {2, 3}), input(kF32, {3}), input(kF32, {3})}, p, "bias must have the same data type");
}

TEST_F(NormalizationTest, InstanceNormalizationKeepsTheInputDescriptor) {
  const OpKind k = OpKind::kInstanceNormalization;
  EXPECT_EQ(output(k, {input(kF32, {2, 3, 4, 5})}, InstanceNormalizationAttrs{}),
            (OperandDescriptor{kF32, {2, 3, 4, 5}}));
  InstanceNormalizationAttrs a;
  a.scale = ref(kF16, {3});
  a.bias = ref(kF16, {3});
  EXPECT_EQ(output(k, {input(kF16, {2, 3, 4, 5})}, a), (OperandDescriptor{kF16, {2, 3, 4, 5}}));
  InstanceNormalizationAttrs nhwc;
  nhwc.layout = InputLayout::kNhwc;  // the channels are the last dimension
  nhwc.scale = ref(kF32, {5});
  nhwc.bias = ref(kF32, {5});
  nhwc.epsilon = 0.5;
  EXPECT_EQ(shape(k, {input(kF32, {2, 3, 4, 5})}, nhwc), (Shape{2, 3, 4, 5}));
}

TEST_F(NormalizationTest, InstanceNormalizationErrors) {
  const OpKind k = OpKind::kInstanceNormalization;
  expect_error(k, {input(kI32, {2, 3, 4, 5})}, InstanceNormalizationAttrs{}, "int32");
  expect_error(k, {input(kF32, {2, 3, 4})}, InstanceNormalizationAttrs{}, "input must be");
  expect_error(k, {input(kF32, {1, 2, 3, 4, 5})}, InstanceNormalizationAttrs{}, "input must be");
  InstanceNormalizationAttrs a;
  a.scale = ref(kF32, {5});  // nchw: channels are 3
  expect_error(k, {input(kF32, {2, 3, 4, 5})}, a, "scale shape [5] must be [3] (the input's size along axis 1)");
  a.scale = ref(kF32, {1, 3});
  expect_error(k, {input(kF32, {2, 3, 4, 5})}, a, "scale must be");
  a.scale = ref(kF16, {3});
  expect_error(k, {input(kF32, {2, 3, 4, 5})}, a, "scale must have the same data type");
  InstanceNormalizationAttrs b;
  b.layout = InputLayout::kNhwc;
  b.bias = ref(kF32, {3});  // nhwc: channels are 5
  expect_error(k, {input(kF32, {2, 3, 4, 5})}, b, "bias shape [3] must be [5] (the input's size along axis 3)");
  b.bias = ref(kF16, {5});
  expect_error(k, {input(kF32, {2, 3, 4, 5})}, b, "bias must have the same data type");
}

TEST_F(NormalizationTest, Softmax) {
  EXPECT_EQ(output(OpKind::kSoftmax, {input(kF32, {2, 3})}, SoftmaxAttrs{1}), (OperandDescriptor{kF32, {2, 3}}));
  EXPECT_EQ(output(OpKind::kSoftmax, {input(kF16, {4, 2, 3})}, SoftmaxAttrs{0}), (OperandDescriptor{kF16, {4, 2, 3}}));
  expect_error(OpKind::kSoftmax, {input(kF32, {2, 3})}, SoftmaxAttrs{2}, "axis");
  expect_error(OpKind::kSoftmax, {input(kF32, {})}, SoftmaxAttrs{0}, "input");
  expect_error(OpKind::kSoftmax, {input(kI32, {2, 3})}, SoftmaxAttrs{1}, "int32");
}

TEST_F(NormalizationTest, ReduceMeanShapes) {
  auto reduce = [&](Shape in, OptionalDims axes, bool keep) {
    ReduceAttrs a;
    a.axes = std::move(axes);
    a.keep_dimensions = keep;
    return shape(OpKind::kReduceMean, {input(kF32, std::move(in))}, a);
  };
  EXPECT_EQ(reduce({2, 3, 4}, {}, false), Shape{});
  EXPECT_EQ(reduce({2, 3, 4}, {}, true), (Shape{1, 1, 1}));
  EXPECT_EQ(reduce({2, 3, 4}, {{1}}, false), (Shape{2, 4}));
  EXPECT_EQ(reduce({2, 3, 4}, {{1}}, true), (Shape{2, 1, 4}));
  EXPECT_EQ(reduce({2, 3, 4}, {{2, 0}}, true), (Shape{1, 3, 1}));
  EXPECT_EQ(reduce({2, 3, 4}, {{2, 0}}, false), (Shape{3}));
  EXPECT_EQ(reduce({2, 3, 4}, {{}}, false), (Shape{2, 3, 4}));  // an empty list reduces nothing
  EXPECT_EQ(reduce({}, {}, false), Shape{});
  EXPECT_EQ(reduce({}, {}, true), Shape{});
  EXPECT_EQ(output(OpKind::kReduceMean, {input(kF16, {2, 3})}, ReduceAttrs{}), (OperandDescriptor{kF16, {}}));
}

TEST_F(NormalizationTest, ReduceMeanErrors) {
  ReduceAttrs a;
  a.axes = {{0, 0}};
  expect_error(OpKind::kReduceMean, {input(kF32, {2, 3})}, a, "more than once");
  a.axes = {{2}};
  expect_error(OpKind::kReduceMean, {input(kF32, {2, 3})}, a, "out of range");
  a.axes = {{0}};
  expect_error(OpKind::kReduceMean, {input(kF32, {})}, a, "out of range");
  expect_error(OpKind::kReduceMean, {input(kI32, {2, 3})}, ReduceAttrs{}, "int32");
}

}  // namespace
}  // namespace webnn::testing
