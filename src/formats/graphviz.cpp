// Graphviz DOT export of a graph (`webnn convert GRAPH --to dot`): operations as boxes with their
// op, label and the options that differ from their defaults (walked through the attribute
// reflection, like every other writer); inputs, constants and outputs as their own shapes; every
// edge labelled with the data type and shape of the operand it carries.
#include <sstream>

#include "formats/internal.hpp"

namespace webnn::formats {

namespace {

// A DOT double-quoted string's contents.
std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string operand_label(const Graph& g, OperandId id) {
  const Operand& o = g.operands[id];
  if (!o.name.empty()) return o.name;
  std::string s = std::to_string(id);
  s.insert(s.begin(), '%');
  return s;
}

}  // namespace

// "prefix" followed by the number (spelled out so that GCC 12's -Wrestrict false positive on
// literal + std::string stays quiet).
static std::string dot_id(char prefix, size_t n) {
  std::string s = std::to_string(n);
  s.insert(s.begin(), prefix);
  return s;
}

std::string to_dot(const Graph& graph) {
  std::ostringstream out;
  out << "digraph \"" << escape(graph.name.empty() ? "webnn" : graph.name) << "\" {\n";
  out << "  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";
  // Producers: operand -> the DOT node that makes it.
  std::vector<std::string> producer(graph.operands.size());
  for (const NamedOperand& in : graph.inputs) {
    std::string id = dot_id('i', in.operand);
    producer[in.operand] = id;
    out << "  " << id << " [shape=invhouse, style=filled, fillcolor=\"#d8ecff\", label=\"input " << escape(in.name)
        << "\\n"
        << escape(graph.desc(in.operand).to_string()) << "\"];\n";
  }
  for (OperandId id = 0; id < graph.operands.size(); ++id) {
    const Operand& o = graph.operands[id];
    if (o.kind != OperandKind::kConstant) continue;
    std::string node = dot_id('c', id);
    producer[id] = node;
    out << "  " << node << " [shape=note, style=filled, fillcolor=\"#eeeeee\", label=\"constant "
        << escape(operand_label(graph, id)) << "\\n"
        << escape(o.desc.to_string()) << "\\n"
        << graph.constant_data(id).size << " bytes\"];\n";
  }
  auto name_of = [&](OperandId id) { return operand_label(graph, id); };
  for (size_t i = 0; i < graph.operations.size(); ++i) {
    const Operation& op = graph.operations[i];
    std::string node = dot_id('n', i);
    for (OperandId o : op.outputs) producer[o] = node;
    std::string label(op_name(op.kind));
    if (!op.label.empty()) label.append(" [").append(op.label).append("]");
    for (const EncodedOption& opt : encode_attributes(op, name_of)) {
      if (opt.name == "label") continue;
      std::string value = opt.value.is_string() ? opt.value.get<std::string>() : opt.value.dump();
      label.append("\n").append(opt.name).append(": ").append(value);
    }
    out << "  " << node << " [shape=box, style=rounded, label=\"" << escape(label) << "\"];\n";
    for_each_input(op, [&](OperandId in) {
      out << "  " << producer[in] << " -> " << node << " [label=\"" << escape(graph.desc(in).to_string()) << "\"];\n";
    });
  }
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    const NamedOperand& o = graph.outputs[i];
    std::string node = dot_id('o', i);
    out << "  " << node << " [shape=house, style=filled, fillcolor=\"#dff5d8\", label=\"output " << escape(o.name)
        << "\"];\n";
    out << "  " << producer[o.operand] << " -> " << node << " [label=\"" << escape(graph.desc(o.operand).to_string())
        << "\"];\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace webnn::formats
