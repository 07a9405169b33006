// What a C ABI call costs over the C++ API's: a small graph (relu(x + c) over 64 float32 values)
// on the reference backend, driven through webnn.hpp and through webnn.h.
//   build/bench/webnn_capi_bench
// RoundTrip: write + dispatch + blocking read per iteration (the timeline's latency dominates).
// Dispatch16: 16 dispatches and one read per iteration (the calls' own cost shows more).
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "webnn/webnn.h"
#include "webnn/webnn.hpp"

namespace {

constexpr uint32_t kN = 64;

struct CppGraph {
  webnn::MLContext context = [] {
    webnn::MLContextOptions options;
    options.backend = "reference";
    return webnn::ML::create_context(options);
  }();
  webnn::MLGraph graph;
  webnn::MLTensor x, y;
  std::vector<float> in = std::vector<float>(kN, 0.5f), out = std::vector<float>(kN);
  CppGraph() {
    using namespace webnn;
    MLGraphBuilder b(context);
    const OperandDescriptor d{DataType::kFloat32, {kN}};
    const std::vector<float> c(kN, -0.25f);
    MLOperand xi = b.input("x", d);
    MLOperand k = b.constant(d, std::as_bytes(std::span(c)));
    graph = b.build({{"y", b.relu(b.add(xi, k))}});
    x = context.create_tensor({d.data_type, d.shape, false, true});
    y = context.create_tensor({d.data_type, d.shape, true, false});
  }
  void write() { context.write_tensor(x, std::as_bytes(std::span(in))); }
  void dispatch() { context.dispatch(graph, {{"x", x}}, {{"y", y}}); }
  void read() { context.read_tensor(y, std::as_writable_bytes(std::span(out))).get(); }
};

struct CGraph {
  WebnnContext* context = nullptr;
  WebnnGraph* graph = nullptr;
  WebnnTensor *x = nullptr, *y = nullptr;
  std::vector<float> in = std::vector<float>(kN, 0.5f), out = std::vector<float>(kN);
  WebnnNamedTensor inputs[1], outputs[1];
  CGraph() {
    WebnnContextOptions o;
    webnn_context_options_init(&o);
    o.backend = "reference";
    webnn_context_create(&o, &context);
    WebnnGraphBuilder* b = nullptr;
    webnn_graph_builder_create(context, &b);
    const uint32_t shape[1] = {kN};
    const WebnnOperandDescriptor d{WEBNN_DATA_TYPE_FLOAT32, shape, 1};
    const std::vector<float> c(kN, -0.25f);
    WebnnOperand *xi = nullptr, *k = nullptr, *sum = nullptr, *r = nullptr;
    webnn_graph_builder_input(b, "x", &d, &xi);
    webnn_graph_builder_constant(b, &d, c.data(), kN * 4, &k);
    webnn_graph_builder_add(b, xi, k, nullptr, &sum);
    webnn_graph_builder_relu(b, sum, nullptr, &r);
    const WebnnNamedOperand named{"y", r};
    webnn_graph_builder_build(b, &named, 1, &graph);
    webnn_graph_builder_release(b);
    WebnnTensorDescriptor td{WEBNN_DATA_TYPE_FLOAT32, shape, 1, false, true};
    webnn_context_create_tensor(context, &td, &x);
    td.readable = true;
    td.writable = false;
    webnn_context_create_tensor(context, &td, &y);
    inputs[0] = {"x", x};
    outputs[0] = {"y", y};
  }
  ~CGraph() {
    webnn_tensor_release(x);
    webnn_tensor_release(y);
    webnn_graph_release(graph);
    webnn_context_release(context);
  }
  bool write() { return webnn_context_write_tensor(context, x, in.data(), kN * 4) == WEBNN_STATUS_SUCCESS; }
  bool dispatch() { return webnn_context_dispatch(context, graph, inputs, 1, outputs, 1) == WEBNN_STATUS_SUCCESS; }
  bool read() { return webnn_context_read_tensor(context, y, out.data(), kN * 4) == WEBNN_STATUS_SUCCESS; }
};

void BM_RoundTrip_Cpp(benchmark::State& state) {
  CppGraph g;
  for (auto _ : state) {
    g.write();
    g.dispatch();
    g.read();
  }
  if (g.out[0] != 0.25f) state.SkipWithError("wrong result");
}
void BM_RoundTrip_C(benchmark::State& state) {
  CGraph g;
  for (auto _ : state) {
    if (!(g.write() && g.dispatch() && g.read())) state.SkipWithError(webnn_last_error_message());
  }
  if (g.out[0] != 0.25f) state.SkipWithError("wrong result");
}
void BM_Dispatch16_Cpp(benchmark::State& state) {
  CppGraph g;
  g.write();
  for (auto _ : state) {
    for (int i = 0; i < 16; ++i) g.dispatch();
    g.read();
  }
}
void BM_Dispatch16_C(benchmark::State& state) {
  CGraph g;
  g.write();
  for (auto _ : state) {
    for (int i = 0; i < 16; ++i) g.dispatch();
    g.read();
  }
}
BENCHMARK(BM_RoundTrip_Cpp)->UseRealTime();
BENCHMARK(BM_RoundTrip_C)->UseRealTime();
BENCHMARK(BM_Dispatch16_Cpp)->UseRealTime();
BENCHMARK(BM_Dispatch16_C)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
