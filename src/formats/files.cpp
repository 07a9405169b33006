// Reading whole files, and writing sets of files atomically (temporary file + rename).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "formats/internal.hpp"

namespace webnn::formats {

std::string read_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(path + ": not a regular file");
  }
  std::string out;
  out.resize(size_t(st.st_size));
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::read(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      fail(path + ": read failed: " + (n == 0 ? std::string("file shrank while reading") : std::strerror(err)));
    }
    done += size_t(n);
  }
  ::close(fd);
  return out;
}

AtomicWriter::~AtomicWriter() {
  for (File& f : files_) {
    if (f.fd >= 0) ::close(f.fd);
    if (!f.temp.empty()) ::unlink(f.temp.c_str());
  }
}

size_t AtomicWriter::begin(const std::string& path) {
  std::filesystem::path p(path);
  std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  // A hidden temporary in the same directory, so rename() stays on one file system.
  std::string temp = dir + "/." + p.filename().string() + ".tmp.XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(path + ": cannot create a temporary file in " + dir + ": " + std::strerror(errno));
  ::fchmod(fd, 0644);
  files_.push_back({path, temp, fd});
  return files_.size() - 1;
}

void AtomicWriter::append(size_t file, std::span<const std::byte> bytes) {
  File& f = files_.at(file);
  const std::byte* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(f.fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(f.path + ": write failed: " + std::strerror(errno));
    p += n;
    left -= size_t(n);
  }
}

void AtomicWriter::append(size_t file, std::string_view text) { append(file, as_bytes(text)); }

void AtomicWriter::commit() {
  for (File& f : files_) {
    if (::fsync(f.fd) != 0 || ::close(f.fd) != 0) {
      f.fd = -1;
      fail(f.path + ": write failed: " + std::strerror(errno));
    }
    f.fd = -1;
  }
  for (File& f : files_) {
    if (::rename(f.temp.c_str(), f.path.c_str()) != 0)
      fail(f.path + ": cannot rename into place: " + std::strerror(errno));
    f.temp.clear();
  }
}

}  // namespace webnn::formats
