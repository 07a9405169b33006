// webnn: the command-line face of webnn-cpp. Every subcommand reports errors as
// "webnn: <what went wrong>" on stderr and exits non-zero; nothing is half-written.
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "common/random_tensor.hpp"
#include "webnn/files.hpp"
#include "webnn/service.hpp"
#include "webnn/testing.hpp"
#include "webnn/webnn.hpp"

namespace {

using namespace webnn;
using Clock = std::chrono::steady_clock;

// How graph files are loaded: --dim and --freeze for ONNX models.
ModelLoadOptions g_load;

// A NAME=VALUE argument of `flag` (--input, --dim, --freeze), split; each NAME at most once.
std::pair<std::string, std::string> split_assignment(const std::string& spec, const char* flag,
                                                     std::set<std::string>& seen) {
  auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw_error(ErrorKind::kTypeError, std::string(flag) + " " + quote(spec) + ": expected NAME=VALUE");
  std::string name = spec.substr(0, eq);
  if (!seen.insert(name).second)
    throw_error(ErrorKind::kTypeError, std::string(flag) + " " + quote(name) + " is given twice");
  return {std::move(name), spec.substr(eq + 1)};
}

// NAME=VALUE options of --dim (a dimension) and --freeze (an .npy file), and the ONNX importer's
// memory budget, into g_load.
void parse_load_options(const std::vector<std::string>& dims, const std::vector<std::string>& freezes,
                        uint64_t memory_budget) {
  if (memory_budget) g_load.memory_budget = memory_budget;
  std::set<std::string> seen_dims, seen_freezes;
  for (const std::string& d : dims) {
    auto [name, value] = split_assignment(d, "--dim", seen_dims);
    char* end = nullptr;
    unsigned long v = std::strtoul(value.c_str(), &end, 10);
    if (*end != '\0' || v == 0 || v > 0x7fffffffUL || value[0] == '-')
      throw_error(ErrorKind::kTypeError, "--dim " + quote(d) + ": the value must be a positive integer");
    g_load.dims[name] = static_cast<uint32_t>(v);
  }
  for (const std::string& f : freezes) {
    auto [name, file] = split_assignment(f, "--freeze", seen_freezes);
    g_load.freeze[name] = file;
  }
}

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct CommonOptions {
  std::string backend;
  int threads = 0;
  std::string remote;      // --remote unix:PATH
  std::string token_file;  // --token-file FILE
};

MLContextOptions context_options(const CommonOptions& o) {
  MLContextOptions options;
  options.backend = o.backend;
  options.num_threads = o.threads;
  options.remote = o.remote;
  if (!o.token_file.empty()) options.token = read_file(o.token_file, "token file");
  return options;
}

MLContext make_context(const CommonOptions& o) { return ML::create_context(context_options(o)); }

// NAME=FILE.npy pairs into host tensors, checked against the graph's inputs.
NamedHostTensors read_inputs(const std::vector<std::string>& specs, const Model& model, const MLGraph& graph) {
  NamedHostTensors inputs;
  std::set<std::string> seen;
  for (const std::string& spec : specs) {
    auto [name, path] = split_assignment(spec, "--input", seen);
    auto it = graph.input_descriptors().find(name);
    if (it == graph.input_descriptors().end()) {
      // An ONNX model's input the import made a constant says why.
      auto frozen = model.frozen_inputs().find(name);
      if (frozen != model.frozen_inputs().end())
        throw_error(ErrorKind::kTypeError, "--input " + quote(name) + ": the model's input " + quote(name) +
                                               " is a constant of the imported graph: " + frozen->second);
      throw_error(ErrorKind::kTypeError, "--input " + quote(name) + ": the graph has no input of that name");
    }
    HostTensor array = read_npy(path);
    if (!(array.desc == it->second))
      throw_error(ErrorKind::kTypeError, path + ": holds " + array.desc.to_string() + " but input " + quote(name) +
                                             " is " + it->second.to_string());
    inputs[name] = HostTensor{array.desc, std::move(array.data)};
  }
  return inputs;
}

// The names of the inputs that have a default value (an imported ONNX model's initializers).
std::set<std::string> inputs_with_defaults(const Model& model) {
  std::set<std::string> names;
  for (const ModelOperand& in : model.inputs())
    if (!in.default_value.empty()) names.insert(in.name);
  return names;
}

int cmd_info(const std::string& path, const CommonOptions& common, bool placement) {
  const Model model = Model::load(path, g_load);
  // Everything that can fail comes before the first line is printed.
  std::vector<std::string> where_ran;
  std::string backend;
  if (placement) {
    MLContext context = make_context(common);
    MLGraph graph = context.build(model);
    where_ran = graph.placement();
    backend = context.backend_name();
  }
  std::cout << "graph: " << (model.name().empty() ? std::filesystem::path(path).stem().string() : model.name()) << "\n";
  std::cout << "inputs:\n";
  for (const ModelOperand& in : model.inputs())
    std::cout << "  " << in.name << ": " << in.descriptor.to_string()
              << (in.default_value.empty() ? "" : " (has a default value)") << "\n";
  if (!model.frozen_inputs().empty()) {
    std::cout << "frozen inputs:\n";
    for (const auto& [name, why] : model.frozen_inputs()) std::cout << "  " << name << ": " << why << "\n";
  }
  std::cout << "outputs:\n";
  for (const ModelOperand& out : model.outputs())
    std::cout << "  " << out.name << ": " << out.descriptor.to_string() << "\n";
  std::cout << "operations: " << model.operation_count() << "\n";
  for (const auto& [name, n] : model.operation_counts()) std::cout << "  " << name << ": " << n << "\n";
  std::cout << "constants: " << model.constant_count() << " (" << model.constant_bytes() << " bytes)\n";
  if (placement) {
    std::map<std::string, int> where;
    for (const std::string& p : where_ran) where[p]++;
    std::cout << "backend: " << backend << "\n";
    for (const auto& [name, n] : where) std::cout << "  " << name << ": " << n << " operations\n";
  }
  return 0;
}

int cmd_validate(const std::string& path) {
  const Model model = Model::load(path, g_load);
  std::cout << path << ": valid (" << model.operation_count() << " operations, " << model.inputs().size() << " inputs, "
            << model.outputs().size() << " outputs)\n";
  return 0;
}

int cmd_run(const std::string& path, const std::vector<std::string>& input_specs, const std::string& out_dir,
            const CommonOptions& common) {
  const Model model = Model::load(path, g_load);
  MLContext context = make_context(common);
  MLGraph graph = context.build(model);
  NamedHostTensors inputs = read_inputs(input_specs, model, graph);
  // An input not given runs on its default value, where it has one (compute() uses it).
  const std::set<std::string> defaults = inputs_with_defaults(model);
  for (const auto& [name, desc] : graph.input_descriptors())
    if (!inputs.count(name) && !defaults.count(name))
      throw_error(ErrorKind::kTypeError,
                  "missing input " + name + " (" + desc.to_string() + "): pass --input " + name + "=FILE.npy");
  NamedHostTensors outputs = context.compute(graph, inputs);
  // All outputs or none: written to temporaries, renamed into place together.
  write_output_files(out_dir, outputs);
  for (const auto& [name, t] : outputs)
    std::cout << name << ": " << t.desc.to_string() << " -> "
              << (std::filesystem::path(out_dir) / output_file_name(name)).string() << "\n";
  return 0;
}

// This process's peak resident memory: VmHWM of /proc/self/status, which starts afresh at exec
// (getrusage's ru_maxrss keeps the high-water mark of the process that forked and exec'd us).
double peak_rss_mb() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;  // in kB
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

// One timed run of `webnn bench`: compute() (the inputs read in place, fresh outputs), or with
// --tensors the spec's calls a binding makes (docs/javascript.md, "Speed"): writeTensor of every
// input (a copy, as the spec asks), dispatch, and a readTensor of every output into a buffer.
std::function<void()> bench_run(MLContext& context, const MLGraph& graph, const NamedHostTensors& inputs,
                                bool tensors) {
  if (!tensors) return [&context, &graph, &inputs] { context.compute(graph, inputs); };
  struct Bound {
    MLNamedTensors inputs, outputs;
    std::vector<std::pair<MLTensor, std::span<const std::byte>>> writes;
    std::vector<std::pair<MLTensor, std::vector<std::byte>>> reads;
  };
  auto b = std::make_shared<Bound>();
  for (const auto& [name, desc] : graph.input_descriptors()) {
    auto it = inputs.find(name);
    if (it == inputs.end())
      throw_error(ErrorKind::kTypeError, "bench --tensors: input " + name +
                                             " has only its default value; give it with --input (dispatch has no "
                                             "defaults)");
    MLTensor t = context.create_tensor({desc.data_type, desc.shape, false, true});
    b->inputs[name] = t;
    b->writes.emplace_back(t, it->second.data);
  }
  for (const auto& [name, desc] : graph.output_descriptors()) {
    MLTensor t = context.create_tensor({desc.data_type, desc.shape, true, false});
    b->outputs[name] = t;
    b->reads.emplace_back(t, std::vector<std::byte>(*desc.byte_length()));
  }
  return [&context, &graph, b] {
    for (const auto& [t, bytes] : b->writes) context.write_tensor(t, bytes);
    context.dispatch(graph, b->inputs, b->outputs);
    for (auto& [t, out] : b->reads) context.read_tensor(t, out).get();
  };
}

int cmd_bench(const std::string& path, const std::vector<std::string>& input_specs, int iterations, int warmup,
              bool tensors, const CommonOptions& common) {
  if (iterations < 1) throw_error(ErrorKind::kTypeError, "--iterations must be at least 1");
  if (warmup < 0) throw_error(ErrorKind::kTypeError, "--warmup must not be negative");
  auto t0 = Clock::now();
  const Model model = Model::load(path, g_load);
  std::printf("load_ms=%.3f\n", ms_since(t0));
  MLContext context = make_context(common);
  t0 = Clock::now();
  MLGraph graph = context.build(model);
  std::printf("build_ms=%.3f backend=%s\n", ms_since(t0), context.backend_name().c_str());
  NamedHostTensors inputs = read_inputs(input_specs, model, graph);
  std::mt19937 rng(42);
  const std::set<std::string> defaults = inputs_with_defaults(model);
  for (const auto& [name, desc] : graph.input_descriptors())
    if (!inputs.count(name) && !defaults.count(name)) inputs[name] = tools::random_tensor(desc, rng, 1.0f, 4);
  const std::function<void()> run = bench_run(context, graph, inputs, tensors);
  t0 = Clock::now();
  run();
  std::printf("first_run_ms=%.3f\n", ms_since(t0));
  for (int i = 0; i < warmup; ++i) run();
  std::vector<double> times;
  for (int i = 0; i < iterations; ++i) {
    t0 = Clock::now();
    run();
    times.push_back(ms_since(t0));
  }
  std::sort(times.begin(), times.end());
  double mean = 0;
  for (double t : times) mean += t;
  mean /= double(times.size());
  double p50 = times.size() % 2 ? times[times.size() / 2] : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
  std::printf("p50_ms=%.3f mean_ms=%.3f min_ms=%.3f\n", p50, mean, times.front());
  std::printf("peak_rss_mb=%.1f\n", peak_rss_mb());
  return 0;
}

int cmd_convert(const std::string& path, const std::string& to, const std::string& out) {
  const Model model = Model::load(path, g_load);
  std::string ext = std::filesystem::path(out).extension().string();
  if (ext != "." + to)
    throw_error(ErrorKind::kTypeError,
                "convert: --to " + to + " needs an output file ending in ." + to + ", got " + out);
  if (to == "onnx")
    model.export_onnx(out);
  else
    model.save(out);
  std::cout << path << " -> " << out << "\n";
  return 0;
}

int cmd_conformance(const std::string& dir, const CommonOptions& common, const std::string& filter, bool verbose) {
  const std::vector<ConformanceResult> results = run_conformance(dir, context_options(common), filter);
  struct Row {
    int passed = 0, failed = 0, skipped = 0;
  };
  std::map<std::string, Row> rows;
  int passed = 0, failed = 0, skipped = 0;
  for (const auto& r : results) {
    Row& row = rows[r.op];
    switch (r.status) {
      case ConformanceResult::Status::kPassed:
        ++row.passed, ++passed;
        break;
      case ConformanceResult::Status::kFailed:
        ++row.failed, ++failed;
        std::cout << "FAIL " << r.file << ": " << r.name << ": " << r.detail << "\n";
        break;
      case ConformanceResult::Status::kSkipped:
        ++row.skipped, ++skipped;
        if (verbose) std::cout << "SKIP " << r.file << ": " << r.name << ": " << r.detail << "\n";
        break;
    }
  }
  std::printf("%-24s %7s %7s %7s\n", "op", "passed", "failed", "skipped");
  for (const auto& [op, row] : rows)
    std::printf("%-24s %7d %7d %7d\n", op.c_str(), row.passed, row.failed, row.skipped);
  std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  if (results.empty())
    throw_error(ErrorKind::kDataError,
                dir + ": no conformance case" +
                    (filter.empty() ? std::string(" found") : " matches --filter " + quote(filter)));
  return failed ? 1 : 0;
}

}  // namespace

// glibc's allocator returns freed memory to the kernel as soon as the heap's free top passes its
// trim threshold, and serves each block above its mmap threshold from a mapping of its own, which
// a free raises only to the size just freed. Values that grow one after another (an ONNX import
// folding a chain of Concats) then come from fresh pages every time: on this VM a page fault
// costs about 11 us, and the 60,000-Concat import spent 8.5 s of its 17 s in the kernel, 1.3
// million faults. The command line keeps blocks under 32 MB on the heap and up to 64 MB of it
// free for reuse (docs/onnx.md, "Import", **Memory**). The library leaves the process's
// allocator to its host.
void tune_allocator() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

int main(int argc, char** argv) {
  tune_allocator();
  CLI::App app{"webnn: build, validate, convert, run and benchmark WebNN graphs"};
  app.require_subcommand(1);
  CommonOptions common;
  auto add_common = [&](CLI::App* cmd) {
    cmd->add_option("--backend", common.backend, "backend: reference (default: the best available)");
    // Range-checked by createContext, the one place that validates context options.
    cmd->add_option("--threads", common.threads, "number of threads, 0 to 256 (default 0: every core)");
    cmd->add_option("--remote", common.remote, "unix:PATH: run in the WebNN service listening there (webnn serve)");
    cmd->add_option("--token-file", common.token_file, "the token the service asks for (with --remote)");
  };

  std::string graph_path, out_dir, to, out_path, filter;
  std::vector<std::string> inputs, dims, freezes;
  uint64_t memory_budget = 0;  // 0: not given, the importer's default
  // Every command that loads a graph: bindings for ONNX models (docs/onnx.md, "Import").
  auto add_load = [&](CLI::App* cmd) {
    cmd->add_option("--dim", dims, "NAME=VALUE: an ONNX model's symbolic dimension (repeat)");
    cmd->add_option("--freeze", freezes, "NAME=FILE.npy: an ONNX model's input frozen to a constant (repeat)");
    cmd->add_option("--memory-budget", memory_budget,
                    "bytes a load may materialise beyond the file: an ONNX import's folded values, a graph file's "
                    "scalar-filled constants (default 1 GiB; docs/onnx.md, \"Memory\"); suffixes KiB, MiB, GiB")
        ->transform(CLI::AsSizeValue(false))
        ->check(CLI::PositiveNumber);
  };
  int iterations = 20, warmup = 3;
  bool tensors = false;
  bool verbose = false;

  auto* info = app.add_subcommand("info", "inputs, outputs, op counts, constant bytes");
  info->add_option("GRAPH", graph_path, "graph file (.json, .webnn or .onnx)")->required();
  add_common(info);
  add_load(info);

  auto* validate = app.add_subcommand("validate", "validate a graph file against the spec");
  validate->add_option("GRAPH", graph_path)->required();
  add_load(validate);

  auto* run = app.add_subcommand("run", "run a graph on .npy inputs, write DIR/OUTPUT.npy");
  run->add_option("GRAPH", graph_path)->required();
  run->add_option("--input", inputs, "NAME=FILE.npy (repeat for each input)");
  run->add_option("--output-dir", out_dir, "directory for the outputs")->required();
  add_common(run);
  add_load(run);

  auto* bench = app.add_subcommand("bench", "time load, build, first run and steady-state runs");
  bench->add_option("GRAPH", graph_path)->required();
  bench->add_option("--input", inputs, "NAME=FILE.npy (random data for inputs not given)");
  bench->add_option("--iterations", iterations, "timed runs")->capture_default_str();
  bench->add_option("--warmup", warmup, "untimed runs before timing")->capture_default_str();
  bench->add_flag("--tensors", tensors,
                  "time writeTensor of every input, dispatch and readTensor of every output (the calls a binding "
                  "makes) instead of compute()");
  add_common(bench);
  add_load(bench);

  auto* convert = app.add_subcommand("convert", "convert between graph formats");
  convert->add_option("GRAPH", graph_path)->required();
  convert->add_option("--to", to, "json, webnn, onnx (an ONNX opset 17 model) or dot (Graphviz)")
      ->required()
      ->check(CLI::IsMember({"json", "webnn", "onnx", "dot"}));
  convert->add_option("OUT", out_path, "output file")->required();
  add_load(convert);

  auto* backends = app.add_subcommand("backends", "list the backends built in, best first");

  std::string socket_path, token_file;
  auto* serve = app.add_subcommand("serve", "serve remote contexts on a Unix socket until SIGINT/SIGTERM");
  serve->add_option("--socket", socket_path, "the socket file to create (mode 0600)")->required();
  serve->add_option("--token-file", token_file, "clients must present this file's bytes as their token");
  ServiceLimits limits;
  bool in_process = false;
  serve->add_flag("--in-process", in_process,
                  "serve each client on a thread of this process: no worker processes, no sandbox, no dispatch "
                  "time limit (debugging)");
  serve->add_option("--max-clients", limits.max_clients, "clients served at once")->capture_default_str();
  serve->add_option("--max-bytes", limits.max_bytes, "per client: bytes of tensors, constants and compiled graphs")
      ->capture_default_str();
  serve->add_option("--max-objects", limits.max_objects, "per client: contexts, tensors and graphs held")
      ->capture_default_str();
  serve->add_option("--max-message-bytes", limits.max_message_bytes, "the largest message read")->capture_default_str();
  serve->add_option("--max-graph-operations", limits.max_graph_operations, "per graph")->capture_default_str();
  serve->add_option("--max-graph-operands", limits.max_graph_operands, "per graph")->capture_default_str();
  serve
      ->add_option("--dispatch-timeout", limits.dispatch_timeout_s,
                   "seconds a step or build may run before its worker ends (0: no limit)")
      ->capture_default_str();
  serve
      ->add_option("--handshake-timeout", limits.handshake_timeout_s,
                   "seconds from accepting a connection to its connect() (0: no limit)")
      ->capture_default_str();
  serve->add_option("--worker-memory", limits.worker_address_space,
                    "a worker's address-space limit in bytes (default: 2 x --max-bytes + 4 GiB)");
  serve->add_option("--worker-threads", limits.worker_threads,
                    "the most threads a worker's context uses (default: the processor count)");

  auto* conf = app.add_subcommand("conformance", "run WPT-format conformance cases");
  conf->add_option("DIR", graph_path, "directory of *.json cases, or one file")->required();
  conf->add_option("--filter", filter, "only cases whose name contains this");
  conf->add_flag("--verbose", verbose, "also list skipped cases");
  add_common(conf);

  CLI11_PARSE(app, argc, argv);
  remove_temporaries_on_signals();  // Ctrl-C leaves no temporary file behind
  try {
    parse_load_options(dims, freezes, memory_budget);
    if (*info) return cmd_info(graph_path, common, !common.backend.empty() || !common.remote.empty());
    if (*serve) {
      // Workers wait for work asleep, not spinning (docs/service.md): libgomp reads the policy
      // when it is loaded, so the service starts again with it set.
      if (!in_process && !std::getenv("OMP_WAIT_POLICY")) {
        ::setenv("OMP_WAIT_POLICY", "passive", 1);
        ::execv("/proc/self/exe", argv);
        std::cerr << "webnn serve: cannot restart with OMP_WAIT_POLICY=passive; workers may spin\n";
      }
      ServiceOptions options;
      options.socket_path = socket_path;
      options.workers = !in_process;
      options.limits = limits;
      if (!token_file.empty()) {
        options.token = read_file(token_file, "token file");
        if (options.token.empty())
          throw_error(ErrorKind::kTypeError, "--token-file " + quote(token_file) + " is empty");
      }
      return serve_until_signal(options);
    }
    if (*validate) return cmd_validate(graph_path);
    if (*run) return cmd_run(graph_path, inputs, out_dir, common);
    if (*bench) return cmd_bench(graph_path, inputs, iterations, warmup, tensors, common);
    if (*convert) return cmd_convert(graph_path, to, out_path);
    if (*conf) return cmd_conformance(graph_path, common, filter, verbose);
    if (*backends) {
      for (const std::string& backend : backend_names()) std::cout << backend << "\n";
      return 0;
    }
  } catch (const webnn::Error& e) {
    std::cerr << "webnn: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "webnn: unexpected error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
