// Fuzzes the service's message handling: the input is the byte stream a client sends into a
// connection (Cap'n Proto RPC frames: bootstrap, calls to Service, ML and Context with their
// parameters). The service must end that connection cleanly whatever arrives — never crash, hang
// or read outside a message. Runs on the reference backend.
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <thread>
#include <utility>

#include "ipc/service.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::signal(SIGPIPE, SIG_IGN);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return 0;
  // The client's side: sends the input, then reads (and drops) replies until the service hangs up.
  std::thread client([&] {
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fds[1], data + done, size - done);
      if (n <= 0) break;
      done += size_t(n);
    }
    ::shutdown(fds[1], SHUT_WR);
    char sink[4096];
    while (::read(fds[1], sink, sizeof(sink)) > 0) {
    }
    ::close(fds[1]);
  });
  webnn::ipc::ServiceOptions options{"", "", [](const std::string&) {}};
  // The default quotas let one client hold 4 GiB of tensors (2 GiB in one), twice the fuzzers'
  // memory ceiling (scripts/fuzz.sh): a valid session that creates two tensors of 2 GiB and reads
  // one peaked at 10 GB RSS here (Python's webnn.Service and its client in one process). The service
  // runs with quotas inside the ceiling instead, as `webnn serve --max-bytes` would on a small
  // machine: what is tested is that every allocation a client asks for is held to them.
  options.limits.max_bytes = uint64_t{256} << 20;
  webnn::ipc::serve_connection_fd(fds[0], std::move(options));
  client.join();
  return 0;
}
