// ML, MLContext, MLTensor and MLGraph for Python. Every call that waits for the context timeline
// (compute, read_tensor, compiling a graph) releases the GIL while it waits, so other Python
// threads run and the timeline never waits for Python.
#include <chrono>
#include <map>

#include "common.hpp"

namespace webnn::python {

namespace {

constexpr const char* kPowerPreferences[] = {"default", "high-performance", "low-power"};

PowerPreference power_preference_arg(const std::string& value) {
  for (size_t i = 0; i < std::size(kPowerPreferences); ++i)
    if (value == kPowerPreferences[i]) return static_cast<PowerPreference>(i);
  throw_type_error("create_context: power_preference \"" + value +
                   "\" is not one of \"default\", \"high-performance\", \"low-power\"");
}

py::dict descriptor_dict(const OperandDescriptor& desc) {
  py::dict d;
  d["shape"] = shape_list(desc.shape);
  d["data_type"] = std::string(to_string(desc.data_type));
  return d;
}

py::dict descriptors(const std::vector<ModelOperand>& named) {
  py::dict out;
  for (const ModelOperand& n : named) out[py::str(n.name)] = descriptor_dict(n.descriptor);
  return out;
}

py::list names(const std::vector<ModelOperand>& named) {
  py::list out;
  for (const ModelOperand& n : named) out.append(n.name);
  return out;
}

MLTensor tensor_arg(py::handle value, const std::string& what) {
  if (!py::isinstance<MLTensor>(value))
    throw_type_error(what + " must be an MLTensor, got " +
                     std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  return value.cast<MLTensor>();
}

MLNamedTensors named_tensors(const py::dict& tensors, const std::string& what) {
  MLNamedTensors out;
  for (auto [key, value] : tensors) {
    std::string name = py::str(key);
    // The argument's description is built only for an error: a dispatch is on every decode step.
    if (!py::isinstance<MLTensor>(value)) tensor_arg(value, what + " \"" + name + "\"");
    out.emplace(std::move(name), value.cast<MLTensor>());
  }
  return out;
}

// The spec's MLOpSupportLimits dictionary, with its member names: {"preferredInputLayout": ...,
// "input": {"dataTypes": [...], "rankRange": {"min": 0, "max": 8}}, "conv2d": {"filter": ...}}.
py::dict tensor_limits_dict(const MLTensorLimits& limits) {
  py::list types;
  for (DataType t : limits.data_types) types.append(std::string(to_string(t)));
  py::dict range;
  range["min"] = limits.rank_range.min;
  range["max"] = limits.rank_range.max;
  py::dict d;
  d["dataTypes"] = types;
  d["rankRange"] = range;
  return d;
}

py::dict op_support_limits_dict(const MLOpSupportLimits& limits) {
  py::dict d;
  d["preferredInputLayout"] = limits.preferred_input_layout;
  d["maxTensorByteLength"] = limits.max_tensor_byte_length;
  d["input"] = tensor_limits_dict(limits.input);
  d["constant"] = tensor_limits_dict(limits.constant);
  d["output"] = tensor_limits_dict(limits.output);
  for (const auto& [op, operands] : limits.ops) {
    py::dict per_op;
    for (const auto& [operand, l] : operands) per_op[py::str(operand)] = tensor_limits_dict(l);
    d[py::str(op)] = per_op;
  }
  return d;
}

// A file path: str or os.PathLike.
std::string path_arg(py::handle path) { return py::str(py::module_::import("os").attr("fspath")(path)); }
// An optional path: None or "" means the default.
std::string optional_path(py::handle path) { return path.is_none() ? std::string() : path_arg(path); }

// A readTensor() in flight: queued on the timeline when it was made; result() waits for it.
// AsyncMLContext awaits result() on an executor thread, so the read is ordered where it was
// called, not where the event loop gets to it.
class PendingRead {
 public:
  PendingRead(std::future<std::vector<std::byte>> future, DataType type, Shape shape)
      : future_(std::move(future)), type_(type), shape_(std::move(shape)) {}

  py::object result(std::optional<double> timeout) {
    bool timed_out = false;
    {
      py::gil_scoped_release release;
      std::lock_guard lock(mutex_);
      if (!settled_) {
        if (timeout && future_.wait_for(std::chrono::duration<double>(*timeout)) != std::future_status::ready)
          timed_out = true;
        else
          settle();
      }
    }
    if (timed_out) {
      PyErr_SetString(PyExc_TimeoutError, "read_tensor: the read did not complete in time");
      throw py::error_already_set();
    }
    if (error_) std::rethrow_exception(error_);
    if (!array_) array_ = owning_array(type_, shape_, std::move(bytes_));
    return array_;
  }

  bool done() {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return false;  // a result() call is waiting for it
    return settled_ || future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }

 private:
  void settle() {
    try {
      bytes_ = future_.get();
    } catch (...) {
      error_ = std::current_exception();
    }
    settled_ = true;
  }

  std::mutex mutex_;
  std::future<std::vector<std::byte>> future_;
  DataType type_;
  Shape shape_;
  bool settled_ = false;
  std::vector<std::byte> bytes_;
  std::exception_ptr error_;
  py::object array_;
};

py::dict compute(MLContext& context, PyGraph& graph, const py::dict& inputs, const py::object& outputs) {
  MLGraph executable = graph.for_context(context);
  const auto& expected = executable.input_descriptors();
  NamedHostTensors host;
  for (auto [key, value] : inputs) {
    const std::string name = py::str(key);
    auto it = expected.find(name);
    std::optional<DataType> type;
    if (it != expected.end()) type = it->second.data_type;
    ArrayBytes a = array_bytes(value, type, DtypeRule::kExact, "compute: input " + quote(name));
    auto bytes = a.bytes();
    host[name] = HostTensor{{a.type, a.shape}, std::vector<std::byte>(bytes.begin(), bytes.end())};
  }
  // pywebnn's pre-allocated outputs: the results are copied into the caller's arrays, in their own
  // byte order and strides. Every array is checked before the compute, so a bad one leaves them
  // all as they were.
  std::vector<std::pair<std::string, py::array>> targets;
  if (!outputs.is_none()) {
    if (!py::isinstance<py::dict>(outputs))
      throw_type_error("compute: outputs must be a dict of output name -> ndarray, got " +
                       std::string(py::str(py::type::handle_of(outputs).attr("__name__"))));
    const auto& produced = executable.output_descriptors();
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(outputs)) {
      const std::string name = py::str(key);
      const std::string what = "compute: outputs[" + quote(name) + "]";
      auto it = produced.find(name);
      if (it == produced.end()) throw_type_error("compute: " + quote(name) + " is not an output of the graph");
      py::array dst = output_array(value, it->second.data_type, false, what);
      Shape dst_shape;
      for (py::ssize_t i = 0; i < dst.ndim(); ++i) dst_shape.push_back(static_cast<uint32_t>(dst.shape(i)));
      if (dst_shape != it->second.shape)
        throw_type_error(what + " has shape " + shape_to_string(dst_shape) + ", the output is " +
                         shape_to_string(it->second.shape));
      targets.emplace_back(name, std::move(dst));
    }
  }
  NamedHostTensors results;
  {
    py::gil_scoped_release release;
    results = context.compute(executable, host);
  }
  py::dict out;
  for (auto& [name, t] : results) out[py::str(name)] = owning_array(t.desc.data_type, t.desc.shape, std::move(t.data));
  for (auto& [name, dst] : targets) {
    py::module_::import("numpy").attr("copyto")(dst, out[py::str(name)]);
    out[py::str(name)] = dst;
  }
  return out;
}

}  // namespace

// ---- PyGraph ----

std::shared_ptr<PyGraph> PyGraph::built(MLGraph graph) {
  auto g = std::make_shared<PyGraph>();
  g->model_ = graph.model();
  g->bound_ = std::move(graph);
  return g;
}

std::shared_ptr<PyGraph> PyGraph::loaded(Model model) {
  auto g = std::make_shared<PyGraph>();
  g->model_ = std::move(model);
  return g;
}

MLGraph PyGraph::for_context(const MLContext& context) {
  if (bound_) return bound_;  // dispatch() checks that it belongs to `context`, as the spec says
  if (!context) throw_error(ErrorKind::kTypeError, "the context is an empty handle");
  {
    std::lock_guard lock(mutex_);
    if (destroyed_) throw_error(ErrorKind::kInvalidStateError, "the graph is destroyed");
    std::erase_if(compiled_, [](const MLGraph& g) { return g.is_destroyed(); });  // their contexts are gone
    for (const MLGraph& g : compiled_)
      if (g.belongs_to(context)) return g;
  }
  MLGraph compiled;
  {
    py::gil_scoped_release release;
    compiled = MLContext(context).build(model_);
  }
  std::lock_guard lock(mutex_);
  if (destroyed_) {
    compiled.destroy();
    throw_error(ErrorKind::kInvalidStateError, "the graph is destroyed");
  }
  compiled_.push_back(compiled);
  return compiled;
}

void PyGraph::destroy() {
  if (bound_) {
    bound_.destroy();
    return;
  }
  std::lock_guard lock(mutex_);
  destroyed_ = true;
  for (MLGraph& g : compiled_) g.destroy();
  compiled_.clear();
}

bool PyGraph::destroyed() const {
  if (bound_) return bound_.is_destroyed();
  std::lock_guard lock(mutex_);
  return destroyed_;
}

// ---- Bindings ----

void bind_context(py::module_& m) {
  py::class_<MLTensor>(m, "MLTensor", "The spec's MLTensor: typed memory that dispatch() reads and writes.")
      .def_property_readonly(
          "data_type", [](const MLTensor& t) { return std::string(to_string(t.data_type())); }, "The data type name.")
      .def_property_readonly(
          "shape", [](const MLTensor& t) { return shape_list(t.shape()); }, "The shape, a list of ints.")
      .def_property_readonly(
          "size",
          [](const MLTensor& t) {
            uint64_t n = 1;
            for (uint32_t d : t.shape()) n *= d;
            return n;
          },
          "The number of elements (pywebnn's name).")
      .def_property_readonly("readable", &MLTensor::readable, "Whether read_tensor() may read it.")
      .def_property_readonly("writable", &MLTensor::writable, "Whether write_tensor() may write it.")
      .def_property_readonly("constant", &MLTensor::constant, "Whether it is a constant tensor.")
      .def_property_readonly("destroyed", &MLTensor::is_destroyed,
                             "Whether destroy() was called (or its context lost).")
      .def("destroy", &MLTensor::destroy, py::call_guard<py::gil_scoped_release>(),
           "Releases the tensor; its pending reads fail with InvalidStateError.")
      .def("__repr__", [](const MLTensor& t) {
        return "<webnn.MLTensor " + OperandDescriptor{t.data_type(), t.shape()}.to_string() +
               (t.constant() ? " constant" : "") + (t.readable() ? " readable" : "") +
               (t.writable() ? " writable" : "") + (t.is_destroyed() ? " destroyed" : "") + ">";
      });

  py::class_<PyGraph, std::shared_ptr<PyGraph>>(m, "MLGraph",
                                                "The spec's MLGraph: a built graph, or one loaded with webnn.load().")
      .def_property_readonly(
          "input_names", [](const PyGraph& g) { return names(g.model().inputs()); }, "The input names, in graph order.")
      .def_property_readonly(
          "output_names", [](const PyGraph& g) { return names(g.model().outputs()); },
          "The output names, in graph order.")
      .def(
          "get_input_names", [](const PyGraph& g) { return names(g.model().inputs()); },
          "pywebnn's name of input_names.")
      .def(
          "get_output_names", [](const PyGraph& g) { return names(g.model().outputs()); },
          "pywebnn's name of output_names.")
      .def_property_readonly(
          "inputs", [](const PyGraph& g) { return descriptors(g.model().inputs()); },
          "name -> {'shape': [...], 'data_type': '...'} for every input.")
      .def_property_readonly(
          "outputs", [](const PyGraph& g) { return descriptors(g.model().outputs()); },
          "name -> {'shape': [...], 'data_type': '...'} for every output.")
      .def_property_readonly(
          "operand_count", [](const PyGraph& g) { return g.model().operand_count(); }, "The number of operands.")
      .def_property_readonly(
          "operation_count", [](const PyGraph& g) { return g.model().operation_count(); }, "The number of operations.")
      .def_property_readonly("destroyed", &PyGraph::destroyed, "Whether destroy() was called (or its context lost).")
      .def("destroy", &PyGraph::destroy, py::call_guard<py::gil_scoped_release>(),
           "Releases the compiled graph (spec: MLGraph.destroy()).")
      .def(
          "save",
          [](const PyGraph& g, py::handle path, py::handle weights_path, py::handle manifest_path,
             size_t inline_limit) {
            ModelSaveOptions options;
            options.weights_path = optional_path(weights_path);
            options.manifest_path = optional_path(manifest_path);
            options.inline_limit = inline_limit;
            const std::string file = path_arg(path);
            if (g.destroyed()) throw_error(ErrorKind::kInvalidStateError, "save: the graph is destroyed");
            py::gil_scoped_release release;
            g.model().save(file, options);
          },
          py::arg("path"), py::kw_only(), py::arg("weights_path") = py::none(), py::arg("manifest_path") = py::none(),
          py::arg("inline_limit") = 64,
          "Writes the graph as webnn-graph JSON (path ending in .json) or text (.webnn). Constants of\n"
          "inline_limit bytes or more go to NAME.weights + NAME.manifest.json beside it (or the given\n"
          "paths); smaller ones are written inline.")
      .def("__repr__", [](const PyGraph& g) {
        return "<webnn.MLGraph " + std::to_string(g.model().inputs().size()) + " inputs, " +
               std::to_string(g.model().outputs().size()) + " outputs, " + std::to_string(g.model().operation_count()) +
               " operations" + (g.destroyed() ? ", destroyed" : "") + ">";
      });

  m.def(
      "load",
      [](py::handle path, py::handle manifest_path, py::handle weights_path, std::optional<uint64_t> memory_budget) {
        ModelLoadOptions options;
        options.weights_path = optional_path(weights_path);
        options.manifest_path = optional_path(manifest_path);
        options.memory_budget = memory_budget;
        const std::string file = path_arg(path);
        Model model;
        {
          py::gil_scoped_release release;
          model = Model::load(file, options);
        }
        return PyGraph::loaded(std::move(model));
      },
      py::arg("path"), py::arg("manifest_path") = py::none(), py::arg("weights_path") = py::none(), py::kw_only(),
      py::arg("memory_budget") = py::none(),
      "Loads a webnn-graph file (.json or .webnn; weights from NAME.manifest.json + NAME.weights\n"
      "beside it unless given; the argument order is pywebnn's) or an ONNX model (.onnx, imported\n"
      "onto the builder's operations: docs/onnx.md). The graph is validated as the\n"
      "builder validates and runs on any context: it is compiled for a context on first use there.\n"
      "memory_budget: bytes the load may materialise beyond the file's own: an ONNX import's folded\n"
      "values, a graph file's constants filled from a scalar (default 1 GiB). An ONNX input with a default value (its "
      "initializer) may be left out of compute().");

  m.def(
      "load_weights",
      [](py::handle manifest_path, py::handle weights_path) {
        const std::string manifest = path_arg(manifest_path);
        std::string weights = optional_path(weights_path);
        if (weights.empty()) {
          const std::string suffix = ".manifest.json";
          if (manifest.size() <= suffix.size() ||
              manifest.compare(manifest.size() - suffix.size(), suffix.size(), suffix))
            throw_type_error("load_weights: give weights_path, or a manifest path NAME.manifest.json");
          weights = manifest.substr(0, manifest.size() - suffix.size()) + ".weights";
        }
        std::map<std::string, WeightsTensor> file;
        {
          py::gil_scoped_release release;
          file = load_weights(weights, manifest);
        }
        // Read-only arrays over the mapping (a copy only where the file's offset was unaligned),
        // each keeping its bytes alive.
        py::dict out;
        for (auto& [key, tensor] : file) {
          auto holder = std::make_unique<std::shared_ptr<const std::byte>>(std::move(tensor.data));
          const void* data = holder->get();
          py::capsule owner(holder.get(), [](void* p) { delete static_cast<std::shared_ptr<const std::byte>*>(p); });
          holder.release();
          std::vector<py::ssize_t> dims(tensor.descriptor.shape.begin(), tensor.descriptor.shape.end());
          py::array array(to_dtype(tensor.descriptor.data_type), dims, data, owner);
          py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
          out[py::str(key)] = array;
        }
        return out;
      },
      py::arg("manifest_path"), py::arg("weights_path") = py::none(),
      "Reads a wg-weights-manifest and its WGWT weights file (NAME.weights beside NAME.manifest.json\n"
      "unless given) as {key: ndarray}: read-only arrays over the memory-mapped file. The manifest\n"
      "and every entry are checked against the file before anything is read (a DataError naming\n"
      "the file and the tensor otherwise).");

  py::class_<PendingRead, std::shared_ptr<PendingRead>>(m, "_PendingRead")
      .def("result", &PendingRead::result, py::arg("timeout") = py::none())
      .def("done", &PendingRead::done);

  py::class_<MLContext>(m, "MLContext", "The spec's MLContext: where graphs are compiled and run, in call order.")
      .def_property_readonly("accelerated", &MLContext::accelerated, "Whether the backend is accelerated.")
      .def_property_readonly(
          "power_preference",
          [](const MLContext& c) { return kPowerPreferences[static_cast<size_t>(c.power_preference())]; },
          "The power preference the context was created with.")
      .def_property_readonly("backend", &MLContext::backend_name, "The backend it runs on (\"reference\", ...).")
      .def_property_readonly("num_threads", &MLContext::num_threads, "The thread count asked for (0: default).")
      .def(
          "create_graph_builder", [](const MLContext& c) { return MLGraphBuilder(c); },
          "A new MLGraphBuilder for this context (same as webnn.MLGraphBuilder(context)).")
      .def("compute", &compute, py::arg("graph"), py::arg("inputs"), py::arg("outputs") = py::none(),
           "Runs graph on inputs (name -> ndarray or array-like) and returns name -> ndarray.\n"
           "The inputs are copied once; the outputs are new arrays (or copied into `outputs`,\n"
           "name -> ndarray, when given). Waits with the GIL released.")
      .def(
          "dispatch",
          [](MLContext& c, PyGraph& graph, const py::dict& inputs, const py::dict& outputs) {
            MLGraph executable = graph.for_context(c);
            const MLNamedTensors in = named_tensors(inputs, "dispatch: input");
            const MLNamedTensors out = named_tensors(outputs, "dispatch: output");
            py::gil_scoped_release release;  // a synchronous context computes here
            c.dispatch(executable, in, out);
          },
          py::arg("graph"), py::arg("inputs"), py::arg("outputs"),
          "Queues graph on the context timeline with MLTensor inputs and outputs (name -> MLTensor)\n"
          "and returns at once, as the spec's dispatch() does (a synchronous context: once it has run).")
      .def(
          "create_tensor",
          [](MLContext& c, py::handle shape, py::handle data_type, bool readable, bool writable) {
            MLTensorDescriptor d;
            d.shape = shape_arg(shape, "create_tensor");
            d.data_type = data_type_arg(data_type, "create_tensor");
            d.readable = readable;
            d.writable = writable;
            return c.create_tensor(d);
          },
          py::arg("shape"), py::arg("data_type") = "float32", py::arg("readable") = false, py::arg("writable") = false,
          "A new MLTensor (spec: createTensor()); its bytes start as zeros.")
      .def(
          "create_constant_tensor",
          [](MLContext& c, py::handle value, py::handle shape, py::handle data_type) {
            ArrayBytes a = constant_array(value, shape, data_type, "create_constant_tensor");
            return c.create_constant_tensor({a.type, a.shape}, a.bytes());
          },
          py::arg("value"), py::arg("shape") = py::none(), py::arg("data_type") = py::none(),
          "A constant MLTensor holding a copy of value (spec: createConstantTensor()), for\n"
          "builder.constant(tensor).")
      .def(
          "write_tensor",
          [](MLContext& c, const MLTensor& tensor, py::handle data) {
            // bytes, bytearray and memoryview are the tensor's raw bytes (the spec's
            // AllowSharedBufferSource), not a sequence of numbers to convert one by one.
            const bool raw =
                py::isinstance<py::bytes>(data) || PyByteArray_Check(data.ptr()) || PyMemoryView_Check(data.ptr());
            const ArrayBytes a = raw ? buffer_bytes(data, "write_tensor")
                                     : array_bytes(data, tensor.data_type(), DtypeRule::kExact, "write_tensor");
            c.write_tensor(tensor, a.bytes());
          },
          py::arg("tensor"), py::arg("data"),
          "Queues a write of data (same data type and byte length as the tensor) and returns at once;\n"
          "the bytes are copied before it returns.")
      .def(
          "read_tensor",
          [](MLContext& c, const MLTensor& tensor, py::object out) -> py::object {
            if (out.is_none()) {
              auto future = c.read_tensor(tensor);
              std::vector<std::byte> bytes;
              {
                py::gil_scoped_release release;
                bytes = future.get();
              }
              return owning_array(tensor.data_type(), tensor.shape(), std::move(bytes));
            }
            py::array dst = output_array(out, tensor.data_type(), true, "read_tensor: out");
            auto future =
                c.read_tensor(tensor, {static_cast<std::byte*>(dst.mutable_data()), static_cast<size_t>(dst.nbytes())});
            {
              py::gil_scoped_release release;
              future.get();
            }
            native_to_array_order(dst);
            return dst;
          },
          py::arg("tensor"), py::arg("out") = py::none(),
          "Reads the tensor's bytes once the work queued before this call has run, as an ndarray of\n"
          "its shape and data type (or into `out`, an ndarray of the same data type and byte length).\n"
          "Waits with the GIL released.")
      .def(
          "_read_tensor_async",
          [](MLContext& c, const MLTensor& tensor) {
            return std::make_shared<PendingRead>(c.read_tensor(tensor), tensor.data_type(), tensor.shape());
          },
          py::arg("tensor"))
      .def(
          "convert_to_onnx",
          [](const MLContext&, const PyGraph& graph, py::handle path) {
            const std::string file = path_arg(path);
            if (graph.destroyed())
              throw_error(ErrorKind::kInvalidStateError, "convert_to_onnx: the graph is destroyed");
            py::gil_scoped_release release;
            graph.model().export_onnx(file);
          },
          py::arg("graph"), py::arg("path"),
          "Writes graph as an ONNX model (opset 17, docs/onnx.md) to path. Raises NotSupportedError\n"
          "naming the op when the graph holds something ONNX cannot express exactly.")
      .def(
          "op_support_limits", [](const MLContext& c) { return op_support_limits_dict(c.op_support_limits()); },
          "The spec's MLOpSupportLimits as a dict with the spec's member names.")
      .def("destroy", &MLContext::destroy, py::call_guard<py::gil_scoped_release>(),
           "Loses the context: queued work is dropped, pending reads fail; waits (GIL released)\n"
           "for a compute already running to finish.")
      .def_property_readonly("is_lost", &MLContext::is_lost, "Whether the context is lost (destroyed).")
      .def("__enter__", [](MLContext& c) { return c; })
      .def("__exit__",
           [](MLContext& c, py::args) {
             py::gil_scoped_release release;
             c.destroy();
           })
      .def("__repr__", [](const MLContext& c) {
        return "<webnn.MLContext backend=" + c.backend_name() + (c.is_lost() ? " lost" : "") + ">";
      });

  py::class_<ML>(m, "ML", "The spec's ML: creates contexts.")
      .def(py::init<>())
      .def(
          "create_context",
          [](const ML&, const std::string& power_preference, bool accelerated, const std::string& backend,
             int num_threads, const std::string& remote, const py::bytes& token, bool synchronous) {
            MLContextOptions options;
            options.power_preference = power_preference_arg(power_preference);
            options.accelerated = accelerated;
            options.backend = backend == "auto" ? "" : backend;  // "auto": pywebnn's "best available"
            options.num_threads = num_threads;
            options.remote = remote;
            options.token = std::string(token);
            options.synchronous = synchronous;
            py::gil_scoped_release release;  // a remote context waits for the service
            return ML::create_context(options);
          },
          py::arg("power_preference") = "default", py::arg("accelerated") = true, py::kw_only(),
          py::arg("backend") = "", py::arg("num_threads") = 0, py::arg("remote") = "", py::arg("token") = py::bytes(),
          py::arg("synchronous") = false,
          "A new MLContext (spec: createContext()). backend picks one by name (\"reference\"; \"\" or\n"
          "\"auto\": the best available); num_threads bounds the backend's threads (0: its default);\n"
          "remote=\"unix:PATH\" makes it a context of the WebNN service listening there (webnn serve),\n"
          "token= the bytes that service asks for; synchronous=True runs each timeline step on the\n"
          "calling thread before the call returns (dispatch waits for its compute), saving the two\n"
          "thread hand-offs of each round trip for a caller that waits for every result anyway.");
}

}  // namespace webnn::python
