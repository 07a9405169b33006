// matmul and gemm on the reference backend; expected values from numpy.
#include <gtest/gtest.h>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

TEST(ReferenceMatmul, TwoDimensional) {
  const TensorData out =
      run_op(OpKind::kMatmul, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3, 2}, {1, 0.5f, -1, 2, 0.25f, -3})}, NoAttrs{},
             desc(DataType::kFloat32, {2, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{-0.25f, -4.5f, 0.5f, -6.0f}));
  const TensorData half =
      run_op(OpKind::kMatmul, {f16({2, 3}, {1, 2, 3, 4, 5, 6}), f16({3, 2}, {1, 0.5f, -1, 2, 0.25f, -3})}, NoAttrs{},
             desc(DataType::kFloat16, {2, 2}));
  EXPECT_EQ(half_values(half), (std::vector<float>{-0.25f, -4.5f, 0.5f, -6.0f}));
}

TEST(ReferenceMatmul, BroadcastsBatchDimensions) {
  // a [2, 1, 2, 3] x b [3, 3, 2] -> [2, 3, 2, 2]
  std::vector<float> a, b;
  for (int i = 0; i < 12; ++i) a.push_back(float(i - 5) / 4);
  for (int i = 0; i < 18; ++i) b.push_back(float(i - 9) / 8);
  const std::vector<float> expected = {2.75f,    2.375f,  0.78125f,  0.6875f,  0.5f,     0.125f, 0.21875f,  0.125f,
                                       -1.75f,   -2.125f, -0.34375f, -0.4375f, -1.1875f, -1.0f,  -3.15625f, -2.6875f,
                                       -0.0625f, 0.125f,  -0.34375f, 0.125f,   1.0625f,  1.25f,  2.46875f,  2.9375f};
  GraphMaker g;
  const OperandId ai = g.input("a", f32({2, 1, 2, 3}, a));
  const OperandId bi = g.constant(f32({3, 3, 2}, b));
  g.output("y", g.op(OpKind::kMatmul, {ai, bi}, NoAttrs{}, desc(DataType::kFloat32, {2, 3, 2, 2})));
  EXPECT_EQ(values<float>(g.run().front()), expected);
}

TEST(ReferenceGemm, TransposesAlphaBetaAndBroadcastC) {
  // a stored [K=3, M=2] with aTranspose, b stored [N=2, K=3] with bTranspose; 2 * A'B' + 0.5 * c.
  GemmAttrs attrs;
  attrs.a_transpose = true;
  attrs.b_transpose = true;
  attrs.alpha = 2.0;
  attrs.beta = 0.5;
  GraphMaker g;
  const OperandId a = g.input("a", f32({3, 2}, {1, 2, 3, 4, 5, 6}));
  const OperandId b = g.input("b", f32({2, 3}, {1, -1, 2, 0.5f, 0, -2}));
  attrs.c = OperandRef{g.constant(f32({2}, {10, 20}))};
  g.output("y", g.op(OpKind::kGemm, {a, b}, attrs, desc(DataType::kFloat32, {2, 2})));
  EXPECT_EQ(values<float>(g.run().front()), (std::vector<float>{21, -9, 25, -12}));
}

TEST(ReferenceGemm, DefaultsAndScalarC) {
  // No options: plain A * B.
  TensorData out = run_op(OpKind::kGemm, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3, 2}, {1, 0.5f, -1, 2, 0.25f, -3})},
                          GemmAttrs{}, desc(DataType::kFloat32, {2, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{-0.25f, -4.5f, 0.5f, -6.0f}));
  // c a scalar, c [2, 1] column, float16.
  for (Shape c_shape : {Shape{}, Shape{2, 1}}) {
    GraphMaker g;
    const OperandId a = g.input("a", f16({2, 3}, {1, 2, 3, 4, 5, 6}));
    const OperandId b = g.input("b", f16({3, 2}, {1, 0.5f, -1, 2, 0.25f, -3}));
    GemmAttrs attrs;
    attrs.c = OperandRef{g.constant(c_shape.empty() ? f16({}, {1}) : f16({2, 1}, {1, 2}))};
    g.output("y", g.op(OpKind::kGemm, {a, b}, attrs, desc(DataType::kFloat16, {2, 2})));
    const std::vector<float> expected =
        c_shape.empty() ? std::vector<float>{0.75f, -3.5f, 1.5f, -5} : std::vector<float>{0.75f, -3.5f, 2.5f, -4};
    EXPECT_EQ(half_values(g.run().front()), expected);
  }
}

}  // namespace
}  // namespace webnn::test
