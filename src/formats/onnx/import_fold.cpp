// ONNX import: folding. A node whose inputs are all known at import (shape arithmetic, a Gather
// or Concat of constants, ...) may be computed then instead of becoming operations; the value is
// computed by the reference kernels (backends/reference/run_operation.hpp) on the WebNN operation
// the node lowers to, so a folded value is exactly what that operation computes at run time and
// the importer has no evaluator of its own. The limits stay the importer's: the fold limit and the
// memory budget are checked (NodeCtx::fold_fits) before a fold allocates anything.
#include <optional>
#include <vector>

#include "formats/onnx/import_internal.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::formats::onnx_import {

uint64_t count_of(const Shape& s) {
  // Saturates: compared with limits, never allocated.
  return OperandDescriptor{DataType::kUint8, s}.element_count().value_or(UINT64_MAX);
}

bool all_inputs_const(const NodeCtx& c) {
  for (size_t i = 0; i < c.input_count(); ++i)
    if (c.has_input(i) && !c.is_const(i)) return false;
  return true;
}

bool foldable(const NodeCtx& c) {
  if (!all_inputs_const(c)) return false;
  for (size_t i = 0; i < c.input_count(); ++i)
    if (c.has_input(i) && count_of(c.desc(i).shape) > kMaxFoldElements) return false;
  return true;
}

HostTensor host_tensor(const Value& v) { return {v.desc, *v.data}; }

std::optional<HostTensor> fold_value(OpKind kind, const std::vector<HostTensor>& inputs, const Attributes& attrs) {
  try {
    return reference::run_operation(kind, inputs, attrs).at(0);
  } catch (const Error&) {
    // WebNN's operation does not take these operands (a data type, an empty tensor): the node
    // becomes that operation instead, and the builder says why it cannot.
    return std::nullopt;
  }
}

bool fold_out(const NodeCtx& c, size_t i, const OperandDescriptor& out, OpKind kind,
              const std::vector<HostTensor>& inputs, const Attributes& attrs, bool is_bool) {
  if (out.element_count() == 0u) {
    // An empty value (which may exist while folding, never as an operand) holds nothing to compute.
    c.set_const_out(i, out, BufferRef{}, is_bool);
    return true;
  }
  std::optional<HostTensor> v = fold_value(kind, inputs, attrs);
  if (!v) return false;
  if (v->desc != out) c.invalid("internal: the folded value is " + v->desc.to_string() + ", not " + out.to_string());
  c.set_const_out(i, out, std::move(v->data), is_bool);
  return true;
}

bool fold_binary(const NodeCtx& c, OpKind kind, bool to_bool) {
  if (!foldable(c) || c.input_count() != 2) return false;
  const Value& a = c.in(0);
  const Value& b = c.in(1);
  auto shape = ops::broadcast_bidirectional(a.desc.shape, b.desc.shape);
  if (!shape || a.desc.data_type != b.desc.data_type || count_of(*shape) == 0) return false;
  // An empty operand is not folded (found by fuzz_onnx_import: an operand with a 0 dimension
  // against a 1-element one read past an empty vector); the builder then rejects it by the spec.
  if (count_of(a.desc.shape) == 0 || count_of(b.desc.shape) == 0) return false;
  // Two small operands can broadcast to a large result ([65536, 1] and [1, 65536]).
  const OperandDescriptor out{to_bool ? DataType::kUint8 : a.desc.data_type, *shape};
  if (!c.fold_fits(out)) return false;
  return fold_out(c, 0, out, kind, {host_tensor(a), host_tensor(b)}, NoAttrs{}, to_bool);
}

}  // namespace webnn::formats::onnx_import
