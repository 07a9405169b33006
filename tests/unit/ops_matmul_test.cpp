// matmul and gemm output shapes and error rules (#api-mlgraphbuilder-matmul, -gemm).
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

class MatmulTest : public OpsTest {
 protected:
  Shape matmul(Shape a, Shape b) {
    return shape(OpKind::kMatmul, {input(kF32, std::move(a)), input(kF32, std::move(b))}, NoAttrs{});
  }
  Shape gemm(Shape a, Shape b, GemmAttrs attrs = {}) {
    return shape(OpKind::kGemm, {input(kF32, std::move(a)), input(kF32, std::move(b))}, std::move(attrs));
  }
};

TEST_F(MatmulTest, MatmulShapes) {
  EXPECT_EQ(matmul({2, 3}, {3, 4}), (Shape{2, 4}));
  EXPECT_EQ(matmul({2, 2, 3}, {3, 4}), (Shape{2, 2, 4}));
  EXPECT_EQ(matmul({2, 3}, {5, 3, 4}), (Shape{5, 2, 4}));
  EXPECT_EQ(matmul({1, 2, 3}, {5, 3, 4}), (Shape{5, 2, 4}));
  EXPECT_EQ(matmul({3, 1, 2, 3}, {4, 3, 5}), (Shape{3, 4, 2, 5}));
  EXPECT_EQ(matmul({1, 1}, {1, 1}), (Shape{1, 1}));
  EXPECT_EQ(output(OpKind::kMatmul, {input(kF16, {2, 3}), input(kF16, {3, 1})}, NoAttrs{}),
            (OperandDescriptor{kF16, {2, 1}}));
}

TEST_F(MatmulTest, MatmulErrors) {
  // This version of the spec takes no 1-D operands.
  expect_error(OpKind::kMatmul, {input(kF32, {3}), input(kF32, {3, 4})}, NoAttrs{}, "a");
  expect_error(OpKind::kMatmul, {input(kF32, {2, 3}), input(kF32, {3})}, NoAttrs{}, "b");
  expect_error(OpKind::kMatmul, {input(kF32, {2, 3}), input(kF32, {4, 4})}, NoAttrs{}, "columns of a");
  expect_error(OpKind::kMatmul, {input(kF32, {2, 2, 3}), input(kF32, {3, 3, 4})}, NoAttrs{}, "batch");
  expect_error(OpKind::kMatmul, {input(kI32, {2, 3}), input(kI32, {3, 4})}, NoAttrs{}, "int32");
  expect_error(OpKind::kMatmul, {input(kF32, {2, 3}), input(kF16, {3, 4})}, NoAttrs{}, "same data type");
}

TEST_F(MatmulTest, GemmShapesAndTransposes) {
  EXPECT_EQ(gemm({2, 3}, {3, 4}), (Shape{2, 4}));
  GemmAttrs t;
  t.a_transpose = true;
  EXPECT_EQ(gemm({3, 2}, {3, 4}, t), (Shape{2, 4}));
  t.b_transpose = true;
  EXPECT_EQ(gemm({3, 2}, {4, 3}, t), (Shape{2, 4}));
  t.a_transpose = false;
  EXPECT_EQ(gemm({2, 3}, {4, 3}, t), (Shape{2, 4}));
}

TEST_F(MatmulTest, GemmCBroadcastsUnidirectionally) {
  for (Shape c : {Shape{}, Shape{4}, Shape{1, 4}, Shape{2, 1}, Shape{2, 4}, Shape{1}}) {
    GemmAttrs a;
    a.c = ref(kF32, c);
    EXPECT_EQ(gemm({2, 3}, {3, 4}, a), (Shape{2, 4})) << shape_to_string(c);
  }
  for (Shape c : {Shape{3}, Shape{2}, Shape{4, 2}, Shape{1, 2, 4}}) {
    GemmAttrs a;
    a.c = ref(kF32, c);
    expect_error(OpKind::kGemm, {input(kF32, {2, 3}), input(kF32, {3, 4})}, a, "c");
  }
  GemmAttrs a;
  a.c = ref(kF16, {4});
  expect_error(OpKind::kGemm, {input(kF32, {2, 3}), input(kF32, {3, 4})}, a, "same data type");
}

TEST_F(MatmulTest, GemmErrors) {
  expect_error(OpKind::kGemm, {input(kF32, {2, 3}), input(kF32, {4, 4})}, GemmAttrs{}, "columns of a");
  GemmAttrs t;
  t.a_transpose = true;  // a becomes [3, 2]
  expect_error(OpKind::kGemm, {input(kF32, {2, 3}), input(kF32, {3, 4})}, t, "columns of a");
  expect_error(OpKind::kGemm, {input(kF32, {1, 2, 3}), input(kF32, {3, 4})}, GemmAttrs{}, "a");
  expect_error(OpKind::kGemm, {input(kF32, {2, 3}), input(kF32, {3})}, GemmAttrs{}, "b");
  expect_error(OpKind::kGemm, {input(kI32, {2, 3}), input(kI32, {3, 4})}, GemmAttrs{}, "int32");
  expect_error(OpKind::kGemm, {input(kF32, {2, 3}), input(kF16, {3, 4})}, GemmAttrs{}, "same data type");
}

}  // namespace
}  // namespace webnn::testing
