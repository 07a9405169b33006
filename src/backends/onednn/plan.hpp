// The compiled form of a graph on the onednn backend: tensors (operand values in a given memory
// layout, each with a home for its bytes) and the steps that run in order. Built once by
// compile_plan() (compiler.cpp, with the lowerings of lower_*.cpp and the layout planner); run many
// times by the executable (onednn_backend.cpp).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/reference/kernels.hpp"
#include "graph/graph.hpp"

namespace webnn::onednn {

// The alignment of every buffer the plan allocates (a cache line; AVX-512's vector).
inline constexpr size_t kAlignment = kBufferAlignment;

using TensorId = size_t;

// Where a tensor's bytes live.
enum class Home : uint8_t {
  kArena,        // an intermediate: `offset` into the arena, placed by the memory planner
  kOwned,        // bytes the plan owns for its whole life (reordered constant weights): owned[index]
  kConstant,     // a graph constant, read in place: graph.constants[index] (never written)
  kGraphInput,   // the caller's buffer of graph input `index`, bound at each run
  kGraphOutput,  // the caller's buffer of graph output `index`, bound at each run
};

struct PlanTensor {
  OperandId operand = 0;   // the operand whose value it holds (scratch tensors: none, see below)
  bool scratch = false;    // holds no operand (layer normalization statistics, weight layouts)
  OperandDescriptor desc;  // the operand's type and logical shape
  // The memory layout. Plain row-major unless `md` says otherwise; only float32 tensors are ever
  // blocked (oneDNN has no int64/uint64/uint32 memory, so they stay plain and `md` stays empty).
  dnnl::memory::desc md;
  // The tensor's axis of each logical dimension of `md` (empty: the identity). An NHWC tensor
  // seen by a convolution has md dims (N, C, H, W) and axes {0, 3, 1, 2}.
  std::vector<int> axes;
  // Whether the bytes are the row-major layout of `desc` (what reference kernels and callers use).
  bool plain = true;
  size_t bytes = 0;
  Home home = Home::kArena;
  size_t index = 0;   // owned / constant / graph input / graph output index
  size_t offset = 0;  // byte offset into the home (arena offset, or into a buffer it views)
  // A view of another tensor's bytes (reshape): the root tensor whose home and lifetime it shares.
  std::optional<TensorId> view_of;
};

// One argument of a primitive: the tensor, seen through `md` (its own layout, or a view of it).
struct StepArg {
  int arg = 0;  // DNNL_ARG_*
  TensorId tensor = 0;
  dnnl::memory::desc md;
};

// One step of the plan: a oneDNN primitive, or (when `run` is set) a reference kernel or a copy.
struct Step {
  dnnl::primitive primitive;
  std::vector<StepArg> args;  // DNNL_ARG_DST / DNNL_ARG_TO is what it writes, the rest it reads
  dnnl::memory::desc scratchpad_md;
  std::function<void()> run;
  std::vector<TensorId> reads;  // of `run` steps, for liveness
  std::vector<TensorId> writes;
  std::string label;  // what it computes, for profiles: "<op> / <implementation>", "reorder", ...
};

struct Plan {
  std::shared_ptr<const Graph> graph;
  dnnl::engine engine;
  std::vector<PlanTensor> tensors;
  std::vector<Step> steps;
  // Home::kOwned storage (64-byte aligned by allocation). What derives from constant bytes is
  // shared with the other plans that derive the same (derived_bytes.hpp).
  std::vector<std::shared_ptr<std::vector<std::byte>>> owned;
  size_t scratchpad_bytes = 0;
  // Per OperandId: the plain tensor reference kernels read and write (or none), so the value table
  // the reference kernels index by OperandId can be filled.
  std::vector<std::optional<TensorId>> plain_of;
  // The bytes of each tensor, set by the executable (graph inputs and outputs at every run).
  std::vector<std::byte*> ptr;
  // The reference kernels of fallback steps index this table by OperandId; filled by the
  // executable from plain_of and ptr.
  std::vector<std::byte*> values;
  std::vector<std::string> placement;  // by operation: "onednn" or "reference"
  // The label of the steps being added (the compiler sets it per operation and candidate).
  std::string label;
  int num_threads = 1;
  // Whether the plan gives the reference's results only when no graph input holds a NaN or an
  // infinity: it has activations fused into oneDNN post-ops, oneDNN max pools or Winograd
  // convolutions where the inputs can reach them (docs/onednn.md, "NaN and infinities").
  bool needs_finite_inputs = false;
  // Whether the plan was compiled for finite inputs (the executable's first plan). Such a plan
  // runs oneDNN's softmax, which gives 0 beside a NaN or a +Infinity where the reference gives a
  // row of NaN, wherever the analysis says none can reach it, and assumes that no row of a masked
  // softmax (input holding -Infinity) is -Infinity whole (may_hold_specials'
  // rows_not_masked_whole). A step after each such softmax checks its output: a NaN there (which
  // either a NaN or infinity from the inputs or a row masked whole leaves) sets `guard_failed`,
  // and the executable runs the dispatch again on the plan for any inputs (onednn_backend.cpp).
  bool assumes_finite_inputs = false;
  bool guard_failed = false;  // set by those steps during a run; cleared when a run starts
};

// Builds the plan; throws NotSupportedError naming an op that neither oneDNN nor the reference
// kernels can run. `finite_inputs`: the plan may assume that no graph input holds a NaN or an
// infinity (the executable checks each run's inputs and runs the other plan when one does).
std::unique_ptr<Plan> compile_plan(std::shared_ptr<const Graph> graph, const CompileOptions& options,
                                   bool finite_inputs);

// The CPU engine shared by every plan.
const dnnl::engine& cpu_engine();

}  // namespace webnn::onednn
