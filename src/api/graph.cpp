// MLGraph: a handle over detail::GraphImpl; its executable runs on the context timeline.
#include "runtime/context_impl.hpp"

namespace webnn {

namespace {
const std::shared_ptr<detail::GraphImpl>& graph_of(const std::shared_ptr<detail::GraphImpl>& impl) {
  type_error_if(!impl, "MLGraph: the handle is empty");
  return impl;
}
}  // namespace

const std::map<std::string, OperandDescriptor>& MLGraph::input_descriptors() const {
  return graph_of(impl_)->input_descriptors;
}

const std::map<std::string, OperandDescriptor>& MLGraph::output_descriptors() const {
  return graph_of(impl_)->output_descriptors;
}

// spec: #api-mlgraph-destroy
void MLGraph::destroy() {
  if (!impl_) return;
  if (auto context = impl_->context.lock())
    context->destroy_graph(impl_);
  else
    impl_->destroyed = true;
}

bool MLGraph::is_destroyed() const { return graph_of(impl_)->destroyed.load(); }

Model MLGraph::model() const { return detail::make_handle<Model>(graph_of(impl_)->ir); }

bool MLGraph::belongs_to(const MLContext& context) const {
  return graph_of(impl_)->context_id == detail::impl_of(context).get();
}

std::vector<std::string> MLGraph::placement() const {
  const auto& graph = graph_of(impl_);
  if (auto context = graph->context.lock()) return context->placement(*graph);
  // No context, so no timeline that could free the executable concurrently.
  if (graph->destroyed.load() || !graph->executable)
    throw_error(ErrorKind::kInvalidStateError, "placement: the graph is destroyed");
  return graph->executable->placement();
}

}  // namespace webnn
