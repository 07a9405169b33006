#include "formats/onnx/types.hpp"

#include <cctype>

namespace webnn::formats::onnx_types {

using TP = onnx::TensorProto;

ElemType onnx_type(DataType type) {
  switch (type) {
    case DataType::kFloat32:
      return kF32;
    case DataType::kFloat16:
      return kF16;
    case DataType::kInt32:
      return kI32;
    case DataType::kUint32:
      return kU32;
    case DataType::kInt64:
      return kI64;
    case DataType::kUint64:
      return kU64;
    case DataType::kInt8:
      return kI8;
    case DataType::kUint8:
      return kU8;
  }
  return kF32;
}

std::optional<DataType> webnn_type(ElemType type, bool* is_bool, std::string* name) {
  if (is_bool) *is_bool = false;
  switch (type) {
    case kF32:
      return DataType::kFloat32;
    case kF16:
      return DataType::kFloat16;
    case kI32:
      return DataType::kInt32;
    case kU32:
      return DataType::kUint32;
    case kI64:
      return DataType::kInt64;
    case kU64:
      return DataType::kUint64;
    case kI8:
      return DataType::kInt8;
    case kU8:
      return DataType::kUint8;
    case kBool:
      if (is_bool) *is_bool = true;
      return DataType::kUint8;
    default:
      if (name) *name = onnx_type_name(type);
      return std::nullopt;
  }
}

std::string onnx_type_name(ElemType type) {
  if (type >= 0 && TP::DataType_IsValid(type)) {
    std::string n = TP::DataType_Name(static_cast<TP::DataType>(type));
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return n;
  }
  return "type " + std::to_string(type);
}

size_t onnx_element_size(ElemType type) {
  switch (type) {
    case kF64:
    case kI64:
    case kU64:
      return 8;
    case kF32:
    case kI32:
    case kU32:
      return 4;
    case kF16:
      return 2;
    case kI8:
    case kU8:
    case kBool:
      return 1;
    default:
      throw_error(ErrorKind::kUnknownError, "ONNX: unexpected element type " + onnx_type_name(type));
  }
}

bool is_float_type(ElemType type) { return type == kF32 || type == kF16 || type == kF64; }
bool is_signed_int_type(ElemType type) { return type == kI8 || type == kI32 || type == kI64; }

}  // namespace webnn::formats::onnx_types
