// ML.createContext and the MLContext, MLTensor and MLGraph methods. js/lib has run the WebIDL
// conversions and the spec's argument checks that need JavaScript objects; the spec's method steps
// are the C++ runtime's (src/runtime/context_impl.cpp), reached through the handles below.
#include <cstring>
#include <memory>
#include <optional>

#include "addon.hpp"

namespace webnn::js {

namespace {

// A failure carried from another thread to the JavaScript thread.
struct Failure {
  ErrorKind kind = ErrorKind::kUnknownError;
  std::string message;
};

Failure failure_of(std::exception_ptr error) {
  try {
    std::rethrow_exception(std::move(error));
  } catch (const Error& e) {
    return {e.kind(), e.message()};
  } catch (const std::bad_alloc&) {
    return {ErrorKind::kUnknownError, "out of memory"};
  } catch (const std::exception& e) {
    return {ErrorKind::kUnknownError, e.what()};
  } catch (...) {
    return {ErrorKind::kUnknownError, "unknown failure"};
  }
}

napi_ref reference_to(napi_env env, napi_value callback, const char* what) {
  if (type_of(env, callback) != napi_function) throw_type_error(env, std::string(what) + " must be a function");
  napi_ref ref;
  check(env, napi_create_reference(env, callback, 1, &ref));
  return ref;
}

// An ArrayBuffer that owns `bytes` (no copy), or a copy where external buffers are not allowed.
napi_value make_array_buffer(napi_env env, std::unique_ptr<std::vector<std::byte>> bytes) {
  napi_value buffer;
  auto* raw = bytes.get();
  if (!raw->empty() &&
      napi_create_external_arraybuffer(
          env, raw->data(), raw->size(), [](napi_env, void*, void* hint) { delete static_cast<decltype(raw)>(hint); },
          raw, &buffer) == napi_ok) {
    bytes.release();
    return buffer;
  }
  void* data = nullptr;
  check(env, napi_create_arraybuffer(env, raw->size(), &data, &buffer));
  if (!raw->empty()) std::memcpy(data, raw->data(), raw->size());
  return buffer;
}

// ---- Asynchronous work on the libuv pool ----

// One napi_async_work: `execute` on a pool thread, then `complete` on the JavaScript thread with
// the callback. A failure of `execute` reaches the callback as its first argument.
struct PoolWork {
  napi_async_work work = nullptr;
  napi_ref callback = nullptr;
  std::function<void()> execute;
  std::function<std::vector<napi_value>(napi_env)> complete;  // the callback's arguments after `null`
  std::optional<Failure> failure;
};

void queue_pool_work(napi_env env, const char* name, napi_value callback, std::unique_ptr<PoolWork> w) {
  w->callback = reference_to(env, callback, "callback");
  check(env, napi_create_async_work(
                 env, nullptr, make_string(env, name),
                 [](napi_env, void* data) {
                   auto* work = static_cast<PoolWork*>(data);
                   try {
                     work->execute();
                   } catch (...) {
                     work->failure = failure_of(std::current_exception());
                   }
                 },
                 [](napi_env env, napi_status, void* data) {
                   std::unique_ptr<PoolWork> work(static_cast<PoolWork*>(data));
                   napi_delete_async_work(env, work->work);
                   std::vector<napi_value> args;
                   try {
                     if (work->failure) {
                       args = {make_error(env, work->failure->kind, work->failure->message)};
                     } else {
                       args = work->complete(env);
                       args.insert(args.begin(), make_null(env));
                     }
                   } catch (const PendingException&) {
                     napi_value e;
                     napi_get_and_clear_last_exception(env, &e);
                     args = {e};
                   }
                   call_back(env, work->callback, args);
                 },
                 w.get(), &w->work));
  check(env, napi_queue_async_work(env, w->work));
  w.release();
}

// ---- ML ----

// createContext(options, callback): options are js/lib's converted MLContextOptions plus the
// package's own members (backend, numThreads, remote, token).
napi_value create_context(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 2);
    napi_value o = args[0];
    MLContextOptions options;
    const std::string power = to_string(env, get(env, o, "powerPreference"), "powerPreference");
    if (power == "high-performance")
      options.power_preference = PowerPreference::kHighPerformance;
    else if (power == "low-power")
      options.power_preference = PowerPreference::kLowPower;
    else if (power != "default")
      throw_type_error(env, "createContext: powerPreference " + quote(power) + " is not an MLPowerPreference");
    options.accelerated = to_bool(env, get(env, o, "accelerated"), "accelerated");
    options.backend = to_string(env, get(env, o, "backend"), "backend");
    options.num_threads = static_cast<int>(to_uint32(env, get(env, o, "numThreads"), "numThreads"));
    options.remote = to_string(env, get(env, o, "remote"), "remote");
    options.token = to_string(env, get(env, o, "token"), "token");
    auto work = std::make_unique<PoolWork>();
    auto result = std::make_shared<MLContext>();
    work->execute = [options, result] { *result = ML::create_context(options); };
    work->complete = [result](napi_env env) {
      remember_context(env, *result);
      return std::vector<napi_value>{wrap(env, std::make_unique<ContextHandle>(ContextHandle{*result}))};
    };
    queue_pool_work(env, "webnn createContext", args[1], std::move(work));
    return make_undefined(env);
  });
}

MLContext& context_arg(napi_env env, napi_value v) { return unwrap<ContextHandle>(env, v, "context").context; }
MLTensor& tensor_arg(napi_env env, napi_value v, const std::string& what) {
  return unwrap<TensorHandle>(env, v, what).tensor;
}

// contextInfo(context) -> { backend, numThreads }
napi_value context_info(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    MLContext& c = context_arg(env, args[0]);
    napi_value out = make_object(env);
    set(env, out, "backend", make_string(env, c.backend_name()));
    set(env, out, "numThreads", make_number(env, c.num_threads()));
    return out;
  });
}

// [[name, tensor], ...] -> MLNamedTensors
MLNamedTensors named_tensors(napi_env env, napi_value v, const char* what) {
  MLNamedTensors out;
  for (napi_value pair : to_elements(env, v, what)) {
    auto items = to_elements(env, pair, what);
    if (items.size() != 2) throw_type_error(env, std::string(what) + " must hold [name, tensor] pairs");
    std::string name = to_string(env, items[0], what);
    out[name] = tensor_arg(env, items[1], std::string(what) + " " + quote(name));
  }
  return out;
}

// dispatch(context, graph, inputs, outputs)
napi_value dispatch(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 4);
    MLContext& c = context_arg(env, args[0]);
    MLGraph& g = unwrap<GraphHandle>(env, args[1], "graph").graph;
    c.dispatch(g, named_tensors(env, args[2], "inputs"), named_tensors(env, args[3], "outputs"));
    return make_undefined(env);
  });
}

// createTensor(context, dataType, shape, readable, writable) -> tensor
napi_value create_tensor(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 5);
    MLContext& c = context_arg(env, args[0]);
    MLTensorDescriptor desc{to_data_type(env, args[1], "dataType"), to_dims(env, args[2], "shape"),
                            to_bool(env, args[3], "readable"), to_bool(env, args[4], "writable")};
    return wrap(env, std::make_unique<TensorHandle>(TensorHandle{c.create_tensor(desc)}));
  });
}

// createConstantTensor(context, dataType, shape, bytes) -> tensor
napi_value create_constant_tensor(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 4);
    MLContext& c = context_arg(env, args[0]);
    OperandDescriptor desc{to_data_type(env, args[1], "dataType"), to_dims(env, args[2], "shape")};
    MLTensor t = c.create_constant_tensor(desc, to_bytes(env, args[3], "inputData"));
    return wrap(env, std::make_unique<TensorHandle>(TensorHandle{std::move(t)}));
  });
}

// whenReached(context, tensor | null, callback): callback(error | null) once the timeline has run
// every step queued before this call (createTensor's promise).
napi_value when_reached(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 3);
    MLContext& c = context_arg(env, args[0]);
    MLTensor tensor;
    if (type_of(env, args[1]) != napi_null) tensor = tensor_arg(env, args[1], "tensor");
    napi_ref callback = reference_to(env, args[2], "callback");
    EnvState& st = state(env);
    st.begin();
    std::shared_ptr<Dispatcher> dispatcher = st.dispatcher;
    c.when_reached(tensor, [dispatcher, callback](std::exception_ptr error) {
      std::optional<Failure> failure;
      if (error) failure = failure_of(std::move(error));
      dispatcher->post([callback, failure](napi_env env) {
        state(env).end();
        call_back(env, callback, {failure ? make_error(env, failure->kind, failure->message) : make_null(env)});
      });
    });
    return make_undefined(env);
  });
}

// The arguments of readTensor's callback once the read has settled: (error); or (null), the bytes
// copied into `output` (a Uint8Array over the caller's outputData) while it still views as many;
// or (null, ArrayBuffer), the bytes becoming the ArrayBuffer without a copy (no output, or one
// detached meanwhile: js/lib then rejects).
std::vector<napi_value> read_result(napi_env env, std::unique_ptr<std::vector<std::byte>>& bytes,
                                    const std::optional<Failure>& failure, napi_value output) {
  try {
    if (failure) return {make_error(env, failure->kind, failure->message)};
    if (output) {
      const std::span<const std::byte> into = to_bytes(env, output, "output");
      if (into.size() == bytes->size()) {
        if (!into.empty()) std::memcpy(const_cast<std::byte*>(into.data()), bytes->data(), into.size());
        return {make_null(env)};
      }
    }
    return {make_null(env), make_array_buffer(env, std::move(bytes))};
  } catch (const PendingException&) {
    napi_value e;
    napi_get_and_clear_last_exception(env, &e);
    return {e};
  }
}

// readTensor(context, tensor, callback, output): callback(error | null, ArrayBuffer | undefined)
// as read_result() makes them; `output` is undefined for the form that returns an ArrayBuffer.
// Throws what the spec rejects with before anything is queued (js/lib turns it into a rejection).
// The completion always posts the callback to the JavaScript thread, for a read the context
// settled before the call returned too (MLContext::read_tensor): the spec settles the promise in
// a task queued for it, after the script that called (which may yet destroy the tensor or detach
// the buffer).
napi_value read_tensor(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 4);
    MLContext& c = context_arg(env, args[0]);
    MLTensor& t = tensor_arg(env, args[1], "tensor");
    const size_t n = t ? OperandDescriptor{t.data_type(), t.shape()}.byte_length().value_or(0) : 0;
    if (type_of(env, args[2]) != napi_function) throw_type_error(env, "callback must be a function");
    const napi_value output = type_of(env, args[3]) == napi_undefined ? nullptr : args[3];
    if (output) to_bytes(env, output, "output");  // a Uint8Array, or a TypeError now
    EnvState& st = state(env);
    napi_ref callback = reference_to(env, args[2], "callback");
    napi_ref output_ref = nullptr;
    if (output && napi_create_reference(env, output, 1, &output_ref) != napi_ok) {
      napi_delete_reference(env, callback);
      check(env, napi_generic_failure);
    }
    auto bytes = std::make_shared<std::unique_ptr<std::vector<std::byte>>>(std::make_unique<std::vector<std::byte>>(n));
    auto done = [dispatcher = st.dispatcher, bytes, callback, output_ref](std::exception_ptr error) {
      std::optional<Failure> failure;
      if (error) failure = failure_of(std::move(error));
      dispatcher->post([bytes, failure, callback, output_ref](napi_env env) {
        state(env).end();
        napi_value output = nullptr;
        if (output_ref) {
          napi_get_reference_value(env, output_ref, &output);
          napi_delete_reference(env, output_ref);
        }
        call_back(env, callback, read_result(env, *bytes, failure, output));
      });
    };
    // Counted before the call: the completion may be posted before it returns.
    st.begin();
    try {
      c.read_tensor(t, **bytes, std::move(done));
    } catch (...) {
      st.end();
      napi_delete_reference(env, callback);
      if (output_ref) napi_delete_reference(env, output_ref);
      throw;
    }
    return make_undefined(env);
  });
}

// writeTensor(context, tensor, bytes)
napi_value write_tensor(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 3);
    MLContext& c = context_arg(env, args[0]);
    c.write_tensor(tensor_arg(env, args[1], "tensor"), to_bytes(env, args[2], "inputData"));
    return make_undefined(env);
  });
}

napi_value make_limits(napi_env env, const MLTensorLimits& limits) {
  std::vector<napi_value> types;
  for (DataType t : limits.data_types) types.push_back(make_string(env, to_string(t)));
  napi_value range = make_object(env);
  set(env, range, "min", make_number(env, limits.rank_range.min));
  set(env, range, "max", make_number(env, limits.rank_range.max));
  napi_value out = make_object(env);
  set(env, out, "dataTypes", make_array(env, types));
  set(env, out, "rankRange", range);
  return out;
}

// opSupportLimits(context) -> the spec's MLOpSupportLimits
napi_value op_support_limits(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    const MLOpSupportLimits limits = context_arg(env, args[0]).op_support_limits();
    napi_value out = make_object(env);
    set(env, out, "preferredInputLayout", make_string(env, limits.preferred_input_layout));
    set(env, out, "maxTensorByteLength", make_number(env, static_cast<double>(limits.max_tensor_byte_length)));
    set(env, out, "input", make_limits(env, limits.input));
    set(env, out, "constant", make_limits(env, limits.constant));
    set(env, out, "output", make_limits(env, limits.output));
    for (const auto& [op, operands] : limits.ops) {
      napi_value member = make_object(env);
      for (const auto& [operand, l] : operands) set(env, member, operand.c_str(), make_limits(env, l));
      set(env, out, op.c_str(), member);
    }
    return out;
  });
}

napi_value context_is_lost(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    return make_bool(env, context_arg(env, args[0]).is_lost());
  });
}

napi_value tensor_is_destroyed(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    return make_bool(env, tensor_arg(env, args[0], "tensor").is_destroyed());
  });
}

napi_value destroy_context(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    // Without waiting for a compute that is running: no call blocks the event loop.
    MLContext c = context_arg(env, args[0]);
    if (c) c.lose("destroy() was called", /*wait=*/false);
    return make_undefined(env);
  });
}

// onLost(context, callback): callback(message) once the context is lost.
napi_value on_lost(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 2);
    MLContext& c = context_arg(env, args[0]);
    napi_ref callback = reference_to(env, args[1], "callback");
    std::shared_ptr<Dispatcher> dispatcher = state(env).dispatcher;
    c.on_lost([dispatcher, callback](const MLContextLostInfo& lost) {
      dispatcher->post(
          [callback, message = lost.message](napi_env env) { call_back(env, callback, {make_string(env, message)}); });
    });
    return make_undefined(env);
  });
}

napi_value destroy_tensor(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    tensor_arg(env, args[0], "tensor").destroy();
    return make_undefined(env);
  });
}

napi_value destroy_graph(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    unwrap<GraphHandle>(env, args[0], "graph").graph.destroy();
    return make_undefined(env);
  });
}

// loadGraph(context, path, callback): callback(error | null, graph, inputs, outputs), the graph
// file (webnn-graph JSON or text, or ONNX) read and compiled on the libuv pool.
napi_value load_graph(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 3);
    MLContext context = context_arg(env, args[0]);
    const std::string path = to_string(env, args[1], "path");
    auto work = std::make_unique<PoolWork>();
    auto result = std::make_shared<MLGraph>();
    work->execute = [context, path, result]() mutable { *result = context.build(Model::load(path)); };
    work->complete = [result](napi_env env) {
      return std::vector<napi_value>{wrap(env, std::make_unique<GraphHandle>(GraphHandle{*result})),
                                     make_descriptors(env, result->input_descriptors()),
                                     make_descriptors(env, result->output_descriptors())};
    };
    queue_pool_work(env, "webnn loadGraph", args[2], std::move(work));
    return make_undefined(env);
  });
}

// shutdown(): loses every context of this environment (process.on('exit') in js/lib).
napi_value shutdown(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    EnvState& st = state(env);
    for (const MLContextRef& ref : st.contexts)
      if (MLContext c = ref.lock()) c.lose("the process is exiting");
    st.contexts.clear();
    return make_undefined(env);
  });
}

}  // namespace

// Shared with js_builder.cpp: a built graph's compile step on the libuv pool.
void queue_build(napi_env env, MLContext context, Model model, napi_value callback) {
  auto work = std::make_unique<PoolWork>();
  auto result = std::make_shared<MLGraph>();
  work->execute = [context, model, result]() mutable { *result = context.build(model); };
  work->complete = [result](napi_env env) {
    return std::vector<napi_value>{wrap(env, std::make_unique<GraphHandle>(GraphHandle{*result})),
                                   make_descriptors(env, result->input_descriptors()),
                                   make_descriptors(env, result->output_descriptors())};
  };
  queue_pool_work(env, "webnn build", callback, std::move(work));
}

MLTensor& tensor_handle(napi_env env, napi_value v, const std::string& what) { return tensor_arg(env, v, what); }
MLContext& context_handle(napi_env env, napi_value v) { return context_arg(env, v); }

void register_context_functions(napi_env env, napi_value exports) {
  define(env, exports, "createContext", create_context);
  define(env, exports, "contextInfo", context_info);
  define(env, exports, "dispatch", dispatch);
  define(env, exports, "createTensor", create_tensor);
  define(env, exports, "createConstantTensor", create_constant_tensor);
  define(env, exports, "whenReached", when_reached);
  define(env, exports, "readTensor", read_tensor);
  define(env, exports, "writeTensor", write_tensor);
  define(env, exports, "opSupportLimits", op_support_limits);
  define(env, exports, "contextIsLost", context_is_lost);
  define(env, exports, "tensorIsDestroyed", tensor_is_destroyed);
  define(env, exports, "destroyContext", destroy_context);
  define(env, exports, "onLost", on_lost);
  define(env, exports, "destroyTensor", destroy_tensor);
  define(env, exports, "destroyGraph", destroy_graph);
  define(env, exports, "loadGraph", load_graph);
  define(env, exports, "shutdown", shutdown);
}

}  // namespace webnn::js
