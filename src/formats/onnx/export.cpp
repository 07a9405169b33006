// ONNX export: the op -> ONNX mapping, one function per op family, reached from the op table
// (graph/op_table.def), so an op the mapping lacks is a NotSupportedError naming it. docs/onnx.md
// describes every mapping and decomposition; the ONNX operator documentation of opset 17 is the
// reference for the ONNX side.
#include "formats/onnx/export.hpp"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <numeric>

#include "formats/internal.hpp"
#include "formats/onnx/onnx_graph_builder.hpp"
#include "formats/onnx/op_map.hpp"

namespace webnn::formats {

namespace {

using namespace onnx_export;

// IR version 8 is the one ONNX 1.12 writes and the lowest that opset 17 allows.
constexpr int64_t kIrVersion = 8;

const std::vector<uint32_t> kToNchw = {0, 3, 1, 2};
const std::vector<uint32_t> kToNhwc = {0, 2, 3, 1};

class Exporter;

// What an op's mapping works with: its operands as ONNX values and the builder.
struct OpExport {
  Exporter& ex;
  OnnxGraphBuilder& b;
  const Graph& graph;
  const Operation& op;

  Val in(size_t i) const;
  Val operand(OperandId id) const;
  std::optional<Val> option(const std::optional<OperandRef>& ref) const {
    return ref ? std::optional<Val>(operand(ref->id)) : std::nullopt;
  }
  const OperandDescriptor& in_desc(size_t i) const { return graph.desc(op.inputs.at(i)); }
  // The value the op's output `i` must be written to.
  Val out(size_t i) const;
  [[noreturn]] void unsupported(const std::string& why) const {
    throw_error(ErrorKind::kNotSupportedError, "ONNX export: " + describe(op) + ": " + why);
  }
};

class Exporter {
 public:
  Exporter(const Graph& graph, onnx::GraphProto& proto) : graph_(graph), proto_(proto), b_(proto) {}
  void run();
  Val operand(OperandId id);
  Val result(OperandId id) const;
  OnnxGraphBuilder& builder() { return b_; }

 private:
  void add_value_info(onnx::ValueInfoProto* info, const std::string& name, const OperandDescriptor& desc);
  const Graph& graph_;
  onnx::GraphProto& proto_;
  OnnxGraphBuilder b_;
  std::vector<std::string> names_;  // per operand: its ONNX value name, empty until named
};

Val OpExport::in(size_t i) const { return ex.operand(op.inputs.at(i)); }
Val OpExport::operand(OperandId id) const { return ex.operand(id); }
Val OpExport::out(size_t i) const { return ex.result(op.outputs.at(i)); }

std::vector<uint32_t> iota_axes(size_t rank) {
  std::vector<uint32_t> axes(rank);
  std::iota(axes.begin(), axes.end(), 0u);
  return axes;
}

// ---------------------------------------------------------------------------------------------
// The one-to-one operators (op_map.def): each WebNN op written as its ONNX op, by the pair's form.
// A family's mapping handles the cases it decomposes first (integer Div and Pow, ...), then falls
// back on export_pair.
// ---------------------------------------------------------------------------------------------

// The reductions: ONNX reads empty axes as "all axes", and takes them as an input from opset 13
// (ReduceSum) or 18 (the others).
void export_reduce(OpExport& c, std::string_view onnx_op) {
  OnnxGraphBuilder& b = c.b;
  const auto& a = std::get<ReduceAttrs>(c.op.attrs);
  const Val x = c.in(0), out = c.out(0);
  const std::vector<uint32_t>& axes = *a.axes;
  if (axes.empty()) {
    // Nothing to reduce (explicit empty axes, or a scalar): the reduction of each value on its own.
    // ONNX would read empty axes as "all axes".
    switch (c.op.kind) {
      case OpKind::kReduceL1:
      case OpKind::kReduceL2:
        b.unary("Abs", x, &out);
        return;
      case OpKind::kReduceLogSum:
        b.unary("Log", x, &out);
        return;
      case OpKind::kReduceSumSquare:
        b.binary("Mul", x, x, &out);
        return;
      default:
        b.identity(x, &out);
        return;
    }
  }
  const int64_t keep = a.keep_dimensions ? 1 : 0;
  if (c.op.kind == OpKind::kReduceSum) {  // axes is an input of ReduceSum from opset 13, of the others from 18
    b.apply(onnx_op, {x, b.int64s(to_int64s(axes))}, out.type, out.shape, {attr_i("keepdims", keep)}, &out);
    return;
  }
  b.apply(onnx_op, {x}, out.type, out.shape, {attr_ints("axes", to_int64s(axes)), attr_i("keepdims", keep)}, &out);
}

// IsNaN and IsInf: an integer is never NaN or infinite; a float's answer (ONNX bool) becomes uint8.
// `widen` casts float16 to float32 first (IsInf takes float16 only from opset 20; it keeps
// infinities).
void export_predicate(OpExport& c, std::string_view onnx_op, bool widen) {
  OnnxGraphBuilder& b = c.b;
  const Val x = c.in(0), out = c.out(0);
  if (!is_float_type(x.type)) {
    b.expand(b.scalar(kU8, 0), out.shape, &out);
    return;
  }
  b.cast(b.unary(onnx_op, widen ? b.cast(x, kF32) : x), kU8, &out);
}

// Writes the op as its ONNX pair, if it has one (false otherwise).
bool export_pair(OpExport& c) {
  const OnnxOpPair* pair = onnx_pair_of(c.op.kind);
  if (!pair) return false;
  OnnxGraphBuilder& b = c.b;
  const Val out = c.out(0);
  auto as_bool = [&](size_t i) { return b.cast(c.in(i), kBool); };
  switch (pair->form) {
    case OnnxForm::kUnary:
    case OnnxForm::kPassThrough:
      b.unary(pair->onnx, c.in(0), &out);
      break;
    case OnnxForm::kBinary:
    case OnnxForm::kVariadic:
      b.binary(pair->onnx, c.in(0), c.in(1), &out);
      break;
    case OnnxForm::kCompare:
      b.cast(b.binary(pair->onnx, c.in(0), c.in(1)), kU8, &out);
      break;
    case OnnxForm::kLogical:
      if (c.op.inputs.size() == 1)
        b.cast(b.unary(pair->onnx, as_bool(0)), kU8, &out);
      else
        b.cast(b.binary(pair->onnx, as_bool(0), as_bool(1)), kU8, &out);
      break;
    case OnnxForm::kPredicate:
      export_predicate(c, pair->onnx, false);
      break;
    case OnnxForm::kSelect:
      b.where(as_bool(0), c.in(1), c.in(2), &out);
      break;
    case OnnxForm::kReduce:
      export_reduce(c, pair->onnx);
      break;
    case OnnxForm::kArgReduce: {
      // Ties: the first index, as the reference picks (select_last_index = 0). ONNX gives int64.
      const auto& a = std::get<ArgMinMaxAttrs>(c.op.attrs);
      const Val index = b.apply(
          pair->onnx, {c.in(0)}, kI64, out.shape,
          {attr_i("axis", a.axis), attr_i("keepdims", a.keep_dimensions ? 1 : 0), attr_i("select_last_index", 0)});
      b.cast(index, out.type, &out);
      break;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Element-wise arithmetic, math and activations
// ---------------------------------------------------------------------------------------------

// Integer division with the reference's defined corners (docs/operators.md): x / 0 = 0 and
// INT_MIN / -1 = INT_MIN, where ONNX Runtime would trap. The divisor is made safe first.
void export_integer_div(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Val a = c.in(0), d = c.in(1), out = c.out(0);
  const bool is_signed = is_signed_int_type(a.type);
  const Val zero = b.scalar(a.type, 0), one = b.scalar(a.type, 1);
  const Val is_zero = b.binary("Equal", d, zero);
  Val unsafe = is_zero, is_minus_one;
  if (is_signed) {
    is_minus_one = b.binary("Equal", d, b.scalar(a.type, -1));
    unsafe = b.binary("Or", is_zero, is_minus_one);
  }
  Val q = b.binary("Div", a, b.where(unsafe, one, d));
  if (is_signed) q = b.where(is_minus_one, b.binary("Sub", zero, a), q);  // -a wraps for INT_MIN
  b.where(is_zero, zero, q, &out);
}

// Integer pow exactly, wrapping modulo 2^N like the reference: square-and-multiply over the
// exponent's bits (ONNX Pow has no 8-bit or unsigned integers, and ONNX Runtime evaluates integer
// Pow through double). A negative exponent truncates 1 / a^|b| toward zero.
void export_integer_pow(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Val a = c.in(0), e = c.in(1), out = c.out(0);
  const ElemType t = a.type;
  const bool is_signed = is_signed_int_type(t);
  const int bits = static_cast<int>(onnx_element_size(t)) * 8 - (is_signed ? 1 : 0);
  const Val zero = b.scalar(t, 0), one = b.scalar(t, 1), two = b.scalar(t, 2);
  Val base = b.expand(a, out.shape);
  Val exponent = b.expand(e, out.shape);
  if (is_signed) exponent = b.where(b.binary("Less", exponent, zero), zero, exponent);  // not Max: see clamp_by_where
  Val result = b.expand(one, out.shape);
  for (int i = 0; i < bits; ++i) {
    const Val bit = b.cast(b.binary("Mod", exponent, two), kBool);
    result = b.where(bit, b.binary("Mul", result, base), result);
    if (i + 1 < bits) {
      base = b.binary("Mul", base, base);
      exponent = b.binary("Div", exponent, two);
    }
  }
  if (!is_signed) {
    b.identity(result, &out);
    return;
  }
  // a^-n: 1 for a = 1, +-1 for a = -1 (by the parity of n), else 0.
  const Val minus_one = b.scalar(t, -1);
  const Val even = b.binary("Equal", b.binary("Mod", e, two), zero);
  const Val for_minus_one = b.where(even, one, minus_one);
  const Val negative_power =
      b.where(b.binary("Equal", a, one), one, b.where(b.binary("Equal", a, minus_one), for_minus_one, zero));
  b.where(b.binary("Less", e, zero), b.expand(negative_power, out.shape), result, &out);
}

// gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2))): ONNX has no Gelu before opset 20.
void export_gelu(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Val x = c.in(0), out = c.out(0);
  const Val erf = b.unary("Erf", b.binary("Div", x, b.scalar(x.type, std::sqrt(2.0))));
  const Val one_plus = b.binary("Add", erf, b.scalar(x.type, 1.0));
  b.binary("Mul", b.binary("Mul", x, b.scalar(x.type, 0.5)), one_plus, &out);
}

// prelu(x, slope) = max(0, x) + slope * min(0, x). ONNX PRelu when slope broadcasts to x's shape
// and the type is one it takes; otherwise that formula (it is exact for integers too).
void export_prelu(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Val x = c.in(0), slope = c.in(1), out = c.out(0);
  if (out.shape == x.shape && x.type != kI8) {
    b.apply("PRelu", {x, slope}, x.type, x.shape, {}, &out);
    return;
  }
  const Val zero = b.scalar(x.type, 0);
  b.binary("Add", b.binary("Max", x, zero), b.binary("Mul", slope, b.binary("Min", x, zero)), &out);
}

void export_elementwise(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Operation& op = c.op;
  const Val out = c.out(0);
  auto unary = [&](const char* onnx_op, Attrs attrs = {}) { b.unary(onnx_op, c.in(0), &out, std::move(attrs)); };
  switch (op.kind) {
    case OpKind::kDiv:
      if (!is_float_type(out.type)) return export_integer_div(c);
      break;
    case OpKind::kPow:
      if (!is_float_type(out.type)) return export_integer_pow(c);
      break;
    case OpKind::kSign:
      if (!is_float_type(out.type)) break;
      // WebNN's sign is 0 for NaN ("0 otherwise"); ONNX leaves Sign(NaN) unspecified.
      b.where(b.unary("IsNaN", c.in(0)), b.scalar(out.type, 0), b.unary("Sign", c.in(0)), &out);
      return;
    case OpKind::kGelu:
      return export_gelu(c);
    case OpKind::kElu:
      return unary("Elu", {attr_f("alpha", std::get<EluAttrs>(op.attrs).alpha)});
    case OpKind::kHardSigmoid: {
      const auto& a = std::get<HardSigmoidAttrs>(op.attrs);
      return unary("HardSigmoid", {attr_f("alpha", a.alpha), attr_f("beta", a.beta)});
    }
    case OpKind::kLeakyRelu:
      return unary("LeakyRelu", {attr_f("alpha", std::get<LeakyReluAttrs>(op.attrs).alpha)});
    case OpKind::kLinear: {
      const auto& a = std::get<LinearAttrs>(op.attrs);
      const Val x = c.in(0);
      b.binary("Add", b.binary("Mul", x, b.scalar(x.type, a.alpha)), b.scalar(x.type, a.beta), &out);
      return;
    }
    case OpKind::kPrelu:
      return export_prelu(c);
    case OpKind::kClamp: {
      // Clip takes every numeric type since opset 13; the bounds are cast as the spec casts them.
      const auto& a = std::get<ClampAttrs>(op.attrs);
      const Val x = c.in(0);
      b.apply("Clip", {x, b.scalar(x.type, a.min_value), b.scalar(x.type, a.max_value)}, x.type, x.shape, {}, &out);
      return;
    }
    case OpKind::kCast:
      b.cast(c.in(0), out.type, &out);
      return;
    default:
      break;
  }
  if (!export_pair(c)) c.unsupported("not an element-wise operator");
}

// ---------------------------------------------------------------------------------------------
// Comparison, logical and selection: ONNX computes bool where WebNN has uint8 0/1.
// ---------------------------------------------------------------------------------------------

void export_logical(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Operation& op = c.op;
  const Val out = c.out(0);
  switch (op.kind) {
    case OpKind::kNotEqual:  // NaN != NaN is true, as Not(Equal) gives
      b.cast(b.unary("Not", b.binary("Equal", c.in(0), c.in(1))), kU8, &out);
      return;
    case OpKind::kIsInfinite:
      return export_predicate(c, "IsInf", true);
    default:
      break;
  }
  if (!export_pair(c)) c.unsupported("not a comparison, logical or selection operator");
}

// ---------------------------------------------------------------------------------------------
// Convolution: ONNX Conv/ConvTranspose are NCHW with OIHW / IOHW filters; other layouts are
// transposed (constant filters once, at export time).
// ---------------------------------------------------------------------------------------------

// ONNX pads are [begin_h, begin_w, end_h, end_w]; WebNN's [begin_h, end_h, begin_w, end_w].
std::vector<int64_t> onnx_pads(const std::vector<uint32_t>& p) { return {p[0], p[2], p[1], p[3]}; }

void export_conv(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Operation& op = c.op;
  const Val out = c.out(0);
  Val x = c.in(0);
  Attrs attrs;
  std::vector<Val> inputs;
  bool nhwc = false;
  const char* onnx_op = nullptr;
  if (op.kind == OpKind::kConv2d) {
    const auto& a = std::get<Conv2dAttrs>(op.attrs);
    nhwc = a.input_layout == InputLayout::kNhwc;
    static const std::vector<uint32_t> kFilterToOihw[] = {
        {0, 1, 2, 3},  // oihw
        {3, 2, 0, 1},  // hwio
        {0, 3, 1, 2},  // ohwi
        {3, 0, 1, 2},  // ihwo
    };
    const Val w = b.transpose(c.in(1), kFilterToOihw[static_cast<size_t>(a.filter_layout)]);
    inputs = {nhwc ? b.transpose(x, kToNchw) : x, w};
    if (auto bias = c.option(a.bias)) inputs.push_back(*bias);
    attrs = {attr_ints("kernel_shape", {w.shape[2], w.shape[3]}), attr_ints("pads", onnx_pads(*a.padding)),
             attr_ints("strides", to_int64s(*a.strides)), attr_ints("dilations", to_int64s(*a.dilations)),
             attr_i("group", a.groups)};
    onnx_op = "Conv";
  } else if (op.kind == OpKind::kConvTranspose2d) {
    const auto& a = std::get<ConvTranspose2dAttrs>(op.attrs);
    nhwc = a.input_layout == InputLayout::kNhwc;
    static const std::vector<uint32_t> kFilterToIohw[] = {
        {0, 1, 2, 3},  // iohw
        {3, 2, 0, 1},  // hwoi
        {3, 0, 1, 2},  // ohwi
    };
    const Val w = b.transpose(c.in(1), kFilterToIohw[static_cast<size_t>(a.filter_layout)]);
    const Val xn = nhwc ? b.transpose(x, kToNchw) : x;
    inputs = {xn, w};
    if (auto bias = c.option(a.bias)) inputs.push_back(*bias);
    const std::vector<uint32_t>& pads = *a.padding;
    const std::vector<uint32_t>& strides = *a.strides;
    const std::vector<uint32_t>& dilations = *a.dilations;
    // outputSizes becomes the output_padding that gives those sizes: ONNX's output_shape
    // attribute would recompute the pads.
    const ImageDims out_dims = image_dims(out.shape, a.input_layout);
    const int64_t out_size[2] = {out_dims.height, out_dims.width};
    std::vector<int64_t> output_padding(2);
    for (size_t i = 0; i < 2; ++i) {
      const int64_t natural = int64_t(strides[i]) * (int64_t(xn.shape[2 + i]) - 1) +
                              (int64_t(w.shape[2 + i]) - 1) * dilations[i] + 1 - pads[2 * i] - pads[2 * i + 1];
      output_padding[i] = out_size[i] - natural;
      if (output_padding[i] < 0) c.unsupported("the output size is smaller than the padding allows");
    }
    attrs = {attr_ints("kernel_shape", {w.shape[2], w.shape[3]}),
             attr_ints("pads", onnx_pads(pads)),
             attr_ints("strides", to_int64s(strides)),
             attr_ints("dilations", to_int64s(dilations)),
             attr_ints("output_padding", output_padding),
             attr_i("group", a.groups)};
    onnx_op = "ConvTranspose";
  } else {
    c.unsupported("not a convolution operator");
  }
  if (!nhwc) {
    b.apply(onnx_op, inputs, out.type, out.shape, std::move(attrs), &out);
    return;
  }
  const Shape nchw = {out.shape[0], out.shape[3], out.shape[1], out.shape[2]};
  b.transpose(b.apply(onnx_op, inputs, out.type, nchw, std::move(attrs)), kToNhwc, &out);
}

// ---------------------------------------------------------------------------------------------
// Pooling. The reference excludes padding (and the overhang of "ceil" rounding or outputSizes)
// from every window. ONNX gets explicit end pads that give the output size in floor mode, with
// count_include_pad=0, so the overhang is padding that no window counts.
// ---------------------------------------------------------------------------------------------

struct PoolGeometry {
  int64_t in[2], out[2], window[2], stride[2], dilation[2], pad_begin[2], pad_end[2];
  bool dilated() const { return dilation[0] != 1 || dilation[1] != 1; }
  std::vector<int64_t> onnx_pads() const { return {pad_begin[0], pad_begin[1], pad_end[0], pad_end[1]}; }
  std::vector<int64_t> kernel() const { return {window[0], window[1]}; }
  std::vector<int64_t> strides() const { return {stride[0], stride[1]}; }
  std::vector<int64_t> dilations() const { return {dilation[0], dilation[1]}; }
};

PoolGeometry pool_geometry(const Pool2dAttrs& a, const Shape& in_nchw, const Shape& out_nchw) {
  PoolGeometry g{};
  const std::vector<uint32_t>& window = *a.window_dimensions;
  const std::vector<uint32_t>& padding = *a.padding;
  const std::vector<uint32_t>& strides = *a.strides;
  const std::vector<uint32_t>& dilations = *a.dilations;
  for (size_t i = 0; i < 2; ++i) {
    g.in[i] = in_nchw[2 + i];
    g.out[i] = out_nchw[2 + i];
    g.window[i] = window[i];
    g.stride[i] = strides[i];
    g.dilation[i] = dilations[i];
    g.pad_begin[i] = padding[2 * i];
    const int64_t effective_window = (g.window[i] - 1) * g.dilation[i] + 1;
    // The end padding the last window needs; trailing input no window reaches needs none.
    g.pad_end[i] = std::max<int64_t>(0, (g.out[i] - 1) * g.stride[i] + effective_window - g.in[i] - g.pad_begin[i]);
  }
  return g;
}

// The output size ONNX computes (floor mode) from the geometry.
int64_t onnx_pool_size(const PoolGeometry& g, size_t i) {
  const int64_t effective_window = (g.window[i] - 1) * g.dilation[i] + 1;
  return (g.in[i] + g.pad_begin[i] + g.pad_end[i] - effective_window) / g.stride[i] + 1;
}

// The sum over every window (or of squares, for l2Pool2d) as a depthwise convolution with a
// filter of ones: ONNX AveragePool and LpPool have no dilations before opset 18/19.
Val pool_window_sum(OnnxGraphBuilder& b, const Val& x, const PoolGeometry& g, const Shape& out_shape) {
  const uint32_t channels = x.shape[1];
  const Val ones = b.filled(x.type, {channels, 1, uint32_t(g.window[0]), uint32_t(g.window[1])}, 1.0, "ones");
  return b.apply("Conv", {x, ones}, x.type, out_shape,
                 {attr_ints("kernel_shape", g.kernel()), attr_ints("pads", g.onnx_pads()),
                  attr_ints("strides", g.strides()), attr_ints("dilations", g.dilations()), attr_i("group", channels)});
}

// ONNX Runtime refuses pool pads as wide as the window, which WebNN allows.
bool has_wide_pads(const PoolGeometry& g) {
  for (size_t i = 0; i < 2; ++i)
    if (g.pad_begin[i] >= g.window[i] || g.pad_end[i] >= g.window[i]) return true;
  return false;
}

// The lowest value of a type: what max pooling pads with.
Number lowest_value(ElemType type) {
  switch (type) {
    case kI8:
      return -128.0;
    case kI32:
      return -std::ldexp(1.0, 31);
    case kI64:
      return Number::from_int64(INT64_MIN);
    case kU8:
    case kU32:
    case kU64:
      return 0.0;
    default:
      return -std::numeric_limits<double>::infinity();
  }
}

// x with its padding made explicit (Pad with `value`), and the geometry without padding.
Val pad_spatial(OnnxGraphBuilder& b, const Val& x, PoolGeometry& g, const Number& value) {
  const Shape shape = {x.shape[0], x.shape[1], uint32_t(g.in[0] + g.pad_begin[0] + g.pad_end[0]),
                       uint32_t(g.in[1] + g.pad_begin[1] + g.pad_end[1])};
  Val padded = b.apply(
      "Pad",
      {x, b.int64s({0, 0, g.pad_begin[0], g.pad_begin[1], 0, 0, g.pad_end[0], g.pad_end[1]}), b.scalar(x.type, value)},
      x.type, shape, {attr_s("mode", "constant")});
  for (size_t i = 0; i < 2; ++i) {
    g.in[i] = shape[2 + i];
    g.pad_begin[i] = g.pad_end[i] = 0;
  }
  return padded;
}

// maxPool2d for the integer types ONNX MaxPool lacks: the input padded with the type's lowest
// value, one strided Slice per window element, and their Max.
Val max_pool_by_slices(OnnxGraphBuilder& b, const Val& x, PoolGeometry g, const Shape& out_shape) {
  const Val padded = pad_spatial(b, x, g, lowest_value(x.type));
  std::vector<Val> windows;
  for (int64_t kh = 0; kh < g.window[0]; ++kh) {
    for (int64_t kw = 0; kw < g.window[1]; ++kw) {
      const int64_t h0 = kh * g.dilation[0], w0 = kw * g.dilation[1];
      windows.push_back(b.slice(padded, {h0, w0},
                                {h0 + (out_shape[2] - 1) * g.stride[0] + 1, w0 + (out_shape[3] - 1) * g.stride[1] + 1},
                                {2, 3}, g.strides()));
    }
  }
  if (x.type != kI64) return windows.size() == 1 ? windows[0] : b.apply("Max", windows, x.type, out_shape);
  // ONNX Runtime 1.30's int64 Max compares wrongly beyond 32 bits; its Greater does not.
  Val m = windows[0];
  for (size_t i = 1; i < windows.size(); ++i) m = b.where(b.binary("Greater", windows[i], m), windows[i], m);
  return m;
}

void export_pool(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Operation& op = c.op;
  const auto& a = std::get<Pool2dAttrs>(op.attrs);
  const bool nhwc = a.layout == InputLayout::kNhwc;
  const Val out = c.out(0);
  const Val x = nhwc ? b.transpose(c.in(0), kToNchw) : c.in(0);
  const Shape out_nchw = nhwc ? Shape{out.shape[0], out.shape[3], out.shape[1], out.shape[2]} : out.shape;
  const PoolGeometry g = pool_geometry(a, x.shape, out_nchw);
  const Shape onnx_out = {out_nchw[0], out_nchw[1], uint32_t(onnx_pool_size(g, 0)), uint32_t(onnx_pool_size(g, 1))};
  // Pads as wide as the window (ONNX Runtime refuses them): max by slices of the input padded with
  // the lowest value, average by the window sums, l2 padded with zeros.
  auto pool_attrs = [](const PoolGeometry& geometry) {
    return Attrs{attr_ints("kernel_shape", geometry.kernel()), attr_ints("pads", geometry.onnx_pads()),
                 attr_ints("strides", geometry.strides())};
  };
  const bool wide = has_wide_pads(g);
  Val y;
  switch (op.kind) {
    case OpKind::kMaxPool2d:
      if ((x.type == kF32 || x.type == kF16 || x.type == kI8 || x.type == kU8) && !wide) {
        Attrs attrs = pool_attrs(g);
        attrs.push_back(attr_ints("dilations", g.dilations()));
        y = b.apply("MaxPool", {x}, x.type, onnx_out, attrs);
      } else {  // also where a window can lie wholly in the padding: MaxPool gives -FLT_MAX there
        y = max_pool_by_slices(b, x, g, onnx_out);
      }
      break;
    case OpKind::kAveragePool2d:
      if (!g.dilated() && !wide) {
        Attrs attrs = pool_attrs(g);
        attrs.push_back(attr_i("count_include_pad", 0));
        y = b.apply("AveragePool", {x}, x.type, onnx_out, attrs);
      } else {
        // Divide each window's sum by the number of its elements inside the input (known here).
        std::vector<float> counts(onnx_out[2] * onnx_out[3]);
        for (uint32_t oh = 0; oh < onnx_out[2]; ++oh) {
          for (uint32_t ow = 0; ow < onnx_out[3]; ++ow) {
            int64_t inside[2] = {0, 0};
            const int64_t o[2] = {oh, ow};
            for (size_t i = 0; i < 2; ++i)
              for (int64_t k = 0; k < g.window[i]; ++k) {
                const int64_t pos = o[i] * g.stride[i] + k * g.dilation[i] - g.pad_begin[i];
                inside[i] += pos >= 0 && pos < g.in[i];
              }
            // A window wholly in the padding sums to 0 and averages to 0, as in the reference.
            counts[oh * onnx_out[3] + ow] = float(std::max<int64_t>(1, inside[0] * inside[1]));
          }
        }
        Val count = b.initializer(kF32, {1, 1, onnx_out[2], onnx_out[3]}, std::as_bytes(std::span<const float>(counts)),
                                  "window_counts");
        y = b.binary("Div", pool_window_sum(b, x, g, onnx_out), b.cast(count, x.type));
      }
      break;
    case OpKind::kL2Pool2d:
      if (!g.dilated()) {
        PoolGeometry gp = g;
        const Val xp = wide ? pad_spatial(b, x, gp, 0.0) : x;
        Attrs attrs = pool_attrs(gp);
        attrs.push_back(attr_i("p", 2));
        y = b.apply("LpPool", {xp}, x.type, onnx_out, attrs);
      } else {
        y = b.unary("Sqrt", pool_window_sum(b, b.binary("Mul", x, x), g, onnx_out));
      }
      break;
    default:
      c.unsupported("not a pooling operator");
  }
  // outputSizes may ask for fewer windows than the padding yields: keep the first ones.
  if (onnx_out != out_nchw) y = b.slice(y, {0, 0}, {out_nchw[2], out_nchw[3]}, {2, 3}, {1, 1});
  if (nhwc)
    b.transpose(y, kToNhwc, &out);
  else
    b.identity(y, &out);
}

// ---------------------------------------------------------------------------------------------
// resample2d -> Resize with the output sizes: the spec's scale is outputSize / inputSize even when
// scales are given, which is what ONNX derives from sizes. half_pixel coordinates; nearest
// rounds x - 0.5 up (ceil), i.e. halves toward floor: round_prefer_floor.
// ---------------------------------------------------------------------------------------------

void export_resample(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const auto& a = std::get<Resample2dAttrs>(c.op.attrs);
  const Val out = c.out(0);
  const bool linear = a.mode == InterpolationMode::kLinear;
  Attrs attrs = {attr_s("mode", linear ? "linear" : "nearest"), attr_s("coordinate_transformation_mode", "half_pixel")};
  if (!linear) attrs.push_back(attr_s("nearest_mode", "round_prefer_floor"));
  const Val none{"", kF32, {}};
  const Val sizes = b.int64s(std::vector<int64_t>(out.shape.begin(), out.shape.end()));
  if (!linear || is_float_type(out.type)) {
    b.apply("Resize", {c.in(0), none, none, sizes}, out.type, out.shape, std::move(attrs), &out);
    return;
  }
  // int8/uint8 "linear": ONNX leaves the rounding of an interpolated integer open (ONNX Runtime
  // does not round to nearest) and ONNX Runtime has no double Resize. Interpolate in double as
  // two matrix products with the spec's bilinear weights (computed here, the sizes being static),
  // then round half to even as the spec casts.
  const std::vector<uint32_t>& axes = *a.axes;
  Val y = b.cast(c.in(0), kF64);
  for (uint32_t axis : axes) {
    const uint32_t n = y.shape[axis], m = out.shape[axis];
    std::vector<double> weights(size_t(n) * m, 0.0);  // [n, m]: input i -> output o
    for (uint32_t o = 0; o < m; ++o) {
      const double x = std::clamp((o + 0.5) * n / m - 0.5, 0.0, double(n - 1));
      const uint32_t x0 = uint32_t(std::floor(x)), x1 = uint32_t(std::ceil(x));
      weights[size_t(x0) * m + o] += 1.0 - (x - x0);
      weights[size_t(x1) * m + o] += x - x0;
    }
    std::vector<uint32_t> to_last;  // the axis moved last, then back
    for (uint32_t i = 0; i < y.rank(); ++i)
      if (i != axis) to_last.push_back(i);
    to_last.push_back(axis);
    std::vector<uint32_t> back(to_last.size());
    for (uint32_t i = 0; i < to_last.size(); ++i) back[to_last[i]] = i;
    const Val moved = b.transpose(y, to_last);
    Shape product_shape = moved.shape;
    product_shape.back() = m;
    const Val w = b.initializer(kF64, {n, m}, std::as_bytes(std::span<const double>(weights)), "resample_weights");
    y = b.transpose(b.apply("MatMul", {moved, w}, kF64, product_shape), back);
  }
  b.cast(b.unary("Round", y), out.type, &out);
}

// ---------------------------------------------------------------------------------------------
// matmul, gemm
// ---------------------------------------------------------------------------------------------

void export_matmul(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Val out = c.out(0);
  if (c.op.kind == OpKind::kMatmul) {
    b.apply("MatMul", {c.in(0), c.in(1)}, out.type, out.shape, {}, &out);
    return;
  }
  if (c.op.kind != OpKind::kGemm) c.unsupported("not a matrix multiplication operator");
  const auto& a = std::get<GemmAttrs>(c.op.attrs);
  std::vector<Val> inputs = {c.in(0), c.in(1)};
  if (auto cv = c.option(a.c)) inputs.push_back(*cv);
  b.apply("Gemm", inputs, out.type, out.shape,
          {attr_f("alpha", a.alpha), attr_f("beta", a.beta), attr_i("transA", a.a_transpose),
           attr_i("transB", a.b_transpose)},
          &out);
}

// ---------------------------------------------------------------------------------------------
// Normalization and softmax
// ---------------------------------------------------------------------------------------------

// A 1-D per-channel operand (or `fill` when absent) shaped to broadcast along `axis` of `rank`.
Val along_axis(OnnxGraphBuilder& b, const std::optional<Val>& v, ElemType type, uint32_t channels, uint32_t axis,
               size_t rank, double fill) {
  Shape shape(rank, 1);
  shape[axis] = channels;
  return v ? b.reshape(*v, shape) : b.filled(type, shape, fill);
}

// The spec's formula, (x - mean) / sqrt(variance + epsilon) * scale + bias, in that order, as the
// reference computes it. Not ONNX BatchNormalization: ONNX Runtime evaluates that as
// x * s + (bias - mean * s) with s = scale / sqrt(variance + epsilon), which loses up to 12 ULP
// to cancellation in WPT's cases (WPT allows 6); and it normalizes axis 1 only.
void export_batch_normalization(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const auto& a = std::get<BatchNormalizationAttrs>(c.op.attrs);
  const Val x = c.in(0), out = c.out(0);
  const uint32_t channels = c.in(1).shape.at(0);
  auto shaped = [&](const std::optional<Val>& v) { return along_axis(b, v, x.type, channels, a.axis, x.rank(), 0); };
  const Val centered = b.binary("Sub", x, shaped(c.in(1)));
  const Val stddev = b.unary("Sqrt", b.binary("Add", shaped(c.in(2)), b.scalar(x.type, a.epsilon)));
  Val y = b.binary("Div", centered, stddev);
  if (a.scale) y = b.binary("Mul", y, shaped(c.option(a.scale)));
  if (a.bias)
    b.binary("Add", y, shaped(c.option(a.bias)), &out);
  else
    b.identity(y, &out);
}

void export_instance_normalization(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const auto& a = std::get<InstanceNormalizationAttrs>(c.op.attrs);
  const bool nhwc = a.layout == InputLayout::kNhwc;
  const Val out = c.out(0);
  const Val x = nhwc ? b.transpose(c.in(0), kToNchw) : c.in(0);
  const uint32_t channels = x.shape[1];
  const Val scale = a.scale ? c.operand(a.scale->id) : b.filled(x.type, {channels}, 1.0, "scale");
  const Val bias = a.bias ? c.operand(a.bias->id) : b.filled(x.type, {channels}, 0.0, "bias");
  const Attrs attrs = {attr_f("epsilon", a.epsilon)};
  if (!nhwc) {
    b.apply("InstanceNormalization", {x, scale, bias}, x.type, x.shape, attrs, &out);
    return;
  }
  b.transpose(b.apply("InstanceNormalization", {x, scale, bias}, x.type, x.shape, attrs), kToNhwc, &out);
}

void export_layer_normalization(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const auto& a = std::get<LayerNormalizationAttrs>(c.op.attrs);
  const Val x = c.in(0), out = c.out(0);
  const size_t rank = x.rank();
  const std::vector<uint32_t>& axes = *a.axes;
  // ONNX LayerNormalization normalizes the trailing axes from `axis` on, in order.
  bool trailing = !axes.empty();
  for (size_t i = 0; i < axes.size(); ++i) trailing = trailing && axes[i] == rank - axes.size() + i;
  if (trailing) {
    Shape normalized(x.shape.begin() + static_cast<std::ptrdiff_t>(axes[0]), x.shape.end());
    const Val scale = a.scale ? c.operand(a.scale->id) : b.filled(x.type, normalized, 1.0, "scale");
    std::vector<Val> inputs = {x, scale};
    if (auto bias = c.option(a.bias)) inputs.push_back(*bias);
    b.apply("LayerNormalization", inputs, x.type, x.shape, {attr_i("axis", axes[0]), attr_f("epsilon", a.epsilon)},
            &out);
    return;
  }
  if (!axes.empty()) {
    // Other axes: moved to the end in `axes` order, where LayerNormalization normalizes them with
    // scale and bias as they are (their shape is x's dimensions in `axes` order), then moved back.
    // One LayerNormalization keeps float16 as exact as the spec's single op, where the formula
    // below would round every intermediate step.
    std::vector<uint32_t> perm;
    for (uint32_t i = 0; i < rank; ++i)
      if (std::find(axes.begin(), axes.end(), i) == axes.end()) perm.push_back(i);
    const auto first = static_cast<int64_t>(perm.size());
    perm.insert(perm.end(), axes.begin(), axes.end());
    std::vector<uint32_t> inverse(rank);
    for (uint32_t i = 0; i < rank; ++i) inverse[perm[i]] = i;
    const Val moved = b.transpose(x, perm);
    Shape normalized(moved.shape.begin() + first, moved.shape.end());
    const Val scale = a.scale ? c.operand(a.scale->id) : b.filled(x.type, normalized, 1.0, "scale");
    std::vector<Val> inputs = {moved, scale};
    if (auto bias = c.option(a.bias)) inputs.push_back(*bias);
    const Val y = b.apply("LayerNormalization", inputs, x.type, moved.shape,
                          {attr_i("axis", first), attr_f("epsilon", a.epsilon)});
    b.transpose(y, inverse, &out);
    return;
  }
  // No axes: the spec's formula, (x - mean) / sqrt(variance + epsilon) * scale + bias, with the
  // means over `axes` (none when axes is empty: the mean is x itself). scale and bias have the
  // shape of x's dimensions in `axes` order: transposed to ascending order, then given rank.
  const Attrs reduce = {attr_ints("axes", to_int64s(axes)), attr_i("keepdims", 1)};
  Shape kept = x.shape;
  for (uint32_t axis : axes) kept[axis] = 1;
  const Val mean = axes.empty() ? x : b.apply("ReduceMean", {x}, x.type, kept, reduce);
  const Val centered = b.binary("Sub", x, mean);
  const Val squared = b.binary("Mul", centered, centered);
  const Val variance = axes.empty() ? squared : b.apply("ReduceMean", {squared}, x.type, kept, reduce);
  Val y = b.binary("Div", centered, b.unary("Sqrt", b.binary("Add", variance, b.scalar(x.type, a.epsilon))));
  std::vector<uint32_t> order(axes.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t i, uint32_t j) { return axes[i] < axes[j]; });
  Shape broadcast_shape(rank, 1);
  for (uint32_t axis : axes) broadcast_shape[axis] = x.shape[axis];
  auto shaped = [&](const Val& v) { return b.reshape(b.transpose(v, order), broadcast_shape); };
  if (a.scale) y = b.binary("Mul", y, shaped(c.operand(a.scale->id)));
  if (a.bias)
    b.binary("Add", y, shaped(c.operand(a.bias->id)), &out);
  else
    b.identity(y, &out);
}

void export_normalization(OpExport& c) {
  switch (c.op.kind) {
    case OpKind::kBatchNormalization:
      return export_batch_normalization(c);
    case OpKind::kInstanceNormalization:
      return export_instance_normalization(c);
    case OpKind::kLayerNormalization:
      return export_layer_normalization(c);
    case OpKind::kSoftmax: {
      const Val out = c.out(0);
      c.b.apply("Softmax", {c.in(0)}, out.type, out.shape, {attr_i("axis", std::get<SoftmaxAttrs>(c.op.attrs).axis)},
                &out);
      return;
    }
    default:
      break;
  }
  c.unsupported("not a normalization operator");
}

// ---------------------------------------------------------------------------------------------
// Reduction, arg-reduction and scan
// ---------------------------------------------------------------------------------------------

void export_reduction(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Val out = c.out(0);
  switch (c.op.kind) {
    case OpKind::kCumulativeSum: {
      const auto& a = std::get<CumulativeSumAttrs>(c.op.attrs);
      b.apply("CumSum", {c.in(0), b.int64_scalar(a.axis)}, out.type, out.shape,
              {attr_i("exclusive", a.exclusive ? 1 : 0), attr_i("reverse", a.reversed ? 1 : 0)}, &out);
      return;
    }
    default:
      break;
  }
  if (!export_pair(c)) c.unsupported("not a reduction operator");
}

// ---------------------------------------------------------------------------------------------
// Shape and data movement
// ---------------------------------------------------------------------------------------------

void export_shape(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Operation& op = c.op;
  switch (op.kind) {
    case OpKind::kReshape: {
      const Val out = c.out(0);
      b.apply("Reshape", {c.in(0), b.int64s(std::vector<int64_t>(out.shape.begin(), out.shape.end()))}, out.type,
              out.shape, {}, &out);
      return;
    }
    case OpKind::kTranspose: {
      const Val x = c.in(0), out = c.out(0);
      const std::vector<uint32_t>& perm = *std::get<TransposeAttrs>(op.attrs).permutation;
      if (perm.empty()) {  // a scalar; ONNX rejects an empty perm attribute
        b.identity(x, &out);
        return;
      }
      b.apply("Transpose", {x}, x.type, out.shape, {attr_ints("perm", to_int64s(perm))}, &out);
      return;
    }
    case OpKind::kConcat: {
      std::vector<Val> parts;
      for (size_t i = 0; i < op.inputs.size(); ++i) parts.push_back(c.in(i));
      const Val out = c.out(0);
      b.apply("Concat", parts, out.type, out.shape, {attr_i("axis", std::get<ConcatAttrs>(op.attrs).axis)}, &out);
      return;
    }
    case OpKind::kSplit: {
      const uint32_t axis = std::get<SplitAttrs>(op.attrs).axis;
      std::vector<int64_t> sizes;
      std::vector<Val> outs;
      for (size_t i = 0; i < op.outputs.size(); ++i) {
        outs.push_back(c.out(i));
        sizes.push_back(outs.back().shape.at(axis));
      }
      b.node("Split", {c.in(0), b.int64s(sizes)}, outs, {attr_i("axis", axis)});
      return;
    }
    case OpKind::kSlice: {
      const auto& a = std::get<SliceAttrs>(op.attrs);
      const Val x = c.in(0), out = c.out(0);
      if (x.rank() == 0) {
        b.identity(x, &out);
        return;
      }
      const std::vector<uint32_t>& strides = *a.strides;
      std::vector<int64_t> ends;
      for (size_t i = 0; i < x.rank(); ++i) ends.push_back(int64_t(a.starts[i]) + a.sizes[i]);
      b.slice(x, to_int64s(a.starts), ends, to_int64s(iota_axes(x.rank())), to_int64s(strides), &out);
      return;
    }
    case OpKind::kExpand: {
      const Val out = c.out(0);
      b.expand(c.in(0), out.shape, &out);
      return;
    }
    case OpKind::kPad: {
      const auto& a = std::get<PadAttrs>(op.attrs);
      const Val x = c.in(0), out = c.out(0);
      if (x.rank() == 0) {
        b.identity(x, &out);
        return;
      }
      std::vector<int64_t> pads = to_int64s(a.beginning_padding);
      for (uint32_t p : a.ending_padding) pads.push_back(p);
      static const char* const kModes[] = {"constant", "edge", "reflect"};
      std::vector<Val> inputs = {x, b.int64s(pads)};
      if (a.mode == PaddingMode::kConstant) inputs.push_back(b.scalar(x.type, a.value));
      b.apply("Pad", inputs, x.type, out.shape, {attr_s("mode", kModes[static_cast<size_t>(a.mode)])}, &out);
      return;
    }
    case OpKind::kReverse: {
      // No ONNX Reverse: a Slice with step -1 over each reversed axis.
      const Val x = c.in(0), out = c.out(0);
      const std::vector<uint32_t>& axes = *std::get<ReverseAttrs>(op.attrs).axes;
      if (axes.empty()) {
        b.identity(x, &out);
        return;
      }
      const size_t n = axes.size();
      b.slice(x, std::vector<int64_t>(n, -1), std::vector<int64_t>(n, INT64_MIN), to_int64s(axes),
              std::vector<int64_t>(n, -1), &out);
      return;
    }
    case OpKind::kTile: {
      const Val x = c.in(0), out = c.out(0);
      if (x.rank() == 0) {
        b.identity(x, &out);
        return;
      }
      b.apply("Tile", {x, b.int64s(to_int64s(std::get<TileAttrs>(op.attrs).repetitions))}, x.type, out.shape, {}, &out);
      return;
    }
    case OpKind::kTriangular: {
      const auto& a = std::get<TriangularAttrs>(op.attrs);
      const Val x = c.in(0), out = c.out(0);
      b.apply("Trilu", {x, b.int64_scalar(a.diagonal)}, x.type, x.shape, {attr_i("upper", a.upper ? 1 : 0)}, &out);
      return;
    }
    default:
      break;
  }
  c.unsupported("not a shape operator");
}

// ---------------------------------------------------------------------------------------------
// Gather and scatter. Index values are clamped into [-N, N - 1] first, as the reference does and
// the spec suggests for out-of-range indices (ONNX leaves them undefined and ONNX Runtime fails);
// negative indices count from the end in both. uint32 indices become int64 (ONNX has no uint32
// indices); gatherND and scatterND take int64 only.
// ---------------------------------------------------------------------------------------------

// v clamped into [lo, hi] (tensors broadcasting against v) by comparisons and Where: ONNX Runtime
// 1.30's int64 Min, Max and Clip compare wrongly beyond 32 bits (min(4294967295, 1) gives
// 4294967295), its comparisons do not.
Val clamp_by_where(OnnxGraphBuilder& b, const Val& v, const Val& lo, const Val& hi) {
  const Val upper = b.where(b.binary("Greater", v, hi), hi, v);
  return b.where(b.binary("Less", upper, lo), lo, upper);
}

Val clamped_indices(OnnxGraphBuilder& b, Val indices, uint32_t dim) {
  if (indices.type == kU32) indices = b.cast(indices, kI64);
  return clamp_by_where(b, indices, b.scalar(indices.type, -double(dim)), b.scalar(indices.type, double(dim) - 1));
}

// gatherND/scatterND: each coordinate's component k is clamped by the size of dimension k.
Val clamped_coordinates(OnnxGraphBuilder& b, const Val& indices, const Shape& data_shape) {
  const size_t k = indices.shape.back();
  std::vector<int64_t> lo, hi;
  for (size_t i = 0; i < k; ++i) {
    lo.push_back(-int64_t(data_shape.at(i)));
    hi.push_back(int64_t(data_shape.at(i)) - 1);
  }
  return clamp_by_where(b, b.cast(indices, kI64), b.int64s(lo), b.int64s(hi));
}

void export_gather(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Operation& op = c.op;
  const Val out = c.out(0);
  switch (op.kind) {
    case OpKind::kGather:
    case OpKind::kGatherElements: {
      const uint32_t axis = std::get<GatherAttrs>(op.attrs).axis;
      const Val x = c.in(0);
      const Val indices = clamped_indices(b, c.in(1), x.shape.at(axis));
      b.apply(op.kind == OpKind::kGather ? "Gather" : "GatherElements", {x, indices}, out.type, out.shape,
              {attr_i("axis", axis)}, &out);
      return;
    }
    case OpKind::kGatherNd: {
      const Val x = c.in(0);
      b.apply("GatherND", {x, clamped_coordinates(b, c.in(1), x.shape)}, out.type, out.shape, {}, &out);
      return;
    }
    case OpKind::kScatterElements: {
      const uint32_t axis = std::get<ScatterAttrs>(op.attrs).axis;
      const Val x = c.in(0);
      const Val indices = clamped_indices(b, c.in(1), x.shape.at(axis));
      b.apply("ScatterElements", {x, indices, c.in(2)}, out.type, out.shape, {attr_i("axis", axis)}, &out);
      return;
    }
    case OpKind::kScatterNd: {
      const Val x = c.in(0);
      b.apply("ScatterND", {x, clamped_coordinates(b, c.in(1), x.shape), c.in(2)}, out.type, out.shape, {}, &out);
      return;
    }
    default:
      break;
  }
  c.unsupported("not a gather or scatter operator");
}

// ---------------------------------------------------------------------------------------------
// Recurrent networks -> ONNX GRU / LSTM (gate orders rearranged; WebNN "zrn" and "iofg" are
// ONNX's zrh and iofc), cells as one-step sequences. lstm/lstmCell with a peephole weight are
// unrolled into cells instead: ONNX's output gate peeks at the new cell state, the spec's at the
// incoming one.
// ---------------------------------------------------------------------------------------------

std::string activation_op(RecurrentActivation a) {
  switch (a) {
    case RecurrentActivation::kRelu:
      return "Relu";
    case RecurrentActivation::kSigmoid:
      return "Sigmoid";
    case RecurrentActivation::kTanh:
      return "Tanh";
  }
  return "Sigmoid";
}

std::vector<std::string> onnx_activations(const DefaultedActivations& acts, size_t directions) {
  std::vector<std::string> names;
  for (size_t d = 0; d < directions; ++d)
    for (RecurrentActivation a : *acts) names.push_back(activation_op(a));
  return names;
}

const char* onnx_direction(RecurrentDirection d) {
  switch (d) {
    case RecurrentDirection::kForward:
      return "forward";
    case RecurrentDirection::kBackward:
      return "reverse";
    case RecurrentDirection::kBoth:
      return "bidirectional";
  }
  return "forward";
}

// ONNX B: [D, 2 * gates * H], the input bias then the recurrent bias; nullopt when both are absent.
std::optional<Val> onnx_rnn_bias(OnnxGraphBuilder& b, const std::optional<Val>& bias,
                                 const std::optional<Val>& recurrent_bias, ElemType type, uint32_t directions,
                                 uint32_t rows, const std::vector<uint32_t>& gate_order) {
  if (!bias && !recurrent_bias) return std::nullopt;
  auto part = [&](const std::optional<Val>& v) {
    return v ? b.permute_blocks(b.reshape(*v, {directions, rows}), 1, gate_order)
             : b.filled(type, {directions, rows}, 0.0, "zero_bias");
  };
  return b.concat({part(bias), part(recurrent_bias)}, 1);
}

void export_gru(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const bool cell = c.op.kind == OpKind::kGruCell;
  uint32_t hidden = 0, directions = 1;
  std::optional<Val> bias, recurrent_bias, initial;
  bool reset_after = true, sequence = false;
  GruWeightLayout layout = GruWeightLayout::kZrn;
  DefaultedActivations activations;
  RecurrentDirection direction = RecurrentDirection::kForward;
  if (cell) {
    const auto& a = std::get<GruCellAttrs>(c.op.attrs);
    hidden = a.hidden_size, bias = c.option(a.bias), recurrent_bias = c.option(a.recurrent_bias);
    reset_after = a.reset_after, layout = a.layout, activations = a.activations;
  } else {
    const auto& a = std::get<GruAttrs>(c.op.attrs);
    hidden = a.hidden_size, bias = c.option(a.bias), recurrent_bias = c.option(a.recurrent_bias);
    initial = c.option(a.initial_hidden_state), reset_after = a.reset_after, sequence = a.return_sequence;
    layout = a.layout, activations = a.activations, direction = a.direction;
    directions = direction == RecurrentDirection::kBoth ? 2 : 1;
  }
  Val x = c.in(0), w = c.in(1), r = c.in(2);
  const uint32_t rows = 3 * hidden;
  if (cell) {  // a sequence of one step, one direction
    x = b.reshape(x, {1, x.shape[0], x.shape[1]});
    w = b.reshape(w, {1, rows, w.shape[1]});
    r = b.reshape(r, {1, rows, hidden});
    initial = b.reshape(c.in(3), {1, c.in(3).shape[0], hidden});
  }
  const std::vector<uint32_t> order =
      layout == GruWeightLayout::kZrn ? std::vector<uint32_t>{0, 1, 2} : std::vector<uint32_t>{1, 0, 2};  // rzn -> zrn
  w = b.permute_blocks(w, 1, order);
  r = b.permute_blocks(r, 1, order);
  const Val none{"", x.type, {}};
  const std::optional<Val> onnx_bias = onnx_rnn_bias(b, bias, recurrent_bias, x.type, directions, rows, order);
  const Attrs attrs = {attr_i("hidden_size", hidden), attr_s("direction", onnx_direction(direction)),
                       attr_i("linear_before_reset", reset_after ? 1 : 0),
                       attr_strings("activations", onnx_activations(activations, directions))};
  const std::vector<Val> inputs = {x, w, r, onnx_bias.value_or(none), none, initial.value_or(none)};
  const uint32_t batch = x.shape[1];
  if (cell) {
    const Val h = b.temp(x.type, {1, batch, hidden});
    b.node("GRU", inputs, {none, h}, attrs);
    const Val out = c.out(0);
    b.reshape(h, out.shape, &out);
    return;
  }
  b.node("GRU", inputs, {sequence ? c.out(1) : none, c.out(0)}, attrs);
}

struct LstmCellValues {
  Val h, cell;
};

// One lstm cell by the spec's equations from [batch, input] x, [batch, H] h and c, weights in the
// WebNN layout ([4H, input], [4H, H]) and optional [4H] biases and [3H] peephole weights.
LstmCellValues lstm_cell_nodes(OnnxGraphBuilder& b, const Val& x, const Val& h, const Val& cell, const Val& w,
                               const Val& r, const std::optional<Val>& bias, const std::optional<Val>& recurrent_bias,
                               const std::optional<Val>& peephole, uint32_t hidden, LstmWeightLayout layout,
                               const std::vector<RecurrentActivation>& acts) {
  const uint32_t batch = x.shape[0];
  const Shape gate_shape = {batch, 4 * hidden};
  Val gates = b.binary("Add", b.apply("MatMul", {x, b.transpose(w, {1, 0})}, x.type, gate_shape),
                       b.apply("MatMul", {h, b.transpose(r, {1, 0})}, x.type, gate_shape));
  if (bias) gates = b.binary("Add", gates, *bias);
  if (recurrent_bias) gates = b.binary("Add", gates, *recurrent_bias);
  const std::vector<Val> g4 = b.split(gates, 1, {hidden, hidden, hidden, hidden});
  // iofg: input, output, forget, cell; ifgo: input, forget, cell, output.
  Val gi = g4[0], go = g4[1], gf = g4[2], gg = g4[3];
  if (layout == LstmWeightLayout::kIfgo) gf = g4[1], gg = g4[2], go = g4[3];
  if (peephole) {  // packed [input, output, forget], each peeking at the incoming cell state
    const std::vector<Val> p = b.split(*peephole, 0, {hidden, hidden, hidden});
    gi = b.binary("Add", gi, b.binary("Mul", cell, p[0]));
    go = b.binary("Add", go, b.binary("Mul", cell, p[1]));
    gf = b.binary("Add", gf, b.binary("Mul", cell, p[2]));
  }
  const std::string gate_act = activation_op(acts[0]), cell_act = activation_op(acts[1]);
  const Val i = b.unary(gate_act, gi), f = b.unary(gate_act, gf), o = b.unary(gate_act, go);
  const Val g = b.unary(cell_act, gg);
  const Val new_cell = b.binary("Add", b.binary("Mul", f, cell), b.binary("Mul", i, g));
  const Val new_h = b.binary("Mul", o, b.unary(activation_op(acts[2]), new_cell));
  return {new_h, new_cell};
}

void export_lstm(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const bool cell = c.op.kind == OpKind::kLstmCell;
  uint32_t hidden = 0, directions = 1, steps = 1;
  std::optional<Val> bias, recurrent_bias, peephole, initial_h, initial_c;
  bool sequence = false;
  LstmWeightLayout layout = LstmWeightLayout::kIofg;
  DefaultedActivations activations;
  RecurrentDirection direction = RecurrentDirection::kForward;
  if (cell) {
    const auto& a = std::get<LstmCellAttrs>(c.op.attrs);
    hidden = a.hidden_size, bias = c.option(a.bias), recurrent_bias = c.option(a.recurrent_bias);
    peephole = c.option(a.peephole_weight), layout = a.layout, activations = a.activations;
  } else {
    const auto& a = std::get<LstmAttrs>(c.op.attrs);
    hidden = a.hidden_size, steps = a.steps, bias = c.option(a.bias), recurrent_bias = c.option(a.recurrent_bias);
    peephole = c.option(a.peephole_weight), initial_h = c.option(a.initial_hidden_state);
    initial_c = c.option(a.initial_cell_state), sequence = a.return_sequence, layout = a.layout;
    activations = a.activations, direction = a.direction;
    directions = direction == RecurrentDirection::kBoth ? 2 : 1;
  }
  const std::vector<RecurrentActivation>& acts = *activations;
  const uint32_t rows = 4 * hidden;
  Val x = c.in(0), w = c.in(1), r = c.in(2);
  const uint32_t batch = cell ? x.shape[0] : x.shape[1];

  if (peephole) {
    if (cell) {
      const LstmCellValues s =
          lstm_cell_nodes(b, x, c.in(3), c.in(4), w, r, bias, recurrent_bias, peephole, hidden, layout, acts);
      const Val out_h = c.out(0), out_c = c.out(1);
      b.identity(s.h, &out_h);
      b.identity(s.cell, &out_c);
      return;
    }
    // Unrolled: one cell per time step and direction, as the spec's emulation runs them.
    const std::vector<Val> xs = b.split(x, 0, std::vector<uint32_t>(steps, 1));
    std::vector<Val> final_h, final_c;
    std::vector<std::vector<Val>> seq(steps);  // [t][d] -> [1, 1, batch, H]
    for (uint32_t d = 0; d < directions; ++d) {
      auto take = [&](const std::optional<Val>& v, const Shape& shape) -> std::optional<Val> {
        if (!v) return std::nullopt;
        return b.reshape(b.slice(*v, {d}, {d + 1}, {0}, {1}), shape);
      };
      const Val wd = *take(w, {rows, w.shape[2]}), rd = *take(r, {rows, hidden});
      const std::optional<Val> bd = take(bias, {rows}), rbd = take(recurrent_bias, {rows});
      const std::optional<Val> pd = take(peephole, {3 * hidden});
      Val h = initial_h ? *take(initial_h, {batch, hidden}) : b.filled(x.type, {batch, hidden}, 0.0, "h0");
      Val cs = initial_c ? *take(initial_c, {batch, hidden}) : b.filled(x.type, {batch, hidden}, 0.0, "c0");
      const bool backward = direction == RecurrentDirection::kBackward || d == 1;
      for (uint32_t i = 0; i < steps; ++i) {
        const uint32_t t = backward ? steps - 1 - i : i;
        const LstmCellValues s =
            lstm_cell_nodes(b, b.reshape(xs[t], {batch, x.shape[2]}), h, cs, wd, rd, bd, rbd, pd, hidden, layout, acts);
        h = s.h, cs = s.cell;
        if (sequence) seq[t].push_back(b.reshape(h, {1, 1, batch, hidden}));
      }
      final_h.push_back(b.reshape(h, {1, batch, hidden}));
      final_c.push_back(b.reshape(cs, {1, batch, hidden}));
    }
    const Val out_h = c.out(0), out_c = c.out(1);
    b.concat(final_h, 0, &out_h);
    b.concat(final_c, 0, &out_c);
    if (sequence) {
      std::vector<Val> per_step;
      for (uint32_t t = 0; t < steps; ++t) per_step.push_back(b.concat(seq[t], 1));
      const Val out_seq = c.out(2);
      b.concat(per_step, 0, &out_seq);
    }
    return;
  }

  if (cell) {
    x = b.reshape(x, {1, batch, x.shape[1]});
    w = b.reshape(w, {1, rows, w.shape[1]});
    r = b.reshape(r, {1, rows, hidden});
    initial_h = b.reshape(c.in(3), {1, batch, hidden});
    initial_c = b.reshape(c.in(4), {1, batch, hidden});
  }
  const std::vector<uint32_t> order = layout == LstmWeightLayout::kIofg ? std::vector<uint32_t>{0, 1, 2, 3}
                                                                        : std::vector<uint32_t>{0, 3, 1, 2};  // ifgo
  w = b.permute_blocks(w, 1, order);
  r = b.permute_blocks(r, 1, order);
  const Val none{"", x.type, {}};
  const std::optional<Val> onnx_bias = onnx_rnn_bias(b, bias, recurrent_bias, x.type, directions, rows, order);
  const Attrs attrs = {attr_i("hidden_size", hidden), attr_s("direction", onnx_direction(direction)),
                       attr_strings("activations", onnx_activations(activations, directions))};
  const std::vector<Val> inputs = {
      x, w, r, onnx_bias.value_or(none), none, initial_h.value_or(none), initial_c.value_or(none)};
  if (cell) {
    const Val h = b.temp(x.type, {1, batch, hidden}), cs = b.temp(x.type, {1, batch, hidden});
    b.node("LSTM", inputs, {none, h, cs}, attrs);
    const Val out_h = c.out(0), out_c = c.out(1);
    b.reshape(h, out_h.shape, &out_h);
    b.reshape(cs, out_c.shape, &out_c);
    return;
  }
  b.node("LSTM", inputs, {sequence ? c.out(2) : none, c.out(0), c.out(1)}, attrs);
}

void export_recurrent(OpExport& c) {
  switch (c.op.kind) {
    case OpKind::kGru:
    case OpKind::kGruCell:
      return export_gru(c);
    case OpKind::kLstm:
    case OpKind::kLstmCell:
      return export_lstm(c);
    default:
      break;
  }
  c.unsupported("not a recurrent operator");
}

// ---------------------------------------------------------------------------------------------
// Quantization. ONNX QuantizeLinear/DequantizeLinear (opset 13) take float32 and per-tensor or
// per-axis (1-D) scales only; float16, 32-bit zero points and block-wise scales are decomposed.
// ---------------------------------------------------------------------------------------------

// Where the scale's shape makes ONNX per-tensor (-1) or per-axis (that axis) quantization of
// `shape`; nullopt for block-wise scales.
std::optional<int64_t> per_axis(const Shape& scale, const Shape& shape) {
  int64_t axis = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (scale[i] == 1) continue;
    if (scale[i] != shape[i] || axis >= 0) return std::nullopt;
    axis = int64_t(i);
  }
  return axis;
}

// Each element of v repeated over its block of `shape` (block-wise scales and zero points):
// [s0, s1] -> [s0, 1, s1, 1] -> [s0, b0, s1, b1] -> [s0 * b0, s1 * b1]. Dimensions of size 1
// stay 1 and broadcast.
Val expand_blocks(OnnxGraphBuilder& b, const Val& v, const Shape& shape) {
  Shape split_shape, expanded, merged;
  bool blocked = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const uint32_t s = v.shape[i];
    if (s == 1 || s == shape[i]) {
      split_shape.push_back(s), expanded.push_back(s), merged.push_back(s);
      continue;
    }
    blocked = true;
    split_shape.insert(split_shape.end(), {s, 1});
    expanded.insert(expanded.end(), {s, shape[i] / s});
    merged.push_back(shape[i]);
  }
  if (!blocked) return v;
  return b.reshape(b.expand(b.reshape(v, split_shape), expanded), merged);
}

void export_quantization(OpExport& c) {
  OnnxGraphBuilder& b = c.b;
  const Val x = c.in(0), scale = c.in(1), zero_point = c.in(2), out = c.out(0);
  const std::optional<int64_t> axis = per_axis(scale.shape, x.shape);
  auto onnx_param = [&](const Val& v) {  // scalar (per-tensor) or 1-D (per-axis)
    return *axis < 0 ? b.reshape(v, {}) : b.reshape(v, {v.shape[size_t(*axis)]});
  };
  Attrs attrs;
  if (axis && *axis >= 0) attrs.push_back(attr_i("axis", *axis));
  if (c.op.kind == OpKind::kQuantizeLinear) {
    if (axis && x.type == kF32 && (zero_point.type == kU8 || zero_point.type == kI8)) {
      b.apply("QuantizeLinear", {x, onnx_param(scale), onnx_param(zero_point)}, out.type, out.shape, attrs, &out);
      return;
    }
    // saturate(roundEven(x / scale) + zeroPoint): the quotient in x's type as the spec's emulation
    // divides, the rest in double, which holds every integer of the 32-bit types exactly. NaN
    // gives 0 as in the reference (ONNX's Cast of NaN to an integer is undefined).
    const Val quotient = b.binary("Div", x, expand_blocks(b, scale, x.shape));
    const Val rounded = b.unary("Round", b.cast(quotient, kF64));
    Val q = b.binary("Add", rounded, b.cast(expand_blocks(b, zero_point, x.shape), kF64));
    const bool is_signed = is_signed_int_type(out.type);
    const int bits = int(onnx_element_size(out.type)) * 8;
    const double lo = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
    const double hi = is_signed ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
    q = b.apply("Clip", {q, b.scalar(kF64, lo), b.scalar(kF64, hi)}, kF64, q.shape);
    q = b.where(b.unary("IsNaN", q), b.scalar(kF64, 0.0), q);
    b.cast(q, out.type, &out);
    return;
  }
  if (c.op.kind != OpKind::kDequantizeLinear) c.unsupported("not a quantization operator");
  if (axis && scale.type == kF32 && (x.type == kU8 || x.type == kI8)) {
    b.apply("DequantizeLinear", {x, onnx_param(scale), onnx_param(zero_point)}, out.type, out.shape, attrs, &out);
    return;
  }
  // (x - zeroPoint) * scale in double, rounded once to the scale's type, as the reference computes.
  const Val diff = b.binary("Sub", b.cast(x, kF64), b.cast(expand_blocks(b, zero_point, x.shape), kF64));
  const Val product = b.binary("Mul", diff, b.cast(expand_blocks(b, scale, x.shape), kF64));
  b.cast(product, out.type, &out);
}

// ---------------------------------------------------------------------------------------------
// The op table -> family dispatch, and the model around it
// ---------------------------------------------------------------------------------------------

void export_op(OpExport& c) {
  switch (c.op.kind) {
#define WEBNN_OP(Enum, name, Attrs, family, ...) \
  case OpKind::k##Enum:                          \
    return export_##family(c);
#include "graph/op_table.def"
#undef WEBNN_OP
  }
  c.unsupported("unknown operator");
}

void Exporter::add_value_info(onnx::ValueInfoProto* info, const std::string& name, const OperandDescriptor& desc) {
  info->set_name(name);
  onnx::TypeProto_Tensor* tensor = info->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(onnx_type(desc.data_type));
  onnx::TensorShapeProto* shape = tensor->mutable_shape();
  for (uint32_t d : desc.shape) shape->add_dim()->set_dim_value(d);
}

Val Exporter::operand(OperandId id) {
  const Operand& o = graph_.operands.at(id);
  if (o.kind == OperandKind::kConstant && names_[id].empty()) {
    const BufferRef& data = graph_.constant_data(id);
    names_[id] = b_.initializer(onnx_type(o.desc.data_type), o.desc.shape, data.span(),
                                o.name.empty() ? "const" + std::to_string(id) : o.name)
                     .name;
  }
  return result(id);
}

Val Exporter::result(OperandId id) const {
  const Operand& o = graph_.operands.at(id);
  if (names_[id].empty())
    throw_error(ErrorKind::kUnknownError, "ONNX export: operand " + std::to_string(id) + " has no name");
  return Val{names_[id], onnx_type(o.desc.data_type), o.desc.shape};
}

void Exporter::run() {
  names_.assign(graph_.operands.size(), std::string());
  for (const NamedOperand& in : graph_.inputs) {
    b_.claim(in.name);
    names_[in.operand] = in.name;
    add_value_info(proto_.add_input(), in.name, graph_.desc(in.operand));
  }
  // An output takes its operand's value name when the operand is an op result named by no other
  // output; the others get an Identity node.
  std::vector<bool> aliased(graph_.outputs.size(), false);
  for (size_t i = 0; i < graph_.outputs.size(); ++i) {
    const NamedOperand& out = graph_.outputs[i];
    // ONNX has one namespace for values: an output cannot share a name with an input or another output.
    if (!b_.try_claim(out.name))
      throw_error(ErrorKind::kNotSupportedError, "ONNX export: the output name " + quote(out.name) +
                                                     " is also the name of an input or another output");
    const Operand& o = graph_.operands.at(out.operand);
    if (o.kind == OperandKind::kIntermediate && names_[out.operand].empty())
      names_[out.operand] = out.name;
    else
      aliased[i] = true;
  }
  for (const Operation& op : graph_.operations)
    for (OperandId id : op.outputs)
      if (names_[id].empty()) {
        std::string name = graph_.operands[id].name;
        if (name.empty()) name = std::string("t").append(std::to_string(id));
        names_[id] = b_.unique_name(name);
      }
  size_t index = 0;
  for (const Operation& op : graph_.operations) {
    b_.set_node_prefix(op.label.empty() ? std::string(op_name(op.kind)) + "_" + std::to_string(index) : op.label);
    OpExport c{*this, b_, graph_, op};
    export_op(c);
    for (OperandId id : op.outputs)
      if (!b_.is_defined(names_[id]))
        throw_error(ErrorKind::kUnknownError, "ONNX export: " + describe(op) + " left " + names_[id] + " undefined");
    ++index;
  }
  b_.set_node_prefix("output");
  for (size_t i = 0; i < graph_.outputs.size(); ++i) {
    const NamedOperand& out = graph_.outputs[i];
    if (aliased[i]) {
      const Val target{out.name, onnx_type(graph_.desc(out.operand).data_type), graph_.desc(out.operand).shape};
      b_.identity(operand(out.operand), &target);
    }
    add_value_info(proto_.add_output(), out.name, graph_.desc(out.operand));
  }
  b_.prune_initializers();
}

// The checker, then strict type and shape inference, which also checks every inferred output
// type and shape against the declared graph outputs. A model that fails either is a bug here.
void check_model(onnx::ModelProto& model) {
  try {
    onnx::checker::check_model(model);
    onnx::ShapeInferenceOptions options(/*check_type_val=*/true, /*strict_mode_val=*/1);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    throw_error(ErrorKind::kUnknownError, std::string("ONNX export: the ONNX checker rejected the model: ") + e.what());
  }
  model.mutable_graph()->clear_value_info();
}

}  // namespace

std::string export_onnx_bytes(const Graph& graph) {
  onnx::ModelProto model;
  model.set_ir_version(kIrVersion);
  model.set_producer_name("webnn-cpp");
  onnx::OperatorSetIdProto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(kOnnxOpsetVersion);
  onnx::GraphProto* proto = model.mutable_graph();
  proto->set_name(graph.name.empty() ? "webnn" : graph.name);
  Exporter(graph, *proto).run();
  // protobuf refuses messages of 2 GiB or more.
  if (model.ByteSizeLong() >= size_t(INT_MAX))
    throw_error(ErrorKind::kNotSupportedError, "ONNX export: the model would exceed protobuf's 2 GiB limit");
  check_model(model);
  std::string bytes;
  if (!model.SerializeToString(&bytes)) throw_error(ErrorKind::kUnknownError, "ONNX export: serialization failed");
  return bytes;
}

void export_onnx(const Graph& graph, const std::string& path) {
  const std::string bytes = export_onnx_bytes(graph);
  AtomicWriter writer;
  const size_t file = writer.begin(path);
  writer.append(file, std::string_view(bytes));
  writer.commit();
}

std::span<const OpKind> onnx_unsupported_ops() { return {}; }

}  // namespace webnn::formats
