// Private to the ONNX importer: what the lowering files share. There is one file per family of
// ONNX operators, named after the src/ops/ family it lowers onto (import_elementwise.cpp,
// import_logical.cpp, import_conv.cpp, import_pool.cpp, import_normalization.cpp,
// import_matmul.cpp, import_reduction.cpp, import_shape.cpp, import_gather.cpp,
// import_resample.cpp, import_recurrent.cpp, import_quantization.cpp) or, where WebNN has no such
// family, after what its operators do (import_signal.cpp, import_constant.cpp, import_loss.cpp,
// import_text.cpp, import_control.cpp: If, Loop and Scan, by inlining their subgraphs;
// import_sequence.cpp: sequences as lists of operands). Each file lists its ONNX op types with
// their lowerings; import_lowerings.cpp gathers the lists into the one table.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/onnx/import_internal.hpp"

namespace webnn::formats::onnx_import {

// An ONNX op type (default domain) and its lowering.
struct NamedLowering {
  std::string_view op_type;
  void (*lower)(const NodeCtx&);
};
using Lowerings = std::span<const NamedLowering>;

// Each family's op types, in its file.
Lowerings elementwise_lowerings();
Lowerings logical_lowerings();
Lowerings conv_lowerings();
Lowerings pool_lowerings();
Lowerings normalization_lowerings();
Lowerings matmul_lowerings();
Lowerings reduction_lowerings();
Lowerings shape_lowerings();
Lowerings gather_lowerings();
Lowerings resample_lowerings();
Lowerings recurrent_lowerings();
Lowerings quantization_lowerings();
Lowerings signal_lowerings();
Lowerings constant_lowerings();
Lowerings loss_lowerings();
Lowerings text_lowerings();
Lowerings control_lowerings();
Lowerings sequence_lowerings();

// ---- The one-to-one operators (op_map.def), by form: import_lowerings.cpp registers each ----
// import_elementwise.cpp
void lower_unary(const NodeCtx& c, OpKind kind);     // small constants of the correctly rounded ops fold
void lower_binary(const NodeCtx& c, OpKind kind);    // arithmetic of small constants folds; Pow's exponent is cast
void lower_variadic(const NodeCtx& c, OpKind kind);  // Max, Min and Sum of any number of inputs
// import_logical.cpp
void lower_compare(const NodeCtx& c, OpKind kind);  // bool results; Equal, Greater, Less of constants fold
void lower_logical(const NodeCtx& c, OpKind kind);  // Logical and Predicate; Not of a small constant folds
void lower_where(const NodeCtx& c);                 // Select; small constants fold
// import_reduction.cpp
void lower_reduce(const NodeCtx& c, OpKind kind);      // axes an attribute, or an input from opset 13 / 18
void lower_arg_reduce(const NodeCtx& c, OpKind kind);  // select_last_index through reverse

// ---- Building blocks that more than one family uses ----

// import_shape.cpp
// Output 0 as input 0 with a new shape (Reshape, Squeeze, Identity, ...): a constant stays a
// constant, and a reshape to the same shape adds no operation (the output names the input's
// operand).
void reshaped(const NodeCtx& c, const Shape& shape);
// ONNX axes (negative ones count from the end) of a tensor of `rank`; an axis given twice is a
// DataError.
std::vector<uint32_t> norm_axes(const NodeCtx& c, const std::vector<int64_t>& axes, size_t rank);
// `count` elements of axis `axis` of x from `start`, every `stride`-th (x itself when that is all).
OperandId slice_axis(const NodeCtx& c, OperandId x, size_t axis, int64_t start, int64_t count, int64_t stride = 1);

// import_conv.cpp: the spatial window of a conv or pool.
// The spatial parameters of a conv or pool, one value per spatial axis (begin and end: paddings).
struct Window {
  std::vector<int64_t> kernel, strides, dilations, begin, end;
};
// The node's pads/auto_pad, strides and (when `has_dilations`) dilations as explicit values, for
// spatial input sizes `in` and kernel sizes `kernel`.
Window window_of(const NodeCtx& c, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                 bool has_dilations);
std::vector<uint32_t> u32s(const std::vector<int64_t>& v);
// A 3-D (N, C, L) operand as 4-D (N, C, 1, L); 4-D ones unchanged.
OperandId to_4d(const NodeCtx& c, OperandId x);
// The spatial sizes of an (N, C, spatial...) shape.
std::vector<int64_t> spatial_of(const Shape& s);
// [begin_h, end_h, begin_w, end_w] of the last two spatial axes of per-axis begin/end paddings.
std::vector<uint32_t> padding_2d(const std::vector<int64_t>& begin, const std::vector<int64_t>& end);
// The last two values of a per-axis list.
std::vector<uint32_t> last_2d(const std::vector<int64_t>& v);
// Conv's lowering of x and w (1-D, 2-D and 3-D; the node's pads, strides, dilations, group and
// auto_pad), with an optional bias: the output operand.
OperandId conv_of(const NodeCtx& c, OperandId x, OperandId w, std::optional<OperandId> bias);

// import_matmul.cpp
// MatMul's lowering of a and b (1-D operands as numpy's matmul treats them).
OperandId matmul_of(const NodeCtx& c, OperandId a, OperandId b);

// import_gather.cpp
// Indices known at import (input i), checked where ONNX's definition calls an out-of-range index
// an error (Gather, GatherElements, GatherND, ScatterElements, ScatterND): WebNN's ops clamp it,
// which would give the model a meaning it does not have. `size_of(e)` is the size of the dimension
// that element e of the indices indexes. Indices known only at run time are WebNN's to clamp.
void check_const_indices(const NodeCtx& c, size_t i, const std::function<uint32_t(uint64_t)>& size_of);

// import_constant.cpp
// Output i as `desc` filled with `one` (one element of its type): a folded value when it is within
// the fold limit, otherwise `expand` of that one element, so nothing of the output's size is
// allocated at import (ConstantOfShape, Dropout's mask).
void set_filled_out(const NodeCtx& c, size_t i, const OperandDescriptor& desc, const BufferRef& one, bool is_bool);

// import_control.cpp
// Operand `id` as a value, with its bytes when they are known at import (a slice of a known
// integer tensor, folded as it was added).
Value operand_value(const NodeCtx& c, OperandId id, bool is_bool);
// The items (of one shape) stacked along a new axis `axis` of the result (Loop's and Scan's scan
// outputs, ConcatFromSequence with new_axis).
OperandId stack(const NodeCtx& c, const std::vector<OperandId>& items, uint32_t axis);

// import_signal.cpp
// NotSupportedError unless input i is float32 or float16.
void require_float(const NodeCtx& c, size_t i);
// The one value of a scalar or 1-element input known at import time.
int64_t const_scalar(const NodeCtx& c, size_t i, const std::string& what);

}  // namespace webnn::formats::onnx_import
