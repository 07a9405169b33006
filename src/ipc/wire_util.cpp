#include "ipc/wire_util.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace webnn::ipc {

sockaddr_un unix_address(const std::string& path, const std::string& what) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(addr.sun_path))
    throw_error(ErrorKind::kTypeError,
                what + ": the socket path must hold 1 to " + std::to_string(sizeof(addr.sun_path) - 1) + " bytes");
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return addr;
}

void set_failure(wire::Failure::Builder out, const Error& error) {
  out.setKind(static_cast<uint8_t>(error.kind()));
  out.setMessage(wire_text(error.message()));
}

Error error_of(wire::Failure::Reader failure) {
  const uint8_t kind = failure.getKind();
  constexpr uint8_t kLast = static_cast<uint8_t>(ErrorKind::kUnknownError);
  return Error(kind <= kLast ? static_cast<ErrorKind>(kind) : ErrorKind::kUnknownError, std_text(failure.getMessage()));
}

RegionServer::RegionServer(const SharedRegion& region) : fd_(::fcntl(region.fd(), F_DUPFD_CLOEXEC, 0)) {
  if (fd_ < 0) throw_error(ErrorKind::kUnknownError, "shared memory: could not duplicate a region's descriptor");
}

RegionServer::~RegionServer() noexcept(false) { ::close(fd_); }

int region_fd(wire::Region::Client region, const std::string& where) {
  KJ_IF_MAYBE (fd, capnp::ClientHook::from(kj::mv(region))->getFd()) {
    const int copy = ::fcntl(*fd, F_DUPFD_CLOEXEC, 0);
    if (copy < 0) throw_error(ErrorKind::kUnknownError, where + ": could not duplicate the region's descriptor");
    return copy;
  }
  throw_error(ErrorKind::kDataError, where + ": the region arrived without a file descriptor");
}

void SharedPacker::write(std::span<const std::byte> data, wire::Bytes::Builder out) {
  if (data.size() <= SharedRegion::kInlineLimit) {
    out.setInline({reinterpret_cast<const capnp::byte*>(data.data()), data.size()});
    return;
  }
  const size_t offset = (buffer_.size() + 63) / 64 * 64;
  buffer_.resize(offset);
  buffer_.insert(buffer_.end(), data.begin(), data.end());
  auto slice = out.initShared();
  slice.setOffset(offset);
  slice.setSize(data.size());
}

void SharedPacker::finish(wire::SharedRegion::Builder out) {
  out.setSize(buffer_.size());
  out.setRegion(kj::heap<RegionServer>(SharedRegion::create_sealed(buffer_)));  // the region unmaps here
  std::vector<std::byte>().swap(buffer_);
}

SharedUnpacker::SharedUnpacker(bool has_region, wire::SharedRegion::Reader region, const std::string& where) {
  if (!has_region) return;
  region_ = SharedRegion::to_buffer(SharedRegion::map_received(region_fd(region.getRegion(), where), region.getSize(),
                                                               SharedRegion::Access::kReadOnly, where));
}

BufferRef SharedUnpacker::read(wire::Bytes::Reader bytes, const std::string& where) const {
  if (bytes.isInline()) {
    auto data = bytes.getInline();
    return BufferRef::copy_of({reinterpret_cast<const std::byte*>(data.begin()), data.size()});
  }
  if (!bytes.isShared()) throw_error(ErrorKind::kDataError, where + ": unknown kind of bytes");
  if (!region_) throw_error(ErrorKind::kDataError, where + ": a slice of shared memory, but the message carries none");
  const uint64_t offset = bytes.getShared().getOffset(), size = bytes.getShared().getSize();
  if (offset > region_->size || size > region_->size - offset)
    throw_error(ErrorKind::kDataError, where + ": the slice [" + std::to_string(offset) + ", +" + std::to_string(size) +
                                           ") lies outside the region of " + std::to_string(region_->size) + " bytes");
  // Aliases the region's owner: the slice keeps the whole mapping alive.
  return BufferRef{std::shared_ptr<const std::byte>(region_->data, region_->data.get() + offset), size_t(size)};
}

}  // namespace webnn::ipc
