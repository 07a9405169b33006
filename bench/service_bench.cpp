// The service's cost (docs/service.md): the same work through a remote context (a service in a
// child process, as `webnn serve` runs) and through an in-process context, in alternating rounds
// so that the machine's drift falls on both alike. Prints the median over rounds of each round's
// p50, and the ratio.
//   build/bench/webnn_service_bench [--rounds N] [--model DIR/NAME.json]
// Rows:
//   round trip: add of two 4-element float32 tensors: write both inputs, dispatch, read the output,
//               waiting only for the read (the tiny-graph round trip);
//   one read:   read the 4-element output alone (one call and its reply: the transport's floor);
//   MobileNetV2: write the input (602 KB, shared memory), dispatch, read the embedding.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "formats/formats.hpp"
#include "ipc/service.hpp"
#include "runtime/handles.hpp"
#include "webnn/webnn.hpp"

namespace {

using namespace webnn;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// One round: `iterations` timed calls of `step` after `warmup` untimed ones; the p50 in µs.
double round_p50(const std::function<void()>& step, int iterations, int warmup) {
  for (int i = 0; i < warmup; ++i) step();
  std::vector<double> us;
  for (int i = 0; i < iterations; ++i) {
    const auto t0 = Clock::now();
    step();
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  return median(us);
}

struct TinyAdd {
  MLContext context;
  MLGraph graph;
  MLTensor a, b, y;
  std::vector<float> in = std::vector<float>(4, 1.5f), out = std::vector<float>(4);
  explicit TinyAdd(MLContext c) : context(std::move(c)) {
    MLGraphBuilder builder(context);
    const OperandDescriptor d{DataType::kFloat32, {4}};
    graph = builder.build({{"y", builder.add(builder.input("a", d), builder.input("b", d))}});
    a = context.create_tensor({d.data_type, d.shape, false, true});
    b = context.create_tensor({d.data_type, d.shape, false, true});
    y = context.create_tensor({d.data_type, d.shape, true, false});
  }
  void step() {
    context.write_tensor(a, std::as_bytes(std::span(in)));
    context.write_tensor(b, std::as_bytes(std::span(in)));
    context.dispatch(graph, {{"a", a}, {"b", b}}, {{"y", y}});
    context.read_tensor(y, std::as_writable_bytes(std::span(out))).get();
  }
  // One call and its reply, nothing else: the transport's floor.
  void read_only() { context.read_tensor(y, std::as_writable_bytes(std::span(out))).get(); }
};

struct ModelRun {
  MLContext context;
  MLGraph graph;
  MLTensor x, y;
  std::vector<std::byte> in, out;
  std::string in_name, out_name;
  ModelRun(MLContext c, const std::shared_ptr<const Graph>& ir) : context(std::move(c)) {
    graph = detail::context_build_graph(context, ir);
    const OperandDescriptor& din = ir->desc(ir->inputs[0].operand);
    const OperandDescriptor& dout = ir->desc(ir->outputs[0].operand);
    in_name = ir->inputs[0].name;
    out_name = ir->outputs[0].name;
    in.assign(*din.byte_length(), std::byte{0x3e});
    out.resize(*dout.byte_length());
    x = context.create_tensor({din.data_type, din.shape, false, true});
    y = context.create_tensor({dout.data_type, dout.shape, true, false});
  }
  void step() {
    context.write_tensor(x, in);
    context.dispatch(graph, {{in_name, x}}, {{out_name, y}});
    context.read_tensor(y, out).get();
  }
};

}  // namespace

int main(int argc, char** argv) {
  int rounds = 7;
  std::string model = std::string(WEBNN_SOURCE_DIR) + "/../shared/models/mobilenetv2/mobilenetv2.json";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--model") == 0) model = argv[i + 1];
  }
  const std::string socket = "/tmp/webnn_service_bench_" + std::to_string(::getpid()) + ".sock";
  // The service in a process of its own, forked before this one starts any thread, as deployed:
  // a sandboxed worker process per connection.
  const pid_t child = ::fork();
  if (child == 0) {
    ipc::ServiceOptions options;
    options.socket_path = socket;
    options.log = [](const std::string&) {};
    options.workers = true;
    _exit(ipc::serve_until_signal(options));
  }
  struct stat st {};
  for (int i = 0; i < 200 && ::stat(socket.c_str(), &st) != 0; ++i) ::usleep(20000);
  int status = 0;
  try {
    MLContextOptions local_options, remote_options;
    remote_options.remote = "unix:" + socket;
    TinyAdd local_add(ML::create_context(local_options)), remote_add(ML::create_context(remote_options));
    std::shared_ptr<const Graph> ir = formats::load_graph(model);
    ModelRun local_model(ML::create_context(local_options), ir), remote_model(ML::create_context(remote_options), ir);
    std::vector<double> add_local, add_remote, read_local, read_remote, model_local, model_remote;
    for (int r = 0; r < rounds; ++r) {
      add_local.push_back(round_p50([&] { local_add.step(); }, 2000, 200));
      add_remote.push_back(round_p50([&] { remote_add.step(); }, 2000, 200));
      read_local.push_back(round_p50([&] { local_add.read_only(); }, 2000, 200));
      read_remote.push_back(round_p50([&] { remote_add.read_only(); }, 2000, 200));
      model_local.push_back(round_p50([&] { local_model.step(); }, 50, 5));
      model_remote.push_back(round_p50([&] { remote_model.step(); }, 50, 5));
    }
    const double al = median(add_local), ar = median(add_remote), ml = median(model_local), mr = median(model_remote);
    const double rl = median(read_local), rr = median(read_remote);
    std::printf("backend: %s (in-process) / %s (service); %d alternating rounds, median of round p50s\n",
                local_add.context.backend_name().c_str(), remote_add.context.backend_name().c_str(), rounds);
    std::printf("| work | in-process p50 | service p50 | service / in-process |\n|---|---:|---:|---:|\n");
    std::printf("| round trip (write 2 x 4 floats, dispatch add, read) | %.1f us | %.1f us | %.2fx |\n", al, ar,
                ar / al);
    std::printf("| one read (4 floats), nothing before it | %.1f us | %.1f us | %.2fx |\n", rl, rr, rr / rl);
    std::printf("| MobileNetV2 (write input, dispatch, read embedding) | %.3f ms | %.3f ms | %.3fx |\n", ml / 1000,
                mr / 1000, mr / ml);
  } catch (const Error& e) {
    std::fprintf(stderr, "webnn_service_bench: %s\n", e.what());
    status = 1;
  }
  ::kill(child, SIGTERM);
  ::waitpid(child, nullptr, 0);
  return status;
}
