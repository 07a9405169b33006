// The spec's tensor-limits tables (ops::tensor_limits, generated from the spec) against what
// add_operation accepts: for every op and every operand row, each data type the row allows is
// accepted and every other one rejected, and ranks outside the row's range are rejected. The
// tables and validation therefore cannot disagree.
#include <functional>
#include <map>

#include "ops/ops.hpp"
#include "unit/ops_test_helpers.hpp"

namespace webnn::testing {
namespace {

// One operand of a valid call: its tensor-limits row name, its shape, whether it is a
// positional input (else an operand-valued option), and its data type in the valid call (float32
// unless the row does not allow it, e.g. the uint8 operands of the logical ops).
struct Slot {
  std::string row;
  Shape shape;
  bool positional = true;
  DataType type = DataType::kFloat32;
};

// A valid call of one op, float32 wherever the tensor-limits rows allow it.
struct Case {
  OpKind kind;
  std::vector<Slot> slots;
  std::function<Attributes(const std::vector<OperandId>& options)> attrs;
};

Attributes none(const std::vector<OperandId>&) { return NoAttrs{}; }

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (OpKind k : {OpKind::kAdd, OpKind::kSub, OpKind::kMul, OpKind::kDiv, OpKind::kMax, OpKind::kMin, OpKind::kPow})
    cases.push_back({k, {{"a", {2, 3}}, {"b", {3}}}, none});
  for (OpKind k :
       {OpKind::kErf, OpKind::kExp, OpKind::kSqrt, OpKind::kRelu, OpKind::kSigmoid, OpKind::kTanh, OpKind::kGelu})
    cases.push_back({k, {{"input", {2, 3}}}, none});
  cases.push_back({OpKind::kClamp, {{"input", {2}}}, [](const auto&) { return ClampAttrs{0.0, 6.0}; }});
  cases.push_back({OpKind::kCast, {{"input", {2}}}, [](const auto&) { return CastAttrs{}; }});
  cases.push_back({OpKind::kConv2d,
                   {{"input", {1, 1, 5, 5}}, {"filter", {1, 1, 3, 3}}, {"bias", {1}, false}},
                   [](const std::vector<OperandId>& o) {
                     Conv2dAttrs a;
                     a.bias = OperandRef{o[0]};
                     return a;
                   }});
  for (OpKind k : {OpKind::kAveragePool2d, OpKind::kMaxPool2d})
    cases.push_back({k, {{"input", {1, 1, 4, 4}}}, [](const auto&) { return Pool2dAttrs{}; }});
  cases.push_back({OpKind::kMatmul, {{"a", {2, 3}}, {"b", {3, 4}}}, none});
  cases.push_back(
      {OpKind::kGemm, {{"a", {2, 3}}, {"b", {3, 4}}, {"c", {4}, false}}, [](const std::vector<OperandId>& o) {
         GemmAttrs a;
         a.c = OperandRef{o[0]};
         return a;
       }});
  cases.push_back({OpKind::kLayerNormalization,
                   {{"input", {2, 3}}, {"scale", {3}, false}, {"bias", {3}, false}},
                   [](const std::vector<OperandId>& o) {
                     LayerNormalizationAttrs a;
                     a.scale = OperandRef{o[0]};
                     a.bias = OperandRef{o[1]};
                     return a;
                   }});
  cases.push_back({OpKind::kSoftmax, {{"input", {2, 3}}}, [](const auto&) { return SoftmaxAttrs{1}; }});
  cases.push_back({OpKind::kReduceMean, {{"input", {2, 3}}}, [](const auto&) { return ReduceAttrs{}; }});
  cases.push_back({OpKind::kReshape, {{"input", {2, 3}}}, [](const auto&) { return ReshapeAttrs{{6}}; }});
  cases.push_back({OpKind::kTranspose, {{"input", {2, 3}}}, [](const auto&) { return TransposeAttrs{}; }});
  cases.push_back(
      {OpKind::kConcat, {{"inputs", {2, 3}}, {"inputs", {2, 3}}}, [](const auto&) { return ConcatAttrs{0}; }});
  cases.push_back({OpKind::kSplit, {{"input", {4}}}, [](const auto&) { return SplitAttrs{uint32_t{2}, 0}; }});
  cases.push_back({OpKind::kSlice, {{"input", {4}}}, [](const auto&) { return SliceAttrs{{0}, {2}, {}}; }});

  // ---- cases of the elementwise ops ----
  for (OpKind k : {OpKind::kAbs, OpKind::kCeil, OpKind::kCos, OpKind::kFloor, OpKind::kIdentity, OpKind::kLog,
                   OpKind::kNeg, OpKind::kReciprocal, OpKind::kRoundEven, OpKind::kSin, OpKind::kSign, OpKind::kTan,
                   OpKind::kHardSwish, OpKind::kSoftplus, OpKind::kSoftsign})
    cases.push_back({k, {{"input", {2, 3}}}, none});
  cases.push_back({OpKind::kElu, {{"input", {2, 3}}}, [](const auto&) { return EluAttrs{0.5}; }});
  cases.push_back({OpKind::kHardSigmoid, {{"input", {2, 3}}}, [](const auto&) { return HardSigmoidAttrs{0.1, 0.4}; }});
  cases.push_back({OpKind::kLeakyRelu, {{"input", {2, 3}}}, [](const auto&) { return LeakyReluAttrs{0.2}; }});
  cases.push_back({OpKind::kLinear, {{"input", {2, 3}}}, [](const auto&) { return LinearAttrs{2.0, -1.0}; }});
  cases.push_back({OpKind::kPrelu, {{"input", {2, 3}}, {"slope", {3}}}, none});

  // ---- end of the elementwise cases ----

  // ---- cases of the reduction-logical ops ----
  for (OpKind k :
       {OpKind::kReduceL1, OpKind::kReduceL2, OpKind::kReduceLogSum, OpKind::kReduceLogSumExp, OpKind::kReduceMax,
        OpKind::kReduceMin, OpKind::kReduceProduct, OpKind::kReduceSum, OpKind::kReduceSumSquare})
    cases.push_back({k, {{"input", {2, 3}}}, [](const auto&) { return ReduceAttrs{std::vector<uint32_t>{1}, true}; }});
  for (OpKind k : {OpKind::kArgMin, OpKind::kArgMax})
    cases.push_back({k, {{"input", {2, 3}}}, [](const auto&) { return ArgMinMaxAttrs{1, false, DataType::kInt64}; }});
  cases.push_back({OpKind::kCumulativeSum, {{"input", {2, 3}}}, [](const auto&) { return CumulativeSumAttrs{1}; }});
  for (OpKind k : {OpKind::kEqual, OpKind::kNotEqual, OpKind::kGreater, OpKind::kGreaterOrEqual, OpKind::kLesser,
                   OpKind::kLesserOrEqual})
    cases.push_back({k, {{"a", {2, 3}}, {"b", {3}}}, none});
  for (OpKind k : {OpKind::kLogicalAnd, OpKind::kLogicalOr, OpKind::kLogicalXor})
    cases.push_back({k, {{"a", {2, 3}, true, kU8}, {"b", {3}, true, kU8}}, none});
  cases.push_back({OpKind::kLogicalNot, {{"a", {2, 3}, true, kU8}}, none});
  for (OpKind k : {OpKind::kIsNaN, OpKind::kIsInfinite}) cases.push_back({k, {{"a", {2, 3}}}, none});
  cases.push_back(
      {OpKind::kWhere, {{"condition", {2, 1}, true, kU8}, {"trueValue", {2, 3}}, {"falseValue", {3}}}, none});

  // ---- end of the reduction-logical cases ----

  // ---- cases of the conv-norm-resample ops ----
  cases.push_back({OpKind::kConvTranspose2d,
                   {{"input", {1, 1, 3, 3}}, {"filter", {1, 1, 3, 3}}, {"bias", {1}, false}},
                   [](const std::vector<OperandId>& o) {
                     ConvTranspose2dAttrs a;
                     a.bias = OperandRef{o[0]};
                     return a;
                   }});
  cases.push_back({OpKind::kL2Pool2d, {{"input", {1, 1, 4, 4}}}, [](const auto&) { return Pool2dAttrs{}; }});
  cases.push_back({OpKind::kResample2d, {{"input", {1, 1, 2, 2}}}, [](const auto&) {
                     return Resample2dAttrs{InterpolationMode::kLinear, std::vector<float>{2.0f, 2.0f}, {}, {}};
                   }});
  cases.push_back({OpKind::kBatchNormalization,
                   {{"input", {2, 3}}, {"mean", {3}}, {"variance", {3}}, {"scale", {3}, false}, {"bias", {3}, false}},
                   [](const std::vector<OperandId>& o) {
                     BatchNormalizationAttrs a;
                     a.scale = OperandRef{o[0]};
                     a.bias = OperandRef{o[1]};
                     return a;
                   }});
  cases.push_back({OpKind::kInstanceNormalization,
                   {{"input", {1, 3, 2, 2}}, {"scale", {3}, false}, {"bias", {3}, false}},
                   [](const std::vector<OperandId>& o) {
                     InstanceNormalizationAttrs a;
                     a.scale = OperandRef{o[0]};
                     a.bias = OperandRef{o[1]};
                     return a;
                   }});
  // ---- end of the conv-norm-resample cases ----

  // ---- cases of the shape-gather ops ----
  cases.push_back({OpKind::kExpand, {{"input", {2, 1}}}, [](const auto&) { return ExpandAttrs{{2, 3}}; }});
  cases.push_back({OpKind::kPad, {{"input", {2, 3}}}, [](const auto&) {
                     return PadAttrs{{1, 0}, {0, 2}, PaddingMode::kReflection, 0.0};
                   }});
  cases.push_back(
      {OpKind::kReverse, {{"input", {2, 3}}}, [](const auto&) { return ReverseAttrs{std::vector<uint32_t>{1}}; }});
  cases.push_back({OpKind::kTile, {{"input", {2, 3}}}, [](const auto&) { return TileAttrs{{2, 1}}; }});
  cases.push_back({OpKind::kTriangular, {{"input", {2, 3}}}, [](const auto&) { return TriangularAttrs{false, -1}; }});
  cases.push_back(
      {OpKind::kGather, {{"input", {4, 3}}, {"indices", {2}, true, kI32}}, [](const auto&) { return GatherAttrs{1}; }});
  cases.push_back({OpKind::kGatherElements, {{"input", {4, 3}}, {"indices", {2, 3}, true, kI32}}, [](const auto&) {
                     return GatherAttrs{0};
                   }});
  cases.push_back({OpKind::kGatherNd, {{"input", {2, 2}}, {"indices", {3, 2}, true, kI32}}, none});
  cases.push_back({OpKind::kScatterElements,
                   {{"input", {4, 3}}, {"indices", {4, 1}, true, kI32}, {"updates", {4, 1}}},
                   [](const auto&) { return ScatterAttrs{1}; }});
  cases.push_back({OpKind::kScatterNd, {{"input", {8}}, {"indices", {4, 1}, true, kI32}, {"updates", {4}}}, none});

  // ---- end of the shape-gather cases ----

  // ---- cases of the recurrent-quant ops ----
  // steps 2, batch 1, inputSize 3, hiddenSize 1, with every operand-valued option.
  cases.push_back({OpKind::kGru,
                   {{"input", {2, 1, 3}},
                    {"weight", {1, 3, 3}},
                    {"recurrentWeight", {1, 3, 1}},
                    {"bias", {1, 3}, false},
                    {"recurrentBias", {1, 3}, false},
                    {"initialHiddenState", {1, 1, 1}, false}},
                   [](const std::vector<OperandId>& o) {
                     GruAttrs a;
                     a.steps = 2;
                     a.hidden_size = 1;
                     a.bias = OperandRef{o[0]};
                     a.recurrent_bias = OperandRef{o[1]};
                     a.initial_hidden_state = OperandRef{o[2]};
                     a.return_sequence = true;
                     return a;
                   }});
  cases.push_back({OpKind::kGruCell,
                   {{"input", {1, 3}},
                    {"weight", {3, 3}},
                    {"recurrentWeight", {3, 1}},
                    {"hiddenState", {1, 1}},
                    {"bias", {3}, false},
                    {"recurrentBias", {3}, false}},
                   [](const std::vector<OperandId>& o) {
                     GruCellAttrs a;
                     a.hidden_size = 1;
                     a.bias = OperandRef{o[0]};
                     a.recurrent_bias = OperandRef{o[1]};
                     return a;
                   }});
  cases.push_back({OpKind::kLstm,
                   {{"input", {2, 1, 3}},
                    {"weight", {1, 4, 3}},
                    {"recurrentWeight", {1, 4, 1}},
                    {"bias", {1, 4}, false},
                    {"recurrentBias", {1, 4}, false},
                    {"peepholeWeight", {1, 3}, false},
                    {"initialHiddenState", {1, 1, 1}, false},
                    {"initialCellState", {1, 1, 1}, false}},
                   [](const std::vector<OperandId>& o) {
                     LstmAttrs a;
                     a.steps = 2;
                     a.hidden_size = 1;
                     a.bias = OperandRef{o[0]};
                     a.recurrent_bias = OperandRef{o[1]};
                     a.peephole_weight = OperandRef{o[2]};
                     a.initial_hidden_state = OperandRef{o[3]};
                     a.initial_cell_state = OperandRef{o[4]};
                     a.return_sequence = true;
                     return a;
                   }});
  cases.push_back({OpKind::kLstmCell,
                   {{"input", {1, 3}},
                    {"weight", {4, 3}},
                    {"recurrentWeight", {4, 1}},
                    {"hiddenState", {1, 1}},
                    {"cellState", {1, 1}},
                    {"bias", {4}, false},
                    {"recurrentBias", {4}, false},
                    {"peepholeWeight", {3}, false}},
                   [](const std::vector<OperandId>& o) {
                     LstmCellAttrs a;
                     a.hidden_size = 1;
                     a.bias = OperandRef{o[0]};
                     a.recurrent_bias = OperandRef{o[1]};
                     a.peephole_weight = OperandRef{o[2]};
                     return a;
                   }});
  // Per-axis scale [1, 3] on a [2, 3] input.
  cases.push_back(
      {OpKind::kQuantizeLinear, {{"input", {2, 3}}, {"scale", {1, 3}}, {"zeroPoint", {1, 3}, true, kI8}}, none});
  cases.push_back({OpKind::kDequantizeLinear,
                   {{"input", {2, 3}, true, kI8}, {"scale", {1, 3}}, {"zeroPoint", {1, 3}, true, kI8}},
                   none});

  // ---- end of the recurrent-quant cases ----

  return cases;
}

bool is_output_row(const ops::TensorLimit& row) { return row.operand.rfind("output", 0) == 0; }

class TensorLimitsTest : public OpsTest {
 protected:
  // Runs `c` with the given operand types (the slot's own where absent) and one slot's shape replaced.
  // Returns true when accepted; a rejection must be a TypeError naming the op.
  bool run(const Case& c, const std::map<std::string, DataType>& types, int reshaped_slot = -1,
           const Shape& new_shape = {}) {
    std::vector<OperandId> positional, options;
    for (size_t i = 0; i < c.slots.size(); ++i) {
      const Slot& slot = c.slots[i];
      auto it = types.find(slot.row);
      const DataType type = it == types.end() ? slot.type : it->second;
      const OperandId id = input(type, static_cast<int>(i) == reshaped_slot ? new_shape : slot.shape);
      (slot.positional ? positional : options).push_back(id);
    }
    try {
      builder_.add_operation(c.kind, positional, c.attrs(options));
      return true;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kTypeError) << e.what();
      EXPECT_EQ(e.message().rfind(std::string(op_name(c.kind)), 0), 0u) << e.message();
      return false;
    }
  }
};

TEST_F(TensorLimitsTest, EveryOpHasACaseAndEveryRowAnOperand) {
  const auto cases = all_cases();
  EXPECT_EQ(cases.size(), kOpKindCount);
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(op_name(c.kind)));
    EXPECT_FALSE(ops::tensor_limits(c.kind).empty());
    for (const ops::TensorLimit& row : ops::tensor_limits(c.kind)) {
      if (is_output_row(row)) continue;
      bool found = false;
      for (const Slot& s : c.slots) found |= s.row == row.operand;
      EXPECT_TRUE(found) << "no operand for row " << row.operand;
    }
    EXPECT_TRUE(run(c, {}));
  }
}

TEST_F(TensorLimitsTest, DataTypesFollowTheTable) {
  for (const Case& c : all_cases()) {
    for (const ops::TensorLimit& row : ops::tensor_limits(c.kind)) {
      if (is_output_row(row)) continue;
      SCOPED_TRACE(std::string(op_name(c.kind)) + " " + std::string(row.operand));
      if (row.same_type_as.empty()) {
        // Set this operand, and every operand whose type must equal it, to each type in turn.
        for (DataType t : kAllDataTypes) {
          std::map<std::string, DataType> types{{std::string(row.operand), t}};
          for (const ops::TensorLimit& other : ops::tensor_limits(c.kind))
            if (other.same_type_as == row.operand) types[std::string(other.operand)] = t;
          EXPECT_EQ(run(c, types), row.allowed_types.contains(t)) << to_string(t);
        }
      } else {
        // Any type other than the referenced operand's is rejected.
        DataType reference_type = kF32;
        for (const Slot& s : c.slots)
          if (s.row == row.same_type_as) reference_type = s.type;
        for (DataType t : kAllDataTypes) {
          if (t == reference_type) continue;
          EXPECT_FALSE(run(c, {{std::string(row.operand), t}})) << to_string(t);
        }
      }
    }
  }
}

TEST_F(TensorLimitsTest, CastTargetFollowsTheOutputRow) {
  const DataTypeSet allowed = ops::resolved_types(OpKind::kCast, "output");
  for (DataType t : kAllDataTypes) {
    const bool accepted = [&] {
      try {
        builder_.add_operation(OpKind::kCast, {input(kF32, {2})}, CastAttrs{t});
        return true;
      } catch (const Error&) {
        return false;
      }
    }();
    EXPECT_EQ(accepted, allowed.contains(t)) << to_string(t);
  }
}

TEST_F(TensorLimitsTest, RanksOutsideTheRowAreRejected) {
  for (const Case& c : all_cases()) {
    for (const ops::TensorLimit& row : ops::tensor_limits(c.kind)) {
      if (is_output_row(row) || !row.same_rank_as.empty()) continue;
      for (size_t i = 0; i < c.slots.size(); ++i) {
        if (c.slots[i].row != row.operand) continue;
        SCOPED_TRACE(std::string(op_name(c.kind)) + " " + std::string(row.operand));
        if (row.min_rank > 0) EXPECT_FALSE(run(c, {}, static_cast<int>(i), Shape(row.min_rank - 1, 1)));
        if (row.max_rank < kMaxRank) EXPECT_FALSE(run(c, {}, static_cast<int>(i), Shape(row.max_rank + 1, 1)));
      }
    }
  }
}

TEST_F(TensorLimitsTest, RejectedCallsLeaveTheBuilderUnchanged) {
  for (const Case& c : all_cases()) {
    SCOPED_TRACE(std::string(op_name(c.kind)));
    // A rejected call of each op: the first row's operand gets a rank below the row's minimum or,
    // where the row accepts rank 0, is left out (a missing operand).
    const ops::TensorLimit& first = ops::tensor_limits(c.kind)[0];
    std::vector<OperandId> positional, options;
    bool broken = false;
    for (const Slot& slot : c.slots) {
      Shape shape = slot.shape;
      if (slot.row == first.operand && !broken) {
        broken = true;
        if (first.min_rank == 0) continue;
        shape = Shape(first.min_rank - 1, 1);
      }
      (slot.positional ? positional : options).push_back(input(slot.type, shape));
    }
    const size_t operands = builder_.graph().operands.size();
    const size_t operations = builder_.graph().operations.size();
    EXPECT_THROW(builder_.add_operation(c.kind, positional, c.attrs(options)), Error);
    EXPECT_EQ(builder_.graph().operands.size(), operands);
    EXPECT_EQ(builder_.graph().operations.size(), operations);
    // The builder still accepts a valid call afterwards.
    EXPECT_TRUE(run(c, {}));
  }
}

}  // namespace
}  // namespace webnn::testing
