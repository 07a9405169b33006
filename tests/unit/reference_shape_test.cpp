// reshape, transpose, concat, split, slice, expand, pad, reverse, tile and triangular on the
// reference backend; expected values by hand (numpy agrees: transpose(arange(24).reshape(2,3,4),
// (1,2,0)), x[1:3:2, ::2], ...) or, for the newer ops, as numpy source-index maps over every data
// type (reference_movement_util.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "reference_graph_util.hpp"
#include "reference_movement_util.hpp"

namespace webnn::test {
namespace {

std::vector<int64_t> iota64(int n, int64_t base = 0) {
  std::vector<int64_t> v(n);
  for (int i = 0; i < n; ++i) v[i] = base + i;
  return v;
}

TEST(ReferenceReshape, KeepsBytesAndHandlesScalars) {
  ReshapeAttrs attrs;
  attrs.new_shape = {3, 2};
  const TensorData out =
      run_op(OpKind::kReshape, {f32({2, 3}, {1, 2, 3, 4, 5, 6})}, attrs, desc(DataType::kFloat32, {3, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  attrs.new_shape = {};
  const TensorData s =
      run_op(OpKind::kReshape, {tensor<uint8_t>(DataType::kUint8, {1, 1}, {200})}, attrs, desc(DataType::kUint8, {}));
  EXPECT_EQ(values<uint8_t>(s), (std::vector<uint8_t>{200}));
}

TEST(ReferenceTranspose, DefaultReversesAxes) {
  const TensorData out =
      run_op(OpKind::kTranspose, {f32({2, 3}, {1, 2, 3, 4, 5, 6})}, TransposeAttrs{}, desc(DataType::kFloat32, {3, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(ReferenceTranspose, PermutationOnInt64) {
  // x = arange(24).reshape(2, 3, 4) + 2^53, permutation (1, 2, 0): y[j][k][i] = x[i][j][k].
  const int64_t base = int64_t{1} << 53;
  TransposeAttrs attrs;
  attrs.permutation = std::vector<uint32_t>{1, 2, 0};
  const TensorData out = run_op(OpKind::kTranspose, {tensor(DataType::kInt64, {2, 3, 4}, iota64(24, base))}, attrs,
                                desc(DataType::kInt64, {3, 4, 2}));
  std::vector<int64_t> expected;
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 2; ++i) expected.push_back(base + i * 12 + j * 4 + k);
  EXPECT_EQ(values<int64_t>(out), expected);
  // float16 and a scalar.
  const TensorData h =
      run_op(OpKind::kTranspose, {f16({1, 2}, {0.5f, -2})}, TransposeAttrs{}, desc(DataType::kFloat16, {2, 1}));
  EXPECT_EQ(half_values(h), (std::vector<float>{0.5f, -2}));
  const TensorData s = run_op(OpKind::kTranspose, {f32({}, {3})}, TransposeAttrs{}, desc(DataType::kFloat32, {}));
  EXPECT_EQ(values<float>(s), (std::vector<float>{3}));
}

TEST(ReferenceConcat, AlongMiddleAxis) {
  GraphMaker g;
  const OperandId a = g.input("a", tensor<int32_t>(DataType::kInt32, {2, 1, 2}, {1, 2, 3, 4}));
  const OperandId b = g.constant(tensor<int32_t>(DataType::kInt32, {2, 2, 2}, {10, 11, 12, 13, 14, 15, 16, 17}));
  ConcatAttrs attrs;
  attrs.axis = 1;
  g.output("y", g.op(OpKind::kConcat, {a, b, a}, attrs, desc(DataType::kInt32, {2, 4, 2})));
  EXPECT_EQ(values<int32_t>(g.run().front()),
            (std::vector<int32_t>{1, 2, 10, 11, 12, 13, 1, 2, 3, 4, 14, 15, 16, 17, 3, 4}));
}

TEST(ReferenceConcat, Float16AlongFirstAxis) {
  GraphMaker g;
  const OperandId a = g.input("a", f16({1, 2}, {1, 2}));
  const OperandId b = g.input("b", f16({2, 2}, {3, 4, 5, 6}));
  g.output("y", g.op(OpKind::kConcat, {a, b}, ConcatAttrs{}, desc(DataType::kFloat16, {3, 2})));
  EXPECT_EQ(half_values(g.run().front()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(ReferenceSplit, EqualPartsAndSizes) {
  // [2, 6] split into 3 along axis 1.
  GraphMaker g;
  const OperandId x = g.input("x", f32({2, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  SplitAttrs attrs;
  attrs.splits = uint32_t{3};
  attrs.axis = 1;
  const auto outs =
      g.op_n(OpKind::kSplit, {x}, attrs,
             {desc(DataType::kFloat32, {2, 2}), desc(DataType::kFloat32, {2, 2}), desc(DataType::kFloat32, {2, 2})});
  g.output("a", outs[0]);
  g.output("b", outs[1]);
  g.output("c", outs[2]);
  const auto r = g.run();
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{0, 1, 6, 7}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{2, 3, 8, 9}));
  EXPECT_EQ(values<float>(r[2]), (std::vector<float>{4, 5, 10, 11}));

  // Sizes [1, 3] along axis 0 of a [4, 2] uint64 tensor; only the second part is an output.
  GraphMaker h;
  const OperandId y = h.input("y", tensor<uint64_t>(DataType::kUint64, {4, 2}, {1, 2, 3, 4, 5, 6, 7, UINT64_MAX}));
  SplitAttrs sizes;
  sizes.splits = std::vector<uint32_t>{1, 3};
  const auto parts =
      h.op_n(OpKind::kSplit, {y}, sizes, {desc(DataType::kUint64, {1, 2}), desc(DataType::kUint64, {3, 2})});
  h.output("second", parts[1]);
  EXPECT_EQ(values<uint64_t>(h.run().front()), (std::vector<uint64_t>{3, 4, 5, 6, 7, UINT64_MAX}));
}

TEST(ReferenceSlice, StartsSizesAndStrides) {
  // x = arange(12).reshape(3, 4); x[1:3, 0:3] and x[0:3:2, 1:4:2]
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[i] = float(i);
  SliceAttrs attrs;
  attrs.starts = {1, 0};
  attrs.sizes = {2, 3};
  TensorData out = run_op(OpKind::kSlice, {f32({3, 4}, x)}, attrs, desc(DataType::kFloat32, {2, 3}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{4, 5, 6, 8, 9, 10}));
  attrs.starts = {0, 1};
  attrs.sizes = {3, 3};
  attrs.strides = std::vector<uint32_t>{2, 2};
  out = run_op(OpKind::kSlice, {f32({3, 4}, x)}, attrs, desc(DataType::kFloat32, {2, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{1, 3, 9, 11}));
  // int8 1-D
  SliceAttrs one;
  one.starts = {2};
  one.sizes = {2};
  const TensorData i8 = run_op(OpKind::kSlice, {tensor<int8_t>(DataType::kInt8, {5}, {-1, -2, -3, -4, -5})}, one,
                               desc(DataType::kInt8, {2}));
  EXPECT_EQ(values<int8_t>(i8), (std::vector<int8_t>{-3, -4}));
}

// Every data type goes through the same byte moves; run each case on each type.
template <class Case, class Run>
void for_each_type_and_case(const std::vector<Case>& cases, Run&& run) {
  for (DataType t : kAllDataTypes)
    for (size_t i = 0; i < cases.size(); ++i) {
      SCOPED_TRACE(std::string(to_string(t)) + " case " + std::to_string(i));
      run(t, cases[i]);
    }
}

struct ExpandCase {
  Shape in, out;
  std::vector<int64_t> map;
};

TEST(ReferenceExpand, EveryDataTypeAndRank) {
  // map = np.broadcast_to(np.arange(n).reshape(in), out).ravel()
  const std::vector<ExpandCase> cases = {
      {{2, 1}, {2, 3}, {0, 0, 0, 1, 1, 1}},
      {{3, 1}, {2, 3, 4}, {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}},
      {{}, {2, 2}, {0, 0, 0, 0}},
      {{1, 2, 1}, {1, 2, 1}, {0, 1}},
      {{}, {}, {0}},
  };
  for_each_type_and_case(cases, [](DataType t, const ExpandCase& c) {
    const TensorData in = patterned(t, c.in);
    expect_moved(run_op(OpKind::kExpand, {in}, ExpandAttrs{c.out}, desc(t, c.out)), {&in}, c.map);
  });
}

struct PadCase {
  Shape in;
  std::vector<uint32_t> begin, end;
  PaddingMode mode;
  Shape out;
  std::vector<int64_t> map;  // -1: the constant
};

TEST(ReferencePad, EveryModeDataTypeAndRank) {
  // map = np.pad(np.arange(n).reshape(in), list(zip(begin, end)), mode) with mode "constant"
  // (constant_values=-1), "edge" or "reflect" (the spec's "reflection": mirror without repeating
  // the edge element). The first three are the spec's example on arange(6).
  const std::vector<PadCase> cases = {
      {{2, 3}, {1, 2}, {1, 2}, PaddingMode::kConstant, {4, 7}, {-1, -1, -1, -1, -1, -1, -1, -1, -1, 0,
                                                                1,  2,  -1, -1, -1, -1, 3,  4,  5,  -1,
                                                                -1, -1, -1, -1, -1, -1, -1, -1}},
      {{2, 3}, {1, 2}, {1, 2}, PaddingMode::kEdge, {4, 7}, {0, 0, 0, 1, 2, 2, 2, 0, 0, 0, 1, 2, 2, 2,
                                                            3, 3, 3, 4, 5, 5, 5, 3, 3, 3, 4, 5, 5, 5}},
      {{2, 3}, {1, 2}, {1, 2}, PaddingMode::kReflection, {4, 7}, {5, 4, 3, 4, 5, 4, 3, 2, 1, 0, 1, 2, 1, 0,
                                                                  5, 4, 3, 4, 5, 4, 3, 2, 1, 0, 1, 2, 1, 0}},
      {{2, 3, 2}, {0, 1, 1}, {1, 0, 1}, PaddingMode::kConstant, {3, 4, 4}, {-1, -1, -1, -1, -1, 0,  1,  -1, -1, 2,
                                                                            3,  -1, -1, 4,  5,  -1, -1, -1, -1, -1,
                                                                            -1, 6,  7,  -1, -1, 8,  9,  -1, -1, 10,
                                                                            11, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                                            -1, -1, -1, -1, -1, -1, -1, -1}},
      {{2, 3, 2}, {0, 1, 1}, {1, 0, 1}, PaddingMode::kEdge, {3, 4, 4}, {0, 0, 1, 1, 0,  0,  1,  1,  2,  2,  3,  3,
                                                                        4, 4, 5, 5, 6,  6,  7,  7,  6,  6,  7,  7,
                                                                        8, 8, 9, 9, 10, 10, 11, 11, 6,  6,  7,  7,
                                                                        6, 6, 7, 7, 8,  8,  9,  9,  10, 10, 11, 11}},
      {{2, 3, 2}, {0, 1, 1}, {1, 0, 1}, PaddingMode::kReflection, {3, 4, 4}, {3, 2, 3, 2, 1,  0,  1,  0,  3, 2, 3, 2,
                                                                              5, 4, 5, 4, 9,  8,  9,  8,  7, 6, 7, 6,
                                                                              9, 8, 9, 8, 11, 10, 11, 10, 3, 2, 3, 2,
                                                                              1, 0, 1, 0, 3,  2,  3,  2,  5, 4, 5, 4}},
      // A size-1 dimension: edge repeats its element, constant surrounds it.
      {{1}, {3}, {2}, PaddingMode::kEdge, {6}, {0, 0, 0, 0, 0, 0}},
      {{1}, {3}, {2}, PaddingMode::kConstant, {6}, {-1, -1, -1, 0, -1, -1}},
      // The largest reflection (size - 1 on each side) and the same with edge.
      {{4}, {3}, {3}, PaddingMode::kReflection, {10}, {3, 2, 1, 0, 1, 2, 3, 2, 1, 0}},
      {{4}, {3}, {3}, PaddingMode::kEdge, {10}, {0, 0, 0, 0, 1, 2, 3, 3, 3, 3}},
      // No padding, and a scalar (nothing to pad) in every mode.
      {{2, 2}, {0, 0}, {0, 0}, PaddingMode::kReflection, {2, 2}, {0, 1, 2, 3}},
      {{}, {}, {}, PaddingMode::kConstant, {}, {0}},
      {{}, {}, {}, PaddingMode::kEdge, {}, {0}},
      {{}, {}, {}, PaddingMode::kReflection, {}, {0}},
  };
  for_each_type_and_case(cases, [](DataType t, const PadCase& c) {
    const TensorData in = patterned(t, c.in);
    // value 0 casts to all-zero bytes in every type: expect_moved's default fill.
    const TensorData out = run_op(OpKind::kPad, {in}, PadAttrs{c.begin, c.end, c.mode, 0.0}, desc(t, c.out));
    expect_moved(out, {&in}, c.map);
  });
}

// The value is cast to the input type as the spec's "cast" says (ConvertToFloat / ConvertToInt:
// round to nearest even, clamp integers to the range, NaN to 0); expected values by hand.
TEST(ReferencePad, ValueIsCastToTheInputType) {
  auto pad1 = [](TensorData in, Number value) {
    const DataType t = in.desc.data_type;
    return run_op(OpKind::kPad, {std::move(in)}, PadAttrs{{1}, {1}, PaddingMode::kConstant, value}, desc(t, {3}));
  };
  EXPECT_EQ(values<float>(pad1(f32({1}, {7}), 2.5)), (std::vector<float>{2.5f, 7, 2.5f}));
  const auto inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(values<float>(pad1(f32({1}, {7}), -inf)), (std::vector<float>{-INFINITY, 7, -INFINITY}));
  EXPECT_EQ(values<float>(pad1(f32({1}, {7}), 1e300)), (std::vector<float>{INFINITY, 7, INFINITY}));
  const std::vector<float> nan_out = values<float>(pad1(f32({1}, {7}), std::nan("")));
  EXPECT_TRUE(std::isnan(nan_out[0]) && std::isnan(nan_out[2]));
  // float16: 0.1 rounds to 0x2e66 (numpy: np.float16(0.1)); 65520 and beyond overflow to +inf.
  EXPECT_EQ(values<uint16_t>(pad1(f16({1}, {1.5f}), 0.1)), (std::vector<uint16_t>{0x2e66, 0x3e00, 0x2e66}));
  EXPECT_EQ(values<uint16_t>(pad1(f16({1}, {1.5f}), 65520.0)), (std::vector<uint16_t>{0x7c00, 0x3e00, 0x7c00}));
  EXPECT_EQ(values<int32_t>(pad1(tensor<int32_t>(DataType::kInt32, {1}, {-1}), 2.5)), (std::vector<int32_t>{2, -1, 2}));
  EXPECT_EQ(values<int32_t>(pad1(tensor<int32_t>(DataType::kInt32, {1}, {-1}), -3.5)),
            (std::vector<int32_t>{-4, -1, -4}));
  EXPECT_EQ(values<int32_t>(pad1(tensor<int32_t>(DataType::kInt32, {1}, {-1}), std::nan(""))),
            (std::vector<int32_t>{0, -1, 0}));
  EXPECT_EQ(values<uint32_t>(pad1(tensor<uint32_t>(DataType::kUint32, {1}, {1}), 4294967295.0)),
            (std::vector<uint32_t>{4294967295u, 1, 4294967295u}));
  EXPECT_EQ(values<int8_t>(pad1(tensor<int8_t>(DataType::kInt8, {1}, {1}), 300.0)), (std::vector<int8_t>{127, 1, 127}));
  EXPECT_EQ(values<int8_t>(pad1(tensor<int8_t>(DataType::kInt8, {1}, {1}), -300.0)),
            (std::vector<int8_t>{-128, 1, -128}));
  EXPECT_EQ(values<uint8_t>(pad1(tensor<uint8_t>(DataType::kUint8, {1}, {1}), -5.0)), (std::vector<uint8_t>{0, 1, 0}));
  // 64-bit values beyond 2^53 stay exact.
  EXPECT_EQ(values<int64_t>(pad1(tensor<int64_t>(DataType::kInt64, {1}, {1}), Number::from_int64(INT64_MIN + 1))),
            (std::vector<int64_t>{INT64_MIN + 1, 1, INT64_MIN + 1}));
  EXPECT_EQ(values<uint64_t>(pad1(tensor<uint64_t>(DataType::kUint64, {1}, {1}), Number::from_uint64(UINT64_MAX - 2))),
            (std::vector<uint64_t>{UINT64_MAX - 2, 1, UINT64_MAX - 2}));
  EXPECT_EQ(values<uint64_t>(pad1(tensor<uint64_t>(DataType::kUint64, {1}, {1}), Number::from_int64(-1))),
            (std::vector<uint64_t>{0, 1, 0}));
  // edge and reflection ignore the value.
  const TensorData edge = run_op(OpKind::kPad, {f32({2}, {1, 2})}, PadAttrs{{1}, {1}, PaddingMode::kEdge, 9.0},
                                 desc(DataType::kFloat32, {4}));
  EXPECT_EQ(values<float>(edge), (std::vector<float>{1, 1, 2, 2}));
}

struct ReverseCase {
  OptionalDims axes;
  std::vector<int64_t> map;
};

TEST(ReferenceReverse, EveryDataTypeAndAxes) {
  // map = np.flip(np.arange(24).reshape(2, 3, 4), axes) (axes absent: every axis; empty: none).
  const std::vector<ReverseCase> cases = {
      {std::nullopt, {23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {std::vector<uint32_t>{}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
      {std::vector<uint32_t>{1},
       {8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15}},
      {std::vector<uint32_t>{0, 2},
       {15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}},
      {std::vector<uint32_t>{2, 0},
       {15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}},
  };
  for_each_type_and_case(cases, [](DataType t, const ReverseCase& c) {
    const TensorData in = patterned(t, {2, 3, 4});
    expect_moved(run_op(OpKind::kReverse, {in}, ReverseAttrs{c.axes}, desc(t, {2, 3, 4})), {&in}, c.map);
  });
  // A scalar: nothing to reverse.
  const TensorData s = patterned(DataType::kInt64, {});
  expect_moved(run_op(OpKind::kReverse, {s}, ReverseAttrs{}, desc(DataType::kInt64, {})), {&s}, {0});
}

struct TileCase {
  Shape in;
  std::vector<uint32_t> repetitions;
  Shape out;
  std::vector<int64_t> map;
};

TEST(ReferenceTile, EveryDataTypeAndRank) {
  // map = np.tile(np.arange(n).reshape(in), repetitions)
  const std::vector<TileCase> cases = {
      {{2, 3}, {2, 2}, {4, 6}, {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}},
      {{3}, {4}, {12}, {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}},
      {{2, 1, 2}, {1, 3, 2}, {2, 3, 4}, {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3}},
      {{2, 2}, {1, 1}, {2, 2}, {0, 1, 2, 3}},
      {{}, {}, {}, {0}},
  };
  for_each_type_and_case(cases, [](DataType t, const TileCase& c) {
    const TensorData in = patterned(t, c.in);
    expect_moved(run_op(OpKind::kTile, {in}, TileAttrs{c.repetitions}, desc(t, c.out)), {&in}, c.map);
  });
}

struct TriangularCase {
  Shape shape;
  bool upper;
  int32_t diagonal;
  std::vector<int64_t> map;  // -1: zero
};

TEST(ReferenceTriangular, EveryDataTypeAndDiagonal) {
  // map = np.triu(a, k) - 1 or np.tril(a, k) - 1 with a = np.arange(1, n + 1).reshape(shape):
  // -1 where the element is zeroed. The [3, 3] ones are the spec's examples.
  const std::vector<TriangularCase> cases = {
      {{3, 3}, true, 0, {0, 1, 2, -1, 4, 5, -1, -1, 8}},
      {{3, 3}, true, 1, {-1, 1, 2, -1, -1, 5, -1, -1, -1}},
      {{3, 3}, true, -1, {0, 1, 2, 3, 4, 5, -1, 7, 8}},
      {{3, 3}, false, 0, {0, -1, -1, 3, 4, -1, 6, 7, 8}},
      {{3, 3}, false, 1, {0, 1, -1, 3, 4, 5, 6, 7, 8}},
      {{3, 3}, false, -1, {-1, -1, -1, 3, -1, -1, 6, 7, -1}},
      {{3, 3}, true, 5, {-1, -1, -1, -1, -1, -1, -1, -1, -1}},
      {{3, 3}, true, -5, {0, 1, 2, 3, 4, 5, 6, 7, 8}},
      {{3, 3}, false, -5, {-1, -1, -1, -1, -1, -1, -1, -1, -1}},
      // A batch of two [3, 4] matrices.
      {{2, 3, 4}, true, 2, {-1, -1, 2,  3,  -1, -1, -1, 7,  -1, -1, -1, -1,
                            -1, -1, 14, 15, -1, -1, -1, 19, -1, -1, -1, -1}},
      {{2, 3, 4}, false, -1, {-1, -1, -1, -1, 4,  -1, -1, -1, 8,  9,  -1, -1,
                              -1, -1, -1, -1, 16, -1, -1, -1, 20, 21, -1, -1}},
      {{2, 3, 4}, false, 0, {0,  -1, -1, -1, 4,  5,  -1, -1, 8,  9,  10, -1,
                             12, -1, -1, -1, 16, 17, -1, -1, 20, 21, 22, -1}},
      // Tall matrices.
      {{4, 2}, true, -2, {0, 1, 2, 3, 4, 5, -1, 7}},
      {{4, 2}, false, -1, {-1, -1, 2, -1, 4, 5, 6, 7}},
      // The int32 extremes keep all or nothing.
      {{2, 2}, true, INT32_MIN, {0, 1, 2, 3}},
      {{2, 2}, true, INT32_MAX, {-1, -1, -1, -1}},
      {{2, 2}, false, INT32_MIN, {-1, -1, -1, -1}},
      {{2, 2}, false, INT32_MAX, {0, 1, 2, 3}},
  };
  for_each_type_and_case(cases, [](DataType t, const TriangularCase& c) {
    const TensorData in = patterned(t, c.shape);
    const TensorData out = run_op(OpKind::kTriangular, {in}, TriangularAttrs{c.upper, c.diagonal}, desc(t, c.shape));
    expect_moved(out, {&in}, c.map);
  });
}

// NaN payloads, -0 and infinities come through bit for bit.
TEST(ReferenceDataMovement, FloatBitsAreKept) {
  const std::vector<uint32_t> bits = {0x7fc01234u, 0xffa00001u, 0x80000000u, 0x7f800000u};
  const TensorData in = tensor(DataType::kFloat32, {2, 2}, bits);
  const OperandDescriptor d22 = desc(DataType::kFloat32, {2, 2});
  EXPECT_EQ(values<uint32_t>(run_op(OpKind::kReverse, {in}, ReverseAttrs{}, d22)),
            (std::vector<uint32_t>{0x7f800000u, 0x80000000u, 0xffa00001u, 0x7fc01234u}));
  EXPECT_EQ(values<uint32_t>(run_op(OpKind::kTriangular, {in}, TriangularAttrs{false, 0}, d22)),
            (std::vector<uint32_t>{0x7fc01234u, 0u, 0x80000000u, 0x7f800000u}));
  EXPECT_EQ(values<uint32_t>(run_op(OpKind::kTile, {in}, TileAttrs{{1, 2}}, desc(DataType::kFloat32, {2, 4}))),
            (std::vector<uint32_t>{0x7fc01234u, 0xffa00001u, 0x7fc01234u, 0xffa00001u, 0x80000000u, 0x7f800000u,
                                   0x80000000u, 0x7f800000u}));
  EXPECT_EQ(values<uint32_t>(run_op(OpKind::kPad, {in}, PadAttrs{{0, 1}, {0, 0}, PaddingMode::kEdge, 0.0},
                                    desc(DataType::kFloat32, {2, 3}))),
            (std::vector<uint32_t>{0x7fc01234u, 0x7fc01234u, 0xffa00001u, 0x80000000u, 0x80000000u, 0x7f800000u}));
  const TensorData col = tensor(DataType::kFloat32, {2, 1}, std::vector<uint32_t>{0xffa00001u, 0x80000000u});
  EXPECT_EQ(values<uint32_t>(run_op(OpKind::kExpand, {col}, ExpandAttrs{{2, 2}}, d22)),
            (std::vector<uint32_t>{0xffa00001u, 0xffa00001u, 0x80000000u, 0x80000000u}));
  // float16 values, and int64 beyond 2^53.
  const TensorData h =
      run_op(OpKind::kReverse, {f16({3}, {0.1f, -65504, 1.5f})}, ReverseAttrs{}, desc(DataType::kFloat16, {3}));
  EXPECT_EQ(values<uint16_t>(h), (std::vector<uint16_t>{0x3e00, 0xfbff, 0x2e66}));
  const TensorData big = run_op(OpKind::kTile, {tensor<int64_t>(DataType::kInt64, {2}, {INT64_MIN, INT64_MAX - 1})},
                                TileAttrs{{2}}, desc(DataType::kInt64, {4}));
  EXPECT_EQ(values<int64_t>(big), (std::vector<int64_t>{INT64_MIN, INT64_MAX - 1, INT64_MIN, INT64_MAX - 1}));
}

}  // namespace
}  // namespace webnn::test
