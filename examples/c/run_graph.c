/* Loads a graph file (webnn-graph JSON or text, or an ONNX model), runs it on raw input bytes and
 * writes the raw bytes of each output.
 *
 *   run_graph GRAPH INPUT.raw OUT_DIR [BACKEND]
 *
 * The graph must have one input without a default value; INPUT.raw holds its bytes (little-endian,
 * the input descriptor's size). Inputs with a default value (an ONNX model's initializer of the
 * input's name) run on it. Each output is written to OUT_DIR/<name>.raw and summarised on stdout. The result is
 * read back with webnn_context_read_tensor_async to show the callback form. C99. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webnn/webnn.h>

#define CHECK(call)                                                                         \
  do {                                                                                      \
    WebnnStatus status_ = (call);                                                           \
    if (status_ != WEBNN_STATUS_SUCCESS) {                                                  \
      fprintf(stderr, "%s: %s\n", webnn_status_name(status_), webnn_last_error_message()); \
      exit(1);                                                                              \
    }                                                                                       \
  } while (0)

static size_t element_size(WebnnDataType t) {
  switch (t) {
    case WEBNN_DATA_TYPE_FLOAT16:
      return 2;
    case WEBNN_DATA_TYPE_INT64:
    case WEBNN_DATA_TYPE_UINT64:
      return 8;
    case WEBNN_DATA_TYPE_INT8:
    case WEBNN_DATA_TYPE_UINT8:
      return 1;
    default:
      return 4;
  }
}

static size_t byte_length(const WebnnOperandDescriptor* d) {
  size_t n = element_size(d->data_type), i;
  for (i = 0; i < d->rank; ++i) n *= d->shape[i];
  return n;
}

static void* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  void* data;
  long n;
  if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  data = malloc(n ? (size_t)n : 1);
  if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

struct Read {
  int done;
  WebnnStatus status;
};

/* Called once, from the context timeline. */
static void on_read(WebnnStatus status, const char* message, void* userdata) {
  struct Read* r = (struct Read*)userdata;
  if (status != WEBNN_STATUS_SUCCESS) fprintf(stderr, "read: %s\n", message);
  r->status = status;
  r->done = 1;
}

int main(int argc, char** argv) {
  WebnnContextOptions options;
  WebnnContext* context = NULL;
  WebnnGraph* graph = NULL;
  WebnnTensorDescriptor td;
  WebnnNamedTensor* named_inputs;
  WebnnNamedTensor* named_outputs;
  size_t input_count, input_size, output_count, i;
  void* input_bytes;
  int fed = 0;

  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: %s GRAPH INPUT.raw OUT_DIR [BACKEND]\n", argv[0]);
    return 2;
  }
  webnn_context_options_init(&options);
  if (argc == 5) options.backend = argv[4];
  CHECK(webnn_context_create(&options, &context));
  CHECK(webnn_context_load_graph(context, argv[1], &graph));

  /* Every input needs a tensor: the one input without a default value gets INPUT.raw, an input
   * with a default (an ONNX model's initializer of its name) gets that. */
  CHECK(webnn_graph_input_count(graph, &input_count));
  named_inputs = (WebnnNamedTensor*)calloc(input_count ? input_count : 1, sizeof(WebnnNamedTensor));
  input_bytes = read_file(argv[2], &input_size);
  for (i = 0; i < input_count; ++i) {
    WebnnOperandDescriptor in_desc;
    const void* value;
    size_t value_size;
    CHECK(webnn_graph_input(graph, i, &named_inputs[i].name, &in_desc));
    CHECK(webnn_graph_input_default(graph, i, &value, &value_size));
    if (!value) {
      if (fed++) {
        fprintf(stderr, "%s has more than one input without a default value; this example feeds one\n", argv[1]);
        return 1;
      }
      value = input_bytes;
      value_size = input_size;
    }
    td.data_type = in_desc.data_type;
    td.shape = in_desc.shape;
    td.rank = in_desc.rank;
    td.readable = false;
    td.writable = true;
    CHECK(webnn_context_create_tensor(context, &td, &named_inputs[i].tensor));
    /* A size that disagrees with the input's descriptor is reported by the library. */
    CHECK(webnn_context_write_tensor(context, named_inputs[i].tensor, value, value_size));
  }
  free(input_bytes);
  if (!fed) {
    fprintf(stderr, "%s has no input without a default value for INPUT.raw\n", argv[1]);
    return 1;
  }

  CHECK(webnn_graph_output_count(graph, &output_count));
  named_outputs = (WebnnNamedTensor*)calloc(output_count, sizeof(WebnnNamedTensor));
  for (i = 0; i < output_count; ++i) {
    WebnnOperandDescriptor od;
    CHECK(webnn_graph_output(graph, i, &named_outputs[i].name, &od));
    td.data_type = od.data_type;
    td.shape = od.shape;
    td.rank = od.rank;
    td.readable = true;
    td.writable = false;
    CHECK(webnn_context_create_tensor(context, &td, &named_outputs[i].tensor));
  }
  CHECK(webnn_context_dispatch(context, graph, named_inputs, input_count, named_outputs, output_count));

  for (i = 0; i < output_count; ++i) {
    WebnnOperandDescriptor od;
    struct Read read = {0, WEBNN_STATUS_SUCCESS};
    size_t n;
    void* bytes;
    char path[4096];
    FILE* f;
    CHECK(webnn_graph_output(graph, i, NULL, &od));
    n = byte_length(&od);
    bytes = malloc(n ? n : 1);
    CHECK(webnn_context_read_tensor_async(context, named_outputs[i].tensor, bytes, n, on_read, &read));
    /* A blocking read of the same tensor after it is ordered after the async one on the
     * timeline, so when it returns the callback has run. */
    CHECK(webnn_context_read_tensor(context, named_outputs[i].tensor, bytes, n));
    if (!read.done || read.status != WEBNN_STATUS_SUCCESS) return 1;
    snprintf(path, sizeof(path), "%s/%s.raw", argv[3], named_outputs[i].name);
    f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, n, f) != n || fclose(f) != 0) {
      fprintf(stderr, "cannot write %s\n", path);
      return 1;
    }
    printf("%s: %u bytes -> %s", named_outputs[i].name, (unsigned)n, path);
    if (od.data_type == WEBNN_DATA_TYPE_FLOAT32 && n >= 4 * sizeof(float)) {
      const float* v = (const float*)bytes;
      printf(" [%g, %g, %g, %g, ...]", v[0], v[1], v[2], v[3]);
    }
    printf("\n");
    free(bytes);
    CHECK(webnn_tensor_release(named_outputs[i].tensor));
  }
  free(named_outputs);
  for (i = 0; i < input_count; ++i) CHECK(webnn_tensor_release(named_inputs[i].tensor));
  free(named_inputs);
  CHECK(webnn_graph_release(graph));
  CHECK(webnn_context_release(context));
  return 0;
}
