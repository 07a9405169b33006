// The spec's validation steps of the shape and movement operators: concat, expand, pad, reshape,
// reverse, slice, split, tile, transpose, triangular and where (#api-mlgraphbuilder-<op>).
import { defineOps, typeRows, dataTypes, kMaxTensorCount } from './validation_support.mjs';

const tables = {};
const one = (input, rest = [], t = 'f32') => (o) => [o(t, input), ...rest];

// ---- concat ----
tables.concat = [
  { step: 'output: the axis dimension is the sum of the inputs\' sizes', args: (o) => [[o('f32', [2, 3]), o('f32', [2, 4])], 1], expect: ['f32', [2, 7]] },
  ...typeRows('inputs: any data type', dataTypes, (t) => (o) => [[o(t, [2, 3]), o(t, [1, 3]), o(t, [3, 3])], 0], (t) => [t, [6, 3]]),
  { step: 'output: one input', args: (o) => [[o('f32', [2, 3])], 0], expect: ['f32', [2, 3]] },
  {
    step: 'output: the same operand may appear more than once',
    args: (o) => {
      const x = o('i32', [1, 2]);
      return [[x, x, x], 0];
    },
    expect: ['i32', [3, 2]],
  },
  { step: "If inputs's size is not a valid tensor count (empty), then throw a TypeError", args: () => [[], 0] },
  {
    step: "If inputs's size is not a valid tensor count (more than 8192), then throw a TypeError",
    args: (o) => {
      const x = o('f32', [1]);
      return [Array(kMaxTensorCount + 1).fill(x), 0];
    },
  },
  { step: "If axis is greater than or equal to first's rank, then throw a TypeError", args: (o) => [[o('f32', [2, 3]), o('f32', [2, 3])], 2] },
  { step: "If axis is greater than or equal to first's rank, then throw a TypeError", name: 'scalars', args: (o) => [[o('f32', []), o('f32', [])], 0] },
  { step: "If input's dataType is not equal to first's dataType, then throw a TypeError", args: (o) => [[o('f32', [2, 3]), o('f16', [2, 3])], 0] },
  { step: "If input's rank is not equal to first's rank, then throw a TypeError", args: (o) => [[o('f32', [2, 3]), o('f32', [2, 3, 1])], 0] },
  { step: "If dim is not equal to axis and input's shape[dim] is not equal to first's shape[dim], then throw a TypeError", args: (o) => [[o('f32', [2, 3]), o('f32', [2, 4])], 0] },
  {
    step: 'If size (the sum along axis) is not a valid dimension, then throw a TypeError',
    args: (o) => [[o('u8', [2 ** 30]), o('u8', [2 ** 30])], 0],
  },
  {
    step: 'If size (the sum along axis) is not a valid dimension, then throw a TypeError',
    name: 'three times 2^31 - 1 (exact arithmetic, no wrap-around)',
    args: (o) => {
      const x = o('u8', [2 ** 31 - 1]);
      return [[x, x, x], 0];
    },
  },
];

// ---- expand ----
tables.expand = [
  { step: "output: unidirectionally broadcasting input's shape and newShape", args: one([3, 1], [[2, 3, 4]]), expect: ['f32', [2, 3, 4]] },
  ...typeRows('input: any data type', dataTypes, (t) => one([1], [[2, 2]], t), (t) => [t, [2, 2]]),
  { step: 'output: a scalar expands to any shape', args: one([], [[2, 1, 3]]), expect: ['f32', [2, 1, 3]] },
  { step: 'output: the same shape', args: one([2, 3], [[2, 3]]), expect: ['f32', [2, 3]] },
  { step: 'If unidirectionally broadcasting returns failure (a dimension neither 1 nor equal), then throw a TypeError', args: one([2, 3], [[3, 3]]) },
  { step: 'If unidirectionally broadcasting returns failure (newShape of lower rank), then throw a TypeError', args: one([2, 3], [[3]]) },
  { step: 'If unidirectionally broadcasting returns failure (not bidirectional: newShape 1 against 3), then throw a TypeError', args: one([3], [[1]]) },
];

// ---- pad ----
tables.pad = [
  { step: 'output: beginning padding + input size + ending padding', args: one([2, 3], [[1, 2], [3, 4]]), expect: ['f32', [6, 9]] },
  ...typeRows('input: any data type', dataTypes, (t) => one([2], [[1], [1]], t), (t) => [t, [4]]),
  { step: 'output: "constant" mode allows padding larger than the dimension', args: one([2], [[5], [5]]), expect: ['f32', [12]] },
  { step: 'output: "edge" mode allows padding larger than the dimension', args: one([2], [[5], [5], { mode: 'edge' }]), expect: ['f32', [12]] },
  { step: 'output: "reflection" mode with padding below the dimension', args: one([3, 3], [[2, 0], [0, 2], { mode: 'reflection' }]), expect: ['f32', [5, 5]] },
  { step: 'output: a scalar with empty paddings', args: one([], [[], []]), expect: ['f32', []] },
  { step: 'output: options.value is cast to the data type (never fails)', args: one([2], [[1], [1], { value: 1e10 }], 'i8'), expect: ['i8', [4]] },
  { step: "If beginningPadding's size is not equal to input's rank, then throw a TypeError", args: one([2, 3], [[1], [1, 1]]) },
  { step: "If endingPadding's size is not equal to input's rank, then throw a TypeError", args: one([2, 3], [[1, 1], [1, 1, 1]]) },
  { step: 'If mode is "reflection" and beginningPadding[index] >= the dimension, then throw a TypeError', args: one([3, 3], [[3, 0], [0, 0], { mode: 'reflection' }]) },
  { step: 'If mode is "reflection" and endingPadding[index] >= the dimension, then throw a TypeError', args: one([3, 3], [[0, 0], [0, 3], { mode: 'reflection' }]) },
  { step: 'If any item in outputShape is not a valid dimension, then throw a TypeError', args: one([2 ** 30], [[2 ** 30], [2 ** 30]], 'u8') },
  { step: 'If any item in outputShape is not a valid dimension, then throw a TypeError', name: '(2^32 - 1) + 2 + 1 (exact arithmetic, no wrap-around)', args: one([2], [[4294967295], [1]]) },
];

// ---- reshape ----
tables.reshape = [
  { step: 'output: newShape', args: one([2, 3, 4], [[4, 6]]), expect: ['f32', [4, 6]] },
  ...typeRows('input: any data type', dataTypes, (t) => one([2, 3], [[6]], t), (t) => [t, [6]]),
  { step: 'output: to a scalar (newShape empty)', args: one([1, 1], [[]]), expect: ['f32', []] },
  { step: 'output: from a scalar', args: one([], [[1, 1, 1]]), expect: ['f32', [1, 1, 1]] },
  { step: 'If any item in newShape is not a valid dimension (0), then throw a TypeError', args: one([2, 3], [[0, 6]]) },
  { step: 'If any item in newShape is not a valid dimension (2^31), then throw a TypeError', args: one([2, 3], [[2 ** 31, 6]]) },
  { step: 'If the product of newShape is not equal to inputElementCount, then throw a TypeError', args: one([2, 3], [[7]]) },
  { step: 'If the product of newShape is not equal to inputElementCount, then throw a TypeError', name: 'scalar to [2]', args: one([], [[2]]) },
  { step: 'If the product of newShape is not equal to inputElementCount, then throw a TypeError', name: 'a product of 6 * 2^32', args: one([6], [[65536, 65536, 6]]) },
];

// ---- reverse ----
tables.reverse = [
  { step: 'output: copying an MLOperand given input (all axes by default)', args: one([2, 3]), expect: ['f32', [2, 3]] },
  ...typeRows('input: any data type', dataTypes, (t) => one([2, 3], [{ axes: [1] }], t), (t) => [t, [2, 3]]),
  { step: 'output: empty axes', args: one([2, 3], [{ axes: [] }]), expect: ['f32', [2, 3]] },
  { step: 'output: a scalar', args: one([]), expect: ['f32', []] },
  // The step says "return failure"; a method step that fails throws (the member: "The indices to the
  // input dimensions", each in [0, rank)).
  { step: 'Otherwise, if axes contains duplicate values, then fail (TypeError)', args: one([2, 3], [{ axes: [0, 0] }]) },
  { step: 'Otherwise, if any of axes is not in the range 0 to inputRank, exclusive, then fail (TypeError)', args: one([2, 3], [{ axes: [2] }]) },
];

// ---- slice ----
tables.slice = [
  { step: 'output: sizes', args: one([4, 5], [[1, 2], [2, 3]]), expect: ['f32', [2, 3]] },
  ...typeRows('input: any data type', dataTypes, (t) => one([4], [[1], [3]], t), (t) => [t, [3]]),
  { step: 'output: floor(size / stride) + 1 when size % stride != 0', args: one([4, 5], [[0, 0], [3, 5], { strides: [2, 2] }]), expect: ['f32', [2, 3]] },
  { step: 'output: size / stride when it divides', args: one([4, 6], [[0, 0], [4, 6], { strides: [2, 3] }]), expect: ['f32', [2, 2]] },
  { step: 'output: a whole dimension (starts + sizes == input size)', args: one([4, 5], [[3, 0], [1, 5]]), expect: ['f32', [1, 5]] },
  { step: 'output: a scalar with empty starts and sizes', args: one([], [[], []]), expect: ['f32', []] },
  { step: "If any of sizes's items are 0, then throw a TypeError", args: one([4, 5], [[0, 0], [0, 5]]) },
  { step: "If starts's size is not equal to input's rank, then throw a TypeError", args: one([4, 5], [[0], [1, 1]]) },
  { step: "If sizes's size is not equal to input's rank, then throw a TypeError", args: one([4, 5], [[0, 0], [1, 1, 1]]) },
  { step: "If strides's size is not equal to input's rank, then throw a TypeError", args: one([4, 5], [[0, 0], [1, 1], { strides: [1] }]) },
  { step: 'If stride is less than 1, then throw a TypeError', args: one([4, 5], [[0, 0], [1, 1], { strides: [1, 0] }]) },
  { step: 'If starts[index] is greater than inputSize, then throw a TypeError', args: one([4, 5], [[5, 0], [1, 1]]) },
  { step: 'If starts[index] + inputSliceSize is greater than inputSize, then throw a TypeError', args: one([4, 5], [[2, 0], [3, 1]]) },
  { step: 'If starts[index] + inputSliceSize is greater than inputSize, then throw a TypeError', name: 'start at the end', args: one([4, 5], [[0, 5], [1, 1]]) },
  { step: 'If starts[index] + inputSliceSize is greater than inputSize, then throw a TypeError', name: '3 + (2^32 - 1) (exact arithmetic, no wrap-around)', args: one([4], [[3], [4294967295]]) },
];

// ---- split ----
tables.split = [
  { step: 'output: splits equal parts along axis 0 (default)', args: one([6, 4], [3]), expect: [['f32', [2, 4]], ['f32', [2, 4]], ['f32', [2, 4]]] },
  ...typeRows('input: any data type', dataTypes, (t) => one([6], [2], t), (t) => [[t, [3]], [t, [3]]]),
  { step: 'output: splits sizes along the axis', args: one([6, 4], [[1, 2, 3]]), expect: [['f32', [1, 4]], ['f32', [2, 4]], ['f32', [3, 4]]] },
  { step: 'output: options.axis', args: one([6, 4], [2, { axis: 1 }]), expect: [['f32', [6, 2]], ['f32', [6, 2]]] },
  { step: 'output: one split', args: one([6, 4], [1]), expect: [['f32', [6, 4]]] },
  { step: 'output: a one-item sequence', args: one([6, 4], [[4], { axis: 1 }]), expect: [['f32', [6, 4]]] },
  { step: "If axis is greater than or equal to input's rank, then throw a TypeError", args: one([6, 4], [2, { axis: 2 }]) },
  { step: "If axis is greater than or equal to input's rank, then throw a TypeError", name: 'scalar input', args: one([], [1]) },
  { step: 'If splits (unsigned long) is not a valid tensor count (0), then throw a TypeError', args: one([6, 4], [0]) },
  { step: 'If splits (unsigned long) is not a valid tensor count (8193), then throw a TypeError', args: one([8193 * 8], [8193]) },
  { step: "If input's shape[axis] % splits is not 0, then throw a TypeError", args: one([6, 4], [4]) },
  { step: 'If splits (sequence) size is not a valid tensor count (empty), then throw a TypeError', args: one([6, 4], [[]]) },
  { step: 'If splits (sequence) size is not a valid tensor count (8193 items), then throw a TypeError', args: one([8193], [Array(8193).fill(1)]) },
  { step: 'If any of splits\'s items is equal to 0, then throw a TypeError', args: one([6, 4], [[0, 6]]) },
  { step: "If the sum of splits's items is not equal to input's shape[axis], then throw a TypeError", args: one([6, 4], [[2, 3]]) },
  { step: "If the sum of splits's items is not equal to input's shape[axis], then throw a TypeError", name: 'more than the dimension', args: one([6, 4], [[2, 3], { axis: 1 }]) },
  { step: "If the sum of splits's items is not equal to input's shape[axis], then throw a TypeError", name: '(2^32 - 1) + 7 (exact arithmetic, no wrap-around)', args: one([6], [[4294967295, 7]]) },
];

// ---- tile ----
tables.tile = [
  { step: 'output: shape[index] * repetitions[index]', args: one([2, 3], [[2, 3]]), expect: ['f32', [4, 9]] },
  ...typeRows('input: any data type', dataTypes, (t) => one([2], [[3]], t), (t) => [t, [6]]),
  { step: 'output: a scalar with empty repetitions', args: one([], [[]]), expect: ['f32', []] },
  { step: "If repetitions's size is not equal to input's rank, then throw a TypeError", args: one([2, 3], [[2]]) },
  { step: "If repetitions's values contain 0's, then throw a TypeError", args: one([2, 3], [[1, 0]]) },
];

// ---- transpose ----
// The output shape is the input's permuted by options.permutation ("The values used to permute the
// output shape"; the default [N-1, ..., 0] gives "a transposed tensor of the input").
tables.transpose = [
  { step: 'output: the default permutation reverses the dimensions', args: one([2, 3, 4]), expect: ['f32', [4, 3, 2]] },
  ...typeRows('input: any data type', dataTypes, (t) => one([2, 3], [{ permutation: [1, 0] }], t), (t) => [t, [3, 2]]),
  { step: 'output: shape[index] = input shape[permutation[index]]', args: one([2, 3, 4], [{ permutation: [1, 2, 0] }]), expect: ['f32', [3, 4, 2]] },
  { step: 'output: the identity permutation', args: one([2, 3], [{ permutation: [0, 1] }]), expect: ['f32', [2, 3]] },
  { step: 'output: a scalar', args: one([]), expect: ['f32', []] },
  { step: "If options.permutation's size is not equal to input's rank, then throw a TypeError", args: one([2, 3, 4], [{ permutation: [1, 0] }]) },
  { step: "If options.permutation's items are not in the range 0 to input's rank exclusive, then throw a TypeError", args: one([2, 3], [{ permutation: [0, 2] }]) },
  { step: 'If options.permutation contains duplicate values, then throw a TypeError', args: one([2, 3, 4], [{ permutation: [0, 1, 1] }]) },
];

// ---- triangular ----
tables.triangular = [
  { step: 'output: copying an MLOperand given input', args: one([3, 4]), expect: ['f32', [3, 4]] },
  ...typeRows('input: any data type', dataTypes, (t) => one([3, 4], [{ upper: false, diagonal: -1 }], t), (t) => [t, [3, 4]]),
  { step: 'output: a batch of matrices', args: one([2, 3, 4], [{ diagonal: 2 }]), expect: ['f32', [2, 3, 4]] },
  { step: "If input's rank is not one of its allowed ranks (2 to N), then throw a TypeError", args: one([4]) },
  { step: "If input's rank is not one of its allowed ranks (2 to N), then throw a TypeError", name: 'scalar', args: one([]) },
];

// ---- where ----
const where = (c, t, f, types = ['u8', 'f32', 'f32']) => (o) => [o(types[0], c), o(types[1], t), o(types[2], f)];
tables.where = [
  { step: 'output: trueValue\'s dataType; the three shapes broadcast', args: where([2, 1, 3], [4, 1], [3]), expect: ['f32', [2, 4, 3]] },
  ...typeRows('trueValue: any data type; falseValue: same as trueValue', dataTypes, (t) => where([2, 3], [2, 3], [3], ['u8', t, t]), (t) => [t, [2, 3]]),
  ...typeRows(
    "If condition's dataType is not one of its allowed data types (uint8), then throw a TypeError",
    ['u8'],
    (t) => where([2, 3], [2, 3], [2, 3], [t, 'f32', 'f32']),
    () => ['f32', [2, 3]],
  ),
  { step: 'output: a scalar condition', args: where([], [2, 3], [2, 3]), expect: ['f32', [2, 3]] },
  { step: 'output: the condition may have the larger rank', args: where([5, 2, 3], [3], []), expect: ['f32', [5, 2, 3]] },
  { step: "If falseValue's dataType is not one of its allowed data types (same as trueValue), then throw a TypeError", args: where([2], [2], [2], ['u8', 'f32', 'f16']) },
  { step: 'If bidirectionally broadcasting trueValue and falseValue returns failure, then throw a TypeError', args: where([2, 3], [2, 3], [3, 2]) },
  { step: 'If bidirectionally broadcasting condition and that shape returns failure, then throw a TypeError', args: where([4], [2, 3], [2, 3]) },
];

defineOps(tables);
