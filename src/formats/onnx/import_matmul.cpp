// ONNX import: Gemm and MatMul onto WebNN's gemm and matmul (src/ops/matmul.cpp), the Einsum
// equations that are a (batched) matmul or a transpose, and Det by cofactor expansion.
#include <algorithm>
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

// Einsum of two operands with no contracted label ("i,j->ij", "bi,bj->bij", "bhi,bj->bhij"): each
// operand transposed to [batch.., its own labels..] and given 1s where the other's labels go, then
// multiplied with broadcasting and transposed to the output's order. Every label of an operand must
// be kept in the output and appear once in its term.
template <typename PermTo>
void lower_einsum_product(const NodeCtx& c, const std::string& a, const std::string& b, const std::string& out,
                          const std::string& batch, const std::string& i_labels, const std::string& j_labels,
                          const PermTo& perm_to) {
  for (const std::string* term : {&a, &b, &out})
    for (size_t p = 0; p < term->size(); ++p)
      if (term->find((*term)[p], p + 1) != std::string::npos) c.unsupported("a label repeated within a term");
  const std::string want_a = batch + i_labels, want_b = batch + j_labels, want_o = batch + i_labels + j_labels;
  if (want_a.size() != a.size() || want_b.size() != b.size() || want_o.size() != out.size())
    c.unsupported("an equation other than a (batched) matmul or an outer product");
  auto pa = perm_to(a, want_a), pb = perm_to(b, want_b), po = perm_to(want_o, out);
  if (pa.size() != a.size() || pb.size() != b.size() || po.size() != out.size())
    c.unsupported("an equation other than a (batched) matmul or an outer product");
  OperandId x = c.transpose(c.operand(0), pa), y = c.transpose(c.operand(1), pb);
  Shape xs = c.desc_of(x).shape, ys = c.desc_of(y).shape;
  xs.insert(xs.end(), j_labels.size(), 1);
  ys.insert(ys.begin() + std::ptrdiff_t(batch.size()), i_labels.size(), 1);
  OperandId product = c.add(OpKind::kMul, {c.reshape(x, xs), c.reshape(y, ys)});
  c.set_out(0, c.transpose(product, po));
}

// Einsum: the equations that are a (batched) matmul, an outer product or a transpose.
void lower_einsum(const NodeCtx& c) {
  std::string eq;
  for (char ch : c.attr_s("equation", ""))
    if (ch != ' ') eq += ch;
  auto arrow = eq.find("->");
  if (arrow == std::string::npos) c.unsupported("an equation without an explicit output");
  std::string lhs = eq.substr(0, arrow), out = eq.substr(arrow + 2);
  std::vector<std::string> terms;
  for (size_t p = 0;;) {
    size_t q = lhs.find(',', p);
    terms.push_back(lhs.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  if (eq.find("...") != std::string::npos) c.unsupported("ellipsis equations");
  if (terms.size() != c.input_count()) c.invalid("the equation does not match the inputs");
  auto perm_to = [&](const std::string& from, const std::string& to) {
    std::vector<uint32_t> perm;
    for (char ch : to) {
      auto p = from.find(ch);
      if (p == std::string::npos) return std::vector<uint32_t>{};
      perm.push_back(uint32_t(p));
    }
    return perm;
  };
  if (terms.size() == 1) {
    const std::string& a = terms[0];
    std::string sorted_a = a, sorted_o = out;
    std::sort(sorted_a.begin(), sorted_a.end());
    std::sort(sorted_o.begin(), sorted_o.end());
    if (sorted_a != sorted_o || a.size() != c.rank(0)) c.unsupported("an equation other than a transpose");
    OperandId y = c.transpose(c.operand(0), perm_to(a, out));
    if (y == c.operand(0)) y = c.add(OpKind::kIdentity, {y});
    return c.set_out(0, y);
  }
  if (terms.size() != 2) c.unsupported("equations of more than two inputs");
  // a: batch.. i k; b: batch.. k j; out: batch.. i j, after transposing each operand.
  const std::string &a = terms[0], &b = terms[1];
  if (a.size() != c.rank(0) || b.size() != c.rank(1)) c.invalid("the equation does not match the ranks");
  std::string batch, ka, kb;
  for (char ch : a) {
    bool in_b = b.find(ch) != std::string::npos, in_o = out.find(ch) != std::string::npos;
    if (in_b && in_o)
      batch += ch;
    else if (in_b && !in_o)
      ka += ch;
  }
  std::string i_labels, j_labels;  // the labels of one operand only, kept in the output
  for (char ch : a)
    if (batch.find(ch) == std::string::npos && ka.find(ch) == std::string::npos) i_labels += ch;
  for (char ch : b)
    if (batch.find(ch) == std::string::npos && ka.find(ch) == std::string::npos) j_labels += ch;
  if (ka.empty()) return lower_einsum_product(c, a, b, out, batch, i_labels, j_labels, perm_to);
  if (ka.size() != 1 || out.size() != batch.size() + 2) c.unsupported("an equation other than a (batched) matmul");
  if (i_labels.size() != 1 || j_labels.size() != 1) c.unsupported("an equation other than a (batched) matmul");
  std::string want_a = batch + i_labels + ka, want_b = batch + ka + j_labels, want_o = batch + i_labels + j_labels;
  auto pa = perm_to(a, want_a), pb = perm_to(b, want_b), po = perm_to(want_o, out);
  if (pa.size() != a.size() || pb.size() != b.size() || po.size() != out.size())
    c.unsupported("an equation other than a (batched) matmul");
  OperandId y = c.add(OpKind::kMatmul, {c.transpose(c.operand(0), pa), c.transpose(c.operand(1), pb)});
  c.set_out(0, c.transpose(y, po));
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
