// What a hostile ONNX model broke in the importer (issue 27), one group per finding; each test
// failed (or crashed with std::bad_alloc) before its fix: external data read through symbolic
// links out of the model's directory, folding without a memory budget, OneHot allocating `depth`
// before checking it, typed initializer data wrapping into its type, models that break ONNX's
// structural rules given a meaning, errors without their prefix or node, and initializers of a
// graph input's name frozen instead of being the input's default. The control flow tests came
// with If, Loop and Scan: what a hostile model could ask of inlining. The Einsum group came with
// Einsum's general forms: its equation is bytes of the model, and one that means nothing is a
// DataError naming what is wrong.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>

#include "formats/internal.hpp"
#include "formats/onnx/import.hpp"
#include "formats_test_util.hpp"
#include "onnx_test_model.hpp"

namespace webnn::formats {
namespace {

using testing::expect_error;
using testing::kOnnxFloat;
using testing::kOnnxInt64;
using testing::onnx_attr_i;
using testing::onnx_attr_s;
using testing::TempDir;
using Model = testing::OnnxModel;
using Clock = std::chrono::steady_clock;

size_t count_ops(const Graph& g, OpKind kind) {
  size_t n = 0;
  for (const Operation& op : g.operations) n += op.kind == kind;
  return n;
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// ---- 1. External data stays inside the model's directory ----

// A model whose initializer "w" (16 bytes) is read from `location`.
Model external_model(const std::string& location, const std::string& offset = "0") {
  Model m;
  m.input("x", onnx::TensorProto::UINT8, {16});
  auto* t = m.initializer("w", onnx::TensorProto::UINT8, {16});
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* kv = t->add_external_data();
  kv->set_key("location");
  kv->set_value(location);
  kv = t->add_external_data();
  kv->set_key("offset");
  kv->set_value(offset);
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  return m;
}

TEST(OnnxHardening, ExternalDataThroughASymlinkedDirectoryIsRefused) {
  TempDir dir;
  std::filesystem::create_directory_symlink("/etc", dir.file("linkdir"));
  expect_error([&] { external_model("linkdir/passwd").import({}, dir.path()); },
               {"ONNX import: test.onnx: initializer \"w\"", "\"linkdir/passwd\"", "leaves the model's directory"});
}

TEST(OnnxHardening, ExternalDataThroughASymlinkedFileIsRefused) {
  TempDir dir;
  std::filesystem::create_symlink("/etc/passwd", dir.file("w.bin"));
  expect_error([&] { external_model("w.bin").import({}, dir.path()); },
               {"initializer \"w\"", "\"w.bin\"", "leaves the model's directory"});
}

TEST(OnnxHardening, ExternalDataLinksThatStayInsideAreFollowed) {
  TempDir dir;
  std::filesystem::create_directory(dir.file("data"));
  testing::write_file(dir.file("data/w.bin"), std::string(16, '\x07'));
  std::filesystem::create_symlink("data/w.bin", dir.file("inner.bin"));
  auto g = external_model("inner.bin").import({}, dir.path());
  ASSERT_EQ(g->constants.size(), 1u);
  EXPECT_EQ(g->constants[0].data.get()[0], std::byte{7});
}

// The path taken where the kernel has no openat2 (O_NOFOLLOW per component + realpath) refuses
// and accepts the same files.
TEST(OnnxHardening, TheFallbackWithoutOpenat2RefusesTheSameLinks) {
  TempDir dir;
  std::filesystem::create_directory_symlink("/etc", dir.file("linkdir"));
  std::filesystem::create_symlink("/etc/passwd", dir.file("w.bin"));
  std::filesystem::create_directory(dir.file("data"));
  testing::write_file(dir.file("data/ok.bin"), "ok");
  std::filesystem::create_symlink("data/ok.bin", dir.file("inner.bin"));
  for (bool use_openat2 : {true, false}) {
    SCOPED_TRACE(use_openat2 ? "openat2" : "O_NOFOLLOW + realpath");
    expect_error([&] { open_beneath(dir.path(), "linkdir/passwd", "x", use_openat2); }, {"x leaves"});
    expect_error([&] { open_beneath(dir.path(), "w.bin", "x", use_openat2); }, {"x leaves"});
    expect_error([&] { open_beneath(dir.path(), "data/../../etc/passwd", "x", use_openat2); }, {"x leaves"});
    expect_error([&] { open_beneath(dir.path(), "/etc/passwd", "x", use_openat2); }, {"x leaves"});
    expect_error([&] { open_beneath(dir.path(), "missing.bin", "x", use_openat2); }, {"x: cannot open"});
    expect_error([&] { open_beneath(dir.path(), "data", "x", use_openat2); }, {"not a regular file"});
    for (const char* inside : {"inner.bin", "data/ok.bin", "./data/ok.bin"}) {
      int fd = open_beneath(dir.path(), inside, "x", use_openat2);
      char buf[2];
      EXPECT_EQ(::read(fd, buf, 2), 2) << inside;
      ::close(fd);
    }
  }
}

TEST(OnnxHardening, AnExternalByteRangeFeedsOneTensorOnly) {
  // Many initializers over one range would read (and hold) one file many times over.
  TempDir dir;
  testing::write_file(dir.file("w.bin"), std::string(32, '\x01'));
  Model m = external_model("w.bin", "0");
  auto* t = m.initializer("v", onnx::TensorProto::UINT8, {16});
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* kv = t->add_external_data();
  kv->set_key("location");
  kv->set_value("w.bin");
  kv = t->add_external_data();
  kv->set_key("offset");
  kv->set_value("8");
  expect_error([&] { m.import({}, dir.path()); }, {"initializer \"v\"", "overlap another tensor's external data"});
  kv->set_value("16");  // the next 16 bytes: distinct
  EXPECT_NO_THROW(m.import({}, dir.path()));
}

// ---- 2. One memory budget for folded and materialised values ----

OnnxImportOptions budget(uint64_t bytes) {
  OnnxImportOptions o;
  o.memory_budget = bytes;
  return o;
}

TEST(OnnxHardening, FoldedValuesAreFreedAfterTheirLastUse) {
  // 1,000 Neg of one 65,536-element int64 constant (512 KB each): held for the whole import they
  // were 512 MB (10,000 of them reached 5.1 GB); released after their last use, 4 MiB is enough.
  Model m;
  m.int64_iota("c", 65536);
  for (int i = 0; i < 1000; ++i) m.node("Neg", {"c"}, {"n" + std::to_string(i)});
  m.output("n999");
  auto g = m.import(budget(4 << 20));
  EXPECT_EQ(g->constant_bytes(), 65536u * 8);
}

TEST(OnnxHardening, AGrowingConcatChainFoldsWithinASmallBudget) {
  // Each link adds one element: 6,000 links held together were 144 MB (60,000 reached 7.9 GB and
  // std::bad_alloc); released after their last use, 1 MiB is enough.
  Model m;
  m.int64s("one", {1});
  std::string prev = "one";
  for (int i = 0; i < 6000; ++i) {
    std::string next = "c" + std::to_string(i);
    onnx_attr_i(m.node("Concat", {prev, "one"}, {next}), "axis", 0);
    prev = next;
  }
  m.output(prev);
  auto g = m.import(budget(1 << 20));
  EXPECT_EQ(g->desc(g->outputs[0].operand).shape, (Shape{6001}));
}

TEST(OnnxHardening, ValuesKeptPastTheBudgetAreANotSupportedErrorNamingNodeSizeAndBound) {
  Model m;
  m.int64_iota("c", 65536);
  for (int i = 0; i < 100; ++i) {
    m.node("Neg", {"c"}, {"n" + std::to_string(i)}, "neg" + std::to_string(i));
    m.output("n" + std::to_string(i));  // every one is kept to the end
  }
  expect_error([&] { m.import(budget(4 << 20)); },
               {"ONNX import: test.onnx: node \"neg", "(Neg)", "524288 bytes", "its memory budget is 4194304 bytes",
                "--memory-budget"},
               ErrorKind::kNotSupportedError);
  EXPECT_NO_THROW(m.import(budget(64 << 20)));  // raising the budget imports it
}

TEST(OnnxHardening, RangeIsHeldToTheFoldLimit) {
  // Four unused Range of 2^29 values built 4 GB vectors each before.
  Model m(17);
  m.int64_scalar("start", 0);
  m.int64_scalar("limit", int64_t{1} << 29);
  m.int64_scalar("delta", 1);
  m.input("x", kOnnxFloat, {2});
  for (int i = 0; i < 4; ++i) m.node("Range", {"start", "limit", "delta"}, {"r" + std::to_string(i)}, "range");
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  auto t0 = Clock::now();
  expect_error([&] { m.import(); }, {"node \"range\" (Range)", "536870912", "up to 65536 values (the fold limit)"},
               ErrorKind::kNotSupportedError);
  EXPECT_LT(seconds_since(t0), 2.0);
}

TEST(OnnxHardening, ALargeConstantOfShapeIsAnExpandNotAnAllocation) {
  // Eight ConstantOfShape of 2 GiB each (an 847-byte model) allocated them all before.
  Model m;
  m.int64s("shape", {int64_t{1} << 29});
  for (int i = 0; i < 8; ++i) {
    m.node("ConstantOfShape", {"shape"}, {"z" + std::to_string(i)});
    m.output("z" + std::to_string(i));
  }
  auto t0 = Clock::now();
  auto g = m.import();
  EXPECT_LT(seconds_since(t0), 2.0);
  EXPECT_EQ(count_ops(*g, OpKind::kExpand), 8u);
  EXPECT_LT(g->constant_bytes(), 64u);
  EXPECT_EQ(g->desc(g->outputs[0].operand).shape, (Shape{uint32_t{1} << 29}));
}

TEST(OnnxHardening, FoldsBeyondTheFoldLimitBecomeOperations) {
  // Each result is over 65,536 elements: computed at run time, never allocated at import.
  Model m;
  m.int64_iota("a", 256);
  m.int64_iota("b", 1024);
  m.int64s("col", {256, 1});
  m.node("Reshape", {"a", "col"}, {"a2"});
  m.node("Add", {"a2", "b"}, {"sum"});  // [256, 1] + [1024]: 262,144 elements from two small ones
  m.int64s("pair", {5, 6});
  m.int64s("reps", {1 << 20});
  m.node("Tile", {"pair", "reps"}, {"tiled"});
  m.int64_iota("h", 40000);
  onnx_attr_i(m.node("Concat", {"h", "h"}, {"joined"}), "axis", 0);
  for (const char* out : {"sum", "tiled", "joined"}) m.output(out);
  auto g = m.import(budget(8 << 20));
  EXPECT_EQ(count_ops(*g, OpKind::kAdd), 1u);
  EXPECT_EQ(count_ops(*g, OpKind::kTile), 1u);
  EXPECT_EQ(count_ops(*g, OpKind::kConcat), 1u);
  EXPECT_LT(g->constant_bytes(), 1u << 20);
}

TEST(OnnxHardening, ExpandOfAConstantBeyondTheFoldLimitIsAnExpand) {
  Model m;
  m.int64s("one", {7});
  m.int64s("big", {int64_t{1} << 20});
  m.node("Expand", {"one", "big"}, {"wide"});
  m.output("wide");
  auto g = m.import(budget(1 << 20));
  EXPECT_EQ(count_ops(*g, OpKind::kExpand), 1u);
  EXPECT_LT(g->constant_bytes(), 64u);
}

TEST(OnnxHardening, TablesAreCheckedAgainstTheBudgetBeforeTheyAreMade) {
  // OneHot's table of positions is depth long: reserved before it is allocated.
  Model m;
  m.input("i", kOnnxInt64, {4});
  m.int64_scalar("depth", int64_t{1} << 20);
  m.floats("values", {2}, {0, 1});
  m.node("OneHot", {"i", "depth", "values"}, {"y"}, "hot");
  m.output("y");
  expect_error([&] { m.import(budget(1 << 20)); },
               {"node \"hot\" (OneHot)", "the positions 0 to depth - 1", "8388608 bytes", "memory budget is 1048576"},
               ErrorKind::kNotSupportedError);
  EXPECT_NO_THROW(m.import(budget(16 << 20)));
}

// ---- 3. OneHot checks depth before allocating ----

TEST(OnnxHardening, OneHotDepthIsCheckedBeforeAnythingIsAllocated) {
  auto model = [](double depth, int32_t index_type) {
    Model m;
    m.input("i", index_type, {1});
    m.floats("depth", {}, {float(depth)});
    m.floats("values", {2}, {0, 1});
    m.node("OneHot", {"i", "depth", "values"}, {"y"}, "hot");
    m.output("y");
    return m;
  };
  auto t0 = Clock::now();
  // 2^31 was std::bad_alloc, and narrowed to uint32 into the shape.
  expect_error([&] { model(2147483648.0, kOnnxInt64).import(); },
               {"node \"hot\" (OneHot)", "a depth of 2147483648", "over WebNN's largest dimension (2147483647)"},
               ErrorKind::kNotSupportedError);
  expect_error([&] { model(1e30, kOnnxInt64).import(); }, {"over WebNN's largest dimension"},
               ErrorKind::kNotSupportedError);
  expect_error([&] { model(std::nan(""), kOnnxInt64).import(); }, {"a depth of nan"}, ErrorKind::kNotSupportedError);
  // 2^29 took 8.4 GB for 14 s before the refusal: now its int64 positions (4 GiB) are refused first.
  expect_error([&] { model(536870912.0, kOnnxInt64).import(); },
               {"the positions 0 to depth - 1", "maxTensorByteLength"}, ErrorKind::kNotSupportedError);
  expect_error([&] { model(300000000.0, onnx::TensorProto::INT32).import(); }, {"memory budget"},
               ErrorKind::kNotSupportedError);
  EXPECT_LT(seconds_since(t0), 2.0);
}

// ---- 4. Typed initializer data must fit its type ----

TEST(OnnxHardening, IntegerAndFloat16DataOutOfTheirTypesRangeIsADataError) {
  auto model = [](int32_t type, auto fill) {
    Model m;
    auto* t = m.initializer("w", type, {2});
    fill(t);
    m.input("x", type, {2});
    m.node("Add", {"x", "w"}, {"y"});
    m.output("y");
    return m;
  };
  using TP = onnx::TensorProto;
  expect_error([&] { model(TP::INT8, [](TP* t) { t->add_int32_data(300), t->add_int32_data(-1000); }).import(); },
               {"initializer \"w\"", "value 300 at index 0 is outside the range of int8 [-128, 127]"});
  expect_error([&] { model(TP::UINT8, [](TP* t) { t->add_int32_data(-1), t->add_int32_data(256); }).import(); },
               {"initializer \"w\"", "value -1 at index 0 is outside the range of uint8 [0, 255]"});
  expect_error(
      [&] { model(TP::UINT32, [](TP* t) { t->add_uint64_data(uint64_t{1} << 40), t->add_uint64_data(5); }).import(); },
      {"initializer \"w\"", "value 1099511627776 at index 0 is outside the range of uint32"});
  expect_error(
      [&] { model(TP::FLOAT16, [](TP* t) { t->add_int32_data(0x3c00), t->add_int32_data(0x1ffff); }).import(); },
      {"initializer \"w\"", "value 131071 at index 1 is outside the range of float16 bit patterns [0, 65535]"});
  // In range they import; bool from int32_data is a cast (any nonzero is true), not a wrap.
  auto g = model(TP::INT8, [](TP* t) { t->add_int32_data(127), t->add_int32_data(-128); }).import();
  EXPECT_EQ(std::to_integer<int8_t>(g->constants[0].data.get()[1]), -128);
  Model b;
  auto* t = b.initializer("w", TP::BOOL, {2});
  t->add_int32_data(256);
  t->add_int32_data(0);
  b.node("Not", {"w"}, {"y"});
  b.output("y");
  auto bg = b.import();
  ASSERT_EQ(bg->constants.size(), 1u);  // Not folds: 256 is true, so not-256 is 0
  EXPECT_EQ(bg->constants[0].data.get()[0], std::byte{0});
  EXPECT_EQ(bg->constants[0].data.get()[1], std::byte{1});
}

TEST(OnnxHardening, AConstantOfShapeValueIsDecodedAndCheckedAsAnInitializer) {
  Model m;
  m.int64s("shape", {2});
  auto* n = m.node("ConstantOfShape", {"shape"}, {"y"}, "fill");
  auto* a = n->add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  a->mutable_t()->set_data_type(onnx::TensorProto::INT8);
  a->mutable_t()->add_dims(1);
  a->mutable_t()->add_int32_data(300);
  m.output("y");
  expect_error([&] { m.import(); }, {"node \"fill\" (ConstantOfShape)", "value 300", "int8"});
  a->mutable_t()->set_int32_data(0, -3);
  auto g = m.import();
  ASSERT_EQ(g->constants.size(), 1u);
  EXPECT_EQ(std::to_integer<int8_t>(g->constants[0].data.get()[1]), -3);
}

// ---- 5. ONNX's structural rules ----

TEST(OnnxHardening, EveryValueIsAssignedOnce) {
  {
    Model m;
    m.input("x", kOnnxFloat, {2});
    m.node("Neg", {"x"}, {"x"}, "again");
    m.output("x");
    expect_error([&] { m.import(); },
                 {"node \"again\" (Neg)", "output 0 (\"x\") is already defined as the graph input"});
  }
  {
    Model m;
    m.input("x", kOnnxFloat, {2});
    m.floats("c", {2}, {1, 2});
    auto* n = m.node("Constant", {}, {"c"}, "shadow");
    auto* a = n->add_attribute();
    a->set_name("value_float");
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(3);
    m.node("Add", {"x", "c"}, {"y"});
    m.output("y");
    expect_error([&] { m.import(); }, {"node \"shadow\" (Constant)", "already defined as an initializer"});
  }
  {
    Model m;
    m.input("x", kOnnxFloat, {2});
    m.node("Relu", {"x"}, {"y"}, "first");
    m.node("Neg", {"x"}, {"y"}, "second");
    m.output("y");
    expect_error([&] { m.import(); },
                 {"node \"second\" (Neg)", "already defined as output 0 of node \"first\" (Relu)"});
  }
  {
    Model m;
    m.input("x", kOnnxFloat, {2});
    m.input("x", kOnnxFloat, {3});
    m.node("Relu", {"x"}, {"y"});
    m.output("y");
    expect_error([&] { m.import(); }, {"ONNX import: test.onnx: two graph inputs are named \"x\""});
  }
  {
    Model m;
    m.input("x", kOnnxFloat, {2});
    m.floats("w", {2}, {1, 2});
    m.floats("w", {2}, {3, 4});
    m.node("Add", {"x", "w"}, {"y"});
    m.output("y");
    expect_error([&] { m.import(); }, {"two initializers are named \"w\""});
  }
}

TEST(OnnxHardening, AttributesAreRequiredAndGivenOnceAsTheSchemaSays) {
  auto concat = [](int64_t opset, std::vector<int64_t> axes) {
    Model m(opset);
    m.input("a", kOnnxFloat, {2});
    m.input("b", kOnnxFloat, {2});
    auto* n = m.node("Concat", {"a", "b"}, {"y"}, "cat");
    for (int64_t a : axes) onnx_attr_i(n, "axis", a);
    m.output("y");
    return m;
  };
  // Axis 0 was used.
  expect_error([&] { concat(13, {}).import(); }, {"node \"cat\" (Concat)", "axis"});
  expect_error([&] { concat(18, {}).import(); }, {"node \"cat\" (Concat)", "the required attribute axis is missing"});
  // The first was used.
  expect_error([&] { concat(13, {0, 5}).import(); }, {"node \"cat\" (Concat)", "attribute \"axis\" is given twice"});
  expect_error([&] { concat(18, {0, 5}).import(); }, {"attribute \"axis\" is given twice"});
  EXPECT_NO_THROW(concat(13, {0}).import());
  // Arity and unknown attributes by the operator's schema.
  Model m;
  m.input("x", kOnnxFloat, {2});
  m.node("Relu", {"x", "x"}, {"y"}, "two");
  m.output("y");
  expect_error([&] { m.import(); }, {"node \"two\" (Relu)", "does not follow the definition of Relu-14"});
}

TEST(OnnxHardening, ShapesAxesAndPadsMustBeIntegerTensors) {
  Model m;
  m.input("x", kOnnxFloat, {2, 3});
  m.floats("shape", {2}, {3, 2});
  m.node("Reshape", {"x", "shape"}, {"y"}, "r");
  m.output("y");
  expect_error([&] { m.import(); },
               {"node \"r\" (Reshape)", "shape (input \"shape\") must be an integer tensor", "float32[2]"});
}

TEST(OnnxHardening, TheOpsetMustBeOneTheImporterKnows) {
  for (int64_t opset : {int64_t{0}, int64_t{-1}, int64_t{21}, int64_t{1} << 62}) {
    Model m(opset);
    m.input("x", kOnnxFloat, {2});
    m.node("Relu", {"x"}, {"y"});
    m.output("y");
    expect_error([&] { m.import(); },
                 {"opset " + std::to_string(opset) + " of the default ONNX domain is not one the importer knows"},
                 ErrorKind::kNotSupportedError);
  }
}

TEST(OnnxHardening, ConstantIndicesOutOfRangeAreRefusedWhereOnnxCallsThemErrors) {
  {
    // ScatterND into [4] at index 7: the scatter clamped it to 3.
    Model m;
    m.input("data", kOnnxFloat, {4});
    auto* i = m.initializer("idx", kOnnxInt64, {1, 1});
    i->add_int64_data(7);
    m.input("upd", kOnnxFloat, {1});
    m.node("ScatterND", {"data", "idx", "upd"}, {"y"}, "scatter");
    m.output("y");
    expect_error([&] { m.import(); }, {"node \"scatter\" (ScatterND)", "index 7", "out of range for a dimension of 4"});
    i->set_int64_data(0, -4);  // counts from the end: in range
    EXPECT_NO_THROW(m.import());
  }
  for (const char* op : {"NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"}) {
    Model m(13);
    m.input("x", kOnnxFloat, {2, 3});
    auto* t = m.initializer("t", kOnnxInt64, {2});
    t->add_int64_data(1);
    t->add_int64_data(3);
    m.node(op, {"x", "t"}, {"loss"}, "loss");
    m.output("loss");
    expect_error([&] { m.import(); }, {"node \"loss\"", "target 3 (element 1) is not a class in [0, 3)"});
    t->set_int64_data(1, 2);
    EXPECT_NO_THROW(m.import());
  }
  {
    Model m;
    m.input("data", kOnnxFloat, {4});
    m.int64s("idx", {0, 4});
    m.node("Gather", {"data", "idx"}, {"y"}, "gather");
    m.output("y");
    expect_error([&] { m.import(); },
                 {"node \"gather\" (Gather)", "index 4 (element 1 of the indices) is out of range"});
  }
}

// ---- 6. Errors carry their prefix and node ----

TEST(OnnxHardening, ErrorsNameTheModelAndTheNode) {
  {
    Model m;
    m.input("x", kOnnxFloat, {2});
    m.node("Add", {"x", "zz"}, {"y"}, "add");
    m.output("y");
    expect_error([&] { m.import(); },
                 {"ONNX import: test.onnx: node \"add\" (Add): input 1 (\"zz\") is used before it is defined"});
  }
  {
    Model m;
    m.input("x", kOnnxFloat, {2});
    m.initializer("e", kOnnxFloat, {0});
    m.node("Relu", {"e"}, {"y"}, "relu");
    m.output("y");
    expect_error([&] { m.import(); },
                 {"ONNX import: test.onnx: node \"relu\" (Relu): input 0 (\"e\") is an empty tensor"},
                 ErrorKind::kNotSupportedError);
  }
  {
    Model m;
    m.input("x", kOnnxFloat, {2});
    m.node("Relu", {"x"}, {"y"});
    m.output("nowhere");
    expect_error([&] { m.import(); }, {"ONNX import: test.onnx: graph output \"nowhere\" is not defined"});
  }
  {
    Model m;
    m.input("x", kOnnxFloat, {2});
    m.node("Relu", {"x"}, {"y"});
    expect_error([&] { m.import(); }, {"ONNX import: test.onnx: the graph has no output"});
    m.input("", kOnnxFloat, {2});
    m.output("y");
    expect_error([&] { m.import(); }, {"ONNX import: test.onnx: a graph input has no name"});
  }
}

TEST(OnnxHardening, AnInputUsedOnlyThroughShapeStaysAnInput) {
  Model m;
  m.input("x", kOnnxFloat, {2, 3});
  m.input("unused", kOnnxFloat, {5});
  m.floats("w", {6}, {1, 2, 3, 4, 5, 6});
  m.node("Shape", {"x"}, {"s"});
  m.node("Reshape", {"w", "s"}, {"y"});
  m.output("y");
  auto g = m.import();
  ASSERT_EQ(g->inputs.size(), 2u);  // the model's inputs, in its order
  EXPECT_EQ(g->inputs[0].name, "x");
  EXPECT_EQ(g->desc(g->inputs[0].operand).shape, (Shape{2, 3}));
  EXPECT_EQ(g->inputs[1].name, "unused");
  EXPECT_EQ(g->operands[g->inputs[1].operand].kind, OperandKind::kInput);
}

// ---- 7. An initializer of an input's name is that input's default ----

Model defaulted(int64_t ir_version) {
  Model m(17, ir_version);
  m.input("x", kOnnxFloat, {2});
  m.input("w", kOnnxFloat, {2});
  m.floats("w", {2}, {10, 20});
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  return m;
}

TEST(OnnxHardening, AnInitializerOfAnInputsNameIsItsDefault) {
  auto g = defaulted(8).import();
  ASSERT_EQ(g->inputs.size(), 2u);
  EXPECT_EQ(g->inputs[1].name, "w");
  ASSERT_EQ(g->input_defaults.count("w"), 1u);
  const BufferRef& d = g->input_defaults.at("w");
  ASSERT_EQ(d.size, 8u);
  float v[2];
  std::memcpy(v, d.data.get(), 8);
  EXPECT_EQ(v[0], 10);
  EXPECT_EQ(v[1], 20);
  EXPECT_TRUE(g->constants.empty());
  // Before IR version 4 every initializer was listed as an input: a constant.
  auto old = defaulted(3).import();
  ASSERT_EQ(old->inputs.size(), 1u);
  EXPECT_TRUE(old->input_defaults.empty());
  EXPECT_EQ(old->constants.size(), 1u);
}

TEST(OnnxHardening, ADefaultNeededWhenTheGraphIsBuiltFreezesItsInputAndSaysWhy) {
  Model m;
  m.input("x", kOnnxFloat, {12});
  m.input("s", kOnnxInt64, {2});
  m.int64s("s", {3, 4});
  m.node("Reshape", {"x", "s"}, {"y"}, "r");
  m.output("y");
  auto g = m.import();
  ASSERT_EQ(g->inputs.size(), 1u);
  EXPECT_EQ(g->desc(g->outputs[0].operand).shape, (Shape{3, 4}));
  ASSERT_EQ(g->frozen_inputs.count("s"), 1u);
  EXPECT_THAT(g->frozen_inputs.at("s"), ::testing::HasSubstr("node \"r\" (Reshape) needs its value (shape)"));
  EXPECT_THAT(g->frozen_inputs.at("s"), ::testing::HasSubstr("--freeze s=FILE.npy"));
}

TEST(OnnxHardening, ADefaultMustMatchItsInput) {
  Model m;
  m.input("x", kOnnxFloat, {2});
  m.input("w", kOnnxFloat, {2});
  m.floats("w", {3}, {1, 2, 3});
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  expect_error([&] { m.import(); },
               {"graph input \"w\" is float32[2] but its initializer (its default value) is float32[3]"});
}

// ---- 7. Control flow: subgraphs inlined within the budget, under ONNX's naming rules ----

constexpr int32_t kOnnxBool = onnx::TensorProto::BOOL;

void graph_attr(onnx::NodeProto* n, const std::string& name, const Model& body) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  a->mutable_g()->CopyFrom(*body.g);
}

// A Loop body that adds `x` (of the enclosing graph) to its carried value `prefix`v, and, when
// `inner_trips` is given, runs a Loop of its own of that many iterations over it first.
Model adding_body(const std::string& prefix, int64_t inner_trips = 0) {
  Model b;
  b.input(prefix + "i", kOnnxInt64, {});
  b.input(prefix + "c", kOnnxBool, {});
  b.input(prefix + "v", kOnnxFloat, {4});
  b.node("Identity", {prefix + "c"}, {prefix + "c_out"});
  std::string v = prefix + "v";
  if (inner_trips) {
    b.int64_scalar(prefix + "n", inner_trips);
    graph_attr(b.node("Loop", {prefix + "n", "", v}, {prefix + "looped"}), "body", adding_body(prefix + "in_"));
    v = prefix + "looped";
  }
  b.node("Add", {v, "x"}, {prefix + "v_out"});
  b.output(prefix + "c_out");
  b.output(prefix + "v_out");
  return b;
}

Model loop_model(int64_t trips, const Model& body) {
  Model m;
  m.input("x", kOnnxFloat, {4});
  m.int64_scalar("M", trips);
  graph_attr(m.node("Loop", {"M", "", "x"}, {"y"}, "loop"), "body", body);
  m.output("y");
  return m;
}

TEST(OnnxHardening, ALoopIsUnrolledWithinTheBudgetOrRefusedBeforeItStarts) {
  // 100 iterations of a 2-node body: 99 adds of x to x, and the budget counts 2 KiB a node.
  auto g = loop_model(100, adding_body("b_")).import();
  EXPECT_EQ(count_ops(*g, OpKind::kAdd), 100u);
  // 10^8 iterations would be 6e11 bytes of nodes: refused before the first, naming the count.
  expect_error([] { loop_model(100'000'000, adding_body("b_")).import(); },
               {"node \"loop\" (Loop)", "100000000 iterations of a body of 2 nodes", "memory budget"},
               ErrorKind::kNotSupportedError);
  // Nested loops multiply. 1,000 x 1,000 is refused before the outer loop starts (its 1,000 uses
  // of a 5-node body alone pass a 4 MiB budget); 100 x 100 once the inner loops' uses pass it.
  expect_error([] { loop_model(1000, adding_body("b_", 1000)).import(budget(4 << 20)); },
               {"node \"loop\" (Loop): 1000 iterations of a body of 5 nodes"}, ErrorKind::kNotSupportedError);
  expect_error([] { loop_model(100, adding_body("b_", 100)).import(budget(4 << 20)); },
               {"node \"loop/iteration ", "memory budget is 4194304 bytes"}, ErrorKind::kNotSupportedError);
  EXPECT_EQ(count_ops(*loop_model(3, adding_body("b_", 4)).import(), OpKind::kAdd), 15u);  // 3 x (4 + 1)
}

TEST(OnnxHardening, ALoopWhoseConditionIsKnownOnlyAtRunTimeIsMaskedOrRefused) {
  // The condition a graph input: each of the 3 iterations runs, its carried value taken by where.
  Model m = loop_model(3, adding_body("b_"));
  m.input("go", kOnnxBool, {});
  m.g->mutable_node(0)->set_input(1, "go");
  auto g = m.import();
  EXPECT_EQ(count_ops(*g, OpKind::kAdd), 3u);
  EXPECT_EQ(count_ops(*g, OpKind::kWhere), 3u);
  // A carried value that grows cannot be masked; without M the condition must be known (frozen).
  Model grows = adding_body("b_");
  grows.g->mutable_node(1)->set_op_type("Concat");
  onnx_attr_i(grows.g->mutable_node(1), "axis", 0);
  Model growing = loop_model(3, grows);
  growing.input("go", kOnnxBool, {});
  growing.g->mutable_node(0)->set_input(1, "go");
  expect_error([&] { growing.import(); }, {"iteration 0: loop-carried value 0 goes from float32[4] to float32[8]"},
               ErrorKind::kNotSupportedError);
  // With scan outputs (whose length masking cannot fix) the condition must be known: the error
  // names the graph input to freeze, and frozen it imports (the backend suite's test_loop11).
  Model scanning = adding_body("b_");
  scanning.node("Identity", {"b_v_out"}, {"b_scan"});
  scanning.output("b_scan");
  Model scanned = loop_model(3, scanning);
  scanned.input("go", kOnnxBool, {});
  scanned.g->mutable_node(0)->set_input(1, "go");
  scanned.g->mutable_node(0)->add_output("ys");
  scanned.output("ys");
  expect_error([&] { scanned.import(); }, {"the condition (input \"go\") must be known", "--freeze go=FILE.npy"},
               ErrorKind::kNotSupportedError);
  OnnxImportOptions frozen;
  frozen.frozen["go"].desc = {DataType::kUint8, {}};
  frozen.frozen["go"].data = {std::byte{1}};
  EXPECT_EQ(count_ops(*scanned.import(frozen), OpKind::kAdd), 3u);
  m.g->mutable_node(0)->set_input(0, "");
  expect_error([&] { m.import(); },
               {"the condition (input \"go\") must be known when the graph is built", "--freeze go=FILE.npy"},
               ErrorKind::kNotSupportedError);
}

TEST(OnnxHardening, ASubgraphDefinesNoNameOfAnEnclosingGraph) {
  Model body = adding_body("b_");
  body.g->mutable_node(1)->set_output(0, "y");  // the enclosing graph's output
  body.g->mutable_output(1)->set_name("y");
  expect_error(
      [&] { loop_model(2, body).import(); },
      {"node \"loop\" (Loop): iteration 0: an output of a node \"y\" is already defined by an enclosing graph"});
  // Nested: the inner body may not define a name of the outer body either.
  Model outer = adding_body("b_", 2);
  auto* inner = outer.g->mutable_node(1)->mutable_attribute(0)->mutable_g();
  inner->mutable_input(2)->set_name("b_v");  // the outer body's carried value
  inner->mutable_node(1)->set_input(0, "b_v");
  expect_error([&] { loop_model(2, outer).import(); }, {"input 2 \"b_v\" is already defined by an enclosing graph"});
}

TEST(OnnxHardening, ASubgraphsInputsAreBoundAsDeclared) {
  Model short_body = adding_body("b_");
  short_body.g->mutable_input()->DeleteSubrange(2, 1);
  expect_error([&] { loop_model(2, short_body).import(); }, {"the body has 2 inputs; it needs 2 + 1"});
  Model typed = adding_body("b_");
  typed.g->mutable_input(1)->mutable_type()->mutable_tensor_type()->set_elem_type(kOnnxFloat);
  expect_error([&] { loop_model(2, typed).import(); },
               {"iteration 0: input \"b_c\" is declared float but is given bool"});
}

TEST(OnnxHardening, ABodysExternalInitializerIsReadOnceForEveryIteration) {
  // Each iteration's use of the body reads the same initializer: decoded once, not read again
  // (which the one-tensor-per-byte-range rule would refuse).
  TempDir dir;
  std::string bytes(16, '\0');
  const float ones[4] = {1, 1, 1, 1};
  std::memcpy(bytes.data(), ones, 16);
  testing::write_file(dir.file("w.bin"), bytes);
  Model body = adding_body("b_");
  auto* t = body.initializer("b_w", kOnnxFloat, {4});
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* kv = t->add_external_data();
  kv->set_key("location");
  kv->set_value("w.bin");
  body.g->mutable_node(1)->set_input(1, "b_w");
  auto g = loop_model(3, body).import({}, dir.path());
  EXPECT_EQ(count_ops(*g, OpKind::kAdd), 3u);
  EXPECT_EQ(g->constant_bytes(), 16u * 3);  // one constant per use of the body, of the same bytes
}

// ---- Einsum's equation, bytes of the model ----

// Einsum of inputs of the given shapes with `equation`.
Model einsum_model(const std::string& equation, const std::vector<std::vector<int64_t>>& shapes) {
  Model m;
  std::vector<std::string> names;
  for (size_t i = 0; i < shapes.size(); ++i) {
    names.push_back("x" + std::to_string(i));
    m.input(names.back(), kOnnxFloat, shapes[i]);
  }
  onnx_attr_s(m.node("Einsum", names, {"y"}, "einsum"), "equation", equation);
  m.output("y");
  return m;
}

TEST(OnnxHardening, EinsumEquationsThatMeanNothingAreDataErrors) {
  const std::string at = "ONNX import: test.onnx: node \"einsum\" (Einsum): ";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"ij->ij,", "the output \"ij,\" has a character that is not a letter"},
      {"ij->i->j", "the output \"i->j\" has a character that is not a letter"},
      {"i.j->ij", "term 0 \"i.j\" has a character that is not a letter"},
      {"...i...->i", "term 0 \"...i...\" has a character that is not a letter"},
      {"ij0->i", "term 0 \"ij0\" has a character that is not a letter"},
      {"ijk->i", "term 0 \"ijk\" does not match input 0 of rank 2"},
      {"ij->ii", "the output names label 'i' twice"},
      {"ij->iz", "the output's label 'z' is in no input"},
      {"ij,jk->ik", "the equation has 2 terms for 1 inputs"},
  };
  for (const auto& [equation, message] : bad) {
    SCOPED_TRACE(equation);
    expect_error([&] { einsum_model(equation, {{2, 3}}).import(); }, {at + message});
  }
  expect_error(
      [&] {
        einsum_model("...ijk->ijk", {{2, 3}}).import();
      },
      {at + "term 0 \"...ijk\" does not match input 0 of rank 2"});
  expect_error(
      [&] {
        einsum_model("...,...->", {{2, 3}, {4, 3}}).import();
      },
      {at + "the output \"\" drops the axes of an ellipsis"});
  expect_error(
      [&] {
        einsum_model("...,...->...", {{2, 3}, {4, 3}}).import();
      },
      {at + "the ellipsis's axis 0 has sizes 2 and 4"});
  expect_error([&] { einsum_model("ij,jk->ik", {{2, 3}, {4, 5}}).import(); }, {at + "label 'j' has sizes 3 and 4"});
  expect_error([&] { einsum_model("ii->i", {{2, 3}}).import(); }, {at + "label 'i' has sizes 2 and 3 in term 0"});
  // numpy's einsum broadcasts a label of size 1 to the other operand's size.
  EXPECT_NO_THROW(einsum_model("ij,jk->ik", {{2, 1}, {3, 4}}).import());
  // What it may mean imports: a scalar's empty equation, a sum to a scalar, an implicit output.
  EXPECT_NO_THROW(einsum_model("", {{}}).import());
  EXPECT_NO_THROW(einsum_model("i->", {{5}}).import());
  EXPECT_NO_THROW(einsum_model("...j,j", {{2, 4, 3}, {3}}).import());
}

}  // namespace
}  // namespace webnn::formats
