// The spec's validation steps of the reduction operations (#mlgraphbuilder-create-reduction-operation
// and "calculate reduction output sizes"), argMin/argMax (#mlgraphbuilder-argminmax-op),
// cumulativeSum (#api-mlgraphbuilder-cumulativesum) and softmax (#api-mlgraphbuilder-softmax-method).
import { defineOps, typeRows, dataTypes } from './validation_support.mjs';

const tables = {};

// ---- reduce* ----
const reduce = (input, options, t = 'f32') => (o) => [o(t, input), ...(options ? [options] : [])];
const reductionAllowed = {
  reduceL1: ['f32', 'f16', 'i32', 'u32', 'i64', 'u64'],
  reduceL2: ['f32', 'f16'],
  reduceLogSum: ['f32', 'f16'],
  reduceLogSumExp: ['f32', 'f16'],
  reduceMax: dataTypes,
  reduceMean: ['f32', 'f16'],
  reduceMin: dataTypes,
  reduceProduct: ['f32', 'f16', 'i32', 'u32', 'i64', 'u64'],
  reduceSum: ['f32', 'f16', 'i32', 'u32', 'i64', 'u64'],
  reduceSumSquare: ['f32', 'f16', 'i32', 'u32', 'i64', 'u64'],
};
for (const [op, allowed] of Object.entries(reductionAllowed)) {
  tables[op] = [
    { step: 'output: without axes every dimension is reduced', args: reduce([2, 3, 4]), expect: ['f32', []] },
    ...typeRows(
      op === 'reduceMax' || op === 'reduceMin'
        ? `${op}: no allowedDataTypes (any data type)`
        : "If allowedDataTypes is given and it does not contain input's dataType, then throw a TypeError",
      allowed,
      (t) => reduce([2, 3], { axes: [1] }, t),
      (t) => [t, [2]],
    ),
    { step: 'output: keepDimensions sets every reduced dimension to 1', args: reduce([2, 3, 4], { keepDimensions: true }), expect: ['f32', [1, 1, 1]] },
    { step: 'output: axes [1] removed', args: reduce([2, 3, 4], { axes: [1] }), expect: ['f32', [2, 4]] },
    { step: 'output: axes [2, 0] with keepDimensions', args: reduce([2, 3, 4], { axes: [2, 0], keepDimensions: true }), expect: ['f32', [1, 3, 1]] },
    { step: 'output: empty axes reduce nothing', args: reduce([2, 3, 4], { axes: [] }), expect: ['f32', [2, 3, 4]] },
    { step: 'output: a scalar input gives a scalar', args: reduce([]), expect: ['f32', []] },
    { step: 'output: a scalar input with keepDimensions gives a scalar', args: reduce([], { keepDimensions: true }), expect: ['f32', []] },
    { step: 'If calculating reduction output sizes returns failure (axes contains duplicate values), then throw a TypeError', args: reduce([2, 3, 4], { axes: [1, 1] }) },
    { step: 'If calculating reduction output sizes returns failure (an axis not in the range 0 to rank, exclusive), then throw a TypeError', args: reduce([2, 3, 4], { axes: [0, 3] }) },
    { step: 'If calculating reduction output sizes returns failure (an axis of a scalar), then throw a TypeError', args: reduce([], { axes: [0] }) },
  ];
}

// ---- argMin, argMax ----
const arg = (input, axis, options, t = 'f32') => (o) => [o(t, input), axis, ...(options ? [options] : [])];
for (const op of ['argMin', 'argMax']) {
  tables[op] = [
    { step: 'output: outputDataType defaults to "int32"; the axis is removed', args: arg([2, 3, 4], 1), expect: ['i32', [2, 4]] },
    ...typeRows('input: any data type', dataTypes, (t) => arg([2, 3], 0, undefined, t), () => ['i32', [3]]),
    ...typeRows(
      "If options.outputDataType is not the output tensor's allowed data types, then throw a TypeError",
      ['i32', 'i64'],
      (t) => arg([2, 3], 1, { outputDataType: t }),
      (t) => [t, [2]],
    ),
    { step: 'output: keepDimensions keeps the axis with size 1', args: arg([2, 3, 4], 2, { keepDimensions: true }), expect: ['i32', [2, 3, 1]] },
    { step: 'output: a 1-D input gives a scalar', args: arg([5], 0), expect: ['i32', []] },
    { step: "If axis is greater than or equal to input's rank, then throw a TypeError", args: arg([2, 3], 2) },
    { step: "If axis is greater than or equal to input's rank, then throw a TypeError", name: 'scalar input', args: arg([], 0) },
  ];
}

// ---- cumulativeSum ----
tables.cumulativeSum = [
  { step: 'output: copying an MLOperand given input', args: arg([2, 3], 1), expect: ['f32', [2, 3]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16', 'i32', 'u32', 'i64', 'u64'],
    (t) => arg([4], 0, undefined, t),
    (t) => [t, [4]],
  ),
  { step: 'output: exclusive and reversed do not change the shape', args: arg([2, 3, 4], 0, { exclusive: true, reversed: true }), expect: ['f32', [2, 3, 4]] },
  { step: "If axis is greater than or equal to input's rank, then throw a TypeError", args: arg([2, 3], 2) },
  { step: "If axis is greater than or equal to input's rank, then throw a TypeError", name: 'scalar input', args: arg([], 0) },
  { step: "If axis is greater than or equal to input's rank, then throw a TypeError", name: 'axis -1 (unsigned long without [EnforceRange]: 2^32 - 1)', args: arg([2, 3], -1) },
];

// ---- softmax ----
tables.softmax = [
  { step: 'output: copying an MLOperand given input', args: arg([2, 3], 1), expect: ['f32', [2, 3]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => arg([2, 3], 0, undefined, t),
    (t) => [t, [2, 3]],
  ),
  { step: 'output: any axis below the rank', args: arg([2, 3, 4, 5], 0), expect: ['f32', [2, 3, 4, 5]] },
  { step: "If axis is greater than or equal to input's rank, then throw a TypeError", args: arg([2, 3], 2) },
  { step: "If axis is greater than or equal to input's rank, then throw a TypeError", name: 'scalar input', args: arg([], 0) },
];

defineOps(tables);
