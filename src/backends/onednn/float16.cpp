#include "backends/onednn/float16.hpp"

#include "backends/onednn/eltwise.hpp"

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "backends/onednn/fusion.hpp"
#include "backends/onednn/plan.hpp"
#include "core/float16.hpp"
#include "ops/number_cast.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define WEBNN_F16C 1
#endif

namespace webnn::onednn {

namespace {

constexpr OperandId kNoOperand = static_cast<OperandId>(-1);

bool is_f16(const Graph& g, OperandId id) { return g.desc(id).data_type == DataType::kFloat16; }

// The float16 operations computed in float32: every one with a float32 oneDNN candidate in
// impl_list.cpp or fused as a post-op, and those that only move or select values (exact in any
// type). Every other one keeps its float16 reference kernel.
bool computes_in_float32(const Operation& op) {
  switch (op.kind) {
    case OpKind::kConv2d:
    case OpKind::kConvTranspose2d:
    case OpKind::kMatmul:
    case OpKind::kGemm:
    case OpKind::kAveragePool2d:
    case OpKind::kMaxPool2d:
    case OpKind::kAdd:
    case OpKind::kSub:
    case OpKind::kMul:
    case OpKind::kDiv:
    case OpKind::kSoftmax:
    case OpKind::kLayerNormalization:
      return true;
    default:
      // Data movement and selection, and the activations oneDNN or our own kernels (eltwise.hpp)
      // compute.
      return moves_values_only(op.kind) || !eltwise_chain(op).empty() || has_own_eltwise(op.kind);
  }
}

bool widens(const Graph& g, const Operation& op) {
  if (!computes_in_float32(op)) return false;
  bool f16 = false;
  for_each_input(op, [&](OperandId id) { f16 = f16 || is_f16(g, id); });
  for (OperandId id : op.outputs) f16 = f16 || is_f16(g, id);
  return f16;
}

// spec: the float options of these operations are cast to the input's data type before use.
Number as_float16(const Number& v) { return static_cast<double>(static_cast<float>(ops::cast_to_float16(v))); }
double as_float16(double v) { return as_float16(Number(v)).as_double(); }

void round_options_to_float16(Attributes& attrs) {
  std::visit(
      [](auto& a) {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, ClampAttrs>) {
          a.min_value = as_float16(a.min_value);
          a.max_value = as_float16(a.max_value);
        } else if constexpr (std::is_same_v<A, LinearAttrs> || std::is_same_v<A, HardSigmoidAttrs> ||
                             std::is_same_v<A, GemmAttrs>) {
          a.alpha = as_float16(a.alpha);
          a.beta = as_float16(a.beta);
        } else if constexpr (std::is_same_v<A, EluAttrs> || std::is_same_v<A, LeakyReluAttrs>) {
          a.alpha = as_float16(a.alpha);
        } else if constexpr (std::is_same_v<A, LayerNormalizationAttrs>) {
          a.epsilon = as_float16(a.epsilon);
        } else if constexpr (std::is_same_v<A, PadAttrs>) {
          a.value = as_float16(a.value);
        }
      },
      attrs);
}

// A float16 constant as a float32 constant, converted once, 64-byte aligned so the compiler reads it
// in place.
BufferRef widen_constant(const BufferRef& data) {
  const size_t count = data.size / sizeof(uint16_t);
  const size_t bytes = count * sizeof(float);
  const size_t allocated = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  auto* p = static_cast<std::byte*>(std::aligned_alloc(kAlignment, allocated == 0 ? kAlignment : allocated));
  if (p == nullptr) throw std::bad_alloc();
  convert_float16(data.data.get(), p, count, false);
  BufferRef out;
  out.data = std::shared_ptr<const std::byte>(p, [](const std::byte* q) { std::free(const_cast<std::byte*>(q)); });
  out.size = bytes;
  return out;
}

#ifdef WEBNN_F16C
bool has_f16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (ecx & bit_F16C) != 0 && __builtin_cpu_supports("avx");
}

__attribute__((target("avx,f16c"))) size_t to_float32_f16c(const std::byte* src, std::byte* dst, size_t count) {
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i * 2));
    _mm256_storeu_ps(reinterpret_cast<float*>(dst + i * 4), _mm256_cvtph_ps(h));
  }
  return i;
}

__attribute__((target("avx,f16c"))) size_t to_float16_f16c(const std::byte* src, std::byte* dst, size_t count) {
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m256 f = _mm256_loadu_ps(reinterpret_cast<const float*>(src + i * 4));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i * 2),
                     _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  return i;
}
#endif

}  // namespace

std::vector<std::string> Float16Widening::original_placement(const std::vector<std::string>& placement,
                                                             size_t count) const {
  std::vector<std::string> out(count, "reference");
  for (size_t i = 0; i < origin.size() && i < placement.size(); ++i)
    if (origin[i] != kAddedConversion) out[origin[i]] = placement[i];
  return out;
}

bool is_float16_conversion(const Graph& graph, const Operation& op) {
  if (op.kind != OpKind::kCast) return false;
  const DataType from = graph.desc(op.inputs[0]).data_type, to = graph.desc(op.outputs[0]).data_type;
  return (from == DataType::kFloat16 && to == DataType::kFloat32) ||
         (from == DataType::kFloat32 && to == DataType::kFloat16);
}

Float16Widening widen_float16(std::shared_ptr<const Graph> graph) {
  const Graph& g = *graph;
  Float16Widening out;
  bool any = false;
  for (const Operation& op : g.operations) any = any || widens(g, op);
  if (!any) {
    out.origin.resize(g.operations.size());
    std::iota(out.origin.begin(), out.origin.end(), size_t{0});
    out.graph = std::move(graph);
    return out;
  }

  auto w = std::make_shared<Graph>();
  w->name = g.name;
  w->operands = g.operands;
  w->inputs = g.inputs;
  w->outputs = g.outputs;
  w->constants = g.constants;
  const size_t n = g.operands.size();
  // By float16 operand: its float32 twin, and whether the float16 operand itself holds the value
  // (graph inputs, constants and results of float16 operations do; results of widened ones only
  // once a conversion rounds them).
  std::vector<OperandId> wide(n, kNoOperand);
  std::vector<bool> narrow(n, false);
  for (OperandId id = 0; id < n; ++id) narrow[id] = g.operands[id].kind != OperandKind::kIntermediate;

  auto add_float32 = [&](OperandId like) {
    Operand o;
    o.desc = {DataType::kFloat32, g.desc(like).shape};
    w->operands.push_back(std::move(o));
    return static_cast<OperandId>(w->operands.size() - 1);
  };
  auto add_cast = [&](OperandId from, OperandId to, DataType type) {
    Operation c;
    c.kind = OpKind::kCast;
    c.attrs = CastAttrs{type};
    c.inputs = {from};
    c.outputs = {to};
    w->operations.push_back(std::move(c));
    out.origin.push_back(Float16Widening::kAddedConversion);
  };
  auto to_wide = [&](OperandId id) {
    if (wide[id] != kNoOperand) return wide[id];
    const OperandId f = add_float32(id);
    if (is_constant(g, id)) {
      w->operands[f].kind = OperandKind::kConstant;
      w->operands[f].constant_index = static_cast<uint32_t>(w->constants.size());
      w->constants.push_back(widen_constant(g.constant_data(id)));
    } else {
      add_cast(id, f, DataType::kFloat32);
    }
    return wide[id] = f;
  };
  auto to_narrow = [&](OperandId id) {
    if (narrow[id]) return;
    add_cast(wide[id], id, DataType::kFloat16);
    narrow[id] = true;
  };

  for (size_t i = 0; i < g.operations.size(); ++i) {
    const Operation& op = g.operations[i];
    if (!widens(g, op)) {
      for_each_input(op, [&](OperandId id) {
        if (is_f16(g, id)) to_narrow(id);
      });
      for (OperandId id : op.outputs) narrow[id] = true;
      w->operations.push_back(op);
      out.origin.push_back(i);
      continue;
    }
    Operation x = op;
    for_each_input(x, [&](OperandId& id) {
      if (is_f16(g, id)) id = to_wide(id);
    });
    for (OperandId& id : x.outputs) {
      if (!is_f16(g, id)) continue;
      const OperandId f = add_float32(id);
      wide[id] = f;
      id = f;
    }
    round_options_to_float16(x.attrs);
    w->operations.push_back(std::move(x));
    out.origin.push_back(i);
  }
  for (const NamedOperand& o : g.outputs)
    if (is_f16(g, o.operand)) to_narrow(o.operand);
  out.graph = std::move(w);
  return out;
}

void convert_float16(const std::byte* src, std::byte* dst, size_t count, bool to_float16) {
  size_t done = 0;
#ifdef WEBNN_F16C
  static const bool f16c = has_f16c();
  if (f16c) done = to_float16 ? to_float16_f16c(src, dst, count) : to_float32_f16c(src, dst, count);
#endif
  for (size_t i = done; i < count; ++i) {
    if (to_float16) {
      float f;
      std::memcpy(&f, src + i * 4, 4);
      const uint16_t h = float_to_half(f);
      std::memcpy(dst + i * 2, &h, 2);
    } else {
      uint16_t h;
      std::memcpy(&h, src + i * 2, 2);
      const float f = half_to_float(h);
      std::memcpy(dst + i * 4, &f, 4);
    }
  }
}

void convert_float16_parallel(const std::byte* src, std::byte* dst, size_t count, bool to_float16) {
  // Blocks of 16 KiB of float32: a fork costs microseconds, a block of this size about as much.
  constexpr size_t kBlock = 4096;
  const size_t in = to_float16 ? 4 : 2, out = to_float16 ? 2 : 4;
  const auto blocks = static_cast<ptrdiff_t>((count + kBlock - 1) / kBlock);
#pragma omp parallel for schedule(static) if (blocks > 1)
  for (ptrdiff_t b = 0; b < blocks; ++b) {
    const size_t first = static_cast<size_t>(b) * kBlock;
    convert_float16(src + first * in, dst + first * out, std::min(kBlock, count - first), to_float16);
  }
}

}  // namespace webnn::onednn
