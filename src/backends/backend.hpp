// The backend interface: a backend compiles an immutable Graph once into an Executable, which runs
// it many times. Nothing above src/runtime/ sees a backend; nothing in a backend sees the API.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"

namespace webnn {

struct CompileOptions {
  int num_threads = 0;  // 0: the backend's default (every core)
};

class Executable {
 public:
  virtual ~Executable() = default;
  // Runs the graph. `inputs[i]` holds the bytes of graph.inputs[i] and `outputs[i]` receives
  // graph.outputs[i]; each buffer has exactly its descriptor's byte length. Runs are not
  // concurrent on one Executable (the context timeline serialises them). Throws on failure and
  // never leaves fabricated data behind a success.
  virtual void run(std::span<const std::byte* const> inputs, std::span<std::byte* const> outputs) = 0;
  // Where each operation of the graph runs, in graph order ("reference", "onednn", ...).
  virtual std::vector<std::string> placement() const = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // Whether the backend uses a massively parallel accelerator (MLContext.accelerated).
  virtual bool accelerated() const = 0;
  // Compiles once; throws NotSupportedError naming the op when an operation cannot run.
  virtual std::unique_ptr<Executable> compile(std::shared_ptr<const Graph> graph,
                                              const CompileOptions& options) const = 0;
};

// Registered backends, best first. "reference" is always present.
std::vector<const Backend*> available_backends();
// The backend named `name`; throws NotSupportedError listing the available ones if none is.
const Backend& find_backend(std::string_view name);
// The best backend for the context options (today: the first available CPU backend).
const Backend& default_backend(bool accelerated);

}  // namespace webnn
