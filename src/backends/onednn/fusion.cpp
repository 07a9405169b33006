#include "backends/onednn/fusion.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "backends/onednn/eltwise.hpp"
#include "backends/onednn/memory_desc.hpp"
#include "core/float16.hpp"
#include "ops/number_cast.hpp"

namespace webnn::onednn {

namespace {

using dnnl::algorithm;

// Well below oneDNN's own limit on post-ops per primitive.
constexpr size_t kMaxPostOps = 8;

PostOp eltwise(algorithm alg, double alpha = 0, double beta = 0) {
  PostOp p;
  p.algorithm = alg;
  p.alpha = static_cast<float>(alpha);
  p.beta = static_cast<float>(beta);
  return p;
}

bool is_f32(const Graph& g, OperandId id) { return g.desc(id).data_type == DataType::kFloat32; }

bool is_anchor(const Graph& g, const Operation& op) {
  switch (op.kind) {
    case OpKind::kConv2d:
    case OpKind::kConvTranspose2d:
    case OpKind::kMatmul:
    case OpKind::kGemm:
      return is_f32(g, op.outputs[0]);
    default:
      return false;
  }
}

}  // namespace

float float_at(const void* data, size_t i, DataType type) {
  if (type == DataType::kFloat32) {
    float x;
    std::memcpy(&x, static_cast<const char*>(data) + i * sizeof x, sizeof x);
    return x;
  }
  uint16_t bits;
  std::memcpy(&bits, static_cast<const char*>(data) + i * sizeof bits, sizeof bits);
  return half_to_float(bits);
}

std::vector<PostOp> eltwise_chain(const Operation& op) {
  switch (op.kind) {
    case OpKind::kRelu:
      return {eltwise(algorithm::eltwise_relu)};
    case OpKind::kClamp: {
      const auto& a = std::get<ClampAttrs>(op.attrs);
      // spec: the bounds are cast to the input's data type (float32 here).
      return {
          eltwise(algorithm::eltwise_clip, ops::cast_number<float>(a.min_value), ops::cast_number<float>(a.max_value))};
    }
    case OpKind::kSigmoid:
      return {eltwise(algorithm::eltwise_logistic)};
    case OpKind::kTanh:
      return {eltwise(algorithm::eltwise_tanh)};
    case OpKind::kHardSwish:
      return {eltwise(algorithm::eltwise_hardswish)};
    case OpKind::kLeakyRelu:
      return {eltwise(algorithm::eltwise_relu, std::get<LeakyReluAttrs>(op.attrs).alpha)};
    case OpKind::kLinear: {
      const auto& a = std::get<LinearAttrs>(op.attrs);
      return {eltwise(algorithm::eltwise_linear, a.alpha, a.beta)};
    }
    case OpKind::kHardSigmoid: {
      const auto& a = std::get<HardSigmoidAttrs>(op.attrs);
      return {eltwise(algorithm::eltwise_linear, a.alpha, a.beta), eltwise(algorithm::eltwise_clip, 0.0, 1.0)};
    }
    case OpKind::kAbs:
      return {eltwise(algorithm::eltwise_abs)};
    case OpKind::kSqrt:
      return {eltwise(algorithm::eltwise_sqrt)};
    case OpKind::kNeg:
      return {eltwise(algorithm::eltwise_linear, -1.0, 0.0)};
    default:
      return {};
  }
}

namespace {

uint8_t special_of(float x) {
  if (std::isnan(x)) return kNaN;
  if (std::isinf(x)) return x > 0 ? kPlusInfinity : kMinusInfinity;
  return 0;
}

// The kinds of special value a constant holds (has_nan_or_inf finds one in float32 and float16
// only; the elements are then read one by one).
uint8_t constant_specials(const void* data, size_t count, DataType type) {
  if (!has_nan_or_inf(data, count, type)) return 0;
  uint8_t kinds = 0;
  for (size_t i = 0; i < count && kinds != kAnySpecial; ++i) kinds |= special_of(float_at(data, i, type));
  return kinds;
}

// What is known of a finite value's sign: the square root, division and reciprocal of a value
// known positive make no NaN or infinity (RMSNorm: x / sqrt(mean(x * x) + epsilon)).
enum class Sign : uint8_t { kAny, kNonNegative, kPositive };

// The sign of a small constant's values (large ones, weights, are not scanned: kAny).
Sign constant_sign(const void* data, size_t count, DataType type) {
  constexpr size_t kMaxScanned = 1024;
  if (count > kMaxScanned || (type != DataType::kFloat32 && type != DataType::kFloat16)) return Sign::kAny;
  bool positive = true;
  for (size_t i = 0; i < count; ++i) {
    const float x = float_at(data, i, type);
    if (!(x >= 0)) return Sign::kAny;
    positive = positive && x > 0;
  }
  return positive ? Sign::kPositive : Sign::kNonNegative;
}

bool at_least_non_negative(Sign s) { return s != Sign::kAny; }

// The sign of a finite output of `op` from its inputs' (an operation of one float output).
Sign sign_of(const Operation& op, const std::vector<Sign>& sign) {
  const auto input = [&](size_t i) { return sign[op.inputs[i]]; };
  switch (op.kind) {
    case OpKind::kMul:  // x * x, or two values that are not negative (a product may underflow to 0)
      return op.inputs[0] == op.inputs[1] || (at_least_non_negative(input(0)) && at_least_non_negative(input(1)))
                 ? Sign::kNonNegative
                 : Sign::kAny;
    case OpKind::kAdd:
      if (!at_least_non_negative(input(0)) || !at_least_non_negative(input(1))) return Sign::kAny;
      return input(0) == Sign::kPositive || input(1) == Sign::kPositive ? Sign::kPositive : Sign::kNonNegative;
    case OpKind::kReduceSumSquare:
    case OpKind::kReduceL1:
    case OpKind::kReduceL2:
    case OpKind::kAbs:
    case OpKind::kRelu:
      return Sign::kNonNegative;
    case OpKind::kReduceMean:
    case OpKind::kReduceSum:
    case OpKind::kReduceMax:
    case OpKind::kReduceMin:
      return at_least_non_negative(input(0)) ? Sign::kNonNegative : Sign::kAny;
    case OpKind::kSqrt:
    case OpKind::kReciprocal:
    case OpKind::kReshape:
    case OpKind::kIdentity:
      return input(0);
    default:
      return Sign::kAny;
  }
}

// Whether `op`, reading finite values only, makes no NaN or infinity although its kind can: a
// square root of a value that is not negative, a division by or reciprocal of a positive value.
bool makes_no_specials_here(const Operation& op, const std::vector<Sign>& sign) {
  switch (op.kind) {
    case OpKind::kSqrt:
      return at_least_non_negative(sign[op.inputs[0]]);
    case OpKind::kReciprocal:
      return sign[op.inputs[0]] == Sign::kPositive;
    case OpKind::kDiv:
      return sign[op.inputs[1]] == Sign::kPositive;
    default:
      return false;
  }
}

// add / sub of values that hold `a` and `b`: their infinities, and a NaN where two infinities
// cancel (add: of opposite signs; sub: of the same sign) or a NaN comes in.
uint8_t add_specials(uint8_t a, uint8_t b, bool subtract) {
  if (subtract)
    b = static_cast<uint8_t>((b & kNaN) | ((b & kPlusInfinity) ? kMinusInfinity : 0) |
                             ((b & kMinusInfinity) ? kPlusInfinity : 0));
  uint8_t out = a | b;
  if (((a & kPlusInfinity) && (b & kMinusInfinity)) || ((a & kMinusInfinity) && (b & kPlusInfinity))) out |= kNaN;
  return out;
}

}  // namespace

std::vector<uint8_t> may_hold_specials(const Graph& graph, bool inputs, bool rows_not_masked_whole) {
  std::vector<uint8_t> specials(graph.operands.size(), 0);
  std::vector<Sign> sign(graph.operands.size(), Sign::kAny);
  for (OperandId id = 0; id < graph.operands.size(); ++id) {
    const Operand& operand = graph.operands[id];
    if (operand.kind == OperandKind::kInput) {
      specials[id] = inputs ? kAnySpecial : 0;
    } else if (operand.kind == OperandKind::kConstant) {
      const BufferRef& data = graph.constant_data(id);
      const size_t count = static_cast<size_t>(*operand.desc.byte_length()) / element_size(operand.desc.data_type);
      specials[id] = constant_specials(data.data.get(), count, operand.desc.data_type);
      if (!specials[id]) sign[id] = constant_sign(data.data.get(), count, operand.desc.data_type);
    }
  }
  for (const Operation& op : graph.operations) {
    uint8_t in = 0;
    for_each_input(op, [&](OperandId id) { in |= specials[id]; });
    uint8_t out = in ? kAnySpecial : 0;
    if (!in && makes_no_specials_here(op, sign)) {
      out = 0;
    } else if (may_make_specials(op)) {
      out = kAnySpecial;
    } else if (op.kind == OpKind::kPad) {
      out = in | special_of(ops::cast_to_float32(std::get<PadAttrs>(op.attrs).value));
    } else if (moves_values_only(op.kind)) {
      out = in;  // where's condition and gather's indices are integers: no specials
    } else if (op.kind == OpKind::kAdd || op.kind == OpKind::kSub) {
      out = add_specials(specials[op.inputs[0]], specials[op.inputs[1]], op.kind == OpKind::kSub);
    } else if (op.kind == OpKind::kSoftmax && in == kMinusInfinity && rows_not_masked_whole) {
      out = 0;  // exp(-Infinity) = 0 beside a finite maximum; the plan checks the assumption
    }
    const Sign s = out ? Sign::kAny : sign_of(op, sign);
    for (OperandId id : op.outputs) {
      specials[id] = out;
      sign[id] = s;
    }
  }
  return specials;
}

std::optional<dnnl::algorithm> binary_algorithm(OpKind kind) {
  switch (kind) {
    case OpKind::kAdd:
      return algorithm::binary_add;
    case OpKind::kSub:
      return algorithm::binary_sub;
    case OpKind::kMul:
      return algorithm::binary_mul;
    case OpKind::kDiv:
      return algorithm::binary_div;
    default:
      return std::nullopt;
  }
}

namespace {

// Whether `other` reaches `out` as the same shape, a scalar, or a vector along the last axis.
bool post_op_broadcast_is_fast(const Shape& other, const Shape& out) {
  const Shape padded = pad_rank(other, out.size());
  if (padded == out) return true;
  for (size_t i = 0; i + 1 < padded.size(); ++i)
    if (padded[i] != 1) return false;
  return true;
}

// The post-op computing x * gate(x) for a gate that reads x: x * sigmoid(x) is swish (SiLU,
// EfficientNet's activation); x * hardSigmoid(x) with alpha 1/6 and beta 1/2 is hardSwish, as
// PyTorch exports nn.Hardswish below opset 14 (MobileNetV3).
std::optional<PostOp> self_gated(const Operation& gate) {
  if (gate.kind == OpKind::kSigmoid) return eltwise(algorithm::eltwise_swish, 1.0);
  if (gate.kind == OpKind::kHardSigmoid) {
    const auto& a = std::get<HardSigmoidAttrs>(gate.attrs);
    // The spec casts alpha and beta to float32: 1/6 as float32, exactly.
    if (static_cast<float>(a.alpha) == 1.0f / 6.0f && static_cast<float>(a.beta) == 0.5f)
      return eltwise(algorithm::eltwise_hardswish);
  }
  return std::nullopt;
}

}  // namespace

Fusion::Fusion(const Graph& graph, const std::vector<uint8_t>& specials)
    : graph_(graph),
      fused_into_(graph.operations.size(), kNone),
      chains_(graph.operations.size()),
      post_ops_(graph.operations.size()),
      supported_(graph.operations.size(), true) {
  const Graph& g = graph_;
  const size_t n = g.operands.size();
  // Readers of each operand (an operation reading it twice appears twice), its producer, and
  // whether it is a graph output.
  std::vector<std::vector<size_t>>& readers = readers_;
  readers.assign(n, {});
  std::vector<size_t> producer(n, kNone);
  std::vector<bool> is_output(n, false);
  for (size_t i = 0; i < g.operations.size(); ++i) {
    for_each_input(g.operations[i], [&](OperandId id) { readers[id].push_back(i); });
    for (OperandId id : g.operations[i].outputs) producer[id] = i;
  }
  for (const NamedOperand& out : g.outputs) is_output[out.operand] = true;

  for (size_t anchor = 0; anchor < g.operations.size(); ++anchor) {
    const Operation& op = g.operations[anchor];
    if (fused_into_[anchor] != kNone || !is_anchor(g, op)) continue;
    std::vector<PostOp>& post = post_ops_[anchor];
    if (op.kind == OpKind::kGemm) {
      // alpha * A'B' + beta * C: oneDNN's matmul takes alpha as a linear post-op and C as an add;
      // a beta other than 0 or 1 would need a scaled copy of C.
      const auto& a = std::get<GemmAttrs>(op.attrs);
      if (a.alpha != 1.0) post.push_back(eltwise(algorithm::eltwise_linear, a.alpha, 0.0));
      if (a.c && a.beta != 0.0) {
        if (a.beta != 1.0 || !is_f32(g, a.c->id)) {
          supported_[anchor] = false;
          continue;
        }
        PostOp add;
        add.binary = true;
        add.algorithm = algorithm::binary_add;
        add.other = a.c->id;
        post.push_back(add);
      }
    }
    OperandId value = op.outputs[0];
    const bool matmul = op.kind == OpKind::kMatmul || op.kind == OpKind::kGemm;
    // Whether the chain already has an element-wise post-op of this algorithm.
    const auto repeats = [&](const PostOp& l) {
      return std::any_of(post.begin(), post.end(),
                         [&](const PostOp& p) { return !p.binary && p.algorithm == l.algorithm; });
    };
    while (post.size() < kMaxPostOps) {
      // x * gate(x), x read by the gate and by the mul alone, the gate by the mul alone: one
      // post-op for both (as an activation: not where x may hold a NaN or an infinity).
      if (!is_output[value] && readers[value].size() == 2 && !specials[value]) {
        const size_t gate = readers[value][0], mul = readers[value][1];
        const Operation& s = g.operations[gate];
        const Operation& m = g.operations[mul];
        const std::optional<PostOp> gated = self_gated(s);
        if (gated && m.kind == OpKind::kMul && !is_output[s.outputs[0]] && readers[s.outputs[0]].size() == 1 &&
            readers[s.outputs[0]][0] == mul && (m.inputs[0] == value || m.inputs[1] == value) &&
            is_f32(g, m.outputs[0]) && g.desc(m.outputs[0]).shape == g.desc(value).shape &&
            !(matmul && repeats(*gated))) {
          fused_activation_ = true;
          post.push_back(*gated);
          chains_[anchor].insert(chains_[anchor].end(), {gate, mul});
          fused_into_[gate] = fused_into_[mul] = anchor;
          value = m.outputs[0];
          continue;
        }
      }
      if (is_output[value] || readers[value].size() != 1) break;
      const size_t next = readers[value][0];
      const Operation& link = g.operations[next];
      if (link.outputs.size() != 1 || !is_f32(g, link.outputs[0]) ||
          g.desc(link.outputs[0]).shape != g.desc(value).shape)
        break;
      std::vector<PostOp> links;
      if (auto alg = binary_algorithm(link.kind)) {
        const bool first = link.inputs[0] == value;
        const OperandId other = first ? link.inputs[1] : link.inputs[0];
        const bool commutes = link.kind == OpKind::kAdd || link.kind == OpKind::kMul;
        // The other operand must exist before the anchor runs, and the chain's value must be the
        // operand oneDNN's post-op takes as its first.
        if (other == value || (!first && !commutes) || !is_f32(g, other)) break;
        if (producer[other] != kNone && producer[other] > anchor) break;
        // oneDNN 2.6 computes a matmul whose binary post-op broadcasts other than as a scalar or
        // a bias along the last axis with its reference implementation: Swin-T's attention
        // scores [64, 3, 49, 49] plus a position bias [1, 3, 49, 49] took 200 ms a matmul on this
        // VM, 1 ms without the post-op (docs/onednn.md, "Broadcasts"). Such an add stays an
        // operation of its own.
        if (matmul && !post_op_broadcast_is_fast(g.desc(other).shape, g.desc(value).shape)) break;
        PostOp p;
        p.binary = true;
        p.algorithm = *alg;
        p.other = other;
        links.push_back(p);
      } else {
        // Not where the value may hold a NaN or an infinity (from the anchor's operands, the
        // chain's, or a link such as a division): the post-op would change it.
        links = eltwise_chain(link);
        if (links.empty() || link.inputs.size() != 1 || specials[value]) break;
        // oneDNN 2.6's brgemm matmul gives a second eltwise post-op of an algorithm the chain
        // already has the first one's parameters (matmul + linear + linear computed the first
        // linear twice): such a link ends a matmul's chain.
        if (matmul && std::any_of(links.begin(), links.end(), repeats)) break;
      }
      if (post.size() + links.size() > kMaxPostOps) break;
      fused_activation_ = fused_activation_ || !links.front().binary;
      post.insert(post.end(), links.begin(), links.end());
      chains_[anchor].push_back(next);
      fused_into_[next] = anchor;
      value = link.outputs[0];
    }
  }
}

void Fusion::unfuse(size_t anchor) {
  for (size_t member : chains_[anchor]) fused_into_[member] = kNone;
  chains_[anchor].clear();
  post_ops_[anchor].clear();
}

bool Fusion::read_only_before(OperandId id, size_t anchor, size_t except) const {
  for (size_t reader : readers_[id])
    if (reader != except && reader >= anchor) return false;
  return true;
}

OperandId Fusion::chain_output(size_t anchor) const {
  const std::vector<size_t>& c = chains_[anchor];
  return graph_.operations[c.empty() ? anchor : c.back()].outputs[0];
}

}  // namespace webnn::onednn
