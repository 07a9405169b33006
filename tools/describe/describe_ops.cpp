// webnn_describe: prints the operator table as the generators need it (scripts/regenerate.py
// runs them: the C ABI, the IPC wire schema, the JavaScript surface), as JSON: every op of
// graph/op_table.def in table order, its spec signature (graph/op_signatures.def) and the
// fields of its attribute struct, walked through the struct's own `fields()` reflection
// (graph/attributes.hpp) with each field's type. Nothing here names an op or a field: an op added
// to the table shows up in the output, and so in webnn.h, with no change to this file.
#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <typeinfo>

#include "graph/graph.hpp"
#include "graph/op_signatures.hpp"

namespace webnn {
namespace {

using nlohmann::json;

// "webnn::InputLayout" -> "InputLayout"
template <class T>
std::string type_name() {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status),
                                              std::free);
  std::string s = status == 0 && name ? name.get() : typeid(T).name();
  const size_t colon = s.rfind("::");
  return colon == std::string::npos ? s : s.substr(colon + 2);
}

template <SpecEnum E>
json enum_json(E value) {
  json values = json::array();
  for (std::string_view n : EnumNames<E>::kNames) values.push_back(std::string(n));
  return {{"type", "enum"}, {"enum", type_name<E>()}, {"values", values}, {"default", std::string(enum_name(value))}};
}

struct FieldVisitor {
  json& out;
  void add(const char* name, json field) {
    field["name"] = name;
    out.push_back(std::move(field));
  }
  void operator()(const char* n, bool& v) { add(n, {{"type", "bool"}, {"default", v}}); }
  void operator()(const char* n, uint32_t& v) { add(n, {{"type", "uint32"}, {"default", v}}); }
  void operator()(const char* n, int32_t& v) { add(n, {{"type", "int32"}, {"default", v}}); }
  void operator()(const char* n, double& v) { add(n, {{"type", "double"}, {"default", v}}); }
  void operator()(const char* n, Number& v) { add(n, {{"type", "number"}, {"default", v.to_string()}}); }
  void operator()(const char* n, DataType& v) {
    add(n, {{"type", "data_type"}, {"default", std::string(to_string(v))}});
  }
  template <SpecEnum E>
  void operator()(const char* n, E& v) {
    add(n, enum_json(v));
  }
  void operator()(const char* n, std::vector<uint32_t>&) { add(n, {{"type", "dims"}}); }
  // Front ends and the wire pass an option with a default like one without: given or absent.
  void operator()(const char* n, OptionalDims&) { add(n, {{"type", "optional_dims"}}); }
  void operator()(const char* n, DefaultedDims&) { add(n, {{"type", "optional_dims"}}); }
  void operator()(const char* n, DefaultedFloats&) { add(n, {{"type", "optional_floats"}}); }
  void operator()(const char* n, DefaultedActivations&) {
    json f = enum_json(RecurrentActivation{});
    f["type"] = "optional_enum_list";
    f.erase("default");
    add(n, f);
  }
  void operator()(const char* n, std::optional<OperandRef>&) { add(n, {{"type", "optional_operand"}}); }
  void operator()(const char* n, SplitSpec&) { add(n, {{"type", "splits"}}); }
};

template <class Attrs>
json fields_json() {
  json out = json::array();
  Attrs attrs{};
  Attrs::fields(attrs, FieldVisitor{out});
  return out;
}

json describe_op_table() {
  json ops = json::array();
#define WEBNN_OP(Enum, name, Attrs, family, ...)                                                               \
  {                                                                                                            \
    const OpSignature* sig = find_op_signature(OpKind::k##Enum);                                               \
    if (!sig) throw std::logic_error(std::string("no signature for ") + name);                                 \
    json op = {{"name", name},                                                                                 \
               {"kind", #Enum},                                                                                \
               {"attrs", #Attrs},                                                                              \
               {"fields", fields_json<Attrs>()},                                                               \
               {"returns_sequence", sig->returns_sequence}};                                                   \
    json operands = json::array(), parameters = json::array();                                                 \
    for (size_t i = 0; i < sig->operand_count(); ++i) operands.push_back(std::string(sig->operands[i]));       \
    for (size_t i = 0; i < sig->parameter_count(); ++i) parameters.push_back(std::string(sig->parameters[i])); \
    op["operands"] = operands;                                                                                 \
    op["parameters"] = parameters;                                                                             \
    ops.push_back(std::move(op));                                                                              \
  }
#include "graph/op_table.def"
#undef WEBNN_OP
  json data_types = json::array();
  for (DataType t : kAllDataTypes) data_types.push_back(std::string(to_string(t)));
  return {{"ops", ops}, {"data_types", data_types}};
}

}  // namespace
}  // namespace webnn

int main() {
  try {
    std::printf("%s\n", webnn::describe_op_table().dump(1).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "webnn_describe: %s\n", e.what());
    return 1;
  }
}
