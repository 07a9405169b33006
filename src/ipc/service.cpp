#include "ipc/service.hpp"

#include <capnp/rpc-twoparty.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <kj/async-io.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <thread>

#include "api/impl.hpp"
#include "graph/graph_builder.hpp"
#include "ipc/graph_codec.hpp"
#include "ipc/wire_util.hpp"
#include "webnn/webnn.hpp"

namespace webnn::ipc {

namespace {

// A descriptor per message is what the protocol uses (one region); a few more cost nothing.
constexpr unsigned kMaxFdsPerMessage = 4;

struct Connection {
  uint64_t number = 0;
  int fd = -1;  // guarded by State::mutex; -1 once closed
  std::thread thread;
  std::atomic<bool> finished{false};
  kj::TaskSet* tasks = nullptr;  // the connection's thread only, while its event loop runs
};

class LogTaskErrors final : public kj::TaskSet::ErrorHandler {
 public:
  void taskFailed(kj::Exception&&) override {}
};

}  // namespace

struct Service::State {
  ServiceOptions options;
  int listen_fd = -1;
  int wake[2] = {-1, -1};  // stop(): a byte written to wake[1]
  std::mutex mutex;
  std::list<std::shared_ptr<Connection>> connections;  // guarded by mutex
  std::atomic<size_t> live{0};
  std::atomic<size_t> served{0};

  void log(const std::string& line) const {
    if (options.log)
      options.log(line);
    else
      std::cerr << "webnn serve: " << line << "\n";
  }
  // Ends a connection from outside its thread: its event loop sees the end of the stream.
  void shut(Connection& c) {
    std::lock_guard lock(mutex);
    if (c.fd >= 0) ::shutdown(c.fd, SHUT_RDWR);
  }
};

namespace {

using State = Service::State;

// An exception whose description is `message` alone (what the client shows).
kj::Exception failed(const std::string& message) {
  return kj::Exception(kj::Exception::Type::FAILED, __FILE__, __LINE__, kj::heapString(message.c_str()));
}

// A broken protocol: logged, the call failed with `message`, and the connection ended once that
// reply is on its way (the last event of the loop's queue).
[[noreturn]] void violation(State& state, Connection& conn, const std::string& message) {
  state.log("connection " + std::to_string(conn.number) + ": ended: " + message);
  if (conn.tasks)
    conn.tasks->add(kj::evalLast([&state, &conn] { state.shut(conn); }));
  else
    state.shut(conn);
  kj::throwFatalException(failed(message));
}

// Runs `fn`; a webnn::Error it throws is a broken protocol (the client validated the call
// already, so a correct client never sends what the service refuses).
template <class Fn>
void checked(State& state, Connection& conn, const char* method, Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    violation(state, conn, std::string(method) + ": " + e.what());
  }
}

class ContextServer final : public wire::Context::Server {
 public:
  ContextServer(State& state, std::shared_ptr<Connection> conn, MLContext context)
      : state_(state), conn_(std::move(conn)), context_(std::move(context)) {
    ++state_.live;
  }
  ~ContextServer() noexcept(false) {
    context_.destroy();
    state_.live -= 1 + tensors_.size() + graphs_.size();
  }

  kj::Promise<void> createTensor(CreateTensorContext call) override {
    auto p = call.getParams();
    checked(state_, *conn_, "createTensor", [&] {
      const uint32_t id = p.getTensor();
      if (tensors_.count(id)) throw_error(ErrorKind::kDataError, "tensor " + std::to_string(id) + " exists already");
      const OperandDescriptor d = read_descriptor(p.getDescriptor(), "tensor " + std::to_string(id));
      tensors_.emplace(id, context_.create_tensor({d.data_type, d.shape, p.getReadable(), p.getWritable()}));
      ++state_.live;
    });
    return kj::READY_NOW;
  }

  kj::Promise<void> writeTensor(WriteTensorContext call) override {
    auto p = call.getParams();
    checked(state_, *conn_, "writeTensor", [&] {
      MLTensor& t = tensor(p.getTensor());
      SharedUnpacker shared(p.hasShared(), p.getShared(), "writeTensor");
      BufferRef bytes = shared.read(p.getBytes(), "writeTensor");
      context_.write_tensor(t, bytes.span());
    });
    return kj::READY_NOW;
  }

  kj::Promise<void> readTensor(ReadTensorContext call) override {
    auto p = call.getParams();
    MLTensor* t = nullptr;
    std::optional<SharedRegion> destination;
    checked(state_, *conn_, "readTensor", [&] {
      t = &tensor(p.getTensor());
      if (p.hasDestination()) {
        const uint64_t n = t->impl()->operand_desc().byte_length().value_or(0);
        destination = SharedRegion::map_received(region_fd(p.getDestination(), "readTensor"), n,
                                                 SharedRegion::Access::kWritable, "readTensor destination");
      }
    });
    // The read waits for the steps before it, as the client's own read would.
    try {
      if (destination) {
        context_.read_tensor(*t, destination->writable_bytes()).get();
      } else {
        std::vector<std::byte> bytes = context_.read_tensor(*t).get();
        call.getResults().setBytes({reinterpret_cast<const capnp::byte*>(bytes.data()), bytes.size()});
      }
    } catch (const Error& e) {
      set_failure(call.getResults().initFailure(), e);
    }
    return kj::READY_NOW;
  }

  kj::Promise<void> destroyTensor(DestroyTensorContext call) override {
    checked(state_, *conn_, "destroyTensor", [&] {
      const uint32_t id = call.getParams().getTensor();
      tensor(id).destroy();
      tensors_.erase(id);
      --state_.live;
    });
    return kj::READY_NOW;
  }

  kj::Promise<void> build(BuildContext call) override {
    auto p = call.getParams();
    const uint32_t id = p.getGraph();
    std::shared_ptr<const Graph> ir;
    checked(state_, *conn_, "build", [&] {
      if (graphs_.count(id)) throw_error(ErrorKind::kDataError, "graph " + std::to_string(id) + " exists already");
      auto description = p.getDescription();
      SharedUnpacker shared(description.hasShared(), description.getShared(), "build");
      ir = decode_graph(description, kDefaultMaxTensorByteLength,
                        [&](wire::Bytes::Reader b, const std::string& where) { return shared.read(b, where); });
    });
    // A graph that passed validation and still does not compile is the API's error, as locally.
    try {
      MLGraph graph = context_.build_graph(ir);
      const std::vector<std::string> placement = graph.placement();
      auto list = call.getResults().initPlacement(static_cast<unsigned>(placement.size()));
      for (unsigned i = 0; i < list.size(); ++i) list.set(i, wire_text(placement[i]));
      graphs_.emplace(id, std::move(graph));
      ++state_.live;
    } catch (const Error& e) {
      set_failure(call.getResults().initFailure(), e);
    }
    return kj::READY_NOW;
  }

  kj::Promise<void> dispatch(DispatchContext call) override {
    auto p = call.getParams();
    checked(state_, *conn_, "dispatch", [&] {
      MLGraph& g = graph(p.getGraph());
      MLNamedTensors inputs, outputs;
      for (auto in : p.getInputs()) inputs[std_text(in.getName())] = tensor(in.getTensor());
      for (auto out : p.getOutputs()) outputs[std_text(out.getName())] = tensor(out.getTensor());
      context_.dispatch(g, inputs, outputs);
    });
    return kj::READY_NOW;
  }

  kj::Promise<void> destroyGraph(DestroyGraphContext call) override {
    checked(state_, *conn_, "destroyGraph", [&] {
      const uint32_t id = call.getParams().getGraph();
      graph(id).destroy();
      graphs_.erase(id);
      --state_.live;
    });
    return kj::READY_NOW;
  }

  kj::Promise<void> compute(ComputeContext call) override {
    auto p = call.getParams();
    MLGraph* g = nullptr;
    NamedHostTensors inputs;
    std::optional<SharedRegion> destination;
    std::map<std::string, std::pair<uint64_t, uint64_t>> slices;  // output name -> (offset, size)
    checked(state_, *conn_, "compute", [&] {
      g = &graph(p.getGraph());
      SharedUnpacker shared(p.hasShared(), p.getShared(), "compute");
      const auto& expected = g->impl()->input_descriptors;
      for (auto in : p.getInputs()) {
        const std::string name = std_text(in.getName());
        auto it = expected.find(name);
        if (it == expected.end()) throw_error(ErrorKind::kTypeError, quote(name) + " is not an input of the graph");
        BufferRef bytes = shared.read(in.getBytes(), "compute input " + quote(name));
        inputs[name] = HostTensor{it->second, std::vector<std::byte>(bytes.span().begin(), bytes.span().end())};
      }
      if (p.hasDestination()) {
        destination = SharedRegion::map_received(region_fd(p.getDestination().getRegion(), "compute"),
                                                 p.getDestination().getSize(), SharedRegion::Access::kWritable,
                                                 "compute destination");
        for (auto d : p.getDestinations()) {
          const std::string name = std_text(d.getName());
          const auto& outs = g->impl()->output_descriptors;
          auto it = outs.find(name);
          if (it == outs.end() || !d.getBytes().isShared())
            throw_error(ErrorKind::kDataError, "compute: destination " + quote(name) + " is not an output slice");
          const uint64_t offset = d.getBytes().getShared().getOffset(), size = d.getBytes().getShared().getSize();
          if (size != it->second.byte_length().value_or(0) || offset > destination->size() ||
              size > destination->size() - offset)
            throw_error(ErrorKind::kDataError, "compute: the destination of " + quote(name) + " does not fit");
          slices[name] = {offset, size};
        }
      }
    });
    try {
      NamedHostTensors outputs = context_.compute(*g, inputs);
      auto list = call.getResults().initOutputs(static_cast<unsigned>(outputs.size()));
      unsigned i = 0;
      for (const auto& [name, host] : outputs) {
        list[i].setName(wire_text(name));
        auto slice = slices.find(name);
        if (slice != slices.end()) {
          std::memcpy(destination->writable_bytes().data() + slice->second.first, host.data.data(), host.data.size());
          auto shared = list[i].initBytes().initShared();
          shared.setOffset(slice->second.first);
          shared.setSize(slice->second.second);
        } else {
          list[i].initBytes().setInline({reinterpret_cast<const capnp::byte*>(host.data.data()), host.data.size()});
        }
        ++i;
      }
    } catch (const Error& e) {
      set_failure(call.getResults().initFailure(), e);
    }
    return kj::READY_NOW;
  }

  kj::Promise<void> destroy(DestroyContext) override {
    context_.destroy();
    return kj::READY_NOW;
  }

 private:
  MLTensor& tensor(uint32_t id) {
    auto it = tensors_.find(id);
    if (it == tensors_.end()) throw_error(ErrorKind::kDataError, "tensor " + std::to_string(id) + " does not exist");
    return it->second;
  }
  MLGraph& graph(uint32_t id) {
    auto it = graphs_.find(id);
    if (it == graphs_.end()) throw_error(ErrorKind::kDataError, "graph " + std::to_string(id) + " does not exist");
    return it->second;
  }

  State& state_;
  std::shared_ptr<Connection> conn_;
  MLContext context_;
  std::map<uint32_t, MLTensor> tensors_;
  std::map<uint32_t, MLGraph> graphs_;
};

class MLServer final : public wire::ML::Server {
 public:
  MLServer(State& state, std::shared_ptr<Connection> conn) : state_(state), conn_(std::move(conn)) {}

  kj::Promise<void> createContext(CreateContextContext call) override {
    auto o = call.getParams().getOptions();
    MLContextOptions options;
    options.backend = std_text(o.getBackend());
    options.num_threads = o.getNumThreads();
    options.accelerated = o.getAccelerated();
    options.power_preference = o.getPowerPreference() <= static_cast<uint8_t>(PowerPreference::kLowPower)
                                   ? static_cast<PowerPreference>(o.getPowerPreference())
                                   : PowerPreference::kDefault;
    try {
      MLContext context = ML::create_context(options);
      auto info = call.getResults().initInfo();
      info.setBackend(wire_text(context.backend_name()));
      info.setAccelerated(context.accelerated());
      info.setNumThreads(context.num_threads());
      call.getResults().setContext(kj::heap<ContextServer>(state_, conn_, std::move(context)));
    } catch (const Error& e) {
      set_failure(call.getResults().initFailure(), e);
    }
    return kj::READY_NOW;
  }

 private:
  State& state_;
  std::shared_ptr<Connection> conn_;
};

bool same_token(const std::string& expected, capnp::Data::Reader given) {
  if (given.size() != expected.size()) return false;
  // Compared in full whatever the first difference, so timing says nothing of the content.
  unsigned diff = 0;
  for (size_t i = 0; i < given.size(); ++i)
    diff |= static_cast<unsigned>(static_cast<unsigned char>(expected[i]) ^ given[i]);
  return diff == 0;
}

class ServiceServer final : public wire::Service::Server {
 public:
  ServiceServer(State& state, std::shared_ptr<Connection> conn) : state_(state), conn_(std::move(conn)) {}

  kj::Promise<void> connect(ConnectContext call) override {
    auto p = call.getParams();
    // Refused with the reason and no capability; the connection stays until the client closes it,
    // so the refusal is what it hears (not a closed pipe under its own next write).
    auto refuse = [&](const std::string& why) {
      state_.log("connection " + std::to_string(conn_->number) + ": refused: " + why);
      kj::throwFatalException(failed(why));
    };
    if (p.getOpTableHash() != wire::OP_TABLE_HASH)
      refuse("the client was built from another op table (its schema hash differs)");
    if (!state_.options.token.empty() && !same_token(state_.options.token, p.getToken()))
      refuse("the token was refused");
    call.getResults().setMl(kj::heap<MLServer>(state_, conn_));
    return kj::READY_NOW;
  }

 private:
  State& state_;
  std::shared_ptr<Connection> conn_;
};

void serve_connection(State& state, std::shared_ptr<Connection> conn) {
  state.log("connection " + std::to_string(conn->number) + ": accepted");
  std::string ending = "closed by the client";
  try {
    auto io = kj::setupAsyncIo();
    auto stream = io.lowLevelProvider->wrapUnixSocketFd(conn->fd);
    capnp::TwoPartyVatNetwork network(*stream, kMaxFdsPerMessage, capnp::rpc::twoparty::Side::SERVER);
    LogTaskErrors errors;
    kj::TaskSet tasks(errors);
    conn->tasks = &tasks;
    auto rpc = capnp::makeRpcServer(network, kj::heap<ServiceServer>(state, conn));
    network.onDisconnect().wait(io.waitScope);
  } catch (const kj::Exception& e) {
    ending = std::string("ended: ") + e.getDescription().cStr();
  }
  conn->tasks = nullptr;
  // Every server object (and with it every local context) is gone with the RPC system.
  state.log("connection " + std::to_string(conn->number) + ": " + ending);
  std::lock_guard lock(state.mutex);
  ::close(conn->fd);
  conn->fd = -1;
  conn->finished = true;
}

[[noreturn]] void service_error(const std::string& message) {
  throw_error(ErrorKind::kUnknownError, "webnn serve: " + message + ": " + std::strerror(errno));
}

}  // namespace

Service::Service(ServiceOptions options) : state_(std::make_shared<State>()) {
  State& s = *state_;
  s.options = std::move(options);
  const std::string& path = s.options.socket_path;
  const sockaddr_un addr = unix_address(path, "webnn serve");
  if (::pipe2(s.wake, O_CLOEXEC | O_NONBLOCK) != 0) service_error("pipe");
  s.listen_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s.listen_fd < 0) service_error("socket");
  // A socket file nobody listens on is stale (a service that was killed); a live one is not ours.
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode))
      throw_error(ErrorKind::kTypeError, "webnn serve: " + quote(path) + " exists and is not a socket");
    const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const bool live = ::connect(probe, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0;
    ::close(probe);
    if (live) throw_error(ErrorKind::kInvalidStateError, "webnn serve: a service already listens on " + quote(path));
    ::unlink(path.c_str());
  }
  // Created 0600 from the start: no moment where another user could connect.
  const mode_t old = ::umask(0177);
  const int bound = ::bind(s.listen_fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr));
  ::umask(old);
  if (bound != 0) service_error("cannot bind " + quote(path));
  if (::listen(s.listen_fd, 64) != 0) service_error("listen");
}

Service::~Service() {
  // run() has ended every connection and closed the socket when it returned; what is left is a
  // service that never ran.
  State& s = *state_;
  if (s.listen_fd >= 0) {
    ::close(s.listen_fd);
    ::unlink(s.options.socket_path.c_str());
  }
  ::close(s.wake[0]);
  ::close(s.wake[1]);
}

void Service::stop() noexcept {
  const char byte = 1;
  [[maybe_unused]] ssize_t n = ::write(state_->wake[1], &byte, 1);
}

void Service::run() {
  State& s = *state_;
  uint64_t next = 1;
  for (;;) {
    pollfd fds[2] = {{s.listen_fd, POLLIN, 0}, {s.wake[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      service_error("poll");
    }
    if (fds[1].revents) break;
    if (!(fds[0].revents & POLLIN)) continue;
    const int fd = ::accept4(s.listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;  // the client went away before we took it, or out of descriptors
    auto conn = std::make_shared<Connection>();
    conn->number = next++;
    conn->fd = fd;
    ++s.served;
    std::lock_guard lock(s.mutex);
    // Reap the threads of connections that have ended.
    for (auto it = s.connections.begin(); it != s.connections.end();) {
      if ((*it)->finished) {
        (*it)->thread.join();
        it = s.connections.erase(it);
      } else {
        ++it;
      }
    }
    conn->thread = std::thread(serve_connection, std::ref(s), conn);
    s.connections.push_back(std::move(conn));
  }
  // Stopping: no new connection; each one ends after the call it is running.
  std::list<std::shared_ptr<Connection>> ending;
  {
    std::lock_guard lock(s.mutex);
    for (auto& c : s.connections)
      if (c->fd >= 0) ::shutdown(c->fd, SHUT_RDWR);
    ending.swap(s.connections);
  }
  for (auto& c : ending) c->thread.join();
  ::close(s.listen_fd);
  s.listen_fd = -1;
  ::unlink(s.options.socket_path.c_str());
}

size_t Service::live_objects() const { return state_->live.load(); }
size_t Service::connections_served() const { return state_->served.load(); }

void serve_connection_fd(int fd, ServiceOptions options) {
  State state;
  state.options = std::move(options);
  auto conn = std::make_shared<Connection>();
  conn->number = 1;
  conn->fd = fd;
  serve_connection(state, conn);
}

namespace {
Service* g_signalled = nullptr;
extern "C" void on_stop_signal(int) {
  if (g_signalled) g_signalled->stop();
}
}  // namespace

int serve_until_signal(ServiceOptions options) {
  const std::string path = options.socket_path;
  Service service(std::move(options));
  g_signalled = &service;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  std::cerr << "webnn serve: listening on " << path << "\n";
  service.run();
  g_signalled = nullptr;
  std::cerr << "webnn serve: stopped (" << service.connections_served() << " connections served)\n";
  return 0;
}

}  // namespace webnn::ipc
