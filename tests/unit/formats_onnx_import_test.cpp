// ONNX import: models built here with the ONNX protobuf classes import to the graphs the lowering
// rules of docs/onnx.md give (shape chains folded, names kept, per-opset semantics), external data
// is read from the model's directory only, what WebNN cannot express is a NotSupportedError
// naming node, op and reason, our own export imports back to the same operations (bool as uint8),
// and the Graphviz export renders. Results of imported models are checked by the backend-suite
// and round-trip runners (tests/onnx_import/, CTest onnx_backend_suite_*, onnx_wpt_roundtrip_*).
#include <onnx/onnx_pb.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>

#include "formats/onnx/export.hpp"
#include "formats/onnx/import.hpp"
#include "formats_test_util.hpp"
#include "graph/graph_builder.hpp"
#include "onnx_test_model.hpp"

namespace webnn::formats {
namespace {

using testing::expect_error;
using testing::onnx_attr_i;
using testing::TempDir;

// ---- Building ONNX models ----

using Model = testing::OnnxModel;

std::vector<OpKind> kinds(const Graph& g) {
  std::vector<OpKind> out;
  for (const Operation& op : g.operations) out.push_back(op.kind);
  return out;
}

constexpr int32_t kF32 = onnx::TensorProto::FLOAT;

// ---- Folding and lowering ----

TEST(OnnxImport, FoldsAShapeGatherConcatReshapeChainToOneReshape) {
  // PyTorch's x.view(x.size(0), -1).
  Model m;
  m.input("x", kF32, {2, 3, 4});
  m.int64s("zero", {0});
  m.int64s("minus_one", {-1});
  m.node("Shape", {"x"}, {"s"});
  m.node("Gather", {"s", "zero"}, {"batch"});
  m.node("Concat", {"batch", "minus_one"}, {"shape"})->add_attribute()->CopyFrom([] {
    onnx::AttributeProto a;
    a.set_name("axis");
    a.set_type(onnx::AttributeProto::INT);
    a.set_i(0);
    return a;
  }());
  m.node("Reshape", {"x", "shape"}, {"/Reshape_output_0"});
  m.output("/Reshape_output_0");
  auto g = m.import();
  ASSERT_EQ(kinds(*g), std::vector<OpKind>{OpKind::kReshape});
  EXPECT_EQ(std::get<ReshapeAttrs>(g->operations[0].attrs).new_shape, (Shape{2, 12}));
  EXPECT_TRUE(g->constants.empty());
  ASSERT_EQ(g->outputs.size(), 1u);
  EXPECT_EQ(g->outputs[0].name, "/Reshape_output_0");
}

// The bytes of a folded graph output: the constant its one operation (the identity a constant
// output gets) reads.
template <class T>
std::vector<T> folded_output(const Graph& g, size_t i) {
  const OperandId out = g.outputs.at(i).operand;
  for (const Operation& op : g.operations)
    if (op.outputs.at(0) == out && g.operands[op.inputs.at(0)].kind == OperandKind::kConstant) {
      const BufferRef& data = g.constant_data(op.inputs.at(0));
      std::vector<T> v(data.size / sizeof(T));
      std::memcpy(v.data(), data.data.get(), data.size);
      return v;
    }
  ADD_FAILURE() << "output " << i << " is not a folded constant";
  return {};
}

TEST(OnnxImport, FoldsWithTheReferenceKernels) {
  // A fold computes what the WebNN operation computes at run time (the reference kernels):
  // int64 exactly beyond 2^53 and wrapping, x / 0 = 0 for integers, float-to-integer casts
  // saturating, a slice with a negative step; none of it through a double on the host.
  const int64_t big = (int64_t{1} << 53) + 1, max = std::numeric_limits<int64_t>::max();
  Model m;
  m.int64s("a", {big, max, 7});
  m.int64s("b", {1, 1, 0});
  m.node("Add", {"a", "b"}, {"sum"});
  m.node("Div", {"a", "b"}, {"quotient"});
  m.floats("f", {3}, {3e9f, -3e9f, -2.5f});
  onnx_attr_i(m.node("Cast", {"f"}, {"cast"}), "to", onnx::TensorProto::INT32);
  m.int64s("starts", {-1});
  m.int64s("ends", {-4});
  m.int64s("axes", {0});
  m.int64s("steps", {-2});
  m.node("Slice", {"a", "starts", "ends", "axes", "steps"}, {"reversed"});
  for (const char* out : {"sum", "quotient", "cast", "reversed"}) m.output(out);
  auto g = m.import();
  for (const Operation& op : g->operations) EXPECT_EQ(op.kind, OpKind::kIdentity);  // everything folded
  EXPECT_EQ(folded_output<int64_t>(*g, 0), (std::vector<int64_t>{big + 1, std::numeric_limits<int64_t>::min(), 7}));
  EXPECT_EQ(folded_output<int64_t>(*g, 1), (std::vector<int64_t>{big, max, 0}));
  EXPECT_EQ(folded_output<int32_t>(*g, 2),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(), -2}));
  EXPECT_EQ(folded_output<int64_t>(*g, 3), (std::vector<int64_t>{7, big}));
}

TEST(OnnxImport, KeepsTheModelsNamesAndLabelsOperationsWithNodeNames) {
  Model m;
  m.input("191", kF32, {1, 4});
  m.node("Relu", {"191"}, {"onnx::Conv_251"}, "/layer1/Relu");
  m.node("Sigmoid", {"onnx::Conv_251"}, {"out"});
  m.output("out");
  auto g = m.import();
  ASSERT_EQ(g->inputs.size(), 1u);
  EXPECT_EQ(g->inputs[0].name, "191");
  ASSERT_EQ(g->operations.size(), 2u);
  EXPECT_EQ(g->operations[0].label, "/layer1/Relu");
  EXPECT_EQ(g->operands[g->operations[0].outputs[0]].name, "onnx::Conv_251");
  // The JSON form stores the names as they are.
  EXPECT_THAT(to_json(*g), ::testing::HasSubstr("onnx::Conv_251"));
}

TEST(OnnxImport, SoftmaxFollowsEachOpsetsSemantics) {
  for (int opset : {11, 13}) {
    SCOPED_TRACE(opset);
    Model m(opset);
    m.input("x", kF32, {2, 3, 4});
    m.node("Softmax", {"x"}, {"y"});
    m.output("y");
    auto g = m.import();
    if (opset < 13) {
      // Coerced to 2-D at axis 1: [2, 12], softmax over the 12, reshaped back.
      ASSERT_EQ(kinds(*g), (std::vector<OpKind>{OpKind::kReshape, OpKind::kSoftmax, OpKind::kReshape}));
      EXPECT_EQ(std::get<SoftmaxAttrs>(g->operations[1].attrs).axis, 1u);
      EXPECT_EQ(g->desc(g->operations[1].inputs[0]).shape, (Shape{2, 12}));
    } else {
      ASSERT_EQ(kinds(*g), std::vector<OpKind>{OpKind::kSoftmax});
      EXPECT_EQ(std::get<SoftmaxAttrs>(g->operations[0].attrs).axis, 2u);
    }
  }
}

TEST(OnnxImport, ConvSamePaddingBecomesExplicitPadding) {
  Model m;
  m.input("x", kF32, {1, 2, 5, 5});
  m.floats("w", {4, 2, 3, 3}, std::vector<float>(72, 0.5f));
  auto* n = m.node("Conv", {"x", "w"}, {"y"});
  auto* a = n->add_attribute();
  a->set_name("auto_pad");
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s("SAME_UPPER");
  auto* s = n->add_attribute();
  s->set_name("strides");
  s->set_type(onnx::AttributeProto::INTS);
  s->add_ints(2);
  s->add_ints(2);
  m.output("y");
  auto g = m.import();
  ASSERT_EQ(kinds(*g), std::vector<OpKind>{OpKind::kConv2d});
  const auto& attrs = std::get<Conv2dAttrs>(g->operations[0].attrs);
  // Output ceil(5 / 2) = 3: total padding (3 - 1) * 2 + 3 - 5 = 2, split 1 / 1.
  EXPECT_EQ(*attrs.padding, (std::vector<uint32_t>{1, 1, 1, 1}));
  EXPECT_EQ(g->desc(g->outputs[0].operand).shape, (Shape{1, 4, 3, 3}));
}

// ---- What cannot be imported ----

TEST(OnnxImport, UnsupportedOperatorNamesTheNodeTheOpAndTheReason) {
  Model m;
  m.input("x", onnx::TensorProto::UINT32, {4});
  m.node("NonZero", {"x"}, {"y"}, "my_nonzero");
  m.output("y");
  expect_error([&] { m.import(); }, {"my_nonzero", "NonZero", "its output shape depends on the input values"},
               ErrorKind::kNotSupportedError);
}

TEST(OnnxImport, DataTypesWebnnLacksAreNotSupported) {
  Model m;
  m.input("x", onnx::TensorProto::DOUBLE, {4});
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  expect_error([&] { m.import(); }, {"graph input \"x\"", "double"}, ErrorKind::kNotSupportedError);
}

TEST(OnnxImport, SymbolicDimensionsAreBoundByOption) {
  Model m;
  m.input("x", kF32, {-1, 3});
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  expect_error([&] { m.import(); }, {"symbolic dimension \"N\"", "--dim N=VALUE"}, ErrorKind::kNotSupportedError);
  OnnxImportOptions options;
  options.dims["N"] = 5;
  auto g = m.import(options);
  EXPECT_EQ(g->desc(g->inputs[0].operand).shape, (Shape{5, 3}));
}

TEST(OnnxImport, AnInputUsedAsAShapeCanBeFrozen) {
  Model m;
  m.input("x", kF32, {2, 6});
  m.input("shape", onnx::TensorProto::INT64, {2});
  m.node("Reshape", {"x", "shape"}, {"y"});
  m.output("y");
  try {
    m.import();
    ADD_FAILURE() << "expected OnnxNeedsConstantInput";
  } catch (const OnnxNeedsConstantInput& e) {
    EXPECT_EQ(e.input(), "shape");
    EXPECT_EQ(e.kind(), ErrorKind::kNotSupportedError);
    EXPECT_THAT(e.message(), ::testing::HasSubstr("freeze"));
  }
  OnnxImportOptions options;
  NpyArray shape;
  shape.desc = {DataType::kInt64, {2}};
  int64_t v[2] = {3, 4};
  shape.data.resize(16);
  std::memcpy(shape.data.data(), v, 16);
  options.frozen["shape"] = shape;
  auto g = m.import(options);
  ASSERT_EQ(g->inputs.size(), 1u);  // the frozen input is a constant now
  EXPECT_EQ(std::get<ReshapeAttrs>(g->operations.at(0).attrs).new_shape, (Shape{3, 4}));
}

TEST(OnnxImport, GarbageIsADataError) {
  expect_error([] { import_onnx_bytes("not a model at all", "", "junk.onnx"); },
               {"junk.onnx", "not a valid ONNX model"});
}

// ---- External data ----

TEST(OnnxImport, ExternalDataIsReadFromTheModelsDirectoryOnly) {
  TempDir dir;
  float values[4] = {1, 2, 3, 4};
  std::string file(4, '\0');
  file.append(reinterpret_cast<const char*>(values), sizeof(values));
  testing::write_file(dir.file("w.bin"), file);
  auto model = [&](const std::string& location, const std::string& offset) {
    Model m;
    m.input("x", kF32, {4});
    auto* t = m.g->add_initializer();
    t->set_name("w");
    t->set_data_type(kF32);
    t->add_dims(4);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* kv = t->add_external_data();
    kv->set_key("location");
    kv->set_value(location);
    kv = t->add_external_data();
    kv->set_key("offset");
    kv->set_value(offset);
    kv = t->add_external_data();
    kv->set_key("length");
    kv->set_value("16");
    m.node("Add", {"x", "w"}, {"y"});
    m.output("y");
    return m;
  };
  auto g = model("w.bin", "4").import({}, dir.path());
  ASSERT_EQ(g->constants.size(), 1u);
  ASSERT_EQ(g->constants[0].size, 16u);
  EXPECT_EQ(0, std::memcmp(g->constants[0].data.get(), values, 16));
  // Read into aligned storage (at offset 4 in the file), where a backend reads it in place.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(g->constants[0].data.get()) % kBufferAlignment, 0u);

  expect_error([&] { model("../w.bin", "4").import({}, dir.path()); }, {"\"w\"", "leaves the model's directory"});
  expect_error([&] { model(dir.file("w.bin"), "4").import({}, dir.path()); }, {"absolute path"});
  expect_error([&] { model("w.bin", "8").import({}, dir.path()); }, {"past its end"});
  expect_error([&] { model("w.bin", "-1").import({}, dir.path()); }, {"not a byte count"});
  expect_error([&] { model("w.bin", "4").import({}, ""); }, {"not read from a file"});
}

// ---- Our own export, imported back ----

TEST(OnnxImport, ExportedComparisonsAndWhereImportBackAsUint8Operations) {
  GraphBuilder b;
  OperandId x = b.add_input("x", {DataType::kFloat32, {4}});
  OperandId y = b.add_input("y", {DataType::kFloat32, {4}});
  OperandId eq = b.add_operation(OpKind::kGreater, {x, y}, NoAttrs{}).at(0);
  OperandId notq = b.add_operation(OpKind::kLogicalNot, {eq}, NoAttrs{}).at(0);
  OperandId w = b.add_operation(OpKind::kWhere, {notq, x, y}, NoAttrs{}).at(0);
  auto original = b.build({{"mask", notq}, {"w", w}});
  auto g = import_onnx_bytes(export_onnx_bytes(*original), "", "roundtrip");
  std::map<OpKind, int> counts;
  for (const Operation& op : g->operations) counts[op.kind]++;
  EXPECT_EQ(counts[OpKind::kGreater], 1);
  EXPECT_EQ(counts[OpKind::kLogicalNot], 1);
  EXPECT_EQ(counts[OpKind::kWhere], 1);
  ASSERT_EQ(g->outputs.size(), 2u);
  EXPECT_EQ(g->desc(g->outputs[0].operand).to_string(), "uint8[4]");
  EXPECT_EQ(g->desc(g->outputs[1].operand).to_string(), "float32[4]");
}

TEST(OnnxImport, ExportedMobileNetV2ImportsBackToTheSameOperationsAndConstants) {
  const std::string path = std::string(WEBNN_SHARED_DIR) + "/models/mobilenetv2/mobilenetv2.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is missing";
  auto original = load_graph(path);
  auto g = import_onnx_bytes(export_onnx_bytes(*original), "", "mobilenetv2.onnx");
  std::map<OpKind, int> a, b;
  for (const Operation& op : original->operations) a[op.kind]++;
  for (const Operation& op : g->operations) b[op.kind]++;
  EXPECT_EQ(a, b);
  EXPECT_EQ(original->constant_bytes(), g->constant_bytes());
  EXPECT_EQ(original->desc(original->outputs[0].operand), g->desc(g->outputs[0].operand));
}

// A backend reads a constant in place when it starts on kBufferAlignment (the onednn backend
// copies one that does not, for as long as the graph lives): raw_data initializers of every size,
// small ones in typed fields and the importer's own tables all start there. Before, a large one
// started where glibc's malloc put its vector, 16 bytes into a page.
TEST(OnnxImport, EveryConstantStartsOnTheBufferAlignment) {
  GraphBuilder b;
  const OperandId x = b.add_input("x", {DataType::kFloat32, {1, 300000}});
  std::vector<std::byte> big(300000 * sizeof(float), std::byte{1}), small(3 * sizeof(float), std::byte{2});
  const OperandId w = b.add_constant({DataType::kFloat32, {1, 300000}}, BufferRef::copy_of(big));
  const OperandId v = b.add_constant({DataType::kFloat32, {3}}, BufferRef::copy_of(small));
  const OperandId y = b.add_operation(OpKind::kMul, {x, w}, NoAttrs{}).at(0);
  const OperandId s = b.add_operation(OpKind::kSlice, {y}, SliceAttrs{{0, 0}, {1, 3}, std::nullopt}).at(0);
  const OperandId z =
      b.add_operation(OpKind::kAdd, {b.add_operation(OpKind::kReshape, {s}, ReshapeAttrs{{3}}).at(0), v}, NoAttrs{})
          .at(0);
  auto g = import_onnx_bytes(export_onnx_bytes(*b.build({{"z", z}})), "", "aligned");
  ASSERT_GE(g->constants.size(), 2u);
  for (const BufferRef& c : g->constants)
    EXPECT_EQ(reinterpret_cast<uintptr_t>(c.data.get()) % kBufferAlignment, 0u) << c.size << " bytes";
}

TEST(BufferRef, AdoptKeepsAnAlignedVectorAndAlignsAnyOther) {
  std::vector<std::byte> bytes(1 << 20, std::byte{7});
  const std::byte* start = bytes.data();
  const BufferRef r = BufferRef::adopt(std::move(bytes));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(r.data.get()) % kBufferAlignment, 0u);
  if (reinterpret_cast<uintptr_t>(start) % kBufferAlignment == 0) EXPECT_EQ(r.data.get(), start);  // not copied
  ASSERT_EQ(r.size, size_t{1} << 20);
  EXPECT_EQ(r.span()[12345], std::byte{7});
}

// ---- Graphviz ----

TEST(GraphvizExport, MarksInputsConstantsAndOutputsAndRendersWithDot) {
  GraphBuilder b;
  OperandId x = b.add_input("x", {DataType::kFloat32, {1, 2, 4, 4}});
  std::vector<std::byte> w(2 * 2 * 3 * 3 * 4);
  OperandId f = b.add_constant({DataType::kFloat32, {2, 2, 3, 3}}, BufferRef::adopt(w), "filter");
  Conv2dAttrs ca;
  ca.padding = std::vector<uint32_t>{1, 1, 1, 1};
  OperandId y = b.add_operation(OpKind::kConv2d, {x, f}, ca, "conv \"one\"").at(0);
  OperandId z = b.add_operation(OpKind::kRelu, {y}, NoAttrs{}).at(0);
  auto g = b.build({{"out", z}});
  std::string dot = to_dot(*g);
  EXPECT_THAT(dot, ::testing::HasSubstr("input x"));
  EXPECT_THAT(dot, ::testing::HasSubstr("constant filter"));
  EXPECT_THAT(dot, ::testing::HasSubstr("144 bytes"));
  EXPECT_THAT(dot, ::testing::HasSubstr("conv2d [conv \\\"one\\\"]"));
  EXPECT_THAT(dot, ::testing::HasSubstr("padding: [1,1,1,1]"));
  EXPECT_THAT(dot, ::testing::HasSubstr("output out"));
  EXPECT_THAT(dot, ::testing::HasSubstr("float32[1, 2, 4, 4]"));
  TempDir dir;
  save_graph(*g, dir.file("g.dot"));
  EXPECT_EQ(testing::slurp(dir.file("g.dot")), dot);
  if (std::system("command -v dot >/dev/null 2>&1") != 0) GTEST_SKIP() << "graphviz (dot) is not installed";
  std::string cmd = "dot -Tsvg " + dir.file("g.dot") + " -o " + dir.file("g.svg");
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_THAT(testing::slurp(dir.file("g.svg")), ::testing::HasSubstr("<svg"));
}

}  // namespace
}  // namespace webnn::formats
