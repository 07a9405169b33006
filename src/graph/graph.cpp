#include "graph/graph.hpp"

#include <cstring>

namespace webnn {

namespace {
struct OpInfo {
  std::string_view name;
  Attributes (*make_attrs)();
};
template <class A>
Attributes make() {
  return A{};
}
constexpr OpInfo kOps[] = {
#define WEBNN_OP(Enum, name, Attrs, family) {name, &make<Attrs>},
#include "graph/op_table.def"
#undef WEBNN_OP
};
}  // namespace

std::string_view op_name(OpKind kind) { return kOps[static_cast<size_t>(kind)].name; }

std::optional<OpKind> parse_op_name(std::string_view name) {
  for (size_t i = 0; i < kOpKindCount; ++i)
    if (kOps[i].name == name) return static_cast<OpKind>(i);
  return std::nullopt;
}

bool moves_values_only(OpKind kind) {
  switch (kind) {
    case OpKind::kReshape:
    case OpKind::kTranspose:
    case OpKind::kConcat:
    case OpKind::kSplit:
    case OpKind::kSlice:
    case OpKind::kExpand:
    case OpKind::kPad:
    case OpKind::kReverse:
    case OpKind::kTile:
    case OpKind::kTriangular:
    case OpKind::kGather:
    case OpKind::kGatherElements:
    case OpKind::kGatherNd:
    case OpKind::kScatterElements:
    case OpKind::kScatterNd:
    case OpKind::kIdentity:
    case OpKind::kWhere:
      return true;
    default:
      return false;
  }
}

Attributes default_attributes(OpKind kind) { return kOps[static_cast<size_t>(kind)].make_attrs(); }

BufferRef BufferRef::copy_of(std::span<const std::byte> bytes) {
  return adopt(std::vector<std::byte>(bytes.begin(), bytes.end()));
}

BufferRef BufferRef::adopt(std::vector<std::byte> bytes) {
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
