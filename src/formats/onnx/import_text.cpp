// ONNX import: TfIdfVectorizer of integer tokens, as comparisons of the input's windows with the
// pool's n-grams and one matmul onto the outputs (docs/onnx.md, "TfIdfVectorizer").
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

// TfIdfVectorizer of integer tokens (WebNN has no n-gram counting): the pool's n-grams are
// constants, so for each gram length n the importer lowers (min_gram_length to max_gram_length,
// as far as the pool has grams of that length) and each skip s (0 to max_skip_count; unigrams once)
// the windows X[i], X[i + s + 1], …, X[i + (n − 1)(s + 1)] are compared with every pool gram of
// length n at once: token j of every window (a `slice`, [rows, windows, 1]) `equal`s token j of
// every gram ([1, 1, grams]), `logicalAnd` over j, and the sum over the windows counts the
// matches ([rows, grams]). The counts of every gram, in pool order, are mapped to the output
// coordinates (`ngram_indexes`) with the weights folded in by one `matmul` with a constant
// [pool grams, outputs] matrix: TF counts, IDF weighs a gram that occurs (count > 0), TFIDF
// weighs the count; weights default to 1.
void lower_tfidf_vectorizer(const NodeCtx& c) {
  if (c.has_attr("pool_strings")) c.unsupported("WebNN has no string data type (pool_strings)");
  const DataType t = c.type(0);
  if (t != DataType::kInt32 && t != DataType::kInt64) c.unsupported("tokens of a type other than int32 or int64");
  if (c.rank(0) != 1 && c.rank(0) != 2) c.invalid("X must be 1-D or 2-D");
  const std::string mode = c.attr_s("mode", "");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF") c.invalid("mode must be TF, IDF or TFIDF");
  const int64_t min_n = c.attr_i("min_gram_length", 0), max_n = c.attr_i("max_gram_length", 0);
  const int64_t max_skip = c.attr_i("max_skip_count", 0);
  if (min_n < 1 || max_n < min_n || max_skip < 0 || max_skip > int64_t(kMaxDimension))
    c.invalid("gram lengths or max_skip_count out of range");
  const std::vector<int64_t> pool = c.attr_ints("pool_int64s"), starts = c.attr_ints("ngram_counts"),
                             outputs = c.attr_ints("ngram_indexes");
  std::vector<float> weights = c.attr_floats("weights");
  // The pool's grams by length: grams of length n + 1 start at pool element starts[n].
  std::vector<std::vector<std::vector<int64_t>>> grams(starts.size());
  for (size_t n = 0; n < starts.size(); ++n) {
    const int64_t from = starts[n], to = n + 1 < starts.size() ? starts[n + 1] : int64_t(pool.size());
    if (from < 0 || to < from || to > int64_t(pool.size()) || (to - from) % int64_t(n + 1) != 0)
      c.invalid("ngram_counts does not divide the pool into grams");
    for (int64_t g = from; g < to; g += int64_t(n + 1))
      grams[n].emplace_back(pool.begin() + g, pool.begin() + g + long(n) + 1);
  }
  size_t total = 0;
  for (const auto& g : grams) total += g.size();
  if (outputs.size() != total) c.invalid("ngram_indexes must name one output per pool gram");
  if (!weights.empty() && weights.size() != total) c.invalid("weights must have one value per pool gram");
  if (weights.empty()) weights.assign(total, 1.f);
  int64_t width = 0;
  for (int64_t o : outputs) {
    if (o < 0 || o >= int64_t(kMaxDimension)) c.invalid("an ngram_indexes value out of range");
    width = std::max(width, o + 1);
  }
  const bool batched = c.rank(0) == 2;
  const uint32_t rows = batched ? c.desc(0).shape[0] : 1, length = c.desc(0).shape.back();
  // The output and the [pool grams, outputs] constant, checked before either is made.
  c.im.builder().check_descriptor({DataType::kFloat32, {rows, uint32_t(width)}}, c.where() + ": the output");
  if (uint64_t(total) * uint64_t(width) > kMaxFoldElements * 256)
    c.unsupported("a pool of " + std::to_string(total) + " grams into " + std::to_string(width) +
                  " outputs (the importer maps up to " + std::to_string(kMaxFoldElements * 256) + " pairs)");
  const OperandId x = c.reshape(c.cast(c.operand(0), DataType::kInt64), {rows, length});
  const DataType f = DataType::kFloat32;
  // The windows compared, counted as they are built: each gram length n and skip is n + 1 slices
  // and comparisons, and skips stop where the window outgrows the row; bounded so that a long row
  // cannot make a huge graph.
  uint64_t slices = 0;
  std::vector<OperandId> counts;  // per gram length, [rows, grams of that length]
  for (size_t n = 0; n < grams.size(); ++n) {
    const uint32_t count = uint32_t(grams[n].size());
    if (count == 0) continue;
    std::optional<OperandId> sum;
    if (int64_t(n + 1) >= min_n && int64_t(n + 1) <= max_n) {
      for (int64_t skip = 0; skip <= (n == 0 ? 0 : max_skip); ++skip) {
        const int64_t span = int64_t(n) * (skip + 1);
        if (span >= int64_t(length)) break;
        const uint32_t windows = uint32_t(int64_t(length) - span);
        if ((slices += n + 1) > kMaxFoldElements / 4)
          c.unsupported("more than " + std::to_string(kMaxFoldElements / 4) +
                        " window comparisons (gram lengths times skips)");
        std::optional<OperandId> match;
        for (size_t j = 0; j <= n; ++j) {
          const uint32_t at = uint32_t(int64_t(j) * (skip + 1));
          const OperandId token = c.reshape(
              c.add(OpKind::kSlice, {x}, SliceAttrs{{0, at}, {rows, windows}, std::nullopt}), {rows, windows, 1});
          const OperandId column = c.int_table({DataType::kInt64, {1, 1, count}}, "the grams' tokens",
                                               [&](uint64_t g) { return grams[n][g][j]; });
          const OperandId equal = c.add(OpKind::kEqual, {token, column});
          match = match ? c.add(OpKind::kLogicalAnd, {*match, equal}) : equal;
        }
        const OperandId found = c.add(OpKind::kReduceSum, {c.cast(*match, f)}, ReduceAttrs{std::vector<uint32_t>{1}});
        sum = sum ? c.add(OpKind::kAdd, {*sum, found}) : found;
      }
    }
    counts.push_back(sum ? *sum : c.int_table({f, {rows, count}}, "the counts", [](uint64_t) { return 0; }));
  }
  OperandId all = counts.size() == 1 ? counts[0] : c.add(OpKind::kConcat, counts, ConcatAttrs{1});  // [rows, total]
  if (mode == "IDF") all = c.cast(c.add(OpKind::kGreater, {all, c.scalar(f, 0)}), f);
  c.reserve({f, {uint32_t(total), uint32_t(width)}}, "the map from grams to outputs", 8 * uint64_t(total) * width);
  std::vector<double> map(total * uint64_t(width), 0.0);
  for (size_t g = 0; g < total; ++g) map[g * uint64_t(width) + uint64_t(outputs[g])] += mode == "TF" ? 1.0 : weights[g];
  OperandId y =
      c.add(OpKind::kMatmul, {all, c.constant({f, {uint32_t(total), uint32_t(width)}}, bytes_of_doubles(f, map))});
  c.set_out(0, batched ? y : c.reshape(y, {uint32_t(width)}));
}

}  // namespace

Lowerings text_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"TfIdfVectorizer", lower_tfidf_vectorizer},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
