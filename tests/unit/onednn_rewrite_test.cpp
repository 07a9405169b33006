// The onednn backend's graph rewrites (rewrite.hpp): what each rewrites and what it must leave
// alone, the rewritten graph's values against the reference backend running the graph as written
// and against first principles (float64), and placement reported by the caller's operations.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include "backends/onednn/rewrite.hpp"
#include "onednn_test_util.hpp"

namespace webnn::test {
namespace {

using Floats = std::vector<float>;

struct Built {
  GraphBuilder builder;
  Floats feed;
  OperandId x = 0;
  std::vector<NamedOperand> outputs;

  explicit Built(Shape shape, float spread = 3.0f) {
    x = builder.add_input("x", {kF32, shape});
    feed.resize(*OperandDescriptor{kF32, shape}.element_count());
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-spread, spread);
    for (float& v : feed) v = u(rng);
  }
  OperandId constant(Shape shape, const Floats& values) {
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return builder.add_constant({kF32, std::move(shape)}, BufferRef::adopt(std::move(bytes)));
  }
  OperandId scalar(float v) { return constant({}, {v}); }
  OperandId op(OpKind kind, std::vector<OperandId> inputs, Attributes attrs = NoAttrs{}) {
    return builder.add_operation(kind, std::move(inputs), std::move(attrs)).front();
  }
  void output(OperandId id) { outputs.push_back({"out" + std::to_string(outputs.size()), id}); }
  std::shared_ptr<const Graph> build() { return builder.build(outputs); }
};

size_t count(const Graph& g, OpKind kind) {
  size_t n = 0;
  for (const Operation& op : g.operations) n += op.kind == kind;
  return n;
}

Floats run(const std::string& backend, const std::shared_ptr<const Graph>& graph, const Floats& feed,
           std::vector<std::string>* placement = nullptr, size_t output = 0) {
  std::unique_ptr<Executable> exe = find_backend(backend).compile(graph, CompileOptions{2});
  if (placement) *placement = exe->placement();
  std::vector<Floats> outs;
  std::vector<std::byte*> out_ptrs;
  for (const NamedOperand& o : graph->outputs) outs.emplace_back(*graph->desc(o.operand).element_count());
  for (Floats& f : outs) out_ptrs.push_back(reinterpret_cast<std::byte*>(f.data()));
  const std::byte* in = reinterpret_cast<const std::byte*>(feed.data());
  exe->run(std::span<const std::byte* const>(&in, 1), out_ptrs);
  return outs[output];
}

// Each of `actual` within `rtol` of `expected` relative to its magnitude, plus `atol`.
void expect_close(const Floats& actual, const std::vector<double>& expected, double rtol, double atol,
                  const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    ASSERT_NEAR(actual[i], expected[i], rtol * std::fabs(expected[i]) + atol) << what << " [" << i << "]";
}

std::vector<double> widened(const Floats& f) { return {f.begin(), f.end()}; }

double gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

// ---- gelu ----

// PyTorch's spelling, (x * (erf(x / divisor) + one)) * half, with the constants given.
OperandId written_gelu(Built& b, float divisor, float one, float half) {
  const OperandId e = b.op(OpKind::kErf, {b.op(OpKind::kDiv, {b.x, b.scalar(divisor)})});
  return b.op(OpKind::kMul, {b.op(OpKind::kMul, {b.x, b.op(OpKind::kAdd, {e, b.scalar(one)})}), b.scalar(half)});
}

// The spellings of 0.5 * x * (1 + erf(x / sqrt(2))) that exporters write.
const std::vector<std::pair<std::string, std::function<OperandId(Built&)>>>& gelu_spellings() {
  static const std::vector<std::pair<std::string, std::function<OperandId(Built&)>>> spellings = {
      {"PyTorch: (x * (erf(x / sqrt2) + 1)) * 0.5", [](Built& b) { return written_gelu(b, 1.41421356f, 1, 0.5f); }},
      {"BERT: (x * 0.5) * (1 + erf(x / sqrt2))",
       [](Built& b) {
         const OperandId h = b.op(OpKind::kMul, {b.x, b.scalar(0.5f)});
         const OperandId e = b.op(OpKind::kErf, {b.op(OpKind::kDiv, {b.x, b.scalar(1.41421356f)})});
         return b.op(OpKind::kMul, {h, b.op(OpKind::kAdd, {b.scalar(1.0f), e})});
       }},
      {"0.5 * ((1 + erf(0.7071 * x)) * x)",
       [](Built& b) {
         const OperandId e = b.op(OpKind::kErf, {b.op(OpKind::kMul, {b.scalar(0.70710678f), b.x})});
         const OperandId s = b.op(OpKind::kAdd, {b.scalar(1.0f), e});
         return b.op(OpKind::kMul, {b.scalar(0.5f), b.op(OpKind::kMul, {s, b.x})});
       }},
      {"(1 + erf(x * 0.7071)) * (0.5 * x)",
       [](Built& b) {
         const OperandId e = b.op(OpKind::kErf, {b.op(OpKind::kMul, {b.x, b.scalar(0.70710678f)})});
         return b.op(OpKind::kMul,
                     {b.op(OpKind::kAdd, {e, b.scalar(1.0f)}), b.op(OpKind::kMul, {b.scalar(0.5f), b.x})});
       }},
  };
  return spellings;
}

TEST(OnednnRewrite, EverySpellingOfGeluBecomesGelu) {
  for (const auto& [name, spell] : gelu_spellings()) {
    Built b({4, 300});
    b.output(spell(b));
    const std::shared_ptr<const Graph> graph = b.build();
    const onednn::Rewritten r = onednn::rewrite(graph);
    EXPECT_EQ(count(*r.graph, OpKind::kGelu), 1u) << name;
    EXPECT_EQ(r.graph->operations.size(), 1u) << name;
    std::vector<std::string> placement;
    const Floats got = run("onednn", graph, b.feed, &placement);
    // Placement is by the caller's five operations, each where the gelu that replaced them ran.
    EXPECT_EQ(placement, std::vector<std::string>(graph->operations.size(), "onednn")) << name;
    std::vector<double> exact;
    for (float v : b.feed) exact.push_back(gelu(v));
    // gelu's own kernel is within 5 float32 ULP of the exact value (docs/onednn.md, "Accuracy");
    // the composition as written, on the reference backend, loses more where 1 + erf cancels.
    expect_close(got, exact, 6e-7, 1e-30, name);
    expect_close(run("reference", graph, b.feed), exact, 1e-6, 1e-6, name + " (reference)");
  }
}

TEST(OnednnRewrite, GeluIsLeftAloneWhereAnyStepDiffers) {
  struct Variant {
    std::string name;
    std::function<OperandId(Built&)> spell;
  };
  const std::vector<Variant> variants = {
      {"x / 1.5", [](Built& b) { return written_gelu(b, 1.5f, 1, 0.5f); }},
      {"+ 2", [](Built& b) { return written_gelu(b, 1.41421356f, 2, 0.5f); }},
      {"* 0.25", [](Built& b) { return written_gelu(b, 1.41421356f, 1, 0.25f); }},
      {"the erf is a graph output too",
       [](Built& b) {
         const OperandId e = b.op(OpKind::kErf, {b.op(OpKind::kDiv, {b.x, b.scalar(1.41421356f)})});
         b.output(e);
         return b.op(OpKind::kMul,
                     {b.op(OpKind::kMul, {b.x, b.op(OpKind::kAdd, {e, b.scalar(1.0f)})}), b.scalar(0.5f)});
       }},
      {"the sum is read twice",
       [](Built& b) {
         const OperandId e = b.op(OpKind::kErf, {b.op(OpKind::kDiv, {b.x, b.scalar(1.41421356f)})});
         const OperandId s = b.op(OpKind::kAdd, {e, b.scalar(1.0f)});
         const OperandId g = b.op(OpKind::kMul, {b.op(OpKind::kMul, {b.x, s}), b.scalar(0.5f)});
         return b.op(OpKind::kAdd, {g, s});
       }},
      {"x / sqrt2 of another value",
       [](Built& b) {
         const OperandId y = b.op(OpKind::kNeg, {b.x});
         const OperandId e = b.op(OpKind::kErf, {b.op(OpKind::kDiv, {y, b.scalar(1.41421356f)})});
         return b.op(OpKind::kMul,
                     {b.op(OpKind::kMul, {b.x, b.op(OpKind::kAdd, {e, b.scalar(1.0f)})}), b.scalar(0.5f)});
       }},
      {"a constant that broadcasts x up",
       [](Built& b) {
         const OperandId e = b.op(OpKind::kErf, {b.op(OpKind::kDiv, {b.x, b.scalar(1.41421356f)})});
         const OperandId s = b.op(OpKind::kAdd, {e, b.scalar(1.0f)});
         return b.op(OpKind::kMul, {b.op(OpKind::kMul, {b.x, s}), b.constant({2, 1, 1}, {0.5f, 0.5f})});
       }},
  };
  for (const Variant& v : variants) {
    Built b({4, 300});
    b.output(v.spell(b));
    const std::shared_ptr<const Graph> graph = b.build();
    const onednn::Rewritten r = onednn::rewrite(graph);
    EXPECT_EQ(count(*r.graph, OpKind::kGelu), 0u) << v.name;
    EXPECT_EQ(count(*r.graph, OpKind::kErf), 1u) << v.name;
    for (size_t o = 0; o < graph->outputs.size(); ++o) {
      const Floats expected = run("reference", graph, b.feed, nullptr, o);
      expect_close(run("onednn", graph, b.feed, nullptr, o), widened(expected), 1e-6, 1e-6, v.name);
    }
  }
}

// ---- layerNormalization ----

struct LayerNormSpelling {
  std::string name;
  Shape shape;
  std::vector<uint32_t> axes;
  bool square_by_mul = false, reciprocal = false;
  Shape scale_shape, bias_shape;  // empty: none
  bool scale_is_input = false;
};

// x normalized over the trailing `axes`, in float64, with scale and bias as the spelling has them.
std::vector<double> layer_norm(const Floats& x, const Shape& shape, size_t axes, const Floats& scale,
                               const Floats& bias, double epsilon) {
  size_t inner = 1;
  for (size_t k = shape.size() - axes; k < shape.size(); ++k) inner *= shape[k];
  std::vector<double> out(x.size());
  for (size_t row = 0; row < x.size() / inner; ++row) {
    double mean = 0, var = 0;
    for (size_t i = 0; i < inner; ++i) mean += x[row * inner + i];
    mean /= double(inner);
    for (size_t i = 0; i < inner; ++i) var += (x[row * inner + i] - mean) * (x[row * inner + i] - mean);
    var /= double(inner);
    for (size_t i = 0; i < inner; ++i) {
      const double n = (x[row * inner + i] - mean) / std::sqrt(var + epsilon);
      out[row * inner + i] = n * (scale.empty() ? 1.0 : scale[i]) + (bias.empty() ? 0.0 : bias[i]);
    }
  }
  return out;
}

TEST(OnednnRewrite, LayerNormalizationSpelledOutBecomesOne) {
  const std::vector<LayerNormSpelling> spellings = {
      {"PyTorch below opset 17, scale [C] and bias [C]", {2, 5, 48}, {2}, false, false, {48}, {48}},
      {"x * x, scale [1, 1, C]", {2, 5, 48}, {2}, true, false, {1, 1, 48}, {48}},
      {"d * reciprocal(sqrt), no bias", {3, 40}, {1}, false, true, {40}, {}},
      {"two trailing axes, scale [H, W]", {2, 3, 4, 5}, {2, 3}, false, false, {4, 5}, {1, 4, 5}},
      {"no scale or bias", {6, 33}, {1}, false, false, {}, {}},
      {"a scale that is an input", {2, 5, 16}, {2}, false, false, {1, 16}, {16}, true},
  };
  const double epsilon = 1e-5;
  for (const LayerNormSpelling& s : spellings) {
    Built b(s.shape);
    std::vector<std::byte> scale_bytes;
    Floats scale, bias;
    const auto values = [](const Shape& shape, float base) {
      Floats v(*OperandDescriptor{kF32, shape}.element_count());
      for (size_t i = 0; i < v.size(); ++i) v[i] = base + 0.01f * float(i);
      return v;
    };
    const ReduceAttrs reduce{s.axes, true};
    const OperandId mean = b.op(OpKind::kReduceMean, {b.x}, reduce);
    const OperandId d = b.op(OpKind::kSub, {b.x, mean});
    const OperandId sq = s.square_by_mul ? b.op(OpKind::kMul, {d, d}) : b.op(OpKind::kPow, {d, b.scalar(2.0f)});
    const OperandId var = b.op(OpKind::kReduceMean, {sq}, reduce);
    const OperandId root = b.op(OpKind::kSqrt, {b.op(OpKind::kAdd, {var, b.scalar(float(epsilon))})});
    OperandId y =
        s.reciprocal ? b.op(OpKind::kMul, {d, b.op(OpKind::kReciprocal, {root})}) : b.op(OpKind::kDiv, {d, root});
    if (!s.scale_shape.empty()) {
      scale = values(s.scale_shape, 0.5f);
      const OperandId sc =
          s.scale_is_input ? b.builder.add_input("scale", {kF32, s.scale_shape}) : b.constant(s.scale_shape, scale);
      y = b.op(OpKind::kMul, {sc, y});
    }
    if (!s.bias_shape.empty()) {
      bias = values(s.bias_shape, -0.2f);
      y = b.op(OpKind::kAdd, {y, b.constant(s.bias_shape, bias)});
    }
    b.output(y);
    const std::shared_ptr<const Graph> graph = b.build();
    const onednn::Rewritten r = onednn::rewrite(graph);
    EXPECT_EQ(count(*r.graph, OpKind::kLayerNormalization), 1u) << s.name;
    EXPECT_EQ(count(*r.graph, OpKind::kReduceMean), 0u) << s.name;
    EXPECT_EQ(count(*r.graph, OpKind::kReshape), s.scale_is_input ? 1u : 0u) << s.name;
    const std::vector<double> exact = layer_norm(b.feed, s.shape, s.axes.size(), scale, bias, epsilon);
    if (s.scale_is_input) {
      // Two inputs: run through the executables directly (x, then scale).
      for (const std::string& backend : {"reference", "onednn"}) {
        std::unique_ptr<Executable> exe = find_backend(backend).compile(graph, CompileOptions{2});
        Floats out(b.feed.size());
        const std::byte* in[2] = {reinterpret_cast<const std::byte*>(b.feed.data()),
                                  reinterpret_cast<const std::byte*>(scale.data())};
        std::byte* o = reinterpret_cast<std::byte*>(out.data());
        exe->run(in, std::span<std::byte* const>(&o, 1));
        expect_close(out, exact, 1e-5, 1e-5, s.name + " on " + backend);
      }
      continue;
    }
    std::vector<std::string> placement;
    expect_close(run("onednn", graph, b.feed, &placement), exact, 1e-5, 1e-5, s.name);
    expect_close(run("reference", graph, b.feed), exact, 1e-5, 1e-5, s.name + " (reference)");
    EXPECT_EQ(placement, std::vector<std::string>(graph->operations.size(), "onednn")) << s.name;
  }
}

TEST(OnednnRewrite, LayerNormalizationIsLeftAloneWhereAnyStepDiffers) {
  struct Variant {
    std::string name;
    std::vector<uint32_t> axes = {2};
    bool d_is_output = false;
    bool second_axes_differ = false;
    float exponent = 2.0f;
  };
  const std::vector<Variant> variants = {
      {"a leading axis", {1}},
      {"x - mean is a graph output", {2}, true},
      {"the variance over other axes", {2}, false, true},
      {"pow(d, 4)", {2}, false, false, 4.0f},
  };
  for (const Variant& v : variants) {
    Built b({2, 5, 8});
    const OperandId mean = b.op(OpKind::kReduceMean, {b.x}, ReduceAttrs{v.axes, true});
    const OperandId d = b.op(OpKind::kSub, {b.x, mean});
    if (v.d_is_output) b.output(d);
    const OperandId sq = b.op(OpKind::kPow, {d, b.scalar(v.exponent)});
    const std::vector<uint32_t> var_axes = v.second_axes_differ ? std::vector<uint32_t>{1, 2} : v.axes;
    const OperandId var = b.op(OpKind::kReduceMean, {sq}, ReduceAttrs{var_axes, true});
    const OperandId root = b.op(OpKind::kSqrt, {b.op(OpKind::kAdd, {var, b.scalar(1e-5f)})});
    b.output(b.op(OpKind::kDiv, {d, root}));
    const std::shared_ptr<const Graph> graph = b.build();
    const onednn::Rewritten r = onednn::rewrite(graph);
    EXPECT_EQ(count(*r.graph, OpKind::kLayerNormalization), 0u) << v.name;
    for (size_t o = 0; o < graph->outputs.size(); ++o) {
      const Floats expected = run("reference", graph, b.feed, nullptr, o);
      expect_close(run("onednn", graph, b.feed, nullptr, o), widened(expected), 1e-5, 1e-5, v.name);
    }
  }
}

// ---- Folding and identities ----

// Swin-T's attention scale, pow(32, -0.5) over two constants: folded, the softmax after it no longer
// "may" see a NaN, and runs on oneDNN.
TEST(OnednnRewrite, OperationsOverConstantsAreFoldedAndTheirNaNAnalysisFollows) {
  Built b({2, 4, 16});
  const OperandId scale = b.op(OpKind::kPow, {b.scalar(32.0f), b.scalar(-0.5f)});
  const OperandId scores = b.op(OpKind::kMul, {b.x, scale});
  b.output(b.op(OpKind::kSoftmax, {scores}, SoftmaxAttrs{2}));
  const std::shared_ptr<const Graph> graph = b.build();
  const onednn::Rewritten r = onednn::rewrite(graph);
  EXPECT_EQ(count(*r.graph, OpKind::kPow), 0u);
  EXPECT_EQ(r.computed_by.front(), onednn::Rewritten::kFolded);
  std::vector<std::string> placement;
  const Floats got = run("onednn", graph, b.feed, &placement);
  EXPECT_EQ(placement, (std::vector<std::string>{"onednn", "onednn", "onednn"}));
  std::vector<double> exact(got.size());
  for (size_t row = 0; row < got.size() / 16; ++row) {
    double sum = 0;
    for (size_t i = 0; i < 16; ++i) sum += std::exp(b.feed[row * 16 + i] / std::sqrt(32.0));
    for (size_t i = 0; i < 16; ++i) exact[row * 16 + i] = std::exp(b.feed[row * 16 + i] / std::sqrt(32.0)) / sum;
  }
  expect_close(got, exact, 1e-6, 1e-7, "softmax(x * 32^-0.5)");
}

TEST(OnednnRewrite, FoldingLeavesLargeResultsGraphOutputsAndDequantizationAlone) {
  Built b({4});
  // An expand of a scalar to more than kMaxFoldedElements: a tensor of activations' size.
  const uint32_t big = static_cast<uint32_t>(onednn::kMaxFoldedElements) + 1;
  const OperandId expanded = b.op(OpKind::kExpand, {b.scalar(2.0f)}, ExpandAttrs{{big}});
  b.output(b.op(OpKind::kReduceSum, {expanded}, ReduceAttrs{std::vector<uint32_t>{0}, false}));
  // Over constants, but a graph output.
  b.output(b.op(OpKind::kAdd, {b.scalar(1.0f), b.scalar(2.0f)}));
  // dequantizeLinear of constant int8 weights: the int8 paths read the 8-bit bytes.
  const OperandId q = b.builder.add_constant({DataType::kInt8, {4}}, BufferRef::adopt(std::vector<std::byte>(4)));
  const OperandId zero = b.builder.add_constant({DataType::kInt8, {1}}, BufferRef::adopt(std::vector<std::byte>(1)));
  const OperandId dq = b.op(OpKind::kDequantizeLinear, {q, b.constant({1}, {0.5f}), zero});
  b.output(b.op(OpKind::kAdd, {b.x, dq}));
  const std::shared_ptr<const Graph> graph = b.build();
  const onednn::Rewritten r = onednn::rewrite(graph);
  EXPECT_EQ(count(*r.graph, OpKind::kExpand), 1u);
  EXPECT_EQ(count(*r.graph, OpKind::kReduceSum), 1u);  // reads the unfolded expand
  EXPECT_EQ(count(*r.graph, OpKind::kAdd), 2u);
  EXPECT_EQ(count(*r.graph, OpKind::kDequantizeLinear), 1u);
  EXPECT_EQ(run("onednn", graph, b.feed, nullptr, 0), Floats{2.0f * float(big)});
  EXPECT_EQ(run("onednn", graph, b.feed, nullptr, 1), Floats{3.0f});
}

TEST(OnednnRewrite, FoldedValuesAreTheReferenceKernelsValues) {
  // A gather of a constant table by constant indices (an attention's relative position bias) and
  // operations over it: every value exactly what the reference backend computes as written.
  Built b({3, 4});
  Floats table(40);
  for (size_t i = 0; i < table.size(); ++i) table[i] = std::sin(float(i));
  const OperandId t = b.constant({10, 4}, table);
  const OperandId idx = b.builder.add_constant(
      {DataType::kInt32, {3}},
      BufferRef::copy_of(std::as_bytes(std::span<const int32_t>(std::vector<int32_t>{7, 0, 9}))));
  const OperandId bias = b.op(OpKind::kExp, {b.op(OpKind::kGather, {t, idx}, GatherAttrs{0})});
  b.output(b.op(OpKind::kAdd, {b.x, bias}));
  const std::shared_ptr<const Graph> graph = b.build();
  const onednn::Rewritten r = onednn::rewrite(graph);
  ASSERT_EQ(r.graph->operations.size(), 1u);
  EXPECT_EQ(run("onednn", graph, b.feed), run("reference", graph, b.feed));
}

TEST(OnednnRewrite, PadWithoutPaddingAndIdentityAreViews) {
  Built b({2, 3});
  const OperandId p = b.op(OpKind::kPad, {b.x}, PadAttrs{{0, 0}, {0, 0}});
  b.output(b.op(OpKind::kRelu, {b.op(OpKind::kIdentity, {p})}));
  const std::shared_ptr<const Graph> graph = b.build();
  const onednn::Rewritten r = onednn::rewrite(graph);
  EXPECT_EQ(count(*r.graph, OpKind::kReshape), 2u);
  std::vector<std::string> placement;
  EXPECT_EQ(run("onednn", graph, b.feed, &placement), run("reference", graph, b.feed));
  EXPECT_EQ(placement, (std::vector<std::string>{"onednn", "onednn", "onednn"}));
}

// Atrous convolutions whose outer taps read only padding (DeepLabV3's ASPP: dilation 24 over 14 x
// 14) lose those taps; the result is the reference's for the convolution as written.
TEST(OnednnRewrite, ConvolutionTapsThatReadOnlyPaddingAreCut) {
  struct Variant {
    std::string name;
    Conv2dAttrs attrs;
    Shape input, filter;
    Shape trimmed;  // the rewritten filter's shape; the input filter's when nothing is cut
    bool nan_in_a_cut_tap = false;
  };
  const auto attrs = [](std::vector<uint32_t> padding, std::vector<uint32_t> dilations, std::vector<uint32_t> strides,
                        InputLayout in = InputLayout::kNchw, Conv2dFilterLayout f = Conv2dFilterLayout::kOihw) {
    Conv2dAttrs a;
    a.padding = std::move(padding);
    a.dilations = std::move(dilations);
    a.strides = std::move(strides);
    a.input_layout = in;
    a.filter_layout = f;
    return a;
  };
  const std::vector<Variant> variants = {
      {"dilation 24 over 14 x 14: the centre tap",
       attrs({24, 24, 24, 24}, {24, 24}, {1, 1}),
       {1, 8, 14, 14},
       {4, 8, 3, 3},
       {4, 8, 1, 1}},
      {"NHWC, HWIO, dilated along the width only",
       attrs({1, 1, 9, 9}, {1, 9}, {1, 1}, InputLayout::kNhwc, Conv2dFilterLayout::kHwio),
       {1, 6, 8, 3},
       {3, 3, 3, 5},
       {3, 1, 3, 5}},
      {"stride 2, asymmetric padding: taps 2 and 3 of 4",
       attrs({10, 2, 0, 0}, {5, 1}, {2, 1}),
       {1, 2, 9, 4},
       {3, 2, 4, 1},
       {3, 2, 2, 1}},
      {"taps 2 and 3 of 4 would need padding below 0: kept",
       attrs({8, 0, 0, 0}, {5, 1}, {2, 1}),
       {1, 2, 9, 4},
       {3, 2, 4, 1},
       {3, 2, 4, 1}},
      {"an ordinary 3 x 3 convolution", attrs({1, 1, 1, 1}, {1, 1}, {1, 1}), {1, 2, 5, 5}, {2, 2, 3, 3}, {2, 2, 3, 3}},
      // The reference kernel leaves padding out of its sums, so a NaN weight that only meets
      // padding never counts: cut, onednn agrees with it.
      {"a NaN in a cut tap",
       attrs({24, 24, 24, 24}, {24, 24}, {1, 1}),
       {1, 2, 14, 14},
       {2, 2, 3, 3},
       {2, 2, 1, 1},
       true},
  };
  for (const Variant& v : variants) {
    Built b(v.input);
    Floats weights(*OperandDescriptor{kF32, v.filter}.element_count());
    for (size_t i = 0; i < weights.size(); ++i) weights[i] = std::cos(float(i));
    if (v.nan_in_a_cut_tap) weights[0] = std::numeric_limits<float>::quiet_NaN();
    b.output(b.op(OpKind::kConv2d, {b.x, b.constant(v.filter, weights)}, v.attrs));
    const std::shared_ptr<const Graph> graph = b.build();
    const onednn::Rewritten r = onednn::rewrite(graph);
    ASSERT_EQ(r.graph->operations.size(), 1u);
    EXPECT_EQ(r.graph->desc(r.graph->operations[0].inputs[1]).shape, v.trimmed) << v.name;
    const Floats expected = run("reference", graph, b.feed);
    const Floats got = run("onednn", graph, b.feed);
    for (size_t i = 0; i < got.size(); ++i) {
      if (std::isnan(expected[i])) {
        EXPECT_TRUE(std::isnan(got[i])) << v.name << " [" << i << "]";
      } else {
        ASSERT_NEAR(got[i], expected[i], 1e-5 * (1 + std::fabs(expected[i]))) << v.name << " [" << i << "]";
      }
    }
  }
}

// Property: random spellings of GELU and layer normalization, some with one step perturbed (a
// constant off, an intermediate also a graph output, the variance over other axes), chained after
// one another: onednn (rewritten or not) agrees with the reference running them as written, and
// both outcomes occur.
TEST(OnednnRewriteProperty, RandomCompositionsAgreeWithTheReference) {
  std::mt19937 rng(2026);
  const auto chance = [&](int percent) { return std::uniform_int_distribution<int>(0, 99)(rng) < percent; };
  size_t rewritten = 0, kept = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const uint32_t rows = 1 + rng() % 4, inner = 2 + rng() % 9, last = 3 + rng() % 20;
    Built b({rows, inner, last});
    OperandId v = b.x;
    const int steps = 1 + static_cast<int>(rng() % 3);
    for (int s = 0; s < steps; ++s) {
      const bool perturb = chance(30);
      if (chance(50)) {
        const float divisor = perturb && chance(50) ? 1.5f : 1.41421356f;
        const OperandId scaled =
            chance(50) ? b.op(OpKind::kDiv, {v, b.scalar(divisor)}) : b.op(OpKind::kMul, {v, b.scalar(1.0f / divisor)});
        const OperandId e = b.op(OpKind::kErf, {scaled});
        if (perturb && chance(50)) b.output(e);
        const OperandId sum =
            chance(50) ? b.op(OpKind::kAdd, {e, b.scalar(1.0f)}) : b.op(OpKind::kAdd, {b.scalar(1.0f), e});
        v = chance(50) ? b.op(OpKind::kMul, {b.op(OpKind::kMul, {v, sum}), b.scalar(0.5f)})
                       : b.op(OpKind::kMul, {b.op(OpKind::kMul, {b.scalar(0.5f), v}), sum});
      } else {
        const std::vector<uint32_t> axes = chance(50) ? std::vector<uint32_t>{2} : std::vector<uint32_t>{1, 2};
        const OperandId mean = b.op(OpKind::kReduceMean, {v}, ReduceAttrs{axes, true});
        const OperandId d = b.op(OpKind::kSub, {v, mean});
        if (perturb && chance(50)) b.output(d);
        const OperandId sq = chance(50) ? b.op(OpKind::kMul, {d, d}) : b.op(OpKind::kPow, {d, b.scalar(2.0f)});
        const std::vector<uint32_t> var_axes = perturb && chance(50) ? std::vector<uint32_t>{1, 2} : axes;
        const OperandId var = b.op(OpKind::kReduceMean, {sq}, ReduceAttrs{var_axes, true});
        const OperandId root = b.op(OpKind::kSqrt, {b.op(OpKind::kAdd, {var, b.scalar(1e-5f)})});
        v = chance(50) ? b.op(OpKind::kDiv, {d, root}) : b.op(OpKind::kMul, {d, b.op(OpKind::kReciprocal, {root})});
        if (chance(60)) {
          Floats scale(last);
          for (float& x : scale) x = std::uniform_real_distribution<float>(-2, 2)(rng);
          v = b.op(OpKind::kMul, {v, b.constant({last}, scale)});
        }
        if (chance(60)) v = b.op(OpKind::kAdd, {v, b.constant({1, 1, last}, Floats(last, 0.25f))});
      }
    }
    b.output(v);
    const std::shared_ptr<const Graph> graph = b.build();
    const onednn::Rewritten r = onednn::rewrite(graph);
    (count(*r.graph, OpKind::kGelu) + count(*r.graph, OpKind::kLayerNormalization) > 0 ? rewritten : kept) += 1;
    for (size_t o = 0; o < graph->outputs.size(); ++o) {
      const Floats expected = run("reference", graph, b.feed, nullptr, o);
      const Floats got = run("onednn", graph, b.feed, nullptr, o);
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], expected[i], 2e-5 * (1 + std::fabs(expected[i])))
            << "trial " << trial << ", output " << o << " [" << i << "]";
    }
  }
  EXPECT_GT(rewritten, 20u);
  EXPECT_GT(kept, 5u);
}

TEST(OnednnRewrite, AGraphWithNothingToRewriteIsCompiledAsItIs) {
  Built b({2, 3});
  b.output(b.op(OpKind::kRelu, {b.x}));
  const std::shared_ptr<const Graph> graph = b.build();
  const onednn::Rewritten r = onednn::rewrite(graph);
  EXPECT_EQ(r.graph, graph);
  EXPECT_EQ(r.computed_by, std::vector<size_t>{0});
}

}  // namespace
}  // namespace webnn::test
