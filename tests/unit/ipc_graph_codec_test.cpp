// The IPC graph codec (src/ipc/graph_codec.cpp): every WPT case's graph crosses the wire and comes
// back as the same graph, computing the WPT's expected values; hostile messages are refused with
// an error that names what was wrong, never a crash.
#include <capnp/dynamic.h>
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "conformance/wpt.hpp"
#include "formats/formats.hpp"
#include "graph/graph_builder.hpp"
#include "ipc/graph_codec.hpp"
#include "runtime/handles.hpp"
#include "webnn/webnn.hpp"

namespace webnn::ipc {
namespace {

constexpr uint64_t kMax = kMaxTensorByteLength;

// relu(conv2d(x, w, {bias: b})) + x: inputs, constants, an operand-valued option, enums, lists.
std::shared_ptr<const Graph> small_graph() {
  GraphBuilder b;
  const OperandId x = b.add_input("x", {DataType::kFloat32, {1, 2, 3, 3}});
  std::vector<float> w(2 * 2 * 1 * 1, 0.5f), bias{1.f, -1.f};
  const OperandId filter =
      b.add_constant({DataType::kFloat32, {2, 2, 1, 1}}, BufferRef::copy_of(std::as_bytes(std::span(w))), "filter");
  const OperandId bias_id =
      b.add_constant({DataType::kFloat32, {2}}, BufferRef::copy_of(std::as_bytes(std::span(bias))), "bias");
  Conv2dAttrs conv;
  conv.padding = std::vector<uint32_t>{0, 0, 0, 0};
  conv.bias = OperandRef{bias_id};
  const OperandId c = b.add_operation(OpKind::kConv2d, {x, filter}, conv, "the conv")[0];
  const OperandId r = b.add_operation(OpKind::kRelu, {c}, NoAttrs{})[0];
  const OperandId sum = b.add_operation(OpKind::kAdd, {r, x}, NoAttrs{})[0];
  b.set_operand_name(r, "activated");
  return b.build({{"y", sum}}, "small");
}

// A valid message for small_graph(), to be spoiled by each hostile test.
struct Message {
  capnp::MallocMessageBuilder builder;
  wire::Graph::Builder root = builder.initRoot<wire::Graph>();
  Message() { encode_graph(*small_graph(), root); }
  std::shared_ptr<const Graph> decode() { return decode_graph(root.asReader(), kMax); }
  // The first operation whose union member is `name`.
  wire::Operation::Builder operation(const char* name) {
    for (auto op : root.getOperations()) {
      KJ_IF_MAYBE (member, capnp::toDynamic(op).which()) {
        if (member->getProto().getName() == name) return op;
      }
    }
    ADD_FAILURE() << "no " << name;
    return root.getOperations()[0];
  }
};

void expect_error(Message& m, ErrorKind kind, const std::string& fragment) {
  try {
    m.decode();
    ADD_FAILURE() << "decoded; expected an error containing \"" << fragment << "\"";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(IpcGraphCodec, SmallGraphRoundTrips) {
  auto g = small_graph();
  auto back = parse_graph_message(serialize_graph(*g), kMax);
  EXPECT_EQ(formats::to_json(*back), formats::to_json(*g));
  EXPECT_EQ(back->name, "small");
  ASSERT_EQ(back->operations.size(), 3u);
  EXPECT_EQ(back->operations[0].label, "the conv");
}

// Options left to the spec's defaults cross the wire as absent and are resolved again by the
// receiver's validation; given ones stay given.
TEST(IpcGraphCodec, ResolvedDefaultsTravelAsAbsent) {
  auto g = small_graph();
  auto back = parse_graph_message(serialize_graph(*g), kMax);
  ASSERT_EQ(back->operations.size(), g->operations.size());
  for (size_t i = 0; i < g->operations.size(); ++i) {
    std::visit(
        [&](const auto& sent) {
          using A = std::decay_t<decltype(sent)>;
          const A& received = std::get<A>(back->operations[i].attrs);
          std::vector<std::pair<bool, std::string>> sent_given, received_given;
          auto collect = [](std::vector<std::pair<bool, std::string>>& out) {
            return [&out](std::string_view name, const auto& field) {
              using F = std::decay_t<decltype(field)>;
              if constexpr (kIsDefaulted<F>) out.emplace_back(field.given(), std::string(name));
            };
          };
          A::fields(sent, collect(sent_given));
          A::fields(received, collect(received_given));
          EXPECT_EQ(received_given, sent_given) << describe(g->operations[i]);
          EXPECT_TRUE(received == sent) << describe(g->operations[i]);
        },
        g->operations[i].attrs);
  }
  const auto& conv = std::get<Conv2dAttrs>(back->operations.at(0).attrs);
  EXPECT_TRUE(conv.padding.given());
  EXPECT_FALSE(conv.strides.given());
  EXPECT_EQ(*conv.strides, (std::vector<uint32_t>{1, 1}));
}

// Every graph of the WPT sets crosses the wire unchanged (its JSON form, which spells every
// option, constant byte and name, is identical), and the decoded graph computes the WPT's
// expected outputs on the reference backend.
TEST(IpcGraphCodec, EveryWptGraphRoundTripsAndComputes) {
  const std::filesystem::path wpt = std::filesystem::path(WEBNN_SHARED_DIR) / "wpt";
  if (!std::filesystem::exists(wpt / "conformance")) GTEST_SKIP() << "no " << wpt;
  MLContextOptions options;
  options.backend = "reference";
  MLContext context = ML::create_context(options);
  size_t graphs = 0, passed = 0;
  for (const char* set : {"conformance", "conformance-extra"}) {
    if (!std::filesystem::exists(wpt / set)) continue;
    for (const std::string& file : conformance::case_files((wpt / set).string())) {
      conformance::for_each_case(file, "", [&](conformance::Case& c) {
        if (c.rejected || !c.graph) return;
        SCOPED_TRACE(c.file + ": " + c.name);
        ++graphs;
        std::shared_ptr<const Graph> back;
        try {
          back = parse_graph_message(serialize_graph(*c.graph), kMax);
        } catch (const Error& e) {
          ADD_FAILURE() << e.what();
          return;
        }
        EXPECT_EQ(formats::to_json(*back), formats::to_json(*c.graph));
        conformance::CaseResult r =
            conformance::check_outputs(c, context.compute(detail::context_build_graph(context, back), c.inputs));
        EXPECT_EQ(r.status, conformance::CaseResult::Status::kPassed) << r.detail;
        passed += r.status == conformance::CaseResult::Status::kPassed;
      });
    }
  }
  std::printf("%zu WPT graphs crossed the wire, %zu computed their expected outputs\n", graphs, passed);
  EXPECT_GT(graphs, 1000u);
  EXPECT_EQ(passed, graphs);
}

TEST(IpcGraphCodec, OperandUsedBeforeItIsProduced) {
  Message m;
  // relu reads the conv's output; point it at the add's output, produced later.
  auto relu = m.operation("relu");
  auto add = m.operation("add");
  relu.getInputs().set(0, add.getOutputs()[0]);
  expect_error(m, ErrorKind::kDataError, "used before an operation produces it");
}

TEST(IpcGraphCodec, OperandIdOutOfRange) {
  Message m;
  m.operation("add").getInputs().set(1, 4000000000u);
  expect_error(m, ErrorKind::kDataError, "operand 4000000000 does not exist");
}

TEST(IpcGraphCodec, OperandValuedOptionOutOfRange) {
  Message m;
  auto conv = m.operation("conv2d");
  conv.getConv2d().getBias().setOperand(999);
  expect_error(m, ErrorKind::kDataError, "option bias: operand 999 does not exist");
}

TEST(IpcGraphCodec, UnknownDataType) {
  Message m;
  m.root.getOperands()[0].getDescriptor().setDataType(static_cast<wire::DataType>(200));
  expect_error(m, ErrorKind::kDataError, "operand 0: data type 200 is unknown");
}

TEST(IpcGraphCodec, UnknownEnumValue) {
  Message m;
  m.operation("conv2d").getConv2d().setFilterLayout(static_cast<wire::Conv2dFilterLayout>(9));
  expect_error(m, ErrorKind::kDataError, "option filterLayout: value 9 is not one of the enum's 4");
}

TEST(IpcGraphCodec, ConstantOfTheWrongSize) {
  Message m;
  for (auto o : m.root.getOperands())
    if (o.isConstant()) {
      std::vector<capnp::byte> three(3);
      o.getConstant().setInline({three.data(), three.size()});
      break;
    }
  expect_error(m, ErrorKind::kDataError, "the constant holds 3 bytes");
}

TEST(IpcGraphCodec, SharedMemoryRefusedWithoutAConnection) {
  Message m;
  for (auto o : m.root.getOperands())
    if (o.isConstant()) {
      o.getConstant().initShared().setSize(16);
      break;
    }
  expect_error(m, ErrorKind::kDataError, "shared memory is not available here");
}

TEST(IpcGraphCodec, DeclaredDescriptorDisagreesWithInference) {
  Message m;
  auto out = m.operation("relu").getOutputs()[0];
  m.root.getOperands()[out].getDescriptor().getShape().set(1, 7);
  expect_error(m, ErrorKind::kDataError,
               "is declared float32[1, 7, 3, 3] but the operation produces float32[1, 2, 3, 3]");
}

TEST(IpcGraphCodec, OutputProducedTwiceOrNotIntermediate) {
  {
    Message m;
    m.operation("add").getOutputs().set(0, m.operation("relu").getOutputs()[0]);
    expect_error(m, ErrorKind::kDataError, "is produced twice");
  }
  {
    Message m;
    m.operation("add").getOutputs().set(0, 0);  // the input x
    expect_error(m, ErrorKind::kDataError, "is not declared as an intermediate operand");
  }
}

TEST(IpcGraphCodec, WrongNumberOfOutputs) {
  Message m;
  m.operation("relu").initOutputs(2);
  expect_error(m, ErrorKind::kDataError, "lists 2 outputs but the operation has 1");
}

// The spec's rules run on the receiver: an operation the builder would refuse is refused with
// the builder's own error kind and message.
TEST(IpcGraphCodec, SpecValidationRunsOnTheReceiver) {
  Message m;
  m.operation("conv2d").getConv2d().setGroups(0);
  expect_error(m, ErrorKind::kTypeError, "conv2d");
}

TEST(IpcGraphCodec, GraphOutputMustExist) {
  Message m;
  m.root.getOutputs()[0].setOperand(12345);
  expect_error(m, ErrorKind::kDataError, "output \"y\": operand 12345 does not exist");
}

TEST(IpcGraphCodec, MalformedBytesAreDataErrors) {
  const std::vector<std::byte> good = serialize_graph(*small_graph());
  auto expect_refused = [](std::span<const std::byte> bytes, const std::string& fragment) {
    try {
      parse_graph_message(bytes, kMax, "test.capnp");
      ADD_FAILURE() << "parsed; expected " << fragment;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kDataError) << e.what();
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expect_refused(std::span(good).first(good.size() - 8), "test.capnp");          // truncated
  expect_refused(std::span(good).first(good.size() - 3), "not a whole number");  // torn word
  std::vector<std::byte> trailing = good;
  trailing.resize(good.size() + 8);
  expect_refused(trailing, "bytes follow the message");
  expect_refused({}, "test.capnp");
  // A segment table that claims 2^32-1 segments.
  std::vector<std::byte> segments(16, std::byte{0xff});
  expect_refused(segments, "test.capnp");
  // Every root pointer bit pattern of one word after a one-segment header: no crash, no hang.
  for (int bit = 0; bit < 64; ++bit) {
    std::vector<std::byte> m = good;
    m[8 + bit / 8] ^= std::byte(1u << (bit % 8));
    try {
      parse_graph_message(m, kMax);
    } catch (const Error&) {
    }
  }
}

}  // namespace
}  // namespace webnn::ipc
