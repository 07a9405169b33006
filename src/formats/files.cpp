// Reading whole files without blocking, writing sets of files atomically (temporary files renamed
// into place together), and the one mapping from output names to file names.
#include <fcntl.h>
#include <linux/openat2.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <vector>

#include "formats/internal.hpp"

namespace webnn::formats {

int open_regular_file(const std::string& path, const std::string& what) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever. The check
  // comes after the open (not a stat() before it), so nothing can be swapped in between.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) fail(path + ": cannot open " + what + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(path + ": the " + what + " is not a regular file");
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    int err = errno;
    ::close(fd);
    fail(path + ": cannot read " + what + ": " + std::strerror(err));
  }
  return fd;
}

namespace {

// A regular file opened with O_NONBLOCK becomes a blocking one; anything else is refused (closed).
int checked_regular(int fd, const std::string& what) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(what + " is not a regular file");
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    int err = errno;
    ::close(fd);
    fail(what + ": cannot read: " + std::strerror(err));
  }
  return fd;
}

[[noreturn]] void fail_beneath(const std::string& what, int err) {
  if (err == EXDEV || err == ELOOP) fail(what + " leaves the model's directory (through a symbolic link or \"..\")");
  fail(what + ": cannot open: " + std::strerror(err));
}

// openat2 with RESOLVE_BENEATH: the kernel refuses any step of the resolution that leaves dirfd
// (an absolute path, "..", a symbolic link pointing out); links that stay inside are followed.
// Returns -1 with errno ENOSYS where the kernel lacks openat2.
int openat2_beneath(int dirfd, const std::string& relative) {
  open_how how{};
  how.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  long fd;
  do {
    fd = ::syscall(SYS_openat2, dirfd, relative.c_str(), &how, sizeof(how));
  } while (fd < 0 && errno == EINTR);
  return int(fd);
}

// Without openat2: realpath() resolves every link, the result must lie inside the directory's own
// real path, and that resolved path is then opened one component at a time with O_NOFOLLOW, so no
// link swapped in after the check is followed either.
int open_beneath_nofollow(const std::string& dir, const std::string& relative, const std::string& what) {
  char* real_dir = ::realpath(dir.c_str(), nullptr);
  if (!real_dir) fail_beneath(what, errno);
  const std::string root = real_dir;
  std::free(real_dir);
  char* real_file = ::realpath((root + "/" + relative).c_str(), nullptr);
  if (!real_file) fail_beneath(what, errno);
  const std::string target = real_file;
  std::free(real_file);
  const std::string prefix = root == "/" ? root : root + "/";
  if (target.compare(0, prefix.size(), prefix) != 0 || target.size() == prefix.size()) fail_beneath(what, EXDEV);
  std::vector<std::string> parts;
  for (size_t at = prefix.size(); at <= target.size();) {
    size_t end = target.find('/', at);
    if (end == std::string::npos) end = target.size();
    parts.push_back(target.substr(at, end - at));
    at = end + 1;
  }
  int fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail_beneath(what, errno);
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    const int flags =
        last ? O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW : O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW;
    int next = ::openat(fd, parts[i].c_str(), flags);
    int err = errno;
    ::close(fd);
    // A component that is a link now: O_NOFOLLOW gives ELOOP (the file) or ENOTDIR (a directory).
    if (next < 0) fail_beneath(what, err == ENOTDIR ? ELOOP : err);
    fd = next;
  }
  return fd;
}

}  // namespace

int open_beneath(const std::string& dir, const std::string& relative, const std::string& what, bool use_openat2) {
  // An absolute path or a ".." component is refused as such on both paths (openat2 would refuse
  // it too, but realpath() would resolve it first and report a missing file instead).
  if (relative.empty() || relative[0] == '/') fail_beneath(what, EXDEV);
  for (const auto& part : std::filesystem::path(relative))
    if (part == "..") fail_beneath(what, EXDEV);
  if (use_openat2) {
    int dirfd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) fail(what + ": cannot open the model's directory " + dir + ": " + std::strerror(errno));
    int fd = openat2_beneath(dirfd, relative);
    int err = errno;
    ::close(dirfd);
    if (fd >= 0) return checked_regular(fd, what);
    if (err != ENOSYS) fail_beneath(what, err);
  }
  return checked_regular(open_beneath_nofollow(dir, relative, what), what);
}

int read_exactly(int fd, std::byte* into, uint64_t size, uint64_t offset) {
  for (uint64_t done = 0; done < size;) {
    const ssize_t n = ::pread(fd, into + done, size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return kFileEnded;
    done += uint64_t(n);
  }
  return 0;
}

std::string read_file(const std::string& path, const std::string& what) {
  int fd = open_regular_file(path, what);
  struct stat st {};
  ::fstat(fd, &st);
  std::string out;
  out.resize(size_t(st.st_size));
  const int failure = read_exactly(fd, reinterpret_cast<std::byte*>(out.data()), out.size(), 0);
  ::close(fd);
  if (failure)
    fail(path + ": read failed: " +
         (failure == kFileEnded ? std::string("file shrank while reading") : std::strerror(failure)));
  return out;
}

// ---- Temporaries that a signal handler can remove ----
//
// Every temporary file AtomicWriter holds is listed in a fixed table that a signal handler can
// walk without locks or allocation; remove_pending_temporaries() unlinks them (unlink is
// async-signal-safe). A slot is claimed (kClaimed), filled, then published (kLive).

namespace {

enum SlotState : int { kFree = 0, kClaimed = 1, kLive = 2 };
constexpr size_t kMaxPendingTemps = 256;
struct PendingTemp {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
PendingTemp g_pending[kMaxPendingTemps];

int register_temporary(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (size_t i = 0; i < kMaxPendingTemps; ++i) {
    int expected = kFree;
    if (g_pending[i].state.compare_exchange_strong(expected, kClaimed)) {
      std::memcpy(g_pending[i].path, path.c_str(), path.size() + 1);
      g_pending[i].state.store(kLive);
      return int(i);
    }
  }
  return -1;  // more than 256 files being written at once: those are cleaned up on errors only
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_pending[slot].state.store(kFree);
}

// Renames in progress, and a termination signal that arrived during one. The signal may be
// delivered to any thread of the process, so blocking it in the renaming thread is not enough: the
// handler defers to the rename loop instead, which ends the process once its set is complete (or
// rolled back).
std::atomic<int> g_renaming{0};
std::atomic<int> g_deferred_signal{0};

void end_by_signal(int sig) {
  remove_pending_temporaries();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

extern "C" void remove_temporaries_and_reraise(int sig) {
  if (g_renaming.load() > 0) {
    g_deferred_signal.store(sig);
    return;
  }
  end_by_signal(sig);
}

// Marks a rename loop; at its end, a signal deferred meanwhile ends the process as it would have.
class RenameSection {
 public:
  RenameSection() { g_renaming.fetch_add(1); }
  ~RenameSection() {
    if (g_renaming.fetch_sub(1) == 1)
      if (int sig = g_deferred_signal.exchange(0)) end_by_signal(sig);
  }
  RenameSection(const RenameSection&) = delete;
  RenameSection& operator=(const RenameSection&) = delete;
};

}  // namespace

void remove_pending_temporaries() noexcept {
  for (PendingTemp& p : g_pending)
    if (p.state.load() == kLive) ::unlink(p.path);
}

void remove_temporaries_on_signals() {
  struct sigaction action {};
  action.sa_handler = remove_temporaries_and_reraise;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

// ---- AtomicWriter ----

AtomicWriter::~AtomicWriter() {
  for (File& f : files_) {
    if (f.fd >= 0) ::close(f.fd);
    if (!f.temp.empty()) ::unlink(f.temp.c_str());
    unregister_temporary(f.slot);
  }
}

size_t AtomicWriter::begin(const std::string& path) {
  std::filesystem::path p(path);
  std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  // A hidden temporary in the same directory, so rename() stays on one file system. Its name is
  // registered for the signal handler before the file exists (mkstemp would create it first, and a
  // signal in between would leave it behind); O_EXCL keeps it ours, a taken name is drawn again.
  static constexpr char kLetters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  thread_local std::mt19937_64 random{std::random_device{}()};
  const std::string prefix = dir + "/." + p.filename().string() + ".tmp.";
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string temp = prefix;
    for (int i = 0; i < 6; ++i) temp += kLetters[random() % (sizeof(kLetters) - 1)];
    const int slot = register_temporary(temp);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
      const int err = errno;
      unregister_temporary(slot);
      if (err == EEXIST) continue;
      fail(path + ": cannot create a temporary file in " + dir + ": " + std::strerror(err));
    }
    ::fchmod(fd, 0644);
    files_.push_back({path, temp, fd, slot, {}});
    return files_.size() - 1;
  }
  fail(path + ": cannot create a temporary file in " + dir + ": every name tried is taken");
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
  // From the first link to the last rename, a termination signal waits (RenameSection), so the
  // set ends up complete or as it was, and no backup link is left behind.
  RenameSection section;
  // A file that already exists is kept as a hard link until every rename has succeeded, so a
  // rename that fails half-way through the set puts the earlier files back as they were.
  for (File& f : files_) {
    struct stat st {};
    if (::lstat(f.path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) fail(f.path + ": is a directory");
    f.backup = f.temp + ".old";
    if (::link(f.path.c_str(), f.backup.c_str()) != 0) f.backup.clear();
  }
  size_t renamed = 0;
  for (; renamed < files_.size(); ++renamed) {
    File& f = files_[renamed];
    if (::rename(f.temp.c_str(), f.path.c_str()) != 0) break;
    f.temp.clear();
  }
  const int err = errno;
  const bool ok = renamed == files_.size();
  for (size_t i = 0; i < files_.size(); ++i) {
    File& f = files_[i];
    if (!ok && i < renamed) {
      if (f.backup.empty() || ::rename(f.backup.c_str(), f.path.c_str()) != 0) ::unlink(f.path.c_str());
    } else if (!f.backup.empty()) {
      ::unlink(f.backup.c_str());
    }
    f.backup.clear();
  }
  if (!ok) fail(files_[renamed].path + ": cannot rename into place: " + std::strerror(err));
}

// ---- Output files ----

std::string output_file_name(std::string_view name) {
  if (name.empty()) fail("an output with an empty name cannot be written to a file");
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                       c == '-' || (c == '.' && i > 0);
    if (plain) {
      out += char(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  out += ".npy";
  if (out.size() > NAME_MAX)
    fail("output " + quote(name) + ": its file name would be " + std::to_string(out.size()) +
         " bytes, more than the file system's " + std::to_string(NAME_MAX));
  return out;
}

std::optional<std::string> output_name_of_file(std::string_view file) {
  if (!file.ends_with(".npy") || file.size() == 4) return std::nullopt;
  file.remove_suffix(4);
  std::string name;
  for (size_t i = 0; i < file.size(); ++i) {
    if (file[i] != '%') {
      name += file[i];
      continue;
    }
    if (i + 2 >= file.size()) return std::nullopt;
    unsigned value = 0;
    auto [end, ec] = std::from_chars(file.data() + i + 1, file.data() + i + 3, value, 16);
    if (ec != std::errc() || end != file.data() + i + 3) return std::nullopt;
    name += char(value);
    i += 2;
  }
  // Only the one spelling output_file_name() gives ("%41" is not another name for "A").
  if (name.empty() || output_file_name(name) != std::string(file) + ".npy") return std::nullopt;
  return name;
}

void write_output_files(const std::string& dir, const std::vector<OutputArray>& outputs) {
  if (dir.empty()) fail("the output directory is an empty path");
  std::error_code ec;
  // The directories this call creates, removed again if the outputs cannot all be written.
  std::vector<std::filesystem::path> created;
  for (std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
       !p.empty() && !std::filesystem::exists(std::filesystem::symlink_status(p, ec)); p = p.parent_path()) {
    created.push_back(p);
    if (p == p.parent_path()) break;  // the root
  }
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec))
    fail(dir + ": not a directory" + (ec ? " (" + ec.message() + ")" : std::string(" (a file of that name exists)")));
  try {
    AtomicWriter writer;
    std::set<std::string> seen;
    for (const OutputArray& o : outputs) {
      std::string file = output_file_name(o.name);
      if (!seen.insert(file).second) fail("output " + quote(o.name) + ": another output is written to " + file);
      size_t f = writer.begin((std::filesystem::path(dir) / file).string());
      writer.append(f, encode_npy(o.desc, o.data));
    }
    writer.commit();
  } catch (...) {
    for (const std::filesystem::path& p : created) std::filesystem::remove(p, ec);  // only if empty
    throw;
  }
}

}  // namespace webnn::formats
