// Builds C = relu(A * 0.5 + B) with the WebNN API, runs it through MLTensors on the context
// timeline and prints the result.
#include <webnn/webnn.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

int main() {
  using namespace webnn;
  try {
    MLContext context = ML::create_context();
    MLGraphBuilder builder(context);
    const OperandDescriptor desc{DataType::kFloat32, {2, 2}};
    const std::vector<float> half(4, 0.5f);
    MLOperand a = builder.input("A", desc);
    MLOperand b = builder.input("B", desc);
    MLOperand k = builder.constant(desc, std::as_bytes(std::span(half)));
    MLGraph graph = builder.build({{"C", builder.relu(builder.add(builder.mul(a, k), b))}});

    MLTensor ta = context.create_tensor({desc.data_type, desc.shape, /*readable=*/false, /*writable=*/true});
    MLTensor tb = context.create_tensor({desc.data_type, desc.shape, false, true});
    MLTensor tc = context.create_tensor({desc.data_type, desc.shape, /*readable=*/true, false});
    const std::vector<float> va = {1, 2, 3, 4}, vb = {-1, -1, 1, 1};
    context.write_tensor(ta, std::as_bytes(std::span(va)));
    context.write_tensor(tb, std::as_bytes(std::span(vb)));
    context.dispatch(graph, {{"A", ta}, {"B", tb}}, {{"C", tc}});
    std::vector<std::byte> bytes = context.read_tensor(tc).get();
    std::vector<float> c(4);
    std::memcpy(c.data(), bytes.data(), bytes.size());
    std::printf("C = [%g, %g, %g, %g]\n", c[0], c[1], c[2], c[3]);  // [0, 0, 2.5, 3]
    return c[2] == 2.5f && c[3] == 3.0f && c[0] == 0.0f ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
