// MLContext.opSupportLimits() against the spec's tensor limits tables.
#include <gtest/gtest.h>

#include "graph/graph_builder.hpp"
#include "ops/ops.hpp"
#include "runtime_fake_backend.hpp"

namespace webnn {
namespace {

std::vector<DataType> all_types() {
  return {DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kUint32,
          DataType::kInt64,   DataType::kUint64,  DataType::kInt8,  DataType::kUint8};
}

MLOpSupportLimits limits_of_fake_context() {
  testing::FakeBackend backend;
  return detail::create_context_with_backend(backend).op_support_limits();
}

TEST(RuntimeOpSupportLimits, TopLevelMembers) {
  const MLOpSupportLimits limits = limits_of_fake_context();
  EXPECT_EQ(limits.preferred_input_layout, "nchw");
  EXPECT_EQ(limits.max_tensor_byte_length, uint64_t{1} << 31);
  for (const MLTensorLimits* l : {&limits.input, &limits.constant, &limits.output}) {
    EXPECT_EQ(l->data_types, all_types());
    EXPECT_EQ(l->rank_range.min, 0u);
    EXPECT_EQ(l->rank_range.max, kMaxRank);
  }
}

// Rows transcribed by hand from the spec's tensor limits tables.
TEST(RuntimeOpSupportLimits, MatchesTheSpecTablesForSampleOps) {
  const MLOpSupportLimits limits = limits_of_fake_context();
  const std::vector<DataType> floats{DataType::kFloat32, DataType::kFloat16};
  const auto& conv = limits.ops.at("conv2d");
  EXPECT_EQ(conv.at("input").data_types, floats);
  EXPECT_EQ(conv.at("input").rank_range.min, 4u);
  EXPECT_EQ(conv.at("input").rank_range.max, 4u);
  EXPECT_EQ(conv.at("filter").data_types, floats);  // "same as input"
  EXPECT_EQ(conv.at("bias").rank_range.min, 1u);
  EXPECT_EQ(conv.at("bias").rank_range.max, 1u);
  const auto& add = limits.ops.at("add");
  EXPECT_EQ(add.at("a").data_types, all_types());
  EXPECT_EQ(add.at("b").data_types, all_types());
  EXPECT_EQ(add.at("output").rank_range.max, kMaxRank);
  const auto& clamp = limits.ops.at("clamp");
  EXPECT_EQ(clamp.at("output").data_types, all_types());  // same type and rank as input
  EXPECT_EQ(clamp.at("output").rank_range.min, 0u);
}

// The IDL's member names (MLGruSupportLimits.output0), not the tables' "outputs[0]".
TEST(RuntimeOpSupportLimits, RecurrentOutputsAreTheIdlMembers) {
  const MLOpSupportLimits limits = limits_of_fake_context();
  for (const char* member : {"output0", "output1"}) {
    EXPECT_TRUE(limits.ops.at("gru").count(member)) << member;
    EXPECT_TRUE(limits.ops.at("lstm").count(member)) << member;
    EXPECT_TRUE(limits.ops.at("lstmCell").count(member)) << member;
  }
  EXPECT_TRUE(limits.ops.at("lstm").count("output2"));
  EXPECT_FALSE(limits.ops.at("gru").count("outputs[0]"));
  EXPECT_TRUE(limits.ops.at("split").count("outputs"));
  EXPECT_EQ(ops::support_limits_member("outputs[1]"), "output1");
  EXPECT_EQ(ops::support_limits_member("outputs"), "outputs");
}

TEST(RuntimeOpSupportLimits, EveryOpAgreesWithTheValidationTables) {
  const MLOpSupportLimits limits = limits_of_fake_context();
  EXPECT_EQ(limits.ops.size(), kOpKindCount);
  for (size_t k = 0; k < kOpKindCount; ++k) {
    const auto kind = static_cast<OpKind>(k);
    const std::string name(op_name(kind));
    ASSERT_TRUE(limits.ops.count(name)) << name;
    const auto& op = limits.ops.at(name);
    const auto rows = ops::tensor_limits(kind);
    EXPECT_FALSE(rows.empty()) << name << " has no tensor limits";
    EXPECT_EQ(op.size(), rows.size()) << name;
    for (const ops::TensorLimit& row : rows) {
      const std::string operand(row.operand);
      const std::string member = ops::support_limits_member(operand);
      ASSERT_TRUE(op.count(member)) << name << "." << member;
      const MLTensorLimits& l = op.at(member);
      // Every reported type passes the validation check, every other type fails it.
      for (DataType t : all_types()) {
        const bool reported = std::find(l.data_types.begin(), l.data_types.end(), t) != l.data_types.end();
        EXPECT_EQ(reported, ops::resolved_types(kind, operand).contains(t)) << name << "." << operand;
      }
      EXPECT_FALSE(l.data_types.empty()) << name << "." << operand;
      EXPECT_LE(l.rank_range.min, l.rank_range.max) << name << "." << operand;
      if (row.same_rank_as.empty()) {
        EXPECT_EQ(l.rank_range.min, row.min_rank) << name << "." << operand;
        EXPECT_EQ(l.rank_range.max, row.max_rank) << name << "." << operand;
      } else {
        const ops::TensorLimit* ref = ops::find_tensor_limit(kind, row.same_rank_as);
        ASSERT_NE(ref, nullptr) << name << "." << operand;
        EXPECT_EQ(l.rank_range.min, ref->min_rank) << name << "." << operand;
        EXPECT_EQ(l.rank_range.max, ref->max_rank) << name << "." << operand;
      }
    }
  }
}

}  // namespace
}  // namespace webnn
