// webnn_ort_check: exports graphs to ONNX and runs them in ONNX Runtime (tools/ort/ort_run.mjs,
// every model of a run in one node process), then compares the outputs:
//
//   webnn_ort_check wpt PATH [--filter TEXT]
//       every case of the WPT conformance data at PATH (a directory of *.json, or one file)
//       against its expected outputs, with the conformance tolerances (src/conformance/);
//   webnn_ort_check reference GRAPH... [--input NAME=FILE.npy ...] [--rtol R]
//       each graph file against the reference backend on the same inputs (given, or seeded
//       random data): within the conformance tolerance of the op producing each output, or, with
//       --rtol, largest |difference| <= R x largest |reference value| per output.
//
// Common options: --node PATH (default: node), --tool PATH (default: ort_run.mjs beside this
// source), --work DIR (scratch files; default: a temporary directory), --threads N.
//
// Each case ends as passed, failed, "ORT has no kernel" (ONNX Runtime lacks a kernel for a node of
// the valid model: reported by name, never counted as passed), or "not built" (the case's graph
// does not build here, e.g. an op whose validation this build lacks). Exit status: 0 when nothing
// failed, 1 when something did, 2 on a usage or I/O error, 77 (CTest's skip code) when node or
// onnxruntime-node is missing.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "common/random_tensor.hpp"
#include "conformance/tolerance.hpp"
#include "conformance/wpt.hpp"
#include "core/dispatch.hpp"
#include "formats/formats.hpp"
#include "formats/onnx/export.hpp"
#include "graph/graph.hpp"
#include "runtime/handles.hpp"
#include "webnn/webnn.hpp"

namespace {

using namespace webnn;
namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kSkipExitCode = 77;

struct Options {
  std::string node = "node";
  std::string tool = WEBNN_ORT_TOOL;
  std::string work;
  int threads = 1;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

// Whether node and onnxruntime-node work; prints why not.
bool ort_available(const Options& o) {
  const std::string probe =
      quote(o.node) + " -e " +
      quote("require(require('path').join(" + json(fs::path(o.tool).parent_path().string()).dump() +
            ", 'node_modules', 'onnxruntime-node'))") +
      " >/dev/null 2>&1";
  if (std::system(probe.c_str()) == 0) return true;
  std::cout << "SKIP: node (" << o.node << ") or onnxruntime-node (" << fs::path(o.tool).parent_path().string()
            << "/node_modules) is missing: run scripts/setup.sh\n";
  return false;
}

void write_bytes(const fs::path& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out) throw_error(ErrorKind::kDataError, path.string() + ": write failed");
}

void write_npy(const fs::path& path, const HostTensor& t) { write_bytes(path, formats::encode_npy(t.desc, t.data)); }

HostTensor read_npy(const fs::path& path) {
  formats::NpyArray a = formats::read_npy(path.string());
  return HostTensor{a.desc, std::move(a.data)};
}

// One model for ONNX Runtime: where it is, its inputs, where its outputs go.
struct Job {
  fs::path model, output_dir;
  std::map<std::string, fs::path> inputs;
};

struct JobResult {
  std::string status;  // ok, no_kernel, error
  std::string message;
};

// Runs every job in one node process.
std::vector<JobResult> run_jobs(const Options& o, const fs::path& work, const std::vector<Job>& jobs) {
  json list = json::array();
  for (const Job& j : jobs) {
    json inputs = json::object();
    for (const auto& [name, path] : j.inputs) inputs[name] = path.string();
    list.push_back({{"model", j.model.string()}, {"inputs", inputs}, {"output_dir", j.output_dir.string()}});
  }
  const fs::path jobs_file = work / "jobs.json", results_file = work / "results.json";
  {
    std::ofstream out(jobs_file);
    out << json{{"jobs", list}}.dump();
  }
  const std::string command = quote(o.node) + " " + quote(o.tool) + " batch " + quote(jobs_file.string()) + " " +
                              quote(results_file.string()) + " --threads " + std::to_string(o.threads);
  if (std::system(command.c_str()) != 0)
    throw_error(ErrorKind::kOperationError, "ONNX Runtime batch failed: " + command);
  std::ifstream in(results_file);
  const json results = json::parse(in).at("results");
  std::vector<JobResult> out;
  for (const json& r : results) out.push_back({r.at("status").get<std::string>(), r.value("message", "")});
  if (out.size() != jobs.size()) throw_error(ErrorKind::kOperationError, "ONNX Runtime batch: wrong result count");
  return out;
}

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > 300 ? line.substr(0, 300) + "..." : line;
}

// ---- Results ----

enum class Outcome { kPassed, kFailed, kNoKernel, kNotBuilt };

struct Tally {
  int counts[4] = {0, 0, 0, 0};
};

struct Report {
  std::map<std::string, Tally> per_op;
  Tally total;
  void add(const std::string& op, Outcome outcome, const std::string& what, const std::string& detail, bool verbose) {
    per_op[op].counts[int(outcome)]++;
    total.counts[int(outcome)]++;
    if (outcome == Outcome::kFailed) std::cout << "FAIL " << what << ": " << detail << "\n";
    if (outcome == Outcome::kNoKernel) std::cout << "ORT has no kernel: " << what << ": " << first_line(detail) << "\n";
    if (outcome == Outcome::kNotBuilt && verbose) std::cout << "NOT BUILT " << what << ": " << detail << "\n";
  }
  int print() const {
    std::printf("%-24s %7s %7s %10s %10s\n", "op", "passed", "failed", "no-kernel", "not-built");
    for (const auto& [op, t] : per_op)
      std::printf("%-24s %7d %7d %10d %10d\n", op.c_str(), t.counts[0], t.counts[1], t.counts[2], t.counts[3]);
    std::printf("%d passed, %d failed, %d ORT-has-no-kernel, %d not built\n", total.counts[0], total.counts[1],
                total.counts[2], total.counts[3]);
    return total.counts[1] ? 1 : 0;
  }
};

// ---- wpt ----

struct PendingCase {
  conformance::Case c;  // without inputs; expected outputs on disk
  fs::path dir;
  std::map<std::string, fs::path> expected_files;
  size_t job = 0;
};

int run_wpt(const Options& o, const fs::path& work, const std::string& path, const std::string& filter, bool verbose) {
  Report report;
  std::vector<PendingCase> pending;
  std::vector<Job> jobs;
  for (const std::string& file : conformance::case_files(path)) {
    conformance::for_each_case(file, filter, [&](conformance::Case& c) {
      const std::string what = c.file + ": " + c.name;
      if (c.rejected) {
        report.add(c.op, Outcome::kNotBuilt, what, c.rejected->detail, verbose);
        return;
      }
      PendingCase p;
      p.dir = work / ("case" + std::to_string(pending.size()));
      fs::create_directories(p.dir);
      try {
        formats::export_onnx(*c.graph, (p.dir / "model.onnx").string());
      } catch (const Error& e) {
        report.add(c.op, Outcome::kFailed, what, std::string("export: ") + e.what(), verbose);
        return;
      }
      Job job{p.dir / "model.onnx", p.dir / "out", {}};
      size_t k = 0;
      for (const auto& [name, t] : c.inputs) {
        job.inputs[name] = p.dir / ("input" + std::to_string(k++) + ".npy");
        write_npy(job.inputs[name], t);
      }
      k = 0;
      for (auto& [name, t] : c.expected) {
        p.expected_files[name] = p.dir / ("expected" + std::to_string(k++) + ".npy");
        write_npy(p.expected_files[name], t);
      }
      c.inputs.clear();
      c.expected.clear();
      p.c = std::move(c);
      p.job = jobs.size();
      jobs.push_back(std::move(job));
      pending.push_back(std::move(p));
    });
  }
  const std::vector<JobResult> results = jobs.empty() ? std::vector<JobResult>{} : run_jobs(o, work, jobs);
  for (PendingCase& p : pending) {
    const std::string what = p.c.file + ": " + p.c.name;
    const JobResult& r = results[p.job];
    if (r.status == "no_kernel") {
      report.add(p.c.op, Outcome::kNoKernel, what, r.message, verbose);
      continue;
    }
    if (r.status != "ok") {
      report.add(p.c.op, Outcome::kFailed, what, "ONNX Runtime: " + first_line(r.message), verbose);
      continue;
    }
    NamedHostTensors outputs;
    for (const auto& [name, file] : p.expected_files) {
      p.c.expected[name] = read_npy(file);
      const fs::path out = jobs[p.job].output_dir / (name + ".npy");
      if (fs::exists(out)) outputs[name] = read_npy(out);
    }
    const conformance::CaseResult cr = conformance::check_outputs(p.c, outputs);
    report.add(p.c.op, cr.status == conformance::CaseResult::Status::kPassed ? Outcome::kPassed : Outcome::kFailed,
               what, cr.detail, verbose);
    p.c.expected.clear();
  }
  return report.print();
}

// ---- reference ----

double element(const HostTensor& t, size_t i) {
  return visit_type(t.desc.data_type, [&]<class T>() -> double {
    const T v = reinterpret_cast<const T*>(t.data.data())[i];
    if constexpr (std::is_same_v<T, Float16>)
      return double(float(v));
    else
      return double(v);
  });
}

// "" when within tolerance, else what differs.
std::string compare_output(const Graph& graph, const NamedOperand& out, const HostTensor& ref, const HostTensor& got,
                           double rtol) {
  if (!(ref.desc == got.desc)) return "is " + got.desc.to_string() + ", expected " + ref.desc.to_string();
  if (rtol > 0 && is_floating_point(ref.desc.data_type)) {
    double max_diff = 0, max_ref = 0;
    const size_t n = size_t(*ref.desc.element_count());
    for (size_t i = 0; i < n; ++i) {
      max_diff = std::max(max_diff, std::fabs(element(ref, i) - element(got, i)));
      max_ref = std::max(max_ref, std::fabs(element(ref, i)));
    }
    std::printf("  %s: largest |difference| %.3g, largest |reference| %.3g, ratio %.3g (limit %.3g)\n",
                out.name.c_str(), max_diff, max_ref, max_ref > 0 ? max_diff / max_ref : max_diff, rtol);
    return max_diff <= rtol * max_ref ? "" : "largest |difference| exceeds rtol x largest |reference value|";
  }
  const Operation* producer = nullptr;
  for (const Operation& op : graph.operations)
    if (std::find(op.outputs.begin(), op.outputs.end(), out.operand) != op.outputs.end()) producer = &op;
  const conformance::Tolerance tol =
      producer ? conformance::tolerance_for(graph, *producer, ref.desc.data_type) : conformance::Tolerance{};
  // Random data, unlike WPT's, sums to values near zero whose ULPs are tiny: an element also
  // passes within 2^-16 (float16: 2^-8) of the output's largest |value| — far below what a wrong
  // mapping gives.
  const size_t n = size_t(*ref.desc.element_count()), size = element_size(ref.desc.data_type);
  double max_ref = 0;
  for (size_t i = 0; is_floating_point(ref.desc.data_type) && i < n; ++i)
    if (std::isfinite(element(ref, i))) max_ref = std::max(max_ref, std::fabs(element(ref, i)));
  const double atol = std::ldexp(max_ref, ref.desc.data_type == DataType::kFloat16 ? -8 : -16);
  for (size_t i = 0; i < n; ++i) {
    const std::span<const std::byte> r(ref.data.data() + i * size, size), g(got.data.data() + i * size, size);
    auto m = conformance::compare(ref.desc.data_type, r, g, tol);
    if (m && !(std::fabs(m->actual - m->expected) <= atol))
      return "[" + std::to_string(i) + "] = " + std::to_string(m->actual) + ", reference " +
             std::to_string(m->expected) + " (tolerance " + tol.to_string() + " or " + std::to_string(atol) + ")";
  }
  return "";
}

int run_reference(const Options& o, const fs::path& work, const std::vector<std::string>& graphs,
                  const std::vector<std::string>& input_specs, double rtol) {
  if (!input_specs.empty() && graphs.size() != 1) throw_error(ErrorKind::kTypeError, "--input needs exactly one graph");
  struct Item {
    std::string path, op;
    std::shared_ptr<const Graph> graph;
    NamedHostTensors reference;
    size_t job = 0;
    std::string error;
  };
  Report report;
  std::vector<Item> items;
  std::vector<Job> jobs;
  MLContextOptions options;
  options.backend = "reference";
  MLContext context = ML::create_context(options);
  for (const std::string& path : graphs) {
    Item item{path, fs::path(path).stem().string(), nullptr, {}, 0, ""};
    try {
      item.graph = formats::load_graph(path);
    } catch (const Error& e) {
      report.add(item.op, Outcome::kNotBuilt, path, e.what(), true);
      continue;
    }
    NamedHostTensors inputs;
    for (const std::string& spec : input_specs) {
      const auto eq = spec.find('=');
      if (eq == std::string::npos) throw_error(ErrorKind::kTypeError, "--input " + spec + ": expected NAME=FILE.npy");
      inputs[spec.substr(0, eq)] = read_npy(spec.substr(eq + 1));
    }
    std::mt19937 rng(7);
    for (const NamedOperand& in : item.graph->inputs)
      if (!inputs.count(in.name)) inputs[in.name] = tools::random_tensor(item.graph->desc(in.operand), rng, 2.0f, 8);
    const fs::path dir = work / ("graph" + std::to_string(items.size()));
    fs::create_directories(dir);
    try {
      formats::export_onnx(*item.graph, (dir / "model.onnx").string());
    } catch (const Error& e) {
      report.add(item.op, Outcome::kFailed, path, std::string("export: ") + e.what(), true);
      continue;
    }
    try {
      item.reference = context.compute(detail::context_build_graph(context, item.graph), inputs);
    } catch (const Error& e) {  // a kernel this build's reference backend lacks
      report.add(item.op, e.kind() == ErrorKind::kNotSupportedError ? Outcome::kNotBuilt : Outcome::kFailed, path,
                 std::string("reference: ") + e.what(), true);
      continue;
    }
    Job job{dir / "model.onnx", dir / "out", {}};
    size_t k = 0;
    for (const auto& [name, t] : inputs) {
      job.inputs[name] = dir / ("input" + std::to_string(k++) + ".npy");
      write_npy(job.inputs[name], t);
    }
    item.job = jobs.size();
    jobs.push_back(std::move(job));
    items.push_back(std::move(item));
  }
  const std::vector<JobResult> results = jobs.empty() ? std::vector<JobResult>{} : run_jobs(o, work, jobs);
  for (const Item& item : items) {
    const JobResult& r = results[item.job];
    if (r.status != "ok") {
      report.add(item.op, r.status == "no_kernel" ? Outcome::kNoKernel : Outcome::kFailed, item.path,
                 "ONNX Runtime: " + first_line(r.message), true);
      continue;
    }
    std::string failure;
    for (const NamedOperand& out : item.graph->outputs) {
      const fs::path file = jobs[item.job].output_dir / (out.name + ".npy");
      if (!fs::exists(file)) {
        failure += " " + out.name + ": missing;";
        continue;
      }
      const std::string diff = compare_output(*item.graph, out, item.reference.at(out.name), read_npy(file), rtol);
      if (!diff.empty()) failure += " " + out.name + ": " + diff + ";";
    }
    report.add(item.op, failure.empty() ? Outcome::kPassed : Outcome::kFailed, item.path, failure, true);
  }
  context.destroy();
  return report.print();
}

int run_main(int argc, char** argv) {
  CLI::App app{"webnn_ort_check: export graphs to ONNX, run them in ONNX Runtime and compare"};
  app.require_subcommand(1);
  Options o;
  std::string path, filter;
  std::vector<std::string> graphs, inputs;
  double rtol = 0;
  bool verbose = false;
  auto add_common = [&](CLI::App* cmd) {
    cmd->add_option("--node", o.node, "the node executable")->capture_default_str();
    cmd->add_option("--tool", o.tool, "tools/ort/ort_run.mjs")->capture_default_str();
    cmd->add_option("--work", o.work, "directory for scratch files (default: a temporary one)");
    cmd->add_option("--threads", o.threads, "ONNX Runtime intra-op threads")->capture_default_str();
  };
  auto* wpt = app.add_subcommand("wpt", "WPT conformance cases against their expected outputs");
  wpt->add_option("PATH", path, "directory of *.json cases, or one file")->required();
  wpt->add_option("--filter", filter, "only cases whose name contains this");
  wpt->add_flag("--verbose", verbose, "also list the cases that do not build here");
  add_common(wpt);
  auto* ref = app.add_subcommand("reference", "graph files against the reference backend");
  ref->add_option("GRAPH", graphs, "graph files (.json or .webnn)")->required();
  ref->add_option("--input", inputs, "NAME=FILE.npy (one graph only; seeded random data otherwise)");
  ref->add_option("--rtol", rtol, "compare largest |difference| with rtol x largest |reference value|");
  add_common(ref);
  CLI11_PARSE(app, argc, argv);

  try {
    if (!ort_available(o)) return kSkipExitCode;
    fs::path work = o.work;
    bool temporary = false;
    if (work.empty()) {
      std::string pattern = (fs::temp_directory_path() / "webnn_ort_check.XXXXXX").string();
      if (!mkdtemp(pattern.data())) throw_error(ErrorKind::kOperationError, "cannot create a temporary directory");
      work = pattern;
      temporary = true;
    }
    fs::create_directories(work);
    const int status = *wpt ? run_wpt(o, work, path, filter, verbose) : run_reference(o, work, graphs, inputs, rtol);
    if (temporary) fs::remove_all(work);
    return status;
  } catch (const std::exception& e) {
    std::cerr << "webnn_ort_check: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "webnn_ort_check: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "webnn_ort_check: unexpected error\n";
  }
  return 2;
}
