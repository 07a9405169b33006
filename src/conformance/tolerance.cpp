#include "conformance/tolerance.hpp"

#include <cmath>
#include <cstring>
#include <string_view>

#include "core/dispatch.hpp"

namespace webnn::conformance {

namespace {

Tolerance ulp(double n) { return {Tolerance::Kind::kUlp, n}; }
Tolerance atol(double v) { return {Tolerance::Kind::kAtol, v}; }

uint64_t reduced_count(const Shape& input, const OptionalDims& axes) {
  uint64_t n = 1;
  if (!axes) {
    for (uint32_t d : input) n *= d;
  } else {
    for (uint32_t a : *axes)
      if (a < input.size()) n *= input[a];
  }
  return n;
}

}  // namespace

std::string Tolerance::to_string() const {
  return (kind == Kind::kUlp ? std::to_string(static_cast<long long>(value)) + " ULP"
                             : "ATOL " + std::to_string(value));
}

// The WPT rules, per op (float32 | float16 where they differ). Ops the WPT table does not list
// follow the rule of their family, as ../shared/wpt/README.md says: data movement, selection,
// comparison and integer results are exact; normalization and the recurrent ops use the erf-like
// absolute tolerance; scans count one rounding per accumulated element like reduceSum.
Tolerance tolerance_for(const Graph& graph, const Operation& op, DataType type) {
  const bool f16 = type == DataType::kFloat16;
  auto in_shape = [&](size_t i) -> const Shape& { return graph.desc(op.inputs.at(i)).shape; };
  auto reduced = [&]() { return double(reduced_count(in_shape(0), std::get<ReduceAttrs>(op.attrs).axes)); };
  auto pool_window = [&]() {
    const auto& a = std::get<Pool2dAttrs>(op.attrs);
    const ImageDims dims = image_dims(in_shape(0), a.layout);
    return a.window_dimensions ? double((*a.window_dimensions)[0]) * (*a.window_dimensions)[1]
                               : double(dims.height) * dims.width;
  };
  switch (op.kind) {
    case OpKind::kAbs:
    case OpKind::kCeil:
    case OpKind::kFloor:
    case OpKind::kNeg:
    case OpKind::kIdentity:
    case OpKind::kRoundEven:
    case OpKind::kSign:
    case OpKind::kRelu:
    case OpKind::kClamp:
    case OpKind::kCast:
    case OpKind::kMax:
    case OpKind::kMin:
    case OpKind::kMaxPool2d:
    case OpKind::kReduceMax:
    case OpKind::kReduceMin:
    case OpKind::kArgMax:
    case OpKind::kArgMin:
    case OpKind::kEqual:
    case OpKind::kNotEqual:
    case OpKind::kGreater:
    case OpKind::kGreaterOrEqual:
    case OpKind::kLesser:
    case OpKind::kLesserOrEqual:
    case OpKind::kLogicalNot:
    case OpKind::kLogicalAnd:
    case OpKind::kLogicalOr:
    case OpKind::kLogicalXor:
    case OpKind::kIsNaN:
    case OpKind::kIsInfinite:
    case OpKind::kWhere:
    case OpKind::kReshape:
    case OpKind::kTranspose:
    case OpKind::kConcat:
    case OpKind::kSplit:
    case OpKind::kSlice:
    case OpKind::kExpand:
    case OpKind::kPad:
    case OpKind::kReverse:
    case OpKind::kTile:
    case OpKind::kTriangular:
    case OpKind::kGather:
    case OpKind::kGatherElements:
    case OpKind::kGatherNd:
    case OpKind::kScatterElements:
    case OpKind::kScatterNd:
    case OpKind::kQuantizeLinear:
      return ulp(0);
    case OpKind::kAdd:
    case OpKind::kSub:
    case OpKind::kMul:
    case OpKind::kSqrt:
    case OpKind::kLeakyRelu:
    case OpKind::kPrelu:
    case OpKind::kDequantizeLinear:
      return ulp(1);
    case OpKind::kDiv:
    case OpKind::kReciprocal:
    case OpKind::kHardSigmoid:
    case OpKind::kLinear:
      return ulp(2);
    case OpKind::kSoftsign:
      return ulp(3);
    case OpKind::kHardSwish:
      return ulp(4);
    case OpKind::kBatchNormalization:
      return ulp(6);
    case OpKind::kElu:
    case OpKind::kSoftplus:
      return ulp(18);
    case OpKind::kExp:
      return ulp(f16 ? 1 : 32);
    case OpKind::kPow:
      return ulp(f16 ? 2 : 32);
    case OpKind::kSigmoid:
      return ulp(f16 ? 3 : 34);
    case OpKind::kLog:
      return atol(1.0 / 1024);
    case OpKind::kCos:
    case OpKind::kSin:
    case OpKind::kTan:
    case OpKind::kErf:
    case OpKind::kTanh:
    case OpKind::kGelu:
    case OpKind::kLayerNormalization:
    case OpKind::kInstanceNormalization:
    case OpKind::kResample2d:
    case OpKind::kGru:
    case OpKind::kGruCell:
    case OpKind::kLstm:
    case OpKind::kLstmCell:
      return atol(f16 ? 1.0 / 512 : 1.0 / 1024);
    case OpKind::kConv2d: {
      const auto& a = std::get<Conv2dAttrs>(op.attrs);
      const Shape& in = in_shape(0);
      const FilterDims f = filter_dims(in_shape(1), a.filter_layout);
      return ulp(2.0 * f.height * f.width * (image_dims(in, a.input_layout).channels / a.groups));
    }
    case OpKind::kConvTranspose2d: {
      const auto& a = std::get<ConvTranspose2dAttrs>(op.attrs);
      const FilterDims f = filter_dims(in_shape(1), a.filter_layout);
      return ulp(2.0 * f.height * f.width * (image_dims(in_shape(0), a.input_layout).channels / a.groups));
    }
    case OpKind::kMatmul:
      return ulp(2.0 * in_shape(0).back());
    case OpKind::kGemm: {
      const auto& a = std::get<GemmAttrs>(op.attrs);
      double k = a.a_transpose ? in_shape(0)[0] : in_shape(0)[1];
      double n = 2 * k;
      if (a.alpha != 1) n += 1;
      if (a.c && a.beta != 0) n += 1;
      if (a.beta != 1) n += 1;
      return ulp(n);
    }
    case OpKind::kAveragePool2d:
      return ulp(pool_window() + 2);
    case OpKind::kL2Pool2d:  // like reduceL2 over the window
      return ulp(2 * pool_window() + 1);
    case OpKind::kSoftmax:
      return ulp(3.0 * in_shape(0)[std::get<SoftmaxAttrs>(op.attrs).axis] + 3);
    case OpKind::kReduceL1:
    case OpKind::kReduceProduct:
    case OpKind::kReduceSum:
      return ulp(reduced());
    case OpKind::kReduceL2:
      return ulp(2 * reduced() + 1);
    case OpKind::kReduceMean:
      return ulp(reduced() + 2);
    case OpKind::kReduceLogSum:
      return ulp(reduced() + 18);
    case OpKind::kReduceLogSumExp:
      return ulp(2 * reduced() + 18);
    case OpKind::kReduceSumSquare:
      return ulp(2 * reduced());
    case OpKind::kCumulativeSum:
      return ulp(double(in_shape(0).at(std::get<CumulativeSumAttrs>(op.attrs).axis)));
  }
  return ulp(0);
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
