// The webnn-graph file formats (see /work/shared/design/FORMATS.md): the JSON graph (versions 1
// and 2), the .webnn text form, the wg-weights-manifest + WGWT weights file, and .npy arrays.
//
// Every graph is loaded through GraphBuilder, so a graph file is validated by exactly the spec
// algorithms the API uses. Attributes are read and written by iterating each attribute struct's
// `fields` declaration (graph/attributes.hpp); nothing here lists option names per op.
//
// Every failure throws webnn::Error naming the file and where in it (line:column in the text
// form, the JSON path or byte position in JSON, the node id and op, the weights key).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"
#include "webnn/model_options.hpp"
#include "webnn/types.hpp"

namespace webnn::formats {

// ---- Weights ----

// Where `@weights("key")` / {"kind": "weights"} constants get their bytes.
class WeightsSource {
 public:
  virtual ~WeightsSource() = default;
  // The bytes of tensor `key`, checked to hold exactly `desc`. `what` names the constant for
  // error messages. Throws DataError when the key is absent or its tensor does not match.
  virtual BufferRef get(const std::string& key, const OperandDescriptor& desc, const std::string& what) const = 0;
};

// A source with no tensors: any weights reference is an error (for graphs that inline everything).
const WeightsSource& no_weights();

// A wg-weights-manifest and its WGWT weights file. The file is memory-mapped (or held in memory);
// the manifest is validated completely — magic, version, and every entry's dataType, shape,
// byteOffset and byteLength against the declared shape and the file size — before any tensor is
// read. Tensors are handed out as BufferRef slices that keep the mapping alive; they are never
// copied, except once when a tensor's offset is not aligned to its element size.
class WeightsFile final : public WeightsSource {
 public:
  struct Entry {
    OperandDescriptor desc;
    uint64_t byte_offset = 0;
    uint64_t byte_length = 0;
  };

  static std::shared_ptr<WeightsFile> open(const std::string& weights_path, const std::string& manifest_path);
  // `bytes` is the whole weights file; `origin` names it (and the manifest) in errors.
  static std::shared_ptr<WeightsFile> from_memory(std::string_view manifest_text, BufferRef bytes,
                                                  const std::string& origin);

  const std::map<std::string, Entry>& entries() const { return entries_; }
  // The bytes of `key`; throws DataError when absent.
  BufferRef tensor(const std::string& key) const;
  BufferRef get(const std::string& key, const OperandDescriptor& desc, const std::string& what) const override;

 private:
  WeightsFile() = default;
  void init(std::string_view manifest_text, const std::string& manifest_origin);
  BufferRef file_;
  std::string origin_;
  std::map<std::string, Entry> entries_;
};

// The magic and version at the start of every weights file.
inline constexpr char kWeightsMagic[4] = {'W', 'G', 'W', 'T'};
inline constexpr uint32_t kWeightsVersion = 1;

// ---- Graphs ----

// The bytes a load may materialise beyond the file's own (docs/onnx.md, "Memory"; docs/formats.md):
// an ONNX import's folded values and composition tables held at once, a graph file's constants
// filled from a scalar in all. Half of maxTensorByteLength: far above what real models need (ONNX
// folding holds at most about 2 KB over the ONNX backend suite and the PyTorch models), far below
// what a hostile file of a few hundred bytes could otherwise make the loader allocate.
inline constexpr uint64_t kDefaultMemoryBudget = uint64_t{1} << 30;  // 1 GiB

// The public Model::load's options (include/webnn/webnn.hpp): the loaders take them as they are.
using LoadOptions = ModelLoadOptions;

// Loads NAME.json, NAME.webnn or NAME.onnx (chosen by the extension; .onnx through the ONNX
// importer, formats/onnx/import.hpp).
std::shared_ptr<const Graph> load_graph(const std::string& path, const LoadOptions& options = {});

// Parses a graph from memory; `origin` names it in errors.
// `memory_budget` bounds the bytes of the constants filled from a scalar ("init": {"kind": "scalar"}).
std::shared_ptr<const Graph> parse_graph_json(std::string_view text, const WeightsSource& weights,
                                              const std::string& origin, uint64_t memory_budget = kDefaultMemoryBudget);
std::shared_ptr<const Graph> parse_graph_text(std::string_view text, const WeightsSource& weights,
                                              const std::string& origin, uint64_t memory_budget = kDefaultMemoryBudget);

using SaveOptions = ModelSaveOptions;

// Writes a graph as NAME.json, NAME.webnn or NAME.dot (Graphviz, write-only; by the extension), plus NAME.manifest.json
// and NAME.weights when a constant goes to the weights file. Each file is written to a temporary file and renamed into
// place only when every file is complete, so a failure leaves no partial file.
void save_graph(const Graph& graph, const std::string& path, const SaveOptions& options = {});

// The .webnn text form's spelling of an operand name (docs/formats.md, "Names in the text form"):
// an identifier that does not start with `$` as it is; any other name (`191`, `onnx::Conv_251`,
// `true`, unicode) as `$` followed by its bytes, where letters, digits, `.` and `/` stand for
// themselves, `_` is `__` and every other byte is `_` and two upper-case hex digits. The result
// is always an identifier, distinct names give distinct spellings, and name_from_text reverses it.
std::string text_name(std::string_view name);
// The name a text-form identifier spells: the identifier itself, or the decoded rest of one that
// starts with `$`; nullopt for a malformed escape (`_` not followed by `_` or two hex digits) or
// escapes that do not form UTF-8.
std::optional<std::string> name_from_text(std::string_view identifier);

// The JSON / text form of a graph with every constant inline (no weights file).
std::string to_json(const Graph& graph);
std::string to_text(const Graph& graph);
// A Graphviz DOT rendering: one node per operation (op, label, options that differ from their
// defaults), inputs, constants (with their byte size) and outputs marked, edges labelled with the
// data type and shape they carry.
std::string to_dot(const Graph& graph);

// ---- Files ----

// The whole of a regular file; anything else (a FIFO, a directory, a device) is a DataError before
// anything is read, so no read can block. `what` names the file's role in errors.
std::string read_file(const std::string& path, const std::string& what = "file");

// Removes every temporary file that a writer of this library holds at this moment. Safe to call
// from a signal handler (it only walks a fixed table and calls unlink).
void remove_pending_temporaries() noexcept;
// Installs SIGINT and SIGTERM handlers that call remove_pending_temporaries() and then end the
// process by the same signal. For programs (the CLI); a library user with handlers of its own
// calls remove_pending_temporaries() from them instead.
void remove_temporaries_on_signals();

// ---- .npy arrays ----

struct NpyArray {
  OperandDescriptor desc;
  std::vector<std::byte> data;  // little-endian, C order
};

// Little-endian <f4 <f2 <i4 <u4 <i8 <u8 |i1 |u1 in C order, header versions 1.0, 2.0 and 3.0.
NpyArray read_npy(const std::string& path);
NpyArray parse_npy(std::span<const std::byte> bytes, const std::string& origin);
// The .npy bytes of an array (version 1.0 header unless it needs 2.0).
std::vector<std::byte> encode_npy(const OperandDescriptor& desc, std::span<const std::byte> data);
// Writes atomically (temporary file + rename).
void write_npy(const std::string& path, const OperandDescriptor& desc, std::span<const std::byte> data);

// ---- Output files ----

// The file name (never a path) that output `name` is written to: bytes other than ASCII letters,
// digits, '_', '-' and a '.' after the first byte become %XX (upper-case hex), then ".npy" is
// appended. "/layer1/out" -> "%2Flayer1%2Fout.npy", "../x" -> "%2E.%2Fx.npy". The mapping is
// one-to-one, so two outputs never share a file. DataError when the name is empty or the file
// name would exceed NAME_MAX.
std::string output_file_name(std::string_view name);
// The inverse, for a file name output_file_name() made; nullopt for any other.
std::optional<std::string> output_name_of_file(std::string_view file);

struct OutputArray {
  std::string name;
  OperandDescriptor desc;
  std::span<const std::byte> data;
};
// Writes every output as DIR/output_file_name(name), all or nothing: each goes to a temporary
// file, and they are renamed into place together once all are complete. DIR is created when
// missing (and removed again when nothing could be written). DataError names what failed.
void write_output_files(const std::string& dir, const std::vector<OutputArray>& outputs);

}  // namespace webnn::formats
