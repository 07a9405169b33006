#include "runtime/context_impl.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <functional>
#include <new>
#include <utility>

#include "graph/graph_builder.hpp"

namespace webnn::detail {

namespace {

// The longest a read waits on its caller's thread for the steps queued ahead of it
// (ContextImpl::wait_briefly_for_timeline): about what waking a sleeping thread costs on a virtual
// machine, and as long as the timeline's worker polls for its next step.
constexpr std::chrono::microseconds kReadWait{50};

std::string quoted(const std::string& name) { return quote(name); }

template <class T>
std::future<T> rejected(ErrorKind kind, const std::string& message) {
  std::promise<T> promise;
  promise.set_exception(std::make_exception_ptr(Error(kind, message)));
  return promise.get_future();
}

class ReadToVector final : public PendingRead {
 public:
  using PendingRead::PendingRead;
  std::future<std::vector<std::byte>> future() { return promise_.get_future(); }

 protected:
  void deliver(std::span<const std::byte> bytes) override {
    promise_.set_value(std::vector<std::byte>(bytes.begin(), bytes.end()));
  }
  void fail(std::exception_ptr error) override { promise_.set_exception(std::move(error)); }

 private:
  std::promise<std::vector<std::byte>> promise_;
};

// A read into the caller's buffer (readTensor's BYOB form), completed by a callback that notify()
// calls outside the read's lock, so that it may destroy the tensor or the context that settled
// it. The buffer is written only while the read is unsettled, under the read's lock, so a caller
// whose read was rejected (tensor destroyed) may free the buffer at once.
class ReadWithCallback final : public PendingRead {
 public:
  ReadWithCallback(const TensorImpl* tensor, std::span<std::byte> out, std::function<void(std::exception_ptr)> done)
      : PendingRead(tensor), out_(out), done_(std::move(done)) {}

 protected:
  void deliver(std::span<const std::byte> bytes) override {
    if (!bytes.empty()) std::memcpy(out_.data(), bytes.data(), bytes.size());
  }
  void fail(std::exception_ptr error) override { error_ = std::move(error); }
  void notify() override { done_(error_); }

 private:
  std::span<std::byte> out_;
  std::function<void(std::exception_ptr)> done_;
  std::exception_ptr error_;
};

// Drops expired entries when the list would grow, so registries stay proportional to the live
// objects without a sweep on every call.
template <class T>
void register_weak(std::vector<std::weak_ptr<T>>& list, const std::shared_ptr<T>& item) {
  if (list.size() >= 32 && list.size() == list.capacity())
    list.erase(std::remove_if(list.begin(), list.end(), [](const std::weak_ptr<T>& w) { return w.expired(); }),
               list.end());
  list.push_back(item);
}

uint64_t byte_length_of(const TensorImpl& tensor) { return tensor.operand_desc().byte_length().value_or(0); }

}  // namespace

// ---- PendingRead ----

namespace {
// Made when the library is loaded: when a copy fails, memory may be short for the error too, and
// the read must settle all the same.
const std::exception_ptr kCouldNotCopy =
    std::make_exception_ptr(Error(ErrorKind::kUnknownError, "readTensor: could not copy the tensor's bytes"));
}  // namespace

void PendingRead::fulfil(std::span<const std::byte> bytes) {
  {
    std::lock_guard lock(mutex_);
    if (settled_) return;
    settled_ = true;
    try {
      deliver(bytes);
    } catch (...) {  // the copy could not be allocated
      fail(kCouldNotCopy);
    }
  }
  notify();
}

void PendingRead::reject(ErrorKind kind, const std::string& message) {
  {
    std::lock_guard lock(mutex_);
    if (settled_) return;
    settled_ = true;
    fail(std::make_exception_ptr(Error(kind, message)));
  }
  notify();
}

// ---- ContextImpl ----

ContextImpl::ContextImpl(const MLContextOptions& opts, const Backend& chosen, Timeline::Mode mode)
    : options(opts),
      backend(&chosen),
      num_threads(opts.num_threads),
      timeline(opts.synchronous ? Timeline::Mode::kCaller : mode) {
  lost_future = lost_promise.get_future().share();
}

// A remote context's steps only hand their calls to the connection's thread (or, compute, wait for
// its reply): they run on the caller's thread, once the call has released `mutex`, which saves a
// thread hand-off per call and keeps the call order (docs/service.md, "Ordering").
ContextImpl::ContextImpl(const MLContextOptions& opts, std::shared_ptr<RemoteSession> session)
    : options(opts),
      remote(std::move(session)),
      backend(remote.get()),
      num_threads(remote->num_threads()),
      timeline(Timeline::Mode::kCaller) {
  lost_future = lost_promise.get_future().share();
}

ContextImpl::~ContextImpl() {
  // Queued steps hold a reference to the context, so nothing is queued here: this only stops the
  // worker (or lets it exit, when the last reference was dropped by a step on the worker).
  timeline.close();
  timeline.join();
  if (!lost_flag.load()) {
    // The last handle is gone; graphs and tensors that outlive it can no longer be used.
    for (auto& weak : graphs)
      if (auto graph = weak.lock()) graph->destroyed = true;
    for (auto& weak : tensors)
      if (auto tensor = weak.lock()) tensor->destroyed = true;
    lost_promise.set_value({"the context was released"});
  }
}

void ContextImpl::enqueue_locked(std::function<void()> run, std::function<void()> abort) {
  // The timeline closes only when the context is lost, which every caller checked under `mutex`.
  timeline.enqueue(std::move(run), std::move(abort));
}

void ContextImpl::forget_read(const PendingRead* read) {
  std::lock_guard lock(mutex);
  auto it = std::find_if(pending_reads.begin(), pending_reads.end(),
                         [&](const std::shared_ptr<PendingRead>& r) { return r.get() == read; });
  if (it != pending_reads.end()) pending_reads.erase(it);
}

std::vector<std::shared_ptr<PendingRead>> ContextImpl::take_reads_locked(const TensorImpl* tensor) {
  std::vector<std::shared_ptr<PendingRead>> taken;
  auto keep = std::stable_partition(pending_reads.begin(), pending_reads.end(),
                                    [&](const std::shared_ptr<PendingRead>& r) { return r->tensor() != tensor; });
  std::move(keep, pending_reads.end(), std::back_inserter(taken));
  pending_reads.erase(keep, pending_reads.end());
  return taken;
}

std::function<void()> ContextImpl::before_compute_hook() const {
  std::lock_guard lock(mutex);
  return compute_hook;
}

void ContextImpl::set_before_compute_hook(std::function<void()> hook) {
  std::lock_guard lock(mutex);
  compute_hook = std::move(hook);
}

// The checks of every write, read and dispatch: their messages are built only when one fails.
void ContextImpl::check_tensor_locked(const TensorImpl* tensor, const char* method) const {
  if (tensor->context_id != this)
    throw_error(ErrorKind::kTypeError, std::string(method) + ": the tensor belongs to another context");
  if (tensor->destroyed.load()) throw_error(ErrorKind::kTypeError, std::string(method) + ": the tensor is destroyed");
}

std::shared_ptr<TensorImpl> ContextImpl::check_own_tensor_locked(const MLTensor& tensor, const char* method) const {
  if (!impl_of(tensor)) throw_error(ErrorKind::kTypeError, std::string(method) + ": the tensor is an empty handle");
  check_tensor_locked(impl_of(tensor).get(), method);
  return impl_of(tensor);
}

const ContextImpl::Failure* ContextImpl::failure_of(const std::shared_ptr<TensorImpl>& tensor) const {
  if (failures.empty()) return nullptr;  // the usual case, without making a weak_ptr to look it up
  auto it = failures.find(std::weak_ptr<TensorImpl>(tensor));
  return it == failures.end() ? nullptr : &it->second;
}

// spec: #api-mlcontext-dispatch
void ContextImpl::dispatch(const MLGraph& graph, const MLNamedTensors& inputs, const MLNamedTensors& outputs) {
  const RunQueuedOnExit run_queued{timeline};
  std::lock_guard lock(mutex);
  const std::shared_ptr<GraphImpl>& g = impl_of(graph);
  if (!g) throw_error(ErrorKind::kTypeError, "dispatch: the graph is an empty handle");
  if (g->context_id != this) throw_error(ErrorKind::kTypeError, "dispatch: the graph belongs to another context");
  if (g->destroyed.load()) throw_error(ErrorKind::kInvalidStateError, "dispatch: the graph is destroyed");

  // allTensors: no tensor twice, each of this context and alive. Messages are built only for a
  // failure: a dispatch is on every decode step's path.
  auto who = [](const char* role, const std::string& name) { return std::string(role) + " " + quoted(name); };
  struct Bound {
    const TensorImpl* tensor;
    const char* role;
    const std::string* name;
  };
  std::vector<Bound> bound;
  bound.reserve(inputs.size() + outputs.size());
  auto bind_all = [&](const MLNamedTensors& tensors, const char* role) {
    for (const auto& [name, tensor] : tensors) {
      if (!impl_of(tensor)) throw_error(ErrorKind::kTypeError, "dispatch: " + who(role, name) + " is an empty handle");
      bound.push_back({impl_of(tensor).get(), role, &name});
    }
  };
  bind_all(inputs, "input");
  bind_all(outputs, "output");
  // As the spec orders them: no tensor twice, then each of this context and alive.
  std::vector<Bound> by_tensor = bound;  // equal pointers adjacent, the one bound first before the other
  std::stable_sort(by_tensor.begin(), by_tensor.end(),
                   [](const Bound& a, const Bound& b) { return std::less<>()(a.tensor, b.tensor); });
  for (size_t i = 1; i < by_tensor.size(); ++i)
    if (by_tensor[i].tensor == by_tensor[i - 1].tensor)
      throw_error(ErrorKind::kTypeError, "dispatch: " + who(by_tensor[i - 1].role, *by_tensor[i - 1].name) + " and " +
                                             who(by_tensor[i].role, *by_tensor[i].name) + " are the same tensor");
  for (const Bound& b : bound) {
    if (b.tensor->context_id != this)
      throw_error(ErrorKind::kTypeError, "dispatch: " + who(b.role, *b.name) + " belongs to another context");
    if (b.tensor->destroyed.load())
      throw_error(ErrorKind::kTypeError, "dispatch: " + who(b.role, *b.name) + " is destroyed");
  }

  // spec: "validate tensors with descriptors"
  auto check_descriptors = [&](const MLNamedTensors& tensors, const std::map<std::string, OperandDescriptor>& expected,
                               const char* role) {
    for (const auto& [name, tensor] : tensors) {
      const TensorImpl& t = *impl_of(tensor);
      if (t.is_constant) throw_error(ErrorKind::kTypeError, "dispatch: " + who(role, name) + " is a constant tensor");
      auto it = expected.find(name);
      if (it == expected.end())
        throw_error(ErrorKind::kTypeError, "dispatch: " + quoted(name) + " is not an " + role + " of the graph");
      if (t.desc.data_type != it->second.data_type || t.desc.shape != it->second.shape)
        throw_error(ErrorKind::kTypeError, "dispatch: " + who(role, name) + " is " + t.operand_desc().to_string() +
                                               " but the graph expects " + it->second.to_string());
    }
    if (tensors.size() != expected.size())  // every given name is expected: one is missing
      for (const auto& [name, desc] : expected)
        if (!tensors.count(name))
          throw_error(ErrorKind::kTypeError,
                      "dispatch: the graph's " + who(role, name) + " (" + desc.to_string() + ") is missing");
  };
  check_descriptors(inputs, g->input_descriptors, "input");
  check_descriptors(outputs, g->output_descriptors, "output");

  // In the executable's order: graph.inputs[i] / graph.outputs[i].
  std::vector<std::shared_ptr<TensorImpl>> in, out;
  for (const NamedOperand& named : g->ir->inputs) in.push_back(impl_of(inputs.at(named.name)));
  for (const NamedOperand& named : g->ir->outputs) out.push_back(impl_of(outputs.at(named.name)));
  const int64_t expected_ns = g->last_run_ns.load(std::memory_order_relaxed);
  if (expected_ns > 0)
    queued_run_ns += expected_ns;
  else
    ++queued_unknown_runs;
  auto ran = [self = shared_from_this(), expected_ns] {
    if (expected_ns > 0)
      self->queued_run_ns -= expected_ns;
    else
      --self->queued_unknown_runs;
  };
  enqueue_locked(
      [self = shared_from_this(), g, in = std::move(in), out = std::move(out), ran] {
        self->dispatch_step(g, in, out);
        ran();
      },
      ran);
}

void ContextImpl::dispatch_step(const std::shared_ptr<GraphImpl>& graph,
                                const std::vector<std::shared_ptr<TensorImpl>>& inputs,
                                const std::vector<std::shared_ptr<TensorImpl>>& outputs) {
  if (auto hook = before_compute_hook()) hook();
  // spec: "abort when this is lost"; the outputs keep what they held.
  if (is_lost() || !graph->executable) return;
  if (remote) return remote->dispatch(*graph->executable, inputs, outputs);

  std::optional<Failure> failure;
  std::vector<const std::byte*> in_ptrs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorImpl& t = *inputs[i];
    auto who = [&] { return "dispatch: input " + quoted(graph->ir->inputs[i].name); };
    if (const Failure* f = failure_of(inputs[i]))
      failure = Failure{f->kind, who() + " holds no valid data (" + f->message + ")"};
    else if (t.data.size() != byte_length_of(t))
      failure = Failure{ErrorKind::kUnknownError, who() + " has no storage"};
    in_ptrs.push_back(t.data.data());
  }
  std::vector<std::byte*> out_ptrs;
  for (size_t i = 0; i < outputs.size(); ++i) {
    TensorImpl& t = *outputs[i];
    if (t.data.size() != byte_length_of(t))
      failure = Failure{ErrorKind::kUnknownError,
                        "dispatch: output " + quoted(graph->ir->outputs[i].name) + " has no storage"};
    out_ptrs.push_back(t.data.data());
  }
  if (!failure) {
    try {
      const auto start = std::chrono::steady_clock::now();
      graph->executable->run(in_ptrs, out_ptrs);
      graph->last_run_ns.store(
          std::max<int64_t>(1, std::chrono::nanoseconds(std::chrono::steady_clock::now() - start).count()),
          std::memory_order_relaxed);
    } catch (const Error& e) {
      failure = Failure{ErrorKind::kOperationError, "dispatch: " + e.message()};
    } catch (const std::exception& e) {
      failure = Failure{ErrorKind::kOperationError, std::string("dispatch: ") + e.what()};
    }
  }
  // A failed compute leaves its outputs unreadable rather than holding stale or partial bytes.
  if (failure && failures.size() >= 64) std::erase_if(failures, [](const auto& f) { return f.first.expired(); });
  for (const auto& t : outputs) {
    if (failure)
      failures[t] = *failure;
    else if (!failures.empty())
      failures.erase(t);
  }
}

TensorImpl::~TensorImpl() {
  if (remote_id == 0 || destroyed.load()) return;
  if (auto owner = context.lock(); owner && owner->remote && !owner->is_lost()) owner->remote->destroy_tensor(*this);
}

// spec: #api-mlcontext-createtensor
MLTensor ContextImpl::create_tensor(const MLTensorDescriptor& descriptor) {
  const RunQueuedOnExit run_queued{timeline};
  std::lock_guard lock(mutex);
  if (is_lost()) throw_error(ErrorKind::kInvalidStateError, "createTensor: the context is lost");
  // The spec bounds tensors only by the implementation; we apply the builder's checks.
  GraphBuilder(kMaxTensorByteLength).check_descriptor({descriptor.data_type, descriptor.shape}, "createTensor");
  auto tensor = std::make_shared<TensorImpl>();
  tensor->context = weak_from_this();
  tensor->context_id = this;
  tensor->desc = descriptor;
  register_weak(tensors, tensor);
  enqueue_locked([self = shared_from_this(), tensor] {
    if (self->remote) return self->remote->create_tensor(*tensor);
    const uint64_t n = byte_length_of(*tensor);
    try {
      tensor->data.assign(n, std::byte{0});
    } catch (const std::bad_alloc&) {
      self->failures[tensor] =
          Failure{ErrorKind::kUnknownError, "createTensor: could not allocate " + std::to_string(n) + " bytes"};
    }
  });
  return make_handle<MLTensor>(tensor);
}

// spec: #api-mlcontext-createconstanttensor
MLTensor ContextImpl::create_constant_tensor(const OperandDescriptor& descriptor, std::span<const std::byte> data) {
  std::lock_guard lock(mutex);
  if (is_lost()) throw_error(ErrorKind::kInvalidStateError, "createConstantTensor: the context is lost");
  GraphBuilder(kMaxTensorByteLength).check_descriptor(descriptor, "createConstantTensor");
  const uint64_t n = *descriptor.byte_length();
  type_error_if(data.size() != n, "createConstantTensor: the buffer holds " + std::to_string(data.size()) +
                                      " bytes but " + descriptor.to_string() + " needs " + std::to_string(n));
  auto tensor = std::make_shared<TensorImpl>();
  tensor->context = weak_from_this();
  tensor->context_id = this;
  tensor->desc = MLTensorDescriptor{descriptor.data_type, descriptor.shape, false, false};
  tensor->is_constant = true;
  // The bytes are immutable from here on: nothing can write a constant tensor, so there is no
  // later step to order them against, and MLGraphBuilder.constant(tensor) may share them from any
  // thread at once. Hence they are placed at the call rather than by a timeline step.
  tensor->constant_data = BufferRef::copy_of(data);
  register_weak(tensors, tensor);
  return make_handle<MLTensor>(tensor);
}

std::optional<Error> ContextImpl::check_read_locked(const TensorImpl* t) const {
  if (!t) return Error(ErrorKind::kTypeError, "readTensor: the tensor is an empty handle");
  if (t->context_id != this) return Error(ErrorKind::kTypeError, "readTensor: the tensor belongs to another context");
  if (t->destroyed.load()) return Error(ErrorKind::kTypeError, "readTensor: the tensor is destroyed");
  if (!t->desc.readable)
    return Error(ErrorKind::kTypeError, "readTensor: the tensor was not created with readable = true");
  return std::nullopt;
}

void ContextImpl::queue_read_locked(const std::shared_ptr<TensorImpl>& t, std::shared_ptr<PendingRead> read) {
  pending_reads.push_back(read);
  enqueue_locked([self = shared_from_this(), t, read] { self->read_step(t, read); },
                 [self = shared_from_this(), read] {
                   read->reject(ErrorKind::kInvalidStateError, "readTensor: aborted because the context is lost");
                   self->forget_read(read.get());
                 });
}

// spec: #api-mlcontext-readtensor
std::future<std::vector<std::byte>> ContextImpl::read_tensor(const MLTensor& tensor) {
  using Bytes = std::vector<std::byte>;
  wait_briefly_for_timeline();
  const RunQueuedOnExit run_queued{timeline};
  std::lock_guard lock(mutex);
  const std::shared_ptr<TensorImpl>& t = impl_of(tensor);
  if (auto e = check_read_locked(t.get())) return rejected<Bytes>(e->kind(), e->message());
  if (is_lost()) return rejected<Bytes>(ErrorKind::kInvalidStateError, "readTensor: the context is lost");
  auto read = std::make_shared<ReadToVector>(t.get());
  auto future = read->future();
  if (run_now_locked())
    settle_local_read(t, *read);
  else
    queue_read_locked(t, std::move(read));
  return future;
}

// spec: #api-mlcontext-readtensor-byob: the callback form below, its completion a promise and its
// up-front errors a rejected one.
std::future<void> ContextImpl::read_tensor(const MLTensor& tensor, std::span<std::byte> out) {
  auto promise = std::make_shared<std::promise<void>>();
  std::future<void> future = promise->get_future();
  try {
    read_tensor(tensor, out, [promise](std::exception_ptr error) {
      if (error)
        promise->set_exception(std::move(error));
      else
        promise->set_value();
    });
  } catch (const Error& e) {
    return rejected<void>(e.kind(), e.message());
  }
  return future;
}

void ContextImpl::read_tensor(const MLTensor& tensor, std::span<std::byte> out,
                              std::function<void(std::exception_ptr)> done) {
  wait_briefly_for_timeline();
  bool settled_now = false;
  std::exception_ptr error;
  {
    const RunQueuedOnExit run_queued{timeline};
    std::lock_guard lock(mutex);
    const std::shared_ptr<TensorImpl>& t = impl_of(tensor);
    if (auto e = check_read_locked(t.get())) throw *e;
    const uint64_t n = byte_length_of(*t);
    if (out.size() != n)
      throw_error(ErrorKind::kTypeError, "readTensor: the output buffer holds " + std::to_string(out.size()) +
                                             " bytes but " + t->operand_desc().to_string() + " needs " +
                                             std::to_string(n));
    if (is_lost()) throw_error(ErrorKind::kInvalidStateError, "readTensor: the context is lost");
    if (run_now_locked()) {
      ReadWithCallback read(t.get(), out, [&](std::exception_ptr e) { error = std::move(e); });
      settle_local_read(t, read);
      settled_now = true;
    } else {
      queue_read_locked(t, std::make_shared<ReadWithCallback>(t.get(), out, std::move(done)));
    }
  }
  // Outside the lock, as on the timeline: `done` may call back into this context.
  if (settled_now) done(std::move(error));
}

void ContextImpl::read_step(const std::shared_ptr<TensorImpl>& tensor, const std::shared_ptr<PendingRead>& read) {
  if (remote) {
    // Settled when the service replies, from the connection's thread.
    auto forget = [weak = weak_from_this(), read] {
      if (auto self = weak.lock()) self->forget_read(read.get());
    };
    return remote->read_tensor(
        *tensor, [read, forget](std::span<const std::byte> bytes) { read->fulfil(bytes), forget(); },
        [read, forget](ErrorKind kind, const std::string& message) { read->reject(kind, message), forget(); });
  }
  settle_local_read(tensor, *read);
  forget_read(read.get());
}

void ContextImpl::wait_briefly_for_timeline() const {
  if (remote || queued_unknown_runs.load() > 0) return;
  const auto left = std::chrono::nanoseconds(queued_run_ns.load()) - timeline.running_for();
  if (left > kReadWait) return;
  timeline.wait_idle_until(std::chrono::steady_clock::now() + kReadWait);
}

void ContextImpl::settle_local_read(const std::shared_ptr<TensorImpl>& tensor, PendingRead& read) const {
  if (const Failure* f = failure_of(tensor))
    read.reject(f->kind, "readTensor: the tensor holds no valid data (" + f->message + ")");
  else if (tensor->data.size() != byte_length_of(*tensor))
    read.reject(ErrorKind::kUnknownError, "readTensor: the tensor has no storage");
  else
    read.fulfil(tensor->data);
}

// spec: #api-mlcontext-writetensor
void ContextImpl::write_tensor(const MLTensor& tensor, std::span<const std::byte> data) {
  const RunQueuedOnExit run_queued{timeline};
  std::lock_guard lock(mutex);
  std::shared_ptr<TensorImpl> t = check_own_tensor_locked(tensor, "writeTensor");
  if (!t->desc.writable)
    throw_error(ErrorKind::kTypeError, "writeTensor: the tensor was not created with writable = true");
  const uint64_t n = byte_length_of(*t);
  if (data.size() != n)
    throw_error(ErrorKind::kTypeError, "writeTensor: the buffer holds " + std::to_string(data.size()) + " bytes but " +
                                           t->operand_desc().to_string() + " needs " + std::to_string(n));
  if (is_lost()) throw_error(ErrorKind::kInvalidStateError, "writeTensor: the context is lost");
  // spec: the bytes are copied before the call returns; with the timeline idle, straight into the
  // tensor's storage.
  if (run_now_locked()) {
    if (t->data.size() == data.size())
      std::copy(data.begin(), data.end(), t->data.begin());
    else
      t->data.assign(data.begin(), data.end());
    failures.erase(t);
    return;
  }
  std::vector<std::byte> bytes(data.begin(), data.end());
  enqueue_locked([self = shared_from_this(), t, bytes = std::move(bytes)]() mutable {
    if (self->remote) return self->remote->write_tensor(*t, std::move(bytes));
    t->data = std::move(bytes);
    self->failures.erase(t);
  });
}

// spec: #api-mlcontext-destroy, #mlcontext-lose
void ContextImpl::destroy(const std::string& message, bool wait) {
  std::vector<std::shared_ptr<PendingRead>> reads;
  std::vector<std::shared_ptr<TensorImpl>> live_tensors;
  std::vector<std::shared_ptr<GraphImpl>> live_graphs;
  std::vector<std::function<void(const MLContextLostInfo&)>> listeners;
  {
    std::lock_guard lock(mutex);
    if (lost_flag.load()) return;
    lost_flag.store(true, std::memory_order_release);
    for (auto& weak : graphs)
      if (auto g = weak.lock()) {
        g->destroyed = true;
        live_graphs.push_back(std::move(g));
      }
    for (auto& weak : tensors)
      if (auto t = weak.lock()) {
        t->destroyed = true;
        live_tensors.push_back(std::move(t));
      }
    graphs.clear();
    tensors.clear();
    reads.swap(pending_reads);
    listeners.swap(lost_listeners);
  }
  for (auto& read : reads)
    read->reject(kPendingReadRejection,
                 "readTensor: the tensor was destroyed because the context was lost (" + message + ")");
  // Queued dispatches, writes and allocations are dropped; a compute already running finishes.
  timeline.close();
  lost_promise.set_value({message});
  for (auto& listener : listeners) listener({message});
  // From a step on the timeline itself the worker cannot be awaited; the destructor lets it go.
  if (timeline.on_worker_thread()) return;
  if (!wait) {
    if (remote) remote->destroy();
    return;
  }
  timeline.join();
  if (remote) remote->destroy();
  // The worker has stopped: release tensor storage and executables now rather than when the last
  // handle to each is dropped.
  for (auto& t : live_tensors) std::vector<std::byte>().swap(t->data);
  failures.clear();
  std::vector<std::unique_ptr<Executable>> executables;
  {
    std::lock_guard lock(mutex);  // placement() reads executables under it
    for (auto& g : live_graphs) executables.push_back(std::move(g->executable));
  }
}

void ContextImpl::when_reached(const std::shared_ptr<TensorImpl>& tensor,
                               std::function<void(std::optional<Error>)> done) {
  auto shared = std::make_shared<std::function<void(std::optional<Error>)>>(std::move(done));
  auto aborted = [shared] { (*shared)(Error(ErrorKind::kInvalidStateError, "aborted because the context is lost")); };
  {
    const RunQueuedOnExit run_queued{timeline};
    std::lock_guard lock(mutex);
    if (!is_lost()) {
      enqueue_locked(
          [self = shared_from_this(), tensor, shared] {
            const Failure* f = tensor ? self->failure_of(tensor) : nullptr;
            (*shared)(f ? std::optional<Error>(Error(f->kind, f->message)) : std::nullopt);
          },
          aborted);
      return;
    }
  }
  aborted();
}

void ContextImpl::on_lost(std::function<void(const MLContextLostInfo&)> listener) {
  {
    std::lock_guard lock(mutex);
    if (!is_lost()) {
      lost_listeners.push_back(std::move(listener));
      return;
    }
  }
  listener(lost_future.get());
}

// spec: #api-mltensor-destroy
void ContextImpl::destroy_tensor(const std::shared_ptr<TensorImpl>& tensor) {
  const RunQueuedOnExit run_queued{timeline};
  std::vector<std::shared_ptr<PendingRead>> reads;
  {
    std::lock_guard lock(mutex);
    if (tensor->destroyed.exchange(true)) return;
    reads = take_reads_locked(tensor.get());
    // A constant tensor's bytes may be shared with graphs and read by builders on other threads;
    // they go when the last reference does.
    if (!is_lost() && !tensor->is_constant)
      enqueue_locked([self = shared_from_this(), tensor] {
        if (self->remote) return self->remote->destroy_tensor(*tensor);
        std::vector<std::byte>().swap(tensor->data);
        self->failures.erase(tensor);
      });
  }
  for (auto& read : reads) read->reject(kPendingReadRejection, "readTensor: the tensor was destroyed");
}

// spec: #api-mlgraph-destroy
void ContextImpl::destroy_graph(const std::shared_ptr<GraphImpl>& graph) {
  const RunQueuedOnExit run_queued{timeline};
  std::lock_guard lock(mutex);
  if (graph->destroyed.exchange(true)) return;
  if (is_lost()) return;
  // After the dispatches already queued with this graph.
  enqueue_locked([self = shared_from_this(), graph] {
    std::unique_ptr<Executable> freed;
    std::lock_guard lock(self->mutex);
    freed = std::move(graph->executable);
  });
}

std::vector<std::string> ContextImpl::placement(const GraphImpl& graph) const {
  std::lock_guard lock(mutex);
  if (graph.destroyed.load() || !graph.executable)
    throw_error(ErrorKind::kInvalidStateError, "placement: the graph is destroyed");
  return graph.executable->placement();
}

MLGraph ContextImpl::build_graph(std::shared_ptr<const Graph> ir) {
  type_error_if(!ir, "build: the graph is null");
  if (is_lost()) throw_error(ErrorKind::kInvalidStateError, "build: the context is lost");
  // Compiled on the caller's thread (docs/choices.md), outside the lock.
  std::unique_ptr<Executable> executable;
  const std::string who = "build: the " + std::string(backend->name()) + " backend could not compile the graph: ";
  try {
    executable = backend->compile(ir, CompileOptions{num_threads});
  } catch (const Error& e) {
    // NotSupportedError names the op the backend cannot run; callers (and a fallback policy) can
    // tell it from a failed conversion, which the spec reports as OperationError.
    // A remote context's service has said what failed, with the kind, already.
    if (e.kind() == ErrorKind::kNotSupportedError || remote) throw;
    throw_error(ErrorKind::kOperationError, who + e.message());
  } catch (const std::exception& e) {
    throw_error(ErrorKind::kOperationError, who + e.what());
  }
  if (!executable) throw_error(ErrorKind::kOperationError, who + "no executable was produced");

  auto graph = std::make_shared<GraphImpl>();
  graph->context = weak_from_this();
  graph->context_id = this;
  for (const NamedOperand& in : ir->inputs) graph->input_descriptors[in.name] = ir->desc(in.operand);
  for (const NamedOperand& out : ir->outputs) graph->output_descriptors[out.name] = ir->desc(out.operand);
  graph->ir = std::move(ir);
  graph->executable = std::move(executable);
  std::lock_guard lock(mutex);
  if (is_lost()) throw_error(ErrorKind::kInvalidStateError, "build: the context is lost");
  register_weak(graphs, graph);
  return make_handle<MLGraph>(graph);
}

NamedHostTensors ContextImpl::compute(const MLGraph& graph, const NamedHostTensors& inputs) {
  if (timeline.on_worker_thread())
    throw_error(ErrorKind::kInvalidStateError, "compute: cannot wait for the context's timeline from one of its steps");
  auto promise = std::make_shared<std::promise<NamedHostTensors>>();
  auto future = promise->get_future();
  {
    std::lock_guard lock(mutex);
    const std::shared_ptr<GraphImpl>& g = impl_of(graph);
    type_error_if(!g, "compute: the graph is an empty handle");
    type_error_if(g->context_id != this, "compute: the graph belongs to another context");
    if (g->destroyed.load()) throw_error(ErrorKind::kInvalidStateError, "compute: the graph is destroyed");
    if (is_lost()) throw_error(ErrorKind::kInvalidStateError, "compute: the context is lost");
    // An input the caller does not give runs on its default value, where the graph has one (an
    // imported ONNX model's initializer of that name); dispatch() has no such convenience.
    const auto& defaults = g->ir->input_defaults;
    for (const auto& [name, desc] : g->input_descriptors) {
      auto it = inputs.find(name);
      if (it == inputs.end() && defaults.count(name)) continue;
      type_error_if(it == inputs.end(), "compute: input " + quoted(name) + " (" + desc.to_string() + ") is missing");
      type_error_if(it->second.desc != desc, "compute: input " + quoted(name) + " is " + it->second.desc.to_string() +
                                                 " but the graph expects " + desc.to_string());
      const uint64_t n = *desc.byte_length();
      type_error_if(it->second.data.size() != n, "compute: input " + quoted(name) + " holds " +
                                                     std::to_string(it->second.data.size()) + " bytes but " +
                                                     desc.to_string() + " needs " + std::to_string(n));
    }
    for (const auto& [name, host] : inputs)
      type_error_if(!g->input_descriptors.count(name), "compute: " + quoted(name) + " is not an input of the graph");

    // The step reads the caller's bytes in place: this call waits until the step has run or been
    // aborted, so they outlive every use.
    std::vector<const std::byte*> in_ptrs;
    for (const NamedOperand& named : g->ir->inputs) {
      auto it = inputs.find(named.name);
      in_ptrs.push_back(it != inputs.end() ? it->second.data.data() : defaults.at(named.name).data.get());
    }
    enqueue_locked(
        [self = shared_from_this(), g, promise, in_ptrs = std::move(in_ptrs)] {
          try {
            if (auto hook = self->before_compute_hook()) hook();
            if (self->is_lost() || !g->executable)
              throw_error(ErrorKind::kInvalidStateError, "compute: aborted because the context is lost");
            NamedHostTensors results;
            std::vector<std::byte*> out_ptrs;
            for (const NamedOperand& named : g->ir->outputs) {
              HostTensor& host = results[named.name];
              host.desc = g->ir->desc(named.operand);
              host.data.resize(*host.desc.byte_length());
              out_ptrs.push_back(host.data.data());
            }
            try {
              g->executable->run(in_ptrs, out_ptrs);
            } catch (const Error& e) {
              throw_error(ErrorKind::kOperationError, "compute: " + e.message());
            } catch (const std::bad_alloc&) {
              throw;
            } catch (const std::exception& e) {
              throw_error(ErrorKind::kOperationError, std::string("compute: ") + e.what());
            }
            promise->set_value(std::move(results));
          } catch (...) {
            promise->set_exception(std::current_exception());
          }
        },
        [promise] {
          promise->set_exception(std::make_exception_ptr(
              Error(ErrorKind::kInvalidStateError, "compute: aborted because the context is lost")));
        });
  }
  timeline.run_queued();
  return future.get();
}

// ---- The builder's view of a context (src/api/impl.hpp) ----

bool context_is_lost(const ContextImpl& context) { return context.is_lost(); }

uint64_t context_max_tensor_byte_length(const ContextImpl&) { return kMaxTensorByteLength; }

MLGraph context_build_graph(const std::shared_ptr<ContextImpl>& context, std::shared_ptr<const Graph> ir) {
  if (!context) throw_error(ErrorKind::kTypeError, "build: the context is an empty handle");
  return context->build_graph(std::move(ir));
}

}  // namespace webnn::detail
