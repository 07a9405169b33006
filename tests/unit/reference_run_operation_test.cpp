// reference::run_operation: one operation validated as the builder validates it and computed by
// the reference kernels on host tensors (what the ONNX importer folds constants with).
#include "backends/reference/run_operation.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

using reference::HostTensor;
using reference::run_operation;

template <class T>
HostTensor host(DataType type, Shape shape, const std::vector<T>& v) {
  std::vector<std::byte> bytes(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
  return {{type, std::move(shape)}, BufferRef::adopt(std::move(bytes))};
}

template <class T>
std::vector<T> host_values(const HostTensor& t) {
  std::vector<T> out(t.data.size / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.data.data.get(), t.data.size);
  return out;
}

TEST(ReferenceRunOperation, ComputesWhatTheKernelComputes) {
  // int64 arithmetic is exact and wraps, beyond what a double holds (2^53 + 1).
  const int64_t big = (int64_t{1} << 53) + 1, max = std::numeric_limits<int64_t>::max();
  const std::vector<HostTensor> out = run_operation(
      OpKind::kAdd, {host<int64_t>(DataType::kInt64, {2, 1}, {big, max}), host<int64_t>(DataType::kInt64, {2}, {0, 1})},
      NoAttrs{});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].desc, (OperandDescriptor{DataType::kInt64, {2, 2}}));
  EXPECT_EQ(host_values<int64_t>(out[0]),
            (std::vector<int64_t>{big, big + 1, max, std::numeric_limits<int64_t>::min()}));
  // The same op on the same values through a whole graph gives the same bytes.
  const TensorData graph =
      run_op(OpKind::kAdd,
             {tensor<int64_t>(DataType::kInt64, {2, 1}, {big, max}), tensor<int64_t>(DataType::kInt64, {2}, {0, 1})},
             NoAttrs{}, desc(DataType::kInt64, {2, 2}));
  EXPECT_EQ(values<int64_t>(graph), host_values<int64_t>(out[0]));
}

TEST(ReferenceRunOperation, ReturnsEveryOutput) {
  const std::vector<HostTensor> out =
      run_operation(OpKind::kSplit, {host<float>(DataType::kFloat32, {5}, {1, 2, 3, 4, 5})},
                    SplitAttrs{std::vector<uint32_t>{2, 3}, 0});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].desc.shape, (Shape{2}));
  EXPECT_EQ(host_values<float>(out[0]), (std::vector<float>{1, 2}));
  EXPECT_EQ(host_values<float>(out[1]), (std::vector<float>{3, 4, 5}));
}

TEST(ReferenceRunOperation, LeavesItsInputsAsTheyWere) {
  const HostTensor x = host<int32_t>(DataType::kInt32, {3}, {1, -2, 3});
  const std::vector<HostTensor> out = run_operation(OpKind::kNeg, {x}, NoAttrs{});
  EXPECT_EQ(host_values<int32_t>(out[0]), (std::vector<int32_t>{-1, 2, -3}));
  EXPECT_EQ(host_values<int32_t>(x), (std::vector<int32_t>{1, -2, 3}));
}

TEST(ReferenceRunOperation, ValidatesAsTheBuilderDoes) {
  // Shapes that do not broadcast, and a data type the op does not take: the builder's errors.
  try {
    run_operation(OpKind::kAdd,
                  {host<float>(DataType::kFloat32, {2}, {1, 2}), host<float>(DataType::kFloat32, {3}, {1, 2, 3})},
                  NoAttrs{});
    FAIL() << "expected a TypeError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    EXPECT_NE(e.message().find("add"), std::string::npos) << e.message();
  }
  EXPECT_THROW(run_operation(OpKind::kNeg, {host<uint8_t>(DataType::kUint8, {1}, {1})}, NoAttrs{}), Error);
}

}  // namespace
}  // namespace webnn::test
