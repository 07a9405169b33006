// Runs conformance cases in the format of ../shared/wpt/conformance/ (converted from the W3C
// web-platform-tests) through the C++ API and compares with the one comparator (tolerance.hpp).
#pragma once

#include <string>
#include <vector>

namespace webnn::conformance {

struct CaseResult {
  enum class Status : uint8_t { kPassed, kFailed, kSkipped };
  std::string file;
  std::string op;  // the spec method name of the (first) operator
  std::string name;
  Status status = Status::kPassed;
  std::string detail;  // why it failed or was skipped
};

struct RunOptions {
  std::string backend;  // "" = the default backend
  int num_threads = 0;
  std::string filter;  // run only cases whose name contains this
};

// Every case of one file / of every *.json of a directory (sorted by file name). Never throws for
// a failing case; throws webnn::Error when a file cannot be read or is not in the format.
std::vector<CaseResult> run_file(const std::string& path, const RunOptions& options);
std::vector<CaseResult> run_directory(const std::string& dir, const RunOptions& options);

}  // namespace webnn::conformance
