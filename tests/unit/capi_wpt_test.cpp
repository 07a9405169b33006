// Every WPT conformance case of ../shared/wpt/conformance through the C ABI. The case files are
// read by the library's WPT reader (conformance/wpt.hpp) into an IR graph, inputs and expected
// outputs; the graph is then rebuilt on a C context call by call (webnn_graph_builder_input /
// _constant / the generated webnn_graph_builder_<op> with its C options struct / _build: see
// tests/capi/replay.hpp), its inputs written, dispatched and its outputs read through the C
// functions, and the results judged by the library's comparator with the WPT tolerances
// (conformance::check_outputs). What it proves: every op and option the WPT data exercises passes
// through the C signatures and options structs intact and computes the same results as the C++
// API does; what it does not: the WPT reader itself is C++ (shared with the other runners).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <thread>

#include "capi/capi_util.hpp"
#include "capi/replay.hpp"
#include "conformance/wpt.hpp"
#include "ipc/service.hpp"

namespace {

using namespace capi_test;
using webnn::conformance::CaseResult;

const std::string kConformance = std::string(WEBNN_SHARED_DIR) + "/wpt/conformance";

CaseResult run_case(WebnnContext* context, webnn::conformance::Case& c) {
  auto failed = [&](const std::string& why) {
    return CaseResult{c.file, c.op, c.name, CaseResult::Status::kFailed, why};
  };
  capi_replay::Built built = capi_replay::build_through_c(context, *c.graph);
  if (!built.graph) return failed(std::string("build: ") + webnn_status_name(built.status) + ": " + built.message);
  Graph g;
  g.g = built.graph;
  std::vector<Tensor> tensors;
  std::vector<std::string> names;
  std::vector<WebnnNamedTensor> inputs, outputs;
  tensors.reserve(c.inputs.size() + c.graph->outputs.size());
  for (const auto& [name, host] : c.inputs) {
    tensors.emplace_back(context, static_cast<WebnnDataType>(host.desc.data_type), host.desc.shape, false, true);
    if (webnn_context_write_tensor(context, tensors.back(), host.data.data(), host.data.size()) != WEBNN_STATUS_SUCCESS)
      return failed(std::string("write: ") + webnn_last_error_message());
    inputs.push_back({name.c_str(), tensors.back()});
  }
  size_t output_count = 0;
  webnn_graph_output_count(g, &output_count);
  webnn::NamedHostTensors results;
  std::vector<webnn::HostTensor*> hosts;
  for (size_t i = 0; i < output_count; ++i) {
    const char* name = nullptr;
    WebnnOperandDescriptor d{};
    if (webnn_graph_output(g, i, &name, &d) != WEBNN_STATUS_SUCCESS) return failed(webnn_last_error_message());
    const std::vector<uint32_t> shape(d.shape, d.shape + d.rank);
    tensors.emplace_back(context, d.data_type, shape, true, false);
    outputs.push_back({name, tensors.back()});
    webnn::HostTensor& h = results[name];
    h.desc = {static_cast<webnn::DataType>(d.data_type), shape};
    h.data.resize(h.desc.byte_length().value_or(0));
    hosts.push_back(&h);
  }
  if (webnn_context_dispatch(context, g, inputs.data(), inputs.size(), outputs.data(), outputs.size()) !=
      WEBNN_STATUS_SUCCESS)
    return failed(std::string("dispatch: ") + webnn_last_error_message());
  for (size_t i = 0; i < outputs.size(); ++i)
    if (webnn_context_read_tensor(context, outputs[i].tensor, hosts[i]->data.data(), hosts[i]->data.size()) !=
        WEBNN_STATUS_SUCCESS)
      return failed(std::string("read: ") + webnn_last_error_message());
  return webnn::conformance::check_outputs(c, results);
}

void run_all(const char* backend, const char* remote = nullptr) {
  if (!std::filesystem::is_directory(kConformance)) GTEST_SKIP() << kConformance << " is absent";
  Context context(backend, remote);
  ASSERT_NE(context.c, nullptr);
  std::map<CaseResult::Status, int> counts;
  std::map<std::string, int> ops;
  for (const std::string& file : webnn::conformance::case_files(kConformance)) {
    webnn::conformance::for_each_case(file, "", [&](webnn::conformance::Case& c) {
      const CaseResult r = c.rejected ? *c.rejected : run_case(context, c);
      ++counts[r.status];
      if (r.status == CaseResult::Status::kPassed) ++ops[r.op];
      EXPECT_NE(r.status, CaseResult::Status::kFailed) << r.file << ": " << r.name << ": " << r.detail;
    });
  }
  std::printf("WPT through the C ABI (%s%s): %d passed, %d failed, %d skipped; %zu operators\n", backend,
              remote ? ", remote" : "", counts[CaseResult::Status::kPassed], counts[CaseResult::Status::kFailed],
              counts[CaseResult::Status::kSkipped], ops.size());
  EXPECT_GT(counts[CaseResult::Status::kPassed], 0);
}

TEST(CapiWpt, EveryConformanceCaseThroughTheCAbiReference) { run_all("reference"); }
TEST(CapiWpt, EveryConformanceCaseThroughTheCAbiDefaultBackend) { run_all(""); }

// WebnnContextOptions.remote: the same cases in a context of the WebNN service.
TEST(CapiWpt, EveryConformanceCaseThroughTheCAbiAndTheService) {
  const std::string path = "/tmp/webnn_capi_" + std::to_string(::getpid()) + ".sock";
  webnn::ipc::Service service({path, "", [](const std::string&) {}});
  std::thread serving([&] { service.run(); });
  run_all("", ("unix:" + path).c_str());
  service.stop();
  serving.join();
}

TEST(CapiWpt, NoServiceAtTheRemoteAddressIsAnError) {
  WebnnContextOptions o;
  webnn_context_options_init(&o);
  o.remote = "unix:/tmp/webnn_no_such_service.sock";
  WebnnContext* c = nullptr;
  expect_failure(webnn_context_create(&o, &c), WEBNN_STATUS_UNKNOWN_ERROR, {"no WebNN service at"});
  EXPECT_EQ(c, nullptr);
}

}  // namespace
