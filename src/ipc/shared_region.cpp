#include "ipc/shared_region.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace webnn::ipc {

namespace {

[[noreturn]] void system_failure(const std::string& what) {
  throw_error(ErrorKind::kUnknownError, "shared memory: " + what + ": " + std::strerror(errno));
}

// An fd closed on every path out of a function unless released.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
  int release() { return std::exchange(fd, -1); }
};

int new_memfd(size_t size) {
  FdGuard fd{::memfd_create("webnn", MFD_CLOEXEC | MFD_ALLOW_SEALING)};
  if (fd.fd < 0) system_failure("memfd_create");
  if (::ftruncate(fd.fd, static_cast<off_t>(size)) != 0)
    system_failure("could not size a region of " + std::to_string(size) + " bytes");
  return fd.release();
}

std::byte* map(int fd, size_t size, int prot, const std::string& where) {
  if (size == 0) return nullptr;
  void* p = ::mmap(nullptr, size, prot, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED)
    throw_error(ErrorKind::kDataError, where + ": the region cannot be mapped: " + std::strerror(errno));
  return static_cast<std::byte*>(p);
}

void add_seals(int fd, int seals) {
  if (::fcntl(fd, F_ADD_SEALS, seals) != 0) system_failure("could not seal a region");
}

}  // namespace

SharedRegion SharedRegion::create_sealed(std::span<const std::byte> data) {
  FdGuard fd{new_memfd(data.size())};
  // Written through write(), not a mapping: F_SEAL_WRITE needs no writable mapping to exist.
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::pwrite(fd.fd, data.data() + done, data.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) system_failure("could not fill a region");
    done += static_cast<size_t>(n);
  }
  add_seals(fd.fd, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
  std::byte* p = map(fd.fd, data.size(), PROT_READ, "shared memory");
  return SharedRegion(fd.release(), p, data.size(), Access::kReadOnly);
}

SharedRegion SharedRegion::create_writable(size_t size) {
  FdGuard fd{new_memfd(size)};
  add_seals(fd.fd, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
  std::byte* p = map(fd.fd, size, PROT_READ | PROT_WRITE, "shared memory");
  return SharedRegion(fd.release(), p, size, Access::kWritable);
}

SharedRegion SharedRegion::map_received(int raw_fd, uint64_t size, Access access, const std::string& where) {
  FdGuard fd{raw_fd};
  const int seals = ::fcntl(fd.fd, F_GET_SEALS);
  if (seals < 0) throw_error(ErrorKind::kDataError, where + ": the file descriptor is not a sealable memfd");
  const struct {
    int seal;
    const char* name;
  } required[] = {{F_SEAL_SHRINK, "shrinking"},
                  {F_SEAL_GROW, "growing"},
                  {F_SEAL_SEAL, "further sealing"},
                  {F_SEAL_WRITE, "writing"}};
  for (const auto& r : required) {
    if (r.seal == F_SEAL_WRITE && access != Access::kReadOnly) continue;
    if (!(seals & r.seal)) throw_error(ErrorKind::kDataError, where + ": the region is not sealed against " + r.name);
  }
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw_error(ErrorKind::kDataError, where + ": the file descriptor is not a memory region");
  if (static_cast<uint64_t>(st.st_size) != size)
    throw_error(ErrorKind::kDataError, where + ": the region holds " + std::to_string(st.st_size) + " bytes but " +
                                           std::to_string(size) + " were announced");
  const int prot = access == Access::kReadOnly ? PROT_READ : PROT_READ | PROT_WRITE;
  std::byte* p = map(fd.fd, static_cast<size_t>(size), prot, where);
  return SharedRegion(fd.release(), p, static_cast<size_t>(size), access);
}

SharedRegion::SharedRegion(SharedRegion&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      access_(other.access_) {}

SharedRegion& SharedRegion::operator=(SharedRegion&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    access_ = other.access_;
  }
  return *this;
}

SharedRegion::~SharedRegion() { release(); }

void SharedRegion::release() noexcept {
  if (data_) ::munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
  data_ = nullptr;
  fd_ = -1;
}

BufferRef SharedRegion::to_buffer(SharedRegion region) {
  auto owner = std::make_shared<SharedRegion>(std::move(region));
  const std::byte* data = owner->data_;
  const size_t size = owner->size_;
  return BufferRef{std::shared_ptr<const std::byte>(owner, data), size};
}

}  // namespace webnn::ipc
