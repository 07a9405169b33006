// MLTensor: a handle over detail::TensorImpl; its bytes live on the context timeline.
#include "runtime/context_impl.hpp"

namespace webnn {

namespace {
const detail::TensorImpl& tensor_of(const std::shared_ptr<detail::TensorImpl>& impl) {
  type_error_if(!impl, "MLTensor: the handle is empty");
  return *impl;
}
}  // namespace

DataType MLTensor::data_type() const { return tensor_of(impl_).desc.data_type; }
const Shape& MLTensor::shape() const { return tensor_of(impl_).desc.shape; }
bool MLTensor::readable() const { return tensor_of(impl_).desc.readable; }
bool MLTensor::writable() const { return tensor_of(impl_).desc.writable; }
bool MLTensor::constant() const { return tensor_of(impl_).is_constant; }
bool MLTensor::is_destroyed() const { return tensor_of(impl_).destroyed.load(); }
bool MLTensor::belongs_to(const MLContext& context) const {
  return tensor_of(impl_).context_id == detail::impl_of(context).get();
}

// spec: #api-mltensor-destroy
void MLTensor::destroy() {
  if (!impl_) return;
  if (auto context = impl_->context.lock())
    context->destroy_tensor(impl_);
  else
    impl_->destroyed = true;  // the context is gone, and with it every step that used the tensor
}

}  // namespace webnn
