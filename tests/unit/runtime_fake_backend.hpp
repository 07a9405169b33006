// A test-only backend whose executables do something checkable without any real kernel:
// every float32 output element is 1 + the sum of the same element of every input. It counts runs
// and can be told to fail, so the timeline can be tested independently of the real backends.
#pragma once

#include <atomic>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/test_hooks.hpp"
#include "webnn/webnn.hpp"

namespace webnn::testing {

class FakeBackend final : public Backend {
 public:
  std::string_view name() const override { return "fake"; }
  bool accelerated() const override { return false; }
  std::unique_ptr<Executable> compile(std::shared_ptr<const Graph> graph, const CompileOptions& options) const override;

  mutable std::atomic<int> last_num_threads{-1};
  std::atomic<int> runs{0};
  std::atomic<bool> fail_runs{false};
  // Thrown by compile() when set (kind, message).
  std::optional<Error> compile_error;
};

class FakeExecutable final : public Executable {
 public:
  FakeExecutable(const FakeBackend& backend, std::shared_ptr<const Graph> graph)
      : backend_(const_cast<FakeBackend&>(backend)), graph_(std::move(graph)) {}
  void run(std::span<const std::byte* const> inputs, std::span<std::byte* const> outputs) override {
    backend_.runs.fetch_add(1);
    if (backend_.fail_runs.load()) throw Error(ErrorKind::kUnknownError, "fake: the run failed");
    for (size_t o = 0; o < outputs.size(); ++o) {
      const size_t n = *graph_->desc(graph_->outputs[o].operand).element_count();
      for (size_t e = 0; e < n; ++e) {
        float sum = 1.0f;
        for (const std::byte* in : inputs) {
          float v;
          std::memcpy(&v, in + e * sizeof(float), sizeof(float));
          sum += v;
        }
        std::memcpy(outputs[o] + e * sizeof(float), &sum, sizeof(float));
      }
    }
  }
  std::vector<std::string> placement() const override { return {"fake"}; }

 private:
  FakeBackend& backend_;
  std::shared_ptr<const Graph> graph_;
};

inline std::unique_ptr<Executable> FakeBackend::compile(std::shared_ptr<const Graph> graph,
                                                        const CompileOptions& options) const {
  last_num_threads = options.num_threads;
  if (compile_error) throw *compile_error;
  return std::make_unique<FakeExecutable>(*this, std::move(graph));
}

// An IR with the named inputs and outputs, all of `desc`, and no operations (the fake executable
// does not look at them).
inline std::shared_ptr<const Graph> make_ir(const std::vector<std::string>& inputs,
                                            const std::vector<std::string>& outputs, const OperandDescriptor& desc) {
  auto g = std::make_shared<Graph>();
  for (const std::string& name : inputs) {
    g->operands.push_back({desc, OperandKind::kInput, name, 0});
    g->inputs.push_back({name, static_cast<OperandId>(g->operands.size() - 1)});
  }
  for (const std::string& name : outputs) {
    g->operands.push_back({desc, OperandKind::kIntermediate, name, 0});
    g->outputs.push_back({name, static_cast<OperandId>(g->operands.size() - 1)});
  }
  return g;
}

inline std::vector<std::byte> to_bytes(const std::vector<float>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

inline std::vector<float> to_floats(const std::vector<std::byte>& bytes) {
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

// A before-compute hook that blocks the first compute until open() is called, and reports when
// that compute has reached it. The hook shares the gate's state, so it stays valid however the
// gate and the context are ordered; destroying the gate opens it.
class Gate {
 public:
  Gate() : state_(std::make_shared<State>()) {}
  ~Gate() { open(); }
  std::function<void()> hook() const {
    return [state = state_] {
      if (state->first.exchange(false)) {
        state->entered.set_value();
        state->released.wait();
      }
    };
  }
  void wait_entered() const { state_->entered_future.wait(); }
  void open() const {
    if (!state_->opened.exchange(true)) state_->release.set_value();
  }

 private:
  struct State {
    std::atomic<bool> first{true};
    std::atomic<bool> opened{false};
    std::promise<void> entered;
    std::shared_future<void> entered_future = entered.get_future().share();
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
  };
  std::shared_ptr<State> state_;
};

template <class T>
bool is_ready(const std::future<T>& f) {
  return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

// The ErrorKind a future rejects with (fails the test if it holds a value instead).
template <class T>
std::optional<ErrorKind> rejection_of(std::future<T>& f) {
  try {
    f.get();
  } catch (const Error& e) {
    return e.kind();
  }
  return std::nullopt;
}

template <class Fn>
std::optional<ErrorKind> error_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.kind();
  }
  return std::nullopt;
}

inline const OperandDescriptor kDesc{DataType::kFloat32, {2, 2}};
inline const MLTensorDescriptor kInOut{DataType::kFloat32, {2, 2}, true, true};

// A context on the fake backend with a graph c = a + b + 1 and tensors for it.
struct Fixture {
  FakeBackend backend;
  MLContext ctx = detail::create_context_with_backend(backend);
  MLGraph graph = detail::context_build_graph(ctx, make_ir({"a", "b"}, {"c"}, kDesc));
  MLTensor a = ctx.create_tensor(kInOut);
  MLTensor b = ctx.create_tensor(kInOut);
  MLTensor c = ctx.create_tensor(kInOut);
  void dispatch() { ctx.dispatch(graph, {{"a", a}, {"b", b}}, {{"c", c}}); }
  std::vector<float> read(const MLTensor& t) { return to_floats(ctx.read_tensor(t).get()); }
};

}  // namespace webnn::testing
