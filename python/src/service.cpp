// webnn.Service: the WebNN service (include/webnn/service.hpp) from Python, run on a thread of its own,
// so that a Python program can serve remote contexts (ML().create_context(remote="unix:PATH"))
// without the CLI's `webnn serve`.
#include <thread>

#include "common.hpp"
#include "webnn/service.hpp"

namespace webnn::python {

namespace {

class PyService {
 public:
  PyService(const std::string& socket, const std::string& token)
      : service_(options(socket, token)), thread_([this] { service_.run(); }) {}
  ~PyService() { stop(); }
  // A thread per connection (Python's process has other threads: no worker processes), quiet.
  static ServiceOptions options(const std::string& socket, const std::string& token) {
    ServiceOptions o;
    o.socket_path = socket;
    o.token = token;
    o.log = [](const std::string&) {};
    return o;
  }
  void stop() {
    if (!thread_.joinable()) return;
    service_.stop();
    thread_.join();
  }
  size_t live_objects() const { return service_.live_objects(); }

 private:
  Service service_;
  std::thread thread_;
};

}  // namespace

void bind_service(py::module_& m) {
  py::class_<PyService>(m, "Service",
                        "The WebNN service on a Unix socket (docs/service.md), served on a background thread\n"
                        "until stop() or the end of a with block. Clients: ML().create_context(remote=\"unix:PATH\").")
      .def(py::init([](const std::string& socket, const py::bytes& token) {
             return std::make_unique<PyService>(socket, std::string(token));
           }),
           py::arg("socket"), py::kw_only(), py::arg("token") = py::bytes())
      .def("stop", &PyService::stop, py::call_guard<py::gil_scoped_release>(),
           "Ends every connection (after the call each is running) and removes the socket.")
      .def_property_readonly("live_objects", &PyService::live_objects,
                             "Contexts, tensors and graphs the clients hold now.")
      .def(
          "__enter__", [](PyService& s) -> PyService& { return s; }, py::return_value_policy::reference)
      .def(
          "__exit__", [](PyService& s, const py::args&) { s.stop(); }, py::call_guard<py::gil_scoped_release>());
}

}  // namespace webnn::python
