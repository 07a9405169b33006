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
  type_error_if(!parsed, std::string(method) + ": " + option + " \"" + value + "\" is not one of the allowed values");
  return *parsed;
}

// Every op method: lock, check "can build", let `make` validate operands and fill attributes, then
// add the operation (GraphBuilder validates it with src/ops/ and leaves itself unchanged on error).
template <class Make>
std::vector<MLOperand> add_operation(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const char* method,
                                     const std::string& label, Make&& make) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  check_can_build(*impl, method);
  std::vector<OperandId> inputs;
  Attributes attrs = make(inputs);
  std::vector<MLOperand> result;
  for (OperandId id : impl->ir.add_operation(kind, std::move(inputs), std::move(attrs), label))
    result.emplace_back(impl, id);
  return result;
}

template <class Make>
MLOperand add_single(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const char* method,
                     const std::string& label, Make&& make) {
  return add_operation(impl, kind, method, label, std::forward<Make>(make)).at(0);
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
  std::shared_ptr<const Graph> ir;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    check_can_build(*impl_, "build");
    std::vector<NamedOperand> named;
    for (const auto& [name, operand] : outputs)
      named.push_back({name, operand_id(impl_, operand, "build", "output \"" + name + "\"")});
    // A destroyed constant tensor can no longer back a graph (its operands stay readable, but the
    // spec rejects the build).
    for (const auto& tensor : impl_->constant_tensors)
      type_error_if(tensor->destroyed.load(), "build: a constant tensor used by this builder is destroyed");
    ir = impl_->ir.build(named);
  }
  return detail::context_build_graph(impl_->context, std::move(ir));
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
  return add_operation(impl_, OpKind::kSplit, "split", options.label,
                       [&](std::vector<OperandId>& inputs) -> Attributes {
                         inputs = {operand_id(impl_, input, "split", "input")};
                         return SplitAttrs{splits, options.axis};
                       });
}

std::vector<MLOperand> MLGraphBuilder::split(const MLOperand& input, const std::vector<uint32_t>& splits,
                                             const MLSplitOptions& options) {
  return add_operation(impl_, OpKind::kSplit, "split", options.label,
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

}  // namespace webnn
