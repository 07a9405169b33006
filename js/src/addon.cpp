// The addon's entry point, its per-environment state and the helpers every function uses.
#include "addon.hpp"

#include <uv.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <thread>

namespace webnn::js {

// ---- Dispatcher ----

struct Dispatcher::Wake {
  uv_async_t handle;  // handle.data: this Wake
  Dispatcher* owner;
  std::function<void()> closed;
};

Dispatcher::Dispatcher(napi_env env) : env_(env) {
  uv_loop_t* loop = nullptr;
  check(env, napi_get_uv_event_loop(env, &loop));
  napi_value resource = make_object(env);
  check(env, napi_create_reference(env, resource, 1, &resource_));
  check(env, napi_async_init(env, resource, make_string(env, "webnn completion"), &async_context_));
  auto wake = std::make_unique<Wake>();
  wake->owner = this;
  wake->handle.data = wake.get();
  if (uv_async_init(loop, &wake->handle, [](uv_async_t* h) { static_cast<Wake*>(h->data)->owner->run_posted(); }) != 0)
    throw_error(env, ErrorKind::kUnknownError, "webnn: could not open the event loop's wake-up handle");
  wake_ = wake.release();
  uv_unref(reinterpret_cast<uv_handle_t*>(&wake_->handle));
}

bool Dispatcher::post(Task task) {
  bool wake;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    queue_.push_back(std::move(task));
    // While the JavaScript thread drains the queue it looks again before it stops: no signal is
    // needed, and a round trip that posts from within a task (a read settled in the timeline's
    // place) costs no system call.
    wake = !draining_;
    if (wake) sending_.fetch_add(1, std::memory_order_relaxed);
  }
  if (wake) {
    uv_async_send(&wake_->handle);
    sending_.fetch_sub(1, std::memory_order_release);
  }
  return true;
}

void Dispatcher::keep_alive(bool on) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
  }
  auto* handle = reinterpret_cast<uv_handle_t*>(&wake_->handle);
  if (on)
    uv_ref(handle);
  else
    uv_unref(handle);
}

void Dispatcher::run_posted() {
  for (size_t ran = 0;;) {
    std::deque<Task> tasks;
    bool more = false;
    {
      std::lock_guard lock(mutex_);
      // At most kTasksPerWake tasks before the loop's other sources get their turn; the rest
      // then wait for a signal of their own.
      if (queue_.empty() || ran >= kTasksPerWake) {
        draining_ = false;
        more = !queue_.empty();
      } else {
        tasks.swap(queue_);
        draining_ = true;
      }
    }
    if (tasks.empty()) {
      if (more) uv_async_send(&wake_->handle);
      return;
    }
    for (Task& task : tasks) {
      run(task);
      ++ran;
    }
  }
}

void Dispatcher::run(Task& task) {
  napi_handle_scope scope = nullptr;
  if (napi_open_handle_scope(env_, &scope) != napi_ok) return;
  napi_value resource = nullptr;
  napi_get_reference_value(env_, resource_, &resource);
  napi_callback_scope callback = nullptr;
  napi_open_callback_scope(env_, resource, async_context_, &callback);
  try {
    task(env_);
  } catch (...) {
    // A task reports through the callback it calls; what escapes is a JavaScript exception
    // already pending (below) or one that cannot be reported.
  }
  bool pending = false;
  napi_is_exception_pending(env_, &pending);
  if (pending) {
    napi_value error = nullptr;
    napi_get_and_clear_last_exception(env_, &error);
    napi_fatal_exception(env_, error);  // the process's 'uncaughtException', as for any callback
  }
  if (callback) napi_close_callback_scope(env_, callback);  // runs the microtasks the task queued
  napi_close_handle_scope(env_, scope);
}

void Dispatcher::close(std::function<void()> closed) {
  std::deque<Task> dropped;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    dropped.swap(queue_);
  }
  // A post that queued before closed_ was set may still be signalling: the handle must outlive it.
  while (sending_.load(std::memory_order_acquire) > 0) std::this_thread::yield();
  dropped.clear();
  napi_async_destroy(env_, async_context_);
  napi_delete_reference(env_, resource_);
  wake_->closed = std::move(closed);
  uv_close(reinterpret_cast<uv_handle_t*>(&wake_->handle), [](uv_handle_t* h) {
    std::unique_ptr<Wake> wake(static_cast<Wake*>(h->data));
    if (wake->closed) wake->closed();
  });
}

// ---- EnvState ----

void EnvState::begin() {
  if (pending++ == 0) dispatcher->keep_alive(true);
}

void EnvState::end() {
  if (--pending == 0) dispatcher->keep_alive(false);
}

EnvState& state(napi_env env) {
  void* data = nullptr;
  check(env, napi_get_instance_data(env, &data));
  if (!data) throw_type_error(env, "webnn: the addon is not initialised in this environment");
  return *static_cast<EnvState*>(data);
}

// ---- Errors ----

void check(napi_env env, napi_status status) {
  if (status == napi_ok) return;
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) {
    const napi_extended_error_info* info = nullptr;
    napi_get_last_error_info(env, &info);
    napi_throw_error(
        env, nullptr,
        (std::string("webnn: Node-API call failed: ") + (info && info->error_message ? info->error_message : "unknown"))
            .c_str());
  }
  throw PendingException{};
}

napi_value make_error(napi_env env, ErrorKind kind, const std::string& message) {
  void* data = nullptr;
  napi_get_instance_data(env, &data);
  auto* st = static_cast<EnvState*>(data);
  napi_value factory = nullptr;
  if (st && st->make_error) napi_get_reference_value(env, st->make_error, &factory);
  napi_value error = nullptr;
  if (factory) {
    napi_value argv[2] = {make_string(env, to_string(kind)), make_string(env, message)};
    napi_value global;
    check(env, napi_get_global(env, &global));
    check(env, napi_call_function(env, global, factory, 2, argv, &error));
    return error;
  }
  napi_value msg = make_string(env, message);
  if (kind == ErrorKind::kTypeError)
    check(env, napi_create_type_error(env, nullptr, msg, &error));
  else
    check(env, napi_create_error(env, make_string(env, to_string(kind)), msg, &error));
  return error;
}

void throw_error(napi_env env, ErrorKind kind, const std::string& message) {
  napi_throw(env, make_error(env, kind, message));
  throw PendingException{};
}

void throw_type_error(napi_env env, const std::string& message) { throw_error(env, ErrorKind::kTypeError, message); }

napi_value guarded(napi_env env, const std::function<napi_value()>& body) {
  try {
    return body();
  } catch (const PendingException&) {
  } catch (const Error& e) {
    try {
      napi_throw(env, make_error(env, e.kind(), e.message()));
    } catch (const PendingException&) {
    }
  } catch (const std::bad_alloc&) {
    try {
      napi_throw(env, make_error(env, ErrorKind::kUnknownError, "out of memory"));
    } catch (...) {
    }
  } catch (const std::exception& e) {
    try {
      napi_throw(env, make_error(env, ErrorKind::kUnknownError, e.what()));
    } catch (...) {
    }
  }
  return nullptr;
}

// ---- Arguments and values ----

Args::Args(napi_env e, napi_callback_info info, size_t count) : env(e), values(count) {
  size_t argc = count;
  check(env, napi_get_cb_info(env, info, &argc, values.data(), nullptr, nullptr));
  if (argc < count)
    throw_type_error(
        env, "webnn: internal call with " + std::to_string(argc) + " of " + std::to_string(count) + " arguments");
}

napi_valuetype type_of(napi_env env, napi_value v) {
  napi_valuetype t;
  check(env, napi_typeof(env, v, &t));
  return t;
}

bool is_array(napi_env env, napi_value v) {
  bool result = false;
  check(env, napi_is_array(env, v, &result));
  return result;
}

std::string to_string(napi_env env, napi_value v, const std::string& what) {
  if (type_of(env, v) != napi_string) throw_type_error(env, what + " must be a string");
  size_t length = 0;
  check(env, napi_get_value_string_utf8(env, v, nullptr, 0, &length));
  std::string s(length, '\0');
  check(env, napi_get_value_string_utf8(env, v, s.data(), length + 1, &length));
  return s;
}

double to_double(napi_env env, napi_value v, const std::string& what) {
  if (type_of(env, v) != napi_number) throw_type_error(env, what + " must be a number");
  double d = 0;
  check(env, napi_get_value_double(env, v, &d));
  return d;
}

uint32_t to_uint32(napi_env env, napi_value v, const std::string& what) {
  const double d = to_double(env, v, what);
  if (!(d >= 0 && d <= std::numeric_limits<uint32_t>::max()) || d != std::trunc(d))
    throw_type_error(env, what + " must be an integer in [0, 4294967295]");
  return static_cast<uint32_t>(d);
}

int32_t to_int32(napi_env env, napi_value v, const std::string& what) {
  const double d = to_double(env, v, what);
  if (!(d >= std::numeric_limits<int32_t>::min() && d <= std::numeric_limits<int32_t>::max()) || d != std::trunc(d))
    throw_type_error(env, what + " must be an integer in [-2147483648, 2147483647]");
  return static_cast<int32_t>(d);
}

bool to_bool(napi_env env, napi_value v, const std::string& what) {
  if (type_of(env, v) != napi_boolean) throw_type_error(env, what + " must be a boolean");
  bool b = false;
  check(env, napi_get_value_bool(env, v, &b));
  return b;
}

Number to_number(napi_env env, napi_value v, const std::string& what) {
  if (type_of(env, v) == napi_bigint) {
    int64_t i = 0;
    bool lossless = false;
    check(env, napi_get_value_bigint_int64(env, v, &i, &lossless));
    if (lossless) return Number::from_int64(i);
    uint64_t u = 0;
    check(env, napi_get_value_bigint_uint64(env, v, &u, &lossless));
    if (lossless) return Number::from_uint64(u);
    throw_type_error(env, what + " is a BigInt outside the 64-bit range");
  }
  return Number(to_double(env, v, what));
}

DataType to_data_type(napi_env env, napi_value v, const std::string& what) {
  const std::string name = to_string(env, v, what);
  auto type = parse_data_type(name);
  if (!type) throw_type_error(env, what + " " + quote(name) + " is not an MLOperandDataType");
  return *type;
}

std::vector<napi_value> to_elements(napi_env env, napi_value v, const std::string& what) {
  if (!is_array(env, v)) throw_type_error(env, what + " must be an array");
  uint32_t n = 0;
  check(env, napi_get_array_length(env, v, &n));
  std::vector<napi_value> items(n);
  for (uint32_t i = 0; i < n; ++i) check(env, napi_get_element(env, v, i, &items[i]));
  return items;
}

std::vector<uint32_t> to_dims(napi_env env, napi_value v, const std::string& what) {
  std::vector<uint32_t> dims;
  size_t i = 0;
  for (napi_value item : to_elements(env, v, what))
    dims.push_back(to_uint32(env, item, what + "[" + std::to_string(i++) + "]"));
  return dims;
}

std::span<const std::byte> to_bytes(napi_env env, napi_value v, const std::string& what) {
  bool typed = false;
  check(env, napi_is_typedarray(env, v, &typed));
  if (!typed) throw_type_error(env, what + " must be a Uint8Array");
  napi_typedarray_type type;
  size_t length = 0, offset = 0;
  void* data = nullptr;
  napi_value buffer;
  check(env, napi_get_typedarray_info(env, v, &type, &length, &data, &buffer, &offset));
  if (type != napi_uint8_array) throw_type_error(env, what + " must be a Uint8Array");
  return {static_cast<const std::byte*>(data), length};
}

napi_value get(napi_env env, napi_value object, const char* key) {
  napi_value v;
  check(env, napi_get_named_property(env, object, key, &v));
  return v;
}

napi_value make_undefined(napi_env env) {
  napi_value v;
  check(env, napi_get_undefined(env, &v));
  return v;
}

napi_value make_null(napi_env env) {
  napi_value v;
  check(env, napi_get_null(env, &v));
  return v;
}

napi_value make_string(napi_env env, std::string_view s) {
  napi_value v;
  check(env, napi_create_string_utf8(env, s.data(), s.size(), &v));
  return v;
}

napi_value make_number(napi_env env, double d) {
  napi_value v;
  check(env, napi_create_double(env, d, &v));
  return v;
}

napi_value make_bool(napi_env env, bool b) {
  napi_value v;
  check(env, napi_get_boolean(env, b, &v));
  return v;
}

napi_value make_array(napi_env env, const std::vector<napi_value>& items) {
  napi_value array;
  check(env, napi_create_array_with_length(env, items.size(), &array));
  for (size_t i = 0; i < items.size(); ++i)
    check(env, napi_set_element(env, array, static_cast<uint32_t>(i), items[i]));
  return array;
}

napi_value make_dims(napi_env env, const Shape& shape) {
  std::vector<napi_value> items;
  for (uint32_t d : shape) items.push_back(make_number(env, d));
  return make_array(env, items);
}

napi_value make_object(napi_env env) {
  napi_value v;
  check(env, napi_create_object(env, &v));
  return v;
}

void set(napi_env env, napi_value object, const char* key, napi_value value) {
  check(env, napi_set_named_property(env, object, key, value));
}

void define(napi_env env, napi_value exports, const char* name, napi_callback fn) {
  napi_value f;
  check(env, napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, nullptr, &f));
  set(env, exports, name, f);
}

void call_back(napi_env env, napi_ref ref, const std::vector<napi_value>& args) {
  napi_value callback, global, ignored;
  napi_get_reference_value(env, ref, &callback);
  napi_delete_reference(env, ref);
  napi_get_global(env, &global);
  if (callback) napi_call_function(env, global, callback, args.size(), args.data(), &ignored);
}

napi_value make_descriptors(napi_env env, const std::map<std::string, OperandDescriptor>& descriptors) {
  napi_value out = make_object(env);
  for (const auto& [name, desc] : descriptors) {
    napi_value key = make_string(env, name);
    napi_value value = make_array(env, {make_string(env, to_string(desc.data_type)), make_dims(env, desc.shape)});
    check(env, napi_set_property(env, out, key, value));
  }
  return out;
}

// ---- Teardown ----

namespace {

// Every live context of every environment, for the process's exit: a context whose timeline is
// still computing when exit() runs the library's static destructors would touch freed state, so
// at exit every context is lost (its queued steps aborted) and its running step awaited first.
std::mutex g_contexts_mutex;
std::vector<MLContextRef>* g_contexts = nullptr;

void lose_all_at_exit() {
  std::vector<MLContext> live;
  {
    std::lock_guard lock(g_contexts_mutex);
    if (!g_contexts) return;
    for (const MLContextRef& ref : *g_contexts)
      if (MLContext c = ref.lock()) live.push_back(std::move(c));
    g_contexts->clear();
  }
  for (MLContext& c : live) c.lose("the process is exiting");
}

// An asynchronous cleanup hook: Node.js runs the event loop until it is removed, which lets
// libuv release the dispatcher's handle before a worker's loop is closed.
void environment_teardown(napi_async_cleanup_hook_handle hook, void* data) {
  auto* st = static_cast<EnvState*>(data);
  st->dispatcher->close([hook] { napi_remove_async_cleanup_hook(hook); });
  for (const MLContextRef& ref : st->contexts)
    if (MLContext c = ref.lock()) c.lose("the JavaScript environment is shutting down");
  st->contexts.clear();
}

}  // namespace

void remember_context(napi_env env, const MLContext& context) {
  EnvState& st = state(env);
  std::erase_if(st.contexts, [](const auto& w) { return w.expired(); });
  st.contexts.emplace_back(context);
  std::lock_guard lock(g_contexts_mutex);
  if (!g_contexts) {
    g_contexts = new std::vector<MLContextRef>();  // lives until exit
    std::atexit(lose_all_at_exit);
  }
  std::erase_if(*g_contexts, [](const auto& w) { return w.expired(); });
  g_contexts->emplace_back(context);
}

namespace {

// init(makeError): js/lib hands over the function that builds its error objects.
napi_value init(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    if (type_of(env, args[0]) != napi_function) throw_type_error(env, "init: makeError must be a function");
    EnvState& st = state(env);
    if (st.make_error) napi_delete_reference(env, st.make_error);
    check(env, napi_create_reference(env, args[0], 1, &st.make_error));
    return make_undefined(env);
  });
}

napi_value module_init(napi_env env, napi_value exports) {
  return guarded(env, [&] {
    auto st = std::make_unique<EnvState>();
    st->env = env;
    st->dispatcher = std::make_shared<Dispatcher>(env);
    EnvState* raw = st.release();
    check(env, napi_set_instance_data(
                   env, raw, [](napi_env, void* data, void*) { delete static_cast<EnvState*>(data); }, nullptr));
    check(env, napi_add_async_cleanup_hook(env, environment_teardown, raw, nullptr));
    define(env, exports, "init", init);
    register_context_functions(env, exports);
    register_builder_functions(env, exports);
    register_testing_functions(env, exports);
    return exports;
  });
}

}  // namespace

}  // namespace webnn::js

NAPI_MODULE_INIT() { return webnn::js::module_init(env, exports); }
