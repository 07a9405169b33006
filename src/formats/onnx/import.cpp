// ONNX import: reading the ModelProto (tensors, external data, graph inputs and outputs), the value
// table and the node context; the op lowerings are in import_<family>.cpp, gathered into one table
// in import_lowerings.cpp.
#include "formats/onnx/import.hpp"

#include <fp16.h>
#include <onnx/defs/schema.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "formats/internal.hpp"
#include "formats/onnx/import_internal.hpp"

namespace webnn::formats {

namespace onnx_import {

namespace {

using TP = onnx::TensorProto;

[[noreturn]] void data_error(const std::string& message) { throw_error(ErrorKind::kDataError, message); }
[[noreturn]] void not_supported(const std::string& message) { throw_error(ErrorKind::kNotSupportedError, message); }

template <class T>
void put(std::byte* out, size_t i, T v) {
  std::memcpy(out + i * sizeof(T), &v, sizeof(T));
}

template <class T>
T get(const BufferRef& data, size_t i) {
  T v;
  std::memcpy(&v, data.data.get() + i * sizeof(T), sizeof(T));
  return v;
}

// Narrows a typed field's value to T, refusing values outside T's range (a value stored in a wider
// field must fit its element type; nothing wraps). `type_name` names the element type.
template <class T, class V>
T narrowed(V v, uint64_t i, const char* type_name, const std::string& what) {
  if constexpr (!std::is_floating_point_v<T>) {
    if (!std::in_range<T>(v))
      data_error(what + ": value " + std::to_string(v) + " at index " + std::to_string(i) +
                 " is outside the range of " + type_name + " [" + std::to_string(std::numeric_limits<T>::min()) + ", " +
                 std::to_string(std::numeric_limits<T>::max()) + "]");
  }
  return static_cast<T>(v);
}

// A typed field's `count` values as T, little-endian, each checked to fit T. The value count is
// checked before anything is allocated: a shape alone must not make the importer allocate
// gigabytes.
template <class T, class Field>
std::vector<std::byte> typed_values(const Field& field, uint64_t count, const char* type_name,
                                    const std::string& what) {
  if (uint64_t(field.size()) != count)
    data_error(what + ": holds " + std::to_string(field.size()) + " values but its shape needs " +
               std::to_string(count));
  std::vector<std::byte> out(count * sizeof(T));
  for (uint64_t i = 0; i < count; ++i) put<T>(out.data(), i, narrowed<T>(field.Get(int(i)), i, type_name, what));
  return out;
}

// ONNX bool in int32_data: any nonzero value is true (a cast to bool, not a wrap to uint8).
std::vector<std::byte> bool_values(const google::protobuf::RepeatedField<int32_t>& field, uint64_t count,
                                   const std::string& what) {
  if (uint64_t(field.size()) != count)
    data_error(what + ": holds " + std::to_string(field.size()) + " values but its shape needs " +
               std::to_string(count));
  std::vector<std::byte> out(count);
  for (uint64_t i = 0; i < count; ++i) out[i] = field.Get(int(i)) != 0 ? std::byte{1} : std::byte{0};
  return out;
}

}  // namespace

// ---- External data ----

ExternalData::ExternalData(std::string dir) : dir_(std::move(dir)) {}

BufferRef ExternalData::read(const TP& t, uint64_t expected, const std::string& what) {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const auto& kv : t.external_data()) {
    auto number = [&](const std::string& s) {
      char* end = nullptr;
      errno = 0;
      unsigned long long v = std::strtoull(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || errno != 0 || s[0] == '-') {
        std::string message = what;
        message += ": external data " + kv.key() + " \"" + s + "\" is not a byte count";
        data_error(message);
      }
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
  const std::string where = what + ": external data \"" + location + "\"";
  std::filesystem::path rel(location);
  if (rel.is_absolute()) data_error(where + " is an absolute path");
  for (const auto& part : rel)
    if (part == "..") data_error(where + " leaves the model's directory");
  if (dir_.empty()) data_error(where + " but the model was not read from a file");
  if (length && *length != expected)
    data_error(what + ": external data length " + std::to_string(*length) + " but the tensor needs " +
               std::to_string(expected) + " bytes");
  const int fd = open_beneath(dir_, location, where);
  struct stat st {};
  ::fstat(fd, &st);
  const uint64_t size = uint64_t(st.st_size);
  if (offset > size || size - offset < expected) {
    ::close(fd);
    data_error(where + " holds " + std::to_string(size) + " bytes, offset " + std::to_string(offset) + " + " +
               std::to_string(expected) + " bytes is past its end");
  }
  // Each byte of a file goes to one tensor at most: many tensors over one range would make a small
  // model read (and hold) a large file many times over.
  if (expected) {
    std::map<uint64_t, uint64_t>& ranges = ranges_[{uint64_t(st.st_dev), uint64_t(st.st_ino)}];
    auto next = ranges.lower_bound(offset + expected);
    if (next != ranges.begin() && std::prev(next)->second > offset) {
      ::close(fd);
      data_error(where + ": bytes " + std::to_string(offset) + " to " + std::to_string(offset + expected) +
                 " overlap another tensor's external data");
    }
    ranges.emplace(offset, offset + expected);
  }
  // Read straight into aligned storage, where a backend reads it in place.
  int failure = 0;
  BufferRef out =
      BufferRef::filled(expected, [&](std::byte* into) { failure = read_exactly(fd, into, expected, offset); });
  ::close(fd);
  if (failure)
    data_error(where +
               ": read failed: " + (failure == kFileEnded ? std::string("the file shrank") : std::strerror(failure)));
  return out;
}

// ---- Tensors ----

Decoded decode_tensor(const TP& t, ExternalData* external, const std::string& what) {
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
    if (!external) data_error(what + ": external data, but the tensor is not read with a model's directory");
    d.data = external->read(t, bytes, what);
  } else if (t.has_raw_data()) {
    if (t.raw_data().size() != bytes)
      data_error(what + ": raw_data holds " + std::to_string(t.raw_data().size()) + " bytes but " + d.desc.to_string() +
                 " needs " + std::to_string(bytes));
    d.data = BufferRef::copy_of(std::as_bytes(std::span(t.raw_data().data(), bytes)));
  } else {
    // The values of a type are in one repeated field (float16 bit patterns and the small integers
    // in int32_data, uint32 in uint64_data), each checked to fit the type and stored as it.
    switch (t.data_type()) {
      case TP::FLOAT:
        out = typed_values<float>(t.float_data(), count, "float32", what);
        break;
      case TP::FLOAT16:
        out = typed_values<uint16_t>(t.int32_data(), count, "float16 bit patterns", what);
        break;
      case TP::INT32:
        out = typed_values<int32_t>(t.int32_data(), count, "int32", what);
        break;
      case TP::INT8:
        out = typed_values<int8_t>(t.int32_data(), count, "int8", what);
        break;
      case TP::UINT8:
        out = typed_values<uint8_t>(t.int32_data(), count, "uint8", what);
        break;
      case TP::BOOL:
        out = bool_values(t.int32_data(), count, what);
        break;
      case TP::INT64:
        out = typed_values<int64_t>(t.int64_data(), count, "int64", what);
        break;
      case TP::UINT32:
        out = typed_values<uint32_t>(t.uint64_data(), count, "uint32", what);
        break;
      case TP::UINT64:
        out = typed_values<uint64_t>(t.uint64_data(), count, "uint64", what);
        break;
      default:  // webnn_type() refused every other type above
        not_supported(what + ": WebNN has no " + type_name + " data type");
    }
  }
  if (!d.data.data) d.data = BufferRef::adopt(std::move(out));  // the typed fields
  if (d.is_bool) {                                              // any nonzero byte is true
    const BufferRef raw = d.data;
    d.data = BufferRef::filled(raw.size, [&](std::byte* into) {
      for (size_t i = 0; i < raw.size; ++i) into[i] = raw.span()[i] == std::byte{0} ? std::byte{0} : std::byte{1};
    });
  }
  return d;
}

// ---- Host tensors ----

int64_t host_int64_at(const OperandDescriptor& desc, const BufferRef& data, uint64_t i) {
  // A float outside int64 (or NaN) saturates: converting it would be undefined, and the value
  // only feeds folding and the builder's validation, which refuse it.
  const auto to_int64 = [](float f) -> int64_t {
    if (std::isnan(f)) return 0;
    if (f <= -9223372036854775808.0f) return std::numeric_limits<int64_t>::min();
    if (f >= 9223372036854775808.0f) return std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(f);
  };
  switch (desc.data_type) {
    case DataType::kFloat32:
      return to_int64(get<float>(data, i));
    case DataType::kFloat16:
      return to_int64(fp16_ieee_to_fp32_value(get<uint16_t>(data, i)));
    case DataType::kInt32:
      return get<int32_t>(data, i);
    case DataType::kUint32:
      return get<uint32_t>(data, i);
    case DataType::kInt64:
      return get<int64_t>(data, i);
    case DataType::kUint64:
      return static_cast<int64_t>(get<uint64_t>(data, i));
    case DataType::kInt8:
      return get<int8_t>(data, i);
    case DataType::kUint8:
      return get<uint8_t>(data, i);
  }
  return 0;
}

std::vector<int64_t> host_int64s(const OperandDescriptor& desc, const BufferRef& data) {
  size_t n = static_cast<size_t>(*desc.element_count());
  std::vector<int64_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = host_int64_at(desc, data, i);
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

BufferRef bytes_of_int64s(DataType type, uint64_t count, const std::function<int64_t(uint64_t)>& at) {
  return BufferRef::filled(count * element_size(type), [&](std::byte* out) {
    for (uint64_t i = 0; i < count; ++i) {
      int64_t x = at(i);
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
  });
}

BufferRef bytes_of_int64s(DataType type, const std::vector<int64_t>& values) {
  return bytes_of_int64s(type, values.size(), [&](uint64_t i) { return values[i]; });
}

BufferRef bytes_of_doubles(DataType type, const std::vector<double>& values) {
  if (!is_floating_point(type)) {
    std::vector<int64_t> ints(values.size());
    for (size_t i = 0; i < values.size(); ++i) ints[i] = std::isfinite(values[i]) ? int64_t(values[i]) : 0;
    return bytes_of_int64s(type, ints);
  }
  return BufferRef::filled(values.size() * element_size(type), [&](std::byte* out) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (type == DataType::kFloat32)
        put<float>(out, i, float(values[i]));
      else
        put<uint16_t>(out, i, fp16_ieee_from_fp32_value(float(values[i])));
    }
  });
}

// ---- Importer ----

const Value& Importer::value(const std::string& name) const {
  auto it = values_.find(name);
  // The node loop checks every input before lowering: a miss is the importer's own mistake.
  if (it == values_.end()) data_error("ONNX import: " + origin_ + ": internal: value \"" + name + "\" is not defined");
  return it->second;
}

void Importer::define(const std::string& name, Value v, const std::string& where) {
  if (v.data) hold(*v.data, where.empty() ? "ONNX import: " + origin_ + ": value \"" + name + "\"" : where);
  auto [it, fresh] = values_.try_emplace(name);
  if (!fresh && it->second.data) unhold(*it->second.data);
  it->second = std::move(v);
}

void Importer::release(const std::string& name) {
  auto it = values_.find(name);
  if (it == values_.end()) return;
  if (it->second.data) unhold(*it->second.data);
  values_.erase(it);
}

OperandId Importer::operand_of(const std::string& name, const std::string& where) {
  auto it = values_.find(name);
  if (it == values_.end()) data_error(where + " is used before it is defined");
  Value& v = it->second;
  if (v.items) not_supported(where + " is a sequence, where a tensor is needed (WebNN has tensors only)");
  if (!v.id && v.desc.element_count() == 0u) not_supported(where + " is an empty tensor (WebNN has no empty tensors)");
  if (!v.id) {
    v.id = b_.add_constant(v.desc, *v.data, name);
    keep_in_graph(*v.data, where);
    note_constant(*v.id, *v.data);
  }
  return *v.id;
}

// Why a float widened to double (Value::widened) is refused where it is used.
constexpr const char* kWidenedRefusal =
    " is a double (WebNN has no double data type; a float widened to double is taken only by Cast, IsInf and IsNaN)";

OperandId Importer::float_operand_of(const std::string& name, const std::string& where) {
  auto it = values_.find(name);
  if (it != values_.end() && it->second.widened) not_supported(where + kWidenedRefusal);
  return operand_of(name, where);
}

bool takes_widened(std::string_view op_type) {
  return op_type == "Cast" || op_type == "CastLike" || op_type == "IsInf" || op_type == "IsNaN";
}

void Importer::model_bytes(const BufferRef& data) {
  if (data.size && data.data) held_.try_emplace(data.data.get(), Held{data.size, 0, false, false});
}

void Importer::reserve(uint64_t bytes, uint64_t scratch, const std::string& where, const std::string& what) const {
  const uint64_t total = bytes + std::min(scratch, UINT64_MAX - bytes);
  if (total <= budget_ && used_ <= budget_ - total) return;
  not_supported(where + ": " + what + " needs " + std::to_string(bytes) + " bytes" +
                (scratch ? " (and " + std::to_string(scratch) + " bytes of scratch space)" : std::string()) +
                "; the import holds " + std::to_string(used_) +
                " bytes of folded and materialised values, and its memory budget is " + std::to_string(budget_) +
                " bytes (raise it with --memory-budget, OnnxImportOptions::memory_budget or webnn.load's "
                "memory_budget)");
}

void Importer::charge(uint64_t bytes, const std::string& where, const std::string& what) {
  reserve(bytes, 0, where, what);
  used_ += bytes;
  peak_ = std::max(peak_, used_);
}

void Importer::hold(const BufferRef& data, const std::string& where) {
  if (!data.size || !data.data) return;
  auto [it, fresh] = held_.try_emplace(data.data.get());
  if (fresh) {
    // Bytes the importer made (a folded value): they count until their last holder lets go.
    try {
      charge(data.size, where, "its value");
    } catch (...) {
      held_.erase(it);
      throw;
    }
    it->second = Held{data.size, 0, true, false};
  }
  ++it->second.holders;
}

void Importer::unhold(const BufferRef& data) {
  if (!data.size || !data.data) return;
  auto it = held_.find(data.data.get());
  if (it == held_.end() || --it->second.holders > 0 || it->second.in_graph) return;
  if (it->second.counted) used_ -= it->second.bytes;
  held_.erase(it);
}

void Importer::keep_in_graph(const BufferRef& data, const std::string& where) {
  if (!data.size || !data.data) return;
  auto [it, fresh] = held_.try_emplace(data.data.get());
  if (fresh) {
    try {
      charge(data.size, where, "a constant");
    } catch (...) {
      held_.erase(it);
      throw;
    }
    it->second = Held{data.size, 0, true, false};
  }
  it->second.in_graph = true;
}

std::string Importer::fresh_name(const std::string& want) {
  gather_names();
  std::string name = want;
  for (uint64_t k = 2; model_names_.count(name) || !fresh_names_.insert(name).second; ++k)
    name = want + "#" + std::to_string(k);
  return name;
}

const std::vector<std::pair<std::string, Decoded>>& Importer::initializers_of(const onnx::GraphProto& g,
                                                                              const std::string& where) {
  auto [it, fresh] = body_initializers_.try_emplace(original(&g));
  if (fresh) {
    try {
      for (const auto& t : g.initializer()) {
        Decoded d = decode_tensor(t, external_, where + ": initializer \"" + t.name() + "\"");
        model_bytes(d.data);
        it->second.emplace_back(t.name(), std::move(d));
      }
    } catch (...) {
      body_initializers_.erase(it);
      throw;
    }
  }
  return it->second;
}

// ---- NodeCtx ----

std::string NodeCtx::label() const {
  std::string name = node.name().empty() ? (node.output_size() ? node.output(0) : std::string("?")) : node.name();
  return "node \"" + name + "\" (" + node.op_type() + ")";
}

std::string NodeCtx::where() const { return "ONNX import: " + im.origin() + ": " + label(); }

void NodeCtx::unsupported(const std::string& reason) const {
  throw_error(ErrorKind::kNotSupportedError, where() + ": " + reason);
}
void NodeCtx::invalid(const std::string& reason) const { throw_error(ErrorKind::kDataError, where() + ": " + reason); }

const Value& NodeCtx::in(size_t i) const {
  if (!has_input(i)) invalid("input " + std::to_string(i) + " is missing");
  if (!im.has(input_name(i)))
    invalid("input " + std::to_string(i) + " (\"" + input_name(i) + "\") is used before it is defined");
  return im.value(input_name(i));
}

OperandId NodeCtx::operand(size_t i) const {
  if (!has_input(i)) invalid("input " + std::to_string(i) + " is missing");
  return im.operand_of(input_name(i), where() + ": input " + std::to_string(i) + " (\"" + input_name(i) + "\")");
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

namespace {

// The bytes of input i when the graph is built: its value, or a graph input's default (which
// freezes that input: import_model imports again with it frozen).
const BufferRef& build_time_bytes(const NodeCtx& c, size_t i, const std::string& what) {
  const Value& v = c.in(i);
  if (v.data) return *v.data;
  if (v.default_data) {
    c.im.needs_default(v.graph_input, c.label() + " needs its value (" + what + ") when the graph is built");
    return *v.default_data;
  }
  c.needs_const(i, what);
}

}  // namespace

std::vector<int64_t> NodeCtx::const_ints(size_t i, const std::string& what) const {
  const Value& v = in(i);
  if (is_floating_point(v.desc.data_type))
    invalid(what + " (input \"" + input_name(i) + "\") must be an integer tensor, it is " + v.desc.to_string());
  return host_int64s(v.desc, build_time_bytes(*this, i, what));
}

std::vector<double> NodeCtx::const_doubles(size_t i, const std::string& what) const {
  const Value& v = in(i);
  return host_doubles(v.desc, build_time_bytes(*this, i, what));
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
  // Known at import (fold_known): the output is that value, for the nodes that need it at build
  // time; the operations that computed it stay only where something else reads them.
  if (const BufferRef* data = im.known(id)) return set_const_out(i, im.builder().desc(id), *data, is_bool);
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

void NodeCtx::set_value_out(size_t i, Value v) const {
  if (!wants_output(i)) return;
  const std::string& name = node.output(static_cast<int>(i));
  im.define(name, std::move(v), where() + ": output " + std::to_string(i) + " (\"" + name + "\")");
}

void NodeCtx::set_const_out(size_t i, const OperandDescriptor& desc, BufferRef data, bool is_bool) const {
  if (!wants_output(i)) return;
  if (data.size != *desc.byte_length()) invalid("internal: folded constant of the wrong size");
  if (desc.element_count() != 0u) im.builder().check_descriptor(desc, where() + " output " + std::to_string(i));
  Value v;
  v.desc = desc;
  v.is_bool = is_bool;
  v.data = std::move(data);
  const std::string& name = node.output(static_cast<int>(i));
  im.define(name, std::move(v), where() + ": output " + std::to_string(i) + " (\"" + name + "\")");
}

std::vector<OperandId> NodeCtx::add_multi(OpKind kind, std::vector<OperandId> inputs, Attributes attrs) const {
  const bool operands_known = !inputs.empty() && std::all_of(inputs.begin(), inputs.end(),
                                                             [&](OperandId id) { return im.known(id) != nullptr; });
  if (!operands_known) return im.builder().add_operation(kind, std::move(inputs), std::move(attrs), node.name());
  std::vector<OperandId> outputs = im.builder().add_operation(kind, inputs, attrs, node.name());
  fold_known(kind, inputs, attrs, outputs);
  return outputs;
}

// Whatever operators a chain of values known at import passes through (PyTorch's
// repeat_interleave: Shape -> ConstantOfShape -> Mul -> Equal -> Where -> Expand -> Split ->
// Concat -> Equal -> Where -> Expand), each WebNN operation a lowering adds over known operands is
// computed then by the reference kernels, so the chain is known where a later node needs it when
// the graph is built (an Expand's shape). Only integer values (shapes, indices, masks): exact on
// every backend, where a float operation's last bits are the backend's own. The fold limit and the
// memory budget hold as for every fold.
void NodeCtx::fold_known(OpKind kind, const std::vector<OperandId>& inputs, const Attributes& attrs,
                         const std::vector<OperandId>& outputs) const {
  auto small_integers = [&](OperandId id) {
    const OperandDescriptor& d = im.builder().desc(id);
    return !is_floating_point(d.data_type) && count_of(d.shape) <= kMaxFoldElements;
  };
  std::vector<HostTensor> values;
  for (OperandId id : inputs) {
    const BufferRef* data = im.known(id);
    if (!data || !small_integers(id)) return;
    values.push_back({im.builder().desc(id), *data});
  }
  for (OperandId id : outputs)
    if (!small_integers(id)) return;
  std::vector<HostTensor> results;
  try {
    for (OperandId id : outputs)
      if (!fold_fits(im.builder().desc(id))) return;
    results = reference::run_operation(kind, values, attrs);
  } catch (const Error&) {
    return;  // past the memory budget, or refused by the kernels: left to run time, as the builder accepted it
  }
  for (size_t k = 0; k < outputs.size() && k < results.size(); ++k)
    im.set_known(outputs[k], std::move(results[k].data));
}

const OperandDescriptor& NodeCtx::desc_of(OperandId id) const { return im.builder().desc(id); }

OperandId NodeCtx::constant(const OperandDescriptor& desc, const BufferRef& data) const {
  OperandId id = im.builder().add_constant(desc, data);
  im.keep_in_graph(data, where());
  im.note_constant(id, data);
  return id;
}

OperandId NodeCtx::int_table(const OperandDescriptor& desc, const std::string& what,
                             const std::function<int64_t(uint64_t)>& at) const {
  reserve(desc, what);
  return constant(desc, bytes_of_int64s(desc.data_type, count_of(desc.shape), at));
}

OperandId NodeCtx::iota(DataType type, size_t rank, size_t axis, uint32_t count, const std::string& what) const {
  Shape shape(rank, 1);
  shape.at(axis) = count;
  return int_table({type, shape}, what, [](uint64_t i) { return int64_t(i); });
}

void NodeCtx::check_tensor(const OperandDescriptor& desc, const std::string& what) const {
  try {
    im.builder().check_descriptor(desc, what);
  } catch (const Error& e) {
    unsupported(e.message());
  }
}

void NodeCtx::reserve(const OperandDescriptor& desc, const std::string& what, uint64_t temporary_bytes) const {
  // A valid tensor first: its byte length is then known to fit maxTensorByteLength (2 GiB).
  check_tensor(desc, what);
  im.reserve(*desc.byte_length(), temporary_bytes, where(), what + " (" + desc.to_string() + ")");
}

bool NodeCtx::fold_fits(const OperandDescriptor& desc) const {
  if (count_of(desc.shape) > kMaxFoldElements) return false;
  // Besides the result, 8 bytes per element of scratch space: a fold's intermediate value (a
  // negative-step Slice is a slice, then a reverse) and a kernel's staging.
  reserve(desc, "the folded value", 8 * count_of(desc.shape));
  return true;
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

uint64_t inlining_bytes(const onnx::GraphProto& body, uint64_t uses) {
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(uses, (node_count(body) + 1) * kInlinedNodeBytes, &bytes)) return UINT64_MAX;
  return bytes;
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

// The opsets of the default domain the importer knows: its per-opset semantics (docs/onnx.md,
// "Opsets") are written for opsets 1 to 20. A newer opset may change an operator's meaning, so it
// is refused until the lowerings are reviewed for it.
constexpr int64_t kMaxOpset = 20;
// Inputs with a default value that a lowering needs when the graph is built are frozen to it and
// the model is imported again; a pass freezes every such input it meets directly, so real models
// need one more pass (docs/onnx.md, "Inputs with a default value").
constexpr int kMaxImportPasses = 4;

// The default domain's opset: known, imported once. -1 when the model imports only other domains
// (a node of the default domain is then an error).
int64_t default_opset(const onnx::ModelProto& model, const std::string& origin) {
  int64_t opset = -1;
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") {
      if (opset >= 0) data_error("ONNX import: " + origin + ": the model imports the default ONNX domain twice");
      opset = o.version();
      if (opset < 1 || opset > kMaxOpset)
        not_supported("ONNX import: " + origin + ": opset " + std::to_string(opset) +
                      " of the default ONNX domain is not one the importer knows (opsets 1 to " +
                      std::to_string(kMaxOpset) + ")");
    }
  if (opset < 0 && model.opset_import_size() == 0) opset = 1;  // IR version 2 models carry none: opset 1.
  return opset;
}

// A node's structure as ONNX defines it, before it is lowered: attributes given once; for the
// opsets libonnx's schema registry holds (up to 17), the operator's own schema (OpSchema::Verify,
// what the ONNX checker runs): input and output counts, required inputs and attributes present,
// attribute types, no unknown attribute.
void check_node_schema(const NodeCtx& ctx) {
  std::set<std::string_view> seen;
  for (const auto& a : ctx.node.attribute())
    if (!seen.insert(a.name()).second) ctx.invalid("attribute \"" + a.name() + "\" is given twice");
  static const int kSchemaOpset = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map().at("").second;
  if (ctx.opset > kSchemaOpset) return;
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(ctx.op_type(), int(ctx.opset), "");
  if (!schema || schema->Deprecated()) return;  // the lowering table says what an unknown op type is
  try {
    schema->Verify(ctx.node);
  } catch (const std::exception& e) {
    ctx.invalid("does not follow the definition of " + ctx.op_type() + "-" + std::to_string(schema->since_version()) +
                ": " + e.what());
  }
}

// The op types whose subgraph attributes the importer lowers (import_control.cpp,
// import_sequence.cpp).
bool lowers_subgraphs(const std::string& op_type) {
  return op_type == "If" || op_type == "Loop" || op_type == "Scan" || op_type == "SequenceMap";
}

// Every value name `g` reads (its nodes' inputs, its outputs), its subgraphs' included.
void for_each_read(const onnx::GraphProto& g, const std::function<void(const std::string&)>& f);

// Every value name a node reads: its inputs and, through its subgraphs, the names of enclosing
// graphs that they read (and their own, which no enclosing graph defines).
void for_each_read(const onnx::NodeProto& node, const std::function<void(const std::string&)>& f) {
  for (const std::string& in : node.input())
    if (!in.empty()) f(in);
  for (const auto& a : node.attribute()) {
    if (a.type() == onnx::AttributeProto::GRAPH) for_each_read(a.g(), f);
    if (a.type() == onnx::AttributeProto::GRAPHS)
      for (const auto& g : a.graphs()) for_each_read(g, f);
  }
}

void for_each_read(const onnx::GraphProto& g, const std::function<void(const std::string&)>& f) {
  for (const auto& node : g.node()) for_each_read(node, f);
  for (const auto& vi : g.output()) f(vi.name());
}

}  // namespace

namespace onnx_import {

uint64_t node_count(const onnx::GraphProto& g) {
  uint64_t n = 0;
  for (const auto& node : g.node()) {
    ++n;
    for (const auto& a : node.attribute()) {
      if (a.type() == onnx::AttributeProto::GRAPH) n += node_count(a.g());
      for (const auto& sub : a.graphs()) n += node_count(sub);
    }
  }
  return n;
}

}  // namespace onnx_import

namespace {

// Every value name `g` and its subgraphs define (inputs, initializers, nodes' outputs).
void collect_names(const onnx::GraphProto& g, std::set<std::string>& names) {
  for (const auto& vi : g.input()) names.insert(vi.name());
  for (const auto& t : g.initializer()) names.insert(t.name());
  for (const auto& node : g.node()) {
    for (const std::string& out : node.output()) names.insert(out);
    for (const auto& a : node.attribute()) {
      if (a.type() == onnx::AttributeProto::GRAPH) collect_names(a.g(), names);
      for (const auto& sub : a.graphs()) collect_names(sub, names);
    }
  }
}

// The names `g` itself defines (not its subgraphs').
std::set<std::string> own_names(const onnx::GraphProto& g) {
  std::set<std::string> names;
  for (const auto& vi : g.input()) names.insert(vi.name());
  for (const auto& t : g.initializer()) names.insert(t.name());
  for (const auto& node : g.node())
    for (const std::string& out : node.output()) names.insert(out);
  return names;
}

}  // namespace

namespace onnx_import {

void Importer::gather_names() {
  if (names_gathered_ || !graph_) return;
  names_gathered_ = true;
  collect_names(*graph_, model_names_);
  graph_names_ = own_names(*graph_);
  scopes_.insert(scopes_.begin(), &graph_names_);
}

std::vector<const std::set<std::string>*>& Importer::scopes() {
  gather_names();
  return scopes_;
}

}  // namespace onnx_import

namespace {

// A copy of a subgraph, made with the node that holds it for one use of an enclosing subgraph:
// renames in it, and in its subgraphs, the reads of that use's names (`renamed`), and notes each
// copy's original (Importer::note_copy; `noted` lists them). A name the copy defines itself is
// left (a subgraph that defines an enclosing graph's name again is refused when it is lowered).
void adopt_copy(Importer& im, onnx::GraphProto& copy, const onnx::GraphProto& original,
                const std::map<std::string, std::string>& renamed, std::vector<const onnx::GraphProto*>& noted) {
  im.note_copy(&copy, &original);
  noted.push_back(&copy);
  const std::set<std::string> own = own_names(copy);
  auto rename = [&](std::string* name) {
    if (own.count(*name)) return;
    if (auto it = renamed.find(*name); it != renamed.end()) *name = it->second;
  };
  for (int n = 0; n < copy.node_size(); ++n) {
    onnx::NodeProto& node = *copy.mutable_node(n);
    for (auto& in : *node.mutable_input())
      if (!in.empty()) rename(&in);
    for (int a = 0; a < node.attribute_size(); ++a) {
      onnx::AttributeProto& attr = *node.mutable_attribute(a);
      const onnx::AttributeProto& was = original.node(n).attribute(a);
      if (attr.type() == onnx::AttributeProto::GRAPH) adopt_copy(im, *attr.mutable_g(), was.g(), renamed, noted);
      for (int k = 0; k < attr.graphs_size(); ++k)
        adopt_copy(im, *attr.mutable_graphs(k), was.graphs(k), renamed, noted);
    }
  }
  for (auto& vi : *copy.mutable_output()) rename(vi.mutable_name());
}

// Lowers one node (the model's, or one of a subgraph's use, with names of its own): checked as ONNX
// defines it, its inputs defined, its outputs new (single static assignment), its lowering run.
void lower_node(Importer& im, const onnx::NodeProto& node, int64_t opset) {
  NodeCtx ctx{im, node, opset};
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    ctx.unsupported("operators of the domain \"" + node.domain() + "\" are outside the WebNN specification");
  if (opset < 0) data_error(ctx.where() + ": the model imports no version of the default ONNX domain");
  check_node_schema(ctx);
  for (int i = 0; i < node.input_size(); ++i)
    if (!node.input(i).empty() && !im.definition(node.input(i)))
      ctx.invalid("input " + std::to_string(i) + " (\"" + node.input(i) + "\") is used before it is defined");
  // Single static assignment: each name is defined once (ONNX IR, "Names Within a Graph").
  for (int i = 0; i < node.output_size(); ++i) {
    const std::string& out = node.output(i);
    if (out.empty()) continue;
    if (const std::string* earlier = im.declare(out, "output " + std::to_string(i) + " of " + ctx.label()))
      ctx.invalid("output " + std::to_string(i) + " (\"" + out + "\") is already defined as " + *earlier +
                  " (an ONNX value is assigned once)");
  }
  // Sequences (import-time lists of operands) go only where an operator takes one.
  for (int i = 0; i < node.input_size(); ++i)
    if (!node.input(i).empty() && im.has(node.input(i)) && im.value(node.input(i)).items &&
        !takes_sequence(node.op_type(), size_t(i)))
      ctx.unsupported("input " + std::to_string(i) + " (\"" + node.input(i) + "\") is a sequence, where " +
                      node.op_type() + " takes a tensor");
  // A float widened to double (a Cast to double) goes only where the narrower value computes the same.
  for (int i = 0; i < node.input_size(); ++i)
    if (!node.input(i).empty() && im.has(node.input(i)) && im.value(node.input(i)).widened &&
        !takes_widened(node.op_type()))
      ctx.unsupported("input " + std::to_string(i) + " (\"" + node.input(i) + "\")" + kWidenedRefusal);
  if (!lowers_subgraphs(node.op_type()))
    for (const auto& a : node.attribute())
      if (a.type() == onnx::AttributeProto::GRAPH || a.type() == onnx::AttributeProto::GRAPHS)
        ctx.unsupported("a subgraph attribute of an operator other than If, Loop, Scan and SequenceMap");
  const Lowering* lower = find_lowering(node.op_type());
  if (!lower) ctx.unsupported(unsupported_reason(node.op_type()));
  try {
    (*lower)(ctx);
    im.end_node();
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

// Lowers `nodes` in order. A value that `releasable` allows is released after the last node that
// reads it, or at once when nothing reads it, so folded values do not pile up over a long model.
void lower_nodes(Importer& im, int64_t opset, const std::vector<const onnx::NodeProto*>& nodes,
                 const std::function<bool(const std::string&)>& releasable) {
  std::unordered_map<std::string, size_t> last_use;
  for (size_t n = 0; n < nodes.size(); ++n) for_each_read(*nodes[n], [&](const std::string& in) { last_use[in] = n; });
  for (size_t n = 0; n < nodes.size(); ++n) {
    const onnx::NodeProto& node = *nodes[n];
    lower_node(im, node, opset);
    for_each_read(node, [&](const std::string& in) {
      if (last_use[in] == n && releasable(in)) im.release(in);
    });
    for (const std::string& out : node.output())
      if (!out.empty() && !last_use.count(out) && releasable(out)) im.release(out);
  }
}

}  // namespace

namespace onnx_import {

Inlined::~Inlined() {
  for (const std::string& name : names_) im_->release(name);
}

const Value& Inlined::value(size_t i) const { return im_->value(names_.at(i)); }

OperandId Inlined::operand(size_t i) const {
  return im_->float_operand_of(names_.at(i), where_ + ": output " + std::to_string(i));
}

Inlined inline_graph(const NodeCtx& c, const onnx::GraphProto& body, const std::vector<Value>& inputs,
                     const std::string& use) {
  Importer& im = c.im;
  const std::string where = c.where() + ": " + use;
  // Its nodes are labelled "NODE/USE/NAME", its values named so too (made unique by fresh_name).
  const std::string& node_name = c.node.name().empty() && c.node.output_size() ? c.node.output(0) : c.node.name();
  const std::string prefix = node_name + "/" + use + "/";
  if (body.input_size() != int(inputs.size()))
    c.invalid(use + ": the subgraph has " + std::to_string(body.input_size()) + " inputs, but " +
              std::to_string(inputs.size()) + " values are bound to them");
  if (body.sparse_initializer_size()) c.unsupported(use + ": sparse initializers are not supported");
  im.charge_built(inlining_bytes(body, 1), where,
                  "a use of a subgraph of " + std::to_string(node_count(body)) + " nodes");

  // The names the subgraph defines, each given one of its own for this use. None may be one an
  // enclosing graph defines (ONNX IR: a name is assigned once, in a graph and its subgraphs).
  std::set<std::string> own;
  std::map<std::string, std::string> renamed;
  auto define_own = [&](const std::string& name, const std::string& what) {
    if (name.empty()) c.invalid(use + ": " + what + " has no name");
    for (const std::set<std::string>* scope : im.scopes())
      if (scope->count(name))
        c.invalid(use + ": " + what + " \"" + name +
                  "\" is already defined by an enclosing graph (an ONNX value is assigned once)");
    if (!own.insert(name).second) c.invalid(use + ": \"" + name + "\" is defined twice in the subgraph");
    renamed[name] = im.fresh_name(prefix + name);
  };
  for (int i = 0; i < body.input_size(); ++i) define_own(body.input(i).name(), "input " + std::to_string(i));
  for (const auto& t : body.initializer()) define_own(t.name(), "an initializer");
  for (const auto& node : body.node())
    for (const std::string& out : node.output())
      if (!out.empty()) define_own(out, "an output of a node");

  for (int i = 0; i < body.input_size(); ++i) {
    const onnx::ValueInfoProto& vi = body.input(i);
    const Value& v = inputs[size_t(i)];
    const bool declared_sequence = vi.has_type() && vi.type().has_sequence_type();
    if (vi.has_type() && !vi.type().has_tensor_type() && !declared_sequence)
      c.unsupported(use + ": input \"" + vi.name() + "\" is a map or an optional (outside the WebNN specification)");
    if (vi.has_type() && declared_sequence != bool(v.items))
      c.invalid(use + ": input \"" + vi.name() + "\" is declared a " + (declared_sequence ? "sequence" : "tensor") +
                " but is given a " + (v.items ? "sequence" : "tensor"));
    const onnx::TypeProto* element = declared_sequence ? &vi.type().sequence_type().elem_type() : &vi.type();
    if (vi.has_type() && element->has_tensor_type() && element->tensor_type().elem_type() != 0) {
      const onnx_types::ElemType declared = element->tensor_type().elem_type();
      const onnx_types::ElemType given = v.is_bool ? onnx_types::kBool : onnx_type(v.desc.data_type);
      if (declared != given)
        c.invalid(use + ": input \"" + vi.name() + "\" is declared " + onnx_type_name(declared) + " but is given " +
                  onnx_type_name(given));
    }
    const std::string& name = renamed.at(vi.name());
    im.declare(name, "input " + std::to_string(i) + " of " + use);
    im.define(name, v);
  }
  for (const auto& [original, d] : im.initializers_of(body, where)) {
    Value v;
    v.desc = d.desc;
    v.is_bool = d.is_bool;
    v.data = d.data;
    im.declare(renamed.at(original), "an initializer of " + use);
    im.define(renamed.at(original), std::move(v));
  }

  // The nodes, copied with this use's names; their subgraphs' copies are noted until the use ends.
  std::vector<const onnx::GraphProto*> noted;
  struct ForgetCopies {
    Importer& im;
    const std::vector<const onnx::GraphProto*>& noted;
    ~ForgetCopies() {
      for (const onnx::GraphProto* g : noted) im.forget_copy(g);
    }
  } forget{im, noted};
  std::vector<onnx::NodeProto> nodes(body.node().begin(), body.node().end());
  std::vector<const onnx::NodeProto*> order;
  for (size_t n = 0; n < nodes.size(); ++n) {
    onnx::NodeProto& node = nodes[n];
    node.set_name(prefix + (node.name().empty() && node.output_size() ? node.output(0) : node.name()));
    for (std::string& in : *node.mutable_input())
      if (auto it = renamed.find(in); it != renamed.end()) in = it->second;
    for (std::string& out : *node.mutable_output())
      if (!out.empty()) out = renamed.at(out);
    for (int a = 0; a < node.attribute_size(); ++a) {
      onnx::AttributeProto& attr = *node.mutable_attribute(a);
      const onnx::AttributeProto& was = body.node(int(n)).attribute(a);
      if (attr.type() == onnx::AttributeProto::GRAPH) adopt_copy(im, *attr.mutable_g(), was.g(), renamed, noted);
      for (int k = 0; k < attr.graphs_size(); ++k)
        adopt_copy(im, *attr.mutable_graphs(k), was.graphs(k), renamed, noted);
    }
    order.push_back(&node);
  }
  std::set<std::string> mine, kept;  // this use's names; its outputs among them
  for (const auto& [original, name] : renamed) mine.insert(name);
  for (const auto& vi : body.output())
    if (auto it = renamed.find(vi.name()); it != renamed.end()) kept.insert(it->second);
  im.scopes().push_back(&own);
  struct PopScope {
    Importer& im;
    ~PopScope() { im.scopes().pop_back(); }
  } pop{im};
  lower_nodes(im, c.opset, order,
              [&](const std::string& name) { return mine.count(name) != 0 && kept.count(name) == 0; });

  Inlined out(im, where);
  for (int o = 0; o < body.output_size(); ++o) {
    const std::string& name = body.output(o).name();
    auto it = renamed.find(name);
    const std::string& value = it != renamed.end() ? it->second : name;
    if (name.empty() || !im.has(value))
      c.invalid(use + ": output " + std::to_string(o) + " (\"" + name + "\") is not defined");
    std::string held = im.fresh_name(prefix + "output " + std::to_string(o));
    im.define(held, im.value(value));
    out.add(std::move(held));
  }
  for (const std::string& name : mine) im.release(name);
  return out;
}

}  // namespace onnx_import

namespace {

// One import of a model; run() is one pass over its nodes with a given set of inputs frozen to
// their defaults.
class ModelImport {
 public:
  ModelImport(const onnx::ModelProto& model, ExternalData& external, std::string origin,
              const OnnxImportOptions& options)
      : g_(model.graph()), external_(external), origin_(std::move(origin)), options_(options) {
    prefix_ = "ONNX import: " + origin_ + ": ";
    opset_ = default_opset(model, origin_);
    for (const auto& frozen : options_.frozen) {
      bool found = false;
      for (const auto& vi : g_.input()) found |= vi.name() == frozen.first;
      if (!found)
        throw_error(ErrorKind::kTypeError,
                    prefix_ + "--freeze " + frozen.first + ": the model has no input of that name");
    }
    if (g_.sparse_initializer_size()) not_supported(prefix_ + "sparse initializers are not supported");
    for (const auto& vi : g_.input()) {
      if (vi.name().empty()) data_error(prefix_ + "a graph input has no name");
      if (!input_names_.insert(vi.name()).second)
        data_error(prefix_ + "two graph inputs are named \"" + vi.name() + "\"");
    }
    if (g_.output_size() == 0) data_error(prefix_ + "the graph has no output");
    for (const auto& t : g_.initializer()) {
      if (initializers_.count(t.name())) data_error(prefix_ + "two initializers are named \"" + t.name() + "\"");
      initializers_.emplace(t.name(), decode_tensor(t, &external, prefix_ + "initializer \"" + t.name() + "\""));
    }
    // IR version 4 made an initializer named like a graph input that input's default value; before,
    // every initializer had to be listed as an input and is a constant.
    overridable_ = model.ir_version() >= 4;
  }

  std::shared_ptr<const Graph> import() {
    std::map<std::string, std::string> frozen_defaults;
    for (int pass = 1;; ++pass) {
      std::map<std::string, std::string> needed;
      try {
        auto graph = run(frozen_defaults, needed);
        if (needed.empty()) return graph;
      } catch (const OnnxNeedsConstantInput& e) {
        // A value computed from an input with a default is needed when the graph is built.
        if (overridable_ && initializers_.count(e.input()) && !options_.frozen.count(e.input()) &&
            !frozen_defaults.count(e.input()))
          needed.emplace(e.input(), "a value computed from it is needed when the graph is built");
        else if (needed.empty())
          throw;
      } catch (...) {
        // A pass that used an input's default may fail where the frozen input would not.
        if (needed.empty()) throw;
      }
      if (pass == kMaxImportPasses)
        not_supported(prefix_ + "the inputs with a default value that the model needs when the graph is built took " +
                      std::to_string(kMaxImportPasses) + " imports without being all found; freeze them " +
                      "(--freeze NAME=FILE.npy), among them \"" + needed.begin()->first + "\"");
      frozen_defaults.insert(needed.begin(), needed.end());
    }
  }

 private:
  // One pass; `needed` receives the inputs whose default a lowering needed when the graph is
  // built (then the result is null, or the pass threw).
  std::shared_ptr<const Graph> run(const std::map<std::string, std::string>& frozen_defaults,
                                   std::map<std::string, std::string>& needed) {
    GraphBuilder builder;
    Importer im(builder, origin_, options_.memory_budget);
    im.set_model(g_, &external_);
    std::set<std::string> output_names;  // kept to the end
    for (const auto& vi : g_.output()) output_names.insert(vi.name());
    std::set<std::string> read;  // what the nodes read; the graph's values that nothing reads are let go at once
    for (const auto& node : g_.node()) for_each_read(node, [&](const std::string& in) { read.insert(in); });

    for (const auto& [name, d] : initializers_) {
      im.model_bytes(d.data);
      if (isolated_default(name)) continue;  // a graph input's default, defined with the input below
      Value v;
      v.desc = d.desc;
      v.is_bool = d.is_bool;
      v.data = d.data;
      im.define(name, std::move(v));
      im.declare(name, "an initializer");
    }
    std::vector<std::pair<std::string, OperandDescriptor>> inputs;  // the graph's inputs, in the model's order
    std::map<std::string, std::string> frozen_inputs;
    for (const auto& vi : g_.input()) {
      auto fz = options_.frozen.find(vi.name());
      auto init = initializers_.find(vi.name());
      if (fz == options_.frozen.end() && init != initializers_.end() && !overridable_) continue;  // IR < 4: a constant
      bool is_bool = false;
      Value v;
      if (fz != options_.frozen.end()) {
        const NpyArray& a = fz->second;
        std::string type_name;
        if (!vi.type().has_tensor_type() || !webnn_type(vi.type().tensor_type().elem_type(), &is_bool, &type_name) ||
            *webnn_type(vi.type().tensor_type().elem_type(), nullptr, nullptr) != a.desc.data_type)
          throw_error(ErrorKind::kTypeError, prefix_ + "--freeze " + vi.name() + ": the array is " +
                                                 a.desc.to_string() + ", of another type than the input");
        v.desc = a.desc;
        v.data = BufferRef::copy_of(a.data);
        im.model_bytes(*v.data);
        frozen_inputs[vi.name()] = "frozen by the caller (--freeze " + vi.name() + "=FILE.npy)";
      } else if (frozen_defaults.count(vi.name())) {
        v.desc = init->second.desc;
        is_bool = init->second.is_bool;
        v.data = init->second.data;
        frozen_inputs[vi.name()] = "frozen to its default value (its initializer): " + frozen_defaults.at(vi.name()) +
                                   "; freeze it to another value with --freeze " + vi.name() + "=FILE.npy";
      } else {
        v.desc = input_descriptor(vi, options_, origin_, &is_bool);
        if (init != initializers_.end()) {
          if (!(init->second.desc == v.desc) || init->second.is_bool != is_bool)
            data_error(prefix_ + "graph input \"" + vi.name() + "\" is " + v.desc.to_string() +
                       " but its initializer (its default value) is " + init->second.desc.to_string());
          v.default_data = init->second.data;
        }
        v.id = builder.add_input(vi.name(), v.desc);
        v.graph_input = vi.name();
        inputs.emplace_back(vi.name(), v.desc);
      }
      v.is_bool = is_bool;
      im.define(vi.name(), std::move(v));
      im.declare(vi.name(), "the graph input");
    }
    // Values nothing reads are let go at once.
    for (const auto& [name, d] : initializers_)
      if (!read.count(name) && !output_names.count(name)) im.release(name);
    for (const auto& vi : g_.input())
      if (!read.count(vi.name()) && !output_names.count(vi.name())) im.release(vi.name());

    try {
      std::vector<const onnx::NodeProto*> nodes;
      for (const auto& node : g_.node()) nodes.push_back(&node);
      lower_nodes(im, opset_, nodes, [&](const std::string& name) { return !output_names.count(name); });
    } catch (...) {
      needed = im.needed_defaults();
      throw;
    }
    needed = im.needed_defaults();
    if (!needed.empty()) return nullptr;

    std::vector<NamedOperand> outputs;
    std::set<std::string> seen;
    for (const auto& vi : g_.output()) {
      const std::string where = prefix_ + "graph output \"" + vi.name() + "\"";
      if (!seen.insert(vi.name()).second) data_error(prefix_ + "two graph outputs are named \"" + vi.name() + "\"");
      if (!im.definition(vi.name())) data_error(where + " is not defined by a node, an input or an initializer");
      OperandId id = im.float_operand_of(vi.name(), where);
      // An output that is a graph input or a (folded) constant still needs an operation to
      // produce it, as does a second output name for one operand.
      bool taken = false;
      for (const NamedOperand& o : outputs) taken |= o.operand == id;
      if (builder.graph().operands[id].kind != OperandKind::kIntermediate || taken)
        id = builder.add_operation(OpKind::kIdentity, {id}, NoAttrs{}, vi.name()).at(0);
      outputs.push_back({vi.name(), id});
    }
    // The built graph keeps what the outputs depend on; the model's inputs all stay inputs (an
    // input read only through Shape, or not at all, too: callers feed the model's inputs), in the
    // model's order, with their default values.
    std::shared_ptr<const Graph> built;
    try {
      built = builder.build(outputs, g_.name());
    } catch (const Error& e) {
      throw_error(e.kind(), prefix_ + e.message());
    }
    auto graph = std::make_shared<Graph>(*built);
    graph->inputs.clear();
    std::map<std::string, OperandId> kept;
    for (const NamedOperand& in : built->inputs) kept[in.name] = in.operand;
    for (const auto& [name, desc] : inputs) {
      std::optional<OperandId> id;
      if (kept.count(name)) id = kept.at(name);
      if (!id) {
        Operand operand;
        operand.desc = desc;
        operand.kind = OperandKind::kInput;
        operand.name = name;
        graph->operands.push_back(std::move(operand));
        id = OperandId(graph->operands.size() - 1);
      }
      graph->inputs.push_back({name, *id});
      auto init = initializers_.find(name);
      if (init != initializers_.end()) graph->input_defaults[name] = init->second.data;
    }
    graph->frozen_inputs = std::move(frozen_inputs);
    return graph;
  }

  // Whether initializer `name` is a graph input's default (defined with that input).
  bool isolated_default(const std::string& name) const { return overridable_ && input_names_.count(name); }

  const onnx::GraphProto& g_;
  ExternalData& external_;
  std::string origin_, prefix_;
  const OnnxImportOptions& options_;
  int64_t opset_ = -1;
  bool overridable_ = true;
  std::map<std::string, Decoded> initializers_;
  std::set<std::string> input_names_;
};

std::shared_ptr<const Graph> import_model(const onnx::ModelProto& model, const std::string& base_dir,
                                          const std::string& origin, const OnnxImportOptions& options) {
  if (!model.has_graph()) data_error("ONNX import: " + origin + ": the model has no graph");
  ExternalData external(base_dir);
  return ModelImport(model, external, origin, options).import();
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
  Decoded d = decode_tensor(t, nullptr, path);
  NpyArray a;
  a.desc = d.desc;
  a.data.assign(d.data.data.get(), d.data.data.get() + d.data.size);
  return a;
}

}  // namespace webnn::formats
