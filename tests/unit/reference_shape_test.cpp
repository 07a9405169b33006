// reshape, transpose, concat, split and slice on the reference backend; expected values by hand
// (numpy agrees: transpose(arange(24).reshape(2,3,4), (1,2,0)), x[1:3:2, ::2], ...).
#include <gtest/gtest.h>

#include <cstdint>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

std::vector<int64_t> iota64(int n, int64_t base = 0) {
  std::vector<int64_t> v(n);
  for (int i = 0; i < n; ++i) v[i] = base + i;
  return v;
}

TEST(ReferenceReshape, KeepsBytesAndHandlesScalars) {
  ReshapeAttrs attrs;
  attrs.new_shape = {3, 2};
  const TensorData out =
      run_op(OpKind::kReshape, {f32({2, 3}, {1, 2, 3, 4, 5, 6})}, attrs, desc(DataType::kFloat32, {3, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  attrs.new_shape = {};
  const TensorData s =
      run_op(OpKind::kReshape, {tensor<uint8_t>(DataType::kUint8, {1, 1}, {200})}, attrs, desc(DataType::kUint8, {}));
  EXPECT_EQ(values<uint8_t>(s), (std::vector<uint8_t>{200}));
}

TEST(ReferenceTranspose, DefaultReversesAxes) {
  const TensorData out =
      run_op(OpKind::kTranspose, {f32({2, 3}, {1, 2, 3, 4, 5, 6})}, TransposeAttrs{}, desc(DataType::kFloat32, {3, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(ReferenceTranspose, PermutationOnInt64) {
  // x = arange(24).reshape(2, 3, 4) + 2^53, permutation (1, 2, 0): y[j][k][i] = x[i][j][k].
  const int64_t base = int64_t{1} << 53;
  TransposeAttrs attrs;
  attrs.permutation = std::vector<uint32_t>{1, 2, 0};
  const TensorData out = run_op(OpKind::kTranspose, {tensor(DataType::kInt64, {2, 3, 4}, iota64(24, base))}, attrs,
                                desc(DataType::kInt64, {3, 4, 2}));
  std::vector<int64_t> expected;
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 2; ++i) expected.push_back(base + i * 12 + j * 4 + k);
  EXPECT_EQ(values<int64_t>(out), expected);
  // float16 and a scalar.
  const TensorData h =
      run_op(OpKind::kTranspose, {f16({1, 2}, {0.5f, -2})}, TransposeAttrs{}, desc(DataType::kFloat16, {2, 1}));
  EXPECT_EQ(half_values(h), (std::vector<float>{0.5f, -2}));
  const TensorData s = run_op(OpKind::kTranspose, {f32({}, {3})}, TransposeAttrs{}, desc(DataType::kFloat32, {}));
  EXPECT_EQ(values<float>(s), (std::vector<float>{3}));
}

TEST(ReferenceConcat, AlongMiddleAxis) {
  GraphMaker g;
  const OperandId a = g.input("a", tensor<int32_t>(DataType::kInt32, {2, 1, 2}, {1, 2, 3, 4}));
  const OperandId b = g.constant(tensor<int32_t>(DataType::kInt32, {2, 2, 2}, {10, 11, 12, 13, 14, 15, 16, 17}));
  ConcatAttrs attrs;
  attrs.axis = 1;
  g.output("y", g.op(OpKind::kConcat, {a, b, a}, attrs, desc(DataType::kInt32, {2, 4, 2})));
  EXPECT_EQ(values<int32_t>(g.run().front()),
            (std::vector<int32_t>{1, 2, 10, 11, 12, 13, 1, 2, 3, 4, 14, 15, 16, 17, 3, 4}));
}

TEST(ReferenceConcat, Float16AlongFirstAxis) {
  GraphMaker g;
  const OperandId a = g.input("a", f16({1, 2}, {1, 2}));
  const OperandId b = g.input("b", f16({2, 2}, {3, 4, 5, 6}));
  g.output("y", g.op(OpKind::kConcat, {a, b}, ConcatAttrs{}, desc(DataType::kFloat16, {3, 2})));
  EXPECT_EQ(half_values(g.run().front()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(ReferenceSplit, EqualPartsAndSizes) {
  // [2, 6] split into 3 along axis 1.
  GraphMaker g;
  const OperandId x = g.input("x", f32({2, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  SplitAttrs attrs;
  attrs.splits = uint32_t{3};
  attrs.axis = 1;
  const auto outs =
      g.op_n(OpKind::kSplit, {x}, attrs,
             {desc(DataType::kFloat32, {2, 2}), desc(DataType::kFloat32, {2, 2}), desc(DataType::kFloat32, {2, 2})});
  g.output("a", outs[0]);
  g.output("b", outs[1]);
  g.output("c", outs[2]);
  const auto r = g.run();
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{0, 1, 6, 7}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{2, 3, 8, 9}));
  EXPECT_EQ(values<float>(r[2]), (std::vector<float>{4, 5, 10, 11}));

  // Sizes [1, 3] along axis 0 of a [4, 2] uint64 tensor; only the second part is an output.
  GraphMaker h;
  const OperandId y = h.input("y", tensor<uint64_t>(DataType::kUint64, {4, 2}, {1, 2, 3, 4, 5, 6, 7, UINT64_MAX}));
  SplitAttrs sizes;
  sizes.splits = std::vector<uint32_t>{1, 3};
  const auto parts =
      h.op_n(OpKind::kSplit, {y}, sizes, {desc(DataType::kUint64, {1, 2}), desc(DataType::kUint64, {3, 2})});
  h.output("second", parts[1]);
  EXPECT_EQ(values<uint64_t>(h.run().front()), (std::vector<uint64_t>{3, 4, 5, 6, 7, UINT64_MAX}));
}

TEST(ReferenceSlice, StartsSizesAndStrides) {
  // x = arange(12).reshape(3, 4); x[1:3, 0:3] and x[0:3:2, 1:4:2]
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[i] = float(i);
  SliceAttrs attrs;
  attrs.starts = {1, 0};
  attrs.sizes = {2, 3};
  TensorData out = run_op(OpKind::kSlice, {f32({3, 4}, x)}, attrs, desc(DataType::kFloat32, {2, 3}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{4, 5, 6, 8, 9, 10}));
  attrs.starts = {0, 1};
  attrs.sizes = {3, 3};
  attrs.strides = std::vector<uint32_t>{2, 2};
  out = run_op(OpKind::kSlice, {f32({3, 4}, x)}, attrs, desc(DataType::kFloat32, {2, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{1, 3, 9, 11}));
  // int8 1-D
  SliceAttrs one;
  one.starts = {2};
  one.sizes = {2};
  const TensorData i8 = run_op(OpKind::kSlice, {tensor<int8_t>(DataType::kInt8, {5}, {-1, -2, -3, -4, -5})}, one,
                               desc(DataType::kInt8, {2}));
  EXPECT_EQ(values<int8_t>(i8), (std::vector<int8_t>{-3, -4}));
}

}  // namespace
}  // namespace webnn::test
