// Shared by the onednn backend's test files.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "graph/attributes.hpp"

namespace webnn::test {

// conv2d options: explicit padding and strides (a 3x3 "same" convolution by default), groups.
inline Conv2dAttrs conv(std::vector<uint32_t> padding = {1, 1, 1, 1}, std::vector<uint32_t> strides = {1, 1},
                        uint32_t groups = 1) {
  Conv2dAttrs a;
  a.padding = std::move(padding);
  a.strides = std::move(strides);
  a.groups = groups;
  return a;
}

}  // namespace webnn::test
