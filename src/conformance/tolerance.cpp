#include "conformance/tolerance.hpp"

#include <cmath>
#include <cstring>
#include <string_view>

#include "core/dispatch.hpp"

namespace webnn::conformance {

namespace {

Tolerance ulp(double n) { return {Tolerance::Kind::kUlp, n}; }
Tolerance atol(double v) { return {Tolerance::Kind::kAtol, v}; }

uint64_t reduced_count(const Shape& input, const DefaultedDims& axes) {
  uint64_t n = 1;
  for (uint32_t a : *axes) n *= input.at(a);
  return n;
}

// What one output element of `op` accumulates, as `count` (a column of op_table.def) names it.
double counted(const Graph& graph, const Operation& op, ToleranceRule::Count count) {
  auto in_shape = [&](size_t i) -> const Shape& { return graph.desc(op.inputs.at(i)).shape; };
  auto conv_window = [&](const auto& a) {
    const FilterDims f = filter_dims(in_shape(1), a.filter_layout);
    return double(f.height) * f.width * (image_dims(in_shape(0), a.input_layout).channels / a.groups);
  };
  switch (count) {
    case ToleranceRule::Count::kNone:
      return 0;
    case ToleranceRule::Count::kConvWindow:
      if (const auto* a = std::get_if<Conv2dAttrs>(&op.attrs)) return conv_window(*a);
      return conv_window(std::get<ConvTranspose2dAttrs>(op.attrs));
    case ToleranceRule::Count::kInnerDim:
      return double(in_shape(0).back());
    case ToleranceRule::Count::kGemm: {
      const auto& a = std::get<GemmAttrs>(op.attrs);
      double k = a.a_transpose ? in_shape(0)[0] : in_shape(0)[1];
      double n = 2 * k;
      if (a.alpha != 1) n += 1;
      if (a.c && a.beta != 0) n += 1;
      if (a.beta != 1) n += 1;
      return n;
    }
    case ToleranceRule::Count::kPoolWindow: {
      const auto& a = std::get<Pool2dAttrs>(op.attrs);
      return double((*a.window_dimensions)[0]) * (*a.window_dimensions)[1];
    }
    case ToleranceRule::Count::kSoftmaxAxis:
      return double(in_shape(0)[std::get<SoftmaxAttrs>(op.attrs).axis]);
    case ToleranceRule::Count::kReduced:
      return double(reduced_count(in_shape(0), std::get<ReduceAttrs>(op.attrs).axes));
    case ToleranceRule::Count::kScanAxis:
      return double(in_shape(0).at(std::get<CumulativeSumAttrs>(op.attrs).axis));
  }
  return 0;
}

}  // namespace

std::string Tolerance::to_string() const {
  return (kind == Kind::kUlp ? std::to_string(static_cast<long long>(value)) + " ULP"
                             : "ATOL " + std::to_string(value));
}

// The rules themselves are the tolerance column of op_table.def.
Tolerance tolerance_for(const Graph& graph, const Operation& op, DataType type) {
  const ToleranceRule& rule = tolerance_rule(op.kind);
  const double base = type == DataType::kFloat16 ? rule.float16 : rule.float32;
  if (rule.kind == ToleranceRule::Kind::kAtol) return atol(base);
  if (rule.count == ToleranceRule::Count::kNone) return ulp(base);
  return ulp(rule.per_count * counted(graph, op, rule.count) + base);
}

namespace {

// Distance in units in the last place, through the order-preserving integer image of the bits.
int64_t ordered_bits(uint32_t bits) { return (bits & 0x80000000u) ? -int64_t(bits & 0x7fffffffu) : int64_t(bits); }
int64_t ordered_bits16(uint16_t bits) { return (bits & 0x8000u) ? -int64_t(bits & 0x7fffu) : int64_t(bits); }

template <class T>
double to_double(const T& v) {
  if constexpr (std::is_same_v<T, Float16>) {
    return static_cast<float>(v);
  } else {
    return static_cast<double>(v);
  }
}

}  // namespace

std::optional<Mismatch> compare(DataType type, std::span<const std::byte> expected, std::span<const std::byte> actual,
                                const Tolerance& tolerance) {
  if (expected.size() != actual.size()) return Mismatch{0, double(expected.size()), double(actual.size()), INFINITY};
  return visit_type(type, [&]<class T>() -> std::optional<Mismatch> {
    const size_t count = expected.size() / sizeof(T);
    for (size_t i = 0; i < count; ++i) {
      T e, a;
      std::memcpy(&e, expected.data() + i * sizeof(T), sizeof(T));
      std::memcpy(&a, actual.data() + i * sizeof(T), sizeof(T));
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, Float16>) {
        double de = to_double(e), da = to_double(a);
        if (std::isnan(de) || std::isnan(da)) {
          if (std::isnan(de) && std::isnan(da)) continue;
          return Mismatch{i, de, da, INFINITY};
        }
        if (std::isinf(de) || std::isinf(da)) {
          if (de == da) continue;
          return Mismatch{i, de, da, INFINITY};
        }
        double distance;
        if (tolerance.kind == Tolerance::Kind::kAtol) {
          distance = std::fabs(de - da);
        } else if constexpr (std::is_same_v<T, float>) {
          uint32_t be, ba;
          std::memcpy(&be, &e, 4);
          std::memcpy(&ba, &a, 4);
          distance = double(std::llabs(ordered_bits(be) - ordered_bits(ba)));
        } else {
          distance = double(std::llabs(ordered_bits16(e.bits) - ordered_bits16(a.bits)));
        }
        if (distance > tolerance.value) return Mismatch{i, de, da, distance};
      } else {
        if (e != a) return Mismatch{i, to_double(e), to_double(a), INFINITY};
      }
    }
    return std::nullopt;
  });
}

}  // namespace webnn::conformance
