// MLGraphBuilder / MLOperand: handle checks ("can build", "validating operand"), option mapping,
// the three constant() overloads and build().
#include <gtest/gtest.h>

#include <cstring>

#include "api/impl.hpp"
#include "webnn/webnn.hpp"

namespace webnn {
namespace {

std::vector<std::byte> f32_bytes(std::vector<float> values) {
  std::vector<std::byte> out(values.size() * sizeof(float));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

template <class Fn>
void expect_error(ErrorKind kind, Fn&& fn, const std::string& fragment = {}) {
  try {
    fn();
    ADD_FAILURE() << "expected " << to_string(kind);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    if (!fragment.empty()) EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
  }
}

class ApiBuilderTest : public ::testing::Test {
 protected:
  MLContext context_ = ML::create_context({});
};

// The caller's label leads the message in brackets (WPT's validation tests look for "[label]"),
// escaped so that a bidirectional control cannot reorder the text around it.
TEST_F(ApiBuilderTest, ErrorsNameTheLabelInBrackets) {
  MLGraphBuilder b(context_);
  MLOperand x = b.input("x", {DataType::kFloat32, {2, 3}});
  expect_error(
      ErrorKind::kTypeError, [&] { b.matmul(x, x, {"mm_1"}); }, "[mm_1] matmul: ");
  expect_error(
      ErrorKind::kTypeError,
      [&] {
        b.matmul(x, x,
                 {"a\xe2\x80\xae"
                  "b\xe2\x81\xa9"
                  "c"});
      },
      "[a\\u202eb\\u2069c] matmul: ");
  EXPECT_EQ(escaped("x\ny\"z"), "x\\x0ay\\\"z");
  EXPECT_EQ(quote("\xe2\x80\xaa"), "\"\\u202a\"");
}

TEST_F(ApiBuilderTest, OperandsReportTheirDescriptors) {
  MLGraphBuilder b(context_);
  MLOperand x = b.input("x", {DataType::kFloat32, {2, 1}});
  MLOperand y = b.input("y", {DataType::kFloat32, {3}});
  MLOperand z = b.add(x, y);
  EXPECT_EQ(z.data_type(), DataType::kFloat32);
  EXPECT_EQ(z.shape(), (Shape{2, 3}));
  MLOperand c = b.cast(z, DataType::kInt8);
  EXPECT_EQ(c.data_type(), DataType::kInt8);
  auto parts = b.split(z, std::vector<uint32_t>{1, 2}, {.axis = 1});
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[1].shape(), (Shape{2, 2}));
}

TEST_F(ApiBuilderTest, OptionsMapOntoTheOperation) {
  MLGraphBuilder b(context_);
  MLOperand x = b.input("x", {DataType::kFloat32, {1, 5, 5, 2}});
  MLOperand w = b.input("w", {DataType::kFloat32, {3, 3, 2, 4}});
  MLConv2dOptions conv;
  conv.input_layout = "nhwc";
  conv.filter_layout = "hwio";
  conv.padding = std::vector<uint32_t>{1, 1, 1, 1};
  conv.strides = std::vector<uint32_t>{2, 2};
  conv.bias = b.input("bias", {DataType::kFloat32, {4}});
  EXPECT_EQ(b.conv2d(x, w, conv).shape(), (Shape{1, 3, 3, 4}));  // (5 - 3 + 2) / 2 + 1
  MLPool2dOptions pool;
  pool.layout = "nhwc";
  pool.window_dimensions = std::vector<uint32_t>{2, 2};
  pool.strides = std::vector<uint32_t>{2, 2};
  pool.output_shape_rounding = "ceil";
  EXPECT_EQ(b.max_pool2d(x, pool).shape(), (Shape{1, 3, 3, 2}));  // ceil(3 / 2 + 1)
  pool.output_shape_rounding = "floor";
  EXPECT_EQ(b.average_pool2d(x, pool).shape(), (Shape{1, 2, 2, 2}));
  const Graph& g = detail::impl_of(b)->ir.graph();
  ASSERT_EQ(g.operations.size(), 3u);
  const auto& attrs = std::get<Conv2dAttrs>(g.operations[0].attrs);
  EXPECT_EQ(attrs.input_layout, InputLayout::kNhwc);
  EXPECT_EQ(attrs.filter_layout, Conv2dFilterLayout::kHwio);
  EXPECT_TRUE(attrs.bias.has_value());
  EXPECT_EQ(std::get<Pool2dAttrs>(g.operations[1].attrs).output_shape_rounding, RoundingType::kCeil);
}

TEST_F(ApiBuilderTest, UnknownOptionStringsAreTypeErrors) {
  MLGraphBuilder b(context_);
  MLOperand x = b.input("x", {DataType::kFloat32, {1, 1, 4, 4}});
  MLConv2dOptions conv;
  conv.input_layout = "NCHW";
  expect_error(
      ErrorKind::kTypeError, [&] { b.conv2d(x, x, conv); }, "inputLayout");
  conv.input_layout = "nchw";
  conv.filter_layout = "oihw ";
  expect_error(
      ErrorKind::kTypeError, [&] { b.conv2d(x, x, conv); }, "filterLayout");
  MLPool2dOptions pool;
  pool.output_shape_rounding = "round";
  expect_error(
      ErrorKind::kTypeError, [&] { b.max_pool2d(x, pool); }, "outputShapeRounding");
  EXPECT_TRUE(detail::impl_of(b)->ir.graph().operations.empty());
}

TEST_F(ApiBuilderTest, OperandsOfAnotherBuilderAreRejected) {
  MLGraphBuilder b1(context_), b2(context_);
  MLOperand x1 = b1.input("x", {DataType::kFloat32, {2}});
  MLOperand x2 = b2.input("x", {DataType::kFloat32, {2}});
  expect_error(
      ErrorKind::kTypeError, [&] { b1.add(x1, x2); }, "not an operand of this graph builder");
  expect_error(
      ErrorKind::kTypeError, [&] { b1.relu(MLOperand{}); }, "input");
  MLGemmOptions gemm;
  gemm.c = b2.input("c", {DataType::kFloat32, {2}});
  MLOperand m = b1.input("m", {DataType::kFloat32, {2, 2}});
  expect_error(
      ErrorKind::kTypeError, [&] { b1.gemm(m, m, gemm); }, "c");
  expect_error(
      ErrorKind::kTypeError,
      [&] {
        b1.concat({x1, x2}, 0);
      },
      "inputs[1]");
  expect_error(
      ErrorKind::kTypeError,
      [&] {
        b1.build({{"out", b2.relu(x2)}});
      },
      "out");
  EXPECT_TRUE(detail::impl_of(b1)->ir.graph().operations.empty());
}

TEST_F(ApiBuilderTest, ScalarConstantsAreCastToTheirType) {
  MLGraphBuilder b(context_);
  auto byte_of = [&](const MLOperand& c) { return detail::impl_of(b)->ir.graph().constant_data(c.id()).span(); };
  MLOperand i8 = b.constant(DataType::kInt8, 300.0);
  EXPECT_EQ(i8.shape(), Shape{});
  EXPECT_EQ(static_cast<int8_t>(byte_of(i8)[0]), 127);
  MLOperand u8 = b.constant(DataType::kUint8, -3.0);
  EXPECT_EQ(static_cast<uint8_t>(byte_of(u8)[0]), 0);
  MLOperand i64 = b.constant(DataType::kInt64, Number::from_int64(INT64_MIN));
  int64_t v = 0;
  std::memcpy(&v, byte_of(i64).data(), 8);
  EXPECT_EQ(v, INT64_MIN);
  MLOperand f16 = b.constant(DataType::kFloat16, 1.0);
  uint16_t h = 0;
  std::memcpy(&h, byte_of(f16).data(), 2);
  EXPECT_EQ(h, 0x3c00);
}

TEST_F(ApiBuilderTest, BufferConstantsAreCheckedAgainstTheDescriptor) {
  MLGraphBuilder b(context_);
  const auto bytes = f32_bytes({1, 2, 3});
  EXPECT_EQ(b.constant({DataType::kFloat32, {3}}, bytes).shape(), Shape{3});
  expect_error(ErrorKind::kTypeError, [&] { b.constant({DataType::kFloat32, {4}}, bytes); });
  expect_error(ErrorKind::kTypeError, [&] { b.constant({DataType::kFloat32, {3, 0}}, bytes); });
}

TEST_F(ApiBuilderTest, TensorConstantsShareTheTensorBytes) {
  const auto bytes = f32_bytes({1, 2, 3, 4});
  MLTensor t = context_.create_constant_tensor({DataType::kFloat32, {2, 2}}, bytes);
  MLGraphBuilder b(context_);
  MLOperand c = b.constant(t);
  EXPECT_EQ(c.shape(), (Shape{2, 2}));
  EXPECT_EQ(detail::impl_of(b)->ir.graph().constant_data(c.id()).data.get(),
            detail::impl_of(t)->constant_data.data.get());

  MLContext other = ML::create_context({});
  MLTensor foreign = other.create_constant_tensor({DataType::kFloat32, {2, 2}}, bytes);
  expect_error(
      ErrorKind::kTypeError, [&] { b.constant(foreign); }, "another context");
  MLTensor plain = context_.create_tensor({DataType::kFloat32, {2, 2}, true, true});
  expect_error(
      ErrorKind::kTypeError, [&] { b.constant(plain); }, "not a constant");
  MLTensor gone = context_.create_constant_tensor({DataType::kFloat32, {2, 2}}, bytes);
  gone.destroy();
  expect_error(
      ErrorKind::kTypeError, [&] { b.constant(gone); }, "destroyed");
}

TEST_F(ApiBuilderTest, BuildRejectsADestroyedConstantTensor) {
  MLTensor t = context_.create_constant_tensor({DataType::kFloat32, {2}}, f32_bytes({1, 2}));
  MLGraphBuilder b(context_);
  MLOperand y = b.add(b.input("x", {DataType::kFloat32, {2}}), b.constant(t));
  t.destroy();
  expect_error(
      ErrorKind::kTypeError,
      [&] {
        b.build({{"y", y}});
      },
      "destroyed");
}

TEST_F(ApiBuilderTest, BuildsOnceAndThenRefusesWork) {
  MLGraphBuilder b(context_);
  MLOperand x = b.input("x", {DataType::kFloat32, {2}});
  MLOperand y = b.relu(x);
  expect_error(ErrorKind::kTypeError, [&] { b.build({}); });
  expect_error(ErrorKind::kTypeError, [&] { b.build({{"x", x}}); });  // an input cannot be an output
  MLGraph g = b.build({{"y", y}});
  EXPECT_EQ(g.output_descriptors().at("y"), (OperandDescriptor{DataType::kFloat32, {2}}));
  EXPECT_EQ(g.input_descriptors().at("x"), (OperandDescriptor{DataType::kFloat32, {2}}));
  expect_error(ErrorKind::kInvalidStateError, [&] { b.build({{"y", y}}); });
  expect_error(ErrorKind::kInvalidStateError, [&] { b.relu(x); });
  expect_error(ErrorKind::kInvalidStateError, [&] { b.input("z", {DataType::kFloat32, {2}}); });
  expect_error(ErrorKind::kInvalidStateError, [&] { b.constant(DataType::kFloat32, 1.0); });
}

TEST_F(ApiBuilderTest, LostContexts) {
  MLContext ctx = ML::create_context({});
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {DataType::kFloat32, {2}});
  ctx.destroy();
  expect_error(
      ErrorKind::kInvalidStateError, [&] { b.relu(x); }, "lost");
  expect_error(
      ErrorKind::kInvalidStateError,
      [&] {
        b.input("y", {DataType::kFloat32, {2}});
      },
      "lost");
  expect_error(
      ErrorKind::kInvalidStateError, [&] { MLGraphBuilder again(ctx); }, "lost");
}

TEST_F(ApiBuilderTest, ValidationErrorsComeFromTheSpecSteps) {
  MLGraphBuilder b(context_);
  MLOperand x = b.input("x", {DataType::kFloat32, {2, 3}});
  expect_error(
      ErrorKind::kTypeError, [&] { b.softmax(x, 2, {{"softmax#1"}}); }, "softmax#1");
  MLClampOptions clamp;
  clamp.min_value = 2.0;
  clamp.max_value = 1.0;
  expect_error(
      ErrorKind::kTypeError, [&] { b.clamp(x, clamp); }, "minValue");
  expect_error(
      ErrorKind::kTypeError, [&] { b.reshape(x, {4}); }, "reshape");
  EXPECT_EQ(b.transpose(x).shape(), (Shape{3, 2}));
  EXPECT_EQ(b.slice(x, {0, 1}, {2, 2}).shape(), (Shape{2, 2}));
  MLReduceOptions reduce;
  reduce.axes = std::vector<uint32_t>{1};
  reduce.keep_dimensions = true;
  EXPECT_EQ(b.reduce_mean(x, reduce).shape(), (Shape{2, 1}));
  EXPECT_EQ(b.matmul(x, b.input("w", {DataType::kFloat32, {3, 4}})).shape(), (Shape{2, 4}));
  EXPECT_EQ(b.layer_normalization(x).shape(), (Shape{2, 3}));
}

}  // namespace
}  // namespace webnn
