// Private to src/formats: the document model shared by the JSON and text forms, the generic
// attribute codec, JSON parsing with limits, and file helpers.
//
// Both parsers produce a GraphDoc and one function builds any GraphDoc through GraphBuilder; both
// writers print a GraphDoc made from the IR by one function. That is why JSON and text convert
// into each other without loss: they are two spellings of the same document.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/formats.hpp"
#include "graph/graph.hpp"

namespace webnn::formats {

using Json = nlohmann::ordered_json;

// Format errors are DataErrors (the file's content is wrong), I/O failures too.
[[noreturn]] void fail(const std::string& message);

// The deepest JSON nesting any of our files needs is 4; 64 leaves room for extensions and stops
// hostile input long before it could hurt.
inline constexpr int kMaxJsonDepth = 64;

// Parses JSON, rejecting nesting deeper than kMaxJsonDepth and duplicate object keys. Errors name
// `origin` and the byte position or line:column.
Json parse_json(std::string_view text, const std::string& origin);

// ---- Values ----

// A JSON value as an error message quotes it: its compact text, cut past 64 bytes with the total
// length given, so a 100 KB number or string does not make a 100 KB message.
std::string excerpt(const Json& value);

// Parses a data type by its spec name ("float32"); the error names `where`.
DataType json_data_type(const Json& value, const std::string& where);
Shape json_shape(const Json& value, const std::string& where);
uint64_t json_uint64(const Json& value, const std::string& where);
// An MLNumber: a JSON number, or a string holding a decimal integer (int64/uint64 beyond 2^53),
// "inf", "-inf" or "nan".
Number json_number(const Json& value, const std::string& where);
// The inverse: floats stay floats ("6.0"), integers a double holds exactly are integers, other
// integers and non-finite values are strings.
Json number_json(const Number& n);
Json double_json(double d);

// The bytes of a tensor whose every element equals `value` converted to desc's type. Throws when
// the value does not fit the type (an integer type needs an integral value in its range).
BufferRef scalar_fill(const OperandDescriptor& desc, const Number& value, const std::string& where);
// If every element of `data` is the same value of desc's type, that value as a Number.
std::optional<Number> uniform_value(const OperandDescriptor& desc, std::span<const std::byte> data);

// ---- Document model ----

struct InitDoc {
  enum class Kind { kWeights, kBytes, kScalar };
  Kind kind = Kind::kBytes;
  std::string ref;  // kWeights: the weights-file key
  BufferRef data;   // kBytes (and kWeights when saving): the tensor bytes
  Number scalar;    // kScalar
};

struct TensorDoc {
  std::string name;
  OperandDescriptor desc;
  InitDoc init;       // constants only
  std::string where;  // "file:3:5: constant \"w\"" — the prefix of errors about it
};

struct NodeDoc {
  std::string id;
  std::string op;
  std::vector<std::string> inputs;
  Json options = Json::object();
  // Option names whose values name operands (the text form prints them as identifiers).
  std::vector<std::string> operand_options;
  std::vector<std::string> outputs;
  std::string where;
};

struct OutputDoc {
  std::string name;     // the graph output name
  std::string operand;  // the operand it names
  std::string where;
};

struct GraphDoc {
  std::string name;
  std::vector<TensorDoc> inputs;
  std::vector<TensorDoc> consts;
  std::vector<NodeDoc> nodes;
  std::vector<OutputDoc> outputs;
  std::string origin;
};

// Builds a document through GraphBuilder: names resolved, nodes ordered by their dependencies
// (cycles and undefined names are errors naming the node), attributes decoded generically. The
// constants filled from a scalar may hold `memory_budget` bytes in all (the file's own bytes and
// weights do not count); past it, a NotSupportedError names the constant, the size and the bound.
std::shared_ptr<const Graph> build_graph(const GraphDoc& doc, const WeightsSource& weights,
                                         uint64_t memory_budget = kDefaultMemoryBudget);

// The document of a graph. Every operand gets a unique name (generated where the IR has none; an
// unnamed graph output's operand takes the output's name, with `identifiers_only` only when that
// is an identifier). Constants of at least
// `inline_limit` bytes refer to the weights file under their operand name; smaller ones inline.
GraphDoc graph_to_doc(const Graph& graph, size_t inline_limit, bool identifiers_only);

std::string doc_to_json(const GraphDoc& doc);
std::string doc_to_text(const GraphDoc& doc);
GraphDoc json_to_doc(std::string_view text, const std::string& origin);
GraphDoc text_to_doc(std::string_view text, const std::string& origin);

// Whether `name` is an identifier of the text form.
bool is_identifier(std::string_view name);
// Whether `s` is valid UTF-8 (what JSON strings and graph names hold).
bool is_utf8(const std::string& s);

// ---- Attribute codec ----

// Decodes a node's options into the attribute struct of `kind`. `resolve` maps an operand name to
// its id (it throws for undefined names). The `label` option goes to *label. Unknown options and
// values of the wrong JSON type are errors naming `where` and the option.
Attributes decode_attributes(OpKind kind, const Json& options, std::string* label,
                             const std::function<OperandId(const std::string&)>& resolve, const std::string& where);

struct EncodedOption {
  std::string name;
  Json value;
  bool is_operand = false;
};
// The options of an operation that differ from their defaults, in declaration order, then label.
std::vector<EncodedOption> encode_attributes(const Operation& op, const std::function<std::string(OperandId)>& name_of);

// ---- Files ----

// Opens a regular file for reading (never blocking on a FIFO or device); DataError otherwise.
// `what` names the file's role in errors ("weights file").
int open_regular_file(const std::string& path, const std::string& what);
// Opens the regular file `relative` inside `dir` for reading without leaving `dir`: an absolute
// path, "..", or a symbolic link that resolves outside it is refused (openat2 with
// RESOLVE_BENEATH; links that stay inside are followed). Where the kernel lacks openat2 (ENOSYS),
// or with `use_openat2` false (tests), the path realpath() resolves must lie inside dir's real
// path and is opened one component at a time with O_NOFOLLOW. DataError starting with `what`
// otherwise. Never blocks (as open_regular_file).
int open_beneath(const std::string& dir, const std::string& relative, const std::string& what, bool use_openat2 = true);
// Reads `size` bytes of the open file `fd` from `offset` into `into`, retrying what a signal
// interrupts: 0 when they were all read, kFileEnded when the file ended first, otherwise the
// failed read's errno. The caller closes fd and says what failed.
inline constexpr int kFileEnded = -1;
int read_exactly(int fd, std::byte* into, uint64_t size, uint64_t offset);
// Writes files atomically as a set: each to a temporary file beside it, then all renamed into place
// once every one is complete. On failure nothing is left renamed (files that existed before are
// restored) and the temporaries are removed; remove_pending_temporaries() removes them on a signal.
class AtomicWriter {
 public:
  AtomicWriter() = default;
  AtomicWriter(const AtomicWriter&) = delete;
  AtomicWriter& operator=(const AtomicWriter&) = delete;
  ~AtomicWriter();
  // Opens a temporary file for `path`; write with append().
  size_t begin(const std::string& path);
  void append(size_t file, std::span<const std::byte> bytes);
  void append(size_t file, std::string_view text);
  void commit();

 private:
  struct File {
    std::string path, temp;
    int fd = -1;
    int slot = -1;       // in the table remove_pending_temporaries() walks
    std::string backup;  // during commit(): a link to the file `path` held before
  };
  std::vector<File> files_;
};

std::span<const std::byte> as_bytes(std::string_view s);

}  // namespace webnn::formats
