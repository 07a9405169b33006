// The native half of the JavaScript package (js/): a Node-API addon over the C++ API. It takes
// values that js/lib has already converted as WebIDL says (dictionaries, enums, [EnforceRange]
// integers, buffer sources as Uint8Array views) and checks them again, defensively: a value of the
// wrong kind is a TypeError, never a crash. Errors leave as webnn::Error kinds; the package's own
// makeError (registered by js/lib at load) turns them into TypeError or DOMException objects.
//
// Threading: every function here runs on the JavaScript thread of one Node.js environment (the
// main thread or a worker_threads worker; the addon is context-aware). Work that finishes on
// another thread (the context timeline, the libuv pool) comes back through Dispatcher, one per
// environment, in the order the other threads post it.
#pragma once

#include <node_api.h>

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "webnn/webnn.hpp"

namespace webnn::js {

// Thrown when a JavaScript exception is already pending: unwinds to the entry point, which
// returns to JavaScript and lets it propagate.
struct PendingException {};

// Hands tasks from any thread to the environment's JavaScript thread, in the order posted, each
// run as a callback of its own (its promise reactions run before the next task). It wakes the
// thread through a uv_async_t of its own rather than a napi_threadsafe_function: Node.js signals
// a thread-safe function's loop while holding the function's lock, which the woken JavaScript
// thread then takes first thing, so every completion put that thread to sleep twice
// (docs/javascript.md, "Speed"). Here the lock guards only the queue; the signal is sent after.
// After close() (the environment is going away) posts are dropped.
class Dispatcher {
 public:
  using Task = std::function<void(napi_env)>;
  explicit Dispatcher(napi_env env);  // on the JavaScript thread
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;
  // Any thread. False (and the task dropped) once closed.
  bool post(Task task);
  // The JavaScript thread: whether the wake-up handle keeps the event loop alive.
  void keep_alive(bool on);
  // The JavaScript thread, at the environment's teardown: drops what is queued and what is posted
  // later, then releases the handle and calls `closed` once libuv has let go of it.
  void close(std::function<void()> closed);

 private:
  struct Wake;  // the uv_async_t, apart: libuv holds it until its close callback
  static constexpr size_t kTasksPerWake = 1000;
  void run_posted();     // the JavaScript thread, woken
  void run(Task& task);  // one task, as a callback of its own

  napi_env env_;
  napi_ref resource_ = nullptr;  // the async resource of the tasks' callbacks
  napi_async_context async_context_ = nullptr;
  Wake* wake_ = nullptr;
  std::mutex mutex_;
  std::deque<Task> queue_;       // under mutex_
  bool closed_ = false;          // under mutex_
  bool draining_ = false;        // under mutex_: run_posted() will look at the queue again
  std::atomic<int> sending_{0};  // posts between their queueing and their signal
};

// One per environment (napi_set_instance_data).
struct EnvState {
  napi_env env = nullptr;
  napi_ref make_error = nullptr;  // (kind, message) -> Error, from js/lib
  std::shared_ptr<Dispatcher> dispatcher;
  int pending = 0;  // completions owed to JavaScript; the loop is kept alive while > 0
  std::vector<MLContextRef> contexts;

  // Around an operation whose completion comes through the dispatcher.
  void begin();
  void end();
};

EnvState& state(napi_env env);

// ---- Status checks and errors ----
void check(napi_env env, napi_status status);
[[noreturn]] void throw_error(napi_env env, ErrorKind kind, const std::string& message);
[[noreturn]] void throw_type_error(napi_env env, const std::string& message);
// The JavaScript error object for `kind` (DOMException or TypeError) without throwing it.
napi_value make_error(napi_env env, ErrorKind kind, const std::string& message);

// Runs `body` as a Node-API entry point: webnn::Error and C++ exceptions become JavaScript ones.
napi_value guarded(napi_env env, const std::function<napi_value()>& body);

// ---- Arguments ----
struct Args {
  napi_env env;
  std::vector<napi_value> values;
  Args(napi_env env, napi_callback_info info, size_t count);
  napi_value operator[](size_t i) const { return values.at(i); }
};

// ---- Value conversions (of values js/lib has converted already; anything else is a TypeError) ----
napi_valuetype type_of(napi_env env, napi_value v);
bool is_array(napi_env env, napi_value v);
std::string to_string(napi_env env, napi_value v, const std::string& what);
double to_double(napi_env env, napi_value v, const std::string& what);
uint32_t to_uint32(napi_env env, napi_value v, const std::string& what);
int32_t to_int32(napi_env env, napi_value v, const std::string& what);
bool to_bool(napi_env env, napi_value v, const std::string& what);
Number to_number(napi_env env, napi_value v, const std::string& what);  // a JS number or BigInt
DataType to_data_type(napi_env env, napi_value v, const std::string& what);
std::vector<napi_value> to_elements(napi_env env, napi_value v, const std::string& what);
std::vector<uint32_t> to_dims(napi_env env, napi_value v, const std::string& what);
// The bytes of a Uint8Array (js/lib makes every AllowSharedBufferSource one).
std::span<const std::byte> to_bytes(napi_env env, napi_value v, const std::string& what);
napi_value get(napi_env env, napi_value object, const char* key);

napi_value make_undefined(napi_env env);
napi_value make_null(napi_env env);
napi_value make_string(napi_env env, std::string_view s);
napi_value make_number(napi_env env, double d);
napi_value make_bool(napi_env env, bool b);
napi_value make_array(napi_env env, const std::vector<napi_value>& items);
napi_value make_dims(napi_env env, const Shape& shape);
napi_value make_object(napi_env env);
void set(napi_env env, napi_value object, const char* key, napi_value value);

// ---- Handles: plain objects wrapping a C++ handle, type-tagged so that a handle of one kind (or
// any other object) is never taken for another ----
struct ContextHandle {
  MLContext context;
};
struct BuilderHandle {
  MLGraphBuilder builder;
  MLContext context;  // the builder's, on which build() compiles
};
struct GraphHandle {
  MLGraph graph;
};
struct TensorHandle {
  MLTensor tensor;
};

template <class T>
struct HandleTag;
template <>
struct HandleTag<ContextHandle> {
  static constexpr napi_type_tag kTag{0x7765626e6e2d6a73, 0x636f6e7465787431};
  static constexpr const char* kName = "MLContext";
};
template <>
struct HandleTag<BuilderHandle> {
  static constexpr napi_type_tag kTag{0x7765626e6e2d6a73, 0x6275696c64657231};
  static constexpr const char* kName = "MLGraphBuilder";
};
template <>
struct HandleTag<GraphHandle> {
  static constexpr napi_type_tag kTag{0x7765626e6e2d6a73, 0x6772617068303031};
  static constexpr const char* kName = "MLGraph";
};
template <>
struct HandleTag<TensorHandle> {
  static constexpr napi_type_tag kTag{0x7765626e6e2d6a73, 0x74656e736f723031};
  static constexpr const char* kName = "MLTensor";
};

// A new object owning `handle`; the handle is deleted when the object is collected.
template <class T>
napi_value wrap(napi_env env, std::unique_ptr<T> handle) {
  napi_value object;
  check(env, napi_create_object(env, &object));
  check(env, napi_type_tag_object(env, object, &HandleTag<T>::kTag));
  check(env, napi_wrap(
                 env, object, handle.get(), [](napi_env, void* data, void*) { delete static_cast<T*>(data); }, nullptr,
                 nullptr));
  handle.release();
  return object;
}

template <class T>
T& unwrap(napi_env env, napi_value v, const std::string& what) {
  bool tagged = false;
  if (type_of(env, v) == napi_object) check(env, napi_check_object_type_tag(env, v, &HandleTag<T>::kTag, &tagged));
  if (!tagged) throw_type_error(env, what + " is not an " + HandleTag<T>::kName + " handle");
  void* data = nullptr;
  check(env, napi_unwrap(env, v, &data));
  return *static_cast<T*>(data);
}

// ---- Exported functions, by file ----
void register_context_functions(napi_env env, napi_value exports);  // context.cpp
void register_builder_functions(napi_env env, napi_value exports);  // js_builder.cpp
void register_testing_functions(napi_env env, napi_value exports);  // testing.cpp
// Keeps a weak reference to a new context, lost when the environment or the process ends.
void remember_context(napi_env env, const MLContext& context);  // addon.cpp

void define(napi_env env, napi_value exports, const char* name, napi_callback fn);

// Calls `callback` (a JavaScript function held by `ref`) with `args` and deletes the reference.
void call_back(napi_env env, napi_ref ref, const std::vector<napi_value>& args);

// A graph's descriptors as { name: [dataType, shape] }.
napi_value make_descriptors(napi_env env, const std::map<std::string, OperandDescriptor>& descriptors);

}  // namespace webnn::js
