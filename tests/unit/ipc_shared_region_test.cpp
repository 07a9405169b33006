// Shared-memory regions (src/ipc/shared_region.cpp): what a sender seals, a peer can no longer
// change or truncate, and a receiver maps nothing it has not checked.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <numeric>
#include <vector>

#include "ipc/shared_region.hpp"

namespace webnn::ipc {
namespace {

std::vector<std::byte> pattern(size_t n) {
  std::vector<std::byte> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::byte(i * 7 + 3);
  return v;
}

// A memfd as a careless or hostile peer would make it: `seals` only.
int memfd_with_seals(size_t size, int seals) {
  const int fd = ::memfd_create("test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::ftruncate(fd, off_t(size)), 0);
  if (seals) EXPECT_EQ(::fcntl(fd, F_ADD_SEALS, seals), 0);
  return fd;
}

void expect_refused(int fd, uint64_t size, SharedRegion::Access access, const std::string& fragment) {
  try {
    SharedRegion::map_received(fd, size, access, "constant 3");
    ADD_FAILURE() << "mapped; expected " << fragment;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDataError) << e.what();
    EXPECT_NE(std::string(e.what()).find("constant 3: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(IpcSharedRegion, SealedBytesArriveIntact) {
  const auto data = pattern(200000);
  SharedRegion sent = SharedRegion::create_sealed(data);
  SharedRegion received =
      SharedRegion::map_received(::dup(sent.fd()), data.size(), SharedRegion::Access::kReadOnly, "constant 0");
  ASSERT_EQ(received.size(), data.size());
  EXPECT_TRUE(std::equal(data.begin(), data.end(), received.bytes().begin()));
  EXPECT_TRUE(received.writable_bytes().empty());
}

TEST(IpcSharedRegion, ASealedRegionCannotBeChangedOrTruncated) {
  const auto data = pattern(4096);
  SharedRegion sent = SharedRegion::create_sealed(data);
  const int fd = sent.fd();
  EXPECT_NE(::ftruncate(fd, 0), 0);     // shrink
  EXPECT_NE(::ftruncate(fd, 8192), 0);  // grow
  const std::byte b{1};
  EXPECT_NE(::pwrite(fd, &b, 1, 0), 1);                                                     // write
  EXPECT_EQ(::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), MAP_FAILED);  // writable map
  EXPECT_NE(::fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE), 0);                              // more seals
}

TEST(IpcSharedRegion, AWritableRegionHasAFixedSize) {
  SharedRegion region = SharedRegion::create_writable(4096);
  ASSERT_EQ(region.writable_bytes().size(), 4096u);
  region.writable_bytes()[4095] = std::byte{9};
  EXPECT_NE(::ftruncate(region.fd(), 1), 0);
  SharedRegion peer =
      SharedRegion::map_received(::dup(region.fd()), 4096, SharedRegion::Access::kWritable, "read destination");
  peer.writable_bytes()[0] = std::byte{5};
  EXPECT_EQ(region.bytes()[0], std::byte{5});
  EXPECT_EQ(peer.bytes()[4095], std::byte{9});
}

TEST(IpcSharedRegion, MissingSealsAreRefused) {
  expect_refused(memfd_with_seals(64, 0), 64, SharedRegion::Access::kReadOnly, "not sealed against shrinking");
  expect_refused(memfd_with_seals(64, F_SEAL_SHRINK), 64, SharedRegion::Access::kReadOnly,
                 "not sealed against growing");
  expect_refused(memfd_with_seals(64, F_SEAL_SHRINK | F_SEAL_GROW), 64, SharedRegion::Access::kReadOnly,
                 "not sealed against further sealing");
  // Bytes to read must also be sealed against writing; a destination need not be.
  expect_refused(memfd_with_seals(64, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL), 64, SharedRegion::Access::kReadOnly,
                 "not sealed against writing");
  SharedRegion ok = SharedRegion::map_received(memfd_with_seals(64, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL), 64,
                                               SharedRegion::Access::kWritable, "destination");
  EXPECT_EQ(ok.size(), 64u);
}

TEST(IpcSharedRegion, TheAnnouncedSizeMustBeTheRegionsSize) {
  const int all = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL | F_SEAL_WRITE;
  expect_refused(memfd_with_seals(64, all), 65, SharedRegion::Access::kReadOnly,
                 "the region holds 64 bytes but 65 were announced");
  expect_refused(memfd_with_seals(64, all), 1ull << 40, SharedRegion::Access::kReadOnly, "the region holds 64 bytes");
}

TEST(IpcSharedRegion, ADescriptorThatIsNotAMemfdIsRefused) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[1]);
  expect_refused(fds[0], 0, SharedRegion::Access::kReadOnly, "not a sealable memfd");
  char path[] = "/tmp/webnn_region_XXXXXX";
  const int file = ::mkstemp(path);
  ASSERT_GE(file, 0);
  ::unlink(path);
  // A regular file: sealing is not allowed on it (or, on tmpfs, it reports F_SEAL_SEAL only).
  try {
    SharedRegion::map_received(file, 0, SharedRegion::Access::kReadOnly, "constant 3");
    ADD_FAILURE() << "a regular file was mapped";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDataError) << e.what();
  }
}

TEST(IpcSharedRegion, AsABufferTheMappingOutlivesTheRegionObject) {
  const auto data = pattern(100000);
  BufferRef buffer = SharedRegion::to_buffer(SharedRegion::create_sealed(data));
  ASSERT_EQ(buffer.size, data.size());
  EXPECT_TRUE(std::equal(data.begin(), data.end(), buffer.span().begin()));
}

TEST(IpcSharedRegion, AnEmptyRegionMapsNothing) {
  SharedRegion r = SharedRegion::create_sealed({});
  SharedRegion received = SharedRegion::map_received(::dup(r.fd()), 0, SharedRegion::Access::kReadOnly, "empty");
  EXPECT_EQ(received.size(), 0u);
  EXPECT_TRUE(received.bytes().empty());
}

}  // namespace
}  // namespace webnn::ipc
