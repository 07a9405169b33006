// gather, gatherElements, gatherND, scatterElements, scatterND: shapes and error rules. Shapes
// from the spec's examples where it gives them.
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

class GatherOpsTest : public OpsTest {
 protected:
  OperandDescriptor gather(OpKind kind, Shape in, Shape indices, uint32_t axis = 0, DataType type = kF32,
                           DataType index_type = kI32) {
    Attributes attrs = GatherAttrs{axis};
    if (kind == OpKind::kGatherNd) attrs = NoAttrs{};
    return output(kind, {input(type, std::move(in)), input(index_type, std::move(indices))}, attrs);
  }
  OperandDescriptor scatter(OpKind kind, Shape in, Shape indices, Shape updates, uint32_t axis = 0,
                            DataType type = kF32, DataType index_type = kI32) {
    std::vector<OperandId> ops{input(type, std::move(in)), input(index_type, std::move(indices)),
                               input(type, std::move(updates))};
    if (kind == OpKind::kScatterNd) return output(kind, ops, NoAttrs{});
    return output(kind, ops, ScatterAttrs{axis});
  }
  void gather_error(OpKind kind, Shape in, Shape indices, uint32_t axis, const std::string& fragment,
                    DataType type = kF32, DataType index_type = kI32) {
    Attributes attrs = GatherAttrs{axis};
    if (kind == OpKind::kGatherNd) attrs = NoAttrs{};
    expect_error(kind, {input(type, std::move(in)), input(index_type, std::move(indices))}, attrs, fragment);
  }
  void scatter_error(OpKind kind, Shape in, Shape indices, Shape updates, uint32_t axis, const std::string& fragment,
                     DataType index_type = kI32, DataType updates_type = kF32) {
    Attributes attrs = ScatterAttrs{axis};
    if (kind == OpKind::kScatterNd) attrs = NoAttrs{};
    expect_error(
        kind,
        {input(kF32, std::move(in)), input(index_type, std::move(indices)), input(updates_type, std::move(updates))},
        attrs, fragment);
  }
};

TEST_F(GatherOpsTest, Gather) {
  // output shape = input.shape[0, axis) + indices.shape + input.shape(axis, rank)
  EXPECT_EQ(gather(OpKind::kGather, {4, 3}, {2}), (OperandDescriptor{kF32, {2, 3}}));
  EXPECT_EQ(gather(OpKind::kGather, {4, 3}, {3}, 1).shape, (Shape{4, 3}));
  EXPECT_EQ(gather(OpKind::kGather, {4, 3}, {2, 2}, 1).shape, (Shape{4, 2, 2}));
  EXPECT_EQ(gather(OpKind::kGather, {2, 3, 4}, {5, 6}, 1).shape, (Shape{2, 5, 6, 4}));
  EXPECT_EQ(gather(OpKind::kGather, {4, 3}, {}, 0).shape, (Shape{3}));  // a scalar index drops the axis
  EXPECT_EQ(gather(OpKind::kGather, {4}, {}, 0).shape, Shape{});
  EXPECT_EQ(gather(OpKind::kGather, {4, 3}, {7}, 0, kU64, kU32), (OperandDescriptor{kU64, {7, 3}}));
  EXPECT_EQ(gather(OpKind::kGather, {4, 3}, {7}, 0, kI8, kI64), (OperandDescriptor{kI8, {7, 3}}));

  gather_error(OpKind::kGather, {4, 3}, {2}, 2, "axis 2 must be less than the input rank 2");
  gather_error(OpKind::kGather, {}, {2}, 0, "input must be a tensor of rank >= 1");
  for (DataType t : {kF32, kF16, kU64, kI8, kU8})
    gather_error(OpKind::kGather, {4, 3}, {2}, 0, "indices data type", kF32, t);
  // The output rank is input rank + indices rank - 1: beyond the largest rank is an error.
  gather_error(OpKind::kGather, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, 0, "rank 9");
  expect_error(OpKind::kGather, {input(kF32, {2})}, GatherAttrs{}, "positional");
}

TEST_F(GatherOpsTest, GatherElements) {
  // The spec's examples: the output has the indices' shape.
  EXPECT_EQ(gather(OpKind::kGatherElements, {4, 3}, {2, 3}), (OperandDescriptor{kF32, {2, 3}}));
  EXPECT_EQ(gather(OpKind::kGatherElements, {4, 3}, {4, 1}, 1).shape, (Shape{4, 1}));
  EXPECT_EQ(gather(OpKind::kGatherElements, {4, 2, 2}, {1, 2, 2}, 0).shape, (Shape{1, 2, 2}));
  // The indices may be longer than the input along the axis.
  EXPECT_EQ(gather(OpKind::kGatherElements, {4, 3}, {4, 5}, 1, kI64, kU32), (OperandDescriptor{kI64, {4, 5}}));
  EXPECT_EQ(gather(OpKind::kGatherElements, {3}, {6}, 0, kF16, kI64), (OperandDescriptor{kF16, {6}}));

  gather_error(OpKind::kGatherElements, {4, 3}, {2, 2}, 0, "except along axis 0");
  gather_error(OpKind::kGatherElements, {4, 3}, {4, 2}, 0, "except along axis 0");
  gather_error(OpKind::kGatherElements, {4, 3}, {2, 3}, 1, "except along axis 1");
  gather_error(OpKind::kGatherElements, {4, 3}, {4, 3}, 2, "axis 2");
  gather_error(OpKind::kGatherElements, {4, 3}, {12}, 0, "indices must have the same rank as input");
  gather_error(OpKind::kGatherElements, {4, 3}, {1, 4, 3}, 0, "indices must have the same rank as input");
  gather_error(OpKind::kGatherElements, {}, {}, 0, "input must be a tensor of rank >= 1");
  gather_error(OpKind::kGatherElements, {4, 3}, {2, 3}, 0, "indices data type", kF32, kF32);
  gather_error(OpKind::kGatherElements, {4, 3}, {2, 3}, 0, "indices data type", kF32, kU64);
}

TEST_F(GatherOpsTest, GatherNd) {
  // The spec's examples.
  EXPECT_EQ(gather(OpKind::kGatherNd, {2, 2}, {3, 2}), (OperandDescriptor{kF32, {3}}));
  EXPECT_EQ(gather(OpKind::kGatherNd, {2, 2}, {2, 1}).shape, (Shape{2, 2}));
  EXPECT_EQ(gather(OpKind::kGatherNd, {2, 2, 2}, {2, 2}).shape, (Shape{2, 2}));
  EXPECT_EQ(gather(OpKind::kGatherNd, {2, 2, 2}, {3, 1}).shape, (Shape{3, 2, 2}));
  EXPECT_EQ(gather(OpKind::kGatherNd, {2, 2, 2}, {5, 3}).shape, (Shape{5}));
  // indices of rank 1 address one element (a scalar output) or one slice.
  EXPECT_EQ(gather(OpKind::kGatherNd, {2, 2}, {2}, 0, kU8, kI64), (OperandDescriptor{kU8, {}}));
  EXPECT_EQ(gather(OpKind::kGatherNd, {2, 3, 4}, {1}, 0, kI64, kU32), (OperandDescriptor{kI64, {3, 4}}));
  EXPECT_EQ(gather(OpKind::kGatherNd, {5}, {2, 3, 1}).shape, (Shape{2, 3}));

  gather_error(OpKind::kGatherNd, {2, 2}, {3, 3}, 0, "must not exceed the input rank 2");
  gather_error(OpKind::kGatherNd, {2}, {2}, 0, "must not exceed the input rank 1");
  gather_error(OpKind::kGatherNd, {2, 2}, {}, 0, "indices must be a tensor of rank >= 1");
  gather_error(OpKind::kGatherNd, {}, {1}, 0, "input must be a tensor of rank >= 1");
  gather_error(OpKind::kGatherNd, {2, 2}, {3, 2}, 0, "indices data type", kF32, kI8);
}

TEST_F(GatherOpsTest, ScatterElements) {
  EXPECT_EQ(scatter(OpKind::kScatterElements, {4, 3}, {2, 3}, {2, 3}), (OperandDescriptor{kF32, {4, 3}}));
  EXPECT_EQ(scatter(OpKind::kScatterElements, {4, 3}, {4, 1}, {4, 1}, 1).shape, (Shape{4, 3}));
  EXPECT_EQ(scatter(OpKind::kScatterElements, {4, 2, 2}, {1, 2, 2}, {1, 2, 2}, 0, kU64, kI64),
            (OperandDescriptor{kU64, {4, 2, 2}}));
  EXPECT_EQ(scatter(OpKind::kScatterElements, {3}, {5}, {5}, 0, kI8, kU32), (OperandDescriptor{kI8, {3}}));

  scatter_error(OpKind::kScatterElements, {4, 3}, {2, 3}, {2, 2}, 0, "updates shape [2, 2]");
  scatter_error(OpKind::kScatterElements, {4, 3}, {2, 3}, {3, 2}, 0, "must equal the indices shape");
  scatter_error(OpKind::kScatterElements, {4, 3}, {2, 2}, {2, 2}, 0, "except along axis 0");
  scatter_error(OpKind::kScatterElements, {4, 3}, {2, 3}, {2, 3}, 1, "except along axis 1");
  scatter_error(OpKind::kScatterElements, {4, 3}, {4, 3}, {4, 3}, 2, "axis 2");
  scatter_error(OpKind::kScatterElements, {4, 3}, {12}, {12}, 0, "indices must have the same rank as input");
  scatter_error(OpKind::kScatterElements, {4, 3}, {2, 3}, {1, 2, 3}, 0, "updates must have the same rank as input");
  scatter_error(OpKind::kScatterElements, {4, 3}, {2, 3}, {2, 3}, 0, "updates must have the same data type", kI32,
                kF16);
  scatter_error(OpKind::kScatterElements, {4, 3}, {2, 3}, {2, 3}, 0, "indices data type", kU8);
  scatter_error(OpKind::kScatterElements, {}, {}, {}, 0, "input must be a tensor of rank >= 1");
}

TEST_F(GatherOpsTest, ScatterNd) {
  // The spec's examples: updates shape = indices.shape[0, rank - 1) + input.shape[c, rank).
  EXPECT_EQ(scatter(OpKind::kScatterNd, {8}, {4, 1}, {4}), (OperandDescriptor{kF32, {8}}));
  EXPECT_EQ(scatter(OpKind::kScatterNd, {2, 2}, {2, 2}, {2}).shape, (Shape{2, 2}));
  EXPECT_EQ(scatter(OpKind::kScatterNd, {3, 2}, {2, 1}, {2, 2}).shape, (Shape{3, 2}));
  EXPECT_EQ(scatter(OpKind::kScatterNd, {2, 2, 2}, {2, 2}, {2, 2}).shape, (Shape{2, 2, 2}));
  // A single coordinate of full length: scalar updates.
  EXPECT_EQ(scatter(OpKind::kScatterNd, {2, 3}, {2}, {}, 0, kI64, kU32), (OperandDescriptor{kI64, {2, 3}}));
  EXPECT_EQ(scatter(OpKind::kScatterNd, {2, 3}, {1}, {3}, 0, kF16, kI64), (OperandDescriptor{kF16, {2, 3}}));

  scatter_error(OpKind::kScatterNd, {8}, {4, 1}, {3}, 0, "updates shape [3] must be [4]");
  scatter_error(OpKind::kScatterNd, {3, 2}, {2, 1}, {2}, 0, "must be [2, 2]");
  scatter_error(OpKind::kScatterNd, {2, 2}, {2, 3}, {2}, 0, "must not exceed the input rank 2");
  scatter_error(OpKind::kScatterNd, {2, 2}, {}, {2, 2}, 0, "indices must be a tensor of rank >= 1");
  scatter_error(OpKind::kScatterNd, {}, {1}, {}, 0, "input must be a tensor of rank >= 1");
  scatter_error(OpKind::kScatterNd, {8}, {4, 1}, {4}, 0, "indices data type", kF32);
  scatter_error(OpKind::kScatterNd, {8}, {4, 1}, {4}, 0, "updates must have the same data type", kI32, kI32);
}

}  // namespace
}  // namespace webnn::testing
