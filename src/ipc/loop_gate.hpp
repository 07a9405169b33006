// Calls from any thread into the thread that runs a Cap'n Proto event loop, safe against the end
// of that loop (the remote context's connection, src/ipc/client.cpp).
//
// Cap'n Proto 0.9's Executor::executeSync must not race the end of its loop: a call that finds
// the loop alive as it starts and gone as it queues itself is never marked done, and its
// destructor waits for it for good (the XThreadEvent stays UNUSED; ensureDoneOrCanceled waits
// for DONE). A caller hammering a loop that ends hangs within a hundred rounds on this VM. So the
// loop's thread admits callers only while it promises to run their calls: close() refuses new
// ones, then runs the loop until every admitted call has run, and only then may the loop end.
#pragma once

#include <kj/async.h>
#include <cstddef>
#include <mutex>
#include <thread>
#include <utility>

namespace webnn::ipc {

class LoopGate {
 public:
  // On the loop's thread: calls may come in.
  void open() {
    std::lock_guard lock(mutex_);
    executor_ = kj::getCurrentThreadExecutor().addRef();
    open_ = true;
  }

  // From any thread but the loop's: runs `run` on the loop's thread and waits for it (and for
  // the promise it returns, if it returns one). Throws kj::Exception (DISCONNECTED) when the gate
  // is not open, or when the loop ends before the call completes.
  template <class Run>
  auto call(Run&& run) const -> decltype(std::declval<const kj::Executor&>().executeSync(run)) {
    const kj::Executor* executor;
    {
      std::lock_guard lock(mutex_);
      if (!open_) kj::throwFatalException(KJ_EXCEPTION(DISCONNECTED, "the event loop has ended"));
      ++admitted_;
      executor = executor_.get();
    }
    return executor->executeSync([&] {
      {
        std::lock_guard lock(mutex_);
        --admitted_;
      }
      return run();
    });
  }

  // On the loop's thread, before the loop ends (again: harmless): no caller is admitted any more,
  // and those admitted are run. The executor itself is kept: callers that queued their calls
  // hold it too, and the loop's end completes their calls as DISCONNECTED.
  void close(kj::WaitScope& wait_scope) {
    {
      std::lock_guard lock(mutex_);
      open_ = false;
    }
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        if (admitted_ == 0) return;
      }
      try {
        wait_scope.poll();
      } catch (const kj::Exception&) {  // one failing event: the others still run at the next poll
      }
      std::this_thread::yield();
    }
  }

 private:
  mutable std::mutex mutex_;
  bool open_ = false;
  mutable size_t admitted_ = 0;  // callers whose call has not yet started on the loop's thread
  kj::Own<const kj::Executor> executor_;
};

}  // namespace webnn::ipc
