// The sandbox a service worker enters before it reads its client's first byte (docs/service.md,
// "The worker's sandbox"): resource limits, no new privileges, and a seccomp-bpf filter that
// ends the process on exec or ptrace and refuses new files, sockets and processes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace webnn::ipc {

struct SandboxOptions {
  // RLIMIT_AS: bytes of address space (0 = unlimited). Ignored in the reduced mode.
  uint64_t address_space = 0;
  // RLIMIT_NOFILE: the socket, received shared-memory regions, and the event loop's descriptors.
  uint64_t open_files = 64;
};

// True in sanitizer builds, where LeakSanitizer needs ptrace and ASan's shadow memory an
// unlimited address space: the filter then allows ptrace and RLIMIT_AS is left alone.
bool sandbox_reduced();

// Applies `options` and the filter to the calling process (all its threads: call it while it has
// one, or with TSYNC as here). Throws Error (UnknownError) when the kernel refuses.
void enter_sandbox(const SandboxOptions& options);

// What the filter does with each system call it names, "name: action" (docs and tests).
std::vector<std::string> sandbox_rules();

}  // namespace webnn::ipc
