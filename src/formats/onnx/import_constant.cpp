// ONNX import: Constant, ConstantOfShape, EyeLike and Range, whose values are known at import.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

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

}  // namespace

void set_filled_out(const NodeCtx& c, size_t i, const OperandDescriptor& desc, const BufferRef& one, bool is_bool) {
  c.check_tensor(desc, "the output");
  if (c.fold_fits(desc) &&
      fold_out(c, i, desc, OpKind::kExpand, {{{desc.data_type, {}}, one}}, ExpandAttrs{desc.shape}, is_bool))
    return;
  const OperandId value = c.constant({desc.data_type, {}}, one);
  c.set_out(i, c.add(OpKind::kExpand, {value}, ExpandAttrs{desc.shape}), is_bool);
}

Lowerings constant_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"Constant", lower_constant},
      {"ConstantOfShape", lower_constant_of_shape},
      {"EyeLike", lower_eye_like},
      {"Range", lower_range},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
