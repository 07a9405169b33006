// The onednn backend's implementation lists (impl_list.cpp) against what each family says it can
// run: every kind with a kernel of our own, an eltwise primitive, a binary primitive or an int8
// form lists it, and no other kind does.
#include <gtest/gtest.h>

#include <algorithm>

#include "backends/onednn/eltwise.hpp"
#include "backends/onednn/fusion.hpp"
#include "backends/onednn/impl_list.hpp"

namespace webnn::onednn {
namespace {

bool lists(OpKind kind, Lowering lowering) {
  const std::span<const Candidate> list = candidates(kind);
  return std::any_of(list.begin(), list.end(), [&](const Candidate& c) { return c.lower == lowering; });
}

Operation default_operation(OpKind kind) {
  Operation op;
  op.kind = kind;
  op.attrs = default_attributes(kind);
  return op;
}

TEST(OnednnImplList, OwnEltwiseKernelsComeFirst) {
  for (size_t k = 0; k < kOpKindCount; ++k) {
    const auto kind = static_cast<OpKind>(k);
    const std::span<const Candidate> list = candidates(kind);
    EXPECT_EQ(!list.empty() && list[0].lower == lower_own_eltwise, has_own_eltwise(kind)) << op_name(kind);
    EXPECT_EQ(lists(kind, lower_own_eltwise), has_own_eltwise(kind)) << op_name(kind);
  }
}

TEST(OnednnImplList, EltwisePrimitivesWhereOneDnnHasOne) {
  for (size_t k = 0; k < kOpKindCount; ++k) {
    const auto kind = static_cast<OpKind>(k);
    EXPECT_EQ(lists(kind, lower_eltwise), eltwise_chain(default_operation(kind)).size() == 1) << op_name(kind);
  }
}

TEST(OnednnImplList, BinaryPrimitivesWhereOneDnnHasOne) {
  for (size_t k = 0; k < kOpKindCount; ++k) {
    const auto kind = static_cast<OpKind>(k);
    EXPECT_EQ(lists(kind, lower_binary), binary_algorithm(kind).has_value()) << op_name(kind);
  }
}

TEST(OnednnImplList, Int8FormsComeBeforeFloat32) {
  for (OpKind kind : {OpKind::kConv2d, OpKind::kConvTranspose2d, OpKind::kMatmul, OpKind::kGemm}) {
    const std::span<const Candidate> list = candidates(kind);
    const bool product = kind == OpKind::kMatmul || kind == OpKind::kGemm;
    // Matrix products: the int8 primitive, then the weight-only kernel, then float32.
    ASSERT_EQ(list.size(), product ? 3u : 2u) << op_name(kind);
    EXPECT_EQ(list[0].lower, lower_int8) << op_name(kind);
    if (product) EXPECT_EQ(list[1].lower, lower_weight_only) << op_name(kind);
    EXPECT_EQ(list.back().operands, Operands::kFloat32) << op_name(kind);
  }
  size_t int8_lists = 0, weight_only_lists = 0;
  for (size_t k = 0; k < kOpKindCount; ++k) {
    int8_lists += lists(static_cast<OpKind>(k), lower_int8);
    weight_only_lists += lists(static_cast<OpKind>(k), lower_weight_only);
  }
  EXPECT_EQ(int8_lists, 4u);
  EXPECT_EQ(weight_only_lists, 2u);
}

TEST(OnednnImplList, UnlistedKindsRunTheirReferenceKernel) {
  EXPECT_TRUE(candidates(OpKind::kGru).empty());
  EXPECT_TRUE(candidates(OpKind::kReduceSum).empty());
  for (size_t k = 0; k < kOpKindCount; ++k)
    for (const Candidate& c : candidates(static_cast<OpKind>(k))) {
      EXPECT_NE(c.lower, nullptr) << op_name(static_cast<OpKind>(k));
      EXPECT_FALSE(c.name.empty()) << op_name(static_cast<OpKind>(k));
    }
}

}  // namespace
}  // namespace webnn::onednn
