// The extension module webnn._webnn. The package webnn (python/webnn/__init__.py) re-exports it
// and adds the operator methods, AsyncMLContext and the type stubs.
#include "common.hpp"

namespace webnn::python {

std::string snake_case(std::string_view camel) {
  // "NaN" is one word, not N-a-N; every other spec name splits at each lower-to-upper step.
  if (camel == "isNaN") return "is_nan";
  std::string out;
  for (size_t i = 0; i < camel.size(); ++i) {
    const char c = camel[i];
    if (c >= 'A' && c <= 'Z') {
      const char prev = i > 0 ? camel[i - 1] : 'A';
      if ((prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9')) out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace webnn::python

PYBIND11_MODULE(_webnn, m) {
  namespace wp = webnn::python;
  m.doc() = "webnn-cpp: the W3C WebNN API (native part of the webnn package)";
  m.attr("__version__") = WEBNN_VERSION;
  wp::bind_errors(m);
  wp::bind_context(m);
  wp::bind_builder(m);
  wp::bind_testing(m);
  wp::bind_service(m);
}
