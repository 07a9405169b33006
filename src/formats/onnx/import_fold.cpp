// ONNX import: folding. A node whose inputs are all known at import (shape arithmetic, a Gather
// or Concat of constants, ...) may be computed then instead of becoming operations; the value is
// computed by the reference kernels (backends/reference/run_operation.hpp) on the WebNN operation
// the node lowers to, so a folded value is exactly what that operation computes at run time and
// the importer has no evaluator of its own. The limits stay the importer's: the fold limit and the
// memory budget are checked (NodeCtx::fold_fits) before a fold allocates anything.
#include <optional>
#include <vector>

#include "formats/onnx/import_internal.hpp"

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

}  // namespace webnn::formats::onnx_import
