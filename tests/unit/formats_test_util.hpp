// Helpers shared by the formats tests: graph comparison, temporary directories, error matching.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/formats.hpp"
#include "graph/graph.hpp"

namespace webnn::formats::testing {

// A JSON graph file's text, parsed without weights.
inline std::shared_ptr<const Graph> parse_json(const std::string& text) {
  return parse_graph_json(text, no_weights(), "g.json");
}

// Compares two graphs operand by operand and operation by operation. With `names` false the
// names of constants and intermediates (which a writer may generate) are not compared.
inline void expect_same_graph(const Graph& a, const Graph& b, bool names = true) {
  EXPECT_EQ(a.name, b.name);
  ASSERT_EQ(a.operands.size(), b.operands.size());
  for (size_t i = 0; i < a.operands.size(); ++i) {
    const Operand& x = a.operands[i];
    const Operand& y = b.operands[i];
    SCOPED_TRACE("operand " + std::to_string(i) + " \"" + x.name + "\"");
    EXPECT_EQ(x.desc.to_string(), y.desc.to_string());
    EXPECT_EQ(int(x.kind), int(y.kind));
    if (names || x.kind == OperandKind::kInput) {
      EXPECT_EQ(x.name, y.name);
    }
    if (x.kind == OperandKind::kConstant && y.kind == OperandKind::kConstant) {
      const BufferRef& bx = a.constant_data(OperandId(i));
      const BufferRef& by = b.constant_data(OperandId(i));
      ASSERT_EQ(bx.size, by.size);
      EXPECT_EQ(0, std::memcmp(bx.data.get(), by.data.get(), bx.size)) << "constant bytes differ";
    }
  }
  ASSERT_EQ(a.operations.size(), b.operations.size());
  for (size_t i = 0; i < a.operations.size(); ++i) {
    const Operation& x = a.operations[i];
    const Operation& y = b.operations[i];
    SCOPED_TRACE("operation " + std::to_string(i) + " " + describe(x));
    EXPECT_EQ(op_name(x.kind), op_name(y.kind));
    EXPECT_TRUE(x.attrs == y.attrs) << "attributes differ";
    EXPECT_EQ(x.inputs, y.inputs);
    EXPECT_EQ(x.outputs, y.outputs);
    EXPECT_EQ(x.label, y.label);
  }
  ASSERT_EQ(a.inputs.size(), b.inputs.size());
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    EXPECT_EQ(a.inputs[i].name, b.inputs[i].name);
    EXPECT_EQ(a.inputs[i].operand, b.inputs[i].operand);
  }
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    EXPECT_EQ(a.outputs[i].name, b.outputs[i].name);
    EXPECT_EQ(a.outputs[i].operand, b.outputs[i].operand);
  }
}

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "webnn_formats_XXXXXX").string();
    path_ = ::mkdtemp(templ.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (std::filesystem::path(path_) / name).string(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline void write_file(const std::string& path, std::string_view content) {
  std::ofstream f(path, std::ios::binary);
  f.write(content.data(), std::streamsize(content.size()));
}

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// Runs fn, expecting a webnn::Error whose message contains every one of `parts`.
template <class Fn>
void expect_error(Fn&& fn, std::initializer_list<std::string> parts, ErrorKind kind = ErrorKind::kDataError) {
  try {
    fn();
    ADD_FAILURE() << "expected a webnn::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    for (const std::string& p : parts) EXPECT_THAT(e.message(), ::testing::HasSubstr(p));
  }
}

inline std::string shared_dir() {
#ifdef WEBNN_SHARED_DIR
  return WEBNN_SHARED_DIR;
#else
  return "";
#endif
}

inline std::string mobilenet_dir() { return shared_dir() + "/models/mobilenetv2"; }

}  // namespace webnn::formats::testing
