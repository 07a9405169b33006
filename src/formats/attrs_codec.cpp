// Reads and writes operator attributes generically, by walking each attribute struct's `fields`
// declaration: one overload per field type, never a list of option names per op.
#include <cmath>
#include <limits>

#include "formats/internal.hpp"
#include "graph/op_signatures.hpp"

namespace webnn::formats {

namespace {

using Resolve = std::function<OperandId(const std::string&)>;

// Whether `name` is one of the spec's required parameters of `kind` (softmax's axis, cast's
// dataType, ...): a file must give it, and a writer always writes it, even when it equals the
// attribute struct's member initializer.
bool is_required_parameter(OpKind kind, std::string_view name) {
  const OpSignature* signature = find_op_signature(kind);
  if (!signature) return false;
  for (size_t i = 0; i < signature->parameter_count(); ++i)
    if (signature->parameters[i] == name) return true;
  return false;
}

std::vector<uint32_t> decode_dims(const Json& v, const std::string& where) {
  if (!v.is_array()) fail(where + " must be a list of non-negative integers, got " + excerpt(v));
  std::vector<uint32_t> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const Json& e = v[i];
    if (!e.is_number_unsigned() || e.get<uint64_t>() > UINT32_MAX)
      fail(where + "[" + std::to_string(i) + "] must be an integer in [0, 4294967295], got " + excerpt(e));
    out.push_back(e.get<uint32_t>());
  }
  return out;
}

void decode(const Json& v, bool& out, const std::string& where, const Resolve&) {
  if (!v.is_boolean()) fail(where + " must be true or false, got " + excerpt(v));
  out = v.get<bool>();
}

void decode(const Json& v, uint32_t& out, const std::string& where, const Resolve&) {
  if (!v.is_number_unsigned() || v.get<uint64_t>() > UINT32_MAX)
    fail(where + " must be an integer in [0, 4294967295], got " + excerpt(v));
  out = v.get<uint32_t>();
}

void decode(const Json& v, int32_t& out, const std::string& where, const Resolve&) {
  if (!v.is_number_integer() || v.get<int64_t>() < INT32_MIN || v.get<int64_t>() > INT32_MAX)
    fail(where + " must be an integer in [-2147483648, 2147483647], got " + excerpt(v));
  out = v.get<int32_t>();
}

void decode(const Json& v, double& out, const std::string& where, const Resolve&) {
  if (!v.is_number() && !v.is_string()) fail(where + " must be a number, got " + excerpt(v));
  out = json_number(v, where).as_double();
}

void decode(const Json& v, Number& out, const std::string& where, const Resolve&) { out = json_number(v, where); }

void decode(const Json& v, DataType& out, const std::string& where, const Resolve&) { out = json_data_type(v, where); }

template <SpecEnum E>
void decode(const Json& v, E& out, const std::string& where, const Resolve&) {
  std::string valid;
  for (std::string_view n : EnumNames<E>::kNames) valid += (valid.empty() ? "\"" : ", \"") + std::string(n) + "\"";
  if (!v.is_string()) fail(where + " must be one of " + valid + ", got " + excerpt(v));
  auto e = parse_enum<E>(v.get_ref<const std::string&>());
  if (!e) fail(where + " must be one of " + valid + ", got " + excerpt(v));
  out = *e;
}

// An optional list of spec enum values (the recurrent ops' activations); null means absent.
template <SpecEnum E>
void decode(const Json& v, std::optional<std::vector<E>>& out, const std::string& where, const Resolve& resolve) {
  if (v.is_null()) {
    out.reset();
    return;
  }
  if (!v.is_array()) fail(where + " must be a list, got " + excerpt(v));
  std::vector<E> values(v.size());
  for (size_t i = 0; i < v.size(); ++i) decode(v[i], values[i], where + "[" + std::to_string(i) + "]", resolve);
  out = std::move(values);
}

// sequence<float> (resample2d's scales); null means absent. Values must be finite floats.
void decode(const Json& v, std::optional<std::vector<float>>& out, const std::string& where, const Resolve&) {
  if (v.is_null()) {
    out.reset();
    return;
  }
  if (!v.is_array()) fail(where + " must be a list of numbers, got " + excerpt(v));
  std::vector<float> values;
  values.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const double d = json_number(v[i], where + "[" + std::to_string(i) + "]").as_double();
    if (!std::isfinite(d) || std::fabs(d) > std::numeric_limits<float>::max())
      fail(where + "[" + std::to_string(i) + "] must be a finite float, got " + excerpt(v[i]));
    values.push_back(static_cast<float>(d));
  }
  out = std::move(values);
}

void decode(const Json& v, std::vector<uint32_t>& out, const std::string& where, const Resolve&) {
  out = decode_dims(v, where);
}

void decode(const Json& v, OptionalDims& out, const std::string& where, const Resolve&) {
  if (v.is_null()) {
    out.reset();
    return;
  }
  out = decode_dims(v, where);
}

void decode(const Json& v, std::optional<OperandRef>& out, const std::string& where, const Resolve& resolve) {
  if (v.is_null()) {
    out.reset();
    return;
  }
  if (!v.is_string()) fail(where + " must name an operand, got " + excerpt(v));
  out = OperandRef{resolve(v.get<std::string>())};
}

// An option the spec gives a default: null means left to it.
template <class T>
void decode(const Json& v, Defaulted<T>& out, const std::string& where, const Resolve& resolve) {
  std::optional<T> given;
  decode(v, given, where, resolve);
  out = std::move(given);
}

void decode(const Json& v, SplitSpec& out, const std::string& where, const Resolve&) {
  if (v.is_number_unsigned() && v.get<uint64_t>() <= UINT32_MAX) {
    out = v.get<uint32_t>();
  } else if (v.is_array()) {
    out = decode_dims(v, where);
  } else {
    fail(where + " must be an integer in [0, 4294967295] or a list of them, got " + excerpt(v));
  }
}

Json dims_json(const std::vector<uint32_t>& dims) {
  Json a = Json::array();
  for (uint32_t d : dims) a.push_back(d);
  return a;
}

Json encode(bool v) { return Json(v); }
Json encode(uint32_t v) { return Json(v); }
Json encode(int32_t v) { return Json(v); }
Json encode(double v) { return double_json(v); }
Json encode(const Number& v) { return number_json(v); }
Json encode(DataType v) { return Json(std::string(to_string(v))); }
template <SpecEnum E>
Json encode(E v) {
  return Json(std::string(enum_name(v)));
}
Json encode(const std::vector<uint32_t>& v) { return dims_json(v); }
Json encode(const OptionalDims& v) { return v ? dims_json(*v) : Json(nullptr); }
Json encode(const std::optional<std::vector<float>>& v) {
  if (!v) return Json(nullptr);
  Json a = Json::array();
  for (float f : *v) a.push_back(double_json(f));
  return a;
}
template <SpecEnum E>
Json encode(const std::optional<std::vector<E>>& v) {
  if (!v) return Json(nullptr);
  Json a = Json::array();
  for (E e : *v) a.push_back(std::string(enum_name(e)));
  return a;
}
template <class T>
Json encode(const Defaulted<T>& v) {
  return encode(v.caller_value());
}
Json encode(const SplitSpec& v) {
  if (const auto* n = std::get_if<uint32_t>(&v)) return Json(*n);
  return dims_json(std::get<std::vector<uint32_t>>(v));
}

}  // namespace

Attributes decode_attributes(OpKind kind, const Json& options, std::string* label, const Resolve& resolve,
                             const std::string& where) {
  if (!options.is_object()) fail(where + ": options must be an object, got " + excerpt(options));
  Attributes attrs = default_attributes(kind);
  std::vector<std::string_view> known;
  std::visit(
      [&](auto& a) {
        using A = std::decay_t<decltype(a)>;
        A::fields(a, [&](std::string_view name, auto&) { known.push_back(name); });
      },
      attrs);
  for (const auto& [key, value] : options.items()) {
    if (key == "label") {
      if (!value.is_string()) fail(where + ": option \"label\" must be a string, got " + excerpt(value));
      *label = value.get<std::string>();
      continue;
    }
    bool found = false;
    for (std::string_view k : known) found |= (k == key);
    if (!found) {
      std::string valid;
      for (std::string_view k : known) valid += ", " + std::string(k);
      fail(where + ": unknown option " + quote(key) + " for " + std::string(op_name(kind)) +
           " (valid options: " + (valid.empty() ? std::string("label") : valid.substr(2) + ", label") + ")");
    }
  }
  std::visit(
      [&](auto& a) {
        using A = std::decay_t<decltype(a)>;
        A::fields(a, [&](std::string_view name, auto& field) {
          auto it = options.find(std::string(name));
          if (it == options.end()) {
            if (is_required_parameter(kind, name))
              fail(where + ": " + std::string(op_name(kind)) + " needs its required parameter \"" + std::string(name) +
                   "\"");
            return;
          }
          decode(*it, field, where + ": option \"" + std::string(name) + "\"", resolve);
        });
      },
      attrs);
  return attrs;
}

std::vector<EncodedOption> encode_attributes(const Operation& op,
                                             const std::function<std::string(OperandId)>& name_of) {
  std::vector<EncodedOption> out;
  std::visit(
      [&](const auto& a) {
        using A = std::decay_t<decltype(a)>;
        // The defaults, field by field in the same declaration order, to leave them out.
        const A defaults{};
        std::vector<const void*> default_fields;
        A::fields(defaults, [&](std::string_view, const auto& field) { default_fields.push_back(&field); });
        size_t index = 0;
        A::fields(a, [&](std::string_view name, const auto& field) {
          using F = std::decay_t<decltype(field)>;
          const F& def = *static_cast<const F*>(default_fields[index++]);
          if (field == def && !is_required_parameter(op.kind, name)) return;
          EncodedOption option;
          option.name = std::string(name);
          if constexpr (std::is_same_v<F, std::optional<OperandRef>>) {
            option.is_operand = field.has_value();
            option.value = field ? Json(name_of(field->id)) : Json(nullptr);
          } else {
            option.value = encode(field);
          }
          out.push_back(std::move(option));
        });
      },
      op.attrs);
  if (!op.label.empty()) out.push_back({"label", Json(op.label), false});
  return out;
}

}  // namespace webnn::formats
