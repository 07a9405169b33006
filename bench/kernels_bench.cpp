// Google Benchmark of the hot kernels of the benchmark networks, each a one-operation graph run
// on every backend built in through the same compile-once, run-many path the runtime uses:
//   build/bench/webnn_kernels_bench [--benchmark_filter=conv3x3]
// Names read <kernel>/<backend>; compare the backends of one kernel within a run. With onednn,
// also the NaN scan and oneDNN's 1x1 convolution against its matmul of the same product.
#include <benchmark/benchmark.h>

#include <array>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/backend.hpp"
#include "graph/graph_builder.hpp"
#ifdef WEBNN_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>

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

// oneDNN's own 1x1 convolution (NHWC, weights in the layout it picks: brgconv_1x1, as the onednn
// backend plans it) and its matmul of the same product ([H·W, Cin] × [Cin, Cout]: brgemm), on
// MobileNetV2's 1x1 shapes, with the FLOP rate as a counter: how close oneDNN's kernel is to the
// machine's peak, outside the network (docs/onednn.md, "Performance"). range: H, Cin, Cout.
void onednn_1x1(benchmark::State& state, bool as_matmul) {
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  const auto h = state.range(0), ci = state.range(1), co = state.range(2);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  std::vector<float> src(size_t(h * h * ci), 0.5f);
  dnnl::primitive primitive;
  std::unordered_map<int, dnnl::memory> args;
  if (as_matmul) {
    const dnnl::memory::desc a({h * h, ci}, dt::f32, tag::ab), b({ci, co}, dt::f32, tag::any),
        c({h * h, co}, dt::f32, tag::ab);
    const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, c), engine);
    primitive = dnnl::matmul(pd);
    args = {{DNNL_ARG_SRC, dnnl::memory(a, engine, src.data())},
            {DNNL_ARG_WEIGHTS, dnnl::memory(pd.weights_desc(), engine)},
            {DNNL_ARG_DST, dnnl::memory(c, engine)}};
    state.SetLabel(pd.impl_info_str());
  } else {
    const dnnl::memory::desc x({1, ci, h, h}, dt::f32, tag::nhwc), w({co, ci, 1, 1}, dt::f32, tag::any),
        y({1, co, h, h}, dt::f32, tag::nhwc);
    const dnnl::convolution_forward::primitive_desc pd(
        dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, x, w,
                                        y, {1, 1}, {0, 0}, {0, 0}),
        engine);
    primitive = dnnl::convolution_forward(pd);
    args = {{DNNL_ARG_SRC, dnnl::memory(x, engine, src.data())},
            {DNNL_ARG_WEIGHTS, dnnl::memory(pd.weights_desc(), engine)},
            {DNNL_ARG_DST, dnnl::memory(y, engine)}};
    state.SetLabel(pd.impl_info_str());
  }
  for (auto _ : state) {
    primitive.execute(stream, args);
    stream.wait();
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(double(2 * h * h * ci * co) * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}
void mobilenet_1x1_shapes(benchmark::internal::Benchmark* b) {
  for (const auto& [h, ci, co] : std::vector<std::array<int64_t, 3>>{{112, 16, 96},
                                                                     {56, 144, 24},
                                                                     {56, 24, 144},
                                                                     {28, 32, 192},
                                                                     {14, 384, 64},
                                                                     {14, 96, 576},
                                                                     {7, 960, 160},
                                                                     {7, 320, 1280}})
    b->Args({h, ci, co});
  b->Unit(benchmark::kMicrosecond)->UseRealTime();
}
BENCHMARK_CAPTURE(onednn_1x1, conv, false)->Name("onednn_1x1/conv")->Apply(mobilenet_1x1_shapes);
BENCHMARK_CAPTURE(onednn_1x1, matmul, true)->Name("onednn_1x1/matmul")->Apply(mobilenet_1x1_shapes);
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
