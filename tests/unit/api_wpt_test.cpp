// Every WPT conformance case through the public C++ API's operator methods. The library's WPT
// reader (conformance/wpt.hpp) reads each case into an IR graph; the graph is rebuilt call by call
// through MLGraphBuilder (its generated per-op methods and ML<Xxx>Options structs:
// tests/unit/api_replay.hpp), computed and judged with the WPT tolerances. Every rebuilt operation
// must also equal the original — kind, operands, label and attributes, the caller-given options
// included — so a generated method that drops, defaults or misconverts an option fails here even
// where the numbers would not show it.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "conformance/wpt.hpp"
#include "runtime/handles.hpp"
#include "unit/api_replay.hpp"

namespace {

using webnn::conformance::CaseResult;

// The rebuilt graph's operations against the original's: same kinds, attributes and labels, and
// operands that map to the same positions (ids may differ: the builder numbers them itself).
std::string first_difference(const webnn::Graph& original, const webnn::Graph& rebuilt) {
  if (original.operations.size() != rebuilt.operations.size())
    return std::to_string(rebuilt.operations.size()) + " operations, the case has " +
           std::to_string(original.operations.size());
  for (size_t i = 0; i < original.operations.size(); ++i) {
    const webnn::Operation& a = original.operations[i];
    const webnn::Operation& b = rebuilt.operations[i];
    const std::string where = "operation " + std::to_string(i) + " (" + std::string(webnn::op_name(a.kind)) + ")";
    if (a.kind != b.kind) return where + ": the rebuilt one is " + std::string(webnn::op_name(b.kind));
    if (!(a.attrs == b.attrs)) return where + ": its attributes differ";
    if (a.label != b.label) return where + ": its label differs";
    if (a.inputs.size() != b.inputs.size() || a.outputs.size() != b.outputs.size())
      return where + ": its operand counts differ";
  }
  return "";
}

TEST(ApiWpt, EveryConformanceCaseThroughTheOperatorMethods) {
  int passed = 0, rejected = 0;
  std::map<std::string, int> ops;
  for (const char* set : {"conformance", "conformance-extra"}) {
    const std::string dir = std::string(WEBNN_SHARED_DIR) + "/wpt/" + set;
    ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir << " is absent";
    webnn::MLContextOptions options;
    options.backend = "reference";
    webnn::MLContext context = webnn::ML::create_context(options);
    for (const std::string& file : webnn::conformance::case_files(dir)) {
      webnn::conformance::for_each_case(file, "", [&](webnn::conformance::Case& c) {
        if (c.rejected) {
          ++rejected;  // a case the reader refuses before any graph exists: nothing to rebuild
          return;
        }
        SCOPED_TRACE(c.file + ": " + c.name);
        webnn::MLGraph graph;
        try {
          graph = api_replay::build_through_api(context, *c.graph);
        } catch (const std::exception& e) {
          ADD_FAILURE() << "build: " << e.what();
          return;
        }
        const std::string difference = first_difference(*c.graph, *webnn::detail::impl_of(graph)->ir);
        EXPECT_EQ(difference, "");
        const CaseResult r = webnn::conformance::check_outputs(c, context.compute(graph, c.inputs));
        EXPECT_EQ(r.status, CaseResult::Status::kPassed) << r.detail;
        if (r.status == CaseResult::Status::kPassed && difference.empty()) {
          ++passed;
          ++ops[r.op];
        }
      });
    }
  }
  std::printf("WPT through the C++ API's operator methods: %d passed, %d refused by the reader; %zu operators\n",
              passed, rejected, ops.size());
  EXPECT_GT(passed, 1000);
}

}  // namespace
