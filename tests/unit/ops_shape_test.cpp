// reshape, transpose, concat, split, slice: shapes and error rules.
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

class ShapeOpsTest : public OpsTest {};

TEST_F(ShapeOpsTest, Reshape) {
  EXPECT_EQ(output(OpKind::kReshape, {input(kI8, {2, 3, 4})}, ReshapeAttrs{{6, 4}}), (OperandDescriptor{kI8, {6, 4}}));
  EXPECT_EQ(shape(OpKind::kReshape, {input(kF32, {2, 3, 4})}, ReshapeAttrs{{24}}), Shape{24});
  EXPECT_EQ(shape(OpKind::kReshape, {input(kF32, {1, 1})}, ReshapeAttrs{{}}), Shape{});
  EXPECT_EQ(shape(OpKind::kReshape, {input(kF32, {})}, ReshapeAttrs{{1, 1, 1}}), (Shape{1, 1, 1}));
  expect_error(OpKind::kReshape, {input(kF32, {2, 3})}, ReshapeAttrs{{5}}, "elements");
  expect_error(OpKind::kReshape, {input(kF32, {2, 3})}, ReshapeAttrs{{6, 0}}, "valid dimension");
  expect_error(OpKind::kReshape, {input(kF32, {2, 3})}, ReshapeAttrs{{1, 1, 1, 1, 1, 1, 1, 2, 3}}, "rank");
  expect_error(OpKind::kReshape, {input(kF32, {2})}, ReshapeAttrs{{65536, 65536, 65536}}, "elements");
}

TEST_F(ShapeOpsTest, Transpose) {
  EXPECT_EQ(output(OpKind::kTranspose, {input(kI32, {2, 3, 4})}, TransposeAttrs{}),
            (OperandDescriptor{kI32, {4, 3, 2}}));
  EXPECT_EQ(shape(OpKind::kTranspose, {input(kF32, {2, 3, 4})}, TransposeAttrs{{{0, 2, 1}}}), (Shape{2, 4, 3}));
  EXPECT_EQ(shape(OpKind::kTranspose, {input(kF32, {2, 3, 4, 5})}, TransposeAttrs{{{3, 0, 1, 2}}}),
            (Shape{5, 2, 3, 4}));
  EXPECT_EQ(shape(OpKind::kTranspose, {input(kF32, {})}, TransposeAttrs{}), Shape{});
  expect_error(OpKind::kTranspose, {input(kF32, {2, 3})}, TransposeAttrs{{{0}}}, "permutation");
  expect_error(OpKind::kTranspose, {input(kF32, {2, 3})}, TransposeAttrs{{{0, 2}}}, "out of range");
  expect_error(OpKind::kTranspose, {input(kF32, {2, 3})}, TransposeAttrs{{{1, 1}}}, "more than once");
}

TEST_F(ShapeOpsTest, Concat) {
  EXPECT_EQ(output(OpKind::kConcat, {input(kU8, {2, 3}), input(kU8, {2, 5})}, ConcatAttrs{1}),
            (OperandDescriptor{kU8, {2, 8}}));
  EXPECT_EQ(shape(OpKind::kConcat, {input(kF32, {1, 3}), input(kF32, {2, 3}), input(kF32, {4, 3})}, ConcatAttrs{0}),
            (Shape{7, 3}));
  EXPECT_EQ(shape(OpKind::kConcat, {input(kF32, {4})}, ConcatAttrs{0}), Shape{4});
  expect_error(OpKind::kConcat, {}, ConcatAttrs{0}, "number of inputs");
  expect_error(OpKind::kConcat, {input(kF32, {2, 3}), input(kF32, {2, 3})}, ConcatAttrs{2}, "axis");
  expect_error(OpKind::kConcat, {input(kF32, {2, 3}), input(kF16, {2, 3})}, ConcatAttrs{0}, "data type");
  expect_error(OpKind::kConcat, {input(kF32, {2, 3}), input(kF32, {2, 3, 1})}, ConcatAttrs{0}, "rank");
  expect_error(OpKind::kConcat, {input(kF32, {2, 3}), input(kF32, {2, 4})}, ConcatAttrs{0}, "dimension 1");
  expect_error(OpKind::kConcat, {input(kF32, {}), input(kF32, {})}, ConcatAttrs{0}, "inputs");
  expect_error(OpKind::kConcat, {input(kU8, {2147483647u}), input(kU8, {1})}, ConcatAttrs{0}, "valid dimension");
}

TEST_F(ShapeOpsTest, Split) {
  auto descs = outputs(OpKind::kSplit, {input(kF32, {6, 4})}, SplitAttrs{uint32_t{3}, 0});
  ASSERT_EQ(descs.size(), 3u);
  for (const auto& d : descs) EXPECT_EQ(d, (OperandDescriptor{kF32, {2, 4}}));
  descs = outputs(OpKind::kSplit, {input(kI64, {6, 4})}, SplitAttrs{std::vector<uint32_t>{1, 2, 3}, 0});
  ASSERT_EQ(descs.size(), 3u);
  EXPECT_EQ(descs[0], (OperandDescriptor{kI64, {1, 4}}));
  EXPECT_EQ(descs[1], (OperandDescriptor{kI64, {2, 4}}));
  EXPECT_EQ(descs[2], (OperandDescriptor{kI64, {3, 4}}));
  descs = outputs(OpKind::kSplit, {input(kF32, {6, 4})}, SplitAttrs{uint32_t{2}, 1});
  ASSERT_EQ(descs.size(), 2u);
  EXPECT_EQ(descs[1].shape, (Shape{6, 2}));
  descs = outputs(OpKind::kSplit, {input(kF32, {6, 4})}, SplitAttrs{std::vector<uint32_t>{4}, 1});
  ASSERT_EQ(descs.size(), 1u);
  EXPECT_EQ(descs[0].shape, (Shape{6, 4}));

  expect_error(OpKind::kSplit, {input(kF32, {6, 4})}, SplitAttrs{uint32_t{4}, 0}, "evenly divide");
  expect_error(OpKind::kSplit, {input(kF32, {6, 4})}, SplitAttrs{uint32_t{0}, 0}, "splits");
  expect_error(OpKind::kSplit, {input(kF32, {6, 4})}, SplitAttrs{std::vector<uint32_t>{1, 2}, 0}, "sum to 3");
  expect_error(OpKind::kSplit, {input(kF32, {6, 4})}, SplitAttrs{std::vector<uint32_t>{6, 0}, 0}, "must not contain 0");
  expect_error(OpKind::kSplit, {input(kF32, {6, 4})}, SplitAttrs{std::vector<uint32_t>{}, 0}, "splits");
  expect_error(OpKind::kSplit, {input(kF32, {6, 4})}, SplitAttrs{uint32_t{1}, 2}, "axis");
  expect_error(OpKind::kSplit, {input(kF32, {})}, SplitAttrs{uint32_t{1}, 0}, "input");
}

TEST_F(ShapeOpsTest, Slice) {
  auto slice = [&](Shape in, std::vector<uint32_t> starts, std::vector<uint32_t> sizes, OptionalDims strides = {}) {
    return shape(OpKind::kSlice, {input(kF32, std::move(in))},
                 SliceAttrs{std::move(starts), std::move(sizes), std::move(strides)});
  };
  EXPECT_EQ(slice({4, 5}, {1, 2}, {2, 3}), (Shape{2, 3}));
  EXPECT_EQ(slice({4, 5}, {0, 0}, {4, 5}), (Shape{4, 5}));
  EXPECT_EQ(slice({4, 5}, {0, 0}, {3, 3}, {{2, 2}}), (Shape{2, 2}));  // ceil(3 / 2)
  EXPECT_EQ(slice({4, 5}, {0, 0}, {4, 5}, {{1, 3}}), (Shape{4, 2}));  // ceil(5 / 3)
  EXPECT_EQ(slice({4, 5}, {1, 1}, {3, 4}, {{3, 4}}), (Shape{1, 1}));
  EXPECT_EQ(slice({}, {}, {}), Shape{});
  EXPECT_EQ(output(OpKind::kSlice, {input(kU64, {3})}, SliceAttrs{{1}, {2}, {}}), (OperandDescriptor{kU64, {2}}));

  auto slice_error = [&](std::vector<uint32_t> starts, std::vector<uint32_t> sizes, OptionalDims strides,
                         const std::string& fragment) {
    expect_error(OpKind::kSlice, {input(kF32, {4, 5})},
                 SliceAttrs{std::move(starts), std::move(sizes), std::move(strides)}, fragment);
  };
  slice_error({0, 0}, {0, 5}, {}, "sizes");
  slice_error({0}, {4, 5}, {}, "starts");
  slice_error({0, 0}, {4}, {}, "sizes");
  slice_error({0, 0}, {4, 5}, {{1}}, "strides");
  slice_error({0, 0}, {4, 5}, {{1, 0}}, "strides");
  slice_error({5, 0}, {1, 5}, {}, "beyond the input size");
  slice_error({1, 0}, {4, 5}, {}, "exceeds the input size");
  slice_error({0, 4294967295u}, {4, 2}, {}, "beyond the input size");
}

}  // namespace
}  // namespace webnn::testing
