// MLGraphBuilder and MLOperand: the spec's builder methods over GraphBuilder, which validates every
// operation with src/ops/. This file holds the checks that belong to handles ("can build",
// "validating operand") and the helpers of the operator methods, which scripts/gen_api.py
// generates from the op table into ops.gen.inc: they map the public options (strings, optional
// operands) onto the IR's attribute structs.
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
void require_can_build(const BuilderImpl& impl, const char* method) {
  if (impl.ir.has_built())
    throw_error(ErrorKind::kInvalidStateError, std::string(method) + ": the graph builder has already built a graph");
  if (!impl.context || detail::context_is_lost(*impl.context))
    throw_error(ErrorKind::kInvalidStateError, std::string(method) + ": the context is lost");
}

// spec: #mlgraphbuilder-validate-operand
OperandId operand_id(const std::shared_ptr<BuilderImpl>& impl, const MLOperand& operand, const char* method,
                     const std::string& argument) {
  type_error_if(detail::HandleAccess::builder(operand) != impl || !impl->ir.is_valid(operand.id()),
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
    require_can_build(*impl, method);
    return make(inputs);
  });
  std::vector<MLOperand> result;
  for (OperandId id : impl->ir.add_operation(kind, std::move(inputs), std::move(attrs), label))
    result.push_back(detail::HandleAccess::operand(impl, id));
  return result;
}

// What a generated op method (ops.gen.inc) does under the builder lock: checks its operands and
// collects them in the spec's order, and parses its string options, naming the method and the
// argument in every error.
class OpArgs {
 public:
  OpArgs(const std::shared_ptr<BuilderImpl>& impl, const char* method, std::vector<OperandId>& inputs)
      : impl_(impl), method_(method), inputs_(inputs) {}

  void operand(const MLOperand& operand, const char* name) {
    inputs_.push_back(operand_id(impl_, operand, method_, name));
  }
  void operands(const std::vector<MLOperand>& list, const char* name) {
    for (size_t i = 0; i < list.size(); ++i)
      inputs_.push_back(operand_id(impl_, list[i], method_, std::string(name) + "[" + std::to_string(i) + "]"));
  }
  std::optional<OperandRef> optional_operand(const std::optional<MLOperand>& operand, const char* name) const {
    return optional_ref(impl_, operand, method_, name);
  }
  template <SpecEnum E>
  E parse(const std::string& value, const char* option) const {
    return parse_option<E>(value, method_, option);
  }
  template <SpecEnum E>
  std::optional<std::vector<E>> parse_list(const std::optional<std::vector<std::string>>& values,
                                           const char* option) const {
    if (!values) return std::nullopt;
    std::vector<E> out;
    for (const std::string& v : *values) out.push_back(parse<E>(v, option));
    return out;
  }

 private:
  const std::shared_ptr<BuilderImpl>& impl_;
  const char* method_;
  std::vector<OperandId>& inputs_;
};

// An op method: `make(args)` checks the operands and builds the attributes; the op table's name is
// the method's name in errors.
template <class Make>
std::vector<MLOperand> add_many(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const std::string& label,
                                Make&& make) {
  const char* method = op_name(kind).data();  // the op table's names are string literals
  return add_validated(impl, kind, method, label, [&](std::vector<OperandId>& inputs) -> Attributes {
    OpArgs args(impl, method, inputs);
    return make(args);
  });
}

template <class Make>
MLOperand add_one(const std::shared_ptr<BuilderImpl>& impl, OpKind kind, const std::string& label, Make&& make) {
  return add_many(impl, kind, label, std::forward<Make>(make)).at(0);
}

// build()'s steps before its "in parallel" part: the outputs validated, the builder marked built
// and its graph frozen.
std::shared_ptr<const Graph> freeze_for_build(const std::shared_ptr<BuilderImpl>& impl,
                                              const MLNamedOperands& outputs) {
  std::lock_guard<std::mutex> lock(builder_of(impl).mutex);
  require_can_build(*impl, "build");
  std::vector<NamedOperand> named;
  for (const auto& [name, operand] : outputs)
    named.push_back({name, operand_id(impl, operand, "build", "output " + quote(name))});
  // A destroyed constant tensor can no longer back a graph (its operands stay readable, but the
  // spec rejects the build).
  for (const auto& tensor : impl->constant_tensors)
    type_error_if(tensor->destroyed.load(), "build: a constant tensor used by this builder is destroyed");
  return impl->ir.build(named);
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

std::string MLOperand::name() const {
  BuilderImpl& impl = builder_of(builder_);
  std::lock_guard<std::mutex> lock(impl.mutex);
  const Operand& operand = impl.ir.graph().operands.at(id_);
  return operand.kind == OperandKind::kInput ? operand.name : std::string();
}

// ---- MLGraphBuilder ----

// spec: #api-mlgraphbuilder-constructor
MLGraphBuilder::MLGraphBuilder(const MLContext& context) {
  const std::shared_ptr<detail::ContextImpl>& c = detail::impl_of(context);
  type_error_if(!c, "MLGraphBuilder: the context is an empty handle");
  if (detail::context_is_lost(*c)) throw_error(ErrorKind::kInvalidStateError, "MLGraphBuilder: the context is lost");
  impl_ = std::make_shared<BuilderImpl>(c, detail::context_max_tensor_byte_length(*c));
}

MLOperand MLGraphBuilder::operand(uint32_t id) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  type_error_if(!impl_->ir.is_valid(id), "operand: the graph builder has no operand " + std::to_string(id));
  return {impl_, id};
}

bool MLGraphBuilder::owns(const MLOperand& operand) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return detail::HandleAccess::builder(operand) == impl_ && impl_->ir.is_valid(operand.id());
}

void MLGraphBuilder::check_can_build(const std::string& method) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  require_can_build(*impl_, method.c_str());
}

std::vector<MLOperand> MLGraphBuilder::add_operation(const std::string& op, const std::vector<MLOperand>& operands,
                                                     const MLArguments& arguments, const std::string& label) {
  const OpKind kind = detail::operator_kind(op);
  const char* method = op_name(kind).data();  // the op table's names are string literals
  return add_validated(impl_, kind, method, label, [&](std::vector<OperandId>& inputs) -> Attributes {
    const std::vector<std::string> names = detail::operand_names(kind, operands.size());
    for (size_t i = 0; i < operands.size(); ++i) inputs.push_back(operand_id(impl_, operands[i], method, names[i]));
    return detail::attributes_from(kind, arguments, [&](const MLOperand& operand, const std::string& name) {
      return operand_id(impl_, operand, method, name);
    });
  });
}

// spec: #api-mlgraphbuilder-input
MLOperand MLGraphBuilder::input(const std::string& name, const OperandDescriptor& descriptor) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  require_can_build(*impl_, "input");
  return {impl_, impl_->ir.add_input(name, descriptor)};
}

// spec: #api-mlgraphbuilder-constant-buffer
MLOperand MLGraphBuilder::constant(const OperandDescriptor& descriptor, std::span<const std::byte> buffer) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  require_can_build(*impl_, "constant");
  return {impl_, impl_->ir.add_constant(descriptor, BufferRef::copy_of(buffer))};
}

// spec: #api-mlgraphbuilder-constant-datatype-value
MLOperand MLGraphBuilder::constant(DataType data_type, Number value) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  require_can_build(*impl_, "constant");
  std::vector<std::byte> bytes(element_size(data_type));
  ops::store_number(value, data_type, bytes.data());
  return {impl_, impl_->ir.add_constant({data_type, {}}, BufferRef::adopt(std::move(bytes)))};
}

// spec: #api-mlgraphbuilder-constant-tensor. The operand shares the tensor's bytes; nothing is
// copied.
MLOperand MLGraphBuilder::constant(const MLTensor& tensor) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const auto& t = detail::impl_of(tensor);
  type_error_if(!t, "constant: the tensor is an empty handle");
  type_error_if(t->context_id != impl_->context.get(), "constant: the tensor belongs to another context");
  type_error_if(t->destroyed.load(), "constant: the tensor is destroyed");
  type_error_if(!t->is_constant, "constant: the tensor is not a constant tensor");
  require_can_build(*impl_, "constant");
  const OperandId id = impl_->ir.add_constant(t->operand_desc(), t->constant_data);
  impl_->constant_tensors.push_back(t);
  return {impl_, id};
}

// spec: #api-mlgraphbuilder-build
MLGraph MLGraphBuilder::build(const MLNamedOperands& outputs) {
  return detail::context_build_graph(impl_->context, freeze_for_build(impl_, outputs));
}

Model MLGraphBuilder::build_model(const MLNamedOperands& outputs) {
  return detail::make_handle<Model>(freeze_for_build(impl_, outputs));
}

// ---- The operators (generated from the op table by scripts/gen_api.py) ----

#include "api/ops.gen.inc"

}  // namespace webnn
