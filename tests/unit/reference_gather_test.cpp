// gather, gatherElements, gatherND, scatterElements and scatterND on the reference backend, for
// every data type and every index type. Expected values are numpy source-index maps over arange
// inputs (reference_movement_util.hpp): the spec's examples, negative indices, and out-of-range
// indices, which select norm(i, n) = clamp(i, -n, n - 1) (+ n when negative), computed in Python as
//   def norm(i, n): i = min(max(i, -n), n - 1); return i + n if i < 0 else i
// then np.take(a, norm(idx), axis) / np.take_along_axis / a loop for gatherND; the scatters are a
// Python loop over the indices in row-major order writing 1000 + k for update k (so the last of
// duplicate indices wins).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "reference_graph_util.hpp"
#include "reference_movement_util.hpp"

namespace webnn::test {
namespace {

constexpr int64_t kI64Min = INT64_MIN;
constexpr int64_t kI64Max = INT64_MAX;

struct GatherCase {
  Shape in;
  Shape indices_shape;
  std::vector<int64_t> indices;
  uint32_t axis;
  Shape out;
  std::vector<int64_t> map;
};

// Runs each case for every data type and every index type that holds its indices.
void run_gather_cases(OpKind kind, const std::vector<GatherCase>& cases) {
  for (size_t i = 0; i < cases.size(); ++i) {
    const GatherCase& c = cases[i];
    for (DataType t : kAllDataTypes)
      for (DataType it : kIndexTypes) {
        if (!fits(it, c.indices)) continue;
        SCOPED_TRACE(std::string(op_name(kind)) + " case " + std::to_string(i) + " " + std::string(to_string(t)) +
                     " indices " + std::string(to_string(it)));
        const TensorData in = patterned(t, c.in);
        Attributes attrs = GatherAttrs{c.axis};
        if (kind == OpKind::kGatherNd) attrs = NoAttrs{};
        const TensorData out = run_op(kind, {in, indices(it, c.indices_shape, c.indices)}, attrs, desc(t, c.out));
        expect_moved(out, {&in}, c.map);
      }
  }
}

TEST(ReferenceGather, EveryDataTypeAndIndexType) {
  run_gather_cases(
      OpKind::kGather,
      {
          // The spec's examples on arange(12).reshape(4, 3).
          {{4, 3}, {2}, {3, 1}, 0, {2, 3}, {9, 10, 11, 3, 4, 5}},
          {{4, 3}, {3}, {2, 1, 1}, 1, {4, 3}, {2, 1, 1, 5, 4, 4, 8, 7, 7, 11, 10, 10}},
          {{4, 3}, {2, 2}, {0, 1, 1, 2}, 1, {4, 2, 2}, {0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11}},
          // Negative indices along the middle axis.
          {{2, 3, 4}, {2, 2}, {-1, 0, 2, -3}, 1, {2, 2, 2, 4}, {8,  9,  10, 11, 0,  1,  2,  3,  8,  9,  10,
                                                                11, 0,  1,  2,  3,  20, 21, 22, 23, 12, 13,
                                                                14, 15, 20, 21, 22, 23, 12, 13, 14, 15}},
          // A scalar index drops the axis.
          {{2, 3, 4}, {}, {-1}, 2, {2, 3}, {3, 7, 11, 15, 19, 23}},
          {{5}, {}, {2}, 0, {}, {2}},
          // Out of range: 5 -> 1, -5 -> 0 (clamped to -2, then + 2), -3 -> 0.
          {{2, 3, 4}, {5}, {5, -5, 2, -3, 1}, 0, {5, 3, 4}, {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                                                             0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                                             12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                                                             0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                                             12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
          // The extremes of each index type.
          {{2, 3, 4},
           {6},
           {kI64Min, kI64Max, -4, 3, -(int64_t{1} << 32), int64_t{1} << 32},
           2,
           {2, 3, 6},
           {0,  3,  0,  3,  0,  3,  4,  7,  4,  7,  4,  7,  8,  11, 8,  11, 8,  11,
            12, 15, 12, 15, 12, 15, 16, 19, 16, 19, 16, 19, 20, 23, 20, 23, 20, 23}},
          {{2, 3, 4}, {3}, {4294967295, 2147483648, 2}, 1, {2, 3, 4}, {8,  9,  10, 11, 8,  9,  10, 11, 8,  9,  10, 11,
                                                                       20, 21, 22, 23, 20, 21, 22, 23, 20, 21, 22, 23}},
          {{2, 3, 4}, {3}, {INT32_MIN, INT32_MAX, -2}, 1, {2, 3, 4}, {0,  1,  2,  3,  8,  9,  10, 11, 4,  5,  6,  7,
                                                                      12, 13, 14, 15, 20, 21, 22, 23, 16, 17, 18, 19}},
      });
}

TEST(ReferenceGatherElements, EveryDataTypeAndIndexType) {
  run_gather_cases(OpKind::kGatherElements,
                   {
                       // The spec's examples.
                       {{4, 3}, {2, 3}, {3, 1, 1, 2, 0, 3}, 0, {2, 3}, {9, 4, 5, 6, 1, 11}},
                       {{4, 3}, {4, 1}, {2, 1, 0, 2}, 1, {4, 1}, {2, 4, 6, 11}},
                       {{4, 2, 2}, {1, 2, 2}, {0, 2, 1, 3}, 0, {1, 2, 2}, {0, 9, 6, 15}},
                       // More indices than the axis holds; negative and out-of-range ones.
                       {{4, 3},
                        {4, 5},
                        {-1, -3, 3, -4, 7, 0, 1, 2, -2, -1, 9, -9, 1, 1, 0, 2, 2, -1, 0, 5},
                        1,
                        {4, 5},
                        {2, 0, 2, 0, 2, 3, 4, 5, 4, 5, 8, 6, 7, 7, 6, 11, 11, 11, 9, 11}},
                       {{3}, {4}, {kI64Min, kI64Max, -1, int64_t{1} << 32}, 0, {4}, {0, 2, 2, 2}},
                       // uint32 values past the int32 range clamp to the end (by hand, as norm() gives).
                       {{3}, {3}, {4294967295, 0, 2147483648}, 0, {3}, {2, 0, 2}},
                   });
}

TEST(ReferenceGatherNd, EveryDataTypeAndIndexType) {
  run_gather_cases(OpKind::kGatherNd,
                   {
                       // The spec's examples.
                       {{2, 2}, {3, 2}, {0, 0, 1, 1, 1, 0}, 0, {3}, {0, 3, 2}},
                       {{2, 2}, {2, 1}, {1, 0}, 0, {2, 2}, {2, 3, 0, 1}},
                       {{2, 2, 2}, {2, 2}, {0, 1, 1, 0}, 0, {2, 2}, {2, 3, 4, 5}},
                       {{2, 2, 2}, {3, 1}, {1, 0, 1}, 0, {3, 2, 2}, {4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7}},
                       {{2, 2, 2}, {5, 3}, {0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1}, 0, {5}, {1, 2, 4, 6, 7}},
                       // Negative and out-of-range coordinates: [-1, 0] -> [1, 0], [5, -9] -> [1, 0].
                       {{2, 2, 2}, {2, 2}, {-1, 0, 5, -9}, 0, {2, 2}, {4, 5, 4, 5}},
                       // One full coordinate: a scalar output.
                       {{2, 3}, {2}, {1, -1}, 0, {}, {5}},
                       {{2, 3}, {1, 2}, {kI64Min, kI64Max}, 0, {1}, {2}},
                       {{2, 3}, {1, 2}, {4294967295, 2147483648}, 0, {1}, {5}},
                       {{5}, {2, 3, 1}, {4, -2, 0, -6, 7, 1}, 0, {2, 3}, {4, 3, 0, 0, 4, 1}},
                   });
}

struct ScatterCase {
  Shape in;
  Shape indices_shape;
  std::vector<int64_t> indices;
  Shape updates_shape;
  uint32_t axis;
  std::vector<int64_t> map;  // k: input element k; 1000 + k: update k
};

void run_scatter_cases(OpKind kind, const std::vector<ScatterCase>& cases) {
  for (size_t i = 0; i < cases.size(); ++i) {
    const ScatterCase& c = cases[i];
    for (DataType t : kAllDataTypes)
      for (DataType it : kIndexTypes) {
        if (!fits(it, c.indices)) continue;
        SCOPED_TRACE(std::string(op_name(kind)) + " case " + std::to_string(i) + " " + std::string(to_string(t)) +
                     " indices " + std::string(to_string(it)));
        const TensorData in = patterned(t, c.in);
        const TensorData updates = patterned(t, c.updates_shape, /*salt=*/128);
        Attributes attrs = ScatterAttrs{c.axis};
        if (kind == OpKind::kScatterNd) attrs = NoAttrs{};
        GraphMaker g;
        const OperandId x = g.input("x", in);
        const OperandId idx = g.input("i", indices(it, c.indices_shape, c.indices));
        const OperandId u = g.input("u", updates);
        g.output("y", g.op(kind, {x, idx, u}, attrs, desc(t, c.in)));
        // Twice: the second run starts again from the input, not from the first run's output.
        expect_moved(g.run(2).front(), {&in, &updates}, c.map);
      }
  }
}

TEST(ReferenceScatterElements, EveryDataTypeAndIndexType) {
  run_scatter_cases(
      OpKind::kScatterElements,
      {
          // The spec's examples.
          {{4, 3}, {2, 3}, {3, 1, 1, 2, 0, 3}, {2, 3}, 0, {0, 1004, 2, 3, 1001, 1002, 1003, 7, 8, 1000, 10, 1005}},
          {{4, 3}, {4, 1}, {2, 1, 0, 2}, {4, 1}, 1, {0, 1, 1000, 3, 1001, 5, 1002, 7, 8, 9, 10, 1003}},
          {{4, 2, 2},
           {1, 2, 2},
           {0, 2, 1, 3},
           {1, 2, 2},
           0,
           {1000, 1, 2, 3, 4, 5, 1002, 7, 8, 1001, 10, 11, 12, 13, 14, 1003}},
          // Duplicate indices: the last update in row-major order wins.
          {{5}, {4}, {1, 1, 3, 1}, {4}, 0, {0, 1003, 2, 1002, 4}},
          // Out of range: 7 -> 4, -9 -> 0; the later write to 4 wins.
          {{5}, {3}, {7, -9, 4}, {3}, 0, {1001, 1, 2, 3, 1002}},
          {{3, 4}, {3, 2}, {-1, 0, 1, -4, 9, -9}, {3, 2}, 1, {1001, 1, 2, 1000, 1003, 1002, 6, 7, 1005, 9, 10, 1004}},
          {{3}, {2}, {kI64Min, kI64Max}, {2}, 0, {1000, 1, 1001}},
          {{3}, {2}, {4294967295, 2147483648}, {2}, 0, {0, 1, 1001}},
      });
}

TEST(ReferenceScatterNd, EveryDataTypeAndIndexType) {
  run_scatter_cases(OpKind::kScatterNd,
                    {
                        // The spec's examples.
                        {{8}, {4, 1}, {4, 3, 1, 7}, {4}, 0, {0, 1002, 2, 1001, 1000, 5, 6, 1003}},
                        {{2, 2}, {2, 2}, {0, 0, 1, 1}, {2}, 0, {1000, 1, 2, 1001}},
                        {{3, 2}, {2, 1}, {2, 0}, {2, 2}, 0, {1002, 1003, 2, 3, 1000, 1001}},
                        {{2, 2, 2}, {2, 2}, {0, 1, 1, 0}, {2, 2}, 0, {0, 1, 1000, 1001, 1002, 1003, 6, 7}},
                        // Duplicates, of elements and of slices: the last wins.
                        {{4}, {3, 1}, {1, 1, 2}, {3}, 0, {0, 1001, 1002, 3}},
                        {{3, 2}, {2, 1}, {0, 0}, {2, 2}, 0, {1002, 1003, 2, 3, 4, 5}},
                        // Negative and out of range: [-1, -1] -> [1, 2], [5, -7] -> [1, 0].
                        {{2, 3}, {2, 2}, {-1, -1, 5, -7}, {2}, 0, {0, 1, 2, 1001, 4, 1000}},
                        // One full coordinate: a scalar update.
                        {{2, 3}, {2}, {1, 2}, {}, 0, {0, 1, 2, 3, 4, 1000}},
                        {{2, 3}, {2, 1}, {kI64Min, kI64Max}, {2, 3}, 0, {1000, 1001, 1002, 1003, 1004, 1005}},
                        {{2, 3}, {1, 1}, {4294967295}, {1, 3}, 0, {0, 1, 2, 1000, 1001, 1002}},
                    });
}

// Values that are not plain numbers come through bit for bit (gather and scatter are selections).
TEST(ReferenceGather, FloatBitsAreKept) {
  const std::vector<uint32_t> bits = {0x7fc01234u, 0xffa00001u, 0x80000000u, 0xff800000u};
  const TensorData out =
      run_op(OpKind::kGather, {tensor(DataType::kFloat32, {4}, bits), indices(DataType::kInt32, {3}, {-1, 2, 0})},
             GatherAttrs{}, desc(DataType::kFloat32, {3}));
  EXPECT_EQ(values<uint32_t>(out), (std::vector<uint32_t>{0xff800000u, 0x80000000u, 0x7fc01234u}));
  const TensorData h =
      run_op(OpKind::kScatterNd, {f16({3}, {1, 2, 3}), indices(DataType::kInt64, {1, 1}, {-2}), f16({1}, {-0.0f})},
             NoAttrs{}, desc(DataType::kFloat16, {3}));
  EXPECT_EQ(values<uint16_t>(h), (std::vector<uint16_t>{0x3c00, 0x8000, 0x4200}));
}

}  // namespace
}  // namespace webnn::test
