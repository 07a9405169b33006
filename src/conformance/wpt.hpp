// Runs conformance cases in the format of ../shared/wpt/conformance/ (converted from the W3C
// web-platform-tests) through the C++ API and compares with the one comparator (tolerance.hpp).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "webnn/testing.hpp"
#include "webnn/webnn.hpp"

namespace webnn::conformance {

using CaseResult = webnn::ConformanceResult;  // include/webnn/testing.hpp

struct RunOptions {
  MLContextOptions context;  // the context the cases run in (backend, threads, remote)
  std::string filter;        // run only cases whose name contains this
};

// Every case of one file / of every *.json of a directory (sorted by file name). Never throws for
// a failing case; throws webnn::Error when a file cannot be read or is not in the format.
std::vector<CaseResult> run_file(const std::string& path, const RunOptions& options);
std::vector<CaseResult> run_directory(const std::string& dir, const RunOptions& options);

// ---- The pieces, for runners other than an MLContext (the ONNX Runtime check in tests/onnx) ----

// One case: its graph built through GraphBuilder (as any graph file is), its input values and the
// expected outputs. `rejected` is set, and `graph` null, when the case could not be read or its
// graph not built: a skipped result when the op is not implemented, else a failed one.
struct Case {
  std::string file, name, op;
  std::shared_ptr<const Graph> graph;
  NamedHostTensors inputs;
  NamedHostTensors expected;
  std::optional<CaseResult> rejected;
};

// The conformance files at `path`: the *.json of a directory, sorted, or the file itself.
std::vector<std::string> case_files(const std::string& path);
// Calls `fn` with each case of a file whose name contains `filter`, one at a time. Throws
// webnn::Error when the file cannot be read or is not in the format.
void for_each_case(const std::string& path, const std::string& filter, const std::function<void(Case&)>& fn);
// Checks `outputs` against the case's expected outputs: every expected output present with the
// expected descriptor and within the tolerance of the op that produces it (tolerance.hpp).
CaseResult check_outputs(const Case& c, const NamedHostTensors& outputs);

}  // namespace webnn::conformance
