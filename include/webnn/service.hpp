// The WebNN service (`webnn serve`, docs/service.md) for programs that serve remote contexts
// themselves (not in the spec): a Unix socket whose clients (MLContextOptions::remote =
// "unix:PATH") get contexts, tensors and graphs held by the service, each client in a sandboxed
// worker process of its own or on a thread of this process. Everything a client sends is
// validated again before anything is allocated or run, and counted against its quotas.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "webnn/export.h"

namespace webnn {

namespace ipc {
struct ServiceState;  // the service's state (src/ipc/service.cpp); opaque here
}  // namespace ipc

// Flags of `webnn serve` (docs/service.md, "Limits"). A quota is an error the client hears
// (UnknownError naming the limit), not the end of its connection.
struct ServiceLimits {
  // Per client: bytes of its tensors, graph constants and compiled graphs (a graph counts the
  // bytes of every operand that is not an input: constants, intermediates and outputs).
  uint64_t max_bytes = uint64_t{4} << 30;
  // Per client: contexts + tensors + graphs it holds (and tensors whose creation failed).
  uint64_t max_objects = 10000;
  // Per message (Cap'n Proto's traversal limit); a larger message cannot be read, so a client
  // that sends one is broken and its connection ends. The client library checks first.
  uint64_t max_message_bytes = uint64_t{256} << 20;
  // Per graph.
  uint64_t max_graph_operations = 100000;
  uint64_t max_graph_operands = 200000;  // and outputs
  // For the service: clients served at once; one more is refused with the reason.
  unsigned max_clients = 64;
  // Worker processes only: a step (dispatch, compute, read) or build running longer ends the
  // worker, and its client's contexts are lost (0 = no limit).
  double dispatch_timeout_s = 60;
  // From accepting a connection to its connect() call (0 = no limit).
  double handshake_timeout_s = 10;
  // Worker processes only: RLIMIT_AS of a worker (0: max_bytes * 2 + 4 GiB).
  uint64_t worker_address_space = 0;
  // Worker processes only: the most threads a context may use (0: the processor count).
  int worker_threads = 0;
};

struct ServiceOptions {
  std::string socket_path;
  // Clients must present exactly these bytes ("" = no token is asked for).
  std::string token;
  // One line per connection and per ended connection; default: stderr.
  std::function<void(const std::string&)> log;
  // A sandboxed worker process per connection (webnn serve's default). run() must then be called
  // from a process with one thread (fork() copies only the caller). Otherwise each connection is
  // served on a thread of this process: no isolation and no dispatch time limit (tests, Python's
  // webnn.Service, `webnn serve --in-process`).
  bool workers = false;
  ServiceLimits limits;
};

// Serves until stop(): construct it, call run() (on a thread of its own when this one has more
// to do), call stop() from any thread or a signal handler.
class WEBNN_EXPORT Service {
 public:
  // Binds and listens (the socket file gets mode 0600). Throws Error when it cannot: the path is
  // too long, taken by a live service, or not writable. A stale socket file is replaced.
  explicit Service(ServiceOptions options);
  // Stops (as stop()) and removes the socket file.
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Accepts connections until stop(); then ends every connection (in-flight calls finish first)
  // and returns once their threads have.
  void run();
  // Safe from any thread and from a signal handler.
  void stop() noexcept;
  // Contexts, tensors and graphs the clients hold now, over all connections served on threads
  // (workers keep their own counts).
  size_t live_objects() const;
  // Connections accepted so far.
  size_t connections_served() const;

 private:
  std::shared_ptr<ipc::ServiceState> state_;
};

// `webnn serve`: runs a Service until SIGINT or SIGTERM, then removes the socket; returns the exit
// status.
WEBNN_EXPORT int serve_until_signal(ServiceOptions options);

}  // namespace webnn
