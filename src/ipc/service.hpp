// The WebNN service (`webnn serve`, docs/service.md): listens on a Unix socket and serves each
// connection (a client) in a sandboxed worker process of its own, or on a thread of this process,
// holding that client's contexts, tensors and graphs in ordinary local contexts. Everything a
// client sends is validated again before anything is allocated or run, and counted against the
// client's quotas; a malformed message ends that connection, never the service.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "webnn/service.hpp"

namespace webnn::ipc {

// The limits and options are the public header's (include/webnn/service.hpp), whose Service is
// this one behind a handle.
using ServiceLimits = webnn::ServiceLimits;
using ServiceOptions = webnn::ServiceOptions;

class Service {
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
  // (for tests; workers keep their own counts).
  size_t live_objects() const;
  size_t connections_served() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

// Serves one connection on `fd` (a connected Unix stream socket, closed on return) on the calling
// thread until it ends: what each accepted connection gets, for the fuzz target.
void serve_connection_fd(int fd, ServiceOptions options);

// `webnn serve`: runs a Service until SIGINT or SIGTERM, then removes the socket; returns the exit
// status.
int serve_until_signal(ServiceOptions options);

}  // namespace webnn::ipc
