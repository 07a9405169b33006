// Imported ONNX models' inputs through the C++ API, on every backend: an input with a default
// value (an initializer of its name) runs on it when compute() is not given the input and on the
// caller's value when it is; dispatch() still needs every input; an input the graph reads only
// through Shape is an input like the others.
#include <gtest/gtest.h>

#include <cstring>

#include "backends/backend.hpp"
#include "runtime/handles.hpp"
#include "unit/onnx_test_model.hpp"
#include "webnn/webnn.hpp"

namespace webnn {
namespace {

using formats::testing::kOnnxFloat;
using formats::testing::OnnxModel;

HostTensor f32(Shape shape, std::vector<float> values) {
  HostTensor t{{DataType::kFloat32, std::move(shape)}, std::vector<std::byte>(values.size() * 4)};
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

std::vector<float> floats(const HostTensor& t) {
  std::vector<float> v(t.data.size() / 4);
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

class OnnxInputs : public ::testing::TestWithParam<std::string> {
 protected:
  MLContext context() {
    MLContextOptions o;
    o.backend = GetParam();
    return ML::create_context(o);
  }
};

TEST_P(OnnxInputs, ComputeRunsAnInputWithADefaultOnItUnlessItIsGiven) {
  OnnxModel m;
  m.input("x", kOnnxFloat, {2});
  m.input("w", kOnnxFloat, {2});
  m.floats("w", {2}, {10, 20});
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  MLContext ctx = context();
  MLGraph g = detail::context_build_graph(ctx, m.import());
  ASSERT_EQ(g.input_descriptors().size(), 2u);
  EXPECT_EQ(floats(ctx.compute(g, {{"x", f32({2}, {1, 2})}}).at("y")), (std::vector<float>{11, 22}));
  EXPECT_EQ(floats(ctx.compute(g, {{"x", f32({2}, {1, 2})}, {"w", f32({2}, {100, 200})}}).at("y")),
            (std::vector<float>{101, 202}));
  // A required input is still required, and dispatch() takes no defaults: it needs every tensor.
  try {
    ctx.compute(g, {{"w", f32({2}, {1, 1})}});
    ADD_FAILURE() << "expected a TypeError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    EXPECT_NE(e.message().find("input \"x\""), std::string::npos) << e.message();
  }
  MLTensor x = ctx.create_tensor({DataType::kFloat32, {2}, false, true});
  MLTensor y = ctx.create_tensor({DataType::kFloat32, {2}, true, false});
  try {
    ctx.dispatch(g, {{"x", x}}, {{"y", y}});
    ADD_FAILURE() << "expected a TypeError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
  }
}

TEST_P(OnnxInputs, AnInputReadOnlyThroughShapeIsFedLikeAnyOther) {
  OnnxModel m;
  m.input("x", kOnnxFloat, {2, 3});
  m.floats("w", {6}, {1, 2, 3, 4, 5, 6});
  m.node("Shape", {"x"}, {"s"});
  m.node("Reshape", {"w", "s"}, {"r"});
  m.node("Relu", {"r"}, {"y"});
  m.output("y");
  MLContext ctx = context();
  MLGraph g = detail::context_build_graph(ctx, m.import());
  ASSERT_EQ(g.input_descriptors().count("x"), 1u);
  auto out = ctx.compute(g, {{"x", f32({2, 3}, {0, 0, 0, 0, 0, 0})}});
  EXPECT_EQ(out.at("y").desc.shape, (Shape{2, 3}));
  EXPECT_EQ(floats(out.at("y")), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const Backend* b : available_backends()) names.push_back(std::string(b->name()));
  return names;
}

INSTANTIATE_TEST_SUITE_P(Backends, OnnxInputs, ::testing::ValuesIn(backend_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace webnn
