// The WebNN service and remote contexts (src/ipc/service.cpp, src/ipc/client.cpp): a remote
// context behaves as a local one — same results, same errors at the same calls, the timeline's
// order under pipelining — and the service holds against clients that break the protocol.
#include <capnp/rpc-twoparty.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <kj/async-io.h>
#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

#include "ipc/service.hpp"
#include "ipc/webnn.capnp.h"
#include "ipc/wire_util.hpp"
#include "unit/ipc_test_util.hpp"
#include "webnn/webnn.hpp"

namespace webnn::ipc {
namespace {

// A service on a socket of its own, run on a thread for the test's length.
struct Served {
  std::string path = socket_path();
  std::vector<std::string> log;
  std::mutex log_mutex;
  std::unique_ptr<Service> service;
  std::thread thread;

  explicit Served(std::string token = {}, ServiceLimits limits = {}) {
    service = std::make_unique<Service>(ServiceOptions{path, std::move(token),
                                                       [this](const std::string& line) {
                                                         std::lock_guard lock(log_mutex);
                                                         log.push_back(line);
                                                       },
                                                       false, limits});
    thread = std::thread([this] { service->run(); });
  }
  ~Served() { stop(); }
  void stop() {
    if (!thread.joinable()) return;
    service->stop();
    thread.join();
    service.reset();
  }
  MLContextOptions options(std::string token = {}) const {
    MLContextOptions o;
    o.remote = "unix:" + path;
    o.backend = "reference";
    o.token = std::move(token);
    return o;
  }
  MLContext context(std::string token = {}) const { return ML::create_context(options(std::move(token))); }
  // Waits (up to 10 s) until the service holds `n` objects.
  bool wait_live(size_t n) const {
    for (int i = 0; i < 1000; ++i) {
      if (service->live_objects() == n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  bool logged(const std::string& fragment) {
    std::lock_guard lock(log_mutex);
    for (const auto& l : log)
      if (l.find(fragment) != std::string::npos) return true;
    return false;
  }
};

TEST(IpcService, PipelinedWritesDispatchesAndReadsKeepTheirOrder) {
  Served served;
  MLContext context = served.context();
  EXPECT_EQ(context.backend_name(), "reference");
  MLGraph graph = add_graph(context, 4);
  MLTensor x = context.create_tensor({DataType::kFloat32, {4}, false, true});
  MLTensor y = context.create_tensor({DataType::kFloat32, {4}, true, false});
  // write, dispatch, read, write, dispatch, read, ... without waiting in between.
  std::vector<std::future<std::vector<std::byte>>> reads;
  for (int round = 0; round < 64; ++round) {
    const std::vector<float> in(4, float(round * 10));
    context.write_tensor(x, bytes_of(in));
    context.dispatch(graph, {{"x", x}}, {{"y", y}});
    reads.push_back(context.read_tensor(y));
  }
  for (int round = 0; round < 64; ++round) {
    std::vector<std::byte> got = reads[round].get();
    ASSERT_EQ(got.size(), 16u);
    const float* f = reinterpret_cast<const float*>(got.data());
    for (int i = 0; i < 4; ++i) EXPECT_EQ(f[i], float(round * 10 + i)) << "round " << round << " element " << i;
  }
}

// Large tensors' writes and reads go through each tensor's attached region, which a step in
// flight holds: pipelined, the next write or read of the tensor takes a region of its own, and
// every value is still the timeline's.
TEST(IpcService, PipelinedLargeWritesAndReadsKeepTheirOrderAndTheirBytes) {
  Served served;
  MLContext context = served.context();
  const uint32_t n = 100000;  // 400 KB
  MLGraph graph = add_graph(context, n);
  MLTensor x = context.create_tensor({DataType::kFloat32, {n}, true, true});
  MLTensor y = context.create_tensor({DataType::kFloat32, {n}, true, false});
  std::vector<std::future<std::vector<std::byte>>> ys, xs;
  for (int round = 0; round < 16; ++round) {
    const std::vector<float> in(n, float(round * 1000));
    context.write_tensor(x, bytes_of(in));
    context.dispatch(graph, {{"x", x}}, {{"y", y}});
    ys.push_back(context.read_tensor(y));
    if (round % 4 == 3) xs.push_back(context.read_tensor(x));  // x's region may be busy with the write
  }
  for (int round = 0; round < 16; ++round) {
    std::vector<std::byte> got = ys[static_cast<size_t>(round)].get();
    ASSERT_EQ(got.size(), n * sizeof(float));
    const float* f = reinterpret_cast<const float*>(got.data());
    for (uint32_t i = 0; i < n; i += 4999) ASSERT_EQ(f[i], float(round * 1000) + float(i)) << round << " " << i;
  }
  for (size_t k = 0; k < xs.size(); ++k) {
    std::vector<std::byte> got = xs[k].get();
    ASSERT_EQ(got.size(), n * sizeof(float));
    EXPECT_EQ(reinterpret_cast<const float*>(got.data())[n - 1], float((4 * k + 3) * 1000)) << k;
  }
  // Waiting between steps: the attached regions are reused.
  for (int round = 0; round < 4; ++round) {
    const std::vector<float> in(n, float(-round));
    context.write_tensor(x, bytes_of(in));
    context.dispatch(graph, {{"x", x}}, {{"y", y}});
    std::vector<float> out(n);
    context.read_tensor(y, std::as_writable_bytes(std::span(out))).get();
    ASSERT_EQ(out[n - 1], float(-round) + float(n - 1)) << round;
  }
}

// Above 64 KiB, constants, written and read tensors, compute inputs and outputs go through
// sealed shared memory; the bytes must be exact either way.
TEST(IpcService, LargeTensorsAndConstantsTravelInSharedMemory) {
  Served served;
  MLContext context = served.context();
  const uint32_t n = 300000;  // 1.2 MB
  MLGraph graph = add_graph(context, n);
  std::vector<float> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = float(i % 1000) * 0.5f;
  MLTensor x = context.create_tensor({DataType::kFloat32, {n}, true, true});
  MLTensor y = context.create_tensor({DataType::kFloat32, {n}, true, false});
  context.write_tensor(x, bytes_of(in));
  EXPECT_EQ(context.read_tensor(x).get(), std::vector<std::byte>(bytes_of(in).begin(), bytes_of(in).end()));
  context.dispatch(graph, {{"x", x}}, {{"y", y}});
  std::vector<float> out(n);
  context.read_tensor(y, std::as_writable_bytes(std::span(out))).get();
  for (uint32_t i = 0; i < n; i += 997) ASSERT_EQ(out[i], in[i] + float(i)) << i;
  NamedHostTensors computed =
      context.compute(graph, {{"x", {{DataType::kFloat32, {n}}, {bytes_of(in).begin(), bytes_of(in).end()}}}});
  const float* c = reinterpret_cast<const float*>(computed.at("y").data.data());
  for (uint32_t i = 0; i < n; i += 997) ASSERT_EQ(c[i], in[i] + float(i)) << i;
}

TEST(IpcService, ErrorsAppearAtTheSameCallAsLocally) {
  Served served;
  MLContext context = served.context();
  MLGraph graph = add_graph(context, 4);
  MLTensor wrong = context.create_tensor({DataType::kFloat32, {5}, true, true});
  MLTensor y = context.create_tensor({DataType::kFloat32, {4}, true, false});
  try {
    context.dispatch(graph, {{"x", wrong}}, {{"y", y}});
    FAIL() << "dispatch accepted a tensor of the wrong shape";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError) << e.what();
  }
  // readTensor of a tensor not created readable rejects, as locally.
  MLTensor write_only = context.create_tensor({DataType::kFloat32, {4}, false, true});
  EXPECT_THROW(context.read_tensor(write_only).get(), Error);
  // The connection is fine afterwards.
  const std::vector<float> in{1, 2, 3, 4};
  NamedHostTensors out =
      context.compute(graph, {{"x", {{DataType::kFloat32, {4}}, {bytes_of(in).begin(), bytes_of(in).end()}}}});
  EXPECT_EQ(reinterpret_cast<const float*>(out.at("y").data.data())[3], 7.f);
}

TEST(IpcService, TheTokenIsRequiredWhenTheServiceHasOne) {
  Served served("s3cret");
  EXPECT_THROW(served.context(), Error);
  EXPECT_THROW(served.context("s3creT"), Error);
  EXPECT_THROW(served.context("s3cret-and-more"), Error);
  MLContext ok = served.context("s3cret");
  EXPECT_EQ(add_graph(ok, 2).placement().size(), 1u);
  EXPECT_TRUE(served.logged("the token was refused"));
}

TEST(IpcService, DisconnectingWithQueuedWorkFreesEverything) {
  Served served;
  {
    MLContext context = served.context();
    MLGraph graph = add_graph(context, 100000);
    MLTensor x = context.create_tensor({DataType::kFloat32, {100000}, false, true});
    MLTensor y = context.create_tensor({DataType::kFloat32, {100000}, true, false});
    for (int i = 0; i < 20; ++i) context.dispatch(graph, {{"x", x}}, {{"y", y}});
    ASSERT_TRUE(served.wait_live(4));  // the context, two tensors, the graph
  }                                    // every handle dropped with work still queued
  EXPECT_TRUE(served.wait_live(0)) << served.service->live_objects() << " objects left";
}

TEST(IpcService, DestroyCrossesTheBoundary) {
  Served served;
  MLContext context = served.context();
  MLGraph graph = add_graph(context, 4);
  MLTensor t = context.create_tensor({DataType::kFloat32, {4}, true, true});
  ASSERT_TRUE(served.wait_live(3));
  t.destroy();
  EXPECT_TRUE(served.wait_live(2));
  graph.destroy();
  EXPECT_TRUE(served.wait_live(1));
  context.destroy();
  EXPECT_EQ(context.lost().get().message, "destroy() was called");
  EXPECT_THROW(context.create_tensor({DataType::kFloat32, {4}, true, true}), Error);
}

TEST(IpcService, AContextIsLostWhenTheServiceGoes) {
  Served served;
  MLContext context = served.context();
  MLTensor t = context.create_tensor({DataType::kFloat32, {4}, true, true});
  ASSERT_TRUE(served.wait_live(2));
  served.stop();
  const std::string why = context.lost().get().message;
  EXPECT_NE(why.find("WebNN service"), std::string::npos) << why;
  EXPECT_TRUE(context.is_lost());
  // As a local context's loss: its tensors are destroyed (readTensor: TypeError), and creating
  // anything is an InvalidStateError.
  try {
    context.read_tensor(t).get();
    FAIL() << "read a tensor of a lost context";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError) << e.what();
  }
  try {
    context.create_tensor({DataType::kFloat32, {4}, true, true});
    FAIL() << "created a tensor in a lost context";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidStateError) << e.what();
  }
}

// A call that waits for the service (build) and the release of a context's last reference both
// run on the connection's I/O thread. Raced against the service's end, at forty offsets, each must
// finish: done, or an InvalidStateError; never a wait for an event loop that has gone (Cap'n
// Proto 0.9's executeSync waits for good when the loop ends as the call is queued; LoopGate in
// src/ipc/loop_gate.hpp admits calls only while the loop promises to run them). How many racing
// builds finish before the stop depends on the machine (none, under the sanitizers): not asserted.
TEST(IpcService, CallsRacingTheServicesEndFinish) {
  for (int round = 0; round < 40; ++round) {
    Served served;
    std::optional<MLContext> context = served.context();
    std::optional<MLContext> released = served.context();
    add_graph(*context, 4);  // the connection works before the race
    std::atomic<bool> ended{false};
    std::thread builder([&] {
      do {
        try {
          add_graph(*context, 4);
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::kInvalidStateError) << e.what();
          return;
        }
      } while (!ended);
    });
    std::thread releaser([&, round] {
      std::this_thread::sleep_for(std::chrono::microseconds(25 * (round % 20)));
      released.reset();
    });
    std::this_thread::sleep_for(std::chrono::microseconds(25 * (round / 2 % 20)));
    served.stop();
    ended = true;
    builder.join();
    releaser.join();
    context.reset();
  }
}

TEST(IpcService, AClientCanNameOnlyItsOwnObjects) {
  Served served;
  MLContext a = served.context();
  MLGraph graph = add_graph(a, 4);
  MLTensor x = a.create_tensor({DataType::kFloat32, {4}, true, true});
  MLTensor y = a.create_tensor({DataType::kFloat32, {4}, true, true});
  ASSERT_TRUE(served.wait_live(4));
  // Client b names ids that exist in a's context (the first graph and tensors a made).
  RawClient b(served.path);
  auto dispatch = b.step([](wire::Step::Builder s) {
    auto d = s.initDispatch();
    d.setGraph(1);
    auto ins = d.initInputs(1);
    ins[0].setName("x");
    ins[0].setTensor(1);
    auto outs = d.initOutputs(1);
    outs[0].setName("y");
    outs[0].setTensor(2);
  });
  EXPECT_THROW(dispatch.send().wait(b.io.waitScope), kj::Exception);
  EXPECT_TRUE(b.ended());
  EXPECT_TRUE(served.logged("graph 1 does not exist"));
  // a goes on unharmed.
  const std::vector<float> in{1, 1, 1, 1};
  a.write_tensor(x, bytes_of(in));
  a.dispatch(graph, {{"x", x}}, {{"y", y}});
  std::vector<std::byte> got = a.read_tensor(y).get();
  EXPECT_EQ(reinterpret_cast<const float*>(got.data())[2], 3.f);
}

TEST(IpcService, AMalformedMessageEndsThatConnectionNotTheService) {
  Served served;
  {
    RawClient bad(served.path);
    auto build = bad.context.buildRequest();
    build.setGraph(1);
    auto g = build.initDescription();
    auto operands = g.initOperands(1);
    operands[0].initDescriptor().setDataType(wire::DataType::FLOAT32);
    operands[0].setIntermediate();
    auto ops = g.initOperations(1);
    ops[0].initInputs(1).set(0, 0);  // relu of an operand nothing produces
    ops[0].initOutputs(1).set(0, 0);
    ops[0].setRelu();
    EXPECT_THROW(build.send().wait(bad.io.waitScope), kj::Exception);
    EXPECT_TRUE(bad.ended());
  }
  {
    RawClient bad(served.path);
    auto create = bad.step([](wire::Step::Builder s) {
      auto c = s.initCreateTensor();
      c.setTensor(7);
      c.initDescriptor().setDataType(static_cast<wire::DataType>(99));
    });
    EXPECT_THROW(create.send().wait(bad.io.waitScope), kj::Exception);
    EXPECT_TRUE(bad.ended());
  }
  {
    // Bytes in a `steps` call travel inline or in the tensor's attached region: a write from a
    // region that was never attached is a broken protocol.
    RawClient bad(served.path);
    bad.create_tensor(1, 4, false, true);
    auto write = bad.step([](wire::Step::Builder s) {
      auto w = s.initWriteTensor();
      w.setTensor(1);
      w.initBytes().initShared().setSize(16);
    });
    EXPECT_THROW(write.send().wait(bad.io.waitScope), kj::Exception);
    EXPECT_TRUE(bad.ended());
  }
  EXPECT_TRUE(served.logged("used before an operation produces it"));
  EXPECT_TRUE(served.logged("data type 99 is unknown"));
  EXPECT_TRUE(served.logged("tensor 1 has no attached region"));
  MLContext good = served.context();
  MLGraph graph = add_graph(good, 3);
  EXPECT_EQ(graph.placement().size(), 1u);
  // The good context and its graph; the bad clients' contexts are gone.
  EXPECT_TRUE(served.wait_live(2)) << served.service->live_objects();
}

TEST(IpcService, StepsOfOneCallRunInOrderAndEachReadReturns) {
  Served served;
  RawClient raw(served.path);
  auto request = raw.context.stepsRequest();
  auto steps = request.initSteps(6);
  auto create = steps[0].initCreateTensor();
  create.setTensor(1);
  create.initDescriptor().setDataType(wire::DataType::FLOAT32);
  create.getDescriptor().initShape(1).set(0, 4);
  create.setReadable(true);
  create.setWritable(true);
  const std::vector<float> first{1, 2, 3, 4}, second{5, 6, 7, 8};
  auto write = [](wire::Step::Builder step, const std::vector<float>& values) {
    auto w = step.initWriteTensor();
    w.setTensor(1);
    w.initBytes().setInline({reinterpret_cast<const capnp::byte*>(values.data()), values.size() * sizeof(float)});
  };
  write(steps[1], first);
  steps[2].initReadTensor().setTensor(1);
  write(steps[3], second);
  steps[4].initReadTensor().setTensor(1);
  steps[5].setDestroyTensor(1);
  auto reply = request.send().wait(raw.io.waitScope);
  ASSERT_EQ(reply.getReads().size(), 2u);
  for (unsigned i = 0; i < 2; ++i) {
    const auto& want = i == 0 ? first : second;
    auto got = reply.getReads()[i];
    ASSERT_FALSE(got.hasFailure()) << i;
    ASSERT_EQ(got.getBytes().size(), want.size() * sizeof(float)) << i;
    EXPECT_EQ(std::memcmp(got.getBytes().begin(), want.data(), got.getBytes().size()), 0) << i;
  }
}

TEST(IpcService, QueuedStepsAreSplitBelowTheServicesMessageLimit) {
  // 40 writes of 60 KiB issued without waiting: more than the service reads in one message, so
  // the client's batches must stay under its limit (a larger message would end the connection).
  ServiceLimits limits;
  limits.max_message_bytes = uint64_t{1} << 20;
  Served served("", limits);
  MLContext context = served.context();
  const size_t n = 15360;  // floats: 60 KiB, under the inline limit
  std::vector<MLTensor> tensors;
  for (int t = 0; t < 40; ++t) {
    tensors.push_back(context.create_tensor({DataType::kFloat32, {static_cast<uint32_t>(n)}, true, true}));
    context.write_tensor(tensors.back(), bytes_of(std::vector<float>(n, static_cast<float>(t))));
  }
  for (int t = 0; t < 40; ++t) {
    std::vector<std::byte> got = context.read_tensor(tensors[static_cast<size_t>(t)]).get();
    ASSERT_EQ(got.size(), n * sizeof(float));
    EXPECT_EQ(reinterpret_cast<const float*>(got.data())[n - 1], static_cast<float>(t)) << t;
  }
}

TEST(IpcService, TheSocketIsPrivateAndOnlyAStaleOneIsReplaced) {
  Served served;
  struct stat st {};
  ASSERT_EQ(::stat(served.path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // A live service's socket is not taken over.
  try {
    Service second(ServiceOptions{served.path, "", [](const std::string&) {}});
    FAIL() << "a second service took a live socket";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidStateError) << e.what();
  }
  // A socket file nobody listens on is replaced; a file that is not a socket is not.
  const std::string stale = socket_path();
  {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    const sockaddr_un addr = unix_address(stale, "test");
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0);
    ::close(fd);
  }
  {
    Service replaced(ServiceOptions{stale, "", [](const std::string&) {}});
  }
  EXPECT_NE(::access(stale.c_str(), F_OK), 0) << "the socket file outlived its service";
  const std::string plain = socket_path();
  ::close(::creat(plain.c_str(), 0600));
  EXPECT_THROW(Service(ServiceOptions{plain, "", [](const std::string&) {}}), Error);
  ::unlink(plain.c_str());
}

TEST(IpcService, NoServiceIsAClearError) {
  MLContextOptions o;
  o.remote = "unix:/tmp/webnn_no_such_service.sock";
  try {
    ML::create_context(o);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no WebNN service at"), std::string::npos) << e.what();
  }
  o.remote = "tcp:1.2.3.4";
  EXPECT_THROW(ML::create_context(o), Error);
}

}  // namespace
}  // namespace webnn::ipc
