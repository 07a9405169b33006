// ONNX import: control flow. WebNN has no subgraphs, so If, Loop and Scan are lowered by inlining
// their bodies (inline_graph) as many times as they run, which must be known when the graph is
// built; If alone may take a condition known only at run time, when its branches give outputs of
// one type and shape: both run, and where() takes each output from one (docs/onnx.md, "Control
// flow").
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

const onnx::GraphProto& graph_attr(const NodeCtx& c, std::string_view name) {
  const onnx::AttributeProto* a = c.attr(name);
  if (!a) c.invalid("attribute " + std::string(name) + " is missing");
  if (a->type() != onnx::AttributeProto::GRAPH) c.invalid("attribute " + std::string(name) + " is not a graph");
  return a->g();
}

// Whether the one element of a value known when the graph is built is nonzero. `what` names it.
bool known_truth(const NodeCtx& c, const Value& v, const std::string& what) {
  if (v.desc.element_count() != 1u) c.invalid(what + " is " + v.desc.to_string() + ", not one element");
  return host_int64_at(v.desc, *v.data, 0) != 0;
}

Value known_scalar(DataType type, int64_t x, bool is_bool = false) {
  Value v;
  v.desc = {type, {}};
  v.is_bool = is_bool;
  v.data = bytes_of_int64s(type, {x});
  return v;
}

// Item `index` along `axis` of `x`, without that axis.
OperandId item(const NodeCtx& c, OperandId x, uint32_t axis, uint32_t index) {
  Shape without = c.desc_of(x).shape;
  without.erase(without.begin() + axis);
  return c.reshape(slice_axis(c, x, axis, index, 1), without);
}

// The operand of a value that has one, else a constant of its bytes; a widened double has none.
OperandId operand_of(const NodeCtx& c, const Value& v) {
  if (v.widened) c.unsupported("a loop-carried value is a double (WebNN has no double data type)");
  return v.id ? *v.id : c.constant(v.desc, *v.data);
}

void check_outputs(const NodeCtx& c, const Inlined& out, size_t expected, const std::string& what) {
  if (out.size() != expected)
    c.invalid(what + " gives " + std::to_string(out.size()) + " outputs, the node has " + std::to_string(expected));
}

void lower_if(const NodeCtx& c) {
  const onnx::GraphProto& then_branch = graph_attr(c, "then_branch");
  const onnx::GraphProto& else_branch = graph_attr(c, "else_branch");
  const Value& cond = c.in(0);
  if (cond.desc.element_count() != 1u) c.invalid("the condition is " + cond.desc.to_string() + ", not one element");
  if (cond.data) {  // known: the branch taken is the node
    const bool taken = known_truth(c, cond, "the condition");
    Inlined out = inline_graph(c, taken ? then_branch : else_branch, {}, taken ? "then_branch" : "else_branch");
    check_outputs(c, out, c.output_count(), taken ? "then_branch" : "else_branch");
    for (size_t i = 0; i < out.size(); ++i) c.set_value_out(i, out.value(i));
    return;
  }
  Inlined then_out = inline_graph(c, then_branch, {}, "then_branch");
  Inlined else_out = inline_graph(c, else_branch, {}, "else_branch");
  check_outputs(c, then_out, c.output_count(), "then_branch");
  check_outputs(c, else_out, c.output_count(), "else_branch");
  const OperandId k = c.reshape(c.operand(0), {});
  for (size_t i = 0; i < c.output_count(); ++i) {
    if (!c.wants_output(i)) continue;
    const Value &a = then_out.value(i), &b = else_out.value(i);
    if (!(a.desc == b.desc) || a.is_bool != b.is_bool)
      c.unsupported("output " + std::to_string(i) + ": then_branch gives " + a.desc.to_string() + " and else_branch " +
                    b.desc.to_string() +
                    "; with a condition known only at run time both branches run and where() takes each output "
                    "from one, which needs one type and shape (a condition known when the graph is built takes "
                    "one branch: freeze the input it is computed from)");
    c.set_out(i, c.add(OpKind::kWhere, {k, then_out.operand(i), else_out.operand(i)}), a.is_bool);
  }
}

// Loop (opsets 1 to 16): each iteration is one use of the body. With M known, a condition known
// only at run time (given, or computed by the body) masks the iterations from there on; without M
// the conditions must be known when the graph is built.
void lower_loop(const NodeCtx& c) {
  const onnx::GraphProto& body = graph_attr(c, "body");
  const size_t carried = c.input_count() > 2 ? c.input_count() - 2 : 0;
  if (size_t(body.input_size()) != 2 + carried)
    c.invalid("the body has " + std::to_string(body.input_size()) + " inputs; it needs 2 + " + std::to_string(carried) +
              " (the iteration number, the condition and the loop-carried values)");
  if (size_t(body.output_size()) < 1 + carried)
    c.invalid("the body has " + std::to_string(body.output_size()) + " outputs; it needs at least 1 + " +
              std::to_string(carried) + " (the condition and the loop-carried values)");
  const size_t scans = size_t(body.output_size()) - 1 - carried;
  if (c.output_count() != carried + scans)
    c.invalid("the node has " + std::to_string(c.output_count()) + " outputs; its body gives " +
              std::to_string(carried) + " loop-carried values and " + std::to_string(scans) + " scan outputs");
  std::optional<int64_t> trips;
  if (c.has_input(0)) {
    const std::vector<int64_t> m = c.const_ints(0, "the trip count M");
    if (m.size() != 1) c.invalid("the trip count M has " + std::to_string(m.size()) + " elements, not one");
    trips = m[0];
  }
  bool go = true;
  const bool conditional = c.has_input(1);
  // Once the loop's condition is known only at run time, each iteration left runs masked: its
  // carried values are where(active, new, old), and active is the running and of the conditions.
  std::optional<OperandId> active;
  auto mask_from_here = [&](const std::string& use, OperandId condition) {
    if (!trips)
      c.unsupported(use +
                    "the loop's condition is known only at run time and it has no trip count M (the "
                    "number of iterations must be bounded when the graph is built)");
    if (scans)
      c.unsupported(use + "the loop's condition is known only at run time, so its " + std::to_string(scans) +
                    " scan outputs would have a length known only at run time");
    const OperandId k = c.reshape(condition, {});
    active = active ? c.add(OpKind::kLogicalAnd, {*active, k}) : k;
  };
  if (conditional) {
    const Value& k = c.in(1);
    if (k.desc.element_count() != 1u) c.invalid("the condition is " + k.desc.to_string() + ", not one element");
    // Masked where it can be; otherwise (no M, or scan outputs) the condition must be known when
    // the graph is built, which names the graph input it comes from (--freeze).
    if (trips && !scans && !k.data)
      mask_from_here("", c.operand(1));
    else
      go = c.const_ints(1, "the condition").at(0) != 0;
  }
  if (!trips && !conditional) c.unsupported("it has neither a trip count nor a condition: the loop never ends");

  // A loop of a known length is checked against the memory budget before it is unrolled.
  if (trips && (!conditional || active) && *trips > 0)
    c.im.reserve(inlining_bytes(body, uint64_t(*trips)), 0, c.where(),
                 std::to_string(*trips) + " iterations of a body of " + std::to_string(node_count(body)) + " nodes");
  std::vector<Value> state;
  for (size_t j = 0; j < carried; ++j) state.push_back(c.in(2 + j));
  std::vector<std::vector<OperandId>> stacked(scans);
  std::vector<bool> scan_bool(scans);
  for (int64_t i = 0; go && (!trips || i < *trips); ++i) {
    std::vector<Value> bound = {known_scalar(DataType::kInt64, i),
                                active ? operand_value(c, *active, true) : known_scalar(DataType::kUint8, 1, true)};
    bound.insert(bound.end(), state.begin(), state.end());
    const std::string use = "iteration " + std::to_string(i);
    Inlined out = inline_graph(c, body, bound, use);
    for (size_t j = 0; j < carried; ++j) {
      if (!active) {
        state[j] = out.value(1 + j);
        continue;
      }
      const Value& now = out.value(1 + j);
      if (now.items || state[j].items)
        c.unsupported(use + ": loop-carried value " + std::to_string(j) +
                      " is a sequence, which a loop whose condition is known only at run time cannot take");
      if (!(now.desc == state[j].desc) || now.is_bool != state[j].is_bool)
        c.unsupported(use + ": loop-carried value " + std::to_string(j) + " goes from " + state[j].desc.to_string() +
                      " to " + now.desc.to_string() +
                      ", which a loop whose condition is known only at run time cannot take");
      state[j] =
          operand_value(c, c.add(OpKind::kWhere, {*active, out.operand(1 + j), operand_of(c, state[j])}), now.is_bool);
    }
    for (size_t k = 0; k < scans; ++k) {
      stacked[k].push_back(out.operand(1 + carried + k));
      scan_bool[k] = out.value(1 + carried + k).is_bool;
    }
    if (conditional) {
      const Value& k = out.value(0);
      if (k.desc.element_count() != 1u)
        c.invalid(use + ": the condition the body computes is " + k.desc.to_string() + ", not one element");
      if (!active && k.data)
        go = known_truth(c, k, use + ": the condition the body computes");
      else
        mask_from_here(use + ": ", out.operand(0));
    }
  }
  for (size_t j = 0; j < carried; ++j) c.set_value_out(j, state[j]);
  for (size_t k = 0; k < scans; ++k) {
    if (!c.wants_output(carried + k)) continue;
    if (stacked[k].empty())
      c.unsupported("scan output " + std::to_string(k) +
                    ": the loop runs no iteration, and WebNN has no empty tensors");
    c.set_out(carried + k, stack(c, stacked[k], 0), scan_bool[k]);
  }
}

// What one run of a Scan's body over its sequence gives: the final state values and each scan
// output's items stacked.
struct Scanned {
  std::vector<Value> state;
  std::vector<OperandId> outputs;
  std::vector<bool> output_bool;
};

// The steps of a Scan (opset 9's form): `inputs` (operands) scanned along `axes` (reversed where
// `reversed`), the scan outputs stacked along `out_axes` (an axis of the output, which has one
// more; reversed where `out_reversed`). `prefix` starts each step's name.
Scanned scan_steps(const NodeCtx& c, const onnx::GraphProto& body, std::vector<Value> state,
                   const std::vector<Value>& inputs, const std::vector<int64_t>& axes,
                   const std::vector<int64_t>& reversed, const std::vector<int64_t>& out_axes,
                   const std::vector<int64_t>& out_reversed, const std::string& prefix) {
  const size_t outputs = size_t(body.output_size()) - state.size();
  std::vector<uint32_t> in_axes;
  std::optional<uint32_t> length;
  for (size_t j = 0; j < inputs.size(); ++j) {
    const Shape& shape = inputs[j].desc.shape;
    in_axes.push_back(c.axis(axes[j], shape.size(), "scan_input_axes[" + std::to_string(j) + "]"));
    const uint32_t n = shape[in_axes[j]];
    if (length && *length != n)
      c.invalid("scan input " + std::to_string(j) + " has " + std::to_string(n) +
                " items along its axis, scan input 0 " + std::to_string(*length));
    length = n;
  }
  if (!length || *length == 0) c.unsupported("the scan inputs are empty (WebNN has no empty tensors)");
  c.im.reserve(inlining_bytes(body, *length), 0, c.where(),
               prefix + std::to_string(*length) + " steps of a body of " + std::to_string(node_count(body)) + " nodes");
  std::vector<std::vector<OperandId>> items(outputs);
  Scanned result;
  result.output_bool.resize(outputs);
  for (uint32_t t = 0; t < *length; ++t) {
    std::vector<Value> bound = state;
    for (size_t j = 0; j < inputs.size(); ++j) {
      const uint32_t at = reversed[j] ? *length - 1 - t : t;
      bound.push_back(operand_value(c, item(c, *inputs[j].id, in_axes[j], at), inputs[j].is_bool));
    }
    Inlined out = inline_graph(c, body, bound, prefix + "step " + std::to_string(t));
    for (size_t s = 0; s < state.size(); ++s) state[s] = out.value(s);
    for (size_t k = 0; k < outputs; ++k) {
      items[k].push_back(out.operand(state.size() + k));
      result.output_bool[k] = out.value(state.size() + k).is_bool;
    }
  }
  for (size_t k = 0; k < outputs; ++k) {
    if (out_reversed[k]) std::reverse(items[k].begin(), items[k].end());
    const size_t rank = c.desc_of(items[k].at(0)).shape.size() + 1;
    result.outputs.push_back(
        stack(c, items[k], c.axis(out_axes[k], rank, "scan_output_axes[" + std::to_string(k) + "]")));
  }
  result.state = std::move(state);
  return result;
}

// An attribute of `count` ints, each 0 when absent; `what` names it in errors.
std::vector<int64_t> per_item(const NodeCtx& c, std::string_view name, size_t count) {
  std::vector<int64_t> v = c.attr_ints(name);
  if (!c.has_attr(name)) v.assign(count, 0);
  if (v.size() != count)
    c.invalid("attribute " + std::string(name) + " has " + std::to_string(v.size()) + " values, not " +
              std::to_string(count));
  return v;
}

void check_directions(const NodeCtx& c, const std::vector<int64_t>& directions, std::string_view name) {
  for (int64_t d : directions)
    if (d != 0 && d != 1) c.invalid("attribute " + std::string(name) + " holds " + std::to_string(d) + ", not 0 or 1");
}

// Scan: opset 8's form (a batch axis first, sequence_lens) or opset 9's (no batch, any scan axis).
void lower_scan(const NodeCtx& c) {
  const onnx::GraphProto& body = graph_attr(c, "body");
  const bool batched = c.opset < 9;
  const size_t first = batched ? 1 : 0;  // opset 8: input 0 is sequence_lens
  const int64_t m = c.attr_i("num_scan_inputs", -1);
  if (m < 1 || size_t(m) > c.input_count() - std::min(first, c.input_count()))
    c.invalid("num_scan_inputs " + std::to_string(m) + " does not fit its " + std::to_string(c.input_count()) +
              " inputs");
  const size_t scan_inputs = size_t(m), states = c.input_count() - first - scan_inputs;
  if (size_t(body.input_size()) != states + scan_inputs)
    c.invalid("the body has " + std::to_string(body.input_size()) + " inputs; it needs " +
              std::to_string(states + scan_inputs));
  if (size_t(body.output_size()) < states)
    c.invalid("the body has " + std::to_string(body.output_size()) + " outputs; it needs at least " +
              std::to_string(states));
  const size_t scan_outputs = size_t(body.output_size()) - states;
  if (c.output_count() != states + scan_outputs)
    c.invalid("the node has " + std::to_string(c.output_count()) + " outputs; its body gives " +
              std::to_string(states + scan_outputs));
  std::vector<Value> state, inputs;
  for (size_t j = 0; j < states; ++j) state.push_back(c.in(first + j));
  for (size_t j = 0; j < scan_inputs; ++j)
    inputs.push_back(operand_value(c, c.operand(first + states + j), c.in(first + states + j).is_bool));

  if (!batched) {
    const std::vector<int64_t> dirs = per_item(c, "scan_input_directions", scan_inputs);
    const std::vector<int64_t> out_dirs = per_item(c, "scan_output_directions", scan_outputs);
    check_directions(c, dirs, "scan_input_directions");
    check_directions(c, out_dirs, "scan_output_directions");
    Scanned r = scan_steps(c, body, state, inputs, per_item(c, "scan_input_axes", scan_inputs), dirs,
                           per_item(c, "scan_output_axes", scan_outputs), out_dirs, "");
    for (size_t j = 0; j < states; ++j) c.set_value_out(j, r.state[j]);
    for (size_t k = 0; k < scan_outputs; ++k) c.set_out(states + k, r.outputs[k], r.output_bool[k]);
    return;
  }
  // Opset 8: every input has the batch axis first, and each batch item is scanned on its own,
  // along axis 1 (axis 0 of the item); the results are stacked along the batch axis again.
  const std::vector<int64_t> dirs = per_item(c, "directions", scan_inputs);
  check_directions(c, dirs, "directions");
  std::vector<Value> all = state;
  all.insert(all.end(), inputs.begin(), inputs.end());
  std::optional<uint32_t> batch;
  for (size_t j = 0; j < all.size(); ++j) {
    const Shape& shape = all[j].desc.shape;
    if (shape.size() < (j < states ? 1u : 2u))
      c.invalid("input " + std::to_string(first + j) + " is " + all[j].desc.to_string() +
                ", without the batch axis (and, for a scan input, the sequence axis)");
    if (batch && *batch != shape[0])
      c.invalid("input " + std::to_string(first + j) + " has a batch of " + std::to_string(shape[0]) + ", input " +
                std::to_string(first) + " of " + std::to_string(*batch));
    batch = shape[0];
  }
  if (!batch || *batch == 0) c.unsupported("the batch is empty (WebNN has no empty tensors)");
  if (c.has_input(0)) {
    const uint32_t length = inputs[0].desc.shape[1];
    for (int64_t n : c.const_ints(0, "sequence_lens"))
      if (n != length)
        c.unsupported("sequence_lens holds " + std::to_string(n) + " where the sequence has " + std::to_string(length) +
                      " items (only whole sequences are lowered)");
  }
  std::vector<OperandId> ids;
  for (size_t j = 0; j < all.size(); ++j) ids.push_back(c.operand(first + j));
  std::vector<std::vector<OperandId>> final_state(states), outputs(scan_outputs);
  std::vector<bool> state_bool(states), output_bool(scan_outputs);
  const std::vector<int64_t> zeros_in(scan_inputs, 0), zeros_out(scan_outputs, 0);
  for (uint32_t b = 0; b < *batch; ++b) {
    std::vector<Value> item_state, item_inputs;
    for (size_t j = 0; j < all.size(); ++j)
      (j < states ? item_state : item_inputs).push_back(operand_value(c, item(c, ids[j], 0, b), all[j].is_bool));
    Scanned r = scan_steps(c, body, item_state, item_inputs, zeros_in, dirs, zeros_out, zeros_out,
                           "batch " + std::to_string(b) + ", ");
    for (size_t j = 0; j < states; ++j) {
      final_state[j].push_back(operand_of(c, r.state[j]));
      state_bool[j] = r.state[j].is_bool;
    }
    for (size_t k = 0; k < scan_outputs; ++k) {
      outputs[k].push_back(r.outputs[k]);
      output_bool[k] = r.output_bool[k];
    }
  }
  for (size_t j = 0; j < states; ++j) c.set_out(j, stack(c, final_state[j], 0), state_bool[j]);
  for (size_t k = 0; k < scan_outputs; ++k) c.set_out(states + k, stack(c, outputs[k], 0), output_bool[k]);
}

}  // namespace

Value operand_value(const NodeCtx& c, OperandId id, bool is_bool) {
  Value v;
  v.desc = c.desc_of(id);
  v.is_bool = is_bool;
  v.id = id;
  if (const BufferRef* known = c.im.known(id)) v.data = *known;
  return v;
}

OperandId stack(const NodeCtx& c, const std::vector<OperandId>& items, uint32_t axis) {
  std::vector<OperandId> parts;
  for (OperandId id : items) {
    Shape shape = c.desc_of(id).shape;
    shape.insert(shape.begin() + axis, 1);
    parts.push_back(c.reshape(id, shape));
  }
  return parts.size() == 1 ? parts[0] : c.add(OpKind::kConcat, parts, ConcatAttrs{axis});
}

Lowerings control_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"If", lower_if},
      {"Loop", lower_loop},
      {"Scan", lower_scan},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
