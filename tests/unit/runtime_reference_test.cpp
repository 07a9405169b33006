// The timeline end to end on the real reference backend, through MLGraphBuilder.
#include <gtest/gtest.h>

#include "runtime_fake_backend.hpp"

namespace webnn {
namespace {

using testing::to_bytes;
using testing::to_floats;

using testing::kDesc;

TEST(RuntimeReference, DispatchAddThenMulWithAConstantTensor) {
  MLContextOptions options;
  options.backend = "reference";
  MLContext ctx = ML::create_context(options);
  EXPECT_EQ(ctx.backend_name(), "reference");
  MLTensor weights = ctx.create_constant_tensor(kDesc, to_bytes({2, 2, 2, 2}));
  MLGraphBuilder builder(ctx);
  MLOperand a = builder.input("a", kDesc);
  MLOperand b = builder.input("b", kDesc);
  MLOperand w = builder.constant(weights);
  MLGraph graph = builder.build({{"c", builder.mul(builder.add(a, b), w)}});
  weights.destroy();  // the spec lets the graph outlive its constant tensor

  const MLTensorDescriptor io{DataType::kFloat32, {2, 2}, true, true};
  MLTensor ta = ctx.create_tensor(io), tb = ctx.create_tensor(io), tc = ctx.create_tensor(io);
  ctx.write_tensor(ta, to_bytes({1, 2, 3, 4}));
  ctx.write_tensor(tb, to_bytes({0.5f, -2, 10, -4}));
  ctx.dispatch(graph, {{"a", ta}, {"b", tb}}, {{"c", tc}});
  // (a + b) * 2
  EXPECT_EQ(to_floats(ctx.read_tensor(tc).get()), (std::vector<float>{3, 0, 26, 0}));

  NamedHostTensors out =
      ctx.compute(graph, {{"a", {kDesc, to_bytes({1, 1, 1, 1})}}, {"b", {kDesc, to_bytes({0, 1, 2, 3})}}});
  EXPECT_EQ(to_floats(out.at("c").data), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(graph.placement().size(), 2u);
}

TEST(RuntimeReference, BuilderOnALostContextIsInvalidState) {
  MLContext ctx = ML::create_context();
  ctx.destroy();
  EXPECT_EQ(testing::error_of([&] { MLGraphBuilder builder(ctx); }), ErrorKind::kInvalidStateError);
}

}  // namespace
}  // namespace webnn
