// The ONNX backend test suite (Debian's libonnx-testdata) through the ONNX importer: every case
// directory (model.onnx + test_data_set_*/input_*.pb, output_*.pb) is imported, run on a backend
// and compared with the expected outputs by the ONNX backend tests' own rule: relative 1e-3,
// absolute 1e-7 for floats, exact for integers and bool. Graph inputs the model uses as shapes or
// axes are frozen to the test's values (the importer names them), as `--freeze` does.
//
// Each case runs in a child process, so a crash or a hang is reported as such and the run goes on.
// Prints a table per ONNX op type (passed, failed, not supported), the not-supported reasons with
// counts, and "N passed, N failed, N skipped"; exits 1 when a case failed or crashed.
//
//   webnn_onnx_suite [--backend NAME] [--verbose] [--filter TEXT] DIR...
#include <onnx/onnx_pb.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "formats/formats.hpp"
#include "formats/onnx/import.hpp"
#include "runtime/handles.hpp"
#include "webnn/webnn.hpp"

namespace fs = std::filesystem;
using namespace webnn;

namespace {

constexpr double kRtol = 1e-3, kAtol = 1e-7;
constexpr unsigned kCaseTimeoutSeconds = 120;

enum class Status { kPassed, kFailed, kNotSupported, kCrashed };

struct Result {
  Status status = Status::kFailed;
  std::string detail;
};

template <class T>
T load(const std::vector<std::byte>& data, size_t i) {
  T v;
  std::memcpy(&v, data.data() + i * sizeof(T), sizeof(T));
  return v;
}

double element(const OperandDescriptor& d, const std::vector<std::byte>& data, size_t i);

// Compares an output with its expected value; empty when they match.
std::string compare(const std::string& name, const OperandDescriptor& got_desc, const std::vector<std::byte>& got,
                    const formats::NpyArray& want) {
  if (got_desc.data_type != want.desc.data_type || got_desc.shape != want.desc.shape)
    return "output " + name + " is " + got_desc.to_string() + ", expected " + want.desc.to_string();
  size_t n = static_cast<size_t>(*want.desc.element_count());
  bool is_float = is_floating_point(want.desc.data_type);
  for (size_t i = 0; i < n; ++i) {
    double a = element(got_desc, got, i), b = element(want.desc, want.data, i);
    bool ok;
    if (!is_float)
      ok = a == b;
    else if (std::isnan(b))
      ok = std::isnan(a);
    else if (std::isinf(b))
      ok = a == b;
    else
      ok = std::fabs(a - b) <= kAtol + kRtol * std::fabs(b);
    if (!ok) {
      std::ostringstream s;
      s << "output " << name << "[" << i << "] = " << a << ", expected " << b;
      return s.str();
    }
  }
  return {};
}

double element(const OperandDescriptor& d, const std::vector<std::byte>& data, size_t i) {
  switch (d.data_type) {
    case DataType::kFloat32:
      return load<float>(data, i);
    case DataType::kFloat16: {
      // IEEE half to double.
      uint16_t h = load<uint16_t>(data, i);
      int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
      double v = exp == 0    ? std::ldexp(mant, -24)
                 : exp == 31 ? (mant ? NAN : INFINITY)
                             : std::ldexp(mant | 0x400, exp - 25);
      return (h & 0x8000) ? -v : v;
    }
    case DataType::kInt32:
      return load<int32_t>(data, i);
    case DataType::kUint32:
      return load<uint32_t>(data, i);
    case DataType::kInt64:
      return double(load<int64_t>(data, i));
    case DataType::kUint64:
      return double(load<uint64_t>(data, i));
    case DataType::kInt8:
      return load<int8_t>(data, i);
    case DataType::kUint8:
      return load<uint8_t>(data, i);
  }
  return 0;
}

std::vector<fs::path> sorted_dirs(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The name of input_K.pb: the TensorProto's own name, else the K-th graph input that is not an
// initializer.
std::string tensor_name(const fs::path& pb, size_t k, const std::vector<std::string>& names) {
  std::ifstream f(pb, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  onnx::TensorProto t;
  if (t.ParseFromString(bytes) && !t.name().empty()) return t.name();
  return k < names.size() ? names[k] : std::string();
}

// Runs one case (in the child process).
Result run_case(const fs::path& dir, const std::string& backend) {
  fs::path model_path = dir / "model.onnx";
  onnx::ModelProto model;
  {
    std::ifstream f(model_path, std::ios::binary);
    if (!model.ParseFromIstream(&f)) return {Status::kFailed, "cannot parse model.onnx"};
  }
  std::set<std::string> inits;
  for (const auto& t : model.graph().initializer()) inits.insert(t.name());
  std::vector<std::string> input_names, output_names;
  for (const auto& vi : model.graph().input())
    if (!inits.count(vi.name())) input_names.push_back(vi.name());
  for (const auto& vi : model.graph().output()) output_names.push_back(vi.name());

  auto sets = sorted_dirs(dir, "test_data_set_");
  if (sets.empty()) return {Status::kNotSupported, "the case has no test data"};
  MLContextOptions options;
  options.backend = backend;
  MLContext context = ML::create_context(options);
  for (const fs::path& set : sets) {
    // Inputs that are no tensors (sequences, optionals) fail to read; the import says why
    // they are not supported, so a read error counts only for an input the graph takes.
    std::map<std::string, formats::NpyArray> inputs;
    std::map<std::string, Error> unreadable;
    for (size_t k = 0;; ++k) {
      fs::path pb = set / ("input_" + std::to_string(k) + ".pb");
      if (!fs::exists(pb)) break;
      std::string name = tensor_name(pb, k, input_names);
      try {
        inputs[name] = formats::read_onnx_tensor(pb.string());
      } catch (const Error& e) {
        unreadable.emplace(name, e);
      }
    }
    formats::OnnxImportOptions import_options;
    std::shared_ptr<const Graph> ir;
    for (int attempt = 0;; ++attempt) {
      try {
        ir = formats::import_onnx(model_path.string(), import_options);
        break;
      } catch (const formats::OnnxNeedsConstantInput& e) {
        if (unreadable.count(e.input())) throw unreadable.at(e.input());
        auto it = inputs.find(e.input());
        if (it == inputs.end() || attempt > 16) throw;
        import_options.frozen[e.input()] = it->second;
      }
    }
    MLGraph graph = detail::context_build_graph(context, ir);
    NamedHostTensors feeds;
    for (const auto& [name, desc] : graph.input_descriptors()) {
      if (unreadable.count(name)) throw unreadable.at(name);
      auto it = inputs.find(name);
      if (it == inputs.end() && ir->input_defaults.count(name)) continue;  // compute() uses its default
      if (it == inputs.end()) return {Status::kFailed, "no test data for input " + name};
      feeds[name] = HostTensor{it->second.desc, it->second.data};
    }
    NamedHostTensors outputs = context.compute(graph, feeds);
    for (size_t k = 0; k < output_names.size(); ++k) {
      fs::path pb = set / ("output_" + std::to_string(k) + ".pb");
      if (!fs::exists(pb)) continue;
      formats::NpyArray want = formats::read_onnx_tensor(pb.string());
      auto it = outputs.find(output_names[k]);
      if (it == outputs.end()) return {Status::kFailed, "no output " + output_names[k]};
      std::string diff = compare(output_names[k], it->second.desc, it->second.data, want);
      if (!diff.empty()) return {Status::kFailed, set.filename().string() + ": " + diff};
    }
  }
  return {Status::kPassed, {}};
}

Result run_case_guarded(const fs::path& dir, const std::string& backend) {
  try {
    return run_case(dir, backend);
  } catch (const Error& e) {
    // NotSupportedError: what WebNN cannot express. Anything else the importer or the builder
    // raises for a model of the suite (all valid) is a failure of ours.
    if (e.kind() == ErrorKind::kNotSupportedError) return {Status::kNotSupported, e.message()};
    return {Status::kFailed, e.what()};
  } catch (const std::exception& e) {
    return {Status::kFailed, std::string("unexpected exception: ") + e.what()};
  }
}

// Runs a case in a child process; the result comes back through a pipe.
Result run_isolated(const fs::path& dir, const std::string& backend) {
  int fds[2];
  if (pipe(fds) != 0) return run_case_guarded(dir, backend);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    alarm(kCaseTimeoutSeconds);
    Result r = run_case_guarded(dir, backend);
    std::string msg = std::to_string(int(r.status)) + "\n" + r.detail;
    size_t off = 0;
    while (off < msg.size()) {
      ssize_t n = write(fds[1], msg.data() + off, msg.size() - off);
      if (n <= 0) break;
      off += size_t(n);
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string msg;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) > 0;) msg.append(buf, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return {Status::kCrashed, std::string("killed by signal ") + strsignal(WTERMSIG(status))};
  auto nl = msg.find('\n');
  if (nl == std::string::npos) return {Status::kCrashed, "the case process exited without a result"};
  return {Status(std::stoi(msg.substr(0, nl))), msg.substr(nl + 1)};
}

// The ONNX op type a case tests: its one node's type (else "(N-node model)").
std::string op_key(const fs::path& dir) {
  onnx::ModelProto model;
  std::ifstream f(dir / "model.onnx", std::ios::binary);
  if (!model.ParseFromIstream(&f)) return "(unreadable)";
  std::set<std::string> types;
  for (const auto& n : model.graph().node())
    if (n.op_type() != "Constant") types.insert(n.op_type());
  if (types.size() == 1) return *types.begin();
  if (model.graph().node_size() == 1) return model.graph().node(0).op_type();
  return "(multi-node)";
}

// The reason of a not-supported message without the model and node names.
std::string reason_of(const std::string& message) {
  auto pb = message.find(".pb: ");
  if (pb != std::string::npos) return "test data: " + message.substr(pb + 5);
  auto node = message.find("node \"");
  if (node != std::string::npos) {
    auto close = message.find("): ", node);
    if (close != std::string::npos) return message.substr(close + 3);
  }
  auto input = message.find(": graph input \"");
  if (input != std::string::npos) {
    auto close = message.find("\": ", input + 15);
    if (close != std::string::npos) return "graph input: " + message.substr(close + 3);
  }
  auto init = message.find(": initializer \"");
  if (init != std::string::npos) {
    auto close = message.find("\": ", init + 15);
    if (close != std::string::npos) return "initializer: " + message.substr(close + 3);
  }
  return message;
}

}  // namespace

int main(int argc, char** argv) {
  std::string backend, filter;
  bool verbose = false;
  std::vector<fs::path> roots;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc)
      backend = argv[++i];
    else if (a == "--filter" && i + 1 < argc)
      filter = argv[++i];
    else if (a == "--verbose")
      verbose = true;
    else
      roots.emplace_back(a);
  }
  if (roots.empty()) {
    std::cerr << "usage: webnn_onnx_suite [--backend NAME] [--verbose] [--filter TEXT] DIR...\n";
    return 2;
  }
  // WEBNN_TEST_SHARD=K/N: every N-th case from the K-th (tests/onnx_import/shard.py says why).
  int shard = 0, shards = 1;
  if (const char* spec = std::getenv("WEBNN_TEST_SHARD")) {
    char rest = 0;
    if (std::sscanf(spec, "%d/%d%c", &shard, &shards, &rest) != 2 || shard < 0 || shard >= shards) {
      std::cerr << "WEBNN_TEST_SHARD=" << spec << ": expected K/N with 0 <= K < N\n";
      return 2;
    }
    std::cout << "shard " << shard << "/" << shards << "\n";
  }
  int index = -1;
  struct Row {
    int passed = 0, failed = 0, skipped = 0;
  };
  std::map<std::string, Row> rows;
  std::map<std::string, int> reasons;
  int passed = 0, failed = 0, skipped = 0, crashed = 0;
  for (const fs::path& root : roots) {
    if (!fs::is_directory(root)) {
      std::cerr << root << ": not a directory (apt-get install libonnx-testdata)\n";
      return 77;
    }
    std::vector<fs::path> cases;
    if (fs::exists(root / "model.onnx"))
      cases.push_back(root);
    else
      for (const fs::path& d : sorted_dirs(root, ""))
        if (fs::exists(d / "model.onnx")) cases.push_back(d);
    for (const fs::path& dir : cases) {
      std::string name = root.filename().string() + "/" + dir.filename().string();
      if (!filter.empty() && name.find(filter) == std::string::npos) continue;
      if (++index % shards != shard) continue;
      std::string op = op_key(dir);
      Result r = run_isolated(dir, backend);
      Row& row = rows[op];
      switch (r.status) {
        case Status::kPassed:
          ++row.passed, ++passed;
          if (verbose) std::cout << "PASS " << name << "\n";
          break;
        case Status::kCrashed:
          ++crashed;
          [[fallthrough]];
        case Status::kFailed:
          ++row.failed, ++failed;
          std::cout << (r.status == Status::kCrashed ? "CRASH " : "FAIL ") << name << ": " << r.detail << "\n";
          break;
        case Status::kNotSupported:
          ++row.skipped, ++skipped;
          reasons[reason_of(r.detail)]++;
          if (verbose) std::cout << "NOT SUPPORTED " << name << ": " << r.detail << "\n";
          break;
      }
      std::cout.flush();
    }
  }
  std::printf("\n%-28s %7s %7s %14s\n", "ONNX op type", "passed", "failed", "not supported");
  for (const auto& [op, row] : rows)
    std::printf("%-28s %7d %7d %14d\n", op.c_str(), row.passed, row.failed, row.skipped);
  std::vector<std::pair<int, std::string>> by_count;
  for (const auto& [reason, n] : reasons) by_count.emplace_back(n, reason);
  std::sort(by_count.begin(), by_count.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::printf("\nnot supported, by reason:\n");
  for (const auto& [n, reason] : by_count) std::printf("%5d  %s\n", n, reason.c_str());
  std::printf("\n%d passed, %d failed, %d skipped (%d crashed)\n", passed, failed, skipped, crashed);
  return failed ? 1 : 0;
}
