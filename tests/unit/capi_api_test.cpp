// The C ABI (webnn.h) end to end: contexts, builders, every kind of argument of the generated
// operator functions (options structs, absent vs empty sequences, MLNumber, split's count vs
// list, multi-output ops), graphs, tensors, the timeline and graph files.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <limits>
#include <mutex>

#include "capi/capi_util.hpp"
#include "unit/onnx_test_model.hpp"

namespace {

using namespace capi_test;

std::vector<uint32_t> shape_of(WebnnOperand* o) {
  uint32_t dims[8];
  size_t rank = 0;
  EXPECT_EQ(webnn_operand_shape(o, dims, 8, &rank), WEBNN_STATUS_SUCCESS) << webnn_last_error_message();
  return std::vector<uint32_t>(dims, dims + rank);
}

TEST(CapiApi, VersionMatchesTheHeader) {
  EXPECT_EQ(webnn_api_version(), static_cast<uint32_t>(WEBNN_API_VERSION));
  EXPECT_STREQ(webnn_status_name(WEBNN_STATUS_INVALID_STATE_ERROR), "InvalidStateError");
}

TEST(CapiApi, ContextDefaultsAndOptions) {
  WebnnContext* c = nullptr;
  WEBNN_OK(webnn_context_create(nullptr, &c));
  const char* backend = nullptr;
  WEBNN_OK(webnn_context_backend_name(c, &backend));
  EXPECT_GT(std::strlen(backend), 0u);
  bool lost = true;
  WEBNN_OK(webnn_context_is_lost(c, &lost));
  EXPECT_FALSE(lost);
  WEBNN_OK(webnn_context_release(c));

  WebnnContextOptions o;
  webnn_context_options_init(&o);
  EXPECT_EQ(o.struct_size, sizeof(o));
  EXPECT_EQ(o.power_preference, WEBNN_POWER_PREFERENCE_DEFAULT);
  EXPECT_TRUE(o.accelerated);
  o.struct_size = sizeof(o) + 16;
  expect_failure(webnn_context_create(&o, &c), WEBNN_STATUS_NOT_SUPPORTED_ERROR, {"options->struct_size"});
  o.struct_size = sizeof(o);
  o.backend = "no-such-backend";
  expect_failure(webnn_context_create(&o, &c), WEBNN_STATUS_NOT_SUPPORTED_ERROR, {"webnn_context_create"});
  EXPECT_EQ(c, nullptr);
}

TEST(CapiApi, OpSupportLimits) {
  Context c;
  WebnnOpSupportLimits l;
  l.struct_size = sizeof(l);
  WEBNN_OK(webnn_context_op_support_limits(c, &l));
  EXPECT_TRUE(std::strcmp(l.preferred_input_layout, "nchw") == 0 || std::strcmp(l.preferred_input_layout, "nhwc") == 0);
  EXPECT_GT(l.max_tensor_byte_length, 0u);
  EXPECT_TRUE(l.input.data_types & (1u << WEBNN_DATA_TYPE_FLOAT32));
  WebnnTensorLimits filter{};
  WEBNN_OK(webnn_context_op_support_limits_for(c, "conv2d", "filter", &filter));
  EXPECT_EQ(filter.rank_min, 4u);
  EXPECT_EQ(filter.rank_max, 4u);
  expect_failure(webnn_context_op_support_limits_for(c, "conv2d", "nothing", &filter), WEBNN_STATUS_NOT_SUPPORTED_ERROR,
                 {"operand", "nothing"});
}

TEST(CapiApi, BuildDispatchReadAndIntrospect) {
  Context c;
  Graph g;
  g.g = relu_add_graph(c, 4, -1.0f);
  ASSERT_NE(g.g, nullptr);
  size_t n = 0;
  WEBNN_OK(webnn_graph_input_count(g, &n));
  ASSERT_EQ(n, 1u);
  const char* name = nullptr;
  WebnnOperandDescriptor d{};
  WEBNN_OK(webnn_graph_input(g, 0, &name, &d));
  EXPECT_STREQ(name, "x");
  EXPECT_EQ(d.data_type, WEBNN_DATA_TYPE_FLOAT32);
  ASSERT_EQ(d.rank, 1u);
  EXPECT_EQ(d.shape[0], 4u);
  WEBNN_OK(webnn_graph_output(g, 0, &name, &d));
  EXPECT_STREQ(name, "y");

  Tensor x(c, WEBNN_DATA_TYPE_FLOAT32, {4}, false, true), y(c, WEBNN_DATA_TYPE_FLOAT32, {4}, true, false);
  const float in[4] = {0.5f, 1.0f, 2.0f, 3.5f};
  WEBNN_OK(webnn_context_write_tensor(c, x, in, sizeof(in)));
  WebnnNamedTensor ins{"x", x}, outs{"y", y};
  WEBNN_OK(webnn_context_dispatch(c, g, &ins, 1, &outs, 1));
  float out[4] = {};
  WEBNN_OK(webnn_context_read_tensor(c, y, out, sizeof(out)));
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_EQ(out[3], 2.5f);

  WebnnTensorDescriptor td{};
  WEBNN_OK(webnn_tensor_descriptor(y, &td));
  EXPECT_TRUE(td.readable);
  EXPECT_FALSE(td.writable);
  ASSERT_EQ(td.rank, 1u);
  EXPECT_EQ(td.shape[0], 4u);
}

struct ReadWait {
  std::mutex m;
  std::condition_variable cv;
  int calls = 0;
  WebnnStatus status = WEBNN_STATUS_UNKNOWN_ERROR;
  std::string message;
  static void callback(WebnnStatus s, const char* msg, void* self) {
    auto* w = static_cast<ReadWait*>(self);
    std::lock_guard lock(w->m);
    ++w->calls;
    w->status = s;
    w->message = msg;
    w->cv.notify_all();
  }
  void wait() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return calls > 0; });
  }
};

TEST(CapiApi, AsyncReadCallsBackOnceWithTheBytes) {
  Context c;
  Tensor t(c, WEBNN_DATA_TYPE_INT32, {3}, true, true);
  const int32_t in[3] = {7, -8, 9};
  WEBNN_OK(webnn_context_write_tensor(c, t, in, sizeof(in)));
  int32_t out[3] = {};
  ReadWait w;
  WEBNN_OK(webnn_context_read_tensor_async(c, t, out, sizeof(out), &ReadWait::callback, &w));
  w.wait();
  EXPECT_EQ(w.status, WEBNN_STATUS_SUCCESS) << w.message;
  EXPECT_EQ(out[1], -8);
  // A read that cannot start returns its status and never calls back.
  ReadWait w2;
  expect_failure(webnn_context_read_tensor_async(c, t, out, 4, &ReadWait::callback, &w2), WEBNN_STATUS_TYPE_ERROR,
                 {"webnn_context_read_tensor_async", "4 bytes"});
  WEBNN_OK(webnn_context_read_tensor(c, t, out, sizeof(out)));  // drains the timeline
  EXPECT_EQ(w.calls, 1);
  EXPECT_EQ(w2.calls, 0);
}

TEST(CapiApi, OptionsInitSetsTheSpecDefaults) {
  WebnnConv2dOptions conv;
  webnn_conv2d_options_init(&conv);
  EXPECT_EQ(conv.struct_size, sizeof(conv));
  EXPECT_EQ(conv.groups, 1u);
  EXPECT_EQ(conv.input_layout, WEBNN_INPUT_LAYOUT_NCHW);
  EXPECT_EQ(conv.filter_layout, WEBNN_CONV2D_FILTER_LAYOUT_OIHW);
  EXPECT_EQ(conv.padding, nullptr);
  EXPECT_EQ(conv.bias, nullptr);
  WebnnLayerNormalizationOptions ln;
  webnn_layer_normalization_options_init(&ln);
  EXPECT_EQ(ln.epsilon, 1e-5);
  WebnnEluOptions elu;
  webnn_elu_options_init(&elu);
  EXPECT_EQ(elu.alpha, 1.0);
  WebnnGemmOptions gemm;
  webnn_gemm_options_init(&gemm);
  EXPECT_EQ(gemm.alpha, 1.0);
  EXPECT_EQ(gemm.beta, 1.0);
  EXPECT_FALSE(gemm.a_transpose);
  WebnnClampOptions clamp;
  webnn_clamp_options_init(&clamp);
  EXPECT_EQ(clamp.min_value.kind, WEBNN_NUMBER_DOUBLE);
  EXPECT_EQ(clamp.min_value.f64, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(clamp.max_value.f64, std::numeric_limits<double>::infinity());
  WebnnPool2dOptions pool;
  webnn_pool2d_options_init(&pool);
  EXPECT_EQ(pool.output_shape_rounding, WEBNN_ROUNDING_TYPE_FLOOR);
  WebnnBatchNormalizationOptions bn;
  webnn_batch_normalization_options_init(&bn);
  EXPECT_EQ(bn.axis, 1u);
  WebnnGruOptions gru;
  webnn_gru_options_init(&gru);
  EXPECT_TRUE(gru.reset_after);
  EXPECT_EQ(gru.direction, WEBNN_RECURRENT_DIRECTION_FORWARD);
  EXPECT_EQ(gru.activations, nullptr);
}

TEST(CapiApi, ReduceAxesAbsentMeansAllAndEmptyMeansNone) {
  Context c;
  Builder b(c);
  F32 d = f32({2, 3});
  WebnnOperand *x = nullptr, *all = nullptr, *none = nullptr, *one = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "x", &d, &x));
  WEBNN_OK(webnn_graph_builder_reduce_sum(b, x, nullptr, &all));
  EXPECT_EQ(shape_of(all), std::vector<uint32_t>{});
  WebnnReduceOptions o;
  webnn_reduce_options_init(&o);
  static const uint32_t kEmpty[1] = {0};
  o.axes = kEmpty;
  o.axes_count = 0;
  WEBNN_OK(webnn_graph_builder_reduce_sum(b, x, &o, &none));
  EXPECT_EQ(shape_of(none), (std::vector<uint32_t>{2, 3}));
  const uint32_t axis1[1] = {1};
  o.axes = axis1;
  o.axes_count = 1;
  o.keep_dimensions = true;
  WEBNN_OK(webnn_graph_builder_reduce_mean(b, x, &o, &one));
  EXPECT_EQ(shape_of(one), (std::vector<uint32_t>{2, 1}));
}

TEST(CapiApi, SplitTellsACountFromAOneElementList) {
  Context c;
  Builder b(c);
  F32 d = f32({6, 3});
  WebnnOperand* x = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "x", &d, &x));
  WebnnOperand* parts[8] = {};
  size_t count = 0;
  WEBNN_OK(webnn_graph_builder_split(b, x, webnn_splits_count(3), nullptr, parts, 8, &count));
  ASSERT_EQ(count, 3u);
  EXPECT_EQ(shape_of(parts[2]), (std::vector<uint32_t>{2, 3}));
  const uint32_t six[1] = {6};
  WEBNN_OK(webnn_graph_builder_split(b, x, webnn_splits_list(six, 1), nullptr, parts, 8, &count));
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(shape_of(parts[0]), (std::vector<uint32_t>{6, 3}));
  WebnnSplitOptions so;
  webnn_split_options_init(&so);
  so.axis = 1;
  WEBNN_OK(webnn_graph_builder_split(b, x, webnn_splits_count(3), &so, parts, 8, &count));
  ASSERT_EQ(count, 3u);
  EXPECT_EQ(shape_of(parts[0]), (std::vector<uint32_t>{6, 1}));
  // Too small an array: the status says so and *output_count holds the number needed.
  expect_failure(webnn_graph_builder_split(b, x, webnn_splits_count(3), nullptr, parts, 2, &count),
                 WEBNN_STATUS_TYPE_ERROR, {"webnn_graph_builder_split", "output_capacity"});
  EXPECT_EQ(count, 3u);
}

TEST(CapiApi, Conv2dWithOptionsComputes) {
  Context c;
  Builder b(c);
  // 1x1x3x3 input, 1x1x2x2 filter of ones, stride 1, bias 10: each output is its window sum + 10.
  const std::vector<uint32_t> xs{1, 1, 3, 3}, fs{1, 1, 2, 2}, bs{1};
  F32 xd = f32(xs), fd = f32(fs), bd = f32(bs);
  const float ones[4] = {1, 1, 1, 1}, bias[1] = {10};
  WebnnOperand *x = nullptr, *f = nullptr, *bo = nullptr, *y = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "x", &xd, &x));
  WEBNN_OK(webnn_graph_builder_constant(b, &fd, ones, sizeof(ones), &f));
  WEBNN_OK(webnn_graph_builder_constant(b, &bd, bias, sizeof(bias), &bo));
  WebnnConv2dOptions o;
  webnn_conv2d_options_init(&o);
  o.bias = bo;
  o.label = "my conv";
  WEBNN_OK(webnn_graph_builder_conv2d(b, x, f, &o, &y));
  EXPECT_EQ(shape_of(y), (std::vector<uint32_t>{1, 1, 2, 2}));
  WebnnNamedOperand named{"y", y};
  Graph g;
  WEBNN_OK(webnn_graph_builder_build(b, &named, 1, &g.g));
  Tensor xt(c, WEBNN_DATA_TYPE_FLOAT32, xs, false, true), yt(c, WEBNN_DATA_TYPE_FLOAT32, {1, 1, 2, 2}, true, false);
  const float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  WEBNN_OK(webnn_context_write_tensor(c, xt, in, sizeof(in)));
  WebnnNamedTensor it{"x", xt}, ot{"y", yt};
  WEBNN_OK(webnn_context_dispatch(c, g, &it, 1, &ot, 1));
  float out[4] = {};
  WEBNN_OK(webnn_context_read_tensor(c, yt, out, sizeof(out)));
  EXPECT_EQ(out[0], 1 + 2 + 4 + 5 + 10.0f);
  EXPECT_EQ(out[3], 5 + 6 + 8 + 9 + 10.0f);
}

TEST(CapiApi, ScalarConstantsKeepExactIntegers) {
  Context c;
  Builder b(c);
  WebnnOperand *big = nullptr, *neg = nullptr, *id = nullptr, *nid = nullptr;
  WEBNN_OK(webnn_graph_builder_constant_scalar(b, WEBNN_DATA_TYPE_UINT64, webnn_number_uint64(UINT64_MAX), &big));
  WEBNN_OK(webnn_graph_builder_constant_scalar(b, WEBNN_DATA_TYPE_INT64, webnn_number_int64(INT64_MIN + 1), &neg));
  WebnnDataType t{};
  WEBNN_OK(webnn_operand_data_type(big, &t));
  EXPECT_EQ(t, WEBNN_DATA_TYPE_UINT64);
  EXPECT_EQ(shape_of(big), std::vector<uint32_t>{});
  WEBNN_OK(webnn_graph_builder_identity(b, big, nullptr, &id));
  WEBNN_OK(webnn_graph_builder_identity(b, neg, nullptr, &nid));
  WebnnNamedOperand named[2] = {{"big", id}, {"neg", nid}};
  Graph g;
  WEBNN_OK(webnn_graph_builder_build(b, named, 2, &g.g));
  Tensor bt(c, WEBNN_DATA_TYPE_UINT64, {}, true, false), nt(c, WEBNN_DATA_TYPE_INT64, {}, true, false);
  WebnnNamedTensor outs[2] = {{"big", bt}, {"neg", nt}};
  WEBNN_OK(webnn_context_dispatch(c, g, nullptr, 0, outs, 2));
  uint64_t bv = 0;
  int64_t nv = 0;
  WEBNN_OK(webnn_context_read_tensor(c, bt, &bv, sizeof(bv)));
  WEBNN_OK(webnn_context_read_tensor(c, nt, &nv, sizeof(nv)));
  EXPECT_EQ(bv, UINT64_MAX);
  EXPECT_EQ(nv, INT64_MIN + 1);
}

TEST(CapiApi, ClampBoundsAreTaggedNumbers) {
  Context c;
  Builder b(c);
  F32 d = f32({3});
  WebnnOperand *x = nullptr, *y = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "x", &d, &x));
  WebnnClampOptions o;
  webnn_clamp_options_init(&o);
  o.min_value = webnn_number_int64(0);
  o.max_value = webnn_number_double(1.5);
  WEBNN_OK(webnn_graph_builder_clamp(b, x, &o, &y));
  WebnnNamedOperand named{"y", y};
  Graph g;
  WEBNN_OK(webnn_graph_builder_build(b, &named, 1, &g.g));
  Tensor xt(c, WEBNN_DATA_TYPE_FLOAT32, {3}, false, true), yt(c, WEBNN_DATA_TYPE_FLOAT32, {3}, true, false);
  const float in[3] = {-2, 1, 9};
  WEBNN_OK(webnn_context_write_tensor(c, xt, in, sizeof(in)));
  WebnnNamedTensor it{"x", xt}, ot{"y", yt};
  WEBNN_OK(webnn_context_dispatch(c, g, &it, 1, &ot, 1));
  float out[3] = {};
  WEBNN_OK(webnn_context_read_tensor(c, yt, out, sizeof(out)));
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], 1.5f);
}

TEST(CapiApi, ConcatAndMultiOutputRecurrentOps) {
  Context c;
  Builder b(c);
  F32 d = f32({2, 2});
  WebnnOperand *x = nullptr, *y = nullptr, *z = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "x", &d, &x));
  WEBNN_OK(webnn_graph_builder_input(b, "y", &d, &y));
  WebnnOperand* list[2] = {x, y};
  WEBNN_OK(webnn_graph_builder_concat(b, list, 2, 1, nullptr, &z));
  EXPECT_EQ(shape_of(z), (std::vector<uint32_t>{2, 4}));
  // lstmCell returns [output, cellState].
  const uint32_t batch = 1, in = 2, hidden = 3;
  const std::vector<uint32_t> xs{batch, in}, ws{4 * hidden, in}, rs{4 * hidden, hidden}, hs{batch, hidden};
  F32 xd = f32(xs), wd = f32(ws), rd = f32(rs), hd = f32(hs);
  WebnnOperand *ix = nullptr, *w = nullptr, *r = nullptr, *h = nullptr, *cs = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "ix", &xd, &ix));
  WEBNN_OK(webnn_graph_builder_input(b, "w", &wd, &w));
  WEBNN_OK(webnn_graph_builder_input(b, "r", &rd, &r));
  WEBNN_OK(webnn_graph_builder_input(b, "h", &hd, &h));
  WEBNN_OK(webnn_graph_builder_input(b, "cs", &hd, &cs));
  WebnnOperand* outs[4] = {};
  size_t count = 0;
  WEBNN_OK(webnn_graph_builder_lstm_cell(b, ix, w, r, h, cs, hidden, nullptr, outs, 4, &count));
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(shape_of(outs[1]), hs);
  // gru with returnSequence: [output, outputSequence]; activations as a list of enum values.
  const std::vector<uint32_t> seq{2, batch, in}, gw{1, 3 * hidden, in}, gr{1, 3 * hidden, hidden};
  F32 sd = f32(seq), gwd = f32(gw), grd = f32(gr);
  WebnnOperand *s = nullptr, *gwo = nullptr, *gro = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "s", &sd, &s));
  WEBNN_OK(webnn_graph_builder_input(b, "gw", &gwd, &gwo));
  WEBNN_OK(webnn_graph_builder_input(b, "gr", &grd, &gro));
  WebnnGruOptions go;
  webnn_gru_options_init(&go);
  go.return_sequence = true;
  const WebnnRecurrentActivation acts[2] = {WEBNN_RECURRENT_ACTIVATION_SIGMOID, WEBNN_RECURRENT_ACTIVATION_RELU};
  go.activations = acts;
  go.activations_count = 2;
  WEBNN_OK(webnn_graph_builder_gru(b, s, gwo, gro, 2, hidden, &go, outs, 4, &count));
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(shape_of(outs[1]), (std::vector<uint32_t>{2, 1, batch, hidden}));
}

TEST(CapiApi, OlderSmallerOptionsStructGetsDefaultsForTheRest) {
  Context c;
  Builder b(c);
  F32 d = f32({1, 1, 4, 4});
  WebnnOperand *x = nullptr, *y = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "x", &d, &x));
  // A caller built against a header whose WebnnPool2dOptions ended after window_dimensions.
  WebnnPool2dOptions o;
  webnn_pool2d_options_init(&o);
  const uint32_t window[2] = {2, 2};
  o.window_dimensions = window;
  o.window_dimensions_count = 2;
  set_raw(o.layout, 77);  // past struct_size: must be ignored
  o.struct_size = offsetof(WebnnPool2dOptions, window_dimensions_count) + sizeof(size_t);
  WEBNN_OK(webnn_graph_builder_max_pool2d(b, x, &o, &y));
  EXPECT_EQ(shape_of(y), (std::vector<uint32_t>{1, 1, 3, 3}));
  // A larger struct than the library knows (a newer header): rejected, not misread.
  o.struct_size = sizeof(o) + 8;
  expect_failure(webnn_graph_builder_max_pool2d(b, x, &o, &y), WEBNN_STATUS_NOT_SUPPORTED_ERROR,
                 {"webnn_graph_builder_max_pool2d", "options->struct_size"});
  o.struct_size = 4;
  expect_failure(webnn_graph_builder_max_pool2d(b, x, &o, &y), WEBNN_STATUS_TYPE_ERROR, {"options->struct_size"});
}

TEST(CapiApi, ConstantTensorOperand) {
  Context c;
  Builder b(c);
  const std::vector<uint32_t> s{2};
  F32 d = f32(s);
  const float v[2] = {3, 4};
  Tensor k;
  WEBNN_OK(webnn_context_create_constant_tensor(c, &d, v, sizeof(v), &k.t));
  WebnnOperand *x = nullptr, *kc = nullptr, *y = nullptr;
  WEBNN_OK(webnn_graph_builder_input(b, "x", &d, &x));
  WEBNN_OK(webnn_graph_builder_constant_tensor(b, k, &kc));
  WEBNN_OK(webnn_graph_builder_mul(b, x, kc, nullptr, &y));
  WebnnNamedOperand named{"y", y};
  Graph g;
  WEBNN_OK(webnn_graph_builder_build(b, &named, 1, &g.g));
  Tensor xt(c, WEBNN_DATA_TYPE_FLOAT32, s, false, true), yt(c, WEBNN_DATA_TYPE_FLOAT32, s, true, false);
  const float in[2] = {2, 0.5f};
  WEBNN_OK(webnn_context_write_tensor(c, xt, in, sizeof(in)));
  WebnnNamedTensor it{"x", xt}, ot{"y", yt};
  WEBNN_OK(webnn_context_dispatch(c, g, &it, 1, &ot, 1));
  float out[2] = {};
  WEBNN_OK(webnn_context_read_tensor(c, yt, out, sizeof(out)));
  EXPECT_EQ(out[0], 6.0f);
  EXPECT_EQ(out[1], 2.0f);
}

TEST(CapiApi, LoadGraphFileBuildsOnTheContext) {
  const std::string path = ::testing::TempDir() + "capi_load_graph.webnn";
  {
    std::ofstream f(path);
    f << "webnn_graph \"t\" v2 {\n  inputs { x: f32[2]; }\n  nodes {\n    y = relu(x);\n  }\n  outputs { y; }\n}\n";
  }
  Context c;
  Graph g;
  const WebnnStatus s = webnn_context_load_graph(c, path.c_str(), &g.g);
  ASSERT_EQ(s, WEBNN_STATUS_SUCCESS) << webnn_last_error_message();
  size_t n = 0;
  WEBNN_OK(webnn_graph_output_count(g, &n));
  EXPECT_EQ(n, 1u);
  Graph missing;
  expect_failure(webnn_context_load_graph(c, "/nonexistent/graph.json", &missing.g), WEBNN_STATUS_DATA_ERROR,
                 {"webnn_context_load_graph", "/nonexistent/graph.json"});
  EXPECT_EQ(missing.g, nullptr);
  std::remove(path.c_str());
}

// An ONNX model's input with a default value (an initializer of its name): the C ABI hands out its
// bytes, which the caller writes into the input's tensor; dispatch still needs every input.
TEST(CapiApi, AnOnnxInputsDefaultValueIsGivenOut) {
  webnn::formats::testing::OnnxModel m;
  m.input("x", webnn::formats::testing::kOnnxFloat, {2});
  m.input("w", webnn::formats::testing::kOnnxFloat, {2});
  m.floats("w", {2}, {10, 20});
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  const std::string path = ::testing::TempDir() + "capi_input_default.onnx";
  {
    std::ofstream f(path, std::ios::binary);
    f << m.bytes();
  }
  Context c;
  Graph g;
  WEBNN_OK(webnn_context_load_graph(c, path.c_str(), &g.g));
  std::remove(path.c_str());
  size_t n = 0;
  WEBNN_OK(webnn_graph_input_count(g, &n));
  ASSERT_EQ(n, 2u);
  const void* data = nullptr;
  size_t size = 1;
  const char* name = nullptr;
  WEBNN_OK(webnn_graph_input(g, 0, &name, nullptr));  // name order: w, x
  EXPECT_STREQ(name, "w");
  WEBNN_OK(webnn_graph_input_default(g, 0, &data, &size));
  ASSERT_NE(data, nullptr);
  ASSERT_EQ(size, 8u);
  EXPECT_EQ(static_cast<const float*>(data)[1], 20.0f);
  WEBNN_OK(webnn_graph_input_default(g, 1, &data, &size));
  EXPECT_EQ(data, nullptr);
  EXPECT_EQ(size, 0u);
  expect_failure(webnn_graph_input_default(g, 2, &data, &size), WEBNN_STATUS_TYPE_ERROR, {"index", "out of range"});
  expect_failure(webnn_graph_input_default(g, 0, nullptr, &size), WEBNN_STATUS_TYPE_ERROR, {"out_data"});

  const std::vector<uint32_t> s{2};
  Tensor wt(c, WEBNN_DATA_TYPE_FLOAT32, s, false, true), xt(c, WEBNN_DATA_TYPE_FLOAT32, s, false, true),
      yt(c, WEBNN_DATA_TYPE_FLOAT32, s, true, false);
  WEBNN_OK(webnn_graph_input_default(g, 0, &data, &size));
  WEBNN_OK(webnn_context_write_tensor(c, wt, data, size));
  const float in[2] = {1, 2};
  WEBNN_OK(webnn_context_write_tensor(c, xt, in, sizeof(in)));
  WebnnNamedTensor ins[2] = {{"w", wt}, {"x", xt}}, out{"y", yt};
  expect_failure(webnn_context_dispatch(c, g, &ins[1], 1, &out, 1), WEBNN_STATUS_TYPE_ERROR, {"w"});
  WEBNN_OK(webnn_context_dispatch(c, g, ins, 2, &out, 1));
  float y[2] = {};
  WEBNN_OK(webnn_context_read_tensor(c, yt, y, sizeof(y)));
  EXPECT_EQ(y[0], 11.0f);
  EXPECT_EQ(y[1], 22.0f);
}

}  // namespace
