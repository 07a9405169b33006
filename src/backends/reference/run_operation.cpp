#include "backends/reference/run_operation.hpp"

#include <cstddef>
#include <memory>
#include <string>

#include "backends/reference/reference_backend.hpp"
#include "graph/graph_builder.hpp"

namespace webnn::reference {

std::vector<HostTensor> run_operation(OpKind kind, const std::vector<HostTensor>& inputs, const Attributes& attrs) {
  // A one-op graph through the one path into the IR: the inputs as constants (shared, not copied).
  GraphBuilder builder;
  std::vector<OperandId> ids;
  ids.reserve(inputs.size());
  for (const HostTensor& t : inputs) ids.push_back(builder.add_constant(t.desc, t.data));
  const std::vector<OperandId> results = builder.add_operation(kind, std::move(ids), attrs);
  std::vector<NamedOperand> names;
  std::vector<std::vector<std::byte>> bytes;
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < results.size(); ++i) {
    names.push_back({"output" + std::to_string(i), results[i]});
    outputs.push_back({builder.desc(results[i]), {}});
    bytes.emplace_back(static_cast<size_t>(*outputs.back().desc.byte_length()));
  }
  const std::unique_ptr<Executable> executable = reference_backend().compile(builder.build(names), {});
  std::vector<std::byte*> out_pointers;
  for (std::vector<std::byte>& b : bytes) out_pointers.push_back(b.data());
  executable->run({}, out_pointers);  // each output is written in place
  for (size_t i = 0; i < outputs.size(); ++i) outputs[i].data = BufferRef::adopt(std::move(bytes[i]));
  return outputs;
}

}  // namespace webnn::reference
