// ONNX import: reading the ModelProto (tensors, external data, graph inputs and outputs), the value
// table and the node context; the op lowerings are in import_ops.cpp.
#include "formats/onnx/import.hpp"

#include <fp16.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "formats/internal.hpp"
#include "formats/onnx/import_internal.hpp"

namespace webnn::formats {

namespace onnx_import {

namespace {

using TP = onnx::TensorProto;

[[noreturn]] void data_error(const std::string& message) { throw_error(ErrorKind::kDataError, message); }
[[noreturn]] void not_supported(const std::string& message) { throw_error(ErrorKind::kNotSupportedError, message); }

template <class T>
void put(std::vector<std::byte>& out, size_t i, T v) {
  std::memcpy(out.data() + i * sizeof(T), &v, sizeof(T));
}

template <class T>
T get(const BufferRef& data, size_t i) {
  T v;
  std::memcpy(&v, data.data.get() + i * sizeof(T), sizeof(T));
  return v;
}

// Reads a tensor's bytes from its external data file, inside `base_dir` only.
std::vector<std::byte> read_external(const TP& t, const std::string& base_dir, uint64_t expected,
                                     const std::string& what) {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const auto& kv : t.external_data()) {
    auto number = [&](const std::string& s) {
      char* end = nullptr;
      errno = 0;
      unsigned long long v = std::strtoull(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || errno != 0 || s[0] == '-')
        data_error(what + ": external data " + kv.key() + " \"" + s + "\" is not a byte count");
      return static_cast<uint64_t>(v);
    };
    if (kv.key() == "location")
      location = kv.value();
    else if (kv.key() == "offset")
      offset = number(kv.value());
    else if (kv.key() == "length")
      length = number(kv.value());
  }
  if (location.empty()) data_error(what + ": external data without a location");
  std::filesystem::path rel(location);
  if (rel.is_absolute()) data_error(what + ": external data location \"" + location + "\" is an absolute path");
  for (const auto& part : rel)
    if (part == "..") data_error(what + ": external data location \"" + location + "\" leaves the model's directory");
  if (base_dir.empty())
    data_error(what + ": external data \"" + location + "\" but the model was not read from a file");
  std::string path = (std::filesystem::path(base_dir) / rel).string();
  std::string bytes = read_file(path);
  if (length && *length != expected)
    data_error(what + ": external data length " + std::to_string(*length) + " but the tensor needs " +
               std::to_string(expected) + " bytes");
  if (offset > bytes.size() || bytes.size() - offset < expected)
    data_error(what + ": external data " + path + " holds " + std::to_string(bytes.size()) + " bytes, offset " +
               std::to_string(offset) + " + " + std::to_string(expected) + " bytes is past its end");
  std::vector<std::byte> out(expected);
  if (expected) std::memcpy(out.data(), bytes.data() + offset, expected);  // empty: data() may be null
  return out;
}

// A typed field's `count` values as T, little-endian. The value count is checked before anything
// is allocated: a shape alone must not make the importer allocate gigabytes.
template <class T, class Field>
std::vector<std::byte> typed_values(const Field& field, uint64_t count, const std::string& what) {
  if (uint64_t(field.size()) != count)
    data_error(what + ": holds " + std::to_string(field.size()) + " values but its shape needs " +
               std::to_string(count));
  std::vector<std::byte> out(count * sizeof(T));
  for (uint64_t i = 0; i < count; ++i) put<T>(out, i, static_cast<T>(field.Get(int(i))));
  return out;
}

}  // namespace

Decoded decode_tensor(const TP& t, const std::string& base_dir, const std::string& what) {
  Decoded d;
  std::string type_name;
  auto type = webnn_type(t.data_type(), &d.is_bool, &type_name);
  if (!type) not_supported(what + ": WebNN has no " + type_name + " data type");
  d.desc.data_type = *type;
  if (t.has_segment()) not_supported(what + ": segmented tensors are not supported");
  uint64_t count = 1;
  for (int64_t dim : t.dims()) {
    if (dim < 0 || dim > int64_t(kMaxDimension)) data_error(what + ": invalid dimension " + std::to_string(dim));
    d.desc.shape.push_back(static_cast<uint32_t>(dim));
    count *= uint64_t(dim);
    if (count > kMaxDimension) data_error(what + ": too many elements");
    // An empty tensor (a dimension of 0) is read: a Resize roi or a Reshape to a scalar shape
    // holds no values, and an empty operand is refused where one is used.
  }
  size_t esize = element_size(*type);
  uint64_t bytes = count * esize;
  std::vector<std::byte> out;
  if (t.data_location() == TP::EXTERNAL) {
    out = read_external(t, base_dir, bytes, what);
  } else if (t.has_raw_data()) {
    if (t.raw_data().size() != bytes)
      data_error(what + ": raw_data holds " + std::to_string(t.raw_data().size()) + " bytes but " + d.desc.to_string() +
                 " needs " + std::to_string(bytes));
    out.resize(bytes);
    if (bytes) std::memcpy(out.data(), t.raw_data().data(), bytes);  // an empty vector's data() may be null
  } else {
    // The values of a type are in one repeated field (float16 and the small integers in int32_data,
    // uint32 in uint64_data), each read as T.
    switch (t.data_type()) {
      case TP::FLOAT:
        out = typed_values<float>(t.float_data(), count, what);
        break;
      case TP::FLOAT16:
        out = typed_values<uint16_t>(t.int32_data(), count, what);
        break;
      case TP::INT32:
        out = typed_values<int32_t>(t.int32_data(), count, what);
        break;
      case TP::INT8:
        out = typed_values<int8_t>(t.int32_data(), count, what);
        break;
      case TP::UINT8:
      case TP::BOOL:
        out = typed_values<uint8_t>(t.int32_data(), count, what);
        break;
      case TP::INT64:
        out = typed_values<int64_t>(t.int64_data(), count, what);
        break;
      case TP::UINT32:
        out = typed_values<uint32_t>(t.uint64_data(), count, what);
        break;
      case TP::UINT64:
        out = typed_values<uint64_t>(t.uint64_data(), count, what);
        break;
      default:  // webnn_type() refused every other type above
        not_supported(what + ": WebNN has no " + type_name + " data type");
    }
  }
  if (d.is_bool)
    for (std::byte& b : out) b = b == std::byte{0} ? std::byte{0} : std::byte{1};
  d.data = BufferRef::adopt(std::move(out));
  return d;
}

// ---- Host tensors ----

std::vector<int64_t> host_int64s(const OperandDescriptor& desc, const BufferRef& data) {
  size_t n = static_cast<size_t>(*desc.element_count());
  // A float outside int64 (or NaN) saturates: converting it would be undefined, and the value
  // only feeds folding and the builder's validation, which refuse it.
  const auto to_int64 = [](float f) -> int64_t {
    if (std::isnan(f)) return 0;
    if (f <= -9223372036854775808.0f) return std::numeric_limits<int64_t>::min();
    if (f >= 9223372036854775808.0f) return std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(f);
  };
  std::vector<int64_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    switch (desc.data_type) {
      case DataType::kFloat32:
        v[i] = to_int64(get<float>(data, i));
        break;
      case DataType::kFloat16:
        v[i] = to_int64(fp16_ieee_to_fp32_value(get<uint16_t>(data, i)));
        break;
      case DataType::kInt32:
        v[i] = get<int32_t>(data, i);
        break;
      case DataType::kUint32:
        v[i] = get<uint32_t>(data, i);
        break;
      case DataType::kInt64:
        v[i] = get<int64_t>(data, i);
        break;
      case DataType::kUint64:
        v[i] = static_cast<int64_t>(get<uint64_t>(data, i));
        break;
      case DataType::kInt8:
        v[i] = get<int8_t>(data, i);
        break;
      case DataType::kUint8:
        v[i] = get<uint8_t>(data, i);
        break;
    }
  }
  return v;
}

std::vector<double> host_doubles(const OperandDescriptor& desc, const BufferRef& data) {
  size_t n = static_cast<size_t>(*desc.element_count());
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) {
    switch (desc.data_type) {
      case DataType::kFloat32:
        v[i] = get<float>(data, i);
        break;
      case DataType::kFloat16:
        v[i] = fp16_ieee_to_fp32_value(get<uint16_t>(data, i));
        break;
      case DataType::kInt32:
        v[i] = get<int32_t>(data, i);
        break;
      case DataType::kUint32:
        v[i] = get<uint32_t>(data, i);
        break;
      case DataType::kInt64:
        v[i] = double(get<int64_t>(data, i));
        break;
      case DataType::kUint64:
        v[i] = double(get<uint64_t>(data, i));
        break;
      case DataType::kInt8:
        v[i] = get<int8_t>(data, i);
        break;
      case DataType::kUint8:
        v[i] = get<uint8_t>(data, i);
        break;
    }
  }
  return v;
}

BufferRef bytes_of_int64s(DataType type, const std::vector<int64_t>& values) {
  std::vector<std::byte> out(values.size() * element_size(type));
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t x = values[i];
    switch (type) {
      case DataType::kFloat32:
        put<float>(out, i, float(x));
        break;
      case DataType::kFloat16:
        put<uint16_t>(out, i, fp16_ieee_from_fp32_value(float(x)));
        break;
      case DataType::kInt32:
        put<int32_t>(out, i, int32_t(x));
        break;
      case DataType::kUint32:
        put<uint32_t>(out, i, uint32_t(x));
        break;
      case DataType::kInt64:
        put<int64_t>(out, i, x);
        break;
      case DataType::kUint64:
        put<uint64_t>(out, i, uint64_t(x));
        break;
      case DataType::kInt8:
        put<int8_t>(out, i, int8_t(x));
        break;
      case DataType::kUint8:
        put<uint8_t>(out, i, uint8_t(x));
        break;
    }
  }
  return BufferRef::adopt(std::move(out));
}

BufferRef bytes_of_doubles(DataType type, const std::vector<double>& values) {
  if (!is_floating_point(type)) {
    std::vector<int64_t> ints(values.size());
    for (size_t i = 0; i < values.size(); ++i) ints[i] = std::isfinite(values[i]) ? int64_t(values[i]) : 0;
    return bytes_of_int64s(type, ints);
  }
  std::vector<std::byte> out(values.size() * element_size(type));
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == DataType::kFloat32)
      put<float>(out, i, float(values[i]));
    else
      put<uint16_t>(out, i, fp16_ieee_from_fp32_value(float(values[i])));
  }
  return BufferRef::adopt(std::move(out));
}

// ---- Importer ----

const Value& Importer::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) data_error(origin_ + ": value \"" + name + "\" is used before it is defined");
  return it->second;
}

void Importer::define(const std::string& name, Value v) { values_[name] = std::move(v); }

OperandId Importer::operand_of(const std::string& name) {
  auto it = values_.find(name);
  if (it == values_.end()) data_error(origin_ + ": value \"" + name + "\" is used before it is defined");
  Value& v = it->second;
  if (!v.id && v.desc.element_count() == 0u)
    throw_error(ErrorKind::kNotSupportedError, "\"" + name + "\" is an empty tensor (WebNN has no empty tensors)");
  if (!v.id) v.id = b_.add_constant(v.desc, *v.data, name);
  return *v.id;
}

// ---- NodeCtx ----

std::string NodeCtx::where() const {
  std::string name = node.name().empty() ? (node.output_size() ? node.output(0) : std::string("?")) : node.name();
  return "ONNX import: " + im.origin() + ": node \"" + name + "\" (" + node.op_type() + ")";
}

void NodeCtx::unsupported(const std::string& reason) const {
  throw_error(ErrorKind::kNotSupportedError, where() + ": " + reason);
}
void NodeCtx::invalid(const std::string& reason) const { throw_error(ErrorKind::kDataError, where() + ": " + reason); }

const Value& NodeCtx::in(size_t i) const {
  if (!has_input(i)) invalid("input " + std::to_string(i) + " is missing");
  return im.value(node.input(static_cast<int>(i)));
}

OperandId NodeCtx::operand(size_t i) const {
  if (!has_input(i)) invalid("input " + std::to_string(i) + " is missing");
  return im.operand_of(node.input(static_cast<int>(i)));
}

void NodeCtx::needs_const(size_t i, const std::string& what) const {
  const Value& v = in(i);
  std::string msg = where() + ": " + what + " (input \"" + node.input(int(i)) +
                    "\") must be known when the graph is built, but it is ";
  if (v.graph_input.empty() && !v.source_input.empty())
    throw OnnxNeedsConstantInput(v.source_input, msg + "computed at run time from the graph input \"" + v.source_input +
                                                     "\" (freeze it to a constant: --freeze " + v.source_input +
                                                     "=FILE.npy)");
  if (!v.graph_input.empty())
    throw OnnxNeedsConstantInput(v.graph_input, msg + "the graph input \"" + v.graph_input +
                                                    "\" (freeze it to a constant: --freeze " + v.graph_input +
                                                    "=FILE.npy)");
  throw_error(ErrorKind::kNotSupportedError, msg + "computed at run time (a shape only known at run time)");
}

std::vector<int64_t> NodeCtx::const_ints(size_t i, const std::string& what) const {
  const Value& v = in(i);
  if (!v.data) needs_const(i, what);
  return host_int64s(v.desc, *v.data);
}

std::vector<double> NodeCtx::const_doubles(size_t i, const std::string& what) const {
  const Value& v = in(i);
  if (!v.data) needs_const(i, what);
  return host_doubles(v.desc, *v.data);
}

const onnx::AttributeProto* NodeCtx::attr(std::string_view name) const {
  for (const auto& a : node.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

int64_t NodeCtx::attr_i(std::string_view name, int64_t def) const {
  const auto* a = attr(name);
  if (!a) return def;
  if (a->type() != onnx::AttributeProto::INT) invalid("attribute " + std::string(name) + " is not an int");
  return a->i();
}

float NodeCtx::attr_f(std::string_view name, float def) const {
  const auto* a = attr(name);
  if (!a) return def;
  if (a->type() != onnx::AttributeProto::FLOAT) invalid("attribute " + std::string(name) + " is not a float");
  return a->f();
}

std::string NodeCtx::attr_s(std::string_view name, const std::string& def) const {
  const auto* a = attr(name);
  if (!a) return def;
  if (a->type() != onnx::AttributeProto::STRING) invalid("attribute " + std::string(name) + " is not a string");
  return a->s();
}

std::vector<int64_t> NodeCtx::attr_ints(std::string_view name) const {
  const auto* a = attr(name);
  if (!a) return {};
  if (a->type() != onnx::AttributeProto::INTS) invalid("attribute " + std::string(name) + " is not a list of ints");
  return {a->ints().begin(), a->ints().end()};
}

std::vector<float> NodeCtx::attr_floats(std::string_view name) const {
  const auto* a = attr(name);
  if (!a) return {};
  if (a->type() != onnx::AttributeProto::FLOATS) invalid("attribute " + std::string(name) + " is not a list of floats");
  return {a->floats().begin(), a->floats().end()};
}

std::vector<std::string> NodeCtx::attr_strings(std::string_view name) const {
  const auto* a = attr(name);
  if (!a) return {};
  if (a->type() != onnx::AttributeProto::STRINGS)
    invalid("attribute " + std::string(name) + " is not a list of strings");
  return {a->strings().begin(), a->strings().end()};
}

void NodeCtx::set_out(size_t i, OperandId id, bool is_bool) const {
  if (!wants_output(i)) return;
  const std::string& name = node.output(static_cast<int>(i));
  Value v;
  v.desc = im.builder().desc(id);
  v.is_bool = is_bool;
  v.id = id;
  // Shape-like values (a few elements) remember the graph input they are computed from.
  if (v.desc.element_count().value_or(0) <= 64)
    for (int k = 0; k < node.input_size() && v.source_input.empty(); ++k) {
      if (node.input(k).empty() || !im.has(node.input(k))) continue;
      const Value& src = im.value(node.input(k));
      if (src.data) continue;
      v.source_input = !src.graph_input.empty() ? src.graph_input : src.source_input;
    }
  if (im.builder().graph().operands[id].kind == OperandKind::kIntermediate &&
      im.builder().graph().operands[id].name.empty())
    im.builder().set_operand_name(id, name);
  im.define(name, std::move(v));
}

void NodeCtx::alias_out(size_t i, OperandId id, bool is_bool) const {
  if (!wants_output(i)) return;
  Value v = im.value(node.input(0));
  v.id = id;
  v.is_bool = is_bool;
  im.define(node.output(static_cast<int>(i)), std::move(v));
}

void NodeCtx::set_const_out(size_t i, const OperandDescriptor& desc, BufferRef data, bool is_bool) const {
  if (!wants_output(i)) return;
  if (data.size != *desc.byte_length()) invalid("internal: folded constant of the wrong size");
  if (desc.element_count() != 0u) im.builder().check_descriptor(desc, where() + " output " + std::to_string(i));
  Value v;
  v.desc = desc;
  v.is_bool = is_bool;
  v.data = std::move(data);
  im.define(node.output(static_cast<int>(i)), std::move(v));
}

std::vector<OperandId> NodeCtx::add_multi(OpKind kind, std::vector<OperandId> inputs, Attributes attrs) const {
  return im.builder().add_operation(kind, std::move(inputs), std::move(attrs), node.name());
}

const OperandDescriptor& NodeCtx::desc_of(OperandId id) const { return im.builder().desc(id); }

OperandId NodeCtx::constant(const OperandDescriptor& desc, BufferRef data) const {
  return im.builder().add_constant(desc, std::move(data));
}

OperandId NodeCtx::scalar(DataType type, double value, size_t rank) const {
  OperandDescriptor d{type, Shape(rank, 1)};
  return constant(d, bytes_of_doubles(type, {value}));
}

OperandId NodeCtx::reshape(OperandId x, const Shape& shape) const {
  if (desc_of(x).shape == shape) return x;
  return add(OpKind::kReshape, {x}, ReshapeAttrs{shape});
}

OperandId NodeCtx::transpose(OperandId x, const std::vector<uint32_t>& perm) const {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity &= perm[i] == i;
  if (identity) return x;
  return add(OpKind::kTranspose, {x}, TransposeAttrs{perm});
}

OperandId NodeCtx::cast(OperandId x, DataType type) const {
  if (desc_of(x).data_type == type) return x;
  return add(OpKind::kCast, {x}, CastAttrs{type});
}

uint32_t NodeCtx::axis(int64_t a, size_t rank, const std::string& what) const {
  int64_t r = static_cast<int64_t>(rank);
  if (a < -r || a >= r) invalid(what + " " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
  return static_cast<uint32_t>(a < 0 ? a + r : a);
}

}  // namespace onnx_import

namespace {

using namespace onnx_import;

OperandDescriptor input_descriptor(const onnx::ValueInfoProto& vi, const OnnxImportOptions& options,
                                   const std::string& origin, bool* is_bool) {
  const std::string what = "ONNX import: " + origin + ": graph input \"" + vi.name() + "\"";
  if (!vi.type().has_tensor_type())
    not_supported(what + ": only tensor inputs are supported (sequences, maps and optionals are not)");
  const auto& tt = vi.type().tensor_type();
  std::string type_name;
  auto type = webnn_type(tt.elem_type(), is_bool, &type_name);
  if (!type) not_supported(what + ": WebNN has no " + type_name + " data type");
  if (!tt.has_shape()) not_supported(what + ": has no shape (a shape only known at run time)");
  OperandDescriptor d{*type, {}};
  for (const auto& dim : tt.shape().dim()) {
    if (dim.has_dim_value()) {
      if (dim.dim_value() <= 0 || dim.dim_value() > int64_t(kMaxDimension))
        not_supported(what + ": dimension " + std::to_string(dim.dim_value()) + " is not a valid WebNN dimension");
      d.shape.push_back(static_cast<uint32_t>(dim.dim_value()));
    } else if (dim.has_dim_param()) {
      auto it = options.dims.find(dim.dim_param());
      if (it == options.dims.end())
        not_supported(what + ": symbolic dimension \"" + dim.dim_param() + "\" (bind it with --dim " + dim.dim_param() +
                      "=VALUE)");
      d.shape.push_back(it->second);
    } else {
      not_supported(what + ": a dimension of unknown size (a shape only known at run time)");
    }
  }
  return d;
}

std::shared_ptr<const Graph> import_model(const onnx::ModelProto& model, const std::string& base_dir,
                                          const std::string& origin, const OnnxImportOptions& options) {
  int64_t opset = -1;
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
  if (opset < 0 && model.opset_import_size() == 0) opset = 1;  // IR version 2 models carry none: opset 1.
  if (!model.has_graph()) data_error("ONNX import: " + origin + ": the model has no graph");
  const onnx::GraphProto& g = model.graph();
  GraphBuilder builder;
  Importer im(builder, origin);

  for (const auto& frozen : options.frozen) {
    bool found = false;
    for (const auto& vi : g.input()) found |= vi.name() == frozen.first;
    if (!found)
      throw_error(ErrorKind::kTypeError,
                  "ONNX import: " + origin + ": --freeze " + frozen.first + ": the model has no input of that name");
  }
  if (g.sparse_initializer_size()) not_supported("ONNX import: " + origin + ": sparse initializers are not supported");
  for (const auto& t : g.initializer()) {
    Decoded d = decode_tensor(t, base_dir, "ONNX import: " + origin + ": initializer \"" + t.name() + "\"");
    Value v;
    v.desc = d.desc;
    v.is_bool = d.is_bool;
    v.data = d.data;
    im.define(t.name(), std::move(v));
  }
  for (const auto& vi : g.input()) {
    auto fz = options.frozen.find(vi.name());
    if (fz == options.frozen.end() && im.has(vi.name())) continue;  // an initializer's default value
    bool is_bool = false;
    Value v;
    if (fz != options.frozen.end()) {
      const NpyArray& a = fz->second;
      std::string type_name;
      if (!vi.type().has_tensor_type() || !webnn_type(vi.type().tensor_type().elem_type(), &is_bool, &type_name) ||
          *webnn_type(vi.type().tensor_type().elem_type(), nullptr, nullptr) != a.desc.data_type)
        throw_error(ErrorKind::kTypeError, "ONNX import: " + origin + ": --freeze " + vi.name() + ": the array is " +
                                               a.desc.to_string() + ", of another type than the input");
      v.desc = a.desc;
      v.data = BufferRef::copy_of(a.data);
    } else {
      v.desc = input_descriptor(vi, options, origin, &is_bool);
      v.id = builder.add_input(vi.name(), v.desc);
      v.graph_input = vi.name();
    }
    v.is_bool = is_bool;
    im.define(vi.name(), std::move(v));
  }

  for (const auto& node : g.node()) {
    NodeCtx ctx{im, node, opset};
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      ctx.unsupported("operators of the domain \"" + node.domain() + "\" are outside the WebNN specification");
    if (opset < 0) data_error(ctx.where() + ": the model imports no version of the default ONNX domain");
    for (const auto& a : node.attribute())
      if (a.type() == onnx::AttributeProto::GRAPH || a.type() == onnx::AttributeProto::GRAPHS)
        ctx.unsupported("control flow (a subgraph attribute) is outside the WebNN specification");
    Lowering lower = find_lowering(node.op_type());
    if (!lower) ctx.unsupported(unsupported_reason(node.op_type()));
    try {
      lower(ctx);
    } catch (const OnnxNeedsConstantInput&) {
      throw;
    } catch (const std::out_of_range& e) {
      // An attribute or input list shorter than the op needs (a lowering's bounds-checked read).
      ctx.invalid(std::string("malformed node: a value is missing (") + e.what() + ")");
    } catch (const Error& e) {
      if (e.message().rfind("ONNX import: ", 0) == 0) throw;
      if (e.kind() == ErrorKind::kNotSupportedError) ctx.unsupported(e.message());
      // The builder rejected the lowering: WebNN cannot express this node (a data type or a
      // rank the spec does not allow for the op).
      ctx.unsupported("WebNN rejects it: " + std::string(to_string(e.kind())) + ": " + e.message());
    }
    for (int i = 0; i < node.output_size(); ++i)
      if (!node.output(i).empty() && !im.has(node.output(i)))
        ctx.unsupported("output " + std::to_string(i) + " (\"" + node.output(i) + "\") is not supported");
  }

  std::vector<NamedOperand> outputs;
  for (const auto& vi : g.output()) {
    OperandId id = im.operand_of(vi.name());
    // An output that is a graph input or a (folded) constant still needs an operation to
    // produce it, as does a second output name for one operand.
    bool taken = false;
    for (const NamedOperand& o : outputs) taken |= o.operand == id;
    if (builder.graph().operands[id].kind != OperandKind::kIntermediate || taken)
      id = builder.add_operation(OpKind::kIdentity, {id}, NoAttrs{}, vi.name()).at(0);
    outputs.push_back({vi.name(), id});
  }
  return builder.build(outputs, g.name());
}

}  // namespace

std::shared_ptr<const Graph> import_onnx_bytes(std::string_view bytes, const std::string& base_dir,
                                               const std::string& origin, const OnnxImportOptions& options) {
  onnx::ModelProto model;
  if (bytes.size() > size_t(std::numeric_limits<int>::max()))
    not_supported("ONNX import: " + origin + ": models over 2 GiB must keep their weights in external data");
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    data_error("ONNX import: " + origin + ": not a valid ONNX model (protobuf parse failed)");
  return import_model(model, base_dir, origin, options);
}

std::shared_ptr<const Graph> import_onnx(const std::string& path, const OnnxImportOptions& options) {
  std::string bytes = read_file(path);
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  return import_onnx_bytes(bytes, dir, path, options);
}

NpyArray read_onnx_tensor(const std::string& path) {
  std::string bytes = read_file(path);
  onnx::TensorProto t;
  if (!t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    data_error(path + ": not a valid ONNX TensorProto");
  Decoded d = decode_tensor(t, "", path);
  NpyArray a;
  a.desc = d.desc;
  a.data.assign(d.data.data.get(), d.data.data.get() + d.data.size);
  return a;
}

}  // namespace webnn::formats
