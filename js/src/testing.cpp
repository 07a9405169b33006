// Hooks for the package's own tests (exports.testing), not API: the library's one conformance
// comparator (src/conformance/tolerance.hpp), so the JavaScript WPT run judges results as the C++
// runner does, and a gate that holds a context's computes so tests can observe the event loop
// running while the timeline is busy, without sleeping.
#include <condition_variable>

#include "addon.hpp"
#include "backends/backend.hpp"
#include "conformance/tolerance.hpp"
#include "runtime/handles.hpp"
#include "runtime/test_hooks.hpp"

namespace webnn::js {

MLContext& context_handle(napi_env env, napi_value v);  // context.cpp

namespace {

// compareOutput(graph, name, expected, actual) -> null | "out[3] = ..., expected ... (distance ...)"
napi_value compare_output(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 4);
    const MLGraph& graph = unwrap<GraphHandle>(env, args[0], "graph").graph;
    const std::string name = to_string(env, args[1], "name");
    const std::shared_ptr<const Graph> ir = detail::impl_of(graph.model());  // a copy: the Model is a temporary
    const NamedOperand* output = nullptr;
    for (const NamedOperand& o : ir->outputs)
      if (o.name == name) output = &o;
    if (!output) throw_type_error(env, "compareOutput: " + quote(name) + " is not an output of the graph");
    const OperandDescriptor& desc = ir->desc(output->operand);
    const Operation* producer = nullptr;
    for (const Operation& op : ir->operations)
      for (OperandId id : op.outputs)
        if (id == output->operand) producer = &op;
    auto expected = to_bytes(env, args[2], "expected");
    auto actual = to_bytes(env, args[3], "actual");
    if (expected.size() != actual.size())
      return make_string(
          env, name + ": " + std::to_string(actual.size()) + " bytes, expected " + std::to_string(expected.size()));
    const conformance::Tolerance tolerance =
        producer ? conformance::tolerance_for(*ir, *producer, desc.data_type) : conformance::Tolerance{};
    auto mismatch = conformance::compare(desc.data_type, expected, actual, tolerance);
    if (!mismatch) return make_null(env);
    return make_string(env, name + "[" + std::to_string(mismatch->index) + "] = " + std::to_string(mismatch->actual) +
                                ", expected " + std::to_string(mismatch->expected) + " (distance " +
                                std::to_string(mismatch->distance) + ", tolerance " + tolerance.to_string() + ")");
  });
}

// The gate of one context: its computes wait on the timeline thread until released.
struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  int arrived = 0;
  bool open = false;
};

std::map<const detail::ContextImpl*, std::shared_ptr<Gate>>& gates() {
  static std::map<const detail::ContextImpl*, std::shared_ptr<Gate>> all;  // JavaScript thread only
  return all;
}

// holdComputes(context): from now on each compute of the context waits until releaseComputes().
napi_value hold_computes(napi_env env, napi_callback_info info) {
  return guarded(env, [&] {
    Args args(env, info, 1);
    MLContext& c = context_handle(env, args[0]);
    auto gate = std::make_shared<Gate>();
    gates()[detail::impl_of(c).get()] = gate;
    detail::set_before_compute_hook(c, [gate] {
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
    auto it = gates().find(detail::impl_of(context_handle(env, args[0])).get());
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
    auto it = gates().find(detail::impl_of(c).get());
    if (it != gates().end()) {
      {
        std::lock_guard lock(it->second->mutex);
        it->second->open = true;
      }
      it->second->changed.notify_all();
      gates().erase(it);
    }
    detail::set_before_compute_hook(c, {});
    return make_undefined(env);
  });
}

// backends() -> the backends of this build, best first.
napi_value backends(napi_env env, napi_callback_info) {
  return guarded(env, [&] {
    std::vector<napi_value> names;
    for (const Backend* b : available_backends()) names.push_back(make_string(env, b->name()));
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
