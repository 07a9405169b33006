// The context timeline: ordering, isolation between contexts, destroy with work pending. Every
// wait is on a future or latch; nothing measures time, and one test sleeps only to let the
// worker's poll run out.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <latch>
#include <mutex>
#include <thread>

#include "runtime/handles.hpp"
#include "runtime/timeline.hpp"
#include "runtime_fake_backend.hpp"

namespace webnn {
namespace {

using testing::FakeBackend;
using testing::Gate;
using testing::is_ready;
using testing::make_ir;
using testing::rejection_of;
using testing::to_bytes;
using testing::to_floats;

using testing::Fixture;
using testing::kDesc;
using testing::kInOut;

// Waits until the context's timeline has nothing queued or running (its last step's end is not
// signalled to callers: a read's promise settles inside the step).
void wait_until_idle(const MLContext& context) {
  while (!detail::impl_of(context)->timeline_idle()) std::this_thread::yield();
}

TEST(RuntimeTimeline, CreatedTensorIsZeroAndWriteThenReadRoundTrips) {
  Fixture f;
  EXPECT_EQ(f.read(f.a), (std::vector<float>{0, 0, 0, 0}));
  f.ctx.write_tensor(f.a, to_bytes({1.5f, -2, 3, 4}));
  EXPECT_EQ(f.read(f.a), (std::vector<float>{1.5f, -2, 3, 4}));
}

TEST(RuntimeTimeline, DispatchReadsItsInputsWhenItRunsNotWhenCalled) {
  Fixture f;
  f.ctx.write_tensor(f.a, to_bytes({1, 2, 3, 4}));
  f.ctx.write_tensor(f.b, to_bytes({10, 20, 30, 40}));
  f.dispatch();
  f.ctx.write_tensor(f.a, to_bytes({100, 100, 100, 100}));  // after the dispatch: not seen by it
  auto c1 = f.ctx.read_tensor(f.c);
  f.dispatch();  // sees the new a
  auto c2 = f.ctx.read_tensor(f.c);
  EXPECT_EQ(to_floats(c1.get()), (std::vector<float>{12, 23, 34, 45}));
  EXPECT_EQ(to_floats(c2.get()), (std::vector<float>{111, 121, 131, 141}));
  EXPECT_EQ(f.backend.runs.load(), 2);
}

TEST(RuntimeTimeline, DispatchesChainThroughTensors) {
  Fixture f;
  MLTensor d = f.ctx.create_tensor(kInOut);
  f.dispatch();                                                   // c = 0 + 0 + 1
  f.ctx.dispatch(f.graph, {{"a", f.c}, {"b", f.b}}, {{"c", d}});  // d = 1 + 0 + 1
  f.ctx.dispatch(f.graph, {{"a", d}, {"b", f.c}}, {{"c", f.a}});  // a = 2 + 1 + 1
  EXPECT_EQ(f.read(f.a), (std::vector<float>{4, 4, 4, 4}));
}

TEST(RuntimeTimeline, ReadIntoCallerBuffer) {
  Fixture f;
  f.ctx.write_tensor(f.a, to_bytes({1, 2, 3, 4}));
  std::vector<std::byte> out(16);
  f.ctx.read_tensor(f.a, out).get();
  EXPECT_EQ(to_floats(out), (std::vector<float>{1, 2, 3, 4}));
}

// The read completed by a callback: called once (on the timeline's thread, or on this one when
// the timeline had nothing left to run), with nullptr and the bytes in the caller's buffer.
TEST(RuntimeTimeline, CallbackReadDeliversOnceIntoTheCallerBuffer) {
  Fixture f;
  f.ctx.write_tensor(f.a, to_bytes({1, 2, 3, 4}));
  std::vector<std::byte> out(16);
  std::promise<std::exception_ptr> done;
  std::atomic<int> calls{0};
  f.ctx.read_tensor(f.a, out, [&](std::exception_ptr error) {
    ++calls;
    done.set_value(error);
  });
  EXPECT_EQ(done.get_future().get(), nullptr);
  EXPECT_EQ(to_floats(out), (std::vector<float>{1, 2, 3, 4}));
  f.ctx.read_tensor(f.a).get();  // a later step: no second call
  EXPECT_EQ(calls.load(), 1);
}

// What readTensor would reject with is thrown before anything is queued (the callback is never
// called); a tensor destroyed while the read waits calls it with InvalidStateError, at once.
TEST(RuntimeTimeline, CallbackReadErrors) {
  Fixture f;
  bool called = false;
  auto never = [&](std::exception_ptr) { called = true; };
  std::vector<std::byte> small(15);
  EXPECT_EQ(testing::error_of([&] { f.ctx.read_tensor(f.a, small, never); }), ErrorKind::kTypeError);
  EXPECT_EQ(testing::error_of([&] { f.ctx.read_tensor(f.a, small, nullptr); }), ErrorKind::kTypeError);

  Gate gate;
  detail::set_before_compute_hook(f.ctx, gate.hook());
  f.dispatch();
  std::vector<std::byte> out(16);
  std::exception_ptr error;
  int calls = 0;
  f.ctx.read_tensor(f.c, out, [&](std::exception_ptr e) {
    ++calls;
    error = e;
  });
  gate.wait_entered();
  f.c.destroy();  // rejects the pending read on this thread, while the compute is blocked
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(testing::error_of([&] { std::rethrow_exception(error); }), ErrorKind::kInvalidStateError);
  gate.open();
  EXPECT_EQ(testing::error_of([&] { f.ctx.read_tensor(f.c, out, never); }), ErrorKind::kTypeError);
  f.ctx.destroy();  // destroys its tensors too: as readTensor's promise, TypeError
  EXPECT_EQ(testing::error_of([&] { f.ctx.read_tensor(f.a, out, never); }), ErrorKind::kTypeError);
  EXPECT_FALSE(called);
  EXPECT_EQ(calls, 1);
}

TEST(RuntimeTimeline, ManyThreadsOnOneContextSeeTheirWritesInCallOrder) {
  Fixture f;
  constexpr int kThreads = 8, kRounds = 150;
  MLTensor shared = f.ctx.create_tensor({DataType::kFloat32, {1}, true, true});
  std::mutex order;  // makes "write then read" one unit in the shared tensor's call order
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  std::vector<int> wrong(kThreads, 0);
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      MLTensor own = f.ctx.create_tensor({DataType::kFloat32, {1}, true, true});
      start.arrive_and_wait();
      std::vector<std::pair<float, std::future<std::vector<std::byte>>>> own_reads, shared_reads;
      for (int k = 0; k < kRounds; ++k) {
        const float value = static_cast<float>(i * 1000 + k);
        f.ctx.write_tensor(own, to_bytes({value}));
        own_reads.emplace_back(value, f.ctx.read_tensor(own));
        std::lock_guard lock(order);
        f.ctx.write_tensor(shared, to_bytes({value}));
        shared_reads.emplace_back(value, f.ctx.read_tensor(shared));
      }
      for (auto& [value, read] : own_reads) wrong[i] += to_floats(read.get()) != std::vector<float>{value};
      for (auto& [value, read] : shared_reads) wrong[i] += to_floats(read.get()) != std::vector<float>{value};
    });
  for (auto& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(wrong[i], 0) << "thread " << i;
}

TEST(RuntimeTimeline, ManyContextsRunInParallel) {
  constexpr int kContexts = 6, kRounds = 50;
  std::vector<std::thread> threads;
  std::vector<int> wrong(kContexts, 0);
  for (int i = 0; i < kContexts; ++i)
    threads.emplace_back([&, i] {
      Fixture f;
      f.ctx.write_tensor(f.b, to_bytes({0, 0, 0, static_cast<float>(i)}));
      for (int k = 0; k < kRounds; ++k) {
        f.dispatch();                                                     // c = a + b + 1
        f.ctx.dispatch(f.graph, {{"a", f.c}, {"b", f.b}}, {{"c", f.a}});  // a = c + b + 1
      }
      // Each round adds 2 + 2 * b to a.
      const auto a = f.read(f.a);
      const float last = static_cast<float>(kRounds * (2 + 2 * i));
      wrong[i] = a != std::vector<float>{2 * kRounds, 2 * kRounds, 2 * kRounds, last};
    });
  for (auto& t : threads) t.join();
  for (int i = 0; i < kContexts; ++i) EXPECT_EQ(wrong[i], 0) << "context " << i;
}

TEST(RuntimeTimeline, BlockedComputeHoldsBackOnlyItsOwnContext) {
  Fixture fa, fb;
  Gate gate;
  detail::set_before_compute_hook(fa.ctx, gate.hook());
  fa.ctx.write_tensor(fa.a, to_bytes({1, 1, 1, 1}));
  fa.dispatch();
  auto held = fa.ctx.read_tensor(fa.c);
  auto held_input = fa.ctx.read_tensor(fa.a);  // queued behind the compute, though it only reads a
  gate.wait_entered();

  // Context B runs dispatches and reads to completion while A's compute is blocked.
  fb.ctx.write_tensor(fb.a, to_bytes({5, 6, 7, 8}));
  fb.dispatch();
  EXPECT_EQ(fb.read(fb.c), (std::vector<float>{6, 7, 8, 9}));
  EXPECT_FALSE(is_ready(held));
  EXPECT_FALSE(is_ready(held_input));

  gate.open();
  EXPECT_EQ(to_floats(held.get()), (std::vector<float>{2, 2, 2, 2}));
  EXPECT_EQ(to_floats(held_input.get()), (std::vector<float>{1, 1, 1, 1}));
}

TEST(RuntimeTimeline, DestroyWhileComputeInFlightRejectsPendingReadsAndAbortsQueuedSteps) {
  Fixture f;
  Gate gate;
  detail::set_before_compute_hook(f.ctx, gate.hook());
  auto lost = f.ctx.lost();
  f.dispatch();
  f.ctx.write_tensor(f.a, to_bytes({9, 9, 9, 9}));
  f.dispatch();
  auto read_c = f.ctx.read_tensor(f.c);
  auto read_a = f.ctx.read_tensor(f.a);
  std::vector<std::byte> out(16);
  auto read_into = f.ctx.read_tensor(f.c, out);
  gate.wait_entered();

  // destroy() waits for the running step, so it runs on another thread while the gate is shut.
  std::thread destroyer([&] { f.ctx.destroy(); });
  EXPECT_EQ(rejection_of(read_c), ErrorKind::kInvalidStateError);
  EXPECT_EQ(rejection_of(read_a), ErrorKind::kInvalidStateError);
  EXPECT_EQ(rejection_of(read_into), ErrorKind::kInvalidStateError);
  EXPECT_EQ(lost.get().message, "destroy() was called");
  gate.open();
  destroyer.join();

  // The blocked compute saw the loss and did not run; the second dispatch was aborted.
  EXPECT_EQ(f.backend.runs.load(), 0);
  EXPECT_TRUE(f.ctx.is_lost());
  EXPECT_TRUE(f.graph.is_destroyed());
  EXPECT_TRUE(f.a.is_destroyed());
  EXPECT_TRUE(f.c.is_destroyed());
}

TEST(RuntimeTimeline, CallsAfterDestroyFailAsTheSpecSays) {
  Fixture f;
  MLTensor k = f.ctx.create_constant_tensor(kDesc, to_bytes({1, 2, 3, 4}));
  f.ctx.destroy();
  f.ctx.destroy();  // idempotent
  using testing::error_of;
  // The graph and tensors were destroyed by the loss.
  EXPECT_EQ(error_of([&] { f.dispatch(); }), ErrorKind::kInvalidStateError);
  EXPECT_EQ(error_of([&] { f.ctx.write_tensor(f.a, to_bytes({1, 2, 3, 4})); }), ErrorKind::kTypeError);
  auto read = f.ctx.read_tensor(f.a);
  EXPECT_EQ(rejection_of(read), ErrorKind::kTypeError);
  EXPECT_EQ(error_of([&] { f.ctx.create_tensor(kInOut); }), ErrorKind::kInvalidStateError);
  EXPECT_EQ(error_of([&] {
              f.ctx.create_constant_tensor(kDesc, to_bytes({1, 2, 3, 4}));
            }),
            ErrorKind::kInvalidStateError);
  EXPECT_EQ(error_of([&] { detail::context_build_graph(f.ctx, make_ir({"a"}, {"c"}, kDesc)); }),
            ErrorKind::kInvalidStateError);
  EXPECT_EQ(error_of([&] { f.ctx.compute(f.graph, {}); }), ErrorKind::kInvalidStateError);
  EXPECT_EQ(error_of([&] { f.graph.placement(); }), ErrorKind::kInvalidStateError);
  EXPECT_TRUE(k.is_destroyed());
  EXPECT_TRUE(detail::context_is_lost(*detail::impl_of(f.ctx)));
  f.a.destroy();  // still harmless
  f.graph.destroy();
}

TEST(RuntimeTimeline, DestroyFromInsideAComputeDoesNotDeadlock) {
  Fixture f;
  std::weak_ptr<detail::ContextImpl> weak = detail::impl_of(f.ctx);
  std::promise<void> go;
  std::shared_future<void> queued = go.get_future().share();
  detail::set_before_compute_hook(f.ctx, [weak, queued] {
    queued.wait();  // until the read below is queued behind this compute
    detail::make_handle<MLContext>(weak.lock()).destroy();
  });
  auto lost = f.ctx.lost();
  f.dispatch();
  auto read = f.ctx.read_tensor(f.c);
  go.set_value();
  EXPECT_EQ(rejection_of(read), ErrorKind::kInvalidStateError);
  EXPECT_EQ(lost.get().message, "destroy() was called");
  EXPECT_EQ(f.backend.runs.load(), 0);
}

TEST(RuntimeTimeline, ComputeFromInsideATimelineStepThrowsInsteadOfDeadlocking) {
  Fixture f;
  std::weak_ptr<detail::ContextImpl> weak = detail::impl_of(f.ctx);
  std::optional<ErrorKind> inner;
  MLGraph graph = f.graph;
  detail::set_before_compute_hook(f.ctx, [&, weak] {
    detail::set_before_compute_hook(detail::make_handle<MLContext>(weak.lock()), {});
    inner = testing::error_of([&] { detail::make_handle<MLContext>(weak.lock()).compute(graph, {}); });
  });
  f.dispatch();
  f.read(f.c);  // the dispatch has run
  EXPECT_EQ(inner, ErrorKind::kInvalidStateError);
}

TEST(RuntimeTimeline, DestroyFromManyThreadsAtOnce) {
  Fixture f;
  Gate gate;
  detail::set_before_compute_hook(f.ctx, gate.hook());
  f.dispatch();
  auto read = f.ctx.read_tensor(f.c);
  gate.wait_entered();
  constexpr int kThreads = 8;
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&] {
      start.arrive_and_wait();
      f.ctx.destroy();
    });
  EXPECT_EQ(rejection_of(read), ErrorKind::kInvalidStateError);
  EXPECT_EQ(f.ctx.lost().get().message, "destroy() was called");
  gate.open();
  for (auto& t : threads) t.join();
}

TEST(RuntimeTimeline, DroppingTheLastHandleLetsQueuedWorkFinish) {
  auto backend = std::make_unique<FakeBackend>();
  std::future<std::vector<std::byte>> read;
  std::shared_future<MLContextLostInfo> lost;
  MLTensor c;
  {
    MLContext ctx = detail::create_context_with_backend(*backend);
    MLGraph graph = detail::context_build_graph(ctx, make_ir({"a", "b"}, {"c"}, kDesc));
    MLTensor a = ctx.create_tensor(kInOut);
    MLTensor b = ctx.create_tensor(kInOut);
    c = ctx.create_tensor(kInOut);
    ctx.write_tensor(a, to_bytes({1, 2, 3, 4}));
    ctx.dispatch(graph, {{"a", a}, {"b", b}}, {{"c", c}});
    read = ctx.read_tensor(c);
    lost = ctx.lost();
  }  // every handle to the context is gone here; the queued steps keep it alive until they ran
  EXPECT_EQ(to_floats(read.get()), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(lost.get().message, "the context was released");
  EXPECT_TRUE(c.is_destroyed());
  c.destroy();  // harmless without a context
}

TEST(RuntimeTimeline, TensorDestroyRejectsItsPendingReadsAtOnce) {
  Fixture f;
  Gate gate;
  detail::set_before_compute_hook(f.ctx, gate.hook());
  f.dispatch();
  auto read_c = f.ctx.read_tensor(f.c);
  std::vector<std::byte> out(16);
  auto read_c_into = f.ctx.read_tensor(f.c, out);
  auto read_a = f.ctx.read_tensor(f.a);
  gate.wait_entered();
  f.c.destroy();
  // Rejected while the compute ahead of them is still blocked.
  EXPECT_TRUE(is_ready(read_c));
  EXPECT_EQ(rejection_of(read_c), ErrorKind::kInvalidStateError);
  EXPECT_EQ(rejection_of(read_c_into), ErrorKind::kInvalidStateError);
  EXPECT_FALSE(is_ready(read_a));
  f.c.destroy();  // idempotent
  gate.open();
  EXPECT_EQ(to_floats(read_a.get()), (std::vector<float>{0, 0, 0, 0}));
  EXPECT_TRUE(f.c.is_destroyed());
  auto later = f.ctx.read_tensor(f.c);
  EXPECT_EQ(rejection_of(later), ErrorKind::kTypeError);
  EXPECT_EQ(testing::error_of([&] { f.ctx.write_tensor(f.c, to_bytes({1, 2, 3, 4})); }), ErrorKind::kTypeError);
  EXPECT_EQ(testing::error_of([&] { f.dispatch(); }), ErrorKind::kTypeError);
}

TEST(RuntimeTimeline, GraphDestroyLetsAlreadyQueuedDispatchesRun) {
  Fixture f;
  Gate gate;
  detail::set_before_compute_hook(f.ctx, gate.hook());
  f.ctx.write_tensor(f.a, to_bytes({1, 2, 3, 4}));
  f.dispatch();
  f.graph.destroy();
  EXPECT_TRUE(f.graph.is_destroyed());
  EXPECT_EQ(testing::error_of([&] { f.dispatch(); }), ErrorKind::kInvalidStateError);
  auto read = f.ctx.read_tensor(f.c);
  gate.open();
  EXPECT_EQ(to_floats(read.get()), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(testing::error_of([&] { f.graph.placement(); }), ErrorKind::kInvalidStateError);
}

TEST(RuntimeTimeline, FailedComputeLeavesOutputsUnreadableUntilRewritten) {
  Fixture f;
  f.backend.fail_runs = true;
  f.dispatch();
  auto failed = f.ctx.read_tensor(f.c);
  EXPECT_EQ(rejection_of(failed), ErrorKind::kOperationError);
  // A read made in the timeline's place (nothing left to run) rejects as one on the timeline.
  wait_until_idle(f.ctx);
  auto again = f.ctx.read_tensor(f.c);
  EXPECT_TRUE(is_ready(again));
  EXPECT_EQ(rejection_of(again), ErrorKind::kOperationError);
  // A dispatch reading the failed tensor does not compute from it either.
  MLTensor d = f.ctx.create_tensor(kInOut);
  f.backend.fail_runs = false;
  f.ctx.dispatch(f.graph, {{"a", f.c}, {"b", f.b}}, {{"c", d}});
  auto propagated = f.ctx.read_tensor(d);
  EXPECT_EQ(rejection_of(propagated), ErrorKind::kOperationError);
  f.dispatch();  // succeeds: c is valid again
  EXPECT_EQ(f.read(f.c), (std::vector<float>{1, 1, 1, 1}));
  f.ctx.write_tensor(d, to_bytes({7, 7, 7, 7}));  // a write makes d valid again
  EXPECT_EQ(f.read(d), (std::vector<float>{7, 7, 7, 7}));
}

TEST(RuntimeTimeline, ComputeRunsOnTheTimelineAndReturnsEveryOutput) {
  FakeBackend backend;
  MLContext ctx = detail::create_context_with_backend(backend);
  MLGraph graph = detail::context_build_graph(ctx, make_ir({"x", "y"}, {"p", "q"}, kDesc));
  NamedHostTensors inputs{{"x", {kDesc, to_bytes({1, 2, 3, 4})}}, {"y", {kDesc, to_bytes({0.5f, 0.5f, 0.5f, 0.5f})}}};
  NamedHostTensors out = ctx.compute(graph, inputs);
  ASSERT_EQ(out.size(), 2u);
  for (const char* name : {"p", "q"}) {
    EXPECT_EQ(out[name].desc, kDesc);
    EXPECT_EQ(to_floats(out[name].data), (std::vector<float>{2.5f, 3.5f, 4.5f, 5.5f}));
  }
}

TEST(RuntimeTimeline, ComputeAbortedByDestroyThrowsInvalidStateError) {
  Fixture f;
  Gate gate;
  detail::set_before_compute_hook(f.ctx, gate.hook());
  f.dispatch();
  gate.wait_entered();
  std::optional<ErrorKind> computed;
  std::promise<void> calling;
  std::thread computer([&] {
    calling.set_value();
    NamedHostTensors in{{"a", {kDesc, to_bytes({1, 1, 1, 1})}}, {"b", {kDesc, to_bytes({1, 1, 1, 1})}}};
    computed = testing::error_of([&] { f.ctx.compute(f.graph, in); });
  });
  calling.get_future().wait();
  // Either the compute was queued and is aborted, or it sees the lost context: both are the
  // spec's InvalidStateError.
  std::thread destroyer([&] { f.ctx.destroy(); });
  computer.join();
  gate.open();
  destroyer.join();
  EXPECT_EQ(computed, ErrorKind::kInvalidStateError);
}

// MLContextOptions::synchronous: the same timeline, its steps run by the calling thread before
// each call returns.
MLContext synchronous_context(const FakeBackend& backend) {
  MLContextOptions options;
  options.synchronous = true;
  return detail::create_context_with_backend(backend, options);
}

TEST(RuntimeTimeline, SynchronousContextRunsEachStepOnTheCallingThreadBeforeTheCallReturns) {
  FakeBackend backend;
  MLContext ctx = synchronous_context(backend);
  MLGraph graph = detail::context_build_graph(ctx, make_ir({"a", "b"}, {"c"}, kDesc));
  MLTensor a = ctx.create_tensor(kInOut), b = ctx.create_tensor(kInOut), c = ctx.create_tensor(kInOut);
  std::thread::id ran_on;
  detail::set_before_compute_hook(ctx, [&] { ran_on = std::this_thread::get_id(); });
  ctx.write_tensor(a, to_bytes({1, 2, 3, 4}));
  ctx.write_tensor(b, to_bytes({10, 20, 30, 40}));
  ctx.dispatch(graph, {{"a", a}, {"b", b}}, {{"c", c}});
  EXPECT_EQ(backend.runs.load(), 1);  // already run
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  ctx.write_tensor(a, to_bytes({100, 100, 100, 100}));  // after the dispatch: not seen by it
  auto read = ctx.read_tensor(c);
  EXPECT_TRUE(is_ready(read));
  EXPECT_EQ(to_floats(read.get()), (std::vector<float>{12, 23, 34, 45}));
  ctx.dispatch(graph, {{"a", a}, {"b", b}}, {{"c", c}});
  EXPECT_EQ(to_floats(ctx.read_tensor(c).get()), (std::vector<float>{111, 121, 131, 141}));
  // A failed compute leaves its output unreadable, as on the worker.
  backend.fail_runs = true;
  ctx.dispatch(graph, {{"a", a}, {"b", b}}, {{"c", c}});
  auto failed = ctx.read_tensor(c);
  EXPECT_EQ(rejection_of(failed), ErrorKind::kOperationError);
}

TEST(RuntimeTimeline, SynchronousContextRefusesAWaitFromInsideAStepAndMayBeDestroyedThere) {
  FakeBackend backend;
  MLContext ctx = synchronous_context(backend);
  MLGraph graph = detail::context_build_graph(ctx, make_ir({"a", "b"}, {"c"}, kDesc));
  MLTensor a = ctx.create_tensor(kInOut), b = ctx.create_tensor(kInOut), c = ctx.create_tensor(kInOut);
  std::optional<ErrorKind> nested;
  detail::set_before_compute_hook(ctx, [&] {
    NamedHostTensors in{{"a", {kDesc, to_bytes({1, 1, 1, 1})}}, {"b", {kDesc, to_bytes({1, 1, 1, 1})}}};
    nested = testing::error_of([&] { ctx.compute(graph, in); });
  });
  ctx.dispatch(graph, {{"a", a}, {"b", b}}, {{"c", c}});
  EXPECT_EQ(nested, ErrorKind::kInvalidStateError);
  EXPECT_EQ(to_floats(ctx.read_tensor(c).get()), (std::vector<float>{1, 1, 1, 1}));
  // Destroying the context from its own step: the call returns, and later calls see the loss.
  detail::set_before_compute_hook(ctx, [&] { ctx.destroy(); });
  auto lost = ctx.lost();
  ctx.dispatch(graph, {{"a", a}, {"b", b}}, {{"c", c}});
  ASSERT_EQ(lost.wait_for(std::chrono::seconds(0)), std::future_status::ready);
  EXPECT_EQ(lost.get().message, "destroy() was called");
  auto after = ctx.read_tensor(c);
  EXPECT_EQ(rejection_of(after), ErrorKind::kTypeError);  // the loss destroyed the tensor
  EXPECT_EQ(testing::error_of([&] {
              ctx.dispatch(graph, {{"a", a}, {"b", b}}, {{"c", c}});
            }),
            ErrorKind::kInvalidStateError);
}

// The worker polls for a while after each step before it sleeps (docs/runtime.md). A step queued
// at once after the last one ran (met by the poll), one queued well after (met by the wake-up),
// and one queued from inside a step all run, in order; closing ends a polling worker too. The one
// sleep only places the third step past the poll: the assertions hold with or without it.
TEST(RuntimeTimeline, WorkerRunsStepsQueuedWhileItPollsAndAfterItSleeps) {
  std::vector<int> ran;
  std::mutex mutex;
  detail::Timeline timeline;
  auto step = [&](int n) {
    auto done = std::make_shared<std::promise<void>>();
    auto future = done->get_future();
    EXPECT_TRUE(timeline.enqueue([&, n, done] {
      {
        std::lock_guard lock(mutex);
        ran.push_back(n);
      }
      done->set_value();
    }));
    return future;
  };
  step(1).get();
  step(2).get();  // the worker is still polling
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  step(3).get();  // the worker slept
  // The outer step queues the fifth only once the fourth is queued, so that 4 runs before 5.
  auto inner = std::make_shared<std::promise<void>>();
  std::promise<void> four_queued;
  std::future<void> four_is_queued = four_queued.get_future();
  EXPECT_TRUE(timeline.enqueue([&] {
    four_is_queued.wait();
    EXPECT_TRUE(timeline.enqueue([&] { ran.push_back(5), inner->set_value(); }));
  }));
  auto four = step(4);
  four_queued.set_value();
  inner->get_future().get();
  four.get();
  timeline.close();
  EXPECT_FALSE(timeline.enqueue([] {}));
  timeline.join();
  EXPECT_EQ(ran, (std::vector<int>{1, 2, 3, 4, 5}));
}

TEST(RuntimeTimeline, IdleOnlyWithNothingQueuedOrRunningAndOpen) {
  detail::Timeline timeline;
  EXPECT_TRUE(timeline.idle());
  std::promise<void> entered, release;
  std::shared_future<void> released = release.get_future().share();
  ASSERT_TRUE(timeline.enqueue([&] {
    entered.set_value();
    released.wait();
  }));
  entered.get_future().wait();
  EXPECT_FALSE(timeline.idle());  // a step runs, none is queued
  ASSERT_TRUE(timeline.enqueue([] {}));
  EXPECT_FALSE(timeline.idle());  // and one is queued
  release.set_value();
  while (!timeline.idle()) std::this_thread::yield();  // both ran
  timeline.close();
  EXPECT_FALSE(timeline.idle());
  timeline.join();
}

// With nothing left on the timeline, a read settles on the calling thread before the call
// returns (docs/runtime.md, "Steps in the timeline's place"); both forms.
TEST(RuntimeTimeline, ReadWithNothingQueuedSettlesBeforeTheCallReturns) {
  Fixture f;
  f.ctx.write_tensor(f.a, to_bytes({1, 2, 3, 4}));
  EXPECT_EQ(f.read(f.a), (std::vector<float>{1, 2, 3, 4}));
  wait_until_idle(f.ctx);
  std::vector<std::byte> out(16);
  std::thread::id called_on;
  int calls = 0;
  f.ctx.read_tensor(f.a, out, [&](std::exception_ptr error) {
    EXPECT_EQ(error, nullptr);
    called_on = std::this_thread::get_id();
    ++calls;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(called_on, std::this_thread::get_id());
  EXPECT_EQ(to_floats(out), (std::vector<float>{1, 2, 3, 4}));
  auto bytes = f.ctx.read_tensor(f.a);
  EXPECT_TRUE(is_ready(bytes));
  EXPECT_EQ(to_floats(bytes.get()), (std::vector<float>{1, 2, 3, 4}));
  // A write lands at once too: the next read sees it.
  f.ctx.write_tensor(f.a, to_bytes({5, 6, 7, 8}));
  EXPECT_EQ(f.read(f.a), (std::vector<float>{5, 6, 7, 8}));
}

// A write made while a compute runs is queued behind it, not copied into the tensor the compute
// reads; a read behind a held compute returns (its wait for the timeline is bounded) and settles
// once the compute has run, even after the graph has run before (its run time known and short).
TEST(RuntimeTimeline, WriteAndReadWhileAComputeRunsWaitForIt) {
  Fixture f;
  f.ctx.write_tensor(f.a, to_bytes({1, 1, 1, 1}));
  f.dispatch();
  EXPECT_EQ(f.read(f.c), (std::vector<float>{2, 2, 2, 2}));
  Gate gate;
  detail::set_before_compute_hook(f.ctx, gate.hook());
  f.dispatch();
  gate.wait_entered();
  f.ctx.write_tensor(f.a, to_bytes({7, 7, 7, 7}));
  auto held = f.ctx.read_tensor(f.c);
  std::vector<std::byte> out(16);
  std::atomic<int> calls{0};
  f.ctx.read_tensor(f.c, out, [&](std::exception_ptr) { ++calls; });
  EXPECT_FALSE(is_ready(held));
  EXPECT_EQ(calls.load(), 0);
  gate.open();
  EXPECT_EQ(to_floats(held.get()), (std::vector<float>{2, 2, 2, 2}));  // the compute saw a = 1
  EXPECT_EQ(f.read(f.a), (std::vector<float>{7, 7, 7, 7}));
  wait_until_idle(f.ctx);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(to_floats(out), (std::vector<float>{2, 2, 2, 2}));
}

}  // namespace
}  // namespace webnn
