// The backend registry and the reference executable's value table: binding, in-place outputs,
// copies, repeated runs, placement and errors.
#include <gtest/gtest.h>

#include <cstring>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

TEST(BackendRegistry, ReferenceIsAvailableAndFindable) {
  const auto backends = available_backends();
  ASSERT_FALSE(backends.empty());
  bool found = false;
  for (const Backend* b : backends) found = found || b->name() == "reference";
  EXPECT_TRUE(found);
  const Backend& ref = find_backend("reference");
  EXPECT_EQ(ref.name(), "reference");
  EXPECT_FALSE(ref.accelerated());
  EXPECT_EQ(default_backend(false).accelerated(), false);
  // No accelerated backend exists yet: a CPU one stands in.
  EXPECT_NO_THROW(default_backend(true));
}

TEST(BackendRegistry, UnknownNameListsTheAvailableOnes) {
  try {
    find_backend("tpu");
    FAIL() << "expected NotSupportedError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotSupportedError);
    EXPECT_NE(e.message().find("tpu"), std::string::npos);
    EXPECT_NE(e.message().find("reference"), std::string::npos);
  }
}

// relu(x + c) * 2 with intermediates, as a small MobileNet-like chain.
GraphMaker chain() {
  GraphMaker g;
  const OperandId x = g.input("x", f32({2, 2}, {-3, -1, 1, 3}));
  const OperandId c = g.constant(f32({2}, {1, -2}));
  const OperandId two = g.constant(f32({}, {2}));
  const OperandId s = g.op(OpKind::kAdd, {x, c}, NoAttrs{}, desc(DataType::kFloat32, {2, 2}));
  const OperandId r = g.op(OpKind::kRelu, {s}, NoAttrs{}, desc(DataType::kFloat32, {2, 2}));
  g.output("y", g.op(OpKind::kMul, {r, two}, NoAttrs{}, desc(DataType::kFloat32, {2, 2})));
  return g;
}

TEST(ReferenceExecutable, RunsAChainRepeatedly) {
  GraphMaker g = chain();
  EXPECT_EQ(values<float>(g.run(3).front()), (std::vector<float>{0, 0, 4, 2}));
}

TEST(ReferenceExecutable, PlacementIsReferenceForEveryOp) {
  GraphMaker g = chain();
  auto exe = find_backend("reference").compile(std::make_shared<Graph>(g.graph()), {});
  EXPECT_EQ(exe->placement(), (std::vector<std::string>{"reference", "reference", "reference"}));
}

TEST(ReferenceExecutable, IntermediateOutputsAndDuplicatesAndInputsAsOutputs) {
  GraphMaker g;
  const OperandId x = g.input("x", f32({3}, {-1, 0, 2}));
  const OperandId r = g.op(OpKind::kRelu, {x}, NoAttrs{}, desc(DataType::kFloat32, {3}));
  const OperandId y = g.op(OpKind::kAdd, {r, r}, NoAttrs{}, desc(DataType::kFloat32, {3}));
  g.output("relu", r);  // also consumed by a later op
  g.output("sum", y);
  g.output("sum_again", y);
  g.output("x_again", x);
  const auto out = g.run(2);
  EXPECT_EQ(values<float>(out[0]), (std::vector<float>{0, 0, 2}));
  EXPECT_EQ(values<float>(out[1]), (std::vector<float>{0, 0, 4}));
  EXPECT_EQ(values<float>(out[2]), (std::vector<float>{0, 0, 4}));
  EXPECT_EQ(values<float>(out[3]), (std::vector<float>{-1, 0, 2}));
}

TEST(ReferenceExecutable, OutputIsWrittenInPlaceAndMisalignedBuffersWork) {
  GraphMaker g = chain();
  auto exe = find_backend("reference").compile(std::make_shared<Graph>(g.graph()), {});
  // Misaligned input and output buffers (offset by one byte).
  std::vector<std::byte> in_storage(17), out_storage(17, std::byte{0xff});
  const float x[4] = {-3, -1, 1, 3};
  std::memcpy(in_storage.data() + 1, x, 16);
  const std::byte* ins[] = {in_storage.data() + 1};
  std::byte* outs[] = {out_storage.data() + 1};
  exe->run(ins, outs);
  float y[4];
  std::memcpy(y, out_storage.data() + 1, 16);
  EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{0, 0, 4, 2}));
  // Aligned buffers: the same executable, run again.
  std::vector<float> xin = {1, 1, 1, 1}, yout(4, -7);
  const std::byte* ins2[] = {reinterpret_cast<const std::byte*>(xin.data())};
  std::byte* outs2[] = {reinterpret_cast<std::byte*>(yout.data())};
  exe->run(ins2, outs2);
  EXPECT_EQ(yout, (std::vector<float>{4, 0, 4, 0}));
}

TEST(ReferenceExecutable, MisalignedConstantIsCopied) {
  GraphMaker g;
  const OperandId x = g.input("x", tensor<int64_t>(DataType::kInt64, {2}, {1, 2}));
  const OperandId c = g.constant(tensor<int64_t>(DataType::kInt64, {2}, {0, 0}));
  g.output("y", g.op(OpKind::kAdd, {x, c}, NoAttrs{}, desc(DataType::kInt64, {2})));
  // Re-point the constant at an odd address inside a larger buffer.
  auto raw = std::make_shared<std::vector<std::byte>>(17);
  const int64_t v[2] = {INT64_MAX - 1, -5};
  std::memcpy(raw->data() + 1, v, 16);
  BufferRef& ref = g.graph().constants[g.graph().operands[c].constant_index];
  ref.data = std::shared_ptr<const std::byte>(raw, raw->data() + 1);
  ref.size = 16;
  EXPECT_EQ(values<int64_t>(g.run().front()), (std::vector<int64_t>{INT64_MAX, -3}));
}

TEST(ReferenceExecutable, WrongArgumentCountThrows) {
  GraphMaker g = chain();
  auto exe = find_backend("reference").compile(std::make_shared<Graph>(g.graph()), {});
  std::vector<const std::byte*> ins;
  std::vector<std::byte*> outs;
  EXPECT_THROW(exe->run(ins, outs), Error);
}

}  // namespace
}  // namespace webnn::test
