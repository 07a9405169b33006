// The registered backends, best first. Adding a backend is one line in kBackends (behind its
// build option when it has an optional dependency).
#include <string>

#include "backends/backend.hpp"
#include "backends/reference/reference_backend.hpp"
#ifdef WEBNN_HAVE_ONEDNN
#include "backends/onednn/onednn_backend.hpp"
#endif

namespace webnn {

namespace {

using BackendGetter = const Backend& (*)();

constexpr BackendGetter kBackends[] = {
#ifdef WEBNN_HAVE_ONEDNN
    &onednn::onednn_backend,
#endif
    &reference::reference_backend,
};

}  // namespace

std::vector<const Backend*> available_backends() {
  std::vector<const Backend*> out;
  for (BackendGetter get : kBackends) out.push_back(&get());
  return out;
}

const Backend& find_backend(std::string_view name) {
  std::string names;
  for (const Backend* backend : available_backends()) {
    if (backend->name() == name) return *backend;
    if (!names.empty()) names += ", ";
    names += backend->name();
  }
  throw_error(ErrorKind::kNotSupportedError, "no backend named \"" + std::string(name) + "\"; available: " + names);
}

const Backend& default_backend(bool accelerated) {
  // The best backend of the requested kind; a CPU backend stands in when no accelerated one is
  // available (the spec lets the user agent pick the device), and the reference one always is.
  const std::vector<const Backend*> backends = available_backends();
  for (const Backend* backend : backends)
    if (backend->accelerated() == accelerated) return *backend;
  return *backends.front();
}

}  // namespace webnn
