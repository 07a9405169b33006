// What the ONNX export and import share: the element types of ONNX tensors (onnx::TensorProto's
// DataType) and their mapping to and from WebNN's data types. ONNX bool is WebNN uint8 holding 0
// or 1, both ways.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "webnn/types.hpp"

namespace webnn::formats::onnx_types {

// An ONNX element type (onnx::TensorProto_DataType).
using ElemType = int32_t;
inline constexpr ElemType kF32 = onnx::TensorProto_DataType_FLOAT;
inline constexpr ElemType kF16 = onnx::TensorProto_DataType_FLOAT16;
inline constexpr ElemType kF64 = onnx::TensorProto_DataType_DOUBLE;
inline constexpr ElemType kI32 = onnx::TensorProto_DataType_INT32;
inline constexpr ElemType kU32 = onnx::TensorProto_DataType_UINT32;
inline constexpr ElemType kI64 = onnx::TensorProto_DataType_INT64;
inline constexpr ElemType kU64 = onnx::TensorProto_DataType_UINT64;
inline constexpr ElemType kI8 = onnx::TensorProto_DataType_INT8;
inline constexpr ElemType kU8 = onnx::TensorProto_DataType_UINT8;
inline constexpr ElemType kBool = onnx::TensorProto_DataType_BOOL;

// WebNN type -> ONNX element type (every WebNN type has one).
ElemType onnx_type(DataType type);
// ONNX element type -> WebNN type; nullopt (with the ONNX type's name in *name) when WebNN lacks
// it. ONNX bool is uint8 with *is_bool set.
std::optional<DataType> webnn_type(ElemType type, bool* is_bool, std::string* name);
// The ONNX name of an element type, lower case ("float", "double", "bfloat16", ...).
std::string onnx_type_name(ElemType type);
// Bytes per element of the WebNN types, bool and double; throws UnknownError for any other type.
size_t onnx_element_size(ElemType type);
bool is_float_type(ElemType type);
bool is_signed_int_type(ElemType type);

}  // namespace webnn::formats::onnx_types
