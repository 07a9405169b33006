/* webnn-cpp C ABI: the W3C WebNN API for embedders (browsers, engines, any language with a C FFI).
 *
 * C99 and C++; nothing of C++ crosses this boundary. Implemented in src/capi/ over the C++ API
 * (webnn/webnn.hpp) and exported from libwebnn.so. docs/c-api.md has the table from each spec
 * method to its C function.
 *
 * Conventions
 * - Every function returns a WebnnStatus (WEBNN_STATUS_SUCCESS is 0; the others are the spec's
 *   error kinds) and writes its results through out-parameters placed last. On failure an
 *   out-parameter handle is set to NULL (when the out pointer itself is not NULL) and
 *   webnn_last_error_message() gives the calling thread's message: "<function>: <argument or
 *   rule>: ...", the text of the C++ API's error for the failures it detects. Exceptions to the
 *   status rule: webnn_api_version(), webnn_last_error_message(), the *_options_init() functions
 *   and webnn_status_name(), which cannot fail.
 * - Handles are opaque. Each object carries a kind tag: passing a handle of another kind (a graph
 *   where a context is expected) is detected and answered with WEBNN_STATUS_TYPE_ERROR.
 * - Bad input is detected where a C ABI can: NULL pointers, wrong handle kinds, operands of another
 *   builder, tensors or graphs of another context, counts and byte lengths that disagree with a
 *   descriptor, destroyed objects. Using a handle after its *_release() is the caller's bug and
 *   undefined behaviour, as in every C ABI of the field.
 *
 * Lifetimes (spec semantics)
 * - webnn_context_destroy, webnn_graph_destroy, webnn_tensor_destroy do what the spec's destroy()
 *   does: pending reads are rejected with WEBNN_STATUS_INVALID_STATE_ERROR, queued work is dropped
 *   (context) and the object is unusable after (calls on it fail with a status); the handle stays
 *   valid until it is released.
 * - webnn_context_release, webnn_graph_builder_release, webnn_graph_release, webnn_tensor_release
 *   only drop the caller's handle and free it: work already queued still completes, and every
 *   other handle stays usable (a graph, tensor or builder keeps its context alive internally).
 * - Operands belong to their builder, have no release and stay valid until the builder is
 *   released. Any handle may outlive any other; releasing in any order is fine.
 * - Buffers: input buffers (constant data, write data, names, shapes, option arrays) are copied
 *   before the call returns; the caller keeps ownership. Output buffers of a read are the
 *   caller's, written until the read completes (blocking read: before it returns; async read:
 *   before its callback is called, never after). Strings returned by the library (names, messages)
 *   are owned by the object they describe (or the thread, for the last error) and valid until
 *   that object is released (or the thread's next failing call).
 *
 * Threading
 * - Every function may be called from any thread. Calls on one builder are serialised; calls on
 *   one context are ordered on the context timeline in call order, as the C++ API orders them.
 * - A read callback runs exactly once: on the context's timeline worker when the read completes,
 *   on the thread that calls webnn_tensor_destroy / webnn_context_destroy when that rejects a
 *   pending read (before that call returns), or on the thread that calls
 *   webnn_context_read_tensor_async, before it returns, when the context's timeline has nothing
 *   left to run (the read then completes at once: do not hold a lock there that the callback
 *   takes). Inside a callback any function may be called except
 *   a blocking webnn_context_read_tensor on the same context, which fails with
 *   WEBNN_STATUS_INVALID_STATE_ERROR instead of deadlocking the timeline; release and destroy are
 *   allowed (destroy from inside a callback does not wait for the worker it runs on).
 *
 * Options structs and ABI evolution
 * - Options structs are the spec's dictionaries (MLConv2dOptions -> WebnnConv2dOptions). Each
 *   begins with `size_t struct_size`, set by its init function to sizeof the struct the caller
 *   was compiled with. The library reads only the first struct_size bytes and uses the spec's
 *   defaults for members past them, so a binary built against an older header (a smaller struct)
 *   keeps working when members are appended; a struct_size larger than the library's struct (a
 *   newer header than the library) is rejected with WEBNN_STATUS_NOT_SUPPORTED_ERROR.
 *   WebnnContextOptions and WebnnTensorDescriptor follow the same rule.
 * - A NULL options pointer means every default. An absent sequence is a NULL pointer (count 0);
 *   an empty one a non-NULL pointer with count 0 (reduce's axes: NULL = all axes, empty = none).
 *   An optional operand is a NULL operand.
 * - WEBNN_API_VERSION is the header's version; webnn_api_version() the library's. Same major:
 *   compatible.
 */
#ifndef WEBNN_WEBNN_H_
#define WEBNN_WEBNN_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "webnn/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* (major << 16) | (minor << 8) | patch */
#define WEBNN_API_VERSION_MAJOR 1
#define WEBNN_API_VERSION_MINOR 0
#define WEBNN_API_VERSION_PATCH 0
#define WEBNN_API_VERSION ((WEBNN_API_VERSION_MAJOR << 16) | (WEBNN_API_VERSION_MINOR << 8) | WEBNN_API_VERSION_PATCH)
WEBNN_EXPORT uint32_t webnn_api_version(void);

/* ---- Status and errors ---- */

typedef enum WebnnStatus {
  WEBNN_STATUS_SUCCESS = 0,
  WEBNN_STATUS_TYPE_ERROR = 1,
  WEBNN_STATUS_DATA_ERROR = 2,
  WEBNN_STATUS_OPERATION_ERROR = 3,
  WEBNN_STATUS_NOT_SUPPORTED_ERROR = 4,
  WEBNN_STATUS_INVALID_STATE_ERROR = 5,
  WEBNN_STATUS_ABORT_ERROR = 6,
  WEBNN_STATUS_UNKNOWN_ERROR = 7
} WebnnStatus;

/* The calling thread's last failure message ("" before any failure); valid until the thread's
 * next failing call. Successful calls leave it unchanged. */
WEBNN_EXPORT const char* webnn_last_error_message(void);
/* "TypeError", "DataError", ... ("Success" for 0); a static string. */
WEBNN_EXPORT const char* webnn_status_name(WebnnStatus status);

/* ---- Handles ---- */

typedef struct WebnnContext WebnnContext;
typedef struct WebnnGraphBuilder WebnnGraphBuilder;
typedef struct WebnnOperand WebnnOperand;
typedef struct WebnnGraph WebnnGraph;
typedef struct WebnnTensor WebnnTensor;

/* ---- Values ---- */

/* spec MLOperandDataType */
typedef enum WebnnDataType {
  WEBNN_DATA_TYPE_FLOAT32 = 0,
  WEBNN_DATA_TYPE_FLOAT16 = 1,
  WEBNN_DATA_TYPE_INT32 = 2,
  WEBNN_DATA_TYPE_UINT32 = 3,
  WEBNN_DATA_TYPE_INT64 = 4,
  WEBNN_DATA_TYPE_UINT64 = 5,
  WEBNN_DATA_TYPE_INT8 = 6,
  WEBNN_DATA_TYPE_UINT8 = 7
} WebnnDataType;

/* spec MLOperandDescriptor. `shape` points at `rank` dimensions (NULL allowed when rank is 0). */
typedef struct WebnnOperandDescriptor {
  WebnnDataType data_type;
  const uint32_t* shape;
  size_t rank;
} WebnnOperandDescriptor;

/* spec MLTensorDescriptor (an MLOperandDescriptor plus usage flags). */
typedef struct WebnnTensorDescriptor {
  WebnnDataType data_type;
  const uint32_t* shape;
  size_t rank;
  bool readable;
  bool writable;
} WebnnTensorDescriptor;

/* spec MLNumber: a double or an exact 64-bit integer, by `kind`. */
typedef enum WebnnNumberKind { WEBNN_NUMBER_DOUBLE = 0, WEBNN_NUMBER_INT64 = 1, WEBNN_NUMBER_UINT64 = 2 } WebnnNumberKind;
typedef struct WebnnNumber {
  WebnnNumberKind kind;
  double f64;   /* kind WEBNN_NUMBER_DOUBLE */
  int64_t i64;  /* kind WEBNN_NUMBER_INT64 */
  uint64_t u64; /* kind WEBNN_NUMBER_UINT64 */
} WebnnNumber;
static inline WebnnNumber webnn_number_double(double v) {
  WebnnNumber n = {WEBNN_NUMBER_DOUBLE, 0, 0, 0};
  n.f64 = v;
  return n;
}
static inline WebnnNumber webnn_number_int64(int64_t v) {
  WebnnNumber n = {WEBNN_NUMBER_INT64, 0, 0, 0};
  n.i64 = v;
  return n;
}
static inline WebnnNumber webnn_number_uint64(uint64_t v) {
  WebnnNumber n = {WEBNN_NUMBER_UINT64, 0, 0, 0};
  n.u64 = v;
  return n;
}

/* split()'s `splits` (spec: unsigned long or sequence<unsigned long>). sizes == NULL: `count`
 * equal parts (the spec's number); sizes != NULL: the list of `count` part sizes. So
 * webnn_splits_count(3) is 3 and webnn_splits_list(a, 1) with a = {3} is [3]. */
typedef struct WebnnSplits {
  const uint32_t* sizes;
  size_t count;
} WebnnSplits;
static inline WebnnSplits webnn_splits_count(uint32_t count) {
  WebnnSplits s = {NULL, 0};
  s.count = count;
  return s;
}
static inline WebnnSplits webnn_splits_list(const uint32_t* sizes, size_t count) {
  WebnnSplits s = {NULL, 0};
  s.sizes = sizes;
  s.count = count;
  return s;
}

typedef struct WebnnNamedOperand {
  const char* name;
  WebnnOperand* operand;
} WebnnNamedOperand;

typedef struct WebnnNamedTensor {
  const char* name;
  WebnnTensor* tensor;
} WebnnNamedTensor;

/* ---- ML and MLContext ---- */

/* spec MLPowerPreference */
typedef enum WebnnPowerPreference {
  WEBNN_POWER_PREFERENCE_DEFAULT = 0,
  WEBNN_POWER_PREFERENCE_HIGH_PERFORMANCE = 1,
  WEBNN_POWER_PREFERENCE_LOW_POWER = 2
} WebnnPowerPreference;

/* Called once when the context is lost (destroyed), on the thread that loses it, with the
 * reason; `message` is valid during the call only. */
typedef void (*WebnnContextLostCallback)(const char* message, void* userdata);

/* spec MLContextOptions plus the backend choice and thread count. */
typedef struct WebnnContextOptions {
  size_t struct_size;
  WebnnPowerPreference power_preference; /* default WEBNN_POWER_PREFERENCE_DEFAULT */
  bool accelerated;                      /* default true */
  const char* backend;                   /* NULL or "": the best available; "reference", "onednn" */
  int32_t num_threads;                   /* 0: the backend's default; at most 256 (TypeError) */
  WebnnContextLostCallback lost_callback; /* NULL: none */
  void* lost_userdata;
  /* Added in 0.1 with the service; older callers' smaller struct_size leaves them at their defaults. */
  const char* remote; /* NULL or "": in this process; "unix:PATH": the WebNN service there (webnn serve) */
  const void* token;  /* the service's token, token_size bytes (NULL: none) */
  size_t token_size;
} WebnnContextOptions;
WEBNN_EXPORT void webnn_context_options_init(WebnnContextOptions* options);

/* spec ML.createContext(). options NULL: defaults. */
WEBNN_EXPORT WebnnStatus webnn_context_create(const WebnnContextOptions* options, WebnnContext** out);
/* spec MLContext.destroy(): rejects pending reads (their callbacks are called before this
 * returns), drops queued work, calls the lost callback. The handle stays valid until released. */
WEBNN_EXPORT WebnnStatus webnn_context_destroy(WebnnContext* context);
/* Drops the handle (queued work still completes). NULL is a no-op. */
WEBNN_EXPORT WebnnStatus webnn_context_release(WebnnContext* context);
/* spec MLContext.lost: *out_lost is true once the context is lost. */
WEBNN_EXPORT WebnnStatus webnn_context_is_lost(WebnnContext* context, bool* out_lost);
/* spec MLContext.accelerated */
WEBNN_EXPORT WebnnStatus webnn_context_accelerated(WebnnContext* context, bool* out_accelerated);
/* The backend's name ("reference", "onednn"); owned by the context. */
WEBNN_EXPORT WebnnStatus webnn_context_backend_name(WebnnContext* context, const char** out_name);

/* spec MLTensorLimits: `data_types` is a bit set (bit i: WebnnDataType i). */
typedef struct WebnnTensorLimits {
  uint32_t data_types;
  uint32_t rank_min;
  uint32_t rank_max;
} WebnnTensorLimits;
/* spec MLOpSupportLimits, the context-wide members. */
typedef struct WebnnOpSupportLimits {
  size_t struct_size;
  const char* preferred_input_layout; /* "nchw" or "nhwc"; owned by the context */
  uint64_t max_tensor_byte_length;
  WebnnTensorLimits input;
  WebnnTensorLimits constant;
  WebnnTensorLimits output;
} WebnnOpSupportLimits;
/* spec MLContext.opSupportLimits(). Set out->struct_size = sizeof(*out) first. */
WEBNN_EXPORT WebnnStatus webnn_context_op_support_limits(WebnnContext* context, WebnnOpSupportLimits* out);
/* The per-operand member: op is the spec's method name ("conv2d"), operand the spec's operand
 * name ("filter", "output"). NOT_SUPPORTED_ERROR when the pair is unknown. */
WEBNN_EXPORT WebnnStatus webnn_context_op_support_limits_for(WebnnContext* context, const char* op,
                                                             const char* operand, WebnnTensorLimits* out);

/* ---- MLGraphBuilder ---- */

WEBNN_EXPORT WebnnStatus webnn_graph_builder_create(WebnnContext* context, WebnnGraphBuilder** out);
/* Frees the builder and its operands. NULL is a no-op. */
WEBNN_EXPORT WebnnStatus webnn_graph_builder_release(WebnnGraphBuilder* builder);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_input(WebnnGraphBuilder* builder, const char* name,
                                                   const WebnnOperandDescriptor* descriptor, WebnnOperand** out);
/* Copies `byte_length` bytes, which must equal the descriptor's byte length. */
WEBNN_EXPORT WebnnStatus webnn_graph_builder_constant(WebnnGraphBuilder* builder,
                                                      const WebnnOperandDescriptor* descriptor, const void* data,
                                                      size_t byte_length, WebnnOperand** out);
/* spec constant(type, value): a scalar. */
WEBNN_EXPORT WebnnStatus webnn_graph_builder_constant_scalar(WebnnGraphBuilder* builder, WebnnDataType data_type,
                                                             WebnnNumber value, WebnnOperand** out);
/* spec constant(tensor): a constant tensor made by webnn_context_create_constant_tensor. */
WEBNN_EXPORT WebnnStatus webnn_graph_builder_constant_tensor(WebnnGraphBuilder* builder, WebnnTensor* tensor,
                                                             WebnnOperand** out);
/* spec build(). A builder builds once. */
WEBNN_EXPORT WebnnStatus webnn_graph_builder_build(WebnnGraphBuilder* builder, const WebnnNamedOperand* outputs,
                                                   size_t count, WebnnGraph** out);

/* spec MLOperand.dataType and .shape. webnn_operand_shape writes min(rank, capacity) dimensions
 * to `shape` (NULL allowed when capacity is 0) and the rank to *out_rank. */
WEBNN_EXPORT WebnnStatus webnn_operand_data_type(WebnnOperand* operand, WebnnDataType* out);
WEBNN_EXPORT WebnnStatus webnn_operand_shape(WebnnOperand* operand, uint32_t* shape, size_t capacity,
                                             size_t* out_rank);

/* ---- MLGraph ---- */

/* A graph file (webnn-graph JSON, or .webnn text with its weights, or an ONNX model: docs/onnx.md)
 * built on `context`. */
WEBNN_EXPORT WebnnStatus webnn_context_load_graph(WebnnContext* context, const char* path, WebnnGraph** out);
WEBNN_EXPORT WebnnStatus webnn_graph_destroy(WebnnGraph* graph);
WEBNN_EXPORT WebnnStatus webnn_graph_release(WebnnGraph* graph);
/* Introspection: inputs and outputs in name order. The name and the descriptor's shape are owned
 * by the graph handle. */
WEBNN_EXPORT WebnnStatus webnn_graph_input_count(WebnnGraph* graph, size_t* out);
WEBNN_EXPORT WebnnStatus webnn_graph_input(WebnnGraph* graph, size_t index, const char** out_name,
                                           WebnnOperandDescriptor* out_descriptor);
/* An input's default value (an ONNX model's initializer of that input's name; docs/onnx.md): the
 * bytes of its descriptor, owned by the graph handle, or *out_data NULL and *out_byte_length 0 when
 * the input has none. Dispatch still needs every input: write the default into the input's tensor
 * to use it. */
WEBNN_EXPORT WebnnStatus webnn_graph_input_default(WebnnGraph* graph, size_t index, const void** out_data,
                                                   size_t* out_byte_length);
WEBNN_EXPORT WebnnStatus webnn_graph_output_count(WebnnGraph* graph, size_t* out);
WEBNN_EXPORT WebnnStatus webnn_graph_output(WebnnGraph* graph, size_t index, const char** out_name,
                                            WebnnOperandDescriptor* out_descriptor);

/* ---- MLTensor and the context timeline ---- */

WEBNN_EXPORT WebnnStatus webnn_context_create_tensor(WebnnContext* context, const WebnnTensorDescriptor* descriptor,
                                                     WebnnTensor** out);
/* spec createConstantTensor(): copies `byte_length` bytes (must equal the descriptor's). */
WEBNN_EXPORT WebnnStatus webnn_context_create_constant_tensor(WebnnContext* context,
                                                              const WebnnOperandDescriptor* descriptor,
                                                              const void* data, size_t byte_length,
                                                              WebnnTensor** out);
WEBNN_EXPORT WebnnStatus webnn_tensor_destroy(WebnnTensor* tensor);
WEBNN_EXPORT WebnnStatus webnn_tensor_release(WebnnTensor* tensor);
/* The tensor's descriptor; its shape is owned by the tensor handle. */
WEBNN_EXPORT WebnnStatus webnn_tensor_descriptor(WebnnTensor* tensor, WebnnTensorDescriptor* out);

/* spec writeTensor(): the bytes are copied before it returns. */
WEBNN_EXPORT WebnnStatus webnn_context_write_tensor(WebnnContext* context, WebnnTensor* tensor, const void* data,
                                                    size_t byte_length);
/* spec dispatch(): returns at once; the compute runs on the context timeline. */
WEBNN_EXPORT WebnnStatus webnn_context_dispatch(WebnnContext* context, WebnnGraph* graph,
                                                const WebnnNamedTensor* inputs, size_t input_count,
                                                const WebnnNamedTensor* outputs, size_t output_count);
/* spec readTensor(tensor, output): waits for the read and writes `byte_length` bytes to `out`. */
WEBNN_EXPORT WebnnStatus webnn_context_read_tensor(WebnnContext* context, WebnnTensor* tensor, void* out,
                                                   size_t byte_length);
/* Called exactly once per read started with WEBNN_STATUS_SUCCESS; `message` ("" on success) is
 * valid during the call only. */
typedef void (*WebnnReadCallback)(WebnnStatus status, const char* message, void* userdata);
/* spec readTensor() without waiting. A non-success return means nothing was started and the
 * callback will not be called; on success it is called exactly once (see Threading), and `out`
 * must stay valid until then. */
WEBNN_EXPORT WebnnStatus webnn_context_read_tensor_async(WebnnContext* context, WebnnTensor* tensor, void* out,
                                                         size_t byte_length, WebnnReadCallback callback,
                                                         void* userdata);

/* ---- Operators ---- */

/* clang-format off */
/* ---- BEGIN GENERATED by scripts/gen_api.py from the op table; do not edit ---- */
/* The spec's enums (values in the spec's order). */
typedef enum WebnnInputLayout {
  WEBNN_INPUT_LAYOUT_NCHW = 0, /* "nchw" */
  WEBNN_INPUT_LAYOUT_NHWC = 1, /* "nhwc" */
} WebnnInputLayout;

typedef enum WebnnConv2dFilterLayout {
  WEBNN_CONV2D_FILTER_LAYOUT_OIHW = 0, /* "oihw" */
  WEBNN_CONV2D_FILTER_LAYOUT_HWIO = 1, /* "hwio" */
  WEBNN_CONV2D_FILTER_LAYOUT_OHWI = 2, /* "ohwi" */
  WEBNN_CONV2D_FILTER_LAYOUT_IHWO = 3, /* "ihwo" */
} WebnnConv2dFilterLayout;

typedef enum WebnnConvTranspose2dFilterLayout {
  WEBNN_CONV_TRANSPOSE2D_FILTER_LAYOUT_IOHW = 0, /* "iohw" */
  WEBNN_CONV_TRANSPOSE2D_FILTER_LAYOUT_HWOI = 1, /* "hwoi" */
  WEBNN_CONV_TRANSPOSE2D_FILTER_LAYOUT_OHWI = 2, /* "ohwi" */
} WebnnConvTranspose2dFilterLayout;

typedef enum WebnnRoundingType {
  WEBNN_ROUNDING_TYPE_FLOOR = 0, /* "floor" */
  WEBNN_ROUNDING_TYPE_CEIL = 1, /* "ceil" */
} WebnnRoundingType;

typedef enum WebnnInterpolationMode {
  WEBNN_INTERPOLATION_MODE_NEAREST_NEIGHBOR = 0, /* "nearest-neighbor" */
  WEBNN_INTERPOLATION_MODE_LINEAR = 1, /* "linear" */
} WebnnInterpolationMode;

typedef enum WebnnPaddingMode {
  WEBNN_PADDING_MODE_CONSTANT = 0, /* "constant" */
  WEBNN_PADDING_MODE_EDGE = 1, /* "edge" */
  WEBNN_PADDING_MODE_REFLECTION = 2, /* "reflection" */
} WebnnPaddingMode;

typedef enum WebnnRecurrentDirection {
  WEBNN_RECURRENT_DIRECTION_FORWARD = 0, /* "forward" */
  WEBNN_RECURRENT_DIRECTION_BACKWARD = 1, /* "backward" */
  WEBNN_RECURRENT_DIRECTION_BOTH = 2, /* "both" */
} WebnnRecurrentDirection;

typedef enum WebnnGruWeightLayout {
  WEBNN_GRU_WEIGHT_LAYOUT_ZRN = 0, /* "zrn" */
  WEBNN_GRU_WEIGHT_LAYOUT_RZN = 1, /* "rzn" */
} WebnnGruWeightLayout;

typedef enum WebnnRecurrentActivation {
  WEBNN_RECURRENT_ACTIVATION_RELU = 0, /* "relu" */
  WEBNN_RECURRENT_ACTIVATION_SIGMOID = 1, /* "sigmoid" */
  WEBNN_RECURRENT_ACTIVATION_TANH = 2, /* "tanh" */
} WebnnRecurrentActivation;

typedef enum WebnnLstmWeightLayout {
  WEBNN_LSTM_WEIGHT_LAYOUT_IOFG = 0, /* "iofg" */
  WEBNN_LSTM_WEIGHT_LAYOUT_IFGO = 1, /* "ifgo" */
} WebnnLstmWeightLayout;

/* Options dictionaries: spec MLXxxOptions -> WebnnXxxOptions. Initialise each with its
 * webnn_xxx_options_init() (spec defaults, struct_size = sizeof); see "Options structs and ABI evolution" at the top. */
/* spec MLOperatorOptions: add, sub, mul, div, max, min, pow, abs, ceil, cos, erf, exp, floor, identity, log, neg, reciprocal, roundEven, sin, sign, sqrt, tan, relu, sigmoid, tanh, gelu, hardSwish, prelu, softplus, softsign, cast, equal, notEqual, greater, greaterOrEqual, lesser, lesserOrEqual, logicalNot, logicalAnd, logicalOr, logicalXor, isNaN, isInfinite, where, matmul, softmax, reshape, concat, expand, tile, gatherND, scatterND, quantizeLinear, dequantizeLinear */
typedef struct WebnnOperatorOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
} WebnnOperatorOptions;
WEBNN_EXPORT void webnn_operator_options_init(WebnnOperatorOptions* options);

/* spec MLEluOptions: elu */
typedef struct WebnnEluOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  double alpha;  /* default 1.0 */
} WebnnEluOptions;
WEBNN_EXPORT void webnn_elu_options_init(WebnnEluOptions* options);

/* spec MLHardSigmoidOptions: hardSigmoid */
typedef struct WebnnHardSigmoidOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  double alpha;  /* default 0.2 */
  double beta;  /* default 0.5 */
} WebnnHardSigmoidOptions;
WEBNN_EXPORT void webnn_hard_sigmoid_options_init(WebnnHardSigmoidOptions* options);

/* spec MLLeakyReluOptions: leakyRelu */
typedef struct WebnnLeakyReluOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  double alpha;  /* default 0.01 */
} WebnnLeakyReluOptions;
WEBNN_EXPORT void webnn_leaky_relu_options_init(WebnnLeakyReluOptions* options);

/* spec MLLinearOptions: linear */
typedef struct WebnnLinearOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  double alpha;  /* default 1.0 */
  double beta;  /* default 0.0 */
} WebnnLinearOptions;
WEBNN_EXPORT void webnn_linear_options_init(WebnnLinearOptions* options);

/* spec MLClampOptions: clamp */
typedef struct WebnnClampOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnNumber min_value;  /* default -inf */
  WebnnNumber max_value;  /* default inf */
} WebnnClampOptions;
WEBNN_EXPORT void webnn_clamp_options_init(WebnnClampOptions* options);

/* spec MLConv2dOptions: conv2d */
typedef struct WebnnConv2dOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  const uint32_t* padding;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t padding_count;
  const uint32_t* strides;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t strides_count;
  const uint32_t* dilations;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t dilations_count;
  uint32_t groups;  /* default 1 */
  WebnnInputLayout input_layout;  /* default nchw */
  WebnnConv2dFilterLayout filter_layout;  /* default oihw */
  WebnnOperand* bias;  /* NULL: absent */
} WebnnConv2dOptions;
WEBNN_EXPORT void webnn_conv2d_options_init(WebnnConv2dOptions* options);

/* spec MLConvTranspose2dOptions: convTranspose2d */
typedef struct WebnnConvTranspose2dOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  const uint32_t* padding;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t padding_count;
  const uint32_t* strides;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t strides_count;
  const uint32_t* dilations;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t dilations_count;
  const uint32_t* output_padding;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t output_padding_count;
  const uint32_t* output_sizes;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t output_sizes_count;
  uint32_t groups;  /* default 1 */
  WebnnInputLayout input_layout;  /* default nchw */
  WebnnConvTranspose2dFilterLayout filter_layout;  /* default iohw */
  WebnnOperand* bias;  /* NULL: absent */
} WebnnConvTranspose2dOptions;
WEBNN_EXPORT void webnn_conv_transpose2d_options_init(WebnnConvTranspose2dOptions* options);

/* spec MLPool2dOptions: averagePool2d, l2Pool2d, maxPool2d */
typedef struct WebnnPool2dOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  const uint32_t* window_dimensions;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t window_dimensions_count;
  const uint32_t* padding;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t padding_count;
  const uint32_t* strides;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t strides_count;
  const uint32_t* dilations;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t dilations_count;
  WebnnInputLayout layout;  /* default nchw */
  WebnnRoundingType output_shape_rounding;  /* default floor */
  const uint32_t* output_sizes;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t output_sizes_count;
} WebnnPool2dOptions;
WEBNN_EXPORT void webnn_pool2d_options_init(WebnnPool2dOptions* options);

/* spec MLResample2dOptions: resample2d */
typedef struct WebnnResample2dOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnInterpolationMode mode;  /* default nearest-neighbor */
  const float* scales;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t scales_count;
  const uint32_t* sizes;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t sizes_count;
  const uint32_t* axes;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t axes_count;
} WebnnResample2dOptions;
WEBNN_EXPORT void webnn_resample2d_options_init(WebnnResample2dOptions* options);

/* spec MLGemmOptions: gemm */
typedef struct WebnnGemmOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnOperand* c;  /* NULL: absent */
  double alpha;  /* default 1.0 */
  double beta;  /* default 1.0 */
  bool a_transpose;  /* default false */
  bool b_transpose;  /* default false */
} WebnnGemmOptions;
WEBNN_EXPORT void webnn_gemm_options_init(WebnnGemmOptions* options);

/* spec MLBatchNormalizationOptions: batchNormalization */
typedef struct WebnnBatchNormalizationOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnOperand* scale;  /* NULL: absent */
  WebnnOperand* bias;  /* NULL: absent */
  uint32_t axis;  /* default 1 */
  double epsilon;  /* default 1e-05 */
} WebnnBatchNormalizationOptions;
WEBNN_EXPORT void webnn_batch_normalization_options_init(WebnnBatchNormalizationOptions* options);

/* spec MLInstanceNormalizationOptions: instanceNormalization */
typedef struct WebnnInstanceNormalizationOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnOperand* scale;  /* NULL: absent */
  WebnnOperand* bias;  /* NULL: absent */
  double epsilon;  /* default 1e-05 */
  WebnnInputLayout layout;  /* default nchw */
} WebnnInstanceNormalizationOptions;
WEBNN_EXPORT void webnn_instance_normalization_options_init(WebnnInstanceNormalizationOptions* options);

/* spec MLLayerNormalizationOptions: layerNormalization */
typedef struct WebnnLayerNormalizationOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnOperand* scale;  /* NULL: absent */
  WebnnOperand* bias;  /* NULL: absent */
  const uint32_t* axes;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t axes_count;
  double epsilon;  /* default 1e-05 */
} WebnnLayerNormalizationOptions;
WEBNN_EXPORT void webnn_layer_normalization_options_init(WebnnLayerNormalizationOptions* options);

/* spec MLReduceOptions: reduceL1, reduceL2, reduceLogSum, reduceLogSumExp, reduceMax, reduceMean, reduceMin, reduceProduct, reduceSum, reduceSumSquare */
typedef struct WebnnReduceOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  const uint32_t* axes;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t axes_count;
  bool keep_dimensions;  /* default false */
} WebnnReduceOptions;
WEBNN_EXPORT void webnn_reduce_options_init(WebnnReduceOptions* options);

/* spec MLArgMinMaxOptions: argMax, argMin */
typedef struct WebnnArgMinMaxOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  bool keep_dimensions;  /* default false */
  WebnnDataType output_data_type;  /* default int32 */
} WebnnArgMinMaxOptions;
WEBNN_EXPORT void webnn_arg_min_max_options_init(WebnnArgMinMaxOptions* options);

/* spec MLCumulativeSumOptions: cumulativeSum */
typedef struct WebnnCumulativeSumOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  bool exclusive;  /* default false */
  bool reversed;  /* default false */
} WebnnCumulativeSumOptions;
WEBNN_EXPORT void webnn_cumulative_sum_options_init(WebnnCumulativeSumOptions* options);

/* spec MLTransposeOptions: transpose */
typedef struct WebnnTransposeOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  const uint32_t* permutation;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t permutation_count;
} WebnnTransposeOptions;
WEBNN_EXPORT void webnn_transpose_options_init(WebnnTransposeOptions* options);

/* spec MLSplitOptions: split */
typedef struct WebnnSplitOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  uint32_t axis;  /* default 0 */
} WebnnSplitOptions;
WEBNN_EXPORT void webnn_split_options_init(WebnnSplitOptions* options);

/* spec MLSliceOptions: slice */
typedef struct WebnnSliceOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  const uint32_t* strides;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t strides_count;
} WebnnSliceOptions;
WEBNN_EXPORT void webnn_slice_options_init(WebnnSliceOptions* options);

/* spec MLPadOptions: pad */
typedef struct WebnnPadOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnPaddingMode mode;  /* default constant */
  WebnnNumber value;  /* default 0 */
} WebnnPadOptions;
WEBNN_EXPORT void webnn_pad_options_init(WebnnPadOptions* options);

/* spec MLReverseOptions: reverse */
typedef struct WebnnReverseOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  const uint32_t* axes;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t axes_count;
} WebnnReverseOptions;
WEBNN_EXPORT void webnn_reverse_options_init(WebnnReverseOptions* options);

/* spec MLTriangularOptions: triangular */
typedef struct WebnnTriangularOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  bool upper;  /* default true */
  int32_t diagonal;  /* default 0 */
} WebnnTriangularOptions;
WEBNN_EXPORT void webnn_triangular_options_init(WebnnTriangularOptions* options);

/* spec MLGatherOptions: gather, gatherElements */
typedef struct WebnnGatherOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  uint32_t axis;  /* default 0 */
} WebnnGatherOptions;
WEBNN_EXPORT void webnn_gather_options_init(WebnnGatherOptions* options);

/* spec MLScatterOptions: scatterElements */
typedef struct WebnnScatterOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  uint32_t axis;  /* default 0 */
} WebnnScatterOptions;
WEBNN_EXPORT void webnn_scatter_options_init(WebnnScatterOptions* options);

/* spec MLGruOptions: gru */
typedef struct WebnnGruOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnOperand* bias;  /* NULL: absent */
  WebnnOperand* recurrent_bias;  /* NULL: absent */
  WebnnOperand* initial_hidden_state;  /* NULL: absent */
  bool reset_after;  /* default true */
  bool return_sequence;  /* default false */
  WebnnRecurrentDirection direction;  /* default forward */
  WebnnGruWeightLayout layout;  /* default zrn */
  const WebnnRecurrentActivation* activations;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t activations_count;
} WebnnGruOptions;
WEBNN_EXPORT void webnn_gru_options_init(WebnnGruOptions* options);

/* spec MLGruCellOptions: gruCell */
typedef struct WebnnGruCellOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnOperand* bias;  /* NULL: absent */
  WebnnOperand* recurrent_bias;  /* NULL: absent */
  bool reset_after;  /* default true */
  WebnnGruWeightLayout layout;  /* default zrn */
  const WebnnRecurrentActivation* activations;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t activations_count;
} WebnnGruCellOptions;
WEBNN_EXPORT void webnn_gru_cell_options_init(WebnnGruCellOptions* options);

/* spec MLLstmOptions: lstm */
typedef struct WebnnLstmOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnOperand* bias;  /* NULL: absent */
  WebnnOperand* recurrent_bias;  /* NULL: absent */
  WebnnOperand* peephole_weight;  /* NULL: absent */
  WebnnOperand* initial_hidden_state;  /* NULL: absent */
  WebnnOperand* initial_cell_state;  /* NULL: absent */
  bool return_sequence;  /* default false */
  WebnnRecurrentDirection direction;  /* default forward */
  WebnnLstmWeightLayout layout;  /* default iofg */
  const WebnnRecurrentActivation* activations;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t activations_count;
} WebnnLstmOptions;
WEBNN_EXPORT void webnn_lstm_options_init(WebnnLstmOptions* options);

/* spec MLLstmCellOptions: lstmCell */
typedef struct WebnnLstmCellOptions {
  size_t struct_size; /* sizeof(the struct the caller was built with) */
  const char* label;  /* MLOperatorOptions.label; NULL: "" */
  WebnnOperand* bias;  /* NULL: absent */
  WebnnOperand* recurrent_bias;  /* NULL: absent */
  WebnnOperand* peephole_weight;  /* NULL: absent */
  WebnnLstmWeightLayout layout;  /* default iofg */
  const WebnnRecurrentActivation* activations;  /* NULL: absent (the spec's default); count 0 with a pointer: empty */
  size_t activations_count;
} WebnnLstmCellOptions;
WEBNN_EXPORT void webnn_lstm_cell_options_init(WebnnLstmCellOptions* options);

/* Operators: one function per op of the op table, the spec's operands and required
 * parameters in the spec's order, then the options (NULL: defaults), then the result.
 * Ops that return sequence<MLOperand> fill outputs[0..*output_count). */
WEBNN_EXPORT WebnnStatus webnn_graph_builder_add(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_sub(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_mul(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_div(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_max(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_min(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_pow(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_abs(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_ceil(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_cos(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_erf(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_exp(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_floor(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_identity(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_log(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_neg(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reciprocal(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_round_even(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_sin(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_sign(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_sqrt(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_tan(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_relu(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_sigmoid(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_tanh(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_gelu(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_elu(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnEluOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_hard_sigmoid(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnHardSigmoidOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_hard_swish(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_leaky_relu(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnLeakyReluOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_linear(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnLinearOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_prelu(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* slope, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_softplus(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_softsign(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_clamp(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnClampOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_cast(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnDataType data_type, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_equal(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_not_equal(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_greater(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_greater_or_equal(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_lesser(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_lesser_or_equal(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_logical_not(WebnnGraphBuilder* builder, WebnnOperand* a, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_logical_and(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_logical_or(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_logical_xor(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_is_nan(WebnnGraphBuilder* builder, WebnnOperand* a, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_is_infinite(WebnnGraphBuilder* builder, WebnnOperand* a, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_where(WebnnGraphBuilder* builder, WebnnOperand* condition, WebnnOperand* true_value, WebnnOperand* false_value, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_conv2d(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* filter, const WebnnConv2dOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_conv_transpose2d(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* filter, const WebnnConvTranspose2dOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_average_pool2d(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnPool2dOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_l2_pool2d(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnPool2dOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_max_pool2d(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnPool2dOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_resample2d(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnResample2dOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_matmul(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_gemm(WebnnGraphBuilder* builder, WebnnOperand* a, WebnnOperand* b, const WebnnGemmOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_batch_normalization(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* mean, WebnnOperand* variance, const WebnnBatchNormalizationOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_instance_normalization(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnInstanceNormalizationOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_layer_normalization(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnLayerNormalizationOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_softmax(WebnnGraphBuilder* builder, WebnnOperand* input, uint32_t axis, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_l1(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_l2(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_log_sum(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_log_sum_exp(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_max(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_mean(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_min(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_product(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_sum(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reduce_sum_square(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReduceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_arg_max(WebnnGraphBuilder* builder, WebnnOperand* input, uint32_t axis, const WebnnArgMinMaxOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_arg_min(WebnnGraphBuilder* builder, WebnnOperand* input, uint32_t axis, const WebnnArgMinMaxOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_cumulative_sum(WebnnGraphBuilder* builder, WebnnOperand* input, uint32_t axis, const WebnnCumulativeSumOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reshape(WebnnGraphBuilder* builder, WebnnOperand* input, const uint32_t* new_shape, size_t new_shape_count, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_transpose(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnTransposeOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_concat(WebnnGraphBuilder* builder, WebnnOperand* const* inputs, size_t inputs_count, uint32_t axis, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_split(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnSplits splits, const WebnnSplitOptions* options, WebnnOperand** outputs, size_t output_capacity, size_t* output_count);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_slice(WebnnGraphBuilder* builder, WebnnOperand* input, const uint32_t* starts, size_t starts_count, const uint32_t* sizes, size_t sizes_count, const WebnnSliceOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_expand(WebnnGraphBuilder* builder, WebnnOperand* input, const uint32_t* new_shape, size_t new_shape_count, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_pad(WebnnGraphBuilder* builder, WebnnOperand* input, const uint32_t* beginning_padding, size_t beginning_padding_count, const uint32_t* ending_padding, size_t ending_padding_count, const WebnnPadOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_reverse(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnReverseOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_tile(WebnnGraphBuilder* builder, WebnnOperand* input, const uint32_t* repetitions, size_t repetitions_count, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_triangular(WebnnGraphBuilder* builder, WebnnOperand* input, const WebnnTriangularOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_gather(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* indices, const WebnnGatherOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_gather_elements(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* indices, const WebnnGatherOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_gather_nd(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* indices, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_scatter_elements(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* indices, WebnnOperand* updates, const WebnnScatterOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_scatter_nd(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* indices, WebnnOperand* updates, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_gru(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* weight, WebnnOperand* recurrent_weight, uint32_t steps, uint32_t hidden_size, const WebnnGruOptions* options, WebnnOperand** outputs, size_t output_capacity, size_t* output_count);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_gru_cell(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* weight, WebnnOperand* recurrent_weight, WebnnOperand* hidden_state, uint32_t hidden_size, const WebnnGruCellOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_lstm(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* weight, WebnnOperand* recurrent_weight, uint32_t steps, uint32_t hidden_size, const WebnnLstmOptions* options, WebnnOperand** outputs, size_t output_capacity, size_t* output_count);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_lstm_cell(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* weight, WebnnOperand* recurrent_weight, WebnnOperand* hidden_state, WebnnOperand* cell_state, uint32_t hidden_size, const WebnnLstmCellOptions* options, WebnnOperand** outputs, size_t output_capacity, size_t* output_count);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_quantize_linear(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* scale, WebnnOperand* zero_point, const WebnnOperatorOptions* options, WebnnOperand** out);
WEBNN_EXPORT WebnnStatus webnn_graph_builder_dequantize_linear(WebnnGraphBuilder* builder, WebnnOperand* input, WebnnOperand* scale, WebnnOperand* zero_point, const WebnnOperatorOptions* options, WebnnOperand** out);
/* ---- END GENERATED ---- */
/* clang-format on */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WEBNN_WEBNN_H_ */
