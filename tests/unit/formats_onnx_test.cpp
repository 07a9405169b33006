// ONNX export: every op of the table exports a model that passes the ONNX checker and strict type
// and shape inference (whose inferred output shapes must equal the graph's), the mappings and
// decompositions have the structure docs/onnx.md describes, names and constants survive, and what
// cannot be exported is a NotSupportedError naming the op. Running the models is the job of
// tools/ort/ort_check.cpp (CTest: onnx_*_ort).
//
// The graphs are built directly as IR with their output descriptors written by hand, so every op
// has a sample even where this build's validation of the op is still missing; ONNX's shape
// inference checks those descriptors.
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <functional>
#include <limits>
#include <set>

#include "formats/onnx/export.hpp"
#include "formats/onnx/import.hpp"
#include "formats/onnx/op_map.hpp"
#include "formats_test_util.hpp"
#include "ops/number_cast.hpp"
#include "ops/ops.hpp"

namespace webnn::formats {
namespace {

using testing::expect_error;
using testing::TempDir;

// ---- Building IR by hand ----

struct RawGraph {
  std::shared_ptr<Graph> g = std::make_shared<Graph>();
  // Operations are validated, which resolves the options they leave to the spec's defaults; a
  // test of what validation refuses turns it off and gives every option.
  bool validate = true;

  OperandId add(OperandDescriptor desc, OperandKind kind, std::string name = {}) {
    g->operands.push_back(Operand{std::move(desc), kind, std::move(name), 0});
    return OperandId(g->operands.size() - 1);
  }
  OperandId input(const std::string& name, DataType type, Shape shape) {
    OperandId id = add({type, std::move(shape)}, OperandKind::kInput, name);
    g->inputs.push_back({name, id});
    return id;
  }
  OperandId constant(DataType type, Shape shape, std::vector<std::byte> bytes, const std::string& name = {}) {
    OperandId id = add({type, std::move(shape)}, OperandKind::kConstant, name);
    g->operands[id].constant_index = uint32_t(g->constants.size());
    g->constants.push_back(BufferRef::adopt(std::move(bytes)));
    return id;
  }
  // A constant whose elements are 0, 1, 2, ... cast to `type`.
  OperandId iota(DataType type, Shape shape, const std::string& name = {}) {
    size_t n = 1;
    for (uint32_t d : shape) n *= d;
    std::vector<std::byte> bytes(n * element_size(type));
    for (size_t i = 0; i < n; ++i) ops::store_number(Number(double(i)), type, bytes.data() + i * element_size(type));
    return constant(type, std::move(shape), std::move(bytes), name);
  }
  std::vector<OperandId> op(OpKind kind, std::vector<OperandId> inputs, Attributes attrs,
                            std::vector<OperandDescriptor> outs, std::string label = {}) {
    Operation o;
    o.kind = kind;
    o.inputs = std::move(inputs);
    o.attrs = std::move(attrs);
    o.label = std::move(label);
    if (validate) ops::infer(*g, o);  // resolves the options left to their defaults
    for (OperandDescriptor& d : outs) o.outputs.push_back(add(std::move(d), OperandKind::kIntermediate));
    g->operations.push_back(std::move(o));
    return g->operations.back().outputs;
  }
  // op() whose results are all graph outputs ("y", or "y0", "y1", ...).
  void op_out(OpKind kind, std::vector<OperandId> inputs, Attributes attrs, std::vector<OperandDescriptor> outs) {
    std::vector<OperandId> ids = op(kind, std::move(inputs), std::move(attrs), std::move(outs));
    for (size_t i = 0; i < ids.size(); ++i) output(ids.size() == 1 ? "y" : "y" + std::to_string(i), ids[i]);
  }
  void output(const std::string& name, OperandId id) { g->outputs.push_back({name, id}); }
};

const DataType f32 = DataType::kFloat32, f16 = DataType::kFloat16, i32 = DataType::kInt32, u32 = DataType::kUint32,
               i64 = DataType::kInt64, u64 = DataType::kUint64, i8 = DataType::kInt8, u8 = DataType::kUint8;

onnx::ModelProto export_model(const Graph& graph) {
  onnx::ModelProto model;
  const std::string bytes = export_onnx_bytes(graph);
  EXPECT_TRUE(model.ParseFromString(bytes));
  return model;
}

std::vector<std::string> op_types(const onnx::ModelProto& m) {
  std::vector<std::string> types;
  for (const onnx::NodeProto& n : m.graph().node()) types.push_back(n.op_type());
  return types;
}

bool has_op(const onnx::ModelProto& m, const std::string& type) {
  for (const onnx::NodeProto& n : m.graph().node())
    if (n.op_type() == type) return true;
  return false;
}

long count_op(const onnx::ModelProto& m, const std::string& type) {
  const std::vector<std::string> types = op_types(m);
  return std::count(types.begin(), types.end(), type);
}

const onnx::NodeProto& node_of(const onnx::ModelProto& m, const std::string& type) {
  for (const onnx::NodeProto& n : m.graph().node())
    if (n.op_type() == type) return n;
  throw std::runtime_error("no " + type + " node");
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& n, const std::string& name) {
  for (const onnx::AttributeProto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

const onnx::TensorProto* initializer(const onnx::ModelProto& m, const std::string& name) {
  for (const onnx::TensorProto& t : m.graph().initializer())
    if (t.name() == name) return &t;
  return nullptr;
}

template <class T>
std::vector<T> values(const onnx::TensorProto& t) {
  std::vector<T> v(t.raw_data().size() / sizeof(T));
  std::memcpy(v.data(), t.raw_data().data(), t.raw_data().size());
  return v;
}

// ---- A sample graph for every op of the table ----

// Fills `r` with a small valid graph using `kind`; false when there is no sample for it.
bool sample_graph(OpKind kind, RawGraph& r) {
  auto unary = [&](DataType type, Attributes attrs = NoAttrs{}) {
    r.op_out(kind, {r.input("x", type, {2, 3})}, std::move(attrs), {{type, {2, 3}}});
  };
  auto binary = [&](DataType type, DataType out) {
    r.op_out(kind, {r.input("a", type, {2, 3}), r.input("b", type, {3})}, NoAttrs{}, {{out, {2, 3}}});
  };
  const Shape img = {1, 2, 5, 5};
  switch (kind) {
    case OpKind::kAdd:
    case OpKind::kSub:
    case OpKind::kMul:
    case OpKind::kMax:
    case OpKind::kMin:
      binary(f32, f32);
      return true;
    case OpKind::kDiv:
    case OpKind::kPow:
      binary(i32, i32);  // the integer decompositions
      return true;
    case OpKind::kAbs:
    case OpKind::kNeg:
    case OpKind::kSign:
      unary(i8);
      return true;
    case OpKind::kCeil:
    case OpKind::kCos:
    case OpKind::kErf:
    case OpKind::kExp:
    case OpKind::kFloor:
    case OpKind::kLog:
    case OpKind::kReciprocal:
    case OpKind::kRoundEven:
    case OpKind::kSin:
    case OpKind::kSqrt:
    case OpKind::kTan:
    case OpKind::kSigmoid:
    case OpKind::kTanh:
    case OpKind::kGelu:
    case OpKind::kHardSwish:
    case OpKind::kSoftplus:
    case OpKind::kSoftsign:
      unary(f16);
      return true;
    case OpKind::kIdentity:
      unary(u64);
      return true;
    case OpKind::kRelu:
      unary(i64);
      return true;
    case OpKind::kElu:
      unary(f32, EluAttrs{0.5});
      return true;
    case OpKind::kHardSigmoid:
      unary(f32, HardSigmoidAttrs{0.1, 0.2});
      return true;
    case OpKind::kLeakyRelu:
      unary(f32, LeakyReluAttrs{0.3});
      return true;
    case OpKind::kLinear:
      unary(f32, LinearAttrs{2.0, -1.0});
      return true;
    case OpKind::kPrelu:
      binary(i8, i8);  // int8: no ONNX PRelu
      return true;
    case OpKind::kClamp:
      unary(u64, ClampAttrs{Number(1.0), Number::from_uint64(UINT64_MAX - 1)});
      return true;
    case OpKind::kCast:
      r.op_out(kind, {r.input("x", f16, {2, 3})}, CastAttrs{u64}, {{u64, {2, 3}}});
      return true;
    case OpKind::kEqual:
    case OpKind::kNotEqual:
    case OpKind::kGreater:
    case OpKind::kGreaterOrEqual:
    case OpKind::kLesser:
    case OpKind::kLesserOrEqual:
      binary(i64, u8);
      return true;
    case OpKind::kLogicalAnd:
    case OpKind::kLogicalOr:
    case OpKind::kLogicalXor:
      binary(u8, u8);
      return true;
    case OpKind::kLogicalNot:
      unary(u8);
      return true;
    case OpKind::kIsNaN:
    case OpKind::kIsInfinite:
      r.op_out(kind, {r.input("x", f16, {2, 3})}, NoAttrs{}, {{u8, {2, 3}}});
      return true;
    case OpKind::kWhere:
      r.op_out(kind, {r.input("c", u8, {2, 1}), r.input("t", i64, {3}), r.input("f", i64, {2, 3})}, NoAttrs{},
               {{i64, {2, 3}}});
      return true;
    case OpKind::kConv2d: {
      Conv2dAttrs a;
      a.input_layout = InputLayout::kNhwc;
      a.filter_layout = Conv2dFilterLayout::kHwio;
      a.padding = std::vector<uint32_t>{1, 1, 1, 1};
      r.op_out(kind, {r.input("x", f32, {1, 5, 5, 2}), r.iota(f32, {3, 3, 2, 4}, "w")}, a, {{f32, {1, 5, 5, 4}}});
      return true;
    }
    case OpKind::kConvTranspose2d: {
      ConvTranspose2dAttrs a;
      a.strides = std::vector<uint32_t>{2, 2};
      a.output_sizes = std::vector<uint32_t>{12, 11};
      r.op_out(kind, {r.input("x", f32, img), r.input("w", f32, {2, 3, 3, 3})}, a, {{f32, {1, 3, 12, 11}}});
      return true;
    }
    case OpKind::kAveragePool2d:
    case OpKind::kL2Pool2d:
    case OpKind::kMaxPool2d: {
      Pool2dAttrs a;
      a.window_dimensions = std::vector<uint32_t>{2, 2};
      a.strides = std::vector<uint32_t>{2, 2};
      a.output_shape_rounding = RoundingType::kCeil;
      r.op_out(kind, {r.input("x", f32, img)}, a, {{f32, {1, 2, 3, 3}}});
      return true;
    }
    case OpKind::kResample2d: {
      Resample2dAttrs a;
      a.mode = InterpolationMode::kLinear;
      a.scales = std::vector<float>{1.5f, 2.0f};
      r.op_out(kind, {r.input("x", f32, img)}, a, {{f32, {1, 2, 7, 10}}});
      return true;
    }
    case OpKind::kMatmul:
      r.op_out(kind, {r.input("a", f32, {2, 3, 4}), r.input("b", f32, {4, 5})}, NoAttrs{}, {{f32, {2, 3, 5}}});
      return true;
    case OpKind::kGemm: {
      GemmAttrs a;
      a.a_transpose = true;
      a.alpha = 0.5;
      OperandId x = r.input("a", f32, {4, 3}), y = r.input("b", f32, {4, 5});
      a.c = OperandRef{r.input("c", f32, {5})};
      r.op_out(kind, {x, y}, a, {{f32, {3, 5}}});
      return true;
    }
    case OpKind::kBatchNormalization: {
      BatchNormalizationAttrs a;
      OperandId x = r.input("x", f32, img), mean = r.input("mean", f32, {2}), var = r.input("var", f32, {2});
      a.scale = OperandRef{r.input("scale", f32, {2})};
      r.op_out(kind, {x, mean, var}, a, {{f32, img}});
      return true;
    }
    case OpKind::kInstanceNormalization: {
      InstanceNormalizationAttrs a;
      a.layout = InputLayout::kNhwc;
      r.op_out(kind, {r.input("x", f16, {1, 5, 5, 2})}, a, {{f16, {1, 5, 5, 2}}});
      return true;
    }
    case OpKind::kLayerNormalization: {
      LayerNormalizationAttrs a;
      a.axes = std::vector<uint32_t>{2, 0};
      OperandId x = r.input("x", f32, {2, 3, 4});
      a.scale = OperandRef{r.input("scale", f32, {4, 2})};
      r.op_out(kind, {x}, a, {{f32, {2, 3, 4}}});
      return true;
    }
    case OpKind::kSoftmax:
      r.op_out(kind, {r.input("x", f32, {2, 3})}, SoftmaxAttrs{0}, {{f32, {2, 3}}});
      return true;
    case OpKind::kReduceL1:
    case OpKind::kReduceL2:
    case OpKind::kReduceLogSum:
    case OpKind::kReduceLogSumExp:
    case OpKind::kReduceMax:
    case OpKind::kReduceMean:
    case OpKind::kReduceMin:
    case OpKind::kReduceProduct:
    case OpKind::kReduceSum:
    case OpKind::kReduceSumSquare:
      r.op_out(kind, {r.input("x", f32, {2, 3, 4})}, ReduceAttrs{std::vector<uint32_t>{0, 2}, true},
               {{f32, {1, 3, 1}}});
      return true;
    case OpKind::kArgMax:
    case OpKind::kArgMin:
      r.op_out(kind, {r.input("x", u8, {2, 3})}, ArgMinMaxAttrs{1, false, i32}, {{i32, {2}}});
      return true;
    case OpKind::kCumulativeSum:
      r.op_out(kind, {r.input("x", u64, {2, 3})}, CumulativeSumAttrs{1, true, true}, {{u64, {2, 3}}});
      return true;
    case OpKind::kReshape:
      r.op_out(kind, {r.input("x", f32, {2, 3})}, ReshapeAttrs{{3, 1, 2}}, {{f32, {3, 1, 2}}});
      return true;
    case OpKind::kTranspose:
      r.op_out(kind, {r.input("x", f32, {2, 3, 4})}, TransposeAttrs{}, {{f32, {4, 3, 2}}});
      return true;
    case OpKind::kConcat:
      r.op_out(kind, {r.input("a", f32, {2, 3}), r.input("b", f32, {2, 1})}, ConcatAttrs{1}, {{f32, {2, 4}}});
      return true;
    case OpKind::kSplit:
      r.op_out(kind, {r.input("x", f32, {2, 6})}, SplitAttrs{std::vector<uint32_t>{1, 5}, 1},
               {{f32, {2, 1}}, {f32, {2, 5}}});
      return true;
    case OpKind::kSlice:
      r.op_out(kind, {r.input("x", f32, {4, 6})}, SliceAttrs{{1, 0}, {3, 6}, std::vector<uint32_t>{2, 4}},
               {{f32, {2, 2}}});
      return true;
    case OpKind::kExpand:
      r.op_out(kind, {r.input("x", i8, {3, 1})}, ExpandAttrs{{2, 3, 4}}, {{i8, {2, 3, 4}}});
      return true;
    case OpKind::kPad:
      r.op_out(kind, {r.input("x", u32, {2, 3})}, PadAttrs{{1, 0}, {0, 2}, PaddingMode::kConstant, Number(7.0)},
               {{u32, {3, 5}}});
      return true;
    case OpKind::kReverse:
      r.op_out(kind, {r.input("x", f32, {2, 3, 4})}, ReverseAttrs{std::vector<uint32_t>{0, 2}}, {{f32, {2, 3, 4}}});
      return true;
    case OpKind::kTile:
      r.op_out(kind, {r.input("x", f32, {2, 3})}, TileAttrs{{2, 1}}, {{f32, {4, 3}}});
      return true;
    case OpKind::kTriangular:
      r.op_out(kind, {r.input("x", i32, {3, 4})}, TriangularAttrs{false, -1}, {{i32, {3, 4}}});
      return true;
    case OpKind::kGather:
      r.op_out(kind, {r.input("x", f32, {4, 3}), r.input("i", u32, {2, 2})}, GatherAttrs{0}, {{f32, {2, 2, 3}}});
      return true;
    case OpKind::kGatherElements:
      r.op_out(kind, {r.input("x", f32, {4, 3}), r.input("i", i32, {2, 3})}, GatherAttrs{0}, {{f32, {2, 3}}});
      return true;
    case OpKind::kGatherNd:
      r.op_out(kind, {r.input("x", f32, {4, 3, 2}), r.input("i", i32, {5, 2})}, NoAttrs{}, {{f32, {5, 2}}});
      return true;
    case OpKind::kScatterElements:
      r.op_out(kind, {r.input("x", f32, {4, 3}), r.input("i", i64, {2, 3}), r.input("u", f32, {2, 3})}, ScatterAttrs{0},
               {{f32, {4, 3}}});
      return true;
    case OpKind::kScatterNd:
      r.op_out(kind, {r.input("x", f32, {4, 3}), r.input("i", u32, {2, 1}), r.input("u", f32, {2, 3})}, NoAttrs{},
               {{f32, {4, 3}}});
      return true;
    case OpKind::kGru: {
      GruAttrs a;
      a.steps = 2, a.hidden_size = 2, a.return_sequence = true, a.direction = RecurrentDirection::kBoth;
      a.layout = GruWeightLayout::kRzn;
      OperandId x = r.input("x", f32, {2, 1, 3}), w = r.iota(f32, {2, 6, 3}), rw = r.iota(f32, {2, 6, 2});
      a.bias = OperandRef{r.input("b", f32, {2, 6})};
      r.op_out(kind, {x, w, rw}, a, {{f32, {2, 1, 2}}, {f32, {2, 2, 1, 2}}});
      return true;
    }
    case OpKind::kGruCell: {
      GruCellAttrs a;
      a.hidden_size = 2;
      r.op_out(
          kind,
          {r.input("x", f32, {1, 3}), r.input("w", f32, {6, 3}), r.input("r", f32, {6, 2}), r.input("h", f32, {1, 2})},
          a, {{f32, {1, 2}}});
      return true;
    }
    case OpKind::kLstm: {
      LstmAttrs a;
      a.steps = 2, a.hidden_size = 2, a.layout = LstmWeightLayout::kIfgo;
      r.op_out(kind, {r.input("x", f32, {2, 1, 3}), r.input("w", f32, {1, 8, 3}), r.input("r", f32, {1, 8, 2})}, a,
               {{f32, {1, 1, 2}}, {f32, {1, 1, 2}}});
      return true;
    }
    case OpKind::kLstmCell: {
      LstmCellAttrs a;
      a.hidden_size = 2;
      OperandId x = r.input("x", f32, {1, 3}), w = r.input("w", f32, {8, 3}), rw = r.input("r", f32, {8, 2});
      OperandId h = r.input("h", f32, {1, 2}), c = r.input("c", f32, {1, 2});
      a.peephole_weight = OperandRef{r.input("p", f32, {6})};
      r.op_out(kind, {x, w, rw, h, c}, a, {{f32, {1, 2}}, {f32, {1, 2}}});
      return true;
    }
    case OpKind::kQuantizeLinear:
      r.op_out(kind, {r.input("x", f16, {4, 6}), r.input("s", f16, {2, 3}), r.input("z", i32, {2, 3})}, NoAttrs{},
               {{i32, {4, 6}}});
      return true;
    case OpKind::kDequantizeLinear:
      r.op_out(kind, {r.input("x", u32, {4, 6}), r.input("s", f32, {1, 6}), r.input("z", u32, {1, 6})}, NoAttrs{},
               {{f32, {4, 6}}});
      return true;
  }
  return false;
}

std::vector<OpKind> all_ops() {
  std::vector<OpKind> ops;
  for (size_t i = 0; i < kOpKindCount; ++i) ops.push_back(static_cast<OpKind>(i));
  return ops;
}

TEST(FormatsOnnx, EveryOpOfTheTableExportsOrIsListedAsUnsupported) {
  const std::span<const OpKind> unsupported = onnx_unsupported_ops();
  for (OpKind kind : all_ops()) {
    SCOPED_TRACE(std::string(op_name(kind)));
    RawGraph r;
    ASSERT_TRUE(sample_graph(kind, r)) << "no sample graph for " << op_name(kind);
    if (std::find(unsupported.begin(), unsupported.end(), kind) != unsupported.end()) {
      expect_error([&] { export_onnx_bytes(*r.g); }, {std::string(op_name(kind))}, ErrorKind::kNotSupportedError);
      continue;
    }
    try {
      onnx::ModelProto m = export_model(*r.g);
      EXPECT_GT(m.graph().node_size(), 0);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

// The one-to-one pairs (formats/onnx/op_map.def) serve both directions: each WebNN op of a pair
// exports as its ONNX op (with the casts its form adds) and that ONNX op imports back as the WebNN
// op. (Identity, a pass-through, adds no operation of its own; here its output is the graph
// input's operand, which gets the identity every such output gets.)
TEST(FormatsOnnx, EveryOneToOnePairExportsAsItsOnnxOpAndImportsBack) {
  for (const OnnxOpPair& pair : kOnnxOpPairs) {
    SCOPED_TRACE(std::string(pair.onnx));
    RawGraph r;
    const Shape s{2, 3};
    switch (pair.form) {
      case OnnxForm::kUnary:
      case OnnxForm::kPassThrough:
        r.op_out(pair.kind, {r.input("x", f32, s)}, NoAttrs{}, {{f32, s}});
        break;
      case OnnxForm::kPredicate:
        r.op_out(pair.kind, {r.input("x", f32, s)}, NoAttrs{}, {{u8, s}});
        break;
      case OnnxForm::kBinary:
      case OnnxForm::kVariadic:
        r.op_out(pair.kind, {r.input("a", f32, s), r.input("b", f32, s)}, NoAttrs{}, {{f32, s}});
        break;
      case OnnxForm::kCompare:
        r.op_out(pair.kind, {r.input("a", f32, s), r.input("b", f32, s)}, NoAttrs{}, {{u8, s}});
        break;
      case OnnxForm::kLogical:
        if (pair.kind == OpKind::kLogicalNot)
          r.op_out(pair.kind, {r.input("a", u8, s)}, NoAttrs{}, {{u8, s}});
        else
          r.op_out(pair.kind, {r.input("a", u8, s), r.input("b", u8, s)}, NoAttrs{}, {{u8, s}});
        break;
      case OnnxForm::kSelect:
        r.op_out(pair.kind, {r.input("c", u8, s), r.input("a", f32, s), r.input("b", f32, s)}, NoAttrs{}, {{f32, s}});
        break;
      case OnnxForm::kReduce:
        r.op_out(pair.kind, {r.input("x", f32, s)}, ReduceAttrs{std::vector<uint32_t>{1}, false}, {{f32, {2}}});
        break;
      case OnnxForm::kArgReduce:
        r.op_out(pair.kind, {r.input("x", f32, s)}, ArgMinMaxAttrs{1, false, i64}, {{i64, {2}}});
        break;
    }
    const onnx::ModelProto m = export_model(*r.g);
    EXPECT_EQ(count_op(m, std::string(pair.onnx)), 1) << ::testing::PrintToString(op_types(m));
    const std::shared_ptr<const Graph> back = import_onnx_bytes(m.SerializeAsString(), "", "pair.onnx");
    long count = 0;
    for (const Operation& op : back->operations) count += op.kind == pair.kind;
    EXPECT_EQ(count, 1) << op_name(pair.kind);
  }
}

TEST(FormatsOnnx, TheUnsupportedListIsEmpty) {
  // docs/onnx.md promises that every op exports; a new entry must be documented there.
  EXPECT_TRUE(onnx_unsupported_ops().empty());
}

// ---- The model ----

TEST(FormatsOnnx, ModelHeaderNamesAndTypes) {
  RawGraph r;
  r.g->name = "tiny";
  OperandId x = r.input("input image", f16, {1, 3});
  OperandId y = r.op(OpKind::kRelu, {x}, NoAttrs{}, {{f16, {1, 3}}}, "my relu")[0];
  r.output("out/put", y);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(m.ir_version(), 8);
  ASSERT_EQ(m.opset_import_size(), 1);
  EXPECT_EQ(m.opset_import(0).domain(), "");
  EXPECT_EQ(m.opset_import(0).version(), 17);
  EXPECT_EQ(m.producer_name(), "webnn-cpp");
  EXPECT_EQ(m.graph().name(), "tiny");
  ASSERT_EQ(m.graph().input_size(), 1);
  EXPECT_EQ(m.graph().input(0).name(), "input image");
  EXPECT_EQ(m.graph().input(0).type().tensor_type().elem_type(), onnx::TensorProto_DataType_FLOAT16);
  ASSERT_EQ(m.graph().output_size(), 1);
  EXPECT_EQ(m.graph().output(0).name(), "out/put");
  const onnx::TensorShapeProto& shape = m.graph().output(0).type().tensor_type().shape();
  ASSERT_EQ(shape.dim_size(), 2);
  EXPECT_EQ(shape.dim(1).dim_value(), 3);
  // The op result is written straight to the output name: one Relu node, no Identity.
  EXPECT_EQ(op_types(m), std::vector<std::string>{"Relu"});
  EXPECT_EQ(m.graph().node(0).output(0), "out/put");
  EXPECT_NE(m.graph().node(0).name().find("my relu"), std::string::npos);
}

TEST(FormatsOnnx, OutputsThatAliasGetIdentityNodes) {
  RawGraph r;
  OperandId x = r.input("x", f32, {2});
  OperandId y = r.op(OpKind::kSigmoid, {x}, NoAttrs{}, {{f32, {2}}})[0];
  r.output("first", y);
  r.output("second", y);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(op_types(m), (std::vector<std::string>{"Sigmoid", "Identity"}));
  EXPECT_EQ(m.graph().node(1).input(0), "first");
  EXPECT_EQ(m.graph().node(1).output(0), "second");
}

TEST(FormatsOnnx, AnOutputNamedLikeAnInputIsNotSupported) {
  RawGraph r;
  OperandId x = r.input("x", f32, {2});
  r.output("x", r.op(OpKind::kExp, {x}, NoAttrs{}, {{f32, {2}}})[0]);
  expect_error([&] { export_onnx_bytes(*r.g); }, {"output name \"x\""}, ErrorKind::kNotSupportedError);
}

TEST(FormatsOnnx, ConstantsAreExactRawInitializers) {
  RawGraph r;
  OperandId x = r.input("x", i64, {2});
  std::vector<int64_t> big = {INT64_MAX, INT64_MIN + 1};
  std::vector<std::byte> bytes(16);
  std::memcpy(bytes.data(), big.data(), 16);
  OperandId c = r.constant(i64, {2}, bytes, "big");
  r.output("y", r.op(OpKind::kAdd, {x, c}, NoAttrs{}, {{i64, {2}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  const onnx::TensorProto* t = initializer(m, "big");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->data_type(), onnx::TensorProto_DataType_INT64);
  EXPECT_TRUE(t->has_raw_data());
  EXPECT_EQ(values<int64_t>(*t), big);
}

TEST(FormatsOnnx, WritesTheFileThatTheCheckerAccepts) {
  TempDir dir;
  RawGraph r;
  OperandId x = r.input("x", f32, {2, 2});
  r.output("y", r.op(OpKind::kSoftmax, {x}, SoftmaxAttrs{1}, {{f32, {2, 2}}})[0]);
  export_onnx(*r.g, dir.file("m.onnx"));
  EXPECT_NO_THROW(onnx::checker::check_model(dir.file("m.onnx")));
  EXPECT_EQ(testing::slurp(dir.file("m.onnx")), export_onnx_bytes(*r.g));
  // A directory that does not exist is an error and leaves nothing behind.
  expect_error([&] { export_onnx(*r.g, dir.file("missing/m.onnx")); }, {"missing"});
}

TEST(FormatsOnnx, AModelTheCheckerRejectsIsNeverWritten) {
  // IR whose declared output disagrees with what ONNX infers (a wrong mapping would look like
  // this): strict inference catches the shape and the type, and nothing is written.
  TempDir dir;
  for (const OperandDescriptor& wrong : {OperandDescriptor{f32, {3, 2}}, OperandDescriptor{f16, {2, 3}}}) {
    RawGraph r;
    OperandId x = r.input("x", f32, {2, 3});
    r.output("y", r.op(OpKind::kSoftmax, {x}, SoftmaxAttrs{1}, {wrong})[0]);
    expect_error([&] { export_onnx(*r.g, dir.file("bad.onnx")); }, {"ONNX checker rejected"}, ErrorKind::kUnknownError);
    EXPECT_FALSE(std::filesystem::exists(dir.file("bad.onnx")));
  }
}

// ---- Mappings ----

TEST(FormatsOnnx, ComparisonsCastTheirBoolToUint8) {
  RawGraph r;
  OperandId a = r.input("a", f32, {3}), b = r.input("b", f32, {3});
  r.output("y", r.op(OpKind::kNotEqual, {a, b}, NoAttrs{}, {{u8, {3}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(op_types(m), (std::vector<std::string>{"Equal", "Not", "Cast"}));
  EXPECT_EQ(attribute(node_of(m, "Cast"), "to")->i(), onnx::TensorProto_DataType_UINT8);
}

TEST(FormatsOnnx, WhereAndLogicalOpsReadUint8AsBool) {
  RawGraph r;
  OperandId c = r.input("c", u8, {3}), t = r.input("t", f32, {3}), f = r.input("f", f32, {3});
  r.output("y", r.op(OpKind::kWhere, {c, t, f}, NoAttrs{}, {{f32, {3}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(op_types(m), (std::vector<std::string>{"Cast", "Where"}));
  EXPECT_EQ(attribute(node_of(m, "Cast"), "to")->i(), onnx::TensorProto_DataType_BOOL);
}

TEST(FormatsOnnx, ArgMaxTakesTheFirstIndexAndCastsToInt32) {
  RawGraph r;
  OperandId x = r.input("x", f32, {2, 3});
  r.output("y", r.op(OpKind::kArgMax, {x}, ArgMinMaxAttrs{1, true, i32}, {{i32, {2, 1}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(op_types(m), (std::vector<std::string>{"ArgMax", "Cast"}));
  const onnx::NodeProto& n = node_of(m, "ArgMax");
  EXPECT_EQ(attribute(n, "select_last_index")->i(), 0);
  EXPECT_EQ(attribute(n, "keepdims")->i(), 1);
  EXPECT_EQ(attribute(n, "axis")->i(), 1);
}

TEST(FormatsOnnx, GeluIsTheErfFormula) {
  RawGraph r;
  OperandId x = r.input("x", f32, {3});
  r.output("y", r.op(OpKind::kGelu, {x}, NoAttrs{}, {{f32, {3}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(op_types(m), (std::vector<std::string>{"Div", "Erf", "Add", "Mul", "Mul"}));
}

TEST(FormatsOnnx, LinearIsMulThenAdd) {
  RawGraph r;
  OperandId x = r.input("x", f16, {3});
  r.output("y", r.op(OpKind::kLinear, {x}, LinearAttrs{2.0, 0.5}, {{f16, {3}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(op_types(m), (std::vector<std::string>{"Mul", "Add"}));
  // The scalars are float16 like the input.
  for (const onnx::TensorProto& t : m.graph().initializer())
    EXPECT_EQ(t.data_type(), onnx::TensorProto_DataType_FLOAT16);
}

TEST(FormatsOnnx, ClampOnIntegersIsClipWithExactBounds) {
  RawGraph r;
  OperandId x = r.input("x", u64, {3});
  r.output("y",
           r.op(OpKind::kClamp, {x}, ClampAttrs{Number(2.0), Number::from_uint64(UINT64_MAX - 1)}, {{u64, {3}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  const onnx::NodeProto& clip = node_of(m, "Clip");
  EXPECT_EQ(values<uint64_t>(*initializer(m, clip.input(1))), std::vector<uint64_t>{2});
  EXPECT_EQ(values<uint64_t>(*initializer(m, clip.input(2))), std::vector<uint64_t>{UINT64_MAX - 1});
}

TEST(FormatsOnnx, ConstantFiltersAreTransposedAtExportTime) {
  RawGraph r;
  OperandId x = r.input("x", f32, {1, 4, 4, 2});
  OperandId w = r.iota(f32, {3, 3, 2, 5}, "w");  // hwio
  Conv2dAttrs a;
  a.input_layout = InputLayout::kNhwc;
  a.filter_layout = Conv2dFilterLayout::kHwio;
  r.output("y", r.op(OpKind::kConv2d, {x, w}, a, {{f32, {1, 2, 2, 5}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(op_types(m), (std::vector<std::string>{"Transpose", "Conv", "Transpose"}));
  // One initializer: the OIHW filter (the original is not kept). OIHW[o][i][h][w] = HWIO[h][w][i][o].
  ASSERT_EQ(m.graph().initializer_size(), 1);
  const onnx::TensorProto& t = m.graph().initializer(0);
  EXPECT_EQ(std::vector<int64_t>(t.dims().begin(), t.dims().end()), (std::vector<int64_t>{5, 2, 3, 3}));
  const std::vector<float> v = values<float>(t);
  auto oihw = [&](int o, int i, int h, int w_) { return v[((o * 2 + i) * 3 + h) * 3 + w_]; };
  auto hwio = [](int h, int w_, int i, int o) { return float(((h * 3 + w_) * 2 + i) * 5 + o); };
  EXPECT_EQ(oihw(4, 1, 2, 0), hwio(2, 0, 1, 4));
  EXPECT_EQ(oihw(1, 0, 1, 2), hwio(1, 2, 0, 1));
  EXPECT_EQ(node_of(m, "Conv").input(1), t.name());
}

TEST(FormatsOnnx, ConvTransposeOutputSizesBecomeOutputPadding) {
  RawGraph r;
  ConvTranspose2dAttrs a;
  a.strides = std::vector<uint32_t>{2, 3};
  a.output_sizes = std::vector<uint32_t>{10, 14};  // natural sizes (4 - 1) * 2 + 3 = 9 and (4 - 1) * 3 + 3 = 12
  OperandId x = r.input("x", f32, {1, 1, 4, 4}), w = r.input("w", f32, {1, 2, 3, 3});
  r.output("y", r.op(OpKind::kConvTranspose2d, {x, w}, a, {{f32, {1, 2, 10, 14}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  const onnx::NodeProto& n = node_of(m, "ConvTranspose");
  const onnx::AttributeProto* op = attribute(n, "output_padding");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(std::vector<int64_t>(op->ints().begin(), op->ints().end()), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(attribute(n, "output_shape"), nullptr);
}

TEST(FormatsOnnx, PoolsGetExplicitPadsForCeilRounding) {
  RawGraph r;
  Pool2dAttrs a;
  a.window_dimensions = std::vector<uint32_t>{2, 2};
  a.strides = std::vector<uint32_t>{2, 2};
  a.output_shape_rounding = RoundingType::kCeil;
  OperandId x = r.input("x", f32, {1, 1, 5, 5});
  r.output("y", r.op(OpKind::kAveragePool2d, {x}, a, {{f32, {1, 1, 3, 3}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  const onnx::NodeProto& n = node_of(m, "AveragePool");
  const onnx::AttributeProto* pads = attribute(n, "pads");
  EXPECT_EQ(std::vector<int64_t>(pads->ints().begin(), pads->ints().end()), (std::vector<int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(attribute(n, "count_include_pad")->i(), 0);
  EXPECT_EQ(attribute(n, "ceil_mode"), nullptr);
}

TEST(FormatsOnnx, DilatedAveragePoolIsAWindowSumOverCounts) {
  RawGraph r;
  Pool2dAttrs a;
  a.window_dimensions = std::vector<uint32_t>{2, 2};
  a.dilations = std::vector<uint32_t>{2, 2};
  a.padding = std::vector<uint32_t>{1, 1, 1, 1};
  OperandId x = r.input("x", f32, {1, 2, 4, 4});
  r.output("y", r.op(OpKind::kAveragePool2d, {x}, a, {{f32, {1, 2, 4, 4}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_FALSE(has_op(m, "AveragePool"));
  EXPECT_EQ(attribute(node_of(m, "Conv"), "group")->i(), 2);
  // Window element (kh, kw) of output (oh, ow) reads row oh + 2 kh - 1: the corner window has one
  // element inside, an edge window two, an inner one four.
  const onnx::TensorProto* count = initializer(m, node_of(m, "Div").input(1));
  ASSERT_NE(count, nullptr);
  const std::vector<float> counts = values<float>(*count);
  ASSERT_EQ(counts.size(), 16u);
  EXPECT_EQ(counts[0], 1.0f);   // (0, 0): rows {-1, 1} x columns {-1, 1}
  EXPECT_EQ(counts[1], 2.0f);   // (0, 1): rows {-1, 1} x columns {0, 2}
  EXPECT_EQ(counts[5], 4.0f);   // (1, 1)
  EXPECT_EQ(counts[15], 1.0f);  // (3, 3): rows {2, 4} x columns {2, 4}
}

TEST(FormatsOnnx, IntegerMaxPoolIsSlicesAndMax) {
  RawGraph r;
  Pool2dAttrs a;
  a.window_dimensions = std::vector<uint32_t>{2, 3};
  OperandId x = r.input("x", i64, {1, 1, 4, 4});
  r.output("y", r.op(OpKind::kMaxPool2d, {x}, a, {{i64, {1, 1, 3, 2}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_FALSE(has_op(m, "MaxPool"));
  EXPECT_EQ(count_op(m, "Slice"), 6);
  EXPECT_EQ(count_op(m, "Where"), 5);  // int64: Greater and Where, not Max (see formats/onnx/export.cpp)
  // Padded with the lowest int64.
  EXPECT_EQ(values<int64_t>(*initializer(m, node_of(m, "Pad").input(2))), std::vector<int64_t>{INT64_MIN});
}

TEST(FormatsOnnx, ResampleUsesSizesHalfPixelAndRoundPreferFloor) {
  RawGraph r;
  Resample2dAttrs a;
  a.scales = std::vector<float>{1.5f, 1.5f};
  a.axes = std::vector<uint32_t>{1, 2};
  OperandId x = r.input("x", u8, {1, 3, 3, 2});
  r.output("y", r.op(OpKind::kResample2d, {x}, a, {{u8, {1, 4, 4, 2}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  const onnx::NodeProto& n = node_of(m, "Resize");
  EXPECT_EQ(attribute(n, "mode")->s(), "nearest");
  EXPECT_EQ(attribute(n, "nearest_mode")->s(), "round_prefer_floor");
  EXPECT_EQ(attribute(n, "coordinate_transformation_mode")->s(), "half_pixel");
  ASSERT_EQ(n.input_size(), 4);
  EXPECT_EQ(n.input(1), "");
  EXPECT_EQ(n.input(2), "");
  EXPECT_EQ(values<int64_t>(*initializer(m, n.input(3))), (std::vector<int64_t>{1, 4, 4, 2}));
}

TEST(FormatsOnnx, BatchNormalizationIsTheSpecFormula) {
  RawGraph r;
  BatchNormalizationAttrs a;
  a.axis = 2;
  OperandId x = r.input("x", f32, {2, 3, 4}), mean = r.input("m", f32, {4}), var = r.input("v", f32, {4});
  a.bias = OperandRef{r.input("b", f32, {4})};
  r.output("y", r.op(OpKind::kBatchNormalization, {x, mean, var}, a, {{f32, {2, 3, 4}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_FALSE(has_op(m, "BatchNormalization"));
  std::vector<std::string> types = op_types(m);
  types.erase(std::remove(types.begin(), types.end(), "Reshape"), types.end());
  EXPECT_EQ(types, (std::vector<std::string>{"Sub", "Add", "Sqrt", "Div", "Add"}));
}

TEST(FormatsOnnx, LayerNormalizationOfOtherAxesMovesThemToTheEnd) {
  {
    RawGraph r;
    LayerNormalizationAttrs a;
    a.axes = std::vector<uint32_t>{1, 2};
    OperandId x = r.input("x", f32, {2, 3, 4});
    r.output("y", r.op(OpKind::kLayerNormalization, {x}, a, {{f32, {2, 3, 4}}})[0]);
    onnx::ModelProto m = export_model(*r.g);
    EXPECT_EQ(op_types(m), std::vector<std::string>{"LayerNormalization"});
    EXPECT_EQ(attribute(node_of(m, "LayerNormalization"), "axis")->i(), 1);
  }
  for (const std::vector<uint32_t>& axes : {std::vector<uint32_t>{0, 2}, std::vector<uint32_t>{2, 1}}) {
    RawGraph r;
    LayerNormalizationAttrs a;
    a.axes = axes;
    OperandId x = r.input("x", f32, {2, 3, 4});
    r.output("y", r.op(OpKind::kLayerNormalization, {x}, a, {{f32, {2, 3, 4}}})[0]);
    onnx::ModelProto m = export_model(*r.g);
    // One LayerNormalization over the trailing axes, between two transposes (as exact in
    // float16 as the spec's op; the formula would round each step).
    EXPECT_EQ(op_types(m), (std::vector<std::string>{"Transpose", "LayerNormalization", "Transpose"}));
    EXPECT_EQ(attribute(node_of(m, "LayerNormalization"), "axis")->i(), 1);
  }
}

TEST(FormatsOnnx, ReductionsOverNoAxesAreElementWise) {
  // ONNX reads empty axes as "every axis"; the spec reduces none.
  RawGraph r;
  OperandId x = r.input("x", f32, {2, 3});
  r.output("y", r.op(OpKind::kReduceSumSquare, {x}, ReduceAttrs{std::vector<uint32_t>{}, false}, {{f32, {2, 3}}})[0]);
  r.output("z", r.op(OpKind::kReduceL1, {x}, ReduceAttrs{std::vector<uint32_t>{}, false}, {{f32, {2, 3}}})[0]);
  r.output("s", r.op(OpKind::kReduceSum, {x}, ReduceAttrs{std::vector<uint32_t>{1}, false}, {{f32, {2}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(op_types(m), (std::vector<std::string>{"Mul", "Abs", "ReduceSum"}));
}

TEST(FormatsOnnx, ReverseIsASliceWithStepMinusOne) {
  RawGraph r;
  OperandId x = r.input("x", f32, {2, 3});
  r.output("y", r.op(OpKind::kReverse, {x}, ReverseAttrs{std::vector<uint32_t>{1}}, {{f32, {2, 3}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  const onnx::NodeProto& n = node_of(m, "Slice");
  EXPECT_EQ(values<int64_t>(*initializer(m, n.input(3))), std::vector<int64_t>{1});
  EXPECT_EQ(values<int64_t>(*initializer(m, n.input(4))), std::vector<int64_t>{-1});
}

TEST(FormatsOnnx, GatherIndicesAreClampedAndWidened) {
  RawGraph r;
  OperandId x = r.input("x", f32, {5, 2}), i = r.input("i", u32, {3});
  r.output("y", r.op(OpKind::kGather, {x, i}, GatherAttrs{0}, {{f32, {3, 2}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  // Comparisons and Where, not Clip: ONNX Runtime's int64 Clip/Min/Max are wrong beyond 32 bits.
  EXPECT_EQ(op_types(m), (std::vector<std::string>{"Cast", "Greater", "Where", "Less", "Where", "Gather"}));
  EXPECT_EQ(values<int64_t>(*initializer(m, node_of(m, "Less").input(1))), std::vector<int64_t>{-5});
  EXPECT_EQ(values<int64_t>(*initializer(m, node_of(m, "Greater").input(1))), std::vector<int64_t>{4});
}

TEST(FormatsOnnx, GruGatesAreReorderedInTheConstantWeights) {
  RawGraph r;
  GruAttrs a;
  a.steps = 1, a.hidden_size = 1, a.layout = GruWeightLayout::kRzn, a.reset_after = false;
  OperandId x = r.input("x", f32, {1, 1, 1});
  OperandId w = r.iota(f32, {1, 3, 1}, "w"), rw = r.iota(f32, {1, 3, 1}, "r");
  r.output("y", r.op(OpKind::kGru, {x, w, rw}, a, {{f32, {1, 1, 1}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(op_types(m), std::vector<std::string>{"GRU"});
  const onnx::NodeProto& n = node_of(m, "GRU");
  EXPECT_EQ(attribute(n, "linear_before_reset")->i(), 0);
  EXPECT_EQ(attribute(n, "direction")->s(), "forward");
  // rzn [r=0, z=1, n=2] -> ONNX zrh [1, 0, 2].
  EXPECT_EQ(values<float>(*initializer(m, n.input(1))), (std::vector<float>{1, 0, 2}));
  EXPECT_EQ(n.output(0), "");  // no sequence asked for
  EXPECT_EQ(n.output(1), "y");
}

TEST(FormatsOnnx, LstmIfgoIsReorderedAndPeepholesAreUnrolled) {
  {
    RawGraph r;
    LstmAttrs a;
    a.steps = 2, a.hidden_size = 1, a.layout = LstmWeightLayout::kIfgo, a.direction = RecurrentDirection::kBoth;
    OperandId x = r.input("x", f32, {2, 1, 1});
    OperandId w = r.iota(f32, {2, 4, 1}), rw = r.iota(f32, {2, 4, 1});
    std::vector<OperandId> outs = r.op(OpKind::kLstm, {x, w, rw}, a, {{f32, {2, 1, 1}}, {f32, {2, 1, 1}}});
    r.output("h", outs[0]);
    r.output("c", outs[1]);
    onnx::ModelProto m = export_model(*r.g);
    EXPECT_EQ(op_types(m), std::vector<std::string>{"LSTM"});
    const onnx::NodeProto& n = node_of(m, "LSTM");
    // ifgo [i=0, f=1, g=2, o=3] -> ONNX iofc [0, 3, 1, 2], per direction.
    EXPECT_EQ(values<float>(*initializer(m, n.input(1))), (std::vector<float>{0, 3, 1, 2, 4, 7, 5, 6}));
    EXPECT_EQ(attribute(n, "activations")->strings_size(), 6);
  }
  {
    RawGraph r;
    LstmAttrs a;
    a.steps = 2, a.hidden_size = 1;
    OperandId x = r.input("x", f32, {2, 1, 1});
    OperandId w = r.input("w", f32, {1, 4, 1}), rw = r.input("r", f32, {1, 4, 1});
    a.peephole_weight = OperandRef{r.input("p", f32, {1, 3})};
    std::vector<OperandId> outs = r.op(OpKind::kLstm, {x, w, rw}, a, {{f32, {1, 1, 1}}, {f32, {1, 1, 1}}});
    r.output("h", outs[0]);
    r.output("c", outs[1]);
    onnx::ModelProto m = export_model(*r.g);
    EXPECT_FALSE(has_op(m, "LSTM"));
    EXPECT_EQ(count_op(m, "MatMul"), 4);  // 2 steps x (x W + h R)
  }
}

TEST(FormatsOnnx, QuantizationIsNativeOnlyWhereOpset17CanSayIt) {
  {
    RawGraph r;
    OperandId x = r.input("x", f32, {2, 4}), s = r.input("s", f32, {1, 4}), z = r.input("z", i8, {1, 4});
    r.output("y", r.op(OpKind::kQuantizeLinear, {x, s, z}, NoAttrs{}, {{i8, {2, 4}}})[0]);
    onnx::ModelProto m = export_model(*r.g);
    EXPECT_TRUE(has_op(m, "QuantizeLinear"));
    EXPECT_EQ(attribute(node_of(m, "QuantizeLinear"), "axis")->i(), 1);
  }
  {
    RawGraph r;  // block-wise
    OperandId x = r.input("x", f32, {4, 4}), s = r.input("s", f32, {2, 2}), z = r.input("z", u8, {2, 2});
    r.output("y", r.op(OpKind::kQuantizeLinear, {x, s, z}, NoAttrs{}, {{u8, {4, 4}}})[0]);
    onnx::ModelProto m = export_model(*r.g);
    EXPECT_FALSE(has_op(m, "QuantizeLinear"));
    EXPECT_TRUE(has_op(m, "Round"));
    EXPECT_TRUE(has_op(m, "Expand"));
    const onnx::NodeProto& clip = node_of(m, "Clip");
    EXPECT_EQ(values<double>(*initializer(m, clip.input(1))), std::vector<double>{0});
    EXPECT_EQ(values<double>(*initializer(m, clip.input(2))), std::vector<double>{255});
  }
  {
    RawGraph r;  // int32 input
    OperandId x = r.input("x", i32, {4}), s = r.input("s", f32, {1}), z = r.input("z", i32, {1});
    r.output("y", r.op(OpKind::kDequantizeLinear, {x, s, z}, NoAttrs{}, {{f32, {4}}})[0]);
    onnx::ModelProto m = export_model(*r.g);
    EXPECT_FALSE(has_op(m, "DequantizeLinear"));
  }
}

TEST(FormatsOnnx, IntegerDivisionGuardsZeroAndMinusOne) {
  RawGraph r;
  OperandId a = r.input("a", i32, {3}), b = r.input("b", i32, {3});
  r.output("y", r.op(OpKind::kDiv, {a, b}, NoAttrs{}, {{i32, {3}}})[0]);
  onnx::ModelProto m = export_model(*r.g);
  EXPECT_EQ(count_op(m, "Where"), 3);
  EXPECT_EQ(count_op(m, "Div"), 1);
}

TEST(FormatsOnnx, UnexportableGraphsRaiseNotSupportedErrorNamingTheOp) {
  // An output size below what the padding allows cannot be an ONNX output_padding (validation
  // rejects it too; the exporter does not rely on that).
  RawGraph r;
  r.validate = false;  // so every option is given
  ConvTranspose2dAttrs a;
  a.padding = std::vector<uint32_t>{0, 0, 0, 0};
  a.strides = a.dilations = std::vector<uint32_t>{1, 1};
  a.output_padding = std::vector<uint32_t>{0, 0};
  a.output_sizes = std::vector<uint32_t>{2, 2};
  OperandId x = r.input("x", f32, {1, 1, 4, 4}), w = r.input("w", f32, {1, 1, 3, 3});
  r.output("y", r.op(OpKind::kConvTranspose2d, {x, w}, a, {{f32, {1, 1, 2, 2}}}, "up")[0]);
  expect_error([&] { export_onnx_bytes(*r.g); }, {"convTranspose2d", "up", "output size"},
               ErrorKind::kNotSupportedError);
}

TEST(FormatsOnnx, ExportsTheMobileNetV2Graph) {
  const std::string dir = testing::shared_dir() + "/models/mobilenetv2";
  if (!std::filesystem::exists(dir + "/mobilenetv2.webnn")) GTEST_SKIP() << dir << " is absent";
  auto g = load_graph(dir + "/mobilenetv2.webnn");
  onnx::ModelProto m = export_model(*g);
  EXPECT_EQ(count_op(m, "Conv"), 52);
  uint64_t weight_bytes = 0;
  for (const onnx::TensorProto& t : m.graph().initializer())
    if (t.dims_size() > 1) weight_bytes += t.raw_data().size();
  uint64_t graph_bytes = 0;
  for (const Operand& o : g->operands)
    if (o.kind == OperandKind::kConstant && o.desc.rank() > 1) graph_bytes += *o.desc.byte_length();
  EXPECT_EQ(weight_bytes, graph_bytes);  // every filter once, none duplicated
}

}  // namespace
}  // namespace webnn::formats
