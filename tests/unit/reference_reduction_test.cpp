// reduceMean on the reference backend. Input 0..23 as [2, 3, 4]; expected values from numpy.
#include <gtest/gtest.h>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

std::vector<float> iota24() {
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[i] = float(i);
  return v;
}

TensorData reduce_mean(const ReduceAttrs& attrs, Shape out_shape) {
  return run_op(OpKind::kReduceMean, {f32({2, 3, 4}, iota24())}, attrs, desc(DataType::kFloat32, std::move(out_shape)));
}

TEST(ReferenceReduceMean, AbsentAxesReduceEverything) {
  EXPECT_EQ(values<float>(reduce_mean(ReduceAttrs{}, {})), (std::vector<float>{11.5f}));
  ReduceAttrs keep;
  keep.keep_dimensions = true;
  EXPECT_EQ(values<float>(reduce_mean(keep, {1, 1, 1})), (std::vector<float>{11.5f}));
}

TEST(ReferenceReduceMean, SelectedAxes) {
  ReduceAttrs attrs;
  attrs.axes = std::vector<uint32_t>{1};
  EXPECT_EQ(values<float>(reduce_mean(attrs, {2, 4})), (std::vector<float>{4, 5, 6, 7, 16, 17, 18, 19}));
  attrs.axes = std::vector<uint32_t>{2, 0};
  attrs.keep_dimensions = true;
  EXPECT_EQ(values<float>(reduce_mean(attrs, {1, 3, 1})), (std::vector<float>{7.5f, 11.5f, 15.5f}));
}

TEST(ReferenceReduceMean, EmptyAxesReduceNothing) {
  ReduceAttrs attrs;
  attrs.axes = std::vector<uint32_t>{};
  EXPECT_EQ(values<float>(reduce_mean(attrs, {2, 3, 4})), iota24());
}

TEST(ReferenceReduceMean, ScalarAndFloat16) {
  TensorData out = run_op(OpKind::kReduceMean, {f32({}, {4.5f})}, ReduceAttrs{}, desc(DataType::kFloat32, {}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{4.5f}));
  // mean of float16(0.1), float16(0.2), float16(0.3), rounded once: numpy gives 0.199951171875.
  out = run_op(OpKind::kReduceMean, {f16({3}, {0.1f, 0.2f, 0.3f})}, ReduceAttrs{}, desc(DataType::kFloat16, {}));
  EXPECT_EQ(half_values(out), (std::vector<float>{0.199951171875f}));
}

}  // namespace
}  // namespace webnn::test
