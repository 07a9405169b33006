// Compiles a graph into a plan (plan.hpp): decides what fuses (fusion.hpp, quantized.hpp), then
// lowers the operations in graph order, each by the first candidate of its list (impl_list.hpp)
// that takes it, else by its reference kernel. The lowerings live by family in lower_*.cpp
// (lowering.hpp); the layout planner (layout_planner.hpp) keeps each value's tensors and the
// reorders between them.
#include <omp.h>

#include <memory>
#include <string>

#include "backends/onednn/float16.hpp"
#include "backends/onednn/fusion.hpp"
#include "backends/onednn/impl_list.hpp"
#include "backends/onednn/layout_planner.hpp"
#include "backends/onednn/lowering.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/omp_threads.hpp"
#include "backends/onednn/plan.hpp"
#include "backends/onednn/quantized.hpp"
#include "backends/onednn/rewrite.hpp"

namespace webnn::onednn {

const dnnl::engine& cpu_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

namespace {

// Whether the graph's convolutions are blocked: it has one that runs on Winograd kernels.
bool blocked_convs(const Graph& g, const std::vector<uint8_t>& specials) {
  for (size_t i = 0; i < g.operations.size(); ++i)
    if (winograd_candidate(g, specials, i)) return true;
  return false;
}

class Compiler {
 public:
  Compiler(std::shared_ptr<const Graph> graph, const CompileOptions& options, bool finite_inputs)
      : g_(*graph),
        plan_(std::make_unique<Plan>()),
        specials_(may_hold_specials(g_, !finite_inputs, /*rows_not_masked_whole=*/finite_inputs)),
        fusion_(g_, specials_),
        quantized_(g_, fusion_),
        layout_(g_, *plan_, fusion_),
        cx_{g_, *plan_, layout_, fusion_, quantized_, specials_, blocked_convs(g_, specials_), {}} {
    cx_.lower = [this](size_t index) { lower(index); };
    plan_->graph = std::move(graph);
    plan_->engine = cpu_engine();
    plan_->num_threads = options.num_threads > 0 ? options.num_threads : omp_get_num_procs();
    plan_->placement.assign(g_.operations.size(), "reference");
    plan_->needs_finite_inputs = fusion_.fused_activation() || cx_.blocked_convs;
    plan_->assumes_finite_inputs = finite_inputs;
  }

  std::unique_ptr<Plan> compile() {
    for (size_t i = 0; i < g_.operations.size(); ++i) {
      if (fusion_.fused_into(i) != kNone || quantized_.absorbed(i)) continue;  // lowered with its anchor
      lower(i);
    }
    layout_.bind_graph_outputs();
    return std::move(plan_);
  }

 private:
  // The first candidate of the operation's list that takes it, else its reference kernel.
  void lower(size_t index) {
    const std::string op(op_name(g_.operations[index].kind));
    for (const Candidate& candidate : candidates(g_.operations[index].kind)) {
      plan_->label = op + " / " + std::string(candidate.name);
      if (!lowers(candidate, index)) continue;
      plan_->placement[index] = "onednn";
      for (size_t fused : fusion_.chain(index)) plan_->placement[fused] = "onednn";
      return;
    }
    fusion_.unfuse(index);
    plan_->label = op + " / reference kernel";
    lower_reference(cx_, index);
  }

  bool lowers(const Candidate& candidate, size_t index) {
    if (candidate.operands == Operands::kFloat32 && !all_float32(g_.operations[index])) return false;
    try {
      return candidate.lower(cx_, index);
    } catch (const dnnl::error&) {
      return false;  // oneDNN has no implementation for these shapes or options
    }
  }

  bool all_float32(const Operation& op) const {
    bool all = true;
    for_each_input(op, [&](OperandId id) { all = all && is_f32(g_.desc(id)); });
    for (OperandId id : op.outputs) all = all && is_f32(g_.desc(id));
    return all;
  }

  const Graph& g_;
  std::unique_ptr<Plan> plan_;
  std::vector<uint8_t> specials_;  // by OperandId: the Special kinds it may hold (may_hold_specials)
  Fusion fusion_;
  QuantizedFusion quantized_;
  LayoutPlanner layout_;
  LowerContext cx_;
};

}  // namespace

// A graph whose every operand is small and whose operands hold few elements in all runs on one
// thread: its work takes microseconds, less than waking the other threads (OpenMP's passive
// wait, as `webnn serve` runs, costs tens of microseconds per parallel region).
bool runs_on_one_thread(const Graph& g) {
  constexpr uint64_t kLargestOperand = 4096, kAllOperands = 32768;
  uint64_t all = 0;
  for (const Operand& operand : g.operands) {
    const uint64_t n = operand.desc.element_count().value_or(UINT64_MAX);
    if (n >= kLargestOperand) return false;
    all += n;
  }
  return all < kAllOperands;
}

std::unique_ptr<Plan> compile_plan(std::shared_ptr<const Graph> graph, const CompileOptions& given,
                                   bool finite_inputs) {
  CompileOptions options = given;
  options.num_threads = runs_on_one_thread(*graph) ? 1
                        : given.num_threads > 0    ? given.num_threads
                                                   : omp_get_num_procs();
  // oneDNN sizes its work decomposition by the thread count at creation: create with the count
  // the plan runs with, and leave the caller's OpenMP setting as it was.
  const OmpThreads threads(options.num_threads);
  // The plan runs the rewritten graph (rewrite.hpp) with its float16 operations computed in
  // float32 (float16.hpp), and reports placement by the caller's operations.
  const Rewritten rewritten = rewrite(std::move(graph));
  const size_t operations = rewritten.graph->operations.size();
  const Float16Widening widened = widen_float16(rewritten.graph);
  std::unique_ptr<Plan> plan = Compiler(widened.graph, options, finite_inputs).compile();
  plan->placement = rewritten.original_placement(widened.original_placement(plan->placement, operations));
  return plan;
}

}  // namespace webnn::onednn
