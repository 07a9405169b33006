// Operator attributes: one struct per op family holding the op's required non-operand parameters
// and its options, with operand-valued options as OperandRef.
//
// Each struct declares its fields once, in `fields(self, visitor)`, by their spec (camelCase)
// names. Everything that walks attributes — the JSON and text graph formats, Python keyword
// arguments, DOT labels, the wire schema — iterates that declaration instead of naming the fields
// again. Defaults are the member initializers; an absent optional list means "the spec's default"
// (which the validation in src/ops/ fills in), which differs from an explicitly empty list.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "webnn/types.hpp"

namespace webnn {

using OperandId = uint32_t;

// A reference to an operand of the same graph from an operand-valued option (bias, scale, c, ...).
struct OperandRef {
  OperandId id = 0;
  friend bool operator==(const OperandRef&, const OperandRef&) = default;
};

// ---- Enums of the spec, each with its names in declaration order ----

// spec: #enumdef-mlinputoperandlayout
enum class InputLayout : uint8_t { kNchw, kNhwc };
// spec: #enumdef-mlconv2dfilteroperandlayout
enum class Conv2dFilterLayout : uint8_t { kOihw, kHwio, kOhwi, kIhwo };
// spec: #enumdef-mlroundingtype
enum class RoundingType : uint8_t { kFloor, kCeil };

template <class E>
struct EnumNames;  // static constexpr std::string_view kNames[]
template <>
struct EnumNames<InputLayout> {
  static constexpr std::string_view kNames[] = {"nchw", "nhwc"};
};
template <>
struct EnumNames<Conv2dFilterLayout> {
  static constexpr std::string_view kNames[] = {"oihw", "hwio", "ohwi", "ihwo"};
};
template <>
struct EnumNames<RoundingType> {
  static constexpr std::string_view kNames[] = {"floor", "ceil"};
};

template <class E>
concept SpecEnum = requires {
  EnumNames<E>::kNames;
};

template <SpecEnum E>
std::string_view enum_name(E value) {
  return EnumNames<E>::kNames[static_cast<size_t>(value)];
}
template <SpecEnum E>
std::optional<E> parse_enum(std::string_view name) {
  size_t i = 0;
  for (std::string_view n : EnumNames<E>::kNames) {
    if (n == name) return static_cast<E>(i);
    ++i;
  }
  return std::nullopt;
}

// The logical dimensions of a 4-D input (or output) tensor in `layout`. The shape must have rank 4.
struct ImageDims {
  uint32_t batches, channels, height, width;
};
inline ImageDims image_dims(const std::vector<uint32_t>& s, InputLayout layout) {
  return layout == InputLayout::kNchw ? ImageDims{s[0], s[1], s[2], s[3]} : ImageDims{s[0], s[3], s[1], s[2]};
}

// The logical dimensions of a 4-D conv2d filter in `layout` (spec: MLConv2dFilterOperandLayout).
struct FilterDims {
  uint32_t output_channels, input_channels, height, width;
};
inline FilterDims filter_dims(const std::vector<uint32_t>& f, Conv2dFilterLayout layout) {
  switch (layout) {
    case Conv2dFilterLayout::kOihw:
      return {f[0], f[1], f[2], f[3]};
    case Conv2dFilterLayout::kHwio:
      return {f[3], f[2], f[0], f[1]};
    case Conv2dFilterLayout::kOhwi:
      return {f[0], f[3], f[1], f[2]};
    case Conv2dFilterLayout::kIhwo:
      return {f[3], f[0], f[1], f[2]};
  }
  return {f[0], f[1], f[2], f[3]};
}

// split()'s `splits`: a number of equal parts, or the list of part sizes.
using SplitSpec = std::variant<uint32_t, std::vector<uint32_t>>;

using OptionalDims = std::optional<std::vector<uint32_t>>;

// ---- Attribute structs ----
// Field types a visitor must handle: bool, uint32_t, double, Number, DataType, a SpecEnum,
// std::vector<uint32_t>, OptionalDims, std::optional<OperandRef>, SplitSpec.

struct NoAttrs {
  template <class S, class V>
  static void fields(S&, V&&) {}
  friend bool operator==(const NoAttrs&, const NoAttrs&) = default;
};

// spec: #api-mlgraphbuilder-clamp
struct ClampAttrs {
  Number min_value = -std::numeric_limits<double>::infinity();
  Number max_value = std::numeric_limits<double>::infinity();
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("minValue", s.min_value);
    v("maxValue", s.max_value);
  }
  friend bool operator==(const ClampAttrs&, const ClampAttrs&) = default;
};

// spec: #api-mlgraphbuilder-cast
struct CastAttrs {
  DataType data_type = DataType::kFloat32;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("dataType", s.data_type);
  }
  friend bool operator==(const CastAttrs&, const CastAttrs&) = default;
};

// spec: #api-mlgraphbuilder-conv2d
struct Conv2dAttrs {
  OptionalDims padding;    // [beginningHeight, endingHeight, beginningWidth, endingWidth]
  OptionalDims strides;    // [strideHeight, strideWidth]
  OptionalDims dilations;  // [dilationHeight, dilationWidth]
  uint32_t groups = 1;
  InputLayout input_layout = InputLayout::kNchw;
  Conv2dFilterLayout filter_layout = Conv2dFilterLayout::kOihw;
  std::optional<OperandRef> bias;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("padding", s.padding);
    v("strides", s.strides);
    v("dilations", s.dilations);
    v("groups", s.groups);
    v("inputLayout", s.input_layout);
    v("filterLayout", s.filter_layout);
    v("bias", s.bias);
  }
  friend bool operator==(const Conv2dAttrs&, const Conv2dAttrs&) = default;
};

// spec: #api-mlgraphbuilder-pool2d
struct Pool2dAttrs {
  OptionalDims window_dimensions;  // [windowHeight, windowWidth]; absent: the whole input
  OptionalDims padding;
  OptionalDims strides;
  OptionalDims dilations;
  InputLayout layout = InputLayout::kNchw;
  RoundingType output_shape_rounding = RoundingType::kFloor;
  OptionalDims output_sizes;  // [outputHeight, outputWidth]
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("windowDimensions", s.window_dimensions);
    v("padding", s.padding);
    v("strides", s.strides);
    v("dilations", s.dilations);
    v("layout", s.layout);
    v("outputShapeRounding", s.output_shape_rounding);
    v("outputSizes", s.output_sizes);
  }
  friend bool operator==(const Pool2dAttrs&, const Pool2dAttrs&) = default;
};

// spec: #api-mlgraphbuilder-gemm
struct GemmAttrs {
  std::optional<OperandRef> c;
  double alpha = 1.0;
  double beta = 1.0;
  bool a_transpose = false;
  bool b_transpose = false;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("c", s.c);
    v("alpha", s.alpha);
    v("beta", s.beta);
    v("aTranspose", s.a_transpose);
    v("bTranspose", s.b_transpose);
  }
  friend bool operator==(const GemmAttrs&, const GemmAttrs&) = default;
};

// spec: #api-mlgraphbuilder-layernorm
struct LayerNormalizationAttrs {
  std::optional<OperandRef> scale;
  std::optional<OperandRef> bias;
  OptionalDims axes;  // absent: [1, ..., rank - 1]
  double epsilon = 1e-5;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("scale", s.scale);
    v("bias", s.bias);
    v("axes", s.axes);
    v("epsilon", s.epsilon);
  }
  friend bool operator==(const LayerNormalizationAttrs&, const LayerNormalizationAttrs&) = default;
};

// spec: #api-mlgraphbuilder-softmax-method
struct SoftmaxAttrs {
  uint32_t axis = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("axis", s.axis);
  }
  friend bool operator==(const SoftmaxAttrs&, const SoftmaxAttrs&) = default;
};

// spec: #api-mlgraphbuilder-reduce
struct ReduceAttrs {
  OptionalDims axes;  // absent: every axis
  bool keep_dimensions = false;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("axes", s.axes);
    v("keepDimensions", s.keep_dimensions);
  }
  friend bool operator==(const ReduceAttrs&, const ReduceAttrs&) = default;
};

// spec: #api-mlgraphbuilder-reshape-method
struct ReshapeAttrs {
  std::vector<uint32_t> new_shape;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("newShape", s.new_shape);
  }
  friend bool operator==(const ReshapeAttrs&, const ReshapeAttrs&) = default;
};

// spec: #api-mlgraphbuilder-transpose
struct TransposeAttrs {
  OptionalDims permutation;  // absent: reversed axes
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("permutation", s.permutation);
  }
  friend bool operator==(const TransposeAttrs&, const TransposeAttrs&) = default;
};

// spec: #api-mlgraphbuilder-concat
struct ConcatAttrs {
  uint32_t axis = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("axis", s.axis);
  }
  friend bool operator==(const ConcatAttrs&, const ConcatAttrs&) = default;
};

// spec: #api-mlgraphbuilder-split
struct SplitAttrs {
  SplitSpec splits = uint32_t{1};
  uint32_t axis = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("splits", s.splits);
    v("axis", s.axis);
  }
  friend bool operator==(const SplitAttrs&, const SplitAttrs&) = default;
};

// spec: #api-mlgraphbuilder-slice
struct SliceAttrs {
  std::vector<uint32_t> starts;
  std::vector<uint32_t> sizes;
  OptionalDims strides;  // absent: all 1
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("starts", s.starts);
    v("sizes", s.sizes);
    v("strides", s.strides);
  }
  friend bool operator==(const SliceAttrs&, const SliceAttrs&) = default;
};

}  // namespace webnn
