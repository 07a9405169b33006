// Regression tests for what a hostile user broke in the file formats (docs/security.md): each
// failed before its fix.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <csignal>
#include <future>

#include "formats/internal.hpp"
#include "formats/onnx/import.hpp"
#include "formats_test_util.hpp"
#include "graph/graph_builder.hpp"

namespace webnn::formats {
namespace {

using testing::expect_error;
using testing::parse_json;
using testing::slurp;
using testing::TempDir;
using testing::write_file;

std::string graph_with(const std::string& nodes) {
  return R"({"format": "webnn-graph-json", "version": 2, "name": "g",
    "inputs": {"x": {"dataType": "float32", "shape": [2, 3]}}, "consts": {},
    "nodes": )" +
         nodes + R"(, "outputs": {"y": "y"}})";
}

// x + c, with a 64-float constant c = value, value + 1, ... (not uniform, so not written as a
// scalar: it goes to the weights file).
std::shared_ptr<const Graph> graph_with_constant(float value) {
  GraphBuilder builder;
  const OperandDescriptor desc{DataType::kFloat32, {64}};
  std::vector<float> values(64);
  for (size_t i = 0; i < values.size(); ++i) values[i] = value + float(i);
  OperandId x = builder.add_input("x", desc);
  OperandId c = builder.add_constant(desc, BufferRef::copy_of(std::as_bytes(std::span(values))));
  OperandId y = builder.add_operation(OpKind::kAdd, {x, c}, default_attributes(OpKind::kAdd)).at(0);
  return builder.build({{"y", y}});
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// ---- Finding 7: required parameters have no defaults ----

TEST(FormatsHardening, RequiredParametersMustBeGiven) {
  expect_error([] { parse_json(graph_with(R"([{"id": "y", "op": "softmax", "inputs": ["x"]}])")); },
               {"g.json", "softmax needs its required parameter \"axis\""});
  expect_error([] { parse_json(graph_with(R"([{"id": "y", "op": "concat", "inputs": ["x", "x"]}])")); },
               {"concat needs its required parameter \"axis\""});
  expect_error([] { parse_json(graph_with(R"([{"id": "y", "op": "cast", "inputs": ["x"]}])")); },
               {"cast needs its required parameter \"dataType\""});
  expect_error([] { parse_json(graph_with(R"([{"id": "y", "op": "cumulativeSum", "inputs": ["x"]}])")); },
               {"cumulativeSum needs its required parameter \"axis\""});
  expect_error(
      [] {
        parse_json(
            graph_with(R"([{"id": "s", "op": "split", "inputs": ["x"], "outputs": ["y"], "options": {"axis": 0}}])"));
      },
      {"split needs its required parameter \"splits\""});
  // The text form goes through the same decoding.
  expect_error(
      [] {
        parse_graph_text("webnn_graph \"g\" v2 { inputs { x: f32[2]; } nodes { y = softmax(x); } outputs { y; } }",
                         no_weights(), "g.webnn");
      },
      {"g.webnn", "softmax needs its required parameter \"axis\""});
}

TEST(FormatsHardening, RequiredParametersAreWrittenEvenAtTheirInitializer) {
  // axis 0 equals SoftmaxAttrs' member initializer: a writer that left it out would write a file
  // the reader rejects.
  auto g = parse_json(graph_with(R"([{"id": "y", "op": "softmax", "inputs": ["x"], "options": {"axis": 0}}])"));
  const std::string json = to_json(*g);
  EXPECT_THAT(json, ::testing::HasSubstr("\"axis\": 0"));
  auto again = parse_graph_json(json, no_weights(), "again.json");
  EXPECT_EQ(std::get<SoftmaxAttrs>(again->operations[0].attrs).axis, 0u);
  auto text = parse_graph_text(to_text(*g), no_weights(), "again.webnn");
  EXPECT_EQ(std::get<SoftmaxAttrs>(text->operations[0].attrs).axis, 0u);
}

// ---- Finding 7: valid JSON followed by a NUL and garbage ----

TEST(FormatsHardening, NulAfterTheDocumentIsAnError) {
  const std::string good = graph_with(R"([{"id": "y", "op": "relu", "inputs": ["x"]}])");
  EXPECT_NO_THROW(parse_json(good));
  expect_error([&] { parse_json(good + std::string("\0garbage", 8)); },
               {"g.json", "NUL byte at byte " + std::to_string(good.size())});
  const std::string manifest =
      R"({"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {}})";
  const std::string header("WGWT\x01\0\0\0", 8);
  auto bytes = std::make_shared<std::string>(header);
  BufferRef ref{std::shared_ptr<const std::byte>(bytes, reinterpret_cast<const std::byte*>(bytes->data())),
                bytes->size()};
  EXPECT_NO_THROW(WeightsFile::from_memory(manifest, ref, "w"));
  expect_error([&] { WeightsFile::from_memory(manifest + std::string("\0x", 2), ref, "w"); }, {"NUL byte"});
}

// ---- Finding 4: parsing is linear ----

// The time to parse a document of n empty node objects. The old parser (nlohmann's callback DOM
// parser) rescanned the parent array at every object end: 400k objects took 28 s.
double seconds_to_reject(size_t n) {
  std::string text = R"({"format": "webnn-graph-json", "version": 2, "inputs": {}, "consts": {}, "nodes": [)";
  for (size_t i = 0; i < n; ++i) text += i ? ",{}" : "{}";
  text += R"(], "outputs": {}})";
  double best = 1e9;
  for (int round = 0; round < 3; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(parse_json(text), Error);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

TEST(FormatsHardening, ParsingManySiblingsIsLinear) {
  // Not a timing of the parser but of its growth: four times the input must take far less than
  // the sixteen times a quadratic parser takes (a linear one takes about four). The fastest of
  // three runs of each size: a run the loaded machine preempted says nothing about the parser.
  auto fastest = [](int siblings) {
    double best = seconds_to_reject(siblings);
    for (int i = 0; i < 2; ++i) best = std::min(best, seconds_to_reject(siblings));
    return best;
  };
  const double small = fastest(50000), large = fastest(200000);
  EXPECT_LT(large, 10 * std::max(small, 1e-3)) << "50k: " << small << " s, 200k: " << large << " s";
  // Wide objects too: ordered_json's own insert searches every earlier member.
  std::string wide = "{";
  for (int i = 0; i < 200000; ++i) wide += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(parse_json(wide + "}"), Error);  // not a graph, but parsed first
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 20.0);
}

TEST(FormatsHardening, DuplicateKeysAndDepthStillCaught) {
  expect_error([] { parse_json(R"({"a": 1, "b": 2, "a": 3})"); }, {"duplicate key \"a\""});
  expect_error([] { parse_json(R"({"a": {"x": 1, "x": 1}})"); }, {"duplicate key \"x\""});
  EXPECT_THROW(parse_json(R"({"a": {"x": 1}, "b": {"x": 1}})"), Error);  // not a graph, but no duplicate
  try {
    parse_json(R"({"a": {"x": 1}, "b": {"x": 1}})");
  } catch (const Error& e) {
    EXPECT_THAT(e.message(), ::testing::Not(::testing::HasSubstr("duplicate")));
  }
}

// Found by the long fuzz run: the JSON writer put a string marker where inline bytes go and
// replaced it after dumping; an output named ESC "ytest" dumped like the marker ("\x01bytes" in
// C++ is "\x1bytes": the hex escape takes the b) and the writer threw std::invalid_argument.
TEST(FormatsHardening, NamesLikeTheInlineBytesPlaceholderRoundTrip) {
  const std::vector<std::string> names = {"\x1bytest", "\x1bytes0", std::string("\x01") + "bytes", "bytes",
                                          "\"bytes\": 0"};
  for (const std::string& name : names) {
    SCOPED_TRACE(quote(name));
    const std::string doc = R"({"format": "webnn-graph-json", "version": 2, "inputs": {},
      "consts": {"c": {"dataType": "float32", "shape": [2], "init": {"kind": "inlineBytes", "bytes": [0, 0, 128, 63, 0, 0, 0, 64]}}},
      "nodes": [{"id": "y", "op": "relu", "inputs": ["c"]}], "outputs": {)" +
                            Json(name).dump() + R"(: "y"}})";
    auto g = parse_json(doc);
    const std::string json = to_json(*g);
    auto again = parse_graph_json(json, no_weights(), "again.json");
    EXPECT_EQ(to_json(*again), json);
    EXPECT_EQ(again->outputs.at(0).name, name);
    EXPECT_EQ(again->constant_data(again->operations.at(0).inputs.at(0)).size, 8u);
  }
}

// ---- Finding 5: FIFOs do not block ----

TEST(FormatsHardening, FifoIsRefusedWithoutBlocking) {
  TempDir dir;
  const std::string fifo = dir.file("g.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Run in a thread so that a regression fails the test instead of hanging it.
  auto load = std::async(std::launch::async, [&] {
    try {
      load_graph(fifo);
    } catch (const Error& e) {
      return std::string(e.message());
    }
    return std::string("loaded");
  });
  ASSERT_EQ(load.wait_for(std::chrono::seconds(20)), std::future_status::ready) << "load_graph blocked on a FIFO";
  EXPECT_THAT(load.get(), ::testing::HasSubstr("not a regular file"));

  // The weights manifest and weights file too, and .npy files.
  const std::string graph = dir.file("w.json");
  write_file(graph, R"({"format": "webnn-graph-json", "version": 2, "inputs": {},
    "consts": {"c": {"dataType": "float32", "shape": [1], "init": {"kind": "weights", "ref": "c"}}},
    "nodes": [], "outputs": {"c": "c"}})");
  ASSERT_EQ(::mkfifo(dir.file("w.manifest.json").c_str(), 0600), 0);
  auto weights = std::async(std::launch::async, [&] {
    try {
      load_graph(graph);
    } catch (const Error& e) {
      return std::string(e.message());
    }
    return std::string("loaded");
  });
  ASSERT_EQ(weights.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  EXPECT_THAT(weights.get(), ::testing::HasSubstr("weights manifest is not a regular file"));
  auto npy = std::async(std::launch::async, [&] {
    try {
      read_npy(fifo);
    } catch (const Error& e) {
      return std::string(e.message());
    }
    return std::string("read");
  });
  ASSERT_EQ(npy.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  EXPECT_THAT(npy.get(), ::testing::HasSubstr("not a regular file"));
}

// ---- Finding 1: output names are never paths ----

TEST(FormatsHardening, OutputFileNamesEscapeEverythingButPlainCharacters) {
  EXPECT_EQ(output_file_name("logits"), "logits.npy");
  EXPECT_EQ(output_file_name("out_1-b.c"), "out_1-b.c.npy");
  EXPECT_EQ(output_file_name("/abs/x"), "%2Fabs%2Fx.npy");
  EXPECT_EQ(output_file_name("../x"), "%2E.%2Fx.npy");
  EXPECT_EQ(output_file_name("."), "%2E.npy");
  EXPECT_EQ(output_file_name("./a"), "%2E%2Fa.npy");
  EXPECT_EQ(output_file_name("a%2Fb"), "a%252Fb.npy");
  EXPECT_EQ(output_file_name(std::string("a\0b", 3)), "a%00b.npy");
  EXPECT_EQ(output_file_name("\xc3\xa9"), "%C3%A9.npy");
  expect_error([] { output_file_name(""); }, {"empty name"});
  expect_error([] { output_file_name(std::string(300, 'x')); }, {"file name would be 304 bytes"});
}

TEST(FormatsHardening, OutputFileNamesAreReversible) {
  for (std::string name : {"a", "/layer1/conv/output_0", "../x", "./a", "a%b", "%41", ".hidden", "a.npy"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(output_name_of_file(output_file_name(name)), name);
  }
  EXPECT_EQ(output_name_of_file("%41.npy"), std::nullopt);  // "A" is spelled "A.npy", nothing else
  EXPECT_EQ(output_name_of_file("a%4.npy"), std::nullopt);
  EXPECT_EQ(output_name_of_file("a.txt"), std::nullopt);
  EXPECT_EQ(output_name_of_file(".npy"), std::nullopt);
}

TEST(FormatsHardening, OutputsStayInsideTheDirectory) {
  TempDir dir;
  const std::string out = dir.file("out");
  const float one = 1.0f;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(&one), sizeof one);
  const OperandDescriptor desc{DataType::kFloat32, {1}};
  write_output_files(out, {{"/abs/x", desc, bytes}, {"../x", desc, bytes}, {"a", desc, bytes}, {"./a", desc, bytes}});
  EXPECT_EQ(files_in(out), (std::vector<std::string>{"%2E%2Fa.npy", "%2E.%2Fx.npy", "%2Fabs%2Fx.npy", "a.npy"}));
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"out"});  // nothing beside it
  EXPECT_EQ(read_npy(out + "/a.npy").desc, desc);
}

// ---- Finding 2 and 8: all outputs or none, and clear errors about the directory ----

TEST(FormatsHardening, AFailedOutputLeavesNothing) {
  TempDir dir;
  const float one = 1.0f;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(&one), sizeof one);
  const OperandDescriptor desc{DataType::kFloat32, {1}};
  const std::string out = dir.file("new/deeper");
  // The second output cannot be encoded (its bytes do not hold its descriptor).
  expect_error(
      [&] {
        write_output_files(out, {{"a", desc, bytes}, {"b", {DataType::kFloat32, {2}}, bytes}});
      },
      {"bytes do not hold"}, ErrorKind::kTypeError);
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{});  // the directories it made are gone too

  // The second output's file name is too long: the first is not written either.
  std::filesystem::create_directory(dir.file("keep"));
  expect_error(
      [&] {
        write_output_files(dir.file("keep"), {{"a", desc, bytes}, {std::string(300, 'b'), desc, bytes}});
      },
      {"file name would be"});
  EXPECT_EQ(files_in(dir.file("keep")), std::vector<std::string>{});
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("keep")));  // it existed before: kept
}

TEST(FormatsHardening, OutputDirectoryErrorsAreClear) {
  TempDir dir;
  const float one = 1.0f;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(&one), sizeof one);
  const OperandDescriptor desc{DataType::kFloat32, {1}};
  write_file(dir.file("file"), "x");
  expect_error([&] { write_output_files(dir.file("file"), {{"a", desc, bytes}}); }, {"file", "not a directory"});
  expect_error([&] { write_output_files("", {{"a", desc, bytes}}); }, {"output directory is an empty path"});
  expect_error([&] { write_output_files(dir.file("file/sub"), {{"a", desc, bytes}}); }, {"not a directory"});
}

// ---- Finding 2: a set of files is renamed together or not at all ----

TEST(FormatsHardening, SaveWhoseManifestCannotBeRenamedLeavesNoWeights) {
  TempDir dir;
  auto g = graph_with_constant(2.0f);
  // The manifest's path is a directory: the last rename fails after the weights were renamed.
  std::filesystem::create_directory(dir.file("g.manifest.json"));
  SaveOptions options;
  options.inline_limit = 0;
  expect_error([&] { save_graph(*g, dir.file("g.json"), options); }, {"g.manifest.json", "is a directory"});
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"g.manifest.json"});

  // With earlier files in place, a failure puts them back as they were.
  std::filesystem::remove(dir.file("g.manifest.json"));
  save_graph(*g, dir.file("g.json"), options);
  const std::string weights_before = slurp(dir.file("g.weights"));
  auto g2 = graph_with_constant(3.0f);
  SaveOptions bad = options;
  bad.manifest_path = dir.path();  // a directory
  expect_error([&] { save_graph(*g2, dir.file("g.json"), bad); }, {"is a directory"});
  EXPECT_EQ(slurp(dir.file("g.weights")), weights_before);
  auto reloaded = load_graph(dir.file("g.json"));
  EXPECT_EQ(reloaded->constants.size(), 1u);
}

TEST(FormatsHardening, CollidingSavePathsAreRefused) {
  TempDir dir;
  auto g = graph_with_constant(2.0f);
  SaveOptions options;
  options.inline_limit = 0;
  options.weights_path = dir.file("g.json");
  expect_error([&] { save_graph(*g, dir.file("g.json"), options); },
               {"the weights file and the graph file are the same file"});
  options.weights_path = dir.file("w.bin");
  options.manifest_path = dir.file("sub/../w.bin");
  std::filesystem::create_directory(dir.file("sub"));
  expect_error([&] { save_graph(*g, dir.file("g.json"), options); },
               {"the weights manifest and the weights file are the same file"});
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"sub"});
}

// ---- Finding 2: a signal removes the temporaries ----

TEST(FormatsHardening, SigintRemovesTemporaryFiles) {
  TempDir dir;
  const std::string target = dir.file("big.onnx");
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // In the child: write part of a file, then get interrupted as Ctrl-C would.
    remove_temporaries_on_signals();
    try {
      AtomicWriter writer;
      size_t f = writer.begin(target);
      writer.append(f, std::string(1 << 20, 'x'));
      ::raise(SIGINT);
    } catch (...) {
    }
    ::_exit(0);  // only reached if the signal did not end the process
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status;
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{});
}

// Every graph file a fuzzer once crashed on (tests/fuzz/regressions/) loads or throws webnn::Error, and
// what loads writes back to JSON; under the sanitizers (CI) any memory error fails the test.
TEST(FormatsHardening, FuzzRegressionsStayFixed) {
  const std::filesystem::path dir = std::filesystem::path(WEBNN_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    // Graph files only: ipc_service_*.bin are byte streams for the service (fuzz_ipc_service's
    // seeds; IpcHostile checks what they found).
    if (entry.path().extension() != ".json" && entry.path().extension() != ".onnx") continue;
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    const std::string bytes = read_file(path);
    try {
      std::shared_ptr<const Graph> g = entry.path().extension() == ".onnx"
                                           ? import_onnx_bytes(bytes, "", path)
                                           : parse_graph_json(bytes, no_weights(), path);
      const std::string json = to_json(*g);
      EXPECT_EQ(to_json(*parse_graph_json(json, no_weights(), "again.json")), json);
    } catch (const Error&) {
      // Refused with the library's error: what a malformed input must get.
    }
    ++checked;
  }
  EXPECT_GE(checked, 2u);
}

// ---- Issue 27 (found by the fuzzers' memory ceiling): scalar initializers amplify ----

// A few hundred bytes of JSON with eight 2 GB constants filled from a scalar asked for 16 GB
// (std::bad_alloc, "unexpected error"). Their bytes are bounded in all by the load's memory budget,
// before anything is allocated; each one alone stays within maxTensorByteLength as before.
TEST(FormatsHardening, ScalarFilledConstantsAreBoundedInAll) {
  std::string consts;
  for (int i = 0; i < 8; ++i)
    consts += std::string(i ? ", " : "") + "\"c" + std::to_string(i) +
              R"(": {"dataType": "float32", "shape": [500000000], "init": {"kind": "scalar", "value": 1.5}})";
  const std::string doc = R"({"format": "webnn-graph-json", "version": 2, "name": "amp", "inputs": {},
    "consts": {)" + consts +
                          R"(}, "nodes": [{"id": "y", "op": "add", "inputs": ["c0", "c1"]}], "outputs": {"y": "y"}})";
  try {
    parse_json(doc);
    ADD_FAILURE() << "expected a NotSupportedError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotSupportedError) << e.what();
    EXPECT_NE(e.message().find("more than the load's memory budget of 1073741824 bytes"), std::string::npos)
        << e.message();
    EXPECT_NE(e.message().find("--memory-budget"), std::string::npos) << e.message();
  }
  // Within the budget the same constants load (small ones here), and a budget can be raised.
  const std::string small = R"({"format": "webnn-graph-json", "version": 2, "name": "ok", "inputs": {},
    "consts": {"a": {"dataType": "float32", "shape": [1000], "init": {"kind": "scalar", "value": 2}},
               "b": {"dataType": "float32", "shape": [1000], "init": {"kind": "scalar", "value": 3}}},
    "nodes": [{"id": "y", "op": "add", "inputs": ["a", "b"]}], "outputs": {"y": "y"}})";
  EXPECT_NO_THROW(parse_json(small));
  EXPECT_THROW(parse_graph_json(small, no_weights(), "g.json", 6000), Error);  // 8000 bytes > 6000
  EXPECT_NO_THROW(parse_graph_json(small, no_weights(), "g.json", 8000));
}

}  // namespace
}  // namespace webnn::formats
