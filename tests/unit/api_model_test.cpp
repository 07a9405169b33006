// Model, the graph as data (include/webnn/webnn.hpp), and the public entry points the front ends
// use instead of the library's private state: what each returns and how each refuses bad input.
// The values of a saved, loaded and rebuilt model are checked by the installed-package consumer
// (tests/install/consumer/api_surface.cpp), which sees only the public headers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <set>

#include "unit/onnx_test_model.hpp"
#include "webnn/webnn.hpp"

namespace webnn {
namespace {

template <class F>
Error thrown_by(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected a webnn::Error";
  return Error(ErrorKind::kUnknownError, "none");
}

MLContext reference_context() {
  MLContextOptions o;
  o.backend = "reference";
  return ML::create_context(o);
}

TEST(ApiModel, AnEmptyHandleIsATypeError) {
  const Model empty;
  EXPECT_FALSE(empty);
  EXPECT_EQ(thrown_by([&] { (void)empty.inputs(); }).kind(), ErrorKind::kTypeError);
  EXPECT_EQ(thrown_by([&] { empty.save("/tmp/never.json"); }).kind(), ErrorKind::kTypeError);
  MLContext ctx = reference_context();
  const Error e = thrown_by([&] { ctx.build(empty); });
  EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
  EXPECT_NE(e.message().find("build: the model is an empty handle"), std::string::npos) << e.message();
}

TEST(ApiModel, LoadingAMissingFileNamesIt) {
  const Error e = thrown_by([] { Model::load("/nonexistent/dir/graph.json"); });
  EXPECT_NE(e.message().find("/nonexistent/dir/graph.json"), std::string::npos) << e.message();
}

TEST(ApiModel, AnImportedInputWithAnInitializerHasItsDefaultValue) {
  formats::testing::OnnxModel m;
  m.input("x", formats::testing::kOnnxFloat, {2});
  m.input("w", formats::testing::kOnnxFloat, {2});
  m.floats("w", {2}, {10, 20});
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "api_model_defaults.onnx";
  std::ofstream(path, std::ios::binary) << m.bytes();
  const Model model = Model::load(path.string());
  std::filesystem::remove(path);
  const std::vector<ModelOperand> inputs = model.inputs();
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[0].name, "x");
  EXPECT_TRUE(inputs[0].default_value.empty());
  EXPECT_EQ(inputs[1].name, "w");
  ASSERT_EQ(inputs[1].default_value.size(), 8u);
  float w[2];
  std::memcpy(w, inputs[1].default_value.data(), 8);
  EXPECT_EQ(w[0], 10.0f);
  EXPECT_EQ(w[1], 20.0f);
  EXPECT_EQ(model.operation_counts(), (std::map<std::string, size_t>{{"add", 1}}));
}

TEST(ApiModel, AFailedBuildModelLeavesTheBuilderAsItWas) {
  MLContext ctx = reference_context();
  MLGraphBuilder a(ctx), b(ctx);
  MLOperand x = a.input("x", {DataType::kFloat32, {2}});
  MLOperand foreign = b.input("y", {DataType::kFloat32, {2}});
  const Error e = thrown_by([&] { a.build_model({{"out", foreign}}); });
  EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
  EXPECT_NE(e.message().find("output \"out\""), std::string::npos) << e.message();
  // Not built: the builder goes on, and builds once.
  const Model model = a.build_model({{"out", a.relu(x)}});
  EXPECT_EQ(model.operation_count(), 1u);
  EXPECT_EQ(thrown_by([&] { a.build_model({{"out", x}}); }).kind(), ErrorKind::kInvalidStateError);
}

TEST(ApiModel, OperandByIdIsCheckedAgainstTheBuilder) {
  MLContext ctx = reference_context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {DataType::kFloat32, {2}});
  MLOperand y = b.relu(x);
  EXPECT_EQ(b.operand(y.id()).shape(), (Shape{2}));
  EXPECT_EQ(x.name(), "x");
  EXPECT_EQ(y.name(), "");
  const Error e = thrown_by([&] { b.operand(99); });
  EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
  EXPECT_NE(e.message().find("99"), std::string::npos) << e.message();
}

TEST(ApiModel, AGraphKeepsItsModelAfterDestroy) {
  MLContext ctx = reference_context();
  MLGraphBuilder b(ctx);
  MLGraph g = b.build({{"y", b.relu(b.input("x", {DataType::kFloat32, {2}}))}});
  g.destroy();
  EXPECT_EQ(g.model().operation_count(), 1u);
  // ... and it compiles again, on the same context.
  MLGraph again = ctx.build(g.model());
  EXPECT_TRUE(again.belongs_to(ctx));
}

TEST(ApiModel, WhenReachedAndOnLostOnALostContext) {
  MLContext ctx = reference_context();
  ctx.destroy();
  std::promise<std::exception_ptr> reached;
  ctx.when_reached(MLTensor(), [&](std::exception_ptr e) { reached.set_value(e); });
  std::exception_ptr error = reached.get_future().get();
  ASSERT_NE(error, nullptr);
  try {
    std::rethrow_exception(error);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidStateError);
  }
  std::string message;
  ctx.on_lost([&](const MLContextLostInfo& info) { message = info.message; });  // at once: it is lost
  EXPECT_EQ(message, "destroy() was called");
  EXPECT_EQ(thrown_by([&] { ctx.on_lost({}); }).kind(), ErrorKind::kTypeError);
}

}  // namespace
}  // namespace webnn

namespace webnn {
namespace {

const MLOperatorInfo& info_of(const std::string& name) {
  for (const MLOperatorInfo& op : operators())
    if (op.name == name) return op;
  throw std::runtime_error("no operator " + name);
}

// The description against the spec's IDL (webnn.bs): conv2d(input, filter, MLConv2dOptions),
// concat(sequence<MLOperand> inputs, [EnforceRange] unsigned long axis), split(input, (unsigned
// long or sequence<unsigned long>) splits, ...) returning sequence<MLOperand>.
TEST(ApiOperators, TheDescriptionIsTheSpecsSignatures) {
  const MLOperatorInfo& conv = info_of("conv2d");
  EXPECT_EQ(conv.operands, (std::vector<std::string>{"input", "filter"}));
  EXPECT_TRUE(conv.parameters.empty());
  EXPECT_FALSE(conv.returns_sequence);
  bool layout = false, padding = false, bias = false;
  for (const MLArgumentInfo& o : conv.options) {
    if (o.name == "inputLayout") {
      layout = o.type == MLArgumentType::kEnum && o.values == std::vector<std::string>{"nchw", "nhwc"} &&
               o.default_value && std::get<std::string>(*o.default_value) == "nchw";
    }
    if (o.name == "padding") padding = o.type == MLArgumentType::kOptionalDimensions && !o.default_value;
    if (o.name == "bias") bias = o.type == MLArgumentType::kOptionalOperand;
  }
  EXPECT_TRUE(layout && padding && bias);

  const MLOperatorInfo& concat = info_of("concat");
  EXPECT_EQ(concat.operands, (std::vector<std::string>{"inputs[]"}));
  ASSERT_EQ(concat.parameters.size(), 1u);
  EXPECT_EQ(concat.parameters[0].name, "axis");
  EXPECT_EQ(concat.parameters[0].type, MLArgumentType::kUnsignedLong);

  const MLOperatorInfo& split = info_of("split");
  EXPECT_TRUE(split.returns_sequence);
  ASSERT_EQ(split.parameters.size(), 1u);
  EXPECT_EQ(split.parameters[0].type, MLArgumentType::kSplits);

  std::set<std::string> names;
  for (const MLOperatorInfo& op : operators()) EXPECT_TRUE(names.insert(op.name).second) << op.name;
}

MLContext reference() {
  MLContextOptions o;
  o.backend = "reference";
  return ML::create_context(o);
}

std::string message_of(const std::function<void()>& f, ErrorKind kind) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.message();
    return e.message();
  }
  ADD_FAILURE() << "expected a webnn::Error";
  return {};
}

TEST(ApiOperators, AddOperationBuildsWhatTheMethodBuilds) {
  MLContext ctx = reference();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {DataType::kFloat32, {1, 1, 4, 4}});
  MLOperand by_name =
      b.add_operation("averagePool2d", {x},
                      {{"windowDimensions", std::vector<uint32_t>{2, 2}}, {"strides", std::vector<uint32_t>{2, 2}}})
          .at(0);
  MLPool2dOptions o;
  o.window_dimensions = std::vector<uint32_t>{2, 2};
  o.strides = std::vector<uint32_t>{2, 2};
  MLOperand by_method = b.average_pool2d(x, o);
  EXPECT_EQ(by_name.shape(), (Shape{1, 1, 2, 2}));
  EXPECT_EQ(by_name.shape(), by_method.shape());
  std::vector<MLOperand> parts = b.add_operation("split", {x}, {{"splits", uint32_t{2}}, {"axis", uint32_t{3}}});
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[1].shape(), (Shape{1, 1, 4, 2}));
  MLOperand joined = b.add_operation("concat", {parts[0], parts[1]}, {{"axis", uint32_t{3}}}).at(0);
  EXPECT_EQ(joined.shape(), (Shape{1, 1, 4, 4}));
}

TEST(ApiOperators, AddOperationRefusesWhatTheMethodWouldAndNamesIt) {
  MLContext ctx = reference();
  MLGraphBuilder b(ctx), other(ctx);
  MLOperand x = b.input("x", {DataType::kFloat32, {2, 3}});
  MLOperand y = other.input("y", {DataType::kFloat32, {2, 3}});
  EXPECT_NE(message_of([&] { b.add_operation("frobnicate", {x}, {}); }, ErrorKind::kTypeError).find("\"frobnicate\""),
            std::string::npos);
  EXPECT_NE(message_of([&] { b.add_operation("add", {x}, {}); }, ErrorKind::kTypeError).find("takes 2 operands, got 1"),
            std::string::npos);
  EXPECT_NE(message_of(
                [&] {
                  b.add_operation("add", {x, y}, {});
                },
                ErrorKind::kTypeError)
                .find("add: b is not an operand of this graph builder"),
            std::string::npos);
  EXPECT_NE(message_of([&] { b.add_operation("concat", {x}, {}); }, ErrorKind::kTypeError)
                .find("the required parameter axis is missing"),
            std::string::npos);
  EXPECT_NE(message_of(
                [&] {
                  b.add_operation("relu", {x}, {{"alpha", 1.0}});
                },
                ErrorKind::kTypeError)
                .find("\"alpha\" is not one of its parameters or options"),
            std::string::npos);
  EXPECT_NE(message_of(
                [&] {
                  b.add_operation("softmax", {x}, {{"axis", 1.0}});
                },
                ErrorKind::kTypeError)
                .find("softmax: axis must be an unsigned long"),
            std::string::npos);
  EXPECT_NE(message_of(
                [&] {
                  b.add_operation("conv2d", {x, x}, {{"inputLayout", std::string("nhcw")}});
                },
                ErrorKind::kTypeError)
                .find("conv2d: inputLayout \"nhcw\" is not one of the allowed values"),
            std::string::npos);
  EXPECT_NE(message_of(
                [&] {
                  b.add_operation("conv2d", {x, x}, {{"bias", y}});
                },
                ErrorKind::kTypeError)
                .find("conv2d: bias is not an operand of this graph builder"),
            std::string::npos);
  // The op's own validation, led by the label.
  EXPECT_EQ(message_of(
                [&] {
                  b.add_operation("matmul", {x, x}, {}, "mm");
                },
                ErrorKind::kTypeError)
                .rfind("[mm] matmul:", 0),
            0u);
  // Nothing was added by the failures; "can build" comes first once the builder has built.
  b.build({{"x2", b.relu(x)}});
  message_of([&] { b.add_operation("add", {x, y}, {}); }, ErrorKind::kInvalidStateError);
  message_of([&] { b.check_can_build("relu"); }, ErrorKind::kInvalidStateError);
  EXPECT_TRUE(b.owns(x));
  EXPECT_FALSE(b.owns(y));
}

}  // namespace
}  // namespace webnn
