#include "runtime/timeline.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace webnn::detail {

namespace {
// The worker's default spin (WEBNN_TIMELINE_SPIN_US overrides it; 0 turns it off).
constexpr std::chrono::microseconds kDefaultSpin{50};

// Tells the core that this thread is polling (x86's PAUSE: the sibling hyper-thread gets the
// pipeline, and leaving the loop does not flush it).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Polls until `done()` or `until` passes, yielding the core to any runnable thread every 64 polls
// (the worker waiting for its next step, a reader waiting for the timeline to go idle).
template <class Done>
void poll_until(Done done, std::chrono::steady_clock::time_point until) {
  for (unsigned polls = 1; !done(); ++polls) {
    if (polls % 64 == 0) {
      if (std::chrono::steady_clock::now() >= until) return;
      std::this_thread::yield();
    }
    cpu_relax();
  }
}
}  // namespace

Timeline::Timeline(Mode mode) : mode_(mode), state_(std::make_shared<State>()) {
  if (mode_ == Mode::kCaller) return;
  // The worker owns a reference to the state, not to the Timeline (see join()).
  worker_ = std::thread([state = state_] { work(state); });
  worker_id_ = worker_.get_id();
}

bool Timeline::on_worker_thread() const {
  if (mode_ == Mode::kThread) return std::this_thread::get_id() == worker_id_;
  std::lock_guard lock(state_->mutex);
  return state_->runner == std::this_thread::get_id();
}

Timeline::Step Timeline::take_locked(State& state) {
  Step step = std::move(state.queue.front());
  state.queue.pop_front();
  // Marked running before `wanted` may fall: a poller that sees no step wanted sees this one run.
  state.running_since =
      std::max<std::chrono::steady_clock::rep>(1, std::chrono::steady_clock::now().time_since_epoch().count());
  state.wanted = state.closed || !state.queue.empty();
  return step;
}

void Timeline::run_step(State& state, Step& step) {
  // Steps report their own failures through the promises or tensors they settle; an exception
  // escaping one is a bug in the step, which must not take the whole timeline down with it.
  try {
    step.run();
  } catch (...) {
  }
  state.running_since.store(0, std::memory_order_release);
}

void Timeline::run_queued() {
  if (mode_ == Mode::kThread) return;
  // A step may drop the last reference to the context, and with it this Timeline: from the first
  // step on, only `state` is touched.
  const std::shared_ptr<State> state = state_;
  {
    std::lock_guard lock(state->mutex);
    if (state->runner != std::thread::id()) return;  // run by another thread, or by this one further up
    state->runner = std::this_thread::get_id();
  }
  for (;;) {
    Step step;
    {
      std::lock_guard lock(state->mutex);
      if (state->queue.empty()) {
        state->runner = std::thread::id();
        return;
      }
      step = take_locked(*state);
    }
    run_step(*state, step);
  }
}

Timeline::~Timeline() {
  close();
  join();
}

bool Timeline::enqueue(Task run, Task abort) {
  {
    std::lock_guard lock(state_->mutex);
    if (state_->closed) return false;
    state_->queue.push_back({std::move(run), std::move(abort)});
    state_->wanted = true;
  }
  state_->wake.notify_one();
  return true;
}

void Timeline::close() {
  std::deque<Step> aborted;
  {
    std::lock_guard lock(state_->mutex);
    state_->closed = true;
    state_->wanted = true;
    aborted.swap(state_->queue);
  }
  state_->wake.notify_all();
  // Outside the lock: an abort settles promises and may take its context's lock.
  for (Step& step : aborted)
    if (step.abort) step.abort();
}

void Timeline::join() {
  std::lock_guard lock(join_mutex_);
  if (!worker_.joinable()) return;
  if (on_worker_thread())
    worker_.detach();
  else
    worker_.join();
}

std::chrono::steady_clock::duration Timeline::running_for() const {
  const auto since = state_->running_since.load();
  if (since == 0) return {};
  return std::chrono::steady_clock::now() -
         std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(since));
}

bool Timeline::idle() const {
  std::lock_guard lock(state_->mutex);
  return !state_->closed && state_->queue.empty() && state_->running_since.load(std::memory_order_acquire) == 0;
}

void Timeline::wait_idle_until(std::chrono::steady_clock::time_point until) const {
  const State& state = *state_;
  poll_until(
      [&] {
        return !state.wanted.load(std::memory_order_acquire) &&
               state.running_since.load(std::memory_order_acquire) == 0;
      },
      until);
}

std::chrono::microseconds Timeline::spin_time() {
  static const std::chrono::microseconds spin = [] {
    const char* asked = std::getenv("WEBNN_TIMELINE_SPIN_US");
    if (!asked) return kDefaultSpin;
    char* end = nullptr;
    const long us = std::strtol(asked, &end, 10);
    if (end == asked || *end != '\0' || us < 0 || us > 1'000'000) {
      // Read on a worker thread, where nothing can throw to a caller: say so once, on stderr.
      std::fprintf(stderr,
                   "webnn: WEBNN_TIMELINE_SPIN_US=\"%s\" is not a whole number of microseconds in [0, 1000000]; "
                   "the timeline polls for the default %lld us\n",
                   asked, static_cast<long long>(kDefaultSpin.count()));
      return kDefaultSpin;
    }
    return std::chrono::microseconds(us);
  }();
  return spin;
}

void Timeline::work(const std::shared_ptr<State>& state) {
  const auto spin = spin_time();
  for (;;) {
    // A caller that waits for a step (readTensor, a blocking compute) usually queues its next one
    // within microseconds of being woken. Sleeping at once would make every such round trip pay
    // for waking this thread again: tens of microseconds on a virtual machine whose idle vCPU
    // halts. So the worker polls for `spin` first, yielding the core to any runnable thread
    // every 64 polls, and only then sleeps (docs/runtime.md, "The timeline's worker").
    if (spin.count() > 0 && !state->wanted.load(std::memory_order_acquire))
      poll_until([&] { return state->wanted.load(std::memory_order_acquire); },
                 std::chrono::steady_clock::now() + spin);
    Step step;
    {
      std::unique_lock lock(state->mutex);
      state->wake.wait(lock, [&] { return state->closed || !state->queue.empty(); });
      if (state->queue.empty()) return;  // closed and drained
      step = take_locked(*state);
    }
    run_step(*state, step);
    // Releasing the step may drop the last reference to its context, whose destructor then runs
    // here and detaches this thread; from here on only `state` may be touched.
    step = Step{};
  }
}

}  // namespace webnn::detail
