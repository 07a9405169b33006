// Seeded random input data for the command-line tools (webnn bench/run, webnn_ort_check).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "core/dispatch.hpp"
#include "webnn/webnn.hpp"

namespace webnn::tools {

// A tensor of `desc` filled from `rng`: floats uniform in [-real_bound, real_bound), integers in
// [0, int_count) (small non-negative values are valid indices, shifts and exponents).
inline HostTensor random_tensor(const OperandDescriptor& desc, std::mt19937& rng, float real_bound,
                                uint32_t int_count) {
  HostTensor t{desc, std::vector<std::byte>(*desc.byte_length())};
  visit_type(desc.data_type, [&]<class T>() {
    auto* p = reinterpret_cast<T*>(t.data.data());
    std::uniform_real_distribution<float> real(-real_bound, real_bound);
    for (size_t i = 0; i < t.data.size() / sizeof(T); ++i) {
      if constexpr (std::is_same_v<T, float>) {
        p[i] = real(rng);
      } else if constexpr (std::is_same_v<T, Float16>) {
        p[i] = Float16(real(rng));
      } else {
        p[i] = static_cast<T>(rng() % int_count);
      }
    }
  });
  return t;
}

}  // namespace webnn::tools
