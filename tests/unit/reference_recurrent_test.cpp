// gru, gruCell, lstm and lstmCell on the reference backend. The expected values come from a
// separate numpy implementation written from the spec's emulation code (gruCell/lstmCell as
// matmul/add/activation decompositions, gru/lstm as the emulation's loop over steps and directions),
// computed in double with every cell output rounded to the operand type, as documented in
// docs/operators.md. Every operand is filled by pattern() below, which the numpy script reproduces.
#include <gtest/gtest.h>

#include "reference_graph_util.hpp"

namespace webnn::test {
namespace {

constexpr uint32_t kSteps = 3, kBatch = 2, kInputSize = 3, kHidden = 2;
constexpr RecurrentActivation kSigmoid = RecurrentActivation::kSigmoid;
constexpr RecurrentActivation kTanh = RecurrentActivation::kTanh;
constexpr RecurrentActivation kRelu = RecurrentActivation::kRelu;

// v[i] = ((7 i + 13 seed) mod 19 - 9) / 16: small values, exact in float16.
std::vector<float> pattern(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(int((i * 7 + size_t(seed) * 13) % 19) - 9) / 16.0f;
  return v;
}

// The operand seeds of the numpy script.
enum Seed {
  kInputSeed = 1,
  kWeightSeed,
  kRecurrentWeightSeed,
  kBiasSeed,
  kRecurrentBiasSeed,
  kHiddenSeed,
  kCellSeed,
  kPeepholeSeed
};

TensorData filled(DataType type, const Shape& shape, int seed) {
  size_t n = 1;
  for (uint32_t d : shape) n *= d;
  return type == DataType::kFloat16 ? f16(shape, pattern(n, seed)) : f32(shape, pattern(n, seed));
}

std::vector<float> floats(const TensorData& t) {
  return t.desc.data_type == DataType::kFloat16 ? half_values(t) : values<float>(t);
}

// Which optional operands a call passes.
struct Present {
  bool bias = false, recurrent_bias = false, peephole = false, hidden = false, cell = false;
};
constexpr Present kAll{true, true, true, true, true};

std::optional<OperandRef> maybe(GraphMaker& g, bool present, const std::string& name, DataType type, const Shape& shape,
                                int seed) {
  if (!present) return std::nullopt;
  return OperandRef{g.input(name, filled(type, shape, seed))};
}

std::vector<TensorData> run_gru(GruAttrs a, Present p, DataType type = DataType::kFloat32) {
  GraphMaker g;
  const uint32_t dirs = a.direction == RecurrentDirection::kBoth ? 2 : 1, rows = 3 * kHidden;
  a.steps = kSteps;
  a.hidden_size = kHidden;
  const OperandId x = g.input("input", filled(type, {kSteps, kBatch, kInputSize}, kInputSeed));
  const OperandId w = g.input("weight", filled(type, {dirs, rows, kInputSize}, kWeightSeed));
  const OperandId r = g.input("recurrentWeight", filled(type, {dirs, rows, kHidden}, kRecurrentWeightSeed));
  a.bias = maybe(g, p.bias, "bias", type, {dirs, rows}, kBiasSeed);
  a.recurrent_bias = maybe(g, p.recurrent_bias, "recurrentBias", type, {dirs, rows}, kRecurrentBiasSeed);
  a.initial_hidden_state = maybe(g, p.hidden, "initialHiddenState", type, {dirs, kBatch, kHidden}, kHiddenSeed);
  std::vector<OperandDescriptor> outs{desc(type, {dirs, kBatch, kHidden})};
  if (a.return_sequence) outs.push_back(desc(type, {kSteps, dirs, kBatch, kHidden}));
  const auto ids = g.op_n(OpKind::kGru, {x, w, r}, a, outs);
  for (size_t i = 0; i < ids.size(); ++i) g.output("out" + std::to_string(i), ids[i]);
  return g.run();
}

std::vector<TensorData> run_lstm(LstmAttrs a, Present p, DataType type = DataType::kFloat32) {
  GraphMaker g;
  const uint32_t dirs = a.direction == RecurrentDirection::kBoth ? 2 : 1, rows = 4 * kHidden;
  a.steps = kSteps;
  a.hidden_size = kHidden;
  const OperandId x = g.input("input", filled(type, {kSteps, kBatch, kInputSize}, kInputSeed));
  const OperandId w = g.input("weight", filled(type, {dirs, rows, kInputSize}, kWeightSeed));
  const OperandId r = g.input("recurrentWeight", filled(type, {dirs, rows, kHidden}, kRecurrentWeightSeed));
  a.bias = maybe(g, p.bias, "bias", type, {dirs, rows}, kBiasSeed);
  a.recurrent_bias = maybe(g, p.recurrent_bias, "recurrentBias", type, {dirs, rows}, kRecurrentBiasSeed);
  a.peephole_weight = maybe(g, p.peephole, "peepholeWeight", type, {dirs, 3 * kHidden}, kPeepholeSeed);
  a.initial_hidden_state = maybe(g, p.hidden, "initialHiddenState", type, {dirs, kBatch, kHidden}, kHiddenSeed);
  a.initial_cell_state = maybe(g, p.cell, "initialCellState", type, {dirs, kBatch, kHidden}, kCellSeed);
  std::vector<OperandDescriptor> outs{desc(type, {dirs, kBatch, kHidden}), desc(type, {dirs, kBatch, kHidden})};
  if (a.return_sequence) outs.push_back(desc(type, {kSteps, dirs, kBatch, kHidden}));
  const auto ids = g.op_n(OpKind::kLstm, {x, w, r}, a, outs);
  for (size_t i = 0; i < ids.size(); ++i) g.output("out" + std::to_string(i), ids[i]);
  return g.run();
}

TensorData run_gru_cell(GruCellAttrs a, Present p) {
  GraphMaker g;
  const DataType type = DataType::kFloat32;
  a.hidden_size = kHidden;
  const OperandId x = g.input("input", filled(type, {kBatch, kInputSize}, kInputSeed));
  const OperandId w = g.input("weight", filled(type, {3 * kHidden, kInputSize}, kWeightSeed));
  const OperandId r = g.input("recurrentWeight", filled(type, {3 * kHidden, kHidden}, kRecurrentWeightSeed));
  const OperandId h = g.input("hiddenState", filled(type, {kBatch, kHidden}, kHiddenSeed));
  a.bias = maybe(g, p.bias, "bias", type, {3 * kHidden}, kBiasSeed);
  a.recurrent_bias = maybe(g, p.recurrent_bias, "recurrentBias", type, {3 * kHidden}, kRecurrentBiasSeed);
  g.output("out", g.op(OpKind::kGruCell, {x, w, r, h}, a, desc(type, {kBatch, kHidden})));
  return g.run().front();
}

std::vector<TensorData> run_lstm_cell(LstmCellAttrs a, Present p) {
  GraphMaker g;
  const DataType type = DataType::kFloat32;
  a.hidden_size = kHidden;
  const OperandId x = g.input("input", filled(type, {kBatch, kInputSize}, kInputSeed));
  const OperandId w = g.input("weight", filled(type, {4 * kHidden, kInputSize}, kWeightSeed));
  const OperandId r = g.input("recurrentWeight", filled(type, {4 * kHidden, kHidden}, kRecurrentWeightSeed));
  const OperandId h = g.input("hiddenState", filled(type, {kBatch, kHidden}, kHiddenSeed));
  const OperandId c = g.input("cellState", filled(type, {kBatch, kHidden}, kCellSeed));
  a.bias = maybe(g, p.bias, "bias", type, {4 * kHidden}, kBiasSeed);
  a.recurrent_bias = maybe(g, p.recurrent_bias, "recurrentBias", type, {4 * kHidden}, kRecurrentBiasSeed);
  a.peephole_weight = maybe(g, p.peephole, "peepholeWeight", type, {3 * kHidden}, kPeepholeSeed);
  const auto ids =
      g.op_n(OpKind::kLstmCell, {x, w, r, h, c}, a, {desc(type, {kBatch, kHidden}), desc(type, {kBatch, kHidden})});
  g.output("h", ids[0]);
  g.output("c", ids[1]);
  return g.run();
}

void expect_f32(const TensorData& actual, const std::vector<float>& expected) {
  EXPECT_EQ(actual.desc.data_type, DataType::kFloat32);
  expect_near(floats(actual), expected, 1e-6, 1e-6);
}
// The numpy values are float16 values too; 1e-3 relative is about two float16 ulps.
void expect_f16(const TensorData& actual, const std::vector<float>& expected) {
  EXPECT_EQ(actual.desc.data_type, DataType::kFloat16);
  expect_near(floats(actual), expected, 1e-6, 1e-3);
}

// ---- gruCell ----

TEST(ReferenceGruCell, ZrnResetAfterWithBiases) {
  GruCellAttrs a;  // defaults: zrn, resetAfter, [sigmoid, tanh]
  expect_f32(run_gru_cell(a, {true, true}), {-0.159613043f, 0.052074369f, 0.241424263f, 0.0413944125f});
}

TEST(ReferenceGruCell, RznResetBeforeWithReluForTheNewGate) {
  GruCellAttrs a;
  a.layout = GruWeightLayout::kRzn;
  a.reset_after = false;
  a.activations = std::vector<RecurrentActivation>{kSigmoid, kRelu};
  expect_f32(run_gru_cell(a, {true, true}), {0.246358842f, 0.00977829844f, 0.39809227f, -0.0963923708f});
}

TEST(ReferenceGruCell, ResetBeforeWithoutBiases) {
  GruCellAttrs a;
  a.reset_after = false;
  expect_f32(run_gru_cell(a, {}), {-0.0473706722f, 0.10443721f, 0.295032054f, 0.0261445977f});
}

// ---- gru ----

TEST(ReferenceGru, ForwardWithDefaults) {
  const auto out = run_gru(GruAttrs{}, {});
  ASSERT_EQ(out.size(), 1u);
  expect_f32(out[0], {-0.0275980569f, 0.0264578145f, -0.0793493837f, -0.0588995256f});
}

TEST(ReferenceGru, ForwardSequenceEndsWithTheOutput) {
  GruAttrs a;
  a.return_sequence = true;
  const auto out = run_gru(a, {});
  ASSERT_EQ(out.size(), 2u);
  expect_f32(out[0], {-0.0275980569f, 0.0264578145f, -0.0793493837f, -0.0588995256f});
  expect_f32(out[1], {0.146027714f, 0.128545359f, 0.152081832f, 0.155470729f, 0.200132042f, 0.236868724f, -0.036185775f,
                      -0.0350491069f, -0.0275980569f, 0.0264578145f, -0.0793493837f, -0.0588995256f});
}

TEST(ReferenceGru, BackwardRznResetBeforeWithInitialState) {
  GruAttrs a;
  a.direction = RecurrentDirection::kBackward;
  a.layout = GruWeightLayout::kRzn;
  a.reset_after = false;
  a.return_sequence = true;
  const auto out = run_gru(a, {true, true, false, true});
  ASSERT_EQ(out.size(), 2u);
  // Backward: the last state computed is the one of time step 0, first in the sequence.
  expect_f32(out[0], {0.337808847f, 0.0449098684f, 0.307356477f, -0.0770514235f});
  expect_f32(out[1], {0.337808847f, 0.0449098684f, 0.307356477f, -0.0770514235f, 0.278406173f, -0.00781673845f,
                      0.0557185933f, -0.220414475f, -0.0401198603f, -0.126200885f, 0.1336779f, -0.20109953f});
}

TEST(ReferenceGru, BothDirectionsWithReluNewGate) {
  GruAttrs a;
  a.direction = RecurrentDirection::kBoth;
  a.return_sequence = true;
  a.activations = std::vector<RecurrentActivation>{kSigmoid, kRelu};
  const auto out = run_gru(a, {true, true, false, true});
  ASSERT_EQ(out.size(), 2u);
  expect_f32(out[0], {0.00718639186f, 0.0728219673f, 0.0615828f, 0.0115574831f, 0.0459330529f, 0.187794656f,
                      -0.0760272592f, 0.227328449f});
  // [steps, 2, batch, hidden]: direction 0 then direction 1 at each step.
  expect_f32(out[1], {-0.158091962f,  0.0522035994f, 0.241488487f,  0.0537728593f, 0.0459330529f,  0.187794656f,
                      -0.0760272592f, 0.227328449f,  0.0137150418f, 0.166954249f,  0.121977374f,   0.0249479208f,
                      0.0671805665f,  0.27108869f,   -0.113203831f, 0.251301408f,  0.00718639186f, 0.0728219673f,
                      0.0615828f,     0.0115574831f, 0.0998519138f, 0.370952338f,  -0.143941849f,  0.283433765f});
}

TEST(ReferenceGru, BothDirectionsRznWithoutOptions) {
  GruAttrs a;
  a.direction = RecurrentDirection::kBoth;
  a.layout = GruWeightLayout::kRzn;
  const auto out = run_gru(a, {});
  ASSERT_EQ(out.size(), 1u);
  expect_f32(out[0], {0.00055322831f, 0.0150569472f, -0.0758991912f, -0.0618225336f, -0.165679827f, -0.153515011f,
                      -0.150260076f, -0.140119776f});
}

TEST(ReferenceGru, Float16RoundsTheStateAtEveryStep) {
  GruAttrs a;
  a.direction = RecurrentDirection::kBoth;
  a.layout = GruWeightLayout::kRzn;
  a.reset_after = false;
  a.return_sequence = true;
  const auto out = run_gru(a, {true, true, false, true}, DataType::kFloat16);
  ASSERT_EQ(out.size(), 2u);
  expect_f16(out[0], {0.100402832f, -0.0455322266f, 0.0618591309f, -0.156494141f, -0.471435547f, 0.262939453f,
                      -0.495361328f, 0.295898438f});
  expect_f16(out[1], {0.203857422f,  0.00977325439f, 0.38671875f,   -0.0994873047f, -0.471435547f, 0.262939453f,
                      -0.495361328f, 0.295898438f,   0.325195312f,  0.0888061523f,  0.100036621f,  -0.15612793f,
                      -0.354492188f, 0.289550781f,   -0.408203125f, 0.296142578f,   0.100402832f,  -0.0455322266f,
                      0.0618591309f, -0.156494141f,  -0.116638184f, 0.338378906f,   -0.326171875f, 0.298095703f});
}

// ---- lstmCell ----

TEST(ReferenceLstmCell, IofgWithBiasesAndPeepholes) {
  const auto out = run_lstm_cell(LstmCellAttrs{}, kAll);
  expect_f32(out[0], {0.171107739f, -0.279535741f, 0.0779190734f, -0.098518163f});
  expect_f32(out[1], {0.598784149f, -0.418432742f, 0.239164352f, -0.149950176f});
}

TEST(ReferenceLstmCell, IfgoWithoutOptionsAndReluCellGate) {
  LstmCellAttrs a;
  a.layout = LstmWeightLayout::kIfgo;
  a.activations = std::vector<RecurrentActivation>{kSigmoid, kRelu, kTanh};
  const auto out = run_lstm_cell(a, {});
  expect_f32(out[0], {0.193617716f, -0.0915398002f, 0.0249439329f, 0.214835495f});
  expect_f32(out[1], {0.432127148f, -0.185167253f, 0.0580544099f, 0.560678661f});
}

TEST(ReferenceLstmCell, IfgoWithPeepholesAndReluOnTheOutput) {
  LstmCellAttrs a;
  a.layout = LstmWeightLayout::kIfgo;
  a.activations = std::vector<RecurrentActivation>{kSigmoid, kTanh, kRelu};
  const auto out = run_lstm_cell(a, kAll);
  // relu(negative cell state) zeroes the hidden state.
  expect_f32(out[0], {0.315496922f, 0.0f, 0.086793527f, 0.147018686f});
  expect_f32(out[1], {0.500244915f, -0.282216638f, 0.142178774f, 0.546656907f});
}

// ---- lstm ----

TEST(ReferenceLstm, ForwardWithDefaults) {
  const auto out = run_lstm(LstmAttrs{}, {});
  ASSERT_EQ(out.size(), 2u);
  expect_f32(out[0], {0.0490286238f, 0.0596730895f, 0.110294648f, 0.104733318f});
  expect_f32(out[1], {0.107398145f, 0.128559381f, 0.228545576f, 0.234379962f});
}

TEST(ReferenceLstm, BackwardIfgoWithEveryOption) {
  LstmAttrs a;
  a.direction = RecurrentDirection::kBackward;
  a.layout = LstmWeightLayout::kIfgo;
  a.return_sequence = true;
  const auto out = run_lstm(a, kAll);
  ASSERT_EQ(out.size(), 3u);
  expect_f32(out[0], {0.181839138f, 0.00237514963f, 0.144725934f, 0.0231396891f});
  expect_f32(out[1], {0.295493543f, 0.00856379233f, 0.227660164f, 0.0795012563f});
  expect_f32(out[2], {0.181839138f, 0.00237514963f, 0.144725934f, 0.0231396891f, 0.175289795f, -0.0268666483f,
                      0.00681445142f, 0.00376128848f, 0.230504081f, -0.155505121f, -0.0332438275f, 0.109980397f});
}

TEST(ReferenceLstm, BothDirectionsWithReluOutputActivation) {
  LstmAttrs a;
  a.direction = RecurrentDirection::kBoth;
  a.return_sequence = true;
  a.activations = std::vector<RecurrentActivation>{kSigmoid, kTanh, kRelu};
  const auto out = run_lstm(a, kAll);
  ASSERT_EQ(out.size(), 3u);
  expect_f32(out[0], {0.257642895f, 0.0f, 0.250671118f, 0.0f, 0.230285481f, 0.163104281f, 0.181893095f, 0.130697176f});
  expect_f32(out[1], {0.776437581f, -0.432918072f, 0.713398755f, -0.288838714f, 0.678756714f, 0.296463698f,
                      0.547261655f, 0.239249468f});
  expect_f32(out[2],
             {0.191084832f, 0.0f, 0.0793990865f, 0.0f, 0.230285481f,  0.163104281f,  0.181893095f, 0.130697176f,
              0.219693035f, 0.0f, 0.193814993f,  0.0f, 0.173042029f,  0.150407746f,  0.101807334f, 0.0387033708f,
              0.257642895f, 0.0f, 0.250671118f,  0.0f, 0.0880050287f, 0.0598914288f, 0.015866736f, 0.0453862734f});
}

TEST(ReferenceLstm, BothDirectionsIfgoWithoutOptions) {
  LstmAttrs a;
  a.direction = RecurrentDirection::kBoth;
  a.layout = LstmWeightLayout::kIfgo;
  const auto out = run_lstm(a, {});
  ASSERT_EQ(out.size(), 2u);
  expect_f32(out[0], {-0.00339754391f, 0.0159060154f, -0.0388220735f, -0.0302123316f, 0.0989098847f, 0.0884809792f,
                      0.0384381004f, 0.0519929081f});
  expect_f32(out[1], {-0.00561900856f, 0.0268879216f, -0.0668792203f, -0.0507962033f, 0.176210999f, 0.162018731f,
                      0.0674975663f, 0.0900390074f});
}

TEST(ReferenceLstm, Float16RoundsTheStatesAtEveryStep) {
  LstmAttrs a;
  a.direction = RecurrentDirection::kBoth;
  a.layout = LstmWeightLayout::kIfgo;
  a.return_sequence = true;
  const auto out = run_lstm(a, kAll, DataType::kFloat16);
  ASSERT_EQ(out.size(), 3u);
  expect_f16(out[0], {0.0913696289f, -0.0431213379f, 0.0257263184f, -0.00761413574f, 0.145141602f, 0.00327110291f,
                      0.0536193848f, -0.0788574219f});
  expect_f16(out[1], {0.125244141f, -0.110412598f, 0.0343017578f, -0.018447876f, 0.209228516f, 0.00524902344f,
                      0.0756835938f, -0.125f});
  expect_f16(out[2], {0.291503906f,  -0.0854492188f,  0.0862426758f, 0.133911133f,   0.145141602f,  0.00327110291f,
                      0.0536193848f, -0.0788574219f,  0.209228516f,  -0.0100097656f, 0.0342712402f, 0.0616760254f,
                      0.0277557373f, -0.0306243896f,  -0.122741699f, -0.155395508f,  0.0913696289f, -0.0431213379f,
                      0.0257263184f, -0.00761413574f, -0.127075195f, -0.0521850586f, -0.248168945f, -0.151611328f});
}

// ---- gru/lstm against chains of gruCell/lstmCell (the spec's emulation of gru and lstm) ----

// The float16 input of time step t, [batch, inputSize].
TensorData step_input(uint32_t t) {
  const std::vector<float> all = pattern(size_t{kSteps} * kBatch * kInputSize, kInputSeed);
  const auto first = all.begin() + std::ptrdiff_t(t * kBatch * kInputSize);
  return f16({kBatch, kInputSize}, std::vector<float>(first, first + kBatch * kInputSize));
}

TEST(ReferenceGru, Float16EqualsAChainOfGruCellsBitForBit) {
  GruAttrs a;
  a.reset_after = false;
  const auto sequence_op = run_gru(a, {true, true, false, true}, DataType::kFloat16);
  GraphMaker g;
  const DataType type = DataType::kFloat16;
  GruCellAttrs c;
  c.hidden_size = kHidden;
  c.reset_after = false;
  const OperandId w = g.input("w", filled(type, {3 * kHidden, kInputSize}, kWeightSeed));
  const OperandId r = g.input("r", filled(type, {3 * kHidden, kHidden}, kRecurrentWeightSeed));
  c.bias = OperandRef{g.input("b", filled(type, {3 * kHidden}, kBiasSeed))};
  c.recurrent_bias = OperandRef{g.input("rb", filled(type, {3 * kHidden}, kRecurrentBiasSeed))};
  OperandId h = g.input("h", filled(type, {kBatch, kHidden}, kHiddenSeed));
  for (uint32_t t = 0; t < kSteps; ++t) {
    const OperandId x = g.input("x" + std::to_string(t), step_input(t));
    h = g.op(OpKind::kGruCell, {x, w, r, h}, c, desc(type, {kBatch, kHidden}));
  }
  g.output("h", h);
  EXPECT_EQ(g.run().front().bytes, sequence_op[0].bytes);
}

TEST(ReferenceLstm, Float16EqualsAChainOfLstmCellsBitForBit) {
  const auto sequence_op = run_lstm(LstmAttrs{}, kAll, DataType::kFloat16);
  GraphMaker g;
  const DataType type = DataType::kFloat16;
  LstmCellAttrs c;
  c.hidden_size = kHidden;
  const OperandId w = g.input("w", filled(type, {4 * kHidden, kInputSize}, kWeightSeed));
  const OperandId r = g.input("r", filled(type, {4 * kHidden, kHidden}, kRecurrentWeightSeed));
  c.bias = OperandRef{g.input("b", filled(type, {4 * kHidden}, kBiasSeed))};
  c.recurrent_bias = OperandRef{g.input("rb", filled(type, {4 * kHidden}, kRecurrentBiasSeed))};
  c.peephole_weight = OperandRef{g.input("p", filled(type, {3 * kHidden}, kPeepholeSeed))};
  OperandId h = g.input("h", filled(type, {kBatch, kHidden}, kHiddenSeed));
  OperandId cell = g.input("c", filled(type, {kBatch, kHidden}, kCellSeed));
  for (uint32_t t = 0; t < kSteps; ++t) {
    const OperandId x = g.input("x" + std::to_string(t), step_input(t));
    const auto hc = g.op_n(OpKind::kLstmCell, {x, w, r, h, cell}, c,
                           {desc(type, {kBatch, kHidden}), desc(type, {kBatch, kHidden})});
    h = hc[0];
    cell = hc[1];
  }
  g.output("h", h);
  g.output("c", cell);
  const auto chain = g.run();
  EXPECT_EQ(chain[0].bytes, sequence_op[0].bytes);
  EXPECT_EQ(chain[1].bytes, sequence_op[1].bytes);
}

TEST(ReferenceGru, RepeatedRunsStartFromTheInitialState) {
  GraphMaker g;
  GruAttrs a;
  a.steps = kSteps;
  a.hidden_size = kHidden;
  const DataType type = DataType::kFloat32;
  const OperandId x = g.input("input", filled(type, {kSteps, kBatch, kInputSize}, kInputSeed));
  const OperandId w = g.input("weight", filled(type, {1, 3 * kHidden, kInputSize}, kWeightSeed));
  const OperandId r = g.input("recurrentWeight", filled(type, {1, 3 * kHidden, kHidden}, kRecurrentWeightSeed));
  g.output("out", g.op(OpKind::kGru, {x, w, r}, a, desc(type, {1, kBatch, kHidden})));
  expect_f32(g.run(3).front(), {-0.0275980569f, 0.0264578145f, -0.0793493837f, -0.0588995256f});
}

}  // namespace
}  // namespace webnn::test
