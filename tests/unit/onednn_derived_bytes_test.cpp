// Constant weights reordered at build time are shared by the plans that reorder the same storage
// the same way (src/backends/onednn/derived_bytes.hpp): a prefill and a decode graph over one
// weight hold one reordered copy. Keyed by the storage, not the bytes' values; gone with the last
// plan that holds them; and each plan still computes what the reference backend does.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>

#include "backends/backend.hpp"
#include "backends/onednn/derived_bytes.hpp"
#include "graph/graph_builder.hpp"

namespace webnn::onednn {
namespace {

using Bytes = std::vector<std::byte>;

Bytes random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = real(rng);
  Bytes b(n * sizeof(float));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

constexpr uint32_t kK = 128, kN = 256;

// x[m, K] . w[K, N]: a graph over the weight storage `w`, compiled on `backend`.
struct Product {
  uint32_t m;
  std::shared_ptr<const Graph> graph;
  std::unique_ptr<Executable> exe;

  Product(uint32_t rows, const BufferRef& w, const std::string& backend) : m(rows) {
    GraphBuilder b;
    const OperandId x = b.add_input("x", {DataType::kFloat32, {m, kK}});
    const OperandId c = b.add_constant({DataType::kFloat32, {kK, kN}}, w);
    const OperandId y = b.add_operation(OpKind::kMatmul, {x, c}, NoAttrs{}).front();
    graph = b.build({{"y", y}});
    exe = find_backend(backend).compile(graph, CompileOptions{});
  }
  std::vector<float> run(const Bytes& x) const {
    std::vector<float> y(size_t{m} * kN);
    const std::byte* in[] = {x.data()};
    std::byte* out[] = {reinterpret_cast<std::byte*>(y.data())};
    exe->run(in, out);
    return y;
  }
};

void expect_close(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) ASSERT_NEAR(actual[i], expected[i], 1e-4) << i;
}

TEST(OnednnDerivedBytes, TwoGraphsOverOneWeightShareItsReorderedCopy) {
  const size_t before = derived_bytes_held();
  const BufferRef w = BufferRef::copy_of(random_floats(size_t{kK} * kN, 1));
  ASSERT_EQ(reinterpret_cast<uintptr_t>(w.data.get()) % kBufferAlignment, 0u);  // read in place, not copied
  {
    Product prefill(16, w, "onednn");
    // The weight was reordered into a blocked layout (else this test shows nothing).
    ASSERT_EQ(derived_bytes_held(), before + 1);
    Product decode(1, w, "onednn");
    EXPECT_EQ(derived_bytes_held(), before + 1);  // the decode graph found the prefill's copy
    // Each computes what the reference does, the decode graph after the prefill one is gone too.
    const Bytes x16 = random_floats(16 * kK, 2), x1 = random_floats(kK, 3);
    expect_close(prefill.run(x16), Product(16, w, "reference").run(x16));
    prefill.exe.reset();
    expect_close(decode.run(x1), Product(1, w, "reference").run(x1));
    EXPECT_EQ(derived_bytes_held(), before + 1);
  }
  EXPECT_EQ(derived_bytes_held(), before);  // gone with the last plan that held it
}

TEST(OnednnDerivedBytes, EqualBytesInOtherStorageAreNotShared) {
  const size_t before = derived_bytes_held();
  const Bytes values = random_floats(size_t{kK} * kN, 4);
  const BufferRef a = BufferRef::copy_of(values), b = BufferRef::copy_of(values);
  Product pa(4, a, "onednn");
  Product pb(4, b, "onednn");
  EXPECT_EQ(derived_bytes_held(), before + 2);
}

TEST(OnednnDerivedBytes, AnAdoptedVectorIsReadInPlace) {
  // Imports and builders hand their bytes over as vectors (BufferRef::adopt); a large one is no
  // longer copied once more by every graph that reads it (only its reordered layout is made).
  const size_t before = derived_bytes_held();
  const BufferRef w = BufferRef::adopt(random_floats(size_t{kK} * kN, 7));
  Product p(8, w, "onednn");
  EXPECT_EQ(derived_bytes_held(), before + 1);
  const Bytes x = random_floats(8 * kK, 8);
  expect_close(p.run(x), Product(8, w, "reference").run(x));
}

TEST(OnednnDerivedBytes, AMisalignedWeightsAlignedCopyIsSharedToo) {
  const size_t before = derived_bytes_held();
  // A weights file's tensor need not start on 64 bytes: here one or two floats into a block.
  auto block = std::make_shared<Bytes>(random_floats(size_t{kK} * kN + 2, 5));
  const size_t shift = (reinterpret_cast<uintptr_t>(block->data()) + 4) % 64 == 0 ? 8 : 4;
  BufferRef w;
  w.data = std::shared_ptr<const std::byte>(block, block->data() + shift);
  w.size = size_t{kK} * kN * sizeof(float);
  Product first(8, w, "onednn");
  EXPECT_EQ(derived_bytes_held(), before + 2);  // the aligned copy, and its reordered layout
  Product second(2, w, "onednn");
  EXPECT_EQ(derived_bytes_held(), before + 2);
  const Bytes x = random_floats(2 * kK, 6);
  expect_close(second.run(x), Product(2, w, "reference").run(x));
}

}  // namespace
}  // namespace webnn::onednn
