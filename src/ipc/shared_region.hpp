// Shared-memory regions for bytes that cross the process boundary (docs/service.md, Shared
// memory): anonymous memfds, sealed so that a peer can neither change bytes after the receiver
// validated them nor make the receiver fault by truncating the region under its mapping.
//
// The sender creates a region, the fd travels attached to a capability, and the receiver maps it
// only after checking the seals and the size. Nothing here trusts the fd it is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "graph/graph.hpp"

namespace webnn::ipc {

class SharedRegion {
 public:
  enum class Access : uint8_t {
    // Bytes the receiver reads (constants, written tensor bytes): sealed against writing too.
    kReadOnly,
    // A destination the receiver writes (a large read's result): fixed size, writable.
    kWritable,
  };

  // Above this many bytes, constants and tensor bytes travel in a region; below, inline.
  static constexpr size_t kInlineLimit = size_t{64} << 10;

  // A region holding a copy of `data`, sealed against shrinking, growing, writing and further
  // sealing. Throws UnknownError when the kernel refuses (no memfd, out of memory).
  static SharedRegion create_sealed(std::span<const std::byte> data);
  // A zero-filled writable region of `size` bytes, sealed against shrinking, growing and further
  // sealing.
  static SharedRegion create_writable(size_t size);
  // Maps a region a peer sent. Takes ownership of `fd`. Checks, before mapping, that `fd` is a
  // memfd whose seals include shrink, grow and seal (and write, for kReadOnly) and whose size is
  // exactly `size`. Throws DataError naming `where` and the missing seal or the sizes otherwise.
  static SharedRegion map_received(int fd, uint64_t size, Access access, const std::string& where);

  SharedRegion(SharedRegion&&) noexcept;
  SharedRegion& operator=(SharedRegion&&) noexcept;
  ~SharedRegion();

  int fd() const { return fd_; }
  size_t size() const { return size_; }
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  // Only for kWritable regions; empty otherwise.
  std::span<std::byte> writable_bytes() {
    return access_ == Access::kWritable ? std::span(data_, size_) : std::span<std::byte>();
  }
  // The bytes as a constant's buffer, which keeps the mapping (and the fd) alive.
  static BufferRef to_buffer(SharedRegion region);

 private:
  SharedRegion(int fd, std::byte* data, size_t size, Access access)
      : fd_(fd), data_(data), size_(size), access_(access) {}
  void release() noexcept;
  int fd_ = -1;
  std::byte* data_ = nullptr;
  size_t size_ = 0;
  Access access_ = Access::kReadOnly;
};

}  // namespace webnn::ipc
