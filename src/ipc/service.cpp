#include "ipc/service.hpp"

#include <capnp/rpc-twoparty.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kj/async-io.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <sstream>
#include <thread>

#include "api/impl.hpp"
#include "graph/graph_builder.hpp"
#include "ipc/graph_codec.hpp"
#include "ipc/sandbox.hpp"
#include "ipc/wire_util.hpp"
#include "runtime/context_impl.hpp"
#include "webnn/webnn.hpp"

namespace webnn::ipc {

namespace {

// The exit status of a worker whose step ran past the dispatch time limit, and of one that ran
// out of memory (its address-space limit).
constexpr int kExitTimedOut = 70;
constexpr int kExitOutOfMemory = 71;

using Clock = std::chrono::steady_clock;

}  // namespace

// Outside the anonymous namespace: ServiceState, declared in service.hpp, holds a list of them.
struct Connection {
  uint64_t number = 0;
  int fd = -1;  // guarded by State::mutex; -1 once closed
  std::thread thread;
  std::atomic<bool> finished{false};
  kj::TaskSet* tasks = nullptr;  // the connection's thread only, while its event loop runs
  // Set when the connection is accepted over the service's client limit: connect() fails with it.
  std::string refusal;
  std::atomic<bool> connected{false};
  // The client's quotas (ServiceLimits), the connection's thread only.
  uint64_t bytes = 0;
  uint64_t objects = 0;
  // For the watchdog: since when the connection's thread has been compiling (0: it is not), and
  // the client's contexts, whose timelines say how long their running step has run.
  std::atomic<Clock::rep> building_since{0};
  std::mutex contexts_mutex;
  std::set<std::shared_ptr<detail::ContextImpl>> contexts;
};

namespace {

class LogTaskErrors final : public kj::TaskSet::ErrorHandler {
 public:
  void taskFailed(kj::Exception&&) override {}
};

}  // namespace

struct ServiceState {
  ServiceOptions options;
  int listen_fd = -1;
  int wake[2] = {-1, -1};  // stop(): a byte written to wake[1]
  std::mutex mutex;
  std::list<std::shared_ptr<Connection>> connections;  // guarded by mutex
  std::atomic<size_t> live{0};
  std::atomic<size_t> served{0};
  // Worker processes (options.workers), the run() thread only: pid -> (connection number, pidfd,
  // whether it serves a refusal).
  struct Worker {
    uint64_t number;
    int pidfd;
    bool refusing;
  };
  std::map<pid_t, Worker> workers;

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

using State = ServiceState;

std::string seconds(double s) {
  std::ostringstream out;
  out << s << " s";
  return out.str();
}

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

// The client's quotas (ServiceLimits): reserve() before allocating, release() when freed.
class Quota {
 public:
  Quota(const ServiceLimits& limits, Connection& conn) : limits_(limits), conn_(conn) {}

  // One more object of `bytes` for the client, or an error of `kind` (the spec's for the failed
  // allocation of what `what` creates) naming the limit it would pass.
  void reserve(uint64_t bytes, const std::string& what, ErrorKind kind) {
    if (conn_.objects >= limits_.max_objects)
      throw_error(kind, what + ": the client holds " + std::to_string(conn_.objects) +
                            " objects, the service's limit (--max-objects " + std::to_string(limits_.max_objects) +
                            ")");
    if (bytes > limits_.max_bytes - conn_.bytes)
      throw_error(kind, what + ": " + std::to_string(bytes) + " more bytes would pass the client's limit of " +
                            std::to_string(limits_.max_bytes) +
                            " bytes of tensors, constants and graphs (--max-bytes; " + std::to_string(conn_.bytes) +
                            " held)");
    ++conn_.objects;
    conn_.bytes += bytes;
  }
  void release(uint64_t bytes) {
    --conn_.objects;
    conn_.bytes -= bytes;
  }

 private:
  const ServiceLimits& limits_;
  Connection& conn_;
};

class ContextServer final : public wire::Context::Server {
 public:
  // `context` has been counted against the client's quota (one object).
  ContextServer(State& state, std::shared_ptr<Connection> conn, MLContext context)
      : state_(state), conn_(std::move(conn)), quota_(state.options.limits, *conn_), context_(std::move(context)) {
    ++state_.live;
    std::lock_guard lock(conn_->contexts_mutex);
    conn_->contexts.insert(detail::impl_of(context_));
  }
  ~ContextServer() noexcept(false) {
    context_.destroy();
    {
      std::lock_guard lock(conn_->contexts_mutex);
      conn_->contexts.erase(detail::impl_of(context_));
    }
    state_.live -= 1 + tensors_.size() + graphs_.size();
    for (const auto& [id, t] : tensors_) quota_.release(t.bytes);
    for (const auto& [id, g] : graphs_) quota_.release(g.bytes);
    quota_.release(0);
  }

  kj::Promise<void> steps(StepsContext call) override {
    auto steps = call.getParams().getSteps();
    unsigned reads = 0;
    for (auto step : steps) reads += step.isReadTensor();
    auto results = call.getResults().initReads(reads);
    unsigned read = 0;
    for (auto step : steps) {
      switch (step.which()) {
        case wire::Step::CREATE_TENSOR:
          create_tensor(step.getCreateTensor());
          break;
        case wire::Step::WRITE_TENSOR:
          write_tensor(step.getWriteTensor(), /*in_steps=*/true);
          break;
        case wire::Step::READ_TENSOR:
          read_tensor(step.getReadTensor(), results[read++], /*in_steps=*/true);
          break;
        case wire::Step::DESTROY_TENSOR:
          destroy_tensor(step.getDestroyTensor());
          break;
        case wire::Step::DISPATCH:
          dispatch(step.getDispatch());
          break;
        case wire::Step::DESTROY_GRAPH:
          destroy_graph(step.getDestroyGraph());
          break;
        default:
          violation(state_, *conn_, "steps: a step of an unknown kind");
      }
    }
    return kj::READY_NOW;
  }

  kj::Promise<void> writeTensor(WriteTensorContext call) override {
    write_tensor(call.getParams(), /*in_steps=*/false);
    return kj::READY_NOW;
  }

  kj::Promise<void> readTensor(ReadTensorContext call) override {
    read_tensor(call.getParams(), call.getResults(), /*in_steps=*/false);
    return kj::READY_NOW;
  }

  kj::Promise<void> attachRegion(AttachRegionContext call) override {
    auto p = call.getParams();
    checked(state_, *conn_, "attachRegion", [&] {
      const uint32_t id = p.getTensor();
      if (failed_.count(id)) return;  // no storage: its writes are dropped and its reads fail
      const uint64_t n = detail::impl_of(tensor(id))->operand_desc().byte_length().value_or(0);
      if (attached_.count(id))
        throw_error(ErrorKind::kDataError, "tensor " + std::to_string(id) + " has a region already");
      attached_.emplace(
          id, SharedRegion::map_received(region_fd(p.getRegion(), "attachRegion"), n, SharedRegion::Access::kWritable,
                                         "the region of tensor " + std::to_string(id)));
    });
    return kj::READY_NOW;
  }

  kj::Promise<void> build(BuildContext call) override {
    auto p = call.getParams();
    const uint32_t id = p.getGraph();
    const ServiceLimits& limits = state_.options.limits;
    std::shared_ptr<const Graph> ir;
    uint64_t bytes = 0;
    std::optional<Error> failure;
    checked(state_, *conn_, "build", [&] {
      if (graphs_.count(id)) throw_error(ErrorKind::kDataError, "graph " + std::to_string(id) + " exists already");
      auto description = p.getDescription();
      // Counted before anything is decoded: a graph over the limits is refused, not read.
      auto over = [&](const char* what, uint64_t count, uint64_t limit, const char* flag) {
        if (count <= limit) return false;
        failure = Error(ErrorKind::kOperationError, "build: the graph has " + std::to_string(count) + " " + what +
                                                        ", over the service's limit of " + std::to_string(limit) +
                                                        " (" + flag + ")");
        return true;
      };
      // The outputs too: a list of empty structs costs no bytes per element, so a message of a
      // few kilobytes can declare tens of millions of them (a fuzzer's 2.5 KB message asked
      // decode_graph for 1.3 GB); every output names an operand, so the operands' limit bounds them.
      if (over("operations", description.getOperations().size(), limits.max_graph_operations,
               "--max-graph-operations") ||
          over("operands", description.getOperands().size(), limits.max_graph_operands, "--max-graph-operands") ||
          over("outputs", description.getOutputs().size(), limits.max_graph_operands, "--max-graph-operands"))
        return;
      SharedUnpacker shared(description.hasShared(), description.getShared(), "build");
      ir = decode_graph(description, kMaxTensorByteLength,
                        [&](wire::Bytes::Reader b, const std::string& where) { return shared.read(b, where); });
      // What a compiled graph may hold: its constants, intermediates and outputs.
      for (const Operand& operand : ir->operands)
        if (operand.kind != OperandKind::kInput) bytes += operand.desc.byte_length().value_or(0);
      try {
        quota_.reserve(bytes, "build", ErrorKind::kOperationError);
      } catch (const Error& e) {
        failure = e;
      }
    });
    if (failure) {
      set_failure(call.getResults().initFailure(), *failure);
      return kj::READY_NOW;
    }
    // A graph that passed validation and still does not compile is the API's error, as locally.
    conn_->building_since = std::max<Clock::rep>(1, Clock::now().time_since_epoch().count());
    try {
      MLGraph graph = detail::context_build_graph(detail::impl_of(context_), ir);
      const std::vector<std::string> placement = graph.placement();
      auto list = call.getResults().initPlacement(static_cast<unsigned>(placement.size()));
      for (unsigned i = 0; i < list.size(); ++i) list.set(i, wire_text(placement[i]));
      graphs_.emplace(id, Held<MLGraph>{std::move(graph), bytes});
      ++state_.live;
    } catch (const Error& e) {
      quota_.release(bytes);
      set_failure(call.getResults().initFailure(), e);
    }
    conn_->building_since = 0;
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
      const auto& expected = g->input_descriptors();
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
          const auto& outs = g->output_descriptors();
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
  // ---- Timeline steps (the `steps` call, and writeTensor/readTensor for region-borne bytes) ----

  void create_tensor(wire::CreateTensorStep::Reader p) {
    checked(state_, *conn_, "createTensor", [&] {
      const uint32_t id = p.getTensor();
      if (tensors_.count(id) || failed_.count(id))
        throw_error(ErrorKind::kDataError, "tensor " + std::to_string(id) + " exists already");
      const OperandDescriptor d = read_descriptor(p.getDescriptor(), "tensor " + std::to_string(id));
      GraphBuilder(kMaxTensorByteLength).check_descriptor(d, "createTensor");
      const uint64_t n = *d.byte_length();
      // Over a quota the tensor exists without storage, as one whose allocation failed: its
      // reads report why (the client does not wait for createTensor's reply).
      try {
        quota_.reserve(n, "createTensor", ErrorKind::kUnknownError);
      } catch (const Error& e) {
        if (failed_.size() >= state_.options.limits.max_objects)
          throw_error(ErrorKind::kDataError, "more failed tensors than the object limit");
        failed_.emplace(id, e);
        return;
      }
      try {
        tensors_.emplace(
            id, Held<MLTensor>{context_.create_tensor({d.data_type, d.shape, p.getReadable(), p.getWritable()}), n});
      } catch (...) {
        quota_.release(n);
        throw;
      }
      ++state_.live;
    });
  }

  void write_tensor(wire::WriteTensorStep::Reader p, bool in_steps) {
    checked(state_, *conn_, "writeTensor", [&] {
      if (in_steps && p.hasShared())
        throw_error(ErrorKind::kDataError, "a write in `steps` carries no region of its own");
      const uint32_t id = p.getTensor();
      if (failed_.count(id)) return;  // it has no storage to write to
      MLTensor& t = tensor(id);
      if (in_steps && p.getBytes().isShared()) {
        // The whole of the tensor's attached region.
        auto slice = p.getBytes().getShared();
        const SharedRegion& region = attached(id);
        if (slice.getOffset() != 0 || slice.getSize() != region.size())
          throw_error(ErrorKind::kDataError, "writeTensor: a write from the attached region takes all of it");
        context_.write_tensor(t, region.bytes());
        poisoned_.erase(id);
        return;
      }
      SharedUnpacker shared(p.hasShared(), p.getShared(), "writeTensor");
      BufferRef bytes = shared.read(p.getBytes(), "writeTensor");
      context_.write_tensor(t, bytes.span());
      poisoned_.erase(id);
    });
  }

  void read_tensor(wire::ReadTensorStep::Reader p, wire::ReadResult::Builder result, bool in_steps) {
    MLTensor* t = nullptr;
    const Error* failure = nullptr;
    std::optional<SharedRegion> destination;
    std::span<std::byte> into;  // where the bytes go, when not inline
    checked(state_, *conn_, "readTensor", [&] {
      if (in_steps && p.hasDestination())
        throw_error(ErrorKind::kDataError, "a read in `steps` carries no region of its own");
      if (!in_steps && p.getAttached())
        throw_error(ErrorKind::kDataError, "readTensor: only a read in `steps` goes to the attached region");
      const uint32_t id = p.getTensor();
      if ((failure = failure_of(id))) return;
      t = &tensor(id);
      if (p.getAttached()) into = attached(id).writable_bytes();
      if (p.hasDestination()) {
        const uint64_t n = detail::impl_of(*t)->operand_desc().byte_length().value_or(0);
        destination = SharedRegion::map_received(region_fd(p.getDestination(), "readTensor"), n,
                                                 SharedRegion::Access::kWritable, "readTensor destination");
      }
    });
    if (failure) {
      set_failure(result.initFailure(), *failure);
      return;
    }
    // The read waits for the steps before it, as the client's own read would.
    try {
      if (destination) into = destination->writable_bytes();
      if (!into.empty()) {
        context_.read_tensor(*t, into).get();
      } else {
        std::vector<std::byte> bytes = context_.read_tensor(*t).get();
        result.setBytes({reinterpret_cast<const capnp::byte*>(bytes.data()), bytes.size()});
      }
    } catch (const Error& e) {
      set_failure(result.initFailure(), e);
    }
  }

  void destroy_tensor(uint32_t id) {
    checked(state_, *conn_, "destroyTensor", [&] {
      if (failed_.erase(id)) return;
      MLTensor& t = tensor(id);
      t.destroy();
      quota_.release(tensors_.at(id).bytes);
      tensors_.erase(id);
      poisoned_.erase(id);
      attached_.erase(id);
      --state_.live;
    });
  }

  void dispatch(wire::DispatchStep::Reader p) {
    checked(state_, *conn_, "dispatch", [&] {
      MLGraph& g = graph(p.getGraph());
      // An input or output without valid data (a failed creation, or an earlier failed dispatch)
      // fails the dispatch: its outputs report why, as the local timeline does.
      std::optional<Error> failure;
      for (auto in : p.getInputs())
        if (const Error* f = failure_of(in.getTensor()))
          failure = Error(f->kind(), "dispatch: input " + quote(std_text(in.getName())) + " holds no valid data (" +
                                         f->message() + ")");
      for (auto out : p.getOutputs())
        if (const Error* f = failed(out.getTensor()))
          failure = Error(f->kind(), "dispatch: output " + quote(std_text(out.getName())) + " has no storage (" +
                                         f->message() + ")");
      MLNamedTensors inputs, outputs;
      if (failure) {
        for (auto out : p.getOutputs())
          if (tensors_.count(out.getTensor())) poisoned_.insert_or_assign(out.getTensor(), *failure);
        return;
      }
      for (auto in : p.getInputs()) inputs[std_text(in.getName())] = tensor(in.getTensor());
      for (auto out : p.getOutputs()) outputs[std_text(out.getName())] = tensor(out.getTensor());
      context_.dispatch(g, inputs, outputs);
      for (auto out : p.getOutputs()) poisoned_.erase(out.getTensor());
    });
  }

  void destroy_graph(uint32_t id) {
    checked(state_, *conn_, "destroyGraph", [&] {
      graph(id).destroy();
      quota_.release(graphs_.at(id).bytes);
      graphs_.erase(id);
      --state_.live;
    });
  }

  MLTensor& tensor(uint32_t id) {
    auto it = tensors_.find(id);
    if (it == tensors_.end()) throw_error(ErrorKind::kDataError, "tensor " + std::to_string(id) + " does not exist");
    return it->second.object;
  }
  SharedRegion& attached(uint32_t id) {
    auto it = attached_.find(id);
    if (it == attached_.end())
      throw_error(ErrorKind::kDataError, "tensor " + std::to_string(id) + " has no attached region");
    return it->second;
  }
  MLGraph& graph(uint32_t id) {
    auto it = graphs_.find(id);
    if (it == graphs_.end()) throw_error(ErrorKind::kDataError, "graph " + std::to_string(id) + " does not exist");
    return it->second.object;
  }
  // Why tensor `id` has no storage (its creation failed), or null.
  const Error* failed(uint32_t id) const {
    auto it = failed_.find(id);
    return it == failed_.end() ? nullptr : &it->second;
  }
  // Why tensor `id` holds no valid data (no storage, or a dispatch that could not run), or null.
  const Error* failure_of(uint32_t id) const {
    if (const Error* f = failed(id)) return f;
    auto it = poisoned_.find(id);
    return it == poisoned_.end() ? nullptr : &it->second;
  }

  template <class T>
  struct Held {
    T object;
    uint64_t bytes;  // counted against the client's quota
  };

  State& state_;
  std::shared_ptr<Connection> conn_;
  Quota quota_;
  MLContext context_;
  std::map<uint32_t, Held<MLTensor>> tensors_;
  std::map<uint32_t, Held<MLGraph>> graphs_;
  std::map<uint32_t, Error> failed_;    // created over a quota: no storage (at most max_objects)
  std::map<uint32_t, Error> poisoned_;  // live, but a dispatch writing them could not run
  // Live tensors' attached regions (attachRegion): one per tensor, of its size, so at most the
  // tensors' own quota of address space again (the worker's default RLIMIT_AS allows for it).
  std::map<uint32_t, SharedRegion> attached_;
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
    // Workers share the cores: no context of theirs uses more threads than the limit.
    const int cap = state_.options.limits.worker_threads;
    if (state_.options.workers && cap > 0 && (options.num_threads <= 0 || options.num_threads > cap))
      options.num_threads = cap;
    try {
      Quota(state_.options.limits, *conn_).reserve(0, "createContext", ErrorKind::kNotSupportedError);
    } catch (const Error& e) {
      set_failure(call.getResults().initFailure(), e);
      return kj::READY_NOW;
    }
    try {
      // Its steps run on this connection thread, which makes every call to it in order.
      MLContext context = detail::create_local_context(options, detail::Timeline::Mode::kCaller);
      auto info = call.getResults().initInfo();
      info.setBackend(wire_text(context.backend_name()));
      info.setAccelerated(context.accelerated());
      info.setNumThreads(context.num_threads());
      call.getResults().setContext(kj::heap<ContextServer>(state_, conn_, std::move(context)));
    } catch (const Error& e) {
      Quota(state_.options.limits, *conn_).release(0);
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
    if (!conn_->refusal.empty()) refuse(conn_->refusal);
    conn_->connected = true;
    call.getResults().setMl(kj::heap<MLServer>(state_, conn_));
    call.getResults().setMaxMessageBytes(state_.options.limits.max_message_bytes);
    return kj::READY_NOW;
  }

 private:
  State& state_;
  std::shared_ptr<Connection> conn_;
};

void serve_connection(State& state, std::shared_ptr<Connection> conn) {
  state.log("connection " + std::to_string(conn->number) + ": accepted");
  std::string ending = "closed";
  try {
    auto io = kj::setupAsyncIo();
    auto stream = io.lowLevelProvider->wrapUnixSocketFd(conn->fd);
    capnp::ReaderOptions reader;
    reader.traversalLimitInWords = std::max<uint64_t>(state.options.limits.max_message_bytes / 8, 1024);
    capnp::TwoPartyVatNetwork network(*stream, kMaxFdsPerMessage, capnp::rpc::twoparty::Side::SERVER, reader);
    LogTaskErrors errors;
    kj::TaskSet tasks(errors);
    conn->tasks = &tasks;
    // A connection that does not connect() in time ends (it holds a worker and a client slot).
    if (const double limit = state.options.limits.handshake_timeout_s; limit > 0)
      tasks.add(io.provider->getTimer()
                    .afterDelay(static_cast<int64_t>(limit * 1000) * kj::MILLISECONDS)
                    .then([&state, conn] {
                      if (conn->connected) return;
                      state.log("connection " + std::to_string(conn->number) + ": no connect() within " +
                                seconds(state.options.limits.handshake_timeout_s) + " (--handshake-timeout)");
                      state.shut(*conn);
                    }));
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

// ---- Worker processes (ServiceOptions::workers) ----

int g_worker_fd = -1;  // the worker's connection, for its SIGTERM handler

extern "C" void on_worker_stop(int) {
  // The event loop sees the end of the stream after the call it is running: in-flight work ends.
  if (g_worker_fd >= 0) ::shutdown(g_worker_fd, SHUT_RDWR);
}

// In the worker: ends the process when a step or a build runs past the dispatch time limit. The
// client hears its connection close and its contexts are lost.
void watch_steps(State& state, std::shared_ptr<Connection> conn) {
  const auto limit = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(state.options.limits.dispatch_timeout_s));
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    Clock::duration longest{};
    if (const auto since = conn->building_since.load())
      longest = Clock::now() - Clock::time_point(Clock::duration(since));
    {
      std::lock_guard lock(conn->contexts_mutex);
      for (const auto& context : conn->contexts) longest = std::max(longest, context->step_running_for());
    }
    if (longest > limit) {
      state.log("connection " + std::to_string(conn->number) + ": a step ran past the dispatch time limit of " +
                seconds(state.options.limits.dispatch_timeout_s) + " (--dispatch-timeout); its worker ends");
      ::_exit(kExitTimedOut);
    }
  }
}

// The child of fork() for one connection: drops what it does not need, then serves. Never returns.
[[noreturn]] void worker_main(State& state, std::shared_ptr<Connection> conn, pid_t service) {
  try {
    // Ends with the service; a service that is gone already means nobody to serve for.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != service) ::_exit(0);
    struct sigaction sa {};
    sa.sa_handler = on_worker_stop;
    sigemptyset(&sa.sa_mask);
    g_worker_fd = conn->fd;
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    // Only the connection and the standard streams stay open.
    if (conn->fd > 3) ::syscall(SYS_close_range, 3, conn->fd - 1, 0);
    ::syscall(SYS_close_range, conn->fd + 1, ~0U, 0);
    const ServiceLimits& limits = state.options.limits;
    // By default twice the byte quota and 4 GiB more; a quota too large for that: no limit.
    const uint64_t headroom = uint64_t{4} << 30;
    const uint64_t by_default = limits.max_bytes <= (UINT64_MAX - headroom) / 2 ? limits.max_bytes * 2 + headroom : 0;
    enter_sandbox({limits.worker_address_space ? limits.worker_address_space : by_default, 256});
    // Past its address-space limit a worker ends at the first allocation that fails: the quotas
    // keep a client below it, so whatever needs more is not to be served, and a half-done call
    // could otherwise leave its reply pending forever.
    std::set_new_handler([] {
      static const char message[] = "webnn serve: a worker ran out of memory (--worker-memory); it ends\n";
      [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, message, sizeof message - 1);
      ::_exit(kExitOutOfMemory);
    });
    if (limits.dispatch_timeout_s > 0) std::thread(watch_steps, std::ref(state), conn).detach();
    serve_connection(state, conn);
  } catch (const std::exception& e) {
    state.log("connection " + std::to_string(conn->number) + ": worker failed: " + e.what());
    ::_exit(1);
  }
  ::_exit(0);
}

// A worker's end, as the service's log says it.
std::string worker_ending(int status) {
  if (WIFEXITED(status)) {
    if (WEXITSTATUS(status) == 0) return "ended";
    if (WEXITSTATUS(status) == kExitTimedOut) return "ended: past the dispatch time limit";
    if (WEXITSTATUS(status) == kExitOutOfMemory) return "ended: out of memory (--worker-memory)";
    return "failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return std::string("died of signal ") + std::to_string(sig) + " (" + strsignal(sig) +
           (sig == SIGSYS ? ": a forbidden system call" : "") + "); its client's contexts are lost";
  }
  return "ended";
}

// Clients being served, and connections being refused, now.
std::pair<unsigned, unsigned> count_clients(State& s) {
  unsigned clients = 0, refusing = 0;
  if (s.options.workers) {
    for (const auto& [pid, worker] : s.workers) ++(worker.refusing ? refusing : clients);
    return {clients, refusing};
  }
  std::lock_guard lock(s.mutex);
  for (const auto& c : s.connections)
    if (!c->finished) ++(c->refusal.empty() ? clients : refusing);
  return {clients, refusing};
}

void start_thread(State& s, std::shared_ptr<Connection> conn) {
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

void start_worker(State& s, const std::shared_ptr<Connection>& conn) {
  const pid_t service = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) worker_main(s, conn, service);
  const int fork_error = errno;
  ::close(conn->fd);
  if (pid < 0) {
    s.log("connection " + std::to_string(conn->number) + ": closed: no worker (fork: " + std::strerror(fork_error) +
          ")");
    return;
  }
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {  // a worker the service cannot watch is not left running
    const int pidfd_error = errno;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    s.log("connection " + std::to_string(conn->number) + ": closed: pidfd_open: " + std::strerror(pidfd_error));
    return;
  }
  s.workers[pid] = {conn->number, pidfd, !conn->refusal.empty()};
}

// Collects worker `pid` once it has ended (waiting with `flags` 0, polling with WNOHANG) and logs
// an end that was not the connection's own.
void reap_worker(State& s, pid_t pid, int flags) {
  int status = 0;
  const pid_t done = ::waitpid(pid, &status, flags);
  if (done == 0) return;
  auto it = s.workers.find(pid);
  if (done == pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
    s.log("connection " + std::to_string(it->second.number) + ": worker " + std::to_string(pid) + " " +
          worker_ending(status));
  ::close(it->second.pidfd);
  s.workers.erase(it);
}

// Asks every worker to end after its call in flight (SIGTERM), and kills those that have not
// within 10 s.
void stop_workers(State& s) {
  for (const auto& [pid, worker] : s.workers) ::kill(pid, SIGTERM);
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (!s.workers.empty() && Clock::now() < deadline) {
    std::vector<pollfd> fds;
    std::vector<pid_t> pids;
    for (const auto& [pid, worker] : s.workers) {
      fds.push_back({worker.pidfd, POLLIN, 0});
      pids.push_back(pid);
    }
    if (::poll(fds.data(), fds.size(), 100) < 0 && errno != EINTR) break;
    for (size_t i = 0; i < pids.size(); ++i)
      if (fds[i].revents) reap_worker(s, pids[i], 0);
  }
  for (const auto& [pid, worker] : s.workers) ::kill(pid, SIGKILL);
  while (!s.workers.empty()) reap_worker(s, s.workers.begin()->first, 0);
}

}  // namespace

void serve_connection_fd(int fd, ServiceOptions options) {
  State state;
  state.options = std::move(options);
  auto conn = std::make_shared<Connection>();
  conn->number = 1;
  conn->fd = fd;
  serve_connection(state, conn);
}

}  // namespace webnn::ipc

// ---- webnn::Service (include/webnn/service.hpp): the service itself, over the state above ----

namespace webnn {

Service::Service(ServiceOptions options) : state_(std::make_shared<ipc::ServiceState>()) {
  using namespace ipc;
  ServiceState& s = *state_;
  s.options = std::move(options);
  // Counted here: a worker's sandbox refuses the files glibc reads for it.
  if (s.options.limits.worker_threads <= 0)
    s.options.limits.worker_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
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
  // The path appears only once the socket listens: it is bound under a temporary name beside the
  // path and linked into place after listen(), so a client that sees the file can connect (one
  // that connected between bind() and listen() was refused). link() fails on an existing path, as
  // bind() does. A path too long for the temporary name is bound directly.
  const std::string staging = path + "." + std::to_string(::getpid()) + ".tmp";
  const bool staged = staging.size() < sizeof(addr.sun_path);
  const sockaddr_un bind_addr = staged ? unix_address(staging, "webnn serve") : addr;
  if (staged) ::unlink(staging.c_str());  // left by a killed service that had this pid
  // Created 0600 from the start: no moment where another user could connect.
  const mode_t old = ::umask(0177);
  const int bound = ::bind(s.listen_fd, reinterpret_cast<const sockaddr*>(&bind_addr), sizeof(bind_addr));
  ::umask(old);
  if (bound != 0) service_error("cannot bind " + quote(staged ? staging : path));
  if (::listen(s.listen_fd, 64) != 0) {
    if (staged) ::unlink(staging.c_str());
    service_error("listen");
  }
  if (staged) {
    const int linked = ::link(staging.c_str(), path.c_str());
    const int saved = errno;
    ::unlink(staging.c_str());
    errno = saved;
    if (linked != 0) service_error("cannot bind " + quote(path));
  }
}

Service::~Service() {
  using namespace ipc;
  // run() has ended every connection and closed the socket when it returned; what is left is a
  // service that never ran.
  ServiceState& s = *state_;
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
  using namespace ipc;
  ServiceState& s = *state_;
  uint64_t next = 1;
  std::vector<pollfd> fds;
  std::vector<pid_t> watched;
  for (;;) {
    fds = {{s.listen_fd, POLLIN, 0}, {s.wake[0], POLLIN, 0}};
    watched.clear();
    for (const auto& [pid, worker] : s.workers) {
      fds.push_back({worker.pidfd, POLLIN, 0});
      watched.push_back(pid);
    }
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      service_error("poll");
    }
    if (fds[1].revents) break;
    for (size_t i = 0; i < watched.size(); ++i)
      if (fds[2 + i].revents) reap_worker(s, watched[i], 0);
    if (!(fds[0].revents & POLLIN)) continue;
    const int fd = ::accept4(s.listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;  // the client went away before we took it, or out of descriptors
    auto conn = std::make_shared<Connection>();
    conn->number = next++;
    conn->fd = fd;
    ++s.served;
    // Over the client limit a connection is still answered, with the reason, by a worker (or
    // thread) that serves nothing else; past as many of those again it is closed unanswered.
    const auto [clients, refusing] = count_clients(s);
    if (clients >= s.options.limits.max_clients) {
      if (refusing >= s.options.limits.max_clients) {
        s.log("connection " + std::to_string(conn->number) + ": closed unanswered: over the client limit");
        ::close(fd);
        continue;
      }
      conn->refusal = "the service serves at most " + std::to_string(s.options.limits.max_clients) +
                      " clients at once (--max-clients); try again later";
    }
    if (s.options.workers)
      start_worker(s, conn);
    else
      start_thread(s, conn);
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
  stop_workers(s);
  ::close(s.listen_fd);
  s.listen_fd = -1;
  ::unlink(s.options.socket_path.c_str());
}

size_t Service::live_objects() const { return state_->live.load(); }
size_t Service::connections_served() const { return state_->served.load(); }

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

}  // namespace webnn
