#include "backends/onednn/layout_planner.hpp"

#include <cstring>
#include <string>

#include "backends/onednn/derived_bytes.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "backends/onednn/omp_threads.hpp"
#include "backends/onednn/steps.hpp"

namespace webnn::onednn {

using dnnl::memory;

LayoutPlanner::LayoutPlanner(const Graph& graph, Plan& plan, const Fusion& fusion)
    : g_(graph), plan_(plan), fusion_(fusion) {
  primary_.assign(g_.operands.size(), kNone);
  variants_.resize(g_.operands.size());
  plan_.plain_of.assign(g_.operands.size(), std::nullopt);
  first_output_.assign(g_.operands.size(), kNone);
  for (size_t i = g_.outputs.size(); i-- > 0;) first_output_[g_.outputs[i].operand] = i;
}

memory::desc LayoutPlanner::plain_md(OperandId id, const std::vector<int>& axes) const {
  return plain_view(g_.desc(id).shape, axes, *onednn_type(g_.desc(id).data_type));
}

memory::desc LayoutPlanner::primary_md(OperandId id, const std::vector<int>& axes) {
  const PlanTensor& t = tensor(primary(id));
  return t.axes == axes ? t.md : plain_md(id, axes);
}

memory::desc LayoutPlanner::retyped(memory::desc md, OperandId id) const {
  md.data.data_type = static_cast<dnnl_data_type_t>(*onednn_type(g_.desc(id).data_type));
  return md;
}

TensorId LayoutPlanner::add_tensor(PlanTensor t) {
  plan_.tensors.push_back(std::move(t));
  return plan_.tensors.size() - 1;
}

size_t LayoutPlanner::add_owned(std::span<const std::byte> bytes) {
  plan_.owned.push_back(std::make_shared<std::vector<std::byte>>(bytes.begin(), bytes.end()));
  return plan_.owned.size() - 1;
}

TensorId LayoutPlanner::primary(OperandId id) {
  if (primary_[id] != kNone) return primary_[id];
  const Operand& operand = g_.operands[id];
  PlanTensor t;
  t.operand = id;
  t.desc = operand.desc;
  t.bytes = static_cast<size_t>(*operand.desc.byte_length());
  if (has_md(t.desc)) t.md = plain_md(id);
  if (operand.kind == OperandKind::kInput) {
    t.home = Home::kGraphInput;
    for (size_t i = 0; i < g_.inputs.size(); ++i)
      if (g_.inputs[i].operand == id) t.index = i;
  } else if (operand.kind == OperandKind::kConstant) {
    const BufferRef& data = g_.constant_data(id);
    if (reinterpret_cast<uintptr_t>(data.data.get()) % kAlignment == 0) {
      t.home = Home::kConstant;
      t.index = operand.constant_index;
    } else {  // weights files need not align tensors: one aligned copy, shared by the plans
      t.home = Home::kOwned;
      t.index = plan_.owned.size();
      plan_.owned.push_back(derived_bytes({data.data, data.data.get(), {}, {}, data.size},
                                          [&](std::byte* out) { std::memcpy(out, data.data.get(), data.size); }));
    }
  } else {
    throw_error(ErrorKind::kOperationError,
                "onednn backend: operand " + std::to_string(id) + " is used before it is computed");
  }
  return primary_[id] = add_tensor(std::move(t));
}

TensorId LayoutPlanner::define(OperandId id, const memory::desc& md, std::vector<int> axes, bool aligned) {
  PlanTensor t;
  t.operand = id;
  t.desc = g_.desc(id);
  t.bytes = static_cast<size_t>(*t.desc.byte_length());
  if (has_md(t.desc)) {
    t.md = md;
    t.axes = std::move(axes);
    t.plain = md == plain_md(id, t.axes);
    // A blocked layout pads its channels to whole blocks (2 channels take a block of 8 or 16):
    // the buffer is what the layout spans, not the logical size.
    t.bytes = std::max(t.bytes, md.get_size());
  }
  if (t.plain && first_output_[id] != kNone && !aligned) {
    t.home = Home::kGraphOutput;
    t.index = first_output_[id];
  }
  return primary_[id] = add_tensor(std::move(t));
}

TensorId LayoutPlanner::in_layout(OperandId id, const memory::desc& md, const std::vector<int>& axes) {
  if (md == plain_md(id, axes)) return plain(id);
  const TensorId p = primary(id);
  if (same_layout(p, md, axes)) return p;
  for (TensorId v : variants_[id])
    if (same_layout(v, md, axes)) return v;
  // From the primary tensor when it has these axes, else from the plain bytes seen through them.
  const bool direct = plan_.tensors[p].axes == axes;
  const TensorId src = direct ? p : plain(id);
  return add_variant(id, src, direct ? plan_.tensors[p].md : plain_md(id, axes), md, axes);
}

TensorId LayoutPlanner::plain(OperandId id) {
  const TensorId p = primary(id);
  TensorId t = plan_.tensors[p].plain ? p : kNone;
  for (TensorId v : variants_[id])
    if (t == kNone && plan_.tensors[v].plain) t = v;
  if (t == kNone) {
    const std::vector<int>& axes = plan_.tensors[p].axes;
    t = add_variant(id, p, plan_.tensors[p].md, plain_md(id, axes), axes);
  }
  plan_.plain_of[id] = t;
  return t;
}

// A copy of operand `id` in layout `md` over `axes`, reordered from `src` seen through `src_md`.
// Takes its descriptors by value: callers pass members of plan_.tensors, which add_tensor may move.
TensorId LayoutPlanner::add_variant(OperandId id, TensorId src, memory::desc src_md, memory::desc md,
                                    std::vector<int> axes) {
  PlanTensor t;
  t.operand = id;
  t.desc = g_.desc(id);
  t.md = md;
  t.plain = md == plain_md(id, axes);
  t.axes = std::move(axes);
  t.bytes = md.get_size();
  TensorId dst;
  if (is_constant(g_, id)) {
    dst = add_reordered(src, src_md, std::move(t));
  } else {
    dst = add_tensor(std::move(t));
    add_reorder(src, src_md, dst);
  }
  variants_[id].push_back(dst);
  return dst;
}

TensorId LayoutPlanner::root(TensorId t) const {
  while (plan_.tensors[t].view_of) t = *plan_.tensors[t].view_of;
  return t;
}

bool LayoutPlanner::same_layout(TensorId t, const memory::desc& md, const std::vector<int>& axes) const {
  const PlanTensor& x = plan_.tensors[t];
  return x.axes == axes && x.md == md;
}

TensorId LayoutPlanner::view(TensorId root, OperandId id) {
  PlanTensor t = plan_.tensors[root];
  while (t.view_of) root = *t.view_of, t = plan_.tensors[root];
  t.operand = id;
  t.desc = g_.desc(id);
  t.md = has_md(t.desc) ? plain_md(id) : memory::desc();
  t.axes.clear();
  t.plain = true;
  t.view_of = root;
  return primary_[id] = add_tensor(std::move(t));
}

TensorId LayoutPlanner::alias(TensorId t, OperandId id) {
  PlanTensor a = plan_.tensors[t];
  a.operand = id;
  a.desc = g_.desc(id);
  a.view_of = root(t);
  return primary_[id] = add_tensor(std::move(a));
}

bool LayoutPlanner::overwritable(TensorId t, size_t index, size_t except) const {
  const TensorId r = root(t);
  if (plan_.tensors[r].home != Home::kArena) return false;
  for (TensorId v = 0; v < plan_.tensors.size(); ++v) {
    if (root(v) != r) continue;
    const PlanTensor& x = plan_.tensors[v];
    if (x.scratch || first_output_[x.operand] != kNone || !fusion_.read_only_before(x.operand, index, except))
      return false;
  }
  return true;
}

TensorId LayoutPlanner::owned_f32(const std::vector<float>& values) {
  PlanTensor t;
  t.scratch = true;
  t.desc = {DataType::kFloat32, {static_cast<uint32_t>(values.size())}};
  t.md = plain_view(t.desc.shape);
  t.bytes = values.size() * sizeof(float);
  t.home = Home::kOwned;
  const auto* bytes = reinterpret_cast<const std::byte*>(values.data());
  t.index = add_owned(std::span<const std::byte>(bytes, t.bytes));
  return add_tensor(std::move(t));
}

void LayoutPlanner::add_reorder(TensorId src, const memory::desc& src_md, TensorId dst) {
  const memory::desc& dst_md = plan_.tensors[dst].md;
  dnnl::reorder::primitive_desc pd(cpu_engine(), src_md, cpu_engine(), dst_md, scratchpad_attr());
  add_primitive(plan_, pd, dnnl::reorder(pd), {{DNNL_ARG_FROM, src, src_md}, {DNNL_ARG_TO, dst, dst_md}},
                "reorder (layout)");
}

std::pair<std::shared_ptr<const void>, const std::byte*> LayoutPlanner::constant_bytes(TensorId t) const {
  const PlanTensor& s = plan_.tensors[t];
  if (s.home != Home::kOwned && s.home != Home::kConstant)
    throw_error(ErrorKind::kOperationError, "onednn backend: tensor " + std::to_string(t) +
                                                " is reordered at build time, but its bytes are not constant");
  if (s.home == Home::kOwned) return {plan_.owned[s.index], plan_.owned[s.index]->data() + s.offset};
  const std::shared_ptr<const std::byte>& data = g_.constants[s.index].data;
  return {data, data.get() + s.offset};
}

TensorId LayoutPlanner::add_reordered(TensorId src, const memory::desc& src_md, PlanTensor t) {
  const auto [owner, source] = constant_bytes(src);
  const memory::desc dst_md = t.md;
  t.home = Home::kOwned;
  t.index = plan_.owned.size();
  plan_.owned.push_back(derived_bytes({owner, source, src_md, dst_md, t.bytes}, [&](std::byte* out) {
    memory from(src_md, cpu_engine(), const_cast<std::byte*>(source));
    memory to(dst_md, cpu_engine(), out);
    // On this (the building) thread with one OpenMP thread: a second thread here would start an
    // OpenMP team beside the one of the thread that runs the plan, and libgomp, seeing more
    // threads than cores, would then make every worker sleep between parallel regions.
    const OmpThreads one(1);
    dnnl::stream stream(cpu_engine());
    const memory::desc plain_md = plain_view(dims_of_md(src_md));
    if (dst_md.data.format_kind == dnnl_format_kind_wino && src_md != plain_md) {
      // oneDNN reorders into a Winograd layout from plain row-major weights only: through a
      // plain copy first (filters in OHWI, HWIO, IHWO).
      memory mid(plain_md, cpu_engine());
      dnnl::reorder(from, mid).execute(stream, from, mid);
      dnnl::reorder(mid, to).execute(stream, mid, to);
    } else {
      dnnl::reorder(from, to).execute(stream, from, to);
    }
    stream.wait();
  }));
  return add_tensor(std::move(t));
}

void LayoutPlanner::bind_graph_outputs() {
  for (size_t i = 0; i < g_.outputs.size(); ++i) {
    const OperandId id = g_.outputs[i].operand;
    const TensorId src = primary(id);
    const PlanTensor& s = plan_.tensors[src];
    if (s.home == Home::kGraphOutput && s.index == i && !s.view_of) continue;
    PlanTensor t;
    t.operand = id;
    t.desc = g_.desc(id);
    t.bytes = static_cast<size_t>(*t.desc.byte_length());
    t.md = has_md(t.desc) ? plain_md(id) : memory::desc();
    t.home = Home::kGraphOutput;
    t.index = i;
    const TensorId dst = add_tensor(std::move(t));
    const TensorId from = plain(id);
    Plan* plan = &plan_;
    const size_t bytes = plan_.tensors[dst].bytes;
    add_run(
        plan_, [plan, from, dst, bytes] { std::memcpy(plan->ptr[dst], plan->ptr[from], bytes); }, {from}, {dst},
        "copy to a graph output");
  }
}

}  // namespace webnn::onednn
