// Shared by the onednn backend's test files.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend.hpp"
#include "graph/attributes.hpp"
#include "graph/graph_builder.hpp"

namespace webnn::test {

inline constexpr DataType kF32 = DataType::kFloat32;

// conv2d options: explicit padding and strides (a 3x3 "same" convolution by default), groups.
inline Conv2dAttrs conv(std::vector<uint32_t> padding = {1, 1, 1, 1}, std::vector<uint32_t> strides = {1, 1},
                        uint32_t groups = 1) {
  Conv2dAttrs a;
  a.padding = std::move(padding);
  a.strides = std::move(strides);
  a.groups = groups;
  return a;
}

// A graph a test builds, run on the reference and the onednn backends: the expected values are
// the reference's, and the test's compare() says how far onednn may be from them (its `Tolerance`,
// one per output). The float16 and int8 tests share it.
template <class Tolerance>
class BackendComparison : public ::testing::Test {
 protected:
  using Bytes = std::vector<std::byte>;

  OperandId input_bytes(const OperandDescriptor& d, Bytes b) {
    feeds_.push_back(std::move(b));
    return builder_.add_input("in" + std::to_string(feeds_.size() - 1), d);
  }
  OperandId op(OpKind kind, std::vector<OperandId> inputs, Attributes attrs = NoAttrs{}) {
    return builder_.add_operation(kind, std::move(inputs), std::move(attrs)).front();
  }
  void output(OperandId id, Tolerance tolerance = {}) {
    outputs_.push_back({"out" + std::to_string(outputs_.size()), id});
    tolerances_.push_back(tolerance);
  }

  // Builds, runs on both backends and compares every output.
  void check() {
    graph_ = builder_.build(outputs_);
    expected_ = run("reference");
    actual_ = run("onednn");
    for (size_t i = 0; i < expected_.size(); ++i) compare(i);
  }
  virtual void compare(size_t index) = 0;

  std::vector<Bytes> run(const std::string& backend) {
    std::unique_ptr<Executable> exe = find_backend(backend).compile(graph_, CompileOptions{2});
    placement_ = exe->placement();
    std::vector<const std::byte*> in;
    for (const NamedOperand& i : graph_->inputs) {
      size_t k = 0;
      while (builder_.graph().inputs[k].name != i.name) ++k;
      in.push_back(feeds_[k].data());
    }
    std::vector<Bytes> out_store;
    std::vector<std::byte*> out;
    for (const NamedOperand& o : graph_->outputs) out_store.push_back(Bytes(*graph_->desc(o.operand).byte_length()));
    for (Bytes& b : out_store) out.push_back(b.data());
    exe->run(in, out);
    return out_store;
  }

  bool all_on_onednn() const {
    for (const std::string& p : placement_)
      if (p != "onednn") return false;
    return !placement_.empty();
  }

  GraphBuilder builder_;
  std::vector<Bytes> feeds_;
  std::vector<NamedOperand> outputs_;
  std::vector<Tolerance> tolerances_;
  std::shared_ptr<const Graph> graph_;
  std::vector<Bytes> expected_, actual_;
  std::vector<std::string> placement_;
};

}  // namespace webnn::test
