// int8 QDQ patterns on the onednn backend (src/backends/onednn/quantized.hpp) against the
// reference backend, which evaluates every dequantizeLinear, float32 operation and quantizeLinear
// on its own. A fused pattern runs on oneDNN's int8 kernels, which round differently from the
// float emulation (one product of scales, an int32 accumulator): a quantized output may differ by
// one quantum, a float32 output by a few float32 roundings of its largest value. Patterns that must
// not be fused (weight zero points, block scales, per-channel activation scales, a dequantized value
// read elsewhere too, uint8 weights, ...) must still give the reference's results. The stand-alone
// per-tensor quantize/dequantize kernels must give exactly the reference's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "backends/backend.hpp"
#include "backends/onednn/quantized.hpp"
#include "core/dispatch.hpp"
#include "graph/graph_builder.hpp"
#include "onednn_test_util.hpp"

namespace webnn::test {
namespace {

constexpr DataType kU8 = DataType::kUint8;
constexpr DataType kI8 = DataType::kInt8;
constexpr DataType kI32 = DataType::kInt32;

using Bytes = std::vector<std::byte>;

// How onednn may differ from the reference: quantized outputs by `quanta`, float32 outputs by
// `rtol` times the output's largest magnitude.
struct Int8Tolerance {
  int quanta = 1;
  double rtol = 1e-5;
};
constexpr Int8Tolerance kExactInt8{0, 0};

class Int8Test : public test::BackendComparison<Int8Tolerance> {
 protected:
  // A tensor of `type` with seeded values: integers in [lo, hi] for the integer types, reals in
  // [lo, hi) for float32.
  Bytes values(const OperandDescriptor& d, double lo, double hi) {
    std::mt19937 rng(11 + seed_++);
    Bytes b(*d.byte_length());
    visit_type(d.data_type, [&]<class T>() {
      if constexpr (std::is_arithmetic_v<T>)
        for (size_t i = 0; i < *d.element_count(); ++i) {
          T v;
          if constexpr (std::is_floating_point_v<T>) {
            v = static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(rng));
          } else {
            v = static_cast<T>(
                std::uniform_int_distribution<int64_t>(static_cast<int64_t>(lo), static_cast<int64_t>(hi))(rng));
          }
          std::memcpy(b.data() + i * sizeof(T), &v, sizeof(T));
        }
    });
    return b;
  }
  OperandId input(Shape shape, DataType type, double lo, double hi) {
    const OperandDescriptor d{type, std::move(shape)};
    feeds_.push_back(values(d, lo, hi));
    return builder_.add_input("in" + std::to_string(feeds_.size() - 1), d);
  }
  OperandId constant(Shape shape, DataType type, double lo, double hi) {
    const OperandDescriptor d{type, std::move(shape)};
    return builder_.add_constant(d, BufferRef::adopt(values(d, lo, hi)));
  }
  template <class T>
  OperandId constant_of(Shape shape, DataType type, const std::vector<T>& v) {
    const OperandDescriptor d{type, std::move(shape)};
    Bytes b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return builder_.add_constant(d, BufferRef::adopt(std::move(b)));
  }
  // One scale and zero point of the input's rank.
  OperandId scalar_scale(size_t rank, float scale) {
    return constant_of(Shape(rank, 1), kF32, std::vector<float>{scale});
  }
  template <class Z>
  OperandId scalar_zp(size_t rank, DataType type, Z zp) {
    return constant_of(Shape(rank, 1), type, std::vector<Z>{zp});
  }
  OperandId dq(OperandId x, OperandId scale, OperandId zp) { return op(OpKind::kDequantizeLinear, {x, scale, zp}); }
  OperandId q(OperandId x, OperandId scale, OperandId zp) { return op(OpKind::kQuantizeLinear, {x, scale, zp}); }
  // dequantizeLinear of an activation with one scale and zero point.
  template <class Z>
  OperandId dq_tensor(OperandId x, float scale, Z zp) {
    const size_t rank = builder_.graph().desc(x).shape.size();
    return dq(x, scalar_scale(rank, scale), scalar_zp(rank, builder_.graph().desc(x).data_type, zp));
  }
  template <class Z>
  OperandId q_tensor(OperandId x, float scale, DataType type, Z zp) {
    const size_t rank = builder_.graph().desc(x).shape.size();
    return q(x, scalar_scale(rank, scale), scalar_zp(rank, type, zp));
  }
  // Symmetric int8 weights of `shape` with one scale per element of `scale_shape` (seeded, in
  // [0.005, 0.02)) and zero points 0.
  OperandId weights(const Shape& shape, const Shape& scale_shape) {
    const OperandId w = constant(shape, kI8, -127, 127);
    const OperandId s = constant(scale_shape, kF32, 0.005, 0.02);
    size_t count = 1;
    for (uint32_t d : scale_shape) count *= d;
    return dq(w, s, constant_of(scale_shape, kI8, std::vector<int8_t>(count, 0)));
  }

  static std::vector<double> as_doubles(const Bytes& bytes, DataType type) {
    std::vector<double> out;
    visit_type(type, [&]<class T>() {
      for (size_t i = 0; i < bytes.size(); i += sizeof(T)) {
        if constexpr (std::is_arithmetic_v<T>) {
          T v;
          std::memcpy(&v, bytes.data() + i, sizeof(T));
          out.push_back(static_cast<double>(v));
        }
      }
    });
    return out;
  }

  void compare(size_t index) override {
    const NamedOperand& o = graph_->outputs[index];
    const OperandDescriptor& d = graph_->desc(o.operand);
    ASSERT_EQ(actual_[index].size(), expected_[index].size());
    const std::vector<double> a = as_doubles(actual_[index], d.data_type);
    const std::vector<double> e = as_doubles(expected_[index], d.data_type);
    const Int8Tolerance& t = tolerances_[index];
    double largest = 0;
    for (double v : e)
      if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
    size_t off_by_one = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::isnan(e[i])) {
        EXPECT_TRUE(std::isnan(a[i])) << o.name << "[" << i << "]";
        continue;
      }
      if (a[i] == e[i]) continue;  // infinities included
      const double allowed = d.data_type == kF32 ? t.rtol * largest : t.quanta;
      ASSERT_LE(std::fabs(a[i] - e[i]), allowed)
          << o.name << "[" << i << "] of " << d.to_string() << ": onednn " << a[i] << ", reference " << e[i];
      off_by_one += a[i] != e[i];
    }
    // Rounding differences are rare: most quantized values must be identical.
    if (d.data_type != kF32) EXPECT_LE(off_by_one, a.size() / 20 + 1) << o.name;
  }

  // The placements of the operations of `kind` in the built graph.
  std::vector<std::string> where(OpKind kind) const {
    std::vector<std::string> out;
    for (size_t i = 0; i < graph_->operations.size(); ++i)
      if (graph_->operations[i].kind == kind) out.push_back(placement_[i]);
    return out;
  }

  // Whether the `nth` dequantizeLinear of the built graph is read only by weight-only products
  // (weight_only.hpp) and so has no step of its own: its float32 values are never written.
  bool weight_only(size_t nth) const {
    const std::vector<uint8_t> specials = onednn::may_hold_specials(*graph_, true);
    const onednn::Fusion fusion(*graph_, specials);
    const onednn::QuantizedFusion q(*graph_, fusion);
    for (size_t i = 0, seen = 0; i < graph_->operations.size(); ++i) {
      if (graph_->operations[i].kind != OpKind::kDequantizeLinear || seen++ != nth) continue;
      bool read = false;
      for (size_t r = 0; r < graph_->operations.size(); ++r)
        if (q.weight_only(r) && q.weight_only(r)->dequantize == i) read = true;
      return read && q.absorbed(i) && placement_[i] == "onednn";
    }
    return false;
  }
  // gemm(a, dequantizeLinear(w, scale, zero point)) options.
  static GemmAttrs gemm(bool b_transpose, std::optional<OperandId> c = std::nullopt, double alpha = 1,
                        double beta = 1) {
    GemmAttrs g;
    g.b_transpose = b_transpose;
    if (c) g.c = OperandRef{*c};
    g.alpha = alpha;
    g.beta = beta;
    return g;
  }

  uint32_t seed_ = 0;
};

// A per-channel weight dequantization runs on no kernel of its own (own_quantization takes one
// scale only): "onednn" placement of it means it was absorbed into an int8 primitive.

TEST_F(Int8Test, Conv2dPerTensorWithBiasClampAndQuantize) {
  const OperandId x = dq_tensor(input({1, 8, 9, 9}, kU8, 0, 255), 0.02f, uint8_t{128});
  Conv2dAttrs a = conv();
  a.bias = OperandRef{constant({16}, kF32, -0.5, 0.5)};
  const OperandId y = op(OpKind::kConv2d, {x, weights({16, 8, 3, 3}, {1, 1, 1, 1})}, a);
  output(q_tensor(op(OpKind::kClamp, {y}, ClampAttrs{0.0, 6.0}), 0.025f, kU8, uint8_t{0}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, Conv2dPerChannelInt8ActivationsDequantizedBias) {
  // int8 activations with a zero point, a bias dequantized from int32, relu, quantized to int8.
  const OperandId x = dq_tensor(input({2, 16, 7, 7}, kI8, -128, 127), 0.03f, int8_t{-5});
  Conv2dAttrs a = conv({1, 1, 1, 1}, {2, 2});
  a.bias = OperandRef{dq(constant({32}, kI32, -2000, 2000), constant({32}, kF32, 1e-4, 4e-4),
                         constant_of({32}, kI32, std::vector<int32_t>(32, 0)))};
  const OperandId y = op(OpKind::kConv2d, {x, weights({32, 16, 3, 3}, {32, 1, 1, 1})}, a);
  output(q_tensor(op(OpKind::kRelu, {y}), 0.04f, kI8, int8_t{-100}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, DepthwiseNhwcPerChannelFloatOutput) {
  // Depthwise, NHWC input, OHWI filter with per-channel scales on its first axis; no quantizeLinear:
  // the primitive writes float32.
  const OperandId x = dq_tensor(input({1, 10, 10, 24}, kU8, 0, 255), 0.05f, uint8_t{3});
  Conv2dAttrs a = conv({1, 1, 1, 1}, {1, 1}, 24);
  a.input_layout = InputLayout::kNhwc;
  a.filter_layout = Conv2dFilterLayout::kOhwi;
  a.bias = OperandRef{constant({24}, kF32, -1, 1)};
  output(
      op(OpKind::kClamp, {op(OpKind::kConv2d, {x, weights({24, 3, 3, 1}, {24, 1, 1, 1})}, a)}, ClampAttrs{0.0, 6.0}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, HwioFilterAndChainNotCommutingWithTheScale) {
  // sigmoid does not commute with the quantizeLinear's scale: it becomes a last linear post-op.
  const OperandId x = dq_tensor(input({1, 8, 6, 6}, kU8, 0, 255), 0.01f, uint8_t{0});
  Conv2dAttrs a = conv({0, 0, 0, 0});
  a.filter_layout = Conv2dFilterLayout::kHwio;
  const OperandId y = op(OpKind::kConv2d, {x, weights({1, 1, 8, 16}, {1, 1, 1, 16})}, a);
  output(q_tensor(op(OpKind::kSigmoid, {y}), 1.0f / 256, kU8, uint8_t{0}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, ConvTranspose2dPerChannel) {
  const OperandId x = dq_tensor(input({1, 8, 5, 5}, kU8, 0, 255), 0.02f, uint8_t{100});
  ConvTranspose2dAttrs a;
  a.strides = std::vector<uint32_t>{2, 2};
  a.bias = OperandRef{constant({12}, kF32, -0.5, 0.5)};
  const OperandId y = op(OpKind::kConvTranspose2d, {x, weights({8, 12, 3, 3}, {1, 12, 1, 1})}, a);
  output(q_tensor(y, 0.02f, kU8, uint8_t{128}));
  check();
  // oneDNN 2.6 may have no int8 deconvolution with these attributes; either way, the results.
  for (const std::string& p : where(OpKind::kConvTranspose2d)) EXPECT_EQ(p, "onednn");
}

TEST_F(Int8Test, GroupedDilatedConvolutionsWithZeroPoints) {
  // oneDNN's gemm-based int8 kernels: grouped, dilated, per-channel, both zero points.
  const OperandId x = dq_tensor(input({1, 8, 9, 9}, kI8, -128, 127), 0.02f, int8_t{100});
  Conv2dAttrs a = conv({2, 2, 2, 2}, {1, 1}, 2);
  a.dilations = std::vector<uint32_t>{2, 2};
  output(q_tensor(op(OpKind::kConv2d, {x, weights({6, 4, 3, 3}, {6, 1, 1, 1})}, a), 0.02f, kI8, int8_t{-3}));
  const OperandId y = dq_tensor(input({1, 8, 5, 5}, kU8, 0, 255), 0.02f, uint8_t{100});
  ConvTranspose2dAttrs t;
  t.strides = std::vector<uint32_t>{2, 2};
  t.dilations = std::vector<uint32_t>{2, 2};
  t.groups = 2;
  output(q_tensor(op(OpKind::kConvTranspose2d, {y, weights({8, 6, 3, 3}, {1, 6, 1, 1})}, t), 0.02f, kU8, uint8_t{128}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, MatmulBatchedPerChannelQuantized) {
  const OperandId x = dq_tensor(input({2, 5, 32}, kU8, 0, 255), 0.01f, uint8_t{60});
  const OperandId y = op(OpKind::kMatmul, {x, weights({32, 24}, {1, 24})});
  output(q_tensor(op(OpKind::kRelu, {y}), 0.03f, kU8, uint8_t{0}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, MatmulBatchedWeightsPerChannel) {
  // B with batches of its own (the batched matmul, per-channel scales on its last axis).
  const OperandId x = dq_tensor(input({2, 3, 16}, kU8, 0, 255), 0.02f, uint8_t{128});
  output(q_tensor(op(OpKind::kMatmul, {x, weights({2, 16, 8}, {1, 1, 8})}), 0.05f, kU8, uint8_t{128}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, MatmulPerTensorFloatOutput) {
  const OperandId x = dq_tensor(input({7, 40}, kI8, -128, 127), 0.02f, int8_t{0});
  output(op(OpKind::kMatmul, {x, weights({40, 9}, {1, 1})}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, GemmTransposedPerChannelWithAlphaAndC) {
  GemmAttrs a;
  a.b_transpose = true;
  a.alpha = 0.5;
  a.c = OperandRef{constant({1, 10}, kF32, -1, 1)};
  const OperandId x = dq_tensor(input({6, 20}, kU8, 0, 255), 0.05f, uint8_t{10});
  output(op(OpKind::kGemm, {x, weights({10, 20}, {10, 1})}, a));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, GemmQuantizedWithoutC) {
  // A transposed A too; alpha 2 is a linear post-op, which the quantizeLinear's scale then scales.
  GemmAttrs a;
  a.c.reset();
  a.alpha = 2.0;
  a.a_transpose = true;
  const OperandId x = dq_tensor(input({16, 4}, kU8, 0, 255), 0.05f, uint8_t{10});
  output(q_tensor(op(OpKind::kGemm, {x, weights({16, 8}, {1, 8})}, a), 0.1f, kI8, int8_t{3}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, MatmulHardSigmoidQuantized) {
  // hardSigmoid is linear + clip post-ops; the quantizeLinear's scale follows as its own.
  const OperandId x = dq_tensor(input({3, 24}, kU8, 0, 255), 0.05f, uint8_t{128});
  const OperandId y = op(OpKind::kMatmul, {x, weights({24, 16}, {1, 16})});
  output(q_tensor(op(OpKind::kHardSigmoid, {y}, HardSigmoidAttrs{0.3, 0.5}), 1.0f / 200, kU8, uint8_t{20}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

// ---- Patterns that must not be fused, and still give the reference's results ----

TEST_F(Int8Test, WeightZeroPointIsNotFused) {
  const OperandId x = dq_tensor(input({1, 4, 6, 6}, kU8, 0, 255), 0.02f, uint8_t{128});
  const OperandId w = dq(constant({8, 4, 3, 3}, kI8, -127, 127), constant({8, 1, 1, 1}, kF32, 0.01, 0.02),
                         constant({8, 1, 1, 1}, kI8, -3, 3));
  output(q_tensor(op(OpKind::kConv2d, {x, w}, conv()), 0.05f, kU8, uint8_t{128}));
  check();
  EXPECT_EQ(where(OpKind::kDequantizeLinear)[1], "reference");
}

TEST_F(Int8Test, BlockScalesAreNotFused) {
  // Weight scales in blocks of 4 input channels.
  const OperandId x = dq_tensor(input({1, 8, 5, 5}, kU8, 0, 255), 0.02f, uint8_t{128});
  const OperandId w = dq(constant({4, 8, 1, 1}, kI8, -127, 127), constant({4, 2, 1, 1}, kF32, 0.01, 0.02),
                         constant_of({4, 2, 1, 1}, kI8, std::vector<int8_t>(8, 0)));
  output(q_tensor(op(OpKind::kConv2d, {x, w}, conv({0, 0, 0, 0})), 0.05f, kU8, uint8_t{128}));
  check();
  EXPECT_EQ(where(OpKind::kDequantizeLinear)[1], "reference");
}

TEST_F(Int8Test, PerChannelActivationScaleIsNotFused) {
  const OperandId xq = input({1, 4, 5, 5}, kU8, 0, 255);
  const OperandId x = dq(xq, constant({1, 4, 1, 1}, kF32, 0.01, 0.03), constant({1, 4, 1, 1}, kU8, 120, 136));
  output(op(OpKind::kConv2d, {x, weights({6, 4, 3, 3}, {6, 1, 1, 1})}, conv()));
  check();
  EXPECT_EQ(where(OpKind::kDequantizeLinear)[0], "reference");
  EXPECT_EQ(where(OpKind::kDequantizeLinear)[1], "reference");
}

TEST_F(Int8Test, Uint8WeightsAreNotAnInt8Primitive) {
  // oneDNN 2.6 takes no uint8 weights: the matmul reads them on the weight-only path instead (its
  // input's dequantization keeps its own step).
  const OperandId x = dq_tensor(input({3, 12}, kU8, 0, 255), 0.02f, uint8_t{128});
  const OperandId w = dq(constant({12, 5}, kU8, 0, 255), constant({1, 5}, kF32, 0.01, 0.02),
                         constant_of({1, 5}, kU8, std::vector<uint8_t>(5, 128)));
  output(op(OpKind::kMatmul, {x, w}));
  check();
  EXPECT_TRUE(weight_only(1));
}

// ---- Weight-only int8: float32 activations, 8-bit constant weights (weight_only.hpp) ----

TEST_F(Int8Test, WeightOnlyGemvPerChannelWithTails) {
  // One row (a decode step); k and n not multiples of the vector width or the 64-output chunk.
  const OperandId x = input({1, 100}, kF32, -1, 1);
  const OperandId w = weights({70, 100}, {70, 1});
  output(op(OpKind::kGemm, {x, w}, gemm(true, constant({70}, kF32, -1, 1))));
  check();
  EXPECT_TRUE(weight_only(0));
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, WeightOnlyBlocksOf32WithZeroPoints) {
  // Blocks of 32 along k, int8 zero points, three rows (one group of the dot-product kernel).
  const OperandId x = input({3, 128}, kF32, -2, 2);
  const OperandId w =
      dq(constant({40, 128}, kI8, -127, 127), constant({40, 4}, kF32, 0.005, 0.02), constant({40, 4}, kI8, -8, 8));
  output(op(OpKind::kGemm, {x, w}, gemm(true)));
  check();
  EXPECT_TRUE(weight_only(0));
}

TEST_F(Int8Test, WeightOnlyUint8MatmulBlocksAlongKSevenRows) {
  // matmul's B [k, n] (transposed once into rows of k), uint8 with zero points, blocks of 16
  // along k; seven rows: a group of four and one of three.
  const OperandId x = input({7, 64}, kF32, -1, 1);
  const OperandId w =
      dq(constant({64, 48}, kU8, 0, 255), constant({4, 48}, kF32, 0.005, 0.02), constant({4, 48}, kU8, 120, 136));
  output(op(OpKind::kMatmul, {x, w}));
  check();
  EXPECT_TRUE(weight_only(0));
}

TEST_F(Int8Test, WeightOnlyPromptRowsWithAlphaBetaAndC) {
  // More rows than the dot-product kernel takes: dequantized panels and sgemm; alpha, beta and a
  // row of c.
  const OperandId x = input({20, 96}, kF32, -1, 1);
  const OperandId w = weights({130, 96}, {130, 1});
  output(op(OpKind::kGemm, {x, w}, gemm(true, constant({1, 130}, kF32, -1, 1), 0.5, 2.0)));
  check();
  EXPECT_TRUE(weight_only(0));
}

TEST_F(Int8Test, WeightOnlyBatchedMatmulPerTensorAndBatchOfOneWeights) {
  // a [2, 5, 64] times B [1, 64, 33] (a batch of one): ten rows of one 2-D product.
  const OperandId x = input({2, 5, 64}, kF32, -1, 1);
  const OperandId w = weights({1, 64, 33}, {1, 1, 1});
  output(op(OpKind::kMatmul, {x, w}));
  check();
  EXPECT_TRUE(weight_only(0));
}

TEST_F(Int8Test, WeightOnlyProductWithAFusedResidualChain) {
  // gemm, then an add of the residual and a relu (a chain oneDNN would fuse): the chain runs after
  // the weight-only product.
  const OperandId x = input({1, 64}, kF32, -1, 1);
  const OperandId y = op(OpKind::kGemm, {x, weights({64, 64}, {64, 1})}, gemm(true));
  output(op(OpKind::kRelu, {op(OpKind::kAdd, {y, x})}));
  check();
  EXPECT_TRUE(weight_only(0));
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, WeightOnlyDequantizedValueReadElsewhereKeepsItsStep) {
  // The dequantized weights are also a graph output: the product still reads the 8-bit bytes, the
  // dequantization keeps its own step for the output.
  const OperandId x = input({2, 32}, kF32, -1, 1);
  const OperandId w = weights({16, 32}, {16, 2});
  output(w, kExactInt8);
  output(op(OpKind::kGemm, {x, w}, gemm(true)));
  check();
  EXPECT_FALSE(weight_only(0));
  EXPECT_EQ(where(OpKind::kGemm)[0], "onednn");
}

TEST_F(Int8Test, WeightOnlyPropagatesNaNAndInfinity) {
  // a NaN and an infinity in the activations reach the outputs as the reference's float32
  // product gives them.
  const OperandDescriptor d{kF32, {2, 16}};
  std::vector<float> v(32, 0.5f);
  v[3] = std::numeric_limits<float>::quiet_NaN();
  v[16 + 5] = std::numeric_limits<float>::infinity();
  Bytes b(v.size() * sizeof(float));
  std::memcpy(b.data(), v.data(), b.size());
  const OperandId x = input_bytes(d, std::move(b));
  output(op(OpKind::kGemm, {x, weights({8, 16}, {8, 1})}, gemm(true)));
  check();
  EXPECT_TRUE(weight_only(0));
}

TEST_F(Int8Test, SharedDequantizedValuesAndGraphOutputs) {
  // The dequantized input is also a graph output and read by an add; the convolution's float32
  // result is also read by a second quantizeLinear: the int8 primitive still reads the uint8 input,
  // and the dequantization keeps its own step.
  const OperandId x = dq_tensor(input({1, 8, 6, 6}, kU8, 0, 255), 0.02f, uint8_t{128});
  output(x, kExactInt8);
  const OperandId y = op(OpKind::kConv2d, {x, weights({8, 8, 1, 1}, {8, 1, 1, 1})}, conv({0, 0, 0, 0}));
  output(q_tensor(y, 0.05f, kU8, uint8_t{128}));
  output(q_tensor(y, 0.1f, kI8, int8_t{0}));
  output(op(OpKind::kAdd, {y, x}));
  check();
}

TEST_F(Int8Test, QuantizeAfterResidualAddIsNotFolded) {
  // conv + add(residual) + quantizeLinear: the add is a sum post-op, so the quantizeLinear keeps its
  // own step (its input holds the float32 sum).
  const OperandId x = dq_tensor(input({1, 16, 6, 6}, kU8, 0, 255), 0.02f, uint8_t{128});
  const OperandId y = op(OpKind::kConv2d, {x, weights({16, 16, 1, 1}, {16, 1, 1, 1})}, conv({0, 0, 0, 0}));
  output(q_tensor(op(OpKind::kAdd, {y, x}), 0.05f, kU8, uint8_t{128}));
  check();
}

TEST_F(Int8Test, MobileNetBlockInQdqForm) {
  // Q(input) -> conv+clamp -> Q -> DQ -> depthwise+clamp -> Q -> DQ -> 1x1 -> Q -> DQ -> add(DQ of
  // the block input) -> Q -> DQ -> average pool: the MobileNetV2 block of bench/quantize.py.
  const OperandId image = input({1, 3, 16, 16}, kF32, -2, 2);
  OperandId t = q_tensor(image, 0.02f, kU8, uint8_t{128});
  auto conv_q = [&](OperandId in, float in_scale, uint8_t in_zp, uint32_t cin, uint32_t cout, Conv2dAttrs a, bool clamp,
                    float out_scale, uint8_t out_zp) {
    const uint32_t per_group = cin / a.groups;
    const uint32_t k = a.padding.given() && (*a.padding)[0] == 1 ? 3 : 1;
    a.bias = OperandRef{constant({cout}, kF32, -0.2, 0.2)};
    OperandId y =
        op(OpKind::kConv2d, {dq_tensor(in, in_scale, in_zp), weights({cout, per_group, k, k}, {cout, 1, 1, 1})}, a);
    if (clamp) y = op(OpKind::kClamp, {y}, ClampAttrs{0.0, 6.0});
    return q_tensor(y, out_scale, kU8, out_zp);
  };
  const OperandId x0 = conv_q(t, 0.02f, 128, 3, 16, conv({1, 1, 1, 1}, {2, 2}), true, 6.0f / 255, 0);
  OperandId x = conv_q(x0, 6.0f / 255, 0, 16, 16, conv({1, 1, 1, 1}, {1, 1}, 16), true, 6.0f / 255, 0);
  x = conv_q(x, 6.0f / 255, 0, 16, 16, conv({0, 0, 0, 0}), false, 0.03f, 120);
  const OperandId sum = op(OpKind::kAdd, {dq_tensor(x, 0.03f, uint8_t{120}), dq_tensor(x0, 6.0f / 255, uint8_t{0})});
  const OperandId r = dq_tensor(q_tensor(sum, 0.04f, kU8, uint8_t{100}), 0.04f, uint8_t{100});
  output(op(OpKind::kAveragePool2d, {r}, Pool2dAttrs{}), {1, 1e-6});
  check();
  EXPECT_TRUE(all_on_onednn());
}

// ---- float32: a matmul chain repeating an eltwise algorithm ----

TEST_F(Int8Test, MatmulChainRepeatingAnAlgorithm) {
  // oneDNN 2.6's brgemm matmul gave the second linear post-op the first one's parameters (5.64
  // instead of 29.2): a link repeating an algorithm ends a matmul's chain (fusion.cpp).
  const OperandId y = op(OpKind::kMatmul, {input({3, 24}, kF32, -1, 1), constant({24, 16}, kF32, -1, 1)});
  output(op(OpKind::kLinear, {op(OpKind::kLinear, {y}, LinearAttrs{2.0, 0.0})}, LinearAttrs{10.0, 1.0}));
  GemmAttrs a;
  a.alpha = 0.5;  // itself a linear post-op
  a.c.reset();
  const OperandId z = op(OpKind::kGemm, {input({3, 24}, kF32, -1, 1), constant({24, 16}, kF32, -1, 1)}, a);
  output(op(OpKind::kClamp,
            {op(OpKind::kHardSigmoid, {op(OpKind::kLinear, {z}, LinearAttrs{3.0, 0.0})}, HardSigmoidAttrs{})},
            ClampAttrs{0.1, 0.9}));
  check();
  EXPECT_TRUE(all_on_onednn());
}

// ---- The residual add in one pass ----

TEST_F(Int8Test, ResidualAddInOnePassIsExact) {
  // uint8 + int8 -> int8, long enough to be split over threads, with the reference's values exactly;
  // the int8 operand's dequantization is also read elsewhere (it keeps its own step).
  const OperandId a = input({1, 8, 100, 100}, kU8, 0, 255);
  const OperandId b = input({1, 8, 100, 100}, kI8, -128, 127);
  const OperandId db = dq_tensor(b, 0.03f, int8_t{-7});
  const OperandId sum = op(OpKind::kAdd, {dq_tensor(a, 0.02f, uint8_t{100}), db});
  output(q_tensor(sum, 0.04f, kI8, int8_t{5}), kExactInt8);
  output(db, kExactInt8);
  // Ties: x / scale lands on k + 0.5 for many of these.
  const OperandId c = input({2, 3, 7}, kU8, 0, 255);
  const OperandId sum2 = op(OpKind::kAdd, {dq_tensor(c, 0.5f, uint8_t{0}), dq_tensor(c, 0.25f, uint8_t{3})});
  output(q_tensor(sum2, 1.0f, kU8, uint8_t{0}), kExactInt8);
  check();
  EXPECT_TRUE(all_on_onednn());
}

TEST_F(Int8Test, BroadcastingAddIsNotOnePass) {
  const OperandId a = input({1, 4, 5, 5}, kU8, 0, 255);
  const OperandId b = input({1, 4, 1, 1}, kU8, 0, 255);
  const OperandId sum = op(OpKind::kAdd, {dq_tensor(a, 0.02f, uint8_t{100}), dq_tensor(b, 0.03f, uint8_t{7})});
  output(q_tensor(sum, 0.04f, kU8, uint8_t{128}), kExactInt8);
  check();
}

// ---- The stand-alone kernels ----

TEST_F(Int8Test, StandaloneQuantizeAndDequantizeAreExact) {
  // Ties (x / scale = k + 0.5), saturation, NaN, infinities, -0, and a tensor long enough to be
  // split over threads, in both 8-bit types.
  std::vector<float> v = {0.5f,
                          1.5f,
                          2.5f,
                          -0.5f,
                          -1.5f,
                          -2.5f,
                          1000.0f,
                          -1000.0f,
                          0.0f,
                          -0.0f,
                          std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          127.5f,
                          -128.5f,
                          254.5f,
                          3.25f};
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> real(-300, 300);
  while (v.size() < 100003) v.push_back(std::nearbyint(real(rng) * 2) / 2);  // many exact ties
  Bytes bytes(v.size() * sizeof(float));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  const OperandId x = input_bytes({kF32, {static_cast<uint32_t>(v.size())}}, bytes);
  const OperandId qu = q_tensor(x, 1.0f, kU8, uint8_t{7});
  const OperandId qs = q_tensor(x, 0.5f, kI8, int8_t{-3});
  output(qu, kExactInt8);
  output(qs, kExactInt8);
  output(dq_tensor(qu, 0.1f, uint8_t{200}), kExactInt8);
  output(dq_tensor(qs, 0.37f, int8_t{-128}), kExactInt8);
  check();
  EXPECT_TRUE(all_on_onednn());
}

}  // namespace
}  // namespace webnn::test
