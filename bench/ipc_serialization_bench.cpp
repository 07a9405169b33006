// The seed's serialization table, measured: a graph written and read back as webnn-graph JSON +
// weights file (the interchange form, through save_graph / load_graph on a tmpfs directory) and as
// the service's Cap'n Proto Graph message (src/ipc/graph_codec.cpp). Both reads validate the whole
// graph through GraphBuilder, so the difference is the format's own cost.
//   build/bench/webnn_ipc_bench [--model DIR/NAME.json] [Google Benchmark flags]
// Default model: the shared MobileNetV2 (../shared/models/mobilenetv2/mobilenetv2.json).
#include <benchmark/benchmark.h>
#include <capnp/message.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "formats/formats.hpp"
#include "graph/graph_builder.hpp"
#include "ipc/graph_codec.hpp"

namespace {

namespace fs = std::filesystem;

std::shared_ptr<const webnn::Graph> g_graph;
fs::path g_dir;

uint64_t bytes_in(const fs::path& dir) {
  uint64_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.file_size();
  return n;
}

void BM_JsonWeightsWrite(benchmark::State& state) {
  for (auto _ : state) webnn::formats::save_graph(*g_graph, (g_dir / "g.json").string());
  state.counters["bytes"] = double(bytes_in(g_dir));
}

void BM_JsonWeightsRead(benchmark::State& state) {
  webnn::formats::save_graph(*g_graph, (g_dir / "g.json").string());
  for (auto _ : state) benchmark::DoNotOptimize(webnn::formats::load_graph((g_dir / "g.json").string()));
}

void BM_CapnpWrite(benchmark::State& state) {
  size_t size = 0;
  for (auto _ : state) size = webnn::ipc::serialize_graph(*g_graph).size();
  state.counters["bytes"] = double(size);
}

// What an RPC call does: build the message in place (its segments are written to the socket as
// they are, with no flat copy).
void BM_CapnpEncode(benchmark::State& state) {
  for (auto _ : state) {
    capnp::MallocMessageBuilder message(static_cast<unsigned>(g_graph->constant_bytes() / sizeof(capnp::word) + 1024));
    webnn::ipc::encode_graph(*g_graph, message.initRoot<webnn::ipc::wire::Graph>());
    benchmark::DoNotOptimize(message.getSegmentsForOutput().size());
  }
}

void BM_CapnpRead(benchmark::State& state) {
  const std::vector<std::byte> message = webnn::ipc::serialize_graph(*g_graph);
  for (auto _ : state) benchmark::DoNotOptimize(webnn::ipc::parse_graph_message(message, webnn::kMaxTensorByteLength));
}

}  // namespace

BENCHMARK(BM_JsonWeightsWrite)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JsonWeightsRead)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CapnpWrite)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CapnpEncode)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CapnpRead)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  std::string model = std::string(WEBNN_SOURCE_DIR) + "/../shared/models/mobilenetv2/mobilenetv2.json";
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--model") == 0) {
      model = argv[i + 1];
      for (int j = i; j + 2 <= argc; ++j) argv[j] = argv[j + 2];
      argc -= 2;
      break;
    }
  try {
    g_graph = webnn::formats::load_graph(model);
  } catch (const webnn::Error& e) {
    std::fprintf(stderr, "webnn_ipc_bench: %s\n", e.what());
    return 1;
  }
  const fs::path tmp = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  g_dir = tmp / ("webnn_ipc_bench." + std::to_string(getpid()));
  fs::create_directories(g_dir);
  std::printf("model: %s (%zu operations, %llu constant bytes)\n", model.c_str(), g_graph->operations.size(),
              static_cast<unsigned long long>(g_graph->constant_bytes()));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  fs::remove_all(g_dir);
  return 0;
}
