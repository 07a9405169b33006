// The .webnn text form: a hand-written lexer and recursive-descent parser producing a GraphDoc,
// and its writer. Every error names the file and line:column.
#include <charconv>
#include <cmath>

#include "formats/internal.hpp"

namespace webnn::formats {

namespace {

// Short type names of the text form, in DataType order.
constexpr std::string_view kShortTypes[kDataTypeCount] = {"f32", "f16", "i32", "u32", "i64", "u64", "i8", "u8"};

// Lists inside option values nest at most this deep (they need 1; the bound stops recursion).
constexpr int kMaxValueDepth = 64;

enum class Tok { kEnd, kIdent, kNumber, kString, kPunct };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // identifier, number text, decoded string, or the punctuation character
  size_t line = 1, column = 1;
};

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& origin) : src_(src), origin_(origin) {}

  [[noreturn]] void error_at(size_t line, size_t column, const std::string& what) const {
    fail(origin_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what);
  }

  Token next() {
    skip_space();
    Token t;
    t.line = line_;
    t.column = column_;
    if (pos_ >= src_.size()) return t;
    char c = src_[pos_];
    if (is_ident_start(c)) {
      size_t start = pos_;
      advance();
      while (pos_ < src_.size() && is_ident_char(src_[pos_])) advance();
      t.kind = Tok::kIdent;
      t.text = std::string(src_.substr(start, pos_ - start));
      return t;
    }
    if ((c >= '0' && c <= '9') || c == '-') return number(t);
    if (c == '"') return string(t);
    if (std::string_view("{}[]():;,=@").find(c) != std::string_view::npos) {
      advance();
      t.kind = Tok::kPunct;
      t.text = std::string(1, c);
      return t;
    }
    std::string shown = (c >= 0x20 && c < 0x7f) ? std::string("'") + c + "'" : "byte " + std::to_string(uint8_t(c));
    error_at(t.line, t.column, "unexpected character " + shown);
  }

 private:
  static bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
  static bool is_ident_start(char c) { return is_letter(c) || c == '_' || c == '/' || c == '$'; }
  static bool is_ident_char(char c) {
    return is_letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '/';
  }

  void advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  void skip_space() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        advance();
      } else if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n') advance();
      } else {
        break;
      }
    }
  }

  Token number(Token t) {
    size_t start = pos_;
    auto digits = [&] {
      size_t n = 0;
      while (pos_ < src_.size() && src_[pos_] >= '0' && src_[pos_] <= '9') advance(), ++n;
      return n;
    };
    if (src_[pos_] == '-') advance();
    if (digits() == 0) error_at(t.line, t.column, "malformed number: expected a digit");
    if (pos_ < src_.size() && src_[pos_] == '.') {
      advance();
      if (digits() == 0) error_at(t.line, t.column, "malformed number: expected a digit after '.'");
    }
    if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
      advance();
      if (pos_ < src_.size() && (src_[pos_] == '+' || src_[pos_] == '-')) advance();
      if (digits() == 0) error_at(t.line, t.column, "malformed number: expected exponent digits");
    }
    if (pos_ < src_.size() && is_ident_char(src_[pos_]))
      error_at(line_, column_, "malformed number: unexpected '" + std::string(1, src_[pos_]) + "'");
    t.kind = Tok::kNumber;
    t.text = std::string(src_.substr(start, pos_ - start));
    return t;
  }

  // Strings use JSON's escapes; the literal is decoded by the JSON parser itself.
  Token string(Token t) {
    size_t start = pos_;
    advance();
    while (true) {
      if (pos_ >= src_.size() || src_[pos_] == '\n') error_at(t.line, t.column, "unterminated string");
      char c = src_[pos_];
      if (c == '\\') {
        advance();
        if (pos_ >= src_.size()) error_at(t.line, t.column, "unterminated string");
        advance();
        continue;
      }
      advance();
      if (c == '"') break;
    }
    std::string_view literal = src_.substr(start, pos_ - start);
    try {
      t.text = Json::parse(literal).get<std::string>();
    } catch (const Json::exception&) {
      error_at(t.line, t.column, "invalid string literal " + std::string(literal));
    }
    t.kind = Tok::kString;
    return t;
  }

  std::string_view src_;
  const std::string& origin_;
  size_t pos_ = 0, line_ = 1, column_ = 1;
};

class Parser {
 public:
  Parser(std::string_view src, const std::string& origin) : lex_(src, origin), origin_(origin) { tok_ = lex_.next(); }

  GraphDoc parse() {
    GraphDoc doc;
    doc.origin = origin_;
    expect_word("webnn_graph");
    if (tok_.kind != Tok::kString) error("expected the graph name as a string after webnn_graph");
    doc.name = take().text;
    Token version = take();
    if (version.kind != Tok::kIdent || (version.text != "v1" && version.text != "v2"))
      error_at(version, "unsupported version " + quote(version.text) + " (expected v1 or v2)");
    if (is_punct("@")) {
      take();
      expect_word("quantized");
    }
    expect_punct("{");
    while (!is_punct("}")) {
      Token block = take();
      if (block.kind != Tok::kIdent) error_at(block, "expected inputs, consts, nodes, outputs or '}'");
      expect_punct("{");
      if (block.text == "inputs") {
        while (!is_punct("}")) doc.inputs.push_back(input_decl());
      } else if (block.text == "consts") {
        while (!is_punct("}")) doc.consts.push_back(const_decl());
      } else if (block.text == "nodes") {
        while (!is_punct("}")) doc.nodes.push_back(statement());
      } else if (block.text == "outputs") {
        while (!is_punct("}")) output_items(doc.outputs);
      } else {
        error_at(block, "unknown block " + quote(block.text) + " (expected inputs, consts, nodes or outputs)");
      }
      expect_punct("}");
    }
    take();
    if (tok_.kind != Tok::kEnd) error("unexpected text after the end of the graph");
    return doc;
  }

 private:
  [[noreturn]] void error_at(const Token& t, const std::string& what) const { lex_.error_at(t.line, t.column, what); }
  [[noreturn]] void error(const std::string& what) const {
    error_at(tok_, what + (tok_.kind == Tok::kEnd ? ", got the end of the file" : ", got " + describe(tok_)));
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::kEnd:
        return "the end of the file";
      case Tok::kIdent:
        return quote(t.text);
      case Tok::kNumber:
        return "number " + t.text;
      case Tok::kString:
        return "a string";
      case Tok::kPunct:
        return "'" + t.text + "'";
    }
    return "?";
  }
  std::string where(const Token& t) const {
    return origin_ + ":" + std::to_string(t.line) + ":" + std::to_string(t.column);
  }

  Token take() {
    Token t = std::move(tok_);
    tok_ = lex_.next();
    return t;
  }
  bool is_punct(const char* p) const { return tok_.kind == Tok::kPunct && tok_.text == p; }
  void expect_punct(const char* p) {
    if (!is_punct(p)) error(std::string("expected '") + p + "'");
    take();
  }
  void expect_word(const char* w) {
    if (tok_.kind != Tok::kIdent || tok_.text != w) error(std::string("expected \"") + w + "\"");
    take();
  }
  Token identifier(const char* what) {
    if (tok_.kind != Tok::kIdent) error(std::string("expected ") + what);
    return take();
  }
  // An operand name: an identifier, decoded by name_from_text.
  std::string name_text(const Token& t) const {
    auto name = name_from_text(t.text);
    if (!name)
      error_at(t,
               "malformed name " + quote(t.text) +
                   ": after '$', '_' must be followed by '_' or two hex digits 0-9A-F, and the bytes must form UTF-8");
    return *name;
  }
  std::string name(const char* what) { return name_text(identifier(what)); }

  uint64_t unsigned_int(const char* what) {
    if (tok_.kind != Tok::kNumber) error(std::string("expected ") + what);
    Token t = take();
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || p != t.text.data() + t.text.size())
      error_at(t, std::string("expected ") + what + ", got " + t.text);
    return v;
  }

  OperandDescriptor type() {
    Token t = identifier("a type (f32, f16, i32, u32, i64, u64, i8, u8)");
    OperandDescriptor desc;
    bool found = false;
    for (int i = 0; i < kDataTypeCount; ++i) {
      if (kShortTypes[i] == t.text) {
        desc.data_type = static_cast<DataType>(i);
        found = true;
      }
    }
    if (!found) {
      if (t.text == "i4" || t.text == "u4")
        error_at(t, "type " + t.text + " is not supported (WebNN as implemented here has no 4-bit types)");
      error_at(t, "unknown type " + quote(t.text) + " (expected f32, f16, i32, u32, i64, u64, i8 or u8)");
    }
    expect_punct("[");
    while (!is_punct("]")) {
      if (desc.shape.size() == kMaxRank) error("shape has more than " + std::to_string(kMaxRank) + " dimensions");
      Token d = tok_;
      uint64_t v = unsigned_int("a dimension");
      if (v > UINT32_MAX) error_at(d, "dimension " + d.text + " is out of range");
      desc.shape.push_back(uint32_t(v));
      if (!is_punct("]")) expect_punct(",");
    }
    take();
    return desc;
  }

  TensorDoc input_decl() {
    Token name = identifier("an input name");
    TensorDoc t;
    t.name = name_text(name);
    t.where = where(name) + ": input " + quote(t.name);
    expect_punct(":");
    t.desc = type();
    expect_punct(";");
    return t;
  }

  TensorDoc const_decl() {
    Token name = identifier("a constant name");
    TensorDoc t;
    t.name = name_text(name);
    t.where = where(name) + ": constant " + quote(t.name);
    expect_punct(":");
    t.desc = type();
    if (!is_punct("@")) error("expected an initializer (@weights, @scalar or @bytes)");
    take();
    Token annot = identifier("weights, scalar or bytes after '@'");
    expect_punct("(");
    if (annot.text == "weights") {
      if (tok_.kind != Tok::kString) error("expected the weights key as a string");
      t.init.kind = InitDoc::Kind::kWeights;
      t.init.ref = take().text;
    } else if (annot.text == "scalar") {
      Token v = tok_;
      Json value = this->value(0);
      if (!value.is_number() && !value.is_string()) error_at(v, "@scalar needs a number");
      t.init.kind = InitDoc::Kind::kScalar;
      t.init.scalar = json_number(value, where(v) + ": @scalar");
    } else if (annot.text == "bytes") {
      expect_punct("[");
      std::vector<std::byte> data;
      while (!is_punct("]")) {
        Token b = tok_;
        uint64_t v = unsigned_int("a byte value");
        if (v > 255) error_at(b, "byte value " + b.text + " is out of range [0, 255]");
        data.push_back(std::byte(v));
        if (!is_punct("]")) expect_punct(",");
      }
      take();
      t.init.kind = InitDoc::Kind::kBytes;
      t.init.data = BufferRef::adopt(std::move(data));
    } else {
      error_at(annot, "unknown initializer @" + annot.text + " (expected @weights, @scalar or @bytes)");
    }
    expect_punct(")");
    if (is_punct("@")) error("a constant takes one initializer");
    expect_punct(";");
    return t;
  }

  // A value: number, string, true/false/null, identifier (an operand name or enum word, read as a
  // string) or a list of values.
  Json value(int depth) {
    if (depth > kMaxValueDepth) error("values nest deeper than " + std::to_string(kMaxValueDepth) + " lists");
    if (is_punct("[")) {
      take();
      Json list = Json::array();
      while (!is_punct("]")) {
        list.push_back(value(depth + 1));
        if (!is_punct("]")) expect_punct(",");
      }
      take();
      return list;
    }
    Token t = tok_;
    switch (t.kind) {
      case Tok::kString:
        take();
        return Json(t.text);
      case Tok::kIdent:
        take();
        if (t.text == "true") return Json(true);
        if (t.text == "false") return Json(false);
        if (t.text == "null") return Json(nullptr);
        return Json(name_text(t));
      case Tok::kNumber: {
        take();
        const char* first = t.text.data();
        const char* last = first + t.text.size();
        if (t.text.find_first_of(".eE") == std::string::npos) {
          if (t.text[0] == '-') {
            int64_t i = 0;
            auto [p, ec] = std::from_chars(first, last, i);
            if (ec == std::errc() && p == last) return Json(i);
          } else {
            uint64_t u = 0;
            auto [p, ec] = std::from_chars(first, last, u);
            if (ec == std::errc() && p == last) return Json(u);
          }
          error_at(t, "integer " + t.text + " is out of the 64-bit range");
        }
        double d = 0;
        auto [p, ec] = std::from_chars(first, last, d);
        if (ec != std::errc() || p != last || !std::isfinite(d)) error_at(t, "number " + t.text + " is out of range");
        return Json(d);
      }
      default:
        error("expected a value");
    }
  }

  NodeDoc statement() {
    NodeDoc n;
    Token first = tok_;
    if (is_punct("[")) {
      take();
      while (true) {
        n.outputs.push_back(name("a result name"));
        if (is_punct("]")) break;
        expect_punct(",");
      }
      take();
    } else {
      n.outputs.push_back(name("a result name or '['"));
    }
    expect_punct("=");
    Token op = identifier("an operator name");
    n.op = op.text;
    n.id = n.outputs[0];
    n.where = where(first) + ": node " + quote(n.id) + " (" + n.op + ")";
    expect_punct("(");
    while (!is_punct(")")) {
      Token arg = tok_;
      if (tok_.kind == Tok::kIdent) {
        Token name = take();
        if (is_punct("=")) {
          take();
          if (n.options.contains(name.text)) error_at(name, "option " + quote(name.text) + " given twice");
          n.options[name.text] = value(0);
        } else {
          n.inputs.push_back(name_text(name));
        }
      } else if (is_punct("[")) {
        // A list of operands (concat's inputs) counts as its operands in order.
        Json list = value(0);
        for (const Json& e : list) {
          if (!e.is_string()) error_at(arg, "a positional list must hold operand names only");
          n.inputs.push_back(e.get<std::string>());
        }
      } else {
        error("expected an operand name or name=value");
      }
      if (!is_punct(")")) expect_punct(",");
    }
    take();
    expect_punct(";");
    return n;
  }

  void output_items(std::vector<OutputDoc>& outputs) {
    while (true) {
      Token name = tok_;
      if (tok_.kind != Tok::kIdent && tok_.kind != Tok::kString) error("expected an output name");
      take();
      if (name.kind == Tok::kIdent) name.text = name_text(name);
      OutputDoc out{name.text, name.text, where(name) + ": output " + quote(name.text) + ""};
      if (is_punct("=")) {
        take();
        out.operand = this->name("the operand the output names");
      } else if (name.kind == Tok::kString) {
        error("expected '=' and an operand after a quoted output name");
      }
      outputs.push_back(std::move(out));
      if (!is_punct(",")) break;
      take();
    }
    if (is_punct(";")) take();
  }

  Lexer lex_;
  const std::string& origin_;
  Token tok_;
};

// Prints a JSON value in the text form: the same literals, lists with ", ".
void print_value(std::string& out, const Json& v) {
  if (v.is_array()) {
    out += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out += ", ";
      print_value(out, v[i]);
    }
    out += ']';
  } else {
    out += v.dump();
  }
}

std::string type_text(const OperandDescriptor& desc) {
  std::string s(kShortTypes[static_cast<size_t>(desc.data_type)]);
  s += '[';
  for (size_t i = 0; i < desc.shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(desc.shape[i]);
  }
  return s + ']';
}

}  // namespace

GraphDoc text_to_doc(std::string_view text, const std::string& origin) { return Parser(text, origin).parse(); }

std::string doc_to_text(const GraphDoc& doc) {
  auto text_name = [](const std::string& name) {
    if (!is_utf8(name)) fail("cannot write the graph: the name " + quote(name) + " is not UTF-8");
    return formats::text_name(name);
  };
  std::string s = "webnn_graph " + Json(doc.name).dump() + " v2 {\n";
  s += "  inputs {\n";
  for (const TensorDoc& in : doc.inputs) s += "    " + text_name(in.name) + ": " + type_text(in.desc) + ";\n";
  s += "  }\n  consts {\n";
  for (const TensorDoc& c : doc.consts) {
    s += "    " + text_name(c.name) + ": " + type_text(c.desc) + " ";
    switch (c.init.kind) {
      case InitDoc::Kind::kWeights:
        s += "@weights(" + Json(c.init.ref).dump() + ")";
        break;
      case InitDoc::Kind::kScalar:
        s += "@scalar(" + number_json(c.init.scalar).dump() + ")";
        break;
      case InitDoc::Kind::kBytes: {
        s += "@bytes([";
        bool first = true;
        for (std::byte b : c.init.data.span()) {
          if (!first) s += ", ";
          first = false;
          s += std::to_string(unsigned(b));
        }
        s += "])";
        break;
      }
    }
    s += ";\n";
  }
  s += "  }\n  nodes {\n";
  for (const NodeDoc& n : doc.nodes) {
    s += "    ";
    if (n.outputs.size() == 1) {
      s += text_name(n.outputs[0]);
    } else {
      s += '[';
      for (size_t i = 0; i < n.outputs.size(); ++i) s += (i ? ", " : "") + text_name(n.outputs[i]);
      s += ']';
    }
    s += " = " + n.op + "(";
    bool first = true;
    for (const std::string& in : n.inputs) {
      s += (first ? "" : ", ") + text_name(in);
      first = false;
    }
    for (const auto& [name, value] : n.options.items()) {
      s += (first ? "" : ", ") + name + "=";
      first = false;
      bool operand = false;
      for (const std::string& o : n.operand_options) operand |= (o == name);
      if (operand && value.is_string())
        s += text_name(value.get<std::string>());
      else
        print_value(s, value);
    }
    s += ");\n";
  }
  s += "  }\n  outputs {\n";
  for (const OutputDoc& o : doc.outputs) {
    if (o.name == o.operand)
      s += "    " + text_name(o.operand) + ";\n";
    else
      s += "    " + (is_identifier(o.name) && o.name[0] != '$' ? o.name : Json(o.name).dump()) + " = " +
           text_name(o.operand) + ";\n";
  }
  s += "  }\n}\n";
  return s;
}

}  // namespace webnn::formats
