// The webnn-graph JSON form (versions 1 and 2; they differ only in the version number).
#include <charconv>
#include <initializer_list>
#include <span>

#include "formats/internal.hpp"

namespace webnn::formats {

namespace {

void check_keys(const Json& object, std::initializer_list<std::string_view> allowed, const std::string& where) {
  for (const auto& [key, value] : object.items()) {
    bool ok = false;
    for (std::string_view a : allowed) ok |= (a == key);
    if (!ok) {
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(where + ": unknown key " + quote(key) + " (expected " + list + ")");
    }
  }
}

const Json& required(const Json& object, const char* key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) fail(where + ": missing " + quote(key));
  return *it;
}

std::string string_of(const Json& v, const std::string& where) {
  if (!v.is_string()) fail(where + " must be a string, got " + excerpt(v));
  return v.get<std::string>();
}

std::vector<std::string> string_list(const Json& v, const std::string& where) {
  if (!v.is_array()) fail(where + " must be a list of operand names, got " + excerpt(v));
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) out.push_back(string_of(v[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

TensorDoc tensor_of(const std::string& name, const Json& v, const std::string& where, bool constant) {
  if (!v.is_object()) fail(where + ": must be an object with dataType and shape, got " + excerpt(v));
  if (constant)
    check_keys(v, {"dataType", "shape", "init"}, where);
  else
    check_keys(v, {"dataType", "shape"}, where);
  TensorDoc t;
  t.name = name;
  t.where = where;
  t.desc.data_type = json_data_type(required(v, "dataType", where), where + ".dataType");
  t.desc.shape = json_shape(required(v, "shape", where), where + ".shape");
  if (!constant) return t;
  const Json& init = required(v, "init", where);
  const std::string iw = where + ".init";
  if (!init.is_object()) fail(iw + " must be an object, got " + excerpt(init));
  std::string kind = string_of(required(init, "kind", iw), iw + ".kind");
  if (kind == "weights") {
    check_keys(init, {"kind", "ref"}, iw);
    t.init.kind = InitDoc::Kind::kWeights;
    t.init.ref = string_of(required(init, "ref", iw), iw + ".ref");
  } else if (kind == "inlineBytes") {
    check_keys(init, {"kind", "bytes"}, iw);
    const Json& bytes = required(init, "bytes", iw);
    if (!bytes.is_array()) fail(iw + ".bytes must be a list of integers in [0, 255], got " + excerpt(bytes));
    std::vector<std::byte> data;
    data.reserve(bytes.size());
    for (size_t i = 0; i < bytes.size(); ++i) {
      if (!bytes[i].is_number_unsigned() || bytes[i].get<uint64_t>() > 255)
        fail(iw + ".bytes[" + std::to_string(i) + "] must be an integer in [0, 255], got " + excerpt(bytes[i]));
      data.push_back(std::byte(bytes[i].get<uint8_t>()));
    }
    t.init.kind = InitDoc::Kind::kBytes;
    t.init.data = BufferRef::adopt(std::move(data));
  } else if (kind == "scalar") {
    check_keys(init, {"kind", "value"}, iw);
    t.init.kind = InitDoc::Kind::kScalar;
    t.init.scalar = json_number(required(init, "value", iw), iw + ".value");
  } else {
    fail(iw + ".kind: unknown init kind " + quote(kind) + " (expected weights, inlineBytes or scalar)");
  }
  return t;
}

}  // namespace

GraphDoc json_to_doc(std::string_view text, const std::string& origin) {
  Json root = parse_json(text, origin);
  GraphDoc doc;
  doc.origin = origin;
  if (!root.is_object()) fail(origin + ": a webnn-graph JSON file must hold an object, got " + root.type_name());
  check_keys(root, {"format", "version", "name", "quantized", "inputs", "consts", "nodes", "outputs"}, origin);
  const Json& format = required(root, "format", origin);
  if (format != "webnn-graph-json") fail(origin + ": format must be \"webnn-graph-json\", got " + excerpt(format));
  const Json& version = required(root, "version", origin);
  if (!version.is_number_unsigned() || (version.get<uint64_t>() != 1 && version.get<uint64_t>() != 2))
    fail(origin + ": unsupported version " + excerpt(version) + " (expected 1 or 2)");
  if (auto it = root.find("name"); it != root.end()) doc.name = string_of(*it, origin + ": name");
  if (auto it = root.find("quantized"); it != root.end() && !it->is_boolean())
    fail(origin + ": quantized must be true or false, got " + excerpt(*it));

  if (auto it = root.find("inputs"); it != root.end()) {
    if (!it->is_object()) fail(origin + ": inputs must be an object, got " + excerpt(*it));
    for (const auto& [name, v] : it->items())
      doc.inputs.push_back(tensor_of(name, v, origin + ": inputs." + name, false));
  }
  if (auto it = root.find("consts"); it != root.end()) {
    if (!it->is_object()) fail(origin + ": consts must be an object, got " + excerpt(*it));
    for (const auto& [name, v] : it->items())
      doc.consts.push_back(tensor_of(name, v, origin + ": consts." + name, true));
  }
  const Json& nodes = required(root, "nodes", origin);
  if (!nodes.is_array()) fail(origin + ": nodes must be a list, got " + std::string(nodes.type_name()));
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Json& v = nodes[i];
    std::string where = origin + ": nodes[" + std::to_string(i) + "]";
    if (!v.is_object()) fail(where + " must be an object, got " + excerpt(v));
    NodeDoc n;
    n.id = string_of(required(v, "id", where), where + ".id");
    n.op = string_of(required(v, "op", where), where + ".op");
    where += " (id " + quote(n.id) + ", op " + quote(n.op) + ")";
    n.where = where;
    check_keys(v, {"id", "op", "inputs", "options", "outputs"}, where);
    if (auto it = v.find("inputs"); it != v.end()) n.inputs = string_list(*it, where + ": inputs");
    if (auto it = v.find("options"); it != v.end()) {
      if (!it->is_object()) fail(where + ": options must be an object, got " + excerpt(*it));
      n.options = *it;
    }
    if (auto it = v.find("outputs"); it != v.end())
      n.outputs = string_list(*it, where + ": outputs");
    else
      n.outputs = {n.id};
    doc.nodes.push_back(std::move(n));
  }
  const Json& outputs = required(root, "outputs", origin);
  if (!outputs.is_object())
    fail(origin + ": outputs must be an object (graph output name -> operand name), got " + excerpt(outputs));
  for (const auto& [name, v] : outputs.items())
    doc.outputs.push_back({name, string_of(v, origin + ": outputs." + name), origin + ": outputs." + name});
  return doc;
}

std::string doc_to_json(const GraphDoc& doc) {
  // Inline bytes are written on one line: each "bytes" member first holds its list's index, and
  // after dumping, `"bytes": INDEX` is replaced by the list. That sequence is unambiguous: inside a
  // dumped string every quote is escaped, so `"bytes": ` followed by a digit occurs only where an
  // object member named "bytes" holds a number, and nothing but inlineBytes has such a member.
  // (A string marker is not: a name holding the marker's characters dumps the same way.)
  static constexpr std::string_view kBytesKey = "\"bytes\": ";
  std::vector<const BufferRef*> byte_lists;
  Json root = Json::object();
  root["format"] = "webnn-graph-json";
  root["version"] = 2;
  if (!doc.name.empty()) root["name"] = doc.name;
  Json inputs = Json::object();
  for (const TensorDoc& in : doc.inputs) {
    Json shape = Json::array();
    for (uint32_t d : in.desc.shape) shape.push_back(d);
    inputs[in.name] = Json{{"dataType", std::string(to_string(in.desc.data_type))}, {"shape", shape}};
  }
  root["inputs"] = std::move(inputs);
  Json consts = Json::object();
  for (const TensorDoc& c : doc.consts) {
    Json shape = Json::array();
    for (uint32_t d : c.desc.shape) shape.push_back(d);
    Json init = Json::object();
    switch (c.init.kind) {
      case InitDoc::Kind::kWeights:
        init["kind"] = "weights";
        init["ref"] = c.init.ref;
        break;
      case InitDoc::Kind::kBytes: {
        init["kind"] = "inlineBytes";
        // A placeholder, replaced after dumping by the bytes on one line (pretty-printing would
        // put every byte on its own line).
        init["bytes"] = byte_lists.size();
        byte_lists.push_back(&c.init.data);
        break;
      }
      case InitDoc::Kind::kScalar:
        init["kind"] = "scalar";
        init["value"] = number_json(c.init.scalar);
        break;
    }
    consts[c.name] = Json{{"dataType", std::string(to_string(c.desc.data_type))}, {"shape", shape}, {"init", init}};
  }
  root["consts"] = std::move(consts);
  Json nodes = Json::array();
  for (const NodeDoc& n : doc.nodes) {
    Json node = Json::object();
    node["id"] = n.id;
    node["op"] = n.op;
    node["inputs"] = n.inputs;
    node["options"] = n.options;
    node["outputs"] = n.outputs;
    nodes.push_back(std::move(node));
  }
  root["nodes"] = std::move(nodes);
  Json outputs = Json::object();
  for (const OutputDoc& o : doc.outputs) outputs[o.name] = o.operand;
  root["outputs"] = std::move(outputs);
  std::string text = root.dump(1);
  if (byte_lists.empty()) return text + "\n";
  std::string out;
  size_t inline_bytes = 0;
  for (const auto* list : byte_lists) inline_bytes += list->span().size();
  out.reserve(text.size() + 4 * inline_bytes + 2 * byte_lists.size() + 1);  // the lists below, the newline
  size_t pos = 0;
  for (size_t at = text.find(kBytesKey); at != std::string::npos; at = text.find(kBytesKey, pos)) {
    const size_t value = at + kBytesKey.size();
    size_t index = 0;
    auto [end, ec] = std::from_chars(text.data() + value, text.data() + text.size(), index);
    if (ec != std::errc()) {  // "bytes" as a string or an object: not a placeholder
      out.append(text, pos, value - pos);
      pos = value;
      continue;
    }
    if (index >= byte_lists.size()) fail("cannot write the graph: inline bytes placeholder out of range");
    out.append(text, pos, value - pos);
    // "[b0,b1,...]" written in place: at most "255," per byte and the brackets.
    const std::span<const std::byte> bytes = byte_lists[index]->span();
    const size_t start = out.size();
    out.resize(start + 4 * bytes.size() + 2);
    char* at_char = out.data() + start;
    *at_char++ = '[';
    for (size_t i = 0; i < bytes.size(); ++i) {
      if (i) *at_char++ = ',';
      at_char = std::to_chars(at_char, at_char + 3, unsigned(bytes[i])).ptr;
    }
    *at_char++ = ']';
    out.resize(size_t(at_char - out.data()));
    pos = size_t(end - text.data());
  }
  out.append(text, pos, std::string::npos);
  out += '\n';
  return out;
}

}  // namespace webnn::formats
