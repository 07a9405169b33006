// ONNX import: sequences. WebNN has tensors only, so an ONNX sequence is a list of operands the
// importer holds (Value::items), whose length and positions must be known when the graph is built:
// SequenceConstruct, SequenceEmpty, SequenceAt, SequenceInsert, SequenceErase, SequenceLength,
// SplitToSequence, ConcatFromSequence and SequenceMap (its body inlined once per item) become
// slices, concats and the items' own operations. A graph input or output that is a sequence stays
// unsupported (docs/onnx.md, "Sequences").
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

const std::vector<Value>& items_of(const NodeCtx& c, size_t i) {
  const Value& v = c.in(i);
  if (!v.items) c.invalid("input " + std::to_string(i) + " (\"" + c.input_name(i) + "\") is a tensor, not a sequence");
  return *v.items;
}

Value sequence(DataType type, bool is_bool, std::vector<Value> items) {
  Value v;
  v.desc = {type, {}};
  v.is_bool = is_bool;
  v.items = std::make_shared<const std::vector<Value>>(std::move(items));
  return v;
}

std::string type_name(DataType type, bool is_bool) { return is_bool ? "bool" : std::string(to_string(type)); }

// Input i as an item: the value with its operand (a constant of its bytes, kept in the graph, when
// it is known), of the sequence's type.
Value item_of(const NodeCtx& c, size_t i, const Value& seq) {
  const OperandId id = c.operand(i);
  Value v = c.in(i);
  v.id = id;
  if (v.desc.data_type != seq.desc.data_type || v.is_bool != seq.is_bool)
    c.invalid("input " + std::to_string(i) + " is " + type_name(v.desc.data_type, v.is_bool) + ", the sequence holds " +
              type_name(seq.desc.data_type, seq.is_bool));
  return v;
}

// The position of input i, known when the graph is built, in [-n, n - 1] (or [-n, n] where `end`
// may be named), counted from the front.
size_t position(const NodeCtx& c, size_t i, size_t n, bool end) {
  const std::vector<int64_t> p = c.const_ints(i, "the position");
  if (p.size() != 1) c.invalid("the position has " + std::to_string(p.size()) + " elements, not one");
  const int64_t size = int64_t(n), last = end ? size : size - 1;
  if (p[0] < -size || p[0] > last)
    c.invalid("position " + std::to_string(p[0]) + " is outside [" + std::to_string(-size) + ", " +
              std::to_string(last) + "] for a sequence of " + std::to_string(n));
  return size_t(p[0] < 0 ? p[0] + size : p[0]);
}

void lower_sequence_construct(const NodeCtx& c) {
  if (c.input_count() == 0) c.invalid("needs at least one input");
  Value first = c.in(0);
  Value seq = sequence(first.desc.data_type, first.is_bool, {});
  std::vector<Value> items;
  for (size_t i = 0; i < c.input_count(); ++i) items.push_back(item_of(c, i, seq));
  c.set_value_out(0, sequence(first.desc.data_type, first.is_bool, std::move(items)));
}

void lower_sequence_empty(const NodeCtx& c) {
  bool is_bool = false;
  std::string name;
  const auto type = webnn_type(int32_t(c.attr_i("dtype", onnx::TensorProto::FLOAT)), &is_bool, &name);
  if (!type) c.unsupported("WebNN has no " + name + " data type");
  c.set_value_out(0, sequence(*type, is_bool, {}));
}

void lower_sequence_at(const NodeCtx& c) {
  const std::vector<Value>& items = items_of(c, 0);
  if (items.empty()) c.invalid("the sequence is empty");
  c.set_value_out(0, items[position(c, 1, items.size(), false)]);
}

void lower_sequence_insert(const NodeCtx& c) {
  const Value& seq = c.in(0);
  std::vector<Value> items = items_of(c, 0);
  const size_t at = c.has_input(2) ? position(c, 2, items.size(), true) : items.size();
  items.insert(items.begin() + at, item_of(c, 1, seq));
  c.set_value_out(0, sequence(seq.desc.data_type, seq.is_bool, std::move(items)));
}

void lower_sequence_erase(const NodeCtx& c) {
  const Value& seq = c.in(0);
  std::vector<Value> items = items_of(c, 0);
  if (items.empty()) c.invalid("the sequence is empty");
  const size_t at = c.has_input(1) ? position(c, 1, items.size(), false) : items.size() - 1;
  items.erase(items.begin() + at);
  c.set_value_out(0, sequence(seq.desc.data_type, seq.is_bool, std::move(items)));
}

void lower_sequence_length(const NodeCtx& c) {
  const int64_t n = int64_t(items_of(c, 0).size());
  c.set_const_out(0, {DataType::kInt64, {}}, bytes_of_int64s(DataType::kInt64, {n}));
}

// SplitToSequence: the pieces of input 0 along `axis` (slices): of the sizes `split` gives, of
// its one size (the last piece shorter), or of 1 each (without the axis where keepdims is 0).
void lower_split_to_sequence(const NodeCtx& c) {
  const Value& x = c.in(0);
  const OperandId id = c.operand(0);
  const Shape& shape = x.desc.shape;
  if (shape.empty()) c.invalid("the input is a scalar: there is no axis to split");
  const uint32_t axis = c.axis(c.attr_i("axis", 0), shape.size());
  const uint32_t length = shape[axis];
  std::vector<int64_t> split;
  if (c.has_input(1)) split = c.const_ints(1, "split");
  const bool one_size = c.has_input(1) && c.rank(1) == 0;
  if (one_size && split.at(0) <= 0) c.invalid("split " + std::to_string(split[0]) + " is not a positive size");
  // Each piece is an operation the builder holds: charged as a node of an inlined body is, before
  // any is made (a split of 2^31 pieces is refused, not attempted).
  const uint64_t pieces = !c.has_input(1) ? length
                          : one_size      ? (split[0] >= length ? 1 : (length + split[0] - 1) / split[0])
                                          : split.size();
  c.im.charge_built(pieces * kInlinedNodeBytes, c.where(), std::to_string(pieces) + " pieces");
  std::vector<uint32_t> sizes;
  bool squeeze = false;
  if (!c.has_input(1)) {
    sizes.assign(length, 1);
    squeeze = c.attr_i("keepdims", 1) == 0;
  } else {
    if (one_size) {
      for (int64_t left = length; left > 0; left -= split[0]) sizes.push_back(uint32_t(std::min(left, split[0])));
    } else {
      int64_t total = 0;
      for (int64_t s : split) {  // each at most the axis' length: no sum overflows
        if (s <= 0) c.unsupported("split holds " + std::to_string(s) + ": an empty piece (WebNN has no empty tensors)");
        if (s > length)
          c.invalid("split holds " + std::to_string(s) + ", more than the axis' " + std::to_string(length));
        total += s;
        sizes.push_back(uint32_t(s));
      }
      if (total != length)
        c.invalid("split sums to " + std::to_string(total) + ", the axis has " + std::to_string(length));
    }
  }
  Shape without = shape;
  without.erase(without.begin() + axis);
  std::vector<Value> items;
  uint32_t start = 0;
  for (uint32_t size : sizes) {
    const OperandId piece = slice_axis(c, id, axis, start, size);
    items.push_back(operand_value(c, squeeze ? c.reshape(piece, without) : piece, x.is_bool));
    start += size;
  }
  c.set_value_out(0, sequence(x.desc.data_type, x.is_bool, std::move(items)));
}

// ConcatFromSequence: the items concatenated along `axis`, or stacked along a new one (new_axis).
void lower_concat_from_sequence(const NodeCtx& c) {
  const std::vector<Value>& items = items_of(c, 0);
  if (items.empty()) c.unsupported("the sequence is empty (WebNN has no empty tensors)");
  const bool new_axis = c.attr_i("new_axis", 0) != 0;
  const size_t rank = items[0].desc.shape.size() + (new_axis ? 1 : 0);
  if (!c.has_attr("axis")) c.invalid("attribute axis is required");
  const uint32_t axis = c.axis(c.attr_i("axis", 0), rank);
  std::vector<OperandId> parts;
  for (const Value& item : items) parts.push_back(*item.id);
  if (new_axis) return c.set_out(0, stack(c, parts, axis), items[0].is_bool);
  // One item is the output as it is, through an operation of its own rather than under a second
  // name for the item's operand.
  const OperandId out =
      parts.size() == 1 ? c.add(OpKind::kIdentity, {parts[0]}) : c.add(OpKind::kConcat, parts, ConcatAttrs{axis});
  c.set_out(0, out, items[0].is_bool);
}

// SequenceMap: the body once per position of the input sequences (the other inputs whole); each
// body output is a sequence of its values.
void lower_sequence_map(const NodeCtx& c) {
  const onnx::AttributeProto* a = c.attr("body");
  if (!a || a->type() != onnx::AttributeProto::GRAPH) c.invalid("attribute body is missing or not a graph");
  const onnx::GraphProto& body = a->g();
  if (size_t(body.output_size()) != c.output_count())
    c.invalid("the body has " + std::to_string(body.output_size()) + " outputs, the node " +
              std::to_string(c.output_count()));
  std::optional<size_t> length;
  for (size_t i = 0; i < c.input_count(); ++i) {
    if (!c.in(i).items) {
      if (i == 0) c.invalid("input 0 is a tensor, not a sequence");
      continue;
    }
    const size_t n = c.in(i).items->size();
    if (length && *length != n)
      c.invalid("input " + std::to_string(i) + " holds " + std::to_string(n) + " items, input 0 " +
                std::to_string(*length));
    length = n;
  }
  c.im.reserve(inlining_bytes(body, *length), 0, c.where(),
               std::to_string(*length) + " uses of a body of " + std::to_string(node_count(body)) + " nodes");
  std::vector<std::vector<Value>> outputs(c.output_count());
  std::vector<Value> first(c.output_count());
  for (size_t k = 0; k < *length; ++k) {
    std::vector<Value> bound;
    for (size_t i = 0; i < c.input_count(); ++i) bound.push_back(c.in(i).items ? (*c.in(i).items)[k] : c.in(i));
    Inlined out = inline_graph(c, body, bound, "item " + std::to_string(k));
    for (size_t o = 0; o < out.size(); ++o) {
      const OperandId id = out.operand(o);
      Value v = out.value(o);
      v.id = id;
      outputs[o].push_back(std::move(v));
    }
  }
  for (size_t o = 0; o < c.output_count(); ++o) {
    // An empty map's sequences take the type the body declares for its output (a tensor's).
    DataType type = DataType::kFloat32;
    bool is_bool = false;
    if (!outputs[o].empty()) {
      type = outputs[o][0].desc.data_type;
      is_bool = outputs[o][0].is_bool;
    } else if (const auto& t = body.output(int(o)).type(); t.has_tensor_type() && t.tensor_type().elem_type()) {
      std::string name;
      const auto declared = webnn_type(t.tensor_type().elem_type(), &is_bool, &name);
      if (!declared) c.unsupported("output " + std::to_string(o) + ": WebNN has no " + name + " data type");
      type = *declared;
    }
    c.set_value_out(o, sequence(type, is_bool, std::move(outputs[o])));
  }
}

}  // namespace

bool takes_sequence(std::string_view op_type, size_t i) {
  if (op_type == "Identity" || op_type == "SequenceAt" || op_type == "SequenceInsert" || op_type == "SequenceErase" ||
      op_type == "SequenceLength" || op_type == "ConcatFromSequence")
    return i == 0;
  return op_type == "SequenceMap" || (op_type == "Loop" && i >= 2);
}

Lowerings sequence_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"SequenceConstruct", lower_sequence_construct},
      {"SequenceEmpty", lower_sequence_empty},
      {"SequenceAt", lower_sequence_at},
      {"SequenceInsert", lower_sequence_insert},
      {"SequenceErase", lower_sequence_erase},
      {"SequenceLength", lower_sequence_length},
      {"SplitToSequence", lower_split_to_sequence},
      {"ConcatFromSequence", lower_concat_from_sequence},
      {"SequenceMap", lower_sequence_map},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
