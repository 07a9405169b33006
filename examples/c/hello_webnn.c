/* Builds C = relu(A * 0.5 + B) by hand with the WebNN C ABI, runs it through tensors on the
 * context timeline and prints the result. C99; every call's status is checked. */
#include <stdio.h>
#include <webnn/webnn.h>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    WebnnStatus status_ = (call);                                                      \
    if (status_ != WEBNN_STATUS_SUCCESS) {                                             \
      fprintf(stderr, "%s: %s\n", webnn_status_name(status_), webnn_last_error_message()); \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

static int run(WebnnContext* context) {
  static const uint32_t shape[2] = {2, 2};
  static const float half[4] = {0.5f, 0.5f, 0.5f, 0.5f};
  static const float va[4] = {1, 2, 3, 4}, vb[4] = {-1, -1, 1, 1};
  WebnnOperandDescriptor desc;
  WebnnTensorDescriptor in_desc, out_desc;
  WebnnGraphBuilder* builder = NULL;
  WebnnOperand *a, *b, *k, *scaled, *sum, *c;
  WebnnNamedOperand output;
  WebnnGraph* graph = NULL;
  WebnnTensor *ta = NULL, *tb = NULL, *tc = NULL;
  WebnnNamedTensor inputs[2], outputs[1];
  float result[4];
  int ok;

  desc.data_type = WEBNN_DATA_TYPE_FLOAT32;
  desc.shape = shape;
  desc.rank = 2;
  CHECK(webnn_graph_builder_create(context, &builder));
  CHECK(webnn_graph_builder_input(builder, "A", &desc, &a));
  CHECK(webnn_graph_builder_input(builder, "B", &desc, &b));
  CHECK(webnn_graph_builder_constant(builder, &desc, half, sizeof(half), &k));
  CHECK(webnn_graph_builder_mul(builder, a, k, NULL, &scaled));
  CHECK(webnn_graph_builder_add(builder, scaled, b, NULL, &sum));
  CHECK(webnn_graph_builder_relu(builder, sum, NULL, &c));
  output.name = "C";
  output.operand = c;
  CHECK(webnn_graph_builder_build(builder, &output, 1, &graph));
  CHECK(webnn_graph_builder_release(builder)); /* the graph outlives its builder */

  in_desc.data_type = out_desc.data_type = WEBNN_DATA_TYPE_FLOAT32;
  in_desc.shape = out_desc.shape = shape;
  in_desc.rank = out_desc.rank = 2;
  in_desc.readable = false;
  in_desc.writable = true;
  out_desc.readable = true;
  out_desc.writable = false;
  CHECK(webnn_context_create_tensor(context, &in_desc, &ta));
  CHECK(webnn_context_create_tensor(context, &in_desc, &tb));
  CHECK(webnn_context_create_tensor(context, &out_desc, &tc));
  CHECK(webnn_context_write_tensor(context, ta, va, sizeof(va)));
  CHECK(webnn_context_write_tensor(context, tb, vb, sizeof(vb)));
  inputs[0].name = "A";
  inputs[0].tensor = ta;
  inputs[1].name = "B";
  inputs[1].tensor = tb;
  outputs[0].name = "C";
  outputs[0].tensor = tc;
  CHECK(webnn_context_dispatch(context, graph, inputs, 2, outputs, 1));
  CHECK(webnn_context_read_tensor(context, tc, result, sizeof(result)));
  printf("C = [%g, %g, %g, %g]\n", result[0], result[1], result[2], result[3]); /* [0, 0, 2.5, 3] */
  ok = result[0] == 0.0f && result[1] == 0.0f && result[2] == 2.5f && result[3] == 3.0f;

  CHECK(webnn_tensor_release(ta));
  CHECK(webnn_tensor_release(tb));
  CHECK(webnn_tensor_release(tc));
  CHECK(webnn_graph_release(graph));
  return ok ? 0 : 1;
}

int main(void) {
  WebnnContext* context = NULL;
  int rc;
  if (webnn_api_version() >> 16 != WEBNN_API_VERSION_MAJOR) {
    fprintf(stderr, "libwebnn's C ABI %u is not compatible with this header's %u\n", webnn_api_version(),
            (unsigned)WEBNN_API_VERSION);
    return 1;
  }
  CHECK(webnn_context_create(NULL, &context));
  rc = run(context);
  CHECK(webnn_context_release(context));
  return rc;
}
