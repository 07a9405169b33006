// The C ABI's handle objects and the argument checks shared by the hand-written functions
// (capi.cpp) and the generated operator functions (ops.gen.inc, scripts/gen_api.py).
#pragma once

#include <cstddef>
#include <cstring>
#include <deque>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "webnn/webnn.h"
#include "webnn/webnn.hpp"

namespace webnn::capi {

enum class Kind : uint32_t { kContext = 1, kGraphBuilder, kOperand, kGraph, kTensor };
inline constexpr uint32_t kMagic = 0x4e4e4257;  // "WBNN"
// A kind as a message names it, with its article: "a WebnnContext", "an unknown handle".
const char* kind_name(Kind kind);

// The first member of every handle object: what the kind checks read.
struct Header {
  uint32_t magic;
  Kind kind;
};

}  // namespace webnn::capi

struct WebnnContext {
  webnn::capi::Header header{webnn::capi::kMagic, webnn::capi::Kind::kContext};
  webnn::MLContext context;
  std::string backend_name;
  std::string preferred_input_layout;
  WebnnContextLostCallback lost_callback = nullptr;
  void* lost_userdata = nullptr;
  std::once_flag lost_once;
};

struct WebnnOperand {
  webnn::capi::Header header{webnn::capi::kMagic, webnn::capi::Kind::kOperand};
  WebnnGraphBuilder* owner = nullptr;
  webnn::MLOperand operand;
};

struct WebnnGraphBuilder {
  webnn::capi::Header header{webnn::capi::kMagic, webnn::capi::Kind::kGraphBuilder};
  std::unique_ptr<webnn::MLGraphBuilder> builder;
  std::mutex mutex;                   // guards `operands`
  std::deque<WebnnOperand> operands;  // stable addresses
};

struct WebnnGraph {
  webnn::capi::Header header{webnn::capi::kMagic, webnn::capi::Kind::kGraph};
  webnn::MLGraph graph;
  struct Named {
    std::string name;
    webnn::OperandDescriptor desc;
    std::span<const std::byte> default_value;  // inputs: the model's default (bytes held by `model`)
  };
  std::vector<Named> inputs, outputs;  // name order
  webnn::Model model;
};

struct WebnnTensor {
  webnn::capi::Header header{webnn::capi::kMagic, webnn::capi::Kind::kTensor};
  webnn::MLTensor tensor;
};

namespace webnn::capi {

using Builder = WebnnGraphBuilder;

WebnnStatus status_of(ErrorKind kind);
void set_last_error(const std::string& message);

[[noreturn]] void fail(ErrorKind kind, const std::string& argument, const std::string& problem);
inline void require(bool ok, const char* fn, const char* argument, const char* problem) {
  (void)fn;
  if (!ok) fail(ErrorKind::kTypeError, argument, problem);
}

// Runs `body`, mapping a thrown webnn::Error (ours or the C++ API's) to its status and recording
// "<fn>: <message>" as the thread's last error.
template <class Body>
WebnnStatus guard(const char* fn, Body&& body) {
  try {
    body();
    return WEBNN_STATUS_SUCCESS;
  } catch (const Error& e) {
    set_last_error(std::string(fn) + ": " + e.message());
    return status_of(e.kind());
  } catch (const std::bad_alloc&) {
    set_last_error(std::string(fn) + ": out of memory");
    return WEBNN_STATUS_UNKNOWN_ERROR;
  } catch (const std::exception& e) {
    set_last_error(std::string(fn) + ": " + e.what());
    return WEBNN_STATUS_UNKNOWN_ERROR;
  }
}

// A handle argument of type T: not NULL, a live object of T's kind.
template <class T>
constexpr Kind kind_of();
template <>
constexpr Kind kind_of<WebnnContext>() {
  return Kind::kContext;
}
template <>
constexpr Kind kind_of<WebnnGraphBuilder>() {
  return Kind::kGraphBuilder;
}
template <>
constexpr Kind kind_of<WebnnOperand>() {
  return Kind::kOperand;
}
template <>
constexpr Kind kind_of<WebnnGraph>() {
  return Kind::kGraph;
}
template <>
constexpr Kind kind_of<WebnnTensor>() {
  return Kind::kTensor;
}

void check_header(const void* handle, Kind expected, const char* argument);
template <class T>
T& handle_arg(T* handle, const char* fn, const char* argument) {
  (void)fn;
  check_header(handle, kind_of<T>(), argument);
  return *handle;
}
inline Builder& builder_arg(WebnnGraphBuilder* b, const char* fn, const char* argument) {
  return handle_arg(b, fn, argument);
}

// An operand argument: a live WebnnOperand of builder `b` (not of another builder).
const MLOperand& operand_arg(Builder& b, WebnnOperand* operand, const char* fn, const char* argument);
std::optional<MLOperand> optional_operand_arg(Builder& b, WebnnOperand* operand, const char* fn, const char* argument);
std::vector<MLOperand> operand_list_arg(Builder& b, WebnnOperand* const* operands, size_t count, const char* fn,
                                        const char* argument);
std::vector<uint32_t> dims_arg(const uint32_t* values, size_t count, const char* fn, const char* argument);
Number number_arg(const WebnnNumber& value, const char* fn, const char* argument);
WebnnNumber to_c_number(const Number& value);
// A C enum's value as the caller stored it. C allows any int in an enum object; in C++ loading a
// value outside the enumerators' range is undefined, so the bytes are copied instead of loaded.
template <class E>
int64_t raw_enum(const E& value) {
  std::underlying_type_t<E> v;
  static_assert(sizeof(v) == sizeof(E));
  std::memcpy(&v, &value, sizeof v);
  return static_cast<int64_t>(v);
}

DataType data_type_arg(const WebnnDataType& value, const char* fn, const char* argument);
std::variant<uint32_t, std::vector<uint32_t>> splits_arg(const WebnnSplits& splits, const char* fn,
                                                         const char* argument);

template <class T, class C>
std::optional<std::vector<T>> optional_list_arg(const C* values, size_t count, const char* fn, const char* argument) {
  (void)fn;
  if (!values) {
    if (count != 0) fail(ErrorKind::kTypeError, argument, "is NULL but its count is " + std::to_string(count));
    return std::nullopt;
  }
  return std::vector<T>(values, values + count);
}

// A C enum as the C++ API's options take it: the spec's string for the value (`names`, indexed by
// the C enum's values, generated from the op table).
template <class CEnum, size_t N>
std::string enum_arg(const CEnum& value, const std::string_view (&names)[N], const std::string& argument) {
  const int64_t v = raw_enum(value);
  if (v < 0 || static_cast<uint64_t>(v) >= N)
    fail(ErrorKind::kTypeError, argument, std::to_string(v) + " is not one of its " + std::to_string(N) + " values");
  return std::string(names[v]);
}

template <class CEnum, size_t N>
std::optional<std::vector<std::string>> optional_enum_list_arg(const CEnum* values, size_t count,
                                                               const std::string_view (&names)[N],
                                                               const std::string& argument) {
  if (!values) {
    if (count != 0) fail(ErrorKind::kTypeError, argument, "is NULL but its count is " + std::to_string(count));
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < count; ++i)
    out.push_back(enum_arg(values[i], names, argument + "[" + std::to_string(i) + "]"));
  return out;
}

// An options struct: NULL gives the defaults; otherwise the first struct_size bytes of the caller's
// struct over the defaults (see "Options structs and ABI evolution" in webnn.h).
template <class T>
T options_arg(const T* options, void (*init)(T*), const char* fn) {
  (void)fn;
  T o;
  init(&o);
  if (!options) return o;
  const size_t size = options->struct_size;
  if (size < offsetof(T, label) + sizeof(o.label))
    fail(ErrorKind::kTypeError, "options->struct_size",
         std::to_string(size) + " is too small; call the options' init function first");
  if (size > sizeof(T))
    fail(ErrorKind::kNotSupportedError, "options->struct_size",
         std::to_string(size) + " exceeds this library's " + std::to_string(sizeof(T)) +
             " bytes (a header newer than the library)");
  std::memcpy(static_cast<void*>(&o), options, size);
  return o;
}

// The handle of an operand the C++ API returned, owned by the builder's handle.
WebnnOperand* new_operand(Builder& b, MLOperand operand);
// An op's outputs into the caller's array: *count is their number, and a capacity below it is a
// TypeError (the operation is added all the same; the count says how many it needs).
void return_outputs(Builder& b, std::vector<MLOperand> results, WebnnOperand** outputs, size_t capacity, size_t* count);

}  // namespace webnn::capi
