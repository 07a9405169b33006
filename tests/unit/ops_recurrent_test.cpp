// gru, gruCell, lstm and lstmCell: output descriptors and every error rule of the spec's
// validation algorithms.
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

// steps 3, batch 2, inputSize 4, hiddenSize 5 throughout.
constexpr uint32_t kSteps = 3, kBatch = 2, kInput = 4, kHidden = 5;
using Acts = std::vector<RecurrentActivation>;

class RecurrentTest : public OpsTest {
 protected:
  GruAttrs gru_attrs(RecurrentDirection direction = RecurrentDirection::kForward) {
    GruAttrs a;
    a.steps = kSteps;
    a.hidden_size = kHidden;
    a.direction = direction;
    return a;
  }
  LstmAttrs lstm_attrs(RecurrentDirection direction = RecurrentDirection::kForward) {
    LstmAttrs a;
    a.steps = kSteps;
    a.hidden_size = kHidden;
    a.direction = direction;
    return a;
  }
  // The positional operands of a valid gru (gates 3) or lstm (gates 4) with `dirs` directions.
  std::vector<OperandId> sequence_inputs(uint32_t gates, uint32_t dirs = 1, DataType type = kF32) {
    return {input(type, {kSteps, kBatch, kInput}), input(type, {dirs, gates * kHidden, kInput}),
            input(type, {dirs, gates * kHidden, kHidden})};
  }
  std::vector<OperandId> gru_cell_inputs(DataType type = kF32) {
    return {input(type, {kBatch, kInput}), input(type, {3 * kHidden, kInput}), input(type, {3 * kHidden, kHidden}),
            input(type, {kBatch, kHidden})};
  }
  std::vector<OperandId> lstm_cell_inputs(DataType type = kF32) {
    return {input(type, {kBatch, kInput}), input(type, {4 * kHidden, kInput}), input(type, {4 * kHidden, kHidden}),
            input(type, {kBatch, kHidden}), input(type, {kBatch, kHidden})};
  }
  GruCellAttrs gru_cell_attrs() {
    GruCellAttrs a;
    a.hidden_size = kHidden;
    return a;
  }
  LstmCellAttrs lstm_cell_attrs() {
    LstmCellAttrs a;
    a.hidden_size = kHidden;
    return a;
  }
  // `inputs` with operand `index` replaced by a new input of `type` and `shape`.
  std::vector<OperandId> with(std::vector<OperandId> inputs, size_t index, DataType type, Shape shape) {
    inputs.at(index) = input(type, std::move(shape));
    return inputs;
  }
};

// ---- gru ----

TEST_F(RecurrentTest, GruOutputs) {
  const OperandDescriptor state{kF32, {1, kBatch, kHidden}};
  EXPECT_EQ(outputs(OpKind::kGru, sequence_inputs(3), gru_attrs()), std::vector<OperandDescriptor>{state});
  GruAttrs seq = gru_attrs(RecurrentDirection::kBoth);
  seq.return_sequence = true;
  EXPECT_EQ(outputs(OpKind::kGru, sequence_inputs(3, 2), seq),
            (std::vector<OperandDescriptor>{{kF32, {2, kBatch, kHidden}}, {kF32, {kSteps, 2, kBatch, kHidden}}}));
  // Every option at once, in float16.
  GruAttrs all = gru_attrs(RecurrentDirection::kBackward);
  all.bias = ref(kF16, {1, 3 * kHidden});
  all.recurrent_bias = ref(kF16, {1, 3 * kHidden});
  all.initial_hidden_state = ref(kF16, {1, kBatch, kHidden});
  all.reset_after = false;
  all.layout = GruWeightLayout::kRzn;
  all.activations = Acts{kRelu, kTanh};
  EXPECT_EQ(outputs(OpKind::kGru, sequence_inputs(3, 1, kF16), all),
            std::vector<OperandDescriptor>{(OperandDescriptor{kF16, {1, kBatch, kHidden}})});
}

TEST_F(RecurrentTest, GruOperandTypesAndRanks) {
  const OpKind k = OpKind::kGru;
  expect_error(k, sequence_inputs(3, 1, kI32), gru_attrs(), "input data type int32");
  expect_error(k, with(sequence_inputs(3), 0, kF32, {kBatch, kInput}), gru_attrs(), "input must be a 3-D tensor");
  expect_error(k, with(sequence_inputs(3), 1, kF16, {1, 3 * kHidden, kInput}), gru_attrs(),
               "weight must have the same data type as input");
  expect_error(k, with(sequence_inputs(3), 1, kF32, {3 * kHidden, kInput}), gru_attrs(), "weight must be a 3-D");
  expect_error(k, with(sequence_inputs(3), 2, kF16, {1, 3 * kHidden, kHidden}), gru_attrs(),
               "recurrentWeight must have the same data type");
  expect_error(k, with(sequence_inputs(3), 2, kF32, {1, 1, 3 * kHidden, kHidden}), gru_attrs(),
               "recurrentWeight must be a 3-D");
  auto two = sequence_inputs(3);
  two.pop_back();
  expect_error(k, two, gru_attrs(), "expects 3 positional");
}

TEST_F(RecurrentTest, GruStepsAndHiddenSize) {
  const OpKind k = OpKind::kGru;
  GruAttrs a = gru_attrs();
  a.steps = 4;
  expect_error(k, sequence_inputs(3), a, "steps (4) must equal the input's first dimension");
  a.steps = 0;
  expect_error(k, sequence_inputs(3), a, "steps must be greater than 0");
  a = gru_attrs();
  a.hidden_size = 0;
  expect_error(k, sequence_inputs(3), a, "hiddenSize must be greater than 0");
  // hiddenSize * 6 beyond the largest valid dimension (2^31 - 1).
  a.hidden_size = 0x15555556;
  expect_error(k, sequence_inputs(3), a, "hiddenSize * 6 (2147483652) must be a valid dimension");
}

TEST_F(RecurrentTest, GruWeightShapes) {
  const OpKind k = OpKind::kGru;
  expect_error(k, with(sequence_inputs(3), 1, kF32, {1, 3 * kHidden, kInput + 1}), gru_attrs(),
               "weight must have shape [1, 15, 4], got [1, 15, 5]");
  expect_error(k, with(sequence_inputs(3), 1, kF32, {1, 4 * kHidden, kInput}), gru_attrs(), "weight must have shape");
  expect_error(k, with(sequence_inputs(3), 2, kF32, {1, 3 * kHidden, kHidden + 1}), gru_attrs(),
               "recurrentWeight must have shape [1, 15, 5], got [1, 15, 6]");
  // direction "both" needs numDirections = 2 in every weight.
  expect_error(k, sequence_inputs(3, 1), gru_attrs(RecurrentDirection::kBoth),
               "weight must have shape [2, 15, 4], got [1, 15, 4]");
  expect_error(k, sequence_inputs(3, 2), gru_attrs(RecurrentDirection::kBackward), "weight must have shape [1, 15, 4]");
  expect_error(k, with(sequence_inputs(3, 2), 2, kF32, {1, 3 * kHidden, kHidden}), gru_attrs(RecurrentDirection::kBoth),
               "recurrentWeight must have shape [2, 15, 5]");
}

TEST_F(RecurrentTest, GruOptionOperands) {
  const OpKind k = OpKind::kGru;
  GruAttrs a = gru_attrs();
  a.bias = ref(kF32, {1, 3 * kHidden + 1});
  expect_error(k, sequence_inputs(3), a, "bias must have shape [1, 15], got [1, 16]");
  a.bias = ref(kF16, {1, 3 * kHidden});
  expect_error(k, sequence_inputs(3), a, "bias must have the same data type as input");
  a.bias = ref(kF32, {3 * kHidden});
  expect_error(k, sequence_inputs(3), a, "bias must be a 2-D tensor");
  a = gru_attrs();
  a.recurrent_bias = ref(kF32, {2, 3 * kHidden});
  expect_error(k, sequence_inputs(3), a, "recurrentBias must have shape [1, 15], got [2, 15]");
  a.recurrent_bias = ref(kI32, {1, 3 * kHidden});
  expect_error(k, sequence_inputs(3), a, "recurrentBias must have the same data type");
  a = gru_attrs();
  a.initial_hidden_state = ref(kF32, {1, kBatch + 1, kHidden});
  expect_error(k, sequence_inputs(3), a, "initialHiddenState must have shape [1, 2, 5], got [1, 3, 5]");
  a.initial_hidden_state = ref(kF16, {1, kBatch, kHidden});
  expect_error(k, sequence_inputs(3), a, "initialHiddenState must have the same data type");
  a = gru_attrs(RecurrentDirection::kBoth);
  a.initial_hidden_state = ref(kF32, {1, kBatch, kHidden});
  expect_error(k, sequence_inputs(3, 2), a, "initialHiddenState must have shape [2, 2, 5]");
}

TEST_F(RecurrentTest, GruActivationsListTwoFunctions) {
  GruAttrs a = gru_attrs();
  a.activations = Acts{kSigmoid};
  expect_error(OpKind::kGru, sequence_inputs(3), a, "activations must list 2 functions, got 1");
  a.activations = Acts{kSigmoid, kTanh, kTanh};
  expect_error(OpKind::kGru, sequence_inputs(3), a, "activations must list 2 functions, got 3");
  a.activations = Acts{};
  expect_error(OpKind::kGru, sequence_inputs(3), a, "got 0");
  a.activations = Acts{kTanh, kRelu};
  EXPECT_EQ(outputs(OpKind::kGru, sequence_inputs(3), a).size(), 1u);
}

// ---- gruCell ----

TEST_F(RecurrentTest, GruCellOutput) {
  EXPECT_EQ(output(OpKind::kGruCell, gru_cell_inputs(), gru_cell_attrs()),
            (OperandDescriptor{kF32, {kBatch, kHidden}}));
  GruCellAttrs a = gru_cell_attrs();
  a.bias = ref(kF16, {3 * kHidden});
  a.recurrent_bias = ref(kF16, {3 * kHidden});
  a.reset_after = false;
  a.layout = GruWeightLayout::kRzn;
  a.activations = Acts{kSigmoid, kRelu};
  EXPECT_EQ(output(OpKind::kGruCell, gru_cell_inputs(kF16), a), (OperandDescriptor{kF16, {kBatch, kHidden}}));
}

TEST_F(RecurrentTest, GruCellErrors) {
  const OpKind k = OpKind::kGruCell;
  const GruCellAttrs a = gru_cell_attrs();
  expect_error(k, gru_cell_inputs(kU8), a, "input data type uint8");
  expect_error(k, with(gru_cell_inputs(), 0, kF32, {kSteps, kBatch, kInput}), a, "input must be a 2-D tensor");
  expect_error(k, with(gru_cell_inputs(), 1, kF16, {3 * kHidden, kInput}), a, "weight must have the same data type");
  expect_error(k, with(gru_cell_inputs(), 2, kF32, {1, 3 * kHidden, kHidden}), a, "recurrentWeight must be a 2-D");
  expect_error(k, with(gru_cell_inputs(), 3, kF16, {kBatch, kHidden}), a,
               "hiddenState must have the same data type as input");
  expect_error(k, with(gru_cell_inputs(), 3, kF32, {kHidden}), a, "hiddenState must be a 2-D");
  expect_error(k, with(gru_cell_inputs(), 1, kF32, {3 * kHidden, kInput + 1}), a,
               "weight must have shape [15, 4], got [15, 5]");
  expect_error(k, with(gru_cell_inputs(), 2, kF32, {3 * kHidden, kHidden - 1}), a,
               "recurrentWeight must have shape [15, 5], got [15, 4]");
  expect_error(k, with(gru_cell_inputs(), 3, kF32, {kBatch + 1, kHidden}), a,
               "hiddenState must have shape [2, 5], got [3, 5]");
  GruCellAttrs b = a;
  b.hidden_size = 0;
  expect_error(k, gru_cell_inputs(), b, "hiddenSize must be greater than 0");
  b.hidden_size = 0x15555556;
  expect_error(k, gru_cell_inputs(), b, "must be a valid dimension");
  b = a;
  b.bias = ref(kF32, {1, 3 * kHidden});
  expect_error(k, gru_cell_inputs(), b, "bias must be a 1-D tensor");
  b.bias = ref(kF32, {2 * kHidden});
  expect_error(k, gru_cell_inputs(), b, "bias must have shape [15], got [10]");
  b = a;
  b.recurrent_bias = ref(kF32, {4 * kHidden});
  expect_error(k, gru_cell_inputs(), b, "recurrentBias must have shape [15], got [20]");
  b.recurrent_bias = ref(kF16, {3 * kHidden});
  expect_error(k, gru_cell_inputs(), b, "recurrentBias must have the same data type");
  b = a;
  b.activations = Acts{kSigmoid, kTanh, kTanh};
  expect_error(k, gru_cell_inputs(), b, "activations must list 2 functions, got 3");
  auto three = gru_cell_inputs();
  three.pop_back();
  expect_error(k, three, a, "expects 4 positional");
}

// ---- lstm ----

TEST_F(RecurrentTest, LstmOutputs) {
  const OperandDescriptor state{kF32, {1, kBatch, kHidden}};
  EXPECT_EQ(outputs(OpKind::kLstm, sequence_inputs(4), lstm_attrs()), (std::vector<OperandDescriptor>{state, state}));
  LstmAttrs all = lstm_attrs(RecurrentDirection::kBoth);
  all.bias = ref(kF16, {2, 4 * kHidden});
  all.recurrent_bias = ref(kF16, {2, 4 * kHidden});
  all.peephole_weight = ref(kF16, {2, 3 * kHidden});
  all.initial_hidden_state = ref(kF16, {2, kBatch, kHidden});
  all.initial_cell_state = ref(kF16, {2, kBatch, kHidden});
  all.return_sequence = true;
  all.layout = LstmWeightLayout::kIfgo;
  all.activations = Acts{kSigmoid, kRelu, kTanh};
  const OperandDescriptor state2{kF16, {2, kBatch, kHidden}};
  EXPECT_EQ(outputs(OpKind::kLstm, sequence_inputs(4, 2, kF16), all),
            (std::vector<OperandDescriptor>{state2, state2, {kF16, {kSteps, 2, kBatch, kHidden}}}));
}

TEST_F(RecurrentTest, LstmOperandTypesRanksStepsAndHiddenSize) {
  const OpKind k = OpKind::kLstm;
  expect_error(k, sequence_inputs(4, 1, kI8), lstm_attrs(), "input data type int8");
  expect_error(k, with(sequence_inputs(4), 0, kF32, {kSteps, kBatch, kInput, 1}), lstm_attrs(),
               "input must be a 3-D tensor");
  expect_error(k, with(sequence_inputs(4), 1, kF16, {1, 4 * kHidden, kInput}), lstm_attrs(),
               "weight must have the same data type");
  expect_error(k, with(sequence_inputs(4), 2, kF32, {4 * kHidden, kHidden}), lstm_attrs(),
               "recurrentWeight must be a 3-D");
  LstmAttrs a = lstm_attrs();
  a.steps = 0;
  expect_error(k, sequence_inputs(4), a, "steps must be greater than 0");
  a.steps = 2;
  expect_error(k, sequence_inputs(4), a, "steps (2) must equal the input's first dimension");
  a = lstm_attrs();
  a.hidden_size = 0;
  expect_error(k, sequence_inputs(4), a, "hiddenSize must be greater than 0");
  a.hidden_size = 0x10000000;  // * 8 = 2^31
  expect_error(k, sequence_inputs(4), a, "hiddenSize * 8 (2147483648) must be a valid dimension");
}

TEST_F(RecurrentTest, LstmWeightShapes) {
  const OpKind k = OpKind::kLstm;
  expect_error(k, sequence_inputs(3), lstm_attrs(), "weight must have shape [1, 20, 4], got [1, 15, 4]");
  expect_error(k, with(sequence_inputs(4), 2, kF32, {1, 4 * kHidden, kHidden + 2}), lstm_attrs(),
               "recurrentWeight must have shape [1, 20, 5], got [1, 20, 7]");
  expect_error(k, sequence_inputs(4, 1), lstm_attrs(RecurrentDirection::kBoth), "weight must have shape [2, 20, 4]");
}

TEST_F(RecurrentTest, LstmOptionOperands) {
  const OpKind k = OpKind::kLstm;
  struct Case {
    std::optional<OperandRef> LstmAttrs::*member;
    Shape good;
    const char* name;
  };
  const Case cases[] = {{&LstmAttrs::bias, {1, 4 * kHidden}, "bias"},
                        {&LstmAttrs::recurrent_bias, {1, 4 * kHidden}, "recurrentBias"},
                        {&LstmAttrs::peephole_weight, {1, 3 * kHidden}, "peepholeWeight"},
                        {&LstmAttrs::initial_hidden_state, {1, kBatch, kHidden}, "initialHiddenState"},
                        {&LstmAttrs::initial_cell_state, {1, kBatch, kHidden}, "initialCellState"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    LstmAttrs a = lstm_attrs();
    a.*c.member = ref(kF32, c.good);
    EXPECT_EQ(outputs(k, sequence_inputs(4), a).size(), 2u);
    Shape bad = c.good;
    bad.back() += 1;
    a.*c.member = ref(kF32, bad);
    expect_error(k, sequence_inputs(4), a,
                 std::string(c.name) + " must have shape " + shape_to_string(c.good) + ", got " + shape_to_string(bad));
    a.*c.member = ref(kF16, c.good);
    expect_error(k, sequence_inputs(4), a, std::string(c.name) + " must have the same data type as input");
    Shape extra = c.good;
    extra.push_back(1);
    a.*c.member = ref(kF32, extra);
    expect_error(k, sequence_inputs(4), a, std::string(c.name) + " must be a " + std::to_string(c.good.size()) + "-D");
  }
  // The peephole weights have 3 * hiddenSize values, not 4.
  LstmAttrs a = lstm_attrs();
  a.peephole_weight = ref(kF32, {1, 4 * kHidden});
  expect_error(k, sequence_inputs(4), a, "peepholeWeight must have shape [1, 15], got [1, 20]");
}

TEST_F(RecurrentTest, LstmActivationsListThreeFunctions) {
  LstmAttrs a = lstm_attrs();
  a.activations = Acts{kSigmoid, kTanh};
  expect_error(OpKind::kLstm, sequence_inputs(4), a, "activations must list 3 functions, got 2");
  a.activations = Acts{kRelu, kRelu, kRelu};
  EXPECT_EQ(outputs(OpKind::kLstm, sequence_inputs(4), a).size(), 2u);
}

// ---- lstmCell ----

TEST_F(RecurrentTest, LstmCellOutputs) {
  const OperandDescriptor state{kF32, {kBatch, kHidden}};
  EXPECT_EQ(outputs(OpKind::kLstmCell, lstm_cell_inputs(), lstm_cell_attrs()),
            (std::vector<OperandDescriptor>{state, state}));
  LstmCellAttrs a = lstm_cell_attrs();
  a.bias = ref(kF16, {4 * kHidden});
  a.recurrent_bias = ref(kF16, {4 * kHidden});
  a.peephole_weight = ref(kF16, {3 * kHidden});
  a.layout = LstmWeightLayout::kIfgo;
  a.activations = Acts{kTanh, kTanh, kRelu};
  const OperandDescriptor half{kF16, {kBatch, kHidden}};
  EXPECT_EQ(outputs(OpKind::kLstmCell, lstm_cell_inputs(kF16), a), (std::vector<OperandDescriptor>{half, half}));
}

TEST_F(RecurrentTest, LstmCellErrors) {
  const OpKind k = OpKind::kLstmCell;
  const LstmCellAttrs a = lstm_cell_attrs();
  expect_error(k, lstm_cell_inputs(kI64), a, "input data type int64");
  expect_error(k, with(lstm_cell_inputs(), 4, kF16, {kBatch, kHidden}), a,
               "cellState must have the same data type as input");
  expect_error(k, with(lstm_cell_inputs(), 4, kF32, {1, kBatch, kHidden}), a, "cellState must be a 2-D");
  expect_error(k, with(lstm_cell_inputs(), 1, kF32, {3 * kHidden, kInput}), a,
               "weight must have shape [20, 4], got [15, 4]");
  expect_error(k, with(lstm_cell_inputs(), 2, kF32, {4 * kHidden, kInput}), a,
               "recurrentWeight must have shape [20, 5], got [20, 4]");
  expect_error(k, with(lstm_cell_inputs(), 3, kF32, {kBatch, kHidden + 1}), a,
               "hiddenState must have shape [2, 5], got [2, 6]");
  expect_error(k, with(lstm_cell_inputs(), 4, kF32, {kBatch + 1, kHidden}), a,
               "cellState must have shape [2, 5], got [3, 5]");
  LstmCellAttrs b = a;
  b.hidden_size = 0x10000000;
  expect_error(k, lstm_cell_inputs(), b, "hiddenSize * 8 (2147483648) must be a valid dimension");
  b = a;
  b.bias = ref(kF32, {3 * kHidden});
  expect_error(k, lstm_cell_inputs(), b, "bias must have shape [20], got [15]");
  b = a;
  b.recurrent_bias = ref(kF16, {4 * kHidden});
  expect_error(k, lstm_cell_inputs(), b, "recurrentBias must have the same data type");
  b = a;
  b.peephole_weight = ref(kF32, {4 * kHidden});
  expect_error(k, lstm_cell_inputs(), b, "peepholeWeight must have shape [15], got [20]");
  b.peephole_weight = ref(kF32, {1, 3 * kHidden});
  expect_error(k, lstm_cell_inputs(), b, "peepholeWeight must be a 1-D");
  b = a;
  b.activations = Acts{kTanh};
  expect_error(k, lstm_cell_inputs(), b, "activations must list 3 functions, got 1");
  auto four = lstm_cell_inputs();
  four.pop_back();
  expect_error(k, four, a, "expects 5 positional");
}

}  // namespace
}  // namespace webnn::testing
