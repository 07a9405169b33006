// The C ABI (include/webnn/webnn.h) over the C++ API: handles, errors, contexts, builders'
// inputs and constants, graphs, tensors and the timeline calls. The operator functions are
// generated (ops.gen.inc, included by ops.cpp).
#include <algorithm>
#include <cstring>

#include "capi/capi_internal.hpp"

namespace webnn::capi {

namespace {

thread_local std::string t_last_error;
// The context whose read callback this thread is running (a blocking read of it would deadlock).
thread_local const WebnnContext* t_callback_context = nullptr;

OperandDescriptor descriptor_arg(const WebnnOperandDescriptor* d, const char* argument) {
  if (!d) fail(ErrorKind::kTypeError, argument, "is NULL");
  const std::string shape_arg = std::string(argument) + "->shape";
  if (!d->shape && d->rank != 0)
    fail(ErrorKind::kTypeError, shape_arg, "is NULL but rank is " + std::to_string(d->rank));
  if (d->rank > kMaxRank)
    fail(ErrorKind::kTypeError, std::string(argument) + "->rank",
         std::to_string(d->rank) + " exceeds the maximum rank " + std::to_string(kMaxRank));
  OperandDescriptor out;
  out.data_type = data_type_arg(d->data_type, "", (std::string(argument) + "->data_type").c_str());
  if (d->rank) out.shape.assign(d->shape, d->shape + d->rank);
  return out;
}

void check_bytes(const void* data, size_t byte_length, const OperandDescriptor& desc, const char* data_argument) {
  if (!data && byte_length != 0) fail(ErrorKind::kTypeError, data_argument, "is NULL");
  const auto n = desc.byte_length();
  if (!n || *n != byte_length)
    fail(ErrorKind::kTypeError, "byte_length",
         std::to_string(byte_length) + " disagrees with " + desc.to_string() + " (" +
             (n ? std::to_string(*n) : std::string("overflow")) + " bytes)");
}

void check_tensor_context(WebnnContext& c, WebnnTensor& t, const std::string& argument) {
  if (!t.tensor.belongs_to(c.context)) fail(ErrorKind::kTypeError, argument, "belongs to another context");
}

WebnnGraph* make_graph(MLGraph graph) {
  auto g = std::make_unique<WebnnGraph>();
  g->model = graph.model();
  std::map<std::string, std::span<const std::byte>> defaults;
  for (const ModelOperand& in : g->model.inputs()) defaults[in.name] = in.default_value;
  for (const auto& [name, desc] : graph.input_descriptors()) g->inputs.push_back({name, desc, defaults[name]});
  for (const auto& [name, desc] : graph.output_descriptors()) g->outputs.push_back({name, desc, {}});
  g->graph = std::move(graph);
  return g.release();
}

void fill_descriptor(const OperandDescriptor& d, WebnnOperandDescriptor* out) {
  out->data_type = static_cast<WebnnDataType>(d.data_type);
  out->shape = d.shape.empty() ? nullptr : d.shape.data();
  out->rank = d.shape.size();
}

WebnnTensorLimits to_c_limits(const MLTensorLimits& l) {
  WebnnTensorLimits out{0, l.rank_range.min, l.rank_range.max};
  for (DataType t : l.data_types) out.data_types |= 1u << static_cast<unsigned>(t);
  return out;
}

void call_lost_callback(WebnnContext& c, const std::string& message) {
  std::call_once(c.lost_once, [&] {
    if (c.lost_callback) c.lost_callback(message.c_str(), c.lost_userdata);
  });
}

// The completion of webnn_context_read_tensor_async: the C callback with the read's status,
// called once by MLContext::read_tensor (on the timeline worker when the read step settles it, on
// the destroying thread, or on the calling thread when the timeline had nothing left to run), with
// `context` marked as the one whose callback this thread runs.
std::function<void(std::exception_ptr)> read_callback(const WebnnContext* context, WebnnReadCallback callback,
                                                      void* userdata) {
  return [context, callback, userdata](std::exception_ptr error) {
    WebnnStatus status = WEBNN_STATUS_SUCCESS;
    std::string message;
    if (error) {
      status = WEBNN_STATUS_UNKNOWN_ERROR;
      message = "webnn_context_read_tensor_async: the read failed";
      try {
        std::rethrow_exception(error);
      } catch (const Error& e) {
        status = status_of(e.kind());
        message = "webnn_context_read_tensor_async: " + e.message();
      } catch (...) {
      }
    }
    const WebnnContext* previous = t_callback_context;
    t_callback_context = context;
    callback(status, message.c_str(), userdata);
    t_callback_context = previous;
  };
}

void destroy_header(Header& h) { h.magic = 0; }

// A struct_size of a struct that begins with it (see "Options structs and ABI evolution").
void check_struct_size(size_t size, size_t library_size, const char* argument) {
  if (size < sizeof(size_t))
    fail(ErrorKind::kTypeError, argument,
         std::to_string(size) + " is too small; call the struct's init function first");
  if (size > library_size)
    fail(ErrorKind::kNotSupportedError, argument,
         std::to_string(size) + " exceeds this library's " + std::to_string(library_size) +
             " bytes (a header newer than the library)");
}

}  // namespace

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kContext:
      return "a WebnnContext";
    case Kind::kGraphBuilder:
      return "a WebnnGraphBuilder";
    case Kind::kOperand:
      return "a WebnnOperand";
    case Kind::kGraph:
      return "a WebnnGraph";
    case Kind::kTensor:
      return "a WebnnTensor";
  }
  return "an unknown handle";
}

WebnnStatus status_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kTypeError:
      return WEBNN_STATUS_TYPE_ERROR;
    case ErrorKind::kDataError:
      return WEBNN_STATUS_DATA_ERROR;
    case ErrorKind::kOperationError:
      return WEBNN_STATUS_OPERATION_ERROR;
    case ErrorKind::kNotSupportedError:
      return WEBNN_STATUS_NOT_SUPPORTED_ERROR;
    case ErrorKind::kInvalidStateError:
      return WEBNN_STATUS_INVALID_STATE_ERROR;
    case ErrorKind::kAbortError:
      return WEBNN_STATUS_ABORT_ERROR;
    case ErrorKind::kUnknownError:
      return WEBNN_STATUS_UNKNOWN_ERROR;
  }
  return WEBNN_STATUS_UNKNOWN_ERROR;
}

void set_last_error(const std::string& message) { t_last_error = message; }

void fail(ErrorKind kind, const std::string& argument, const std::string& problem) {
  throw Error(kind, argument + " " + problem);
}

void check_header(const void* handle, Kind expected, const char* argument) {
  if (!handle) fail(ErrorKind::kTypeError, argument, "is NULL");
  const auto* h = static_cast<const Header*>(handle);
  if (h->magic != kMagic) fail(ErrorKind::kTypeError, argument, "is not a live webnn handle");
  if (h->kind != expected)
    fail(ErrorKind::kTypeError, argument,
         std::string("is ") + kind_name(h->kind) + " where " + kind_name(expected) + " is expected");
}

const MLOperand& operand_arg(Builder& b, WebnnOperand* operand, const char* fn, const char* argument) {
  WebnnOperand& o = handle_arg(operand, fn, argument);
  if (o.owner != &b) fail(ErrorKind::kTypeError, argument, "is an operand of another graph builder");
  return o.operand;
}

std::optional<MLOperand> optional_operand_arg(Builder& b, WebnnOperand* operand, const char* fn, const char* argument) {
  if (!operand) return std::nullopt;
  return operand_arg(b, operand, fn, argument);
}

std::vector<MLOperand> operand_list_arg(Builder& b, WebnnOperand* const* operands, size_t count, const char* fn,
                                        const char* argument) {
  if (!operands && count != 0)
    fail(ErrorKind::kTypeError, argument, "is NULL but its count is " + std::to_string(count));
  std::vector<MLOperand> out;
  for (size_t i = 0; i < count; ++i) {
    const std::string item = std::string(argument) + "[" + std::to_string(i) + "]";
    out.push_back(operand_arg(b, operands[i], fn, item.c_str()));
  }
  return out;
}

std::vector<uint32_t> dims_arg(const uint32_t* values, size_t count, const char* fn, const char* argument) {
  auto list = optional_list_arg<uint32_t>(values, count, fn, argument);
  return list ? *list : std::vector<uint32_t>{};
}

Number number_arg(const WebnnNumber& value, const char* fn, const char* argument) {
  (void)fn;
  switch (raw_enum(value.kind)) {
    case WEBNN_NUMBER_DOUBLE:
      return Number(value.f64);
    case WEBNN_NUMBER_INT64:
      return Number::from_int64(value.i64);
    case WEBNN_NUMBER_UINT64:
      return Number::from_uint64(value.u64);
  }
  fail(ErrorKind::kTypeError, std::string(argument) + ".kind",
       std::to_string(raw_enum(value.kind)) + " is not a WebnnNumberKind");
}

WebnnNumber to_c_number(const Number& value) {
  switch (value.kind()) {
    case Number::Kind::kInt64:
      return webnn_number_int64(value.int64_value());
    case Number::Kind::kUint64:
      return webnn_number_uint64(value.uint64_value());
    case Number::Kind::kDouble:
      break;
  }
  return webnn_number_double(value.as_double());
}

DataType data_type_arg(const WebnnDataType& c_value, const char* fn, const char* argument) {
  (void)fn;
  const int64_t value = raw_enum(c_value);
  if (value < 0 || value >= kDataTypeCount)
    fail(ErrorKind::kTypeError, argument, std::to_string(value) + " is not a WebnnDataType");
  return static_cast<DataType>(value);
}

std::variant<uint32_t, std::vector<uint32_t>> splits_arg(const WebnnSplits& splits, const char* fn,
                                                         const char* argument) {
  if (!splits.sizes) {
    if (splits.count > UINT32_MAX)
      fail(ErrorKind::kTypeError, std::string(argument) + ".count", std::to_string(splits.count) + " is too large");
    return static_cast<uint32_t>(splits.count);
  }
  return dims_arg(splits.sizes, splits.count, fn, argument);
}

WebnnOperand* new_operand(Builder& b, MLOperand operand) {
  std::lock_guard lock(b.mutex);
  WebnnOperand& o = b.operands.emplace_back();
  o.owner = &b;
  o.operand = std::move(operand);
  return &o;
}

void return_outputs(Builder& b, std::vector<MLOperand> results, WebnnOperand** outputs, size_t capacity,
                    size_t* count) {
  *count = results.size();
  if (results.size() > capacity)
    fail(ErrorKind::kTypeError, "output_capacity",
         std::to_string(capacity) + " is less than the op's " + std::to_string(results.size()) +
             " outputs (*output_count holds the number needed; the operation was added but its outputs are not "
             "returned)");
  for (size_t i = 0; i < results.size(); ++i) outputs[i] = new_operand(b, std::move(results[i]));
}

}  // namespace webnn::capi

using namespace webnn;
using capi::fail;
using capi::guard;
using capi::handle_arg;

extern "C" {

uint32_t webnn_api_version(void) { return WEBNN_API_VERSION; }

const char* webnn_last_error_message(void) { return capi::t_last_error.c_str(); }

const char* webnn_status_name(WebnnStatus status) {
  switch (status) {
    case WEBNN_STATUS_SUCCESS:
      return "Success";
    case WEBNN_STATUS_TYPE_ERROR:
      return "TypeError";
    case WEBNN_STATUS_DATA_ERROR:
      return "DataError";
    case WEBNN_STATUS_OPERATION_ERROR:
      return "OperationError";
    case WEBNN_STATUS_NOT_SUPPORTED_ERROR:
      return "NotSupportedError";
    case WEBNN_STATUS_INVALID_STATE_ERROR:
      return "InvalidStateError";
    case WEBNN_STATUS_ABORT_ERROR:
      return "AbortError";
    case WEBNN_STATUS_UNKNOWN_ERROR:
      return "UnknownError";
  }
  return "(not a WebnnStatus)";
}

// ---- Context ----

void webnn_context_options_init(WebnnContextOptions* o) {
  if (!o) return;
  const MLContextOptions d;
  *o = WebnnContextOptions{};
  o->struct_size = sizeof(*o);
  o->power_preference = static_cast<WebnnPowerPreference>(d.power_preference);
  o->accelerated = d.accelerated;
  o->backend = nullptr;
  o->num_threads = d.num_threads;
}

WebnnStatus webnn_context_create(const WebnnContextOptions* options, WebnnContext** out) {
  static constexpr const char* kFn = "webnn_context_create";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    capi::require(out != nullptr, kFn, "out", "is NULL");
    WebnnContextOptions o;
    webnn_context_options_init(&o);
    if (options) {
      capi::check_struct_size(options->struct_size, sizeof(o), "options->struct_size");
      std::memcpy(static_cast<void*>(&o), options, options->struct_size);
    }
    MLContextOptions cpp;
    const int64_t pp = capi::raw_enum(o.power_preference);
    if (pp < 0 || pp > 2) fail(ErrorKind::kTypeError, "options->power_preference", "is not a WebnnPowerPreference");
    cpp.power_preference = static_cast<PowerPreference>(pp);
    cpp.accelerated = o.accelerated;
    cpp.backend = o.backend ? o.backend : "";
    cpp.num_threads = o.num_threads;
    cpp.remote = o.remote ? o.remote : "";
    capi::require(o.token || o.token_size == 0, kFn, "options->token", "is NULL with a non-zero token_size");
    if (o.token) cpp.token.assign(static_cast<const char*>(o.token), o.token_size);
    auto c = std::make_unique<WebnnContext>();
    c->context = ML::create_context(cpp);
    c->backend_name = c->context.backend_name();
    c->preferred_input_layout = c->context.op_support_limits().preferred_input_layout;
    c->lost_callback = o.lost_callback;
    c->lost_userdata = o.lost_userdata;
    *out = c.release();
  });
}

WebnnStatus webnn_context_destroy(WebnnContext* context) {
  return guard("webnn_context_destroy", [&] {
    WebnnContext& c = handle_arg(context, "webnn_context_destroy", "context");
    c.context.destroy();
    capi::call_lost_callback(c, "the context was destroyed");
  });
}

WebnnStatus webnn_context_release(WebnnContext* context) {
  if (!context) return WEBNN_STATUS_SUCCESS;
  return guard("webnn_context_release", [&] {
    WebnnContext& c = handle_arg(context, "webnn_context_release", "context");
    capi::destroy_header(c.header);
    delete &c;
  });
}

WebnnStatus webnn_context_is_lost(WebnnContext* context, bool* out_lost) {
  return guard("webnn_context_is_lost", [&] {
    WebnnContext& c = handle_arg(context, "webnn_context_is_lost", "context");
    capi::require(out_lost != nullptr, "", "out_lost", "is NULL");
    *out_lost = c.context.is_lost();
  });
}

WebnnStatus webnn_context_accelerated(WebnnContext* context, bool* out_accelerated) {
  return guard("webnn_context_accelerated", [&] {
    WebnnContext& c = handle_arg(context, "webnn_context_accelerated", "context");
    capi::require(out_accelerated != nullptr, "", "out_accelerated", "is NULL");
    *out_accelerated = c.context.accelerated();
  });
}

WebnnStatus webnn_context_backend_name(WebnnContext* context, const char** out_name) {
  return guard("webnn_context_backend_name", [&] {
    WebnnContext& c = handle_arg(context, "webnn_context_backend_name", "context");
    capi::require(out_name != nullptr, "", "out_name", "is NULL");
    *out_name = c.backend_name.c_str();
  });
}

WebnnStatus webnn_context_op_support_limits(WebnnContext* context, WebnnOpSupportLimits* out) {
  return guard("webnn_context_op_support_limits", [&] {
    WebnnContext& c = handle_arg(context, "webnn_context_op_support_limits", "context");
    capi::require(out != nullptr, "", "out", "is NULL");
    capi::check_struct_size(out->struct_size, sizeof(WebnnOpSupportLimits), "out->struct_size");
    const MLOpSupportLimits l = c.context.op_support_limits();
    WebnnOpSupportLimits r{};
    r.struct_size = out->struct_size;
    r.preferred_input_layout = c.preferred_input_layout.c_str();
    r.max_tensor_byte_length = l.max_tensor_byte_length;
    r.input = capi::to_c_limits(l.input);
    r.constant = capi::to_c_limits(l.constant);
    r.output = capi::to_c_limits(l.output);
    std::memcpy(static_cast<void*>(out), &r, out->struct_size);
  });
}

WebnnStatus webnn_context_op_support_limits_for(WebnnContext* context, const char* op, const char* operand,
                                                WebnnTensorLimits* out) {
  return guard("webnn_context_op_support_limits_for", [&] {
    WebnnContext& c = handle_arg(context, "webnn_context_op_support_limits_for", "context");
    capi::require(op != nullptr, "", "op", "is NULL");
    capi::require(operand != nullptr, "", "operand", "is NULL");
    capi::require(out != nullptr, "", "out", "is NULL");
    const MLOpSupportLimits l = c.context.op_support_limits();
    auto it = l.ops.find(op);
    if (it == l.ops.end()) fail(ErrorKind::kNotSupportedError, "op", std::string("\"") + op + "\" is not an operator");
    auto jt = it->second.find(operand);
    if (jt == it->second.end())
      fail(ErrorKind::kNotSupportedError, "operand", std::string("\"") + operand + "\" is not an operand of " + op);
    *out = capi::to_c_limits(jt->second);
  });
}

// ---- Graph builder ----

WebnnStatus webnn_graph_builder_create(WebnnContext* context, WebnnGraphBuilder** out) {
  static constexpr const char* kFn = "webnn_graph_builder_create";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    WebnnContext& c = handle_arg(context, kFn, "context");
    capi::require(out != nullptr, kFn, "out", "is NULL");
    auto b = std::make_unique<WebnnGraphBuilder>();
    b->builder = std::make_unique<MLGraphBuilder>(c.context);
    *out = b.release();
  });
}

WebnnStatus webnn_graph_builder_release(WebnnGraphBuilder* builder) {
  if (!builder) return WEBNN_STATUS_SUCCESS;
  return guard("webnn_graph_builder_release", [&] {
    WebnnGraphBuilder& b = handle_arg(builder, "webnn_graph_builder_release", "builder");
    capi::destroy_header(b.header);
    for (WebnnOperand& o : b.operands) capi::destroy_header(o.header);
    delete &b;
  });
}

WebnnStatus webnn_graph_builder_input(WebnnGraphBuilder* builder, const char* name,
                                      const WebnnOperandDescriptor* descriptor, WebnnOperand** out) {
  static constexpr const char* kFn = "webnn_graph_builder_input";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    WebnnGraphBuilder& b = handle_arg(builder, kFn, "builder");
    capi::require(name != nullptr, kFn, "name", "is NULL");
    capi::require(out != nullptr, kFn, "out", "is NULL");
    const OperandDescriptor d = capi::descriptor_arg(descriptor, "descriptor");
    *out = capi::new_operand(b, b.builder->input(name, d));
  });
}

WebnnStatus webnn_graph_builder_constant(WebnnGraphBuilder* builder, const WebnnOperandDescriptor* descriptor,
                                         const void* data, size_t byte_length, WebnnOperand** out) {
  static constexpr const char* kFn = "webnn_graph_builder_constant";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    WebnnGraphBuilder& b = handle_arg(builder, kFn, "builder");
    capi::require(out != nullptr, kFn, "out", "is NULL");
    const OperandDescriptor d = capi::descriptor_arg(descriptor, "descriptor");
    capi::check_bytes(data, byte_length, d, "data");
    *out = capi::new_operand(b, b.builder->constant(d, {static_cast<const std::byte*>(data), byte_length}));
  });
}

WebnnStatus webnn_graph_builder_constant_scalar(WebnnGraphBuilder* builder, WebnnDataType data_type, WebnnNumber value,
                                                WebnnOperand** out) {
  static constexpr const char* kFn = "webnn_graph_builder_constant_scalar";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    WebnnGraphBuilder& b = handle_arg(builder, kFn, "builder");
    capi::require(out != nullptr, kFn, "out", "is NULL");
    const DataType t = capi::data_type_arg(data_type, kFn, "data_type");
    *out = capi::new_operand(b, b.builder->constant(t, capi::number_arg(value, kFn, "value")));
  });
}

WebnnStatus webnn_graph_builder_constant_tensor(WebnnGraphBuilder* builder, WebnnTensor* tensor, WebnnOperand** out) {
  static constexpr const char* kFn = "webnn_graph_builder_constant_tensor";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    WebnnGraphBuilder& b = handle_arg(builder, kFn, "builder");
    WebnnTensor& t = handle_arg(tensor, kFn, "tensor");
    capi::require(out != nullptr, kFn, "out", "is NULL");
    *out = capi::new_operand(b, b.builder->constant(t.tensor));
  });
}

WebnnStatus webnn_graph_builder_build(WebnnGraphBuilder* builder, const WebnnNamedOperand* outputs, size_t count,
                                      WebnnGraph** out) {
  static constexpr const char* kFn = "webnn_graph_builder_build";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    WebnnGraphBuilder& b = handle_arg(builder, kFn, "builder");
    capi::require(out != nullptr, kFn, "out", "is NULL");
    if (!outputs && count != 0) fail(ErrorKind::kTypeError, "outputs", "is NULL but count is " + std::to_string(count));
    MLNamedOperands named;
    for (size_t i = 0; i < count; ++i) {
      const std::string arg = "outputs[" + std::to_string(i) + "]";
      if (!outputs[i].name) fail(ErrorKind::kTypeError, arg + ".name", "is NULL");
      capi::operand_arg(b, outputs[i].operand, kFn, (arg + ".operand").c_str());
      if (!named.emplace(outputs[i].name, outputs[i].operand->operand).second)
        fail(ErrorKind::kTypeError, arg + ".name", std::string("\"") + outputs[i].name + "\" is given twice");
    }
    *out = capi::make_graph(b.builder->build(named));
  });
}

WebnnStatus webnn_operand_data_type(WebnnOperand* operand, WebnnDataType* out) {
  return guard("webnn_operand_data_type", [&] {
    WebnnOperand& o = handle_arg(operand, "webnn_operand_data_type", "operand");
    capi::require(out != nullptr, "", "out", "is NULL");
    *out = static_cast<WebnnDataType>(o.operand.data_type());
  });
}

WebnnStatus webnn_operand_shape(WebnnOperand* operand, uint32_t* shape, size_t capacity, size_t* out_rank) {
  return guard("webnn_operand_shape", [&] {
    WebnnOperand& o = handle_arg(operand, "webnn_operand_shape", "operand");
    capi::require(out_rank != nullptr, "", "out_rank", "is NULL");
    if (!shape && capacity != 0)
      fail(ErrorKind::kTypeError, "shape", "is NULL but capacity is " + std::to_string(capacity));
    const Shape s = o.operand.shape();
    std::copy_n(s.begin(), std::min(capacity, s.size()), shape);
    *out_rank = s.size();
  });
}

// ---- Graph ----

WebnnStatus webnn_context_load_graph(WebnnContext* context, const char* path, WebnnGraph** out) {
  static constexpr const char* kFn = "webnn_context_load_graph";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    WebnnContext& c = handle_arg(context, kFn, "context");
    capi::require(path != nullptr, kFn, "path", "is NULL");
    capi::require(out != nullptr, kFn, "out", "is NULL");
    *out = capi::make_graph(c.context.build(Model::load(path)));
  });
}

WebnnStatus webnn_graph_destroy(WebnnGraph* graph) {
  return guard("webnn_graph_destroy", [&] { handle_arg(graph, "webnn_graph_destroy", "graph").graph.destroy(); });
}

WebnnStatus webnn_graph_release(WebnnGraph* graph) {
  if (!graph) return WEBNN_STATUS_SUCCESS;
  return guard("webnn_graph_release", [&] {
    WebnnGraph& g = handle_arg(graph, "webnn_graph_release", "graph");
    capi::destroy_header(g.header);
    delete &g;
  });
}

namespace {
WebnnStatus graph_count(const char* fn, WebnnGraph* graph, bool inputs, size_t* out) {
  return guard(fn, [&] {
    WebnnGraph& g = handle_arg(graph, fn, "graph");
    capi::require(out != nullptr, fn, "out", "is NULL");
    *out = inputs ? g.inputs.size() : g.outputs.size();
  });
}
WebnnStatus graph_named(const char* fn, WebnnGraph* graph, bool inputs, size_t index, const char** out_name,
                        WebnnOperandDescriptor* out_descriptor) {
  return guard(fn, [&] {
    WebnnGraph& g = handle_arg(graph, fn, "graph");
    const auto& list = inputs ? g.inputs : g.outputs;
    if (index >= list.size())
      fail(ErrorKind::kTypeError, "index",
           std::to_string(index) + " is out of range (the graph has " + std::to_string(list.size()) + ")");
    if (out_name) *out_name = list[index].name.c_str();
    if (out_descriptor) capi::fill_descriptor(list[index].desc, out_descriptor);
  });
}
}  // namespace

WebnnStatus webnn_graph_input_count(WebnnGraph* graph, size_t* out) {
  return graph_count("webnn_graph_input_count", graph, true, out);
}
WebnnStatus webnn_graph_input(WebnnGraph* graph, size_t index, const char** out_name,
                              WebnnOperandDescriptor* out_descriptor) {
  return graph_named("webnn_graph_input", graph, true, index, out_name, out_descriptor);
}
WebnnStatus webnn_graph_input_default(WebnnGraph* graph, size_t index, const void** out_data, size_t* out_byte_length) {
  static constexpr const char* kFn = "webnn_graph_input_default";
  return guard(kFn, [&] {
    WebnnGraph& g = handle_arg(graph, kFn, "graph");
    capi::require(out_data != nullptr, kFn, "out_data", "is NULL");
    capi::require(out_byte_length != nullptr, kFn, "out_byte_length", "is NULL");
    if (index >= g.inputs.size())
      fail(ErrorKind::kTypeError, "index",
           std::to_string(index) + " is out of range (the graph has " + std::to_string(g.inputs.size()) + ")");
    const std::span<const std::byte> value = g.inputs[index].default_value;
    *out_data = value.empty() ? nullptr : value.data();
    *out_byte_length = value.size();
  });
}

WebnnStatus webnn_graph_output_count(WebnnGraph* graph, size_t* out) {
  return graph_count("webnn_graph_output_count", graph, false, out);
}
WebnnStatus webnn_graph_output(WebnnGraph* graph, size_t index, const char** out_name,
                               WebnnOperandDescriptor* out_descriptor) {
  return graph_named("webnn_graph_output", graph, false, index, out_name, out_descriptor);
}

// ---- Tensors and the timeline ----

WebnnStatus webnn_context_create_tensor(WebnnContext* context, const WebnnTensorDescriptor* descriptor,
                                        WebnnTensor** out) {
  static constexpr const char* kFn = "webnn_context_create_tensor";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    WebnnContext& c = handle_arg(context, kFn, "context");
    capi::require(descriptor != nullptr, kFn, "descriptor", "is NULL");
    capi::require(out != nullptr, kFn, "out", "is NULL");
    WebnnOperandDescriptor od;
    std::memcpy(static_cast<void*>(&od.data_type), &descriptor->data_type, sizeof od.data_type);
    od.shape = descriptor->shape;
    od.rank = descriptor->rank;
    const OperandDescriptor d = capi::descriptor_arg(&od, "descriptor");
    MLTensorDescriptor td{d.data_type, d.shape, descriptor->readable, descriptor->writable};
    auto t = std::make_unique<WebnnTensor>();
    t->tensor = c.context.create_tensor(td);
    *out = t.release();
  });
}

WebnnStatus webnn_context_create_constant_tensor(WebnnContext* context, const WebnnOperandDescriptor* descriptor,
                                                 const void* data, size_t byte_length, WebnnTensor** out) {
  static constexpr const char* kFn = "webnn_context_create_constant_tensor";
  if (out) *out = nullptr;
  return guard(kFn, [&] {
    WebnnContext& c = handle_arg(context, kFn, "context");
    capi::require(out != nullptr, kFn, "out", "is NULL");
    const OperandDescriptor d = capi::descriptor_arg(descriptor, "descriptor");
    capi::check_bytes(data, byte_length, d, "data");
    auto t = std::make_unique<WebnnTensor>();
    t->tensor = c.context.create_constant_tensor(d, {static_cast<const std::byte*>(data), byte_length});
    *out = t.release();
  });
}

WebnnStatus webnn_tensor_destroy(WebnnTensor* tensor) {
  return guard("webnn_tensor_destroy", [&] { handle_arg(tensor, "webnn_tensor_destroy", "tensor").tensor.destroy(); });
}

WebnnStatus webnn_tensor_release(WebnnTensor* tensor) {
  if (!tensor) return WEBNN_STATUS_SUCCESS;
  return guard("webnn_tensor_release", [&] {
    WebnnTensor& t = handle_arg(tensor, "webnn_tensor_release", "tensor");
    capi::destroy_header(t.header);
    delete &t;
  });
}

WebnnStatus webnn_tensor_descriptor(WebnnTensor* tensor, WebnnTensorDescriptor* out) {
  return guard("webnn_tensor_descriptor", [&] {
    WebnnTensor& t = handle_arg(tensor, "webnn_tensor_descriptor", "tensor");
    capi::require(out != nullptr, "", "out", "is NULL");
    const Shape& s = t.tensor.shape();
    out->data_type = static_cast<WebnnDataType>(t.tensor.data_type());
    out->shape = s.empty() ? nullptr : s.data();
    out->rank = s.size();
    out->readable = t.tensor.readable();
    out->writable = t.tensor.writable();
  });
}

WebnnStatus webnn_context_write_tensor(WebnnContext* context, WebnnTensor* tensor, const void* data,
                                       size_t byte_length) {
  static constexpr const char* kFn = "webnn_context_write_tensor";
  return guard(kFn, [&] {
    WebnnContext& c = handle_arg(context, kFn, "context");
    WebnnTensor& t = handle_arg(tensor, kFn, "tensor");
    capi::check_tensor_context(c, t, "tensor");
    capi::check_bytes(data, byte_length, OperandDescriptor{t.tensor.data_type(), t.tensor.shape()}, "data");
    c.context.write_tensor(t.tensor, {static_cast<const std::byte*>(data), byte_length});
  });
}

WebnnStatus webnn_context_dispatch(WebnnContext* context, WebnnGraph* graph, const WebnnNamedTensor* inputs,
                                   size_t input_count, const WebnnNamedTensor* outputs, size_t output_count) {
  static constexpr const char* kFn = "webnn_context_dispatch";
  return guard(kFn, [&] {
    WebnnContext& c = handle_arg(context, kFn, "context");
    WebnnGraph& g = handle_arg(graph, kFn, "graph");
    if (!g.graph.belongs_to(c.context)) fail(ErrorKind::kTypeError, "graph", "belongs to another context");
    auto named = [&](const WebnnNamedTensor* list, size_t count, const char* what, size_t expected) {
      if (!list && count != 0) fail(ErrorKind::kTypeError, what, "is NULL but its count is " + std::to_string(count));
      if (count != expected)
        fail(ErrorKind::kTypeError, std::string(what) + "_count",
             std::to_string(count) + " disagrees with the graph's " + std::to_string(expected) + " " + what);
      MLNamedTensors out;
      for (size_t i = 0; i < count; ++i) {
        const std::string arg = std::string(what) + "[" + std::to_string(i) + "]";
        if (!list[i].name) fail(ErrorKind::kTypeError, arg + ".name", "is NULL");
        WebnnTensor& t = handle_arg(list[i].tensor, kFn, (arg + ".tensor").c_str());
        capi::check_tensor_context(c, t, arg + ".tensor");
        if (!out.emplace(list[i].name, t.tensor).second)
          fail(ErrorKind::kTypeError, arg + ".name", std::string("\"") + list[i].name + "\" is given twice");
      }
      return out;
    };
    const MLNamedTensors in = named(inputs, input_count, "inputs", g.inputs.size());
    const MLNamedTensors outs = named(outputs, output_count, "outputs", g.outputs.size());
    c.context.dispatch(g.graph, in, outs);
  });
}

WebnnStatus webnn_context_read_tensor(WebnnContext* context, WebnnTensor* tensor, void* out, size_t byte_length) {
  static constexpr const char* kFn = "webnn_context_read_tensor";
  return guard(kFn, [&] {
    WebnnContext& c = handle_arg(context, kFn, "context");
    WebnnTensor& t = handle_arg(tensor, kFn, "tensor");
    capi::check_tensor_context(c, t, "tensor");
    if (!out && byte_length != 0) fail(ErrorKind::kTypeError, "out", "is NULL");
    if (capi::t_callback_context == &c)
      fail(ErrorKind::kInvalidStateError, "context",
           "is the one whose read callback is running on this thread; a blocking read here would wait on itself");
    c.context.read_tensor(t.tensor, {static_cast<std::byte*>(out), byte_length}).get();
  });
}

WebnnStatus webnn_context_read_tensor_async(WebnnContext* context, WebnnTensor* tensor, void* out, size_t byte_length,
                                            WebnnReadCallback callback, void* userdata) {
  static constexpr const char* kFn = "webnn_context_read_tensor_async";
  return guard(kFn, [&] {
    WebnnContext& c = handle_arg(context, kFn, "context");
    WebnnTensor& t = handle_arg(tensor, kFn, "tensor");
    capi::require(callback != nullptr, kFn, "callback", "is NULL");
    capi::check_tensor_context(c, t, "tensor");
    if (!out && byte_length != 0) fail(ErrorKind::kTypeError, "out", "is NULL");
    c.context.read_tensor(t.tensor, {static_cast<std::byte*>(out), byte_length},
                          capi::read_callback(&c, callback, userdata));
  });
}

}  // extern "C"
