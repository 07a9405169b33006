#include "backends/memory_plan.hpp"

#include <algorithm>
#include <numeric>

namespace webnn {

namespace {

size_t round_up(size_t value, size_t alignment) { return (value + alignment - 1) / alignment * alignment; }

bool lifetimes_overlap(const BufferLifetime& a, const BufferLifetime& b) {
  return a.first_step <= b.last_step && b.first_step <= a.last_step;
}

}  // namespace

ArenaPlan plan_arena(const std::vector<BufferLifetime>& buffers, size_t alignment) {
  ArenaPlan plan;
  plan.offsets.assign(buffers.size(), 0);
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  // Largest first; ties by first use, so the packing is deterministic.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (buffers[a].bytes != buffers[b].bytes) return buffers[a].bytes > buffers[b].bytes;
    return buffers[a].first_step < buffers[b].first_step;
  });
  struct Placed {
    size_t begin, end, index;
  };
  std::vector<Placed> placed;  // kept sorted by begin
  for (size_t index : order) {
    const BufferLifetime& buffer = buffers[index];
    const size_t size = round_up(std::max<size_t>(buffer.bytes, 1), alignment);
    // The lowest gap between the placed buffers that are alive together with this one.
    size_t offset = 0;
    for (const Placed& p : placed) {
      if (!lifetimes_overlap(buffers[p.index], buffer)) continue;
      if (p.begin >= offset + size) break;  // fits in the gap before p
      offset = std::max(offset, round_up(p.end, alignment));
    }
    plan.offsets[index] = offset;
    plan.arena_bytes = std::max(plan.arena_bytes, offset + size);
    const Placed entry{offset, offset + size, index};
    placed.insert(std::upper_bound(placed.begin(), placed.end(), entry,
                                   [](const Placed& a, const Placed& b) { return a.begin < b.begin; }),
                  entry);
  }
  return plan;
}

}  // namespace webnn
