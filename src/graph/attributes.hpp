// Operator attributes: one struct per op family holding the op's required non-operand parameters
// and its options, with operand-valued options as OperandRef.
//
// Each struct declares its fields once, in `fields(self, visitor)`, by their spec (camelCase)
// names. Everything that walks attributes — the JSON and text graph formats, Python keyword
// arguments, DOT labels, the wire schema — iterates that declaration instead of naming the fields
// again. Defaults are the member initializers; a list option whose default depends on the operands
// (padding, axes, ...) is a Defaulted, which the validation in src/ops/ resolves: after ops::infer
// every Defaulted holds the value the operation uses, and records whether the caller gave it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
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
// spec: #enumdef-mlconvtranspose2dfilteroperandlayout
enum class ConvTranspose2dFilterLayout : uint8_t { kIohw, kHwoi, kOhwi };
// spec: #enumdef-mlinterpolationmode
enum class InterpolationMode : uint8_t { kNearestNeighbor, kLinear };
// spec: #enumdef-mlpaddingmode
enum class PaddingMode : uint8_t { kConstant, kEdge, kReflection };
// spec: #enumdef-mlrecurrentnetworkdirection
enum class RecurrentDirection : uint8_t { kForward, kBackward, kBoth };
// spec: #enumdef-mlgruweightlayout
enum class GruWeightLayout : uint8_t { kZrn, kRzn };
// spec: #enumdef-mllstmweightlayout
enum class LstmWeightLayout : uint8_t { kIofg, kIfgo };
// spec: #enumdef-mlrecurrentnetworkactivation
enum class RecurrentActivation : uint8_t { kRelu, kSigmoid, kTanh };

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
template <>
struct EnumNames<ConvTranspose2dFilterLayout> {
  static constexpr std::string_view kNames[] = {"iohw", "hwoi", "ohwi"};
};
template <>
struct EnumNames<InterpolationMode> {
  static constexpr std::string_view kNames[] = {"nearest-neighbor", "linear"};
};
template <>
struct EnumNames<PaddingMode> {
  static constexpr std::string_view kNames[] = {"constant", "edge", "reflection"};
};
template <>
struct EnumNames<RecurrentDirection> {
  static constexpr std::string_view kNames[] = {"forward", "backward", "both"};
};
template <>
struct EnumNames<GruWeightLayout> {
  static constexpr std::string_view kNames[] = {"zrn", "rzn"};
};
template <>
struct EnumNames<LstmWeightLayout> {
  static constexpr std::string_view kNames[] = {"iofg", "ifgo"};
};
template <>
struct EnumNames<RecurrentActivation> {
  static constexpr std::string_view kNames[] = {"relu", "sigmoid", "tanh"};
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
// The same for a convTranspose2d filter (spec: MLConvTranspose2dFilterOperandLayout). Its own
// sizes: output_channels is the spec's filterOutputChannels (outputChannels / groups) and
// input_channels the whole input's channels.
inline FilterDims filter_dims(const std::vector<uint32_t>& f, ConvTranspose2dFilterLayout layout) {
  switch (layout) {
    case ConvTranspose2dFilterLayout::kIohw:
      return {f[1], f[0], f[2], f[3]};
    case ConvTranspose2dFilterLayout::kHwoi:
      return {f[2], f[3], f[0], f[1]};
    case ConvTranspose2dFilterLayout::kOhwi:
      return {f[0], f[3], f[1], f[2]};
  }
  return {f[1], f[0], f[2], f[3]};
}

// split()'s `splits`: a number of equal parts, or the list of part sizes.
using SplitSpec = std::variant<uint32_t, std::vector<uint32_t>>;

// An option with no default: absent means something else than any value (pool2d's and
// convTranspose2d's outputSizes, resample2d's sizes).
using OptionalDims = std::optional<std::vector<uint32_t>>;

// An option the spec gives a default: what the caller gave, or — once ops::infer has validated
// the operation — the default it resolves to ("padding" [0, 0, 0, 0], "axes" [1, ..., rank - 1],
// ...). Readers take the value with * or ->, never a default of their own; given() records whether
// the caller wrote it, so that graph files, ONNX export and the wire codec write back exactly what
// the caller gave. Only the validation in src/ops/ calls resolve().
template <class T>
class Defaulted {
 public:
  Defaulted() = default;
  Defaulted(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): reads as an optional
  Defaulted(T value) : value_(std::move(value)), state_(State::kGiven) {}  // NOLINT(google-explicit-constructor)
  // Given when `value` holds one, left to the default otherwise. (A template, so that a braced
  // list converts to T alone.)
  template <class O, class = std::enable_if_t<std::is_same_v<std::decay_t<O>, std::optional<T>>>>
  Defaulted(O&& value) : Defaulted(from(std::forward<O>(value))) {}  // NOLINT(google-explicit-constructor)

  bool given() const { return state_ == State::kGiven; }
  // The caller's value, or nullptr when the caller left it to the default.
  const T* if_given() const { return given() ? &value_ : nullptr; }
  std::optional<T> caller_value() const { return given() ? std::optional<T>(value_) : std::nullopt; }

  // The value the operation uses. Throws (an internal error) when the option was not given and
  // validation has not resolved it: an operation that skipped ops::infer.
  const T& operator*() const {
    if (state_ == State::kAbsent)
      throw_error(ErrorKind::kUnknownError, "internal: an option's default was read before validation resolved it");
    return value_;
  }
  const T* operator->() const { return &**this; }

  // Validation only (src/ops/): the spec's default, unless the caller gave a value.
  void resolve(T default_value) {
    if (given()) return;
    value_ = std::move(default_value);
    state_ = State::kResolved;
  }

  // Equal when both leave the option to the default or both give the same value: the resolved
  // default follows from the operands, not from the options.
  friend bool operator==(const Defaulted& a, const Defaulted& b) {
    return a.given() == b.given() && (!a.given() || a.value_ == b.value_);
  }

 private:
  enum class State : uint8_t { kAbsent, kGiven, kResolved };
  template <class O>
  static Defaulted from(O&& value) {
    return value ? Defaulted(*std::forward<O>(value)) : Defaulted();
  }
  T value_{};
  State state_ = State::kAbsent;
};

template <class T>
inline constexpr bool kIsDefaulted = false;
template <class T>
inline constexpr bool kIsDefaulted<Defaulted<T>> = true;

using DefaultedDims = Defaulted<std::vector<uint32_t>>;
// resample2d's `scales` (sequence<float>).
using DefaultedFloats = Defaulted<std::vector<float>>;
// The recurrent ops' `activations`.
using DefaultedActivations = Defaulted<std::vector<RecurrentActivation>>;

// ---- Attribute structs ----
// Field types a visitor must handle: bool, uint32_t, int32_t, double, Number, DataType, a
// SpecEnum, std::vector<uint32_t>, OptionalDims, DefaultedDims, DefaultedFloats,
// DefaultedActivations, std::optional<OperandRef>, SplitSpec.

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
  DefaultedDims padding;    // [beginningHeight, endingHeight, beginningWidth, endingWidth]
  DefaultedDims strides;    // [strideHeight, strideWidth]
  DefaultedDims dilations;  // [dilationHeight, dilationWidth]
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
  DefaultedDims window_dimensions;  // [windowHeight, windowWidth]; absent: the whole input
  DefaultedDims padding;
  DefaultedDims strides;
  DefaultedDims dilations;
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
  DefaultedDims axes;  // absent: [1, ..., rank - 1]
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
  DefaultedDims axes;  // absent: every axis
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
  DefaultedDims permutation;  // absent: reversed axes
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
  DefaultedDims strides;  // absent: all 1
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("starts", s.starts);
    v("sizes", s.sizes);
    v("strides", s.strides);
  }
  friend bool operator==(const SliceAttrs&, const SliceAttrs&) = default;
};

// spec: #api-mlgraphbuilder-elu
struct EluAttrs {
  double alpha = 1.0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("alpha", s.alpha);
  }
  friend bool operator==(const EluAttrs&, const EluAttrs&) = default;
};

// spec: #api-mlgraphbuilder-hard-sigmoid
struct HardSigmoidAttrs {
  double alpha = 0.2;
  double beta = 0.5;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("alpha", s.alpha);
    v("beta", s.beta);
  }
  friend bool operator==(const HardSigmoidAttrs&, const HardSigmoidAttrs&) = default;
};

// spec: #api-mlgraphbuilder-leakyrelu
struct LeakyReluAttrs {
  double alpha = 0.01;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("alpha", s.alpha);
  }
  friend bool operator==(const LeakyReluAttrs&, const LeakyReluAttrs&) = default;
};

// spec: #api-mlgraphbuilder-linear
struct LinearAttrs {
  double alpha = 1.0;
  double beta = 0.0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("alpha", s.alpha);
    v("beta", s.beta);
  }
  friend bool operator==(const LinearAttrs&, const LinearAttrs&) = default;
};

// spec: #api-mlgraphbuilder-convtranspose2d
struct ConvTranspose2dAttrs {
  DefaultedDims padding;         // [beginningHeight, endingHeight, beginningWidth, endingWidth]
  DefaultedDims strides;         // [strideHeight, strideWidth]
  DefaultedDims dilations;       // [dilationHeight, dilationWidth]
  DefaultedDims output_padding;  // [outputPaddingHeight, outputPaddingWidth]
  OptionalDims output_sizes;     // [outputHeight, outputWidth]
  uint32_t groups = 1;
  InputLayout input_layout = InputLayout::kNchw;
  ConvTranspose2dFilterLayout filter_layout = ConvTranspose2dFilterLayout::kIohw;
  std::optional<OperandRef> bias;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("padding", s.padding);
    v("strides", s.strides);
    v("dilations", s.dilations);
    v("outputPadding", s.output_padding);
    v("outputSizes", s.output_sizes);
    v("groups", s.groups);
    v("inputLayout", s.input_layout);
    v("filterLayout", s.filter_layout);
    v("bias", s.bias);
  }
  friend bool operator==(const ConvTranspose2dAttrs&, const ConvTranspose2dAttrs&) = default;
};

// spec: #api-mlgraphbuilder-resample2d-method
struct Resample2dAttrs {
  InterpolationMode mode = InterpolationMode::kNearestNeighbor;
  DefaultedFloats scales;  // absent: [1.0, 1.0]
  OptionalDims sizes;      // when given, scales is ignored
  DefaultedDims axes;      // absent: [2, 3]
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("mode", s.mode);
    v("scales", s.scales);
    v("sizes", s.sizes);
    v("axes", s.axes);
  }
  friend bool operator==(const Resample2dAttrs&, const Resample2dAttrs&) = default;
};

// spec: #api-mlgraphbuilder-batchnorm. Positional operands: input, mean, variance.
struct BatchNormalizationAttrs {
  std::optional<OperandRef> scale;
  std::optional<OperandRef> bias;
  uint32_t axis = 1;
  double epsilon = 1e-5;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("scale", s.scale);
    v("bias", s.bias);
    v("axis", s.axis);
    v("epsilon", s.epsilon);
  }
  friend bool operator==(const BatchNormalizationAttrs&, const BatchNormalizationAttrs&) = default;
};

// spec: #api-mlgraphbuilder-instancenorm
struct InstanceNormalizationAttrs {
  std::optional<OperandRef> scale;
  std::optional<OperandRef> bias;
  double epsilon = 1e-5;
  InputLayout layout = InputLayout::kNchw;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("scale", s.scale);
    v("bias", s.bias);
    v("epsilon", s.epsilon);
    v("layout", s.layout);
  }
  friend bool operator==(const InstanceNormalizationAttrs&, const InstanceNormalizationAttrs&) = default;
};

// spec: #api-mlgraphbuilder-argminmax
struct ArgMinMaxAttrs {
  uint32_t axis = 0;
  bool keep_dimensions = false;
  DataType output_data_type = DataType::kInt32;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("axis", s.axis);
    v("keepDimensions", s.keep_dimensions);
    v("outputDataType", s.output_data_type);
  }
  friend bool operator==(const ArgMinMaxAttrs&, const ArgMinMaxAttrs&) = default;
};

// spec: #api-mlgraphbuilder-cumulativesum
struct CumulativeSumAttrs {
  uint32_t axis = 0;
  bool exclusive = false;
  bool reversed = false;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("axis", s.axis);
    v("exclusive", s.exclusive);
    v("reversed", s.reversed);
  }
  friend bool operator==(const CumulativeSumAttrs&, const CumulativeSumAttrs&) = default;
};

// spec: #api-mlgraphbuilder-expand
struct ExpandAttrs {
  std::vector<uint32_t> new_shape;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("newShape", s.new_shape);
  }
  friend bool operator==(const ExpandAttrs&, const ExpandAttrs&) = default;
};

// spec: #api-mlgraphbuilder-pad
struct PadAttrs {
  std::vector<uint32_t> beginning_padding;
  std::vector<uint32_t> ending_padding;
  PaddingMode mode = PaddingMode::kConstant;
  Number value = 0.0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("beginningPadding", s.beginning_padding);
    v("endingPadding", s.ending_padding);
    v("mode", s.mode);
    v("value", s.value);
  }
  friend bool operator==(const PadAttrs&, const PadAttrs&) = default;
};

// spec: #api-mlgraphbuilder-reverse-method
struct ReverseAttrs {
  DefaultedDims axes;  // absent: every axis
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("axes", s.axes);
  }
  friend bool operator==(const ReverseAttrs&, const ReverseAttrs&) = default;
};

// spec: #api-mlgraphbuilder-tile
struct TileAttrs {
  std::vector<uint32_t> repetitions;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("repetitions", s.repetitions);
  }
  friend bool operator==(const TileAttrs&, const TileAttrs&) = default;
};

// spec: #api-mlgraphbuilder-triangular
struct TriangularAttrs {
  bool upper = true;
  int32_t diagonal = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("upper", s.upper);
    v("diagonal", s.diagonal);
  }
  friend bool operator==(const TriangularAttrs&, const TriangularAttrs&) = default;
};

// spec: #api-mlgraphbuilder-gather, #api-mlgraphbuilder-gatherelements (MLGatherOptions)
struct GatherAttrs {
  uint32_t axis = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("axis", s.axis);
  }
  friend bool operator==(const GatherAttrs&, const GatherAttrs&) = default;
};

// spec: #api-mlgraphbuilder-scatterelements (MLScatterOptions)
struct ScatterAttrs {
  uint32_t axis = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("axis", s.axis);
  }
  friend bool operator==(const ScatterAttrs&, const ScatterAttrs&) = default;
};

// spec: #api-mlgraphbuilder-gru. Positional operands: input, weight, recurrentWeight.
struct GruAttrs {
  uint32_t steps = 0;
  uint32_t hidden_size = 0;
  std::optional<OperandRef> bias;
  std::optional<OperandRef> recurrent_bias;
  std::optional<OperandRef> initial_hidden_state;
  bool reset_after = true;
  bool return_sequence = false;
  RecurrentDirection direction = RecurrentDirection::kForward;
  GruWeightLayout layout = GruWeightLayout::kZrn;
  DefaultedActivations activations;  // absent: [sigmoid, tanh]
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("steps", s.steps);
    v("hiddenSize", s.hidden_size);
    v("bias", s.bias);
    v("recurrentBias", s.recurrent_bias);
    v("initialHiddenState", s.initial_hidden_state);
    v("resetAfter", s.reset_after);
    v("returnSequence", s.return_sequence);
    v("direction", s.direction);
    v("layout", s.layout);
    v("activations", s.activations);
  }
  friend bool operator==(const GruAttrs&, const GruAttrs&) = default;
};

// spec: #api-mlgraphbuilder-grucell. Positional operands: input, weight, recurrentWeight,
// hiddenState.
struct GruCellAttrs {
  uint32_t hidden_size = 0;
  std::optional<OperandRef> bias;
  std::optional<OperandRef> recurrent_bias;
  bool reset_after = true;
  GruWeightLayout layout = GruWeightLayout::kZrn;
  DefaultedActivations activations;  // absent: [sigmoid, tanh]
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("hiddenSize", s.hidden_size);
    v("bias", s.bias);
    v("recurrentBias", s.recurrent_bias);
    v("resetAfter", s.reset_after);
    v("layout", s.layout);
    v("activations", s.activations);
  }
  friend bool operator==(const GruCellAttrs&, const GruCellAttrs&) = default;
};

// spec: #api-mlgraphbuilder-lstm. Positional operands: input, weight, recurrentWeight.
struct LstmAttrs {
  uint32_t steps = 0;
  uint32_t hidden_size = 0;
  std::optional<OperandRef> bias;
  std::optional<OperandRef> recurrent_bias;
  std::optional<OperandRef> peephole_weight;
  std::optional<OperandRef> initial_hidden_state;
  std::optional<OperandRef> initial_cell_state;
  bool return_sequence = false;
  RecurrentDirection direction = RecurrentDirection::kForward;
  LstmWeightLayout layout = LstmWeightLayout::kIofg;
  DefaultedActivations activations;  // absent: [sigmoid, tanh, tanh]
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("steps", s.steps);
    v("hiddenSize", s.hidden_size);
    v("bias", s.bias);
    v("recurrentBias", s.recurrent_bias);
    v("peepholeWeight", s.peephole_weight);
    v("initialHiddenState", s.initial_hidden_state);
    v("initialCellState", s.initial_cell_state);
    v("returnSequence", s.return_sequence);
    v("direction", s.direction);
    v("layout", s.layout);
    v("activations", s.activations);
  }
  friend bool operator==(const LstmAttrs&, const LstmAttrs&) = default;
};

// spec: #api-mlgraphbuilder-lstmcell. Positional operands: input, weight, recurrentWeight,
// hiddenState, cellState.
struct LstmCellAttrs {
  uint32_t hidden_size = 0;
  std::optional<OperandRef> bias;
  std::optional<OperandRef> recurrent_bias;
  std::optional<OperandRef> peephole_weight;
  LstmWeightLayout layout = LstmWeightLayout::kIofg;
  DefaultedActivations activations;  // absent: [sigmoid, tanh, tanh]
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v("hiddenSize", s.hidden_size);
    v("bias", s.bias);
    v("recurrentBias", s.recurrent_bias);
    v("peepholeWeight", s.peephole_weight);
    v("layout", s.layout);
    v("activations", s.activations);
  }
  friend bool operator==(const LstmCellAttrs&, const LstmCellAttrs&) = default;
};

}  // namespace webnn
