#include "runtime/test_hooks.hpp"

#include "runtime/context_impl.hpp"

namespace webnn::detail {

void set_before_compute_hook(const MLContext& context, std::function<void()> hook) {
  type_error_if(!context, "set_before_compute_hook: the context is an empty handle");
  impl_of(context)->set_before_compute_hook(std::move(hook));
}

MLContext create_context_with_backend(const Backend& backend, const MLContextOptions& options) {
  return make_handle<MLContext>(std::make_shared<ContextImpl>(options, backend));
}

}  // namespace webnn::detail
