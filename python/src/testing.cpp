// webnn._webnn._testing: hooks for the package's own tests, not part of the API. A gate that
// holds a context's computes (so tests observe the timeline's ordering without sleeping) and the
// library's one conformance comparator (src/conformance/tolerance.hpp), so the Python WPT run
// judges results exactly as the C++ runner does.
#include <condition_variable>

#include "common.hpp"
#include "webnn/testing.hpp"

namespace webnn::python {

namespace {

// Blocks every compute of one context, on its timeline thread, until released. Never touches
// Python from the timeline thread.
class ComputeGate {
 public:
  explicit ComputeGate(const MLContext& context) : context_(context), state_(std::make_shared<State>()) {
    set_compute_hook_for_testing(context_, [state = state_] {
      std::unique_lock lock(state->mutex);
      ++state->arrived;
      state->changed.notify_all();
      state->changed.wait(lock, [&] { return state->open; });
    });
  }
  ~ComputeGate() { close(); }

  void release() {
    std::lock_guard lock(state_->mutex);
    state_->open = true;
    state_->changed.notify_all();
  }
  // Waits (GIL released) until `count` computes have reached the gate; false on timeout.
  bool wait_arrived(int count, double timeout) {
    py::gil_scoped_release release;
    std::unique_lock lock(state_->mutex);
    return state_->changed.wait_for(lock, std::chrono::duration<double>(timeout),
                                    [&] { return state_->arrived >= count; });
  }
  int arrived() const {
    std::lock_guard lock(state_->mutex);
    return state_->arrived;
  }
  void close() {
    release();
    if (context_ && !closed_) set_compute_hook_for_testing(context_, {});
    closed_ = true;
  }

 private:
  struct State {
    mutable std::mutex mutex;
    std::condition_variable changed;
    int arrived = 0;
    bool open = false;
  };
  MLContext context_;
  std::shared_ptr<State> state_;
  bool closed_ = false;
};

// Compares `actual` with `expected` for output `name` of `graph` under the WPT tolerance of the
// operation that produces it. Returns None when they agree, else a description of the first
// element out of tolerance.
py::object compare_output(const PyGraph& graph, const std::string& name, const py::array& expected,
                          const py::array& actual) {
  const Model& model = graph.model();
  std::optional<OperandDescriptor> desc;
  for (const ModelOperand& o : model.outputs())
    if (o.name == name) desc = o.descriptor;
  if (!desc) throw py::value_error("compare_output: \"" + name + "\" is not an output of the graph");
  const ArrayBytes e = array_bytes(expected, desc->data_type, DtypeRule::kExact, "compare_output: expected");
  const ArrayBytes a = array_bytes(actual, desc->data_type, DtypeRule::kExact, "compare_output: actual");
  if (e.bytes().size() != a.bytes().size()) return py::str("expected and actual differ in size");
  if (e.bytes().size() != desc->byte_length())
    return py::str("expected and actual hold " + std::to_string(e.bytes().size()) + " bytes, but " + name + " is " +
                   desc->to_string());
  auto mismatch = compare_with_wpt_tolerance(model, name, e.bytes(), a.bytes());
  if (!mismatch) return py::none();
  return py::str(*mismatch);
}

}  // namespace

void bind_testing(py::module_& m) {
  py::module_ t = m.def_submodule("_testing", "Test hooks of the webnn package's own tests; not API.");
  py::class_<ComputeGate>(t, "ComputeGate")
      .def(py::init<const MLContext&>(), py::arg("context"))
      .def("release", &ComputeGate::release)
      .def("wait_arrived", &ComputeGate::wait_arrived, py::arg("count") = 1, py::arg("timeout") = 10.0)
      .def_property_readonly("arrived", &ComputeGate::arrived)
      .def("close", &ComputeGate::close)
      .def("__enter__", [](ComputeGate& g) -> ComputeGate& { return g; })
      .def("__exit__", [](ComputeGate& g, py::args) { g.close(); });
  // Throws webnn::Error of the kind named as the spec names it ("DataError"), so tests can check
  // the translation of kinds no API call can be made to produce on demand.
  t.def(
      "raise_error",
      [](const std::string& kind, const std::string& message) {
        for (int k = 0; k <= static_cast<int>(ErrorKind::kUnknownError); ++k)
          if (to_string(static_cast<ErrorKind>(k)) == kind) throw Error(static_cast<ErrorKind>(k), message);
        throw py::value_error("raise_error: unknown error kind " + kind);
      },
      py::arg("kind"), py::arg("message"));
  t.def("compare_output", &compare_output, py::arg("graph"), py::arg("name"), py::arg("expected"), py::arg("actual"));
}

}  // namespace webnn::python
