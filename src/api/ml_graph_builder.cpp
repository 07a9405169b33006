// MLGraphBuilder and MLOperand: the spec's builder methods over GraphBuilder, which validates every
// operation with src/ops/. This file maps the public options (strings, optional operands) onto
// the IR's attribute structs and enforces the checks that belong to handles: "can build" and
// "validating operand".
#include "api/impl.hpp"
#include "ops/number_cast.hpp"

namespace webnn {

namespace {

using detail::BuilderImpl;

BuilderImpl& builder_of(const std::shared_ptr<BuilderImpl>& impl) {
  type_error_if(!impl, "MLOperand: the handle is empty");
  return *impl;
}

// spec: #mlgraphbuilder-can-build
void check_can_build(const BuilderImpl& impl, const char* method) {
  if (impl.ir.has_built())
    throw_error(ErrorKind::kInvalidStateError, std::string(method) + ": the graph builder has already built a graph");
  if (!impl.context || detail::context_is_lost(*impl.context))
    throw_error(ErrorKind::kInvalidStateError, std::string(method) + ": the context is lost");
}

// spec: #mlgraphbuilder-validate-operand
OperandId operand_id(const std::shared_ptr<BuilderImpl>& impl, const MLOperand& operand, const char* method,
                     const std::string& argument) {
  type_error_if(operand.builder() != impl || !impl->ir.is_valid(operand.id()),
                std::string(method) + ": " + argument + " is not an operand of this graph builder");
  return operand.id();
}

std::optional<OperandRef> optional_ref(const std::shared_ptr<BuilderImpl>& impl,
                                       const std::optional<MLOperand>& operand, const char* method,
                                       const char* argument) {
  if (!operand) return std::nullopt;
  return OperandRef{operand_id(impl, *operand, method, argument)};
}

template <SpecEnum E>
E parse_option(const std::string& value, const char* method, const char* option) {
  auto parsed = parse_enum<E>(value);
  type_error_if(!parsed,
                std::string(method) + ": " + option + " " + quote(value) + " is not one of the allowed values");
  return *parsed;
}

// Every op method: lock, check "can build", let `make` validate operands and fill attributes, then
// add the operation (GraphBuilder validates it with src/ops/ and leaves itself unchanged on error).
template <class Make>
std::vector<MLOperand> add_validated(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const char* method,
                                     const std::string& label, Make&& make) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  std::vector<OperandId> inputs;
  Attributes attrs = labelled(label, [&] {
    check_can_build(*impl, method);
    return make(inputs);
  });
  std::vector<MLOperand> result;
  for (OperandId id : impl->ir.add_operation(kind, std::move(inputs), std::move(attrs), label))
    result.emplace_back(impl, id);
  return result;
}

template <class Make>
MLOperand add_single(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const char* method,
                     const std::string& label, Make&& make) {
  return add_validated(impl, kind, method, label, std::forward<Make>(make)).at(0);
}

MLOperand binary(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const char* method, const MLOperand& a,
                 const MLOperand& b, const MLOperatorOptions& options) {
  return add_single(impl, kind, method, options.label, [&](std::vector<OperandId>& inputs) -> Attributes {
    inputs = {operand_id(impl, a, method, "a"), operand_id(impl, b, method, "b")};
    return NoAttrs{};
  });
}

MLOperand unary(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const char* method, const MLOperand& input,
                const MLOperatorOptions& options) {
  return add_single(impl, kind, method, options.label, [&](std::vector<OperandId>& inputs) -> Attributes {
    inputs = {operand_id(impl, input, method, "input")};
    return NoAttrs{};
  });
}

// A positional operand argument and its name in the spec's signature.
struct Arg {
  const MLOperand& operand;
  const char* name;
};

// The general op method: positional operands `args` in the spec's order, then `attrs()` builds the
// attributes (under the builder lock, so it may resolve operand-valued options).
template <class MakeAttrs>
std::vector<MLOperand> make_op(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const std::string& label,
                               std::initializer_list<Arg> args, MakeAttrs&& attrs) {
  const char* method = op_name(kind).data();  // the op table's names are string literals
  return add_validated(impl, kind, method, label, [&](std::vector<OperandId>& inputs) -> Attributes {
    for (const Arg& a : args) inputs.push_back(operand_id(impl, a.operand, method, a.name));
    return attrs();
  });
}

template <class MakeAttrs>
MLOperand make_single(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const std::string& label,
                      std::initializer_list<Arg> args, MakeAttrs&& attrs) {
  return make_op(impl, kind, label, args, std::forward<MakeAttrs>(attrs)).at(0);
}

Attributes no_attrs() { return NoAttrs{}; }

DefaultedActivations activations_option(const std::optional<std::vector<std::string>>& names, const char* method) {
  if (!names) return std::nullopt;
  std::vector<RecurrentActivation> out;
  for (const std::string& n : *names) out.push_back(parse_option<RecurrentActivation>(n, method, "activations"));
  return out;
}

Pool2dAttrs pool_attrs(const MLPool2dOptions& options, const char* method) {
  Pool2dAttrs attrs;
  attrs.window_dimensions = options.window_dimensions;
  attrs.padding = options.padding;
  attrs.strides = options.strides;
  attrs.dilations = options.dilations;
  attrs.layout = parse_option<InputLayout>(options.layout, method, "layout");
  attrs.output_shape_rounding =
      parse_option<RoundingType>(options.output_shape_rounding, method, "outputShapeRounding");
  attrs.output_sizes = options.output_sizes;
  return attrs;
}

}  // namespace

// ---- MLOperand ----

DataType MLOperand::data_type() const {
  BuilderImpl& impl = builder_of(builder_);
  std::lock_guard<std::mutex> lock(impl.mutex);
  return impl.ir.desc(id_).data_type;
}

// A copy: the IR's operand list may grow while the caller holds the shape.
Shape MLOperand::shape() const {
  BuilderImpl& impl = builder_of(builder_);
  std::lock_guard<std::mutex> lock(impl.mutex);
  return impl.ir.desc(id_).shape;
}

// ---- MLGraphBuilder ----

// spec: #api-mlgraphbuilder-constructor
MLGraphBuilder::MLGraphBuilder(const MLContext& context) {
  type_error_if(!context.impl(), "MLGraphBuilder: the context is an empty handle");
  if (detail::context_is_lost(*context.impl()))
    throw_error(ErrorKind::kInvalidStateError, "MLGraphBuilder: the context is lost");
  impl_ = std::make_shared<BuilderImpl>(context.impl(), detail::context_max_tensor_byte_length(*context.impl()));
}

GraphBuilder& MLGraphBuilder::ir_builder() { return impl_->ir; }

// spec: #api-mlgraphbuilder-input
MLOperand MLGraphBuilder::input(const std::string& name, const OperandDescriptor& descriptor) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  check_can_build(*impl_, "input");
  return {impl_, impl_->ir.add_input(name, descriptor)};
}

// spec: #api-mlgraphbuilder-constant-buffer
MLOperand MLGraphBuilder::constant(const OperandDescriptor& descriptor, std::span<const std::byte> buffer) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  check_can_build(*impl_, "constant");
  return {impl_, impl_->ir.add_constant(descriptor, BufferRef::copy_of(buffer))};
}

// spec: #api-mlgraphbuilder-constant-datatype-value
MLOperand MLGraphBuilder::constant(DataType data_type, Number value) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  check_can_build(*impl_, "constant");
  std::vector<std::byte> bytes(element_size(data_type));
  ops::store_number(value, data_type, bytes.data());
  return {impl_, impl_->ir.add_constant({data_type, {}}, BufferRef::adopt(std::move(bytes)))};
}

// spec: #api-mlgraphbuilder-constant-tensor. The operand shares the tensor's bytes; nothing is
// copied.
MLOperand MLGraphBuilder::constant(const MLTensor& tensor) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const auto& t = tensor.impl();
  type_error_if(!t, "constant: the tensor is an empty handle");
  type_error_if(t->context_id != impl_->context.get(), "constant: the tensor belongs to another context");
  type_error_if(t->destroyed.load(), "constant: the tensor is destroyed");
  type_error_if(!t->is_constant, "constant: the tensor is not a constant tensor");
  check_can_build(*impl_, "constant");
  const OperandId id = impl_->ir.add_constant(t->operand_desc(), t->constant_data);
  impl_->constant_tensors.push_back(t);
  return {impl_, id};
}

// spec: #api-mlgraphbuilder-build
MLGraph MLGraphBuilder::build(const MLNamedOperands& outputs) {
  return detail::context_build_graph(impl_->context, detail::freeze_for_build(impl_, outputs));
}

// ---- Element-wise binary ----
MLOperand MLGraphBuilder::add(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return binary(impl_, OpKind::kAdd, "add", a, b, o);
}
MLOperand MLGraphBuilder::sub(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return binary(impl_, OpKind::kSub, "sub", a, b, o);
}
MLOperand MLGraphBuilder::mul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return binary(impl_, OpKind::kMul, "mul", a, b, o);
}
MLOperand MLGraphBuilder::div(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return binary(impl_, OpKind::kDiv, "div", a, b, o);
}
MLOperand MLGraphBuilder::max(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return binary(impl_, OpKind::kMax, "max", a, b, o);
}
MLOperand MLGraphBuilder::min(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return binary(impl_, OpKind::kMin, "min", a, b, o);
}
MLOperand MLGraphBuilder::pow(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return binary(impl_, OpKind::kPow, "pow", a, b, o);
}

// ---- Element-wise unary and activations ----
MLOperand MLGraphBuilder::erf(const MLOperand& x, const MLOperatorOptions& o) {
  return unary(impl_, OpKind::kErf, "erf", x, o);
}
MLOperand MLGraphBuilder::exp(const MLOperand& x, const MLOperatorOptions& o) {
  return unary(impl_, OpKind::kExp, "exp", x, o);
}
MLOperand MLGraphBuilder::sqrt(const MLOperand& x, const MLOperatorOptions& o) {
  return unary(impl_, OpKind::kSqrt, "sqrt", x, o);
}
MLOperand MLGraphBuilder::relu(const MLOperand& x, const MLOperatorOptions& o) {
  return unary(impl_, OpKind::kRelu, "relu", x, o);
}
MLOperand MLGraphBuilder::sigmoid(const MLOperand& x, const MLOperatorOptions& o) {
  return unary(impl_, OpKind::kSigmoid, "sigmoid", x, o);
}
MLOperand MLGraphBuilder::tanh(const MLOperand& x, const MLOperatorOptions& o) {
  return unary(impl_, OpKind::kTanh, "tanh", x, o);
}
MLOperand MLGraphBuilder::gelu(const MLOperand& x, const MLOperatorOptions& o) {
  return unary(impl_, OpKind::kGelu, "gelu", x, o);
}

// spec: #api-mlgraphbuilder-clamp
MLOperand MLGraphBuilder::clamp(const MLOperand& input, const MLClampOptions& options) {
  return add_single(impl_, OpKind::kClamp, "clamp", options.label, [&](std::vector<OperandId>& inputs) -> Attributes {
    inputs = {operand_id(impl_, input, "clamp", "input")};
    ClampAttrs attrs;
    if (options.min_value) attrs.min_value = *options.min_value;
    if (options.max_value) attrs.max_value = *options.max_value;
    return attrs;
  });
}

// spec: #api-mlgraphbuilder-cast
MLOperand MLGraphBuilder::cast(const MLOperand& input, DataType data_type, const MLOperatorOptions& options) {
  return add_single(impl_, OpKind::kCast, "cast", options.label, [&](std::vector<OperandId>& inputs) -> Attributes {
    inputs = {operand_id(impl_, input, "cast", "input")};
    return CastAttrs{data_type};
  });
}

// ---- Convolution and pooling ----

// spec: #api-mlgraphbuilder-conv2d
MLOperand MLGraphBuilder::conv2d(const MLOperand& input, const MLOperand& filter, const MLConv2dOptions& options) {
  return add_single(impl_, OpKind::kConv2d, "conv2d", options.label, [&](std::vector<OperandId>& inputs) -> Attributes {
    inputs = {operand_id(impl_, input, "conv2d", "input"), operand_id(impl_, filter, "conv2d", "filter")};
    Conv2dAttrs attrs;
    attrs.bias = optional_ref(impl_, options.bias, "conv2d", "bias");
    attrs.padding = options.padding;
    attrs.strides = options.strides;
    attrs.dilations = options.dilations;
    attrs.groups = options.groups;
    attrs.input_layout = parse_option<InputLayout>(options.input_layout, "conv2d", "inputLayout");
    attrs.filter_layout = parse_option<Conv2dFilterLayout>(options.filter_layout, "conv2d", "filterLayout");
    return attrs;
  });
}

// spec: #api-mlgraphbuilder-pool2d-average
MLOperand MLGraphBuilder::average_pool2d(const MLOperand& input, const MLPool2dOptions& options) {
  return add_single(impl_, OpKind::kAveragePool2d, "averagePool2d", options.label,
                    [&](std::vector<OperandId>& inputs) -> Attributes {
                      inputs = {operand_id(impl_, input, "averagePool2d", "input")};
                      return pool_attrs(options, "averagePool2d");
                    });
}

// spec: #api-mlgraphbuilder-pool2d-max
MLOperand MLGraphBuilder::max_pool2d(const MLOperand& input, const MLPool2dOptions& options) {
  return add_single(impl_, OpKind::kMaxPool2d, "maxPool2d", options.label,
                    [&](std::vector<OperandId>& inputs) -> Attributes {
                      inputs = {operand_id(impl_, input, "maxPool2d", "input")};
                      return pool_attrs(options, "maxPool2d");
                    });
}

// ---- Matrix multiplication ----

MLOperand MLGraphBuilder::matmul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options) {
  return binary(impl_, OpKind::kMatmul, "matmul", a, b, options);
}

// spec: #api-mlgraphbuilder-gemm
MLOperand MLGraphBuilder::gemm(const MLOperand& a, const MLOperand& b, const MLGemmOptions& options) {
  return add_single(impl_, OpKind::kGemm, "gemm", options.label, [&](std::vector<OperandId>& inputs) -> Attributes {
    inputs = {operand_id(impl_, a, "gemm", "a"), operand_id(impl_, b, "gemm", "b")};
    GemmAttrs attrs;
    attrs.c = optional_ref(impl_, options.c, "gemm", "c");
    attrs.alpha = options.alpha;
    attrs.beta = options.beta;
    attrs.a_transpose = options.a_transpose;
    attrs.b_transpose = options.b_transpose;
    return attrs;
  });
}

// ---- Normalization ----

// spec: #api-mlgraphbuilder-layernorm
MLOperand MLGraphBuilder::layer_normalization(const MLOperand& input, const MLLayerNormalizationOptions& options) {
  return add_single(impl_, OpKind::kLayerNormalization, "layerNormalization", options.label,
                    [&](std::vector<OperandId>& inputs) -> Attributes {
                      inputs = {operand_id(impl_, input, "layerNormalization", "input")};
                      LayerNormalizationAttrs attrs;
                      attrs.scale = optional_ref(impl_, options.scale, "layerNormalization", "scale");
                      attrs.bias = optional_ref(impl_, options.bias, "layerNormalization", "bias");
                      attrs.axes = options.axes;
                      attrs.epsilon = options.epsilon;
                      return attrs;
                    });
}

// spec: #api-mlgraphbuilder-softmax-method
MLOperand MLGraphBuilder::softmax(const MLOperand& input, uint32_t axis, const MLOperatorOptions& options) {
  return add_single(impl_, OpKind::kSoftmax, "softmax", options.label,
                    [&](std::vector<OperandId>& inputs) -> Attributes {
                      inputs = {operand_id(impl_, input, "softmax", "input")};
                      return SoftmaxAttrs{axis};
                    });
}

// ---- Reduction ----

// spec: #api-mlgraphbuilder-reduce
MLOperand MLGraphBuilder::reduce_mean(const MLOperand& input, const MLReduceOptions& options) {
  return add_single(impl_, OpKind::kReduceMean, "reduceMean", options.label,
                    [&](std::vector<OperandId>& inputs) -> Attributes {
                      inputs = {operand_id(impl_, input, "reduceMean", "input")};
                      return ReduceAttrs{options.axes, options.keep_dimensions};
                    });
}

// ---- Shape and data movement ----

// spec: #api-mlgraphbuilder-reshape-method
MLOperand MLGraphBuilder::reshape(const MLOperand& input, const std::vector<uint32_t>& new_shape,
                                  const MLOperatorOptions& options) {
  return add_single(impl_, OpKind::kReshape, "reshape", options.label,
                    [&](std::vector<OperandId>& inputs) -> Attributes {
                      inputs = {operand_id(impl_, input, "reshape", "input")};
                      return ReshapeAttrs{new_shape};
                    });
}

// spec: #api-mlgraphbuilder-transpose
MLOperand MLGraphBuilder::transpose(const MLOperand& input, const MLTransposeOptions& options) {
  return add_single(impl_, OpKind::kTranspose, "transpose", options.label,
                    [&](std::vector<OperandId>& inputs) -> Attributes {
                      inputs = {operand_id(impl_, input, "transpose", "input")};
                      return TransposeAttrs{options.permutation};
                    });
}

// spec: #api-mlgraphbuilder-concat
MLOperand MLGraphBuilder::concat(const std::vector<MLOperand>& operands, uint32_t axis,
                                 const MLOperatorOptions& options) {
  return add_single(impl_, OpKind::kConcat, "concat", options.label, [&](std::vector<OperandId>& inputs) -> Attributes {
    for (size_t i = 0; i < operands.size(); ++i)
      inputs.push_back(operand_id(impl_, operands[i], "concat", "inputs[" + std::to_string(i) + "]"));
    return ConcatAttrs{axis};
  });
}

// spec: #api-mlgraphbuilder-split
std::vector<MLOperand> MLGraphBuilder::split(const MLOperand& input, uint32_t splits, const MLSplitOptions& options) {
  return add_validated(impl_, OpKind::kSplit, "split", options.label,
                       [&](std::vector<OperandId>& inputs) -> Attributes {
                         inputs = {operand_id(impl_, input, "split", "input")};
                         return SplitAttrs{splits, options.axis};
                       });
}

std::vector<MLOperand> MLGraphBuilder::split(const MLOperand& input, const std::vector<uint32_t>& splits,
                                             const MLSplitOptions& options) {
  return add_validated(impl_, OpKind::kSplit, "split", options.label,
                       [&](std::vector<OperandId>& inputs) -> Attributes {
                         inputs = {operand_id(impl_, input, "split", "input")};
                         return SplitAttrs{splits, options.axis};
                       });
}

// spec: #api-mlgraphbuilder-slice
MLOperand MLGraphBuilder::slice(const MLOperand& input, const std::vector<uint32_t>& starts,
                                const std::vector<uint32_t>& sizes, const MLSliceOptions& options) {
  return add_single(impl_, OpKind::kSlice, "slice", options.label, [&](std::vector<OperandId>& inputs) -> Attributes {
    inputs = {operand_id(impl_, input, "slice", "input")};
    return SliceAttrs{starts, sizes, options.strides};
  });
}

// ---- Element-wise unary ----
#define WEBNN_UNARY(method, Kind, arg)                                               \
  MLOperand MLGraphBuilder::method(const MLOperand& x, const MLOperatorOptions& o) { \
    return make_single(impl_, OpKind::k##Kind, o.label, {{x, arg}}, no_attrs);       \
  }
WEBNN_UNARY(abs, Abs, "input")
WEBNN_UNARY(ceil, Ceil, "input")
WEBNN_UNARY(cos, Cos, "input")
WEBNN_UNARY(floor, Floor, "input")
WEBNN_UNARY(identity, Identity, "input")
WEBNN_UNARY(log, Log, "input")
WEBNN_UNARY(neg, Neg, "input")
WEBNN_UNARY(reciprocal, Reciprocal, "input")
WEBNN_UNARY(round_even, RoundEven, "input")
WEBNN_UNARY(sin, Sin, "input")
WEBNN_UNARY(sign, Sign, "input")
WEBNN_UNARY(tan, Tan, "input")
WEBNN_UNARY(hard_swish, HardSwish, "input")
WEBNN_UNARY(softplus, Softplus, "input")
WEBNN_UNARY(softsign, Softsign, "input")
WEBNN_UNARY(logical_not, LogicalNot, "a")
WEBNN_UNARY(is_nan, IsNaN, "a")
WEBNN_UNARY(is_infinite, IsInfinite, "a")
#undef WEBNN_UNARY

// ---- Comparison and logical binary ----
#define WEBNN_BINARY(method, Kind)                                                                       \
  MLOperand MLGraphBuilder::method(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) { \
    return make_single(impl_, OpKind::k##Kind, o.label, {{a, "a"}, {b, "b"}}, no_attrs);                 \
  }
WEBNN_BINARY(equal, Equal)
WEBNN_BINARY(not_equal, NotEqual)
WEBNN_BINARY(greater, Greater)
WEBNN_BINARY(greater_or_equal, GreaterOrEqual)
WEBNN_BINARY(lesser, Lesser)
WEBNN_BINARY(lesser_or_equal, LesserOrEqual)
WEBNN_BINARY(logical_and, LogicalAnd)
WEBNN_BINARY(logical_or, LogicalOr)
WEBNN_BINARY(logical_xor, LogicalXor)
#undef WEBNN_BINARY

// spec: #api-mlgraphbuilder-where
MLOperand MLGraphBuilder::where(const MLOperand& condition, const MLOperand& true_value, const MLOperand& false_value,
                                const MLOperatorOptions& o) {
  return make_single(impl_, OpKind::kWhere, o.label,
                     {{condition, "condition"}, {true_value, "trueValue"}, {false_value, "falseValue"}}, no_attrs);
}

// ---- Activations with options ----
MLOperand MLGraphBuilder::elu(const MLOperand& x, const MLEluOptions& o) {
  return make_single(impl_, OpKind::kElu, o.label, {{x, "input"}}, [&]() -> Attributes { return EluAttrs{o.alpha}; });
}
MLOperand MLGraphBuilder::hard_sigmoid(const MLOperand& x, const MLHardSigmoidOptions& o) {
  return make_single(impl_, OpKind::kHardSigmoid, o.label, {{x, "input"}}, [&]() -> Attributes {
    return HardSigmoidAttrs{o.alpha, o.beta};
  });
}
MLOperand MLGraphBuilder::leaky_relu(const MLOperand& x, const MLLeakyReluOptions& o) {
  return make_single(impl_, OpKind::kLeakyRelu, o.label, {{x, "input"}},
                     [&]() -> Attributes { return LeakyReluAttrs{o.alpha}; });
}
MLOperand MLGraphBuilder::linear(const MLOperand& x, const MLLinearOptions& o) {
  return make_single(impl_, OpKind::kLinear, o.label, {{x, "input"}}, [&]() -> Attributes {
    return LinearAttrs{o.alpha, o.beta};
  });
}
MLOperand MLGraphBuilder::prelu(const MLOperand& x, const MLOperand& slope, const MLOperatorOptions& o) {
  return make_single(impl_, OpKind::kPrelu, o.label, {{x, "input"}, {slope, "slope"}}, no_attrs);
}

// ---- Convolution, pooling and resampling ----

// spec: #api-mlgraphbuilder-convtranspose2d
MLOperand MLGraphBuilder::conv_transpose2d(const MLOperand& input, const MLOperand& filter,
                                           const MLConvTranspose2dOptions& o) {
  return make_single(
      impl_, OpKind::kConvTranspose2d, o.label, {{input, "input"}, {filter, "filter"}}, [&]() -> Attributes {
        ConvTranspose2dAttrs a;
        a.padding = o.padding;
        a.strides = o.strides;
        a.dilations = o.dilations;
        a.output_padding = o.output_padding;
        a.output_sizes = o.output_sizes;
        a.groups = o.groups;
        a.input_layout = parse_option<InputLayout>(o.input_layout, "convTranspose2d", "inputLayout");
        a.filter_layout = parse_option<ConvTranspose2dFilterLayout>(o.filter_layout, "convTranspose2d", "filterLayout");
        a.bias = optional_ref(impl_, o.bias, "convTranspose2d", "bias");
        return a;
      });
}

// spec: #api-mlgraphbuilder-pool2d-l2
MLOperand MLGraphBuilder::l2_pool2d(const MLOperand& input, const MLPool2dOptions& o) {
  return make_single(impl_, OpKind::kL2Pool2d, o.label, {{input, "input"}},
                     [&]() -> Attributes { return pool_attrs(o, "l2Pool2d"); });
}

// spec: #api-mlgraphbuilder-resample2d-method
MLOperand MLGraphBuilder::resample2d(const MLOperand& input, const MLResample2dOptions& o) {
  return make_single(impl_, OpKind::kResample2d, o.label, {{input, "input"}}, [&]() -> Attributes {
    return Resample2dAttrs{parse_option<InterpolationMode>(o.mode, "resample2d", "mode"), o.scales, o.sizes, o.axes};
  });
}

// ---- Normalization ----

// spec: #api-mlgraphbuilder-batchnorm
MLOperand MLGraphBuilder::batch_normalization(const MLOperand& input, const MLOperand& mean, const MLOperand& variance,
                                              const MLBatchNormalizationOptions& o) {
  return make_single(impl_, OpKind::kBatchNormalization, o.label,
                     {{input, "input"}, {mean, "mean"}, {variance, "variance"}}, [&]() -> Attributes {
                       return BatchNormalizationAttrs{optional_ref(impl_, o.scale, "batchNormalization", "scale"),
                                                      optional_ref(impl_, o.bias, "batchNormalization", "bias"), o.axis,
                                                      o.epsilon};
                     });
}

// spec: #api-mlgraphbuilder-instancenorm
MLOperand MLGraphBuilder::instance_normalization(const MLOperand& input, const MLInstanceNormalizationOptions& o) {
  return make_single(impl_, OpKind::kInstanceNormalization, o.label, {{input, "input"}}, [&]() -> Attributes {
    return InstanceNormalizationAttrs{optional_ref(impl_, o.scale, "instanceNormalization", "scale"),
                                      optional_ref(impl_, o.bias, "instanceNormalization", "bias"), o.epsilon,
                                      parse_option<InputLayout>(o.layout, "instanceNormalization", "layout")};
  });
}

// ---- Reduction, arg-reduction and scan ----
#define WEBNN_REDUCE(method, Kind)                                                            \
  MLOperand MLGraphBuilder::method(const MLOperand& x, const MLReduceOptions& o) {            \
    return make_single(impl_, OpKind::k##Kind, o.label, {{x, "input"}}, [&]() -> Attributes { \
      return ReduceAttrs{o.axes, o.keep_dimensions};                                          \
    });                                                                                       \
  }
WEBNN_REDUCE(reduce_l1, ReduceL1)
WEBNN_REDUCE(reduce_l2, ReduceL2)
WEBNN_REDUCE(reduce_log_sum, ReduceLogSum)
WEBNN_REDUCE(reduce_log_sum_exp, ReduceLogSumExp)
WEBNN_REDUCE(reduce_max, ReduceMax)
WEBNN_REDUCE(reduce_min, ReduceMin)
WEBNN_REDUCE(reduce_product, ReduceProduct)
WEBNN_REDUCE(reduce_sum, ReduceSum)
WEBNN_REDUCE(reduce_sum_square, ReduceSumSquare)
#undef WEBNN_REDUCE

MLOperand MLGraphBuilder::arg_max(const MLOperand& x, uint32_t axis, const MLArgMinMaxOptions& o) {
  return make_single(impl_, OpKind::kArgMax, o.label, {{x, "input"}}, [&]() -> Attributes {
    return ArgMinMaxAttrs{axis, o.keep_dimensions, o.output_data_type};
  });
}
MLOperand MLGraphBuilder::arg_min(const MLOperand& x, uint32_t axis, const MLArgMinMaxOptions& o) {
  return make_single(impl_, OpKind::kArgMin, o.label, {{x, "input"}}, [&]() -> Attributes {
    return ArgMinMaxAttrs{axis, o.keep_dimensions, o.output_data_type};
  });
}
MLOperand MLGraphBuilder::cumulative_sum(const MLOperand& x, uint32_t axis, const MLCumulativeSumOptions& o) {
  return make_single(impl_, OpKind::kCumulativeSum, o.label, {{x, "input"}}, [&]() -> Attributes {
    return CumulativeSumAttrs{axis, o.exclusive, o.reversed};
  });
}

// ---- Shape and data movement ----
MLOperand MLGraphBuilder::expand(const MLOperand& x, const std::vector<uint32_t>& new_shape,
                                 const MLOperatorOptions& o) {
  return make_single(impl_, OpKind::kExpand, o.label, {{x, "input"}},
                     [&]() -> Attributes { return ExpandAttrs{new_shape}; });
}
MLOperand MLGraphBuilder::pad(const MLOperand& x, const std::vector<uint32_t>& beginning_padding,
                              const std::vector<uint32_t>& ending_padding, const MLPadOptions& o) {
  return make_single(impl_, OpKind::kPad, o.label, {{x, "input"}}, [&]() -> Attributes {
    return PadAttrs{beginning_padding, ending_padding, parse_option<PaddingMode>(o.mode, "pad", "mode"), o.value};
  });
}
MLOperand MLGraphBuilder::reverse(const MLOperand& x, const MLReverseOptions& o) {
  return make_single(impl_, OpKind::kReverse, o.label, {{x, "input"}},
                     [&]() -> Attributes { return ReverseAttrs{o.axes}; });
}
MLOperand MLGraphBuilder::tile(const MLOperand& x, const std::vector<uint32_t>& repetitions,
                               const MLOperatorOptions& o) {
  return make_single(impl_, OpKind::kTile, o.label, {{x, "input"}},
                     [&]() -> Attributes { return TileAttrs{repetitions}; });
}
MLOperand MLGraphBuilder::triangular(const MLOperand& x, const MLTriangularOptions& o) {
  return make_single(impl_, OpKind::kTriangular, o.label, {{x, "input"}}, [&]() -> Attributes {
    return TriangularAttrs{o.upper, o.diagonal};
  });
}

// ---- Gather and scatter ----
MLOperand MLGraphBuilder::gather(const MLOperand& input, const MLOperand& indices, const MLGatherOptions& o) {
  return make_single(impl_, OpKind::kGather, o.label, {{input, "input"}, {indices, "indices"}},
                     [&]() -> Attributes { return GatherAttrs{o.axis}; });
}
MLOperand MLGraphBuilder::gather_elements(const MLOperand& input, const MLOperand& indices, const MLGatherOptions& o) {
  return make_single(impl_, OpKind::kGatherElements, o.label, {{input, "input"}, {indices, "indices"}},
                     [&]() -> Attributes { return GatherAttrs{o.axis}; });
}
MLOperand MLGraphBuilder::gather_nd(const MLOperand& input, const MLOperand& indices, const MLOperatorOptions& o) {
  return make_single(impl_, OpKind::kGatherNd, o.label, {{input, "input"}, {indices, "indices"}}, no_attrs);
}
MLOperand MLGraphBuilder::scatter_elements(const MLOperand& input, const MLOperand& indices, const MLOperand& updates,
                                           const MLScatterOptions& o) {
  return make_single(impl_, OpKind::kScatterElements, o.label,
                     {{input, "input"}, {indices, "indices"}, {updates, "updates"}},
                     [&]() -> Attributes { return ScatterAttrs{o.axis}; });
}
MLOperand MLGraphBuilder::scatter_nd(const MLOperand& input, const MLOperand& indices, const MLOperand& updates,
                                     const MLOperatorOptions& o) {
  return make_single(impl_, OpKind::kScatterNd, o.label, {{input, "input"}, {indices, "indices"}, {updates, "updates"}},
                     no_attrs);
}

// ---- Recurrent networks ----

// spec: #api-mlgraphbuilder-gru
std::vector<MLOperand> MLGraphBuilder::gru(const MLOperand& input, const MLOperand& weight,
                                           const MLOperand& recurrent_weight, uint32_t steps, uint32_t hidden_size,
                                           const MLGruOptions& o) {
  return make_op(impl_, OpKind::kGru, o.label,
                 {{input, "input"}, {weight, "weight"}, {recurrent_weight, "recurrentWeight"}}, [&]() -> Attributes {
                   GruAttrs a;
                   a.steps = steps;
                   a.hidden_size = hidden_size;
                   a.bias = optional_ref(impl_, o.bias, "gru", "bias");
                   a.recurrent_bias = optional_ref(impl_, o.recurrent_bias, "gru", "recurrentBias");
                   a.initial_hidden_state = optional_ref(impl_, o.initial_hidden_state, "gru", "initialHiddenState");
                   a.reset_after = o.reset_after;
                   a.return_sequence = o.return_sequence;
                   a.direction = parse_option<RecurrentDirection>(o.direction, "gru", "direction");
                   a.layout = parse_option<GruWeightLayout>(o.layout, "gru", "layout");
                   a.activations = activations_option(o.activations, "gru");
                   return a;
                 });
}

// spec: #api-mlgraphbuilder-grucell
MLOperand MLGraphBuilder::gru_cell(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrent_weight,
                                   const MLOperand& hidden_state, uint32_t hidden_size, const MLGruCellOptions& o) {
  return make_single(
      impl_, OpKind::kGruCell, o.label,
      {{input, "input"}, {weight, "weight"}, {recurrent_weight, "recurrentWeight"}, {hidden_state, "hiddenState"}},
      [&]() -> Attributes {
        GruCellAttrs a;
        a.hidden_size = hidden_size;
        a.bias = optional_ref(impl_, o.bias, "gruCell", "bias");
        a.recurrent_bias = optional_ref(impl_, o.recurrent_bias, "gruCell", "recurrentBias");
        a.reset_after = o.reset_after;
        a.layout = parse_option<GruWeightLayout>(o.layout, "gruCell", "layout");
        a.activations = activations_option(o.activations, "gruCell");
        return a;
      });
}

// spec: #api-mlgraphbuilder-lstm
std::vector<MLOperand> MLGraphBuilder::lstm(const MLOperand& input, const MLOperand& weight,
                                            const MLOperand& recurrent_weight, uint32_t steps, uint32_t hidden_size,
                                            const MLLstmOptions& o) {
  return make_op(impl_, OpKind::kLstm, o.label,
                 {{input, "input"}, {weight, "weight"}, {recurrent_weight, "recurrentWeight"}}, [&]() -> Attributes {
                   LstmAttrs a;
                   a.steps = steps;
                   a.hidden_size = hidden_size;
                   a.bias = optional_ref(impl_, o.bias, "lstm", "bias");
                   a.recurrent_bias = optional_ref(impl_, o.recurrent_bias, "lstm", "recurrentBias");
                   a.peephole_weight = optional_ref(impl_, o.peephole_weight, "lstm", "peepholeWeight");
                   a.initial_hidden_state = optional_ref(impl_, o.initial_hidden_state, "lstm", "initialHiddenState");
                   a.initial_cell_state = optional_ref(impl_, o.initial_cell_state, "lstm", "initialCellState");
                   a.return_sequence = o.return_sequence;
                   a.direction = parse_option<RecurrentDirection>(o.direction, "lstm", "direction");
                   a.layout = parse_option<LstmWeightLayout>(o.layout, "lstm", "layout");
                   a.activations = activations_option(o.activations, "lstm");
                   return a;
                 });
}

// spec: #api-mlgraphbuilder-lstmcell
std::vector<MLOperand> MLGraphBuilder::lstm_cell(const MLOperand& input, const MLOperand& weight,
                                                 const MLOperand& recurrent_weight, const MLOperand& hidden_state,
                                                 const MLOperand& cell_state, uint32_t hidden_size,
                                                 const MLLstmCellOptions& o) {
  return make_op(impl_, OpKind::kLstmCell, o.label,
                 {{input, "input"},
                  {weight, "weight"},
                  {recurrent_weight, "recurrentWeight"},
                  {hidden_state, "hiddenState"},
                  {cell_state, "cellState"}},
                 [&]() -> Attributes {
                   LstmCellAttrs a;
                   a.hidden_size = hidden_size;
                   a.bias = optional_ref(impl_, o.bias, "lstmCell", "bias");
                   a.recurrent_bias = optional_ref(impl_, o.recurrent_bias, "lstmCell", "recurrentBias");
                   a.peephole_weight = optional_ref(impl_, o.peephole_weight, "lstmCell", "peepholeWeight");
                   a.layout = parse_option<LstmWeightLayout>(o.layout, "lstmCell", "layout");
                   a.activations = activations_option(o.activations, "lstmCell");
                   return a;
                 });
}

// ---- Quantization ----
MLOperand MLGraphBuilder::quantize_linear(const MLOperand& input, const MLOperand& scale, const MLOperand& zero_point,
                                          const MLOperatorOptions& o) {
  return make_single(impl_, OpKind::kQuantizeLinear, o.label,
                     {{input, "input"}, {scale, "scale"}, {zero_point, "zeroPoint"}}, no_attrs);
}
MLOperand MLGraphBuilder::dequantize_linear(const MLOperand& input, const MLOperand& scale, const MLOperand& zero_point,
                                            const MLOperatorOptions& o) {
  return make_single(impl_, OpKind::kDequantizeLinear, o.label,
                     {{input, "input"}, {scale, "scale"}, {zero_point, "zeroPoint"}}, no_attrs);
}

// ---- The generic entry of bindings that add operations by kind (api/impl.hpp) ----

namespace detail {

void check_can_build(const std::shared_ptr<BuilderImpl>& impl, const std::string& method) {
  std::lock_guard<std::mutex> lock(builder_of(impl).mutex);
  webnn::check_can_build(*impl, method.c_str());
}

// build()'s steps before its "in parallel" part: the outputs validated, the builder marked built
// and its graph frozen.
std::shared_ptr<const Graph> freeze_for_build(const std::shared_ptr<BuilderImpl>& impl,
                                              const MLNamedOperands& outputs) {
  std::lock_guard<std::mutex> lock(builder_of(impl).mutex);
  webnn::check_can_build(*impl, "build");
  std::vector<NamedOperand> named;
  for (const auto& [name, operand] : outputs)
    named.push_back({name, operand_id(impl, operand, "build", "output " + quote(name))});
  // A destroyed constant tensor can no longer back a graph (its operands stay readable, but the
  // spec rejects the build).
  for (const auto& tensor : impl->constant_tensors)
    type_error_if(tensor->destroyed.load(), "build: a constant tensor used by this builder is destroyed");
  return impl->ir.build(named);
}

OperandId validated_operand(const std::shared_ptr<BuilderImpl>& impl, const MLOperand& operand,
                            const std::string& method, const std::string& argument) {
  return operand_id(impl, operand, method.c_str(), argument);
}

std::vector<MLOperand> add_by_kind(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, std::vector<OperandId> inputs,
                                   Attributes attrs, const std::string& label) {
  return webnn::add_validated(impl, kind, op_name(kind).data(), label, [&](std::vector<OperandId>& in) -> Attributes {
    in = std::move(inputs);
    return std::move(attrs);
  });
}

}  // namespace detail

}  // namespace webnn
