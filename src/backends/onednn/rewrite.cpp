#include "backends/onednn/rewrite.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "backends/onednn/fusion.hpp"
#include "backends/reference/run_operation.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::onednn {

namespace {

constexpr size_t kNoOp = static_cast<size_t>(-1);

// Operations that stay operations even over constants: the int8 paths (quantized.hpp,
// weight_only.hpp) recognise a dequantizeLinear of constant weights and read the 8-bit bytes.
bool never_folded(OpKind kind) { return kind == OpKind::kDequantizeLinear || kind == OpKind::kQuantizeLinear; }

// One operation replacing a composition: `members` (the root, the last of them, included) leave
// the graph; `before` are operations the replacement needs first (a reshape of its scale).
struct Replacement {
  std::vector<size_t> members;
  std::vector<Operation> before;
  Operation op;
};

// Constants start on kBufferAlignment, where the compiler reads them in place.
BufferRef aligned(const BufferRef& data) {
  return reinterpret_cast<uintptr_t>(data.data.get()) % kBufferAlignment == 0 ? data : BufferRef::copy_of(data.span());
}

class Rewriter {
 public:
  explicit Rewriter(const Graph& g)
      : in_(g), w_(std::make_shared<Graph>(g)), folded_(g.operations.size(), false), output_(g.operands.size(), false) {
    for (const NamedOperand& o : g.outputs) output_[o.operand] = true;
  }

  Rewritten run() {
    fold();
    index_readers();
    for (size_t i = 0; i < w_->operations.size(); ++i) {
      if (folded_[i] || replaced_by_.count(i)) continue;
      switch (w_->operations[i].kind) {
        case OpKind::kErf:
          match_gelu(i);
          break;
        case OpKind::kReduceMean:
          match_layer_normalization(i);
          break;
        default:
          break;
      }
    }
    const bool identities = rewrite_identities();
    bool trimmed = false;
    for (size_t i = 0; i < g().operations.size(); ++i)
      if (!folded_[i] && g().operations[i].kind == OpKind::kConv2d) trimmed = trim_taps(g().operations[i]) || trimmed;
    if (!any_folded_ && replacements_.empty() && !identities && !trimmed) return {};  // the caller's graph as it is
    return emit();
  }

 private:
  Graph& g() { return *w_; }

  // ---- Folding ----

  bool all_constant_inputs(const Operation& op) const {
    bool all = true, any = false;
    for_each_input(op, [&](OperandId id) {
      any = true;
      all = all && w_->operands[id].kind == OperandKind::kConstant;
    });
    return any && all;
  }

  // Operand-valued options (layerNormalization's scale, ...) are not positional inputs, which is
  // all run_operation takes: an operation with any stays an operation.
  static bool has_operand_options(const Operation& op) {
    bool any = false;
    std::visit(
        [&](const auto& attrs) {
          std::decay_t<decltype(attrs)>::fields(attrs, [&](std::string_view, const auto& field) {
            using F = std::decay_t<decltype(field)>;
            if constexpr (std::is_same_v<F, std::optional<OperandRef>>) any = any || field.has_value();
          });
        },
        op.attrs);
    return any;
  }

  bool foldable(const Operation& op) const {
    if (never_folded(op.kind) || !all_constant_inputs(op) || has_operand_options(op)) return false;
    for (OperandId id : op.outputs) {
      const std::optional<uint64_t> n = w_->desc(id).element_count();
      if (!n || *n == 0 || *n > kMaxFoldedElements || is_graph_output(id)) return false;
    }
    return true;
  }

  // Operands added by a rewrite (a reshaped scale) are none.
  bool is_graph_output(OperandId id) const { return id < output_.size() && output_[id]; }

  void fold() {
    for (size_t i = 0; i < g().operations.size(); ++i) {
      const Operation& op = g().operations[i];
      if (!foldable(op)) continue;
      std::vector<reference::HostTensor> inputs;
      for (OperandId id : op.inputs) inputs.push_back({g().desc(id), g().constant_data(id)});
      std::vector<reference::HostTensor> results;
      try {
        results = reference::run_operation(op.kind, inputs, op.attrs);
      } catch (const Error&) {
        continue;  // left to run as an operation, whose kernel says the same when it runs
      }
      if (results.size() != op.outputs.size()) continue;
      for (size_t k = 0; k < results.size(); ++k) {
        Operand& out = g().operands[op.outputs[k]];
        if (results[k].desc != out.desc)
          throw_error(ErrorKind::kUnknownError, "internal: a folded result's descriptor");
        out.kind = OperandKind::kConstant;
        out.constant_index = static_cast<uint32_t>(g().constants.size());
        g().constants.push_back(aligned(results[k].data));
      }
      folded_[i] = true;
      any_folded_ = true;
    }
  }

  // ---- Compositions ----

  void index_readers() {
    const size_t n = g().operands.size();
    readers_.assign(n, {});
    producer_.assign(n, kNoOp);
    for (size_t i = 0; i < g().operations.size(); ++i) {
      if (folded_[i]) continue;
      for_each_input(g().operations[i], [&](OperandId id) { readers_[id].push_back(i); });
      for (OperandId id : g().operations[i].outputs) producer_[id] = i;
    }
  }

  // The one operation that reads `id`, when `id` is read once, by an operation, and is no graph
  // output.
  size_t only_reader(OperandId id) const {
    return readers_[id].size() == 1 && !is_graph_output(id) ? readers_[id].front() : kNoOp;
  }

  const Operation* op_of(size_t index, OpKind kind) const {
    if (index == kNoOp || replaced_by_.count(index)) return nullptr;
    const Operation& op = w_->operations[index];
    return op.kind == kind ? &op : nullptr;
  }

  // The value of a small float constant whose elements are all equal, as a double.
  std::optional<double> scalar(OperandId id) const {
    const Operand& o = w_->operands[id];
    if (o.kind != OperandKind::kConstant) return std::nullopt;
    const std::optional<uint64_t> n = o.desc.element_count();
    if (!n || *n == 0 || *n > 64) return std::nullopt;
    if (o.desc.data_type != DataType::kFloat32 && o.desc.data_type != DataType::kFloat16) return std::nullopt;
    const std::byte* p = w_->constant_data(id).data.get();
    std::optional<double> value;
    for (uint64_t i = 0; i < *n; ++i) {
      const double v = float_at(p, static_cast<size_t>(i), o.desc.data_type);
      if (value && *value != v) return std::nullopt;
      value = v;
    }
    return value;
  }

  // Whether `id` is a scalar constant equal to `expected` rounded to its data type (float16: within
  // its half-ULP, 2^-11 relative; float32: 2^-24).
  bool scalar_is(OperandId id, double expected) const {
    const std::optional<double> v = scalar(id);
    if (!v) return false;
    const double tolerance = w_->desc(id).data_type == DataType::kFloat16 ? 0x1p-11 : 0x1p-24;
    return std::fabs(*v - expected) <= tolerance * std::fabs(expected);
  }

  // `op`'s operand other than `id` (a binary operation reading `id` once), or nullopt.
  static std::optional<OperandId> other(const Operation& op, OperandId id) {
    if (op.inputs.size() != 2) return std::nullopt;
    if (op.inputs[0] == id && op.inputs[1] != id) return op.inputs[1];
    if (op.inputs[1] == id && op.inputs[0] != id) return op.inputs[0];
    return std::nullopt;
  }

  bool same_desc(OperandId a, OperandId b) const { return w_->desc(a) == w_->desc(b); }

  void accept(Replacement r) {
    for (size_t m : r.members)
      if (replaced_by_.count(m)) return;  // shares an operation with an earlier match
    const size_t root = *std::max_element(r.members.begin(), r.members.end());
    for (size_t m : r.members) replaced_by_[m] = root;
    replacements_.emplace(root, std::move(r));
  }

  // gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2))), matched from its erf.
  void match_gelu(size_t erf_index) {
    const Operation& erf = g().operations[erf_index];
    const OperandId u = erf.inputs[0];
    const size_t scale_index = producer_[u];
    if (scale_index == kNoOp || only_reader(u) != erf_index) return;
    const Operation& scaled = g().operations[scale_index];
    OperandId x;
    if (scaled.kind == OpKind::kDiv && scalar_is(scaled.inputs[1], std::sqrt(2.0))) {
      x = scaled.inputs[0];
    } else if (scaled.kind == OpKind::kMul) {
      if (scalar_is(scaled.inputs[1], std::sqrt(0.5)))
        x = scaled.inputs[0];
      else if (scalar_is(scaled.inputs[0], std::sqrt(0.5)))
        x = scaled.inputs[1];
      else
        return;
    } else {
      return;
    }
    // 1 + erf(...)
    const size_t add_index = only_reader(erf.outputs[0]);
    const Operation* add = op_of(add_index, OpKind::kAdd);
    if (!add) return;
    const std::optional<OperandId> one = other(*add, erf.outputs[0]);
    if (!one || !scalar_is(*one, 1.0)) return;
    const OperandId sum = add->outputs[0];
    // x * sum * 0.5, or (x * 0.5) * sum, in any operand order.
    const size_t mul_index = only_reader(sum);
    const Operation* mul = op_of(mul_index, OpKind::kMul);
    if (!mul) return;
    const std::optional<OperandId> factor = other(*mul, sum);
    if (!factor) return;
    std::vector<size_t> members = {scale_index, erf_index, add_index, mul_index};
    OperandId result;
    if (*factor == x) {
      const size_t half_index = only_reader(mul->outputs[0]);
      const Operation* half = op_of(half_index, OpKind::kMul);
      if (!half) return;
      const std::optional<OperandId> h = other(*half, mul->outputs[0]);
      if (!h || !scalar_is(*h, 0.5)) return;
      members.push_back(half_index);
      result = half->outputs[0];
    } else {
      const size_t half_index = producer_[*factor];
      const Operation* half = op_of(half_index, OpKind::kMul);
      if (!half || only_reader(*factor) != mul_index) return;
      const std::optional<OperandId> h = other(*half, x);
      if (!h || !scalar_is(*h, 0.5)) return;
      members.push_back(half_index);
      result = mul->outputs[0];
    }
    // The constants add no axes: every step has x's shape and type.
    for (OperandId id : {u, erf.outputs[0], sum, result})
      if (!same_desc(id, x)) return;
    Replacement r;
    r.members = std::move(members);
    r.op.kind = OpKind::kGelu;
    r.op.attrs = NoAttrs{};
    r.op.inputs = {x};
    r.op.outputs = {result};
    r.op.label = g().operations[*std::max_element(r.members.begin(), r.members.end())].label;
    accept(std::move(r));
  }

  // The reduceMean's axes when they are the trailing axes of its input, in order, and it keeps them.
  std::optional<std::vector<uint32_t>> trailing_axes(const Operation& reduce) const {
    const auto& a = std::get<ReduceAttrs>(reduce.attrs);
    if (!a.keep_dimensions) return std::nullopt;
    std::vector<uint32_t> axes = *a.axes;
    const size_t rank = w_->desc(reduce.inputs[0]).shape.size();
    if (axes.empty() || axes.size() > rank) return std::nullopt;
    for (size_t k = 0; k < axes.size(); ++k)
      if (axes[k] != rank - axes.size() + k) return std::nullopt;
    return axes;
  }

  // layerNormalization's scale or bias from the operand a composition multiplies or adds: one that
  // broadcasts over the other axes and matches the normalized ones, reshaped to their shape (a
  // constant is the same bytes under that shape; anything else, a reshape first).
  std::optional<OperandId> over_axes(OperandId id, OperandId x, const std::vector<uint32_t>& axes, Replacement& r) {
    const Shape& xs = w_->desc(x).shape;
    const OperandDescriptor& d = w_->desc(id);
    if (d.data_type != w_->desc(x).data_type || d.shape.size() > xs.size()) return std::nullopt;
    const Shape padded = [&] {
      Shape s(xs.size() - d.shape.size(), 1);
      s.insert(s.end(), d.shape.begin(), d.shape.end());
      return s;
    }();
    Shape wanted;
    for (size_t k = 0; k < xs.size(); ++k) {
      const bool normalized = std::find(axes.begin(), axes.end(), k) != axes.end();
      if (normalized ? padded[k] != xs[k] : padded[k] != 1) return std::nullopt;
      if (normalized) wanted.push_back(xs[k]);
    }
    if (d.shape == wanted) return id;
    Operand o;
    o.desc = {d.data_type, wanted};
    if (w_->operands[id].kind == OperandKind::kConstant) {
      o.kind = OperandKind::kConstant;
      o.constant_index = w_->operands[id].constant_index;
      g().operands.push_back(std::move(o));
      return static_cast<OperandId>(g().operands.size() - 1);
    }
    g().operands.push_back(std::move(o));
    const auto reshaped = static_cast<OperandId>(g().operands.size() - 1);
    Operation reshape;
    reshape.kind = OpKind::kReshape;
    reshape.attrs = ReshapeAttrs{wanted};
    reshape.inputs = {id};
    reshape.outputs = {reshaped};
    r.before.push_back(std::move(reshape));
    return reshaped;
  }

  // mean = reduceMean(x); d = x - mean; v = reduceMean(d * d or pow(d, 2)); n = d / sqrt(v + eps)
  // (or d * reciprocal(sqrt(...))); [n * scale]; [+ bias]. Matched from the first reduceMean.
  void match_layer_normalization(size_t mean_index) {
    const Operation& mean = g().operations[mean_index];
    const OperandId x = mean.inputs[0];
    const std::optional<std::vector<uint32_t>> axes = trailing_axes(mean);
    if (!axes) return;
    const size_t sub_index = only_reader(mean.outputs[0]);
    const Operation* sub = op_of(sub_index, OpKind::kSub);
    if (!sub || sub->inputs[0] != x || sub->inputs[1] != mean.outputs[0]) return;
    const OperandId d = sub->outputs[0];
    if (is_graph_output(d)) return;
    // d's readers: the square (pow reads it once, mul twice) and the division.
    size_t square_index = kNoOp, divide_index = kNoOp;
    for (size_t reader : readers_[d]) {
      const Operation& op = g().operations[reader];
      if (op.kind == OpKind::kPow && op.inputs[0] == d && scalar_is(op.inputs[1], 2.0))
        square_index = reader;
      else if (op.kind == OpKind::kMul && op.inputs[0] == d && op.inputs[1] == d)
        square_index = reader;
      else
        divide_index = reader;
    }
    if (square_index == kNoOp || divide_index == kNoOp) return;
    const Operation& square = g().operations[square_index];
    const size_t expected_reads = square.kind == OpKind::kMul ? 3 : 2;
    if (readers_[d].size() != expected_reads) return;
    const size_t var_index = only_reader(square.outputs[0]);
    const Operation* var = op_of(var_index, OpKind::kReduceMean);
    if (!var || trailing_axes(*var) != axes) return;
    const size_t eps_index = only_reader(var->outputs[0]);
    const Operation* eps = op_of(eps_index, OpKind::kAdd);
    if (!eps) return;
    const std::optional<OperandId> eps_operand = other(*eps, var->outputs[0]);
    if (!eps_operand) return;
    const std::optional<double> epsilon = scalar(*eps_operand);
    if (!epsilon || !(*epsilon >= 0) || !same_desc(eps->outputs[0], var->outputs[0])) return;
    const size_t sqrt_index = only_reader(eps->outputs[0]);
    const Operation* square_root = op_of(sqrt_index, OpKind::kSqrt);
    if (!square_root) return;
    std::vector<size_t> members = {mean_index, sub_index, square_index, var_index, eps_index, sqrt_index};
    const Operation& divide = g().operations[divide_index];
    if (divide.kind == OpKind::kDiv && divide.inputs[0] == d && divide.inputs[1] == square_root->outputs[0] &&
        only_reader(square_root->outputs[0]) == divide_index) {
      members.push_back(divide_index);
    } else if (divide.kind == OpKind::kMul) {
      // d * reciprocal(sqrt(...))
      const size_t reciprocal_index = only_reader(square_root->outputs[0]);
      const Operation* reciprocal = op_of(reciprocal_index, OpKind::kReciprocal);
      if (!reciprocal || other(divide, d) != reciprocal->outputs[0] ||
          only_reader(reciprocal->outputs[0]) != divide_index)
        return;
      members.push_back(reciprocal_index);
      members.push_back(divide_index);
    } else {
      return;
    }
    OperandId result = divide.outputs[0];
    if (!same_desc(result, x) || !same_desc(d, x)) return;
    Replacement r;
    LayerNormalizationAttrs attrs;
    attrs.axes = *axes;
    attrs.epsilon = *epsilon;
    // [* scale] [+ bias]: a bias alone is a layer normalization with scale 1 too.
    const auto affine = [&](OpKind kind, std::optional<OperandRef>& into) {
      const size_t index = only_reader(result);
      const Operation* op = op_of(index, kind);
      if (!op) return;
      const std::optional<OperandId> operand = other(*op, result);
      if (!operand || !same_desc(op->outputs[0], x)) return;
      const std::optional<OperandId> shaped = over_axes(*operand, x, *axes, r);
      if (!shaped) return;
      into = OperandRef{*shaped};
      members.push_back(index);
      result = op->outputs[0];
    };
    affine(OpKind::kMul, attrs.scale);
    affine(OpKind::kAdd, attrs.bias);
    r.members = std::move(members);
    r.op.kind = OpKind::kLayerNormalization;
    r.op.attrs = std::move(attrs);
    r.op.inputs = {x};
    r.op.outputs = {result};
    r.op.label = g().operations[*std::max_element(r.members.begin(), r.members.end())].label;
    accept(std::move(r));
  }

  // ---- Identities ----

  bool rewrite_identities() {
    bool any = false;
    for (size_t i = 0; i < g().operations.size(); ++i) {
      Operation& op = g().operations[i];
      if (folded_[i] || replaced_by_.count(i)) continue;
      bool identity = op.kind == OpKind::kIdentity;
      if (op.kind == OpKind::kPad) {
        const auto& a = std::get<PadAttrs>(op.attrs);
        const auto zero = [](const std::vector<uint32_t>& v) {
          return std::all_of(v.begin(), v.end(), [](uint32_t p) { return p == 0; });
        };
        identity = zero(a.beginning_padding) && zero(a.ending_padding);
      }
      if (!identity) continue;
      op.kind = OpKind::kReshape;
      op.attrs = ReshapeAttrs{g().desc(op.outputs[0]).shape};
      op.inputs.resize(1);
      any = true;
    }
    return any;
  }

  // ---- Convolution taps that only ever read padding ----

  // The taps [first, last] of a kernel of `k` taps that read the input for some output position,
  // or nullopt when none does.
  static std::optional<std::pair<int64_t, int64_t>> reachable_taps(int64_t in, int64_t out, int64_t k, int64_t stride,
                                                                   int64_t dilation, int64_t pad_begin) {
    std::optional<std::pair<int64_t, int64_t>> range;
    for (int64_t tap = 0; tap < k; ++tap) {
      // Output o reads input o * stride - pad_begin + tap * dilation.
      const int64_t lo = std::max<int64_t>(0, ops::ceil_div(pad_begin - tap * dilation, stride));
      const int64_t hi = std::min<int64_t>(out - 1, ops::floor_div(in - 1 + pad_begin - tap * dilation, stride));
      if (lo > hi) continue;
      if (!range) range = std::pair<int64_t, int64_t>{tap, tap};
      range->second = tap;
    }
    return range;
  }

  // A conv2d with a constant filter whose outer taps read nothing but padding (DeepLabV3's atrous
  // convolutions, dilation 12 to 36 over a 14 x 14 image, where only the centre tap reads the
  // input): the same convolution with those taps cut from the filter and from the padding. The
  // cut taps only ever meet padding, which the reference kernel leaves out of its sums, so the
  // result is the reference's (a NaN weight there included). oneDNN has no fast kernel for a
  // dilated window wider than its padded input, and its reference implementation took 1.4 s per
  // convolution.
  bool trim_taps(Operation& op) {
    auto& a = std::get<Conv2dAttrs>(op.attrs);
    const OperandId filter = op.inputs[1];
    if (g().operands[filter].kind != OperandKind::kConstant) return false;
    const Shape& in = g().desc(op.inputs[0]).shape;
    const Shape& out = g().desc(op.outputs[0]).shape;
    const Shape& f = g().desc(filter).shape;
    const size_t in_h = a.input_layout == InputLayout::kNchw ? 2 : 1;
    const size_t f_h = a.filter_layout == Conv2dFilterLayout::kOihw   ? 2
                       : a.filter_layout == Conv2dFilterLayout::kHwio ? 0
                                                                      : 1;
    std::vector<uint32_t> padding = *a.padding, dilations = *a.dilations;
    const std::vector<uint32_t>& strides = *a.strides;
    std::vector<uint32_t> starts(f.size(), 0), sizes(f.begin(), f.end());
    bool cut = false;
    for (size_t axis = 0; axis < 2; ++axis) {
      const int64_t k = f[f_h + axis], d = dilations[axis], pb = padding[2 * axis], pe = padding[2 * axis + 1];
      const auto taps = reachable_taps(in[in_h + axis], out[in_h + axis], k, strides[axis], d, pb);
      if (!taps || (taps->first == 0 && taps->second == k - 1)) continue;
      const int64_t new_pb = pb - taps->first * d, new_pe = pe - (k - 1 - taps->second) * d;
      if (new_pb < 0 || new_pe < 0) return false;
      padding[2 * axis] = static_cast<uint32_t>(new_pb);
      padding[2 * axis + 1] = static_cast<uint32_t>(new_pe);
      starts[f_h + axis] = static_cast<uint32_t>(taps->first);
      sizes[f_h + axis] = static_cast<uint32_t>(taps->second - taps->first + 1);
      if (sizes[f_h + axis] == 1) dilations[axis] = 1;
      cut = true;
    }
    if (!cut) return false;
    const BufferRef& weights = g().constant_data(filter);
    std::vector<reference::HostTensor> trimmed;
    try {
      const SliceAttrs slice{starts, sizes, std::vector<uint32_t>(f.size(), 1)};
      trimmed = reference::run_operation(OpKind::kSlice, {{g().desc(filter), weights}}, slice);
    } catch (const Error&) {
      return false;
    }
    Operand o;
    o.desc = trimmed[0].desc;
    o.kind = OperandKind::kConstant;
    o.constant_index = static_cast<uint32_t>(g().constants.size());
    g().constants.push_back(aligned(trimmed[0].data));
    g().operands.push_back(std::move(o));
    op.inputs[1] = static_cast<OperandId>(g().operands.size() - 1);
    a.padding = padding;
    a.dilations = dilations;
    return true;
  }

  Rewritten emit() {
    Rewritten out;
    auto graph = std::make_shared<Graph>();
    Graph& w = g();
    graph->name = std::move(w.name);
    graph->operands = std::move(w.operands);
    graph->inputs = std::move(w.inputs);
    graph->outputs = std::move(w.outputs);
    graph->constants = std::move(w.constants);
    graph->input_defaults = std::move(w.input_defaults);
    graph->frozen_inputs = std::move(w.frozen_inputs);
    std::vector<size_t> emitted(w.operations.size(), kNoOp);
    for (size_t i = 0; i < w.operations.size(); ++i) {
      if (folded_[i]) continue;
      if (auto it = replacements_.find(i); it != replacements_.end()) {
        for (Operation& before : it->second.before) graph->operations.push_back(std::move(before));
        graph->operations.push_back(std::move(it->second.op));
      } else if (replaced_by_.count(i)) {
        continue;  // a member of a composition, computed by its root's replacement
      } else {
        graph->operations.push_back(std::move(w.operations[i]));
      }
      emitted[i] = graph->operations.size() - 1;
    }
    out.computed_by.resize(in_.operations.size());
    for (size_t i = 0; i < in_.operations.size(); ++i) {
      if (folded_[i]) {
        out.computed_by[i] = Rewritten::kFolded;
      } else if (auto it = replaced_by_.find(i); it != replaced_by_.end()) {
        out.computed_by[i] = emitted[it->second];
      } else {
        out.computed_by[i] = emitted[i];
      }
    }
    out.graph = std::move(graph);
    return out;
  }

  const Graph& in_;
  std::shared_ptr<Graph> w_;  // the graph being rewritten: a copy of in_, its operations in in_'s order
  std::vector<bool> folded_;
  std::vector<bool> output_;  // by operand of in_: whether it is a graph output
  bool any_folded_ = false;
  std::vector<std::vector<size_t>> readers_;    // by operand: the operations reading it (twice if twice)
  std::vector<size_t> producer_;                // by operand: the operation writing it, or kNoOp
  std::map<size_t, size_t> replaced_by_;        // member of a composition -> the composition's root
  std::map<size_t, Replacement> replacements_;  // by root
};

}  // namespace

std::vector<std::string> Rewritten::original_placement(const std::vector<std::string>& placement) const {
  std::vector<std::string> out(computed_by.size(), "onednn");
  for (size_t i = 0; i < computed_by.size(); ++i)
    if (computed_by[i] != kFolded && computed_by[i] < placement.size()) out[i] = placement[computed_by[i]];
  return out;
}

Rewritten rewrite(std::shared_ptr<const Graph> graph) {
  Rewritten out = Rewriter(*graph).run();
  if (!out.graph) {
    out.computed_by.resize(graph->operations.size());
    std::iota(out.computed_by.begin(), out.computed_by.end(), size_t{0});
    out.graph = std::move(graph);
  }
  return out;
}

}  // namespace webnn::onednn
