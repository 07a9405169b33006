// float16 graphs on the onednn backend (computed in float32, src/backends/onednn/float16.hpp)
// against the reference backend, which evaluates every float16 operation on its own and rounds
// each result once. A single widened operation must agree with it to one float16 ULP (both round
// a float32-or-better value once); a chain of them to a few, as the onednn path rounds only at its
// end. Where the spec needs float16 values exactly (casts, comparisons, floor, argMax,
// isInfinite, options cast to float16) the results must be identical. Placement must show the
// nodes ran on oneDNN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "backends/backend.hpp"
#include "core/dispatch.hpp"
#include "graph/graph_builder.hpp"
#include "onednn_test_util.hpp"

namespace webnn::test {
namespace {

constexpr DataType kF16 = DataType::kFloat16;

using Bytes = std::vector<std::byte>;

// The spacing of float16 values at |v| (subnormal spacing below the normal range).
double ulp16(double v) {
  const double a = std::fabs(v);
  if (a < std::ldexp(1.0, -14)) return std::ldexp(1.0, -24);
  return std::ldexp(1.0, std::ilogb(a) - 10);
}

template <class T>
Bytes bytes_of(const std::vector<T>& values) {
  Bytes b(values.size() * sizeof(T));
  std::memcpy(b.data(), values.data(), b.size());
  return b;
}

Bytes float16_bytes(const std::vector<float>& values) {
  std::vector<Float16> h;
  for (float v : values) h.push_back(Float16(v));
  return bytes_of(h);
}

// The values of a float16 or float32 buffer as doubles.
std::vector<double> as_doubles(const Bytes& bytes, DataType type) {
  std::vector<double> out;
  if (type == kF16) {
    for (size_t i = 0; i < bytes.size(); i += 2) {
      uint16_t h;
      std::memcpy(&h, bytes.data() + i, 2);
      out.push_back(static_cast<double>(half_to_float(h)));
    }
  } else {
    for (size_t i = 0; i < bytes.size(); i += 4) {
      float f;
      std::memcpy(&f, bytes.data() + i, 4);
      out.push_back(static_cast<double>(f));
    }
  }
  return out;
}

// How far onednn may be from the reference: `ulps` float16 ULPs of the expected value, plus `rtol`
// times the output's largest magnitude (float32 outputs: only the latter).
struct Float16Tolerance {
  double ulps = 1;
  double rtol = 0;
};
constexpr Float16Tolerance kExactFloat16{0, 0};

class Float16Test : public test::BackendComparison<Float16Tolerance> {
 protected:
  // A graph input of seeded values in [lo, hi), float16-representable.
  OperandId input(Shape shape, DataType type = kF16, float lo = -1, float hi = 1) {
    const OperandDescriptor d{type, std::move(shape)};
    std::mt19937 rng(100 + static_cast<uint32_t>(feeds_.size()));
    std::uniform_real_distribution<float> real(lo, hi);
    std::vector<float> values(*d.element_count());
    for (float& v : values) v = real(rng);
    return input_values(d, values);
  }
  OperandId input_values(const OperandDescriptor& d, const std::vector<float>& values) {
    Bytes b(*d.byte_length());
    visit_type(d.data_type, [&]<class T>() {
      for (size_t i = 0; i < values.size(); ++i) {
        const T v = static_cast<T>(values[i]);
        std::memcpy(b.data() + i * sizeof(T), &v, sizeof(T));
      }
    });
    feeds_.push_back(std::move(b));
    return builder_.add_input("in" + std::to_string(feeds_.size() - 1), d);
  }
  OperandId constant(Shape shape, DataType type = kF16, float scale = 1) {
    const OperandDescriptor d{type, std::move(shape)};
    std::mt19937 rng(7 + seed_++);
    std::uniform_real_distribution<float> real(-scale, scale);
    std::vector<float> values(*d.element_count());
    for (float& v : values) v = real(rng);
    return constant_values(d.shape, values, type);
  }
  OperandId constant_values(Shape shape, const std::vector<float>& values, DataType type = kF16) {
    const OperandDescriptor d{type, std::move(shape)};
    Bytes b(*d.byte_length());
    visit_type(type, [&]<class T>() {
      for (size_t i = 0; i < values.size(); ++i) {
        const T v = static_cast<T>(values[i]);
        std::memcpy(b.data() + i * sizeof(T), &v, sizeof(T));
      }
    });
    return builder_.add_constant(d, BufferRef::adopt(std::move(b)));
  }

  void compare(size_t index) override {
    const NamedOperand& o = graph_->outputs[index];
    const OperandDescriptor& d = graph_->desc(o.operand);
    const Bytes& actual = actual_[index];
    const Bytes& expected = expected_[index];
    const Float16Tolerance& t = tolerances_[index];
    ASSERT_EQ(actual.size(), expected.size());
    if (d.data_type != kF16 && d.data_type != kF32) {
      EXPECT_EQ(actual, expected) << o.name;
      return;
    }
    const std::vector<double> a = as_doubles(actual, d.data_type), e = as_doubles(expected, d.data_type);
    double scale = 0;
    for (double v : e)
      if (std::isfinite(v)) scale = std::max(scale, std::fabs(v));
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::isnan(e[i]) || !std::isfinite(e[i])) {
        EXPECT_TRUE(std::isnan(e[i]) ? std::isnan(a[i]) : a[i] == e[i]) << o.name << "[" << i << "]: " << a[i];
        continue;
      }
      const double ulps = d.data_type == kF16 ? t.ulps * ulp16(e[i]) : 0;
      ASSERT_LE(std::fabs(a[i] - e[i]), ulps + t.rtol * scale)
          << o.name << "[" << i << "] of " << d.to_string() << ": onednn " << a[i] << ", reference " << e[i];
    }
  }

  // The placement of the first operation of `kind` in the built graph.
  std::string where(OpKind kind) const {
    for (size_t i = 0; i < graph_->operations.size(); ++i)
      if (graph_->operations[i].kind == kind) return placement_[i];
    ADD_FAILURE() << "no " << op_name(kind) << " in the graph";
    return {};
  }

  uint32_t seed_ = 0;
};

// ---- Convolutions, matmul, gemm, pools ----

TEST_F(Float16Test, MobileNetBlockRunsOnOnednn) {
  // conv + bias + clamp, depthwise conv + clamp, 1x1 conv, residual add: the MobileNetV2 block.
  Conv2dAttrs first = conv({1, 1, 1, 1}, {2, 2});
  first.bias = OperandRef{constant({16})};
  const OperandId x = op(OpKind::kClamp, {op(OpKind::kConv2d, {input({1, 3, 18, 18}), constant({16, 3, 3, 3})}, first)},
                         ClampAttrs{0.0, 6.0});
  Conv2dAttrs dw = conv({1, 1, 1, 1}, {1, 1}, 16);
  dw.bias = OperandRef{constant({16})};
  const OperandId y = op(OpKind::kClamp, {op(OpKind::kConv2d, {x, constant({16, 1, 3, 3})}, dw)}, ClampAttrs{0.0, 6.0});
  const OperandId z = op(OpKind::kConv2d, {y, constant({16, 16, 1, 1}, kF16, 0.25f)}, conv({0, 0, 0, 0}));
  output(op(OpKind::kAdd, {z, x}), {2, 1e-3});
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Float16Test, ConvolutionsInEveryLayoutAndTransposed) {
  Conv2dAttrs nhwc = conv({1, 0, 2, 1}, {2, 1});
  nhwc.input_layout = InputLayout::kNhwc;
  nhwc.filter_layout = Conv2dFilterLayout::kOhwi;
  nhwc.dilations = std::vector<uint32_t>{1, 2};
  output(op(OpKind::kConv2d, {input({1, 9, 7, 4}), constant({6, 3, 2, 4})}, nhwc), {1, 0});
  // A filter given at run time (converted at every run).
  output(op(OpKind::kConv2d, {input({2, 4, 6, 6}), input({5, 4, 3, 3})}, conv()), {1, 0});
  ConvTranspose2dAttrs t;
  t.strides = std::vector<uint32_t>{2, 2};
  t.padding = std::vector<uint32_t>{1, 1, 0, 1};
  t.output_padding = std::vector<uint32_t>{1, 1};
  t.bias = OperandRef{constant({6})};
  output(op(OpKind::kConvTranspose2d, {input({1, 4, 5, 5}), constant({4, 6, 3, 3})}, t), {1, 0});
  check();
  EXPECT_EQ(where(OpKind::kConv2d), "onednn");
  EXPECT_EQ(where(OpKind::kConvTranspose2d), "onednn");
}

TEST_F(Float16Test, MatmulAndGemmWithFusedChains) {
  const OperandId x = input({1, 16, 32});
  const OperandId h = op(OpKind::kAdd, {op(OpKind::kMatmul, {x, constant({32, 24}, kF16, 0.3f)}), constant({24})});
  output(op(OpKind::kGelu, {h}), {2, 1e-3});
  output(op(OpKind::kMatmul, {input({3, 1, 5, 7}), input({4, 7, 2})}), {1, 0});
  GemmAttrs g;
  g.a_transpose = true;
  g.alpha = 0.5;
  g.c = OperandRef{constant({1, 4})};
  output(op(OpKind::kRelu, {op(OpKind::kGemm, {input({3, 5}), constant({3, 4})}, g)}), {2, 1e-3});
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Float16Test, PoolsSoftmaxAndLayerNormalization) {
  Pool2dAttrs a;
  a.window_dimensions = std::vector<uint32_t>{3, 3};
  a.strides = std::vector<uint32_t>{2, 2};
  a.padding = std::vector<uint32_t>{1, 0, 0, 1};
  const OperandId x = input({1, 3, 8, 9});
  output(op(OpKind::kAveragePool2d, {x}, a), {1, 0});
  output(op(OpKind::kMaxPool2d, {x}, a), kExactFloat16);  // selects a float16 value: exact
  Pool2dAttrs nhwc;
  nhwc.layout = InputLayout::kNhwc;
  output(op(OpKind::kAveragePool2d, {input({2, 7, 6, 3})}, nhwc), {1, 0});  // global
  output(op(OpKind::kSoftmax, {input({2, 3, 4, 5})}, SoftmaxAttrs{3}), {1, 0});
  LayerNormalizationAttrs ln;
  ln.axes = std::vector<uint32_t>{1};
  ln.scale = OperandRef{constant({6})};
  ln.bias = OperandRef{constant({6})};
  ln.epsilon = 1e-3;
  output(op(OpKind::kLayerNormalization, {input({4, 6})}, ln), {1, 1e-3});
  check();
  EXPECT_TRUE(all_on_onednn());
}

// ---- Element-wise chains ----

TEST_F(Float16Test, StandaloneElementwiseChains) {
  // No anchor: each op is its own eltwise or binary primitive, values float32 between them.
  const OperandId x = input({2, 3, 17, 5});
  OperandId v = op(OpKind::kSigmoid, {x});
  v = op(OpKind::kMul, {v, input({2, 3, 17, 5})});
  v = op(OpKind::kTanh, {v});
  v = op(OpKind::kAdd, {v, constant({5})});  // broadcast
  v = op(OpKind::kLeakyRelu, {v}, LeakyReluAttrs{0.1});
  v = op(OpKind::kHardSwish, {v});
  v = op(OpKind::kElu, {v}, EluAttrs{0.7});
  v = op(OpKind::kDiv, {v, op(OpKind::kAdd, {op(OpKind::kAbs, {x}), constant({}, kF16, 0)})});
  output(op(OpKind::kExp, {op(OpKind::kNeg, {op(OpKind::kSqrt, {op(OpKind::kAbs, {v})})})}), {4, 1e-3});
  output(op(OpKind::kSoftplus, {op(OpKind::kLinear, {x}, LinearAttrs{2.5, -0.25})}), {2, 0});
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Float16Test, ConvWithALongFusedChain) {
  const OperandId c = op(OpKind::kConv2d, {input({1, 4, 5, 5}), constant({4, 4, 3, 3})}, conv());
  OperandId v = op(OpKind::kMul, {c, constant({4, 1, 1})});  // per-channel scale
  v = op(OpKind::kLeakyRelu, {v}, LeakyReluAttrs{0.1});
  v = op(OpKind::kHardSigmoid, {v}, HardSigmoidAttrs{0.3, 0.4});
  v = op(OpKind::kSub, {v, constant({})});
  output(op(OpKind::kElu, {v}, EluAttrs{0.7}), {3, 1e-3});
  check();
  EXPECT_TRUE(all_on_onednn());
}

// ---- Mixed float16 / float32 graphs and exact float16 boundaries ----

TEST_F(Float16Test, MixedFloat16AndFloat32GraphsWithCasts) {
  // float32 -> cast -> float16 conv + relu -> cast -> float32 add: the casts round and widen.
  const OperandId x32 = input({1, 2, 6, 6}, kF32);
  const OperandId x16 = op(OpKind::kCast, {x32}, CastAttrs{kF16});
  const OperandId c = op(OpKind::kRelu, {op(OpKind::kConv2d, {x16, constant({3, 2, 3, 3})}, conv())});
  const OperandId back = op(OpKind::kCast, {c}, CastAttrs{kF32});
  output(op(OpKind::kAdd, {back, input({1, 3, 6, 6}, kF32)}), {0, 1e-3});
  output(back, {0, 1e-3});
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Float16Test, OperationsThatNeedFloat16ValuesReadRoundedOnes) {
  const OperandId a = input({64}, kF16, -4, 4), b = input({64}, kF16, -4, 4);
  const OperandId sum = op(OpKind::kAdd, {a, b});  // onednn, float32 inside
  const OperandId product = op(OpKind::kMul, {a, b});
  // The cast to float32 must see the float16 sum, not the float32 one: bit-identical.
  output(op(OpKind::kCast, {sum}, CastAttrs{kF32}), kExactFloat16);
  output(op(OpKind::kCast, {product}, CastAttrs{DataType::kInt32}), kExactFloat16);
  output(op(OpKind::kGreater, {product, input({64}, kF16, -4, 4)}), kExactFloat16);
  output(op(OpKind::kFloor, {op(OpKind::kMul, {a, constant_values({}, {37.0f})})}), kExactFloat16);
  ArgMinMaxAttrs arg;
  output(op(OpKind::kArgMax, {op(OpKind::kReshape, {sum}, ReshapeAttrs{{8, 8}})}, arg), kExactFloat16);
  check();
  EXPECT_EQ(where(OpKind::kAdd), "onednn");
  EXPECT_EQ(where(OpKind::kMul), "onednn");
  EXPECT_EQ(where(OpKind::kCast), "onednn");  // float16 -> float32: the backend's conversion
  EXPECT_EQ(where(OpKind::kGreater), "reference");
}

TEST_F(Float16Test, OverflowPastFloat16IsInfinityWhereItIsRounded) {
  // 300 * 300 = 90000 overflows float16: the graph output and isInfinite see Infinity.
  const OperandId x = input_values({kF16, {4}}, {300.0f, -300.0f, 200.0f, 1.0f});
  const OperandId square = op(OpKind::kMul, {x, x});
  output(square, kExactFloat16);
  output(op(OpKind::kIsInfinite, {square}), kExactFloat16);
  check();
  const std::vector<double> out = as_doubles(actual_[0], kF16);
  EXPECT_EQ(out[0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(out[2], 40000.0);
  EXPECT_EQ(actual_[1], (Bytes{std::byte{1}, std::byte{1}, std::byte{0}, std::byte{0}}));
}

TEST_F(Float16Test, OptionsAreCastToFloat16) {
  // spec: clamp's bounds and leakyRelu's alpha are cast to the input's type. With 0.1 taken as a
  // float32, clamp(x, max 0.1) - float16(0.1) would be 2.4e-5, and x * 0.1 would round
  // differently from x * float16(0.1) for about a third of the values.
  const OperandId x = input({256}, kF16, -2, 2);
  ClampAttrs c;
  c.max_value = 0.1;
  output(op(OpKind::kSub, {op(OpKind::kClamp, {x}, c), constant_values({}, {0.1f})}), kExactFloat16);
  output(op(OpKind::kLeakyRelu, {x}, LeakyReluAttrs{0.1}), kExactFloat16);
  PadAttrs p;
  p.beginning_padding = {1};
  p.ending_padding = {2};
  p.value = 0.1;
  output(op(OpKind::kSub, {op(OpKind::kPad, {x}, p), constant_values({}, {0.1f})}), kExactFloat16);
  check();
  EXPECT_EQ(where(OpKind::kClamp), "onednn");
  EXPECT_EQ(where(OpKind::kLeakyRelu), "onednn");
}

TEST_F(Float16Test, DataMovementAndSelectionStayExact) {
  const OperandId x = input({2, 3, 4});
  const OperandId y = op(OpKind::kRelu, {x});  // float32 from here
  SliceAttrs s;
  s.starts = {0, 1, 0};
  s.sizes = {2, 2, 3};
  const OperandId sliced = op(OpKind::kSlice, {y}, s);
  TransposeAttrs t;
  t.permutation = std::vector<uint32_t>{0, 2, 1};
  const OperandId z = op(OpKind::kConcat, {sliced, op(OpKind::kTranspose, {input({2, 3, 2})}, t)}, ConcatAttrs{1});
  output(z, kExactFloat16);
  const OperandId indices = input_values({DataType::kInt32, {3}}, {2.0f, 0.0f, 1.0f});
  output(op(OpKind::kGather, {y, indices}, GatherAttrs{1}), kExactFloat16);
  const OperandId condition = input_values({DataType::kUint8, {4}}, {1, 0, 0, 1});
  output(op(OpKind::kWhere, {condition, y, op(OpKind::kNeg, {x})}), kExactFloat16);
  check();
  EXPECT_EQ(where(OpKind::kRelu), "onednn");
}

TEST_F(Float16Test, Float16OperationsWithoutAFastPathKeepTheirReferenceKernels) {
  // reduceSum and instanceNormalization stay float16 on their reference kernels, between
  // operations that run on oneDNN: conversions at both ends of each.
  const OperandId x = op(OpKind::kRelu, {input({1, 4, 5, 6})});
  ReduceAttrs r;
  r.axes = std::vector<uint32_t>{3};
  r.keep_dimensions = true;
  const OperandId sum = op(OpKind::kReduceSum, {x}, r);
  output(op(OpKind::kSigmoid, {op(OpKind::kMul, {x, sum})}), {2, 1e-3});
  output(op(OpKind::kTanh, {op(OpKind::kInstanceNormalization, {x}, InstanceNormalizationAttrs{})}), {2, 1e-3});
  check();
  EXPECT_EQ(where(OpKind::kRelu), "onednn");
  EXPECT_EQ(where(OpKind::kReduceSum), "reference");
  EXPECT_EQ(where(OpKind::kMul), "onednn");
  EXPECT_EQ(where(OpKind::kInstanceNormalization), "reference");
}

TEST_F(Float16Test, WidenedOperationsOneDnnRefusesRunTheirFloat32ReferenceKernels) {
  // gemm with beta 0.25 and layerNormalization over a middle axis have no oneDNN primitive: they
  // run their float32 reference kernels on the widened values. x is also read by a float16 floor.
  const OperandId x = input({5, 6});
  GemmAttrs g;
  g.beta = 0.25;
  g.c = OperandRef{input({5, 4})};
  output(op(OpKind::kGemm, {x, constant({6, 4})}, g), {1, 0});
  LayerNormalizationAttrs ln;
  ln.axes = std::vector<uint32_t>{1};
  output(op(OpKind::kLayerNormalization, {input({2, 3, 4})}, ln), {1, 0});
  output(op(OpKind::kFloor, {op(OpKind::kMul, {x, constant_values({}, {9.0f})})}), kExactFloat16);
  check();
  EXPECT_EQ(where(OpKind::kGemm), "reference");
  EXPECT_EQ(where(OpKind::kLayerNormalization), "reference");
  EXPECT_EQ(where(OpKind::kMul), "onednn");
}

// ---- Graph outputs and the conversions ----

TEST_F(Float16Test, GraphOutputsInFloat16BoundEveryWay) {
  const OperandId x = input({1, 4, 4, 4});
  const OperandId c = op(OpKind::kConv2d, {x, constant({4, 4, 3, 3})}, conv());
  output(c);                                                             // read again below
  output(op(OpKind::kRelu, {c}));                                        // a widened producer
  output(c);                                                             // the same operand twice
  output(op(OpKind::kReshape, {x}, ReshapeAttrs{{64}}), kExactFloat16);  // a view of a graph input
  auto split = builder_.add_operation(OpKind::kSplit, {op(OpKind::kSigmoid, {c})}, SplitAttrs{uint32_t{2}, 1});
  output(split[0], {1, 1e-3});  // sigmoid of an unrounded value: the reference rounds c first
  output(split[1], {1, 1e-3});
  check();
  EXPECT_TRUE(all_on_onednn() || where(OpKind::kSplit) == "reference");
  EXPECT_EQ(where(OpKind::kConv2d), "onednn");
}

TEST_F(Float16Test, ConversionsAreExactForEveryFloat16Value) {
  // All 65536 float16 values through float32 and back (an identity computed in float32), and
  // float32 values rounded to float16 by a cast, as the reference rounds them: ties to even,
  // overflow past 65520 to Infinity, subnormals.
  std::vector<uint16_t> every(65536);
  for (size_t i = 0; i < every.size(); ++i) every[i] = static_cast<uint16_t>(i);
  const OperandId x = input_bytes({kF16, {65536}}, bytes_of(every));
  output(op(OpKind::kIdentity, {x}), kExactFloat16);
  std::vector<float> tricky = {0.0f,
                               -0.0f,
                               1.0f + 0x1p-11f,
                               1.0f + 3 * 0x1p-11f,
                               65504.0f,
                               65519.99f,
                               65520.0f,
                               -65520.0f,
                               0x1p-25f,
                               0x1p-24f,
                               0x1.8p-25f,
                               1e-8f,
                               3.14159f,
                               -2.71828f,
                               1e30f,
                               -1e-30f,
                               0.1f,
                               0.2f,
                               0.3f};
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> wide(-70000.0f, 70000.0f);
  for (int i = 0; i < 5000; ++i) tricky.push_back(wide(rng));
  for (int i = 0; i < 5000; ++i) tricky.push_back(std::ldexp(wide(rng), -20));
  const OperandId y = input_values({kF32, {static_cast<uint32_t>(tricky.size())}}, tricky);
  output(op(OpKind::kCast, {y}, CastAttrs{kF16}), kExactFloat16);
  check();
  // Bit for bit, apart from NaN payloads (compared as NaN above).
  const std::vector<double> a = as_doubles(actual_[0], kF16);
  for (size_t i = 0; i < every.size(); ++i) {
    if (std::isnan(a[i])) continue;
    uint16_t h;
    std::memcpy(&h, actual_[0].data() + i * 2, 2);
    ASSERT_EQ(h, every[i]) << i;
  }
  EXPECT_EQ(actual_[1], expected_[1]);
  EXPECT_EQ(where(OpKind::kCast), "onednn");
}

}  // namespace
}  // namespace webnn::test
