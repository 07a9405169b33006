// Lifetimes and threads through the C ABI: destroy vs release, read callbacks called exactly once
// (also when destroy rejects them, and never after webnn_context_destroy returns), calls made
// from inside a callback, and several threads building, dispatching and reading at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "capi/capi_internal.hpp"
#include "capi/capi_util.hpp"
#include "runtime/test_hooks.hpp"

namespace {

using namespace capi_test;

// Holds the context's timeline inside its next compute until open() is called.
class TimelineGate {
 public:
  explicit TimelineGate(WebnnContext* c) {
    webnn::detail::set_before_compute_hook(c->context, [this] {
      std::unique_lock lock(m_);
      entered_ = true;
      cv_.notify_all();
      cv_.wait(lock, [this] { return open_; });
    });
  }
  void wait_entered() {
    std::unique_lock lock(m_);
    cv_.wait(lock, [this] { return entered_; });
  }
  void open() {
    std::lock_guard lock(m_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool entered_ = false, open_ = false;
};

struct Calls {
  std::mutex m;
  std::condition_variable cv;
  std::vector<WebnnStatus> statuses;
  std::atomic<int> after_return{0};
  static void callback(WebnnStatus s, const char*, void* self) {
    auto* c = static_cast<Calls*>(self);
    std::lock_guard lock(c->m);
    c->statuses.push_back(s);
    c->cv.notify_all();
  }
  size_t count() {
    std::lock_guard lock(m);
    return statuses.size();
  }
  void wait_for(size_t n) {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return statuses.size() >= n; });
  }
};

struct PerRead {
  Calls* calls = nullptr;
  std::atomic<int> n{0};
  static void callback(WebnnStatus s, const char* msg, void* self) {
    auto* r = static_cast<PerRead*>(self);
    r->n.fetch_add(1);
    Calls::callback(s, msg, r->calls);
  }
};

TEST(CapiLifetime, ContextDestroyCallsEveryPendingReadBackOnceBeforeReturning) {
  Context c;
  Graph g;
  g.g = relu_add_graph(c, 4, 1.0f);
  Tensor x(c, WEBNN_DATA_TYPE_FLOAT32, {4}, true, true), y(c, WEBNN_DATA_TYPE_FLOAT32, {4}, true, true);
  const float v[4] = {1, 2, 3, 4};
  WEBNN_OK(webnn_context_write_tensor(c, x, v, sizeof(v)));
  TimelineGate gate(c);
  WebnnNamedTensor in{"x", x}, out{"y", y};
  WEBNN_OK(webnn_context_dispatch(c, g, &in, 1, &out, 1));
  gate.wait_entered();
  constexpr int kReads = 16;
  Calls calls;
  std::vector<PerRead> reads(kReads);
  std::vector<std::array<float, 4>> buffers(kReads);
  for (int i = 0; i < kReads; ++i) {
    reads[i].calls = &calls;
    WEBNN_OK(webnn_context_read_tensor_async(c, i % 2 ? x : y, buffers[i].data(), 16, &PerRead::callback, &reads[i]));
  }
  EXPECT_EQ(calls.count(), 0u);  // the timeline is held: nothing has completed
  std::thread destroyer([&] { EXPECT_EQ(webnn_context_destroy(c), WEBNN_STATUS_SUCCESS); });
  calls.wait_for(kReads);  // rejected before destroy waits for the running compute
  gate.open();
  destroyer.join();
  for (const PerRead& r : reads) EXPECT_EQ(r.n.load(), 1);
  for (WebnnStatus s : calls.statuses) EXPECT_EQ(s, WEBNN_STATUS_INVALID_STATE_ERROR);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (const PerRead& r : reads) EXPECT_EQ(r.n.load(), 1);  // and never again
}

TEST(CapiLifetime, TensorDestroyRejectsItsPendingReads) {
  Context c;
  Graph g;
  g.g = relu_add_graph(c, 4, 1.0f);
  Tensor x(c, WEBNN_DATA_TYPE_FLOAT32, {4}, true, true), y(c, WEBNN_DATA_TYPE_FLOAT32, {4}, true, true);
  TimelineGate gate(c);
  WebnnNamedTensor in{"x", x}, out{"y", y};
  WEBNN_OK(webnn_context_dispatch(c, g, &in, 1, &out, 1));
  gate.wait_entered();
  Calls calls;
  PerRead rx, ry;
  rx.calls = ry.calls = &calls;
  float bx[4], by[4];
  WEBNN_OK(webnn_context_read_tensor_async(c, x, bx, sizeof(bx), &PerRead::callback, &rx));
  WEBNN_OK(webnn_context_read_tensor_async(c, y, by, sizeof(by), &PerRead::callback, &ry));
  WEBNN_OK(webnn_tensor_destroy(x));
  EXPECT_EQ(rx.n.load(), 1);  // called before webnn_tensor_destroy returned
  EXPECT_EQ(calls.statuses.at(0), WEBNN_STATUS_INVALID_STATE_ERROR);
  gate.open();
  calls.wait_for(2);
  EXPECT_EQ(ry.n.load(), 1);
}

TEST(CapiLifetime, ReleaseLetsQueuedWorkComplete) {
  WebnnContextOptions o;
  webnn_context_options_init(&o);
  o.backend = "reference";
  WebnnContext* c = nullptr;
  WEBNN_OK(webnn_context_create(&o, &c));
  WebnnGraph* g = relu_add_graph(c, 2, 0.5f);
  WebnnTensor *x = nullptr, *y = nullptr;
  const uint32_t shape[1] = {2};
  WebnnTensorDescriptor d{WEBNN_DATA_TYPE_FLOAT32, shape, 1, true, true};
  WEBNN_OK(webnn_context_create_tensor(c, &d, &x));
  WEBNN_OK(webnn_context_create_tensor(c, &d, &y));
  const float v[2] = {1, -3};
  WEBNN_OK(webnn_context_write_tensor(c, x, v, sizeof(v)));
  WebnnNamedTensor in{"x", x}, out{"y", y};
  WEBNN_OK(webnn_context_dispatch(c, g, &in, 1, &out, 1));
  Calls calls;
  float result[2] = {-1, -1};
  WEBNN_OK(webnn_context_read_tensor_async(c, y, result, sizeof(result), &Calls::callback, &calls));
  // Drop every handle at once; the queued write, dispatch and read still run.
  WEBNN_OK(webnn_graph_release(g));
  WEBNN_OK(webnn_tensor_release(x));
  WEBNN_OK(webnn_tensor_release(y));
  WEBNN_OK(webnn_context_release(c));
  calls.wait_for(1);
  EXPECT_EQ(calls.statuses[0], WEBNN_STATUS_SUCCESS);
  EXPECT_EQ(result[0], 1.5f);
  EXPECT_EQ(result[1], 0.0f);
}

struct Reentrant {
  WebnnContext* context = nullptr;
  WebnnTensor* tensor = nullptr;
  WebnnStatus blocking_read = WEBNN_STATUS_SUCCESS;
  std::string message;
  std::promise<void> done;
  static void callback(WebnnStatus, const char*, void* self) {
    auto* r = static_cast<Reentrant*>(self);
    float b[2];
    r->blocking_read = webnn_context_read_tensor(r->context, r->tensor, b, sizeof(b));
    r->message = webnn_last_error_message();
    webnn_tensor_destroy(r->tensor);    // the tensor whose read this is: no deadlock
    webnn_context_destroy(r->context);  // from the timeline worker: does not wait on itself
    r->done.set_value();
  }
};

TEST(CapiLifetime, CallsFromInsideACallback) {
  Context c;
  Tensor t(c, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true);
  const float v[2] = {1, 2};
  WEBNN_OK(webnn_context_write_tensor(c, t, v, sizeof(v)));
  Reentrant r;
  r.context = c;
  r.tensor = t;
  float out[2];
  WEBNN_OK(webnn_context_read_tensor_async(c, t, out, sizeof(out), &Reentrant::callback, &r));
  r.done.get_future().wait();
  EXPECT_EQ(r.blocking_read, WEBNN_STATUS_INVALID_STATE_ERROR);
  EXPECT_NE(r.message.find("callback"), std::string::npos) << r.message;
  bool lost = false;
  WEBNN_OK(webnn_context_is_lost(c, &lost));
  EXPECT_TRUE(lost);
}

TEST(CapiLifetime, LostCallbackRunsOnce) {
  std::atomic<int> lost{0};
  WebnnContextOptions o;
  webnn_context_options_init(&o);
  o.backend = "reference";
  o.lost_callback = [](const char* message, void* n) {
    EXPECT_NE(std::string(message).find("destroyed"), std::string::npos);
    static_cast<std::atomic<int>*>(n)->fetch_add(1);
  };
  o.lost_userdata = &lost;
  WebnnContext* c = nullptr;
  WEBNN_OK(webnn_context_create(&o, &c));
  EXPECT_EQ(lost.load(), 0);
  WEBNN_OK(webnn_context_destroy(c));
  WEBNN_OK(webnn_context_destroy(c));
  EXPECT_EQ(lost.load(), 1);
  WEBNN_OK(webnn_context_release(c));
}

TEST(CapiLifetime, HandlesOutliveTheirBuilderAndContextHandle) {
  WebnnContext* c = nullptr;
  WebnnContextOptions o;
  webnn_context_options_init(&o);
  o.backend = "reference";
  WEBNN_OK(webnn_context_create(&o, &c));
  WebnnGraphBuilder* b = nullptr;
  WEBNN_OK(webnn_graph_builder_create(c, &b));
  WEBNN_OK(webnn_context_release(c));  // the builder keeps the context alive
  F32 d = f32({2});
  WebnnOperand *x = nullptr, *y = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "x", &d, &x));
  WEBNN_OK(webnn_graph_builder_neg(b, x, nullptr, &y));
  WebnnNamedOperand named{"y", y};
  WebnnGraph* g = nullptr;
  WEBNN_OK(webnn_graph_builder_build(b, &named, 1, &g));
  WEBNN_OK(webnn_graph_builder_release(b));  // the graph outlives its builder
  size_t n = 0;
  WEBNN_OK(webnn_graph_input_count(g, &n));
  EXPECT_EQ(n, 1u);
  WEBNN_OK(webnn_graph_release(g));
}

// Several threads build, dispatch and read, on one shared context and on contexts of their own.
TEST(CapiThreads, BuildDispatchAndReadFromManyThreads) {
  Context shared;
  constexpr int kThreads = 6, kRounds = 8;
  std::atomic<int> failures{0};
  auto work = [&](int id, WebnnContext* context) {
    for (int round = 0; round < kRounds; ++round) {
      const float k = static_cast<float>(id * 100 + round);
      WebnnGraph* g = relu_add_graph(context, 3, k);
      Tensor x(context, WEBNN_DATA_TYPE_FLOAT32, {3}, false, true),
          y(context, WEBNN_DATA_TYPE_FLOAT32, {3}, true, false);
      const float v[3] = {1, 2, 3};
      float out[3] = {};
      WebnnNamedTensor in{"x", x}, o{"y", y};
      bool ok = g && webnn_context_write_tensor(context, x, v, sizeof(v)) == WEBNN_STATUS_SUCCESS &&
                webnn_context_dispatch(context, g, &in, 1, &o, 1) == WEBNN_STATUS_SUCCESS;
      if (ok && round % 2) {
        ok = webnn_context_read_tensor(context, y, out, sizeof(out)) == WEBNN_STATUS_SUCCESS;
      } else if (ok) {
        Calls calls;
        ok = webnn_context_read_tensor_async(context, y, out, sizeof(out), &Calls::callback, &calls) ==
             WEBNN_STATUS_SUCCESS;
        if (ok) {
          calls.wait_for(1);
          ok = calls.statuses[0] == WEBNN_STATUS_SUCCESS;
        }
      }
      ok = ok && out[0] == 1 + k && out[2] == 3 + k;
      if (!ok) failures.fetch_add(1);
      webnn_graph_release(g);
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) threads.emplace_back(work, i, shared.c);
  for (int i = 0; i < 2; ++i)
    threads.emplace_back([&, i] {
      Context own;
      work(kThreads + i, own);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

// Reads started from several threads while another destroys the context: each callback once.
TEST(CapiThreads, ConcurrentReadsAndDestroy) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    Context c;
    Tensor t(c, WEBNN_DATA_TYPE_FLOAT32, {64}, true, true);
    std::vector<float> v(64, 1.0f);
    WEBNN_OK(webnn_context_write_tensor(c, t, v.data(), 256));
    constexpr int kThreads = 4, kReads = 25;
    Calls calls;
    std::vector<std::vector<PerRead>> reads(kThreads);
    std::vector<std::vector<std::vector<float>>> buffers(kThreads);
    std::atomic<int> started{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
      reads[i] = std::vector<PerRead>(kReads);
      buffers[i].assign(kReads, std::vector<float>(64));
      threads.emplace_back([&, i] {
        for (int j = 0; j < kReads; ++j) {
          reads[i][j].calls = &calls;
          if (webnn_context_read_tensor_async(c, t, buffers[i][j].data(), 256, &PerRead::callback, &reads[i][j]) ==
              WEBNN_STATUS_SUCCESS)
            started.fetch_add(1);
        }
      });
    }
    std::thread destroyer([&] { webnn_context_destroy(c); });
    for (auto& th : threads) th.join();
    destroyer.join();
    // Reads started before the destroy were settled by it or ran; later ones failed to start.
    calls.wait_for(static_cast<size_t>(started.load()));
    int total = 0;
    for (auto& per_thread : reads)
      for (PerRead& r : per_thread) {
        EXPECT_LE(r.n.load(), 1);
        total += r.n.load();
      }
    EXPECT_EQ(total, started.load());
  }
}

}  // namespace
