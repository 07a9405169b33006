// reshape, transpose, concat, split, slice, expand, pad, reverse, tile, triangular: shapes and error
// rules.
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

TEST_F(ShapeOpsTest, Expand) {
  auto expand = [&](DataType type, Shape in, Shape new_shape) {
    return output(OpKind::kExpand, {input(type, std::move(in))}, ExpandAttrs{std::move(new_shape)});
  };
  EXPECT_EQ(expand(kF32, {}, {2, 3}), (OperandDescriptor{kF32, {2, 3}}));
  EXPECT_EQ(expand(kI64, {3, 1}, {2, 3, 4}), (OperandDescriptor{kI64, {2, 3, 4}}));  // rank grows
  EXPECT_EQ(expand(kU8, {2, 1}, {2, 5}), (OperandDescriptor{kU8, {2, 5}}));
  EXPECT_EQ(expand(kF16, {2, 3}, {2, 3}), (OperandDescriptor{kF16, {2, 3}}));
  EXPECT_EQ(expand(kF32, {}, {}), (OperandDescriptor{kF32, {}}));
  EXPECT_EQ(expand(kF32, {1}, {1, 1, 1, 1, 1, 1, 1, 7}).shape, (Shape{1, 1, 1, 1, 1, 1, 1, 7}));

  expect_error(OpKind::kExpand, {input(kF32, {2, 3})}, ExpandAttrs{{3, 2}}, "not unidirectionally broadcastable");
  expect_error(OpKind::kExpand, {input(kF32, {2, 3})}, ExpandAttrs{{3}}, "not unidirectionally broadcastable");
  // Unidirectional: the input's 2 cannot become 1 (a bidirectional broadcast would allow it).
  expect_error(OpKind::kExpand, {input(kF32, {2, 1})}, ExpandAttrs{{1, 1}}, "not unidirectionally broadcastable");
  expect_error(OpKind::kExpand, {input(kF32, {1})}, ExpandAttrs{{0}}, "not a valid dimension");
  expect_error(OpKind::kExpand, {input(kF32, {1})}, ExpandAttrs{{2147483648u}}, "not a valid dimension");
  expect_error(OpKind::kExpand, {input(kF32, {1})}, ExpandAttrs{{1, 1, 1, 1, 1, 1, 1, 1, 2}}, "rank 9");
  expect_error(OpKind::kExpand, {input(kU8, {1})}, ExpandAttrs{{65536, 65536}}, "element count");
  expect_error(OpKind::kExpand, {}, ExpandAttrs{{1}}, "positional");
}

TEST_F(ShapeOpsTest, Pad) {
  auto pad = [&](DataType type, Shape in, std::vector<uint32_t> begin, std::vector<uint32_t> end,
                 PaddingMode mode = PaddingMode::kConstant) {
    return output(OpKind::kPad, {input(type, std::move(in))}, PadAttrs{std::move(begin), std::move(end), mode, 0.0});
  };
  EXPECT_EQ(pad(kF32, {2, 3}, {1, 2}, {1, 2}), (OperandDescriptor{kF32, {4, 7}}));  // the spec's example
  EXPECT_EQ(pad(kF32, {2, 3}, {1, 2}, {1, 2}, PaddingMode::kEdge).shape, (Shape{4, 7}));
  EXPECT_EQ(pad(kF32, {2, 3}, {1, 2}, {1, 2}, PaddingMode::kReflection).shape, (Shape{4, 7}));
  EXPECT_EQ(pad(kI8, {2, 3}, {0, 0}, {0, 0}), (OperandDescriptor{kI8, {2, 3}}));
  // edge and constant take any amount of padding, even on a size-1 dimension.
  EXPECT_EQ(pad(kU64, {1}, {5}, {6}, PaddingMode::kEdge), (OperandDescriptor{kU64, {12}}));
  EXPECT_EQ(pad(kF16, {1}, {5}, {6}, PaddingMode::kConstant).shape, (Shape{12}));
  EXPECT_EQ(pad(kF32, {}, {}, {}), (OperandDescriptor{kF32, {}}));
  EXPECT_EQ(pad(kU8, {2147483645u}, {1}, {1}).shape, (Shape{2147483647u}));
  // The value is any MLNumber: it is cast to the input type, never rejected.
  EXPECT_EQ(output(OpKind::kPad, {input(kU8, {2})}, PadAttrs{{1}, {1}, PaddingMode::kConstant, Number(-1e300)}).shape,
            (Shape{4}));

  auto pad_error = [&](Shape in, std::vector<uint32_t> begin, std::vector<uint32_t> end, PaddingMode mode,
                       const std::string& fragment) {
    expect_error(OpKind::kPad, {input(kU8, std::move(in))}, PadAttrs{std::move(begin), std::move(end), mode, 0.0},
                 fragment);
  };
  pad_error({2, 3}, {1}, {1, 2}, PaddingMode::kConstant, "must both have 2 values");
  pad_error({2, 3}, {1, 2}, {1, 2, 3}, PaddingMode::kConstant, "must both have 2 values");
  pad_error({}, {1}, {1}, PaddingMode::kConstant, "must both have 0 values");
  pad_error({2, 3}, {2, 0}, {0, 0}, PaddingMode::kReflection, "smaller than the input size 2");
  pad_error({2, 3}, {0, 0}, {0, 3}, PaddingMode::kReflection, "smaller than the input size 3");
  pad_error({1}, {0}, {1}, PaddingMode::kReflection, "reflection padding");
  pad_error({2147483647u}, {1}, {0}, PaddingMode::kConstant, "not a valid dimension");
  pad_error({2}, {4294967295u}, {4294967295u}, PaddingMode::kEdge, "not a valid dimension");
}

TEST_F(ShapeOpsTest, Reverse) {
  EXPECT_EQ(output(OpKind::kReverse, {input(kI64, {2, 3, 4})}, ReverseAttrs{}), (OperandDescriptor{kI64, {2, 3, 4}}));
  EXPECT_EQ(shape(OpKind::kReverse, {input(kF32, {2, 3, 4})}, ReverseAttrs{std::vector<uint32_t>{}}), (Shape{2, 3, 4}));
  EXPECT_EQ(shape(OpKind::kReverse, {input(kF32, {2, 3, 4})}, ReverseAttrs{std::vector<uint32_t>{2, 0}}),
            (Shape{2, 3, 4}));
  EXPECT_EQ(output(OpKind::kReverse, {input(kU8, {})}, ReverseAttrs{}), (OperandDescriptor{kU8, {}}));
  EXPECT_EQ(shape(OpKind::kReverse, {input(kF32, {})}, ReverseAttrs{std::vector<uint32_t>{}}), Shape{});

  expect_error(OpKind::kReverse, {input(kF32, {2, 3})}, ReverseAttrs{std::vector<uint32_t>{2}}, "out of range");
  expect_error(OpKind::kReverse, {input(kF32, {2, 3})}, ReverseAttrs{std::vector<uint32_t>{1, 1}}, "more than once");
  expect_error(OpKind::kReverse, {input(kF32, {})}, ReverseAttrs{std::vector<uint32_t>{0}}, "out of range");
}

TEST_F(ShapeOpsTest, Tile) {
  EXPECT_EQ(output(OpKind::kTile, {input(kI8, {2, 3})}, TileAttrs{{2, 1}}), (OperandDescriptor{kI8, {4, 3}}));
  EXPECT_EQ(shape(OpKind::kTile, {input(kF32, {2, 3, 1})}, TileAttrs{{1, 3, 5}}), (Shape{2, 9, 5}));
  EXPECT_EQ(output(OpKind::kTile, {input(kU64, {})}, TileAttrs{{}}), (OperandDescriptor{kU64, {}}));

  expect_error(OpKind::kTile, {input(kF32, {2, 3})}, TileAttrs{{2}}, "repetitions must have 2 values");
  expect_error(OpKind::kTile, {input(kF32, {2, 3})}, TileAttrs{{2, 1, 1}}, "repetitions must have 2 values");
  expect_error(OpKind::kTile, {input(kF32, {})}, TileAttrs{{1}}, "repetitions must have 0 values");
  expect_error(OpKind::kTile, {input(kF32, {2, 3})}, TileAttrs{{2, 0}}, "must not contain 0");
  expect_error(OpKind::kTile, {input(kF32, {65536})}, TileAttrs{{32768}}, "not a valid dimension");
  expect_error(OpKind::kTile, {input(kU8, {65536, 2})}, TileAttrs{{1, 32768}}, "element count");
}

TEST_F(ShapeOpsTest, Triangular) {
  EXPECT_EQ(output(OpKind::kTriangular, {input(kF32, {3, 3})}, TriangularAttrs{}), (OperandDescriptor{kF32, {3, 3}}));
  EXPECT_EQ(output(OpKind::kTriangular, {input(kU64, {2, 3, 4})}, TriangularAttrs{false, -7}),
            (OperandDescriptor{kU64, {2, 3, 4}}));
  EXPECT_EQ(shape(OpKind::kTriangular, {input(kI8, {1, 2})}, TriangularAttrs{true, INT32_MAX}), (Shape{1, 2}));
  EXPECT_EQ(shape(OpKind::kTriangular, {input(kF16, {4, 1})}, TriangularAttrs{true, INT32_MIN}), (Shape{4, 1}));

  expect_error(OpKind::kTriangular, {input(kF32, {3})}, TriangularAttrs{}, "rank >= 2, got rank 1");
  expect_error(OpKind::kTriangular, {input(kF32, {})}, TriangularAttrs{}, "rank >= 2, got rank 0");
}

}  // namespace
}  // namespace webnn::testing
