// Private to the ONNX importer: the value table, host-side constants and the per-node context that
// every op lowering (import_ops.cpp) works with.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  // A small run-time value computed from graph inputs (shape-like arithmetic on them): the first
  // such input, named when the value is needed at build time (freezing it may fold the value).
  std::string source_input;
};

using onnx_types::is_signed_int_type;
using onnx_types::onnx_type;
using onnx_types::onnx_type_name;
using onnx_types::webnn_type;

// A TensorProto's descriptor and bytes (little-endian, C order; bool as uint8 0/1), checked
// against its shape; external data is read from `base_dir` (empty: refused). `what` names it in
// errors.
struct Decoded {
  OperandDescriptor desc;
  bool is_bool = false;
  BufferRef data;
};
Decoded decode_tensor(const onnx::TensorProto& t, const std::string& base_dir, const std::string& what);

// ---- Host tensors (folding) ----
uint64_t count_of(const Shape& s);  // the element count of a shape
std::vector<int64_t> host_int64s(const OperandDescriptor& desc, const BufferRef& data);
std::vector<double> host_doubles(const OperandDescriptor& desc, const BufferRef& data);
// Bytes of `type` holding `values`, converted as a cast would (integers wrap, floats round).
BufferRef bytes_of_int64s(DataType type, const std::vector<int64_t>& values);
BufferRef bytes_of_doubles(DataType type, const std::vector<double>& values);

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
  const OperandDescriptor& desc(size_t i) const { return in(i).desc; }
  size_t rank(size_t i) const { return in(i).desc.shape.size(); }
  DataType type(size_t i) const { return in(i).desc.data_type; }
  OperandId operand(size_t i) const;
  bool is_const(size_t i) const { return has_input(i) && in(i).data.has_value(); }
  // The contents of input i, which must be known at import time (`what` names it in errors).
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

  // ---- Building ----
  std::vector<OperandId> add_multi(OpKind kind, std::vector<OperandId> inputs, Attributes attrs) const;
  OperandId add(OpKind kind, std::vector<OperandId> inputs, Attributes attrs = NoAttrs{}) const {
    return add_multi(kind, std::move(inputs), std::move(attrs)).at(0);
  }
  const OperandDescriptor& desc_of(OperandId id) const;
  OperandId constant(const OperandDescriptor& desc, BufferRef data) const;
  OperandId scalar(DataType type, double value, size_t rank = 0) const;
  OperandId reshape(OperandId x, const Shape& shape) const;
  OperandId transpose(OperandId x, const std::vector<uint32_t>& perm) const;
  OperandId cast(OperandId x, DataType type) const;

  // Normalizes an ONNX axis (negative counts from the end) for a tensor of `rank`.
  uint32_t axis(int64_t a, size_t rank, const std::string& what = "axis") const;
  [[noreturn]] void unsupported(const std::string& reason) const;
  [[noreturn]] void invalid(const std::string& reason) const;
  std::string where() const;
};

// ---- Lowerings shared between files (import_ops.cpp) ----
// Conv's lowering of x and w (1-D, 2-D and 3-D; the node's pads, strides, dilations, group and
// auto_pad), with an optional bias: the output operand.
OperandId conv_of(const NodeCtx& c, OperandId x, OperandId w, std::optional<OperandId> bias);
// MatMul's lowering of a and b (1-D operands as numpy's matmul treats them).
OperandId matmul_of(const NodeCtx& c, OperandId a, OperandId b);

// ---- Quantized and index compositions (import_quantized.cpp) ----
void lower_dynamic_quantize_linear(const NodeCtx& c);
void lower_qlinear_matmul(const NodeCtx& c);
void lower_qlinear_conv(const NodeCtx& c);
void lower_matmul_integer(const NodeCtx& c);
void lower_conv_integer(const NodeCtx& c);
void lower_max_unpool(const NodeCtx& c);
void lower_reverse_sequence(const NodeCtx& c);
void lower_gather_nd(const NodeCtx& c);  // batch_dims too

// ---- Building blocks shared by the lowering files ----
// `count` elements of axis `axis` of x from `start`, every `stride`-th (x itself when that is all).
OperandId slice_axis(const NodeCtx& c, OperandId x, size_t axis, int64_t start, int64_t count, int64_t stride = 1);
// Whether the float32 values v lie outside [lo, hi] (GridSample's and RoiAlign's sampling points).
OperandId outside(const NodeCtx& c, OperandId v, double lo, double hi);

// ---- Signal processing, TopK and RoiAlign (import_signal.cpp) ----
void lower_dft(const NodeCtx& c);
void lower_stft(const NodeCtx& c);
void lower_mel_weight_matrix(const NodeCtx& c);
void lower_top_k(const NodeCtx& c);
void lower_roi_align(const NodeCtx& c);

using Lowering = void (*)(const NodeCtx&);
// The lowering of an ONNX (default domain) op type; nullptr when there is none.
Lowering find_lowering(std::string_view op_type);
// Why an op type with no lowering is not supported.
std::string unsupported_reason(std::string_view op_type);

class Importer {
 public:
  Importer(GraphBuilder& builder, std::string origin) : b_(builder), origin_(std::move(origin)) {}
  GraphBuilder& builder() { return b_; }
  const std::string& origin() const { return origin_; }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const Value& value(const std::string& name) const;
  void define(const std::string& name, Value v);
  OperandId operand_of(const std::string& name);

 private:
  GraphBuilder& b_;
  std::string origin_;
  std::map<std::string, Value> values_;
};

}  // namespace webnn::formats::onnx_import
