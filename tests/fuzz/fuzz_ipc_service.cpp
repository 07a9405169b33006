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
  webnn::ipc::serve_connection_fd(fds[0], {"", "", [](const std::string&) {}});
  client.join();
  return 0;
}
