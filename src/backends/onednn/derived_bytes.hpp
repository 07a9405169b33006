// Bytes a plan derives from constant bytes when it is built (a weight reordered into the layout its
// primitive prefers, an aligned copy of a constant), shared by every plan of the process that
// derives the same bytes from the same storage in the same way, for as long as one of them lives.
// A prefill and a decode graph over one set of constant tensors then hold one reordered copy of
// the weights, not two (docs/onednn.md, "Constant weights").
//
// A derivation is known by the storage its source lives in (held weakly: a freed buffer's address,
// reused by another, is never mistaken for it), the source's address in it, and the two memory
// descriptors. Constant storage is never written after it is made (graph.hpp, BufferRef), so equal
// keys mean equal bytes.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace webnn::onednn {

struct Derivation {
  std::shared_ptr<const void> owner;  // the storage the source bytes live in
  const std::byte* source = nullptr;  // where the source bytes start in it
  dnnl::memory::desc from, to;        // how they are read and what they become (both empty: a copy)
  size_t bytes = 0;                   // of the result
};

// The bytes `d` derives: those a live plan already holds, else a new buffer of `d.bytes` that
// `make` fills (outside any lock: builds on other threads go on meanwhile).
std::shared_ptr<std::vector<std::byte>> derived_bytes(const Derivation& d,
                                                      const std::function<void(std::byte* out)>& make);

// How many derivations some plan holds now (tests).
size_t derived_bytes_held();

}  // namespace webnn::onednn
