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

// The service is the public header's (include/webnn/service.hpp); its state and connections are
// defined in service.cpp.
using ServiceLimits = webnn::ServiceLimits;
using ServiceOptions = webnn::ServiceOptions;
using Service = webnn::Service;
using webnn::serve_until_signal;

// Serves one connection on `fd` (a connected Unix stream socket, closed on return) on the calling
// thread until it ends: what each accepted connection gets, for the fuzz target.
void serve_connection_fd(int fd, ServiceOptions options);

}  // namespace webnn::ipc
