// Seeded random input data for the command-line tools (webnn bench/run, webnn_ort_check), over the
// public types only: float16 values are converted by the FP16 library (fp16.h).
#pragma once

#include <fp16.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "webnn/webnn.hpp"

namespace webnn::tools {

// A tensor of `desc` filled from `rng`: floats uniform in [-real_bound, real_bound), integers in
// [0, int_count) (small non-negative values are valid indices, shifts and exponents).
inline HostTensor random_tensor(const OperandDescriptor& desc, std::mt19937& rng, float real_bound,
                                uint32_t int_count) {
  HostTensor t{desc, std::vector<std::byte>(*desc.byte_length())};
  const size_t size = element_size(desc.data_type);
  std::uniform_real_distribution<float> real(-real_bound, real_bound);
  for (size_t offset = 0; offset < t.data.size(); offset += size) {
    std::byte* p = t.data.data() + offset;
    auto put = [&](auto value) { std::memcpy(p, &value, sizeof value); };
    switch (desc.data_type) {
      case DataType::kFloat32:
        put(real(rng));
        break;
      case DataType::kFloat16:
        put(fp16_ieee_from_fp32_value(real(rng)));
        break;
      case DataType::kInt32:
        put(static_cast<int32_t>(rng() % int_count));
        break;
      case DataType::kUint32:
        put(static_cast<uint32_t>(rng() % int_count));
        break;
      case DataType::kInt64:
        put(static_cast<int64_t>(rng() % int_count));
        break;
      case DataType::kUint64:
        put(static_cast<uint64_t>(rng() % int_count));
        break;
      case DataType::kInt8:
        put(static_cast<int8_t>(rng() % int_count));
        break;
      case DataType::kUint8:
        put(static_cast<uint8_t>(rng() % int_count));
        break;
    }
  }
  return t;
}

}  // namespace webnn::tools
