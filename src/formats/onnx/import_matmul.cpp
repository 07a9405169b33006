// ONNX import: Gemm and MatMul onto WebNN's gemm and matmul (src/ops/matmul.cpp), Einsum in every
// form as diagonals, sums and matmuls, and Det by cofactor expansion or elimination.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

void lower_gemm(const NodeCtx& c) {
  GemmAttrs a;
  a.alpha = c.attr_f("alpha", 1.0f);
  a.beta = c.attr_f("beta", 1.0f);
  a.a_transpose = c.attr_i("transA", 0) != 0;
  a.b_transpose = c.attr_i("transB", 0) != 0;
  if (c.has_input(2)) a.c = OperandRef{c.operand(2)};
  c.set_out(0, c.add(OpKind::kGemm, {c.operand(0), c.operand(1)}, a));
}

void lower_matmul(const NodeCtx& c) { c.set_out(0, matmul_of(c, c.operand(0), c.operand(1))); }

// Det (WebNN has no determinant) of matrices up to 4×4 by cofactor expansion along the first row
// (larger ones: det_by_elimination):
// the n² elements are slices of the (batch, n²) view, and each minor (the rows below `row`, the
// columns `cols`) is built once. n = 4 takes 16 slices and about 50 elementwise ops on
// batch-sized tensors. The float arithmetic of the expansion: an error of a few units in the
// last place of the sum of |products| (the permanent of |A|), as any float method of this type
// has on a nearly singular matrix.
void det_by_elimination(const NodeCtx& c, const Shape& batch, uint32_t count, uint32_t n);

void lower_det(const NodeCtx& c) {
  size_t r = c.rank(0);
  if (r < 2) c.invalid("the input must have rank 2 or more, rank " + std::to_string(r));
  const Shape xs = c.desc(0).shape;
  const uint32_t n = xs[r - 1];
  if (xs[r - 2] != n) c.invalid("the matrices must be square");
  Shape batch(xs.begin(), xs.end() - 2);
  const uint32_t count = uint32_t(count_of(batch));
  if (n > 4) return det_by_elimination(c, batch, count, n);
  OperandId flat = c.reshape(c.operand(0), {count, n * n});
  std::vector<OperandId> e;
  for (uint32_t i = 0; i < n * n; ++i) e.push_back(slice_axis(c, flat, 1, i, 1));
  std::map<std::vector<uint32_t>, OperandId> minors;
  std::function<OperandId(uint32_t, const std::vector<uint32_t>&)> det = [&](uint32_t row,
                                                                             const std::vector<uint32_t>& cols) {
    if (cols.size() == 1) return e[row * n + cols[0]];
    auto it = minors.find(cols);
    if (it != minors.end()) return it->second;
    std::optional<OperandId> sum;
    for (size_t j = 0; j < cols.size(); ++j) {
      std::vector<uint32_t> rest = cols;
      rest.erase(rest.begin() + long(j));
      OperandId term = c.add(OpKind::kMul, {e[row * n + cols[j]], det(row + 1, rest)});
      sum = !sum ? term : c.add(j % 2 ? OpKind::kSub : OpKind::kAdd, {*sum, term});
    }
    return minors[cols] = *sum;
  };
  std::vector<uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0u);
  c.set_out(0, c.reshape(det(0, all), batch));
}

// The largest matrix Det eliminates: each of its n - 1 steps is about twenty operations.
constexpr uint32_t kMaxDetOrder = 256;

// Det of matrices above 4×4 by Gaussian elimination with partial pivoting, unrolled over the
// n - 1 columns and batched over the matrices (as LAPACK's getrf and ONNX Runtime's Eigen LU
// compute it): step k takes the trailing (n - k)² block B, finds its pivot row p (argMax of
// |B[:, 0]|, the first of equal ones), swaps rows 0 and p (gatherElements with the permuted row
// indices; the sign flips when p is not 0), multiplies the determinant by the pivot, and
// eliminates: B' = B[1:, 1:] - (B[1:, 0] / pivot) ⊗ B[0, 1:]. A zero pivot (a zero column) divides
// by 1 instead, and the determinant is 0. float16 is computed in float32.
void det_by_elimination(const NodeCtx& c, const Shape& batch, uint32_t count, uint32_t n) {
  if (n > kMaxDetOrder)
    c.unsupported("Det of " + std::to_string(n) + "x" + std::to_string(n) +
                  " matrices (the importer eliminates up to " + std::to_string(kMaxDetOrder) + "x" +
                  std::to_string(kMaxDetOrder) + ")");
  const DataType type = c.type(0);
  if (type != DataType::kFloat32 && type != DataType::kFloat16)
    c.unsupported("Det of a " + onnx_type_name(onnx_type(type)) + " input (the importer eliminates float matrices)");
  auto f = [&](double v) { return c.scalar(DataType::kFloat32, v, 3); };
  OperandId b = c.cast(c.reshape(c.operand(0), {count, n, n}), DataType::kFloat32);
  OperandId det = f(1), sign = f(1);
  for (uint32_t k = 0; k + 1 < n; ++k) {
    const uint32_t m = n - k;
    const OperandId column = c.reshape(c.add(OpKind::kAbs, {slice_axis(c, b, 2, 0, 1)}), {count, m});
    const OperandId p =
        c.reshape(c.add(OpKind::kArgMax, {column}, ArgMinMaxAttrs{1, false, DataType::kInt32}), {count, 1});
    // Row i of the swapped block is row idx[i]: p for 0, 0 for p, i otherwise.
    const OperandId rows = c.iota(DataType::kInt32, 2, 1, m, "Det's row indices");
    const OperandId zero = c.scalar(DataType::kInt32, 0, 2);
    const OperandId idx =
        c.add(OpKind::kWhere, {c.add(OpKind::kEqual, {rows, zero}), p,
                               c.add(OpKind::kWhere, {c.add(OpKind::kEqual, {rows, p}), zero, rows})});
    b = c.add(OpKind::kGatherElements,
              {b, c.add(OpKind::kExpand, {c.reshape(idx, {count, m, 1})}, ExpandAttrs{{count, m, m}})}, GatherAttrs{1});
    const OperandId swapped = c.reshape(c.add(OpKind::kNotEqual, {p, zero}), {count, 1, 1});
    sign = c.add(OpKind::kWhere, {swapped, c.add(OpKind::kNeg, {sign}), sign});
    const OperandId pivot = slice_axis(c, slice_axis(c, b, 1, 0, 1), 2, 0, 1);  // [count, 1, 1]
    det = c.add(OpKind::kMul, {det, pivot});
    const OperandId safe = c.add(OpKind::kWhere, {c.add(OpKind::kEqual, {pivot, f(0)}), f(1), pivot});
    const OperandId factors = c.add(OpKind::kDiv, {slice_axis(c, slice_axis(c, b, 1, 1, m - 1), 2, 0, 1), safe});
    const OperandId top = slice_axis(c, slice_axis(c, b, 1, 0, 1), 2, 1, m - 1);
    const OperandId rest = slice_axis(c, slice_axis(c, b, 1, 1, m - 1), 2, 1, m - 1);
    b = c.add(OpKind::kSub, {rest, c.add(OpKind::kMul, {factors, top})});
  }
  det = c.add(OpKind::kMul, {c.add(OpKind::kMul, {det, b}), sign});
  c.set_out(0, c.cast(c.reshape(det, batch), type));
}

// ---- Einsum ----

// An operand of Einsum and the label of each of its axes. Labels are the equation's letters; the
// axes an ellipsis stands for get labels of their own, '0' + k for the k-th of the broadcast axes
// counted as numpy aligns them (from the right): digits, since an operand's rank is at most 8.
struct Term {
  OperandId x;
  std::string labels;
};

// Every axis of `t` that `keep` does not name, summed away.
Term sum_out(const NodeCtx& c, Term t, const std::string& keep) {
  std::vector<uint32_t> axes;
  std::string rest;
  for (size_t i = 0; i < t.labels.size(); ++i) {
    if (keep.find(t.labels[i]) == std::string::npos)
      axes.push_back(uint32_t(i));
    else
      rest += t.labels[i];
  }
  if (axes.empty()) return t;
  ReduceAttrs a;
  a.axes = axes;
  return {c.add(OpKind::kReduceSum, {t.x}, a), rest};
}

// The diagonal of a term whose label repeats ("ii", "bii", "iji"): the second axis moved next to
// the first, the two merged, and every (n + 1)-th element taken, until no label repeats.
Term diagonal(const NodeCtx& c, Term t) {
  for (size_t p = 0; p < t.labels.size(); ++p) {
    const size_t q = t.labels.find(t.labels[p], p + 1);
    if (q == std::string::npos) continue;
    Shape s = c.desc_of(t.x).shape;  // s[p] == s[q]: lower_einsum checked each label's size
    std::vector<uint32_t> perm;
    for (uint32_t i = 0; i < s.size(); ++i)
      if (i != q) perm.push_back(i);
    perm.insert(perm.begin() + std::ptrdiff_t(p) + 1, uint32_t(q));
    OperandId x = c.transpose(t.x, perm);
    const uint32_t n = s[p];
    Shape merged;
    for (size_t i = 0; i < perm.size(); ++i) {
      if (i == p + 1) continue;
      merged.push_back(i == p ? n * n : s[perm[i]]);
    }
    x = slice_axis(c, c.reshape(x, merged), p, 0, n, int64_t(n) + 1);
    t.labels.erase(q, 1);
    t = diagonal(c, {x, t.labels});
    return t;
  }
  return t;
}

// a · b over their shared labels: those `keep` names stay (batch axes), the others are summed
// (contracted). One matmul of [batch.., M, K] by [batch.., K, N] for float types (M, N and K the
// products of each operand's own labels and the contracted ones), and a product with the contracted
// axes summed for integer types, which matmul does not take. A label of size 1 in one operand is
// expanded to the other's size first (numpy's einsum broadcasts it).
Term contract(const NodeCtx& c, Term a, Term b, const std::string& keep) {
  Shape as = c.desc_of(a.x).shape, bs = c.desc_of(b.x).shape;
  std::string batch, contracted, a_only, b_only;
  for (char l : a.labels) {
    if (b.labels.find(l) == std::string::npos)
      a_only += l;
    else
      (keep.find(l) != std::string::npos ? batch : contracted) += l;
  }
  for (char l : b.labels)
    if (a.labels.find(l) == std::string::npos) b_only += l;
  std::map<char, uint32_t> size;
  for (size_t i = 0; i < a.labels.size(); ++i) size[a.labels[i]] = as[i];
  for (size_t i = 0; i < b.labels.size(); ++i) size[b.labels[i]] = std::max(size[b.labels[i]], bs[i]);
  auto broadcast = [&](Term& t, const Shape& s) {
    Shape full;
    for (char l : t.labels) full.push_back(size[l]);
    if (full != s) t.x = c.add(OpKind::kExpand, {t.x}, ExpandAttrs{full});
  };
  broadcast(a, as);
  broadcast(b, bs);
  auto perm_of = [](const std::string& from, const std::string& to) {
    std::vector<uint32_t> perm;
    for (char l : to) perm.push_back(uint32_t(from.find(l)));
    return perm;
  };
  auto product = [&](const std::string& labels) {
    uint32_t n = 1;  // a dimension of a valid tensor, or a product of an operand's dimensions
    for (char l : labels) n *= size[l];
    return n;
  };
  Shape batch_shape;
  for (char l : batch) batch_shape.push_back(size[l]);
  const uint32_t m = product(a_only), n = product(b_only), k = product(contracted);
  OperandId x = c.transpose(a.x, perm_of(a.labels, batch + a_only + contracted));
  OperandId y = c.transpose(b.x, perm_of(b.labels, batch + contracted + b_only));
  auto with = [&](std::initializer_list<uint32_t> dims) {
    Shape s = batch_shape;
    s.insert(s.end(), dims);
    return s;
  };
  OperandId r;
  if (contracted.empty()) {
    r = c.add(OpKind::kMul, {c.reshape(x, with({m, 1})), c.reshape(y, with({1, n}))});
  } else if (is_floating_point(c.desc_of(x).data_type)) {
    r = c.add(OpKind::kMatmul, {c.reshape(x, with({m, k})), c.reshape(y, with({k, n}))});
  } else {
    ReduceAttrs over_k;
    over_k.axes = std::vector<uint32_t>{uint32_t(batch_shape.size() + 1)};
    r = c.add(OpKind::kReduceSum, {c.add(OpKind::kMul, {c.reshape(x, with({m, k, 1})), c.reshape(y, with({1, k, n}))})},
              over_k);
  }
  Shape out = batch_shape;
  for (char l : a_only + b_only) out.push_back(size[l]);
  return {c.reshape(r, out), batch + a_only + b_only};
}

// Einsum, every equation of numpy's form: explicit or implicit output, ellipses, repeated labels
// (diagonals), any number of operands. Each operand's diagonals are taken and the labels no later
// step needs are summed; the operands are then contracted pairwise from the left (contract), and
// the result is transposed to the output's order.
void lower_einsum(const NodeCtx& c) {
  std::string eq;
  for (char ch : c.attr_s("equation", ""))
    if (ch != ' ') eq += ch;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> specs;
  for (size_t p = 0;;) {
    const size_t q = lhs.find(',', p);
    specs.push_back(lhs.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  if (specs.size() != c.input_count())
    c.invalid("the equation has " + std::to_string(specs.size()) + " terms for " + std::to_string(c.input_count()) +
              " inputs");
  auto letters_only = [&](const std::string& spec, const std::string& what) {
    std::string rest = spec;
    const size_t dots = rest.find("...");
    if (dots != std::string::npos) rest.erase(dots, 3);
    for (char ch : rest)
      if (!std::isalpha(static_cast<unsigned char>(ch)))
        c.invalid(what + " \"" + spec + "\" has a character that is not a letter");
    return std::pair{rest, dots};
  };
  // The inputs' terms with their ellipses spelled out.
  size_t ellipsis_rank = 0;
  std::vector<Term> terms;
  for (size_t i = 0; i < specs.size(); ++i) {
    const std::string what = "term " + std::to_string(i);
    auto [letters, dots] = letters_only(specs[i], what);
    const size_t rank = c.rank(i);
    if (dots == std::string::npos ? letters.size() != rank : letters.size() > rank)
      c.invalid(what + " \"" + specs[i] + "\" does not match input " + std::to_string(i) + " of rank " +
                std::to_string(rank));
    std::string labels = letters;
    if (dots != std::string::npos) {
      const size_t k = rank - letters.size();
      ellipsis_rank = std::max(ellipsis_rank, k);
      std::string axes;
      for (size_t j = 0; j < k; ++j) axes += char('0' + (k - 1 - j));  // '0' is the last axis
      labels.insert(dots, axes);
    }
    terms.push_back({c.operand(i), labels});
  }
  // The ellipsis's axes, numbered from the right, in order.
  std::string ellipsis;
  for (size_t j = ellipsis_rank; j-- > 0;) ellipsis += char('0' + j);
  std::string out;
  if (arrow != std::string::npos) {
    const std::string spec = eq.substr(arrow + 2);
    auto [letters, dots] = letters_only(spec, "the output");
    out = letters;
    if (dots != std::string::npos) out.insert(dots, ellipsis);
    if (dots == std::string::npos && ellipsis_rank > 0)
      c.invalid("the output \"" + spec + "\" drops the axes of an ellipsis");
    for (size_t p = 0; p < out.size(); ++p) {
      if (out.find(out[p], p + 1) != std::string::npos)
        c.invalid("the output names label '" + std::string(1, out[p]) + "' twice");
      bool known = false;
      for (const Term& t : terms) known |= t.labels.find(out[p]) != std::string::npos;
      if (!known) c.invalid("the output's label '" + std::string(1, out[p]) + "' is in no input");
    }
  } else {
    // Implicit: the ellipsis's axes, then the labels that occur once, in alphabetical order.
    std::map<char, int> count;
    for (const Term& t : terms)
      for (char l : t.labels)
        if (std::isalpha(static_cast<unsigned char>(l))) ++count[l];
    out = ellipsis;
    for (auto [l, n] : count)
      if (n == 1) out += l;
  }
  // Each label has one size: within a term exactly (a diagonal), across terms also 1, which
  // broadcasts as numpy's einsum broadcasts it.
  std::map<char, uint32_t> size;
  for (size_t i = 0; i < terms.size(); ++i) {
    const Shape& s = c.desc(i).shape;
    std::map<char, uint32_t> here;
    for (size_t d = 0; d < s.size(); ++d) {
      const char l = terms[i].labels[d];
      auto [in_term, fresh_here] = here.try_emplace(l, s[d]);
      auto [it, fresh] = size.try_emplace(l, s[d]);
      const bool agrees =
          fresh_here ? fresh || it->second == s[d] || it->second == 1 || s[d] == 1 : in_term->second == s[d];
      if (!agrees) {
        const std::string what = std::isdigit(static_cast<unsigned char>(l))
                                     ? "the ellipsis's axis " + std::to_string(ellipsis_rank - 1 - size_t(l - '0'))
                                     : "label '" + std::string(1, l) + "'";
        const uint32_t other = fresh_here ? it->second : in_term->second;
        c.invalid(what + " has sizes " + std::to_string(other) + " and " + std::to_string(s[d]) +
                  (fresh_here ? "" : " in term " + std::to_string(i)));
      }
      it->second = std::max(it->second, s[d]);
    }
  }
  // What the steps after term i still need: the output and the terms after it.
  auto needed_after = [&](size_t i) {
    std::string keep = out;
    for (size_t j = i + 1; j < terms.size(); ++j) keep += terms[j].labels;
    return keep;
  };
  for (size_t i = 0; i < terms.size(); ++i) {
    terms[i] = diagonal(c, terms[i]);
    std::string keep = needed_after(i);
    for (size_t j = 0; j < i; ++j) keep += terms[j].labels;
    terms[i] = sum_out(c, terms[i], keep);
  }
  Term acc = terms[0];
  for (size_t i = 1; i < terms.size(); ++i) acc = contract(c, acc, terms[i], needed_after(i));
  acc = sum_out(c, acc, out);
  std::vector<uint32_t> perm;
  for (char l : out) perm.push_back(uint32_t(acc.labels.find(l)));
  OperandId y = c.transpose(acc.x, perm);
  if (y == c.operand(0)) y = c.add(OpKind::kIdentity, {y});
  c.set_out(0, y);
}

}  // namespace

OperandId matmul_of(const NodeCtx& c, OperandId a, OperandId b) {
  Shape as = c.desc_of(a).shape, bs = c.desc_of(b).shape;
  if (as.empty() || bs.empty()) c.invalid("MatMul of a scalar");
  bool a1 = as.size() == 1, b1 = bs.size() == 1;
  if (a1) a = c.reshape(a, {1, as[0]});
  if (b1) b = c.reshape(b, {bs[0], 1});
  OperandId y = c.add(OpKind::kMatmul, {a, b});
  if (a1 || b1) {
    Shape ys = c.desc_of(y).shape;
    Shape out(ys.begin(), ys.end() - 2);
    if (!a1) out.push_back(ys[ys.size() - 2]);
    if (!b1) out.push_back(ys.back());
    y = out.empty() ? c.reshape(y, {}) : c.reshape(y, out);
  }
  return y;
}

Lowerings matmul_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"Gemm", lower_gemm},
      {"MatMul", lower_matmul},
      {"Einsum", lower_einsum},
      {"Det", lower_det},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
