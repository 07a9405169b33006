// The context timeline (spec: MLContext.[[timeline]]): a serial queue of steps run in call order
// by one worker thread per context. A step that is still queued when the timeline closes is
// aborted instead of run (spec: "run these steps, but abort when this is lost").
//
// The seed 000 (a browser engine) keeps a queue plus an in-flight flag and replays the queue when
// a compute finishes; here the worker thread is the in-flight flag: it runs one step at a time, so
// a compute in flight holds back later steps of its context and nothing else.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace webnn::detail {

class Timeline {
 public:
  using Task = std::function<void()>;

  // kThread: a worker thread runs the steps. kCaller: no thread; the steps run on the thread that
  // calls run_queued() (the service's contexts: their one connection thread makes every call, so
  // running the steps there saves two thread hand-offs per waited-for step).
  enum class Mode { kThread, kCaller };

  explicit Timeline(Mode mode = Mode::kThread);
  ~Timeline();
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // Appends a step: `run` on the worker when its turn comes, or `abort` (on the thread that
  // closes the timeline) if the timeline closes first. Exactly one of them is called. Returns
  // false, calling neither, once the timeline is closed.
  bool enqueue(Task run, Task abort = {});

  // Stops accepting steps and aborts every queued step. A step already running finishes.
  // Idempotent; callable from any thread, the worker included.
  void close();

  // Waits until the worker has exited (close() first). Called from the worker itself (a step
  // that destroys its own context), it detaches instead: the worker exits as soon as that step
  // returns, touching only state it owns. Safe to call from several threads at once.
  void join();

  // kCaller: runs the queued steps, in order, on this thread, until none is left (a step queued by
  // a step runs after it). kThread: nothing. Never call it with a lock a step may take.
  void run_queued();

  // Whether the calling thread is running one of this timeline's steps (waiting for the timeline
  // from there would never end).
  bool on_worker_thread() const;

  // How long the step running now has run (zero when none runs): the service's watchdog reads it.
  std::chrono::steady_clock::duration running_for() const;

  // Whether no step is queued or running, and the timeline is open: a caller that holds the lock
  // under which every step is enqueued (ContextImpl::mutex) may then act as the timeline's next
  // step itself, on its own thread, until it lets the lock go (ContextImpl::read_tensor). The
  // effects of every step that has run are visible to the caller.
  bool idle() const;

  // Polls, without a lock, until no step is queued or running or `until` passes (a caller about
  // to read what the running step writes: ContextImpl::wait_briefly_for_timeline). Only a hint:
  // a caller confirms with idle() under its lock.
  void wait_idle_until(std::chrono::steady_clock::time_point until) const;

 private:
  struct Step {
    Task run;
    Task abort;
  };
  // Shared with the worker so that a detached worker never touches a destroyed Timeline.
  struct State {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<Step> queue;
    bool closed = false;
    // Set under `mutex` with the queue and `closed`; read without it by the worker's spin.
    std::atomic<bool> wanted{false};  // a step is queued or the timeline closed
    // 0: no step runs. Set under `mutex` as a step leaves the queue, cleared (release) when it ends.
    std::atomic<std::chrono::steady_clock::rep> running_since{0};
    std::thread::id runner;  // kCaller: the thread in run_queued(), guarded by mutex
  };
  // Takes the first queued step, under `mutex`, and marks it running.
  static Step take_locked(State& state);
  // Runs one step taken by take_locked(), then marks none running.
  static void run_step(State& state, Step& step);
  static void work(const std::shared_ptr<State>& state);

  // How long the worker keeps polling for the next step before it sleeps (see work()).
  static std::chrono::microseconds spin_time();

  const Mode mode_;
  std::shared_ptr<State> state_;
  std::mutex join_mutex_;
  std::thread worker_;
  std::thread::id worker_id_;
};

}  // namespace webnn::detail
