// Google Benchmark of the hot kernels of the benchmark networks, each a one-operation graph run
// on every backend built in through the same compile-once, run-many path the runtime uses:
//   build/bench/webnn_kernels_bench [--benchmark_filter=conv3x3]
// Names read <kernel>/<backend>; compare the backends of one kernel within a run.
#include <benchmark/benchmark.h>

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "graph/graph_builder.hpp"
#ifdef WEBNN_HAVE_ONEDNN
#include "backends/onednn/eltwise.hpp"
#endif

namespace webnn {
namespace {

using Build = std::function<OperandId(GraphBuilder&, OperandId input)>;

struct Kernel {
  std::string name;
  Shape input;
  Build build;
};

OperandId constant(GraphBuilder& b, Shape shape) {
  const OperandDescriptor d{DataType::kFloat32, std::move(shape)};
  std::vector<float> v(*d.byte_length() / 4);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-0.1f, 0.1f);
  for (float& x : v) x = u(rng);
  std::vector<std::byte> bytes(v.size() * 4);
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return b.add_constant(d, BufferRef::adopt(std::move(bytes)));
}

Conv2dAttrs conv(uint32_t pad, uint32_t groups = 1) {
  Conv2dAttrs a;
  a.padding = std::vector<uint32_t>{pad, pad, pad, pad};
  a.groups = groups;
  return a;
}

std::vector<Kernel> kernels() {
  return {
      {"conv3x3_64ch_56x56",
       {1, 64, 56, 56},
       [](GraphBuilder& b, OperandId x) {
         Conv2dAttrs a = conv(1);
         a.bias = OperandRef{constant(b, {64})};
         return b.add_operation(OpKind::kConv2d, {x, constant(b, {64, 64, 3, 3})}, a)[0];
       }},
      {"depthwise3x3_144ch_56x56_relu6",
       {1, 144, 56, 56},
       [](GraphBuilder& b, OperandId x) {
         const OperandId c = b.add_operation(OpKind::kConv2d, {x, constant(b, {144, 1, 3, 3})}, conv(1, 144))[0];
         return b.add_operation(OpKind::kClamp, {c}, ClampAttrs{0.0, 6.0})[0];
       }},
      {"conv1x1_96to24_56x56",
       {1, 96, 56, 56},
       [](GraphBuilder& b, OperandId x) {
         return b.add_operation(OpKind::kConv2d, {x, constant(b, {24, 96, 1, 1})}, conv(0))[0];
       }},
      {"matmul_128x768x768_bias",
       {1, 128, 768},
       [](GraphBuilder& b, OperandId x) {
         const OperandId m = b.add_operation(OpKind::kMatmul, {x, constant(b, {768, 768})}, NoAttrs{})[0];
         return b.add_operation(OpKind::kAdd, {m, constant(b, {768})}, NoAttrs{})[0];
       }},
      {"softmax_12x128x128",
       {1, 12, 128, 128},
       [](GraphBuilder& b, OperandId x) { return b.add_operation(OpKind::kSoftmax, {x}, SoftmaxAttrs{3})[0]; }},
      {"layernorm_128x768",
       {1, 128, 768},
       [](GraphBuilder& b, OperandId x) {
         LayerNormalizationAttrs a;
         a.axes = std::vector<uint32_t>{2};
         a.scale = OperandRef{constant(b, {768})};
         a.bias = OperandRef{constant(b, {768})};
         return b.add_operation(OpKind::kLayerNormalization, {x}, a)[0];
       }},
      {"gelu_128x3072",
       {1, 128, 3072},
       [](GraphBuilder& b, OperandId x) { return b.add_operation(OpKind::kGelu, {x}, NoAttrs{})[0]; }},
  };
}

void run_kernel(benchmark::State& state, const Kernel& k, const Backend* backend) {
  GraphBuilder b;
  const OperandId x = b.add_input("x", {DataType::kFloat32, k.input});
  const OperandId y = k.build(b, x);
  std::shared_ptr<const Graph> graph = b.build({{"y", y}});
  std::unique_ptr<Executable> exe = backend->compile(graph, CompileOptions{2});
  std::vector<std::byte> in(*graph->desc(graph->inputs[0].operand).byte_length());
  std::vector<std::byte> out(*graph->desc(graph->outputs[0].operand).byte_length());
  const std::byte* ins[] = {in.data()};
  std::byte* outs[] = {out.data()};
  for (auto _ : state) exe->run(ins, outs);
}

#ifdef WEBNN_HAVE_ONEDNN
// The NaN/infinity scan the onednn backend runs on every float input of a graph whose fast plan
// needs finite inputs (docs/onednn.md, "NaN and infinities"): over MobileNetV2's input, and over
// as many floats as MobileNetV2 has weights (8.8 MB, scanned once at build).
void nan_scan(benchmark::State& state) {
  std::vector<float> x(static_cast<size_t>(state.range(0)));
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& v : x) v = u(rng);
  bool any = false;
  for (auto _ : state) {
    any = onednn::has_nan_or_inf(x.data(), x.size(), DataType::kFloat32);
    benchmark::DoNotOptimize(any);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(x.size() * sizeof(float)));
}
BENCHMARK(nan_scan)
    ->Name("nan_scan/onednn")
    ->Arg(3 * 224 * 224)
    ->Arg(2206818)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
#endif

const bool registered = [] {
  for (const Kernel& k : kernels())
    for (const Backend* backend : available_backends())
      benchmark::RegisterBenchmark((k.name + "/" + std::string(backend->name())).c_str(),
                                   [k, backend](benchmark::State& s) { run_kernel(s, k, backend); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  return true;
}();

}  // namespace
}  // namespace webnn

BENCHMARK_MAIN();
