// ONNX import: element-wise operators onto WebNN's element-wise operations (src/ops/elementwise.cpp):
// arithmetic, casts, clamps and activations, and the functions WebNN lacks (hyperbolic and inverse
// trigonometric functions, Mod, BitShift, the bitwise operators) as compositions of them. Identity
// and Dropout add no operation.
#include <algorithm>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

void lower_mean(const NodeCtx& c) {
  OperandId acc = c.operand(0);
  for (size_t i = 1; i < c.input_count(); ++i) acc = c.add(OpKind::kAdd, {acc, c.operand(i)});
  DataType t = c.desc_of(acc).data_type;
  c.set_out(0, c.add(OpKind::kDiv, {acc, c.scalar(t, double(c.input_count()))}));
}

void lower_sum(const NodeCtx& c) { lower_variadic(c, OpKind::kAdd); }

void lower_cast_to(const NodeCtx& c, int32_t to) {
  const Value& x = c.in(0);
  if (to == onnx::TensorProto::DOUBLE && !x.is_bool && !x.items &&
      (x.desc.data_type == DataType::kFloat32 || x.desc.data_type == DataType::kFloat16)) {
    // float32 and float16 widen to double exactly: the value stays this operand, marked a double
    // (Value::widened), which only the operators that compute the same on it take.
    Value v = x;
    v.widened = true;
    v.graph_input.clear();
    return c.set_value_out(0, std::move(v));
  }
  bool is_bool = false;
  std::string name;
  auto type = webnn_type(to, &is_bool, &name);
  if (!type) c.unsupported("WebNN has no " + name + " data type");
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
  const int32_t to = t.widened   ? onnx::TensorProto::DOUBLE
                     : t.is_bool ? onnx::TensorProto::BOOL
                                 : onnx_type(t.desc.data_type);
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

// ---- Activations ----

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

// ---- Functions WebNN lacks ----

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

// BitwiseAnd, BitwiseOr, BitwiseXor and BitwiseNot (opset 18; WebNN has no bit operations) as
// arithmetic on each bit. A new last axis as wide as the type holds bit k of each element,
// x / 2^k − 2 · (x / 2^(k+1)) by unsigned division, which truncates; the bits combine as a · b,
// a + b − a · b, a + b − 2 · a · b or 1 − a, and their sum weighted by 2^k (no two weights overlap,
// so the sum never carries) is the result. Signed types are cast to the unsigned type of their
// width and back, which WebNN's cast wraps (−1 of int8 is 255 of uint8, the spec's own example);
// 8-bit values are summed as uint32 (reduceSum takes no 8-bit type). The bits take the type's
// width times the input's memory at run time.
void lower_bitwise(const NodeCtx& c) {
  const DataType t = c.type(0);
  const std::string& op = c.op_type();
  const bool unary = op == "BitwiseNot";
  if (!unary && c.type(1) != t) c.invalid("A and B must have one type");
  DataType work = DataType::kUint32;  // the unsigned type the bits are taken in
  uint32_t bits = 32;
  switch (t) {
    case DataType::kInt8:
    case DataType::kUint8:
      bits = 8;
      break;
    case DataType::kInt32:
    case DataType::kUint32:
      break;
    case DataType::kInt64:
    case DataType::kUint64:
      work = DataType::kUint64;
      bits = 64;
      break;
    default:
      c.unsupported(op + " of " + onnx_type_name(onnx_type(t)) + " (integer types only)");
  }
  std::vector<int64_t> powers(bits);  // 2^k, as the work type's bits
  for (uint32_t k = 0; k < bits; ++k) powers[k] = int64_t(uint64_t{1} << k);
  const OperandId weights = c.constant({work, {bits}}, bytes_of_int64s(work, powers));
  const OperandId two = c.scalar(work, 2);
  // Bit k of input i along a new last axis (0 or 1, of the work type).
  auto bits_of = [&](size_t i) {
    OperandId x = c.operand(i);
    if (t == DataType::kInt8) x = c.cast(x, DataType::kUint8);  // wraps, then widens exactly
    x = c.cast(x, work);
    Shape shape = c.desc_of(x).shape;
    shape.push_back(1);
    const OperandId quotient = c.add(OpKind::kDiv, {c.reshape(x, shape), weights});
    const OperandId half = c.add(OpKind::kDiv, {quotient, two});
    return c.add(OpKind::kSub, {quotient, c.add(OpKind::kMul, {half, two})});
  };
  const OperandId a = bits_of(0);
  const OperandId r = [&] {
    if (unary) return c.add(OpKind::kSub, {c.scalar(work, 1), a});
    const OperandId b = bits_of(1), both = c.add(OpKind::kMul, {a, b});
    if (op == "BitwiseAnd") return both;
    const OperandId sum = c.add(OpKind::kAdd, {a, b});
    if (op == "BitwiseOr") return c.add(OpKind::kSub, {sum, both});
    return c.add(OpKind::kSub, {sum, c.add(OpKind::kMul, {both, two})});  // BitwiseXor
  }();
  ReduceAttrs sum;
  sum.axes = std::vector<uint32_t>{uint32_t(c.desc_of(r).shape.size() - 1)};
  OperandId out = c.add(OpKind::kReduceSum, {c.add(OpKind::kMul, {r, weights})}, sum);
  if (t == DataType::kInt8) out = c.cast(c.cast(out, DataType::kUint8), DataType::kInt8);
  c.set_out(0, c.cast(out, t));
}

void lower_dropout(const NodeCtx& c) {
  if (c.opset >= 12 && c.has_input(2)) {
    // Training mode drops at random, outside the WebNN specification, unless the ratio is 0: then
    // nothing is dropped and the scale 1 / (1 - ratio) is 1 (PyTorch writes training_mode = true
    // with p = 0 for a functional dropout).
    const bool training = !c.is_const(2) || c.const_ints(2, "training_mode").at(0) != 0;
    const bool drops = !c.has_input(1) || !c.is_const(1) || c.const_doubles(1, "ratio").at(0) != 0;
    if (training && drops) c.unsupported("training mode is outside the WebNN specification");
  }
  if (c.opset < 7 && c.attr_i("is_test", 0) == 0) c.unsupported("training mode (is_test = 0)");
  // The mask of inference mode: all true.
  if (c.wants_output(1))
    set_filled_out(c, 1, {DataType::kUint8, c.desc(0).shape}, bytes_of_int64s(DataType::kUint8, {1}), true);
  reshaped(c, c.desc(0).shape);
}

}  // namespace

void lower_unary(const NodeCtx& c, OpKind kind) {
  // Small constants fold where the op is correctly rounded (Relu is exact), so that the folded value
  // is what every backend computes.
  const bool folds = kind == OpKind::kNeg || kind == OpKind::kAbs || kind == OpKind::kFloor || kind == OpKind::kCeil ||
                     kind == OpKind::kSign || kind == OpKind::kSqrt || kind == OpKind::kReciprocal ||
                     kind == OpKind::kRelu;
  if (folds && foldable(c) && count_of(c.desc(0).shape) > 0 && c.fold_fits(c.desc(0)) &&
      fold_out(c, 0, c.desc(0), kind, {host_tensor(c.in(0))}, NoAttrs{}))
    return;
  c.set_out(0, c.add(kind, {c.operand(0)}));
}

void lower_binary(const NodeCtx& c, OpKind kind) {
  if (c.input_count() != 2) c.invalid("expects 2 inputs");
  const bool folds = kind == OpKind::kAdd || kind == OpKind::kSub || kind == OpKind::kMul || kind == OpKind::kDiv ||
                     kind == OpKind::kMax || kind == OpKind::kMin;
  if (folds && fold_binary(c, kind)) return;
  OperandId a = c.operand(0), b = c.operand(1);
  if (kind == OpKind::kPow) b = c.cast(b, c.desc_of(a).data_type);  // ONNX allows another exponent type
  c.set_out(0, c.add(kind, {a, b}));
}

void lower_variadic(const NodeCtx& c, OpKind kind) {
  if (c.input_count() == 2 && kind != OpKind::kAdd) return lower_binary(c, kind);
  OperandId acc = c.operand(0);
  for (size_t i = 1; i < c.input_count(); ++i) acc = c.add(kind, {acc, c.operand(i)});
  if (c.input_count() == 1) acc = c.add(OpKind::kIdentity, {acc});
  c.set_out(0, acc);
}

Lowerings elementwise_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
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
      {"Sum", lower_sum},
      {"Mean", lower_mean},
      {"Mod", lower_mod},
      {"BitShift", lower_bit_shift},
      {"BitwiseAnd", lower_bitwise},
      {"BitwiseOr", lower_bitwise},
      {"BitwiseXor", lower_bitwise},
      {"BitwiseNot", lower_bitwise},
      {"Cast", lower_cast},
      {"CastLike", lower_cast_like},
      {"Clip", lower_clip},
      {"Dropout", lower_dropout},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
