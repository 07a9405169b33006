// Round trips through the JSON and text forms for every op of op_table.def and every attribute
// field type, and save/load through the three files.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "formats_test_util.hpp"
#include "graph/graph_builder.hpp"

namespace webnn::formats {
namespace {

using testing::expect_error;
using testing::expect_same_graph;
using testing::TempDir;

BufferRef f32_bytes(std::initializer_list<float> values) {
  std::vector<std::byte> out(values.size() * 4);
  std::memcpy(out.data(), values.begin(), out.size());
  return BufferRef::adopt(std::move(out));
}

BufferRef iota_f32(size_t n) {
  std::vector<std::byte> out(n * 4);
  for (size_t i = 0; i < n; ++i) {
    float v = float(i) * 0.25f - 3.0f;
    std::memcpy(out.data() + i * 4, &v, 4);
  }
  return BufferRef::adopt(std::move(out));
}

// One graph with every op of the table, every option set to a non-default value somewhere, and
// a label on some. Every result is a graph output so nothing is pruned. Inputs, then constants,
// then operations: the order a loaded graph has, so operand ids compare directly.
std::shared_ptr<const Graph> all_ops_graph() {
  GraphBuilder b;
  const OperandDescriptor f23{DataType::kFloat32, {2, 3}};
  OperandId x = b.add_input("x", f23);
  OperandId y = b.add_input("y", f23);
  OperandId img = b.add_input("img", {DataType::kFloat32, {1, 2, 5, 5}});
  OperandId img_nhwc = b.add_input("img_nhwc", {DataType::kFloat32, {1, 5, 5, 2}});
  OperandId i64 = b.add_input("i64", {DataType::kInt64, {4}});
  OperandId u64 = b.add_input("u64", {DataType::kUint64, {4}});
  // Constants of several sizes: inline (< 64 bytes), weights-file sized, uniform (scalar).
  OperandId w = b.add_constant({DataType::kFloat32, {4, 2, 3, 3}}, iota_f32(72), "w");
  OperandId w_ohwi = b.add_constant({DataType::kFloat32, {4, 3, 3, 1}}, iota_f32(36), "w_ohwi");
  OperandId bias = b.add_constant({DataType::kFloat32, {4}}, f32_bytes({0.5f, -1.0f, 2.0f, 0.0f}), "bias");
  OperandId gamma = b.add_constant({DataType::kFloat32, {3}}, f32_bytes({1.0f, 1.0f, 1.0f}));  // unnamed, uniform
  OperandId beta = b.add_constant({DataType::kFloat32, {3}}, f32_bytes({0.1f, -0.2f, 0.3f}), "beta");
  OperandId m32 = b.add_constant({DataType::kFloat32, {3, 2}}, iota_f32(6), "m32");
  OperandId m43 = b.add_constant({DataType::kFloat32, {4, 3}}, iota_f32(12), "m43");
  std::vector<std::byte> h(2 * 3 * 2);
  for (size_t i = 0; i < h.size(); ++i) h[i] = std::byte(i * 37);
  OperandId half = b.add_constant({DataType::kFloat16, {2, 3}}, BufferRef::adopt(h), "half");

  std::vector<NamedOperand> outs;
  auto out = [&](const std::string& name, std::vector<OperandId> ids) {
    for (size_t i = 0; i < ids.size(); ++i) outs.push_back({ids.size() == 1 ? name : name + std::to_string(i), ids[i]});
  };
  for (OpKind k : {OpKind::kAdd, OpKind::kSub, OpKind::kMul, OpKind::kDiv, OpKind::kMax, OpKind::kMin, OpKind::kPow})
    out(std::string(op_name(k)), b.add_operation(k, {x, y}, NoAttrs{}));
  for (OpKind k :
       {OpKind::kErf, OpKind::kExp, OpKind::kSqrt, OpKind::kRelu, OpKind::kSigmoid, OpKind::kTanh, OpKind::kGelu})
    out(std::string(op_name(k)), b.add_operation(k, {x}, NoAttrs{}, k == OpKind::kRelu ? "my relu \"quoted\"" : ""));
  out("clamp_f", b.add_operation(OpKind::kClamp, {x}, ClampAttrs{Number(-0.5), Number(6.0)}));
  out("clamp_frac", b.add_operation(OpKind::kClamp, {x}, ClampAttrs{Number(-1e-30), Number(0.1)}));
  const double inf = std::numeric_limits<double>::infinity();
  out("clamp_inf", b.add_operation(OpKind::kClamp, {x}, ClampAttrs{Number(-0.0), Number(inf)}));
  out("clamp_neg_inf", b.add_operation(OpKind::kClamp, {x}, ClampAttrs{Number(-inf), Number(-inf)}));
  // int64 bounds a double cannot hold: written as decimal strings.
  out("clamp_i64", b.add_operation(OpKind::kClamp, {i64},
                                   ClampAttrs{Number::from_int64(-9007199254740993), Number::from_int64(INT64_MAX)}));
  out("clamp_u64",
      b.add_operation(OpKind::kClamp, {u64}, ClampAttrs{Number::from_int64(3), Number::from_uint64(UINT64_MAX - 1)}));
  out("cast", b.add_operation(OpKind::kCast, {x}, CastAttrs{DataType::kFloat16}));
  out("cast_u8", b.add_operation(OpKind::kCast, {half}, CastAttrs{DataType::kUint8}));

  Conv2dAttrs conv;
  conv.padding = std::vector<uint32_t>{1, 0, 2, 1};
  conv.strides = std::vector<uint32_t>{2, 1};
  conv.dilations = std::vector<uint32_t>{1, 2};
  conv.bias = OperandRef{bias};
  out("conv", b.add_operation(OpKind::kConv2d, {img, w}, conv, "conv label"));
  Conv2dAttrs dw;
  dw.groups = 2;
  dw.input_layout = InputLayout::kNhwc;
  dw.filter_layout = Conv2dFilterLayout::kOhwi;
  out("conv_nhwc", b.add_operation(OpKind::kConv2d, {img_nhwc, w_ohwi}, dw));

  Pool2dAttrs pool;
  pool.window_dimensions = std::vector<uint32_t>{3, 2};
  pool.padding = std::vector<uint32_t>{1, 1, 0, 0};
  pool.strides = std::vector<uint32_t>{2, 2};
  pool.dilations = std::vector<uint32_t>{1, 1};
  pool.output_shape_rounding = RoundingType::kCeil;
  out("avg", b.add_operation(OpKind::kAveragePool2d, {img}, pool));
  Pool2dAttrs pool2;
  pool2.layout = InputLayout::kNhwc;
  pool2.window_dimensions = std::vector<uint32_t>{2, 2};
  pool2.strides = std::vector<uint32_t>{2, 2};
  pool2.output_sizes = std::vector<uint32_t>{3, 3};
  out("maxp", b.add_operation(OpKind::kMaxPool2d, {img_nhwc}, pool2));
  out("gavg", b.add_operation(OpKind::kAveragePool2d, {img}, Pool2dAttrs{}));

  out("matmul", b.add_operation(OpKind::kMatmul, {x, m32}, NoAttrs{}));
  GemmAttrs gemm;
  gemm.c = OperandRef{bias};
  gemm.alpha = 0.5;
  gemm.beta = -2.25;
  gemm.a_transpose = true;
  gemm.b_transpose = true;
  out("gemm", b.add_operation(OpKind::kGemm, {m32, m43}, gemm));  // (3x2)^T (4x3)^T: 2x4

  LayerNormalizationAttrs ln;
  ln.scale = OperandRef{gamma};
  ln.bias = OperandRef{beta};
  ln.axes = std::vector<uint32_t>{1};
  ln.epsilon = 1e-3;
  out("ln", b.add_operation(OpKind::kLayerNormalization, {x}, ln));
  LayerNormalizationAttrs ln_empty;
  ln_empty.axes = std::vector<uint32_t>{};  // explicitly empty differs from absent
  out("ln_empty", b.add_operation(OpKind::kLayerNormalization, {x}, ln_empty));
  out("softmax", b.add_operation(OpKind::kSoftmax, {x}, SoftmaxAttrs{1}));
  out("mean", b.add_operation(OpKind::kReduceMean, {x}, ReduceAttrs{std::vector<uint32_t>{0}, true}));
  out("mean_all", b.add_operation(OpKind::kReduceMean, {x}, ReduceAttrs{}));
  out("reshape", b.add_operation(OpKind::kReshape, {x}, ReshapeAttrs{{3, 1, 2}}));
  out("transpose", b.add_operation(OpKind::kTranspose, {x}, TransposeAttrs{std::vector<uint32_t>{1, 0}}));
  out("transpose_rev", b.add_operation(OpKind::kTranspose, {x}, TransposeAttrs{}));
  out("concat", b.add_operation(OpKind::kConcat, {x, y, x}, ConcatAttrs{1}));
  out("split", b.add_operation(OpKind::kSplit, {x}, SplitAttrs{uint32_t{3}, 1}));
  out("splitl", b.add_operation(OpKind::kSplit, {x}, SplitAttrs{std::vector<uint32_t>{1, 2}, 1}, "split by sizes"));
  out("slice", b.add_operation(OpKind::kSlice, {x}, SliceAttrs{{0, 1}, {2, 2}, std::vector<uint32_t>{1, 2}}));

  // ---- cases of the elementwise ops ----
  for (OpKind k : {OpKind::kCeil, OpKind::kCos, OpKind::kFloor, OpKind::kLog, OpKind::kReciprocal, OpKind::kRoundEven,
                   OpKind::kSin, OpKind::kTan, OpKind::kHardSwish, OpKind::kSoftplus, OpKind::kSoftsign})
    out(std::string(op_name(k)), b.add_operation(k, {x}, NoAttrs{}));
  out("abs", b.add_operation(OpKind::kAbs, {i64}, NoAttrs{}, "abs of int64"));
  out("neg", b.add_operation(OpKind::kNeg, {half}, NoAttrs{}));
  out("sign", b.add_operation(OpKind::kSign, {x}, NoAttrs{}));
  out("identity", b.add_operation(OpKind::kIdentity, {u64}, NoAttrs{}));
  out("elu", b.add_operation(OpKind::kElu, {x}, EluAttrs{0.75}));
  out("hard_sigmoid", b.add_operation(OpKind::kHardSigmoid, {half}, HardSigmoidAttrs{-0.125, 0.375}));
  out("leaky_relu", b.add_operation(OpKind::kLeakyRelu, {x}, LeakyReluAttrs{1e-3}, "leaky"));
  out("linear", b.add_operation(OpKind::kLinear, {x}, LinearAttrs{-7.398793812746618, 1e300}));
  out("prelu", b.add_operation(OpKind::kPrelu, {x, beta}, NoAttrs{}));

  // ---- end of the elementwise cases ----

  // ---- cases of the reduction-logical ops ----
  out("reduce_l1", b.add_operation(OpKind::kReduceL1, {x}, ReduceAttrs{std::vector<uint32_t>{1}, true}));
  out("reduce_l2", b.add_operation(OpKind::kReduceL2, {x}, ReduceAttrs{std::vector<uint32_t>{}, false}));
  out("reduce_log_sum", b.add_operation(OpKind::kReduceLogSum, {x}, ReduceAttrs{{}, true}));
  out("reduce_lse", b.add_operation(OpKind::kReduceLogSumExp, {x}, ReduceAttrs{std::vector<uint32_t>{1, 0}, false}));
  out("reduce_max", b.add_operation(OpKind::kReduceMax, {x}, ReduceAttrs{std::vector<uint32_t>{0}, true}));
  out("reduce_min", b.add_operation(OpKind::kReduceMin, {i64}, ReduceAttrs{}, "min of int64"));
  out("reduce_product", b.add_operation(OpKind::kReduceProduct, {i64}, ReduceAttrs{std::vector<uint32_t>{0}, true}));
  out("reduce_sum", b.add_operation(OpKind::kReduceSum, {u64}, ReduceAttrs{std::vector<uint32_t>{}, true}));
  out("reduce_sum_square", b.add_operation(OpKind::kReduceSumSquare, {half}, ReduceAttrs{std::vector<uint32_t>{1}}));
  out("arg_min", b.add_operation(OpKind::kArgMin, {x}, ArgMinMaxAttrs{1, true, DataType::kInt64}));
  out("arg_max", b.add_operation(OpKind::kArgMax, {half}, ArgMinMaxAttrs{0, false, DataType::kInt32}));
  out("cumsum", b.add_operation(OpKind::kCumulativeSum, {x}, CumulativeSumAttrs{1, true, true}));
  out("cumsum_i64", b.add_operation(OpKind::kCumulativeSum, {i64}, CumulativeSumAttrs{0, false, true}));
  OperandId eq = 0, gt = 0;
  for (OpKind k : {OpKind::kEqual, OpKind::kNotEqual, OpKind::kGreater, OpKind::kGreaterOrEqual, OpKind::kLesser,
                   OpKind::kLesserOrEqual}) {
    const OperandId r = b.add_operation(k, {x, y}, NoAttrs{}).front();
    if (k == OpKind::kEqual) eq = r;
    if (k == OpKind::kGreater) gt = r;
    out(std::string(op_name(k)), {r});
  }
  for (OpKind k : {OpKind::kLogicalAnd, OpKind::kLogicalOr, OpKind::kLogicalXor})
    out(std::string(op_name(k)), b.add_operation(k, {eq, gt}, NoAttrs{}));
  out("logical_not", b.add_operation(OpKind::kLogicalNot, {eq}, NoAttrs{}));
  out("is_nan", b.add_operation(OpKind::kIsNaN, {x}, NoAttrs{}));
  out("is_infinite", b.add_operation(OpKind::kIsInfinite, {half}, NoAttrs{}));
  out("where", b.add_operation(OpKind::kWhere, {gt, x, y}, NoAttrs{}, "select"));

  // ---- end of the reduction-logical cases ----

  // ---- cases of the conv-norm-resample ops ----
  // Filters and per-channel operands are reshaped and sliced from the tensors above (operations
  // only, so operand ids stay in the order a loaded graph gives them).
  auto cnr_reshape = [&](OperandId from, std::vector<uint32_t> shape) {
    return b.add_operation(OpKind::kReshape, {from}, ReshapeAttrs{std::move(shape)}).front();
  };
  auto cnr_slice = [&](OperandId from, uint32_t size) {
    return b.add_operation(OpKind::kSlice, {from}, SliceAttrs{{0}, {size}, {}}).front();
  };
  ConvTranspose2dAttrs convt;
  convt.padding = std::vector<uint32_t>{1, 0, 2, 1};
  convt.strides = std::vector<uint32_t>{2, 1};
  convt.dilations = std::vector<uint32_t>{1, 2};
  convt.output_padding = std::vector<uint32_t>{1, 0};
  convt.bias = OperandRef{bias};
  out("convt", b.add_operation(OpKind::kConvTranspose2d, {img, cnr_reshape(w, {2, 4, 3, 3})}, convt, "deconv"));
  ConvTranspose2dAttrs convt_nhwc;
  convt_nhwc.strides = std::vector<uint32_t>{2, 2};
  convt_nhwc.output_sizes = std::vector<uint32_t>{12, 11};
  convt_nhwc.groups = 2;
  convt_nhwc.input_layout = InputLayout::kNhwc;
  convt_nhwc.filter_layout = ConvTranspose2dFilterLayout::kOhwi;
  out("convt_nhwc",
      b.add_operation(OpKind::kConvTranspose2d, {img_nhwc, cnr_reshape(w_ohwi, {2, 3, 3, 2})}, convt_nhwc));
  ConvTranspose2dAttrs convt_hwoi;
  convt_hwoi.filter_layout = ConvTranspose2dFilterLayout::kHwoi;
  out("convt_hwoi", b.add_operation(OpKind::kConvTranspose2d, {img, cnr_reshape(w, {3, 3, 4, 2})}, convt_hwoi));

  Pool2dAttrs l2;
  l2.window_dimensions = std::vector<uint32_t>{2, 2};
  l2.padding = std::vector<uint32_t>{0, 1, 1, 0};
  l2.strides = std::vector<uint32_t>{1, 2};
  l2.dilations = std::vector<uint32_t>{2, 1};
  l2.output_shape_rounding = RoundingType::kCeil;
  out("l2", b.add_operation(OpKind::kL2Pool2d, {img}, l2));
  Pool2dAttrs l2_nhwc;
  l2_nhwc.layout = InputLayout::kNhwc;
  l2_nhwc.window_dimensions = std::vector<uint32_t>{2, 2};
  l2_nhwc.strides = std::vector<uint32_t>{2, 2};
  l2_nhwc.output_sizes = std::vector<uint32_t>{3, 3};
  out("l2_nhwc", b.add_operation(OpKind::kL2Pool2d, {img_nhwc}, l2_nhwc));

  out("resample", b.add_operation(OpKind::kResample2d, {img},
                                  Resample2dAttrs{InterpolationMode::kLinear, std::vector<float>{2.0f, 1.3f}, {}, {}}));
  out("resample_sizes",
      b.add_operation(OpKind::kResample2d, {img_nhwc},
                      Resample2dAttrs{InterpolationMode::kNearestNeighbor, std::vector<float>{0.75f, 3.0f},
                                      std::vector<uint32_t>{3, 4}, std::vector<uint32_t>{1, 2}},
                      "resize"));
  out("resample_default", b.add_operation(OpKind::kResample2d, {img}, Resample2dAttrs{}));

  BatchNormalizationAttrs bn;
  bn.scale = OperandRef{beta};
  bn.bias = OperandRef{gamma};
  bn.epsilon = 1e-3;
  out("bn", b.add_operation(OpKind::kBatchNormalization, {x, gamma, gamma}, bn));
  BatchNormalizationAttrs bn_axis;
  bn_axis.axis = 3;
  const OperandId two_channels = cnr_slice(bias, 2);
  out("bn_axis", b.add_operation(OpKind::kBatchNormalization, {img_nhwc, two_channels, two_channels}, bn_axis));

  InstanceNormalizationAttrs in_norm;
  in_norm.scale = OperandRef{two_channels};
  in_norm.bias = OperandRef{two_channels};
  out("instance_norm", b.add_operation(OpKind::kInstanceNormalization, {img}, in_norm));
  InstanceNormalizationAttrs in_nhwc;
  in_nhwc.layout = InputLayout::kNhwc;
  in_nhwc.epsilon = 1e-4;
  out("instance_norm_nhwc", b.add_operation(OpKind::kInstanceNormalization, {img_nhwc}, in_nhwc, "in"));
  // ---- end of the conv-norm-resample cases ----

  // ---- cases of the shape-gather ops ----
  // Index operands come from i64 ([4]) through operations, so operand ids keep the loaded order.
  out("expand", b.add_operation(OpKind::kExpand, {gamma}, ExpandAttrs{{2, 3}}));
  out("pad", b.add_operation(OpKind::kPad, {x}, PadAttrs{{1, 0}, {0, 2}, PaddingMode::kReflection, 0.0}));
  out("pad_edge", b.add_operation(OpKind::kPad, {half}, PadAttrs{{0, 1}, {1, 0}, PaddingMode::kEdge, 0.0}));
  out("pad_value", b.add_operation(OpKind::kPad, {i64},
                                   PadAttrs{{1}, {2}, PaddingMode::kConstant, Number::from_int64(-9007199254740995)}));
  out("pad_f", b.add_operation(OpKind::kPad, {x}, PadAttrs{{0, 0}, {1, 1}, PaddingMode::kConstant, Number(-1.5)}));
  out("reverse", b.add_operation(OpKind::kReverse, {x}, ReverseAttrs{std::vector<uint32_t>{1}}));
  out("reverse_none", b.add_operation(OpKind::kReverse, {x}, ReverseAttrs{std::vector<uint32_t>{}}));
  out("reverse_all", b.add_operation(OpKind::kReverse, {u64}, ReverseAttrs{}));
  out("tile", b.add_operation(OpKind::kTile, {x}, TileAttrs{{2, 1}}));
  out("triangular", b.add_operation(OpKind::kTriangular, {x}, TriangularAttrs{false, -1}));
  out("triangular_up", b.add_operation(OpKind::kTriangular, {half}, TriangularAttrs{true, 2}));
  out("gather", b.add_operation(OpKind::kGather, {x, i64}, GatherAttrs{1}, "take"));
  out("gather_elements", b.add_operation(OpKind::kGatherElements, {bias, i64}, GatherAttrs{0}));
  const OperandId pairs = b.add_operation(OpKind::kReshape, {i64}, ReshapeAttrs{{2, 2}}).front();
  out("gather_nd", b.add_operation(OpKind::kGatherNd, {m43, pairs}, NoAttrs{}));
  const OperandId idx23 = b.add_operation(OpKind::kCast, {x}, CastAttrs{DataType::kInt32}).front();
  out("scatter_elements", b.add_operation(OpKind::kScatterElements, {x, idx23, y}, ScatterAttrs{1}));
  const OperandId rows = b.add_operation(OpKind::kReshape, {i64}, ReshapeAttrs{{4, 1}}).front();
  out("scatter_nd", b.add_operation(OpKind::kScatterNd, {m43, rows, m43}, NoAttrs{}));

  // ---- end of the shape-gather cases ----

  // ---- cases of the recurrent-quant ops ----
  // The weights are reshaped and sliced from the tensors above: operations only, so operand ids
  // stay in the order a loaded graph gives them. steps 2, batch 1, inputSize 3, hiddenSize 1.
  auto reshape = [&](OperandId from, std::vector<uint32_t> shape) {
    return b.add_operation(OpKind::kReshape, {from}, ReshapeAttrs{std::move(shape)}).front();
  };
  auto slice = [&](OperandId from, std::vector<uint32_t> starts, std::vector<uint32_t> sizes) {
    return b.add_operation(OpKind::kSlice, {from}, SliceAttrs{std::move(starts), std::move(sizes), {}}).front();
  };
  const OperandId seq_in = reshape(x, {2, 1, 3});
  const OperandId w33 = slice(m43, {0, 0}, {3, 3});
  const OperandId gru_w =
      b.add_operation(OpKind::kConcat, {reshape(w33, {1, 3, 3}), reshape(w33, {1, 3, 3})}, ConcatAttrs{0})
          .front();                             // [2, 3, 3]
  const OperandId two = slice(bias, {0}, {2});  // [2]
  GruAttrs gru;
  gru.steps = 2;
  gru.hidden_size = 1;
  gru.bias = OperandRef{x};            // [2, 3]
  gru.recurrent_bias = OperandRef{y};  // [2, 3]
  gru.initial_hidden_state = OperandRef{reshape(two, {2, 1, 1})};
  gru.reset_after = false;
  gru.return_sequence = true;
  gru.direction = RecurrentDirection::kBoth;
  gru.layout = GruWeightLayout::kRzn;
  gru.activations = std::vector<RecurrentActivation>{RecurrentActivation::kRelu, RecurrentActivation::kTanh};
  out("gru", b.add_operation(OpKind::kGru, {seq_in, gru_w, reshape(m32, {2, 3, 1})}, gru, "bidirectional gru"));
  out("gru_plain",
      b.add_operation(OpKind::kGru, {seq_in, reshape(w33, {1, 3, 3}), reshape(beta, {1, 3, 1})}, GruAttrs{2, 1}));
  GruCellAttrs gru_cell;
  gru_cell.hidden_size = 1;
  gru_cell.bias = OperandRef{gamma};
  gru_cell.recurrent_bias = OperandRef{beta};
  gru_cell.reset_after = false;
  gru_cell.layout = GruWeightLayout::kRzn;
  gru_cell.activations = std::vector<RecurrentActivation>{RecurrentActivation::kTanh, RecurrentActivation::kRelu};
  out("gru_cell", b.add_operation(OpKind::kGruCell, {x, w33, reshape(beta, {3, 1}), reshape(two, {2, 1})}, gru_cell));
  LstmAttrs lstm;
  lstm.steps = 2;
  lstm.hidden_size = 1;
  lstm.bias = OperandRef{reshape(bias, {1, 4})};
  lstm.recurrent_bias = OperandRef{reshape(bias, {1, 4})};
  lstm.peephole_weight = OperandRef{reshape(gamma, {1, 3})};
  lstm.initial_hidden_state = OperandRef{reshape(slice(bias, {0}, {1}), {1, 1, 1})};
  lstm.initial_cell_state = OperandRef{reshape(slice(bias, {1}, {1}), {1, 1, 1})};
  lstm.return_sequence = true;
  lstm.direction = RecurrentDirection::kBackward;
  lstm.layout = LstmWeightLayout::kIfgo;
  lstm.activations = std::vector<RecurrentActivation>{RecurrentActivation::kSigmoid, RecurrentActivation::kRelu,
                                                      RecurrentActivation::kTanh};
  out("lstm", b.add_operation(OpKind::kLstm, {seq_in, reshape(m43, {1, 4, 3}), reshape(bias, {1, 4, 1})}, lstm));
  LstmCellAttrs lstm_cell;
  lstm_cell.hidden_size = 1;
  lstm_cell.bias = OperandRef{bias};
  lstm_cell.recurrent_bias = OperandRef{bias};
  lstm_cell.peephole_weight = OperandRef{gamma};
  lstm_cell.layout = LstmWeightLayout::kIfgo;
  lstm_cell.activations = std::vector<RecurrentActivation>{RecurrentActivation::kRelu, RecurrentActivation::kSigmoid,
                                                           RecurrentActivation::kTanh};
  out("lstm_cell",
      b.add_operation(OpKind::kLstmCell, {x, m43, reshape(bias, {4, 1}), reshape(two, {2, 1}), reshape(two, {2, 1})},
                      lstm_cell, "cell"));
  // Per-axis scale [1, 3] and its zero point, made by operations.
  const OperandId scale = slice(y, {0, 0}, {1, 3});
  const OperandId zero_point = b.add_operation(OpKind::kCast, {scale}, CastAttrs{DataType::kUint8}).front();
  const OperandId quantized = b.add_operation(OpKind::kQuantizeLinear, {x, scale, zero_point}, NoAttrs{}).front();
  out("quantized", {quantized});
  out("dequantized", b.add_operation(OpKind::kDequantizeLinear, {quantized, scale, zero_point}, NoAttrs{}, "deq"));

  // ---- end of the recurrent-quant cases ----

  return b.build(outs, "every op");
}

// Every op kind of the table occurs in all_ops_graph().
TEST(FormatsRoundTrip, CoversEveryOpOfTheTable) {
  auto g = all_ops_graph();
  std::vector<bool> seen(kOpKindCount, false);
  for (const Operation& op : g->operations) seen[size_t(op.kind)] = true;
  for (size_t i = 0; i < kOpKindCount; ++i) EXPECT_TRUE(seen[i]) << op_name(OpKind(i)) << " is not covered";
}

TEST(FormatsRoundTrip, JsonTextJson) {
  auto g = all_ops_graph();
  std::string json = to_json(*g);
  auto a = parse_graph_json(json, no_weights(), "a.json");
  expect_same_graph(*g, *a, /*names=*/false);
  std::string text = to_text(*a);
  auto b = parse_graph_text(text, no_weights(), "b.webnn");
  expect_same_graph(*a, *b);
  auto c = parse_graph_json(to_json(*b), no_weights(), "c.json");
  expect_same_graph(*a, *c);
  // The serialised forms are fixed points.
  EXPECT_EQ(to_json(*c), to_json(*a));
  EXPECT_EQ(to_text(*c), text);
}

TEST(FormatsRoundTrip, TextJsonText) {
  auto g = all_ops_graph();
  auto a = parse_graph_text(to_text(*g), no_weights(), "a.webnn");
  expect_same_graph(*g, *a, false);
  std::string text = to_text(*a);
  auto b = parse_graph_json(to_json(*a), no_weights(), "b.json");
  expect_same_graph(*a, *b);
  EXPECT_EQ(to_text(*b), text);
}

TEST(FormatsRoundTrip, NumbersAreWrittenExactly) {
  auto g = all_ops_graph();
  std::string json = to_json(*g);
  // Hand-derived spellings: int64 beyond 2^53 as decimal strings, doubles as floats.
  EXPECT_NE(json.find("\"-9007199254740993\""), std::string::npos);
  EXPECT_NE(json.find("\"9223372036854775807\""), std::string::npos);
  EXPECT_NE(json.find("\"18446744073709551614\""), std::string::npos);
  EXPECT_NE(json.find("\"maxValue\": \"-inf\""), std::string::npos);
  EXPECT_NE(json.find("\"minValue\": -0.0"), std::string::npos);
  EXPECT_NE(json.find("1e-30"), std::string::npos);
  std::string text = to_text(*g);
  EXPECT_NE(text.find("minValue=\"-9007199254740993\""), std::string::npos) << text;
  EXPECT_NE(text.find("minValue=-0.5, maxValue=6.0"), std::string::npos) << text;
  EXPECT_NE(text.find("label=\"my relu \\\"quoted\\\"\""), std::string::npos) << text;
  auto back = parse_graph_text(text, no_weights(), "t.webnn");
  // -0.0 keeps its sign.
  for (const Operation& op : back->operations) {
    if (op.kind != OpKind::kClamp) continue;
    const auto& c = std::get<ClampAttrs>(op.attrs);
    if (c.max_value.kind() == Number::Kind::kDouble && std::isinf(c.max_value.as_double()))
      EXPECT_TRUE(std::signbit(c.min_value.as_double()));
  }
}

// Validation resolves the options left to the spec's defaults (padding, strides, axes, ...), but
// the files write back only what the graph's author gave.
TEST(FormatsRoundTrip, ResolvedDefaultsAreNotWrittenBack) {
  const std::string text =
      "webnn_graph \"g\" v2 {\n"
      "  inputs { x: f32[1, 2, 5, 5]; w: f32[2, 2, 3, 3]; }\n"
      "  nodes {\n"
      "    y = conv2d(x, w, strides=[1, 1]);\n"
      "    z = reduceSum(y);\n"
      "    t = transpose(y);\n"
      "  }\n"
      "  outputs { z; t; }\n"
      "}\n";
  auto g = parse_graph_text(text, no_weights(), "g.webnn");
  const auto& conv = std::get<Conv2dAttrs>(g->operations.at(0).attrs);
  EXPECT_EQ(*conv.padding, (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_FALSE(conv.padding.given());
  EXPECT_TRUE(conv.strides.given());
  EXPECT_EQ(*std::get<ReduceAttrs>(g->operations.at(1).attrs).axes, (std::vector<uint32_t>{0, 1, 2, 3}));
  const std::string back = to_text(*g);
  EXPECT_NE(back.find("conv2d(x, w, strides=[1, 1])"), std::string::npos) << back;
  EXPECT_NE(back.find("reduceSum(y)"), std::string::npos) << back;
  EXPECT_NE(back.find("transpose(y)"), std::string::npos) << back;
  const std::string json = to_json(*g);
  EXPECT_EQ(json.find("padding"), std::string::npos) << json;
  EXPECT_EQ(json.find("axes"), std::string::npos) << json;
  EXPECT_EQ(json.find("permutation"), std::string::npos) << json;
  EXPECT_NE(json.find("strides"), std::string::npos) << json;
}

TEST(FormatsRoundTrip, TextSpellsOptionsByKind) {
  auto g = all_ops_graph();
  std::string text = to_text(*g);
  // Operand-valued options are identifiers, enums strings, defaults left out.
  EXPECT_NE(text.find("conv = conv2d(img, w, padding=[1, 0, 2, 1], strides=[2, 1], dilations=[1, 2], bias=bias, "
                      "label=\"conv label\");"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("groups=2, inputLayout=\"nhwc\", filterLayout=\"ohwi\""), std::string::npos) << text;
  EXPECT_NE(text.find("[split0, split1, split2] = split(x, splits=3, axis=1);"), std::string::npos) << text;
  EXPECT_NE(text.find("splits=[1, 2]"), std::string::npos) << text;
  EXPECT_NE(text.find("axes=[]"), std::string::npos) << text;
  EXPECT_NE(text.find("concat = concat(x, y, x, axis=1);"), std::string::npos) << text;
  // The unnamed uniform constant gets a generated name and a scalar initializer.
  EXPECT_NE(text.find("const_0: f32[3] @scalar(1.0);"), std::string::npos) << text;
  EXPECT_NE(text.find("bias: f32[4] @bytes([0, 0, 0, 63, "), std::string::npos) << text;
}

TEST(FormatsRoundTrip, SaveThenLoadEqual) {
  auto g = all_ops_graph();
  TempDir dir;
  for (const char* name : {"g.json", "g.webnn"}) {
    SCOPED_TRACE(name);
    save_graph(*g, dir.file(name));
    auto back = load_graph(dir.file(name));
    expect_same_graph(*g, *back, false);
  }
  // Constants of 64 bytes or more went to the weights file; w (288 bytes) is there.
  auto w = WeightsFile::open(dir.file("g.weights"), dir.file("g.manifest.json"));
  ASSERT_TRUE(w->entries().count("w"));
  EXPECT_EQ(w->entries().at("w").byte_length, 288u);
  EXPECT_EQ(w->entries().at("w").byte_offset % 64, 0u);
  EXPECT_FALSE(w->entries().count("bias"));  // 16 bytes: inline
  // No temporary files are left behind.
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

TEST(FormatsRoundTrip, SaveWithEverythingInTheWeightsFile) {
  auto g = all_ops_graph();
  TempDir dir;
  SaveOptions options;
  options.inline_limit = 0;
  options.weights_path = dir.file("elsewhere.bin");
  options.manifest_path = dir.file("elsewhere.manifest");
  save_graph(*g, dir.file("g.webnn"), options);
  std::string text = testing::slurp(dir.file("g.webnn"));
  EXPECT_NE(text.find("bias: f32[4] @weights(\"bias\");"), std::string::npos);
  LoadOptions load;
  load.weights_path = options.weights_path;
  load.manifest_path = options.manifest_path;
  expect_same_graph(*g, *load_graph(dir.file("g.webnn"), load), false);
  // Without the paths the default files beside the graph are missing.
  expect_error([&] { load_graph(dir.file("g.webnn")); }, {"g.manifest.json", "cannot open", "constant \"w\""});
}

TEST(FormatsRoundTrip, SaveFailureLeavesNoFile) {
  auto g = all_ops_graph();
  TempDir dir;
  expect_error([&] { save_graph(*g, dir.file("missing_dir/g.json")); }, {"missing_dir"});
  expect_error([&] { save_graph(*g, dir.file("g.txt")); }, {"g.txt", "extension"});
  // The manifest cannot be created: the weights file and the graph are not written either, and an
  // existing graph file keeps its previous content.
  SaveOptions first;
  first.inline_limit = 0;
  save_graph(*g, dir.file("g.json"), first);
  const std::string before = testing::slurp(dir.file("g.json"));
  const std::string weights_before = testing::slurp(dir.file("g.weights"));
  SaveOptions bad;
  bad.manifest_path = dir.file("missing_dir/g.manifest.json");
  expect_error([&] { save_graph(*g, dir.file("g.json"), bad); }, {"missing_dir"});
  EXPECT_EQ(testing::slurp(dir.file("g.json")), before);
  EXPECT_EQ(testing::slurp(dir.file("g.weights")), weights_before);
  for (const char* f : {"g.json", "g.weights", "g.manifest.json"}) std::filesystem::remove(dir.file(f));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(FormatsRoundTrip, GeneratedNamesAreUniqueAndOutputsKeepTheirNames) {
  GraphBuilder b;
  OperandId x = b.add_input("x", {DataType::kFloat32, {2}});
  OperandId t = b.add_operation(OpKind::kRelu, {x}, NoAttrs{})[0];
  b.set_operand_name(t, "t_0");  // collides with a generated-name pattern
  OperandId u = b.add_operation(OpKind::kExp, {t}, NoAttrs{})[0];
  OperandId v = b.add_operation(OpKind::kSqrt, {u}, NoAttrs{})[0];
  auto g = b.build({{"result", u}, {"weird name", v}, {"again", u}});
  std::string text = to_text(*g);
  EXPECT_NE(text.find("t_0 = relu(x);"), std::string::npos) << text;
  EXPECT_NE(text.find("result = exp(t_0);"), std::string::npos) << text;
  EXPECT_NE(text.find("\"weird name\" = t_1;"), std::string::npos) << text;
  EXPECT_NE(text.find("again = result;"), std::string::npos) << text;
  auto back = parse_graph_text(text, no_weights(), "x.webnn");
  expect_same_graph(*g, *back, false);
  auto back_json = parse_graph_json(to_json(*g), no_weights(), "x.json");
  expect_same_graph(*g, *back_json, false);
}

TEST(FormatsRoundTrip, JsonVersionOneAndDefaults) {
  // Version 1, no "outputs" on nodes (one result named by the id), concat's inputs in order.
  std::string json = R"({"format": "webnn-graph-json", "version": 1,
    "inputs": {"a": {"dataType": "float32", "shape": [2]}},
    "consts": {"k": {"dataType": "int32", "shape": [2, 2], "init": {"kind": "scalar", "value": -7}},
               "h": {"dataType": "float16", "shape": [2], "init": {"kind": "scalar", "value": 1.5}}},
    "nodes": [{"id": "c", "op": "concat", "inputs": ["a", "a", "h2"], "options": {"axis": 0}},
              {"id": "h2", "op": "cast", "inputs": ["h"], "options": {"dataType": "float32"}}],
    "outputs": {"out": "c"}})";
  auto g = parse_graph_json(json, no_weights(), "v1.json");
  ASSERT_EQ(g->operations.size(), 2u);
  // Nodes were ordered by dependency: cast first.
  EXPECT_EQ(g->operations[0].kind, OpKind::kCast);
  EXPECT_EQ(g->desc(g->outputs[0].operand), (OperandDescriptor{DataType::kFloat32, {6}}));
  EXPECT_EQ(g->operands[g->outputs[0].operand].name, "c");
  // Scalar init: float16 1.5 is 0x3e00.
  const BufferRef& h = g->constant_data(g->operations[0].inputs[0]);
  ASSERT_EQ(h.size, 4u);
  uint16_t bits[2];
  std::memcpy(bits, h.data.get(), 4);
  EXPECT_EQ(bits[0], 0x3e00);
  EXPECT_EQ(bits[1], 0x3e00);
}

TEST(FormatsRoundTrip, ScalarInitConvertsToTheType) {
  std::string text = R"(webnn_graph "s" v1 {
    inputs { x: i32[2, 2]; }
    consts { k: i32[2, 2] @scalar(-7); big: u64[1] @scalar("18446744073709551615"); }
    nodes { y = add(x, k); z = clamp(y, minValue=-2, maxValue=2); }
    outputs { z; }
  })";
  auto g = parse_graph_text(text, no_weights(), "s.webnn");
  const BufferRef& k = g->constant_data(g->operations[0].inputs[1]);
  int32_t v[4];
  std::memcpy(v, k.data.get(), 16);
  for (int32_t e : v) EXPECT_EQ(e, -7);
  const auto& clamp = std::get<ClampAttrs>(g->operations[1].attrs);
  EXPECT_EQ(clamp.min_value, Number::from_int64(-2));
  expect_error(
      [&] {
        parse_graph_text(R"(webnn_graph "s" v1 { inputs { x: u8[1]; } consts { k: u8[1] @scalar(300); }
      nodes { y = add(x, k); } outputs { y; } })",
                         no_weights(), "s.webnn");
      },
      {"s.webnn", "constant \"k\"", "300", "uint8"});
  expect_error(
      [&] {
        parse_graph_text(R"(webnn_graph "s" v1 { inputs { x: i32[1]; } consts { k: i32[1] @scalar(1.5); }
      nodes { y = add(x, k); } outputs { y; } })",
                         no_weights(), "s.webnn");
      },
      {"constant \"k\"", "1.5", "int32"});
}

}  // namespace
}  // namespace webnn::formats
