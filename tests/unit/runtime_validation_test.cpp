// The synchronous checks of the MLContext / MLTensor / MLGraph methods, each as the spec's steps
// name its error.
#include <gtest/gtest.h>

#include "graph/graph_builder.hpp"
#include "runtime/handles.hpp"
#include "runtime_fake_backend.hpp"

namespace webnn {
namespace {

using testing::error_of;
using testing::FakeBackend;
using testing::make_ir;
using testing::rejection_of;
using testing::to_bytes;
using testing::to_floats;

using testing::Fixture;
using testing::kDesc;
using testing::kInOut;

// The message of the webnn::Error `fn` throws.
template <class Fn>
std::string message_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}

TEST(RuntimeValidation, TensorAttributesFollowTheDescriptor) {
  Fixture f;
  MLTensor t = f.ctx.create_tensor({DataType::kInt8, {3}, true, false});
  EXPECT_EQ(t.data_type(), DataType::kInt8);
  EXPECT_EQ(t.shape(), (Shape{3}));
  EXPECT_TRUE(t.readable());
  EXPECT_FALSE(t.writable());
  EXPECT_FALSE(t.constant());
  EXPECT_FALSE(t.is_destroyed());
}

TEST(RuntimeValidation, CreateTensorRejectsInvalidDescriptors) {
  Fixture f;
  EXPECT_EQ(error_of([&] { f.ctx.create_tensor({DataType::kFloat32, {2, 0}}); }), ErrorKind::kTypeError);
  EXPECT_EQ(error_of([&] {
              f.ctx.create_tensor({DataType::kFloat32, Shape(kMaxRank + 1, 1)});
            }),
            ErrorKind::kTypeError);
  // 2^29 int64 elements: a valid element count, but 4 GiB exceed maxTensorByteLength.
  EXPECT_EQ(error_of([&] { f.ctx.create_tensor({DataType::kInt64, {1u << 15, 1u << 14}}); }), ErrorKind::kTypeError);
  MLTensor scalar = f.ctx.create_tensor({DataType::kInt64, {}, true, true});  // rank 0 is valid
  EXPECT_EQ(f.ctx.read_tensor(scalar).get().size(), 8u);
}

TEST(RuntimeValidation, ReadableAndWritableFlagsAreEnforced) {
  Fixture f;
  MLTensor write_only = f.ctx.create_tensor({DataType::kFloat32, {2, 2}, false, true});
  MLTensor read_only = f.ctx.create_tensor({DataType::kFloat32, {2, 2}, true, false});
  auto r = f.ctx.read_tensor(write_only);
  EXPECT_EQ(rejection_of(r), ErrorKind::kTypeError);
  std::vector<std::byte> out(16);
  auto r2 = f.ctx.read_tensor(write_only, out);
  EXPECT_EQ(rejection_of(r2), ErrorKind::kTypeError);
  EXPECT_EQ(error_of([&] { f.ctx.write_tensor(read_only, to_bytes({1, 2, 3, 4})); }), ErrorKind::kTypeError);
  EXPECT_EQ(message_of([&] {
              f.ctx.write_tensor(read_only, to_bytes({1, 2, 3, 4}));
            }),
            "writeTensor: the tensor was not created with writable = true");
  f.ctx.write_tensor(write_only, to_bytes({1, 2, 3, 4}));  // allowed
  EXPECT_EQ(to_floats(f.ctx.read_tensor(read_only).get()), (std::vector<float>{0, 0, 0, 0}));
}

TEST(RuntimeValidation, ByteLengthsMustMatchTheDescriptor) {
  Fixture f;
  EXPECT_EQ(error_of([&] { f.ctx.write_tensor(f.a, to_bytes({1, 2, 3})); }), ErrorKind::kTypeError);
  EXPECT_EQ(message_of([&] {
              f.ctx.write_tensor(f.a, to_bytes({1, 2, 3}));
            }),
            "writeTensor: the buffer holds 12 bytes but float32[2, 2] needs 16");
  std::vector<std::byte> small(12), large(20);
  auto r1 = f.ctx.read_tensor(f.a, small);
  auto r2 = f.ctx.read_tensor(f.a, large);
  EXPECT_EQ(rejection_of(r1), ErrorKind::kTypeError);
  EXPECT_EQ(rejection_of(r2), ErrorKind::kTypeError);
}

TEST(RuntimeValidation, TensorsOfAnotherContextAreTypeErrors) {
  Fixture f, g;
  EXPECT_EQ(error_of([&] { f.ctx.write_tensor(g.a, to_bytes({1, 2, 3, 4})); }), ErrorKind::kTypeError);
  auto r = f.ctx.read_tensor(g.a);
  EXPECT_EQ(rejection_of(r), ErrorKind::kTypeError);
  std::vector<std::byte> out(16);
  auto r2 = f.ctx.read_tensor(g.a, out);
  EXPECT_EQ(rejection_of(r2), ErrorKind::kTypeError);
  EXPECT_EQ(error_of([&] { f.ctx.dispatch(f.graph, {{"a", g.a}, {"b", f.b}}, {{"c", f.c}}); }), ErrorKind::kTypeError);
  EXPECT_EQ(error_of([&] { f.ctx.dispatch(g.graph, {{"a", f.a}, {"b", f.b}}, {{"c", f.c}}); }), ErrorKind::kTypeError);
  auto empty = f.ctx.read_tensor(MLTensor());
  EXPECT_EQ(rejection_of(empty), ErrorKind::kTypeError);
}

TEST(RuntimeValidation, DispatchChecksEveryTensorAgainstTheGraph) {
  Fixture f;
  auto dispatch_error = [&](const MLNamedTensors& in, const MLNamedTensors& out) {
    return error_of([&] { f.ctx.dispatch(f.graph, in, out); });
  };
  const MLNamedTensors out{{"c", f.c}};
  // Duplicates among inputs, and between inputs and outputs.
  EXPECT_EQ(dispatch_error({{"a", f.a}, {"b", f.a}}, out), ErrorKind::kTypeError);
  EXPECT_EQ(dispatch_error({{"a", f.a}, {"b", f.c}}, out), ErrorKind::kTypeError);
  EXPECT_EQ(message_of([&] {
              f.ctx.dispatch(f.graph, {{"a", f.a}, {"b", f.c}}, out);
            }),
            "dispatch: input \"b\" and output \"c\" are the same tensor");
  // Missing, extra and misnamed inputs and outputs.
  EXPECT_EQ(dispatch_error({{"a", f.a}}, out), ErrorKind::kTypeError);
  EXPECT_EQ(message_of([&] {
              f.ctx.dispatch(f.graph, {{"a", f.a}}, out);
            }),
            "dispatch: the graph's input \"b\" (float32[2, 2]) is missing");
  MLTensor extra = f.ctx.create_tensor(kInOut);
  EXPECT_EQ(dispatch_error({{"a", f.a}, {"b", f.b}, {"z", extra}}, out), ErrorKind::kTypeError);
  EXPECT_EQ(dispatch_error({{"a", f.a}, {"b", f.b}}, {}), ErrorKind::kTypeError);
  EXPECT_EQ(dispatch_error({{"a", f.a}, {"b", f.b}}, {{"d", f.c}}), ErrorKind::kTypeError);
  // Descriptor mismatch: data type and shape.
  MLTensor ints = f.ctx.create_tensor({DataType::kInt32, {2, 2}, true, true});
  MLTensor wide = f.ctx.create_tensor({DataType::kFloat32, {4}, true, true});
  EXPECT_EQ(dispatch_error({{"a", ints}, {"b", f.b}}, out), ErrorKind::kTypeError);
  EXPECT_EQ(dispatch_error({{"a", f.a}, {"b", f.b}}, {{"c", wide}}), ErrorKind::kTypeError);
  EXPECT_EQ(message_of([&] {
              f.ctx.dispatch(f.graph, {{"a", ints}, {"b", f.b}}, out);
            }),
            "dispatch: input \"a\" is int32[2, 2] but the graph expects float32[2, 2]");
  // Constant tensors cannot be dispatched.
  MLTensor constant = f.ctx.create_constant_tensor(kDesc, to_bytes({1, 2, 3, 4}));
  EXPECT_EQ(dispatch_error({{"a", constant}, {"b", f.b}}, out), ErrorKind::kTypeError);
  // Destroyed tensor: TypeError; destroyed graph: InvalidStateError.
  MLTensor gone = f.ctx.create_tensor(kInOut);
  gone.destroy();
  EXPECT_EQ(dispatch_error({{"a", gone}, {"b", f.b}}, out), ErrorKind::kTypeError);
  EXPECT_EQ(dispatch_error({{"a", MLTensor()}, {"b", f.b}}, out), ErrorKind::kTypeError);
  // Nothing above ran.
  f.ctx.read_tensor(f.c).get();
  EXPECT_EQ(f.backend.runs.load(), 0);
  f.graph.destroy();
  EXPECT_EQ(dispatch_error({{"a", f.a}, {"b", f.b}}, out), ErrorKind::kInvalidStateError);
  EXPECT_EQ(error_of([&] { f.ctx.dispatch(MLGraph(), {}, {}); }), ErrorKind::kTypeError);
}

TEST(RuntimeValidation, ConstantTensorRules) {
  Fixture f;
  EXPECT_EQ(error_of([&] { f.ctx.create_constant_tensor(kDesc, to_bytes({1, 2, 3})); }), ErrorKind::kTypeError);
  EXPECT_EQ(error_of([&] { f.ctx.create_constant_tensor({DataType::kFloat32, {0}}, {}); }), ErrorKind::kTypeError);
  const auto bytes = to_bytes({1, 2, 3, 4});
  MLTensor k = f.ctx.create_constant_tensor(kDesc, bytes);
  EXPECT_TRUE(k.constant());
  EXPECT_FALSE(k.readable());
  EXPECT_FALSE(k.writable());
  EXPECT_EQ(k.data_type(), DataType::kFloat32);
  EXPECT_EQ(k.shape(), kDesc.shape);
  // The bytes the builder shares with graphs.
  const auto held = detail::impl_of(k)->constant_data.span();
  EXPECT_TRUE(std::equal(held.begin(), held.end(), bytes.begin(), bytes.end()));
  EXPECT_EQ(error_of([&] { f.ctx.write_tensor(k, bytes); }), ErrorKind::kTypeError);
  auto r = f.ctx.read_tensor(k);
  EXPECT_EQ(rejection_of(r), ErrorKind::kTypeError);
  k.destroy();
  EXPECT_TRUE(k.is_destroyed());
}

TEST(RuntimeValidation, LostResolvesOnlyOnDestroy) {
  Fixture f;
  auto lost = f.ctx.lost();
  EXPECT_FALSE(f.ctx.is_lost());
  EXPECT_NE(lost.wait_for(std::chrono::seconds(0)), std::future_status::ready);
  f.ctx.destroy();
  EXPECT_TRUE(f.ctx.is_lost());
  EXPECT_EQ(lost.wait_for(std::chrono::seconds(0)), std::future_status::ready);
  EXPECT_EQ(lost.get().message, "destroy() was called");
}

TEST(RuntimeValidation, ComputeNamesTheInputThatIsWrong) {
  Fixture f;
  const HostTensor good{kDesc, to_bytes({1, 2, 3, 4})};
  EXPECT_EQ(message_of([&] {
              f.ctx.compute(f.graph, {{"a", good}});
            }),
            "compute: input \"b\" (float32[2, 2]) is missing");
  EXPECT_EQ(message_of([&] {
              f.ctx.compute(f.graph, {{"a", good}, {"b", good}, {"z", good}});
            }),
            "compute: \"z\" is not an input of the graph");
  const HostTensor wrong_type{{DataType::kInt32, {2, 2}}, to_bytes({1, 2, 3, 4})};
  EXPECT_EQ(message_of([&] {
              f.ctx.compute(f.graph, {{"a", good}, {"b", wrong_type}});
            }),
            "compute: input \"b\" is int32[2, 2] but the graph expects float32[2, 2]");
  const HostTensor short_data{kDesc, to_bytes({1, 2, 3})};
  EXPECT_EQ(message_of([&] {
              f.ctx.compute(f.graph, {{"a", short_data}, {"b", good}});
            }),
            "compute: input \"a\" holds 12 bytes but float32[2, 2] needs 16");
  EXPECT_EQ(error_of([&] { f.ctx.compute(f.graph, {{"a", good}}); }), ErrorKind::kTypeError);
  auto out = f.ctx.compute(f.graph, {{"a", good}, {"b", good}});
  EXPECT_EQ(to_floats(out.at("c").data), (std::vector<float>{3, 5, 7, 9}));
  Fixture other;
  EXPECT_EQ(error_of([&] { f.ctx.compute(other.graph, {{"a", good}, {"b", good}}); }), ErrorKind::kTypeError);
  f.graph.destroy();
  EXPECT_EQ(error_of([&] { f.ctx.compute(f.graph, {{"a", good}, {"b", good}}); }), ErrorKind::kInvalidStateError);
}

TEST(RuntimeValidation, BuildGraphReportsCompileFailures) {
  FakeBackend backend;
  MLContextOptions options;
  options.num_threads = 3;
  MLContext ctx = detail::create_context_with_backend(backend, options);
  EXPECT_EQ(ctx.backend_name(), "fake");
  EXPECT_EQ(ctx.num_threads(), 3);
  EXPECT_FALSE(ctx.accelerated());
  MLGraph graph = detail::context_build_graph(ctx, make_ir({"x"}, {"y"}, kDesc));
  EXPECT_EQ(backend.last_num_threads.load(), 3);
  EXPECT_EQ(graph.input_descriptors(), (std::map<std::string, OperandDescriptor>{{"x", kDesc}}));
  EXPECT_EQ(graph.output_descriptors(), (std::map<std::string, OperandDescriptor>{{"y", kDesc}}));
  EXPECT_EQ(graph.placement(), (std::vector<std::string>{"fake"}));
  EXPECT_NE(detail::impl_of(graph)->ir, nullptr);
  // NotSupportedError passes through; any other failure is the spec's OperationError.
  backend.compile_error = Error(ErrorKind::kNotSupportedError, "fake: gelu is not supported");
  EXPECT_EQ(error_of([&] { detail::context_build_graph(ctx, make_ir({"x"}, {"y"}, kDesc)); }),
            ErrorKind::kNotSupportedError);
  backend.compile_error = Error(ErrorKind::kUnknownError, "fake: out of registers");
  EXPECT_EQ(error_of([&] { detail::context_build_graph(ctx, make_ir({"x"}, {"y"}, kDesc)); }),
            ErrorKind::kOperationError);
  EXPECT_EQ(error_of([&] { detail::context_build_graph(ctx, nullptr); }), ErrorKind::kTypeError);
  EXPECT_EQ(error_of([&] { detail::context_build_graph(nullptr, make_ir({"x"}, {"y"}, kDesc)); }),
            ErrorKind::kTypeError);
  EXPECT_EQ(detail::context_max_tensor_byte_length(*detail::impl_of(ctx)), kMaxTensorByteLength);
}

TEST(RuntimeValidation, CreateContextChecksItsOptions) {
  MLContextOptions options;
  options.num_threads = -1;
  EXPECT_EQ(error_of([&] { ML::create_context(options); }), ErrorKind::kTypeError);
  options.num_threads = 0;
  options.backend = "no-such-backend";
  EXPECT_EQ(error_of([&] { ML::create_context(options); }), ErrorKind::kNotSupportedError);
  EXPECT_EQ(error_of([&] { MLContext().create_tensor(kInOut); }), ErrorKind::kTypeError);
}

}  // namespace
}  // namespace webnn
