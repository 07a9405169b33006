// Private to src/ipc: what the service and the client both do with the schema's small types.
#pragma once

#include <capnp/capability.h>
#include <sys/un.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ipc/shared_region.hpp"
#include "ipc/webnn.capnp.h"
#include "webnn/types.hpp"

namespace webnn::ipc {

// File descriptors one message may carry: the protocol sends one (a region); a few more cost nothing.
inline constexpr unsigned kMaxFdsPerMessage = 4;

// The address of the Unix socket at `path`; TypeError (prefixed by `what`) when the path is empty
// or too long for sockaddr_un.
sockaddr_un unix_address(const std::string& path, const std::string& what);

inline capnp::Text::Reader wire_text(const std::string& s) { return {s.c_str(), s.size()}; }
inline std::string std_text(capnp::Text::Reader t) { return {t.cStr(), t.size()}; }

// An API error (kind and message) into a result's `failure`, and back as the same Error (an
// unknown kind becomes UnknownError).
void set_failure(wire::Failure::Builder out, const Error& error);
Error error_of(wire::Failure::Reader failure);
[[noreturn]] inline void throw_failure(wire::Failure::Reader failure) { throw error_of(failure); }

// A Region capability: it owns a descriptor of the region (a duplicate of the creator's, which
// keeps its own mapping) and hands it out through getFd().
class RegionServer final : public wire::Region::Server {
 public:
  explicit RegionServer(const SharedRegion& region);
  ~RegionServer() noexcept(false);
  kj::Maybe<int> getFd() override { return fd_; }

 private:
  int fd_;
};

// The fd a received Region capability carries, duplicated (the caller owns it); DataError if none.
int region_fd(wire::Region::Client region, const std::string& where);

// The bytes of one message being written: up to SharedRegion::kInlineLimit inline, larger ones
// appended (64-byte aligned) to one buffer, which finish() seals into the message's one region.
class SharedPacker {
 public:
  void write(std::span<const std::byte> data, wire::Bytes::Builder out);
  bool used() const { return !buffer_.empty(); }
  // Seals what was appended into a region and sets `out` to it. Only when used().
  void finish(wire::SharedRegion::Builder out);

 private:
  std::vector<std::byte> buffer_;
};

// The bytes of one received message: inline bytes are copied (the message goes away), slices of
// the message's region are shared without a copy. The region is checked and mapped once, here
// (SharedRegion::map_received against the size the message announced); every slice is checked
// against it.
class SharedUnpacker {
 public:
  // `has_region`: whether the message carries its region (`region` is read only then).
  SharedUnpacker(bool has_region, wire::SharedRegion::Reader region, const std::string& where);
  BufferRef read(wire::Bytes::Reader bytes, const std::string& where) const;

 private:
  std::optional<BufferRef> region_;
};

}  // namespace webnn::ipc
