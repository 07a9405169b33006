#include "ipc/sandbox.hpp"

#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "webnn/webnn.hpp"

namespace webnn::ipc {

namespace {

enum class Action { kKill, kRefuse };

struct Rule {
  const char* call;
  Action action;
  const char* why;
};

// Ends the process: nothing a worker does legitimately needs them, so a call is an attack.
constexpr Rule kKilled[] = {
    {"execve", Action::kKill, "run another program"},
    {"execveat", Action::kKill, "run another program"},
    {"process_vm_readv", Action::kKill, "read another process's memory"},
    {"process_vm_writev", Action::kKill, "write another process's memory"},
};

// Fails with EPERM: libraries may probe for them (glibc reads /sys for the processor count), and
// a refusal is their documented fallback.
constexpr Rule kRefused[] = {
    {"open", Action::kRefuse, "open a file"},
    {"openat", Action::kRefuse, "open a file"},
    {"openat2", Action::kRefuse, "open a file"},
    {"creat", Action::kRefuse, "create a file"},
    {"open_by_handle_at", Action::kRefuse, "open a file"},
    {"name_to_handle_at", Action::kRefuse, "name a file"},
    {"memfd_create", Action::kRefuse, "create a file"},
    {"mknod", Action::kRefuse, "create a file"},
    {"mknodat", Action::kRefuse, "create a file"},
    {"link", Action::kRefuse, "change the file system"},
    {"linkat", Action::kRefuse, "change the file system"},
    {"symlink", Action::kRefuse, "change the file system"},
    {"symlinkat", Action::kRefuse, "change the file system"},
    {"unlink", Action::kRefuse, "change the file system"},
    {"unlinkat", Action::kRefuse, "change the file system"},
    {"rename", Action::kRefuse, "change the file system"},
    {"renameat", Action::kRefuse, "change the file system"},
    {"renameat2", Action::kRefuse, "change the file system"},
    {"mkdir", Action::kRefuse, "change the file system"},
    {"mkdirat", Action::kRefuse, "change the file system"},
    {"rmdir", Action::kRefuse, "change the file system"},
    {"truncate", Action::kRefuse, "change the file system"},
    {"chmod", Action::kRefuse, "change the file system"},
    {"fchmodat", Action::kRefuse, "change the file system"},
    {"chown", Action::kRefuse, "change the file system"},
    {"lchown", Action::kRefuse, "change the file system"},
    {"fchownat", Action::kRefuse, "change the file system"},
    {"socket", Action::kRefuse, "create a socket"},
    {"socketpair", Action::kRefuse, "create a socket"},
    {"fork", Action::kRefuse, "create a process"},
    {"vfork", Action::kRefuse, "create a process"},
    {"mount", Action::kRefuse, "change the mounts"},
    {"umount2", Action::kRefuse, "change the mounts"},
    {"pivot_root", Action::kRefuse, "change the mounts"},
    {"chroot", Action::kRefuse, "change the mounts"},
    {"setns", Action::kRefuse, "enter a namespace"},
    {"unshare", Action::kRefuse, "enter a namespace"},
    {"bpf", Action::kRefuse, "load kernel code"},
    {"perf_event_open", Action::kRefuse, "observe other processes"},
    {"userfaultfd", Action::kRefuse, "a known exploit primitive"},
    {"io_uring_setup", Action::kRefuse, "a known exploit primitive"},
    {"keyctl", Action::kRefuse, "use the kernel keyrings"},
    {"add_key", Action::kRefuse, "use the kernel keyrings"},
    {"request_key", Action::kRefuse, "use the kernel keyrings"},
    {"kexec_load", Action::kRefuse, "load a kernel"},
    {"init_module", Action::kRefuse, "load a kernel module"},
    {"finit_module", Action::kRefuse, "load a kernel module"},
    {"delete_module", Action::kRefuse, "unload a kernel module"},
    {"pidfd_open", Action::kRefuse, "reach another process"},
    {"pidfd_getfd", Action::kRefuse, "reach another process"},
    {"pidfd_send_signal", Action::kRefuse, "signal another process"},
    {"tkill", Action::kRefuse, "signal another thread by id alone"},
    {"kcmp", Action::kRefuse, "compare other processes"},
    {"process_madvise", Action::kRefuse, "reach another process"},
};

[[noreturn]] void refused(const std::string& what, int err) {
  throw_error(ErrorKind::kUnknownError, "sandbox: " + what + ": " + std::strerror(err));
}

void set_limit(int resource, uint64_t value, const char* name) {
  const rlimit limit{value, value};
  if (::setrlimit(resource, &limit) != 0) refused(std::string("setrlimit ") + name, errno);
}

uint32_t action_of(Action a) {
  switch (a) {
    case Action::kKill:
      return SCMP_ACT_KILL_PROCESS;
    case Action::kRefuse:
      return SCMP_ACT_ERRNO(EPERM);
  }
  return SCMP_ACT_KILL_PROCESS;
}

// A comparison of a call's first argument (libseccomp's SCMP_A0, spelled out: its compound
// literal leaves fields to the compiler's zero, which clang warns about).
scmp_arg_cmp first_argument(scmp_compare op, scmp_datum_t a, scmp_datum_t b = 0) {
  scmp_arg_cmp c{};
  c.arg = 0;
  c.op = op;
  c.datum_a = a;
  c.datum_b = b;
  return c;
}

}  // namespace

bool sandbox_reduced() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

void enter_sandbox(const SandboxOptions& options) {
  if (!sandbox_reduced() && options.address_space) set_limit(RLIMIT_AS, options.address_space, "RLIMIT_AS");
  set_limit(RLIMIT_NOFILE, options.open_files, "RLIMIT_NOFILE");
  set_limit(RLIMIT_CORE, 0, "RLIMIT_CORE");
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) refused("no_new_privs", errno);

  std::unique_ptr<void, void (*)(scmp_filter_ctx)> ctx(seccomp_init(SCMP_ACT_ALLOW), seccomp_release);
  if (!ctx) refused("seccomp_init", ENOMEM);
  auto add = [&](const char* call, uint32_t action, unsigned count = 0, const scmp_arg_cmp* args = nullptr) {
    const int nr = seccomp_syscall_resolve_name(call);
    if (nr == __NR_SCMP_ERROR) return;  // not a call of this architecture
    const int rc = seccomp_rule_add_array(ctx.get(), action, nr, count, args);
    if (rc != 0) refused(std::string("seccomp rule for ") + call, -rc);
  };
  for (const Rule& r : kKilled) add(r.call, action_of(r.action));
  if (!sandbox_reduced()) add("ptrace", SCMP_ACT_KILL_PROCESS);
  for (const Rule& r : kRefused) add(r.call, action_of(r.action));
  // Threads yes (OpenMP's, the timeline's), processes no: clone without CLONE_THREAD is refused,
  // and clone3, whose flags live in memory the filter cannot read, reports ENOSYS so that glibc
  // falls back to clone.
  const scmp_arg_cmp not_thread = first_argument(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
  add("clone", SCMP_ACT_ERRNO(EPERM), 1, &not_thread);
  add("clone3", SCMP_ACT_ERRNO(ENOSYS));
  // Signals only to itself (abort() and raise() use them).
  const scmp_arg_cmp other_process = first_argument(SCMP_CMP_NE, static_cast<scmp_datum_t>(::getpid()));
  add("kill", SCMP_ACT_ERRNO(EPERM), 1, &other_process);
  add("tgkill", SCMP_ACT_ERRNO(EPERM), 1, &other_process);
  add("rt_sigqueueinfo", SCMP_ACT_ERRNO(EPERM), 1, &other_process);
  add("rt_tgsigqueueinfo", SCMP_ACT_ERRNO(EPERM), 1, &other_process);
  // Every thread of the process, now and later, and no_new_privs set by the library as well.
  if (int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_TSYNC, 1); rc != 0) refused("seccomp TSYNC", -rc);
  if (int rc = seccomp_load(ctx.get()); rc != 0) refused("seccomp_load", -rc);
}

std::vector<std::string> sandbox_rules() {
  std::vector<std::string> out;
  for (const Rule& r : kKilled) out.push_back(std::string(r.call) + ": kill (" + r.why + ")");
  out.push_back(std::string("ptrace: kill (observe or control another process)") +
                (sandbox_reduced() ? "; allowed in this sanitizer build" : ""));
  for (const Rule& r : kRefused) out.push_back(std::string(r.call) + ": EPERM (" + r.why + ")");
  out.push_back("clone without CLONE_THREAD: EPERM (create a process)");
  out.push_back("clone3: ENOSYS (glibc falls back to clone)");
  out.push_back("kill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo to another process: EPERM");
  return out;
}

}  // namespace webnn::ipc
