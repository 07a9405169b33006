// Model, the graph as data (include/webnn/webnn.hpp), and the public entry points the front ends
// use instead of the library's private state: what each returns and how each refuses bad input.
// The values of a saved, loaded and rebuilt model are checked by the installed-package consumer
// (tests/install/consumer/api_surface.cpp), which sees only the public headers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "unit/onnx_test_model.hpp"
#include "webnn/webnn.hpp"

namespace webnn {
namespace {

template <class F>
Error error_of(F&& f) {
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
  EXPECT_EQ(error_of([&] { (void)empty.inputs(); }).kind(), ErrorKind::kTypeError);
  EXPECT_EQ(error_of([&] { empty.save("/tmp/never.json"); }).kind(), ErrorKind::kTypeError);
  MLContext ctx = reference_context();
  const Error e = error_of([&] { ctx.build(empty); });
  EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
  EXPECT_NE(e.message().find("build: the model is an empty handle"), std::string::npos) << e.message();
}

TEST(ApiModel, LoadingAMissingFileNamesIt) {
  const Error e = error_of([] { Model::load("/nonexistent/dir/graph.json"); });
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
  const Error e = error_of([&] { a.build_model({{"out", foreign}}); });
  EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
  EXPECT_NE(e.message().find("output \"out\""), std::string::npos) << e.message();
  // Not built: the builder goes on, and builds once.
  const Model model = a.build_model({{"out", a.relu(x)}});
  EXPECT_EQ(model.operation_count(), 1u);
  EXPECT_EQ(error_of([&] { a.build_model({{"out", x}}); }).kind(), ErrorKind::kInvalidStateError);
}

TEST(ApiModel, OperandByIdIsCheckedAgainstTheBuilder) {
  MLContext ctx = reference_context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {DataType::kFloat32, {2}});
  MLOperand y = b.relu(x);
  EXPECT_EQ(b.operand(y.id()).shape(), (Shape{2}));
  EXPECT_EQ(x.name(), "x");
  EXPECT_EQ(y.name(), "");
  const Error e = error_of([&] { b.operand(99); });
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
  EXPECT_EQ(error_of([&] { ctx.on_lost({}); }).kind(), ErrorKind::kTypeError);
}

}  // namespace
}  // namespace webnn
