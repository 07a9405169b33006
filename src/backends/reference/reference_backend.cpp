#include "backends/reference/reference_backend.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "backends/reference/kernels.hpp"

namespace webnn::reference {

namespace {

bool is_aligned(const void* p, DataType type) { return reinterpret_cast<uintptr_t>(p) % element_size(type) == 0; }

// The compiled graph: a value table with one slot per operand and one kernel per operation.
//  - constants are read in place from Graph::constants (copied once if misaligned for their type);
//  - intermediates own a buffer each, allocated here, once;
//  - graph inputs and outputs are bound to the caller's buffers at each run, so the producer of
//    an output writes straight into the caller's memory. A misaligned caller buffer, an output
//    listed twice, or an output that is itself an input or a constant goes through a copy.
class ReferenceExecutable final : public Executable {
 public:
  explicit ReferenceExecutable(std::shared_ptr<const Graph> graph) : graph_(std::move(graph)) {
    const Graph& g = *graph_;
    const size_t n = g.operands.size();
    values_.assign(n, nullptr);
    storage_.resize(n);
    bytes_.resize(n);
    for (OperandId id = 0; id < n; ++id) {
      const Operand& operand = g.operands[id];
      const auto bytes = operand.desc.byte_length();
      if (!bytes || *bytes > SIZE_MAX)
        throw_error(ErrorKind::kNotSupportedError,
                    "reference backend: operand " + operand.desc.to_string() + " is too large");
      bytes_[id] = static_cast<size_t>(*bytes);
      switch (operand.kind) {
        case OperandKind::kConstant: {
          const BufferRef& data = g.constant_data(id);
          if (data.size < bytes_[id])
            throw_error(ErrorKind::kOperationError, "reference backend: constant " + operand.desc.to_string() +
                                                        " holds " + std::to_string(data.size) + " bytes");
          if (is_aligned(data.data.get(), operand.desc.data_type)) {
            // Kernels never write to constants; the cast only lets them share the table.
            values_[id] = const_cast<std::byte*>(data.data.get());
          } else {
            storage_[id].assign(data.data.get(), data.data.get() + bytes_[id]);
            values_[id] = storage_[id].data();
          }
          break;
        }
        case OperandKind::kIntermediate:
          break;  // allocated below unless written in place
        case OperandKind::kInput:
          break;  // bound at run time
      }
    }
    // Outputs written in place: the first listing of an operand that an operation produces.
    std::vector<bool> direct(n, false);
    output_direct_.assign(g.outputs.size(), false);
    for (size_t i = 0; i < g.outputs.size(); ++i) {
      const OperandId id = g.outputs[i].operand;
      if (g.operands[id].kind == OperandKind::kIntermediate && !direct[id]) {
        direct[id] = true;
        output_direct_[i] = true;
      }
    }
    for (OperandId id = 0; id < n; ++id)
      if (g.operands[id].kind == OperandKind::kIntermediate && !direct[id]) {
        storage_[id].resize(bytes_[id]);
        values_[id] = storage_[id].data();
      }
    kernels_.reserve(g.operations.size());
    for (const Operation& op : g.operations) kernels_.push_back(make_kernel(g, op));
  }

  void run(std::span<const std::byte* const> inputs, std::span<std::byte* const> outputs) override {
    const Graph& g = *graph_;
    if (inputs.size() != g.inputs.size() || outputs.size() != g.outputs.size())
      throw_error(ErrorKind::kTypeError, "reference backend: run() got " + std::to_string(inputs.size()) +
                                             " inputs and " + std::to_string(outputs.size()) +
                                             " outputs, the graph has " + std::to_string(g.inputs.size()) + " and " +
                                             std::to_string(g.outputs.size()));
    for (size_t i = 0; i < inputs.size(); ++i) {
      const OperandId id = g.inputs[i].operand;
      bind(id, const_cast<std::byte*>(inputs[i]), /*copy_in=*/true);
    }
    for (size_t i = 0; i < outputs.size(); ++i)
      if (output_direct_[i]) bind(g.outputs[i].operand, outputs[i], /*copy_in=*/false);
    for (Kernel& kernel : kernels_) kernel(values_);
    for (size_t i = 0; i < outputs.size(); ++i) {
      const OperandId id = g.outputs[i].operand;
      if (values_[id] != outputs[i] && bytes_[id] != 0) std::memcpy(outputs[i], values_[id], bytes_[id]);
    }
  }

  std::vector<std::string> placement() const override {
    return std::vector<std::string>(graph_->operations.size(), "reference");
  }

 private:
  // Points operand `id` at the caller's buffer, or at a staging buffer of ours when the caller's
  // is not aligned for the element type (copying the caller's bytes in for inputs).
  void bind(OperandId id, std::byte* buffer, bool copy_in) {
    if (is_aligned(buffer, graph_->operands[id].desc.data_type)) {
      values_[id] = buffer;
      return;
    }
    std::vector<std::byte>& staging = storage_[id];
    staging.resize(bytes_[id]);
    if (copy_in && bytes_[id] != 0) std::memcpy(staging.data(), buffer, bytes_[id]);
    values_[id] = staging.data();
  }

  std::shared_ptr<const Graph> graph_;
  std::vector<std::byte*> values_;               // by OperandId
  std::vector<std::vector<std::byte>> storage_;  // by OperandId: owned bytes, empty if none
  std::vector<size_t> bytes_;                    // by OperandId
  std::vector<bool> output_direct_;              // by graph output index
  std::vector<Kernel> kernels_;                  // by operation index
};

}  // namespace

std::unique_ptr<Executable> ReferenceBackend::compile(std::shared_ptr<const Graph> graph,
                                                      const CompileOptions& /*options*/) const {
  if (!graph) throw_error(ErrorKind::kTypeError, "reference backend: compile() needs a graph");
  return std::make_unique<ReferenceExecutable>(std::move(graph));
}

const Backend& reference_backend() {
  static const ReferenceBackend backend;
  return backend;
}

}  // namespace webnn::reference
