// LoopGate (src/ipc/loop_gate.hpp): calls into an event loop's thread that finish, done or
// refused, however they race the loop's end. The same hammering through a bare executeSync hangs
// within a hundred rounds on this VM (Cap'n Proto 0.9: a call that finds the loop alive as it
// starts and gone as it queues itself waits for good).
#include <gtest/gtest.h>

#include <kj/async.h>
#include <atomic>
#include <thread>

#include "ipc/loop_gate.hpp"

namespace webnn::ipc {
namespace {

// An event loop on a thread of its own, open to calls from `start` until `finish`.
struct LoopThread {
  LoopGate gate;
  std::atomic<bool> opened{false}, ending{false};
  std::thread::id id;
  std::thread thread;

  // The loop polls `turns` times after `ending` is set, then closes the gate and ends.
  explicit LoopThread(int turns = 0) {
    thread = std::thread([this, turns] {
      kj::EventLoop loop;
      kj::WaitScope wait_scope(loop);
      id = std::this_thread::get_id();
      gate.open();
      opened = true;
      while (!ending) wait_scope.poll();
      for (int i = 0; i < turns; ++i) wait_scope.poll();
      gate.close(wait_scope);
    });
    while (!opened) std::this_thread::yield();
  }
  void finish() {
    ending = true;
    thread.join();
  }
};

TEST(IpcLoopGate, ACallRunsOnTheLoopsThreadAndReturnsItsResult) {
  LoopThread loop;
  std::thread::id ran_on;
  EXPECT_EQ(loop.gate.call([&] {
    ran_on = std::this_thread::get_id();
    return 7;
  }),
            7);
  EXPECT_EQ(ran_on, loop.id);
  // A promise is waited for, on the loop.
  EXPECT_EQ(loop.gate.call([] { return kj::evalLater([] { return 8; }); }), 8);
  loop.finish();
}

TEST(IpcLoopGate, ACallAfterTheEndIsRefused) {
  LoopThread loop;
  loop.finish();
  try {
    loop.gate.call([] { return 1; });
    FAIL() << "a call ran after the loop ended";
  } catch (const kj::Exception& e) {
    EXPECT_EQ(e.getType(), kj::Exception::Type::DISCONNECTED);
  }
}

TEST(IpcLoopGate, AnExceptionInTheCallReachesTheCaller) {
  LoopThread loop;
  EXPECT_THROW(loop.gate.call([]() -> int { KJ_FAIL_REQUIRE("no"); }), kj::Exception);
  EXPECT_EQ(loop.gate.call([] { return 2; }), 2);
  loop.finish();
}

// Four hundred loops end while a caller calls as fast as it can; the loop's last polls vary so
// that its end falls at every point of a call. Each call is done or refused; none waits for good
// (CTest's time limit would end a hang).
TEST(IpcLoopGate, CallsRacingTheLoopsEndFinish) {
  long done = 0, refused = 0;
  for (int round = 0; round < 400; ++round) {
    LoopThread loop(round % 40 * 5);
    loop.ending = true;
    for (;;) {
      try {
        loop.gate.call([] { return 1; });
        ++done;
      } catch (const kj::Exception& e) {
        EXPECT_EQ(e.getType(), kj::Exception::Type::DISCONNECTED);
        ++refused;
        break;
      }
    }
    loop.thread.join();
  }
  EXPECT_EQ(refused, 400);
  EXPECT_GT(done, 0);
}

}  // namespace
}  // namespace webnn::ipc
