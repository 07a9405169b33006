// Validation resolves: after GraphBuilder::add_operation (ops::infer), every option the spec gives a
// default holds the value the operation uses, and records that the caller left it out. The
// expected defaults are the spec's, as its dictionaries and method steps state them:
// MLConv2dOptions/MLConvTranspose2dOptions padding [0, 0, 0, 0], strides and dilations [1, 1],
// outputPadding [0, 0]; MLPool2dOptions windowDimensions the input's height and width;
// layerNormalization's axes [1, ..., rank - 1]; the reductions' and reverse's axes every axis;
// transpose's permutation the axes reversed; slice's strides all 1; resample2d's scales [1.0, 1.0]
// and axes [2, 3]; gru's and gruCell's activations [sigmoid, tanh], lstm's and lstmCell's
// [sigmoid, tanh, tanh].
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

using Dims = std::vector<uint32_t>;
using Acts = std::vector<RecurrentActivation>;

class ResolvedAttributesTest : public OpsTest {
 protected:
  // Adds the operation and returns its stored attributes.
  template <class A>
  const A& added(OpKind kind, std::vector<OperandId> inputs, A attrs) {
    builder_.add_operation(kind, std::move(inputs), std::move(attrs));
    return std::get<A>(builder_.graph().operations.back().attrs);
  }
  template <class T>
  static void expect_default(const Defaulted<T>& option, const T& expected) {
    EXPECT_FALSE(option.given());
    EXPECT_EQ(option.if_given(), nullptr);
    EXPECT_EQ(*option, expected);
  }
  template <class T>
  static void expect_given(const Defaulted<T>& option, const T& expected) {
    EXPECT_TRUE(option.given());
    ASSERT_NE(option.if_given(), nullptr);
    EXPECT_EQ(*option, expected);
  }
};

TEST_F(ResolvedAttributesTest, Conv2dAndConvTranspose2d) {
  const auto& conv = added(OpKind::kConv2d, {input(kF32, {1, 1, 5, 5}), input(kF32, {1, 1, 3, 3})}, Conv2dAttrs{});
  expect_default(conv.padding, Dims{0, 0, 0, 0});
  expect_default(conv.strides, Dims{1, 1});
  expect_default(conv.dilations, Dims{1, 1});

  ConvTranspose2dAttrs t;
  t.strides = Dims{2, 2};
  const auto& up = added(OpKind::kConvTranspose2d, {input(kF32, {1, 1, 3, 3}), input(kF32, {1, 1, 3, 3})}, t);
  expect_default(up.padding, Dims{0, 0, 0, 0});
  expect_given(up.strides, Dims{2, 2});
  expect_default(up.dilations, Dims{1, 1});
  expect_default(up.output_padding, Dims{0, 0});
  EXPECT_FALSE(up.output_sizes.has_value());  // no default: absent stays absent
}

TEST_F(ResolvedAttributesTest, Pool2dWindowIsTheWholeInput) {
  Pool2dAttrs nhwc;
  nhwc.layout = InputLayout::kNhwc;
  const auto& a = added(OpKind::kAveragePool2d, {input(kF32, {1, 7, 5, 3})}, nhwc);
  expect_default(a.window_dimensions, Dims{7, 5});
  expect_default(a.padding, Dims{0, 0, 0, 0});
  expect_default(a.strides, Dims{1, 1});
  expect_default(a.dilations, Dims{1, 1});
  const auto& b = added(OpKind::kMaxPool2d, {input(kF32, {1, 3, 7, 5})}, Pool2dAttrs{});
  expect_default(b.window_dimensions, Dims{7, 5});
}

TEST_F(ResolvedAttributesTest, AxesPermutationAndStrides) {
  expect_default(added(OpKind::kLayerNormalization, {input(kF32, {2, 3, 4})}, LayerNormalizationAttrs{}).axes,
                 Dims{1, 2});
  expect_default(added(OpKind::kLayerNormalization, {input(kF32, {5})}, LayerNormalizationAttrs{}).axes, Dims{});
  expect_default(added(OpKind::kReduceSum, {input(kF32, {2, 3, 4})}, ReduceAttrs{}).axes, Dims{0, 1, 2});
  expect_default(added(OpKind::kReduceMax, {input(kF32, {})}, ReduceAttrs{}).axes, Dims{});
  expect_default(added(OpKind::kReverse, {input(kF32, {2, 3})}, ReverseAttrs{}).axes, Dims{0, 1});
  expect_default(added(OpKind::kTranspose, {input(kF32, {2, 3, 4, 5})}, TransposeAttrs{}).permutation,
                 Dims{3, 2, 1, 0});
  SliceAttrs s;
  s.starts = {0, 1};
  s.sizes = {2, 2};
  expect_default(added(OpKind::kSlice, {input(kF32, {2, 3})}, s).strides, Dims{1, 1});

  // An explicitly empty list is given, not the default.
  ReduceAttrs none;
  none.axes = Dims{};
  expect_given(added(OpKind::kReduceSum, {input(kF32, {2, 3})}, none).axes, Dims{});
}

TEST_F(ResolvedAttributesTest, Resample2d) {
  const auto& a = added(OpKind::kResample2d, {input(kF32, {1, 1, 2, 2})}, Resample2dAttrs{});
  expect_default(a.scales, std::vector<float>{1.0f, 1.0f});
  expect_default(a.axes, Dims{2, 3});
  EXPECT_FALSE(a.sizes.has_value());
}

TEST_F(ResolvedAttributesTest, RecurrentActivations) {
  const uint32_t steps = 2, batch = 1, size = 3, hidden = 4;
  GruAttrs gru;
  gru.steps = steps;
  gru.hidden_size = hidden;
  expect_default(added(OpKind::kGru,
                       {input(kF32, {steps, batch, size}), input(kF32, {1, 3 * hidden, size}),
                        input(kF32, {1, 3 * hidden, hidden})},
                       gru)
                     .activations,
                 Acts{kSigmoid, kTanh});
  LstmAttrs lstm;
  lstm.steps = steps;
  lstm.hidden_size = hidden;
  expect_default(added(OpKind::kLstm,
                       {input(kF32, {steps, batch, size}), input(kF32, {1, 4 * hidden, size}),
                        input(kF32, {1, 4 * hidden, hidden})},
                       lstm)
                     .activations,
                 Acts{kSigmoid, kTanh, kTanh});
  GruCellAttrs cell;
  cell.hidden_size = hidden;
  cell.activations = Acts{kRelu, kRelu};
  expect_given(added(OpKind::kGruCell,
                     {input(kF32, {batch, size}), input(kF32, {3 * hidden, size}), input(kF32, {3 * hidden, hidden}),
                      input(kF32, {batch, hidden})},
                     cell)
                   .activations,
               Acts{kRelu, kRelu});
  LstmCellAttrs lstm_cell;
  lstm_cell.hidden_size = hidden;
  expect_default(added(OpKind::kLstmCell,
                       {input(kF32, {batch, size}), input(kF32, {4 * hidden, size}), input(kF32, {4 * hidden, hidden}),
                        input(kF32, {batch, hidden}), input(kF32, {batch, hidden})},
                       lstm_cell)
                     .activations,
                 Acts{kSigmoid, kTanh, kTanh});
}

// Options compare by what the caller gave: a resolved default equals an unresolved absence (the
// default follows from the operands), and differs from the same value given.
TEST(Defaulted, EqualityFollowsWhatTheCallerGave) {
  DefaultedDims absent, resolved, given = Dims{0, 0, 0, 0};
  resolved.resolve({0, 0, 0, 0});
  EXPECT_EQ(absent, resolved);
  EXPECT_FALSE(resolved == given);
  EXPECT_EQ(given, DefaultedDims(Dims{0, 0, 0, 0}));
  EXPECT_EQ(DefaultedDims(std::optional<Dims>()), absent);
  EXPECT_EQ(DefaultedDims(std::optional<Dims>(Dims{1})), DefaultedDims(Dims{1}));
  EXPECT_EQ(given.caller_value(), std::optional<Dims>(Dims{0, 0, 0, 0}));
  EXPECT_EQ(resolved.caller_value(), std::nullopt);
}

// Resolving again (an operation validated twice) keeps a given value and replaces a default.
TEST(Defaulted, ResolveKeepsWhatWasGiven) {
  DefaultedDims given = Dims{2, 2};
  given.resolve({1, 1});
  EXPECT_EQ(*given, (Dims{2, 2}));
  DefaultedDims left;
  left.resolve({1, 1});
  left.resolve({3, 3});
  EXPECT_EQ(*left, (Dims{3, 3}));
  EXPECT_FALSE(left.given());
}

// An option read before validation resolved it is an internal error, never a silent value.
TEST(Defaulted, ReadingAnUnresolvedDefaultThrows) {
  const DefaultedDims absent;
  try {
    (void)*absent;
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnknownError);
    EXPECT_NE(e.message().find("before validation"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace webnn::testing
