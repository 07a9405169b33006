#include "formats/onnx/onnx_graph_builder.hpp"

#include <cmath>
#include <cstring>

#include "ops/number_cast.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::formats::onnx_export {

namespace {

[[noreturn]] void internal_error(const std::string& message) {
  throw_error(ErrorKind::kUnknownError, "ONNX export: " + message);
}

// The bytes of `src` (shape `shape`, `elem` bytes per element) with its axes permuted: output axis
// i is input axis perm[i].
std::vector<std::byte> permute_bytes(std::span<const std::byte> src, const Shape& shape,
                                     const std::vector<uint32_t>& perm, size_t elem) {
  const size_t rank = shape.size();
  std::vector<size_t> in_strides(rank, 1);
  for (size_t i = rank; i-- > 1;) in_strides[i - 1] = in_strides[i] * shape[i];
  Shape out_shape(rank);
  for (size_t i = 0; i < rank; ++i) out_shape[i] = shape[perm[i]];
  std::vector<std::byte> out(src.size());
  std::vector<size_t> index(rank, 0);
  const size_t count = elem == 0 ? 0 : src.size() / elem;
  for (size_t n = 0; n < count; ++n) {
    size_t offset = 0;
    for (size_t i = 0; i < rank; ++i) offset += index[i] * in_strides[perm[i]];
    std::memcpy(out.data() + n * elem, src.data() + offset * elem, elem);
    for (size_t i = rank; i-- > 0;) {  // next output index, last axis fastest
      if (++index[i] < out_shape[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

}  // namespace

uint64_t Val::element_count() const {
  uint64_t n = 1;
  for (uint32_t d : shape) n *= d;
  return n;
}

onnx::AttributeProto attr_i(const std::string& name, int64_t value) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(value);
  return a;
}

onnx::AttributeProto attr_f(const std::string& name, double value) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(static_cast<float>(value));
  return a;
}

onnx::AttributeProto attr_s(const std::string& name, const std::string& value) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::STRING);
  a.set_s(value);
  return a;
}

onnx::AttributeProto attr_ints(const std::string& name, const std::vector<int64_t>& values) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) a.add_ints(v);
  return a;
}

onnx::AttributeProto attr_strings(const std::string& name, const std::vector<std::string>& values) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::STRINGS);
  for (const std::string& v : values) a.add_strings(v);
  return a;
}

std::vector<int64_t> to_int64s(const std::vector<uint32_t>& values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

// ---- Names and nodes ----

void OnnxGraphBuilder::claim(const std::string& name) {
  if (!names_.insert(name).second) internal_error("the name \"" + name + "\" is used twice");
}

std::string OnnxGraphBuilder::unique_name(const std::string& hint) {
  std::string base = hint.empty() ? "t" : hint;
  if (names_.insert(base).second) return base;
  int& n = next_suffix_[base];
  for (;;) {
    std::string candidate = base + "_" + std::to_string(++n);
    if (names_.insert(candidate).second) return candidate;
  }
}

Val OnnxGraphBuilder::temp(ElemType type, Shape shape, const std::string& hint) {
  return Val{unique_name(node_prefix_.empty() ? hint : node_prefix_ + "/" + hint), type, std::move(shape)};
}

void OnnxGraphBuilder::node(std::string_view op_type, const std::vector<Val>& inputs, const std::vector<Val>& outputs,
                            Attrs attrs) {
  onnx::NodeProto* n = graph_.add_node();
  n->set_op_type(std::string(op_type));
  n->set_name((node_prefix_.empty() ? std::string("node") : node_prefix_) + "/" + std::string(op_type) + "_" +
              std::to_string(node_count_++));
  for (const Val& v : inputs) n->add_input(v.name);
  for (const Val& v : outputs) {
    n->add_output(v.name);
    if (!v.name.empty() && !defined_.insert(v.name).second) internal_error(v.name + " is produced twice");
  }
  for (onnx::AttributeProto& a : attrs) *n->add_attribute() = std::move(a);
}

Val OnnxGraphBuilder::apply(std::string_view op_type, const std::vector<Val>& inputs, ElemType type, Shape shape,
                            Attrs attrs, const Val* into) {
  if (into && (into->type != type || into->shape != shape))
    internal_error(std::string(op_type) + " into " + into->name + ": result type or shape differs");
  Val out = into ? *into : temp(type, std::move(shape));
  node(op_type, inputs, {out}, std::move(attrs));
  return out;
}

// ---- Initializers ----

Val OnnxGraphBuilder::initializer(ElemType type, const Shape& shape, std::span<const std::byte> bytes,
                                  const std::string& hint) {
  Val v{unique_name(hint), type, shape};
  if (bytes.size() != v.element_count() * onnx_element_size(type))
    internal_error("initializer " + v.name + " holds " + std::to_string(bytes.size()) + " bytes, expected " +
                   std::to_string(v.element_count() * onnx_element_size(type)));
  onnx::TensorProto* t = graph_.add_initializer();
  t->set_name(v.name);
  t->set_data_type(type);
  for (uint32_t d : shape) t->add_dims(d);
  t->set_raw_data(bytes.data(), bytes.size());  // little-endian, as the machine and ONNX store it
  initializers_[v.name] = t;
  defined_.insert(v.name);
  return v;
}

std::optional<std::span<const std::byte>> OnnxGraphBuilder::constant_bytes(const Val& v) const {
  auto it = initializers_.find(v.name);
  if (it == initializers_.end()) return std::nullopt;
  const std::string& raw = it->second->raw_data();
  return std::span<const std::byte>(reinterpret_cast<const std::byte*>(raw.data()), raw.size());
}

Val OnnxGraphBuilder::int64s(const std::vector<int64_t>& values) {
  return initializer(kI64, {static_cast<uint32_t>(values.size())},
                     std::as_bytes(std::span<const int64_t>(values.data(), values.size())), "i64");
}

Val OnnxGraphBuilder::int64_scalar(int64_t value) {
  return initializer(kI64, {}, std::as_bytes(std::span<const int64_t>(&value, 1)), "i64");
}

Val OnnxGraphBuilder::filled(ElemType type, const Shape& shape, const Number& value, const std::string& hint) {
  const size_t elem = onnx_element_size(type);
  std::vector<std::byte> one(elem);
  if (type == kF64) {
    double d = value.as_double();
    std::memcpy(one.data(), &d, 8);
  } else if (type == kBool) {
    one[0] = std::byte(value.as_double() != 0 ? 1 : 0);
  } else {
    DataType t = DataType::kFloat32;
    for (DataType candidate : kAllDataTypes)
      if (onnx_type(candidate) == type) t = candidate;
    ops::store_number(value, t, one.data());
  }
  uint64_t count = 1;
  for (uint32_t d : shape) count *= d;
  std::vector<std::byte> bytes(count * elem);
  for (uint64_t i = 0; i < count; ++i) std::memcpy(bytes.data() + i * elem, one.data(), elem);
  return initializer(type, shape, bytes, hint);
}

// ---- Patterns ----

Val OnnxGraphBuilder::cast(const Val& x, ElemType to, const Val* into) {
  if (x.type == to && !into) return x;
  return apply("Cast", {x}, to, x.shape, {attr_i("to", to)}, into);
}

Val OnnxGraphBuilder::transpose(const Val& x, const std::vector<uint32_t>& perm, const Val* into) {
  Shape shape(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) shape[i] = x.shape.at(perm[i]);
  bool is_identity = true;
  for (size_t i = 0; i < perm.size(); ++i) is_identity = is_identity && perm[i] == i;
  if (is_identity && !into) return x;
  if (auto bytes = constant_bytes(x); bytes && !into)
    return initializer(x.type, shape, permute_bytes(*bytes, x.shape, perm, onnx_element_size(x.type)),
                       x.name + "_transposed");
  return apply("Transpose", {x}, x.type, shape, {attr_ints("perm", to_int64s(perm))}, into);
}

Val OnnxGraphBuilder::reshape(const Val& x, const Shape& shape, const Val* into) {
  if (x.shape == shape && !into) return x;
  if (auto bytes = constant_bytes(x); bytes && !into) return initializer(x.type, shape, *bytes, x.name + "_reshaped");
  std::vector<int64_t> dims(shape.begin(), shape.end());
  return apply("Reshape", {x, int64s(dims)}, x.type, shape, {}, into);
}

Val OnnxGraphBuilder::identity(const Val& x, const Val* into) {
  return apply("Identity", {x}, x.type, x.shape, {}, into);
}

Val OnnxGraphBuilder::expand(const Val& x, const Shape& shape, const Val* into) {
  if (x.shape == shape && !into) return x;
  std::optional<Shape> out = ops::broadcast_bidirectional(x.shape, shape);
  if (!out) internal_error("cannot expand " + shape_to_string(x.shape) + " to " + shape_to_string(shape));
  std::vector<int64_t> dims(shape.begin(), shape.end());
  return apply("Expand", {x, int64s(dims)}, x.type, *out, {}, into);
}

Val OnnxGraphBuilder::binary(std::string_view op_type, const Val& a, const Val& b, const Val* into) {
  std::optional<Shape> shape = ops::broadcast_bidirectional(a.shape, b.shape);
  if (!shape)
    internal_error(std::string(op_type) + ": " + shape_to_string(a.shape) + " and " + shape_to_string(b.shape) +
                   " do not broadcast");
  ElemType type = a.type;
  if (op_type == "Equal" || op_type == "Less" || op_type == "Greater" || op_type == "LessOrEqual" ||
      op_type == "GreaterOrEqual" || op_type == "And" || op_type == "Or" || op_type == "Xor")
    type = kBool;
  return apply(op_type, {a, b}, type, *shape, {}, into);
}

Val OnnxGraphBuilder::unary(std::string_view op_type, const Val& x, const Val* into, Attrs attrs) {
  ElemType type = x.type;
  if (op_type == "IsNaN" || op_type == "IsInf" || op_type == "Not") type = kBool;
  return apply(op_type, {x}, type, x.shape, std::move(attrs), into);
}

Val OnnxGraphBuilder::slice(const Val& x, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                            const std::vector<int64_t>& axes, const std::vector<int64_t>& steps, const Val* into) {
  Shape shape = x.shape;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t dim = x.shape.at(static_cast<size_t>(axes[i]));
    auto clamp_index = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0) v += dim;
      return std::min(std::max(v, lo), hi);
    };
    const int64_t step = steps[i];
    int64_t count = 0;
    if (step > 0) {
      const int64_t s = clamp_index(starts[i], 0, dim), e = clamp_index(ends[i], 0, dim);
      count = e > s ? (e - s + step - 1) / step : 0;
    } else {
      const int64_t s = clamp_index(starts[i], 0, dim - 1);
      const int64_t e = ends[i] <= -dim - 1 ? -1 : clamp_index(ends[i], -1, dim - 1);
      count = s > e ? (s - e + (-step) - 1) / (-step) : 0;
    }
    shape[static_cast<size_t>(axes[i])] = static_cast<uint32_t>(count);
  }
  return apply("Slice", {x, int64s(starts), int64s(ends), int64s(axes), int64s(steps)}, x.type, shape, {}, into);
}

Val OnnxGraphBuilder::concat(const std::vector<Val>& parts, uint32_t axis, const Val* into) {
  if (parts.size() == 1 && !into) return parts[0];
  Shape shape = parts.at(0).shape;
  shape.at(axis) = 0;
  for (const Val& p : parts) shape[axis] += p.shape.at(axis);
  return apply("Concat", parts, parts[0].type, shape, {attr_i("axis", axis)}, into);
}

std::vector<Val> OnnxGraphBuilder::split(const Val& x, uint32_t axis, const std::vector<uint32_t>& sizes) {
  std::vector<Val> parts;
  for (uint32_t s : sizes) {
    Shape shape = x.shape;
    shape.at(axis) = s;
    parts.push_back(temp(x.type, shape));
  }
  std::vector<int64_t> split(sizes.begin(), sizes.end());
  node("Split", {x, int64s(split)}, parts, {attr_i("axis", axis)});
  return parts;
}

Val OnnxGraphBuilder::where(const Val& condition, const Val& x, const Val& y, const Val* into) {
  std::optional<Shape> xy = ops::broadcast_bidirectional(x.shape, y.shape);
  std::optional<Shape> shape = xy ? ops::broadcast_bidirectional(condition.shape, *xy) : std::nullopt;
  if (!shape) internal_error("Where: the shapes do not broadcast");
  return apply("Where", {condition, x, y}, x.type, *shape, {}, into);
}

Val OnnxGraphBuilder::permute_blocks(const Val& x, uint32_t axis, const std::vector<uint32_t>& order) {
  bool is_identity = true;
  for (size_t i = 0; i < order.size(); ++i) is_identity = is_identity && order[i] == i;
  if (is_identity) return x;
  const uint32_t block = x.shape.at(axis) / static_cast<uint32_t>(order.size());
  if (auto bytes = constant_bytes(x)) {
    size_t outer = 1, inner = onnx_element_size(x.type);
    for (size_t i = 0; i < axis; ++i) outer *= x.shape[i];
    for (size_t i = axis + 1; i < x.shape.size(); ++i) inner *= x.shape[i];
    const size_t block_bytes = block * inner, row_bytes = x.shape[axis] * inner;
    std::vector<std::byte> out(bytes->size());
    for (size_t o = 0; o < outer; ++o)
      for (size_t i = 0; i < order.size(); ++i)
        std::memcpy(out.data() + o * row_bytes + i * block_bytes,
                    bytes->data() + o * row_bytes + order[i] * block_bytes, block_bytes);
    return initializer(x.type, x.shape, out, x.name + "_regated");
  }
  std::vector<Val> parts = split(x, axis, std::vector<uint32_t>(order.size(), block));
  std::vector<Val> reordered;
  reordered.reserve(order.size());
  for (uint32_t i : order) reordered.push_back(parts.at(i));
  return concat(reordered, axis);
}

void OnnxGraphBuilder::prune_initializers() {
  std::set<std::string> used;
  for (const onnx::NodeProto& n : graph_.node())
    for (const std::string& name : n.input()) used.insert(name);
  for (const onnx::ValueInfoProto& o : graph_.output()) used.insert(o.name());
  auto* list = graph_.mutable_initializer();
  for (int i = list->size(); i-- > 0;) {
    if (used.count(list->Get(i).name())) continue;
    initializers_.erase(list->Get(i).name());
    list->DeleteSubrange(i, 1);
  }
}

}  // namespace webnn::formats::onnx_export
