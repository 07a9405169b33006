// The graph IR: operands, typed operations in topological order, named inputs and outputs and
// constant buffers. Immutable once built (held as std::shared_ptr<const Graph>).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "graph/attributes.hpp"
#include "graph/op_traits.hpp"
#include "webnn/types.hpp"

namespace webnn {

enum class OpKind : uint16_t {
#define WEBNN_OP(Enum, name, Attrs, family, ...) k##Enum,
#include "graph/op_table.def"
#undef WEBNN_OP
};

inline constexpr size_t kOpKindCount = 0
#define WEBNN_OP(Enum, name, Attrs, family, ...) +1
#include "graph/op_table.def"
#undef WEBNN_OP
    ;

// The spec's camelCase builder method name ("averagePool2d").
std::string_view op_name(OpKind kind);
std::optional<OpKind> parse_op_name(std::string_view name);

namespace detail {
template <class... Ts>
struct TypeList {};
// Collects the distinct types of a list in first-seen order (linear in the list's length).
template <class Seen, class... Todo>
struct Distinct;
template <class... Seen>
struct Distinct<TypeList<Seen...>> {
  using variant = std::variant<Seen...>;
};
template <class... Seen, class T, class... Todo>
struct Distinct<TypeList<Seen...>, T, Todo...>
    : Distinct<std::conditional_t<(std::is_same_v<T, Seen> || ...), TypeList<Seen...>, TypeList<Seen..., T>>, Todo...> {
};
}  // namespace detail

// One alternative per distinct attribute struct of the op table, in table order (NoAttrs first),
// so adding an op with a new struct needs no change here.
using Attributes = detail::Distinct<detail::TypeList<>
#define WEBNN_OP(Enum, name, Attrs, family, ...) , Attrs
#include "graph/op_table.def"
#undef WEBNN_OP
                                    >::variant;

struct Operation;

// The op table's per-op columns (op_table.def, op_traits.hpp).
// How the output descriptor of `kind` follows from its operands.
ShapeRule shape_rule(OpKind kind);
// Whether `kind` only moves, copies or selects its inputs' values (reshape, transpose, slice,
// gather, where, ...): its results are exact in any data type.
bool moves_values_only(OpKind kind);
// Whether `op` can make a NaN or an infinity out of finite values, other than by overflowing.
bool may_make_specials(const Operation& op);
// How close the float output of `kind` must be by the WPT rules (conformance::tolerance_for).
const ToleranceRule& tolerance_rule(OpKind kind);

// Default-constructed attributes of the struct the op table assigns to `kind`.
Attributes default_attributes(OpKind kind);

// Where copy_of starts a buffer: a cache line, AVX-512's vector, what the onednn backend
// reads in place (it copies a constant that starts elsewhere).
inline constexpr size_t kBufferAlignment = 64;

// Read-only bytes shared by reference (a constant's data): an owned buffer, a memory-mapped
// weights file or a constant MLTensor's storage. Never copied after it is made. The ones made here
// start on kBufferAlignment, where a backend reads them in place (the onednn backend copies a
// constant that does not, once per graph): filled writes `size` bytes through `fill` into a new
// aligned block, copy_of copies into one, and adopt keeps a vector that starts aligned and copies
// one that does not (glibc's large blocks start 16 bytes into a page).
struct BufferRef {
  std::shared_ptr<const std::byte> data;
  size_t size = 0;
  std::span<const std::byte> span() const { return {data.get(), size}; }
  static BufferRef filled(size_t size, const std::function<void(std::byte*)>& fill);
  static BufferRef copy_of(std::span<const std::byte> bytes);
  static BufferRef adopt(std::vector<std::byte> bytes);
};

enum class OperandKind : uint8_t { kInput, kConstant, kIntermediate };

struct Operand {
  OperandDescriptor desc;
  OperandKind kind = OperandKind::kIntermediate;
  // Inputs: the input name. Constants and intermediates: the name from a graph file, or empty.
  std::string name;
  // Constants: index into Graph::constants.
  uint32_t constant_index = 0;
};

struct Operation {
  OpKind kind = OpKind::kAdd;
  Attributes attrs;
  std::vector<OperandId> inputs;   // positional operands in the spec's order
  std::vector<OperandId> outputs;  // every result in order (split has several)
  std::string label;               // MLOperatorOptions.label
};

struct NamedOperand {
  std::string name;
  OperandId operand = 0;
};

struct Graph {
  std::string name;
  std::vector<Operand> operands;
  std::vector<Operation> operations;  // topological order
  std::vector<NamedOperand> inputs;
  std::vector<NamedOperand> outputs;
  std::vector<BufferRef> constants;
  // Imported models (docs/onnx.md, "Inputs with a default value"): inputs that have a default
  // value, the bytes of their descriptor. dispatch() needs every input; the convenience paths
  // (MLContext::compute, the CLI's run and bench, Python's compute) use the default of an input
  // they are not given. Graph files do not store defaults.
  std::map<std::string, BufferRef> input_defaults;
  // Inputs of the source model that are constants in this graph, and why (frozen by the caller, or
  // to their default because the model needs their value when the graph is built).
  std::map<std::string, std::string> frozen_inputs;

  const OperandDescriptor& desc(OperandId id) const { return operands[id].desc; }
  const BufferRef& constant_data(OperandId id) const { return constants[operands[id].constant_index]; }
  uint64_t constant_bytes() const;
};

// Calls fn(id) for every operand `op` reads: positional inputs, then operand-valued attributes in
// declaration order. For a mutable `op`, `id` is a reference the function may change (remapping).
template <class Op, class Fn>
requires std::is_same_v<std::remove_const_t<Op>, Operation>
void for_each_input(Op& op, Fn&& fn) {
  for (auto& id : op.inputs) fn(id);
  std::visit(
      [&](auto& attrs) {
        using A = std::decay_t<decltype(attrs)>;
        A::fields(attrs, [&](std::string_view, auto& field) {
          using F = std::decay_t<decltype(field)>;
          if constexpr (std::is_same_v<F, std::optional<OperandRef>>) {
            if (field) fn(field->id);
          }
        });
      },
      op.attrs);
}

// A "name [label]" string for error messages about an operation.
std::string describe(const Operation& op);

}  // namespace webnn
