// Round trip through ONNX: every WPT conformance case's graph is exported with our ONNX export,
// imported back with the ONNX importer, run, and checked against the case's expected outputs with
// the WPT tolerance of its op (the conformance runner's own comparator). A case the export cannot
// express (NotSupportedError) is skipped; an import error or a wrong result is a failure.
//
//   webnn_onnx_wpt_roundtrip [--backend NAME] [--verbose] DIR
#include <cstdio>
#include <iostream>
#include <map>

#include "conformance/wpt.hpp"
#include "formats/onnx/export.hpp"
#include "formats/onnx/import.hpp"
#include "runtime/handles.hpp"
#include "webnn/webnn.hpp"

using namespace webnn;

int main(int argc, char** argv) {
  std::string backend, dir;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc)
      backend = argv[++i];
    else if (a == "--verbose")
      verbose = true;
    else
      dir = a;
  }
  if (dir.empty()) {
    std::cerr << "usage: webnn_onnx_wpt_roundtrip [--backend NAME] [--verbose] DIR\n";
    return 2;
  }
  MLContextOptions options;
  options.backend = backend;
  MLContext context = ML::create_context(options);
  int passed = 0, failed = 0, skipped = 0;
  for (const std::string& file : conformance::case_files(dir)) {
    conformance::for_each_case(file, "", [&](conformance::Case& c) {
      if (c.rejected) {
        ++skipped;
        return;
      }
      std::string bytes;
      try {
        bytes = formats::export_onnx_bytes(*c.graph);
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::kNotSupportedError) throw;
        ++skipped;
        if (verbose) std::cout << "SKIP " << c.file << ": " << c.name << ": " << e.message() << "\n";
        return;
      }
      try {
        auto graph = formats::import_onnx_bytes(bytes, "", c.name);
        MLGraph built = detail::context_build_graph(context, graph);
        conformance::CaseResult r = conformance::check_outputs(c, context.compute(built, c.inputs));
        if (r.status == conformance::CaseResult::Status::kPassed) {
          ++passed;
        } else {
          ++failed;
          std::cout << "FAIL " << c.file << ": " << c.name << ": " << r.detail << "\n";
        }
      } catch (const Error& e) {
        ++failed;
        std::cout << "FAIL " << c.file << ": " << c.name << ": " << e.what() << "\n";
      }
    });
  }
  std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : 0;
}
