// A program outside the tree that reaches the C++ API through the installed, sealed libwebnn.so
// (tests/install/check_install.sh builds it against the installed package): the free functions
// and classes of webnn/types.hpp, the context, builder, graph and tensor methods, ONNX export, and
// a webnn::Error thrown inside the library and caught here by its type. Exits 0 when every check
// holds, 1 naming each that does not.
#include <webnn/webnn.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <string>
#include <vector>

namespace {

int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "api_surface: failed: %s\n", what);
    ++failures;
  }
}

std::span<const std::byte> bytes_of(const std::vector<float>& v) { return std::as_bytes(std::span(v)); }

}  // namespace

int main(int argc, char** argv) {
  using namespace webnn;
  const std::filesystem::path work = argc > 1 ? argv[1] : std::filesystem::temp_directory_path();
  // types.hpp
  check(to_string(DataType::kFloat16) == "float16", "to_string(DataType)");
  check(parse_data_type("int8") == DataType::kInt8 && !parse_data_type("float64"), "parse_data_type");
  check(element_size(DataType::kInt64) == 8 && is_floating_point(DataType::kFloat32),
        "element_size, is_floating_point");
  check(DataTypeSet{DataType::kFloat32, DataType::kInt32}.to_string() == "float32, int32", "DataTypeSet::to_string");
  check(shape_to_string({1, 3}) == "[1, 3]", "shape_to_string");
  const OperandDescriptor desc{DataType::kFloat32, {2, 2}};
  check(desc.byte_length() == 16u && desc.to_string() == "float32[2, 2]", "OperandDescriptor");
  check(Number(2.0) == Number(2.0) && Number::from_int64(-3).to_string() == "-3", "Number");
  check(quote("a\"b") == "\"a\\\"b\"", "quote");
  check(to_string(ErrorKind::kDataError) == "DataError", "to_string(ErrorKind)");

  try {
    MLContext context = ML::create_context();
    check(!context.backend_name().empty() && context.num_threads() >= 0, "backend_name, num_threads");
    check(!context.is_lost() && context.power_preference() == PowerPreference::kDefault, "is_lost, power_preference");
    check(!context.op_support_limits().ops.empty(), "op_support_limits");

    // An error thrown inside the library, caught by its type.
    MLGraphBuilder builder(context);
    MLOperand x = builder.input("x", {DataType::kFloat32, {1, 1, 4, 4}});
    bool caught = false;
    try {
      builder.input("x", desc);  // the name is taken
    } catch (const Error& e) {
      caught = e.kind() == ErrorKind::kTypeError && std::string(e.what()).find("\"x\"") != std::string::npos;
    }
    check(caught, "a webnn::Error from the library is caught as webnn::Error");

    // conv2d with options, then gemm over the flattened result, then softmax.
    const std::vector<float> ones(9, 1.0f), bias(1, 0.5f);
    MLConv2dOptions conv;
    conv.padding = std::vector<uint32_t>{1, 1, 1, 1};
    conv.bias = builder.constant({DataType::kFloat32, {1}}, bytes_of(bias));
    MLOperand y = builder.conv2d(x, builder.constant({DataType::kFloat32, {1, 1, 3, 3}}, bytes_of(ones)), conv);
    check(y.shape() == Shape{1, 1, 4, 4} && y.data_type() == DataType::kFloat32, "MLOperand shape, data_type");
    MLOperand flat = builder.reshape(y, {1, 16});
    MLGemmOptions gemm;
    gemm.alpha = 0.25f;
    const std::vector<float> w(16 * 2, 1.0f);
    MLOperand z =
        builder.softmax(builder.gemm(flat, builder.constant({DataType::kFloat32, {16, 2}}, bytes_of(w)), gemm), 1);
    MLGraph graph = builder.build({{"y", y}, {"z", z}});
    check(graph.input_descriptors().at("x") == OperandDescriptor{DataType::kFloat32, {1, 1, 4, 4}},
          "input_descriptors");
    check(graph.output_descriptors().size() == 2 && !graph.placement().empty(), "output_descriptors, placement");

    // compute(): a 4x4 input of ones convolved with a 3x3 kernel of ones, padding 1, bias 0.5.
    HostTensor in{{DataType::kFloat32, {1, 1, 4, 4}}, {}};
    const std::vector<float> input(16, 1.0f);
    in.data.assign(bytes_of(input).begin(), bytes_of(input).end());
    NamedHostTensors out = context.compute(graph, {{"x", in}});
    std::vector<float> yv(16), zv(2);
    std::memcpy(yv.data(), out.at("y").data.data(), 64);
    std::memcpy(zv.data(), out.at("z").data.data(), 8);
    check(yv[0] == 4.5f && yv[1] == 6.5f && yv[5] == 9.5f, "conv2d's values (corner 4.5, edge 6.5, inside 9.5)");
    check(zv[0] == 0.5f && zv[1] == 0.5f, "softmax of two equal values");

    // Tensors: write, dispatch, a read into the caller's buffer.
    MLTensor tx = context.create_tensor({DataType::kFloat32, {1, 1, 4, 4}, false, true});
    MLTensor ty = context.create_tensor({DataType::kFloat32, {1, 1, 4, 4}, true, false});
    MLTensor tz = context.create_tensor({DataType::kFloat32, {1, 2}, true, false});
    check(tx.writable() && !tx.readable() && tx.shape() == Shape{1, 1, 4, 4} && !tx.constant(), "MLTensor queries");
    context.write_tensor(tx, bytes_of(input));
    context.dispatch(graph, {{"x", tx}}, {{"y", ty}, {"z", tz}});
    std::vector<float> read(16);
    context.read_tensor(ty, std::as_writable_bytes(std::span(read))).get();
    check(read == yv, "read_tensor into the caller's buffer equals compute()'s result");
    std::vector<float> again(16);
    std::promise<std::exception_ptr> done;
    context.read_tensor(ty, std::as_writable_bytes(std::span(again)),
                        [&done](std::exception_ptr error) { done.set_value(error); });
    check(done.get_future().get() == nullptr && again == yv, "read_tensor with a completion callback");
    tz.destroy();
    check(tz.is_destroyed(), "MLTensor::destroy");

    const std::filesystem::path onnx = work / "api_surface.onnx";
    convert_to_onnx(graph, onnx.string());
    check(std::filesystem::file_size(onnx) > 0, "convert_to_onnx wrote the model");
    std::filesystem::remove(onnx);

    graph.destroy();
    check(graph.is_destroyed(), "MLGraph::destroy");
    context.destroy();
    check(context.is_lost() && context.lost().wait_for(std::chrono::seconds(0)) == std::future_status::ready,
          "MLContext::destroy loses the context");
  } catch (const Error& e) {
    std::fprintf(stderr, "api_surface: %s\n", e.what());
    return 1;
  }
  if (failures) return 1;
  std::printf("api_surface: every check of the C++ API through the installed library held\n");
  return 0;
}
