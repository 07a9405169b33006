// The state behind an MLContext and the spec's MLContext / MLTensor / MLGraph method steps.
//
// Threading: every public call validates synchronously under `mutex` and, in the same critical
// section, enqueues its timeline step, so "call order" is well defined across threads and a
// destroy() cannot slip between a call's checks and its step. Tensor bytes (TensorImpl::data) and
// the executables are touched only by steps on the timeline. User-visible promises are settled
// outside `mutex`.
//
// Lifetime: queued steps hold a reference to their context, so dropping the last MLContext
// handle lets queued work finish; the context is destroyed (and its worker stopped) once nothing
// is queued. destroy() instead aborts whatever is queued.
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/handles.hpp"
#include "runtime/remote.hpp"
#include "runtime/timeline.hpp"

namespace webnn::detail {

// The error that rejects a tensor's pending reads when the tensor is destroyed, directly or by
// its context being lost. spec: #api-mltensor-destroy and the "if aborted" steps of readTensor
// both name InvalidStateError.
inline constexpr ErrorKind kPendingReadRejection = ErrorKind::kInvalidStateError;

// A readTensor() promise (spec: MLTensor.[[pendingPromises]]). Settled exactly once: by its
// timeline step, or rejected earlier by MLTensor.destroy() or context loss.
class PendingRead {
 public:
  explicit PendingRead(const TensorImpl* tensor) : tensor_(tensor) {}
  virtual ~PendingRead() = default;
  const TensorImpl* tensor() const { return tensor_; }
  // Hands `bytes` to the reader unless already settled.
  void fulfil(std::span<const std::byte> bytes);
  void reject(ErrorKind kind, const std::string& message);

 protected:
  virtual void deliver(std::span<const std::byte> bytes) = 0;  // called once, under mutex_
  virtual void fail(std::exception_ptr error) = 0;             // called once, under mutex_
  // Called once after deliver() or fail(), outside mutex_, so that a completion callback
  // (MLContext::read_tensor's `done`) may destroy the tensor or the context that settled it.
  virtual void notify() {}

 private:
  const TensorImpl* tensor_;
  std::mutex mutex_;
  bool settled_ = false;
};

struct ContextImpl : std::enable_shared_from_this<ContextImpl> {
  // kCaller: the steps run on the thread that makes the calls, before each call returns (the
  // service's contexts: src/ipc/service.cpp; and every context whose options ask to be
  // synchronous).
  ContextImpl(const MLContextOptions& options, const Backend& backend, Timeline::Mode mode = Timeline::Mode::kThread);
  // A context of the WebNN service: every timeline step's effect goes through `remote`.
  ContextImpl(const MLContextOptions& options, std::shared_ptr<RemoteSession> remote);
  ~ContextImpl();

  // spec: #api-mlcontext-dispatch
  void dispatch(const MLGraph& graph, const MLNamedTensors& inputs, const MLNamedTensors& outputs);
  // spec: #api-mlcontext-createtensor
  MLTensor create_tensor(const MLTensorDescriptor& descriptor);
  // spec: #api-mlcontext-createconstanttensor
  MLTensor create_constant_tensor(const OperandDescriptor& descriptor, std::span<const std::byte> data);
  // spec: #api-mlcontext-readtensor and #api-mlcontext-readtensor-byob
  std::future<std::vector<std::byte>> read_tensor(const MLTensor& tensor);
  std::future<void> read_tensor(const MLTensor& tensor, std::span<std::byte> out);
  // The BYOB form completed by a callback (MLContext::read_tensor with `done`).
  void read_tensor(const MLTensor& tensor, std::span<std::byte> out, std::function<void(std::exception_ptr)> done);
  // spec: #api-mlcontext-writetensor
  void write_tensor(const MLTensor& tensor, std::span<const std::byte> data);
  // For bindings whose promises settle in the order the timeline runs their steps (js/: the
  // createTensor promise): queues a step after everything queued so far that calls `done` with
  // nullopt, or with the UnknownError that the allocation of `tensor` (if given) failed with; if
  // the context is lost first, `done` gets the spec's InvalidStateError. `done` runs once, on the
  // timeline's thread or on the caller's, never under `mutex`.
  void when_reached(const std::shared_ptr<TensorImpl>& tensor, std::function<void(std::optional<Error>)> done);
  // Calls `listener` once when the context is lost (at once if it is lost already), with the
  // message its `lost` promise resolves with: MLContext.lost for bindings that cannot wait on a
  // future (js/).
  void on_lost(std::function<void(const MLContextLostInfo&)> listener);
  // spec: #api-mlcontext-opsupportlimits
  MLOpSupportLimits op_support_limits() const;
  // spec: #api-mlcontext-destroy (the "lose" steps). With `wait`, returns once a compute that is
  // running has finished and frees the context's tensors and executables at once; without, returns
  // at once (a binding whose caller must not block: js/), and they are freed when the last step
  // and handle holding them go.
  void destroy(const std::string& message, bool wait = true);
  // spec: #api-mltensor-destroy
  void destroy_tensor(const std::shared_ptr<TensorImpl>& tensor);
  // spec: #api-mlgraph-destroy
  void destroy_graph(const std::shared_ptr<GraphImpl>& graph);
  // Compiles `ir` on this context's backend (MLGraphBuilder.build's conversion step).
  MLGraph build_graph(std::shared_ptr<const Graph> ir);
  // Runs `graph` on `inputs` as one timeline step and waits for it.
  NamedHostTensors compute(const MLGraph& graph, const NamedHostTensors& inputs);
  // MLGraph.placement(): read under `mutex` because destroying the graph frees its executable.
  std::vector<std::string> placement(const GraphImpl& graph) const;

  bool is_lost() const { return lost_flag.load(std::memory_order_acquire); }
  // How long the timeline's running step has run (zero when none runs).
  std::chrono::steady_clock::duration step_running_for() const { return timeline.running_for(); }
  // Whether the timeline has nothing queued or running (tests wait for it).
  bool timeline_idle() const { return timeline.idle(); }
  void set_before_compute_hook(std::function<void()> hook);

  const MLContextOptions options;
  const std::shared_ptr<RemoteSession> remote;  // null: a context of this process
  const Backend* const backend;
  const int num_threads;
  std::shared_future<MLContextLostInfo> lost_future;

 private:
  struct Failure {
    ErrorKind kind;
    std::string message;
  };

  // Declared before a method takes `mutex`: once the method has released it, runs the steps it
  // queued when the timeline runs them on the caller (Timeline::Mode::kCaller).
  struct RunQueuedOnExit {
    Timeline& timeline;
    ~RunQueuedOnExit() { timeline.run_queued(); }
  };

  // Enqueues a step that keeps this context alive until it has run or been aborted.
  // Requires `mutex` held and the context not lost.
  void enqueue_locked(std::function<void()> run, std::function<void()> abort = {});
  void forget_read(const PendingRead* read);
  std::vector<std::shared_ptr<PendingRead>> take_reads_locked(const TensorImpl* tensor);
  std::function<void()> before_compute_hook() const;
  void check_tensor_locked(const TensorImpl* tensor, const char* method) const;
  std::shared_ptr<TensorImpl> check_own_tensor_locked(const MLTensor& tensor, const char* method) const;
  void read_step(const std::shared_ptr<TensorImpl>& tensor, const std::shared_ptr<PendingRead>& read);
  // Settles `read` from the tensor's bytes, or rejects it with why it holds none; on the timeline,
  // or in the timeline's place (run_now_locked).
  void settle_local_read(const std::shared_ptr<TensorImpl>& tensor, PendingRead& read) const;
  // Whether a step may run on the caller's thread, before the call returns, in the timeline's
  // place: a local context whose timeline has nothing queued or running. Under `mutex` nothing
  // can be queued meanwhile, so the step sees and leaves what it would as the timeline's next
  // one. A read then saves the caller the hand-offs to the worker and back (tens of
  // microseconds), a write the copy's allocation (writeTensor, readTensor).
  bool run_now_locked() const { return !remote && timeline.idle(); }
  // Before a local read: when the steps queued ahead of it are expected to end within
  // kReadWait (each dispatch's last run time, less what the running step has run), waits for
  // them on the caller's thread, without the lock, so that the read can settle there.
  void wait_briefly_for_timeline() const;
  // Each queued dispatch's expected run time (GraphImpl::last_run_ns), added when it is queued
  // and taken off when it has run or been aborted; a graph that has not run yet counts as unknown.
  std::atomic<int64_t> queued_run_ns{0};
  std::atomic<int> queued_unknown_runs{0};
  // readTensor's checks before anything is queued (both forms); nullopt when the read may start.
  std::optional<Error> check_read_locked(const TensorImpl* tensor) const;
  // Registers `read` as pending and queues its step; requires `mutex` held.
  void queue_read_locked(const std::shared_ptr<TensorImpl>& tensor, std::shared_ptr<PendingRead> read);
  void dispatch_step(const std::shared_ptr<GraphImpl>& graph, const std::vector<std::shared_ptr<TensorImpl>>& inputs,
                     const std::vector<std::shared_ptr<TensorImpl>>& outputs);
  // Timeline-only (or in its place: run_now_locked): why a tensor holds no valid bytes (a failed
  // compute wrote it, or its allocation failed); reads of it reject with this error instead of
  // returning stale data.
  const Failure* failure_of(const std::shared_ptr<TensorImpl>& tensor) const;

  mutable std::mutex mutex;
  std::atomic<bool> lost_flag{false};
  std::promise<MLContextLostInfo> lost_promise;
  std::vector<std::weak_ptr<TensorImpl>> tensors;                             // guarded by mutex
  std::vector<std::weak_ptr<GraphImpl>> graphs;                               // guarded by mutex
  std::vector<std::shared_ptr<PendingRead>> pending_reads;                    // guarded by mutex
  std::function<void()> compute_hook;                                         // guarded by mutex
  std::vector<std::function<void(const MLContextLostInfo&)>> lost_listeners;  // guarded by mutex
  std::map<std::weak_ptr<TensorImpl>, Failure, std::owner_less<>> failures;   // timeline only, or in its place
  Timeline timeline;  // last: its worker stops before the members above go away
};

// ML::create_context's local branch with the timeline's mode (the service: kCaller). The options
// are checked by the caller.
MLContext create_local_context(const MLContextOptions& options, Timeline::Mode mode);

}  // namespace webnn::detail
