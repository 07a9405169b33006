// The limits every context of this implementation shares. A context reports them in
// MLOpSupportLimits (MLContext::op_support_limits()); front ends that refuse a value before it
// reaches a context (Python's arrays, while they are still views) read them here.
#pragma once

#include <cstdint>

namespace webnn {

// MLOpSupportLimits.maxTensorByteLength of every context: no tensor, operand or constant may hold
// more bytes (2 GiB).
inline constexpr uint64_t kMaxTensorByteLength = uint64_t{1} << 31;

}  // namespace webnn
