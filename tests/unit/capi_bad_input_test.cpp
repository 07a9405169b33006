// Every class of bad input a C ABI can detect gets its status and a message naming the function
// and the argument: NULL pointers, wrong handle kinds, operands of another builder, tensors and
// graphs of another context, counts and byte lengths that disagree, destroyed objects.
#include <gtest/gtest.h>

#include "capi/capi_util.hpp"

namespace {

using namespace capi_test;

TEST(CapiBadInput, NullPointers) {
  Context c;
  Builder b(c);
  WebnnOperand* x = nullptr;
  F32 d = f32({2});
  expect_failure(webnn_context_create(nullptr, nullptr), WEBNN_STATUS_TYPE_ERROR, {"webnn_context_create", "out"});
  expect_failure(webnn_graph_builder_create(nullptr, nullptr), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_create", "context", "NULL"});
  expect_failure(webnn_graph_builder_input(b, nullptr, &d, &x), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_input", "name"});
  expect_failure(webnn_graph_builder_input(b, "x", nullptr, &x), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_input", "descriptor"});
  expect_failure(webnn_graph_builder_input(b, "x", &d, nullptr), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_input", "out"});
  WEBNN_OK(webnn_graph_builder_input(b, "x", &d, &x));
  WebnnOperand* y = reinterpret_cast<WebnnOperand*>(0x1);  // set to NULL on failure
  expect_failure(webnn_graph_builder_add(b, x, nullptr, nullptr, &y), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_add", "b is NULL"});
  EXPECT_EQ(y, nullptr);
  expect_failure(webnn_graph_builder_relu(nullptr, x, nullptr, &y), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_relu", "builder"});
  expect_failure(webnn_graph_builder_relu(b, x, nullptr, nullptr), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_relu", "out"});
  // A NULL array with a non-zero count.
  WebnnConv2dOptions o;
  webnn_conv2d_options_init(&o);
  o.strides_count = 2;
  F32 xd = f32({1, 1, 3, 3}), fd = f32({1, 1, 1, 1});
  WebnnOperand *x4 = nullptr, *f = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "x4", &xd, &x4));
  WEBNN_OK(webnn_graph_builder_input(b, "f", &fd, &f));
  expect_failure(webnn_graph_builder_conv2d(b, x4, f, &o, &y), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_conv2d", "options->strides", "NULL"});
  expect_failure(webnn_graph_builder_concat(b, nullptr, 2, 0, nullptr, &y), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_concat", "inputs"});
  WebnnOperand* list[2] = {x, nullptr};
  expect_failure(webnn_graph_builder_concat(b, list, 2, 0, nullptr, &y), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_concat", "inputs[1]"});
  size_t count = 0;
  expect_failure(webnn_graph_builder_split(b, x, webnn_splits_count(2), nullptr, nullptr, 2, &count),
                 WEBNN_STATUS_TYPE_ERROR, {"webnn_graph_builder_split", "outputs"});
  expect_failure(webnn_context_read_tensor(c, nullptr, nullptr, 0), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_read_tensor", "tensor"});
  expect_failure(webnn_context_read_tensor_async(c, nullptr, nullptr, 0, nullptr, nullptr), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_read_tensor_async", "tensor"});
  // Releasing NULL is a no-op.
  EXPECT_EQ(webnn_context_release(nullptr), WEBNN_STATUS_SUCCESS);
  EXPECT_EQ(webnn_tensor_release(nullptr), WEBNN_STATUS_SUCCESS);
}

TEST(CapiBadInput, WrongHandleKinds) {
  Context c;
  Builder b(c);
  Tensor t(c, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true);
  WebnnGraphBuilder* not_a_builder = nullptr;
  expect_failure(webnn_graph_builder_create(reinterpret_cast<WebnnContext*>(b.b), &not_a_builder),
                 WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_create", "context is a WebnnGraphBuilder where a WebnnContext is expected"});
  WebnnOperand* y = nullptr;
  expect_failure(webnn_graph_builder_relu(b, reinterpret_cast<WebnnOperand*>(t.t), nullptr, &y),
                 WEBNN_STATUS_TYPE_ERROR, {"webnn_graph_builder_relu", "input", "WebnnTensor"});
  expect_failure(webnn_context_write_tensor(reinterpret_cast<WebnnContext*>(t.t), t, nullptr, 0),
                 WEBNN_STATUS_TYPE_ERROR, {"webnn_context_write_tensor", "context", "WebnnTensor"});
  expect_failure(webnn_tensor_destroy(reinterpret_cast<WebnnTensor*>(c.c)), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_tensor_destroy", "tensor", "WebnnContext"});
  // Not a handle of this library at all.
  uint64_t junk[4] = {1, 2, 3, 4};
  expect_failure(webnn_graph_destroy(reinterpret_cast<WebnnGraph*>(junk)), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_destroy", "graph", "not a live webnn handle"});
  // The library's magic ("WBNN") with a kind it does not know, as a newer library's handle or a
  // corrupted one would have: named with the right article (it said "a unknown handle").
  uint32_t forged[4] = {0x4e4e4257, 99, 0, 0};
  expect_failure(webnn_graph_destroy(reinterpret_cast<WebnnGraph*>(forged)), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_destroy: graph is an unknown handle where a WebnnGraph is expected"});
  expect_failure(webnn_tensor_destroy(reinterpret_cast<WebnnTensor*>(b.b)), WEBNN_STATUS_TYPE_ERROR,
                 {"tensor is a WebnnGraphBuilder where a WebnnTensor is expected"});
}

TEST(CapiBadInput, OperandOfAnotherBuilder) {
  Context c;
  Builder b1(c), b2(c);
  F32 d = f32({2});
  WebnnOperand *x1 = nullptr, *x2 = nullptr, *y = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b1, "x", &d, &x1));
  WEBNN_OK(webnn_graph_builder_input(b2, "x", &d, &x2));
  expect_failure(webnn_graph_builder_add(b1, x1, x2, nullptr, &y), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_add", "b is an operand of another graph builder"});
  WebnnGemmOptions g;
  webnn_gemm_options_init(&g);
  F32 m = f32({2, 2});
  WebnnOperand *a = nullptr, *c2 = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b1, "a", &m, &a));
  WEBNN_OK(webnn_graph_builder_input(b2, "c", &m, &c2));
  g.c = c2;
  expect_failure(webnn_graph_builder_gemm(b1, a, a, &g, &y), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_gemm", "options->c", "another graph builder"});
  WebnnNamedOperand out{"y", x2};
  WebnnGraph* graph = nullptr;
  expect_failure(webnn_graph_builder_build(b1, &out, 1, &graph), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_build", "outputs[0].operand", "another graph builder"});
}

TEST(CapiBadInput, TensorsAndGraphsOfAnotherContext) {
  Context c1, c2;
  Graph g;
  g.g = relu_add_graph(c1, 2, 0.0f);
  Tensor x1(c1, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true), y1(c1, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true);
  Tensor x2(c2, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true), y2(c2, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true);
  const float v[2] = {1, 2};
  expect_failure(webnn_context_write_tensor(c1, x2, v, sizeof(v)), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_write_tensor", "tensor belongs to another context"});
  float out[2];
  expect_failure(webnn_context_read_tensor(c2, y1, out, sizeof(out)), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_read_tensor", "another context"});
  WebnnNamedTensor in2{"x", x2}, out2{"y", y2}, in1{"x", x1}, out1{"y", y1};
  expect_failure(webnn_context_dispatch(c2, g, &in2, 1, &out2, 1), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_dispatch", "graph belongs to another context"});
  expect_failure(webnn_context_dispatch(c1, g, &in2, 1, &out1, 1), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_dispatch", "inputs[0].tensor belongs to another context"});
  WEBNN_OK(webnn_context_dispatch(c1, g, &in1, 1, &out1, 1));
}

TEST(CapiBadInput, CountsAndByteLengthsThatDisagree) {
  Context c;
  Builder b(c);
  F32 d = f32({2, 3});
  WebnnOperand* k = nullptr;
  float v[6] = {};
  expect_failure(webnn_graph_builder_constant(b, &d, v, 20, &k), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_constant", "byte_length", "20", "24"});
  WebnnOperandDescriptor bad{WEBNN_DATA_TYPE_FLOAT32, nullptr, 2};
  expect_failure(webnn_graph_builder_constant(b, &bad, v, 24, &k), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_constant", "descriptor->shape", "NULL"});
  WebnnOperandDescriptor bad_type{WEBNN_DATA_TYPE_FLOAT32, d.shape.data(), 2};
  set_raw(bad_type.data_type, 42);
  expect_failure(webnn_graph_builder_constant(b, &bad_type, v, 24, &k), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_constant", "descriptor->data_type", "42"});
  Graph g;
  g.g = relu_add_graph(c, 2, 0.0f);
  Tensor x(c, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true), y(c, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true);
  expect_failure(webnn_context_write_tensor(c, x, v, 4), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_write_tensor", "byte_length", "4"});
  expect_failure(webnn_context_read_tensor(c, y, v, 12), WEBNN_STATUS_TYPE_ERROR, {"webnn_context_read_tensor", "12"});
  WebnnNamedTensor ins[2] = {{"x", x}, {"z", y}}, outs{"y", y};
  expect_failure(webnn_context_dispatch(c, g, ins, 2, &outs, 1), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_dispatch", "inputs_count", "2", "1"});
  expect_failure(webnn_context_dispatch(c, g, ins, 1, nullptr, 1), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_dispatch", "outputs"});
  Tensor wrong(c, WEBNN_DATA_TYPE_FLOAT32, {3}, true, true);
  WebnnNamedTensor bad_in{"x", wrong};
  expect_failure(webnn_context_dispatch(c, g, &bad_in, 1, &outs, 1), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_dispatch"});
  // Enum values out of range.
  WebnnOperand* x4 = nullptr;
  WebnnOperand* y4 = nullptr;
  F32 d4 = f32({1, 1, 2, 2});
  WEBNN_OK(webnn_graph_builder_input(b, "x4", &d4, &x4));
  WebnnPool2dOptions po;
  webnn_pool2d_options_init(&po);
  set_raw(po.layout, 9);
  expect_failure(webnn_graph_builder_average_pool2d(b, x4, &po, &y4), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_average_pool2d", "options->layout", "9"});
  WebnnNumber n = webnn_number_double(0);
  set_raw(n.kind, 5);
  expect_failure(webnn_graph_builder_constant_scalar(b, WEBNN_DATA_TYPE_FLOAT32, n, &k), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_constant_scalar", "value.kind"});
}

TEST(CapiBadInput, SpecValidationErrorsCarryTheCppMessage) {
  Context c;
  Builder b(c);
  F32 a = f32({2, 3}), m = f32({4, 5});
  WebnnOperand *x = nullptr, *y = nullptr, *z = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "a", &a, &x));
  WEBNN_OK(webnn_graph_builder_input(b, "m", &m, &y));
  expect_failure(webnn_graph_builder_matmul(b, x, y, nullptr, &z), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_matmul: matmul"});
  expect_failure(webnn_graph_builder_input(b, "a", &a, &z), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_graph_builder_input", "\"a\""});
}

TEST(CapiBadInput, DestroyedObjects) {
  Context c;
  Graph g;
  g.g = relu_add_graph(c, 2, 0.0f);
  Tensor x(c, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true), y(c, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true);
  const float v[2] = {1, 2};
  WEBNN_OK(webnn_tensor_destroy(x));
  expect_failure(webnn_context_write_tensor(c, x, v, sizeof(v)), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_write_tensor", "destroyed"});
  float out[2];
  expect_failure(webnn_context_read_tensor(c, x, out, sizeof(out)), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_read_tensor", "destroyed"});
  WebnnNamedTensor in{"x", x}, o{"y", y};
  expect_failure(webnn_context_dispatch(c, g, &in, 1, &o, 1), WEBNN_STATUS_TYPE_ERROR, {"webnn_context_dispatch"});
  WEBNN_OK(webnn_graph_destroy(g));
  Tensor x2(c, WEBNN_DATA_TYPE_FLOAT32, {2}, true, true);
  WebnnNamedTensor in2{"x", x2};
  const WebnnStatus s = webnn_context_dispatch(c, g, &in2, 1, &o, 1);
  EXPECT_NE(s, WEBNN_STATUS_SUCCESS);
  EXPECT_NE(std::string(webnn_last_error_message()).find("destroyed"), std::string::npos) << webnn_last_error_message();
  // A destroyed context: every later call fails with a status, the handle stays valid.
  WEBNN_OK(webnn_context_destroy(c));
  WebnnGraphBuilder* b = nullptr;
  expect_failure(webnn_graph_builder_create(c, &b), WEBNN_STATUS_INVALID_STATE_ERROR,
                 {"webnn_graph_builder_create", "lost"});
  WebnnTensor* t = nullptr;
  WebnnTensorDescriptor td{WEBNN_DATA_TYPE_FLOAT32, nullptr, 0, true, false};
  EXPECT_NE(webnn_context_create_tensor(c, &td, &t), WEBNN_STATUS_SUCCESS);
  EXPECT_EQ(t, nullptr);
  expect_failure(webnn_context_read_tensor(c, y, out, sizeof(out)), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_read_tensor", "destroyed"});
  bool lost = false;
  WEBNN_OK(webnn_context_is_lost(c, &lost));
  EXPECT_TRUE(lost);
}

TEST(CapiBadInput, ThreadCountsOutOfRange) {
  // The one check of context options (createContext) answers the C ABI too: no thread pool sees
  // an absurd count (libgomp would abort the process).
  for (int32_t threads : {-1, 257, 100000}) {
    WebnnContextOptions options;
    webnn_context_options_init(&options);
    options.num_threads = threads;
    WebnnContext* c = reinterpret_cast<WebnnContext*>(0x1);
    expect_failure(webnn_context_create(&options, &c), WEBNN_STATUS_TYPE_ERROR, {"num_threads must be in [0, 256]"});
    EXPECT_EQ(c, nullptr);
  }
}

}  // namespace
