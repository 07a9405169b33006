// Loading and saving graph files: choosing the form by extension, finding the weights beside the
// graph, and writing the three files together.
#include <filesystem>
#include <limits>

#include "formats/internal.hpp"
#include "formats/onnx/import.hpp"

namespace webnn::formats {

namespace {

enum class Form { kJson, kText, kOnnx, kDot };

Form form_of(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".json") return Form::kJson;
  if (ext == ".webnn") return Form::kText;
  if (ext == ".onnx") return Form::kOnnx;
  if (ext == ".dot") return Form::kDot;
  fail(path + ": unknown graph file extension " + quote(ext) + " (expected .json, .webnn or .onnx)");
}

// NAME.json -> NAME + suffix, beside it.
std::string beside(const std::string& path, const char* suffix) {
  std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + suffix)).string();
}

// Opens the weights file on first use, so graphs without weights references need none.
class LazyWeights final : public WeightsSource {
 public:
  LazyWeights(std::string weights, std::string manifest)
      : weights_(std::move(weights)), manifest_(std::move(manifest)) {}
  BufferRef get(const std::string& key, const OperandDescriptor& desc, const std::string& what) const override {
    if (!file_) {
      try {
        file_ = WeightsFile::open(weights_, manifest_);
      } catch (const Error& e) {
        throw Error(e.kind(), what + ": refers to weights key " + quote(key) + ": " + e.message());
      }
    }
    return file_->get(key, desc, what);
  }

 private:
  std::string weights_, manifest_;
  mutable std::shared_ptr<WeightsFile> file_;
};

// Writers meet arbitrary names from the API; JSON needs them to be valid UTF-8.
template <class Fn>
std::string write_doc(Fn&& fn) {
  try {
    return fn();
  } catch (const Json::exception& e) {
    fail(std::string("cannot write the graph: ") + e.what());
  }
}

constexpr uint64_t kWeightsAlignment = 64;

// The files of one save must be three files: two roles on one path would leave a set that does
// not load (the later rename wins). Paths are compared after resolving symbolic links and "..".
void check_distinct(const std::vector<std::pair<const char*, std::string>>& roles) {
  std::vector<std::filesystem::path> resolved;
  for (const auto& [role, path] : roles) {
    std::error_code ec;
    std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
    if (ec) p = std::filesystem::absolute(path, ec).lexically_normal();
    for (size_t i = 0; i < resolved.size(); ++i)
      if (resolved[i] == p)
        fail("cannot save the graph: the " + std::string(role) + " and the " + roles[i].first + " are the same file (" +
             path + ")");
    resolved.push_back(std::move(p));
  }
}

}  // namespace

std::shared_ptr<const Graph> parse_graph_json(std::string_view text, const WeightsSource& weights,
                                              const std::string& origin, uint64_t memory_budget) {
  return build_graph(json_to_doc(text, origin), weights, memory_budget);
}

std::shared_ptr<const Graph> parse_graph_text(std::string_view text, const WeightsSource& weights,
                                              const std::string& origin, uint64_t memory_budget) {
  return build_graph(text_to_doc(text, origin), weights, memory_budget);
}

std::shared_ptr<const Graph> load_graph(const std::string& path, const LoadOptions& options) {
  Form form = form_of(path);
  if (form == Form::kDot) fail(path + ": Graphviz files are written, not read");
  if (form == Form::kOnnx) {
    OnnxImportOptions onnx;
    onnx.dims = options.dims;
    for (const auto& [name, file] : options.freeze) onnx.frozen[name] = read_npy(file);
    if (options.memory_budget) onnx.memory_budget = *options.memory_budget;
    return import_onnx(path, onnx);
  }
  std::string text = read_file(path, "graph file");
  LazyWeights weights(options.weights_path.empty() ? beside(path, ".weights") : options.weights_path,
                      options.manifest_path.empty() ? beside(path, ".manifest.json") : options.manifest_path);
  const uint64_t budget = options.memory_budget.value_or(kDefaultMemoryBudget);
  return form == Form::kJson ? parse_graph_json(text, weights, path, budget)
                             : parse_graph_text(text, weights, path, budget);
}

std::string to_json(const Graph& graph) {
  return write_doc([&] { return doc_to_json(graph_to_doc(graph, std::numeric_limits<size_t>::max(), false)); });
}

std::string to_text(const Graph& graph) {
  return write_doc([&] { return doc_to_text(graph_to_doc(graph, std::numeric_limits<size_t>::max(), true)); });
}

void save_graph(const Graph& graph, const std::string& path, const SaveOptions& options) {
  Form form = form_of(path);
  if (form == Form::kOnnx) fail(path + ": ONNX files are written by export_onnx");
  if (form == Form::kDot) {
    AtomicWriter writer;
    writer.append(writer.begin(path), to_dot(graph));
    writer.commit();
    return;
  }
  GraphDoc doc = graph_to_doc(graph, options.inline_limit, form == Form::kText);
  std::string text = write_doc([&] { return form == Form::kJson ? doc_to_json(doc) : doc_to_text(doc); });

  AtomicWriter writer;
  bool any_weights = false;
  for (const TensorDoc& c : doc.consts) any_weights |= c.init.kind == InitDoc::Kind::kWeights;
  if (any_weights) {
    std::string weights_path = options.weights_path.empty() ? beside(path, ".weights") : options.weights_path;
    std::string manifest_path = options.manifest_path.empty() ? beside(path, ".manifest.json") : options.manifest_path;
    check_distinct({{"graph file", path}, {"weights file", weights_path}, {"weights manifest", manifest_path}});
    size_t wf = writer.begin(weights_path);
    const std::byte header[8] = {
        std::byte('W'), std::byte('G'), std::byte('W'), std::byte('T'), std::byte(kWeightsVersion),
        std::byte(0),   std::byte(0),   std::byte(0)};
    writer.append(wf, std::span<const std::byte>(header));
    uint64_t offset = sizeof(header);
    Json tensors = Json::object();
    const std::byte zeros[kWeightsAlignment] = {};
    for (const TensorDoc& c : doc.consts) {
      if (c.init.kind != InitDoc::Kind::kWeights) continue;
      // Aligned tensors let a memory-mapped file hand out every element type in place.
      uint64_t pad = (kWeightsAlignment - offset % kWeightsAlignment) % kWeightsAlignment;
      writer.append(wf, std::span<const std::byte>(zeros, pad));
      offset += pad;
      writer.append(wf, c.init.data.span());
      Json shape = Json::array();
      for (uint32_t d : c.desc.shape) shape.push_back(d);
      tensors[c.init.ref] = Json{{"dataType", std::string(to_string(c.desc.data_type))},
                                 {"shape", shape},
                                 {"byteOffset", offset},
                                 {"byteLength", c.init.data.size},
                                 {"layout", "row-major"}};
      offset += c.init.data.size;
    }
    Json manifest{{"format", "wg-weights-manifest"}, {"version", 1}, {"endianness", "little"}, {"tensors", tensors}};
    size_t mf = writer.begin(manifest_path);
    writer.append(mf, write_doc([&] { return manifest.dump(1) + "\n"; }));
  }
  size_t gf = writer.begin(path);
  writer.append(gf, text);
  writer.commit();
}

}  // namespace webnn::formats
