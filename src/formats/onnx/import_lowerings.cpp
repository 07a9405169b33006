// ONNX import: the one table of lowerings, by ONNX op type (default domain), gathered from the
// family files' lists (import_lowerings.hpp), and why the op types without one are not supported.
#include <string>
#include <string_view>
#include <unordered_map>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

const std::unordered_map<std::string_view, Lowering>& lowerings() {
  static const std::unordered_map<std::string_view, Lowering> table = [] {
    std::unordered_map<std::string_view, Lowering> t;
    for (Lowerings family : {elementwise_lowerings(), logical_lowerings(), conv_lowerings(), pool_lowerings(),
                             normalization_lowerings(), matmul_lowerings(), reduction_lowerings(), shape_lowerings(),
                             gather_lowerings(), resample_lowerings(), recurrent_lowerings(), quantization_lowerings(),
                             signal_lowerings(), constant_lowerings(), loss_lowerings(), text_lowerings()})
      for (const NamedLowering& row : family)
        if (!t.emplace(row.op_type, row.lower).second)
          throw_error(ErrorKind::kUnknownError, "ONNX import: internal: two lowerings of " + std::string(row.op_type));
    return t;
  }();
  return table;
}

}  // namespace

Lowering find_lowering(std::string_view op_type) {
  auto it = lowerings().find(op_type);
  return it == lowerings().end() ? nullptr : it->second;
}

std::string unsupported_reason(std::string_view op) {
  static const std::unordered_map<std::string_view, const char*> reasons = {
      {"Loop", "control flow is outside the WebNN specification"},
      {"If", "control flow is outside the WebNN specification"},
      {"Scan", "control flow is outside the WebNN specification"},
      {"RandomNormal", "a random generator is outside the WebNN specification"},
      {"RandomNormalLike", "a random generator is outside the WebNN specification"},
      {"RandomUniform", "a random generator is outside the WebNN specification"},
      {"RandomUniformLike", "a random generator is outside the WebNN specification"},
      {"Multinomial", "a random generator is outside the WebNN specification"},
      {"Bernoulli", "a random generator is outside the WebNN specification"},
      {"NonZero", "its output shape depends on the input values (a shape only known at run time)"},
      {"Unique", "its output shape depends on the input values (a shape only known at run time)"},
      {"Compress", "its output shape depends on the input values (a shape only known at run time)"},
      {"NonMaxSuppression", "its output shape depends on the input values (a shape only known at run time)"},
      {"StringNormalizer", "WebNN has no string data type"},
      {"RegexFullMatch", "WebNN has no string data type"},
      {"Adagrad", "training operators are outside the WebNN specification"},
      {"Adam", "training operators are outside the WebNN specification"},
      {"Momentum", "training operators are outside the WebNN specification"},
      {"Gradient", "training operators are outside the WebNN specification"},
      {"SequenceConstruct", "sequences are outside the WebNN specification"},
      {"SequenceInsert", "sequences are outside the WebNN specification"},
      {"SequenceAt", "sequences are outside the WebNN specification"},
      {"SequenceEmpty", "sequences are outside the WebNN specification"},
      {"SequenceErase", "sequences are outside the WebNN specification"},
      {"SequenceLength", "sequences are outside the WebNN specification"},
      {"SplitToSequence", "sequences are outside the WebNN specification"},
      {"ConcatFromSequence", "sequences are outside the WebNN specification"},
      {"Optional", "optionals are outside the WebNN specification"},
      {"OptionalHasElement", "optionals are outside the WebNN specification"},
      {"OptionalGetElement", "optionals are outside the WebNN specification"},
      {"BitwiseAnd", "WebNN has no bit operations"},
      {"BitwiseOr", "WebNN has no bit operations"},
      {"BitwiseXor", "WebNN has no bit operations"},
      {"BitwiseNot", "WebNN has no bit operations"},
  };
  auto it = reasons.find(op);
  if (it != reasons.end()) return it->second;
  return "WebNN has no equivalent of the ONNX operator " + std::string(op);
}

}  // namespace webnn::formats::onnx_import
