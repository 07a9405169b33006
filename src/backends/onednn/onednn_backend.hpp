// The fast CPU backend on oneDNN (docs/onednn.md). Float32 convolutions, matmuls, pools and
// activations run as oneDNN primitives with fused post-ops and blocked layouts; every other node
// runs its reference kernel inside the same compiled plan.
#pragma once

#include "backends/backend.hpp"

namespace webnn::onednn {

const Backend& onednn_backend();

}  // namespace webnn::onednn
