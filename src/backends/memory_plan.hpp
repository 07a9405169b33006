// Static memory planning for a compiled graph: buffers whose lifetimes do not overlap share bytes
// of one arena, so a run allocates nothing and the arena is as small as a greedy packing allows.
#pragma once

#include <cstddef>
#include <vector>

namespace webnn {

// A buffer to place: its size in bytes and the steps (in execution order) that first write it and
// last read it, inclusive.
struct BufferLifetime {
  size_t bytes = 0;
  size_t first_step = 0;
  size_t last_step = 0;
};

struct ArenaPlan {
  std::vector<size_t> offsets;  // by buffer, in bytes, each a multiple of the alignment
  size_t arena_bytes = 0;
};

// Places every buffer so that two buffers live at the same step never overlap. Greedy best fit:
// largest buffers first, each at the lowest aligned offset free for its whole lifetime.
ArenaPlan plan_arena(const std::vector<BufferLifetime>& buffers, size_t alignment = 64);

}  // namespace webnn
