// ML and MLContext: thin handles over detail::ContextImpl (src/runtime/context_impl.hpp), which
// holds the spec's method steps and the context timeline.
#include <system_error>

#include "runtime/context_impl.hpp"

namespace webnn {

namespace detail {

namespace {
RemoteConnector& connector() {
  static RemoteConnector instance;
  return instance;
}
}  // namespace

void set_remote_connector(RemoteConnector c) { connector() = std::move(c); }

std::shared_ptr<RemoteSession> connect_remote(const MLContextOptions& options) {
  if (!connector())
    throw_error(ErrorKind::kNotSupportedError, "createContext: this build has no client for the WebNN service");
  return connector()(options);
}

}  // namespace detail

namespace {
// The one check of the options.
void check_options(const MLContextOptions& options) {
  type_error_if(options.num_threads < 0 || options.num_threads > MLContextOptions::kMaxThreads,
                "createContext: num_threads must be in [0, " + std::to_string(MLContextOptions::kMaxThreads) +
                    "] (0: the backend's default), got " + std::to_string(options.num_threads));
}
}  // namespace

namespace detail {
MLContext create_local_context(const MLContextOptions& options, Timeline::Mode mode) {
  check_options(options);
  const Backend& backend =
      options.backend.empty() ? default_backend(options.accelerated) : find_backend(options.backend);
  return make_handle<MLContext>(std::make_shared<ContextImpl>(options, backend, mode));
}
}  // namespace detail

namespace {
detail::ContextImpl& context_of(const std::shared_ptr<detail::ContextImpl>& impl) {
  type_error_if(!impl, "MLContext: the handle is empty");
  return *impl;
}
}  // namespace

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const Backend* backend : available_backends()) names.emplace_back(backend->name());
  return names;
}

// spec: #api-ml-createcontext
MLContext ML::create_context(const MLContextOptions& options) {
  // Every front end (CLI, Python, C, conformance) comes through here; the service through
  // create_local_context.
  check_options(options);
  try {
    if (!options.remote.empty()) {
      auto context = std::make_shared<detail::ContextImpl>(options, detail::connect_remote(options));
      context->remote->on_lost([weak = std::weak_ptr<detail::ContextImpl>(context)](const std::string& message) {
        if (auto c = weak.lock()) c->destroy(message);
      });
      return detail::make_handle<MLContext>(context);
    }
    return detail::create_local_context(options, detail::Timeline::Mode::kThread);
  } catch (const std::system_error& e) {  // the timeline's thread could not be started
    throw_error(ErrorKind::kUnknownError,
                std::string("createContext: could not start the context timeline: ") + e.what());
  }
}

void MLContext::dispatch(const MLGraph& graph, const MLNamedTensors& inputs, const MLNamedTensors& outputs) {
  context_of(impl_).dispatch(graph, inputs, outputs);
}

MLTensor MLContext::create_tensor(const MLTensorDescriptor& descriptor) {
  return context_of(impl_).create_tensor(descriptor);
}

MLTensor MLContext::create_constant_tensor(const OperandDescriptor& descriptor, std::span<const std::byte> data) {
  return context_of(impl_).create_constant_tensor(descriptor, data);
}

std::future<std::vector<std::byte>> MLContext::read_tensor(const MLTensor& tensor) {
  return context_of(impl_).read_tensor(tensor);
}

std::future<void> MLContext::read_tensor(const MLTensor& tensor, std::span<std::byte> out) {
  return context_of(impl_).read_tensor(tensor, out);
}

void MLContext::read_tensor(const MLTensor& tensor, std::span<std::byte> out,
                            std::function<void(std::exception_ptr)> done) {
  type_error_if(!done, "readTensor: the completion callback is empty");
  context_of(impl_).read_tensor(tensor, out, std::move(done));
}

void MLContext::write_tensor(const MLTensor& tensor, std::span<const std::byte> data) {
  context_of(impl_).write_tensor(tensor, data);
}

MLOpSupportLimits MLContext::op_support_limits() const { return context_of(impl_).op_support_limits(); }

void MLContext::destroy() { context_of(impl_).destroy("destroy() was called"); }

void MLContext::lose(const std::string& message, bool wait) { context_of(impl_).destroy(message, wait); }

MLContextRef::MLContextRef(const MLContext& context) : impl_(detail::impl_of(context)) {}

MLContext MLContextRef::lock() const { return detail::make_handle<MLContext>(impl_.lock()); }

bool MLContext::accelerated() const { return context_of(impl_).backend->accelerated(); }

PowerPreference MLContext::power_preference() const { return context_of(impl_).options.power_preference; }

std::shared_future<MLContextLostInfo> MLContext::lost() const { return context_of(impl_).lost_future; }

void MLContext::on_lost(std::function<void(const MLContextLostInfo&)> listener) {
  type_error_if(!listener, "on_lost: the listener is empty");
  context_of(impl_).on_lost(std::move(listener));
}

bool MLContext::is_lost() const { return context_of(impl_).is_lost(); }

void MLContext::when_reached(const MLTensor& tensor, std::function<void(std::exception_ptr)> done) {
  type_error_if(!done, "when_reached: the completion callback is empty");
  context_of(impl_).when_reached(detail::impl_of(tensor), [done = std::move(done)](std::optional<Error> error) {
    done(error ? std::make_exception_ptr(*error) : nullptr);
  });
}

MLGraph MLContext::build(const Model& model) {
  type_error_if(!model, "build: the model is an empty handle");
  return context_of(impl_).build_graph(detail::impl_of(model));
}

NamedHostTensors MLContext::compute(const MLGraph& graph, const NamedHostTensors& inputs) {
  return context_of(impl_).compute(graph, inputs);
}

std::string MLContext::backend_name() const { return std::string(context_of(impl_).backend->name()); }

int MLContext::num_threads() const { return context_of(impl_).num_threads; }

}  // namespace webnn
