// Private to the ONNX exporter: the mechanics of building an ONNX GraphProto — unique value and
// node names, nodes with attributes, initializers (raw_data), and the patterns every op mapping
// uses (casts, transposes, reshapes, scalar and shape constants). Transposes and reshapes of
// initializers are folded into new initializers at export time instead of becoming nodes.
//
// Shapes are static everywhere (WebNN graphs have no dynamic dimensions), and every Val carries its
// shape, so a mapping can compute the shapes it needs without asking ONNX's shape inference.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/onnx/types.hpp"
#include "webnn/types.hpp"

namespace webnn::formats::onnx_export {

using namespace onnx_types;  // the element types the export shares with the import

// A value of the graph being built: name, element type, static shape. An empty name is an omitted
// optional node input.
struct Val {
  std::string name;
  ElemType type = kF32;
  Shape shape;
  size_t rank() const { return shape.size(); }
  uint64_t element_count() const;
};

onnx::AttributeProto attr_i(const std::string& name, int64_t value);
onnx::AttributeProto attr_f(const std::string& name, double value);
onnx::AttributeProto attr_s(const std::string& name, const std::string& value);
onnx::AttributeProto attr_ints(const std::string& name, const std::vector<int64_t>& values);
onnx::AttributeProto attr_strings(const std::string& name, const std::vector<std::string>& values);
using Attrs = std::vector<onnx::AttributeProto>;

std::vector<int64_t> to_int64s(const std::vector<uint32_t>& values);

class OnnxGraphBuilder {
 public:
  explicit OnnxGraphBuilder(onnx::GraphProto& graph) : graph_(graph) {}

  // Claims `name` exactly (graph inputs and outputs); throws if it is already taken.
  void claim(const std::string& name);
  bool try_claim(const std::string& name) { return names_.insert(name).second; }
  // `hint` if free, else hint_1, hint_2, ...; the result is claimed.
  std::string unique_name(const std::string& hint);
  // Node names start with this (the WebNN op being exported).
  void set_node_prefix(const std::string& prefix) { node_prefix_ = prefix; }

  // A new value name for a result of `type` and `shape`.
  Val temp(ElemType type, Shape shape, const std::string& hint = "t");
  void node(std::string_view op_type, const std::vector<Val>& inputs, const std::vector<Val>& outputs,
            Attrs attrs = {});
  // node() with one new output (or `into` when given).
  Val apply(std::string_view op_type, const std::vector<Val>& inputs, ElemType type, Shape shape, Attrs attrs = {},
            const Val* into = nullptr);

  // ---- Initializers ----
  Val initializer(ElemType type, const Shape& shape, std::span<const std::byte> bytes, const std::string& hint);
  // The bytes of an initializer made here; nullopt for any other value.
  std::optional<std::span<const std::byte>> constant_bytes(const Val& v) const;
  // A 1-D int64 tensor (shapes, axes, pads, ...).
  Val int64s(const std::vector<int64_t>& values);
  Val int64_scalar(int64_t value);
  // A tensor of `type` and `shape` with every element `value` (types: any WebNN type, double and
  // bool); values are cast as the spec casts an MLNumber to the type.
  Val filled(ElemType type, const Shape& shape, const Number& value, const std::string& hint = "c");
  Val scalar(ElemType type, const Number& value) { return filled(type, {}, value); }

  // ---- Patterns (`into`, when given, receives the result) ----
  Val cast(const Val& x, ElemType to, const Val* into = nullptr);
  Val transpose(const Val& x, const std::vector<uint32_t>& perm, const Val* into = nullptr);
  Val reshape(const Val& x, const Shape& shape, const Val* into = nullptr);
  Val identity(const Val& x, const Val* into);
  // x broadcast (bidirectionally) to `shape`.
  Val expand(const Val& x, const Shape& shape, const Val* into = nullptr);
  // Binary element-wise ops with numpy broadcasting; the result type is a's.
  Val binary(std::string_view op_type, const Val& a, const Val& b, const Val* into = nullptr);
  Val unary(std::string_view op_type, const Val& x, const Val* into = nullptr, Attrs attrs = {});
  // Slice of `x` along `axes` from `starts` to `ends` by `steps` (the ONNX Slice semantics).
  Val slice(const Val& x, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
            const std::vector<int64_t>& axes, const std::vector<int64_t>& steps, const Val* into = nullptr);
  // Concatenation along `axis`.
  Val concat(const std::vector<Val>& parts, uint32_t axis, const Val* into = nullptr);
  // Split of x along `axis` into parts of the given sizes.
  std::vector<Val> split(const Val& x, uint32_t axis, const std::vector<uint32_t>& sizes);
  // Where(condition, x, y) with numpy broadcasting; condition is bool.
  Val where(const Val& condition, const Val& x, const Val& y, const Val* into = nullptr);
  // x with its dimension `axis` cut into order.size() equal blocks, rearranged so that block i of
  // the result is block order[i] of x (recurrent gate orders). Folded for initializers.
  Val permute_blocks(const Val& x, uint32_t axis, const std::vector<uint32_t>& order);

  // Whether a node or initializer produces `name`.
  bool is_defined(const std::string& name) const { return defined_.count(name) != 0; }
  // Removes initializers no node reads and no graph output names (originals of folded ones).
  void prune_initializers();

 private:
  onnx::GraphProto& graph_;
  std::set<std::string> names_;
  std::map<std::string, const onnx::TensorProto*> initializers_;
  std::set<std::string> defined_;
  std::map<std::string, int> next_suffix_;
  std::string node_prefix_;
  int node_count_ = 0;
};

}  // namespace webnn::formats::onnx_export
