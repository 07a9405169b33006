#include "backends/onednn/onednn_backend.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "backends/memory_plan.hpp"
#include "backends/onednn/eltwise.hpp"
#include "backends/onednn/omp_threads.hpp"
#include "backends/onednn/plan.hpp"

namespace webnn::onednn {

namespace {

// Primitives whose arguments hold fewer bytes run on one thread (OnednnExecutable::prepare_steps).
constexpr size_t kSmallStepBytes = size_t{64} << 10;

// 64-byte aligned bytes that are never reallocated.
class AlignedBuffer {
 public:
  void resize(size_t bytes) {
    storage_.assign(bytes + kAlignment, std::byte{0});
    const auto base = reinterpret_cast<uintptr_t>(storage_.data());
    data_ = storage_.data() + ((kAlignment - base % kAlignment) % kAlignment);
  }
  std::byte* data() const { return data_; }

 private:
  std::vector<std::byte> storage_;
  std::byte* data_ = nullptr;
};

// WEBNN_ONEDNN_PROFILE=FILE: every executable times its steps and, when it is destroyed, appends
// to FILE its time per run by what the steps compute (their labels; docs/onednn.md, "Profiling").
class Profile {
 public:
  using Clock = std::chrono::steady_clock;

  static std::unique_ptr<Profile> from_environment(const Plan& plan) {
    const char* path = std::getenv("WEBNN_ONEDNN_PROFILE");
    if (!path || !*path) return nullptr;
    return std::make_unique<Profile>(path, plan);
  }

  Profile(std::string path, const Plan& plan) : path_(std::move(path)), operations_(plan.graph->operations.size()) {
    for (const Step& step : plan.steps) step_label_.push_back(index_of(step.label));
  }
  Profile(const Profile&) = delete;
  Profile& operator=(const Profile&) = delete;

  void step(size_t index, Clock::duration d) { total_[step_label_[index]] += d; }
  // Time spent on the run outside the steps, under `label` (the input scan of GuardedExecutable).
  void extra(std::string_view label, Clock::duration d) {
    total_[index_of(std::string(label))] += d;
    run_total_ += d;
  }
  void run(Clock::duration d) {
    ++runs_;
    run_total_ += d;
  }

  ~Profile() {
    if (runs_ == 0) return;
    std::FILE* f = std::fopen(path_.c_str(), "a");
    if (!f) return;
    const auto us = [&](Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count() / runs_; };
    std::vector<size_t> order(labels_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return total_[a] > total_[b]; });
    Clock::duration steps{};
    for (const Clock::duration& d : total_) steps += d;
    std::fprintf(f, "# onednn plan: %zu operations, %zu steps, %zu runs; per run: %.1f us, steps %.1f us\n",
                 operations_, step_label_.size(), runs_, us(run_total_), us(steps));
    for (size_t i : order) {
      const size_t count = static_cast<size_t>(std::count(step_label_.begin(), step_label_.end(), i));
      std::fprintf(f, "%.1f\t%zu\t%s\n", us(total_[i]), count, labels_[i].c_str());
    }
    std::fclose(f);
  }

 private:
  size_t index_of(const std::string& label) {
    const auto it = std::find(labels_.begin(), labels_.end(), label);
    if (it != labels_.end()) return static_cast<size_t>(it - labels_.begin());
    labels_.push_back(label);
    total_.emplace_back();
    return labels_.size() - 1;
  }

  std::string path_;
  size_t operations_;
  std::vector<std::string> labels_;
  std::vector<Clock::duration> total_;  // by label
  std::vector<size_t> step_label_;      // by step
  size_t runs_ = 0;
  Clock::duration run_total_{};
};

// Runs a Plan. Everything a run needs is allocated here, once: the arena of intermediates, the
// scratchpad, the oneDNN memory objects and the argument arrays. A run binds the caller's buffers,
// then executes the steps in order.
class OnednnExecutable final : public Executable {
 public:
  explicit OnednnExecutable(std::unique_ptr<Plan> plan) : plan_(std::move(plan)), stream_(plan_->engine) {
    place_tensors();
    prepare_steps();
    profile_ = Profile::from_environment(*plan_);
  }

  Profile* profile() const { return profile_.get(); }
  bool guard_failed() const { return plan_->guard_failed; }

  void run(std::span<const std::byte* const> inputs, std::span<std::byte* const> outputs) override {
    const Graph& g = *plan_->graph;
    if (inputs.size() != g.inputs.size() || outputs.size() != g.outputs.size())
      throw_error(ErrorKind::kTypeError, "onednn backend: run() got " + std::to_string(inputs.size()) + " inputs and " +
                                             std::to_string(outputs.size()) + " outputs, the graph has " +
                                             std::to_string(g.inputs.size()) + " and " +
                                             std::to_string(g.outputs.size()));
    const Profile::Clock::time_point start = profile_ ? Profile::Clock::now() : Profile::Clock::time_point{};
    // The run may be on a thread of the caller's (a synchronous context runs its steps there),
    // whose own OpenMP setting it restores.
    const OmpThreads restore(threads_ = plan_->num_threads);
    bind(inputs, outputs);
    plan_->guard_failed = false;
    if (profile_) {
      for (size_t i = 0; i < prepared_.size(); ++i) {
        const Profile::Clock::time_point t = Profile::Clock::now();
        execute(prepared_[i]);
        profile_->step(i, Profile::Clock::now() - t);
      }
    } else {
      for (const Prepared& step : prepared_) execute(step);
    }
    stream_.wait();
    for (size_t i = 0; i < outputs.size(); ++i)
      if (staged_outputs_[i].data() && output_bytes_[i] != 0)
        std::memcpy(outputs[i], staged_outputs_[i].data(), output_bytes_[i]);
    if (profile_) profile_->run(Profile::Clock::now() - start);
  }

  std::vector<std::string> placement() const override { return plan_->placement; }

 private:
  struct Prepared {
    dnnl_primitive_t primitive = nullptr;
    std::vector<dnnl_exec_arg_t> args;
    const std::function<void()>* run = nullptr;
    int threads = 1;  // the OpenMP threads it runs with
  };

  void execute(const Prepared& step) {
    if (step.threads != threads_) omp_set_num_threads(threads_ = step.threads);
    if (step.run) {
      (*step.run)();
      return;
    }
    const dnnl_status_t status =
        dnnl_primitive_execute(step.primitive, stream_.get(), static_cast<int>(step.args.size()), step.args.data());
    if (status != dnnl_success)
      throw_error(ErrorKind::kOperationError,
                  "onednn backend: a primitive failed to execute (status " + std::to_string(int(status)) + ")");
  }

  TensorId root(TensorId t) const {
    while (plan_->tensors[t].view_of) t = *plan_->tensors[t].view_of;
    return t;
  }

  // Lifetimes of the arena tensors over the steps, then one arena for all of them.
  void place_tensors() {
    Plan& plan = *plan_;
    const size_t n = plan.tensors.size();
    std::vector<size_t> first(n, SIZE_MAX), last(n, 0);
    auto touch = [&](TensorId t, size_t step) {
      t = root(t);
      first[t] = std::min(first[t], step);
      last[t] = std::max(last[t], step);
    };
    for (size_t s = 0; s < plan.steps.size(); ++s) {
      for (const StepArg& a : plan.steps[s].args) touch(a.tensor, s);
      for (TensorId t : plan.steps[s].reads) touch(t, s);
      for (TensorId t : plan.steps[s].writes) touch(t, s);
    }
    std::vector<TensorId> arena_tensors;
    std::vector<BufferLifetime> lifetimes;
    for (TensorId t = 0; t < n; ++t) {
      const PlanTensor& x = plan.tensors[t];
      if (x.view_of || x.home != Home::kArena || first[t] == SIZE_MAX) continue;
      arena_tensors.push_back(t);
      lifetimes.push_back({x.bytes, first[t], last[t]});
    }
    const ArenaPlan arena = plan_arena(lifetimes, kAlignment);
    arena_.resize(arena.arena_bytes);
    for (size_t i = 0; i < arena_tensors.size(); ++i) plan.tensors[arena_tensors[i]].offset = arena.offsets[i];
    scratchpad_.resize(plan.scratchpad_bytes);
    arena_bytes_ = arena.arena_bytes;

    plan.ptr.assign(n, nullptr);
    for (TensorId t = 0; t < n; ++t) {
      const TensorId r = root(t);
      const PlanTensor& x = plan.tensors[r];
      switch (x.home) {
        case Home::kArena:
          plan.ptr[t] = arena_.data() + x.offset;
          break;
        case Home::kOwned:
          plan.ptr[t] = plan.owned[x.index]->data() + x.offset;
          break;
        case Home::kConstant:
          // Never written: kernels and primitives only read constants.
          plan.ptr[t] = const_cast<std::byte*>(plan.graph->constants[x.index].data.get()) + x.offset;
          break;
        case Home::kGraphInput:
        case Home::kGraphOutput:
          io_tensors_.push_back(t);  // bound at each run
          break;
      }
    }
    plan.values.assign(plan.graph->operands.size(), nullptr);
    for (OperandId id = 0; id < plan.plain_of.size(); ++id) {
      if (!plan.plain_of[id]) continue;
      const TensorId t = *plan.plain_of[id];
      const Home home = plan.tensors[root(t)].home;
      if (home == Home::kGraphInput || home == Home::kGraphOutput) {
        io_values_.push_back({id, t});
      } else {
        plan.values[id] = plan.ptr[t];
      }
    }
  }

  // The memory objects and C argument arrays of every primitive step.
  void prepare_steps() {
    Plan& plan = *plan_;
    for (Step& step : plan.steps) {
      Prepared p;
      if (step.run) {
        p.run = &step.run;  // our kernels and the reference's choose their threads themselves
        p.threads = plan.num_threads;
        prepared_.push_back(std::move(p));
        continue;
      }
      p.primitive = step.primitive.get();
      // A primitive over few bytes runs on this thread alone: its work takes less than waking the
      // others (each parallel region is a fork and a join, and under load a join waits for a
      // descheduled thread). Primitives that fixed their thread count when created keep it.
      size_t bytes = 0;
      for (const StepArg& a : step.args) bytes += a.md.get_size();
      p.threads = bytes < kSmallStepBytes ? 1 : plan.num_threads;
      for (const StepArg& a : step.args) {
        dnnl::memory mem(a.md, plan.engine, plan.ptr[a.tensor]);
        const Home home = plan.tensors[root(a.tensor)].home;
        if (home == Home::kGraphInput || home == Home::kGraphOutput) io_memories_.push_back({mem, a.tensor});
        p.args.push_back({a.arg, mem.get()});
        memories_.push_back(std::move(mem));
      }
      if (step.scratchpad_md.get_size() != 0) {
        dnnl::memory mem(step.scratchpad_md, plan.engine, scratchpad_.data());
        p.args.push_back({DNNL_ARG_SCRATCHPAD, mem.get()});
        memories_.push_back(std::move(mem));
      }
      prepared_.push_back(std::move(p));
    }
    const Graph& g = *plan.graph;
    staged_inputs_.resize(g.inputs.size());
    staged_outputs_.resize(g.outputs.size());
    output_bytes_.resize(g.outputs.size());
    for (size_t i = 0; i < g.outputs.size(); ++i)
      output_bytes_[i] = static_cast<size_t>(*g.desc(g.outputs[i].operand).byte_length());
  }

  // Points every graph-input and graph-output tensor at the caller's buffers (through an aligned
  // staging copy when a buffer is not aligned for its element type).
  void bind(std::span<const std::byte* const> inputs, std::span<std::byte* const> outputs) {
    Plan& plan = *plan_;
    const Graph& g = *plan.graph;
    std::vector<std::byte*>& in = bound_inputs_;
    std::vector<std::byte*>& out = bound_outputs_;
    in.assign(inputs.size(), nullptr);
    out.assign(outputs.size(), nullptr);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const OperandDescriptor& d = g.desc(g.inputs[i].operand);
      auto* p = const_cast<std::byte*>(inputs[i]);
      if (reinterpret_cast<uintptr_t>(p) % element_size(d.data_type) != 0) {
        const size_t bytes = static_cast<size_t>(*d.byte_length());
        staged_inputs_[i].resize(bytes);
        std::memcpy(staged_inputs_[i].data(), p, bytes);
        p = staged_inputs_[i].data();
      }
      in[i] = p;
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      const OperandDescriptor& d = g.desc(g.outputs[i].operand);
      std::byte* p = outputs[i];
      if (reinterpret_cast<uintptr_t>(p) % element_size(d.data_type) != 0) {
        staged_outputs_[i].resize(output_bytes_[i]);
        p = staged_outputs_[i].data();
      } else {
        staged_outputs_[i].clear();
        staged_outputs_[i].shrink_to_fit();
      }
      out[i] = p;
    }
    for (TensorId t : io_tensors_) {
      const PlanTensor& x = plan.tensors[root(t)];
      plan.ptr[t] = (x.home == Home::kGraphInput ? in[x.index] : out[x.index]) + x.offset;
    }
    for (IoMemory& m : io_memories_) m.memory.set_data_handle(plan.ptr[m.tensor]);
    for (const auto& [id, t] : io_values_) plan.values[id] = plan.ptr[t];
  }

  struct IoMemory {
    dnnl::memory memory;
    TensorId tensor;
  };

  std::unique_ptr<Plan> plan_;
  dnnl::stream stream_;
  AlignedBuffer arena_;
  AlignedBuffer scratchpad_;
  size_t arena_bytes_ = 0;
  std::vector<dnnl::memory> memories_;  // keeps the handles in prepared_ alive
  std::vector<Prepared> prepared_;
  std::vector<TensorId> io_tensors_;
  std::vector<IoMemory> io_memories_;
  std::vector<std::pair<OperandId, TensorId>> io_values_;
  std::vector<std::vector<std::byte>> staged_inputs_, staged_outputs_;
  std::vector<size_t> output_bytes_;
  std::vector<std::byte*> bound_inputs_, bound_outputs_;
  std::unique_ptr<Profile> profile_;  // WEBNN_ONEDNN_PROFILE
  int threads_ = 0;                   // the calling thread's OpenMP thread count, as last set
};

// The plan for inputs without NaN or infinities (activations fused into oneDNN post-ops, which
// turn NaN into numbers) and, when that plan relies on it, the plan for any inputs: each run scans
// its float inputs and takes the second, compiled on the first run that needs it, when one holds a
// NaN or an infinity. The first plan's softmaxes check their own outputs instead (a NaN there: a
// row masked whole, or a special value that came in), and a failed check runs the second plan too
// (docs/onednn.md, "NaN and infinities").
class GuardedExecutable final : public Executable {
 public:
  GuardedExecutable(std::shared_ptr<const Graph> graph, const CompileOptions& options)
      : graph_(std::move(graph)), options_(options) {
    std::unique_ptr<Plan> plan = compile_plan(graph_, options_, /*finite_inputs=*/true);
    scan_ = plan->needs_finite_inputs;
    fast_ = std::make_unique<OnednnExecutable>(std::move(plan));
  }

  void run(std::span<const std::byte* const> inputs, std::span<std::byte* const> outputs) override {
    bool special = false;
    if (scan_) {
      const Profile::Clock::time_point start = Profile::Clock::now();
      special = any_special(inputs);
      if (Profile* p = fast_->profile())
        p->extra("scan of the inputs for NaN and infinities", Profile::Clock::now() - start);
    }
    if (!special) {
      fast_->run(inputs, outputs);
      // A softmax's check found a NaN (Plan::assumes_finite_inputs): the other plan rewrites the
      // outputs from the same inputs (a dispatch never binds one buffer as input and output).
      if (!fast_->guard_failed()) return;
    }
    if (!any_) any_ = std::make_unique<OnednnExecutable>(compile_plan(graph_, options_, /*finite_inputs=*/false));
    any_->run(inputs, outputs);
  }

  std::vector<std::string> placement() const override { return fast_->placement(); }

 private:
  bool any_special(std::span<const std::byte* const> inputs) const {
    const Graph& g = *graph_;
    for (size_t i = 0; i < inputs.size() && i < g.inputs.size(); ++i) {
      const OperandDescriptor& d = g.desc(g.inputs[i].operand);
      const size_t count = static_cast<size_t>(*d.byte_length()) / element_size(d.data_type);
      if (has_nan_or_inf(inputs[i], count, d.data_type)) return true;
    }
    return false;
  }

  std::shared_ptr<const Graph> graph_;
  CompileOptions options_;
  bool scan_ = false;
  std::unique_ptr<OnednnExecutable> fast_;
  std::unique_ptr<OnednnExecutable> any_;  // for inputs holding NaN or infinities, made when needed
};

class OnednnBackend final : public Backend {
 public:
  std::string_view name() const override { return "onednn"; }
  bool accelerated() const override { return false; }
  std::unique_ptr<Executable> compile(std::shared_ptr<const Graph> graph,
                                      const CompileOptions& options) const override {
    if (!graph) throw_error(ErrorKind::kTypeError, "onednn backend: compile() needs a graph");
    return std::make_unique<GuardedExecutable>(std::move(graph), options);
  }
};

}  // namespace

const Backend& onednn_backend() {
  static const OnednnBackend backend;
  return backend;
}

}  // namespace webnn::onednn
