// A context whose tensors live and graphs run in the WebNN service (docs/service.md). The
// context keeps its own steps — the spec's checks, the timeline, pending reads, loss — and hands
// each timeline step's effect to a RemoteSession, which src/ipc/client.cpp implements over
// Cap'n Proto. The runtime does not link the IPC layer: the IPC layer registers its connector.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "webnn/webnn.hpp"

namespace webnn::detail {

struct TensorImpl;

// As a Backend, compile() sends the graph to the service and returns an Executable whose run()
// is the service's compute and whose placement() is the service's.
class RemoteSession : public Backend {
 public:
  using Done = std::function<void(std::span<const std::byte>)>;
  using Failed = std::function<void(ErrorKind, const std::string&)>;

  virtual int num_threads() const = 0;
  // Timeline steps, called on the context's timeline in its order. They send their call without
  // waiting for the reply; a read settles `done` or `failed` once, later, from another thread.
  virtual void create_tensor(TensorImpl& tensor) = 0;
  virtual void write_tensor(const TensorImpl& tensor, std::vector<std::byte> bytes) = 0;
  virtual void read_tensor(const TensorImpl& tensor, Done done, Failed failed) = 0;
  virtual void destroy_tensor(const TensorImpl& tensor) = 0;
  virtual void dispatch(const Executable& graph, std::span<const std::shared_ptr<TensorImpl>> inputs,
                        std::span<const std::shared_ptr<TensorImpl>> outputs) = 0;
  virtual void destroy() = 0;
  // Called at most once, from a thread of its own, when the connection fails.
  virtual void on_lost(std::function<void(const std::string&)> lost) = 0;
};

// Opens a session for options.remote; throws (NotSupportedError when no connector is linked).
using RemoteConnector = std::function<std::shared_ptr<RemoteSession>(const MLContextOptions&)>;
void set_remote_connector(RemoteConnector connector);
std::shared_ptr<RemoteSession> connect_remote(const MLContextOptions& options);

}  // namespace webnn::detail
