// Test helpers for the reference backend: build a webnn::Graph by hand (no GraphBuilder; each
// operation is validated, which resolves its options, but its outputs are the descriptors the
// test gives), feed it, run it with find_backend("reference").
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "core/float16.hpp"
#include "graph/graph.hpp"
#include "ops/ops.hpp"

namespace webnn::test {

inline constexpr float kInf = std::numeric_limits<float>::infinity();
inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A tensor's descriptor and bytes.
struct TensorData {
  OperandDescriptor desc;
  std::vector<std::byte> bytes;
};

template <class T>
TensorData tensor(DataType type, Shape shape, const std::vector<T>& values) {
  TensorData t{{type, std::move(shape)}, std::vector<std::byte>(values.size() * sizeof(T))};
  if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}
inline TensorData f32(Shape shape, const std::vector<float>& v) { return tensor(DataType::kFloat32, shape, v); }
// float16 from float values, each rounded to nearest even.
inline TensorData f16(Shape shape, const std::vector<float>& v) {
  std::vector<uint16_t> bits;
  for (float x : v) bits.push_back(float_to_half(x));
  return tensor(DataType::kFloat16, shape, bits);
}

template <class T>
std::vector<T> values(const TensorData& t) {
  std::vector<T> out(t.bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.bytes.data(), t.bytes.size());
  return out;
}
// float16 bytes widened to float (exact).
inline std::vector<float> half_values(const TensorData& t) {
  std::vector<float> out;
  for (uint16_t b : values<uint16_t>(t)) out.push_back(half_to_float(b));
  return out;
}

class GraphMaker {
 public:
  // A graph input fed with `data` at run().
  OperandId input(const std::string& name, TensorData data) {
    const OperandId id = add_operand(data.desc, OperandKind::kInput, name);
    graph_.inputs.push_back({name, id});
    feeds_.push_back(std::move(data.bytes));
    return id;
  }
  OperandId constant(const TensorData& data) {
    const OperandId id = add_operand(data.desc, OperandKind::kConstant, "");
    graph_.operands[id].constant_index = static_cast<uint32_t>(graph_.constants.size());
    graph_.constants.push_back(BufferRef::copy_of(data.bytes));
    return id;
  }
  // An operation with one output of descriptor `out`; returns the output operand.
  OperandId op(OpKind kind, std::vector<OperandId> inputs, Attributes attrs, OperandDescriptor out) {
    return op_n(kind, std::move(inputs), std::move(attrs), {std::move(out)}).front();
  }
  std::vector<OperandId> op_n(OpKind kind, std::vector<OperandId> inputs, Attributes attrs,
                              const std::vector<OperandDescriptor>& outs) {
    Operation operation;
    operation.kind = kind;
    operation.attrs = std::move(attrs);
    operation.inputs = std::move(inputs);
    // Validation resolves the options left to their defaults, which the kernels read.
    if (validate_) ops::infer(graph_, operation);
    for (const OperandDescriptor& d : outs) operation.outputs.push_back(add_operand(d, OperandKind::kIntermediate, ""));
    graph_.operations.push_back(operation);
    return graph_.operations.back().outputs;
  }
  void output(const std::string& name, OperandId id) { graph_.outputs.push_back({name, id}); }

  Graph& graph() { return graph_; }
  // Adds the next operations as given, unvalidated: for the tests of a kernel's own refusal of
  // what validation never lets through (its options are then not resolved either).
  void skip_validation() { validate_ = false; }

  // Compiles with the reference backend, runs `times` times and returns the graph outputs.
  std::vector<TensorData> run(int times = 1) const {
    auto executable = find_backend("reference").compile(std::make_shared<Graph>(graph_), {});
    std::vector<TensorData> outs;
    for (const NamedOperand& o : graph_.outputs) {
      const OperandDescriptor& d = graph_.desc(o.operand);
      outs.push_back({d, std::vector<std::byte>(*d.byte_length())});
    }
    std::vector<const std::byte*> in_ptrs;
    for (const auto& f : feeds_) in_ptrs.push_back(f.data());
    std::vector<std::byte*> out_ptrs;
    for (auto& o : outs) out_ptrs.push_back(o.bytes.data());
    for (int i = 0; i < times; ++i) executable->run(in_ptrs, out_ptrs);
    return outs;
  }

 private:
  OperandId add_operand(const OperandDescriptor& desc, OperandKind kind, const std::string& name) {
    Operand operand;
    operand.desc = desc;
    operand.kind = kind;
    operand.name = name;
    graph_.operands.push_back(operand);
    return static_cast<OperandId>(graph_.operands.size() - 1);
  }

  Graph graph_;
  bool validate_ = true;
  std::vector<std::vector<std::byte>> feeds_;
};

inline OperandDescriptor desc(DataType type, Shape shape) { return {type, std::move(shape)}; }

// Runs one op whose positional inputs are graph inputs, returning its single output.
inline TensorData run_op(OpKind kind, std::vector<TensorData> inputs, Attributes attrs, OperandDescriptor out) {
  GraphMaker g;
  std::vector<OperandId> ids;
  for (size_t i = 0; i < inputs.size(); ++i) ids.push_back(g.input("in" + std::to_string(i), std::move(inputs[i])));
  g.output("out", g.op(kind, ids, std::move(attrs), std::move(out)));
  return g.run().front();
}

// run_op for an operation validation refuses (GraphMaker::skip_validation), to reach the kernel's
// own check.
inline TensorData run_unvalidated_op(OpKind kind, std::vector<TensorData> inputs, Attributes attrs,
                                     OperandDescriptor out) {
  GraphMaker g;
  g.skip_validation();
  std::vector<OperandId> ids;
  for (size_t i = 0; i < inputs.size(); ++i) ids.push_back(g.input("in" + std::to_string(i), std::move(inputs[i])));
  g.output("out", g.op(kind, ids, std::move(attrs), std::move(out)));
  return g.run().front();
}

// Element-wise closeness: |a - e| <= atol + rtol * |e|; NaN matches NaN.
inline void expect_near(const std::vector<float>& actual, const std::vector<float>& expected, double atol = 1e-6,
                        double rtol = 1e-6) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual[i])) << "at " << i;
      continue;
    }
    EXPECT_NEAR(actual[i], expected[i], atol + rtol * std::fabs(expected[i])) << "at " << i;
  }
}

// Element-wise identity of values: NaN matches NaN, anything else must compare equal and zeros
// must have the same sign (-0 is not +0).
inline void expect_same(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual[i])) << "at " << i << ": " << actual[i];
      continue;
    }
    EXPECT_EQ(actual[i], expected[i]) << "at " << i;
    EXPECT_EQ(std::signbit(actual[i]), std::signbit(expected[i])) << "sign of zero at " << i;
  }
}

}  // namespace webnn::test
