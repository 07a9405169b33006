// Fixture for the validation tests of src/ops/: builds operations through webnn::GraphBuilder, the
// path every front end takes, and checks results and errors.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graph/graph_builder.hpp"

namespace webnn::testing {

inline constexpr DataType kF32 = DataType::kFloat32;
inline constexpr DataType kF16 = DataType::kFloat16;
inline constexpr DataType kI32 = DataType::kInt32;
inline constexpr DataType kU32 = DataType::kUint32;
inline constexpr DataType kI64 = DataType::kInt64;
inline constexpr DataType kU64 = DataType::kUint64;
inline constexpr DataType kI8 = DataType::kInt8;
inline constexpr DataType kU8 = DataType::kUint8;
inline constexpr RecurrentActivation kRelu = RecurrentActivation::kRelu;
inline constexpr RecurrentActivation kSigmoid = RecurrentActivation::kSigmoid;
inline constexpr RecurrentActivation kTanh = RecurrentActivation::kTanh;

class OpsTest : public ::testing::Test {
 protected:
  // A new graph input.
  OperandId input(DataType type, Shape shape) {
    return builder_.add_input("in" + std::to_string(next_++), {type, std::move(shape)});
  }
  OperandRef ref(DataType type, Shape shape) { return {input(type, std::move(shape))}; }

  // Adds the operation and returns its output descriptors.
  std::vector<OperandDescriptor> outputs(OpKind kind, std::vector<OperandId> inputs, Attributes attrs) {
    std::vector<OperandDescriptor> descs;
    for (OperandId id : builder_.add_operation(kind, std::move(inputs), std::move(attrs)))
      descs.push_back(builder_.desc(id));
    return descs;
  }
  // Adds a single-output operation and returns its output descriptor.
  OperandDescriptor output(OpKind kind, std::vector<OperandId> inputs, Attributes attrs) {
    auto descs = outputs(kind, std::move(inputs), std::move(attrs));
    EXPECT_EQ(descs.size(), 1u);
    return descs.empty() ? OperandDescriptor{} : descs[0];
  }
  Shape shape(OpKind kind, std::vector<OperandId> inputs, Attributes attrs) {
    return output(kind, std::move(inputs), std::move(attrs)).shape;
  }

  // Expects add_operation to throw `expected` with a message naming the op (and containing
  // `fragment` when given), leaving the builder unchanged.
  void expect_error(OpKind kind, std::vector<OperandId> inputs, Attributes attrs, const std::string& fragment = {},
                    ErrorKind expected = ErrorKind::kTypeError) {
    const size_t operands = builder_.graph().operands.size();
    const size_t operations = builder_.graph().operations.size();
    try {
      builder_.add_operation(kind, std::move(inputs), std::move(attrs));
      ADD_FAILURE() << op_name(kind) << ": expected " << to_string(expected) << " containing \"" << fragment
                    << "\", but the operation was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), expected) << e.what();
      EXPECT_EQ(e.message().rfind(std::string(op_name(kind)), 0), 0u) << "message must name the op: " << e.message();
      if (!fragment.empty()) EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
    }
    EXPECT_EQ(builder_.graph().operands.size(), operands);
    EXPECT_EQ(builder_.graph().operations.size(), operations);
  }

  GraphBuilder builder_;
  int next_ = 0;
};

}  // namespace webnn::testing
