#include "conformance/wpt.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "conformance/tolerance.hpp"
#include "core/dispatch.hpp"
#include "formats/formats.hpp"
#include "graph/graph.hpp"
#include "runtime/handles.hpp"
#include "webnn/webnn.hpp"

namespace webnn::conformance {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& message) { throw_error(ErrorKind::kDataError, message); }

// A WPT number: a JSON number, or a BigInt string "123n" / a digit string (int64/uint64 data).
struct WptNumber {
  bool is_integer_text = false;
  std::string text;
  double value = 0;
};

WptNumber parse_number(const json& v) {
  WptNumber n;
  if (v.is_number()) {
    n.value = v.get<double>();
    if (v.is_number_integer()) {
      n.is_integer_text = true;
      n.text = v.dump();
    }
    return n;
  }
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (!s.empty() && s.back() == 'n') s.pop_back();
    if (s == "Infinity") return {false, "", INFINITY};
    if (s == "-Infinity") return {false, "", -INFINITY};
    if (s == "NaN") return {false, "", NAN};
    n.is_integer_text = true;
    n.text = s;
    n.value = std::strtod(s.c_str(), nullptr);
    return n;
  }
  fail("expected a number, got " + v.dump());
}

// A value of an integer type must be an integer in the type's range: data that does not fit is an
// error in the case, never wrapped.
template <class T>
T convert(const WptNumber& n, DataType data_type) {
  if constexpr (std::is_same_v<T, Float16>) {
    return Float16(static_cast<float>(n.value));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(n.value);
  } else {
    const std::string type(to_string(data_type));
    T v{};
    if (n.is_integer_text) {
      const char* end = n.text.data() + n.text.size();
      auto [ptr, ec] = std::from_chars(n.text.data(), end, v);
      if (ec == std::errc::result_out_of_range) fail("value " + quote(n.text) + " does not fit " + type);
      if (ec != std::errc() || ptr != end) fail("value " + quote(n.text) + " is not an integer");
      return v;
    }
    if (!std::isfinite(n.value) || std::trunc(n.value) != n.value || n.value < double(std::numeric_limits<T>::min()) ||
        n.value >= std::ldexp(1.0, std::numeric_limits<T>::digits))
      fail("value " + Number(n.value).to_string() + " does not fit " + type);
    return static_cast<T>(n.value);
  }
}

// The bytes of `data` (a list, or one number filling the whole tensor) as `desc`.
std::vector<std::byte> tensor_bytes(const json& data, const OperandDescriptor& desc) {
  const uint64_t count = desc.element_count().value_or(0);
  std::vector<std::byte> bytes(count * element_size(desc.data_type));
  visit_type(desc.data_type, [&]<class T>() {
    auto* out = reinterpret_cast<T*>(bytes.data());
    if (data.is_array()) {
      if (data.size() != count)
        fail("data holds " + std::to_string(data.size()) + " values, shape needs " + std::to_string(count));
      for (size_t i = 0; i < count; ++i) out[i] = convert<T>(parse_number(data[i]), desc.data_type);
    } else {
      T v = convert<T>(parse_number(data), desc.data_type);
      std::fill(out, out + count, v);
    }
  });
  return bytes;
}

OperandDescriptor parse_descriptor(const json& d) {
  OperandDescriptor desc;
  auto type = parse_data_type(d.at("dataType").get<std::string>());
  if (!type) fail("unknown dataType " + d.at("dataType").dump());
  desc.data_type = *type;
  desc.shape = d.at("shape").get<Shape>();
  return desc;
}

// The names of an op's attribute fields, in declaration order: the positional non-operand
// arguments of a WPT operator fill them in that order (reshape's newShape, cast's dataType, ...).
std::vector<std::string> field_names(OpKind kind) {
  std::vector<std::string> names;
  Attributes attrs = default_attributes(kind);
  std::visit(
      [&](auto& a) { std::decay_t<decltype(a)>::fields(a, [&](std::string_view n, auto&) { names.emplace_back(n); }); },
      attrs);
  return names;
}

// WPT option values to webnn-graph JSON: BigInt strings become decimal strings.
json option_value(const json& v) {
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.size() > 1 && s.back() == 'n' && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-')) {
      s.pop_back();
      return s;
    }
  }
  return v;
}

struct PreparedCase {
  std::string op;
  std::string graph_json;
  NamedHostTensors inputs;
  std::map<std::string, std::pair<OperandDescriptor, std::vector<std::byte>>> expected;
};

PreparedCase prepare(const json& test) {
  PreparedCase c;
  const json& g = test.at("graph");
  json doc = {{"format", "webnn-graph-json"}, {"version", 2},           {"inputs", json::object()},
              {"consts", json::object()},     {"nodes", json::array()}, {"outputs", json::object()}};
  std::set<std::string> operands;
  for (const auto& [name, in] : g.at("inputs").items()) {
    OperandDescriptor desc = parse_descriptor(in.at("descriptor"));
    std::vector<std::byte> bytes = tensor_bytes(in.at("data"), desc);
    json d = {{"dataType", std::string(to_string(desc.data_type))}, {"shape", desc.shape}};
    if (in.value("constant", false) && !in.at("data").is_array()) {
      d["init"] = {{"kind", "scalar"}, {"value", option_value(in.at("data"))}};  // one number fills the tensor
      doc["consts"][name] = std::move(d);
    } else if (in.value("constant", false)) {
      json arr = json::array();
      for (std::byte b : bytes) arr.push_back(static_cast<int>(b));
      d["init"] = {{"kind", "inlineBytes"}, {"bytes", std::move(arr)}};
      doc["consts"][name] = std::move(d);
    } else {
      doc["inputs"][name] = std::move(d);
      c.inputs[name] = HostTensor{desc, std::move(bytes)};
    }
    operands.insert(name);
  }
  int index = 0;
  for (const json& op : g.at("operators")) {
    const std::string op_name_text = op.at("name").get<std::string>();
    if (c.op.empty()) c.op = op_name_text;
    auto kind = parse_op_name(op_name_text);
    if (!kind) throw_error(ErrorKind::kNotSupportedError, "operator " + op_name_text + " is not implemented");
    const std::vector<std::string> fields = field_names(*kind);
    json node = {{"id", "op" + std::to_string(index++)},
                 {"op", op_name_text},
                 {"inputs", json::array()},
                 {"options", json::object()}};
    size_t literal = 0;
    for (const json& arg : op.at("arguments")) {
      for (const auto& [key, value] : arg.items()) {
        if (key == "options") {
          for (const auto& [ok, ov] : value.items()) node["options"][ok] = option_value(ov);
        } else if (value.is_string() && operands.count(value.get<std::string>())) {
          node["inputs"].push_back(value);
        } else if (value.is_array() && !value.empty() && value[0].is_string() &&
                   operands.count(value[0].get<std::string>())) {
          for (const json& v : value) node["inputs"].push_back(v);
        } else {
          if (literal >= fields.size()) fail(op_name_text + ": unexpected positional argument " + quote(key));
          node["options"][fields[literal++]] = option_value(value);
        }
      }
    }
    json outs = op.at("outputs");
    if (outs.is_string()) outs = json::array({outs});
    node["outputs"] = outs;
    for (const json& o : outs) operands.insert(o.get<std::string>());
    doc["nodes"].push_back(std::move(node));
  }
  for (const auto& [name, out] : g.at("expectedOutputs").items()) {
    doc["outputs"][name] = name;
    OperandDescriptor desc = parse_descriptor(out.at("descriptor"));
    c.expected[name] = {desc, tensor_bytes(out.at("data"), desc)};
  }
  c.graph_json = doc.dump();
  return c;
}

const Operation* producer(const Graph& graph, OperandId id) {
  for (const Operation& op : graph.operations)
    if (std::find(op.outputs.begin(), op.outputs.end(), id) != op.outputs.end()) return &op;
  return nullptr;
}

std::string format_value(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

// Reads and builds one case; errors become `rejected`.
Case load_case(const json& test, const std::string& file) {
  Case c;
  c.file = file;
  c.name = test.value("name", "");
  auto reject = [&](CaseResult::Status status, const std::string& detail) {
    c.rejected = CaseResult{c.file, c.op, c.name, status, detail};
    c.graph = nullptr;
  };
  PreparedCase prepared;
  try {
    prepared = prepare(test);
    c.op = prepared.op;
  } catch (const Error& e) {
    c.op = test.at("graph").at("operators").at(0).value("name", "");
    reject(e.kind() == ErrorKind::kNotSupportedError ? CaseResult::Status::kSkipped : CaseResult::Status::kFailed,
           e.message());
    return c;
  }
  try {
    c.graph = formats::parse_graph_json(prepared.graph_json, formats::no_weights(), file + ": " + c.name);
  } catch (const Error& e) {
    reject(CaseResult::Status::kFailed, e.what());
    return c;
  }
  c.inputs = std::move(prepared.inputs);
  for (auto& [name, expected] : prepared.expected)
    c.expected[name] = HostTensor{expected.first, std::move(expected.second)};
  return c;
}

}  // namespace

CaseResult check_outputs(const Case& c, const NamedHostTensors& outputs) {
  CaseResult r{c.file, c.op, c.name, CaseResult::Status::kPassed, ""};
  auto failed = [&](const std::string& detail) {
    r.status = CaseResult::Status::kFailed;
    r.detail = detail;
    return r;
  };
  for (const auto& [name, expected] : c.expected) {
    auto it = outputs.find(name);
    if (it == outputs.end()) return failed("missing output " + name);
    if (!(it->second.desc == expected.desc))
      return failed("output " + name + " is " + it->second.desc.to_string() + ", expected " +
                    expected.desc.to_string());
    OperandId id = 0;
    for (const NamedOperand& o : c.graph->outputs)
      if (o.name == name) id = o.operand;
    const Operation* op = producer(*c.graph, id);
    Tolerance tol = op ? tolerance_for(*c.graph, *op, expected.desc.data_type) : Tolerance{};
    if (auto m = compare(expected.desc.data_type, expected.data, it->second.data, tol))
      return failed("output " + name + "[" + std::to_string(m->index) + "] = " + format_value(m->actual) +
                    ", expected " + format_value(m->expected) + " (tolerance " + tol.to_string() + ")");
  }
  return r;
}

void for_each_case(const std::string& path, const std::string& filter, const std::function<void(Case&)>& fn) {
  // Not an ifstream: a FIFO given as a case file would block the open forever.
  const std::string text = formats::read_file(path, "conformance file");
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw_error(ErrorKind::kDataError, path + ": " + e.what());
  }
  if (!doc.is_object() || !doc.contains("tests") || !doc["tests"].is_array())
    throw_error(ErrorKind::kDataError, path + ": not a conformance file (no \"tests\" list)");
  const std::string file = std::filesystem::path(path).filename().string();
  for (const json& test : doc["tests"]) {
    if (!filter.empty() && test.value("name", "").find(filter) == std::string::npos) continue;
    Case c;
    try {
      c = load_case(test, file);
    } catch (const std::exception& e) {
      c = Case{};
      c.file = file;
      c.name = test.value("name", "");
      c.rejected =
          CaseResult{file, "", c.name, CaseResult::Status::kFailed, std::string("malformed case: ") + e.what()};
    }
    fn(c);
  }
}

std::vector<std::string> case_files(const std::string& path) {
  if (!std::filesystem::is_directory(path)) return {path};
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  if (ec) throw_error(ErrorKind::kDataError, path + ": " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<CaseResult> run_file(const std::string& path, const RunOptions& options) {
  MLContext context = ML::create_context(options.context);
  std::vector<CaseResult> results;
  for_each_case(path, options.filter, [&](Case& c) {
    if (c.rejected) {
      results.push_back(*c.rejected);
      return;
    }
    try {
      MLGraph graph = detail::context_build_graph(detail::impl_of(context), c.graph);
      results.push_back(check_outputs(c, context.compute(graph, c.inputs)));
    } catch (const Error& e) {
      results.push_back({c.file, c.op, c.name, CaseResult::Status::kFailed, e.what()});
    } catch (const std::exception& e) {
      results.push_back(
          {c.file, c.op, c.name, CaseResult::Status::kFailed, std::string("unexpected error: ") + e.what()});
    }
  });
  context.destroy();
  return results;
}

std::vector<CaseResult> run_directory(const std::string& dir, const RunOptions& options) {
  std::vector<CaseResult> results;
  for (const std::string& f : case_files(dir)) {
    auto r = run_file(f, options);
    results.insert(results.end(), r.begin(), r.end());
  }
  return results;
}

}  // namespace webnn::conformance
