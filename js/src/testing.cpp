// Hooks for the package's own tests (exports.testing), not API: the library's one conformance
// comparator (src/conformance/tolerance.hpp), so the JavaScript WPT run judges results as the C++
// runner does, and a gate that holds a context's computes so tests can observe the event loop
// running while the timeline is busy, without sleeping.
#include <algorithm>
#include <condition_variable>

#include "addon.hpp"
#include "webnn/testing.hpp"

namespace webnn::js {

MLContext& context_handle(napi_env env, napi_value v);  // context.cpp

namespace {

// compareOutput(graph, name, expected, actual) -> null | "out[3] = ..., expected ... (distance ...)"
napi_value compare_output(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 4);
    const Model model = unwrap<GraphHandle>(env, args[0], "graph").graph.model();
    const std::string name = to_string(env, args[1], "name");
    std::optional<OperandDescriptor> desc;
    for (const ModelOperand& o : model.outputs())
      if (o.name == name) desc = o.descriptor;
    if (!desc) throw_type_error(env, "compareOutput: " + quote(name) + " is not an output of the graph");
    auto expected = to_bytes(env, args[2], "expected");
    auto actual = to_bytes(env, args[3], "actual");
    if (expected.size() != actual.size() || expected.size() != desc->byte_length())
      return make_string(
          env, name + ": " + std::to_string(actual.size()) + " bytes, expected " + std::to_string(expected.size()));
    auto mismatch = compare_with_wpt_tolerance(model, name, expected, actual);
    return mismatch ? make_string(env, *mismatch) : make_null(env);
  });
}

// The gate of one context: its computes wait on the timeline thread until released.
struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  int arrived = 0;
  bool open = false;
};

// The gates, each with its context (held weakly). JavaScript thread only.
std::vector<std::pair<MLContextRef, std::shared_ptr<Gate>>>& gates() {
  static std::vector<std::pair<MLContextRef, std::shared_ptr<Gate>>> all;
  return all;
}

auto find_gate(const MLContext& c) {
  std::erase_if(gates(), [](const auto& g) { return g.first.expired(); });
  return std::find_if(gates().begin(), gates().end(), [&](const auto& g) { return g.first.lock() == c; });
}

// holdComputes(context): from now on each compute of the context waits until releaseComputes().
napi_value hold_computes(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    MLContext& c = context_handle(env, args[0]);
    auto gate = std::make_shared<Gate>();
    auto it = find_gate(c);
    if (it != gates().end())
      it->second = gate;
    else
      gates().emplace_back(MLContextRef(c), gate);
    set_compute_hook_for_testing(c, [gate] {
      std::unique_lock lock(gate->mutex);
      ++gate->arrived;
      gate->changed.notify_all();
      gate->changed.wait(lock, [&] { return gate->open; });
    });
    return make_undefined(env);
  });
}

// computesArrived(context) -> how many computes have reached the gate.
napi_value computes_arrived(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    auto it = find_gate(context_handle(env, args[0]));
    if (it == gates().end()) return make_number(env, 0);
    std::lock_guard lock(it->second->mutex);
    return make_number(env, it->second->arrived);
  });
}

// releaseComputes(context): opens the gate and removes the hook.
napi_value release_computes(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    MLContext& c = context_handle(env, args[0]);
    auto it = find_gate(c);
    if (it != gates().end()) {
      {
        std::lock_guard lock(it->second->mutex);
        it->second->open = true;
      }
      it->second->changed.notify_all();
      gates().erase(it);
    }
    set_compute_hook_for_testing(c, {});
    return make_undefined(env);
  });
}

// backends() -> the backends of this build, best first.
napi_value backends(napi_env env, napi_callback_info) {
  return guarded(env, [&] {
    std::vector<napi_value> names;
    for (const std::string& b : backend_names()) names.push_back(make_string(env, b));
    return make_array(env, names);
  });
}

}  // namespace

void register_testing_functions(napi_env env, napi_value exports) {
  define(env, exports, "backends", backends);
  napi_value testing = make_object(env);
  define(env, testing, "compareOutput", compare_output);
  define(env, testing, "holdComputes", hold_computes);
  define(env, testing, "computesArrived", computes_arrived);
  define(env, testing, "releaseComputes", release_computes);
  set(env, exports, "testing", testing);
}

}  // namespace webnn::js
