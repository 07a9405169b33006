// The reference backend: every op, every data type the spec allows, in plain C++ written for
// exactness. It is the oracle the other backends are tested against.
#pragma once

#include "backends/backend.hpp"

namespace webnn::reference {

class ReferenceBackend final : public Backend {
 public:
  std::string_view name() const override { return "reference"; }
  bool accelerated() const override { return false; }
  std::unique_ptr<Executable> compile(std::shared_ptr<const Graph> graph, const CompileOptions& options) const override;
};

// The process-wide instance registered in src/backends/registry.cpp.
const Backend& reference_backend();

}  // namespace webnn::reference
