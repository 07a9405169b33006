// MLGraphBuilder and MLOperand for Python. The operator methods are generic: the library's
// description of every operator (webnn::operators(): the op table, the spec's signatures and the
// attribute structs' fields) goes to python/webnn/_ops.py through _op_table(), which makes one
// Python method per op with the spec's signature, and every method lands in _add_operation()
// below, which converts the arguments as the description says and calls
// MLGraphBuilder::add_operation. No op is bound by hand.
#include "attributes.hpp"

namespace webnn::python {

namespace {

// One operator as Python presents it.
struct OpMethod {
  const MLOperatorInfo* info;
  std::string method;                   // "average_pool2d"
  std::vector<std::string> operands;    // positional operands, snake_case
  std::vector<bool> operand_is_list;    // sequence<MLOperand> (concat's inputs)
  std::vector<std::string> parameters;  // required non-operand parameters, snake_case
};

const std::vector<OpMethod>& op_methods() {
  static const std::vector<OpMethod> methods = [] {
    std::vector<OpMethod> all;
    for (const MLOperatorInfo& info : operators()) {
      OpMethod m{&info, snake_case(info.name), {}, {}, {}};
      for (std::string_view name : info.operands) {
        const bool is_list = name.ends_with("[]");
        if (is_list) name.remove_suffix(2);
        m.operands.push_back(snake_case(name));
        m.operand_is_list.push_back(is_list);
      }
      for (const MLArgumentInfo& p : info.parameters) m.parameters.push_back(snake_case(p.name));
      all.push_back(std::move(m));
    }
    return all;
  }();
  return methods;
}

std::string type_name(py::handle v) { return py::str(py::type::handle_of(v).attr("__name__")); }

MLOperand operand_arg(py::handle v, const FieldTarget& t) {
  if (!py::isinstance<MLOperand>(v)) field_type_error(t, "an MLOperand", v);
  return v.cast<MLOperand>();
}

// builder.<op>(*operands, **arguments): `arguments` holds the required parameters and the options
// given, by their snake_case names; absent options keep the spec's defaults. The arguments are
// converted first, as WebIDL converts a method's arguments before its steps run; the builder then
// makes the spec's steps, each failure led by the label: "can build", validating each operand,
// the op's own validation.
py::object call_op_method(MLGraphBuilder& builder, size_t kind_index, const py::sequence& operands,
                          const py::dict& arguments) {
  if (kind_index >= op_methods().size()) throw py::value_error("_add_operation: unknown operator");
  const OpMethod& m = op_methods()[kind_index];
  if (operands.size() != m.operands.size())
    throw py::type_error(m.method + "() takes " + std::to_string(m.operands.size()) + " operands, got " +
                         std::to_string(operands.size()));

  for (const std::string& p : m.parameters)
    if (!arguments.contains(p)) throw py::type_error(m.method + "() missing required argument: '" + p + "'");
  std::string label;
  size_t used = 0;
  if (arguments.contains("label")) {
    ++used;
    py::handle v = arguments["label"];
    if (!py::isinstance<py::str>(v)) field_type_error({m.method, "label"}, "a str", v);
    label = py::str(v);
  }

  std::vector<MLOperand> inputs;
  for (size_t i = 0; i < m.operands.size(); ++i) {
    py::handle v = operands[i];
    if (!m.operand_is_list[i]) {
      inputs.push_back(operand_arg(v, {m.method, m.operands[i]}));
      continue;
    }
    if (py::isinstance<py::str>(v) || !py::isinstance<py::sequence>(v))
      field_type_error({m.method, m.operands[i]}, "a sequence of MLOperand", v);
    size_t j = 0;
    for (py::handle item : v)
      inputs.push_back(operand_arg(item, {m.method, m.operands[i] + "[" + std::to_string(j++) + "]"}));
  }
  MLArguments converted;
  for (const auto* list : {&m.info->parameters, &m.info->options})
    for (const MLArgumentInfo& a : *list) {
      const std::string key = snake_case(a.name);
      if (!arguments.contains(key)) continue;
      ++used;
      if (auto value = from_python(arguments[py::str(key)], a, FieldTarget{m.method, key}))
        converted.emplace(a.name, std::move(*value));
    }
  if (used != arguments.size()) {
    for (auto [key, value] : arguments) {
      const std::string k = py::str(key);
      bool known = k == "label";
      for (const auto* list : {&m.info->parameters, &m.info->options})
        for (const MLArgumentInfo& a : *list) known |= snake_case(a.name) == k;
      if (!known) throw py::type_error(m.method + "() got an unexpected keyword argument '" + k + "'");
    }
  }

  std::vector<MLOperand> outputs = builder.add_operation(m.info->name, inputs, converted, label);
  if (!m.info->returns_sequence) return py::cast(outputs.at(0));
  py::list list;
  for (const MLOperand& o : outputs) list.append(py::cast(o));
  return list;
}

// The description _ops.py turns into methods: per op its name, operands, required parameters and
// options with their defaults and type annotations.
py::list op_table() {
  py::list table;
  for (size_t k = 0; k < op_methods().size(); ++k) {
    const OpMethod& m = op_methods()[k];
    py::list operands;
    for (size_t i = 0; i < m.operands.size(); ++i)
      operands.append(py::make_tuple(m.operands[i], static_cast<bool>(m.operand_is_list[i])));
    py::list parameters, options;
    for (const MLArgumentInfo& p : m.info->parameters)
      parameters.append(py::make_tuple(snake_case(p.name), type_hint(p)));
    for (const MLArgumentInfo& o : m.info->options)
      options.append(py::make_tuple(snake_case(o.name), default_to_python(o), type_hint(o)));
    py::dict entry;
    entry["kind"] = k;
    entry["name"] = m.info->name;
    entry["method"] = m.method;
    entry["operands"] = operands;
    entry["parameters"] = parameters;
    entry["options"] = options;
    entry["returns_sequence"] = m.info->returns_sequence;
    table.append(entry);
  }
  return table;
}

OperandDescriptor input_descriptor(py::handle shape, py::handle data_type) {
  // The spec's form input(name, {shape, dataType}) as well as pywebnn's input(name, shape, data_type).
  if (py::isinstance<py::dict>(shape)) {
    auto d = py::reinterpret_borrow<py::dict>(shape);
    if (!d.contains("shape")) throw_type_error("input: the descriptor has no \"shape\"");
    py::object type = d.contains("dataType") ? d["dataType"] : d.contains("data_type") ? d["data_type"] : py::object();
    if (!type) throw_type_error("input: the descriptor has no \"dataType\"");
    return {data_type_arg(type, "input"), shape_arg(d["shape"], "input")};
  }
  return {data_type_arg(data_type, "input"), shape_arg(shape, "input")};
}

}  // namespace

void bind_builder(py::module_& m) {
  py::class_<MLOperand>(m, "MLOperand", "The spec's MLOperand: a value in a graph being built.")
      .def_property_readonly(
          "data_type", [](const MLOperand& o) { return std::string(to_string(o.data_type())); }, "The data type name.")
      .def_property_readonly(
          "shape", [](const MLOperand& o) { return shape_list(o.shape()); }, "The shape, a list of ints.")
      .def_property_readonly(
          "name",
          [](const MLOperand& o) -> py::object {
            if (!o) return py::none();
            const std::string name = o.name();
            return name.empty() ? py::object(py::none()) : py::object(py::str(name));
          },
          "The input's name (pywebnn's property); None for other operands.")
      .def("__repr__", [](const MLOperand& o) {
        return "<webnn.MLOperand " + OperandDescriptor{o.data_type(), o.shape()}.to_string() + ">";
      });

  py::class_<MLGraphBuilder>(m, "MLGraphBuilder",
                             "The spec's MLGraphBuilder. Every operator of the spec is a method named in\n"
                             "snake_case (average_pool2d, reduce_log_sum_exp, gather_nd, ...): operands\n"
                             "positionally in the spec's order, required parameters positionally or by\n"
                             "keyword, options as keyword arguments.")
      .def(py::init<const MLContext&>(), py::arg("context"), "A builder for graphs of `context`.")
      .def(
          "input",
          [](MLGraphBuilder& b, const std::string& name, py::handle shape, py::handle data_type) {
            return b.input(name, input_descriptor(shape, data_type));
          },
          py::arg("name"), py::arg("shape"), py::arg("data_type") = "float32",
          "A graph input (spec: input()). shape is a list of ints (or the spec's descriptor dict).")
      .def(
          "constant",
          [](MLGraphBuilder& b, py::handle value, py::handle shape, py::handle data_type) {
            if (py::isinstance<MLTensor>(value)) {
              if (!shape.is_none() || !data_type.is_none())
                throw_type_error("constant: a constant tensor takes no shape or data_type");
              return b.constant(value.cast<const MLTensor&>());
            }
            if (py::isinstance<py::str>(value)) {
              // The spec's constant(dataType, value): a scalar, integers kept exact.
              const DataType type = data_type_arg(value, "constant");
              static const std::string method = "constant";
              return b.constant(type, number_from_python(shape, FieldTarget{method, "value"}));
            }
            ArrayBytes a = constant_array(value, shape, data_type, "constant");
            return b.constant({a.type, a.shape}, a.bytes());
          },
          py::arg("value"), py::arg("shape") = py::none(), py::arg("data_type") = py::none(),
          "A constant operand (a copy of the data). value is an ndarray (its dtype is the data type),\n"
          "an array-like (float32 unless data_type says otherwise), a constant MLTensor, or, as in\n"
          "the spec's constant(dataType, value), a data type name followed by a scalar.\n"
          "shape reshapes the value (same element count); data_type converts it.")
      .def(
          "build",
          [](MLGraphBuilder& b, const py::dict& outputs) {
            MLNamedOperands named;
            for (auto [key, value] : outputs) {
              const std::string name = py::str(key);
              if (!py::isinstance<MLOperand>(value))
                throw_type_error("build: output \"" + name + "\" must be an MLOperand, got " + type_name(value));
              named[name] = value.cast<MLOperand>();
            }
            MLGraph graph;
            {
              py::gil_scoped_release release;  // compiles the graph for the context
              graph = b.build(named);
            }
            return PyGraph::built(std::move(graph));
          },
          py::arg("outputs"), "Builds the graph of the named outputs (spec: build()). A builder builds once.")
      .def("_add_operation", &call_op_method, py::arg("kind"), py::arg("operands"), py::arg("arguments"));

  m.def("_op_table", &op_table);
}

}  // namespace webnn::python
