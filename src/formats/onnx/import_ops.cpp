// ONNX import: one lowering per ONNX op type onto GraphBuilder operations (docs/onnx.md lists
// them with their opsets). Values known at import time are read where a lowering needs them
// (shapes, axes, pads), and small shape arithmetic on them is folded by the reference kernels
// (import_fold.cpp); everything else becomes WebNN operations, validated by the builder.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "formats/onnx/import_internal.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::formats::onnx_import {

namespace {

// A pass-through of input 0 with a new shape (Reshape, Squeeze, ...): constants stay constants.
void reshaped(const NodeCtx& c, const Shape& shape) {
  const Value& x = c.in(0);
  if (x.data && !x.id) {
    c.set_const_out(0, {x.desc.data_type, shape}, *x.data, x.is_bool);
    return;
  }
  OperandId id = c.operand(0);
  if (c.desc_of(id).shape == shape) {
    // Identity, Dropout, a no-op reshape: the output is the input's operand under a second name.
    c.alias_out(0, id, x.is_bool);
    return;
  }
  c.set_out(0, c.reshape(id, shape), x.is_bool);
}

std::vector<uint32_t> norm_axes(const NodeCtx& c, const std::vector<int64_t>& axes, size_t rank) {
  std::vector<uint32_t> out;
  for (int64_t a : axes) {
    uint32_t n = c.axis(a, rank);
    if (std::find(out.begin(), out.end(), n) != out.end()) c.invalid("axis " + std::to_string(a) + " repeats");
    out.push_back(n);
  }
  return out;
}

std::vector<uint32_t> to_u32(const NodeCtx& c, const std::vector<int64_t>& v, const std::string& what) {
  std::vector<uint32_t> out;
  for (int64_t x : v) {
    if (x < 0 || x > int64_t(kMaxDimension)) c.unsupported(what + " value " + std::to_string(x) + " is out of range");
    out.push_back(uint32_t(x));
  }
  return out;
}

// ---- Element-wise ----

template <OpKind K>
void unary(const NodeCtx& c) {
  // Small constants fold where the op is correctly rounded, so that the folded value is what every
  // backend computes.
  constexpr bool kFolds = K == OpKind::kNeg || K == OpKind::kAbs || K == OpKind::kFloor || K == OpKind::kCeil ||
                          K == OpKind::kSign || K == OpKind::kSqrt || K == OpKind::kReciprocal;
  if (kFolds && foldable(c) && count_of(c.desc(0).shape) > 0 && c.fold_fits(c.desc(0)) &&
      fold_out(c, 0, c.desc(0), K, {host_tensor(c.in(0))}, NoAttrs{}))
    return;
  c.set_out(0, c.add(K, {c.operand(0)}));
}

void lower_identity(const NodeCtx& c) { reshaped(c, c.desc(0).shape); }

// Element-wise arithmetic and comparisons of two small constants of one type, folded.
bool fold_binary(const NodeCtx& c, OpKind kind, bool to_bool = false) {
  if (!foldable(c) || c.input_count() != 2) return false;
  const Value& a = c.in(0);
  const Value& b = c.in(1);
  auto shape = ops::broadcast_bidirectional(a.desc.shape, b.desc.shape);
  if (!shape || a.desc.data_type != b.desc.data_type || count_of(*shape) == 0) return false;
  // An empty operand is not folded (found by fuzz_onnx_import: an operand with a 0 dimension
  // against a 1-element one read past an empty vector); the builder then rejects it by the spec.
  if (count_of(a.desc.shape) == 0 || count_of(b.desc.shape) == 0) return false;
  // Two small operands can broadcast to a large result ([65536, 1] and [1, 65536]).
  const OperandDescriptor out{to_bool ? DataType::kUint8 : a.desc.data_type, *shape};
  if (!c.fold_fits(out)) return false;
  return fold_out(c, 0, out, kind, {host_tensor(a), host_tensor(b)}, NoAttrs{}, to_bool);
}

template <OpKind K>
void binary(const NodeCtx& c) {
  if (c.input_count() != 2) c.invalid("expects 2 inputs");
  constexpr bool kFolds = K == OpKind::kAdd || K == OpKind::kSub || K == OpKind::kMul || K == OpKind::kDiv ||
                          K == OpKind::kMax || K == OpKind::kMin;
  if (kFolds && fold_binary(c, K)) return;
  OperandId a = c.operand(0), b = c.operand(1);
  if (K == OpKind::kPow) b = c.cast(b, c.desc_of(a).data_type);  // ONNX allows another exponent type
  c.set_out(0, c.add(K, {a, b}));
}

// Max, Min, Sum, Mean: any number of inputs.
template <OpKind K>
void variadic(const NodeCtx& c) {
  if (c.input_count() == 2 && K != OpKind::kAdd) return binary<K>(c);
  OperandId acc = c.operand(0);
  for (size_t i = 1; i < c.input_count(); ++i) acc = c.add(K, {acc, c.operand(i)});
  if (c.input_count() == 1) acc = c.add(OpKind::kIdentity, {acc});
  c.set_out(0, acc);
}

void lower_mean(const NodeCtx& c) {
  OperandId acc = c.operand(0);
  for (size_t i = 1; i < c.input_count(); ++i) acc = c.add(OpKind::kAdd, {acc, c.operand(i)});
  DataType t = c.desc_of(acc).data_type;
  c.set_out(0, c.add(OpKind::kDiv, {acc, c.scalar(t, double(c.input_count()))}));
}

template <OpKind K>
void compare(const NodeCtx& c) {
  constexpr bool kFolds = K == OpKind::kEqual || K == OpKind::kGreater || K == OpKind::kLesser;
  if (kFolds && fold_binary(c, K, true)) return;
  c.set_out(0, c.add(K, {c.operand(0), c.operand(1)}), true);
}

template <OpKind K>
void logical(const NodeCtx& c) {
  std::vector<OperandId> ins;
  for (size_t i = 0; i < c.input_count(); ++i) ins.push_back(c.operand(i));
  c.set_out(0, c.add(K, ins), true);
}

void lower_not(const NodeCtx& c) {
  const OperandDescriptor out{DataType::kUint8, c.desc(0).shape};
  if (foldable(c) && c.fold_fits(out) &&
      fold_out(c, 0, out, OpKind::kLogicalNot, {host_tensor(c.in(0))}, NoAttrs{}, true))
    return;
  c.set_out(0, c.add(OpKind::kLogicalNot, {c.operand(0)}), true);
}

void lower_isinf(const NodeCtx& c) {
  bool neg = c.attr_i("detect_negative", 1) != 0, pos = c.attr_i("detect_positive", 1) != 0;
  OperandId x = c.operand(0);
  OperandId inf = c.add(OpKind::kIsInfinite, {x});
  if (neg && pos) return c.set_out(0, inf, true);
  if (!neg && !pos) {
    OperandId zero = c.add(OpKind::kMul, {inf, c.scalar(DataType::kUint8, 0)});
    return c.set_out(0, zero, true);
  }
  OperandId sign = c.add(pos ? OpKind::kGreater : OpKind::kLesser, {x, c.scalar(c.desc_of(x).data_type, 0)});
  c.set_out(0, c.add(OpKind::kLogicalAnd, {inf, sign}), true);
}

void lower_where(const NodeCtx& c) {
  if (foldable(c) && c.type(1) == c.type(2)) {
    const Value &cond = c.in(0), &x = c.in(1), &y = c.in(2);
    auto s1 = ops::broadcast_bidirectional(cond.desc.shape, x.desc.shape);
    auto shape = s1 ? ops::broadcast_bidirectional(*s1, y.desc.shape) : std::nullopt;
    if (shape && count_of(*shape) > 0) {
      const OperandDescriptor out{x.desc.data_type, *shape};
      if (c.fold_fits(out) && fold_out(c, 0, out, OpKind::kWhere, {host_tensor(cond), host_tensor(x), host_tensor(y)},
                                       NoAttrs{}, x.is_bool))
        return;
    }
  }
  c.set_out(0, c.add(OpKind::kWhere, {c.operand(0), c.operand(1), c.operand(2)}), c.in(1).is_bool);
}

void lower_cast_to(const NodeCtx& c, int32_t to) {
  bool is_bool = false;
  std::string name;
  auto type = webnn_type(to, &is_bool, &name);
  if (!type) c.unsupported("WebNN has no " + name + " data type");
  const Value& x = c.in(0);
  const OperandDescriptor out{*type, x.desc.shape};
  if (foldable(c) && c.fold_fits(out)) {
    // The operations below on the constant: nonzero is true for bool, cast otherwise.
    if (is_bool) {
      const HostTensor zero{{x.desc.data_type, {}}, bytes_of_doubles(x.desc.data_type, {0.0})};
      if (fold_out(c, 0, out, OpKind::kNotEqual, {host_tensor(x), zero}, NoAttrs{}, true)) return;
    } else if (fold_out(c, 0, out, OpKind::kCast, {host_tensor(x)}, CastAttrs{*type})) {
      return;
    }
  }
  OperandId id = c.operand(0);
  if (is_bool) {
    if (x.is_bool) return c.set_out(0, c.add(OpKind::kIdentity, {id}), true);
    return c.set_out(0, c.add(OpKind::kNotEqual, {id, c.scalar(x.desc.data_type, 0)}), true);
  }
  c.set_out(0, c.add(OpKind::kCast, {id}, CastAttrs{*type}));
}

void lower_cast(const NodeCtx& c) {
  if (!c.has_attr("to")) c.invalid("attribute to is required");
  lower_cast_to(c, static_cast<int32_t>(c.attr_i("to", 0)));
}

void lower_cast_like(const NodeCtx& c) {
  // The target's ONNX type (the export's mapping); bool is kept as such.
  const Value& t = c.in(1);
  const int32_t to = t.is_bool ? onnx::TensorProto::BOOL : onnx_type(t.desc.data_type);
  lower_cast_to(c, to);
}

void lower_clip(const NodeCtx& c) {
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  if (c.opset < 11) {
    ClampAttrs a;
    if (c.has_attr("min")) a.min_value = c.attr_f("min", 0);
    if (c.has_attr("max")) a.max_value = c.attr_f("max", 0);
    return c.set_out(0, c.add(OpKind::kClamp, {x}, a));
  }
  bool const_bounds = (!c.has_input(1) || c.is_const(1)) && (!c.has_input(2) || c.is_const(2));
  if (const_bounds) {
    ClampAttrs a;
    auto bound = [&](size_t i) {
      if (is_floating_point(t)) return Number(c.const_doubles(i, "bound").at(0));
      int64_t v = c.const_ints(i, "bound").at(0);
      return t == DataType::kUint64 ? Number::from_uint64(uint64_t(v)) : Number::from_int64(v);
    };
    if (c.has_input(1)) a.min_value = bound(1);
    if (c.has_input(2)) a.max_value = bound(2);
    if (!is_floating_point(t)) {
      // An integer clamp's default bounds are the type's own range.
      if (!c.has_input(1) && !c.has_input(2)) return c.set_out(0, c.add(OpKind::kIdentity, {x}));
      if (!c.has_input(1)) return c.set_out(0, c.add(OpKind::kMin, {x, c.operand(2)}));
      if (!c.has_input(2)) return c.set_out(0, c.add(OpKind::kMax, {x, c.operand(1)}));
    }
    return c.set_out(0, c.add(OpKind::kClamp, {x}, a));
  }
  OperandId y = x;
  if (c.has_input(1)) y = c.add(OpKind::kMax, {y, c.operand(1)});
  if (c.has_input(2)) y = c.add(OpKind::kMin, {y, c.operand(2)});
  if (y == x) y = c.add(OpKind::kIdentity, {x});
  c.set_out(0, y);
}

void lower_elu(const NodeCtx& c) {
  c.set_out(0, c.add(OpKind::kElu, {c.operand(0)}, EluAttrs{c.attr_f("alpha", 1.0f)}));
}
void lower_leaky_relu(const NodeCtx& c) {
  c.set_out(0, c.add(OpKind::kLeakyRelu, {c.operand(0)}, LeakyReluAttrs{c.attr_f("alpha", 0.01f)}));
}
void lower_hard_sigmoid(const NodeCtx& c) {
  c.set_out(0, c.add(OpKind::kHardSigmoid, {c.operand(0)},
                     HardSigmoidAttrs{c.attr_f("alpha", 0.2f), c.attr_f("beta", 0.5f)}));
}
void lower_selu(const NodeCtx& c) {
  OperandId x = c.operand(0);
  OperandId e = c.add(OpKind::kElu, {x}, EluAttrs{c.attr_f("alpha", 1.67326319217681884765625f)});
  DataType t = c.desc_of(x).data_type;
  c.set_out(0, c.add(OpKind::kMul, {e, c.scalar(t, c.attr_f("gamma", 1.05070102214813232421875f))}));
}
void lower_celu(const NodeCtx& c) {
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  double alpha = c.attr_f("alpha", 1.0f);
  OperandId e = c.add(OpKind::kElu, {c.add(OpKind::kDiv, {x, c.scalar(t, alpha)})}, EluAttrs{1.0});
  c.set_out(0, c.add(OpKind::kMul, {e, c.scalar(t, alpha)}));
}
void lower_thresholded_relu(const NodeCtx& c) {
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  OperandId above = c.add(OpKind::kGreater, {x, c.scalar(t, c.attr_f("alpha", 1.0f))});
  c.set_out(0, c.add(OpKind::kWhere, {above, x, c.scalar(t, 0)}));
}
void lower_shrink(const NodeCtx& c) {
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  double lambd = c.attr_f("lambd", 0.5f), bias = c.attr_f("bias", 0.0f);
  OperandId lo = c.add(OpKind::kLesser, {x, c.scalar(t, -lambd)});
  OperandId hi = c.add(OpKind::kGreater, {x, c.scalar(t, lambd)});
  OperandId plus = c.add(OpKind::kAdd, {x, c.scalar(t, bias)});
  OperandId minus = c.add(OpKind::kSub, {x, c.scalar(t, bias)});
  OperandId inner = c.add(OpKind::kWhere, {hi, minus, c.scalar(t, 0)});
  c.set_out(0, c.add(OpKind::kWhere, {lo, plus, inner}));
}
void lower_mish(const NodeCtx& c) {
  OperandId x = c.operand(0);
  c.set_out(0, c.add(OpKind::kMul, {x, c.add(OpKind::kTanh, {c.add(OpKind::kSoftplus, {x})})}));
}
void lower_prelu(const NodeCtx& c) {
  OperandId slope = c.operand(1);
  const Shape& xs = c.desc(0).shape;
  const Shape& ss = c.desc_of(slope).shape;
  // Before opset 7 a 1-D slope runs along the channel axis (1), not the last one.
  if (c.opset < 7 && ss.size() == 1 && xs.size() > 2 && ss[0] == xs[1] && ss[0] != 1) {
    Shape s(xs.size() - 1, 1);
    s[0] = ss[0];
    slope = c.reshape(slope, s);
  }
  c.set_out(0, c.add(OpKind::kPrelu, {c.operand(0), slope}));
}

// Hyperbolic functions from exp, log and sqrt.
void lower_sinh_cosh(const NodeCtx& c, bool is_cosh) {
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  OperandId ep = c.add(OpKind::kExp, {x});
  OperandId en = c.add(OpKind::kExp, {c.add(OpKind::kNeg, {x})});
  OperandId s = c.add(is_cosh ? OpKind::kAdd : OpKind::kSub, {ep, en});
  c.set_out(0, c.add(OpKind::kMul, {s, c.scalar(t, 0.5)}));
}
void lower_sinh(const NodeCtx& c) { lower_sinh_cosh(c, false); }
void lower_cosh(const NodeCtx& c) { lower_sinh_cosh(c, true); }
void lower_asinh_acosh(const NodeCtx& c, bool is_acosh) {
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  OperandId sq = c.add(OpKind::kMul, {x, x});
  OperandId r = c.add(OpKind::kSqrt, {c.add(is_acosh ? OpKind::kSub : OpKind::kAdd, {sq, c.scalar(t, 1)})});
  c.set_out(0, c.add(OpKind::kLog, {c.add(OpKind::kAdd, {x, r})}));
}
void lower_asinh(const NodeCtx& c) { lower_asinh_acosh(c, false); }
void lower_acosh(const NodeCtx& c) { lower_asinh_acosh(c, true); }
void lower_atanh(const NodeCtx& c) {
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  OperandId num = c.add(OpKind::kAdd, {c.scalar(t, 1), x});
  OperandId den = c.add(OpKind::kSub, {c.scalar(t, 1), x});
  c.set_out(0, c.add(OpKind::kMul, {c.add(OpKind::kLog, {c.add(OpKind::kDiv, {num, den})}), c.scalar(t, 0.5)}));
}

// Atan, Asin and Acos (WebNN has no inverse trigonometric functions), in float32 (float16 inputs
// are widened and the result narrowed). atan reduces |x| to [0, 1] (atan(x) = π/2 − atan(1/x)
// above 1; 1/∞ = 0) and then to |w| ≤ tan(π/8) (atan(z) = π/4 + atan((z − 1)/(z + 1)) above
// tan(π/8)), where ten terms of its Taylor series, w − w³/3 + … − w¹⁹/19, leave a truncation error
// below 0.1716¹⁰/21 ≈ 1.1e-9 of |w|: float32 rounding decides the result. asin(x) =
// atan(x / sqrt((1 − x)(1 + x))) (±1 gives ±∞, then ±π/2), acos(x) = 2 atan(sqrt((1 − x)/(1 + x)))
// (accurate near 1, where π/2 − asin(x) would cancel). NaN propagates, and |x| > 1 gives NaN
// for asin and acos through the square root.
OperandId atan_f32(const NodeCtx& c, OperandId x) {
  const DataType f = DataType::kFloat32;
  const double pi = 3.14159265358979323846;
  const OperandId a = c.add(OpKind::kAbs, {x});
  const OperandId inverted = c.add(OpKind::kGreater, {a, c.scalar(f, 1)});
  const OperandId z = c.add(OpKind::kWhere, {inverted, c.add(OpKind::kDiv, {c.scalar(f, 1), a}), a});
  const OperandId shifted = c.add(OpKind::kGreater, {z, c.scalar(f, 0.41421356237309503)});  // tan(π/8)
  const OperandId w = c.add(
      OpKind::kWhere,
      {shifted,
       c.add(OpKind::kDiv, {c.add(OpKind::kSub, {z, c.scalar(f, 1)}), c.add(OpKind::kAdd, {z, c.scalar(f, 1)})}), z});
  const OperandId u = c.add(OpKind::kMul, {w, w});
  // Horner from the highest term: Σ (−1)^k u^k / (2k + 1), k = 0 … 9.
  OperandId series = c.scalar(f, -1.0 / 19);
  for (int k = 8; k >= 0; --k)
    series = c.add(OpKind::kAdd, {c.add(OpKind::kMul, {series, u}), c.scalar(f, (k % 2 ? -1.0 : 1.0) / (2 * k + 1))});
  OperandId r = c.add(OpKind::kMul, {w, series});
  r = c.add(OpKind::kAdd, {r, c.add(OpKind::kWhere, {shifted, c.scalar(f, pi / 4), c.scalar(f, 0)})});
  r = c.add(OpKind::kWhere, {inverted, c.add(OpKind::kSub, {c.scalar(f, pi / 2), r}), r});
  return c.add(OpKind::kMul, {c.add(OpKind::kSign, {x}), r});
}

template <int kFunction>  // 0: atan, 1: asin, 2: acos
void lower_inverse_trig(const NodeCtx& c) {
  const DataType t = c.type(0), f = DataType::kFloat32;
  if (t != DataType::kFloat32 && t != DataType::kFloat16) c.invalid("the input must be a float tensor");
  const OperandId x = c.cast(c.operand(0), f);
  OperandId y = 0;
  if (kFunction == 0) {
    y = atan_f32(c, x);
  } else {
    const OperandId one_minus = c.add(OpKind::kSub, {c.scalar(f, 1), x});
    const OperandId one_plus = c.add(OpKind::kAdd, {c.scalar(f, 1), x});
    if (kFunction == 1) {
      const OperandId root = c.add(OpKind::kSqrt, {c.add(OpKind::kMul, {one_minus, one_plus})});
      y = atan_f32(c, c.add(OpKind::kDiv, {x, root}));
    } else {
      const OperandId root = c.add(OpKind::kSqrt, {c.add(OpKind::kDiv, {one_minus, one_plus})});
      y = c.add(OpKind::kMul, {c.scalar(f, 2), atan_f32(c, root)});
    }
  }
  c.set_out(0, c.cast(y, t));
}

void lower_mod(const NodeCtx& c) {
  OperandId a = c.operand(0), b = c.operand(1);
  DataType t = c.desc_of(a).data_type;
  bool fmod = c.attr_i("fmod", 0) != 0;
  if (!is_floating_point(t)) {
    // WebNN's integer div truncates toward zero, so a - div(a, b) * b is C's remainder (the
    // dividend's sign), exact with wrapping arithmetic: INT_MIN mod -1 is INT_MIN - INT_MIN * -1 = 0.
    OperandId r = c.add(OpKind::kSub, {a, c.add(OpKind::kMul, {c.add(OpKind::kDiv, {a, b}), b})});
    if (fmod || !is_signed_int_type(onnx_type(t))) return c.set_out(0, r);
    // fmod = 0 takes the divisor's sign: a nonzero remainder whose sign differs from b's gets b added.
    OperandId zero = c.scalar(t, 0);
    OperandId signs_differ =
        c.add(OpKind::kLogicalXor, {c.add(OpKind::kLesser, {r, zero}), c.add(OpKind::kLesser, {b, zero})});
    OperandId fix = c.add(OpKind::kLogicalAnd, {c.add(OpKind::kNotEqual, {r, zero}), signs_differ});
    return c.set_out(0, c.add(OpKind::kWhere, {fix, c.add(OpKind::kAdd, {r, b}), r}));
  }
  // fmod: a - trunc(a / b) * b; Mod: a - floor(a / b) * b (the divisor's sign).
  OperandId q = c.add(OpKind::kDiv, {a, b});
  if (fmod)
    q = c.add(OpKind::kMul, {c.add(OpKind::kSign, {q}), c.add(OpKind::kFloor, {c.add(OpKind::kAbs, {q})})});
  else
    q = c.add(OpKind::kFloor, {q});
  c.set_out(0, c.add(OpKind::kSub, {a, c.add(OpKind::kMul, {q, b})}));
}

// ---- Convolution and pooling ----

// The spatial parameters of a 1-D or 2-D conv or pool, as 2-D (a 1-D op has height 1).
struct Window {
  std::vector<int64_t> kernel, strides, dilations, begin, end;
};

// Attribute values that index or size tensors: in [lo, 2^31 - 1], so that products of two stay
// within int64.
const std::vector<int64_t>& in_range(const NodeCtx& c, const std::vector<int64_t>& v, int64_t lo, const char* what) {
  for (int64_t x : v)
    if (x < lo || x > int64_t(kMaxDimension))
      c.invalid(std::string(what) + " value " + std::to_string(x) + " is out of range");
  return v;
}

// ONNX pads/auto_pad -> explicit begin/end paddings. `in` are the spatial input sizes.
Window window_of(const NodeCtx& c, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                 bool has_dilations) {
  size_t n = in.size();
  Window w;
  w.kernel = in_range(c, kernel, 1, "kernel_shape");
  w.strides = in_range(c, c.attr_ints("strides"), 1, "strides");
  if (w.strides.empty()) w.strides.assign(n, 1);
  w.dilations = has_dilations ? in_range(c, c.attr_ints("dilations"), 1, "dilations") : std::vector<int64_t>{};
  if (w.dilations.empty()) w.dilations.assign(n, 1);
  if (w.strides.size() != n || w.dilations.size() != n) c.invalid("strides/dilations do not match the kernel rank");
  for (size_t i = 0; i < n; ++i)
    if (w.strides[i] < 1 || w.dilations[i] < 1) c.invalid("strides and dilations must be positive");
  std::string auto_pad = c.attr_s("auto_pad", "NOTSET");
  w.begin.assign(n, 0);
  w.end.assign(n, 0);
  if (auto_pad == "NOTSET") {
    auto pads = c.attr_ints("pads");
    in_range(c, pads, 0, "pads");
    if (!pads.empty()) {
      if (pads.size() != 2 * n) c.invalid("pads must have 2 values per spatial axis");
      for (size_t i = 0; i < n; ++i) {
        w.begin[i] = pads[i];
        w.end[i] = pads[i + n];
        if (w.begin[i] < 0 || w.end[i] < 0) c.unsupported("negative pads");
      }
    }
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (size_t i = 0; i < n; ++i) {
      int64_t out = (in[i] + w.strides[i] - 1) / w.strides[i];
      int64_t total = std::max<int64_t>(0, (out - 1) * w.strides[i] + (kernel[i] - 1) * w.dilations[i] + 1 - in[i]);
      w.begin[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.end[i] = total - w.begin[i];
    }
  } else if (auto_pad != "VALID") {
    c.invalid("unknown auto_pad \"" + auto_pad + "\"");
  }
  return w;
}

std::vector<uint32_t> u32s(const std::vector<int64_t>& v) { return {v.begin(), v.end()}; }

// A 3-D (N, C, L) operand as 4-D (N, C, 1, L); 4-D ones unchanged.
OperandId to_4d(const NodeCtx& c, OperandId x) {
  Shape s = c.desc_of(x).shape;
  if (s.size() == 4) return x;
  if (s.size() != 3) c.invalid("an operand of rank " + std::to_string(s.size()) + " where rank 3 or 4 is expected");
  return c.reshape(x, {s[0], s[1], 1, s[2]});
}

// The spatial sizes of an (N, C, spatial...) shape.
std::vector<int64_t> spatial_of(const Shape& s) { return {s.begin() + 2, s.end()}; }

// [begin_h, end_h, begin_w, end_w] of the last two spatial axes of per-axis begin/end paddings.
std::vector<uint32_t> padding_2d(const std::vector<int64_t>& begin, const std::vector<int64_t>& end) {
  size_t n = begin.size();
  return {uint32_t(begin[n - 2]), uint32_t(end[n - 2]), uint32_t(begin[n - 1]), uint32_t(end[n - 1])};
}

// The last two values of a per-axis list.
std::vector<uint32_t> last_2d(const std::vector<int64_t>& v) { return {uint32_t(v[v.size() - 2]), uint32_t(v.back())}; }

// Pads axis `axis` of x with zeros: `begin` before, `end` after (nothing when both are 0).
OperandId pad_axis(const NodeCtx& c, OperandId x, size_t axis, int64_t begin, int64_t end) {
  if (begin == 0 && end == 0) return x;
  PadAttrs p;
  p.beginning_padding.assign(c.desc_of(x).shape.size(), 0);
  p.ending_padding.assign(c.desc_of(x).shape.size(), 0);
  p.beginning_padding[axis] = uint32_t(begin);
  p.ending_padding[axis] = uint32_t(end);
  return c.add(OpKind::kPad, {x}, p);
}

}  // namespace

OperandId slice_axis(const NodeCtx& c, OperandId x, size_t axis, int64_t start, int64_t count, int64_t stride) {
  const Shape& s = c.desc_of(x).shape;
  if (start == 0 && count == s[axis]) return x;
  SliceAttrs a;
  a.starts.assign(s.size(), 0);
  a.sizes = s;
  a.starts[axis] = uint32_t(start);
  a.sizes[axis] = uint32_t((count - 1) * stride + 1);
  if (stride != 1) {
    a.strides = std::vector<uint32_t>(s.size(), 1);
    (*a.strides)[axis] = uint32_t(stride);
  }
  return c.add(OpKind::kSlice, {x}, a);
}

namespace {

// The 2-D filter of a 5-D (O, I, KD, KH, KW) filter's depth tap t: (O, I, KH, KW).
OperandId depth_tap(const NodeCtx& c, OperandId w, uint32_t t) {
  Shape ws = c.desc_of(w).shape;
  return c.reshape(slice_axis(c, w, 2, t, 1), {ws[0], ws[1], ws[3], ws[4]});
}

// (N, C, D, H, W) -> (N, D, C, H, W) and back: the depth next to the batch, where 2-D ops see
// each depth slice as one more image.
const std::vector<uint32_t> kDepthToBatch = {0, 2, 1, 3, 4};

// A 3-D convolution (WebNN has conv2d only) as the sum over the filter's depth taps of 2-D
// convolutions: the input's depth moves beside the batch and is padded with zeros; tap t reads
// the depth slices t·dilation + od·stride for every output depth od (one strided slice), as a
// batch of images, and convolves them with the tap's 2-D filter; the taps' results are added.
// Cost: KD conv2d over N·OD images each (the work of the 3-D convolution) plus KD slices and
// KD − 1 adds of output-sized tensors.
OperandId conv3d(const NodeCtx& c, OperandId x, OperandId w, std::optional<OperandId> bias, const Window& win) {
  const Shape xs = c.desc_of(x).shape, ws = c.desc_of(w).shape;
  int64_t padded = int64_t(xs[2]) + win.begin[0] + win.end[0];
  int64_t span = padded - ((win.kernel[0] - 1) * win.dilations[0] + 1);
  if (span < 0) c.invalid("the filter's depth is larger than the padded input's");
  int64_t out_d = span / win.strides[0] + 1;
  x = pad_axis(c, c.transpose(x, kDepthToBatch), 1, win.begin[0], win.end[0]);
  Conv2dAttrs a;
  a.padding = padding_2d(win.begin, win.end);
  a.strides = last_2d(win.strides);
  a.dilations = last_2d(win.dilations);
  a.groups = static_cast<uint32_t>(c.attr_i("group", 1));
  std::optional<OperandId> sum;
  for (uint32_t t = 0; t < ws[2]; ++t) {
    OperandId slices = slice_axis(c, x, 1, t * win.dilations[0], out_d, win.strides[0]);
    slices = c.reshape(slices, {uint32_t(xs[0] * out_d), xs[1], xs[3], xs[4]});
    Conv2dAttrs at = a;
    if (t == 0 && bias) at.bias = OperandRef{*bias};
    OperandId y = c.add(OpKind::kConv2d, {slices, depth_tap(c, w, t)}, at);
    sum = sum ? c.add(OpKind::kAdd, {*sum, y}) : y;
  }
  const Shape ys = c.desc_of(*sum).shape;  // (N·OD, M, OH, OW)
  return c.transpose(c.reshape(*sum, {xs[0], uint32_t(out_d), ys[1], ys[2], ys[3]}), kDepthToBatch);
}

}  // namespace

OperandId conv_of(const NodeCtx& c, OperandId x, OperandId w, std::optional<OperandId> bias) {
  const Shape xs = c.desc_of(x).shape, ws = c.desc_of(w).shape;
  size_t r = xs.size();
  if (r < 3 || r > 5)
    c.unsupported("WebNN has 2-D convolutions, from which 1-D and 3-D ones are built; input rank " + std::to_string(r));
  if (ws.size() != r) c.invalid("the weights' rank differs from the input's");
  std::vector<int64_t> in = spatial_of(xs), kernel = spatial_of(ws);
  auto kernel_attr = c.attr_ints("kernel_shape");
  if (!kernel_attr.empty() && kernel_attr != kernel) c.invalid("kernel_shape does not match the weights");
  Window win = window_of(c, in, kernel, true);
  if (r == 5) return conv3d(c, x, w, bias, win);
  if (r == 3) {  // 1-D as 2-D with height 1
    for (auto* v : {&win.kernel, &win.strides, &win.dilations}) v->insert(v->begin(), 1);
    for (auto* v : {&win.begin, &win.end}) v->insert(v->begin(), 0);
  }
  Conv2dAttrs a;
  a.padding = padding_2d(win.begin, win.end);
  a.strides = u32s(win.strides);
  a.dilations = u32s(win.dilations);
  a.groups = static_cast<uint32_t>(c.attr_i("group", 1));
  if (bias) a.bias = OperandRef{*bias};
  OperandId y = c.add(OpKind::kConv2d, {to_4d(c, x), to_4d(c, w)}, a);
  if (r == 3) {
    Shape ys = c.desc_of(y).shape;
    y = c.reshape(y, {ys[0], ys[1], ys[3]});
  }
  return y;
}

namespace {

void lower_conv(const NodeCtx& c) {
  std::optional<OperandId> bias;
  if (c.has_input(2)) bias = c.operand(2);
  c.set_out(0, conv_of(c, c.operand(0), c.operand(1), bias));
}

// ConvTranspose's attributes for its spatial axes, resolved to explicit paddings and output
// padding (auto_pad and output_shape become pads).
struct TransposedWindow {
  std::vector<int64_t> strides, dilations, outpad, begin, end;
};

TransposedWindow transposed_window_of(const NodeCtx& c, const std::vector<int64_t>& in,
                                      const std::vector<int64_t>& kernel) {
  size_t n = in.size();
  auto per_axis = [&](const char* name, int64_t lo, int64_t def) {
    auto v = in_range(c, c.attr_ints(name), lo, name);
    if (v.empty()) v.assign(n, def);
    if (v.size() != n) c.invalid("an attribute does not match the spatial rank");
    return v;
  };
  TransposedWindow tw;
  tw.strides = per_axis("strides", 1, 1);
  tw.dilations = per_axis("dilations", 1, 1);
  tw.outpad = per_axis("output_padding", 0, 0);
  tw.begin.assign(n, 0);
  tw.end.assign(n, 0);
  auto out_shape = in_range(c, c.attr_ints("output_shape"), 1, "output_shape");
  if (!out_shape.empty() && out_shape.size() < n) c.invalid("output_shape must have one value per spatial axis");
  std::string auto_pad = c.attr_s("auto_pad", "NOTSET");
  if (!out_shape.empty() || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    if (out_shape.size() > n) out_shape.erase(out_shape.begin(), out_shape.end() - long(n));
    for (size_t i = 0; i < n; ++i) {
      int64_t target = out_shape.empty() ? in[i] * tw.strides[i] : out_shape[i];
      int64_t total = tw.strides[i] * (in[i] - 1) + tw.outpad[i] + ((kernel[i] - 1) * tw.dilations[i] + 1) - target;
      if (total < 0) {
        tw.outpad[i] -= total;  // the output is larger than the kernel covers: extra output padding
        total = 0;
      }
      bool upper = auto_pad == "SAME_UPPER";
      tw.begin[i] = upper ? total / 2 : total - total / 2;
      tw.end[i] = total - tw.begin[i];
    }
  } else if (auto_pad == "NOTSET") {
    auto pads = in_range(c, c.attr_ints("pads"), 0, "pads");
    if (!pads.empty()) {
      if (pads.size() != 2 * n) c.invalid("pads must have 2 values per spatial axis");
      for (size_t i = 0; i < n; ++i) tw.begin[i] = pads[i], tw.end[i] = pads[i + n];
    }
  }
  return tw;
}

// A 3-D transposed convolution (WebNN has convTranspose2d only) as a sum over the filter's depth
// taps: every input depth slice, as one more image of the batch, goes through convTranspose2d
// with tap t's 2-D filter; input depth id lands on full-output depth id·stride + t·dilation, so
// the results are spread `stride` apart (a zero pad between them) and shifted by t·dilation (a
// zero pad before), and the taps are added. The pads crop the sum's depth, and the bias is added
// last (output_padding's extra depths hold only the bias). Cost: KD convTranspose2d over N·D
// images (the work of the 3-D one) plus a few pads, slices and adds of output-sized tensors per
// tap.
void conv_transpose3d(const NodeCtx& c, const TransposedWindow& tw) {
  OperandId x = c.operand(0), w = c.operand(1);
  const Shape xs = c.desc_of(x).shape, ws = c.desc_of(w).shape;
  const int64_t n = xs[0], depth = xs[2], taps = ws[2], sd = tw.strides[0], dd = tw.dilations[0];
  const int64_t spread = (depth - 1) * sd + 1;  // the depths one tap's results cover
  const int64_t full = spread + (taps - 1) * dd + tw.outpad[0];
  const int64_t out_d = full - tw.begin[0] - tw.end[0];
  if (out_d < 1) c.invalid("the pads leave no output depth");
  x = c.reshape(c.transpose(x, kDepthToBatch), {uint32_t(n * depth), xs[1], xs[3], xs[4]});
  ConvTranspose2dAttrs a;
  a.padding = padding_2d(tw.begin, tw.end);
  a.strides = last_2d(tw.strides);
  a.dilations = last_2d(tw.dilations);
  a.output_padding = last_2d(tw.outpad);
  a.groups = static_cast<uint32_t>(c.attr_i("group", 1));
  std::optional<OperandId> sum;
  Shape ys;
  for (uint32_t t = 0; t < ws[2]; ++t) {
    OperandId y = c.add(OpKind::kConvTranspose2d, {x, depth_tap(c, w, t)}, a);
    ys = c.desc_of(y).shape;  // (N·D, M, OH, OW)
    const uint32_t features = ys[1] * ys[2] * ys[3];
    if (sd > 1) {
      y = pad_axis(c, c.reshape(y, {uint32_t(n), uint32_t(depth), 1, features}), 2, 0, sd - 1);
      y = slice_axis(c, c.reshape(y, {uint32_t(n), uint32_t(depth * sd), features}), 1, 0, spread);
    } else {
      y = c.reshape(y, {uint32_t(n), uint32_t(depth), features});
    }
    y = pad_axis(c, y, 1, t * dd, full - t * dd - spread);
    sum = sum ? c.add(OpKind::kAdd, {*sum, y}) : y;
  }
  OperandId y = slice_axis(c, *sum, 1, tw.begin[0], out_d);
  y = c.transpose(c.reshape(y, {uint32_t(n), uint32_t(out_d), ys[1], ys[2], ys[3]}), kDepthToBatch);
  if (c.has_input(2)) y = c.add(OpKind::kAdd, {y, c.reshape(c.operand(2), {ys[1], 1, 1, 1})});
  c.set_out(0, y);
}

void lower_conv_transpose(const NodeCtx& c) {
  size_t r = c.rank(0);
  if (r < 3 || r > 5)
    c.unsupported("WebNN has 2-D transposed convolutions, from which 1-D and 3-D ones are built; input rank " +
                  std::to_string(r));
  if (c.rank(1) != r) c.invalid("the weights' rank differs from the input's");
  TransposedWindow tw = transposed_window_of(c, spatial_of(c.desc(0).shape), spatial_of(c.desc(1).shape));
  for (size_t i = 0; i < r - 2; ++i)
    if (tw.begin[i] < 0 || tw.end[i] < 0) c.unsupported("negative pads");
  if (r == 5) return conv_transpose3d(c, tw);
  if (r == 3) {  // 1-D as 2-D with height 1
    for (auto* v : {&tw.strides, &tw.dilations}) v->insert(v->begin(), 1);
    for (auto* v : {&tw.outpad, &tw.begin, &tw.end}) v->insert(v->begin(), 0);
  }
  ConvTranspose2dAttrs a;
  a.padding = padding_2d(tw.begin, tw.end);
  a.strides = u32s(tw.strides);
  a.dilations = u32s(tw.dilations);
  a.output_padding = u32s(tw.outpad);
  a.groups = static_cast<uint32_t>(c.attr_i("group", 1));
  if (c.has_input(2)) a.bias = OperandRef{c.operand(2)};
  OperandId y = c.add(OpKind::kConvTranspose2d, {to_4d(c, c.operand(0)), to_4d(c, c.operand(1))}, a);
  if (r == 3) {
    Shape ys = c.desc_of(y).shape;
    y = c.reshape(y, {ys[0], ys[1], ys[3]});
  }
  c.set_out(0, y);
}

// One WebNN 2-D pool of a 4-D x with explicit window, paddings and output sizes.
OperandId pool2d(const NodeCtx& c, OpKind kind, OperandId x, const std::vector<uint32_t>& window,
                 const std::vector<uint32_t>& padding, const std::vector<uint32_t>& strides,
                 const std::vector<uint32_t>& dilations, const std::vector<uint32_t>& out_sizes) {
  Pool2dAttrs a;
  a.window_dimensions = window;
  a.padding = padding;
  a.strides = strides;
  a.dilations = dilations;
  a.output_sizes = out_sizes;
  return c.add(kind, {x}, a);
}

constexpr uint64_t kMaxIndexWindow = uint64_t{1} << 12;

// MaxPool's Indices output of a 2-D pool (WebNN's maxPool2d has none): the flat index in the input
// of each window's maximum, the first in the window's scan order (rows, then columns) when several
// are equal, as ONNX Runtime takes it, or the first NaN (whose window's maximum is NaN);
// `storage_order` 1 numbers the spatial positions column by column. The window offsets are visited last to first: each
// strided `slice` of the input padded with −∞ is compared with the pooled output y, and `where` keeps the offset's
// index (a strided slice of a constant index image, −1 in the padding) where they are equal, so the first offset that
// holds the maximum wins. The batch and channel offsets of the flat index are added last. Cost: per window offset two
// strided slices, `equal`, `isNaN`, `logicalOr` and `where` of the output's size.
OperandId max_pool_indices(const NodeCtx& c, OperandId x, OperandId y, const std::vector<int64_t>& kernel,
                           const Window& w, const std::vector<int64_t>& out_sizes, bool column_major) {
  const Shape xs = c.desc_of(x).shape;
  const uint32_t n = xs[0], ch = xs[1], h = xs[2], wd = xs[3];
  const uint32_t oh = uint32_t(out_sizes[0]), ow = uint32_t(out_sizes[1]);
  // Five operations per window offset.
  if (uint64_t(kernel[0]) * uint64_t(kernel[1]) > kMaxIndexWindow)
    c.unsupported("MaxPool's Indices of a window of more than " + std::to_string(kMaxIndexWindow) + " elements");
  // Padding that covers every window, ceil_mode's last ones included.
  std::vector<uint32_t> end(2);
  const uint32_t in[2] = {h, wd};
  for (size_t i = 0; i < 2; ++i) {
    const int64_t covered = (out_sizes[i] - 1) * w.strides[i] + (kernel[i] - 1) * w.dilations[i] + 1;
    end[i] = uint32_t(std::max<int64_t>(w.end[i], covered - in[i] - w.begin[i]));
  }
  const uint64_t padded_h = uint64_t(h) + uint64_t(w.begin[0]) + end[0];
  const uint64_t padded_w = uint64_t(wd) + uint64_t(w.begin[1]) + end[1];
  if (padded_h * padded_w > kMaxFoldElements * 256)
    c.unsupported("MaxPool's Indices of a padded image of " + std::to_string(padded_h * padded_w) +
                  " positions (the importer builds its index image for up to " +
                  std::to_string(kMaxFoldElements * 256) + ")");
  const uint32_t ph = uint32_t(padded_h), pw = uint32_t(padded_w);
  PadAttrs p;
  p.beginning_padding = {0, 0, uint32_t(w.begin[0]), uint32_t(w.begin[1])};
  p.ending_padding = {0, 0, end[0], end[1]};
  p.value = -std::numeric_limits<double>::infinity();
  const OperandId padded = c.add(OpKind::kPad, {x}, p);
  // Each padded position's index in the unpadded image, -1 in the padding.
  const OperandId index_image =
      c.int_table({DataType::kInt64, {1, 1, ph, pw}}, "the index image", [&](uint64_t e) -> int64_t {
        const int64_t i = int64_t(e / pw) - int64_t(w.begin[0]), j = int64_t(e % pw) - int64_t(w.begin[1]);
        if (i < 0 || j < 0 || i >= int64_t(h) || j >= int64_t(wd)) return -1;
        return column_major ? j * h + i : i * wd + j;
      });
  std::optional<OperandId> result;
  const std::vector<uint32_t> strides{1, 1, uint32_t(w.strides[0]), uint32_t(w.strides[1])};
  for (int64_t kh = kernel[0] - 1; kh >= 0; --kh) {
    for (int64_t kw = kernel[1] - 1; kw >= 0; --kw) {
      const uint32_t top = uint32_t(kh * w.dilations[0]), left = uint32_t(kw * w.dilations[1]);
      const uint32_t rows = (oh - 1) * uint32_t(w.strides[0]) + 1, cols = (ow - 1) * uint32_t(w.strides[1]) + 1;
      const OperandId value =
          c.add(OpKind::kSlice, {padded}, SliceAttrs{{0, 0, top, left}, {n, ch, rows, cols}, strides});
      const OperandId index =
          c.add(OpKind::kSlice, {index_image}, SliceAttrs{{0, 0, top, left}, {1, 1, rows, cols}, strides});
      // A NaN in the window makes the maximum NaN (the pools propagate it): its index is the NaN's.
      const OperandId equal =
          c.add(OpKind::kLogicalOr, {c.add(OpKind::kEqual, {value, y}), c.add(OpKind::kIsNaN, {value})});
      result = c.add(OpKind::kWhere, {equal, index, result ? *result : c.scalar(DataType::kInt64, -1, 4)});
    }
  }
  const OperandId base = c.int_table({DataType::kInt64, {n, ch, 1, 1}}, "the offsets of the images",
                                     [&](uint64_t k) { return int64_t(k) * h * wd; });
  return c.add(OpKind::kAdd, {*result, base});
}

// ONNX's 1-D, 2-D and 3-D MaxPool, AveragePool and LpPool (p = 2). A 3-D window is a box, so
// the pool separates: a 2-D pool over (H, W) of the (N, C·D, H, W) view, then a 2-D pool of
// window (KD, 1) over the depth of the (N, C, D, OH·OW) view, with the depth's paddings, stride,
// dilation and output size. The maximum of maxima is the maximum; the valid elements of a window
// are a product of valid depths and valid (h, w), so the mean of the per-depth means of valid
// elements is the mean of the window's valid elements (count_include_pad = 0, WebNN's rule);
// sqrt(sum of squared l2 norms) is the window's l2 norm. Cost: two pools and three reshapes.
void lower_pool(const NodeCtx& c, OpKind kind) {
  size_t r = c.rank(0);
  if (r < 3 || r > 5)
    c.unsupported("WebNN has 2-D pooling, from which 1-D and 3-D pools are built; input rank " + std::to_string(r));
  if (c.wants_output(1) && (kind != OpKind::kMaxPool2d || r != 4))
    c.unsupported("MaxPool's Indices output of a rank-" + std::to_string(r) +
                  " input (the importer computes it in 2-D)");
  if (kind == OpKind::kL2Pool2d && c.attr_i("p", 2) != 2)
    c.unsupported("WebNN has only the p = 2 Lp pool (l2Pool2d), p = " + std::to_string(c.attr_i("p", 2)));
  OperandId x = c.operand(0);
  const Shape xs = c.desc_of(x).shape;
  size_t n = r - 2;
  std::vector<int64_t> in = spatial_of(xs);
  auto kernel = c.attr_ints("kernel_shape");
  if (kernel.size() != n) c.invalid("kernel_shape must have one value per spatial axis");
  Window w = window_of(c, in, kernel, kind == OpKind::kMaxPool2d || c.opset >= 19);
  bool ceil_mode = c.attr_i("ceil_mode", 0) != 0;
  std::vector<int64_t> out_sizes;
  for (size_t i = 0; i < n; ++i) {
    int64_t span = in[i] + w.begin[i] + w.end[i] - ((kernel[i] - 1) * w.dilations[i] + 1);
    if (span < 0) c.unsupported("the window is larger than the padded input");
    int64_t out = ceil_mode ? (span + w.strides[i] - 1) / w.strides[i] + 1 : span / w.strides[i] + 1;
    // A window must start inside the input or its leading padding.
    if (ceil_mode && (out - 1) * w.strides[i] >= in[i] + w.begin[i]) --out;
    out_sizes.push_back(out);
  }
  if (kind == OpKind::kAveragePool2d && c.attr_i("count_include_pad", 0) != 0) {
    bool any = false;
    for (size_t i = 0; i < n; ++i) any |= w.begin[i] || w.end[i];
    if (any) {
      // WebNN's average leaves padding out; ONNX counts it: pad with zeros first.
      PadAttrs p;
      p.beginning_padding = {0, 0};
      p.ending_padding = {0, 0};
      for (size_t i = 0; i < n; ++i) {
        int64_t covered = (out_sizes[i] - 1) * w.strides[i] + (kernel[i] - 1) * w.dilations[i] + 1;
        if (covered > in[i] + w.begin[i] + w.end[i])
          c.unsupported("count_include_pad with ceil_mode windows past the padding");
        p.beginning_padding.push_back(uint32_t(w.begin[i]));
        p.ending_padding.push_back(uint32_t(w.end[i]));
        in[i] += w.begin[i] + w.end[i];
        w.begin[i] = w.end[i] = 0;
      }
      x = c.add(OpKind::kPad, {x}, p);
    }
  }
  if (n == 1) {  // as 2-D with height 1
    OperandId y =
        pool2d(c, kind, to_4d(c, x), {1, uint32_t(kernel[0])}, {0, 0, uint32_t(w.begin[0]), uint32_t(w.end[0])},
               {1, uint32_t(w.strides[0])}, {1, uint32_t(w.dilations[0])}, {1, uint32_t(out_sizes[0])});
    return c.set_out(0, c.reshape(y, {xs[0], xs[1], uint32_t(out_sizes[0])}));
  }
  const std::vector<uint32_t> window_hw = last_2d(kernel), padding_hw = padding_2d(w.begin, w.end);
  if (n == 2) {
    const OperandId y = pool2d(c, kind, x, window_hw, padding_hw, u32s(w.strides), u32s(w.dilations), u32s(out_sizes));
    c.set_out(0, y);
    if (c.wants_output(1))
      c.set_out(1, max_pool_indices(c, x, y, kernel, w, out_sizes, c.attr_i("storage_order", 0) != 0));
    return;
  }
  const uint32_t out_d = uint32_t(out_sizes[0]), out_h = uint32_t(out_sizes[1]), out_w = uint32_t(out_sizes[2]);
  OperandId y = c.reshape(x, {xs[0], uint32_t(xs[1] * in[0]), uint32_t(in[1]), uint32_t(in[2])});
  y = pool2d(c, kind, y, window_hw, padding_hw, last_2d(w.strides), last_2d(w.dilations), {out_h, out_w});
  y = c.reshape(y, {xs[0], xs[1], uint32_t(in[0]), out_h * out_w});
  y = pool2d(c, kind, y, {uint32_t(kernel[0]), 1}, {uint32_t(w.begin[0]), uint32_t(w.end[0]), 0, 0},
             {uint32_t(w.strides[0]), 1}, {uint32_t(w.dilations[0]), 1}, {out_d, out_h * out_w});
  c.set_out(0, c.reshape(y, {xs[0], xs[1], out_d, out_h, out_w}));
}

void lower_max_pool(const NodeCtx& c) { lower_pool(c, OpKind::kMaxPool2d); }
void lower_average_pool(const NodeCtx& c) { lower_pool(c, OpKind::kAveragePool2d); }
void lower_lp_pool(const NodeCtx& c) { lower_pool(c, OpKind::kL2Pool2d); }

// A global pool of any spatial rank: one 2-D pool of the (N, C, rows, last axis) view, where rows
// is the product of the other spatial sizes (the window is the whole view either way).
void lower_global_pool(const NodeCtx& c, OpKind kind) {
  size_t r = c.rank(0);
  if (r < 3) c.invalid("the input must have at least one spatial axis, rank " + std::to_string(r));
  if (kind == OpKind::kL2Pool2d && c.attr_i("p", 2) != 2) c.unsupported("WebNN has only the p = 2 Lp pool");
  const Shape xs = c.desc(0).shape;
  uint64_t rows = 1;
  for (size_t i = 2; i + 1 < r; ++i) rows *= xs[i];
  OperandId y = c.add(kind, {c.reshape(c.operand(0), {xs[0], xs[1], uint32_t(rows), xs[r - 1]})}, Pool2dAttrs{});
  Shape ys(r, 1);
  ys[0] = xs[0];
  ys[1] = xs[1];
  c.set_out(0, c.reshape(y, ys));
}
void lower_global_average_pool(const NodeCtx& c) { lower_global_pool(c, OpKind::kAveragePool2d); }
void lower_global_max_pool(const NodeCtx& c) { lower_global_pool(c, OpKind::kMaxPool2d); }
void lower_global_lp_pool(const NodeCtx& c) { lower_global_pool(c, OpKind::kL2Pool2d); }

// ---- Normalization ----

void lower_batch_norm(const NodeCtx& c) {
  if (c.attr_i("training_mode", 0) != 0) c.unsupported("training mode is outside the WebNN specification");
  for (size_t i = 1; i < c.output_count(); ++i)
    if (c.wants_output(i)) c.unsupported("the training outputs (running mean and variance) are not supported");
  if (c.opset < 9 && c.attr_i("spatial", 1) == 0) c.unsupported("spatial = 0 is not supported");
  BatchNormalizationAttrs a;
  a.scale = OperandRef{c.operand(1)};
  a.bias = OperandRef{c.operand(2)};
  a.epsilon = c.attr_f("epsilon", 1e-5f);
  a.axis = 1;
  c.set_out(0, c.add(OpKind::kBatchNormalization, {c.operand(0), c.operand(3), c.operand(4)}, a));
}

void lower_instance_norm(const NodeCtx& c) {
  size_t r = c.rank(0);
  if (r != 3 && r != 4) c.unsupported("WebNN instanceNormalization takes 4-D inputs, rank " + std::to_string(r));
  OperandId x = c.operand(0);
  Shape s = c.desc_of(x).shape;
  if (r == 3) x = c.reshape(x, {s[0], s[1], s[2], 1});
  InstanceNormalizationAttrs a;
  a.scale = OperandRef{c.operand(1)};
  a.bias = OperandRef{c.operand(2)};
  a.epsilon = c.attr_f("epsilon", 1e-5f);
  OperandId y = c.add(OpKind::kInstanceNormalization, {x}, a);
  c.set_out(0, c.reshape(y, s));
}

void lower_layer_norm(const NodeCtx& c) {
  size_t r = c.rank(0);
  uint32_t axis = c.axis(c.attr_i("axis", -1), r);
  LayerNormalizationAttrs a;
  std::vector<uint32_t> axes;
  for (uint32_t i = axis; i < r; ++i) axes.push_back(i);
  a.axes = axes;
  a.epsilon = c.attr_f("epsilon", 1e-5f);
  a.scale = OperandRef{c.operand(1)};
  if (c.has_input(2)) a.bias = OperandRef{c.operand(2)};
  c.set_out(0, c.add(OpKind::kLayerNormalization, {c.operand(0)}, a));
  if (c.wants_output(1) || c.wants_output(2)) {
    // Mean and InvStdDev, computed in float32 (stash_type 1).
    if (c.type(0) != DataType::kFloat32 || c.attr_i("stash_type", 1) != 1)
      c.unsupported("the Mean and InvStdDev outputs of a tensor other than float32");
    OperandId x = c.operand(0);
    ReduceAttrs ra;
    ra.axes = axes;
    ra.keep_dimensions = true;
    OperandId mean = c.add(OpKind::kReduceMean, {x}, ra);
    OperandId d = c.add(OpKind::kSub, {x, mean});
    OperandId var = c.add(OpKind::kReduceMean, {c.add(OpKind::kMul, {d, d})}, ra);
    OperandId eps = c.scalar(DataType::kFloat32, a.epsilon);
    c.set_out(1, mean);
    c.set_out(2, c.add(OpKind::kReciprocal, {c.add(OpKind::kSqrt, {c.add(OpKind::kAdd, {var, eps})})}));
  }
}

void lower_lrn(const NodeCtx& c) {
  // y = x / (bias + alpha / size * sum over a window of channels of x^2) ^ beta, the window sum
  // as an average pool over channels (padded with zeros, counted: pad first).
  if (c.rank(0) != 4) c.unsupported("LRN on a rank other than 4");
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  Shape s = c.desc_of(x).shape;
  int64_t size = c.attr_i("size", 0);
  if (size < 1) c.invalid("size must be positive");
  double alpha = c.attr_f("alpha", 1e-4f), beta = c.attr_f("beta", 0.75f), bias = c.attr_f("bias", 1.0f);
  uint32_t lo = uint32_t((size - 1) / 2), hi = uint32_t(size - 1 - (size - 1) / 2);
  OperandId sq = c.add(OpKind::kMul, {x, x});
  // [N, C, H, W] -> [N, 1, C, H*W]: a window of `size` along the height.
  OperandId v = c.reshape(sq, {s[0], 1, s[1], s[2] * s[3]});
  PadAttrs p;
  p.beginning_padding = {0, 0, lo, 0};
  p.ending_padding = {0, 0, hi, 0};
  v = c.add(OpKind::kPad, {v}, p);
  Pool2dAttrs pa;
  pa.window_dimensions = std::vector<uint32_t>{uint32_t(size), 1};
  v = c.add(OpKind::kAveragePool2d, {v}, pa);  // the mean of `size` squares
  v = c.reshape(v, s);
  OperandId d = c.add(OpKind::kAdd, {c.add(OpKind::kMul, {v, c.scalar(t, alpha)}), c.scalar(t, bias)});
  d = c.add(OpKind::kPow, {d, c.scalar(t, beta)});
  c.set_out(0, c.add(OpKind::kDiv, {x, d}));
}

// ---- Matrix multiplication ----

void lower_gemm(const NodeCtx& c) {
  GemmAttrs a;
  a.alpha = c.attr_f("alpha", 1.0f);
  a.beta = c.attr_f("beta", 1.0f);
  a.a_transpose = c.attr_i("transA", 0) != 0;
  a.b_transpose = c.attr_i("transB", 0) != 0;
  if (c.has_input(2)) a.c = OperandRef{c.operand(2)};
  c.set_out(0, c.add(OpKind::kGemm, {c.operand(0), c.operand(1)}, a));
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

namespace {

void lower_matmul(const NodeCtx& c) { c.set_out(0, matmul_of(c, c.operand(0), c.operand(1))); }

// Det (WebNN has no determinant) of matrices up to 4×4 by cofactor expansion along the first row:
// the n² elements are slices of the (batch, n²) view, and each minor (the rows below `row`, the
// columns `cols`) is built once. n = 4 takes 16 slices and about 50 elementwise ops on
// batch-sized tensors. The float arithmetic of the expansion: an error of a few units in the
// last place of the sum of |products| (the permanent of |A|), as any float method of this type
// has on a nearly singular matrix.
void lower_det(const NodeCtx& c) {
  size_t r = c.rank(0);
  if (r < 2) c.invalid("the input must have rank 2 or more, rank " + std::to_string(r));
  const Shape xs = c.desc(0).shape;
  const uint32_t n = xs[r - 1];
  if (xs[r - 2] != n) c.invalid("the matrices must be square");
  if (n > 4)
    c.unsupported("WebNN has no determinant, and the importer expands cofactors of matrices up to 4x4 only, not " +
                  std::to_string(n) + "x" + std::to_string(n));
  Shape batch(xs.begin(), xs.end() - 2);
  const uint32_t count = uint32_t(count_of(batch));
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

// ---- Softmax ----

// Softmax-like ops: opset < 13 work on the input flattened to 2-D at `axis`.
void lower_softmax_family(const NodeCtx& c, bool log) {
  OperandId x = c.operand(0);
  Shape s = c.desc_of(x).shape;
  size_t r = s.size();
  int64_t axis_attr = c.attr_i("axis", c.opset < 13 ? 1 : -1);
  uint32_t axis = c.axis(axis_attr, r);
  OperandId v = x;
  if (c.opset < 13) {
    uint32_t rows = 1, cols = 1;
    for (size_t i = 0; i < r; ++i) (i < axis ? rows : cols) *= s[i];
    v = c.reshape(x, {rows, cols});
    axis = 1;
  }
  OperandId y;
  if (!log) {
    y = c.add(OpKind::kSoftmax, {v}, SoftmaxAttrs{axis});
  } else {
    ReduceAttrs ra;
    ra.axes = std::vector<uint32_t>{axis};
    ra.keep_dimensions = true;
    OperandId shifted = c.add(OpKind::kSub, {v, c.add(OpKind::kReduceMax, {v}, ra)});
    OperandId lse = c.add(OpKind::kLog, {c.add(OpKind::kReduceSum, {c.add(OpKind::kExp, {shifted})}, ra)});
    y = c.add(OpKind::kSub, {shifted, lse});
  }
  c.set_out(0, c.reshape(y, s));
}
void lower_softmax(const NodeCtx& c) { lower_softmax_family(c, false); }

// Hardmax: 1 where argMax along the axis points, else 0 (opset < 13: the input flattened to 2-D
// at the axis). Equal values: ONNX takes the first; WebNN leaves argMax's choice implementation
// dependent (both backends here take the first).
void lower_hardmax(const NodeCtx& c) {
  OperandId x = c.operand(0);
  Shape s = c.desc_of(x).shape;
  size_t r = s.size();
  uint32_t axis = c.axis(c.attr_i("axis", c.opset < 13 ? 1 : -1), r);
  OperandId v = x;
  if (c.opset < 13) {
    uint32_t rows = 1, cols = 1;
    for (size_t i = 0; i < r; ++i) (i < axis ? rows : cols) *= s[i];
    v = c.reshape(x, {rows, cols});
    axis = 1;
  }
  Shape vs = c.desc_of(v).shape;
  ArgMinMaxAttrs a;
  a.axis = axis;
  a.keep_dimensions = true;
  a.output_data_type = DataType::kInt32;
  OperandId am = c.add(OpKind::kArgMax, {v}, a);
  OperandId positions = c.iota(DataType::kInt32, vs.size(), axis, vs[axis], "the positions along the axis");
  OperandId hot = c.cast(c.add(OpKind::kEqual, {positions, am}), c.desc_of(x).data_type);
  // The comparison broadcasts to the input's shape only along the axis: expand to the full shape.
  if (c.desc_of(hot).shape != vs) hot = c.add(OpKind::kExpand, {hot}, ExpandAttrs{vs});
  c.set_out(0, c.reshape(hot, s));
}
void lower_log_softmax(const NodeCtx& c) { lower_softmax_family(c, true); }

// ---- Reductions ----

template <OpKind K>
void reduce(const NodeCtx& c) {
  size_t r = c.rank(0);
  // Axes moved from an attribute to an input: ReduceSum at opset 13, the others at 18.
  bool axes_input = c.op_type() == "ReduceSum" ? c.opset >= 13 : c.opset >= 18;
  std::vector<int64_t> axes;
  if (axes_input) {
    if (c.has_input(1)) axes = c.const_ints(1, "axes");
  } else {
    axes = c.attr_ints("axes");
  }
  ReduceAttrs a;
  a.keep_dimensions = c.attr_i("keepdims", 1) != 0;
  if (axes.empty()) {
    if (c.attr_i("noop_with_empty_axes", 0) != 0) return c.set_out(0, c.add(OpKind::kIdentity, {c.operand(0)}));
  } else {
    auto n = norm_axes(c, axes, r);
    std::sort(n.begin(), n.end());
    a.axes = n;
  }
  c.set_out(0, c.add(K, {c.operand(0)}, a));
}

template <OpKind K>
void arg_reduce(const NodeCtx& c) {
  ArgMinMaxAttrs a;
  a.axis = c.axis(c.attr_i("axis", 0), c.rank(0));
  a.keep_dimensions = c.attr_i("keepdims", 1) != 0;
  a.output_data_type = DataType::kInt64;
  if (c.attr_i("select_last_index", 0) == 0) return c.set_out(0, c.add(K, {c.operand(0)}, a));
  // The last index of the extreme value: the first index (the rule select_last_index = 0 relies
  // on too) along the reversed axis, counted from the end: n - 1 - index.
  OperandId reversed = c.add(OpKind::kReverse, {c.operand(0)}, ReverseAttrs{std::vector<uint32_t>{a.axis}});
  const double last = double(c.desc(0).shape[a.axis]) - 1;
  c.set_out(0, c.add(OpKind::kSub, {c.scalar(DataType::kInt64, last), c.add(K, {reversed}, a)}));
}

// ---- Shape and movement ----

void lower_shape(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  int64_t r = int64_t(s.size());
  int64_t start = c.attr_i("start", 0), end = c.attr_i("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, 0, r);
  std::vector<int64_t> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back(s[size_t(i)]);
  c.set_const_out(0, {DataType::kInt64, {uint32_t(dims.size())}}, bytes_of_int64s(DataType::kInt64, dims));
}

void lower_size(const NodeCtx& c) {
  c.set_const_out(0, {DataType::kInt64, {}}, bytes_of_int64s(DataType::kInt64, {int64_t(count_of(c.desc(0).shape))}));
}

void lower_reshape(const NodeCtx& c) {
  std::vector<int64_t> shape = c.opset < 5 ? c.attr_ints("shape") : c.const_ints(1, "shape");
  const Shape& in = c.desc(0).shape;
  bool allow_zero = c.attr_i("allowzero", 0) != 0;
  Shape out;
  int64_t infer = -1;
  uint64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t d = shape[i];
    if (d == 0 && !allow_zero) {
      if (i >= in.size()) c.invalid("shape copies dimension " + std::to_string(i) + " the input lacks");
      d = in[i];
    }
    if (d == -1) {
      if (infer >= 0) c.invalid("more than one -1 in the shape");
      infer = int64_t(i);
      out.push_back(1);
      continue;
    }
    if (d <= 0) c.unsupported("shape value " + std::to_string(d) + " (WebNN has no empty tensors)");
    out.push_back(uint32_t(d));
    known *= uint64_t(d);
  }
  uint64_t total = count_of(in);
  if (infer >= 0) {
    if (known == 0 || total % known) c.invalid("the shape does not divide the input's element count");
    out[size_t(infer)] = uint32_t(total / known);
  }
  if (count_of(out) != total) c.invalid("the shape holds another element count than the input");
  reshaped(c, out);
}

void lower_flatten(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  int64_t r = int64_t(s.size());
  int64_t axis = c.attr_i("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) c.invalid("axis out of range");
  uint32_t rows = 1, cols = 1;
  for (int64_t i = 0; i < r; ++i) (i < axis ? rows : cols) *= s[size_t(i)];
  reshaped(c, {rows, cols});
}

std::vector<int64_t> axes_arg(const NodeCtx& c, int64_t input_from_opset) {
  if (c.opset >= input_from_opset) return c.has_input(1) ? c.const_ints(1, "axes") : std::vector<int64_t>{};
  return c.attr_ints("axes");
}

void lower_squeeze(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  auto axes = norm_axes(c, axes_arg(c, 13), s.size());
  Shape out;
  for (size_t i = 0; i < s.size(); ++i) {
    bool drop = axes.empty() ? s[i] == 1 : std::find(axes.begin(), axes.end(), i) != axes.end();
    if (drop && s[i] != 1)
      c.invalid("cannot squeeze dimension " + std::to_string(i) + " of size " + std::to_string(s[i]));
    if (!drop) out.push_back(s[i]);
  }
  reshaped(c, out);
}

void lower_unsqueeze(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  auto raw = axes_arg(c, 13);
  size_t r = s.size() + raw.size();
  auto axes = norm_axes(c, raw, r);
  Shape out;
  size_t j = 0;
  for (size_t i = 0; i < r; ++i) {
    if (std::find(axes.begin(), axes.end(), i) != axes.end())
      out.push_back(1);
    else
      out.push_back(s.at(j++));
  }
  reshaped(c, out);
}

void lower_transpose(const NodeCtx& c) {
  size_t r = c.rank(0);
  auto p = c.attr_ints("perm");
  std::vector<uint32_t> perm;
  if (p.empty())
    for (size_t i = r; i-- > 0;) perm.push_back(uint32_t(i));
  else
    perm = norm_axes(c, p, r);
  if (perm.size() != r) c.invalid("perm must have one value per axis");
  const Value& x = c.in(0);
  if (foldable(c) && c.fold_fits(x.desc)) {
    Shape out;
    for (uint32_t a : perm) out.push_back(x.desc.shape[a]);
    if (fold_out(c, 0, {x.desc.data_type, out}, OpKind::kTranspose, {host_tensor(x)}, TransposeAttrs{perm}, x.is_bool))
      return;
  }
  OperandId id = c.operand(0);
  c.set_out(0, c.add(OpKind::kTranspose, {id}, TransposeAttrs{perm}), x.is_bool);
}

// Concat of constants, folded when the result is small (its size is checked before it is
// allocated); false when the node becomes an operation instead.
bool fold_concat(const NodeCtx& c, uint32_t axis) {
  if (!foldable(c)) return false;
  const size_t r = c.rank(0);
  const Value& first = c.in(0);
  Shape out = first.desc.shape;
  uint64_t along = 0;
  for (size_t i = 0; i < c.input_count(); ++i) {
    const Shape& s = c.desc(i).shape;
    if (s.size() != r || c.type(i) != first.desc.data_type) c.invalid("inputs of different ranks or types");
    for (size_t d = 0; d < r; ++d)
      if (d != axis && s[d] != out[d]) c.invalid("inputs differ outside the axis");
    along += s[axis];
  }
  if (along == 0 || along > kMaxFoldElements) return false;
  out[axis] = uint32_t(along);
  if (!c.fold_fits({first.desc.data_type, out})) return false;
  // An input empty along the axis adds nothing (and is no WebNN operand).
  std::vector<HostTensor> parts;
  for (size_t i = 0; i < c.input_count(); ++i)
    if (c.desc(i).shape[axis] != 0) parts.push_back(host_tensor(c.in(i)));
  return fold_out(c, 0, {first.desc.data_type, out}, OpKind::kConcat, parts, ConcatAttrs{axis}, first.is_bool);
}

void lower_concat(const NodeCtx& c) {
  // Required since opset 4 (opset 1 defaulted to 1).
  if (c.opset >= 4 && !c.has_attr("axis")) c.invalid("the required attribute axis is missing");
  const uint32_t axis = c.axis(c.attr_i("axis", 1), c.rank(0));
  if (fold_concat(c, axis)) return;
  std::vector<OperandId> ins;
  for (size_t i = 0; i < c.input_count(); ++i) ins.push_back(c.operand(i));
  c.set_out(0, c.add(OpKind::kConcat, ins, ConcatAttrs{axis}), c.in(0).is_bool);
}

void lower_split(const NodeCtx& c) {
  size_t r = c.rank(0);
  uint32_t axis = c.axis(c.attr_i("axis", 0), r);
  std::vector<int64_t> split =
      c.opset >= 13 ? (c.has_input(1) ? c.const_ints(1, "split") : std::vector<int64_t>{}) : c.attr_ints("split");
  uint32_t dim = c.desc(0).shape[axis];
  SplitAttrs a;
  a.axis = axis;
  size_t n = c.output_count();
  if (split.empty()) {
    int64_t parts = c.has_attr("num_outputs") ? c.attr_i("num_outputs", 1) : int64_t(n);
    if (parts < 1) c.invalid("no outputs");
    if (dim % parts == 0) {
      a.splits = uint32_t(parts);
    } else {
      // opset 18: the last part is smaller.
      uint32_t size = uint32_t((dim + parts - 1) / parts);
      std::vector<uint32_t> sizes;
      for (uint32_t left = dim; left > 0; left -= std::min(left, size)) sizes.push_back(std::min(left, size));
      a.splits = sizes;
    }
  } else {
    a.splits = to_u32(c, split, "split");
  }
  auto outs = c.add_multi(OpKind::kSplit, {c.operand(0)}, a);
  if (outs.size() != n) c.invalid("the number of outputs does not match the split");
  for (size_t i = 0; i < n; ++i) c.set_out(i, outs[i], c.in(0).is_bool);
}

void lower_slice(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  size_t r = s.size();
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.opset < 10) {
    starts = c.attr_ints("starts");
    ends = c.attr_ints("ends");
    axes = c.attr_ints("axes");
  } else {
    starts = c.const_ints(1, "starts");
    ends = c.const_ints(2, "ends");
    if (c.has_input(3)) axes = c.const_ints(3, "axes");
    if (c.has_input(4)) steps = c.const_ints(4, "steps");
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(int64_t(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    c.invalid("starts, ends, axes and steps differ in length");
  // counts: output elements per axis; sizes: WebNN's input extent, (count - 1) * stride + 1.
  std::vector<uint32_t> st(r, 0), sizes(s.begin(), s.end()), counts(s.begin(), s.end()), strides(r, 1), reverse_axes;
  for (size_t i = 0; i < starts.size(); ++i) {
    uint32_t ax = c.axis(axes[i], r);
    int64_t dim = s[ax], step = steps[i];
    if (step == 0) c.invalid("a step of 0");
    if (step == std::numeric_limits<int64_t>::min()) c.invalid("a step of -2^63 (its magnitude has no int64)");
    int64_t b = starts[i], e = ends[i];
    if (b < 0) b += dim;
    if (e < 0) e += dim;
    int64_t size;
    if (step > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      size = e > b ? (e - b + step - 1) / step : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      size = b > e ? (b - e + (-step) - 1) / (-step) : 0;
      reverse_axes.push_back(ax);
      b = dim - 1 - b;  // the same elements, counted from the reversed axis
      step = -step;
    }
    if (size == 0) c.unsupported("the slice is empty (WebNN has no empty tensors)");
    st[ax] = uint32_t(b);
    counts[ax] = uint32_t(size);
    sizes[ax] = uint32_t((size - 1) * step + 1);
    strides[ax] = uint32_t(step);
  }
  const Value& x = c.in(0);
  const OperandDescriptor out{x.desc.data_type, Shape(counts.begin(), counts.end())};
  if (x.data && !x.id && count_of(s) <= kMaxFoldElements && c.fold_fits(out)) {
    // The elements the operations below take, sliced forward and then reversed: the one
    // intermediate value is of the output's size (fold_fits reserved scratch space for it).
    SliceAttrs forward{st, sizes, strides};
    for (uint32_t ax : reverse_axes) forward.starts[ax] = s[ax] - 1 - st[ax] - (counts[ax] - 1) * strides[ax];
    std::optional<HostTensor> v = fold_value(OpKind::kSlice, {host_tensor(x)}, forward);
    if (v && !reverse_axes.empty()) v = fold_value(OpKind::kReverse, {*v}, ReverseAttrs{reverse_axes});
    if (v) {
      if (v->desc != out) c.invalid("internal: the folded slice is " + v->desc.to_string());
      return c.set_const_out(0, out, std::move(v->data), x.is_bool);
    }
  }
  OperandId id = c.operand(0);
  if (!reverse_axes.empty()) id = c.add(OpKind::kReverse, {id}, ReverseAttrs{reverse_axes});
  SliceAttrs a;
  a.starts = st;
  a.sizes = sizes;
  a.strides = strides;
  c.set_out(0, c.add(OpKind::kSlice, {id}, a), x.is_bool);
}

void lower_pad(const NodeCtx& c) {
  size_t r = c.rank(0);
  std::vector<int64_t> pads;
  Number value = 0.0;
  DataType t = c.type(0);
  if (c.opset < 11) {
    pads = c.opset < 2 ? c.attr_ints("paddings") : c.attr_ints("pads");
    value = c.attr_f("value", 0.0f);
  } else {
    pads = c.const_ints(1, "pads");
    if (c.has_input(2)) {
      if (is_floating_point(t))
        value = c.const_doubles(2, "constant_value").at(0);
      else
        value = Number::from_int64(c.const_ints(2, "constant_value").at(0));
    }
  }
  std::vector<uint32_t> axes;
  if (c.has_input(3)) {
    axes = norm_axes(c, c.const_ints(3, "axes"), r);
  } else {
    for (size_t i = 0; i < r; ++i) axes.push_back(uint32_t(i));
  }
  if (pads.size() != 2 * axes.size()) c.invalid("pads must have 2 values per axis");
  std::string mode = c.attr_s("mode", "constant");
  PadAttrs a;
  a.beginning_padding.assign(r, 0);
  a.ending_padding.assign(r, 0);
  if (mode == "constant")
    a.mode = PaddingMode::kConstant;
  else if (mode == "edge")
    a.mode = PaddingMode::kEdge;
  else if (mode == "reflect")
    a.mode = PaddingMode::kReflection;
  else
    c.unsupported("pad mode \"" + mode + "\" has no WebNN equivalent");
  a.value = value;
  // Negative pads crop: a slice first.
  SliceAttrs crop;
  crop.starts.assign(r, 0);
  crop.sizes = c.desc(0).shape;
  bool cropping = false;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t b = pads[i], e = pads[i + axes.size()];
    uint32_t ax = axes[i];
    // A crop may remove at most the whole axis, a pad add at most what a dimension can hold.
    const int64_t dim = c.desc(0).shape[ax];
    if (b < -dim || e < -dim || (b < 0 && e < 0 && -b - e > dim) || b > int64_t(UINT32_MAX) || e > int64_t(UINT32_MAX))
      c.invalid("pads " + std::to_string(b) + " and " + std::to_string(e) + " do not fit axis " + std::to_string(ax) +
                " of size " + std::to_string(dim));
    if (b < 0) crop.starts[ax] = uint32_t(-b), crop.sizes[ax] -= uint32_t(-b), cropping = true, b = 0;
    if (e < 0) crop.sizes[ax] -= uint32_t(-e), cropping = true, e = 0;
    a.beginning_padding[ax] = uint32_t(b);
    a.ending_padding[ax] = uint32_t(e);
  }
  OperandId x = c.operand(0);
  if (cropping) x = c.add(OpKind::kSlice, {x}, crop);
  c.set_out(0, c.add(OpKind::kPad, {x}, a));
}

void lower_expand(const NodeCtx& c) {
  auto shape = c.const_ints(1, "shape");
  Shape target = to_u32(c, shape, "shape");
  auto out = ops::broadcast_bidirectional(c.desc(0).shape, target);
  if (!out) c.invalid("the shape does not broadcast with the input");
  const Value& x = c.in(0);
  if (x.data && !x.id && c.fold_fits({x.desc.data_type, *out}) &&
      fold_out(c, 0, {x.desc.data_type, *out}, OpKind::kExpand, {host_tensor(x)}, ExpandAttrs{*out}, x.is_bool))
    return;
  OperandId id = c.operand(0);
  if (c.desc_of(id).shape == *out) return c.set_out(0, c.add(OpKind::kIdentity, {id}), x.is_bool);
  c.set_out(0, c.add(OpKind::kExpand, {id}, ExpandAttrs{*out}), x.is_bool);
}

void lower_tile(const NodeCtx& c) {
  auto reps = to_u32(c, c.const_ints(1, "repeats"), "repeats");
  const Value& x = c.in(0);
  if (reps.size() != x.desc.shape.size()) c.invalid("repeats must have one value per axis of the input");
  Shape out = x.desc.shape;
  for (size_t i = 0; i < reps.size(); ++i) {
    if (reps[i] == 0) c.unsupported("a repeat of 0 (WebNN has no empty tensors)");
    out[i] = uint32_t(std::min<uint64_t>(uint64_t(out[i]) * reps[i], UINT32_MAX));
  }
  // A small constant folds (its tiled size checked before it is allocated); otherwise `tile`,
  // whose output the builder checks.
  if (x.data && !x.id && count_of(x.desc.shape) > 0 && c.fold_fits({x.desc.data_type, out}) &&
      fold_out(c, 0, {x.desc.data_type, out}, OpKind::kTile, {host_tensor(x)}, TileAttrs{reps}, x.is_bool))
    return;
  c.set_out(0, c.add(OpKind::kTile, {c.operand(0)}, TileAttrs{reps}), x.is_bool);
}

// An ONNX index (negative counts from the end) checked against a dimension of `size`.
uint64_t checked_index(const NodeCtx& c, int64_t i, uint32_t size) {
  if (i < -int64_t(size) || i >= int64_t(size))
    c.invalid("index " + std::to_string(i) + " is out of range for a dimension of " + std::to_string(size));
  return uint64_t(i < 0 ? i + size : i);
}

}  // namespace

void check_const_indices(const NodeCtx& c, size_t i, const std::function<uint32_t(uint64_t)>& size_of) {
  if (!c.is_const(i)) return;
  const Value& v = c.in(i);
  if (is_floating_point(v.desc.data_type)) c.invalid("indices must be integers, they are " + v.desc.to_string());
  const uint64_t n = count_of(v.desc.shape);
  for (uint64_t e = 0; e < n; ++e) {
    const int64_t index = host_int64_at(v.desc, *v.data, e), size = size_of(e);
    if (index < -size || index >= size)
      c.invalid("index " + std::to_string(index) + " (element " + std::to_string(e) +
                " of the indices) is out of range for a dimension of " + std::to_string(size) +
                " (ONNX defines no result for it)");
  }
}

namespace {

void lower_gather(const NodeCtx& c) {
  size_t r = c.rank(0);
  uint32_t axis = c.axis(c.attr_i("axis", 0), r);
  const Value& x = c.in(0);
  if (foldable(c)) {
    auto idx = c.const_ints(1, "indices");
    const Shape& is = c.desc(1).shape;
    uint32_t dim = x.desc.shape[axis];
    for (auto& i : idx) i = int64_t(checked_index(c, i, dim));
    Shape out(x.desc.shape.begin(), x.desc.shape.begin() + axis);
    out.insert(out.end(), is.begin(), is.end());
    out.insert(out.end(), x.desc.shape.begin() + axis + 1, x.desc.shape.end());
    const OperandDescriptor od{x.desc.data_type, out};
    // The indices checked and counted from the start, as int64 (an index type gather takes).
    if (count_of(out) > 0 && c.fold_fits(od)) {
      const OperandDescriptor indices{DataType::kInt64, is};
      if (fold_out(c, 0, od, OpKind::kGather, {host_tensor(x), {indices, bytes_of_int64s(indices.data_type, idx)}},
                   GatherAttrs{axis}, x.is_bool))
        return;
    }
  }
  check_const_indices(c, 1, [&](uint64_t) { return x.desc.shape[axis]; });
  c.set_out(0, c.add(OpKind::kGather, {c.operand(0), c.operand(1)}, GatherAttrs{axis}), x.is_bool);
}

void lower_gather_elements(const NodeCtx& c) {
  uint32_t axis = c.axis(c.attr_i("axis", 0), c.rank(0));
  check_const_indices(c, 1, [&](uint64_t) { return c.desc(0).shape[axis]; });
  c.set_out(0, c.add(OpKind::kGatherElements, {c.operand(0), c.operand(1)}, GatherAttrs{axis}), c.in(0).is_bool);
}

// Scatter with a reduction (add, mul, max, min), which WebNN's scatters lack (they replace), for
// indices known at import: every update element's flat target in data is computed on the host,
// and the updates are applied in rounds whose targets are distinct (an element that several
// updates hit is reduced once per round, in the updates' order): per round, gather the current
// values at its targets, combine them with its updates, and scatterElements them back into the
// flattened data. Cost: as many rounds as the most-hit element has updates, each two gathers, the
// reduction and one scatterElements of that round's size.
void scatter_reduced(const NodeCtx& c, const std::string& reduction, const std::vector<int64_t>& targets) {
  static const std::map<std::string, OpKind> kinds = {
      {"add", OpKind::kAdd}, {"mul", OpKind::kMul}, {"max", OpKind::kMax}, {"min", OpKind::kMin}};
  auto kind = kinds.find(reduction);
  if (kind == kinds.end()) c.invalid("unknown reduction \"" + reduction + "\"");
  const Shape data_shape = c.desc(0).shape;
  const uint64_t n = count_of(data_shape);
  OperandId data = c.reshape(c.operand(0), {uint32_t(n)});
  const OperandId updates = c.reshape(c.operand(2), {uint32_t(targets.size())});
  // Round r takes, for each target, its r-th update.
  std::map<int64_t, uint32_t> hits;
  std::vector<std::vector<int64_t>> round_targets, round_updates;
  for (size_t u = 0; u < targets.size(); ++u) {
    const uint32_t r = hits[targets[u]]++;
    if (r == round_targets.size()) {
      round_targets.emplace_back();
      round_updates.emplace_back();
    }
    round_targets[r].push_back(targets[u]);
    round_updates[r].push_back(int64_t(u));
  }
  for (size_t r = 0; r < round_targets.size(); ++r) {
    const uint32_t m = uint32_t(round_targets[r].size());
    const OperandId at = c.constant({DataType::kInt32, {m}}, bytes_of_int64s(DataType::kInt32, round_targets[r]));
    const OperandId from = c.constant({DataType::kInt32, {m}}, bytes_of_int64s(DataType::kInt32, round_updates[r]));
    const OperandId combined = c.add(kind->second, {c.add(OpKind::kGather, {data, at}, GatherAttrs{0}),
                                                    c.add(OpKind::kGather, {updates, from}, GatherAttrs{0})});
    data = c.add(OpKind::kScatterElements, {data, at, combined}, ScatterAttrs{0});
  }
  c.set_out(0, c.reshape(data, data_shape));
}

// A row-major index's position in `shape`.
std::vector<uint64_t> unravel(uint64_t flat, const Shape& shape) {
  std::vector<uint64_t> pos(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    pos[i] = flat % shape[i];
    flat /= shape[i];
  }
  return pos;
}
uint64_t ravel(const std::vector<uint64_t>& pos, const Shape& shape) {
  uint64_t flat = 0;
  for (size_t i = 0; i < shape.size(); ++i) flat = flat * shape[i] + pos[i];
  return flat;
}

void lower_scatter_elements(const NodeCtx& c) {
  std::string red = c.attr_s("reduction", "none");
  uint32_t axis = c.axis(c.attr_i("axis", 0), c.rank(0));
  if (red != "none") {
    if (c.rank(1) != c.rank(0) || c.desc(1).shape != c.desc(2).shape)
      c.invalid("indices and updates must have data's rank and one shape");
    const std::vector<int64_t> indices = c.const_ints(1, "indices (of a scatter with a reduction)");
    const Shape& is = c.desc(1).shape;
    const Shape& ds = c.desc(0).shape;
    for (size_t a = 0; a < is.size(); ++a)
      if (a != axis && is[a] > ds[a]) c.invalid("indices are larger than data outside the axis");
    c.reserve({DataType::kInt32, {uint32_t(std::max<size_t>(indices.size(), 1))}}, "the scatter's targets",
              24 * uint64_t(indices.size()));
    std::vector<int64_t> targets(indices.size());
    for (uint64_t u = 0; u < indices.size(); ++u) {
      std::vector<uint64_t> pos = unravel(u, is);
      pos[axis] = checked_index(c, indices[u], ds[axis]);
      targets[u] = int64_t(ravel(pos, ds));
    }
    return scatter_reduced(c, red, targets);
  }
  check_const_indices(c, 1, [&](uint64_t) { return c.desc(0).shape[axis]; });
  c.set_out(0, c.add(OpKind::kScatterElements, {c.operand(0), c.operand(1), c.operand(2)}, ScatterAttrs{axis}),
            c.in(0).is_bool);
}

void lower_scatter_nd(const NodeCtx& c) {
  std::string red = c.attr_s("reduction", "none");
  if (red != "none") {
    const Shape& ds = c.desc(0).shape;
    const Shape& is = c.desc(1).shape;
    if (is.empty() || is.back() == 0 || is.back() > ds.size()) c.invalid("indices' last dimension is out of range");
    const size_t k = is.back();
    const Shape lead(ds.begin(), ds.begin() + long(k));
    const uint64_t slice = count_of(Shape(ds.begin() + long(k), ds.end()));
    const std::vector<int64_t> indices = c.const_ints(1, "indices (of a scatter with a reduction)");
    const uint64_t tuples = indices.size() / k;
    if (count_of(c.desc(2).shape) != tuples * slice) c.invalid("updates do not match indices and data");
    c.reserve({DataType::kInt32, {uint32_t(std::max<uint64_t>(tuples * slice, 1))}}, "the scatter's targets",
              24 * tuples * slice);
    std::vector<int64_t> targets;
    targets.reserve(tuples * slice);
    for (uint64_t t = 0; t < tuples; ++t) {
      std::vector<uint64_t> pos(k);
      for (size_t j = 0; j < k; ++j) pos[j] = checked_index(c, indices[t * k + j], ds[j]);
      const uint64_t base = ravel(pos, lead) * slice;
      for (uint64_t q = 0; q < slice; ++q) targets.push_back(int64_t(base + q));
    }
    return scatter_reduced(c, red, targets);
  }
  const Shape& is = c.desc(1).shape;
  if (!is.empty() && is.back() > 0 && is.back() <= c.rank(0))
    check_const_indices(c, 1, [&](uint64_t e) { return c.desc(0).shape[e % is.back()]; });
  c.set_out(0, c.add(OpKind::kScatterNd, {c.operand(0), c.operand(1), c.operand(2)}), c.in(0).is_bool);
}

// BitShift of unsigned integers (WebNN has no bit operations) as arithmetic: x · 2^s (LEFT; the
// multiplication wraps, which drops the bits shifted out) or x / 2^s (RIGHT; unsigned division
// truncates), 2^s gathered from a constant table of the type's powers by the shift clamped to the
// type's width; a shift by the width or more gives 0.
void lower_bit_shift(const NodeCtx& c) {
  const DataType t = c.type(0);
  if (c.type(1) != t) c.invalid("X and Y must have one type");
  uint32_t bits = 0;
  if (t == DataType::kUint8) bits = 8;
  if (t == DataType::kUint32) bits = 32;
  if (t == DataType::kUint64) bits = 64;
  if (bits == 0) c.unsupported("BitShift of " + std::string(onnx_type_name(onnx_type(t))) + " (unsigned types only)");
  const std::string direction = c.attr_s("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") c.invalid("direction must be LEFT or RIGHT");
  std::vector<int64_t> powers(bits + 1, 0);  // 2^k, and 0 at the width
  for (uint32_t k = 0; k < bits; ++k) powers[k] = int64_t(uint64_t{1} << k);
  const OperandId table = c.constant({t, {bits + 1}}, bytes_of_int64s(t, powers));
  const OperandId shift = c.add(OpKind::kMin, {c.operand(1), c.scalar(t, bits)});
  const OperandId power = c.add(OpKind::kGather, {table, c.cast(shift, DataType::kInt32)}, GatherAttrs{0});
  if (direction == "LEFT") return c.set_out(0, c.add(OpKind::kMul, {c.operand(0), power}));
  // RIGHT: x / 2^s below the width (a divisor of 1 there keeps the division defined), 0 from it.
  const OperandId wide = c.add(OpKind::kEqual, {power, c.scalar(t, 0)});
  const OperandId divisor = c.add(OpKind::kWhere, {wide, c.scalar(t, 1), power});
  c.set_out(0, c.add(OpKind::kWhere, {wide, c.scalar(t, 0), c.add(OpKind::kDiv, {c.operand(0), divisor})}));
}

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

void lower_depth_to_space(const NodeCtx& c) {
  if (c.rank(0) != 4) c.invalid("input must be 4-D");
  Shape s = c.desc(0).shape;
  uint32_t b = uint32_t(c.attr_i("blocksize", 0));
  if (b == 0 || s[1] % (b * b)) c.invalid("blocksize must divide the channels");
  uint32_t n = s[0], ch = s[1] / (b * b), h = s[2], w = s[3];
  bool crd = c.attr_s("mode", "DCR") == "CRD";
  OperandId x = c.operand(0);
  OperandId t;
  if (crd) {
    t = c.transpose(c.reshape(x, {n, ch, b, b, h, w}), {0, 1, 4, 2, 5, 3});
  } else {
    t = c.transpose(c.reshape(x, {n, b, b, ch, h, w}), {0, 3, 4, 1, 5, 2});
  }
  c.set_out(0, c.reshape(t, {n, ch, h * b, w * b}));
}

void lower_space_to_depth(const NodeCtx& c) {
  if (c.rank(0) != 4) c.invalid("input must be 4-D");
  Shape s = c.desc(0).shape;
  uint32_t b = uint32_t(c.attr_i("blocksize", 0));
  if (b == 0 || s[2] % b || s[3] % b) c.invalid("blocksize must divide the height and width");
  uint32_t n = s[0], ch = s[1], h = s[2] / b, w = s[3] / b;
  OperandId t = c.transpose(c.reshape(c.operand(0), {n, ch, h, b, w, b}), {0, 3, 5, 1, 2, 4});
  c.set_out(0, c.reshape(t, {n, ch * b * b, h, w}));
}

void lower_trilu(const NodeCtx& c) {
  TriangularAttrs a;
  a.upper = c.attr_i("upper", 1) != 0;
  if (c.has_input(1)) {
    int64_t k = c.const_ints(1, "k").at(0);
    a.diagonal = int32_t(std::clamp<int64_t>(k, INT32_MIN, INT32_MAX));
  }
  c.set_out(0, c.add(OpKind::kTriangular, {c.operand(0)}, a));
}

void lower_cumsum(const NodeCtx& c) {
  CumulativeSumAttrs a;
  a.axis = c.axis(c.const_ints(1, "axis").at(0), c.rank(0));
  a.exclusive = c.attr_i("exclusive", 0) != 0;
  a.reversed = c.attr_i("reverse", 0) != 0;
  c.set_out(0, c.add(OpKind::kCumulativeSum, {c.operand(0)}, a));
}

// ---- Resampling ----

// How a Resize maps output positions to input ones (ONNX's attributes).
struct ResizeSpec {
  std::string mode;     // nearest, linear, cubic
  std::string coord;    // coordinate_transformation_mode
  std::string nearest;  // nearest_mode
  double cubic_a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0;
  std::vector<double> roi;  // tf_crop_and_resize: starts then ends, one per axis
};

// One axis of a separable resampling, computed at import: output position o is the sum over taps
// t of weight[t][o] · x[index[t][o]], or the extrapolation value where `inside` is 0
// (tf_crop_and_resize).
struct AxisTaps {
  std::vector<std::vector<int32_t>> index;
  std::vector<std::vector<double>> weight;
  std::vector<uint8_t> inside;  // empty: everywhere
  bool identity = true;
};

// ONNX's definition of Resize along one axis of `in` positions resized to `out` with `scale`
// (`length` = scale · in, which is fractional for a scale that gives no whole size, and which
// align_corners, pytorch_half_pixel and tf_crop_and_resize use where they say length_resized):
// the output position's coordinate in the input, then the nearest index (by nearest_mode), the two
// linear taps or the four cubic ones (coefficient A), each index clamped to the input (edge
// padding) or, with exclude_outside, dropped and the weights renormalized.
AxisTaps axis_taps(const NodeCtx& c, const ResizeSpec& r, size_t axis, size_t rank, uint32_t in, uint32_t out,
                   double scale, double length) {
  const size_t taps = r.mode == "nearest" ? 1 : r.mode == "cubic" ? 4 : 2;
  AxisTaps a;
  a.index.assign(taps, std::vector<int32_t>(out));
  a.weight.assign(taps, std::vector<double>(out));
  const bool crop = r.coord == "tf_crop_and_resize";
  if (crop) a.inside.assign(out, 1);
  for (uint32_t o = 0; o < out; ++o) {
    double x = 0;
    const double oh = o + 0.5;
    if (r.coord == "half_pixel") {
      x = oh / scale - 0.5;
    } else if (r.coord == "pytorch_half_pixel") {
      x = length > 1 ? oh / scale - 0.5 : 0;
    } else if (r.coord == "align_corners") {
      x = length == 1 ? 0 : double(o) * (in - 1) / (length - 1);
    } else if (r.coord == "asymmetric") {
      x = o / scale;
    } else if (r.coord == "tf_half_pixel_for_nn") {
      x = oh / scale;
    } else if (r.coord == "half_pixel_symmetric") {
      const double adjustment = out / length, center = in / 2.0;
      x = center * (1 - adjustment) + oh / scale - 0.5;
    } else if (crop) {
      const double start = r.roi[axis], end = r.roi[rank + axis];
      x = length > 1 ? start * (in - 1) + o * (end - start) * (in - 1) / (length - 1) : 0.5 * (start + end) * (in - 1);
      if (x < 0 || x > double(in) - 1) a.inside[o] = 0;
    } else {
      c.unsupported("coordinate_transformation_mode \"" + r.coord + "\"");
    }
    const double base = std::floor(x), t = x - base;
    const int64_t i0 = int64_t(base);
    std::vector<std::pair<int64_t, double>> picked;
    if (r.mode == "nearest") {
      bool up = false;
      if (t > 0) {
        if (r.nearest == "round_prefer_floor")
          up = t > 0.5;
        else if (r.nearest == "round_prefer_ceil")
          up = t >= 0.5;
        else if (r.nearest == "floor")
          up = false;
        else if (r.nearest == "ceil")
          up = true;
        else
          c.invalid("unknown nearest_mode \"" + r.nearest + "\"");
      }
      picked = {{i0 + (up ? 1 : 0), 1.0}};
    } else if (r.mode == "cubic") {
      const double A = r.cubic_a, u = 1 - t;
      picked = {{i0 - 1, ((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A},
                {i0, ((A + 2) * t - (A + 3)) * t * t + 1},
                {i0 + 1, ((A + 2) * u - (A + 3)) * u * u + 1},
                {i0 + 2, ((A * (u + 1) - 5 * A) * (u + 1) + 8 * A) * (u + 1) - 4 * A}};
    } else {
      picked = {{i0, 1 - t}, {i0 + 1, t}};
    }
    if (r.exclude_outside) {
      double sum = 0;
      for (auto& [i, w] : picked) {
        if (i < 0 || i >= int64_t(in)) w = 0;
        sum += w;
      }
      if (sum != 0)
        for (auto& p : picked) p.second /= sum;
    }
    for (size_t k = 0; k < taps; ++k) {
      const int32_t i = int32_t(std::clamp<int64_t>(picked[k].first, 0, int64_t(in) - 1));
      a.index[k][o] = i;
      a.weight[k][o] = picked[k].second;
      if (picked[k].second != 0 && (i != int32_t(o) || picked[k].second != 1)) a.identity = false;
    }
    if (crop && !a.inside[o]) a.identity = false;
  }
  if (in != out) a.identity = false;
  return a;
}

// The longest axis Resize computes taps for at import (each tap is an index and a weight per
// position, as host vectors and graph constants).
constexpr uint32_t kMaxResizeTaps = uint32_t{1} << 22;

// Resize as separable passes with taps computed at import (axis_taps): per resized axis, one
// `gather` of the output positions' indices per tap, multiplied by the taps' weights and added.
// Every mode, coordinate transformation, nearest_mode, exclude_outside and tf_crop_and_resize
// (extrapolation by `where`), for any axes, with ONNX's own scale in the coordinates (so scales
// that give no whole output size too).
void resample_by_taps(const NodeCtx& c, const ResizeSpec& r, const std::vector<uint32_t>& out,
                      const std::vector<double>& scale, const std::vector<double>& length) {
  OperandId x = c.operand(0);
  const DataType type = c.type(0);
  const bool floats = type == DataType::kFloat32 || type == DataType::kFloat16;
  if (!floats && r.mode != "nearest") c.unsupported(r.mode + " resize of an integer tensor");
  const Shape in = c.desc(0).shape;
  const size_t rank = in.size();
  for (size_t axis = 0; axis < rank; ++axis) {
    if (out[axis] > kMaxResizeTaps)
      c.unsupported("a resized axis of " + std::to_string(out[axis]) +
                    " positions (the importer computes taps for up to " + std::to_string(kMaxResizeTaps) + ")");
    // The taps' host vectors (an index and a weight per tap and position) before they are made.
    Shape along_out(rank, 1);
    along_out[axis] = out[axis];
    c.reserve({DataType::kFloat32, along_out}, "the resize taps", 16 * uint64_t(out[axis]));
    const AxisTaps a = axis_taps(c, r, axis, rank, in[axis], out[axis], scale[axis], length[axis]);
    if (a.identity) continue;
    Shape along(rank, 1);
    along[axis] = out[axis];
    std::optional<OperandId> y;
    for (size_t k = 0; k < a.index.size(); ++k) {
      // A tap whose weights are all 0 is left out (but one stays, for an all-zero output).
      bool used = k + 1 == a.index.size() && !y;
      for (double w : a.weight[k]) used |= w != 0;
      if (!used) continue;
      const OperandId index = c.constant({DataType::kInt32, {out[axis]}},
                                         bytes_of_int64s(DataType::kInt32, {a.index[k].begin(), a.index[k].end()}));
      OperandId term = c.add(OpKind::kGather, {x, index}, GatherAttrs{uint32_t(axis)});
      if (r.mode != "nearest")
        term = c.add(OpKind::kMul, {term, c.constant({type, along}, bytes_of_doubles(type, a.weight[k]))});
      y = y ? c.add(OpKind::kAdd, {*y, term}) : term;
    }
    if (!a.inside.empty()) {
      const OperandId inside =
          c.constant({DataType::kUint8, along}, bytes_of_int64s(DataType::kUint8, {a.inside.begin(), a.inside.end()}));
      y = c.add(OpKind::kWhere, {inside, *y, c.scalar(type, r.extrapolation)});
    }
    x = *y;
  }
  c.set_out(0, x == c.operand(0) ? c.add(OpKind::kIdentity, {x}) : x);
}

// Resize/Upsample: WebNN's resample2d where it computes the same (two consecutive axes, whole
// output sizes, nearest with half_pixel coordinates rounding halves down or asymmetric/floor for
// whole upscales, linear with half_pixel), and separable passes with import-time taps otherwise
// (resample_by_taps).
void resample(const NodeCtx& c, const ResizeSpec& r, const std::vector<double>& scales, std::vector<int64_t> sizes) {
  const Shape& s = c.desc(0).shape;
  size_t rank = s.size();
  std::vector<uint32_t> out(s.begin(), s.end());
  std::vector<uint32_t> axes;
  std::vector<double> sc(rank, 1.0), length(s.begin(), s.end());
  bool whole = true;
  for (size_t i = 0; i < rank; ++i) {
    if (!sizes.empty()) {
      if (sizes[i] < 1 || sizes[i] > int64_t(UINT32_MAX)) c.invalid("a size out of range: " + std::to_string(sizes[i]));
      out[i] = uint32_t(sizes[i]);
      sc[i] = double(sizes[i]) / s[i];
      length[i] = double(sizes[i]);
    } else {
      sc[i] = scales[i];
      const double size = std::floor(s[i] * scales[i]);
      if (!(size >= 1 && size <= double(UINT32_MAX))) c.invalid("a scale out of range: " + std::to_string(scales[i]));
      out[i] = uint32_t(size);
      length[i] = s[i] * scales[i];
      // WebNN's coordinates use outputSize / inputSize; ONNX uses the scale: they agree when the
      // output size is exact.
      whole &= double(out[i]) == s[i] * scales[i];
    }
    if (out[i] != s[i]) axes.push_back(uint32_t(i));
  }
  // A valid output before anything is computed for it (the taps below are host vectors and
  // constants of the output's lengths).
  c.im.builder().check_descriptor({c.type(0), Shape(out.begin(), out.end())}, c.where() + ": the output");
  if (axes.empty() && r.coord != "tf_crop_and_resize") return c.set_out(0, c.add(OpKind::kIdentity, {c.operand(0)}));
  if (axes.size() == 1 && rank >= 2)
    axes =
        axes[0] + 1 < rank ? std::vector<uint32_t>{axes[0], axes[0] + 1} : std::vector<uint32_t>{axes[0] - 1, axes[0]};
  bool direct = whole && !r.exclude_outside && axes.size() == 2 && axes[1] == axes[0] + 1;
  Resample2dAttrs a;
  if (direct) {
    a.axes = axes;
    a.sizes = std::vector<uint32_t>{out[axes[0]], out[axes[1]]};
    bool integral_up = true;
    for (uint32_t ax : axes) integral_up &= out[ax] % s[ax] == 0;
    if (r.mode == "nearest") {
      a.mode = InterpolationMode::kNearestNeighbor;
      const bool half_pixel =
          (r.coord == "half_pixel" || r.coord == "pytorch_half_pixel") && r.nearest == "round_prefer_floor";
      const bool asym_floor = r.coord == "asymmetric" && r.nearest == "floor" && integral_up;
      direct = half_pixel || asym_floor;
    } else if (r.mode == "linear") {
      a.mode = InterpolationMode::kLinear;
      direct = r.coord == "half_pixel" || (r.coord == "pytorch_half_pixel" && out[axes[0]] > 1 && out[axes[1]] > 1);
    } else {
      direct = false;
    }
  }
  if (!direct) return resample_by_taps(c, r, out, sc, length);
  c.set_out(0, c.add(OpKind::kResample2d, {c.operand(0)}, a));
}

void lower_resize(const NodeCtx& c) {
  ResizeSpec r;
  r.mode = c.attr_s("mode", "nearest");
  if (r.mode != "nearest" && r.mode != "linear" && r.mode != "cubic") c.invalid("unknown mode \"" + r.mode + "\"");
  r.coord = c.opset >= 11 ? c.attr_s("coordinate_transformation_mode", "half_pixel") : "asymmetric";
  r.nearest = c.opset >= 11 ? c.attr_s("nearest_mode", "round_prefer_floor") : "floor";
  r.cubic_a = c.attr_f("cubic_coeff_a", -0.75f);
  r.exclude_outside = c.attr_i("exclude_outside", 0) != 0;
  r.extrapolation = c.attr_f("extrapolation_value", 0.f);
  if (c.attr_i("antialias", 0) != 0) c.unsupported("antialias");
  if (c.has_attr("axes")) c.unsupported("the axes attribute (opset 18)");
  if (c.attr_s("keep_aspect_ratio_policy", "stretch") != "stretch") c.unsupported("keep_aspect_ratio_policy");
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  if (c.opset < 11) {
    scales = c.const_doubles(1, "scales");
  } else {
    if (c.has_input(2)) scales = c.const_doubles(2, "scales");
    if (c.has_input(3)) sizes = c.const_ints(3, "sizes");
    if (!sizes.empty()) scales.clear();
  }
  if (!sizes.empty() ? sizes.size() != c.rank(0) : scales.size() != c.rank(0))
    c.invalid("scales or sizes must have one value per axis");
  if (r.coord == "tf_crop_and_resize") {
    r.roi = c.const_doubles(1, "roi");
    if (r.roi.size() != 2 * c.rank(0)) c.invalid("roi must have two values per axis");
  }
  resample(c, r, scales, sizes);
}

void lower_upsample(const NodeCtx& c) {
  std::string mode = c.attr_s("mode", "nearest");
  std::vector<double> scales;
  if (c.opset < 9) {
    for (float f : c.attr_floats("scales")) scales.push_back(f);
  } else {
    scales = c.const_doubles(1, "scales");
  }
  if (scales.size() != c.rank(0)) c.invalid("scales must have one value per axis");
  ResizeSpec r;
  r.mode = mode == "bilinear" ? "linear" : mode;
  if (r.mode != "nearest" && r.mode != "linear") c.invalid("unknown mode \"" + mode + "\"");
  r.coord = "asymmetric";
  r.nearest = "floor";
  resample(c, r, scales, {});
}

// ---- GridSample ----

// The ONNX reference's reflection of coordinates v (float32) into [lo, hi], folded as often as it
// takes: a triangle wave of period 2 (hi - lo).
OperandId reflect_into(const NodeCtx& c, OperandId v, double lo, double hi) {
  auto f = [&](double d) { return c.scalar(DataType::kFloat32, d); };
  const double span = hi - lo;
  OperandId t = c.add(OpKind::kSub, {v, f(lo)});
  OperandId periods = c.add(OpKind::kFloor, {c.add(OpKind::kDiv, {t, f(2 * span)})});
  t = c.add(OpKind::kSub, {t, c.add(OpKind::kMul, {periods, f(2 * span)})});
  OperandId folded =
      c.add(OpKind::kWhere, {c.add(OpKind::kGreater, {t, f(span)}), c.add(OpKind::kSub, {f(2 * span), t}), t});
  return c.add(OpKind::kAdd, {folded, f(lo)});
}

}  // namespace

OperandId outside(const NodeCtx& c, OperandId v, double lo, double hi) {
  return c.add(OpKind::kLogicalOr, {c.add(OpKind::kLesser, {v, c.scalar(DataType::kFloat32, lo)}),
                                    c.add(OpKind::kGreater, {v, c.scalar(DataType::kFloat32, hi)})});
}

namespace {

// GridSample (opset 16 and its 4-D form in later opsets) of x [N, C, H, W] at grid [N, Ho, Wo, 2]
// as the ONNX reference computes it: coordinates unnormalized in float32 (rounded half to even for
// nearest), moved into the border ([-0.5, size - 0.5], or [0, size - 1] with align_corners) by
// padding_mode, then taps at whole positions (1, 2x2 or 4x4) read by gatherElements from the
// flattened [N, C, H*W] input, each tap's index clamped (border), reflected (reflection) or
// masked to 0 (zeros), weighted and summed.
void lower_grid_sample(const NodeCtx& c) {
  std::string mode = c.attr_s("mode", c.opset >= 20 ? "linear" : "bilinear");
  const std::string padding = c.attr_s("padding_mode", "zeros");
  const bool align = c.attr_i("align_corners", 0) != 0;
  if (mode == "linear") mode = "bilinear";
  if (mode == "cubic") mode = "bicubic";
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic") c.invalid("unknown mode \"" + mode + "\"");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    c.invalid("unknown padding_mode \"" + padding + "\"");
  if (c.rank(0) != 4)
    c.unsupported("GridSample of a rank-" + std::to_string(c.rank(0)) + " input (the importer lowers 4-D inputs)");
  const Shape xs = c.desc(0).shape, gs = c.desc(1).shape;
  if (gs.size() != 4 || gs[0] != xs[0] || gs[3] != 2)
    c.invalid("the grid must be [N, H_out, W_out, 2] for an input [N, C, H, W]");
  const DataType ft = c.type(0);
  if (ft != DataType::kFloat32 && ft != DataType::kFloat16)
    c.unsupported("GridSample of a " + onnx_type_name(onnx_type(ft)) + " input (the importer samples float inputs)");
  const uint32_t n = xs[0], channels = xs[1], h = xs[2], w = xs[3], points = gs[1] * gs[2];
  if (uint64_t(h) * w > (uint64_t(1) << 24)) c.unsupported("an input of more than 2^24 pixels per channel");
  auto f = [&](double d) { return c.scalar(DataType::kFloat32, d); };
  OperandId grid = c.cast(c.reshape(c.operand(1), {n, points, 2}), DataType::kFloat32);

  // Per axis (x, then y): the taps, each a whole position [N, P] and its weight (none for nearest).
  struct Tap {
    OperandId index;  // int32, in range
    std::optional<OperandId> weight;
    std::optional<OperandId> valid;  // zeros padding
  };
  auto taps_of = [&](uint32_t component, uint32_t size) {
    OperandId v = c.reshape(slice_axis(c, grid, 2, component, 1), {n, points});
    OperandId v1 = c.add(OpKind::kAdd, {v, f(1)});
    v = align ? c.add(OpKind::kMul, {c.add(OpKind::kDiv, {v1, f(2)}), f(double(size) - 1)})
              : c.add(OpKind::kDiv, {c.add(OpKind::kSub, {c.add(OpKind::kMul, {v1, f(size)}), f(1)}), f(2)});
    if (mode == "nearest") v = c.add(OpKind::kRoundEven, {v});
    const double lo = align ? 0 : -0.5, hi = align ? double(size) - 1 : double(size) - 0.5;
    if (padding == "border")
      v = c.add(OpKind::kWhere,
                {outside(c, v, lo, hi), c.add(OpKind::kClamp, {v}, ClampAttrs{0.0, double(size) - 1}), v});
    if (padding == "reflection" && hi > lo)
      v = c.add(OpKind::kWhere, {outside(c, v, lo, hi), reflect_into(c, v, lo, hi), v});
    std::vector<std::pair<OperandId, std::optional<OperandId>>> at;  // whole position, weight
    if (mode == "nearest") {
      at.push_back({v, std::nullopt});
    } else {
      OperandId x0 = c.add(OpKind::kFloor, {v});
      OperandId t = c.add(OpKind::kSub, {v, x0});
      auto shifted = [&](double d) { return d == 0 ? x0 : c.add(OpKind::kAdd, {x0, f(d)}); };
      if (mode == "bilinear") {
        at.push_back({x0, c.add(OpKind::kSub, {f(1), t})});
        at.push_back({shifted(1), t});
      } else {
        // The cubic convolution coefficients of the ONNX reference (A = -0.75) at distances
        // 1 + t, t, 1 - t and 2 - t.
        const double a = -0.75;
        auto mul = [&](OperandId p, OperandId q) { return c.add(OpKind::kMul, {p, q}); };
        auto add = [&](OperandId p, double d) { return c.add(OpKind::kAdd, {p, f(d)}); };
        auto outer = [&](OperandId d) {  // ((A d - 5A) d + 8A) d - 4A
          return add(mul(add(mul(add(c.add(OpKind::kMul, {d, f(a)}), -5 * a), d), 8 * a), d), -4 * a);
        };
        auto inner = [&](OperandId d) {  // ((A + 2) d - (A + 3)) d d + 1
          return add(mul(mul(add(c.add(OpKind::kMul, {d, f(a + 2)}), -(a + 3)), d), d), 1);
        };
        OperandId one_minus_t = c.add(OpKind::kSub, {f(1), t});
        at.push_back({shifted(-1), outer(add(t, 1))});
        at.push_back({x0, inner(t)});
        at.push_back({shifted(1), inner(one_minus_t)});
        at.push_back({shifted(2), outer(c.add(OpKind::kSub, {f(2), t}))});
      }
    }
    std::vector<Tap> taps;
    for (auto& [pos, weight] : at) {
      Tap tap{pos, weight, std::nullopt};
      if (padding == "zeros")
        tap.valid = c.add(OpKind::kLogicalAnd, {c.add(OpKind::kGreaterOrEqual, {pos, f(0)}),
                                                c.add(OpKind::kLesserOrEqual, {pos, f(double(size) - 1)})});
      if (padding == "reflection" && hi > lo)
        pos = c.add(OpKind::kWhere, {outside(c, pos, 0, double(size) - 1), reflect_into(c, pos, lo, hi), pos});
      tap.index = c.cast(c.add(OpKind::kClamp, {pos}, ClampAttrs{0.0, double(size) - 1}), DataType::kInt32);
      taps.push_back(tap);
    }
    return taps;
  };
  const std::vector<Tap> tx = taps_of(0, w), ty = taps_of(1, h);

  OperandId flat = c.reshape(c.operand(0), {n, channels, h * w});
  std::optional<OperandId> sum;
  for (const Tap& y : ty) {
    OperandId row = c.add(OpKind::kMul, {y.index, c.scalar(DataType::kInt32, w)});
    for (const Tap& x : tx) {
      OperandId index = c.reshape(c.add(OpKind::kAdd, {row, x.index}), {n, 1, points});
      index = c.add(OpKind::kExpand, {index}, ExpandAttrs{{n, channels, points}});
      OperandId value = c.add(OpKind::kGatherElements, {flat, index}, GatherAttrs{2});
      std::optional<OperandId> weight;
      if (x.weight && y.weight) weight = c.add(OpKind::kMul, {*y.weight, *x.weight});
      if (weight) value = c.add(OpKind::kMul, {value, c.cast(c.reshape(*weight, {n, 1, points}), ft)});
      if (x.valid && y.valid) {
        OperandId valid = c.reshape(c.add(OpKind::kLogicalAnd, {*y.valid, *x.valid}), {n, 1, points});
        value = c.add(OpKind::kWhere, {valid, value, c.scalar(ft, 0)});
      }
      sum = sum ? c.add(OpKind::kAdd, {*sum, value}) : value;
    }
  }
  c.set_out(0, c.reshape(*sum, {n, channels, gs[1], gs[2]}));
}
// ---- Quantization ----

// A per-tensor or per-axis scale/zero point reshaped to the input's rank (blockwise broadcast).
OperandId quant_param(const NodeCtx& c, OperandId p, size_t r, uint32_t axis) {
  Shape ps = c.desc_of(p).shape;
  Shape target(r, 1);
  if (ps.size() == 1 && ps[0] > 1)
    target[axis] = ps[0];
  else if (ps.size() > 1)
    c.unsupported("blocked quantization parameters");
  return c.reshape(p, target);
}

void lower_quantize(const NodeCtx& c, bool quantize) {
  size_t r = c.rank(0);
  // The axis matters only for per-axis (1-D) parameters.
  bool per_axis = c.rank(1) == 1 && c.desc(1).shape[0] > 1;
  uint32_t axis = per_axis ? c.axis(c.attr_i("axis", 1), r) : 0;
  if (c.has_attr("block_size") && c.attr_i("block_size", 0) != 0) c.unsupported("blocked quantization");
  OperandId x = c.operand(0);
  if (r == 0) x = c.reshape(x, {1});
  size_t rr = std::max<size_t>(r, 1);
  OperandId scale = quant_param(c, c.operand(1), rr, axis);
  OperandId zp;
  if (c.has_input(2)) {
    zp = quant_param(c, c.operand(2), rr, axis);
  } else {
    DataType zt = quantize ? DataType::kUint8 : c.desc_of(x).data_type;
    OperandDescriptor d{zt, c.desc_of(scale).shape};
    zp = c.int_table(d, "the zero point", [](uint64_t) { return 0; });
  }
  OperandId y = c.add(quantize ? OpKind::kQuantizeLinear : OpKind::kDequantizeLinear, {x, scale, zp});
  if (r == 0) y = c.reshape(y, {});
  c.set_out(0, y);
}
void lower_quantize_linear(const NodeCtx& c) { lower_quantize(c, true); }
void lower_dequantize_linear(const NodeCtx& c) { lower_quantize(c, false); }

// ---- Recurrent ----

RecurrentDirection direction_of(const NodeCtx& c) {
  std::string d = c.attr_s("direction", "forward");
  if (d == "forward") return RecurrentDirection::kForward;
  if (d == "reverse") return RecurrentDirection::kBackward;
  if (d == "bidirectional") return RecurrentDirection::kBoth;
  c.invalid("unknown direction \"" + d + "\"");
}

OptionalActivations activations_of(const NodeCtx& c, size_t per_direction, const std::vector<std::string>& defaults) {
  auto names = c.attr_strings("activations");
  if (names.empty()) return std::nullopt;
  if (!c.attr_floats("activation_alpha").empty() || !c.attr_floats("activation_beta").empty())
    c.unsupported("activation_alpha/activation_beta");
  if (names.size() > per_direction) {
    for (size_t i = per_direction; i < names.size(); ++i)
      if (names[i] != names[i - per_direction]) c.unsupported("different activations per direction");
    names.resize(per_direction);
  }
  std::vector<RecurrentActivation> acts;
  for (const auto& n : names) {
    if (n == "Relu")
      acts.push_back(RecurrentActivation::kRelu);
    else if (n == "Sigmoid")
      acts.push_back(RecurrentActivation::kSigmoid);
    else if (n == "Tanh")
      acts.push_back(RecurrentActivation::kTanh);
    else
      c.unsupported("activation \"" + n + "\" (WebNN recurrent ops take relu, sigmoid and tanh)");
  }
  bool is_default = acts.size() == defaults.size();
  for (size_t i = 0; is_default && i < acts.size(); ++i) is_default = names[i] == defaults[i];
  if (is_default) return std::nullopt;
  return acts;
}

// sequence_lens, known at import time, that gives every batch entry all `steps` steps changes
// nothing; other lengths are not supported (the ops run every step of every batch entry).
void check_full_sequence_lens(const NodeCtx& c, uint32_t steps) {
  if (!c.has_input(4)) return;
  for (int64_t len : c.const_ints(4, "sequence_lens")) {
    if (len < 0 || len > int64_t(steps)) c.invalid("a sequence length outside [0, steps]");
    if (len != int64_t(steps))
      c.unsupported("sequence_lens shorter than the steps (WebNN recurrent ops run every step of every batch)");
  }
}

void recurrent_common(const NodeCtx& c) {
  if (c.has_attr("clip")) c.unsupported("clip (WebNN recurrent ops do not clip)");
  if (c.rank(0) != 3) c.invalid("X must be 3-D");
  check_full_sequence_lens(c, c.desc(0).shape[c.attr_i("layout", 0) == 1 ? 1 : 0]);
}

// layout = 1 (batch first) is WebNN's layout with transposes around it: X [batch, steps, input]
// and the initial states [batch, dirs, hidden] in, Y [batch, steps, dirs, hidden] and the last
// states [batch, dirs, hidden] out.
bool batch_first(const NodeCtx& c) {
  int64_t layout = c.attr_i("layout", 0);
  if (layout != 0 && layout != 1) c.invalid("layout must be 0 or 1");
  return layout == 1;
}
OperandId recurrent_in(const NodeCtx& c, size_t i) {
  return batch_first(c) ? c.transpose(c.operand(i), {1, 0, 2}) : c.operand(i);
}
void set_recurrent_state(const NodeCtx& c, size_t i, OperandId state) {
  if (!c.wants_output(i)) return;
  c.set_out(i, batch_first(c) ? c.transpose(state, {1, 0, 2}) : state);
}
void set_recurrent_sequence(const NodeCtx& c, OperandId y) {
  if (c.wants_output(0)) c.set_out(0, batch_first(c) ? c.transpose(y, {2, 0, 1, 3}) : y);
}

// B [dirs, 2 * gates * hidden] -> bias and recurrentBias [dirs, gates * hidden].
std::pair<OperandId, OperandId> split_bias(const NodeCtx& c, size_t i) {
  OperandId b = c.operand(i);
  auto parts = c.add_multi(OpKind::kSplit, {b}, SplitAttrs{uint32_t{2}, 1});
  return {parts[0], parts[1]};
}

void lower_gru(const NodeCtx& c) {
  recurrent_common(c);
  OperandId x = recurrent_in(c, 0);
  const Shape xs = c.desc_of(x).shape;
  GruAttrs a;
  a.steps = xs.at(0);
  a.hidden_size = uint32_t(c.attr_i("hidden_size", 0));
  if (a.hidden_size == 0) a.hidden_size = c.desc(2).shape.at(2);
  a.direction = direction_of(c);
  a.layout = GruWeightLayout::kZrn;
  a.reset_after = c.attr_i("linear_before_reset", 0) != 0;
  a.return_sequence = c.wants_output(0);
  a.activations = activations_of(c, 2, {"Sigmoid", "Tanh"});
  if (c.has_input(3)) {
    auto [bias, rbias] = split_bias(c, 3);
    a.bias = OperandRef{bias};
    a.recurrent_bias = OperandRef{rbias};
  }
  if (c.has_input(5)) a.initial_hidden_state = OperandRef{recurrent_in(c, 5)};
  auto outs = c.add_multi(OpKind::kGru, {x, c.operand(1), c.operand(2)}, a);
  if (c.wants_output(0)) set_recurrent_sequence(c, outs.at(1));
  set_recurrent_state(c, 1, outs.at(0));
}

// ---- Unrolled recurrences (RNN, and LSTM where WebNN's lstm means something else) ----

OperandId rnn_activation(const NodeCtx& c, const std::string& name, OperandId x) {
  if (name == "Tanh") return c.add(OpKind::kTanh, {x});
  if (name == "Relu") return c.add(OpKind::kRelu, {x});
  if (name == "Sigmoid") return c.add(OpKind::kSigmoid, {x});
  c.unsupported("activation \"" + name + "\" (the unrolled recurrence takes Tanh, Relu and Sigmoid)");
}

// Row d of a [dirs, ...] operand, without its leading axis.
OperandId direction_row(const NodeCtx& c, OperandId v, uint32_t d) {
  Shape s = c.desc_of(v).shape;
  std::vector<uint32_t> starts(s.size(), 0), sizes = s;
  starts[0] = d;
  sizes[0] = 1;
  s.erase(s.begin());
  return c.reshape(c.add(OpKind::kSlice, {v}, SliceAttrs{starts, sizes, std::nullopt}), s);
}

constexpr uint64_t kMaxUnrolledSteps = uint64_t{1} << 14;

// What every unrolled recurrence shares: X as [steps, batch, input] (batch-first transposed),
// direction by direction the input projection of every step as one gemm (X W_d^T + Wb_d + Rb_d,
// [steps, batch, gates * hidden]), and the outputs assembled in ONNX's layout.
struct Unrolled {
  const NodeCtx& c;
  bool batch_first = false;
  RecurrentDirection direction = RecurrentDirection::kForward;
  uint32_t dirs = 1, steps = 0, batch = 0, input = 0, hidden = 0, gates = 1;
  OperandId x2 = 0;  // [steps * batch, input]

  Unrolled(const NodeCtx& ctx, uint32_t gate_count) : c(ctx), gates(gate_count) {
    batch_first = c.attr_i("layout", 0) != 0;
    direction = direction_of(c);
    dirs = direction == RecurrentDirection::kBoth ? 2 : 1;
    if (c.rank(0) != 3 || c.rank(1) != 3 || c.rank(2) != 3) c.invalid("X, W and R must be 3-D");
    OperandId x = c.operand(0);
    if (batch_first) x = c.transpose(x, {1, 0, 2});  // [batch, steps, input] -> [steps, batch, input]
    const Shape xs = c.desc_of(x).shape;
    steps = xs[0], batch = xs[1], input = xs[2];
    // Each step is a dozen operations: a bound on the graph an input's declared length can make.
    if (uint64_t(steps) * dirs > kMaxUnrolledSteps)
      c.unsupported(std::to_string(steps) + " steps to unroll (the importer unrolls up to " +
                    std::to_string(kMaxUnrolledSteps) + " steps times directions)");
    check_full_sequence_lens(c, steps);
    hidden = c.desc(2).shape[2];
    if (c.attr_i("hidden_size", hidden) != int64_t(hidden)) c.invalid("hidden_size does not match R");
    const uint32_t g = gates * hidden;
    if (c.desc(1).shape != Shape{dirs, g, input} || c.desc(2).shape != Shape{dirs, g, hidden})
      c.invalid("W must be [" + std::to_string(dirs) + ", " + std::to_string(gates) + " * hidden, input] and R [" +
                std::to_string(dirs) + ", " + std::to_string(gates) + " * hidden, hidden]");
    if (c.has_input(3) && c.desc(3).shape != Shape{dirs, 2 * g})
      c.invalid("B must be [directions, " + std::to_string(2 * gates) + " * hidden]");
    x2 = c.reshape(x, {steps * batch, input});
  }
  bool backward(uint32_t d) const { return direction == RecurrentDirection::kBackward || d == 1; }
  // Initial state input i as [dirs, batch, hidden], if given.
  std::optional<OperandId> initial(size_t i, const std::string& what) const {
    if (!c.has_input(i)) return std::nullopt;
    OperandId v = c.operand(i);
    if (batch_first) v = c.transpose(v, {1, 0, 2});
    if (c.desc_of(v).shape != Shape{dirs, batch, hidden}) c.invalid(what + " must be [directions, batch, hidden]");
    return v;
  }
  // X W_d^T + Wb_d + Rb_d for every step: [steps, batch, gates * hidden].
  OperandId projected(uint32_t d) const {
    GemmAttrs in;
    in.b_transpose = true;
    if (c.has_input(3)) {
      auto parts = c.add_multi(OpKind::kSplit, {direction_row(c, c.operand(3), d)}, SplitAttrs{uint32_t{2}, 0});
      in.c = OperandRef{c.add(OpKind::kAdd, {parts[0], parts[1]})};
    }
    return c.reshape(c.add(OpKind::kGemm, {x2, direction_row(c, c.operand(1), d)}, in), {steps, batch, gates * hidden});
  }
  // Step `step` of a projection, plus H R^T when there is a state: [batch, gates * hidden].
  OperandId pre(OperandId projection, uint32_t step, std::optional<OperandId> h, OperandId r) const {
    OperandId p = c.reshape(
        c.add(OpKind::kSlice, {projection}, SliceAttrs{{step, 0, 0}, {1, batch, gates * hidden}, std::nullopt}),
        {batch, gates * hidden});
    if (!h) return p;
    GemmAttrs rec;
    rec.b_transpose = true;
    rec.c = OperandRef{p};
    return c.add(OpKind::kGemm, {*h, r}, rec);
  }
  // Sets output `i` to the per-direction [1, batch, hidden] states, concatenated ([dirs, ...]).
  void set_state(size_t i, const std::vector<OperandId>& per_direction) const {
    if (!c.wants_output(i)) return;
    OperandId v = dirs == 1 ? per_direction[0] : c.add(OpKind::kConcat, per_direction, ConcatAttrs{0});
    c.set_out(i, batch_first ? c.transpose(v, {1, 0, 2}) : v);
  }
  // Sets Y from each direction's [1, 1, batch, hidden] outputs by step.
  void set_sequence(const std::vector<std::vector<OperandId>>& outs) const {
    if (!c.wants_output(0)) return;
    std::vector<OperandId> ys;
    for (const auto& o : outs) ys.push_back(steps == 1 ? o[0] : c.add(OpKind::kConcat, o, ConcatAttrs{0}));
    OperandId y = dirs == 1 ? ys[0] : c.add(OpKind::kConcat, ys, ConcatAttrs{1});  // [steps, dirs, batch, hidden]
    c.set_out(0, batch_first ? c.transpose(y, {2, 0, 1, 3}) : y);
  }
};

// An LSTM that WebNN's lstm does not compute is unrolled: a nonzero output-gate peephole (ONNX's
// output gate looks at the new cell state C_t, WebNN's at the previous one), a peephole known only
// at run time, `clip` or `input_forget`. Gates i, o, f, c (ONNX's order), per step:
//   i = f(clip(Xi + H Ri^T + Pi ⊙ C)), f = f(clip(Xf + H Rf^T + Pf ⊙ C)) (1 − i with input_forget),
//   C' = f ⊙ C + i ⊙ g(clip(Xc + H Rc^T)), o = f(clip(Xo + H Ro^T + Po ⊙ C')), H' = o ⊙ h(C').
void lower_lstm_unrolled(const NodeCtx& c) {
  const Unrolled u(c, 4);
  if (!c.attr_floats("activation_alpha").empty() || !c.attr_floats("activation_beta").empty())
    c.unsupported("activation_alpha/activation_beta");
  std::vector<std::string> acts = c.attr_strings("activations");
  if (acts.empty())
    for (uint32_t d = 0; d < u.dirs; ++d) acts.insert(acts.end(), {"Sigmoid", "Tanh", "Tanh"});
  if (acts.size() != 3 * u.dirs) c.invalid("activations must name three activations per direction");
  std::optional<double> clip;
  if (c.has_attr("clip")) clip = c.attr_f("clip", 0);
  const bool input_forget = c.attr_i("input_forget", 0) != 0;
  if (c.has_input(7) && c.desc(7).shape != Shape{u.dirs, 3 * u.hidden}) c.invalid("P must be [directions, 3 * hidden]");
  const std::optional<OperandId> h0 = u.initial(5, "initial_h"), c0 = u.initial(6, "initial_c");
  const uint32_t hid = u.hidden;
  auto gate = [&](OperandId v, uint32_t k) {
    return c.add(OpKind::kSlice, {v}, SliceAttrs{{0, k * hid}, {u.batch, hid}, std::nullopt});
  };
  auto clipped = [&](OperandId v) { return clip ? c.add(OpKind::kClamp, {v}, ClampAttrs{-*clip, *clip}) : v; };
  std::vector<std::vector<OperandId>> outs(u.dirs, std::vector<OperandId>(u.steps));
  std::vector<OperandId> hs(u.dirs), cs(u.dirs);
  for (uint32_t d = 0; d < u.dirs; ++d) {
    const std::string &fa = acts[3 * d], &ga = acts[3 * d + 1], &ha = acts[3 * d + 2];
    const OperandId projection = u.projected(d), r = direction_row(c, c.operand(2), d);
    std::optional<OperandId> peep[3];  // i, o, f: [hidden]
    if (c.has_input(7)) {
      OperandId p = direction_row(c, c.operand(7), d);
      for (uint32_t k = 0; k < 3; ++k) peep[k] = c.add(OpKind::kSlice, {p}, SliceAttrs{{k * hid}, {hid}, std::nullopt});
    }
    std::optional<OperandId> h, cell;
    if (h0) h = direction_row(c, *h0, d);
    if (c0) cell = direction_row(c, *c0, d);
    auto with_peephole = [&](OperandId v, const std::optional<OperandId>& p, const std::optional<OperandId>& state) {
      return p && state ? c.add(OpKind::kAdd, {v, c.add(OpKind::kMul, {*p, *state})}) : v;
    };
    for (uint32_t k = 0; k < u.steps; ++k) {
      const uint32_t step = u.backward(d) ? u.steps - 1 - k : k;
      const OperandId pre = u.pre(projection, step, h, r);
      const OperandId i = rnn_activation(c, fa, clipped(with_peephole(gate(pre, 0), peep[0], cell)));
      const OperandId f = input_forget ? c.add(OpKind::kSub, {c.scalar(c.type(0), 1), i})
                                       : rnn_activation(c, fa, clipped(with_peephole(gate(pre, 2), peep[2], cell)));
      const OperandId candidate = rnn_activation(c, ga, clipped(gate(pre, 3)));
      OperandId next = c.add(OpKind::kMul, {i, candidate});
      if (cell) next = c.add(OpKind::kAdd, {c.add(OpKind::kMul, {f, *cell}), next});
      cell = next;
      const OperandId o = rnn_activation(c, fa, clipped(with_peephole(gate(pre, 1), peep[1], cell)));
      h = c.add(OpKind::kMul, {o, rnn_activation(c, ha, *cell)});
      outs[d][step] = c.reshape(*h, {1, 1, u.batch, hid});
    }
    hs[d] = c.reshape(*h, {1, u.batch, hid});
    cs[d] = c.reshape(*cell, {1, u.batch, hid});
  }
  u.set_sequence(outs);
  u.set_state(1, hs);
  u.set_state(2, cs);
}

void lower_lstm(const NodeCtx& c) {
  if (c.has_attr("clip") || c.attr_i("input_forget", 0) != 0) return lower_lstm_unrolled(c);
  if (c.has_input(7)) {
    // WebNN's lstm takes P when its output-gate part is known to be zero (lstm and ONNX then
    // agree); otherwise the recurrence is unrolled.
    if (!c.is_const(7)) return lower_lstm_unrolled(c);
    const std::vector<double> p = c.const_doubles(7, "P (peephole weights)");
    const size_t h = c.desc(2).shape.at(2);
    if (h == 0 || p.size() % (3 * h) != 0) c.invalid("P must be [directions, 3 * hidden]");
    for (size_t d = 0; d < p.size() / (3 * h); ++d)
      for (size_t k = h; k < 2 * h; ++k)
        if (p[d * 3 * h + k] != 0) return lower_lstm_unrolled(c);
  }
  recurrent_common(c);
  OperandId x = recurrent_in(c, 0);
  const Shape xs = c.desc_of(x).shape;
  LstmAttrs a;
  a.steps = xs.at(0);
  a.hidden_size = uint32_t(c.attr_i("hidden_size", 0));
  if (a.hidden_size == 0) a.hidden_size = c.desc(2).shape.at(2);
  a.direction = direction_of(c);
  a.layout = LstmWeightLayout::kIofg;
  a.return_sequence = c.wants_output(0);
  a.activations = activations_of(c, 3, {"Sigmoid", "Tanh", "Tanh"});
  if (c.has_input(3)) {
    auto [bias, rbias] = split_bias(c, 3);
    a.bias = OperandRef{bias};
    a.recurrent_bias = OperandRef{rbias};
  }
  if (c.has_input(5)) a.initial_hidden_state = OperandRef{recurrent_in(c, 5)};
  if (c.has_input(6)) a.initial_cell_state = OperandRef{recurrent_in(c, 6)};
  if (c.has_input(7)) a.peephole_weight = OperandRef{c.operand(7)};
  auto outs = c.add_multi(OpKind::kLstm, {x, c.operand(1), c.operand(2)}, a);
  if (c.wants_output(0)) set_recurrent_sequence(c, outs.at(2));
  set_recurrent_state(c, 1, outs.at(0));
  set_recurrent_state(c, 2, outs.at(1));
}

// RNN has no WebNN op: it is unrolled over its static steps (Unrolled): per step it adds
// gemm(H, R^T) to the step's input projection, clamps when `clip` is given and applies the
// activation: H_t = f(clip(X_t W^T + H_{t-1} R^T + Wb + Rb)).
void lower_rnn(const NodeCtx& c) {
  if (!c.attr_floats("activation_alpha").empty() || !c.attr_floats("activation_beta").empty())
    c.unsupported("activation_alpha/activation_beta");
  const Unrolled u(c, 1);
  std::vector<std::string> acts = c.attr_strings("activations");
  if (acts.empty()) acts.assign(u.dirs, "Tanh");
  if (acts.size() != u.dirs) c.invalid("activations must name one activation per direction");
  std::optional<double> clip;
  if (c.has_attr("clip")) clip = c.attr_f("clip", 0);
  const std::optional<OperandId> h0 = u.initial(5, "initial_h");
  std::vector<std::vector<OperandId>> outs(u.dirs, std::vector<OperandId>(u.steps));
  std::vector<OperandId> hs(u.dirs);
  for (uint32_t d = 0; d < u.dirs; ++d) {
    const OperandId projection = u.projected(d), r = direction_row(c, c.operand(2), d);
    std::optional<OperandId> h;
    if (h0) h = direction_row(c, *h0, d);
    for (uint32_t k = 0; k < u.steps; ++k) {
      const uint32_t step = u.backward(d) ? u.steps - 1 - k : k;
      OperandId pre = u.pre(projection, step, h, r);
      if (clip) pre = c.add(OpKind::kClamp, {pre}, ClampAttrs{-*clip, *clip});
      h = rnn_activation(c, acts[d], pre);
      outs[d][step] = c.reshape(*h, {1, 1, u.batch, u.hidden});
    }
    hs[d] = c.reshape(*h, {1, u.batch, u.hidden});
  }
  u.set_sequence(outs);
  u.set_state(1, hs);
}

// ---- Einsum: the forms that are a matmul or a transpose ----

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
  if (ka.size() != 1 || out.size() != batch.size() + 2) c.unsupported("an equation other than a (batched) matmul");
  std::string i_labels, j_labels;
  for (char ch : a)
    if (batch.find(ch) == std::string::npos && ch != ka[0]) i_labels += ch;
  for (char ch : b)
    if (batch.find(ch) == std::string::npos && ch != ka[0]) j_labels += ch;
  if (i_labels.size() != 1 || j_labels.size() != 1) c.unsupported("an equation other than a (batched) matmul");
  std::string want_a = batch + i_labels + ka, want_b = batch + ka + j_labels, want_o = batch + i_labels + j_labels;
  auto pa = perm_to(a, want_a), pb = perm_to(b, want_b), po = perm_to(want_o, out);
  if (pa.size() != a.size() || pb.size() != b.size() || po.size() != out.size())
    c.unsupported("an equation other than a (batched) matmul");
  OperandId y = c.add(OpKind::kMatmul, {c.transpose(c.operand(0), pa), c.transpose(c.operand(1), pb)});
  c.set_out(0, c.transpose(y, po));
}

// ---- Losses (inference: the loss value of given scores) ----

// NegativeLogLikelihoodLoss of log-probabilities x [N, C, d...] at targets t [N, d...]: gathered
// along the class axis, weighted, the ignored targets zeroed, reduced as `reduction` says.
OperandId nll(const NodeCtx& c, OperandId x, OperandId t, std::optional<OperandId> weight,
              const std::string& reduction) {
  const Shape xs = c.desc_of(x).shape;
  const Shape ts = c.desc_of(t).shape;
  DataType ft = c.desc_of(x).data_type, it = c.desc_of(t).data_type;
  if (xs.size() < 2 || ts.size() + 1 != xs.size()) c.invalid("the target must have the input's rank minus 1");
  std::optional<OperandId> mask;
  OperandId safe = t;
  if (c.has_attr("ignore_index")) {
    mask = c.add(OpKind::kNotEqual, {t, c.scalar(it, double(c.attr_i("ignore_index", 0)))});
    // An ignored target may be out of range: it is read as class 0, then zeroed.
    safe = c.add(OpKind::kWhere, {*mask, t, c.scalar(it, 0)});
  }
  Shape idx_shape = ts;
  idx_shape.insert(idx_shape.begin() + 1, 1);
  OperandId picked = c.add(OpKind::kGatherElements, {x, c.reshape(safe, idx_shape)}, GatherAttrs{1});
  OperandId loss = c.add(OpKind::kNeg, {c.reshape(picked, ts)});
  std::optional<OperandId> w;
  if (weight) w = c.add(OpKind::kGather, {*weight, safe}, GatherAttrs{0});
  if (mask) {
    OperandId m = c.cast(*mask, ft);
    w = w ? c.add(OpKind::kMul, {*w, m}) : m;
  }
  if (w) loss = c.add(OpKind::kMul, {loss, *w});
  if (reduction == "none") return loss;
  if (reduction == "sum") return c.add(OpKind::kReduceSum, {loss}, ReduceAttrs{});
  if (reduction != "mean") c.invalid("unknown reduction \"" + reduction + "\"");
  if (!w) return c.add(OpKind::kReduceMean, {loss}, ReduceAttrs{});
  return c.add(OpKind::kDiv,
               {c.add(OpKind::kReduceSum, {loss}, ReduceAttrs{}), c.add(OpKind::kReduceSum, {*w}, ReduceAttrs{})});
}

// Targets known at import must be classes in [0, C) or ignore_index: ONNX calls any other target
// an error, which the gather of the lowering would clamp instead.
void check_const_targets(const NodeCtx& c) {
  if (!c.is_const(1) || c.rank(0) < 2) return;
  const Value& t = c.in(1);
  if (is_floating_point(t.desc.data_type)) c.invalid("the target must be integers, it is " + t.desc.to_string());
  const int64_t classes = c.desc(0).shape[1];
  const bool has_ignore = c.has_attr("ignore_index");
  const int64_t ignore = c.attr_i("ignore_index", 0);
  const uint64_t n = count_of(t.desc.shape);
  for (uint64_t e = 0; e < n; ++e) {
    const int64_t v = host_int64_at(t.desc, *t.data, e);
    if ((!has_ignore || v != ignore) && (v < 0 || v >= classes))
      c.invalid("target " + std::to_string(v) + " (element " + std::to_string(e) + ") is not a class in [0, " +
                std::to_string(classes) + ")" + (has_ignore ? " nor ignore_index " + std::to_string(ignore) : ""));
  }
}

void lower_nll_loss(const NodeCtx& c) {
  check_const_targets(c);
  std::optional<OperandId> weight;
  if (c.has_input(2)) weight = c.operand(2);
  c.set_out(0, nll(c, c.operand(0), c.operand(1), weight, c.attr_s("reduction", "mean")));
}

void lower_softmax_cross_entropy_loss(const NodeCtx& c) {
  check_const_targets(c);
  OperandId x = c.operand(0);
  ReduceAttrs ra;
  ra.axes = std::vector<uint32_t>{1};
  ra.keep_dimensions = true;
  OperandId shifted = c.add(OpKind::kSub, {x, c.add(OpKind::kReduceMax, {x}, ra)});
  OperandId lse = c.add(OpKind::kLog, {c.add(OpKind::kReduceSum, {c.add(OpKind::kExp, {shifted})}, ra)});
  OperandId log_prob = c.add(OpKind::kSub, {shifted, lse});
  std::optional<OperandId> weight;
  if (c.has_input(2)) weight = c.operand(2);
  c.set_out(0, nll(c, log_prob, c.operand(1), weight, c.attr_s("reduction", "mean")));
  c.set_out(1, log_prob);
}

// ---- Constants and generators ----

// Output i as its value: the model's own bytes (a Constant node), which the memory budget does
// not count.
void set_model_out(const NodeCtx& c, size_t i, const OperandDescriptor& desc, BufferRef data, bool is_bool = false) {
  c.im.model_bytes(data);
  c.set_const_out(i, desc, std::move(data), is_bool);
}

void lower_constant(const NodeCtx& c) {
  if (c.has_attr("sparse_value")) c.unsupported("sparse constants");
  if (c.has_attr("value_string") || c.has_attr("value_strings")) c.unsupported("WebNN has no string data type");
  if (const auto* a = c.attr("value")) {
    // Decoded as an initializer is (its type, shape, value count and value range checked). An
    // empty constant (a dimension of 0) is a host value only, as an empty initializer: a Resize's
    // empty roi or scales are read as such, and using one as an operand is refused.
    if (a->t().data_location() == onnx::TensorProto::EXTERNAL) c.unsupported("a Constant with external data");
    Decoded d = decode_tensor(a->t(), nullptr, c.where() + ": value");
    return set_model_out(c, 0, d.desc, std::move(d.data), d.is_bool);
  }
  if (c.has_attr("value_float"))
    return set_model_out(c, 0, {DataType::kFloat32, {}},
                         bytes_of_doubles(DataType::kFloat32, {c.attr_f("value_float", 0)}));
  if (c.has_attr("value_int"))
    return set_model_out(c, 0, {DataType::kInt64, {}}, bytes_of_int64s(DataType::kInt64, {c.attr_i("value_int", 0)}));
  if (c.has_attr("value_floats")) {
    auto f = c.attr_floats("value_floats");
    return set_model_out(c, 0, {DataType::kFloat32, {uint32_t(f.size())}},
                         bytes_of_doubles(DataType::kFloat32, {f.begin(), f.end()}));
  }
  if (c.has_attr("value_ints")) {
    auto v = c.attr_ints("value_ints");
    return set_model_out(c, 0, {DataType::kInt64, {uint32_t(v.size())}}, bytes_of_int64s(DataType::kInt64, v));
  }
  c.invalid("a Constant without a value");
}

// Output i as `desc` filled with `one` (one element of its type): a folded value when it is within
// the fold limit, otherwise `expand` of that one element, so nothing of the output's size is
// allocated at import (ConstantOfShape, Dropout's mask).
void set_filled_out(const NodeCtx& c, size_t i, const OperandDescriptor& desc, const BufferRef& one, bool is_bool) {
  c.check_tensor(desc, "the output");
  if (c.fold_fits(desc) &&
      fold_out(c, i, desc, OpKind::kExpand, {{{desc.data_type, {}}, one}}, ExpandAttrs{desc.shape}, is_bool))
    return;
  const OperandId value = c.constant({desc.data_type, {}}, one);
  c.set_out(i, c.add(OpKind::kExpand, {value}, ExpandAttrs{desc.shape}), is_bool);
}

void lower_constant_of_shape(const NodeCtx& c) {
  auto shape = c.const_ints(0, "shape");
  OperandDescriptor d{DataType::kFloat32, {}};
  for (int64_t s : shape) {
    if (s <= 0) c.unsupported("an empty tensor (a dimension of " + std::to_string(s) + ")");
    if (s > int64_t(kMaxDimension))
      c.unsupported("a dimension of " + std::to_string(s) + ", over WebNN's largest (" + std::to_string(kMaxDimension) +
                    ")");
    d.shape.push_back(uint32_t(s));
  }
  bool is_bool = false;
  BufferRef one = bytes_of_doubles(DataType::kFloat32, {0.0});
  if (const auto* a = c.attr("value")) {
    // One element of any type, decoded (and range-checked) as an initializer is.
    Decoded v = decode_tensor(a->t(), nullptr, c.where() + ": attribute value");
    if (count_of(v.desc.shape) != 1)
      c.invalid("attribute value must hold one element, it holds " + std::to_string(count_of(v.desc.shape)));
    d.data_type = v.desc.data_type;
    is_bool = v.is_bool;
    one = std::move(v.data);
  }
  set_filled_out(c, 0, d, one, is_bool);
}

// OneHot: where(indices (negative ones counted from depth) == the positions along the new axis,
// on value, off value).
void lower_one_hot(const NodeCtx& c) {
  const std::vector<double> depths = c.const_doubles(1, "depth");
  if (depths.size() != 1) c.invalid("depth must hold one value, it holds " + std::to_string(depths.size()));
  // Checked as the number it is before it becomes a dimension: nothing of depth's size is made
  // before, and a depth beyond WebNN's largest dimension is never narrowed into one.
  const double raw = std::trunc(depths[0]);
  if (!(raw >= 1)) c.unsupported("a depth of " + std::to_string(depths[0]) + " (WebNN has no empty tensors)");
  if (raw > double(kMaxDimension))
    c.unsupported("a depth of " + std::to_string(raw) + ", over WebNN's largest dimension (" +
                  std::to_string(kMaxDimension) + ")");
  const uint32_t depth = uint32_t(raw);
  const Shape is = c.desc(0).shape;
  const size_t r = is.size() + 1;
  const uint32_t axis = c.axis(c.attr_i("axis", -1), r);
  if (c.desc(2).shape != Shape{2}) c.invalid("values must hold 2 elements");
  Shape out = is;
  out.insert(out.begin() + axis, depth);
  c.check_tensor({c.type(2), out}, "the output");
  const DataType it = c.type(0);
  // The positions 0 .. depth - 1 along the axis: the one table of depth's size, reserved first.
  const OperandId positions = c.iota(it, r, axis, depth, "the positions 0 to depth - 1");
  OperandId idx = c.operand(0);
  OperandId wrapped = c.add(OpKind::kAdd, {idx, c.scalar(it, double(depth))});
  idx = c.add(OpKind::kWhere, {c.add(OpKind::kLesser, {idx, c.scalar(it, 0)}), wrapped, idx});
  Shape us = is;
  us.insert(us.begin() + axis, 1);
  OperandId hot = c.add(OpKind::kEqual, {c.reshape(idx, us), positions});
  OperandId values = c.operand(2);
  Shape one(r, 1);
  OperandId off = c.reshape(c.add(OpKind::kSlice, {values}, SliceAttrs{{0}, {1}, std::nullopt}), one);
  OperandId on = c.reshape(c.add(OpKind::kSlice, {values}, SliceAttrs{{1}, {1}, std::nullopt}), one);
  c.set_out(0, c.add(OpKind::kWhere, {hot, on, off}));
}

// MeanVarianceNormalization, as ONNX's function defines it: (x - E[x]) / (sqrt(E[x^2] - E[x]^2)
// + 1e-9) over `axes`.
void lower_mvn(const NodeCtx& c) {
  OperandId x = c.operand(0);
  DataType t = c.desc_of(x).data_type;
  auto raw = c.attr_ints("axes");
  if (!c.has_attr("axes")) raw = {0, 2, 3};
  ReduceAttrs ra;
  auto axes = norm_axes(c, raw, c.rank(0));
  std::sort(axes.begin(), axes.end());
  ra.axes = axes;
  ra.keep_dimensions = true;
  OperandId mean = c.add(OpKind::kReduceMean, {x}, ra);
  OperandId mean_sq = c.add(OpKind::kReduceMean, {c.add(OpKind::kMul, {x, x})}, ra);
  OperandId var = c.add(OpKind::kSub, {mean_sq, c.add(OpKind::kMul, {mean, mean})});
  OperandId std_dev = c.add(OpKind::kAdd, {c.add(OpKind::kSqrt, {var}), c.scalar(t, 1e-9)});
  c.set_out(0, c.add(OpKind::kDiv, {c.add(OpKind::kSub, {x, mean}), std_dev}));
}

// Hann, Hamming and Blackman windows: constants of the (known) size.
void lower_window(const NodeCtx& c, int kind) {
  int64_t size = c.const_ints(0, "size").at(0);
  if (size < 1) c.unsupported("an empty window (WebNN has no empty tensors)");
  if (size > int64_t(kMaxFoldElements)) c.unsupported("a window of more than 65536 values");
  bool periodic = c.attr_i("periodic", 1) != 0;
  bool is_bool = false;
  std::string name;
  auto type = webnn_type(int32_t(c.attr_i("output_datatype", onnx::TensorProto::FLOAT)), &is_bool, &name);
  if (!type) c.unsupported("WebNN has no " + name + " data type");
  c.reserve({*type, {uint32_t(size)}}, "the window", 8 * uint64_t(size));
  double n = double(periodic ? size : size - 1);
  const double pi = 3.14159265358979323846;
  std::vector<double> v(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    double a = n > 0 ? 2 * pi * double(i) / n : 0;
    if (kind == 0)
      v[size_t(i)] = 0.5 - 0.5 * std::cos(a);
    else if (kind == 1)
      v[size_t(i)] = 25.0 / 46.0 - (1 - 25.0 / 46.0) * std::cos(a);
    else
      v[size_t(i)] = 0.42 - 0.5 * std::cos(a) + 0.08 * std::cos(2 * a);
  }
  c.set_const_out(0, {*type, {uint32_t(size)}}, bytes_of_doubles(*type, v));
}
void lower_hann_window(const NodeCtx& c) { lower_window(c, 0); }
void lower_hamming_window(const NodeCtx& c) { lower_window(c, 1); }
void lower_blackman_window(const NodeCtx& c) { lower_window(c, 2); }

// EyeLike: a constant, as the input's shape is static.
void lower_eye_like(const NodeCtx& c) {
  const Shape& s = c.desc(0).shape;
  if (s.size() != 2) c.invalid("the input must be 2-D");
  DataType t = c.type(0);
  bool is_bool = c.in(0).is_bool;
  if (c.has_attr("dtype")) {
    std::string name;
    auto type = webnn_type(int32_t(c.attr_i("dtype", 0)), &is_bool, &name);
    if (!type) c.unsupported("WebNN has no " + name + " data type");
    t = *type;
  }
  const int64_t k = c.attr_i("k", 0);
  // A table of the input's size, reserved before it is made.
  c.reserve({t, s}, "the matrix");
  const uint64_t cols = s[1];
  c.set_const_out(0, {t, s},
                  bytes_of_int64s(t, count_of(s),
                                  [&](uint64_t e) {
                                    const int64_t i = int64_t(e / cols), j = int64_t(e % cols);
                                    return int64_t(k >= 0 ? j - i == k : i - j == -k);
                                  }),
                  is_bool);
}

// Range: folded at import, as every value it makes is known then; held to the fold limit like
// every fold (docs/onnx.md, "Folding"), its length checked before anything is allocated.
void lower_range(const NodeCtx& c) {
  const DataType t = c.type(0);
  const bool floats = is_floating_point(t);
  auto scalar_of = [&](size_t i, const char* what) {
    const std::vector<double> v = c.const_doubles(i, what);
    if (v.size() != 1) c.invalid(std::string(what) + " must hold one value, it holds " + std::to_string(v.size()));
    return v[0];
  };
  // The count in double: the difference of two int64 values may overflow int64.
  const double start = scalar_of(0, "start"), limit = scalar_of(1, "limit"), delta = scalar_of(2, "delta");
  if (c.type(1) != t || c.type(2) != t) c.invalid("start, limit and delta must have one type");
  if (delta == 0) c.invalid("delta is 0");
  const double count = std::ceil((limit - start) / delta);
  if (!(count >= 1)) c.unsupported("an empty range (WebNN has no empty tensors)");
  if (!(count <= double(kMaxFoldElements)))
    c.unsupported("a range of " + std::to_string(count) + " values: Range is folded at import, up to " +
                  std::to_string(kMaxFoldElements) + " values (the fold limit)");
  const uint32_t n = uint32_t(count);
  const OperandDescriptor d{t, {n}};
  if (!c.fold_fits(d)) c.unsupported("a range of " + std::to_string(n) + " values");
  if (floats) {
    std::vector<double> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = start + double(i) * delta;
    return c.set_const_out(0, d, bytes_of_doubles(t, v));
  }
  // Exact in int64, wrapping arithmetic where an intermediate product leaves int64 (each value
  // itself lies between start and limit).
  const int64_t s0 = c.const_ints(0, "start").at(0), step = c.const_ints(2, "delta").at(0);
  c.set_const_out(0, d, bytes_of_int64s(t, n, [&](uint64_t i) { return int64_t(uint64_t(s0) + i * uint64_t(step)); }));
}

void lower_dropout(const NodeCtx& c) {
  if (c.opset >= 12 && c.has_input(2)) {
    if (!c.is_const(2) || c.const_ints(2, "training_mode").at(0) != 0)
      c.unsupported("training mode is outside the WebNN specification");
  }
  if (c.opset < 7 && c.attr_i("is_test", 0) == 0) c.unsupported("training mode (is_test = 0)");
  // The mask of inference mode: all true.
  if (c.wants_output(1))
    set_filled_out(c, 1, {DataType::kUint8, c.desc(0).shape}, bytes_of_int64s(DataType::kUint8, {1}), true);
  reshaped(c, c.desc(0).shape);
}

void lower_sum(const NodeCtx& c) { variadic<OpKind::kAdd>(c); }

const std::unordered_map<std::string_view, Lowering>& lowerings() {
  static const std::unordered_map<std::string_view, Lowering> table = {
      // Element-wise
      {"Abs", unary<OpKind::kAbs>},
      {"Ceil", unary<OpKind::kCeil>},
      {"Cos", unary<OpKind::kCos>},
      {"Erf", unary<OpKind::kErf>},
      {"Exp", unary<OpKind::kExp>},
      {"Floor", unary<OpKind::kFloor>},
      {"Log", unary<OpKind::kLog>},
      {"Neg", unary<OpKind::kNeg>},
      {"Reciprocal", unary<OpKind::kReciprocal>},
      {"Round", unary<OpKind::kRoundEven>},
      {"Sin", unary<OpKind::kSin>},
      {"Sign", unary<OpKind::kSign>},
      {"Sqrt", unary<OpKind::kSqrt>},
      {"Tan", unary<OpKind::kTan>},
      {"Relu", unary<OpKind::kRelu>},
      {"Sigmoid", unary<OpKind::kSigmoid>},
      {"Tanh", unary<OpKind::kTanh>},
      {"Softplus", unary<OpKind::kSoftplus>},
      {"Softsign", unary<OpKind::kSoftsign>},
      {"HardSwish", unary<OpKind::kHardSwish>},
      {"IsNaN", logical<OpKind::kIsNaN>},
      {"IsInf", lower_isinf},
      {"Sinh", lower_sinh},
      {"Cosh", lower_cosh},
      {"Asinh", lower_asinh},
      {"Acosh", lower_acosh},
      {"Atanh", lower_atanh},
      {"Atan", lower_inverse_trig<0>},
      {"Asin", lower_inverse_trig<1>},
      {"Acos", lower_inverse_trig<2>},
      {"Elu", lower_elu},
      {"LeakyRelu", lower_leaky_relu},
      {"HardSigmoid", lower_hard_sigmoid},
      {"Selu", lower_selu},
      {"Celu", lower_celu},
      {"ThresholdedRelu", lower_thresholded_relu},
      {"Shrink", lower_shrink},
      {"Mish", lower_mish},
      {"PRelu", lower_prelu},
      {"Add", binary<OpKind::kAdd>},
      {"Sub", binary<OpKind::kSub>},
      {"Mul", binary<OpKind::kMul>},
      {"Div", binary<OpKind::kDiv>},
      {"Pow", binary<OpKind::kPow>},
      {"Max", variadic<OpKind::kMax>},
      {"Min", variadic<OpKind::kMin>},
      {"Sum", lower_sum},
      {"Mean", lower_mean},
      {"Mod", lower_mod},
      {"BitShift", lower_bit_shift},
      {"TfIdfVectorizer", lower_tfidf_vectorizer},
      {"Equal", compare<OpKind::kEqual>},
      {"Greater", compare<OpKind::kGreater>},
      {"GreaterOrEqual", compare<OpKind::kGreaterOrEqual>},
      {"Less", compare<OpKind::kLesser>},
      {"LessOrEqual", compare<OpKind::kLesserOrEqual>},
      {"And", logical<OpKind::kLogicalAnd>},
      {"Or", logical<OpKind::kLogicalOr>},
      {"Xor", logical<OpKind::kLogicalXor>},
      {"Not", lower_not},
      {"Where", lower_where},
      {"Cast", lower_cast},
      {"CastLike", lower_cast_like},
      {"Clip", lower_clip},
      {"Identity", lower_identity},
      {"Dropout", lower_dropout},
      // Convolution, pooling, normalization
      {"Conv", lower_conv},
      {"ConvTranspose", lower_conv_transpose},
      {"MaxPool", lower_max_pool},
      {"AveragePool", lower_average_pool},
      {"LpPool", lower_lp_pool},
      {"GlobalAveragePool", lower_global_average_pool},
      {"GlobalMaxPool", lower_global_max_pool},
      {"GlobalLpPool", lower_global_lp_pool},
      {"BatchNormalization", lower_batch_norm},
      {"InstanceNormalization", lower_instance_norm},
      {"LayerNormalization", lower_layer_norm},
      {"LRN", lower_lrn},
      {"Gemm", lower_gemm},
      {"MatMul", lower_matmul},
      {"Einsum", lower_einsum},
      {"Det", lower_det},
      {"Softmax", lower_softmax},
      {"Hardmax", lower_hardmax},
      {"EyeLike", lower_eye_like},
      {"OneHot", lower_one_hot},
      {"MeanVarianceNormalization", lower_mvn},
      {"HannWindow", lower_hann_window},
      {"HammingWindow", lower_hamming_window},
      {"BlackmanWindow", lower_blackman_window},
      {"NegativeLogLikelihoodLoss", lower_nll_loss},
      {"SoftmaxCrossEntropyLoss", lower_softmax_cross_entropy_loss},
      {"LogSoftmax", lower_log_softmax},
      // Reductions
      {"ReduceL1", reduce<OpKind::kReduceL1>},
      {"ReduceL2", reduce<OpKind::kReduceL2>},
      {"ReduceLogSum", reduce<OpKind::kReduceLogSum>},
      {"ReduceLogSumExp", reduce<OpKind::kReduceLogSumExp>},
      {"ReduceMax", reduce<OpKind::kReduceMax>},
      {"ReduceMean", reduce<OpKind::kReduceMean>},
      {"ReduceMin", reduce<OpKind::kReduceMin>},
      {"ReduceProd", reduce<OpKind::kReduceProduct>},
      {"ReduceSum", reduce<OpKind::kReduceSum>},
      {"ReduceSumSquare", reduce<OpKind::kReduceSumSquare>},
      {"ArgMax", arg_reduce<OpKind::kArgMax>},
      {"ArgMin", arg_reduce<OpKind::kArgMin>},
      {"CumSum", lower_cumsum},
      // Shape and movement
      {"Shape", lower_shape},
      {"Size", lower_size},
      {"Reshape", lower_reshape},
      {"Flatten", lower_flatten},
      {"Squeeze", lower_squeeze},
      {"Unsqueeze", lower_unsqueeze},
      {"Transpose", lower_transpose},
      {"Concat", lower_concat},
      {"Split", lower_split},
      {"Slice", lower_slice},
      {"Pad", lower_pad},
      {"Expand", lower_expand},
      {"Tile", lower_tile},
      {"Gather", lower_gather},
      {"GatherElements", lower_gather_elements},
      {"ScatterElements", lower_scatter_elements},
      {"Scatter", lower_scatter_elements},
      {"ScatterND", lower_scatter_nd},
      {"DepthToSpace", lower_depth_to_space},
      {"SpaceToDepth", lower_space_to_depth},
      {"Trilu", lower_trilu},
      {"Resize", lower_resize},
      {"Upsample", lower_upsample},
      {"GridSample", lower_grid_sample},
      // Quantization, recurrent
      {"QuantizeLinear", lower_quantize_linear},
      {"DequantizeLinear", lower_dequantize_linear},
      {"GRU", lower_gru},
      {"RNN", lower_rnn},
      {"LSTM", lower_lstm},
      // Quantized and index compositions (import_quantized.cpp)
      {"DynamicQuantizeLinear", lower_dynamic_quantize_linear},
      {"QLinearMatMul", lower_qlinear_matmul},
      {"QLinearConv", lower_qlinear_conv},
      {"MatMulInteger", lower_matmul_integer},
      {"ConvInteger", lower_conv_integer},
      {"MaxUnpool", lower_max_unpool},
      {"ReverseSequence", lower_reverse_sequence},
      {"GatherND", lower_gather_nd},
      // Constants and generators
      {"Constant", lower_constant},
      {"ConstantOfShape", lower_constant_of_shape},
      {"Range", lower_range},
      // Signal processing, TopK and RoiAlign (import_signal.cpp)
      {"DFT", lower_dft},
      {"STFT", lower_stft},
      {"MelWeightMatrix", lower_mel_weight_matrix},
      {"TopK", lower_top_k},
      {"RoiAlign", lower_roi_align},
  };
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
