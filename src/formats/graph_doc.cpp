// GraphDoc <-> IR: building a parsed document through GraphBuilder, and describing a Graph as a
// document for the writers.
#include <algorithm>
#include <functional>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "formats/internal.hpp"
#include "graph/graph_builder.hpp"

namespace webnn::formats {

namespace {

// Prefixes builder errors with where they happened, keeping the error kind.
template <class Fn>
auto at(const std::string& where, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const Error& e) {
    if (e.message().rfind(where, 0) == 0) throw;  // already names the place
    throw Error(e.kind(), where + ": " + e.message());
  }
}

BufferRef init_bytes(const TensorDoc& c, const WeightsSource& weights) {
  switch (c.init.kind) {
    case InitDoc::Kind::kWeights:
      return weights.get(c.init.ref, c.desc, c.where);
    case InitDoc::Kind::kScalar:
      return scalar_fill(c.desc, c.init.scalar, c.where);
    case InitDoc::Kind::kBytes: {
      auto expected = c.desc.byte_length();
      if (!expected || *expected != c.init.data.size)
        fail(c.where + ": inline bytes hold " + std::to_string(c.init.data.size) + " bytes but " + c.desc.to_string() +
             " needs " + (expected ? std::to_string(*expected) : std::string("more than 2^64")));
      return c.init.data;
    }
  }
  fail(c.where + ": constant has no initializer");
}

}  // namespace

std::shared_ptr<const Graph> build_graph(const GraphDoc& doc, const WeightsSource& weights, uint64_t memory_budget) {
  GraphBuilder builder;

  // Every operand name, defined once: inputs, constants and node results share one namespace.
  enum class Def { kInput, kConst, kNode };
  struct Symbol {
    Def def;
    size_t index;  // into doc.inputs / doc.consts / doc.nodes
  };
  std::unordered_map<std::string, Symbol> symbols;
  auto define = [&](const std::string& name, Symbol s, const std::string& where) {
    if (name.empty()) fail(where + ": operand names must not be empty");
    auto [it, inserted] = symbols.emplace(name, s);
    if (!inserted) fail(where + ": duplicate operand name " + quote(name));
  };
  for (size_t i = 0; i < doc.inputs.size(); ++i) define(doc.inputs[i].name, {Def::kInput, i}, doc.inputs[i].where);
  for (size_t i = 0; i < doc.consts.size(); ++i) define(doc.consts[i].name, {Def::kConst, i}, doc.consts[i].where);
  std::unordered_set<std::string> ids;
  std::vector<OpKind> kinds(doc.nodes.size());
  for (size_t i = 0; i < doc.nodes.size(); ++i) {
    const NodeDoc& n = doc.nodes[i];
    if (n.id.empty()) fail(n.where + ": node id must not be empty");
    if (!ids.insert(n.id).second) fail(n.where + ": duplicate node id " + quote(n.id));
    auto kind = parse_op_name(n.op);
    if (!kind) fail(n.where + ": unknown op " + quote(n.op));
    kinds[i] = *kind;
    if (n.outputs.empty()) fail(n.where + ": node has no outputs");
    for (const std::string& out : n.outputs) define(out, {Def::kNode, i}, n.where);
  }

  // Dependencies between nodes: positional inputs plus operand-valued options. Decoding the
  // options once here (with a resolver that only records names) also reports unknown options and
  // wrong types in file order.
  std::vector<std::vector<size_t>> users(doc.nodes.size());
  std::vector<size_t> pending(doc.nodes.size(), 0);
  for (size_t i = 0; i < doc.nodes.size(); ++i) {
    const NodeDoc& n = doc.nodes[i];
    std::set<size_t> deps;
    auto use = [&](const std::string& name) -> OperandId {
      auto it = symbols.find(name);
      if (it == symbols.end()) fail(n.where + ": undefined operand " + quote(name));
      if (it->second.def == Def::kNode) deps.insert(it->second.index);
      return 0;
    };
    for (const std::string& in : n.inputs) use(in);
    std::string label;
    decode_attributes(kinds[i], n.options, &label, use, n.where);
    for (size_t d : deps) users[d].push_back(i);
    pending[i] = deps.size();
  }

  // Kahn's algorithm, always taking the earliest ready node, so a file already in order keeps it.
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < doc.nodes.size(); ++i)
    if (pending[i] == 0) ready.push(i);
  std::vector<size_t> order;
  order.reserve(doc.nodes.size());
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (size_t u : users[i])
      if (--pending[u] == 0) ready.push(u);
  }
  if (order.size() != doc.nodes.size()) {
    for (size_t i = 0; i < doc.nodes.size(); ++i)
      if (pending[i] != 0) fail(doc.nodes[i].where + ": node is part of a dependency cycle (or depends on one)");
  }

  std::unordered_map<std::string, OperandId> ids_by_name;
  for (const TensorDoc& in : doc.inputs)
    ids_by_name[in.name] = at(in.where, [&] { return builder.add_input(in.name, in.desc); });
  // A scalar initializer is a few bytes of the file that stand for the whole tensor: bounded in
  // all, so that a small file cannot make the loader allocate without limit.
  uint64_t filled = 0;
  for (const TensorDoc& c : doc.consts) {
    // A constant too large for a tensor at all is scalar_fill's error; the budget bounds the rest.
    if (c.init.kind == InitDoc::Kind::kScalar && c.desc.byte_length().value_or(UINT64_MAX) <= kMaxTensorByteLength) {
      const uint64_t bytes = *c.desc.byte_length();
      if (bytes > memory_budget - std::min(filled, memory_budget))
        throw_error(ErrorKind::kNotSupportedError,
                    c.where + ": constants filled from a scalar would hold " + std::to_string(filled + bytes) +
                        " bytes in all, more than the load's memory budget of " + std::to_string(memory_budget) +
                        " bytes (raise it with --memory-budget, LoadOptions::memory_budget or webnn.load's "
                        "memory_budget)");
      filled += bytes;
    }
    BufferRef data = init_bytes(c, weights);
    ids_by_name[c.name] = at(c.where, [&] { return builder.add_constant(c.desc, std::move(data), c.name); });
  }
  for (size_t i : order) {
    const NodeDoc& n = doc.nodes[i];
    auto resolve = [&](const std::string& name) -> OperandId { return ids_by_name.at(name); };
    std::vector<OperandId> inputs;
    for (const std::string& in : n.inputs) inputs.push_back(resolve(in));
    std::string label;
    Attributes attrs = decode_attributes(kinds[i], n.options, &label, resolve, n.where);
    std::vector<OperandId> outs =
        at(n.where, [&] { return builder.add_operation(kinds[i], std::move(inputs), std::move(attrs), label); });
    if (outs.size() != n.outputs.size())
      fail(n.where + ": " + n.op + " has " + std::to_string(outs.size()) + " result(s) but the node lists " +
           std::to_string(n.outputs.size()) + " output(s)");
    for (size_t k = 0; k < outs.size(); ++k) {
      builder.set_operand_name(outs[k], n.outputs[k]);
      ids_by_name[n.outputs[k]] = outs[k];
    }
  }

  std::vector<NamedOperand> outputs;
  for (const OutputDoc& out : doc.outputs) {
    auto it = ids_by_name.find(out.operand);
    if (it == ids_by_name.end())
      fail(out.where + ": graph output " + quote(out.name) + " names undefined operand " + quote(out.operand));
    outputs.push_back({out.name, it->second});
  }
  return at(doc.origin, [&] { return builder.build(outputs, doc.name); });
}

bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  char c0 = name[0];
  if (!letter(c0) && c0 != '_' && c0 != '/' && c0 != '$') return false;
  for (char c : name.substr(1))
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '.' && c != '/') return false;
  // Words the text form reads as values.
  return name != "true" && name != "false" && name != "null";
}

std::string text_name(std::string_view name) {
  if (is_identifier(name) && name[0] != '$') return std::string(name);
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "$";
  for (char c : name) {
    const auto b = static_cast<unsigned char>(c);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '/') {
      out += c;
    } else if (c == '_') {
      out += "__";
    } else {
      out += '_';
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return out;
}

bool is_utf8(const std::string& s) {
  try {
    (void)Json(s).dump();  // the strict handler throws on invalid UTF-8
    return true;
  } catch (const Json::exception&) {
    return false;
  }
}

std::optional<std::string> name_from_text(std::string_view identifier) {
  if (identifier.empty() || identifier[0] != '$') return std::string(identifier);
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 1; i < identifier.size(); ++i) {
    if (identifier[i] != '_') {
      out += identifier[i];
    } else if (i + 1 < identifier.size() && identifier[i + 1] == '_') {
      out += '_';
      ++i;
    } else if (i + 2 < identifier.size() && hex(identifier[i + 1]) >= 0 && hex(identifier[i + 2]) >= 0) {
      out += static_cast<char>(hex(identifier[i + 1]) * 16 + hex(identifier[i + 2]));
      i += 2;
    } else {
      return std::nullopt;
    }
  }
  if (!is_utf8(out)) return std::nullopt;
  return out;
}

GraphDoc graph_to_doc(const Graph& graph, size_t inline_limit, bool identifiers_only) {
  GraphDoc doc;
  doc.name = graph.name;

  // Names: inputs keep theirs (they are the graph's interface); others keep theirs when unique
  // (the text form spells any name, text_name); unnamed graph outputs take their output name
  // (in the text form only an identifier: other output names are quoted, `"a b" = t;`); the
  // rest get generated names that collide with nothing.
  std::vector<std::string> names(graph.operands.size());
  std::unordered_set<std::string> taken;
  for (const NamedOperand& in : graph.inputs) {
    names[in.operand] = in.name;
    taken.insert(in.name);
  }
  for (OperandId id = 0; id < graph.operands.size(); ++id) {
    const Operand& o = graph.operands[id];
    if (o.kind == OperandKind::kInput || o.name.empty()) continue;
    if (taken.insert(o.name).second) names[id] = o.name;
  }
  for (const NamedOperand& out : graph.outputs) {
    if (!names[out.operand].empty()) continue;
    if (identifiers_only && !is_identifier(out.name)) continue;
    if (taken.insert(out.name).second) names[out.operand] = out.name;
  }
  size_t counter = 0;
  for (OperandId id = 0; id < graph.operands.size(); ++id) {
    if (!names[id].empty()) continue;
    const char* prefix = graph.operands[id].kind == OperandKind::kConstant ? "const_" : "t_";
    std::string name;
    do name = prefix + std::to_string(counter++);
    while (taken.count(name));
    taken.insert(name);
    names[id] = name;
  }

  for (const NamedOperand& in : graph.inputs) doc.inputs.push_back({in.name, graph.desc(in.operand), {}, {}});
  for (OperandId id = 0; id < graph.operands.size(); ++id) {
    const Operand& o = graph.operands[id];
    if (o.kind != OperandKind::kConstant) continue;
    TensorDoc c;
    c.name = names[id];
    c.desc = o.desc;
    const BufferRef& data = graph.constants[o.constant_index];
    if (auto uniform = uniform_value(o.desc, data.span())) {
      c.init.kind = InitDoc::Kind::kScalar;
      c.init.scalar = *uniform;
    } else if (data.size < inline_limit) {
      c.init.kind = InitDoc::Kind::kBytes;
      c.init.data = data;
    } else {
      c.init.kind = InitDoc::Kind::kWeights;
      c.init.ref = c.name;
      c.init.data = data;
    }
    doc.consts.push_back(std::move(c));
  }
  for (const Operation& op : graph.operations) {
    NodeDoc n;
    n.op = std::string(op_name(op.kind));
    for (OperandId id : op.inputs) n.inputs.push_back(names[id]);
    for (OperandId id : op.outputs) n.outputs.push_back(names[id]);
    n.id = n.outputs.empty() ? n.op : n.outputs[0];
    for (EncodedOption& e : encode_attributes(op, [&](OperandId id) { return names[id]; })) {
      if (e.is_operand) n.operand_options.push_back(e.name);
      n.options[e.name] = std::move(e.value);
    }
    doc.nodes.push_back(std::move(n));
  }
  for (const NamedOperand& out : graph.outputs) doc.outputs.push_back({out.name, names[out.operand], {}});
  return doc;
}

}  // namespace webnn::formats
