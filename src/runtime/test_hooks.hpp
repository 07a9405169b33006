// Test-only entry points into a context's runtime. Not part of the public API.
#pragma once

#include <functional>

#include "backends/backend.hpp"
#include "webnn/webnn.hpp"

namespace webnn::detail {

// Calls `hook` on the context's timeline thread before each compute (dispatch() or compute()) of
// that context. A hook that blocks holds back the rest of that context's timeline, which is how
// tests observe ordering without sleeping. An empty function removes the hook.
void set_before_compute_hook(const MLContext& context, std::function<void()> hook);

// A context on `backend`, which need not be registered (tests use fake backends to exercise the
// timeline independently of the real ones). `backend` must outlive the context.
MLContext create_context_with_backend(const Backend& backend, const MLContextOptions& options = {});

}  // namespace webnn::detail
