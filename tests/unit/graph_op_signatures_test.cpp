// The op signatures (graph/op_signatures.def, generated from the spec's IDL) against the op table,
// the attribute structs and the spec's tensor-limits tables: every op has exactly one signature,
// every required parameter is a field of the op's attribute struct, and every positional operand
// has a tensor-limits row. A binding that presents methods from these tables therefore cannot
// drift from the IR.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "graph/op_signatures.hpp"
#include "ops/ops.hpp"

namespace webnn {
namespace {

std::set<std::string> field_names(OpKind kind) {
  std::set<std::string> names;
  Attributes attrs = default_attributes(kind);
  std::visit(
      [&](auto& a) { std::decay_t<decltype(a)>::fields(a, [&](std::string_view n, auto&) { names.emplace(n); }); },
      attrs);
  return names;
}

TEST(OpSignatures, EveryOpOfTheTableHasOneSignature) {
  EXPECT_EQ(std::size(kOpSignatures), kOpKindCount);
  std::set<std::string_view> seen;
  for (const OpSignature& s : kOpSignatures) {
    EXPECT_TRUE(parse_op_name(s.name).has_value()) << s.name << " is not in the op table";
    EXPECT_TRUE(seen.insert(s.name).second) << s.name << " has two signatures";
  }
  for (size_t i = 0; i < kOpKindCount; ++i) {
    const auto kind = static_cast<OpKind>(i);
    const OpSignature* s = find_op_signature(kind);
    ASSERT_NE(s, nullptr) << op_name(kind) << " has no signature";
    EXPECT_GE(s->operand_count(), 1u) << op_name(kind);
  }
}

TEST(OpSignatures, ParametersAreAttributeFields) {
  for (const OpSignature& s : kOpSignatures) {
    const std::set<std::string> fields = field_names(*parse_op_name(s.name));
    for (size_t i = 0; i < s.parameter_count(); ++i)
      EXPECT_TRUE(fields.count(std::string(s.parameters[i])))
          << s.name << ": parameter " << s.parameters[i] << " is not a field of its attribute struct";
  }
}

TEST(OpSignatures, OperandsHaveTensorLimitRows) {
  for (const OpSignature& s : kOpSignatures) {
    const OpKind kind = *parse_op_name(s.name);
    for (size_t i = 0; i < s.operand_count(); ++i) {
      std::string_view name = s.operands[i];
      if (OpSignature::is_sequence(name)) name.remove_suffix(2);
      EXPECT_NE(ops::find_tensor_limit(kind, name), nullptr) << s.name << ": no tensor-limits row for " << name;
    }
  }
}

TEST(OpSignatures, KnownShapes) {
  const OpSignature* gru = find_op_signature(OpKind::kGru);
  ASSERT_NE(gru, nullptr);
  EXPECT_EQ(gru->operand_count(), 3u);
  EXPECT_EQ(gru->operands[2], "recurrentWeight");
  EXPECT_EQ(gru->parameter_count(), 2u);
  EXPECT_EQ(gru->parameters[1], "hiddenSize");
  EXPECT_TRUE(gru->returns_sequence);
  const OpSignature* concat = find_op_signature(OpKind::kConcat);
  ASSERT_NE(concat, nullptr);
  EXPECT_TRUE(OpSignature::is_sequence(concat->operands[0]));
  const OpSignature* where = find_op_signature(OpKind::kWhere);
  ASSERT_NE(where, nullptr);
  EXPECT_EQ(where->operands[0], "condition");
  EXPECT_FALSE(where->returns_sequence);
}

}  // namespace
}  // namespace webnn
