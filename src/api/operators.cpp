// Operators by name: the public description of every operator (webnn::operators()) and the
// argument filling behind MLGraphBuilder::add_operation, both by walking the op table
// (graph/op_table.def), the spec's signatures (graph/op_signatures.def) and each attribute
// struct's `fields()` reflection. Nothing here names an op or an option.
#include <unordered_map>

#include "api/impl.hpp"
#include "graph/op_signatures.hpp"

namespace webnn {

namespace {

template <SpecEnum E>
std::vector<std::string> enum_values() {
  std::vector<std::string> values;
  for (std::string_view n : EnumNames<E>::kNames) values.emplace_back(n);
  return values;
}

// Each field type of graph/attributes.hpp as the public description gives it.
struct DescribeField {
  std::vector<MLArgumentInfo>& out;

  void add(const char* name, MLArgumentType type, std::optional<MLArgument> default_value = std::nullopt,
           std::vector<std::string> values = {}) {
    out.push_back({name, type, std::move(values), std::move(default_value)});
  }
  void operator()(const char* n, bool& v) { add(n, MLArgumentType::kBoolean, v); }
  void operator()(const char* n, uint32_t& v) { add(n, MLArgumentType::kUnsignedLong, v); }
  void operator()(const char* n, int32_t& v) { add(n, MLArgumentType::kLong, v); }
  void operator()(const char* n, double& v) { add(n, MLArgumentType::kDouble, v); }
  void operator()(const char* n, Number& v) { add(n, MLArgumentType::kNumber, v); }
  void operator()(const char* n, DataType& v) { add(n, MLArgumentType::kDataType, v); }
  template <SpecEnum E>
  void operator()(const char* n, E& v) {
    add(n, MLArgumentType::kEnum, std::string(enum_name(v)), enum_values<E>());
  }
  void operator()(const char* n, std::vector<uint32_t>& v) { add(n, MLArgumentType::kDimensions, v); }
  void operator()(const char* n, OptionalDims&) { add(n, MLArgumentType::kOptionalDimensions); }
  void operator()(const char* n, DefaultedDims&) { add(n, MLArgumentType::kOptionalDimensions); }
  void operator()(const char* n, DefaultedFloats&) { add(n, MLArgumentType::kOptionalFloats); }
  void operator()(const char* n, DefaultedActivations&) {
    add(n, MLArgumentType::kOptionalEnumList, std::nullopt, enum_values<RecurrentActivation>());
  }
  void operator()(const char* n, std::optional<OperandRef>&) { add(n, MLArgumentType::kOptionalOperand); }
  void operator()(const char* n, SplitSpec&) { add(n, MLArgumentType::kSplits); }
};

MLOperatorInfo describe(OpKind kind) {
  const OpSignature* sig = find_op_signature(kind);
  if (!sig) throw std::logic_error("webnn: no signature for " + std::string(op_name(kind)));
  MLOperatorInfo info{std::string(op_name(kind)), {}, {}, {}, sig->returns_sequence};
  for (size_t i = 0; i < sig->operand_count(); ++i) info.operands.emplace_back(sig->operands[i]);
  std::vector<MLArgumentInfo> fields;
  Attributes attrs = default_attributes(kind);
  std::visit([&](auto& a) { std::decay_t<decltype(a)>::fields(a, DescribeField{fields}); }, attrs);
  // Required parameters in the signature's order, then the options in the struct's.
  for (size_t i = 0; i < sig->parameter_count(); ++i)
    for (MLArgumentInfo& f : fields)
      if (f.name == sig->parameters[i]) {
        f.default_value.reset();
        info.parameters.push_back(f);
      }
  for (MLArgumentInfo& f : fields) {
    bool is_parameter = false;
    for (const MLArgumentInfo& p : info.parameters) is_parameter |= p.name == f.name;
    if (!is_parameter) info.options.push_back(std::move(f));
  }
  return info;
}

// Fills one field from the value a binding gave, naming `method` and the field in every error.
struct FillField {
  const std::string& method;
  const std::function<OperandId(const MLOperand&, const std::string&)>& operand;

  std::string where(const char* field) const { return method + ": " + field; }

  template <class T>
  const T& as(const MLArgument& v, const char* field, const char* expected) const {
    const T* p = std::get_if<T>(&v);
    type_error_if(!p, where(field) + " must be " + expected);
    return *p;
  }
  template <SpecEnum E>
  E parse(const std::string& value, const std::string& what) const {
    auto parsed = parse_enum<E>(value);
    type_error_if(!parsed, what + " " + quote(value) + " is not one of the allowed values");
    return *parsed;
  }

  void operator()(const char* f, bool& out, const MLArgument& v) const { out = as<bool>(v, f, "a boolean"); }
  void operator()(const char* f, uint32_t& out, const MLArgument& v) const {
    out = as<uint32_t>(v, f, "an unsigned long");
  }
  void operator()(const char* f, int32_t& out, const MLArgument& v) const { out = as<int32_t>(v, f, "a long"); }
  void operator()(const char* f, double& out, const MLArgument& v) const { out = as<double>(v, f, "a double"); }
  void operator()(const char* f, Number& out, const MLArgument& v) const { out = as<Number>(v, f, "an MLNumber"); }
  void operator()(const char* f, DataType& out, const MLArgument& v) const {
    out = as<DataType>(v, f, "an MLOperandDataType");
  }
  template <SpecEnum E>
  void operator()(const char* f, E& out, const MLArgument& v) const {
    out = parse<E>(as<std::string>(v, f, "a string"), where(f));
  }
  void operator()(const char* f, std::vector<uint32_t>& out, const MLArgument& v) const {
    out = as<std::vector<uint32_t>>(v, f, "a sequence of unsigned longs");
  }
  void operator()(const char* f, OptionalDims& out, const MLArgument& v) const {
    out = as<std::vector<uint32_t>>(v, f, "a sequence of unsigned longs");
  }
  void operator()(const char* f, DefaultedDims& out, const MLArgument& v) const {
    out = as<std::vector<uint32_t>>(v, f, "a sequence of unsigned longs");
  }
  void operator()(const char* f, DefaultedFloats& out, const MLArgument& v) const {
    out = as<std::vector<float>>(v, f, "a sequence of floats");
  }
  void operator()(const char* f, DefaultedActivations& out, const MLArgument& v) const {
    const auto& names = as<std::vector<std::string>>(v, f, "a sequence of strings");
    std::vector<RecurrentActivation> values;
    for (size_t i = 0; i < names.size(); ++i)
      values.push_back(parse<RecurrentActivation>(names[i], where(f) + "[" + std::to_string(i) + "]"));
    out = std::move(values);
  }
  void operator()(const char* f, std::optional<OperandRef>& out, const MLArgument& v) const {
    out = OperandRef{operand(as<MLOperand>(v, f, "an MLOperand"), f)};
  }
  void operator()(const char* f, SplitSpec& out, const MLArgument& v) const {
    if (const auto* n = std::get_if<uint32_t>(&v))
      out = *n;
    else
      out = as<std::vector<uint32_t>>(v, f, "an unsigned long or a sequence of unsigned longs");
  }
};

}  // namespace

const std::vector<MLOperatorInfo>& operators() {
  static const std::vector<MLOperatorInfo> all = [] {
    std::vector<MLOperatorInfo> out;
    for (size_t k = 0; k < kOpKindCount; ++k) out.push_back(describe(static_cast<OpKind>(k)));
    return out;
  }();
  return all;
}

namespace detail {

OpKind operator_kind(const std::string& name) {
  static const std::unordered_map<std::string, OpKind> kinds = [] {
    std::unordered_map<std::string, OpKind> out;
    for (size_t k = 0; k < kOpKindCount; ++k) out.emplace(op_name(static_cast<OpKind>(k)), static_cast<OpKind>(k));
    return out;
  }();
  auto it = kinds.find(name);
  type_error_if(it == kinds.end(), "add_operation: " + quote(name) + " is not an operator");
  return it->second;
}

std::vector<std::string> operand_names(OpKind kind, size_t given) {
  const MLOperatorInfo& info = operators().at(static_cast<size_t>(kind));
  std::vector<std::string> names;
  const size_t fixed = info.operands.size() - (info.operands.empty() || !info.operands.back().ends_with("[]") ? 0 : 1);
  type_error_if(
      given < fixed || (fixed == info.operands.size() && given != fixed),
      info.name + ": takes " + std::to_string(info.operands.size()) + " operands, got " + std::to_string(given));
  for (const std::string& name : info.operands) {
    if (!name.ends_with("[]")) {
      names.push_back(name);
      continue;
    }
    const std::string base = name.substr(0, name.size() - 2);
    for (size_t i = 0; names.size() < given; ++i) names.push_back(base + "[" + std::to_string(i) + "]");
  }
  return names;
}

Attributes attributes_from(OpKind kind, const MLArguments& arguments,
                           const std::function<OperandId(const MLOperand&, const std::string&)>& operand) {
  const MLOperatorInfo& info = operators().at(static_cast<size_t>(kind));
  for (const auto& [name, value] : arguments) {
    bool known = false;
    for (const auto* list : {&info.parameters, &info.options})
      for (const MLArgumentInfo& a : *list) known |= a.name == name;
    type_error_if(!known, info.name + ": " + quote(name) + " is not one of its parameters or options");
  }
  for (const MLArgumentInfo& p : info.parameters)
    type_error_if(!arguments.count(p.name), info.name + ": the required parameter " + p.name + " is missing");
  Attributes attrs = default_attributes(kind);
  const FillField fill{info.name, operand};
  std::visit(
      [&](auto& a) {
        std::decay_t<decltype(a)>::fields(a, [&](const char* field, auto& value) {
          auto it = arguments.find(field);
          if (it != arguments.end()) fill(field, value, it->second);
        });
      },
      attrs);
  return attrs;
}

}  // namespace detail

}  // namespace webnn
