// webnn-cpp's entry points for tests (not in the spec, not for production use): what the test
// suites of the bindings (Python's webnn._testing, the JavaScript package's testing exports) and
// of programs built on the library need and no API call gives: a hold on a context's computes, and
// the WPT comparator of results.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "webnn/webnn.hpp"

namespace webnn {

// Calls `hook` on the context's timeline thread before each compute (dispatch() or compute()) of
// `context`. A hook that blocks holds back the rest of that context's timeline, which is how a
// test observes ordering without sleeping. An empty function removes the hook.
WEBNN_EXPORT void set_compute_hook_for_testing(const MLContext& context, std::function<void()> hook);

// Compares `actual` with `expected` (the bytes of output `name` of `model`, in its descriptor)
// under the WPT tolerance of the operation that produces it (../shared/wpt/README.md): nullopt
// when they agree, else "name[i] = actual, expected e (distance d, tolerance t)" for the first
// element out of tolerance. TypeError when `name` is not an output of the model or a buffer does
// not hold the output's bytes.
WEBNN_EXPORT std::optional<std::string> compare_with_wpt_tolerance(const Model& model, const std::string& name,
                                                                   std::span<const std::byte> expected,
                                                                   std::span<const std::byte> actual);

// One case of a WPT conformance run.
struct ConformanceResult {
  enum class Status : uint8_t { kPassed, kFailed, kSkipped };
  std::string file;
  std::string op;  // the spec method name of the (first) operator
  std::string name;
  Status status = Status::kPassed;
  std::string detail;  // why it failed or was skipped
};

// Runs the conformance cases of `path` (a file in the format of ../shared/wpt/conformance/, or
// every *.json of a directory, sorted) whose names contain `filter`, each built and computed on a
// context made with `context` and compared under the WPT tolerances. Never throws for a failing
// case; throws webnn::Error when a file cannot be read or is not in the format.
WEBNN_EXPORT std::vector<ConformanceResult> run_conformance(const std::string& path, const MLContextOptions& context,
                                                            const std::string& filter = {});

}  // namespace webnn
