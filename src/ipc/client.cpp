// The client side of a remote context (MLContextOptions::remote, docs/service.md): one
// connection per context, served by a thread that runs the connection's Cap'n Proto event loop.
// The context's timeline steps queue their work for that thread and return at once; only reads
// and computes wait for replies. The thread sends everything queued when it wakes: consecutive
// steps as one `steps` call (a write, a dispatch and the read after them are one message and one
// reply), region-borne writes and reads as calls of their own. All calls go to the one Context
// capability, so the service receives them in the timeline's order.
#include <capnp/rpc-twoparty.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <kj/async-io.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <mutex>
#include <optional>
#include <span>
#include <thread>

#include "api/impl.hpp"
#include "ipc/graph_codec.hpp"
#include "ipc/loop_gate.hpp"
#include "ipc/wire_util.hpp"
#include "runtime/remote.hpp"

namespace webnn::ipc {

namespace {

[[noreturn]] void lost_error(const std::string& what, const kj::Exception& e) {
  throw_error(ErrorKind::kInvalidStateError,
              what + ": the connection to the WebNN service is lost (" + e.getDescription().cStr() + ")");
}

int connect_unix(const std::string& remote) {
  const std::string prefix = "unix:";
  if (remote.compare(0, prefix.size(), prefix) != 0)
    throw_error(ErrorKind::kTypeError, "createContext: remote " + quote(remote) + " is not unix:PATH");
  const std::string path = remote.substr(prefix.size());
  const sockaddr_un addr = unix_address(path, "createContext: remote " + quote(remote));
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw_error(ErrorKind::kUnknownError, std::string("createContext: socket: ") + std::strerror(errno));
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    const int err = errno;
    ::close(fd);
    throw_error(ErrorKind::kUnknownError,
                "createContext: no WebNN service at " + quote(path) + ": " + std::strerror(err));
  }
  return fd;
}

class Session;

class RemoteExecutable final : public Executable {
 public:
  RemoteExecutable(std::shared_ptr<Session> session, uint32_t id, std::shared_ptr<const Graph> ir,
                   std::vector<std::string> placement)
      : session_(std::move(session)), id_(id), ir_(std::move(ir)), placement_(std::move(placement)) {}
  ~RemoteExecutable() override;
  void run(std::span<const std::byte* const> inputs, std::span<std::byte* const> outputs) override;
  std::vector<std::string> placement() const override { return placement_; }
  uint32_t id() const { return id_; }
  const Graph& ir() const { return *ir_; }

 private:
  std::shared_ptr<Session> session_;
  uint32_t id_;
  std::shared_ptr<const Graph> ir_;
  std::vector<std::string> placement_;
};

class Session final : public detail::RemoteSession, public std::enable_shared_from_this<Session> {
 public:
  static std::shared_ptr<Session> open(const MLContextOptions& options) {
    auto session = std::shared_ptr<Session>(new Session());
    const int fd = connect_unix(options.remote);
    std::promise<void> ready;
    std::future<void> started = ready.get_future();
    session->io_ = std::thread([s = session.get(), fd, options, &ready] { s->io_main(fd, options, ready); });
    try {
      started.get();
    } catch (...) {
      session->io_.join();
      throw;
    }
    return session;
  }

  ~Session() noexcept override {
    if (!io_.joinable()) return;
    if (std::this_thread::get_id() == io_.get_id()) {  // the last reference went in a reply's callback
      if (stop_) stop_->fulfill();
      io_.detach();
      return;
    }
    try {
      gate_.call([this] {
        drain();
        if (stop_) stop_->fulfill();
      });
    } catch (const kj::Exception&) {  // the loop has ended already
    }
    io_.join();
  }

  std::string_view name() const override { return backend_; }
  bool accelerated() const override { return accelerated_; }
  int num_threads() const override { return threads_; }

  std::unique_ptr<Executable> compile(std::shared_ptr<const Graph> graph, const CompileOptions&) const override {
    const uint32_t id = next_graph_++;
    struct Reply {
      std::vector<std::string> placement;
      std::optional<Error> failure;
    };
    Reply reply = call<Reply>("build", [&](wire::Context::Client& c) {
      auto request = c.buildRequest();
      request.setGraph(id);
      auto description = request.initDescription();
      std::optional<Error> failure;
      try {
        SharedPacker packer;
        encode_graph(*graph, description,
                     [&](std::span<const std::byte> data, wire::Bytes::Builder out) { packer.write(data, out); });
        if (packer.used()) packer.finish(description.initShared());
      } catch (const Error& e) {
        failure = e;
      }
      // A message the service cannot read would end the connection: refused here instead.
      const uint64_t bytes = request.totalSize().wordCount * 8;
      if (!failure && bytes > max_message_bytes_)
        failure = Error(ErrorKind::kOperationError, "build: the graph's message is " + std::to_string(bytes) +
                                                        " bytes, over the service's limit of " +
                                                        std::to_string(max_message_bytes_) + " (--max-message-bytes)");
      if (failure) return kj::Promise<Reply>(Reply{{}, failure});
      return request.send().then([](capnp::Response<wire::Context::BuildResults>&& r) {
        Reply out;
        if (r.hasFailure()) out.failure = error_of(r.getFailure());
        for (auto p : r.getPlacement()) out.placement.push_back(std_text(p));
        return out;
      });
    });
    if (reply.failure) throw *reply.failure;
    auto self = std::const_pointer_cast<Session>(shared_from_this());
    return std::make_unique<RemoteExecutable>(self, id, std::move(graph), std::move(reply.placement));
  }

  void create_tensor(detail::TensorImpl& tensor) override {
    tensor.remote_id = next_tensor_++;
    send_step([id = tensor.remote_id, desc = tensor.desc](wire::Step::Builder step) {
      auto s = step.initCreateTensor();
      s.setTensor(id);
      write_descriptor({desc.data_type, desc.shape}, s.initDescriptor());
      s.setReadable(desc.readable);
      s.setWritable(desc.writable);
    });
  }

  void write_tensor(const detail::TensorImpl& tensor, std::vector<std::byte> bytes) override {
    if (bytes.size() <= SharedRegion::kInlineLimit) {
      const size_t n = bytes.size();
      send_step(
          [id = tensor.remote_id, bytes = std::move(bytes)](wire::Step::Builder step) {
            auto s = step.initWriteTensor();
            s.setTensor(id);
            s.initBytes().setInline({reinterpret_cast<const capnp::byte*>(bytes.data()), bytes.size()});
          },
          n);
      return;
    }
    if (std::shared_ptr<Staging> staging = take_staging(tensor, bytes.size())) {
      std::memcpy(staging->region.writable_bytes().data(), bytes.data(), bytes.size());
      Queued write;
      write.step = [id = tensor.remote_id, n = bytes.size()](wire::Step::Builder step) {
        auto s = step.initWriteTensor();
        s.setTensor(id);
        s.initBytes().initShared().setSize(n);
      };
      write.staging = std::move(staging);
      enqueue(std::move(write));
      return;
    }
    send([id = tensor.remote_id, bytes = std::move(bytes)](wire::Context::Client& c) {
      auto request = c.writeTensorRequest();
      request.setTensor(id);
      set_bytes(
          bytes, request.initBytes(), [&] { return request.initShared(); }, [&] { request.disownShared(); });
      return request.send().ignoreResult();
    });
  }

  void read_tensor(const detail::TensorImpl& tensor, Done done, Failed failed) override {
    const uint64_t n = tensor.operand_desc().byte_length().value_or(0);
    std::shared_ptr<Staging> staging = n > SharedRegion::kInlineLimit ? take_staging(tensor, n) : nullptr;
    std::shared_ptr<SharedRegion> destination;
    if (n > SharedRegion::kInlineLimit && !staging) {
      try {
        destination = std::make_shared<SharedRegion>(SharedRegion::create_writable(n));
      } catch (const Error&) {  // no region to be had: the bytes come inline
      }
    }
    if (!destination) {
      Queued read;
      read.step = [id = tensor.remote_id, attached = staging != nullptr](wire::Step::Builder step) {
        auto s = step.initReadTensor();
        s.setTensor(id);
        s.setAttached(attached);
      };
      read.read = Read{std::move(done), std::move(failed)};
      read.staging = std::move(staging);
      enqueue(std::move(read));
      return;
    }
    send([id = tensor.remote_id, destination,
          read = Read{std::move(done), std::move(failed)}](wire::Context::Client& c) {
      auto request = c.readTensorRequest();
      request.setTensor(id);
      request.setDestination(kj::heap<RegionServer>(*destination));
      return request.send().then(
          [destination, read](capnp::Response<wire::ReadResult>&& r) { read.finish(r, destination.get()); },
          [read](kj::Exception&& e) { read.lose(e); });
    });
  }

  void destroy_tensor(const detail::TensorImpl& tensor) override {
    staging_.erase(tensor.remote_id);
    send_step([id = tensor.remote_id](wire::Step::Builder step) { step.setDestroyTensor(id); });
  }

  void dispatch(const Executable& graph, std::span<const std::shared_ptr<detail::TensorImpl>> inputs,
                std::span<const std::shared_ptr<detail::TensorImpl>> outputs) override {
    const auto& remote = static_cast<const RemoteExecutable&>(graph);
    // Names and ids by value: the call is made later, on the connection's thread.
    using Bindings = std::vector<std::pair<std::string, uint32_t>>;
    auto bind = [](const std::vector<NamedOperand>& names,
                   std::span<const std::shared_ptr<detail::TensorImpl>> tensors) {
      Bindings out;
      for (size_t i = 0; i < tensors.size(); ++i) out.emplace_back(names[i].name, tensors[i]->remote_id);
      return out;
    };
    send_step([id = remote.id(), ins = bind(remote.ir().inputs, inputs),
               outs = bind(remote.ir().outputs, outputs)](wire::Step::Builder step) {
      auto s = step.initDispatch();
      s.setGraph(id);
      auto fill = [](const Bindings& bindings, capnp::List<wire::NamedTensor>::Builder list) {
        for (unsigned i = 0; i < list.size(); ++i) {
          list[i].setName(wire_text(bindings[i].first));
          list[i].setTensor(bindings[i].second);
        }
      };
      fill(ins, s.initInputs(static_cast<unsigned>(ins.size())));
      fill(outs, s.initOutputs(static_cast<unsigned>(outs.size())));
    });
  }

  void destroy() override {
    send([](wire::Context::Client& c) { return c.destroyRequest().send().ignoreResult(); });
  }

  void on_lost(std::function<void(const std::string&)> lost) override {
    std::lock_guard lock(lost_mutex_);
    lost_handler_ = std::move(lost);
    if (lost_) notify_lost_locked();
  }

  void run_graph(const RemoteExecutable& graph, std::span<const std::byte* const> inputs,
                 std::span<std::byte* const> outputs) const {
    const Graph& ir = graph.ir();
    struct Reply {
      std::map<std::string, std::vector<std::byte>> outputs;
      std::optional<Error> failure;
    };
    // Outputs above the inline limit come back through one writable region, 64-byte aligned.
    std::map<std::string, std::pair<uint64_t, uint64_t>> slices;
    uint64_t total = 0;
    for (const NamedOperand& out : ir.outputs) {
      const uint64_t n = *ir.desc(out.operand).byte_length();
      if (n <= SharedRegion::kInlineLimit) continue;
      total = (total + 63) / 64 * 64;
      slices[out.name] = {total, n};
      total += n;
    }
    std::shared_ptr<SharedRegion> destination;
    if (total) destination = std::make_shared<SharedRegion>(SharedRegion::create_writable(total));
    Reply reply = call<Reply>("compute", [&](wire::Context::Client& c) {
      auto request = c.computeRequest();
      request.setGraph(graph.id());
      auto list = request.initInputs(static_cast<unsigned>(ir.inputs.size()));
      SharedPacker packer;
      for (unsigned i = 0; i < list.size(); ++i) {
        list[i].setName(wire_text(ir.inputs[i].name));
        const size_t n = *ir.desc(ir.inputs[i].operand).byte_length();
        packer.write({inputs[i], n}, list[i].initBytes());
      }
      if (packer.used()) packer.finish(request.initShared());
      if (destination) {
        auto d = request.initDestination();
        d.setSize(destination->size());
        d.setRegion(kj::heap<RegionServer>(*destination));
        auto named = request.initDestinations(static_cast<unsigned>(slices.size()));
        unsigned i = 0;
        for (const auto& [name, slice] : slices) {
          named[i].setName(wire_text(name));
          named[i].initBytes().initShared().setOffset(slice.first);
          named[i].getBytes().getShared().setSize(slice.second);
          ++i;
        }
      }
      return request.send().then([destination](capnp::Response<wire::Context::ComputeResults>&& r) {
        Reply out;
        if (r.hasFailure()) {
          out.failure = error_of(r.getFailure());
          return out;
        }
        for (auto o : r.getOutputs()) {
          std::span<const std::byte> bytes;
          if (o.getBytes().isInline()) {
            auto b = o.getBytes().getInline();
            bytes = {reinterpret_cast<const std::byte*>(b.begin()), b.size()};
          } else if (destination && o.getBytes().isShared()) {
            const uint64_t offset = o.getBytes().getShared().getOffset(), size = o.getBytes().getShared().getSize();
            if (offset > destination->size() || size > destination->size() - offset) continue;
            bytes = destination->bytes().subspan(offset, size);
          }
          out.outputs[std_text(o.getName())].assign(bytes.begin(), bytes.end());
        }
        return out;
      });
    });
    if (reply.failure) throw *reply.failure;
    for (size_t i = 0; i < ir.outputs.size(); ++i) {
      auto it = reply.outputs.find(ir.outputs[i].name);
      const size_t n = *ir.desc(ir.outputs[i].operand).byte_length();
      if (it == reply.outputs.end() || it->second.size() != n)
        throw_error(ErrorKind::kOperationError,
                    "compute: the service returned no valid output " + quote(ir.outputs[i].name));
      std::memcpy(outputs[i], it->second.data(), n);
    }
  }

  void destroy_graph(uint32_t id) const {
    send_step([id](wire::Step::Builder step) { step.setDestroyGraph(id); });
  }

 private:
  Session() = default;

  class TaskErrors final : public kj::TaskSet::ErrorHandler {
   public:
    explicit TaskErrors(Session& s) : session_(s) {}
    void taskFailed(kj::Exception&& e) override {
      session_.lose(std::string("a call to the WebNN service failed: ") + e.getDescription().cStr());
    }

   private:
    Session& session_;
  };

  // Large bytes in a region of their own, small ones (or all, when no region can be made) inline.
  template <class InitShared, class DropShared>
  static void set_bytes(std::span<const std::byte> data, wire::Bytes::Builder out, InitShared init_shared,
                        DropShared drop_shared) {
    try {
      SharedPacker packer;
      packer.write(data, out);
      if (packer.used()) packer.finish(init_shared());
    } catch (const Error&) {
      drop_shared();
      out.setInline({reinterpret_cast<const capnp::byte*>(data.data()), data.size()});
    }
  }

  // A read's completion: the bytes (inline, or in the client's destination region) or the
  // failure the service reported, or the lost connection.
  struct Read {
    Done done;
    Failed failed;
    void finish(wire::ReadResult::Reader r, const SharedRegion* destination) const {
      if (r.hasFailure()) {
        const Error e = error_of(r.getFailure());
        return failed(e.kind(), e.message());
      }
      if (destination) return done(destination->bytes());
      auto bytes = r.getBytes();
      done({reinterpret_cast<const std::byte*>(bytes.begin()), bytes.size()});
    }
    void lose(const kj::Exception& e) const {
      failed(ErrorKind::kInvalidStateError, std::string("readTensor: the connection to the WebNN service is lost (") +
                                                e.getDescription().cStr() + ")");
    }
  };

  // What the I/O thread sends: a step of the next `steps` call (a read with its completion), or
  // a call of its own that `call` makes.
  using Outgoing = std::function<kj::Promise<void>(wire::Context::Client&)>;
  // A large tensor's attached region (attachRegion), which its writes fill and its reads find
  // their bytes in; `busy` from the step that uses it until that step's reply.
  struct Staging {
    explicit Staging(SharedRegion r) : region(std::move(r)) {}
    SharedRegion region;
    std::atomic<bool> busy{false};
  };
  struct Queued {
    std::function<void(wire::Step::Builder)> step;
    std::optional<Read> read;
    std::shared_ptr<Staging> staging;  // held by this step until its reply
    size_t bytes = 0;                  // the step's inline payload
    Outgoing call;
  };

  // On a timeline step: the tensor's attached region, made and attached at its first use, and
  // now marked busy; null when none can be had or a step in flight uses it (the caller then
  // sends a region of its own, as a call).
  std::shared_ptr<Staging> take_staging(const detail::TensorImpl& tensor, size_t n) {
    auto it = staging_.find(tensor.remote_id);
    if (it == staging_.end()) {
      std::shared_ptr<Staging> staging;
      try {
        staging = std::make_shared<Staging>(SharedRegion::create_writable(n));
      } catch (const Error&) {  // none to be had: remembered as such
      }
      if (staging)
        send([id = tensor.remote_id, staging](wire::Context::Client& c) {
          auto request = c.attachRegionRequest();
          request.setTensor(id);
          request.setRegion(kj::heap<RegionServer>(staging->region));
          return request.send().ignoreResult();
        });
      it = staging_.emplace(tensor.remote_id, std::move(staging)).first;
    }
    if (!it->second || it->second->busy.exchange(true)) return nullptr;
    return it->second;
  }

  // Queues work for the I/O thread and returns at once; the I/O thread is woken only when it
  // sleeps, and sends everything queued in order. Nothing waits for the reply. A connection that
  // is gone drops the work: the context is being lost.
  void enqueue(Queued item) const {
    std::lock_guard lock(outbox_.mutex);
    outbox_.queue.push_back(std::move(item));
    if (outbox_.wake) {
      outbox_.wake->fulfill();
      outbox_.wake = nullptr;
    }
  }
  void send(Outgoing make) const {
    Queued item;
    item.call = std::move(make);
    enqueue(std::move(item));
  }
  void send_step(std::function<void(wire::Step::Builder)> fill, size_t bytes = 0) const {
    Queued item;
    item.step = std::move(fill);
    item.bytes = bytes;
    enqueue(std::move(item));
  }

  // On the I/O thread: sends everything queued, in order; consecutive steps go as one `steps`
  // call of at most kBatchBytes of payload (a quarter of the service's message limit, if less).
  static constexpr size_t kBatchBytes = size_t{1} << 20, kBatchSteps = 4096;
  void drain() const {
    std::vector<Queued> queued;
    {
      std::lock_guard lock(outbox_.mutex);
      queued.swap(outbox_.queue);
    }
    if (!context_) return;
    if (!queued.empty()) note_traffic();
    const size_t budget = std::min<uint64_t>(kBatchBytes, max_message_bytes_ / 4);
    for (size_t i = 0; i < queued.size();) {
      if (queued[i].call) {
        tasks_->add(queued[i].call(*context_));
        ++i;
        continue;
      }
      size_t end = i + 1, bytes = queued[i].bytes;
      while (end < queued.size() && !queued[end].call && end - i < kBatchSteps && bytes + queued[end].bytes <= budget)
        bytes += queued[end++].bytes;
      send_steps({queued.data() + i, end - i});
      i = end;
    }
  }

  void send_steps(std::span<Queued> steps) const {
    auto request = context_->stepsRequest();
    auto list = request.initSteps(static_cast<unsigned>(steps.size()));
    // What the reply completes: each read (with its attached region, if it uses one), and the
    // attached regions the writes used, free again.
    std::vector<std::pair<Read, std::shared_ptr<Staging>>> reads;
    std::vector<std::shared_ptr<Staging>> written;
    for (unsigned i = 0; i < list.size(); ++i) {
      steps[i].step(list[i]);
      if (steps[i].read)
        reads.emplace_back(std::move(*steps[i].read), std::move(steps[i].staging));
      else if (steps[i].staging)
        written.push_back(std::move(steps[i].staging));
    }
    if (reads.empty() && written.empty()) return tasks_->add(request.send().ignoreResult());
    auto release = [](const std::shared_ptr<Staging>& staging) {
      if (staging) staging->busy = false;
    };
    tasks_->add(request.send().then(
        [this, reads, written, release](capnp::Response<wire::Context::StepsResults>&& r) {
          if (!reads.empty()) note_traffic();
          for (const auto& staging : written) release(staging);
          auto results = r.getReads();
          for (size_t i = 0; i < reads.size(); ++i) {
            const auto& [read, staging] = reads[i];
            if (i < results.size())
              read.finish(results[static_cast<unsigned>(i)], staging ? &staging->region : nullptr);
            else
              read.failed(ErrorKind::kOperationError, "readTensor: the WebNN service returned no result");
            release(staging);
          }
        },
        [reads, written, release](kj::Exception&& e) {
          for (const auto& staging : written) release(staging);
          for (const auto& [read, staging] : reads) {
            read.lose(e);
            release(staging);
          }
          kj::throwFatalException(kj::mv(e));  // and the context is lost (TaskErrors)
        }));
  }

  // On the I/O thread: runs the event loop until `finished` resolves. For kSpin after traffic (a
  // batch sent, a read's reply) it polls instead of sleeping, so that the reply to a read, or the
  // caller's next step, does not wait for this thread to wake up: each wake-up costs 10-20 µs on
  // this VM, a third of a round trip (docs/service.md). At most kSpin of a core per burst.
  static constexpr std::chrono::microseconds kSpin{50};
  bool run_until(kj::ForkedPromise<bool>& finished, kj::WaitScope& wait_scope) const {
    for (;;) {
      auto branch = finished.addBranch();
      if (branch.poll(wait_scope)) return branch.wait(wait_scope);
      if (std::chrono::steady_clock::now() - last_traffic_ < kSpin) continue;
      auto traffic = kj::newPromiseAndFulfiller<void>();
      traffic_ = traffic.fulfiller.get();
      const int ended = branch.then([](bool stopped) { return stopped ? 1 : 0; })
                            .exclusiveJoin(traffic.promise.then([] { return -1; }))
                            .wait(wait_scope);
      traffic_ = nullptr;
      if (ended >= 0) return ended == 1;
    }
  }
  void note_traffic() const {
    last_traffic_ = std::chrono::steady_clock::now();
    if (traffic_) {
      traffic_->fulfill();
      traffic_ = nullptr;
    }
  }

  // On the I/O thread: drains whenever woken, for as long as the loop runs.
  kj::Promise<void> pump() const {
    auto paf = kj::newPromiseAndCrossThreadFulfiller<void>();
    {
      std::lock_guard lock(outbox_.mutex);
      if (outbox_.queue.empty())
        outbox_.wake = kj::mv(paf.fulfiller);
      else
        paf.fulfiller->fulfill();
    }
    return paf.promise.then([this] {
      drain();
      return pump();
    });
  }

  // On the I/O thread, before its event loop ends (and again, harmlessly, as that loop's scope
  // unwinds): nothing more is sent or woken, and the callers that `gate_` admitted are run (each
  // finds the connection closed).
  void leave_loop(kj::WaitScope& wait_scope) {
    {
      std::lock_guard lock(outbox_.mutex);
      outbox_.wake = nullptr;
    }
    context_ = nullptr;
    tasks_ = nullptr;
    stop_ = nullptr;
    gate_.close(wait_scope);
  }

  // Runs `make` on the I/O thread, after the calls queued before it, and waits for the promise it
  // returns.
  template <class Result, class Make>
  Result call(const char* what, Make&& make) const {
    try {
      return gate_.call([&] {
        if (!context_) kj::throwFatalException(KJ_EXCEPTION(DISCONNECTED, "the connection is closed"));
        drain();
        return make(*context_);
      });
    } catch (const kj::Exception& e) {
      lost_error(what, e);
    }
  }

  void io_main(int fd, const MLContextOptions& options, std::promise<void>& ready) {
    bool started = false;
    try {
      auto io = kj::setupAsyncIo();
      KJ_DEFER(leave_loop(io.waitScope));  // however the loop ends, an exception included
      auto stream = io.lowLevelProvider->wrapUnixSocketFd(fd, kj::LowLevelAsyncIoProvider::TAKE_OWNERSHIP);
      capnp::TwoPartyVatNetwork network(*stream, kMaxFdsPerMessage, capnp::rpc::twoparty::Side::CLIENT);
      auto rpc = capnp::makeRpcClient(network);
      capnp::MallocMessageBuilder vat_message;
      auto vat = vat_message.initRoot<capnp::rpc::twoparty::VatId>();
      vat.setSide(capnp::rpc::twoparty::Side::SERVER);
      auto service = rpc.bootstrap(vat).castAs<wire::Service>();
      auto connect = service.connectRequest();
      connect.setOpTableHash(wire::OP_TABLE_HASH);
      connect.setToken({reinterpret_cast<const capnp::byte*>(options.token.data()), options.token.size()});
      // Waited for (not pipelined) so that a refusal is what the caller hears, not a closed pipe.
      auto connected = connect.send().wait(io.waitScope);
      max_message_bytes_ = connected.getMaxMessageBytes();
      auto ml = connected.getMl();
      auto create = ml.createContextRequest();
      auto o = create.initOptions();
      o.setBackend(wire_text(options.backend));
      o.setNumThreads(options.num_threads);
      o.setAccelerated(options.accelerated);
      o.setPowerPreference(static_cast<uint8_t>(options.power_preference));
      auto reply = create.send().wait(io.waitScope);
      if (reply.hasFailure()) throw_failure(reply.getFailure());
      wire::Context::Client context = reply.getContext();
      backend_ = std_text(reply.getInfo().getBackend());
      accelerated_ = reply.getInfo().getAccelerated();
      threads_ = reply.getInfo().getNumThreads();

      TaskErrors errors(*this);
      kj::TaskSet tasks(errors);
      auto stop = kj::newPromiseAndFulfiller<void>();
      context_ = &context;
      tasks_ = &tasks;
      stop_ = stop.fulfiller.get();
      gate_.open();
      started = true;
      ready.set_value();
      auto finished = stop.promise.then([] { return true; })
                          .exclusiveJoin(network.onDisconnect().then([] { return false; }))
                          .exclusiveJoin(pump().then([] { return true; }))
                          .fork();
      const bool stopped = run_until(finished, io.waitScope);
      leave_loop(io.waitScope);
      if (!stopped) lose("the WebNN service closed the connection");
    } catch (const kj::Exception& e) {
      const std::string why = e.getDescription().cStr();
      if (!started)
        ready.set_exception(std::make_exception_ptr(
            Error(ErrorKind::kNotSupportedError, "createContext: the WebNN service refused the connection: " + why)));
      else
        lose("the connection to the WebNN service failed: " + why);
    } catch (const Error& e) {
      if (!started) ready.set_exception(std::current_exception());
    }
  }

  void lose(const std::string& message) {
    std::lock_guard lock(lost_mutex_);
    if (lost_) return;
    lost_ = true;
    lost_message_ = message;
    if (lost_handler_) notify_lost_locked();
  }

  // On a thread of its own: the handler destroys the context, which calls back into this session.
  void notify_lost_locked() {
    std::thread([handler = std::move(lost_handler_), message = lost_message_] { handler(message); }).detach();
    lost_handler_ = nullptr;
  }

  struct Outbox {
    std::mutex mutex;
    std::vector<Queued> queue;
    kj::Own<kj::CrossThreadPromiseFulfiller<void>> wake;  // set while the I/O thread waits for work
  };
  mutable Outbox outbox_;
  std::thread io_;
  LoopGate gate_;  // calls into the I/O thread (executeSync), from the connection's start to leave_loop
  // I/O thread only, null outside the event loop.
  wire::Context::Client* context_ = nullptr;
  kj::TaskSet* tasks_ = nullptr;
  kj::PromiseFulfiller<void>* stop_ = nullptr;
  mutable kj::PromiseFulfiller<void>* traffic_ = nullptr;  // set while the loop sleeps
  mutable std::chrono::steady_clock::time_point last_traffic_;
  std::string backend_;
  bool accelerated_ = false;
  int threads_ = 0;
  uint64_t max_message_bytes_ = 0;                        // the service's, from connect()
  uint32_t next_tensor_ = 1;                              // timeline steps only (one runs at a time)
  std::map<uint32_t, std::shared_ptr<Staging>> staging_;  // timeline steps only; null: none to be had
  mutable std::atomic<uint32_t> next_graph_{1};
  std::mutex lost_mutex_;
  std::function<void(const std::string&)> lost_handler_;
  bool lost_ = false;
  std::string lost_message_;
};

RemoteExecutable::~RemoteExecutable() { session_->destroy_graph(id_); }

void RemoteExecutable::run(std::span<const std::byte* const> inputs, std::span<std::byte* const> outputs) {
  session_->run_graph(*this, inputs, outputs);
}

// Registered when the IPC layer is linked (it is part of libwebnn).
[[maybe_unused]] const bool kRegistered = [] {
  detail::set_remote_connector(
      [](const MLContextOptions& options) -> std::shared_ptr<detail::RemoteSession> { return Session::open(options); });
  return true;
}();

}  // namespace

}  // namespace webnn::ipc
