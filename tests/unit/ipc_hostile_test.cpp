// The hostile-client suite (docs/service.md, "Threat model"): `webnn serve` as deployed — a
// sandboxed worker process per client — against clients that send garbage, break the protocol,
// name what is not theirs, exhaust quotas, hang or vanish. After each case a well-behaved client
// must still be served, with exact results.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "ipc/sandbox.hpp"
#include "ipc/service.hpp"
#include "unit/ipc_test_util.hpp"

namespace webnn::ipc {
namespace {

using namespace std::chrono_literals;

// `webnn serve` in a process of its own, with small limits so that each is reachable.
class ServeProcess {
 public:
  // `overrides`: flag -> value, over the suite's small limits.
  explicit ServeProcess(std::map<std::string, std::string> overrides = {}) {
    log_path_ = path + ".log";
    std::map<std::string, std::string> flags = {
        {"--max-bytes", "67108864"},       {"--max-objects", "64"},         {"--max-message-bytes", "4194304"},
        {"--max-graph-operations", "100"}, {"--max-graph-operands", "200"}, {"--max-clients", "16"},
        {"--dispatch-timeout", "2"},       {"--handshake-timeout", "2"},    {"--worker-memory", "2147483648"}};
    for (const auto& [flag, value] : overrides) flags[flag] = value;
    std::vector<std::string> args = {WEBNN_CLI, "serve", "--socket", path};
    for (const auto& [flag, value] : flags) {
      args.push_back(flag);
      args.push_back(value);
    }
    pid_ = ::fork();
    if (pid_ == 0) {
      const int log = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(log, STDERR_FILENO);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    for (int i = 0; i < 200 && ::access(path.c_str(), F_OK) != 0; ++i) std::this_thread::sleep_for(50ms);
    EXPECT_EQ(::access(path.c_str(), F_OK), 0) << log();
  }
  ~ServeProcess() {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the service did not exit cleanly\n" << log();
    if (std::getenv("WEBNN_TEST_SERVICE_LOG")) std::cerr << log();
    ::unlink(log_path_.c_str());
  }

  std::string log() const {
    std::ifstream in(log_path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Waits (up to 10 s) for `fragment` in the service's log.
  bool logged(const std::string& fragment) const {
    for (int i = 0; i < 200; ++i) {
      if (log().find(fragment) != std::string::npos) return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }
  bool alive() const { return ::waitpid(pid_, nullptr, WNOHANG) == 0; }
  // The service's worker processes now.
  size_t workers() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/task/" + std::to_string(pid_) + "/children");
    size_t n = 0;
    for (pid_t p; in >> p;) ++n;
    return n;
  }
  // Within a minute: a worker that held a deaf client's pending replies (a sanitizer build keeps
  // gigabytes of them, with no address-space limit) takes over 10 s to end on this 2-core machine
  // while another test loads it.
  bool wait_workers(size_t n) const {
    for (int i = 0; i < 1200; ++i) {
      if (workers() == n) return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }

  MLContext context(const std::string& backend = "reference") const {
    MLContextOptions o;
    o.remote = "unix:" + path;
    o.backend = backend;
    return ML::create_context(o);
  }

  // A well-behaved client: y = x + c on its own inputs, every element checked.
  void check_serves() const {
    ASSERT_TRUE(alive()) << log();
    MLContext context = this->context();
    MLGraph graph = add_graph(context, 1000);
    MLTensor x = context.create_tensor({DataType::kFloat32, {1000}, true, true});
    MLTensor y = context.create_tensor({DataType::kFloat32, {1000}, true, false});
    std::vector<float> in(1000);
    for (int i = 0; i < 1000; ++i) in[i] = float(i) * 0.25f;
    context.write_tensor(x, bytes_of(in));
    context.dispatch(graph, {{"x", x}}, {{"y", y}});
    std::vector<float> out(1000);
    context.read_tensor(y, std::as_writable_bytes(std::span(out))).get();
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(out[i], in[i] + float(i)) << i;
  }

  const std::string path = socket_path();

 private:
  std::string log_path_;
  pid_t pid_ = -1;
};

int connect_raw(const std::string& path) { return RawClient::connected_to(path); }

// Whether the service closes `fd` within `limit` (reads what it sends meanwhile).
bool closed_by_service(int fd, std::chrono::milliseconds limit = 10s) {
  const auto end = std::chrono::steady_clock::now() + limit;
  char buf[4096];
  while (std::chrono::steady_clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN)) return true;
  }
  return false;
}

void send_all(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n) {
    const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
    if (w <= 0) return;  // the service closed it: what some cases expect
    p += w;
    n -= static_cast<size_t>(w);
  }
}

TEST(IpcHostile, RandomBytes) {
  ServeProcess service;
  std::mt19937 rng(7);
  for (int round = 0; round < 5; ++round) {
    const int fd = connect_raw(service.path);
    std::vector<uint32_t> junk(16384);
    for (auto& w : junk) w = rng();
    send_all(fd, junk.data(), junk.size() * 4);
    EXPECT_TRUE(closed_by_service(fd)) << "round " << round;
    ::close(fd);
  }
  service.check_serves();
}

TEST(IpcHostile, TruncatedMessage) {
  ServeProcess service;
  const int fd = connect_raw(service.path);
  // One segment of 100 words announced, 10 sent, then silence: the handshake limit ends it.
  const uint32_t header[2] = {0, 100};
  send_all(fd, header, sizeof header);
  const std::vector<uint64_t> words(10, 0);
  send_all(fd, words.data(), words.size() * 8);
  EXPECT_TRUE(closed_by_service(fd));
  ::close(fd);
  EXPECT_TRUE(service.logged("(--handshake-timeout)"));
  service.check_serves();
}

TEST(IpcHostile, AbsurdSegmentCountsAndSizes) {
  ServeProcess service;
  const uint32_t frames[][2] = {{0xFFFFFFFEu, 1}, {511, 1}, {0, 0x7FFFFFFFu}, {0, 0xFFFFFFFFu}};
  for (const auto& frame : frames) {
    const int fd = connect_raw(service.path);
    send_all(fd, frame, sizeof frame);
    const std::vector<uint32_t> rest(1024, 0xFFFFFFFFu);
    send_all(fd, rest.data(), rest.size() * 4);
    EXPECT_TRUE(closed_by_service(fd)) << frame[0] << " " << frame[1];
    ::close(fd);
  }
  service.check_serves();
}

TEST(IpcHostile, ValidFramingWithInvalidPointers) {
  ServeProcess service;
  const int fd = connect_raw(service.path);
  // One segment of 4 words whose root struct pointer points far outside it.
  const uint32_t header[2] = {0, 4};
  const uint64_t words[4] = {0x0001000000FFFFF0ull, 0x0000000300000001ull, 0xFFFFFFFFFFFFFFFFull, 0};
  send_all(fd, header, sizeof header);
  send_all(fd, words, sizeof words);
  EXPECT_TRUE(closed_by_service(fd));
  ::close(fd);
  service.check_serves();
}

TEST(IpcHostile, IdsNeverCreatedDestroyedOrAnotherClients) {
  ServeProcess service;
  {
    RawClient raw(service.path);
    auto dispatch = raw.step([](wire::Step::Builder s) { s.initDispatch().setGraph(999); });
    EXPECT_THROW(dispatch.send().wait(raw.io.waitScope), kj::Exception);
    EXPECT_TRUE(raw.ended());
  }
  {
    RawClient raw(service.path);
    raw.create_tensor(1, 4, false, false);
    raw.step([](wire::Step::Builder s) { s.setDestroyTensor(1); }).send().wait(raw.io.waitScope);
    auto read = raw.step([](wire::Step::Builder s) { s.initReadTensor().setTensor(1); });
    EXPECT_THROW(read.send().wait(raw.io.waitScope), kj::Exception);
    EXPECT_TRUE(raw.ended());
  }
  {
    // Another client's ids: each client has its own worker, where they do not exist.
    MLContext a = service.context();
    MLGraph graph = add_graph(a, 4);
    MLTensor x = a.create_tensor({DataType::kFloat32, {4}, true, true});
    RawClient b(service.path);
    auto read = b.context.readTensorRequest();
    read.setTensor(1);
    EXPECT_THROW(read.send().wait(b.io.waitScope), kj::Exception);
    EXPECT_TRUE(b.ended());
    EXPECT_EQ(graph.placement().size(), 1u);  // a is unharmed
  }
  EXPECT_TRUE(service.logged("graph 999 does not exist"));
  EXPECT_TRUE(service.logged("tensor 1 does not exist"));
  service.check_serves();
}

TEST(IpcHostile, AGraphDeclaringTrillionElementOperands) {
  ServeProcess service;
  RawClient raw(service.path);
  auto build = raw.context.buildRequest();
  build.setGraph(1);
  auto g = build.initDescription();
  auto operands = g.initOperands(2);
  for (unsigned i = 0; i < 2; ++i) {
    auto d = operands[i].initDescriptor();
    d.setDataType(wire::DataType::FLOAT32);
    d.initShape(2).set(0, 1000000);
    d.getShape().set(1, 1000000);
  }
  operands[0].setInput();
  operands[0].setName("x");
  operands[1].setIntermediate();
  auto ops = g.initOperations(1);
  ops[0].initInputs(1).set(0, 0);
  ops[0].initOutputs(1).set(0, 1);
  ops[0].setRelu();
  auto outs = g.initOutputs(1);
  outs[0].setName("y");
  outs[0].setOperand(1);
  auto inputs = g.initInputs(1);
  inputs[0].setName("x");
  inputs[0].setOperand(0);
  EXPECT_THROW(build.send().wait(raw.io.waitScope), kj::Exception);
  EXPECT_TRUE(raw.ended());
  EXPECT_TRUE(service.logged("shape [1000000, 1000000] is not a valid dimension")) << service.log();
  EXPECT_TRUE(service.alive());
  service.check_serves();
}

// A graph whose outputs outnumber the operands' limit is refused before anything is decoded. A
// list of empty structs costs no bytes per element: the fuzzer's message of 2.5 KB declared
// tens of millions of outputs, and decoding them asked for 1.3 GB
// (tests/fuzz/regressions/ipc_service_outputs_of_empty_structs.bin). Here, 300 outputs of one
// operand, over the test service's --max-graph-operands 200.
TEST(IpcHostile, AGraphWithMoreOutputsThanTheOperandLimit) {
  ServeProcess service;
  RawClient raw(service.path);
  auto build = raw.context.buildRequest();
  build.setGraph(1);
  auto g = build.initDescription();
  auto operands = g.initOperands(1);
  operands[0].initDescriptor().setDataType(wire::DataType::FLOAT32);
  operands[0].setInput();
  operands[0].setName("x");
  auto outs = g.initOutputs(300);
  for (unsigned i = 0; i < 300; ++i) {
    outs[i].setName("y" + std::to_string(i));
    outs[i].setOperand(0);
  }
  auto reply = build.send().wait(raw.io.waitScope);
  ASSERT_TRUE(reply.hasFailure());
  EXPECT_NE(std::string(reply.getFailure().getMessage().cStr())
                .find("the graph has 300 outputs, over the service's limit of 200 (--max-graph-operands)"),
            std::string::npos)
      << reply.getFailure().getMessage().cStr();
  service.check_serves();
}

// A Region capability carrying any descriptor the test makes.
class FdRegion final : public wire::Region::Server {
 public:
  explicit FdRegion(int fd) : fd_(fd) {}
  ~FdRegion() { ::close(fd_); }
  kj::Maybe<int> getFd() override { return fd_; }

 private:
  int fd_;
};

// A memfd of `size` bytes with `seals` applied (0: unsealed).
int memfd_of(size_t size, unsigned seals) {
  const int fd = ::memfd_create("hostile", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  EXPECT_EQ(::ftruncate(fd, static_cast<off_t>(size)), 0);
  if (seals) EXPECT_EQ(::fcntl(fd, F_ADD_SEALS, seals), 0);
  return fd;
}

TEST(IpcHostile, SharedMemorySmallerThanDeclaredUnsealedOrSealedDifferently) {
  ServeProcess service;
  const unsigned all = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL;
  struct Case {
    size_t real_size;
    unsigned seals;
    const char* log;
  };
  // Each refused for its own reason (the service's log says which).
  const Case cases[] = {
      {1024, all, "the region holds 1024 bytes but 1048576 were announced"},
      {1 << 20, 0, "the region is not sealed against shrinking"},
      {1 << 20, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL, "the region is not sealed against writing"},
      {1 << 20, F_SEAL_SHRINK | F_SEAL_WRITE | F_SEAL_SEAL, "the region is not sealed against growing"}};
  for (const Case& c : cases) {
    RawClient raw(service.path);
    raw.create_tensor(1, 1 << 18, false, true);  // 1 MiB
    auto write = raw.context.writeTensorRequest();
    write.setTensor(1);
    write.initBytes().initShared().setOffset(0);
    write.getBytes().getShared().setSize(1 << 20);
    auto region = write.initShared();
    region.setSize(1 << 20);
    region.setRegion(kj::heap<FdRegion>(memfd_of(c.real_size, c.seals)));
    EXPECT_THROW(write.send().wait(raw.io.waitScope), kj::Exception) << c.real_size << " " << c.seals;
    EXPECT_TRUE(raw.ended());
    EXPECT_TRUE(service.logged(std::string("writeTensor: ") + c.log)) << service.log();
  }
  // The same regions as a graph's constant: y = x + c, c a 1 MiB slice of the message's region.
  for (const Case& c : cases) {
    RawClient raw(service.path);
    auto build = raw.context.buildRequest();
    build.setGraph(1);
    auto g = build.initDescription();
    auto operands = g.initOperands(3);
    for (unsigned i = 0; i < 3; ++i) {
      auto d = operands[i].initDescriptor();
      d.setDataType(wire::DataType::FLOAT32);
      d.initShape(1).set(0, 1 << 18);
    }
    operands[0].initConstant().initShared().setOffset(0);
    operands[0].getConstant().getShared().setSize(1 << 20);
    operands[1].setInput();
    operands[1].setName("x");
    operands[2].setIntermediate();
    auto ops = g.initOperations(1);
    ops[0].initInputs(2).set(0, 1);
    ops[0].getInputs().set(1, 0);
    ops[0].initOutputs(1).set(0, 2);
    ops[0].setAdd();
    g.initInputs(1)[0].setName("x");
    g.getInputs()[0].setOperand(1);
    g.initOutputs(1)[0].setName("y");
    g.getOutputs()[0].setOperand(2);
    auto region = g.initShared();
    region.setSize(1 << 20);
    region.setRegion(kj::heap<FdRegion>(memfd_of(c.real_size, c.seals)));
    EXPECT_THROW(build.send().wait(raw.io.waitScope), kj::Exception) << c.real_size << " " << c.seals;
    EXPECT_TRUE(raw.ended());
    EXPECT_TRUE(service.logged(std::string("build: ") + c.log)) << service.log();
  }
  service.check_serves();
}

// A tensor's attached region (attachRegion) is checked like any region, once, and used only as
// the protocol says.
TEST(IpcHostile, AttachedRegionsOfTheWrongSizeUnsealedTwiceOrMisused) {
  ServeProcess service;
  const unsigned writable = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;
  const size_t n = 1 << 20;
  auto create = [&](RawClient& raw) { raw.create_tensor(1, 1 << 18, true, true); };  // 1 MiB
  auto attach = [&](RawClient& raw, size_t size, unsigned seals) {
    auto request = raw.context.attachRegionRequest();
    request.setTensor(1);
    request.setRegion(kj::heap<FdRegion>(memfd_of(size, seals)));
    return request.send();
  };
  struct Case {
    size_t size;
    unsigned seals;
    bool twice;
    const char* log;
  };
  const Case cases[] = {{1024, writable, false, "the region holds 1024 bytes but 1048576 were announced"},
                        {n, F_SEAL_GROW | F_SEAL_SEAL, false, "the region is not sealed against shrinking"},
                        {n, writable, true, "tensor 1 has a region already"}};
  for (const Case& c : cases) {
    RawClient raw(service.path);
    create(raw);
    if (c.twice) attach(raw, c.size, c.seals).wait(raw.io.waitScope);
    EXPECT_THROW(attach(raw, c.size, c.seals).wait(raw.io.waitScope), kj::Exception) << c.log;
    EXPECT_TRUE(raw.ended());
    EXPECT_TRUE(service.logged(c.log)) << service.log();
  }
  {
    // A read outside `steps` names a destination of its own, never the attached region.
    RawClient raw(service.path);
    create(raw);
    attach(raw, n, writable).wait(raw.io.waitScope);
    auto read = raw.context.readTensorRequest();
    read.setTensor(1);
    read.setAttached(true);
    EXPECT_THROW(read.send().wait(raw.io.waitScope), kj::Exception);
    EXPECT_TRUE(raw.ended());
    EXPECT_TRUE(service.logged("only a read in `steps` goes to the attached region")) << service.log();
  }
  {
    // A write from the attached region takes all of it.
    RawClient raw(service.path);
    create(raw);
    attach(raw, n, writable).wait(raw.io.waitScope);
    auto write = raw.step([](wire::Step::Builder s) {
      auto w = s.initWriteTensor();
      w.setTensor(1);
      w.initBytes().initShared().setSize(4);
    });
    EXPECT_THROW(write.send().wait(raw.io.waitScope), kj::Exception);
    EXPECT_TRUE(raw.ended());
    EXPECT_TRUE(service.logged("a write from the attached region takes all of it")) << service.log();
  }
  service.check_serves();
}

TEST(IpcHostile, DisconnectInTheMiddleOfADispatchAndOfALargeWrite) {
  ServeProcess service;
  {
    MLContext context = service.context();
    MLGraphBuilder b(context);
    const OperandDescriptor d{DataType::kFloat32, {256, 256}};
    MLOperand x = b.input("x", d);
    MLOperand y = x;
    for (int i = 0; i < 20; ++i) y = b.matmul(y, x);
    MLGraph graph = b.build({{"y", y}});
    MLTensor tx = context.create_tensor({DataType::kFloat32, {256, 256}, true, true});
    MLTensor ty = context.create_tensor({DataType::kFloat32, {256, 256}, true, false});
    for (int i = 0; i < 5; ++i) context.dispatch(graph, {{"x", tx}}, {{"y", ty}});
  }  // gone with dispatches in flight
  {
    // Half of a 16 MiB message, then the connection closes.
    const int fd = connect_raw(service.path);
    const uint32_t header[2] = {0, 2 << 20};
    send_all(fd, header, sizeof header);
    const std::vector<uint64_t> half(1 << 20, 0);
    send_all(fd, half.data(), half.size() * 8);
    ::close(fd);
  }
  service.check_serves();
  EXPECT_TRUE(service.wait_workers(0)) << service.workers() << " workers left";
}

TEST(IpcHostile, AThousandConnectionsOpenedAndDropped) {
  ServeProcess service;
  for (int i = 0; i < 1000; ++i) ::close(connect_raw(service.path));
  // Every worker notices its client is gone and is reaped; meanwhile the flood may fill the client
  // slots (--max-clients), which is the limit doing its work.
  EXPECT_TRUE(service.wait_workers(0)) << service.workers() << " workers left";
  service.check_serves();
}

TEST(IpcHostile, FiftyConnectionsThatNeverSpeak) {
  ServeProcess service(std::map<std::string, std::string>{{"--max-clients", "64"}});
  std::vector<int> silent;
  for (int i = 0; i < 50; ++i) silent.push_back(connect_raw(service.path));
  service.check_serves();  // served while they wait
  for (int fd : silent) {
    EXPECT_TRUE(closed_by_service(fd)) << "a silent connection outlived the handshake limit";
    ::close(fd);
  }
  EXPECT_TRUE(service.wait_workers(0));
}

// Forwards the client's bytes to the service and, until `deaf` is set, the service's back.
class Relay {
 public:
  explicit Relay(const std::string& service_path) : service_(connect_raw(service_path)) {
    int pair[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    client_ = pair[0];
    mine_ = pair[1];
    thread_ = std::thread([this] { run(); });
  }
  ~Relay() {
    stop_ = true;
    thread_.join();
    ::close(mine_);
    ::close(service_);
  }
  int client_fd() const { return client_; }
  std::atomic<bool> deaf{false};

 private:
  void run() {
    char buf[65536];
    while (!stop_) {
      pollfd fds[2] = {{mine_, POLLIN, 0}, {service_, static_cast<short>(deaf ? 0 : POLLIN), 0}};
      if (::poll(fds, 2, 50) <= 0) continue;
      if (fds[0].revents & POLLIN) {
        const ssize_t n = ::recv(mine_, buf, sizeof buf, 0);
        if (n <= 0 || !forward(service_, buf, static_cast<size_t>(n))) return;
      }
      if (!deaf && (fds[1].revents & POLLIN)) {
        const ssize_t n = ::recv(service_, buf, sizeof buf, 0);
        if (n <= 0 || !forward(mine_, buf, static_cast<size_t>(n))) return;
      }
    }
  }
  // Sends all of `data` unless the relay stops first (a peer that does not read blocks a send).
  bool forward(int fd, const char* data, size_t n) {
    while (n && !stop_) {
      pollfd p{fd, POLLOUT, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const ssize_t w = ::send(fd, data, n, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (w < 0 && errno == EAGAIN) continue;
      if (w <= 0) return false;
      data += w;
      n -= static_cast<size_t>(w);
    }
    return n == 0;
  }
  int service_, client_ = -1, mine_ = -1;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(IpcHostile, AClientThatNeverReadsItsReplies) {
  ServeProcess service(std::map<std::string, std::string>{{"--worker-memory", "1073741824"}});
  {
    Relay relay(service.path);
    RawClient raw(relay.client_fd());
    auto& io = raw.io;
    auto& context = raw.context;
    raw.create_tensor(1, 1 << 18, true, false);  // 1 MiB, read back inline each time
    relay.deaf = true;
    kj::Vector<kj::Promise<void>> pending;
    for (int i = 0; i < 2000; ++i) {
      auto read = context.readTensorRequest();
      read.setTensor(1);
      pending.add(read.send().ignoreResult());
    }
    // Sends what it can for a while; the replies pile up on the service's side until its worker
    // reaches its address-space limit and ends (the sanitizer build sets none: 3 s of it there).
    // How long that takes depends on the machine's load: a minute at most.
    // (logged() waits up to 10 s without sending; the loop looks at the log as it is.)
    const char* const ended = "ended: out of memory (--worker-memory)";
    const bool limited = !sandbox_reduced();
    auto has_ended = [&] { return limited && service.log().find(ended) != std::string::npos; };
    for (int i = 0; i < (limited ? 600 : 30) && !has_ended(); ++i)
      io.provider->getTimer().afterDelay(100 * kj::MILLISECONDS).wait(io.waitScope);
    service.check_serves();  // others are served meanwhile
    if (limited) EXPECT_TRUE(service.logged(ended)) << service.log();
  }
  service.check_serves();
  EXPECT_TRUE(service.wait_workers(0));
}

TEST(IpcHostile, EveryQuotaPastItsLimitIsAnErrorNamingIt) {
  ServeProcess service;
  MLContext context = service.context();
  // The kind is the spec's for the allocation that failed: createTensor's UnknownError (heard at
  // the first read), build's OperationError.
  auto expect_error = [](auto&& fn, const std::string& flag, ErrorKind kind) {
    try {
      fn();
      ADD_FAILURE() << "no error for " << flag;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
  };
  // Bytes: 64 MiB per client. A 48 MiB tensor fits; a second does not, and reading it says why.
  MLTensor big = context.create_tensor({DataType::kFloat32, {12 << 20}, true, true});
  MLTensor over = context.create_tensor({DataType::kFloat32, {12 << 20}, true, true});
  expect_error([&] { context.read_tensor(over).get(); }, "--max-bytes", ErrorKind::kUnknownError);
  // Freed, the bytes can be used again.
  big.destroy();
  over.destroy();
  MLTensor again = context.create_tensor({DataType::kFloat32, {12 << 20}, true, true});
  EXPECT_EQ(context.read_tensor(again).get().size(), size_t{48} << 20);
  again.destroy();

  // Objects: 64 per client (the context is one).
  std::vector<MLTensor> many;
  for (int i = 0; i < 70; ++i) many.push_back(context.create_tensor({DataType::kFloat32, {4}, true, true}));
  EXPECT_EQ(context.read_tensor(many[10]).get().size(), 16u);
  expect_error([&] { context.read_tensor(many[65]).get(); }, "--max-objects", ErrorKind::kUnknownError);
  expect_error([&] { add_graph(context, 4); }, "--max-objects", ErrorKind::kOperationError);
  many.clear();  // the last handles: the service frees them too

  // Graph size: 100 operations.
  {
    MLGraphBuilder b(context);
    MLOperand y = b.input("x", {DataType::kFloat32, {4}});
    for (int i = 0; i < 101; ++i) y = b.relu(y);
    expect_error([&] { b.build({{"y", y}}); }, "--max-graph-operations", ErrorKind::kOperationError);
  }
  // Graph size: 200 operands (one concat of 210 constants is one operation).
  {
    MLGraphBuilder b(context);
    std::vector<MLOperand> parts = {b.input("x", {DataType::kFloat32, {1}})};
    const float one = 1.f;
    for (int i = 0; i < 210; ++i)
      parts.push_back(b.constant({DataType::kFloat32, {1}}, std::as_bytes(std::span(&one, 1))));
    expect_error([&] { b.build({{"y", b.concat(parts, 0)}}); }, "--max-graph-operands", ErrorKind::kOperationError);
  }
  // Message size: 4 MiB; 90 constants of 60 KB travel inline.
  {
    MLGraphBuilder b(context);
    MLOperand y = b.input("x", {DataType::kFloat32, {15000}});
    std::vector<float> c(15000, 1.f);
    for (int i = 0; i < 90; ++i) y = b.add(y, b.constant({DataType::kFloat32, {15000}}, bytes_of(c)));
    expect_error([&] { b.build({{"y", y}}); }, "--max-message-bytes", ErrorKind::kOperationError);
  }
  // The client goes on after each.
  MLGraph graph = add_graph(context, 4);
  EXPECT_EQ(graph.placement().size(), 1u);
  service.check_serves();
}

TEST(IpcHostile, TheClientLimitRefusesWithTheReason) {
  ServeProcess service(std::map<std::string, std::string>{{"--max-clients", "3"}});
  std::vector<MLContext> held;
  for (int i = 0; i < 3; ++i) held.push_back(service.context());
  try {
    service.context();
    ADD_FAILURE() << "a fourth client was served";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotSupportedError) << e.what();  // the spec's for createContext
    EXPECT_NE(std::string(e.what()).find("--max-clients"), std::string::npos) << e.what();
  }
  held.pop_back();
  // The slot comes back once the worker has ended.
  ASSERT_TRUE(service.wait_workers(2));
  service.check_serves();
}

TEST(IpcHostile, ADispatchPastTheTimeLimitEndsOnlyItsWorker) {
  ServeProcess service(std::map<std::string, std::string>{{"--max-bytes", "1073741824"}});
  MLContext slow = service.context();
  MLGraphBuilder b(slow);
  const OperandDescriptor d{DataType::kFloat32, {1024, 1024}};
  MLOperand x = b.input("x", d);
  MLOperand y = x;
  for (int i = 0; i < 40; ++i) y = b.matmul(y, x);  // ~86 GFLOP on the reference kernels
  MLGraph graph = b.build({{"y", y}});
  MLTensor tx = slow.create_tensor({DataType::kFloat32, {1024, 1024}, true, true});
  MLTensor ty = slow.create_tensor({DataType::kFloat32, {1024, 1024}, true, false});
  slow.dispatch(graph, {{"x", tx}}, {{"y", ty}});
  auto read = slow.read_tensor(ty);
  service.check_serves();  // another client, while the slow one runs
  EXPECT_THROW(read.get(), Error);
  const std::string why = slow.lost().get().message;
  EXPECT_NE(why.find("WebNN service"), std::string::npos) << why;
  EXPECT_TRUE(service.logged("ended: past the dispatch time limit")) << service.log();
  service.check_serves();
}

}  // namespace
}  // namespace webnn::ipc
