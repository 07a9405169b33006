// Helpers for the C ABI tests (tests/unit/capi_*.cpp): status checks that print the last error,
// and RAII holders for the C handles so a failing assertion leaks nothing under ASan.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "webnn/webnn.h"

namespace capi_test {

#define WEBNN_OK(call) ASSERT_EQ((call), WEBNN_STATUS_SUCCESS) << webnn_last_error_message()

// Expects `status` and a last error message containing every fragment (function, argument, ...).
inline void expect_failure(WebnnStatus got, WebnnStatus want, std::initializer_list<const char*> fragments) {
  EXPECT_EQ(got, want) << webnn_status_name(got) << ": " << webnn_last_error_message();
  const std::string message = webnn_last_error_message();
  for (const char* f : fragments)
    EXPECT_NE(message.find(f), std::string::npos) << "\"" << f << "\" not in: " << message;
}

// Stores an out-of-range value in a C enum field, as a C caller can (in C++ a static_cast to such
// a value would itself be undefined).
template <class E>
void set_raw(E& field, int value) {
  static_assert(sizeof(E) == sizeof(int));
  std::memcpy(static_cast<void*>(&field), &value, sizeof value);
}

struct Context {
  WebnnContext* c = nullptr;
  // `remote`: "unix:PATH" for a context of the WebNN service there (nullptr: in this process).
  explicit Context(const char* backend = "reference", const char* remote = nullptr) {
    WebnnContextOptions o;
    webnn_context_options_init(&o);
    o.backend = backend;
    o.remote = remote;
    if (webnn_context_create(&o, &c) != WEBNN_STATUS_SUCCESS) ADD_FAILURE() << webnn_last_error_message();
  }
  ~Context() { webnn_context_release(c); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  operator WebnnContext*() const { return c; }
};

struct Builder {
  WebnnGraphBuilder* b = nullptr;
  explicit Builder(WebnnContext* c) {
    if (webnn_graph_builder_create(c, &b) != WEBNN_STATUS_SUCCESS) ADD_FAILURE() << webnn_last_error_message();
  }
  ~Builder() { webnn_graph_builder_release(b); }
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;
  operator WebnnGraphBuilder*() const { return b; }
};

struct Graph {
  WebnnGraph* g = nullptr;
  ~Graph() { webnn_graph_release(g); }
  operator WebnnGraph*() const { return g; }
};

struct Tensor {
  WebnnTensor* t = nullptr;
  Tensor() = default;
  Tensor(WebnnContext* c, WebnnDataType type, std::vector<uint32_t> shape, bool readable, bool writable) {
    WebnnTensorDescriptor d{type, shape.data(), shape.size(), readable, writable};
    if (webnn_context_create_tensor(c, &d, &t) != WEBNN_STATUS_SUCCESS) ADD_FAILURE() << webnn_last_error_message();
  }
  ~Tensor() { webnn_tensor_release(t); }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  Tensor(Tensor&& o) noexcept : t(o.t) { o.t = nullptr; }
  operator WebnnTensor*() const { return t; }
};

// A float32 descriptor that owns its shape; &d is the WebnnOperandDescriptor*.
struct F32 {
  std::vector<uint32_t> shape;
  WebnnOperandDescriptor d;
  explicit F32(std::vector<uint32_t> s)
      : shape(std::move(s)), d{WEBNN_DATA_TYPE_FLOAT32, shape.empty() ? nullptr : shape.data(), shape.size()} {}
  F32(const F32&) = delete;
  F32& operator=(const F32&) = delete;
  const WebnnOperandDescriptor* operator&() const { return &d; }
};
inline F32 f32(std::vector<uint32_t> shape) { return F32(std::move(shape)); }

// y = relu(x + c) over float32[n]: a graph with one input "x" and one output "y".
inline WebnnGraph* relu_add_graph(WebnnContext* context, uint32_t n, float c_value) {
  Builder b(context);
  const std::vector<uint32_t> shape{n};
  F32 d = f32(shape);
  WebnnOperand *x = nullptr, *c = nullptr, *sum = nullptr, *y = nullptr;
  std::vector<float> cv(n, c_value);
  WebnnGraph* g = nullptr;
  if (webnn_graph_builder_input(b, "x", &d, &x) || webnn_graph_builder_constant(b, &d, cv.data(), n * 4, &c) ||
      webnn_graph_builder_add(b, x, c, nullptr, &sum) || webnn_graph_builder_relu(b, sum, nullptr, &y)) {
    ADD_FAILURE() << webnn_last_error_message();
    return nullptr;
  }
  WebnnNamedOperand out{"y", y};
  if (webnn_graph_builder_build(b, &out, 1, &g) != WEBNN_STATUS_SUCCESS) ADD_FAILURE() << webnn_last_error_message();
  return g;
}

}  // namespace capi_test
