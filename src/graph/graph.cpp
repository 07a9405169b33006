#include "graph/graph.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>

namespace webnn {

namespace {
struct OpInfo {
  std::string_view name;
  Attributes (*make_attrs)();
  std::string_view family;
  ShapeRule shape_rule;
  ValueRule values;
  ToleranceRule tolerance;
};
template <class A>
Attributes make() {
  return A{};
}
using namespace op_table;
constexpr OpInfo kOps[] = {
#define WEBNN_OP(Enum, name, Attrs, family, shape_rule, values, tolerance) \
  {name, &make<Attrs>, #family, shape_rule, values, tolerance},
#include "graph/op_table.def"
#undef WEBNN_OP
};

// The table's size is written down so that adding or removing an op is a decision about each of
// its columns, not only its name (tests/python/test_operators.py counts the rows too).
static_assert(std::size(kOps) == kOpKindCount && kOpKindCount == 95);

constexpr bool rows_agree() {
  for (const OpInfo& op : kOps) {
    // A shared shape rule is read by the family files that implement it (src/ops/elementwise.cpp,
    // logical.cpp, reduction.cpp); anywhere else it would be ignored.
    if ((op.shape_rule == kUnary || op.shape_rule == kBinary) && op.family != "elementwise" && op.family != "logical")
      return false;
    if (op.shape_rule == kReduce && op.family != "reduction") return false;
    // What only moves values cannot round them.
    if (op.values == kMoves && (op.tolerance.kind != ToleranceRule::Kind::kUlp || op.tolerance.float32 != 0 ||
                                op.tolerance.float16 != 0 || op.tolerance.count != kNone))
      return false;
    // A tolerance counts what an element accumulates or is a fixed bound, never neither.
    if ((op.tolerance.count == kNone) != (op.tolerance.per_count == 0)) return false;
    if (op.tolerance.count != kNone && op.tolerance.kind != ToleranceRule::Kind::kUlp) return false;
  }
  return true;
}
static_assert(rows_agree());

template <class A>
constexpr bool kHasEpsilon = requires(const A& a) {
  a.epsilon;
};
// kMakesSpecialsIfNoEpsilon reads the op's epsilon.
#define WEBNN_OP(Enum, name, Attrs, family, shape_rule, values, tolerance) \
  static_assert((values) != kMakesSpecialsIfNoEpsilon || kHasEpsilon<Attrs>, name);
#include "graph/op_table.def"
#undef WEBNN_OP

const OpInfo& info(OpKind kind) { return kOps[static_cast<size_t>(kind)]; }
}  // namespace

std::string_view op_name(OpKind kind) { return info(kind).name; }

std::optional<OpKind> parse_op_name(std::string_view name) {
  for (size_t i = 0; i < kOpKindCount; ++i)
    if (kOps[i].name == name) return static_cast<OpKind>(i);
  return std::nullopt;
}

ShapeRule shape_rule(OpKind kind) { return info(kind).shape_rule; }

bool moves_values_only(OpKind kind) { return info(kind).values == kMoves; }

bool may_make_specials(const Operation& op) {
  switch (info(op.kind).values) {
    case kMakesSpecials:
      return true;
    case kMakesSpecialsIfNoEpsilon:
      return std::visit(
          []<class A>(const A& attrs) {
            if constexpr (kHasEpsilon<A>) {
              return attrs.epsilon == 0;
            } else {
              return false;
            }
          },
          op.attrs);
    case kComputes:
    case kMoves:
      break;
  }
  return false;
}

const ToleranceRule& tolerance_rule(OpKind kind) { return info(kind).tolerance; }

Attributes default_attributes(OpKind kind) { return info(kind).make_attrs(); }

BufferRef BufferRef::filled(size_t size, const std::function<void(std::byte*)>& fill) {
  // One malloc with room to align, freed whole; the bytes start at the first multiple of 64 in it.
  auto* block = static_cast<std::byte*>(std::malloc(size + kBufferAlignment - 1));
  if (!block) throw std::bad_alloc();
  std::shared_ptr<std::byte> owner(block, [](std::byte* p) { std::free(p); });
  const size_t skip = (kBufferAlignment - reinterpret_cast<uintptr_t>(block) % kBufferAlignment) % kBufferAlignment;
  if (size) fill(block + skip);
  BufferRef ref;
  ref.size = size;
  ref.data = std::shared_ptr<const std::byte>(owner, block + skip);
  return ref;
}

BufferRef BufferRef::copy_of(std::span<const std::byte> bytes) {
  return filled(bytes.size(), [&](std::byte* out) { std::memcpy(out, bytes.data(), bytes.size()); });
}

BufferRef BufferRef::adopt(std::vector<std::byte> bytes) {
  if (reinterpret_cast<uintptr_t>(bytes.data()) % kBufferAlignment != 0) return copy_of(bytes);
  auto owner = std::make_shared<std::vector<std::byte>>(std::move(bytes));
  BufferRef ref;
  ref.size = owner->size();
  ref.data = std::shared_ptr<const std::byte>(owner, owner->data());
  return ref;
}

uint64_t Graph::constant_bytes() const {
  uint64_t total = 0;
  for (const BufferRef& c : constants) total += c.size;
  return total;
}

std::string describe(const Operation& op) {
  std::string s(op_name(op.kind));
  if (!op.label.empty()) s += " [" + op.label + "]";
  return s;
}

}  // namespace webnn
