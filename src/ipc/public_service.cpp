// include/webnn/service.hpp: the public handle over the service (src/ipc/service.hpp).
#include "ipc/service.hpp"

namespace webnn {

Service::Service(ServiceOptions options) : impl_(std::make_unique<ipc::Service>(std::move(options))) {}
Service::~Service() = default;
void Service::run() { impl_->run(); }
void Service::stop() noexcept { impl_->stop(); }
size_t Service::live_objects() const { return impl_->live_objects(); }

int serve_until_signal(ServiceOptions options) { return ipc::serve_until_signal(std::move(options)); }

}  // namespace webnn
