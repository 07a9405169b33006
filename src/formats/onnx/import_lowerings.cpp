// ONNX import: the one table of lowerings, by ONNX op type (default domain): the one-to-one
// operators of op_map.def by their form, and the family files' lists (import_lowerings.hpp); and
// why the op types without a lowering are not supported.
#include <string>
#include <string_view>
#include <unordered_map>

#include "formats/onnx/import_lowerings.hpp"
#include "formats/onnx/op_map.hpp"

namespace webnn::formats::onnx_import {

namespace {

// An ONNX operator that is one WebNN operator (op_map.def), lowered by its form.
void lower_pair(const NodeCtx& c, const OnnxOpPair& pair) {
  switch (pair.form) {
    case OnnxForm::kUnary:
      return lower_unary(c, pair.kind);
    case OnnxForm::kPassThrough:
      if (c.in(0).items) return c.set_value_out(0, c.in(0));  // Identity of a sequence
      return reshaped(c, c.desc(0).shape);
    case OnnxForm::kBinary:
      return lower_binary(c, pair.kind);
    case OnnxForm::kVariadic:
      return lower_variadic(c, pair.kind);
    case OnnxForm::kCompare:
      return lower_compare(c, pair.kind);
    case OnnxForm::kLogical:
    case OnnxForm::kPredicate:
      return lower_logical(c, pair.kind);
    case OnnxForm::kSelect:
      return lower_where(c);
    case OnnxForm::kReduce:
      return lower_reduce(c, pair.kind);
    case OnnxForm::kArgReduce:
      return lower_arg_reduce(c, pair.kind);
  }
}

const std::unordered_map<std::string_view, Lowering>& lowerings() {
  static const std::unordered_map<std::string_view, Lowering> table = [] {
    std::unordered_map<std::string_view, Lowering> t;
    auto add = [&](std::string_view op_type, Lowering lower) {
      if (!t.emplace(op_type, std::move(lower)).second)
        throw_error(ErrorKind::kUnknownError, "ONNX import: internal: two lowerings of " + std::string(op_type));
    };
    for (const OnnxOpPair& pair : kOnnxOpPairs) add(pair.onnx, [&pair](const NodeCtx& c) { lower_pair(c, pair); });
    for (Lowerings family :
         {elementwise_lowerings(), logical_lowerings(), conv_lowerings(), pool_lowerings(), normalization_lowerings(),
          matmul_lowerings(), reduction_lowerings(), shape_lowerings(), gather_lowerings(), resample_lowerings(),
          recurrent_lowerings(), quantization_lowerings(), signal_lowerings(), constant_lowerings(), loss_lowerings(),
          text_lowerings(), control_lowerings(), sequence_lowerings()})
      for (const NamedLowering& row : family) add(row.op_type, row.lower);
    return t;
  }();
  return table;
}

}  // namespace

const Lowering* find_lowering(std::string_view op_type) {
  auto it = lowerings().find(op_type);
  return it == lowerings().end() ? nullptr : &it->second;
}

std::string unsupported_reason(std::string_view op) {
  static const std::unordered_map<std::string_view, const char*> reasons = {
      {"RandomNormal", "a random generator is outside the WebNN specification"},
      {"RandomNormalLike", "a random generator is outside the WebNN specification"},
      {"RandomUniform", "a random generator is outside the WebNN specification"},
      {"RandomUniformLike", "a random generator is outside the WebNN specification"},
      {"Multinomial", "a random generator is outside the WebNN specification"},
      {"Bernoulli", "a random generator is outside the WebNN specification"},
      {"Unique", "its output shape depends on the input values (a shape only known at run time)"},
      {"Compress", "its output shape depends on the input values (a shape only known at run time)"},
      {"NonMaxSuppression", "its output shape depends on the input values (a shape only known at run time)"},
      {"StringNormalizer", "WebNN has no string data type"},
      {"RegexFullMatch", "WebNN has no string data type"},
      {"Adagrad", "training operators are outside the WebNN specification"},
      {"Adam", "training operators are outside the WebNN specification"},
      {"Momentum", "training operators are outside the WebNN specification"},
      {"Gradient", "training operators are outside the WebNN specification"},
      {"Optional", "optionals are outside the WebNN specification"},
      {"OptionalHasElement", "optionals are outside the WebNN specification"},
      {"OptionalGetElement", "optionals are outside the WebNN specification"},
  };
  auto it = reasons.find(op);
  if (it != reasons.end()) return it->second;
  return "WebNN has no equivalent of the ONNX operator " + std::string(op);
}

}  // namespace webnn::formats::onnx_import
