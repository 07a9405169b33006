// The service under load (docs/service.md, "Load"): `webnn serve` as deployed (a sandboxed worker
// per client) and N concurrent clients, each on a thread of its own with its own remote context,
// each making D dispatches on its own inputs and checking every element of every result.
//   build/bench/webnn_service_load --cli build/webnn [--clients 64] [--dispatches 1000]
//                                  [--backend onednn] [--elements 1024]
// Client k's graph is y = x + c with c[i] = k * 65536; its dispatch j writes x[i] = j + i. So
// y[0] = k * 65536 + j names the client and the dispatch a result belongs to (all exact in
// float32): a result of another client is *misrouted*, any other difference is *wrong*, and a
// dispatch whose read fails (its context lost) is *lost*. Exits 1 unless all three are 0.
// Prints throughput, p50/p99 latency per dispatch (write, dispatch, read) and the workers'
// resident memory; then the same load against `webnn serve --in-process` (threads of one process),
// the peer that shows what the isolation costs.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "webnn/webnn.hpp"

namespace {

using namespace webnn;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string cli;
  int clients = 64;
  int dispatches = 1000;
  std::string backend = "onednn";
  uint32_t elements = 1024;
};

struct Totals {
  std::atomic<long> ok{0}, lost{0}, misrouted{0}, wrong{0};
  std::mutex mutex;
  std::vector<double> latency_us;  // guarded by mutex
};

// The resident memory (kB) of each child process of `pid`.
std::vector<long> children_rss(pid_t pid) {
  std::vector<long> out;
  std::ifstream children("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children");
  for (pid_t child; children >> child;) {
    std::ifstream status("/proc/" + std::to_string(child) + "/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("VmRSS:", 0) == 0) out.push_back(std::stol(line.substr(6)));
  }
  return out;
}

void run_client(const Options& o, const std::string& socket, int k, Totals& totals, std::atomic<int>& ready,
                std::atomic<bool>& go, std::atomic<int>& done, std::atomic<bool>& measured) {
  std::vector<double> latency;
  try {
    MLContextOptions options;
    options.remote = "unix:" + socket;
    options.backend = o.backend;
    MLContext context = ML::create_context(options);
    MLGraphBuilder b(context);
    const OperandDescriptor d{DataType::kFloat32, {o.elements}};
    std::vector<float> c(o.elements, float(k) * 65536.f);
    MLGraph graph = b.build({{"y", b.add(b.input("x", d), b.constant(d, std::as_bytes(std::span(c))))}});
    MLTensor x = context.create_tensor({d.data_type, d.shape, false, true});
    MLTensor y = context.create_tensor({d.data_type, d.shape, true, false});
    std::vector<float> in(o.elements), out(o.elements);
    ++ready;
    while (!go) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    for (int j = 0; j < o.dispatches; ++j) {
      for (uint32_t i = 0; i < o.elements; ++i) in[i] = float(j) + float(i);
      const auto t0 = Clock::now();
      try {
        context.write_tensor(x, std::as_bytes(std::span(in)));
        context.dispatch(graph, {{"x", x}}, {{"y", y}});
        context.read_tensor(y, std::as_writable_bytes(std::span(out))).get();
      } catch (const Error&) {
        ++totals.lost;
        continue;
      }
      latency.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
      const long tag = std::lround(out[0]);
      if (tag / 65536 != k) {
        ++totals.misrouted;
        continue;
      }
      bool exact = true;
      for (uint32_t i = 0; i < o.elements; ++i) exact &= out[i] == float(k) * 65536.f + float(j) + float(i);
      ++(exact ? totals.ok : totals.wrong);
    }
    ++done;
    // Held until every client is done, so the workers' memory is measured with all of them live.
    while (!measured) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  } catch (const Error& e) {
    std::fprintf(stderr, "client %d: %s\n", k, e.what());
    totals.lost += o.dispatches - static_cast<long>(latency.size());
    ++ready;
    ++done;
  }
  std::lock_guard lock(totals.mutex);
  totals.latency_us.insert(totals.latency_us.end(), latency.begin(), latency.end());
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

struct Run {
  bool good = false;
  double throughput = 0, p50_us = 0;
};

// One load run against `webnn serve` (its workers, or `--in-process` threads); prints its figures.
Run run_load(const Options& o, bool in_process) {
  const std::string socket = "/tmp/webnn_load_" + std::to_string(::getpid()) + ".sock";
  const pid_t service = ::fork();
  if (service == 0) {
    if (!::freopen("/dev/null", "w", stderr)) ::_exit(126);  // its log: a line per connection
    const std::string clients = std::to_string(o.clients);
    ::execl(o.cli.c_str(), o.cli.c_str(), "serve", "--socket", socket.c_str(), "--max-clients", clients.c_str(),
            in_process ? "--in-process" : static_cast<char*>(nullptr), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  for (int i = 0; i < 200 && ::access(socket.c_str(), F_OK) != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));

  Totals totals;
  std::atomic<int> ready{0}, done{0};
  std::atomic<bool> go{false}, measured{false};
  std::vector<std::thread> threads;
  for (int k = 0; k < o.clients; ++k)
    threads.emplace_back(run_client, std::cref(o), std::cref(socket), k, std::ref(totals), std::ref(ready),
                         std::ref(go), std::ref(done), std::ref(measured));
  while (ready.load() < o.clients) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const auto t0 = Clock::now();
  go = true;
  while (done.load() < o.clients) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::vector<long> rss = children_rss(service);
  measured = true;
  for (auto& t : threads) t.join();
  ::kill(service, SIGTERM);
  int status = 0;
  ::waitpid(service, &status, 0);

  Run run;
  std::sort(rss.begin(), rss.end());
  const long total = static_cast<long>(o.clients) * o.dispatches;
  run.throughput = static_cast<double>(totals.ok.load()) / seconds;
  run.p50_us = percentile(totals.latency_us, 0.5);
  std::printf("service load, %s: %d clients x %d dispatches (%u float32 elements, %s backend)\n",
              in_process ? "threads of one process (--in-process)" : "a sandboxed worker per client", o.clients,
              o.dispatches, o.elements, o.backend.c_str());
  std::printf("  results: %ld ok, %ld lost, %ld misrouted, %ld wrong (of %ld)\n", totals.ok.load(), totals.lost.load(),
              totals.misrouted.load(), totals.wrong.load(), total);
  std::printf("  throughput: %.0f dispatches/s over %.2f s\n", run.throughput, seconds);
  std::printf("  latency per dispatch (write, dispatch, read): p50 %.0f us, p99 %.0f us\n", run.p50_us,
              percentile(totals.latency_us, 0.99));
  if (!rss.empty())
    std::printf("  worker resident memory: median %ld kB, max %ld kB (%zu workers)\n", rss[rss.size() / 2], rss.back(),
                rss.size());
  const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::printf("  service exit: %s\n", clean ? "clean" : "NOT CLEAN");
  run.good = totals.ok.load() == total && clean;
  return run;
}

int usage() {
  std::fprintf(stderr,
               "usage: webnn_service_load --cli PATH [--clients N] [--dispatches N] [--backend NAME] "
               "[--elements N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    const std::string v = argv[++i];
    if (a == "--cli")
      o.cli = v;
    else if (a == "--clients")
      o.clients = std::stoi(v);
    else if (a == "--dispatches")
      o.dispatches = std::stoi(v);
    else if (a == "--backend")
      o.backend = v;
    else if (a == "--elements")
      o.elements = static_cast<uint32_t>(std::stoul(v));
    else
      return usage();
  }
  if (o.cli.empty() || o.clients < 1 || o.dispatches < 1 || o.elements < 1) return usage();

  const Run workers = run_load(o, false);
  const Run threads = run_load(o, true);
  std::printf("  worker processes vs threads of one process: throughput %.2fx, p50 latency %.2fx\n",
              workers.throughput / threads.throughput, workers.p50_us / threads.p50_us);
  return workers.good && threads.good ? 0 : 1;
}
