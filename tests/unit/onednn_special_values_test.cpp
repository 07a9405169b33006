// NaN, infinities, signed zeros, subnormals and values near float32's limits on the onednn backend,
// against the reference backend (the oracle) and against first principles: the two backends must
// put NaN and infinities in the same places (docs/choices.md), whichever plan the onednn
// executable picks (the fused one for inputs without NaN or infinities, the unfused one otherwise:
// docs/onednn.md, "NaN and infinities"). Then a property test over random small graphs of
// element-wise, convolution, matmul, pooling, softmax and reduction operations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <random>
#include <string>

#include "backends/backend.hpp"
#include "backends/onednn/eltwise.hpp"
#include "graph/graph_builder.hpp"
#include "onednn_test_util.hpp"

namespace webnn::test {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kMax = std::numeric_limits<float>::max();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

using Floats = std::vector<float>;

// A graph under construction with float32 inputs and their values.
struct Case {
  GraphBuilder builder;
  std::vector<Floats> feeds;
  std::vector<NamedOperand> outputs;

  OperandId input(Shape shape, Floats values) {
    const OperandId id = builder.add_input("in" + std::to_string(feeds.size()), {kF32, std::move(shape)});
    feeds.push_back(std::move(values));
    return id;
  }
  OperandId constant(Shape shape, const Floats& values) {
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return builder.add_constant({kF32, std::move(shape)}, BufferRef::adopt(std::move(bytes)));
  }
  OperandId op(OpKind kind, std::vector<OperandId> inputs, Attributes attrs = NoAttrs{}) {
    return builder.add_operation(kind, std::move(inputs), std::move(attrs)).front();
  }
  void output(OperandId id) { outputs.push_back({"out" + std::to_string(outputs.size()), id}); }
};

// Runs `exe` on `feeds`, returning every output as floats.
std::vector<Floats> run(Executable& exe, const Graph& graph, const std::vector<Floats>& feeds) {
  std::vector<const std::byte*> in;
  for (const Floats& f : feeds) in.push_back(reinterpret_cast<const std::byte*>(f.data()));
  std::vector<Floats> out;
  for (const NamedOperand& o : graph.outputs) out.emplace_back(*graph.desc(o.operand).byte_length() / sizeof(float));
  std::vector<std::byte*> out_ptrs;
  for (Floats& f : out) out_ptrs.push_back(reinterpret_cast<std::byte*>(f.data()));
  exe.run(in, out_ptrs);
  return out;
}

std::unique_ptr<Executable> compile(const std::string& backend, const std::shared_ptr<const Graph>& graph) {
  return find_backend(backend).compile(graph, CompileOptions{2});
}

std::string show(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", double(v));
  return text;
}

// NaN where the reference has NaN, the same infinities, every other value within `rtol` of the
// reference relative to the larger of its own magnitude and the output's largest finite magnitude
// times `scale_tol`. Returns the first difference, or "" when none.
std::string differences(const Floats& actual, const Floats& expected, double rtol = 1e-5, double scale_tol = 1e-5) {
  double scale = 0;
  for (float e : expected)
    if (std::isfinite(e)) scale = std::max(scale, double(std::fabs(e)));
  for (size_t i = 0; i < expected.size(); ++i) {
    const float a = actual[i], e = expected[i];
    if (std::isnan(e) || std::isnan(a) || std::isinf(e) || std::isinf(a)) {
      if ((std::isnan(e) && std::isnan(a)) || a == e) continue;
      return "[" + std::to_string(i) + "] = " + show(a) + ", reference " + show(e);
    }
    const double tol = rtol * std::fabs(double(e)) + scale_tol * scale + 1e-30;
    if (std::fabs(double(a) - double(e)) > tol)
      return "[" + std::to_string(i) + "] = " + show(a) + ", reference " + show(e);
  }
  return "";
}

// Builds `c`, runs it on both backends with each set of feeds in `runs` in turn (on the same
// executables) and expects identical NaN and infinity positions and close values. Returns the
// onednn outputs of the first run.
std::vector<Floats> check_both(const std::shared_ptr<const Graph>& graph, const std::vector<std::vector<Floats>>& runs,
                               const std::string& what = "") {
  auto reference = compile("reference", graph);
  auto onednn = compile("onednn", graph);
  std::vector<Floats> first;
  for (size_t r = 0; r < runs.size(); ++r) {
    const std::vector<Floats> expected = run(*reference, *graph, runs[r]);
    const std::vector<Floats> actual = run(*onednn, *graph, runs[r]);
    if (r == 0) first = actual;
    for (size_t o = 0; o < expected.size(); ++o)
      EXPECT_EQ(differences(actual[o], expected[o]), "") << what << " run " << r << ", output " << o;
  }
  return first;
}

std::vector<Floats> check_both(Case& c, const std::vector<std::vector<Floats>>& runs) {
  return check_both(c.builder.build(c.outputs), runs);
}

// ---- The scan that picks the plan ----

TEST(OnednnSpecialValues, ScanFindsEveryNaNAndInfinityAnywhere) {
  // Every position of buffers longer and shorter than the vector loops, aligned and not.
  for (size_t n : {size_t{1}, size_t{15}, size_t{64}, size_t{100}, size_t{4099}}) {
    for (size_t shift : {size_t{0}, size_t{1}}) {
      std::vector<std::byte> storage(n * sizeof(float) + shift);
      auto put = [&](size_t i, float v) { std::memcpy(storage.data() + shift + i * sizeof(float), &v, sizeof v); };
      for (size_t i = 0; i < n; ++i) put(i, i % 3 ? 3e38f : -1e-40f);
      const void* data = storage.data() + shift;
      EXPECT_FALSE(onednn::has_nan_or_inf(data, n, kF32)) << n;
      for (size_t i = 0; i < n; ++i)
        for (float special : {kNaN, kInf, -kInf}) {
          put(i, special);
          EXPECT_TRUE(onednn::has_nan_or_inf(data, n, kF32)) << n << " " << i << " " << shift;
          put(i, 1.0f);
        }
    }
  }
  const uint16_t halves[] = {0x3c00, 0x7bff, 0x8001, 0xfc00};  // 1, 65504, a subnormal, -Infinity
  EXPECT_FALSE(onednn::has_nan_or_inf(halves, 3, DataType::kFloat16));
  EXPECT_TRUE(onednn::has_nan_or_inf(halves, 4, DataType::kFloat16));
  const int32_t ints[] = {0x7f800000, -1};  // float32 Infinity's bits, but int32
  EXPECT_FALSE(onednn::has_nan_or_inf(ints, 2, DataType::kInt32));
}

// ---- The cases of the issue, against first principles ----

TEST(OnednnSpecialValues, ActivationsKeepNaNAndInfinities) {
  const Floats x = {kNaN, -kInf, kInf, -0.0f, 0.0f, -1.0f, 7.0f, 1e-40f};
  struct Expectation {
    OpKind kind;
    Attributes attrs;
    Floats expected;
  };
  const std::vector<Expectation> cases = {
      {OpKind::kRelu, NoAttrs{}, {kNaN, 0, kInf, -0.0f, 0, 0, 7, 1e-40f}},
      {OpKind::kClamp, ClampAttrs{0.0, 6.0}, {kNaN, 0, 6, -0.0f, 0, 0, 6, 1e-40f}},
      {OpKind::kClamp, ClampAttrs{}, {kNaN, -kInf, kInf, -0.0f, 0, -1, 7, 1e-40f}},
      {OpKind::kExp, NoAttrs{}, {kNaN, 0, kInf, 1, 1, float(std::exp(-1.0)), float(std::exp(7.0)), 1}},
  };
  for (const Expectation& e : cases) {
    Case c;
    c.output(c.op(e.kind, {c.input({8}, x)}, e.attrs));
    const Floats got = check_both(c, {{x}}).front();
    for (size_t i = 0; i < x.size(); ++i) {
      if (std::isnan(e.expected[i])) {
        EXPECT_TRUE(std::isnan(got[i])) << op_name(e.kind) << "(" << show(x[i]) << ") = " << show(got[i]);
      } else {
        EXPECT_EQ(got[i], e.expected[i]) << op_name(e.kind) << "(" << show(x[i]) << ")";
      }
    }
  }
}

TEST(OnednnSpecialValues, LogSoftplusAndSubnormalsAreAccurate) {
  const Floats x = {1.0f, 1e-45f, 1e-40f, 1.0000001f, 0.99999994f, -20.0f, -15.0f, -100.0f, 0.0f, -1.0f};
  Case c;
  const OperandId in = c.input({10}, x);
  c.output(c.op(OpKind::kLog, {in}));
  c.output(c.op(OpKind::kSoftplus, {in}));
  const std::vector<Floats> got = check_both(c, {{x}});
  EXPECT_EQ(got[0][0], 0.0f);  // log(1) = 0 exactly
  for (size_t i = 1; i < 5; ++i)
    EXPECT_NEAR(got[0][i], std::log(double(x[i])), 2 * std::fabs(std::log(double(x[i]))) * 6e-8) << show(x[i]);
  EXPECT_EQ(got[0][8], -kInf);
  EXPECT_TRUE(std::isnan(got[0][9]));
  for (size_t i = 5; i < 8; ++i) {
    const double exact = std::log1p(std::exp(double(x[i])));
    EXPECT_GT(got[1][i], 0.0f) << "softplus(" << show(x[i]) << ") must be positive";
    EXPECT_NEAR(got[1][i], exact, exact * 3e-7 + 3e-45) << show(x[i]);  // softplus(-100) is subnormal
  }
}

TEST(OnednnSpecialValues, MaxPoolPropagatesNaNAndKeepsMinusInfinity) {
  // One 2x2 window per output: NaN in the first, all -Infinity in the second.
  const Floats x = {kNaN, 1, 2, 3, -kInf, -kInf, -kInf, -kInf};
  Case c;
  Pool2dAttrs a;
  a.window_dimensions = std::vector<uint32_t>{2, 2};
  a.strides = std::vector<uint32_t>{2, 2};
  c.output(c.op(OpKind::kMaxPool2d, {c.input({1, 2, 2, 2}, x)}, a));
  const Floats got = check_both(c, {{x}}).front();
  EXPECT_TRUE(std::isnan(got[0]));
  EXPECT_EQ(got[1], -kInf);
}

// log(0) = -Infinity, sqrt(-1) = NaN, 0 / 0 = NaN: values made special inside the graph are known
// at build, and the activations, max pools and softmax they reach run as the reference's even in
// the plan for finite inputs (here a division fused into the convolution before a clamp).
TEST(OnednnSpecialValues, SpecialsMadeInsideTheGraphAreSeen) {
  Floats x(1 * 16 * 3 * 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 5) - 2);  // -2 to 2, zeros included
  Floats filter(16 * 16);
  for (size_t i = 0; i < filter.size(); ++i) filter[i] = i % 3 == 0 ? 1.0f : -0.5f;
  Case c;
  const OperandId in = c.input({1, 16, 3, 3}, x);
  const auto conv = [&](OperandId v) {
    return c.op(OpKind::kConv2d, {v, c.constant({16, 16, 1, 1}, filter)}, Conv2dAttrs{});
  };
  c.output(c.op(OpKind::kRelu, {conv(c.op(OpKind::kLog, {in}))}));
  Pool2dAttrs pool;
  pool.window_dimensions = std::vector<uint32_t>{2, 2};
  c.output(c.op(OpKind::kMaxPool2d, {c.op(OpKind::kSqrt, {in})}, pool));
  c.output(c.op(OpKind::kSoftmax, {c.op(OpKind::kDiv, {in, in})}, SoftmaxAttrs{1}));
  const OperandId zeros = c.constant({1, 16, 1, 1}, Floats(16, 0.0f));
  c.output(c.op(OpKind::kClamp, {c.op(OpKind::kDiv, {conv(in), zeros})}, ClampAttrs{0.0, 6.0}));
  const std::vector<Floats> got = check_both(c, {{x}});
  // From first principles: every output holds NaN (and the last, 0 / 0 beside x / 0 = +-Infinity
  // clamped, also 6 and 0).
  for (const Floats& out : got) EXPECT_TRUE(std::any_of(out.begin(), out.end(), [](float v) { return std::isnan(v); }));
  EXPECT_TRUE(std::count(got[3].begin(), got[3].end(), 6.0f) > 0);
}

// Layer normalization of a row with NaN or an infinity is NaN, the others are normalised.
TEST(OnednnSpecialValues, LayerNormalizationRowsWithNaNAndInfinities) {
  const Floats x = {kNaN, 1, 2, 3, kInf, 1, 2, 3, -kInf, 1, 2, 3, 1, 2, 3, 4};
  Case c;
  LayerNormalizationAttrs a;
  a.axes = std::vector<uint32_t>{1};
  c.output(c.op(OpKind::kLayerNormalization, {c.input({4, 4}, x)}, a));
  const Floats got = check_both(c, {{x}}).front();
  for (size_t i = 0; i < 12; ++i) EXPECT_TRUE(std::isnan(got[i])) << i;
  EXPECT_NEAR(got[12], -1.5 / std::sqrt(1.25 + 1e-5), 1e-5);
}

// Rows with NaN or +Infinity are NaN (exp(x - max) takes Infinity - Infinity); -Infinity gives 0.
TEST(OnednnSpecialValues, SoftmaxRowsWithNaNAndInfinities) {
  const Floats x = {kNaN, 1, 2, kInf, 1, 2, -kInf, 1, 1, -0.0f, 0.0f, 1e-40f};
  Case c;
  c.output(c.op(OpKind::kSoftmax, {c.input({4, 3}, x)}, SoftmaxAttrs{1}));
  const Floats got = check_both(c, {{x}}).front();
  for (size_t i = 0; i < 6; ++i) EXPECT_TRUE(std::isnan(got[i])) << i;
  EXPECT_EQ(got[6], 0.0f);
  EXPECT_EQ(got[7], 0.5f);
  EXPECT_NEAR(got[9], 1.0f / 3, 1e-7);
}

// An attention mask: finite scores plus a constant of 0 and -Infinity hold -Infinity only, and the
// softmax runs as oneDNN's primitive (it computes -Infinity as the reference does), not the
// reference kernel: masked positions get exactly 0, a row masked whole is NaN, the others sum to 1.
TEST(OnednnSpecialValues, SoftmaxOfAMinusInfinityMaskRunsOnOnednn) {
  const uint32_t rows = 5, columns = 37;
  Floats scores(2 * rows * columns), mask(rows * columns, 0.0f);
  for (size_t i = 0; i < scores.size(); ++i) scores[i] = std::sin(float(i) * 0.37f) * 4;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < columns; ++c)
      if (r == rows - 1 || c > r * 8) mask[r * columns + c] = -kInf;  // causal-like; the last row whole
  Case c;
  const OperandId masked = c.op(OpKind::kAdd, {c.input({2, rows, columns}, scores), c.constant({rows, columns}, mask)});
  c.output(c.op(OpKind::kSoftmax, {masked}, SoftmaxAttrs{2}));
  const auto graph = c.builder.build(c.outputs);
  const Floats got = check_both(graph, {{scores}}).front();
  for (uint32_t b = 0; b < 2; ++b) {
    for (uint32_t r = 0; r < rows; ++r) {
      double sum = 0;
      for (uint32_t col = 0; col < columns; ++col) {
        const float v = got[(b * rows + r) * columns + col];
        if (r == rows - 1) {
          EXPECT_TRUE(std::isnan(v)) << b << "," << r << "," << col;
        } else if (col > r * 8) {
          EXPECT_EQ(v, 0.0f) << b << "," << r << "," << col;
        }
        sum += v;
      }
      if (r != rows - 1) EXPECT_NEAR(sum, 1.0, 1e-6) << b << "," << r;
    }
  }
  const std::vector<std::string> placement = compile("onednn", graph)->placement();
  EXPECT_EQ(placement.back(), "onednn");
  // +Infinity in the mask: the softmax runs the reference kernel again (oneDNN would give 0s).
  Case plus;
  mask[3] = kInf;
  plus.output(
      plus.op(OpKind::kSoftmax,
              {plus.op(OpKind::kAdd, {plus.input({2, rows, columns}, scores), plus.constant({rows, columns}, mask)})},
              SoftmaxAttrs{2}));
  const auto plus_graph = plus.builder.build(plus.outputs);
  const Floats with_plus = check_both(plus_graph, {{scores}}).front();
  EXPECT_TRUE(std::isnan(with_plus[0]));
  EXPECT_EQ(compile("onednn", plus_graph)->placement().back(), "reference");
}

// x / sqrt(mean(x * x) + epsilon) makes no NaN or infinity when epsilon > 0 (the square root is
// of a positive value), so a masked softmax after an RMSNorm still runs on oneDNN; with epsilon 0
// the division may be 0 / 0 and the softmax runs the reference kernel. Both agree with the
// reference, including a row of zeros (0 / 0 = NaN with epsilon 0).
TEST(OnednnSpecialValues, AnRmsNormWithEpsilonKeepsValuesFinite) {
  for (const float epsilon : {1e-5f, 0.0f}) {
    Floats x(4 * 8);
    for (size_t i = 8; i < x.size(); ++i) x[i] = std::cos(float(i)) * 3;  // row 0: zeros
    Floats mask(4 * 8, 0.0f);
    mask[5] = -kInf;
    Case c;
    const OperandId in = c.input({4, 8}, x);
    ReduceAttrs mean;
    mean.axes = std::vector<uint32_t>{1};
    mean.keep_dimensions = true;
    const OperandId ms = c.op(OpKind::kReduceMean, {c.op(OpKind::kMul, {in, in})}, mean);
    const OperandId rms = c.op(OpKind::kSqrt, {c.op(OpKind::kAdd, {ms, c.constant({}, {epsilon})})});
    const OperandId normed = c.op(OpKind::kDiv, {in, rms});
    c.output(c.op(OpKind::kSoftmax, {c.op(OpKind::kAdd, {normed, c.constant({4, 8}, mask)})}, SoftmaxAttrs{1}));
    const auto graph = c.builder.build(c.outputs);
    const Floats got = check_both(graph, {{x}}).front();
    EXPECT_EQ(std::isnan(got[0]), epsilon == 0) << epsilon;  // row 0: softmax of 0 / 0, or of zeros
    EXPECT_EQ(compile("onednn", graph)->placement().back(), epsilon > 0 ? "onednn" : "reference") << epsilon;
  }
}

// conv + clamp, add + relu and matmul + relu: fused into one oneDNN primitive for finite inputs,
// and still NaN where the input is NaN. The same executable then runs finite inputs again.
TEST(OnednnSpecialValues, NaNThroughFusedChains) {
  Floats image(1 * 16 * 4 * 4, 0.5f), with_nan = image;
  with_nan[5] = kNaN;  // channel 0, row 1, column 1
  Floats filter(16 * 16, 0.0f);
  for (int k = 0; k < 16; ++k) filter[size_t(k) * 16 + size_t(k)] = 1.0f;  // identity 1x1 filter
  Case c;
  const OperandId x = c.input({1, 16, 4, 4}, image);
  const OperandId conv = c.op(OpKind::kConv2d, {x, c.constant({16, 16, 1, 1}, filter)}, Conv2dAttrs{});
  const OperandId clamped = c.op(OpKind::kClamp, {conv}, ClampAttrs{0.0, 6.0});
  const OperandId relu = c.op(OpKind::kRelu, {c.op(OpKind::kAdd, {clamped, x})});
  const OperandId mm = c.op(OpKind::kRelu, {c.op(OpKind::kMatmul, {relu, c.constant({4, 4}, Floats(16, 0.25f))})});
  c.output(mm);
  c.output(relu);
  const std::vector<Floats> got = check_both(c, {{image}, {with_nan}, {image}});
  // First run (finite): every value of relu is 0.5 + 0.5.
  EXPECT_EQ(got[1][5], 1.0f);
  Case again;  // the NaN run's values, from first principles
  const OperandId y = again.input({1, 16, 4, 4}, with_nan);
  const OperandId conv2 = again.op(OpKind::kConv2d, {y, again.constant({16, 16, 1, 1}, filter)}, Conv2dAttrs{});
  again.output(
      again.op(OpKind::kRelu, {again.op(OpKind::kAdd, {again.op(OpKind::kClamp, {conv2}, ClampAttrs{0.0, 6.0}), y})}));
  const Floats nan_run = check_both(again, {{with_nan}}).front();
  // The NaN reaches every channel of its pixel (0 x NaN is NaN in the filter's zeros) and no other
  // pixel.
  for (size_t channel = 0; channel < 16; ++channel) {
    EXPECT_TRUE(std::isnan(nan_run[channel * 16 + 5])) << channel;
    EXPECT_EQ(nan_run[channel * 16 + 6], 1.0f) << channel;
  }
}

// A constant holding NaN is seen at build: the plan for it fuses nothing that would hide it.
TEST(OnednnSpecialValues, NaNInAConstantReachesTheOutput) {
  Case c;
  Conv2dAttrs a;
  Floats bias(8, 0.0f);
  bias[3] = kNaN;
  a.bias = OperandRef{c.constant({8}, bias)};
  const Floats x(2 * 3 * 3, 1.0f);
  c.output(c.op(OpKind::kRelu,
                {c.op(OpKind::kConv2d, {c.input({1, 2, 3, 3}, x), c.constant({8, 2, 1, 1}, Floats(16, 1.0f))}, a)}));
  const Floats got = check_both(c, {{x}}).front();
  for (size_t i = 0; i < 8 * 9; ++i) EXPECT_EQ(std::isnan(got[i]), i / 9 == 3) << i;
}

// ---- Our element-wise kernels write in place only what nobody reads later ----

Floats ramp(size_t n) {
  Floats v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(int(i % 23) - 11) * 0.25f;
  return v;
}

TEST(OnednnOwnEltwise, InPlaceOnlyWhereNothingReadsTheInputLater) {
  const Floats x = ramp(1 * 16 * 5 * 5);
  Floats filter(16 * 16);
  for (size_t i = 0; i < filter.size(); ++i) filter[i] = float(i % 7) * 0.05f - 0.1f;
  Case c;
  const OperandId in = c.input({1, 16, 5, 5}, x);
  const auto conv = [&](OperandId v) {
    return c.op(OpKind::kConv2d, {v, c.constant({16, 16, 1, 1}, filter)}, Conv2dAttrs{});
  };
  const OperandId a = conv(in);
  const OperandId g = c.op(OpKind::kGelu, {a});  // a is read again below: not in place
  c.output(c.op(OpKind::kAdd, {g, a}));          // (a residual the gelu must not overwrite)
  const OperandId b = c.op(OpKind::kExp, {c.op(OpKind::kSoftplus, {conv(in)})});  // a chain, in place
  c.output(c.op(OpKind::kMul, {b, in}));
  // A graph output left in the convolutions' layout (an add of two NHWC values, each read twice
  // so that neither convolution absorbs it), then read by gelu: the output's bytes are copied to
  // the caller at the end and must survive (gelu's own output is not one, or it would be written
  // straight into the caller's buffer).
  const OperandId p = conv(in), q = conv(in);
  const OperandId sum = c.op(OpKind::kAdd, {p, q});
  c.output(c.op(OpKind::kMul, {p, q}));
  c.output(sum);
  c.output(c.op(OpKind::kMul, {c.op(OpKind::kGelu, {sum}), in}));
  check_both(c, {{x}, {x}});
}

// erf runs SLEEF's 1-ULP erff (eltwise.hpp): within 1 float32 ULP of float64's erf over [-5, 5],
// subnormals and the limits included, the sign of zero kept, NaN in, NaN out.
TEST(OnednnOwnEltwise, ErfIsWithinOneUlpAndKeepsItsLimits) {
  Floats x;
  for (int i = -50000; i <= 50000; ++i) x.push_back(float(i) * 1e-4f);
  for (float tiny : {1e-40f, 1.4e-45f, 1e-20f, 3e-8f}) {
    x.push_back(tiny);
    x.push_back(-tiny);
  }
  const Floats specials = {kNaN, kInf, -kInf, 0.0f, -0.0f, 10.0f, -10.0f, kMax};
  x.insert(x.end(), specials.begin(), specials.end());
  Case c;
  c.output(c.op(OpKind::kErf, {c.input({static_cast<uint32_t>(x.size())}, x)}));
  const Floats got = check_both(c, {{x}}).front();
  double worst = 0;
  for (size_t i = 0; i + specials.size() < x.size(); ++i) {
    const double exact = std::erf(double(x[i]));
    const double ulp = std::nextafter(float(std::fabs(exact)), kInf) - float(std::fabs(exact));
    worst = std::max(worst, std::fabs(double(got[i]) - exact) / ulp);
  }
  EXPECT_LE(worst, 1.0) << "largest error in float32 ULP";
  const size_t s = x.size() - specials.size();
  EXPECT_TRUE(std::isnan(got[s]));
  EXPECT_EQ(got[s + 1], 1.0f);
  EXPECT_EQ(got[s + 2], -1.0f);
  EXPECT_TRUE(got[s + 3] == 0.0f && !std::signbit(got[s + 3]));
  EXPECT_TRUE(got[s + 4] == 0.0f && std::signbit(got[s + 4]));
  EXPECT_EQ(got[s + 5], 1.0f);
  EXPECT_EQ(got[s + 6], -1.0f);
  EXPECT_EQ(got[s + 7], 1.0f);
}

// ---- Property: random small graphs ----

// Values of a test input: mostly ordinary, some signed zeros, subnormals and values near float32's
// limits, and (when `specials`) NaN and infinities.
Floats draw_values(std::mt19937& rng, size_t n, bool specials) {
  std::uniform_real_distribution<float> ordinary(-2.0f, 2.0f);
  std::uniform_int_distribution<int> pick(0, 99);
  const float unusual[] = {0.0f, -0.0f, 1e-40f, -1e-40f, 1.4e-45f, 1e37f, -1e37f, 3e38f, -3e38f, 88.0f, -100.0f};
  const float special[] = {kNaN, kInf, -kInf};
  Floats v(n);
  for (float& x : v) {
    const int p = pick(rng);
    if (specials && p < 4) {
      x = special[static_cast<size_t>(p) % 3];
    } else if (p < 12) {
      x = unusual[static_cast<size_t>(pick(rng)) % (sizeof unusual / sizeof unusual[0])];
    } else {
      x = ordinary(rng);
    }
  }
  return v;
}

// Weights whose magnitudes sum to at most 1/2 over each output: a sum of them times values up to
// float32's largest cannot overflow, in any order (only NaN and infinities decide the specials).
Floats draw_weights(std::mt19937& rng, size_t n, size_t fan_in) {
  std::uniform_real_distribution<float> w(-0.5f, 0.5f);
  Floats v(n);
  for (float& x : v) x = w(rng) / float(fan_in);
  return v;
}

// Builds one random graph over tensors [1, C, H, W]: a chain of operations, each reading the
// latest value (and sometimes an earlier one), some intermediates made graph outputs.
class RandomGraph {
 public:
  explicit RandomGraph(uint32_t seed) : rng_(seed) {}

  void build(Case& c, size_t steps) {
    const uint32_t channels[] = {4, 8, 16};
    channels_ = channels[rng_() % 3];
    height_ = 3 + rng_() % 4;
    width_ = 3 + rng_() % 4;
    values_.push_back({c.input(shape(), {}), channels_, bound_of_inputs_});
    if (rng_() % 3 == 0) values_.push_back({c.input(shape(), {}), channels_, bound_of_inputs_});
    const size_t inputs = values_.size();
    for (size_t s = 0; s < steps; ++s) step(c);
    c.output(values_.back().id);
    for (size_t i = inputs; i + 1 < values_.size(); ++i)
      if (rng_() % 4 == 0) c.output(values_[i].id);
  }

  std::string trace;

 private:
  struct Value {
    OperandId id;
    uint32_t channels;
    float bound;  // largest finite magnitude it can hold (kInf: any)
  };

  Shape shape(uint32_t channels = 0) const { return {1, channels ? channels : channels_, height_, width_}; }

  Value& pick_same_shape(const Value& like) {
    std::vector<Value*> same;
    for (Value& v : values_)
      if (v.channels == like.channels) same.push_back(&v);
    return *same[rng_() % same.size()];
  }

  void step(Case& c) {
    const Value x = values_.back();
    const uint32_t choice = rng_() % 12;
    Value out = x;
    std::string name;
    switch (choice) {
      case 0:
      case 1: {  // a convolution (1x1 or 3x3, sometimes depthwise, sometimes with a bias) + activation
        const bool depthwise = rng_() % 3 == 0;
        const uint32_t k = rng_() % 2 ? 3 : 1;
        const uint32_t cout = depthwise ? x.channels : std::vector<uint32_t>{4, 8, 16}[rng_() % 3];
        const uint32_t cin_per_group = depthwise ? 1 : x.channels;
        Conv2dAttrs a;
        a.padding = std::vector<uint32_t>{k / 2, k / 2, k / 2, k / 2};
        a.groups = depthwise ? x.channels : 1;
        const size_t fan_in = size_t(cin_per_group) * k * k;
        if (rng_() % 2) a.bias = OperandRef{c.constant({cout}, draw_weights(rng_, cout, 1))};
        out.id = c.op(OpKind::kConv2d,
                      {x.id, c.constant({cout, cin_per_group, k, k}, draw_weights(rng_, cout * fan_in, fan_in))}, a);
        out.channels = cout;
        out.bound = x.bound / 2 + 0.5f;  // the weights' magnitudes sum to 1/2 at most, the bias's to 1/2
        name = "conv" + std::to_string(k);
        if (rng_() % 3 != 0) {
          out.id = activation(c, out.id, out.bound);
          name += "+act";
        }
        break;
      }
      case 2: {  // a matmul over the last axis [.., W] x [W, W] + activation
        out.id =
            c.op(OpKind::kMatmul, {x.id, c.constant({width_, width_}, draw_weights(rng_, width_ * width_, width_))});
        out.bound = x.bound / 2;
        name = "matmul";
        if (rng_() % 2) {
          out.id = activation(c, out.id, out.bound);
          name += "+act";
        }
        break;
      }
      case 3:
      case 4: {  // max or average pool, 3x3, stride 1, padding 1
        Pool2dAttrs a;
        a.window_dimensions = std::vector<uint32_t>{3, 3};
        a.padding = std::vector<uint32_t>{1, 1, 1, 1};
        // An average of 9 values near the limit would overflow in float32 sums (the reference
        // sums in double): averages only of values that cannot.
        const bool average = choice == 4 && x.bound <= kMax / 16;
        out.id = c.op(average ? OpKind::kAveragePool2d : OpKind::kMaxPool2d, {x.id}, a);
        name = average ? "avgpool" : "maxpool";
        break;
      }
      case 5: {  // softmax over channels
        out.id = c.op(OpKind::kSoftmax, {x.id}, SoftmaxAttrs{1});
        out.bound = 1;
        name = "softmax";
        break;
      }
      case 6: {  // a reduction over the image, kept as an output
        ReduceAttrs a;
        a.axes = std::vector<uint32_t>{2, 3};
        a.keep_dimensions = true;
        const OpKind kinds[] = {OpKind::kReduceMax, OpKind::kReduceSum, OpKind::kReduceMean};
        c.output(c.op(kinds[rng_() % 3], {x.id}, a));
        name = "reduce";
        trace += name + " ";
        return;
      }
      case 7:
      case 8: {  // add, sub, mul, max or min with an earlier value of the same shape or a constant
        const Value& y = rng_() % 2 ? pick_same_shape(x) : constant_like(c, x);
        const OpKind kinds[] = {OpKind::kAdd, OpKind::kSub, OpKind::kMul, OpKind::kMax, OpKind::kMin};
        OpKind kind = kinds[rng_() % 5];
        out.bound = kind == OpKind::kMul ? x.bound * y.bound : x.bound + y.bound;
        if (kind == OpKind::kMax || kind == OpKind::kMin || !(out.bound <= kMax / 4)) {
          kind = rng_() % 2 ? OpKind::kMax : OpKind::kMin;  // cannot overflow
          out.bound = std::max(x.bound, y.bound);
        }
        out.id = c.op(kind, {x.id, y.id});
        name = std::string(op_name(kind));
        break;
      }
      default: {  // a unary element-wise operation
        out.id = activation(c, x.id, out.bound, /*any=*/true);
        name = "unary";
        break;
      }
    }
    trace += name + " ";
    values_.push_back(out);
  }

  const Value& constant_like(Case& c, const Value& like) {
    // Broadcast per channel, or a full tensor; now and then holding a NaN or an infinity.
    const bool full = rng_() % 2;
    const Shape s = full ? shape(like.channels) : Shape{1, like.channels, 1, 1};
    const size_t n = full ? size_t(like.channels) * height_ * width_ : like.channels;
    Floats v = draw_values(rng_, n, rng_() % 8 == 0);
    constants_.push_back({c.constant(s, v), like.channels, 3e38f});
    return constants_.back();
  }

  // A random activation of `x` (only those oneDNN fuses unless `any`), updating `bound`: one that
  // could overflow a value within the bound is replaced by clamp(0, 6) (docs/onednn.md: the fused
  // plan assumes that nothing overflows before an activation fused into a primitive).
  OperandId activation(Case& c, OperandId x, float& bound, bool any = false) {
    const uint32_t pick = rng_() % (any ? 16 : 7);
    const float b = bound;
    const auto bounded = [&](float result_bound) { return result_bound <= kMax / 4; };
    switch (pick) {
      case 0:
        return c.op(OpKind::kRelu, {x});
      case 2:
        bound = 1;
        return c.op(OpKind::kSigmoid, {x});
      case 3:
        bound = 1;
        return c.op(OpKind::kTanh, {x});
      case 4:
        return c.op(OpKind::kHardSwish, {x});
      case 5:
        return c.op(OpKind::kLeakyRelu, {x}, LeakyReluAttrs{0.1});
      case 6:
        return c.op(OpKind::kClamp, {x}, ClampAttrs{});
      case 7:
        return c.op(OpKind::kGelu, {x});
      case 8:
        if (b > 80) break;
        bound = std::exp(b);
        return c.op(OpKind::kExp, {x});
      case 9:
        bound = 104;  // |log| of any float32 is below 104
        return c.op(OpKind::kLog, {x});
      case 10:
        if (!bounded(b + 1)) break;
        bound = b + 1;
        return c.op(OpKind::kSoftplus, {x});
      case 11:
        return c.op(OpKind::kElu, {x}, EluAttrs{1.0});
      case 12:
        bound = std::sqrt(b);
        return c.op(OpKind::kSqrt, {x});
      case 13:
        return c.op(OpKind::kAbs, {x});
      case 14:
        bound = 1;
        return c.op(OpKind::kHardSigmoid, {x}, HardSigmoidAttrs{});
      case 15:
        if (!bounded(2 * b + 1)) break;
        bound = 2 * b + 1;
        return c.op(OpKind::kLinear, {x}, LinearAttrs{-2.0, 0.5});
      default:
        break;
    }
    bound = 6;
    return c.op(OpKind::kClamp, {x}, ClampAttrs{0.0, 6.0});
  }

  std::mt19937 rng_;
  uint32_t channels_ = 4, height_ = 3, width_ = 3;
  float bound_of_inputs_ = 3e38f;  // the largest of draw_values
  std::vector<Value> values_;
  std::deque<Value> constants_;
};

TEST(OnednnSpecialValuesProperty, RandomGraphsAgreeWithTheReference) {
  for (uint32_t seed = 1; seed <= 150; ++seed) {
    Case c;
    RandomGraph g(seed);
    g.build(c, 3 + seed % 4);
    const std::shared_ptr<const Graph> graph = c.builder.build(c.outputs);
    std::mt19937 rng(seed * 7919);
    std::vector<Floats> finite, special;
    for (const NamedOperand& in : graph->inputs) {
      const size_t n = *graph->desc(in.operand).byte_length() / sizeof(float);
      finite.push_back(draw_values(rng, n, false));
      special.push_back(draw_values(rng, n, true));
    }
    // Finite values first (the fused plan), then NaN and infinities (the other plan), then finite
    // again on the same executables.
    check_both(graph, {finite, special, finite}, "seed " + std::to_string(seed) + ": " + g.trace);
    if (HasFailure()) break;  // one graph's report is enough to debug
  }
}

}  // namespace
}  // namespace webnn::test
