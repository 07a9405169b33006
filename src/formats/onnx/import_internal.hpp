// Private to the ONNX importer: the value table, host-side constants, folding and the per-node
// context that every op lowering (import_<family>.cpp, import_lowerings.hpp) works with.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backends/reference/run_operation.hpp"
#include "formats/onnx/import.hpp"
#include "formats/onnx/types.hpp"
#include "graph/graph_builder.hpp"

namespace webnn::formats::onnx_import {

// An ONNX value: its descriptor (ONNX bool is uint8 with is_bool), the builder operand once it
// has one, and its bytes when they are known at import time.
struct Value {
  OperandDescriptor desc;
  bool is_bool = false;
  std::optional<OperandId> id;
  std::optional<BufferRef> data;
  std::string graph_input;  // the graph input this value is, if it is one
  // A graph input's default value (an initializer of its name): used only where the value must be
  // known when the graph is built, which makes the importer freeze the input to it (import.cpp).
  std::optional<BufferRef> default_data;
  // A small run-time value computed from graph inputs (shape-like arithmetic on them): the first
  // such input, named when the value is needed at build time (freezing it may fold the value).
  std::string source_input;
  // An ONNX sequence, whose length and positions are known when the graph is built
  // (import_sequence.cpp): its items, each with its operand; null for a tensor. A sequence's
  // desc.data_type and is_bool are its items' type, its desc.shape is empty.
  std::shared_ptr<const std::vector<Value>> items;
  // An ONNX double that holds exactly this float32 or float16 operand's values: a Cast of it to
  // double, which widens without rounding (PyTorch exports isinf and isfinite that way). WebNN has
  // no double, so only what computes the same on the narrower values takes one (takes_widened);
  // anything else, a graph output among them, refuses it.
  bool widened = false;
};

// Whether input i of `op_type` may be a widened double (Value::widened): Cast and CastLike (a cast
// of the exact value), IsInf and IsNaN.
bool takes_widened(std::string_view op_type);

using onnx_types::is_signed_int_type;
using onnx_types::onnx_type;
using onnx_types::onnx_type_name;
using onnx_types::webnn_type;

// The external data files (data_location EXTERNAL) of one import: read from the model's directory
// only, never through a link out of it (open_beneath), and each byte range of a file given to one
// tensor at most, so that a small model cannot read (and hold) one large file many times over.
class ExternalData {
 public:
  explicit ExternalData(std::string dir);  // empty: the model has no directory; refused
  // The `expected` bytes of tensor `t`, in aligned storage (BufferRef::filled); `what` names it in
  // errors.
  BufferRef read(const onnx::TensorProto& t, uint64_t expected, const std::string& what);

 private:
  std::string dir_;
  std::map<std::pair<uint64_t, uint64_t>, std::map<uint64_t, uint64_t>> ranges_;  // (dev, inode) -> begin -> end
};

// A TensorProto's descriptor and bytes (little-endian, C order; bool as uint8 0/1), checked
// against its shape and each value against its type's range; external data is read through
// `external` (nullptr: refused). `what` names it in errors.
struct Decoded {
  OperandDescriptor desc;
  bool is_bool = false;
  BufferRef data;
};
Decoded decode_tensor(const onnx::TensorProto& t, ExternalData* external, const std::string& what);

// ---- Host tensors ----
uint64_t count_of(const Shape& s);  // the element count of a shape; UINT64_MAX when it overflows
std::vector<int64_t> host_int64s(const OperandDescriptor& desc, const BufferRef& data);
int64_t host_int64_at(const OperandDescriptor& desc, const BufferRef& data, uint64_t i);  // element i
std::vector<double> host_doubles(const OperandDescriptor& desc, const BufferRef& data);
// Bytes of `type` holding `values`, converted as a cast would (integers wrap, floats round).
BufferRef bytes_of_int64s(DataType type, const std::vector<int64_t>& values);
BufferRef bytes_of_doubles(DataType type, const std::vector<double>& values);
// `count` elements of `type`, element i converted from at(i) as bytes_of_int64s converts (no
// int64 vector in between).
BufferRef bytes_of_int64s(DataType type, uint64_t count, const std::function<int64_t(uint64_t)>& at);

class Importer;

// What a lowering sees: the node, its inputs, attributes, and the builder.
struct NodeCtx {
  Importer& im;
  const onnx::NodeProto& node;
  int64_t opset;

  const std::string& op_type() const { return node.op_type(); }
  size_t input_count() const { return static_cast<size_t>(node.input_size()); }
  bool has_input(size_t i) const { return i < input_count() && !node.input(static_cast<int>(i)).empty(); }
  const Value& in(size_t i) const;
  const std::string& input_name(size_t i) const { return node.input(static_cast<int>(i)); }
  const OperandDescriptor& desc(size_t i) const { return in(i).desc; }
  size_t rank(size_t i) const { return in(i).desc.shape.size(); }
  DataType type(size_t i) const { return in(i).desc.data_type; }
  OperandId operand(size_t i) const;
  bool is_const(size_t i) const { return has_input(i) && in(i).data.has_value(); }
  // The contents of input i, which must be known at import time (`what` names it in errors);
  // const_ints needs an integer tensor (shapes, axes, pads, indices are integers in ONNX).
  std::vector<int64_t> const_ints(size_t i, const std::string& what) const;
  std::vector<double> const_doubles(size_t i, const std::string& what) const;
  [[noreturn]] void needs_const(size_t i, const std::string& what) const;

  // ---- Attributes ----
  const onnx::AttributeProto* attr(std::string_view name) const;
  bool has_attr(std::string_view name) const { return attr(name) != nullptr; }
  int64_t attr_i(std::string_view name, int64_t def) const;
  float attr_f(std::string_view name, float def) const;
  std::string attr_s(std::string_view name, const std::string& def) const;
  std::vector<int64_t> attr_ints(std::string_view name) const;  // empty when absent
  std::vector<float> attr_floats(std::string_view name) const;
  std::vector<std::string> attr_strings(std::string_view name) const;

  // ---- Outputs ----
  size_t output_count() const { return static_cast<size_t>(node.output_size()); }
  bool wants_output(size_t i) const { return i < output_count() && !node.output(static_cast<int>(i)).empty(); }
  void set_out(size_t i, OperandId id, bool is_bool = false) const;
  // Output i is operand `id` itself (the model's name for it is kept only in the value table).
  void alias_out(size_t i, OperandId id, bool is_bool = false) const;
  void set_const_out(size_t i, const OperandDescriptor& desc, BufferRef data, bool is_bool = false) const;
  // Output i is `v` (a subgraph's output: an operand, or bytes known at import).
  void set_value_out(size_t i, Value v) const;

  // ---- Building ----
  std::vector<OperandId> add_multi(OpKind kind, std::vector<OperandId> inputs, Attributes attrs) const;
  // Computes, with the reference kernels, an integer-valued operation whose operands are all known
  // at import, as add_multi adds it (import.cpp).
  void fold_known(OpKind kind, const std::vector<OperandId>& inputs, const Attributes& attrs,
                  const std::vector<OperandId>& outputs) const;
  OperandId add(OpKind kind, std::vector<OperandId> inputs, Attributes attrs = NoAttrs{}) const {
    return add_multi(kind, std::move(inputs), std::move(attrs)).at(0);
  }
  const OperandDescriptor& desc_of(OperandId id) const;
  // A constant the lowering made (a table of positions, taps or weights): it counts against the
  // import's memory budget. Tables larger than a few values are checked with reserve() first.
  OperandId constant(const OperandDescriptor& desc, const BufferRef& data) const;
  // An integer table of `desc` (element i is at(i)), reserved before it is allocated.
  OperandId int_table(const OperandDescriptor& desc, const std::string& what,
                      const std::function<int64_t(uint64_t)>& at) const;
  // 0, 1, ... along `axis` of a shape of 1s: the positions a lowering compares indices with.
  OperandId iota(DataType type, size_t rank, size_t axis, uint32_t count, const std::string& what) const;
  OperandId scalar(DataType type, double value, size_t rank = 0) const;
  OperandId reshape(OperandId x, const Shape& shape) const;
  OperandId transpose(OperandId x, const std::vector<uint32_t>& perm) const;
  OperandId cast(OperandId x, DataType type) const;

  // ---- Limits (docs/onnx.md, "Memory") ----
  // Checks, before anything is allocated, that a value of `desc` may be made: a valid WebNN tensor
  // (maxTensorByteLength) that fits the import's memory budget together with `temporary_bytes` of
  // host scratch space. `what` names the value in the error.
  void reserve(const OperandDescriptor& desc, const std::string& what, uint64_t temporary_bytes = 0) const;
  // Checks that `desc` is a valid WebNN tensor (dimensions, maxTensorByteLength) before anything of
  // its size is made: NotSupportedError naming `what` otherwise.
  void check_tensor(const OperandDescriptor& desc, const std::string& what) const;
  // Whether a fold to `desc` stays within the fold limit (kMaxFoldElements; otherwise the node
  // becomes operations), reserving its bytes when it does.
  bool fold_fits(const OperandDescriptor& desc) const;

  // Normalizes an ONNX axis (negative counts from the end) for a tensor of `rank`.
  uint32_t axis(int64_t a, size_t rank, const std::string& what = "axis") const;
  [[noreturn]] void unsupported(const std::string& reason) const;
  [[noreturn]] void invalid(const std::string& reason) const;
  std::string where() const;  // "ONNX import: MODEL: node \"NAME\" (OP)", which starts every error
  std::string label() const;  // "node \"NAME\" (OP)"
};

// ---- Folding (import_fold.cpp) ----
// A node whose inputs are all known at import may be folded: computed then, by the reference
// kernels on the WebNN operation it lowers to, so a folded value is what that operation computes
// at run time. Folding is for shape-sized values, not tensors of activations: a fold whose inputs
// or output hold more elements becomes operations instead.
constexpr uint64_t kMaxFoldElements = uint64_t{1} << 16;
using reference::HostTensor;
bool all_inputs_const(const NodeCtx& c);  // every input of the node is known at import
bool foldable(const NodeCtx& c);          // ... and each is within the fold limit
HostTensor host_tensor(const Value& v);   // a known value's descriptor and bytes
// The value of `kind` with `attrs` on `inputs`, computed by the reference kernels; nullopt when
// WebNN's operation does not take these operands (the node then becomes that operation, and the
// builder says why).
std::optional<HostTensor> fold_value(OpKind kind, const std::vector<HostTensor>& inputs, const Attributes& attrs);
// Output i as fold_value(kind, inputs, attrs), which is `out`: the caller has checked `out` with
// NodeCtx::fold_fits before anything is allocated. An empty `out` holds no value to compute. False
// where fold_value gives nullopt.
bool fold_out(const NodeCtx& c, size_t i, const OperandDescriptor& out, OpKind kind,
              const std::vector<HostTensor>& inputs, const Attributes& attrs, bool is_bool = false);
// A binary element-wise operation (arithmetic, or a comparison when `to_bool`) of two small
// constants of one type, folded into output 0; false when the node is not such a fold.
bool fold_binary(const NodeCtx& c, OpKind kind, bool to_bool = false);

// Whether input `i` of `op_type` may be a sequence (import_sequence.cpp): the sequence operators',
// Identity's, SequenceMap's and a Loop's carried values.
bool takes_sequence(std::string_view op_type, size_t i);

// ---- The lowering table (import_lowerings.cpp; the lowerings are in import_<family>.cpp) ----
using Lowering = std::function<void(const NodeCtx&)>;
// The lowering of an ONNX (default domain) op type; nullptr when there is none.
const Lowering* find_lowering(std::string_view op_type);
// Why an op type with no lowering is not supported.
std::string unsupported_reason(std::string_view op_type);

// ---- Subgraphs (import.cpp; If, Loop and Scan in import_control.cpp, SequenceMap in import_sequence.cpp) ----
// The outputs of one use of a subgraph, each defined in the value table under a name of its own
// until this is destroyed.
class Inlined {
 public:
  Inlined(Importer& im, std::string where) : im_(&im), where_(std::move(where)) {}
  Inlined(Inlined&& other) noexcept
      : im_(other.im_), where_(std::move(other.where_)), names_(std::exchange(other.names_, {})) {}
  Inlined& operator=(Inlined&&) = delete;
  ~Inlined();
  void add(std::string name) { names_.push_back(std::move(name)); }
  size_t size() const { return names_.size(); }
  const Value& value(size_t i) const;
  OperandId operand(size_t i) const;  // the builder operand of output i (a constant of its bytes, once)

 private:
  Importer* im_;
  std::string where_;  // names the subgraph's use in errors
  std::vector<std::string> names_;
};
// Lowers `body`, a subgraph of node `c`, once, in place (docs/onnx.md, "Control flow"): its inputs
// bound to `inputs`, its initializers and the outputs of its nodes defined under names of their own
// (so a body can be lowered once per iteration), its nodes lowered as the model's are; the names of
// the enclosing graphs that it reads are read as they are. `use` names this use ("then_branch",
// "iteration 3") in errors and in the operations' labels. Each use counts against the import's
// memory budget (kInlinedNodeBytes a node).
Inlined inline_graph(const NodeCtx& c, const onnx::GraphProto& body, const std::vector<Value>& inputs,
                     const std::string& use);
// The nodes of `g` and of its subgraphs.
uint64_t node_count(const onnx::GraphProto& g);
// What one node of a subgraph's use is taken to cost the builder (its operations, operands and
// names), charged to the memory budget: a small model cannot unroll a loop into millions of nodes.
constexpr uint64_t kInlinedNodeBytes = 2048;
// What `uses` uses of `body` are charged: kInlinedNodeBytes for each node and one more for each
// use (saturating).
uint64_t inlining_bytes(const onnx::GraphProto& body, uint64_t uses);

class Importer {
 public:
  Importer(GraphBuilder& builder, std::string origin, uint64_t memory_budget)
      : b_(builder), origin_(std::move(origin)), budget_(memory_budget) {}
  GraphBuilder& builder() { return b_; }
  // The value of an operand known at import (a constant made from a known value, or an operation
  // over known values folded as it was added), or nullptr.
  const BufferRef* known(OperandId id) const {
    if (auto it = known_.find(id); it != known_.end()) return &it->second;
    auto it = folded_.find(id);
    return it == folded_.end() ? nullptr : &it->second;
  }
  // A folded operation's result, held only while its node is lowered: an output of the node
  // becomes a value (NodeCtx::set_out), counted and released as every value is, so folded results
  // never outlive their last use (the memory budget of docs/onnx.md).
  void set_known(OperandId id, BufferRef data) { folded_[id] = std::move(data); }
  void end_node() { folded_.clear(); }
  // A builder constant's bytes (the graph holds them), so operations over it may fold.
  void note_constant(OperandId id, const BufferRef& data) { known_[id] = data; }
  const std::string& origin() const { return origin_; }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  // A defined value (the node loop checks that every input is defined before lowering).
  const Value& value(const std::string& name) const;
  // Defines a value; its bytes, if any, count against the memory budget unless they are the
  // model's own (initializers, Constant nodes, frozen inputs: mark them with model_bytes()).
  // `where` names the definition in a budget error (default: the value).
  void define(const std::string& name, Value v, const std::string& where = {});
  // Forgets a value after its last use; its bytes are freed unless the graph holds them.
  void release(const std::string& name);
  // The builder operand of a value (a constant made of its bytes, once). `where` starts the
  // error when there is none ("ONNX import: MODEL: node ...: input 1 (\"x\")").
  OperandId operand_of(const std::string& name, const std::string& where);
  // operand_of for a use that computes in the operand's type: a widened double is refused there.
  OperandId float_operand_of(const std::string& name, const std::string& where);

  // ---- The memory budget ----
  // Marks bytes as the model's own, which the budget does not count.
  void model_bytes(const BufferRef& data);
  // Throws NotSupportedError when `bytes` more (and `scratch` bytes of host scratch space, held
  // only while the value is computed) would exceed the budget. `where` names the node and `what`
  // the value.
  void reserve(uint64_t bytes, uint64_t scratch, const std::string& where, const std::string& what) const;
  // A table the builder holds from now on (counted until the import ends).
  void keep_in_graph(const BufferRef& data, const std::string& where);
  uint64_t used_bytes() const { return used_; }
  uint64_t peak_bytes() const { return peak_; }
  uint64_t budget() const { return budget_; }

  // ---- Graph inputs with a default value ----
  // Records that a lowering needed the default of `input` at build time (`why` says where); the
  // import then runs again with that input frozen to its default.
  void needs_default(const std::string& input, const std::string& why) { needed_defaults_.emplace(input, why); }
  const std::map<std::string, std::string>& needed_defaults() const { return needed_defaults_; }

  // ---- Names (ONNX IR: each value name is assigned once, in a graph and in its subgraphs) ----
  // What defines `name` (an initializer, a graph input, output i of a node), or nullptr.
  const std::string* definition(const std::string& name) const {
    auto it = defined_by_.find(name);
    return it == defined_by_.end() ? nullptr : &it->second;
  }
  // Records that `by` defines `name`; the earlier definition if there is one (nothing recorded).
  const std::string* declare(const std::string& name, std::string by) {
    auto [it, fresh] = defined_by_.emplace(name, std::move(by));
    return fresh ? nullptr : &it->second;
  }

  // ---- Subgraphs (inline_graph) ----
  // The model's graph and its external data (a subgraph's initializers may use it).
  void set_model(const onnx::GraphProto& graph, ExternalData* external) {
    graph_ = &graph;
    external_ = external;
  }
  // A name no value of the model has (in its graph or its subgraphs) and no earlier use of a
  // subgraph took: `want`, or `want#N`.
  std::string fresh_name(const std::string& want);
  // The names each graph being lowered defines, the model's graph first: a subgraph may not
  // define one of them again.
  std::vector<const std::set<std::string>*>& scopes();
  // A subgraph copied with the node that holds it, for one use of an enclosing subgraph, and the
  // graph it was copied from; noted until the copy is destroyed.
  void note_copy(const onnx::GraphProto* copy, const onnx::GraphProto* of) { copied_from_[copy] = original(of); }
  void forget_copy(const onnx::GraphProto* copy) { copied_from_.erase(copy); }
  // The model's own graph that `g` is (or is a copy of).
  const onnx::GraphProto* original(const onnx::GraphProto* g) const {
    auto it = copied_from_.find(g);
    return it == copied_from_.end() ? g : it->second;
  }
  // A subgraph's initializers, decoded once for all its uses (and all its copies').
  const std::vector<std::pair<std::string, Decoded>>& initializers_of(const onnx::GraphProto& g,
                                                                      const std::string& where);
  // Charges `bytes` that the built graph keeps (the memory budget counts them to the end).
  void charge_built(uint64_t bytes, const std::string& where, const std::string& what) { charge(bytes, where, what); }

 private:
  std::unordered_map<OperandId, BufferRef> known_;   // builder constants: their bytes are in the graph
  std::unordered_map<OperandId, BufferRef> folded_;  // the current node's folded results
  struct Held {
    uint64_t bytes = 0;
    uint32_t holders = 0;   // values that refer to the bytes
    bool counted = false;   // made by the importer (not the model's own)
    bool in_graph = false;  // a builder constant: kept to the end
  };
  void hold(const BufferRef& data, const std::string& where);
  void unhold(const BufferRef& data);
  void charge(uint64_t bytes, const std::string& where, const std::string& what);

  GraphBuilder& b_;
  std::string origin_;
  std::map<std::string, Value> values_;
  uint64_t budget_;
  uint64_t used_ = 0, peak_ = 0;
  std::unordered_map<const std::byte*, Held> held_;  // by the address of the bytes
  std::map<std::string, std::string> needed_defaults_;
  std::unordered_map<std::string, std::string> defined_by_;  // every name defined so far, and what defined it
  // The model's names, gathered when the first subgraph is lowered (models without one never pay).
  void gather_names();
  const onnx::GraphProto* graph_ = nullptr;
  ExternalData* external_ = nullptr;
  bool names_gathered_ = false;
  std::set<std::string> model_names_, graph_names_, fresh_names_;
  std::vector<const std::set<std::string>*> scopes_;
  std::map<const onnx::GraphProto*, std::vector<std::pair<std::string, Decoded>>> body_initializers_;
  std::unordered_map<const onnx::GraphProto*, const onnx::GraphProto*> copied_from_;
};

}  // namespace webnn::formats::onnx_import
