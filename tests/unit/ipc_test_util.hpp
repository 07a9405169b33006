// What the IPC tests share: socket paths, a small graph, and a client that speaks the protocol by
// hand (what a hostile page could send).
#pragma once

#include <capnp/rpc-twoparty.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <kj/async-io.h>
#include <atomic>
#include <string>
#include <vector>

#include "ipc/webnn.capnp.h"
#include "ipc/wire_util.hpp"
#include "webnn/webnn.hpp"

namespace webnn::ipc {

inline std::string socket_path() {
  static std::atomic<int> n{0};
  return "/tmp/webnn_test_" + std::to_string(::getpid()) + "_" + std::to_string(n++) + ".sock";
}

inline std::span<const std::byte> bytes_of(const std::vector<float>& v) { return std::as_bytes(std::span(v)); }

// y = x + c over n floats, c[i] = i.
inline MLGraph add_graph(MLContext& context, uint32_t n) {
  MLGraphBuilder b(context);
  const OperandDescriptor d{DataType::kFloat32, {n}};
  std::vector<float> c(n);
  for (uint32_t i = 0; i < n; ++i) c[i] = float(i);
  return b.build({{"y", b.add(b.input("x", d), b.constant(d, bytes_of(c)))}});
}

// A client that speaks the protocol by hand: what a hostile page could send.
struct RawClient {
  kj::AsyncIoContext io = kj::setupAsyncIo();
  kj::Own<kj::AsyncCapabilityStream> stream;
  kj::Own<capnp::TwoPartyVatNetwork> network;
  kj::Own<capnp::RpcSystem<capnp::rpc::twoparty::VatId>> rpc;
  wire::Context::Client context = nullptr;

  explicit RawClient(const std::string& path) : RawClient(connected_to(path)) {}
  // Over a connected socket, which it then owns.
  explicit RawClient(int fd) {
    stream = io.lowLevelProvider->wrapUnixSocketFd(fd, kj::LowLevelAsyncIoProvider::TAKE_OWNERSHIP);
    network = kj::heap<capnp::TwoPartyVatNetwork>(*stream, 4, capnp::rpc::twoparty::Side::CLIENT);
    rpc = kj::heap<capnp::RpcSystem<capnp::rpc::twoparty::VatId>>(capnp::makeRpcClient(*network));
    capnp::MallocMessageBuilder vat_message;
    auto vat = vat_message.initRoot<capnp::rpc::twoparty::VatId>();
    vat.setSide(capnp::rpc::twoparty::Side::SERVER);
    auto connect = rpc->bootstrap(vat).castAs<wire::Service>().connectRequest();
    connect.setOpTableHash(wire::OP_TABLE_HASH);
    auto create = connect.send().getMl().createContextRequest();
    create.initOptions().setBackend("reference");
    context = create.send().wait(io.waitScope).getContext();
  }
  // A `steps` call of the one step that `fill` writes.
  template <class Fill>
  capnp::Request<wire::Context::StepsParams, wire::Context::StepsResults> step(Fill fill) {
    auto request = context.stepsRequest();
    fill(request.initSteps(1)[0]);
    return request;
  }
  // Creates float32 tensor `id` of `elements` elements, and waits for the reply.
  void create_tensor(uint32_t id, uint32_t elements, bool readable, bool writable) {
    step([&](wire::Step::Builder s) {
      auto create = s.initCreateTensor();
      create.setTensor(id);
      create.initDescriptor().setDataType(wire::DataType::FLOAT32);
      create.getDescriptor().initShape(1).set(0, elements);
      create.setReadable(readable);
      create.setWritable(writable);
    })
        .send()
        .wait(io.waitScope);
  }
  static int connected_to(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const sockaddr_un addr = unix_address(path, "test");
    EXPECT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0);
    return fd;
  }
  // Whether the service ended this connection.
  bool ended() {
    return network->onDisconnect()
        .then([] { return true; })
        .exclusiveJoin(io.provider->getTimer().afterDelay(10 * kj::SECONDS).then([] { return false; }))
        .wait(io.waitScope);
  }
};

}  // namespace webnn::ipc
