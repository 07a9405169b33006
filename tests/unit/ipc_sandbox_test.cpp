// The service worker's sandbox (src/ipc/sandbox.cpp): a child process enters it and tries each
// forbidden call; each is refused (EPERM) or ends the process (SIGSYS), while what a worker
// needs — threads, memory, executable memory for oneDNN's JIT, the descriptors it holds — works.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <functional>
#include <thread>

#include "ipc/sandbox.hpp"

namespace webnn::ipc {
namespace {

// What a sandboxed child did: the exit status it chose, or the signal that ended it.
struct Outcome {
  int exit_code = -1;
  int signal = 0;
};

// Runs `body` in a child process inside the sandbox; the child exits with what `body` returns.
Outcome in_sandbox(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    try {
      enter_sandbox({uint64_t{8} << 30, 64});
    } catch (...) {
      ::_exit(100);
    }
    ::_exit(body());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  Outcome out;
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  return out;
}

// 0 when the call failed with EPERM, 1 when it succeeded, 2 when it failed otherwise.
int refused(long result) { return result >= 0 ? 1 : errno == EPERM ? 0 : 2; }

TEST(IpcSandbox, OpeningAFileIsRefused) {
  EXPECT_EQ(in_sandbox([] { return refused(::open("/etc/hostname", O_RDONLY)); }).exit_code, 0);
  EXPECT_EQ(in_sandbox([] { return refused(::open("/tmp/webnn_sandbox_new", O_WRONLY | O_CREAT, 0600)); }).exit_code,
            0);
  EXPECT_EQ(in_sandbox([] { return refused(::memfd_create("x", 0)); }).exit_code, 0);
  EXPECT_EQ(in_sandbox([] { return refused(::unlink("/tmp/anything")); }).exit_code, 0);
}

TEST(IpcSandbox, CreatingASocketIsRefused) {
  EXPECT_EQ(in_sandbox([] { return refused(::socket(AF_UNIX, SOCK_STREAM, 0)); }).exit_code, 0);
  EXPECT_EQ(in_sandbox([] { return refused(::socket(AF_INET, SOCK_STREAM, 0)); }).exit_code, 0);
  EXPECT_EQ(in_sandbox([] {
              int pair[2];
              return refused(::socketpair(AF_UNIX, SOCK_STREAM, 0, pair));
            }).exit_code,
            0);
}

TEST(IpcSandbox, ExecEndsTheProcess) {
  const Outcome out = in_sandbox([] {
    char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
    ::execv("/bin/true", argv);
    return 1;  // not reached: the filter kills the process first
  });
  EXPECT_EQ(out.signal, SIGSYS);
}

TEST(IpcSandbox, ANewProcessIsRefusedAndOthersCannotBeSignalled) {
  EXPECT_EQ(in_sandbox([] {
              const pid_t child = ::fork();
              if (child == 0) ::_exit(0);
              return refused(child);
            }).exit_code,
            0);
  EXPECT_EQ(in_sandbox([] { return refused(::kill(::getppid(), 0)); }).exit_code, 0);
  // Itself it may signal (abort() and raise() need it).
  EXPECT_EQ(in_sandbox([] { return ::kill(::getpid(), 0) == 0 ? 0 : 1; }).exit_code, 0);
}

TEST(IpcSandbox, PtraceEndsTheProcessOutsideTheSanitizerBuild) {
  const Outcome out = in_sandbox([] { return refused(::syscall(SYS_ptrace, 0 /* PTRACE_TRACEME */, 0, 0, 0)); });
  if (sandbox_reduced())
    EXPECT_EQ(out.signal, 0);  // LeakSanitizer needs ptrace: documented reduced mode
  else
    EXPECT_EQ(out.signal, SIGSYS);
}

TEST(IpcSandbox, WhatAWorkerNeedsStillWorks) {
  const Outcome out = in_sandbox([] {
    // Threads (OpenMP's, the timeline's).
    int value = 0;
    std::thread([&] { value = 42; }).join();
    if (value != 42) return 1;
    // Executable memory (oneDNN's JIT).
    void* code = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED || ::mprotect(code, 4096, PROT_READ | PROT_EXEC) != 0) return 2;
    // The descriptors it holds (its connection, the standard streams).
    if (::write(STDERR_FILENO, "", 0) != 0) return 3;
    // Memory below the address-space limit, not above it.
    void* big = ::mmap(nullptr, uint64_t{16} << 30, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    const bool limited = big == MAP_FAILED;
    return limited || sandbox_reduced() ? 0 : 4;
  });
  EXPECT_EQ(out.exit_code, 0) << "signal " << out.signal;
}

TEST(IpcSandbox, TheRulesAreListed) {
  const std::vector<std::string> rules = sandbox_rules();
  auto has = [&](const std::string& prefix) {
    for (const auto& r : rules)
      if (r.rfind(prefix, 0) == 0) return true;
    return false;
  };
  EXPECT_TRUE(has("execve: kill"));
  EXPECT_TRUE(has("openat: EPERM"));
  EXPECT_TRUE(has("socket: EPERM"));
  EXPECT_TRUE(has("ptrace: kill"));
}

}  // namespace
}  // namespace webnn::ipc
