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

    // Model: the graph as data. Saved, loaded back and compiled on a second context: the same
    // values.
    const Model model = graph.model();
    check(model.inputs().size() == 1 && model.inputs()[0].name == "x" && model.inputs()[0].default_value.empty(),
          "Model::inputs");
    check(model.outputs().size() == 2 && model.outputs()[1].descriptor == OperandDescriptor{DataType::kFloat32, {1, 2}},
          "Model::outputs");
    check(model.operation_counts().at("conv2d") == 1 && model.operation_count() == 4 && model.constant_count() == 3,
          "Model::operation_counts, operation_count, constant_count");
    const std::filesystem::path saved = work / "api_surface.webnn";
    model.save(saved.string());
    const Model loaded = Model::load(saved.string());
    std::filesystem::remove(saved);
    MLContext second = ML::create_context();
    MLGraph again_graph = second.build(loaded);
    check(again_graph.belongs_to(second) && !again_graph.belongs_to(context) && graph.belongs_to(context),
          "MLGraph::belongs_to");
    check(tx.belongs_to(context) && !tx.belongs_to(second), "MLTensor::belongs_to");
    NamedHostTensors out2 = second.compute(again_graph, {{"x", in}});
    check(out2.at("y").data == out.at("y").data && out2.at("z").data == out.at("z").data,
          "a saved, loaded and rebuilt model computes the same values");

    // build_model: build's synchronous steps; the builder is built after it. Its constant goes to
    // a weights file, which load_weights reads.
    MLGraphBuilder b2(second);
    MLOperand in2 = b2.input("in2", {DataType::kFloat32, {2}});
    check(in2.name() == "in2" && b2.operand(in2.id()).shape() == Shape{2}, "MLOperand::name, MLGraphBuilder::operand");
    const std::vector<float> shift = {1.5f, -2.0f};
    const Model shifted =
        b2.build_model({{"out", b2.relu(b2.add(in2, b2.constant({DataType::kFloat32, {2}}, bytes_of(shift))))}});
    bool built = false;
    try {
      b2.relu(in2);
    } catch (const Error& e) {
      built = e.kind() == ErrorKind::kInvalidStateError;
    }
    check(built, "MLGraphBuilder::build_model leaves the builder built");

    // Operators by name: the description and the generic add.
    bool relu_described = false;
    for (const MLOperatorInfo& op : operators())
      relu_described |= op.name == "relu" && op.operands == std::vector<std::string>{"input"};
    check(operators().size() > 90 && relu_described, "operators()");
    MLGraphBuilder b3(second);
    MLOperand in3 = b3.input("in3", {DataType::kFloat32, {2, 3}});
    MLOperand t = b3.add_operation("transpose", {in3}, {{"permutation", std::vector<uint32_t>{1, 0}}}).at(0);
    check(t.shape() == Shape{3, 2} && b3.owns(t), "MLGraphBuilder::add_operation, owns");
    const std::filesystem::path shifted_path = work / "api_surface_shift.json";
    ModelSaveOptions save;
    save.inline_limit = 0;
    shifted.save(shifted_path.string(), save);
    const auto weights = load_weights((work / "api_surface_shift.weights").string(),
                                      (work / "api_surface_shift.manifest.json").string());
    check(weights.size() == 1 && weights.begin()->second.size == 8 &&
              std::memcmp(weights.begin()->second.data.get(), shift.data(), 8) == 0,
          "load_weights reads the saved constant");
    MLGraph shifted_graph = second.build(Model::load(shifted_path.string()));
    for (const char* ext : {".json", ".weights", ".manifest.json"})
      std::filesystem::remove(work / (std::string("api_surface_shift") + ext));
    const std::vector<float> in2_values = {1.0f, 1.0f};
    HostTensor h2{{DataType::kFloat32, {2}}, {}};
    h2.data.assign(bytes_of(in2_values).begin(), bytes_of(in2_values).end());
    std::vector<float> shifted_out(2);
    std::memcpy(shifted_out.data(), second.compute(shifted_graph, {{"in2", h2}}).at("out").data.data(), 8);
    check(shifted_out[0] == 2.5f && shifted_out[1] == 0.0f, "a model built by build_model, saved and loaded, runs");
    shifted_graph = MLGraph();

    // when_reached, on_lost, MLContextRef and lose().
    std::promise<std::exception_ptr> reached;
    second.when_reached(MLTensor(), [&reached](std::exception_ptr e) { reached.set_value(e); });
    check(reached.get_future().get() == nullptr, "MLContext::when_reached");
    std::promise<std::string> lost_message;
    second.on_lost([&lost_message](const MLContextLostInfo& info) { lost_message.set_value(info.message); });
    const MLContextRef ref(second);
    check(ref.lock() == second && !ref.expired(), "MLContextRef::lock");
    second.lose("the test is done");
    check(lost_message.get_future().get() == "the test is done" && second.is_lost(), "MLContext::lose, on_lost");
    MLContextRef third_ref;
    {
      MLContext third = ML::create_context();
      third_ref = MLContextRef(third);
      check(third_ref.lock() == third, "MLContextRef::lock gives the context");
    }
    check(third_ref.expired() && !third_ref.lock(), "MLContextRef expires with the context");

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
