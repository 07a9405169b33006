// The JSON graph parser: every malformed input is a webnn::Error naming the file and the place.
#include "formats_test_util.hpp"

namespace webnn::formats {
namespace {

using testing::expect_error;
using testing::parse_json;

// A valid graph with one node; `nodes` and `consts` can be replaced to make it invalid.
std::string graph(const std::string& nodes, const std::string& consts = "{}",
                  const std::string& outputs = R"({"y": "y"})") {
  return R"({"format": "webnn-graph-json", "version": 2, "name": "g",
    "inputs": {"x": {"dataType": "float32", "shape": [2, 3]}},
    "consts": )" +
         consts + R"(, "nodes": )" + nodes + R"(, "outputs": )" + outputs + "}";
}

TEST(FormatsJson, ParsesAMinimalGraph) {
  auto g =
      parse_json(graph(R"([{"id": "y", "op": "softmax", "inputs": ["x"], "options": {"axis": 1, "label": "sm"}}])"));
  ASSERT_EQ(g->operations.size(), 1u);
  EXPECT_EQ(g->operations[0].kind, OpKind::kSoftmax);
  EXPECT_EQ(std::get<SoftmaxAttrs>(g->operations[0].attrs).axis, 1u);
  EXPECT_EQ(g->operations[0].label, "sm");
  EXPECT_EQ(g->name, "g");
}

TEST(FormatsJson, TruncatedAndMalformedJson) {
  std::string full = graph(R"([{"id": "y", "op": "relu", "inputs": ["x"]}])");
  expect_error([&] { parse_json(full.substr(0, full.size() / 2)); }, {"g.json", "invalid JSON", "byte", "line"});
  expect_error([&] { parse_json(""); }, {"g.json", "invalid JSON"});
  expect_error([&] { parse_json("[1, 2]"); }, {"g.json", "must hold an object"});
  expect_error([&] { parse_json(R"({"format": "webnn-graph-json", "version": 3, "nodes": [], "outputs": {}})"); },
               {"g.json", "unsupported version 3"});
  expect_error([&] { parse_json(R"({"format": "onnx", "version": 2, "nodes": [], "outputs": {}})"); },
               {"g.json", "format"});
  expect_error([&] { parse_json(R"({"format": "webnn-graph-json", "version": 2, "nodes": []})"); },
               {"g.json", "missing \"outputs\""});
  expect_error(
      [&] { parse_json(R"({"format": "webnn-graph-json", "version": 2, "nodes": [], "outputs": {}, "extra": 1})"); },
      {"g.json", "unknown key \"extra\""});
}

TEST(FormatsJson, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  expect_error([&] { parse_json(deep); }, {"g.json", "nesting is deeper than 64"});
  std::string deep_option = graph(R"([{"id": "y", "op": "relu", "inputs": ["x"], "options": {"label": )" +
                                  std::string(70, '[') + std::string(70, ']') + "}}]");
  expect_error([&] { parse_json(deep_option); }, {"g.json", "nesting"});
}

TEST(FormatsJson, NodeErrorsNameTheNode) {
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "conv3d", "inputs": ["x"]}])")); },
               {"g.json", "nodes[0]", "id \"y\"", "unknown op \"conv3d\""});
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "softmax", "inputs": ["x"], "options": {"axes": 1}}])")); },
               {"g.json", "nodes[0]", "id \"y\"", "unknown option \"axes\"", "valid options: axis, label"});
  expect_error(
      [&] { parse_json(graph(R"([{"id": "y", "op": "softmax", "inputs": ["x"], "options": {"axis": "1"}}])")); },
      {"g.json", "id \"y\"", "option \"axis\"", "must be an integer"});
  expect_error(
      [&] { parse_json(graph(R"([{"id": "y", "op": "softmax", "inputs": ["x"], "options": {"axis": -1}}])")); },
      {"option \"axis\"", "must be an integer"});
  expect_error(
      [&] {
        parse_json(graph(R"([{"id": "y", "op": "reduceMean", "inputs": ["x"], "options": {"keepDimensions": 1}}])"));
      },
      {"option \"keepDimensions\"", "true or false"});
  expect_error(
      [&] { parse_json(graph(R"([{"id": "y", "op": "cast", "inputs": ["x"], "options": {"dataType": "float64"}}])")); },
      {"option \"dataType\"", "unknown data type \"float64\""});
  expect_error(
      [&] {
        parse_json(graph(R"([{"id": "y", "op": "averagePool2d", "inputs": ["x"], "options": {"layout": "nchwc"}}])"));
      },
      {"option \"layout\"", "\"nchw\", \"nhwc\"", "nchwc"});
  expect_error(
      [&] {
        parse_json(graph(R"([{"id": "y", "op": "transpose", "inputs": ["x"], "options": {"permutation": [1, "0"]}}])"));
      },
      {"option \"permutation\"[1]"});
  expect_error(
      [&] { parse_json(graph(R"([{"id": "y", "op": "clamp", "inputs": ["x"], "options": {"minValue": "zero"}}])")); },
      {"option \"minValue\"", "\"zero\" is not a number"});
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "gemm", "inputs": ["x", "x"], "options": {"c": 3}}])")); },
               {"option \"c\"", "must name an operand"});
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "relu", "inputs": ["x"], "options": {"label": 5}}])")); },
               {"option \"label\"", "must be a string"});
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "relu", "inputs": [1]}])")); }, {"nodes[0]", "inputs[0]"});
  expect_error([&] { parse_json(graph(R"([{"op": "relu", "inputs": ["x"]}])")); }, {"nodes[0]", "missing \"id\""});
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "relu", "inputs": ["x"], "attrs": {}}])")); },
               {"id \"y\"", "unknown key \"attrs\""});
}

TEST(FormatsJson, ReferenceErrors) {
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "add", "inputs": ["x", "nope"]}])")); },
               {"g.json", "id \"y\"", "undefined operand \"nope\""});
  expect_error(
      [&] { parse_json(graph(R"([{"id": "y", "op": "conv2d", "inputs": ["x", "x"], "options": {"bias": "b"}}])")); },
      {"id \"y\"", "undefined operand \"b\""});
  // Duplicate node ids, duplicate operand names.
  expect_error(
      [&] {
        parse_json(graph(R"([{"id": "y", "op": "relu", "inputs": ["x"], "outputs": ["a"]},
                        {"id": "y", "op": "relu", "inputs": ["x"]}])"));
      },
      {"nodes[1]", "duplicate node id \"y\""});
  expect_error(
      [&] {
        parse_json(graph(R"([{"id": "a", "op": "relu", "inputs": ["x"], "outputs": ["y"]},
                        {"id": "y", "op": "relu", "inputs": ["x"]}])"));
      },
      {"nodes[1]", "duplicate operand name \"y\""});
  expect_error([&] { parse_json(graph(R"([{"id": "x", "op": "relu", "inputs": ["x"]}])")); },
               {"duplicate operand name \"x\""});
  // Duplicate keys in an object (two inputs named the same).
  expect_error(
      [&] {
        parse_json(
            R"({"format": "webnn-graph-json", "version": 2, "inputs": {"x": {"dataType": "float32", "shape": [1]},
                 "x": {"dataType": "float32", "shape": [2]}}, "nodes": [], "outputs": {}})");
      },
      {"g.json", "duplicate key \"x\""});
  // A cycle: y = relu(z), z = relu(y).
  expect_error(
      [&] {
        parse_json(
            graph(R"([{"id": "y", "op": "relu", "inputs": ["z"]}, {"id": "z", "op": "relu", "inputs": ["y"]}])"));
      },
      {"g.json", "nodes[0]", "id \"y\"", "cycle"});
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "relu", "inputs": ["y"]}])")); }, {"id \"y\"", "cycle"});
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "relu", "inputs": ["x"]}])", "{}", R"({"out": "q"})")); },
               {"g.json", "outputs.out", "undefined operand \"q\""});
}

TEST(FormatsJson, BuilderErrorsNameTheNode) {
  // The spec's validation runs on every node: conv2d needs a 4-D input.
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "conv2d", "inputs": ["x", "x"]}])")); },
               {"g.json", "nodes[0]", "id \"y\"", "conv2d"}, ErrorKind::kTypeError);
  expect_error(
      [&] {
        parse_json(graph(R"([{"id": "y", "op": "split", "inputs": ["x"], "options": {"splits": 3, "axis": 1}}])"));
      },
      {"id \"y\"", "3 result(s)", "1 output(s)"});
  expect_error([&] { parse_json(graph(R"([{"id": "y", "op": "relu", "inputs": ["x"]}])", "{}", R"({"out": "x"})")); },
               {"g.json", "graph input"}, ErrorKind::kTypeError);
}

TEST(FormatsJson, ConstantErrors) {
  const std::string node = R"([{"id": "y", "op": "add", "inputs": ["x", "k"]}])";
  expect_error(
      [&] {
        parse_json(graph(
            node,
            R"({"k": {"dataType": "float32", "shape": [2, 3], "init": {"kind": "inlineBytes", "bytes": [1, 2]}}})"));
      },
      {"consts.k", "2 bytes", "float32[2, 3] needs 24"});
  expect_error(
      [&] {
        parse_json(graph(
            node, R"({"k": {"dataType": "float32", "shape": [3], "init": {"kind": "inlineBytes", "bytes": [256]}}})"));
      },
      {"consts.k.init.bytes[0]", "[0, 255]"});
  expect_error(
      [&] { parse_json(graph(node, R"({"k": {"dataType": "float32", "shape": [3], "init": {"kind": "base64"}}})")); },
      {"consts.k.init.kind", "unknown init kind \"base64\""});
  expect_error(
      [&] {
        parse_json(
            graph(node, R"({"k": {"dataType": "float32", "shape": [3], "init": {"kind": "weights", "ref": "k"}}})"));
      },
      {"consts.k", "weights key \"k\"", "no weights file"});
  expect_error([&] { parse_json(graph(node, R"({"k": {"dataType": "float32", "shape": [3]}})")); },
               {"consts.k", "missing \"init\""});
  expect_error(
      [&] {
        parse_json(
            graph(node, R"({"k": {"dataType": "float32", "shape": [-3], "init": {"kind": "scalar", "value": 1}}})"));
      },
      {"consts.k.shape", "shape[0]"});
  expect_error(
      [&] {
        parse_json(graph(
            node,
            R"({"k": {"dataType": "float32", "shape": [65536, 65536, 65536], "init": {"kind": "scalar", "value": 1}}})"));
      },
      {"consts.k", "too large"});
}

}  // namespace
}  // namespace webnn::formats
