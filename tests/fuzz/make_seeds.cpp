// Writes fuzz seeds from real data: every WPT conformance case as a graph file (JSON and text, as
// the formats write them), as an ONNX model (the export) and as the service's Cap'n Proto graph
// message, its constants as a weights manifest + file (in fuzz_weights' framing), and its input
// tensors as .npy files. scripts/fuzz.sh runs it
// with the WPT directories of ../shared; inputs larger than the fuzzers' max_len are left out.
// Usage: webnn_fuzz_seeds OUT_DIR WPT_DIR...
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <thread>

#include "conformance/wpt.hpp"
#include "formats/formats.hpp"
#include "formats/onnx/export.hpp"
#include "ipc/graph_codec.hpp"
#include "ipc/service.hpp"
#include "ipc/wire_util.hpp"
#include "runtime/handles.hpp"

namespace {

constexpr size_t kMaxSeed = 65536;  // scripts/fuzz.sh's -max_len

void write(const std::filesystem::path& path, std::string_view bytes) {
  if (bytes.size() > kMaxSeed) return;
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

std::string_view text_of(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

int listen_unix(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const sockaddr_un addr = webnn::ipc::unix_address(path, "webnn_fuzz_seeds");
  ::unlink(path.c_str());
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0 || ::listen(fd, 1) != 0)
    throw webnn::Error(webnn::ErrorKind::kUnknownError, "cannot listen on " + path);
  return fd;
}

int connect_unix(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const sockaddr_un addr = webnn::ipc::unix_address(path, "webnn_fuzz_seeds");
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0)
    throw webnn::Error(webnn::ErrorKind::kUnknownError, "cannot connect to " + path);
  return fd;
}

// What a real client sends into a connection: `client` runs a remote context through a relay in
// front of the service at `service`, and the relay keeps the client's bytes (fuzz_ipc_service's
// seeds: valid sessions for the fuzzer to mutate).
std::string record_session(const std::string& service, const std::function<void(const std::string&)>& client) {
  const std::string relay = service + ".relay";
  const int listener = listen_unix(relay);
  std::string recorded;
  std::thread pump([&] {
    const int c = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    const int s = connect_unix(service);
    bool c_open = true, s_open = true;
    char buf[65536];
    while (c_open || s_open) {
      pollfd fds[2] = {{c_open ? c : -1, POLLIN, 0}, {s_open ? s : -1, POLLIN, 0}};
      if (::poll(fds, 2, 10000) <= 0) break;
      if (c_open && fds[0].revents) {
        const ssize_t n = ::read(c, buf, sizeof(buf));
        if (n > 0) {
          recorded.append(buf, size_t(n));
          if (::write(s, buf, size_t(n)) != n) s_open = false;
        } else {
          c_open = false;
          ::shutdown(s, SHUT_WR);
        }
      }
      if (s_open && fds[1].revents) {
        const ssize_t n = ::read(s, buf, sizeof(buf));
        if (n <= 0 || ::write(c, buf, size_t(n)) != n) {
          s_open = false;
          ::shutdown(c, SHUT_WR);
        }
      }
    }
    ::close(c);
    ::close(s);
  });
  try {
    client("unix:" + relay);
  } catch (const webnn::Error& e) {
    std::cerr << "webnn_fuzz_seeds: a recorded session failed: " << e.what() << "\n";
  }
  pump.join();
  ::close(listener);
  ::unlink(relay.c_str());
  return recorded;
}

// One session over a WPT case: build, tensors written, dispatched and read, then compute.
void run_case_remotely(const webnn::conformance::Case& c, const std::string& remote) {
  using namespace webnn;
  MLContextOptions options;
  options.remote = remote;
  options.backend = "reference";
  MLContext context = ML::create_context(options);
  MLGraph graph = detail::context_build_graph(context, c.graph);
  MLNamedTensors inputs, outputs;
  for (const auto& [name, host] : c.inputs) {
    inputs[name] = context.create_tensor({host.desc.data_type, host.desc.shape, false, true});
    context.write_tensor(inputs[name], host.data);
  }
  for (const NamedOperand& out : c.graph->outputs) {
    const OperandDescriptor& d = c.graph->desc(out.operand);
    outputs[out.name] = context.create_tensor({d.data_type, d.shape, true, false});
  }
  context.dispatch(graph, inputs, outputs);
  for (const auto& [name, tensor] : outputs) context.read_tensor(tensor).get();
  context.compute(graph, c.inputs);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: webnn_fuzz_seeds OUT_DIR WPT_DIR...\n";
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path out = argv[1];
  for (const char* target : {"fuzz_graph_json", "fuzz_graph_text", "fuzz_weights", "fuzz_npy", "fuzz_onnx_import",
                             "fuzz_ipc_graph", "fuzz_ipc_service"})
    fs::create_directories(out / target);
  const fs::path scratch = out / "scratch";
  size_t cases = 0, files = 0;
  // A service for the recorded sessions (small cases only: their bytes travel inline).
  const std::string socket = "/tmp/webnn_fuzz_seeds_" + std::to_string(::getpid()) + ".sock";
  webnn::ipc::ServiceOptions options;
  options.socket_path = socket;
  options.log = [](const std::string&) {};
  webnn::ipc::Service service(options);
  std::thread serving([&] { service.run(); });
  size_t sessions = 0;
  try {
    for (int a = 2; a < argc; ++a) {
      for (const std::string& file : webnn::conformance::case_files(argv[a])) {
        webnn::conformance::for_each_case(file, "", [&](webnn::conformance::Case& c) {
          if (!c.graph) return;
          const std::string stem = fs::path(file).stem().string() + "_" + std::to_string(cases++);
          try {
            write(out / "fuzz_graph_json" / (stem + ".json"), webnn::formats::to_json(*c.graph));
            write(out / "fuzz_graph_text" / (stem + ".webnn"), webnn::formats::to_text(*c.graph));
            files += 2;
          } catch (const webnn::Error&) {
            // A name the text form cannot spell: the JSON seed is enough.
          }
          try {
            write(out / "fuzz_onnx_import" / (stem + ".onnx"), webnn::formats::export_onnx_bytes(*c.graph));
            ++files;
          } catch (const webnn::Error&) {
            // Not expressible in ONNX opset 17: no ONNX seed.
          }
          const std::vector<std::byte> message = webnn::ipc::serialize_graph(*c.graph);
          write(out / "fuzz_ipc_graph" / (stem + ".capnp"), text_of(message));
          ++files;
          // Every 8th case: plenty of op kinds, a bounded seed time.
          if (cases % 8 == 0 && message.size() < 16384) {
            const std::string session =
                record_session(socket, [&](const std::string& remote) { run_case_remotely(c, remote); });
            write(out / "fuzz_ipc_service" / (stem + ".rpc"), session);
            ++files;
            ++sessions;
          }
          fs::remove_all(scratch);
          fs::create_directories(scratch);
          webnn::formats::SaveOptions options;
          options.inline_limit = 0;
          webnn::formats::save_graph(*c.graph, (scratch / "g.json").string(), options);
          if (fs::exists(scratch / "g.manifest.json")) {  // uniform constants are written inline
            std::ifstream m(scratch / "g.manifest.json", std::ios::binary), w(scratch / "g.weights", std::ios::binary);
            const std::string manifest(std::istreambuf_iterator<char>(m), {}),
                weights(std::istreambuf_iterator<char>(w), {});
            const uint32_t n = uint32_t(manifest.size());
            const char len[4] = {char(n), char(n >> 8), char(n >> 16), char(n >> 24)};
            write(out / "fuzz_weights" / stem, std::string(len, 4) + manifest + weights);
            ++files;
          }
          for (const auto& [name, t] : c.inputs) {
            write(out / "fuzz_npy" / (stem + "_" + std::to_string(files++) + ".npy"),
                  text_of(webnn::formats::encode_npy(t.desc, t.data)));
          }
        });
      }
    }
  } catch (const webnn::Error& e) {
    std::cerr << "webnn_fuzz_seeds: " << e.what() << "\n";
    service.stop();
    serving.join();
    return 1;
  }
  service.stop();
  serving.join();
  fs::remove_all(scratch);
  std::printf("webnn_fuzz_seeds: %zu recorded service sessions\n", sessions);
  std::printf("webnn_fuzz_seeds: %zu cases, %zu seed files in %s\n", cases, files, out.c_str());
  return 0;
}
