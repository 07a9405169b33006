// The .webnn text parser: the syntax of FORMATS.md, and errors that give line:column.
#include <cstring>

#include "formats_test_util.hpp"

namespace webnn::formats {
namespace {

using testing::expect_error;

std::shared_ptr<const Graph> parse_text(const std::string& text) {
  return parse_graph_text(text, no_weights(), "g.webnn");
}

TEST(FormatsText, ParsesTheFullSyntax) {
  auto g = parse_text(R"(# a comment line
webnn_graph "demo" v2 @quantized {
  inputs  { x: f32[1, 4, 2, 2];   # trailing comment
            /scope/in.0: f32[2]; }
  consts  { one: f32[1] @scalar(1.0);
            $b: f16[2] @bytes([0, 60, 0, 192]);
            neg: f32[1] @scalar("-inf"); }
  nodes   {
    y = add(x, one);
    [a, b2] = split(y, splits=[1, 3], axis=1, label="two parts");
    c = concat([a, a], axis=1);
    s = cast($b, dataType="float32");
    t = add(/scope/in.0, s);
  }
  outputs { c, b2; out = t; "out 2" = y; }
}
)");
  EXPECT_EQ(g->name, "demo");
  ASSERT_EQ(g->inputs.size(), 2u);
  EXPECT_EQ(g->inputs[1].name, "/scope/in.0");
  ASSERT_EQ(g->outputs.size(), 4u);
  EXPECT_EQ(g->outputs[0].name, "c");
  EXPECT_EQ(g->desc(g->outputs[0].operand).to_string(), "float32[1, 2, 2, 2]");
  EXPECT_EQ(g->outputs[1].name, "b2");
  EXPECT_EQ(g->desc(g->outputs[1].operand).to_string(), "float32[1, 3, 2, 2]");
  EXPECT_EQ(g->outputs[2].name, "out");
  EXPECT_EQ(g->operands[g->outputs[2].operand].name, "t");
  EXPECT_EQ(g->outputs[3].name, "out 2");
  const Operation& split = g->operations[1];
  EXPECT_EQ(split.label, "two parts");
  EXPECT_EQ(std::get<SplitAttrs>(split.attrs).splits, SplitSpec(std::vector<uint32_t>{1, 3}));
  // concat's list of operands is its positional inputs.
  EXPECT_EQ(g->operations[2].inputs.size(), 2u);
  // @bytes: float16 1.0 = 0x3c00 and -2.0 = 0xc000, little-endian.
  uint16_t h[2];
  std::memcpy(h, g->constant_data(g->operations[3].inputs[0]).data.get(), 4);
  EXPECT_EQ(h[0], 0x3c00);
  EXPECT_EQ(h[1], 0xc000);
}

TEST(FormatsText, SyntaxErrorsGiveLineAndColumn) {
  const std::string head = "webnn_graph \"g\" v1 {\n  inputs { x: f32[2]; }\n  nodes {\n";
  auto nodes = [&](const std::string& body) { return head + body + "\n  }\n  outputs { y; }\n}\n"; };
  expect_error([&] { parse_text(nodes("    y = relu(x)")); }, {"g.webnn:5:3", "expected ';'"});
  expect_error([&] { parse_text(nodes("    y = relu(x;")); }, {"g.webnn:4:15", "expected ','"});
  expect_error([&] { parse_text(nodes("    y = relu(x, alpha=);")); }, {"g.webnn:4:23", "expected a value"});
  expect_error([&] { parse_text(nodes("    y = relu(x, label=\"open);")); }, {"g.webnn:4:23", "unterminated string"});
  expect_error([&] { parse_text(nodes("    y = relu(x) ! ;")); }, {"g.webnn:4:17", "unexpected character '!'"});
  expect_error([&] { parse_text(nodes("    y = relu(3);")); }, {"g.webnn:4:14", "expected an operand name"});
  expect_error([&] { parse_text(nodes("    y = relu(x, axis=1.);")); }, {"g.webnn:4:22", "malformed number"});
  expect_error([&] { parse_text(nodes("    y = relu(x, axis=99999999999999999999);")); },
               {"g.webnn:4:22", "64-bit range"});
  expect_error([&] { parse_text(nodes("    y = relu(x, l=" + std::string(100, '[') + std::string(100, ']') + ");")); },
               {"g.webnn:4", "deeper than 64"});
  expect_error([&] { parse_text("webnn_graph \"g\" v3 { }"); }, {"g.webnn:1:17", "unsupported version \"v3\""});
  expect_error([&] { parse_text("webnn_graph g v1 { }"); }, {"g.webnn:1:13", "graph name"});
  expect_error([&] { parse_text(head); }, {"g.webnn:4:1", "end of the file"});
  expect_error([&] { parse_text("webnn_graph \"g\" v1 { layers { } }"); },
               {"g.webnn:1:22", "unknown block \"layers\""});
  expect_error([&] { parse_text("webnn_graph \"g\" v1 { } extra"); }, {"g.webnn:1:24", "after the end of the graph"});
  expect_error([&] { parse_text("webnn_graph \"g\" v1 { inputs { x: i4[2]; } }"); }, {"g.webnn:1:34", "i4", "4-bit"});
  expect_error([&] { parse_text("webnn_graph \"g\" v1 { inputs { x: f64[2]; } }"); },
               {"g.webnn:1:34", "unknown type \"f64\""});
  expect_error([&] { parse_text("webnn_graph \"g\" v1 { inputs { x: f32[2, -1]; } }"); },
               {"g.webnn:1:41", "expected a dimension"});
  expect_error([&] { parse_text("webnn_graph \"g\" v1 { consts { k: f32[1]; } }"); }, {"g.webnn:1:40", "initializer"});
  expect_error([&] { parse_text("webnn_graph \"g\" v1 { consts { k: f32[1] @zeros(); } }"); },
               {"g.webnn:1:42", "@zeros"});
  expect_error([&] { parse_text("webnn_graph \"g\" v1 { consts { k: u8[1] @bytes([256]); } }"); },
               {"g.webnn:1:48", "[0, 255]"});
}

TEST(FormatsText, SemanticErrorsNameTheNodeAndPosition) {
  auto graph = [](const std::string& nodes, const std::string& outputs = "y") {
    return "webnn_graph \"g\" v1 {\n  inputs { x: f32[2, 3]; }\n  nodes {\n" + nodes + "\n  }\n  outputs { " + outputs +
           "; }\n}\n";
  };
  expect_error([&] { parse_text(graph("    y = frobnicate(x);")); },
               {"g.webnn:4:5", "node \"y\" (frobnicate)", "unknown op"});
  expect_error([&] { parse_text(graph("    y = softmax(x, axes=1);")); },
               {"g.webnn:4:5", "node \"y\"", "unknown option \"axes\""});
  expect_error([&] { parse_text(graph("    y = softmax(x, axis=\"one\");")); },
               {"g.webnn:4:5", "option \"axis\"", "must be an integer"});
  expect_error([&] { parse_text(graph("    y = softmax(x, axis=1, axis=0);")); }, {"g.webnn:4:28", "given twice"});
  expect_error([&] { parse_text(graph("    y = add(x, w);")); },
               {"g.webnn:4:5", "node \"y\" (add)", "undefined operand \"w\""});
  expect_error([&] { parse_text(graph("    y = relu(x);\n    y = relu(x);")); }, {"g.webnn:5:5", "duplicate"});
  expect_error([&] { parse_text(graph("    y = relu(z);\n    z = relu(y);")); },
               {"g.webnn:4:5", "node \"y\"", "cycle"});
  expect_error([&] { parse_text(graph("    y = relu(x);", "q")); },
               {"g.webnn", "output \"q\"", "undefined operand \"q\""});
  expect_error([&] { parse_text(graph("    y = reshape(x, newShape=[4]);")); }, {"g.webnn:4:5", "node \"y\" (reshape)"},
               ErrorKind::kTypeError);
  expect_error([&] { parse_text(graph("    [y, z] = relu(x);")); }, {"g.webnn:4:5", "1 result(s)", "2 output(s)"});
}

}  // namespace
}  // namespace webnn::formats
