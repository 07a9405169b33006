// webnn-cpp public C++ API: the W3C WebNN interfaces (ML, MLContext, MLGraphBuilder, MLOperand,
// MLGraph, MLTensor) with the spec's names in snake_case.
//
// Differences from the IDL, all forced by C++:
// - Promises become std::future (read_tensor) or synchronous calls that throw webnn::Error
//   (create_context, build, create_tensor return at once; their work is ordered on the context
//   timeline exactly as the spec orders it).
// - Buffers are std::span<const std::byte>.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "webnn/model_options.hpp"
#include "webnn/types.hpp"

namespace webnn {

struct Graph;  // the IR (src/graph/graph.hpp); opaque here

namespace detail {
struct ContextImpl;
struct TensorImpl;
struct GraphImpl;
struct BuilderImpl;
struct HandleAccess;  // the library's own access to a handle's state (src/runtime/handles.hpp)
}  // namespace detail

class MLContext;
class MLGraph;
class MLTensor;
class MLOperand;
class Model;

// spec: #enumdef-mlpowerpreference. Layout and rounding enums are the spec's strings in the
// options below ("nchw", "oihw", "floor"); an unknown string is a TypeError.
enum class PowerPreference : uint8_t { kDefault, kHighPerformance, kLowPower };

// spec: #dictdef-mlcontextoptions, plus our own backend choice and thread count.
struct MLContextOptions {
  // The most threads a context may ask for. Thread pools fail (libgomp aborts the process) long
  // before absurd counts; 256 is far beyond any core count this library is built for.
  static constexpr int kMaxThreads = 256;

  PowerPreference power_preference = PowerPreference::kDefault;
  bool accelerated = true;
  std::string backend;  // "" = best available; "reference"
  int num_threads = 0;  // 0 = backend default; at most kMaxThreads
  // "unix:PATH": the context lives in the WebNN service listening there (`webnn serve`,
  // docs/service.md); its tensors and graphs are the service's. "" = in this process.
  std::string remote;
  // The token the service asks for when it runs with --token-file ("" = none).
  std::string token;
  // Our own: the timeline runs each step on the thread that makes the call, before the call
  // returns (dispatch waits for its compute), instead of on the context's worker thread. For a
  // caller that waits for every result anyway, such as a decode loop: it saves the two thread
  // hand-offs of each round trip (docs/runtime.md, "Synchronous contexts"). A remote context's
  // steps always run so.
  bool synchronous = false;
};

struct MLContextLostInfo {
  std::string message;
};

// spec: #dictdef-mltensordescriptor
struct MLTensorDescriptor {
  DataType data_type = DataType::kFloat32;
  Shape shape;
  bool readable = false;
  bool writable = false;
};

// spec: #dictdef-mlrankrange, #dictdef-mltensorlimits
struct MLRankRange {
  uint32_t min = 0;
  uint32_t max = 0;
};
struct MLTensorLimits {
  std::vector<DataType> data_types;
  MLRankRange rank_range;
};

// spec: #dictdef-mlopsupportlimits. Per-op members are keyed by the spec's method name and then
// by operand name, as the spec's MLXxxSupportLimits dictionaries are: ops["conv2d"]["filter"].
struct MLOpSupportLimits {
  std::string preferred_input_layout;  // "nchw" or "nhwc"
  uint64_t max_tensor_byte_length = 0;
  MLTensorLimits input;
  MLTensorLimits constant;
  MLTensorLimits output;
  std::map<std::string, std::map<std::string, MLTensorLimits>> ops;
};

// A host-side tensor: descriptor plus bytes. Used by the compute() convenience.
struct HostTensor {
  OperandDescriptor desc;
  std::vector<std::byte> data;
};
using NamedHostTensors = std::map<std::string, HostTensor>;

// ---- MLTensor ----
class WEBNN_EXPORT MLTensor {
 public:
  MLTensor() = default;
  DataType data_type() const;
  const Shape& shape() const;
  bool readable() const;
  bool writable() const;
  bool constant() const;
  bool is_destroyed() const;
  // spec: #api-mltensor-destroy. Pending reads are rejected with InvalidStateError, as the spec says.
  void destroy();
  // Whether the tensor was created by `context` (dispatch, readTensor and writeTensor take only
  // those).
  bool belongs_to(const MLContext& context) const;
  explicit operator bool() const { return impl_ != nullptr; }
  friend bool operator==(const MLTensor& a, const MLTensor& b) { return a.impl_ == b.impl_; }

 private:
  friend struct detail::HandleAccess;
  std::shared_ptr<detail::TensorImpl> impl_;
};
using MLNamedTensors = std::map<std::string, MLTensor>;

// ---- MLGraph ----
class WEBNN_EXPORT MLGraph {
 public:
  MLGraph() = default;
  const std::map<std::string, OperandDescriptor>& input_descriptors() const;
  const std::map<std::string, OperandDescriptor>& output_descriptors() const;
  // spec: #api-mlgraph-destroy
  void destroy();
  bool is_destroyed() const;
  // The graph it was compiled from, as data (to save, export or inspect it, or to compile it for
  // another context). Available after destroy() too.
  Model model() const;
  // Whether the graph was compiled for `context` (dispatch takes only those).
  bool belongs_to(const MLContext& context) const;
  // Where each operation runs, in graph order.
  std::vector<std::string> placement() const;
  explicit operator bool() const { return impl_ != nullptr; }

 private:
  friend struct detail::HandleAccess;
  std::shared_ptr<detail::GraphImpl> impl_;
};

// ---- MLContext ----
class WEBNN_EXPORT MLContext {
 public:
  MLContext() = default;

  // spec: #api-mlcontext-dispatch. Returns at once; the compute runs on the context timeline.
  void dispatch(const MLGraph& graph, const MLNamedTensors& inputs, const MLNamedTensors& outputs);
  // spec: #api-mlcontext-createtensor. Returns at once; the allocation is ordered on the timeline.
  MLTensor create_tensor(const MLTensorDescriptor& descriptor);
  // spec: #api-mlcontext-createconstanttensor
  MLTensor create_constant_tensor(const OperandDescriptor& descriptor, std::span<const std::byte> data);
  // spec: #api-mlcontext-readtensor. The future holds the bytes or throws webnn::Error.
  std::future<std::vector<std::byte>> read_tensor(const MLTensor& tensor);
  // spec: #api-mlcontext-readtensor-byob. `out` must stay valid until the future is ready.
  std::future<void> read_tensor(const MLTensor& tensor, std::span<std::byte> out);
  // The same read completed by a callback instead of a future. Throws what readTensor would
  // reject with (TypeError for a wrong size, InvalidStateError for a destroyed tensor or a lost
  // context) before anything is queued; otherwise calls `done` exactly once — with nullptr once
  // `out` holds the bytes, or with the error (InvalidStateError when the tensor or the context is
  // destroyed first) — on the context's timeline thread, on the thread that destroys the tensor
  // or the context, or on the calling thread before this returns when the timeline has nothing
  // left to run (docs/runtime.md, "Steps in the timeline's place"); never under a lock of the
  // library's: `done` may destroy either. `out` must stay valid until then.
  void read_tensor(const MLTensor& tensor, std::span<std::byte> out, std::function<void(std::exception_ptr)> done);
  // spec: #api-mlcontext-writetensor. The bytes are copied before it returns.
  void write_tensor(const MLTensor& tensor, std::span<const std::byte> data);
  // spec: #api-mlcontext-opsupportlimits
  MLOpSupportLimits op_support_limits() const;
  // spec: #api-mlcontext-destroy. Waits for a compute that is running to finish.
  void destroy();
  // destroy() with `message` as the lost info's message (our own: a binding that loses its
  // contexts at exit says why). Without `wait` it returns at once: the context is lost, a compute
  // already running finishes on the timeline (for an event loop that must not block).
  void lose(const std::string& message, bool wait = true);
  bool accelerated() const;
  PowerPreference power_preference() const;
  // spec: #dom-mlcontext-lost. Ready once the context is lost (destroyed).
  std::shared_future<MLContextLostInfo> lost() const;
  // The same as a callback: `listener` is called once, on the thread that loses the context (at
  // once, on this thread, when it is lost already).
  void on_lost(std::function<void(const MLContextLostInfo&)> listener);
  bool is_lost() const;
  // Calls `done` on the timeline once every step queued before this call has run: with nullptr,
  // or, when `tensor` is given and its creation failed, with that error (createTensor's promise).
  // `done` is called on the timeline thread, or on the thread that destroys the context.
  void when_reached(const MLTensor& tensor, std::function<void(std::exception_ptr)> done);

  // Compiles a graph given as data (Model::load, MLGraphBuilder::build_model, MLGraph::model) for
  // this context: build's asynchronous steps. Throws OperationError when the backend cannot.
  MLGraph build(const Model& model);
  // Convenience: writes `inputs`, runs `graph` and reads every output, on the same timeline. An
  // input not in `inputs` runs on its default value where the graph has one (an imported ONNX
  // model's initializer of that input's name: Graph::input_defaults); dispatch() needs every input.
  NamedHostTensors compute(const MLGraph& graph, const NamedHostTensors& inputs);
  // The backend this context runs on ("reference", ...).
  std::string backend_name() const;
  int num_threads() const;

  explicit operator bool() const { return impl_ != nullptr; }
  friend bool operator==(const MLContext& a, const MLContext& b) { return a.impl_ == b.impl_; }

 private:
  friend struct detail::HandleAccess;
  std::shared_ptr<detail::ContextImpl> impl_;
};

// A reference to a context that does not keep it alive (for a binding's list of live contexts).
class WEBNN_EXPORT MLContextRef {
 public:
  MLContextRef() = default;
  explicit MLContextRef(const MLContext& context);
  // The context, or an empty handle once every MLContext of it is gone.
  MLContext lock() const;
  bool expired() const { return impl_.expired(); }

 private:
  std::weak_ptr<detail::ContextImpl> impl_;
};

// The backends built in, best first: the names MLContextOptions::backend takes.
WEBNN_EXPORT std::vector<std::string> backend_names();

// spec: #api-ml
class WEBNN_EXPORT ML {
 public:
  // spec: #api-ml-createcontext. Throws NotSupportedError when no backend fits the options.
  static MLContext create_context(const MLContextOptions& options = {});
};

// ---- Model: a graph as data (not in the spec) ----
// An immutable graph, validated as the builder validates, that is not compiled for any context:
// loaded from a graph file (webnn-graph JSON or text, docs/formats.md) or an ONNX model
// (docs/onnx.md), made by MLGraphBuilder::build_model(), or taken from a built graph
// (MLGraph::model). It saves, exports to ONNX, describes itself and compiles on any context
// (MLContext::build). Copies share the graph.
// An input or output of a model, in graph order.
struct ModelOperand {
  std::string name;
  OperandDescriptor descriptor;
  // Inputs of an imported ONNX model that have a default value (their initializer): its bytes,
  // valid while the model lives. Empty otherwise. compute() uses it for an input not given;
  // dispatch() needs every input.
  std::span<const std::byte> default_value;
};

class WEBNN_EXPORT Model {
 public:
  Model() = default;
  // Loads NAME.json, NAME.webnn or NAME.onnx (by the extension). Throws webnn::Error naming the
  // file and where in it.
  static Model load(const std::string& path, const ModelLoadOptions& options = {});
  // Writes NAME.json, NAME.webnn or NAME.dot (Graphviz, write-only), by the extension, plus the
  // weights files when a constant goes there; atomically (no partial file on failure).
  void save(const std::string& path, const ModelSaveOptions& options = {}) const;
  // Writes an ONNX model (opset 17; docs/onnx.md), atomically. Throws NotSupportedError naming
  // the op when the graph holds something ONNX cannot express exactly.
  void export_onnx(const std::string& path) const;

  // The graph file's name ("" when it has none).
  const std::string& name() const;
  std::vector<ModelOperand> inputs() const;
  std::vector<ModelOperand> outputs() const;
  // Inputs of the source model that are constants here, and why (frozen by the caller, or to
  // their default because the model needs their value when the graph is built).
  const std::map<std::string, std::string>& frozen_inputs() const;
  size_t operand_count() const;
  size_t operation_count() const;
  // The spec's name of each operation's op -> how many times it occurs.
  std::map<std::string, size_t> operation_counts() const;
  size_t constant_count() const;
  uint64_t constant_bytes() const;
  explicit operator bool() const { return impl_ != nullptr; }

 private:
  friend struct detail::HandleAccess;
  std::shared_ptr<const Graph> impl_;
};

// One tensor of a weights file (load_weights): its descriptor and bytes, shared with the file's
// memory mapping (copied only where the file's offset was not aligned to the element size).
struct WeightsTensor {
  OperandDescriptor descriptor;
  std::shared_ptr<const std::byte> data;
  size_t size = 0;
};
// Reads a wg-weights-manifest and its WGWT weights file (docs/formats.md). The manifest and every
// entry are checked against the file before anything is read; DataError names the file and the
// tensor otherwise.
WEBNN_EXPORT std::map<std::string, WeightsTensor> load_weights(const std::string& weights_path,
                                                               const std::string& manifest_path);

// ---- Export ----
// graph.model().export_onnx(path).
WEBNN_EXPORT void convert_to_onnx(const MLGraph& graph, const std::string& path);

// ---- MLOperand ----
class WEBNN_EXPORT MLOperand {
 public:
  MLOperand() = default;
  DataType data_type() const;
  Shape shape() const;
  // The operand's number in its builder: the builder's operands are numbered from 0 in the order
  // they were made (MLGraphBuilder::operand finds one by it).
  uint32_t id() const { return id_; }
  // An input's name; "" for the other operands.
  std::string name() const;
  explicit operator bool() const { return builder_ != nullptr; }

 private:
  friend class MLGraphBuilder;
  friend struct detail::HandleAccess;
  MLOperand(std::shared_ptr<detail::BuilderImpl> builder, uint32_t id) : builder_(std::move(builder)), id_(id) {}
  std::shared_ptr<detail::BuilderImpl> builder_;
  uint32_t id_ = 0;
};
using MLNamedOperands = std::map<std::string, MLOperand>;

// ---- Options dictionaries: the spec's, members in snake_case. String members are the spec's enum
// values ("nchw"); an unknown one is a TypeError. An absent optional member takes the spec's
// default, which validation applies. ----
struct MLOperatorOptions {
  std::string label;
};
// ---- BEGIN GENERATED options by scripts/gen_api.py from the op table; do not edit ----
// spec MLEluOptions: elu
struct MLEluOptions : MLOperatorOptions {
  double alpha = 1.0;
};
// spec MLHardSigmoidOptions: hardSigmoid
struct MLHardSigmoidOptions : MLOperatorOptions {
  double alpha = 0.2;
  double beta = 0.5;
};
// spec MLLeakyReluOptions: leakyRelu
struct MLLeakyReluOptions : MLOperatorOptions {
  double alpha = 0.01;
};
// spec MLLinearOptions: linear
struct MLLinearOptions : MLOperatorOptions {
  double alpha = 1.0;
  double beta = 0.0;
};
// spec MLClampOptions: clamp
struct MLClampOptions : MLOperatorOptions {
  Number min_value = -std::numeric_limits<double>::infinity();
  Number max_value = std::numeric_limits<double>::infinity();
};
// spec MLConv2dOptions: conv2d
struct MLConv2dOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> padding;    // absent: the spec's default
  std::optional<std::vector<uint32_t>> strides;    // absent: the spec's default
  std::optional<std::vector<uint32_t>> dilations;  // absent: the spec's default
  uint32_t groups = 1;
  std::string input_layout = "nchw";   // "nchw" | "nhwc"
  std::string filter_layout = "oihw";  // "oihw" | "hwio" | "ohwi" | "ihwo"
  std::optional<MLOperand> bias;
};
// spec MLConvTranspose2dOptions: convTranspose2d
struct MLConvTranspose2dOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> padding;         // absent: the spec's default
  std::optional<std::vector<uint32_t>> strides;         // absent: the spec's default
  std::optional<std::vector<uint32_t>> dilations;       // absent: the spec's default
  std::optional<std::vector<uint32_t>> output_padding;  // absent: the spec's default
  std::optional<std::vector<uint32_t>> output_sizes;    // absent: the spec's default
  uint32_t groups = 1;
  std::string input_layout = "nchw";   // "nchw" | "nhwc"
  std::string filter_layout = "iohw";  // "iohw" | "hwoi" | "ohwi"
  std::optional<MLOperand> bias;
};
// spec MLPool2dOptions: averagePool2d, l2Pool2d, maxPool2d
struct MLPool2dOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> window_dimensions;  // absent: the spec's default
  std::optional<std::vector<uint32_t>> padding;            // absent: the spec's default
  std::optional<std::vector<uint32_t>> strides;            // absent: the spec's default
  std::optional<std::vector<uint32_t>> dilations;          // absent: the spec's default
  std::string layout = "nchw";                             // "nchw" | "nhwc"
  std::string output_shape_rounding = "floor";             // "floor" | "ceil"
  std::optional<std::vector<uint32_t>> output_sizes;       // absent: the spec's default
};
// spec MLResample2dOptions: resample2d
struct MLResample2dOptions : MLOperatorOptions {
  std::string mode = "nearest-neighbor";       // "nearest-neighbor" | "linear"
  std::optional<std::vector<float>> scales;    // absent: the spec's default
  std::optional<std::vector<uint32_t>> sizes;  // absent: the spec's default
  std::optional<std::vector<uint32_t>> axes;   // absent: the spec's default
};
// spec MLGemmOptions: gemm
struct MLGemmOptions : MLOperatorOptions {
  std::optional<MLOperand> c;
  double alpha = 1.0;
  double beta = 1.0;
  bool a_transpose = false;
  bool b_transpose = false;
};
// spec MLBatchNormalizationOptions: batchNormalization
struct MLBatchNormalizationOptions : MLOperatorOptions {
  std::optional<MLOperand> scale;
  std::optional<MLOperand> bias;
  uint32_t axis = 1;
  double epsilon = 1e-05;
};
// spec MLInstanceNormalizationOptions: instanceNormalization
struct MLInstanceNormalizationOptions : MLOperatorOptions {
  std::optional<MLOperand> scale;
  std::optional<MLOperand> bias;
  double epsilon = 1e-05;
  std::string layout = "nchw";  // "nchw" | "nhwc"
};
// spec MLLayerNormalizationOptions: layerNormalization
struct MLLayerNormalizationOptions : MLOperatorOptions {
  std::optional<MLOperand> scale;
  std::optional<MLOperand> bias;
  std::optional<std::vector<uint32_t>> axes;  // absent: the spec's default
  double epsilon = 1e-05;
};
// spec MLReduceOptions: reduceL1, reduceL2, reduceLogSum, reduceLogSumExp, reduceMax, reduceMean, reduceMin,
// reduceProduct, reduceSum, reduceSumSquare
struct MLReduceOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> axes;  // absent: the spec's default
  bool keep_dimensions = false;
};
// spec MLArgMinMaxOptions: argMax, argMin
struct MLArgMinMaxOptions : MLOperatorOptions {
  bool keep_dimensions = false;
  DataType output_data_type = DataType::kInt32;
};
// spec MLCumulativeSumOptions: cumulativeSum
struct MLCumulativeSumOptions : MLOperatorOptions {
  bool exclusive = false;
  bool reversed = false;
};
// spec MLTransposeOptions: transpose
struct MLTransposeOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> permutation;  // absent: the spec's default
};
// spec MLSplitOptions: split
struct MLSplitOptions : MLOperatorOptions {
  uint32_t axis = 0;
};
// spec MLSliceOptions: slice
struct MLSliceOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> strides;  // absent: the spec's default
};
// spec MLPadOptions: pad
struct MLPadOptions : MLOperatorOptions {
  std::string mode = "constant";  // "constant" | "edge" | "reflection"
  Number value = 0.0;
};
// spec MLReverseOptions: reverse
struct MLReverseOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> axes;  // absent: the spec's default
};
// spec MLTriangularOptions: triangular
struct MLTriangularOptions : MLOperatorOptions {
  bool upper = true;
  int32_t diagonal = 0;
};
// spec MLGatherOptions: gather, gatherElements
struct MLGatherOptions : MLOperatorOptions {
  uint32_t axis = 0;
};
// spec MLScatterOptions: scatterElements
struct MLScatterOptions : MLOperatorOptions {
  uint32_t axis = 0;
};
// spec MLGruOptions: gru
struct MLGruOptions : MLOperatorOptions {
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrent_bias;
  std::optional<MLOperand> initial_hidden_state;
  bool reset_after = true;
  bool return_sequence = false;
  std::string direction = "forward";                    // "forward" | "backward" | "both"
  std::string layout = "zrn";                           // "zrn" | "rzn"
  std::optional<std::vector<std::string>> activations;  // "relu" | "sigmoid" | "tanh"
};
// spec MLGruCellOptions: gruCell
struct MLGruCellOptions : MLOperatorOptions {
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrent_bias;
  bool reset_after = true;
  std::string layout = "zrn";                           // "zrn" | "rzn"
  std::optional<std::vector<std::string>> activations;  // "relu" | "sigmoid" | "tanh"
};
// spec MLLstmOptions: lstm
struct MLLstmOptions : MLOperatorOptions {
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrent_bias;
  std::optional<MLOperand> peephole_weight;
  std::optional<MLOperand> initial_hidden_state;
  std::optional<MLOperand> initial_cell_state;
  bool return_sequence = false;
  std::string direction = "forward";                    // "forward" | "backward" | "both"
  std::string layout = "iofg";                          // "iofg" | "ifgo"
  std::optional<std::vector<std::string>> activations;  // "relu" | "sigmoid" | "tanh"
};
// spec MLLstmCellOptions: lstmCell
struct MLLstmCellOptions : MLOperatorOptions {
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrent_bias;
  std::optional<MLOperand> peephole_weight;
  std::string layout = "iofg";                          // "iofg" | "ifgo"
  std::optional<std::vector<std::string>> activations;  // "relu" | "sigmoid" | "tanh"
};
// ---- END GENERATED options ----

// ---- Operators by name (not in the spec) ----
// For bindings that reflect the op table instead of calling one method per operator (Python,
// JavaScript): every operator's description, and MLGraphBuilder::add_operation.

// What a required parameter or an option of an operator takes.
enum class MLArgumentType : uint8_t {
  kBoolean,             // bool
  kUnsignedLong,        // [EnforceRange] unsigned long: uint32_t
  kLong,                // [EnforceRange] long: int32_t
  kDouble,              // double (finite)
  kNumber,              // MLNumber: Number
  kDataType,            // MLOperandDataType: DataType
  kEnum,                // one of `values`: std::string
  kDimensions,          // sequence<unsigned long>: std::vector<uint32_t>
  kOptionalDimensions,  // the same, absent when not given
  kOptionalFloats,      // sequence<float>, absent when not given: std::vector<float>
  kOptionalEnumList,    // sequence of `values`, absent when not given: std::vector<std::string>
  kOptionalOperand,     // MLOperand, absent when not given
  kSplits,              // unsigned long or sequence<unsigned long> (split): uint32_t or std::vector<uint32_t>
};

// A value of a parameter or option, converted by the binding as WebIDL says; the alternative is
// the one MLArgumentType names.
using MLArgument = std::variant<bool, uint32_t, int32_t, double, Number, DataType, std::string, std::vector<uint32_t>,
                                std::vector<float>, std::vector<std::string>, MLOperand>;
// Parameters and options by the spec's names ("windowDimensions"); an option not given is absent.
using MLArguments = std::map<std::string, MLArgument>;

struct MLArgumentInfo {
  std::string name;  // the spec's name
  MLArgumentType type = MLArgumentType::kBoolean;
  std::vector<std::string> values;  // kEnum, kOptionalEnumList: the allowed strings, in the spec's order
  // Options with a default that does not depend on the operands: the spec's default.
  std::optional<MLArgument> default_value;
};

struct MLOperatorInfo {
  std::string name;  // the spec's method name ("averagePool2d")
  // The operands, in the spec's order; a sequence<MLOperand> ends in "[]" ("inputs[]").
  std::vector<std::string> operands;
  std::vector<MLArgumentInfo> parameters;  // required, in the spec's order
  std::vector<MLArgumentInfo> options;     // the options dictionary's members (label aside)
  bool returns_sequence = false;           // sequence<MLOperand> (split, gru, lstm, lstmCell)
};

// Every operator of the library, in the op table's order.
WEBNN_EXPORT const std::vector<MLOperatorInfo>& operators();

// ---- MLGraphBuilder ----
// Every method validates as the spec's algorithm says and throws webnn::Error (TypeError unless
// the spec names another kind) with a message naming the op, the argument and the rule. A failed
// call leaves the builder unchanged.
class WEBNN_EXPORT MLGraphBuilder {
 public:
  // spec: #api-mlgraphbuilder-constructor. Throws InvalidStateError if the context is lost.
  explicit MLGraphBuilder(const MLContext& context);

  MLOperand input(const std::string& name, const OperandDescriptor& descriptor);
  MLOperand constant(const OperandDescriptor& descriptor, std::span<const std::byte> buffer);
  MLOperand constant(DataType data_type, Number value);
  MLOperand constant(const MLTensor& tensor);
  // spec: #api-mlgraphbuilder-build. One builder builds once.
  MLGraph build(const MLNamedOperands& outputs);
  // build's synchronous steps alone: the same checks, and the builder is built after it; the
  // result compiles with MLContext::build (build's asynchronous steps), on any thread.
  Model build_model(const MLNamedOperands& outputs);

  // The operators: one method per op of the spec, its operands and required arguments in the
  // spec's order, then its options. Ops that return sequence<MLOperand> return a vector: gru
  // [output, outputSequence if returnSequence], lstm [output, cellState, outputSequence if
  // returnSequence], lstmCell [output, cellState], split one operand per part.
  // ---- BEGIN GENERATED methods by scripts/gen_api.py from the op table; do not edit ----
  MLOperand add(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand sub(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand mul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand div(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand max(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand min(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand pow(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand abs(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand ceil(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand cos(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand erf(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand exp(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand floor(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand identity(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand log(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand neg(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand reciprocal(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand round_even(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand sin(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand sign(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand sqrt(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand tan(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand relu(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand sigmoid(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand tanh(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand gelu(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand elu(const MLOperand& input, const MLEluOptions& options = {});
  MLOperand hard_sigmoid(const MLOperand& input, const MLHardSigmoidOptions& options = {});
  MLOperand hard_swish(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand leaky_relu(const MLOperand& input, const MLLeakyReluOptions& options = {});
  MLOperand linear(const MLOperand& input, const MLLinearOptions& options = {});
  MLOperand prelu(const MLOperand& input, const MLOperand& slope, const MLOperatorOptions& options = {});
  MLOperand softplus(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand softsign(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand clamp(const MLOperand& input, const MLClampOptions& options = {});
  MLOperand cast(const MLOperand& input, DataType data_type, const MLOperatorOptions& options = {});
  MLOperand equal(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand not_equal(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand greater(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand greater_or_equal(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand lesser(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand lesser_or_equal(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand logical_not(const MLOperand& a, const MLOperatorOptions& options = {});
  MLOperand logical_and(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand logical_or(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand logical_xor(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand is_nan(const MLOperand& a, const MLOperatorOptions& options = {});
  MLOperand is_infinite(const MLOperand& a, const MLOperatorOptions& options = {});
  MLOperand where(const MLOperand& condition, const MLOperand& true_value, const MLOperand& false_value,
                  const MLOperatorOptions& options = {});
  MLOperand conv2d(const MLOperand& input, const MLOperand& filter, const MLConv2dOptions& options = {});
  MLOperand conv_transpose2d(const MLOperand& input, const MLOperand& filter,
                             const MLConvTranspose2dOptions& options = {});
  MLOperand average_pool2d(const MLOperand& input, const MLPool2dOptions& options = {});
  MLOperand l2_pool2d(const MLOperand& input, const MLPool2dOptions& options = {});
  MLOperand max_pool2d(const MLOperand& input, const MLPool2dOptions& options = {});
  MLOperand resample2d(const MLOperand& input, const MLResample2dOptions& options = {});
  MLOperand matmul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand gemm(const MLOperand& a, const MLOperand& b, const MLGemmOptions& options = {});
  MLOperand batch_normalization(const MLOperand& input, const MLOperand& mean, const MLOperand& variance,
                                const MLBatchNormalizationOptions& options = {});
  MLOperand instance_normalization(const MLOperand& input, const MLInstanceNormalizationOptions& options = {});
  MLOperand layer_normalization(const MLOperand& input, const MLLayerNormalizationOptions& options = {});
  MLOperand softmax(const MLOperand& input, uint32_t axis, const MLOperatorOptions& options = {});
  MLOperand reduce_l1(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduce_l2(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduce_log_sum(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduce_log_sum_exp(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduce_max(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduce_mean(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduce_min(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduce_product(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduce_sum(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduce_sum_square(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand arg_max(const MLOperand& input, uint32_t axis, const MLArgMinMaxOptions& options = {});
  MLOperand arg_min(const MLOperand& input, uint32_t axis, const MLArgMinMaxOptions& options = {});
  MLOperand cumulative_sum(const MLOperand& input, uint32_t axis, const MLCumulativeSumOptions& options = {});
  MLOperand reshape(const MLOperand& input, const std::vector<uint32_t>& new_shape,
                    const MLOperatorOptions& options = {});
  MLOperand transpose(const MLOperand& input, const MLTransposeOptions& options = {});
  MLOperand concat(const std::vector<MLOperand>& inputs, uint32_t axis, const MLOperatorOptions& options = {});
  std::vector<MLOperand> split(const MLOperand& input, uint32_t splits, const MLSplitOptions& options = {});
  std::vector<MLOperand> split(const MLOperand& input, const std::vector<uint32_t>& splits,
                               const MLSplitOptions& options = {});
  MLOperand slice(const MLOperand& input, const std::vector<uint32_t>& starts, const std::vector<uint32_t>& sizes,
                  const MLSliceOptions& options = {});
  MLOperand expand(const MLOperand& input, const std::vector<uint32_t>& new_shape,
                   const MLOperatorOptions& options = {});
  MLOperand pad(const MLOperand& input, const std::vector<uint32_t>& beginning_padding,
                const std::vector<uint32_t>& ending_padding, const MLPadOptions& options = {});
  MLOperand reverse(const MLOperand& input, const MLReverseOptions& options = {});
  MLOperand tile(const MLOperand& input, const std::vector<uint32_t>& repetitions,
                 const MLOperatorOptions& options = {});
  MLOperand triangular(const MLOperand& input, const MLTriangularOptions& options = {});
  MLOperand gather(const MLOperand& input, const MLOperand& indices, const MLGatherOptions& options = {});
  MLOperand gather_elements(const MLOperand& input, const MLOperand& indices, const MLGatherOptions& options = {});
  MLOperand gather_nd(const MLOperand& input, const MLOperand& indices, const MLOperatorOptions& options = {});
  MLOperand scatter_elements(const MLOperand& input, const MLOperand& indices, const MLOperand& updates,
                             const MLScatterOptions& options = {});
  MLOperand scatter_nd(const MLOperand& input, const MLOperand& indices, const MLOperand& updates,
                       const MLOperatorOptions& options = {});
  std::vector<MLOperand> gru(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrent_weight,
                             uint32_t steps, uint32_t hidden_size, const MLGruOptions& options = {});
  MLOperand gru_cell(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrent_weight,
                     const MLOperand& hidden_state, uint32_t hidden_size, const MLGruCellOptions& options = {});
  std::vector<MLOperand> lstm(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrent_weight,
                              uint32_t steps, uint32_t hidden_size, const MLLstmOptions& options = {});
  std::vector<MLOperand> lstm_cell(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrent_weight,
                                   const MLOperand& hidden_state, const MLOperand& cell_state, uint32_t hidden_size,
                                   const MLLstmCellOptions& options = {});
  MLOperand quantize_linear(const MLOperand& input, const MLOperand& scale, const MLOperand& zero_point,
                            const MLOperatorOptions& options = {});
  MLOperand dequantize_linear(const MLOperand& input, const MLOperand& scale, const MLOperand& zero_point,
                              const MLOperatorOptions& options = {});
  // ---- END GENERATED methods ----

  // The operand numbered `id` (MLOperand::id) of this builder; TypeError when it has none.
  MLOperand operand(uint32_t id) const;
  // Whether `operand` is one of this builder's.
  bool owns(const MLOperand& operand) const;
  // spec: #mlgraphbuilder-can-build. Throws InvalidStateError naming `method` once the builder has
  // built or its context is lost (for a binding that converts its arguments first).
  void check_can_build(const std::string& method) const;
  // Adds operator `op` (MLOperatorInfo::name) as its method would: `operands` in the spec's order,
  // a sequence<MLOperand> flattened in its place; `arguments` holds every required parameter and
  // the options given; `label` is the options' label. The same checks, in the same order, and the
  // same errors as the method's.
  std::vector<MLOperand> add_operation(const std::string& op, const std::vector<MLOperand>& operands,
                                       const MLArguments& arguments, const std::string& label = {});

 private:
  friend struct detail::HandleAccess;
  std::shared_ptr<detail::BuilderImpl> impl_;
};

}  // namespace webnn
