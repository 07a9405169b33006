// ONNX names in the .webnn text form (docs/formats.md, "Names in the text form"): text_name spells
// any name as an identifier of FORMATS.md section 2, distinct names get distinct spellings, and
// name_from_text reverses it; an imported model written as text and read back keeps every name.
#include <random>
#include <set>

#include "formats/onnx/import.hpp"
#include "formats_test_util.hpp"
#include "graph/graph_builder.hpp"

namespace webnn::formats {
namespace {

using testing::expect_same_graph;

// FORMATS.md section 2, written out here independently of the lexer: a letter, `_`, `/` or `$`,
// then letters, digits, `_`, `.` or `/`; true/false/null read as values.
bool is_text_identifier(const std::string& s) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (s.empty() || !(letter(s[0]) || s[0] == '_' || s[0] == '/' || s[0] == '$')) return false;
  for (size_t i = 1; i < s.size(); ++i) {
    char c = s[i];
    if (!(letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '/')) return false;
  }
  return s != "true" && s != "false" && s != "null";
}

// Strict UTF-8 (RFC 3629: shortest forms, no surrogates, at most U+10FFFF), written out here.
bool is_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    size_t n = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : 9;
    if (n == 9 || i + n >= s.size() + (n ? 0 : 1)) return false;
    uint32_t cp = n == 0 ? b : b & (0x3f >> n);
    for (size_t k = 1; k <= n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c >> 6) != 2) return false;
      cp = (cp << 6) | (c & 0x3f);
    }
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

// Names PyTorch and other exporters write, names that collide under a naive "replace what is not
// allowed by _" rule, the escape characters themselves, words the text form reads as values,
// unicode, and empty-ish names.
const std::vector<std::string>& awkward_names() {
  static const std::vector<std::string> names = {"191",
                                                 "0",
                                                 "onnx::Conv_251",
                                                 "/layer1/Relu_output_0",
                                                 "/layer1/0/conv1/Conv",
                                                 "input.1",
                                                 "a-b",
                                                 "a_b",
                                                 "a b",
                                                 "a:b",
                                                 "a__b",
                                                 "a_2Db",
                                                 "a_2db",
                                                 "$a",
                                                 "$",
                                                 "$$",
                                                 "$_",
                                                 "_",
                                                 "__",
                                                 "_2D",
                                                 "true",
                                                 "false",
                                                 "null",
                                                 "True",
                                                 "x",
                                                 "/",
                                                 ".",
                                                 ".a",
                                                 "1.5",
                                                 "-1",
                                                 "résumé",
                                                 "层1",
                                                 "😀",
                                                 "",
                                                 " ",
                                                 "\t",
                                                 std::string("a\0b", 3),
                                                 std::string(1, '\xff'),
                                                 "\"quoted\"",
                                                 "a=b;c",
                                                 "#comment"};
  return names;
}

TEST(OnnxNames, TextNameIsAnIdentifierAndDecodesBack) {
  std::mt19937 rng(12);
  std::vector<std::string> names = awkward_names();
  // Random byte strings, and random strings over the characters that matter.
  const std::string alphabet = "aZ09_./$:- ";
  for (int i = 0; i < 4000; ++i) {
    std::string s(rng() % 12, '\0');
    for (char& c : s) c = (i % 2) ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
    names.push_back(s);
  }
  std::set<std::string> distinct(names.begin(), names.end());
  std::set<std::string> spellings;
  for (const std::string& name : distinct) {
    SCOPED_TRACE(::testing::PrintToString(name));
    const std::string text = text_name(name);
    EXPECT_TRUE(is_text_identifier(text)) << text;
    // Names are UTF-8 (as JSON's are): other bytes are refused when read back.
    EXPECT_EQ(name_from_text(text), is_utf8(name) ? std::optional<std::string>(name) : std::nullopt) << text;
    spellings.insert(text);
    // Identifiers that do not start with `$` are written as they are.
    if (is_text_identifier(name) && name[0] != '$') EXPECT_EQ(text, name);
  }
  EXPECT_EQ(spellings.size(), distinct.size());  // injective
}

TEST(OnnxNames, TheRuleIsTheDocumentedOne) {
  EXPECT_EQ(text_name("191"), "$191");
  EXPECT_EQ(text_name("onnx::Conv_251"), "$onnx_3A_3AConv__251");
  EXPECT_EQ(text_name("/layer1/Relu_output_0"), "/layer1/Relu_output_0");
  EXPECT_EQ(text_name("a-b"), "$a_2Db");
  EXPECT_EQ(text_name("a_2Db"), "a_2Db");
  EXPECT_EQ(text_name("$a_2Db"), "$_24a__2Db");
  EXPECT_EQ(text_name("true"), "$true");
  EXPECT_EQ(text_name(""), "$");
  EXPECT_EQ(text_name("é"), "$_C3_A9");
  // Reading: `$` then the escapes; a `$` name without escapes reads as its rest.
  EXPECT_EQ(name_from_text("plain.name"), "plain.name");
  EXPECT_EQ(name_from_text("$b"), "b");
  for (const char* bad : {"$a_", "$a_4", "$a_4a", "$a_G0", "$_x"}) EXPECT_EQ(name_from_text(bad), std::nullopt) << bad;
}

TEST(OnnxNames, AGraphWithAwkwardNamesRoundTripsThroughTheTextForm) {
  GraphBuilder b;
  OperandId x = b.add_input("0", {DataType::kFloat32, {2}});
  OperandId y = b.add_input("input.1", {DataType::kFloat32, {2}});
  // Constants first, as the text form lists them, so operand ids compare one to one.
  std::vector<std::string> names;
  std::vector<OperandId> consts;
  for (const std::string& name : awkward_names()) {
    // Empty is unnamed; the JSON form (and labels in either form) hold UTF-8 only.
    if (name.empty() || name == "0" || name == "input.1" || name == "\xff") continue;
    names.push_back(name);
    consts.push_back(b.add_constant({DataType::kFloat32, {2}},
                                    BufferRef::adopt(std::vector<std::byte>(8, std::byte(names.size()))),
                                    name + "#const"));
  }
  OperandId t = x;
  for (size_t i = 0; i < names.size(); ++i) {
    t = b.add_operation(i % 2 ? OpKind::kAdd : OpKind::kMul, {t, consts[i]}, NoAttrs{}, "node " + names[i])[0];
    b.set_operand_name(t, names[i]);
  }
  OperandId u = b.add_operation(OpKind::kSub, {t, y}, NoAttrs{})[0];
  b.set_operand_name(u, "out put");
  auto g = b.build({{"191", t}, {"out put", u}, {"onnx::Conv_251 alias", u}});
  const std::string text = to_text(*g);
  EXPECT_THAT(text, ::testing::HasSubstr("$onnx_3A_3AConv__251 = "));
  auto back = parse_graph_text(text, no_weights(), "names.webnn");
  expect_same_graph(*g, *back, true);
  EXPECT_EQ(to_text(*back), text);
  // text -> JSON keeps them too.
  auto json = parse_graph_json(to_json(*back), no_weights(), "names.json");
  expect_same_graph(*g, *json, true);
}

TEST(OnnxNames, ANameThatIsNotUtf8CannotBeWritten) {
  GraphBuilder b;
  OperandId x = b.add_input("x", {DataType::kFloat32, {2}});
  OperandId t = b.add_operation(OpKind::kRelu, {x}, NoAttrs{})[0];
  b.set_operand_name(t, "bad\xff");
  auto g = b.build({{"y", b.add_operation(OpKind::kExp, {t}, NoAttrs{})[0]}});
  testing::expect_error([&] { to_text(*g); }, {"not UTF-8"});
  EXPECT_EQ(name_from_text("$bad_FF"), std::nullopt);
}

TEST(OnnxNames, AMalformedEscapeIsASyntaxErrorAtItsPosition) {
  testing::expect_error(
      [] {
        parse_graph_text("webnn_graph \"g\" v2 {\n  inputs { $x_4: f32[2]; }\n  outputs { $x_4; }\n}\n", no_weights(),
                         "g.webnn");
      },
      {"g.webnn:2:12", "malformed name", "$x_4"});
}

// A model exported by PyTorch (libonnx-testdata's pytorch-converted cases: values named 0, 1, 2, ...):
// ONNX -> .webnn -> JSON keeps every name the import gave.
TEST(OnnxNames, AnExportedPyTorchModelKeepsItsNamesThroughTextAndJson) {
  const std::string dir = "/usr/share/libonnx-testdata/data/pytorch-converted/";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "libonnx-testdata is not installed";
  size_t models = 0, awkward = 0;
  for (const char* name : {"test_Conv2d_depthwise_padded", "test_Linear", "test_PReLU_1d_multiparam", "test_ReLU"}) {
    SCOPED_TRACE(name);
    if (!std::filesystem::exists(dir + name + "/model.onnx")) continue;
    auto g = import_onnx(dir + name + "/model.onnx");
    auto back =
        parse_graph_json(to_json(*parse_graph_text(to_text(*g), no_weights(), "m.webnn")), no_weights(), "m.json");
    expect_same_graph(*g, *back, false);
    for (size_t k = 0; k < g->operands.size(); ++k)  // unnamed ones get generated names
      if (!g->operands[k].name.empty()) EXPECT_EQ(g->operands[k].name, back->operands[k].name);
    for (size_t k = 0; k < g->outputs.size(); ++k) EXPECT_EQ(g->outputs[k].name, back->outputs[k].name);
    for (const Operand& o : g->operands) awkward += !o.name.empty() && !is_text_identifier(o.name);  // "0", ...
    ++models;
  }
  EXPECT_GT(models, 0u);
  EXPECT_GT(awkward, 0u);
}

}  // namespace
}  // namespace webnn::formats
