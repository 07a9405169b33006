// MLGraphBuilder: input, the constant overloads, build, and every operator through one generic
// function. js/lib/generated.js (written by scripts/gen_js.py from the spec's IDL and the op table)
// converts each method's arguments as WebIDL says and calls addOperation with the op's table index,
// its operands and an object of attribute values keyed by the attribute structs' own field names;
// the fields are filled here by walking each struct's fields() reflection, so no op or option is
// named in this file.
#include "addon.hpp"

namespace webnn::js {

void queue_build(napi_env env, MLContext context, Model model, napi_value callback);  // context.cpp
MLTensor& tensor_handle(napi_env env, napi_value v, const std::string& what);         // context.cpp
MLContext& context_handle(napi_env env, napi_value v);                                // context.cpp

namespace {

BuilderHandle& builder_arg(napi_env env, napi_value v) { return unwrap<BuilderHandle>(env, v, "builder"); }

// An operand reference from js/lib: [builder handle, id]. Whether it belongs to the builder it is
// used with is the builder's check ("validating operand"), made in the spec's order.
MLOperand operand_ref(napi_env env, napi_value v, const std::string& what) {
  auto items = to_elements(env, v, what);
  if (items.size() != 2) throw_type_error(env, what + " must be an [builder, id] pair");
  const MLGraphBuilder& owner = builder_arg(env, items[0]).builder;
  return owner.operand(to_uint32(env, items[1], what));
}

// [id, dataType, shape]
napi_value describe_operand(napi_env env, const MLOperand& operand) {
  return make_array(env, {make_number(env, operand.id()), make_string(env, to_string(operand.data_type())),
                          make_dims(env, operand.shape())});
}

// A parameter's or option's value as js/lib converted it, in the form its type takes.
MLArgument argument_from_js(napi_env env, const MLArgumentInfo& info, napi_value v, const std::string& where) {
  switch (info.type) {
    case MLArgumentType::kBoolean:
      return to_bool(env, v, where);
    case MLArgumentType::kUnsignedLong:
      return to_uint32(env, v, where);
    case MLArgumentType::kLong:
      return to_int32(env, v, where);
    case MLArgumentType::kDouble:
      return to_double(env, v, where);
    case MLArgumentType::kNumber:
      return to_number(env, v, where);
    case MLArgumentType::kDataType:
      return to_data_type(env, v, where);
    case MLArgumentType::kEnum:
      return to_string(env, v, where);
    case MLArgumentType::kDimensions:
    case MLArgumentType::kOptionalDimensions:
      return to_dims(env, v, where);
    case MLArgumentType::kOptionalFloats: {
      std::vector<float> values;
      for (napi_value item : to_elements(env, v, where))
        values.push_back(static_cast<float>(to_double(env, item, where)));
      return values;
    }
    case MLArgumentType::kOptionalEnumList: {
      std::vector<std::string> values;
      for (napi_value item : to_elements(env, v, where)) values.push_back(to_string(env, item, where));
      return values;
    }
    case MLArgumentType::kOptionalOperand:
      return operand_ref(env, v, info.name);
    case MLArgumentType::kSplits:
      if (is_array(env, v)) return to_dims(env, v, where);
      return to_uint32(env, v, where);
  }
  throw_type_error(env, where + ": an argument of an unknown type");
}

// opKinds() -> { specName: index } in the order of webnn::operators().
napi_value op_kinds(napi_env env, napi_callback_info) {
  return guarded(env, [&] {
    napi_value out = make_object(env);
    for (size_t k = 0; k < operators().size(); ++k)
      set(env, out, operators()[k].name.c_str(), make_number(env, static_cast<double>(k)));
    return out;
  });
}

// createBuilder(context) -> builder
napi_value create_builder(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    const MLContext& context = context_handle(env, args[0]);
    return wrap(env, std::make_unique<BuilderHandle>(BuilderHandle{MLGraphBuilder(context), context}));
  });
}

// checkCanBuild(builder, method): the spec's "can build" check (InvalidStateError).
napi_value check_can_build(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 2);
    builder_arg(env, args[0]).builder.check_can_build(to_string(env, args[1], "method"));
    return make_undefined(env);
  });
}

// input(builder, name, dataType, shape) -> [id, dataType, shape]
napi_value input(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 4);
    MLGraphBuilder& b = builder_arg(env, args[0]).builder;
    OperandDescriptor desc{to_data_type(env, args[2], "dataType"), to_dims(env, args[3], "shape")};
    return describe_operand(env, b.input(to_string(env, args[1], "name"), desc));
  });
}

// constant(builder, dataType, shape, bytes) -> [id, dataType, shape]
napi_value constant(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 4);
    MLGraphBuilder& b = builder_arg(env, args[0]).builder;
    OperandDescriptor desc{to_data_type(env, args[1], "dataType"), to_dims(env, args[2], "shape")};
    return describe_operand(env, b.constant(desc, to_bytes(env, args[3], "buffer")));
  });
}

// constantScalar(builder, dataType, value) -> [id, dataType, shape]
napi_value constant_scalar(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 3);
    MLGraphBuilder& b = builder_arg(env, args[0]).builder;
    return describe_operand(env, b.constant(to_data_type(env, args[1], "dataType"), to_number(env, args[2], "value")));
  });
}

// constantTensor(builder, tensor) -> [id, dataType, shape]
napi_value constant_tensor(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 2);
    MLGraphBuilder& b = builder_arg(env, args[0]).builder;
    return describe_operand(env, b.constant(tensor_handle(env, args[1], "tensor")));
  });
}

// addOperation(builder, kind, operands, attributes, label) -> [[id, dataType, shape], ...]
//   operands: [[argument name, [builder, id]], ...] in the spec's order (a sequence<MLOperand>
//   argument flattened, its items named "inputs[i]"); attributes: { field: value } for the fields
//   the caller gave.
napi_value js_add_operation(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 5);
    MLGraphBuilder& b = builder_arg(env, args[0]).builder;
    const uint32_t kind_index = to_uint32(env, args[1], "kind");
    if (kind_index >= operators().size())
      throw_type_error(env, "addOperation: unknown operator " + std::to_string(kind_index));
    const MLOperatorInfo& op = operators()[kind_index];
    const std::string label = to_string(env, args[4], "label");
    std::vector<MLOperand> operands;
    for (napi_value pair : to_elements(env, args[2], "operands")) {
      auto items = to_elements(env, pair, "operands");
      if (items.size() != 2) throw_type_error(env, "addOperation: operands must hold [name, operand] pairs");
      operands.push_back(operand_ref(env, items[1], to_string(env, items[0], "operand name")));
    }
    napi_value given = args[3];
    if (type_of(env, given) != napi_object) throw_type_error(env, "addOperation: attributes must be an object");
    MLArguments arguments;
    for (const auto* list : {&op.parameters, &op.options})
      for (const MLArgumentInfo& a : *list) {
        bool has = false;
        check(env, napi_has_named_property(env, given, a.name.c_str(), &has));
        if (!has) continue;
        napi_value v = get(env, given, a.name.c_str());
        if (type_of(env, v) != napi_undefined)
          arguments.emplace(a.name, argument_from_js(env, a, v, op.name + ": " + a.name));
      }
    // The builder's steps, each failure led by the label: "can build", validating each operand
    // (positional, then operand-valued options), then the op's own validation.
    std::vector<napi_value> outputs;
    for (const MLOperand& o : b.add_operation(op.name, operands, arguments, label))
      outputs.push_back(describe_operand(env, o));
    return make_array(env, outputs);
  });
}

// build(builder, outputs, callback): the spec's synchronous steps here (errors thrown, which js/lib
// turns into a rejection), the compile on the libuv pool; callback(error | null, graph, inputs,
// outputs) with the graph's descriptors as { name: [dataType, shape] }.
napi_value build(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 3);
    BuilderHandle& handle = builder_arg(env, args[0]);
    MLGraphBuilder& b = handle.builder;
    if (type_of(env, args[2]) != napi_function) throw_type_error(env, "build: callback must be a function");
    b.check_can_build("build");
    MLNamedOperands outputs;
    for (napi_value pair : to_elements(env, args[1], "outputs")) {
      auto items = to_elements(env, pair, "outputs");
      if (items.size() != 2) throw_type_error(env, "build: outputs must hold [name, operand] pairs");
      const std::string name = to_string(env, items[0], "output name");
      outputs[name] = operand_ref(env, items[1], "output " + quote(name));
    }
    Model model = b.build_model(outputs);
    queue_build(env, handle.context, std::move(model), args[2]);
    return make_undefined(env);
  });
}

}  // namespace

void register_builder_functions(napi_env env, napi_value exports) {
  define(env, exports, "opKinds", op_kinds);
  define(env, exports, "createBuilder", create_builder);
  define(env, exports, "checkCanBuild", check_can_build);
  define(env, exports, "input", input);
  define(env, exports, "constant", constant);
  define(env, exports, "constantScalar", constant_scalar);
  define(env, exports, "constantTensor", constant_tensor);
  define(env, exports, "addOperation", js_add_operation);
  define(env, exports, "build", build);
}

}  // namespace webnn::js
