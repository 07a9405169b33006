// Calls a generic lambda with the C++ storage type of a DataType:
//   visit_type(DataType::kInt8, [&]<class T>() { ... T is int8_t ... });
// float16 is stored as webnn::Float16.
#pragma once

#include <cstdint>

#include "core/float16.hpp"
#include "webnn/types.hpp"

namespace webnn {

template <class Fn>
decltype(auto) visit_type(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::kFloat32:
      return fn.template operator()<float>();
    case DataType::kFloat16:
      return fn.template operator()<Float16>();
    case DataType::kInt32:
      return fn.template operator()<int32_t>();
    case DataType::kUint32:
      return fn.template operator()<uint32_t>();
    case DataType::kInt64:
      return fn.template operator()<int64_t>();
    case DataType::kUint64:
      return fn.template operator()<uint64_t>();
    case DataType::kInt8:
      return fn.template operator()<int8_t>();
    case DataType::kUint8:
      return fn.template operator()<uint8_t>();
  }
  return fn.template operator()<float>();
}

}  // namespace webnn
