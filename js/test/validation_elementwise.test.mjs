// The spec's validation steps of the element-wise operators: binary (#api-mlgraphbuilder-binary),
// logical (#api-mlgraphbuilder-logical), unary (#api-mlgraphbuilder-unary), the activations
// (elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear, relu, sigmoid, softplus, softsign, tanh),
// clamp, cast and prelu. Each op's table: its spec steps that can fail, its tensor-limits table
// swept over every data type, and output descriptors from its shape-inference steps.
import { defineOps, typeRows, dataTypes } from './validation_support.mjs';

const tables = {};

// ---- Element-wise binary: add, sub, mul, div, max, min, pow ----
// a: any; b: same as a; output: bidirectional broadcast of the shapes.
const binaryRows = [
  ...typeRows(
    "a: any data type (tensor limits); output dataType is a's",
    dataTypes,
    (t) => (o) => [o(t, [2, 3]), o(t, [2, 3])],
    (t) => [t, [2, 3]],
  ),
  { step: 'outputShape: bidirectionally broadcasting a and b', args: (o) => [o('f32', [2, 1, 4]), o('f32', [3, 1])], expect: ['f32', [2, 3, 4]] },
  { step: 'outputShape: bidirectionally broadcasting a scalar', args: (o) => [o('f32', []), o('f32', [2, 3])], expect: ['f32', [2, 3]] },
  { step: 'outputShape: rank is the larger of the two', args: (o) => [o('i32', [5, 1, 1, 1, 1]), o('i32', [7])], expect: ['i32', [5, 1, 1, 1, 7]] },
  { step: "If a's dataType is not equal to b's dataType, then throw a TypeError", args: (o) => [o('f32', [2]), o('f16', [2])] },
  { step: "If a's dataType is not equal to b's dataType, then throw a TypeError", name: 'int32 and uint32', args: (o) => [o('i32', [2]), o('u32', [2])] },
  { step: 'If bidirectionally broadcasting the shapes returns failure, then throw a TypeError', args: (o) => [o('f32', [2, 3]), o('f32', [3, 2])] },
  { step: 'If bidirectionally broadcasting the shapes returns failure, then throw a TypeError', name: '[2] and [3]', args: (o) => [o('f32', [2]), o('f32', [3])] },
];
for (const op of ['add', 'sub', 'mul', 'div', 'max', 'min', 'pow']) tables[op] = binaryRows;

// ---- Element-wise logical ----
const comparisonRows = [
  ...typeRows(
    'a: any data type; b: same as a; output: "uint8"',
    dataTypes,
    (t) => (o) => [o(t, [2, 3]), o(t, [2, 3])],
    () => ['u8', [2, 3]],
  ),
  { step: 'outputShape: bidirectionally broadcasting a and b; output "uint8"', args: (o) => [o('f32', [4, 1]), o('f32', [3])], expect: ['u8', [4, 3]] },
  { step: 'outputShape: bidirectionally broadcasting a scalar', args: (o) => [o('f16', [2, 2]), o('f16', [])], expect: ['u8', [2, 2]] },
  { step: "If a's dataType is not equal to b's dataType, then throw a TypeError", args: (o) => [o('f32', [2]), o('i32', [2])] },
  { step: 'If bidirectionally broadcasting the shapes returns failure, then throw a TypeError', args: (o) => [o('f32', [2, 3]), o('f32', [2])] },
];
for (const op of ['equal', 'notEqual', 'greater', 'greaterOrEqual', 'lesser', 'lesserOrEqual']) tables[op] = comparisonRows;

tables.logicalNot = [
  ...typeRows(
    'If op is "logicalNot" and a\'s dataType is not "uint8", then throw a TypeError',
    ['u8'],
    (t) => (o) => [o(t, [2, 3])],
    () => ['u8', [2, 3]],
  ),
  { step: "outputShape: a clone of a's shape (scalar)", args: (o) => [o('u8', [])], expect: ['u8', []] },
];

const logicalBinaryRows = [
  ...typeRows(
    'If op is logicalAnd/Or/Xor and a\'s dataType is not "uint8", then throw a TypeError',
    ['u8'],
    (t) => (o) => [o(t, [2, 3]), o(t, [2, 3])],
    () => ['u8', [2, 3]],
  ),
  { step: 'outputShape: bidirectionally broadcasting a and b', args: (o) => [o('u8', [3, 1, 2]), o('u8', [4, 1])], expect: ['u8', [3, 4, 2]] },
  { step: "If a's dataType is not equal to b's dataType, then throw a TypeError (b not uint8)", args: (o) => [o('u8', [2]), o('i8', [2])] },
  { step: 'If bidirectionally broadcasting the shapes returns failure, then throw a TypeError', args: (o) => [o('u8', [2, 3]), o('u8', [3, 3])] },
];
for (const op of ['logicalAnd', 'logicalOr', 'logicalXor']) tables[op] = logicalBinaryRows;

// The step "If op is isNaN/isInfinite and a's dataType is not one of « float32, float16 », then throw
// a TypeError" is left out: the tensor-limits table allows any data type for a, the implementation
// follows the table (src/ops/logical.cpp), and the spec contradicts itself (reported).
for (const op of ['isNaN', 'isInfinite']) {
  tables[op] = [
    { step: 'a: float32 (allowed); output "uint8"', args: (o) => [o('f32', [2, 3])], expect: ['u8', [2, 3]] },
    { step: 'a: float16 (allowed); output "uint8"', args: (o) => [o('f16', [2, 3])], expect: ['u8', [2, 3]] },
    { step: "outputShape: a clone of a's shape; output \"uint8\"", args: (o) => [o('f32', [])], expect: ['u8', []] },
  ];
}

// ---- Element-wise unary ----
function sameAsInput(op, allowed, step) {
  return [
    ...typeRows(step, allowed, (t) => (o) => [o(t, [2, 3])], (t) => [t, [2, 3]]),
    { step: 'output: copying an MLOperand given input (scalar)', args: (o) => [o(allowed[0], [])], expect: [allowed[0], []] },
    { step: 'output: copying an MLOperand given input (rank 5)', args: (o) => [o(allowed[0], [1, 2, 3, 2, 1])], expect: [allowed[0], [1, 2, 3, 2, 1]] },
  ];
}
const unaryStep = "If allowedDataTypes is given and it does not contain input's dataType, then throw a TypeError";
for (const op of ['abs', 'neg', 'sign']) tables[op] = sameAsInput(op, ['f32', 'f16', 'i64', 'i32', 'i8'], unaryStep);
for (const op of ['ceil', 'cos', 'erf', 'exp', 'floor', 'log', 'reciprocal', 'roundEven', 'sin', 'sqrt', 'tan'])
  tables[op] = sameAsInput(op, ['f32', 'f16'], unaryStep);
tables.identity = sameAsInput('identity', dataTypes, 'identity: no allowedDataTypes (any data type)');

// ---- Activations ----
const activationStep = "If input's dataType is not one of its allowed data types, then throw a TypeError";
for (const op of ['gelu', 'hardSwish', 'sigmoid', 'softplus', 'softsign', 'tanh']) tables[op] = sameAsInput(op, ['f32', 'f16'], activationStep);
tables.relu = sameAsInput('relu', ['f32', 'f16', 'i64', 'i32', 'i8'], activationStep);
tables.elu = [
  ...sameAsInput('elu', ['f32', 'f16'], activationStep),
  { step: 'Set options.alpha to the result of casting it (never fails)', args: (o) => [o('f16', [2]), { alpha: 1e10 }], expect: ['f16', [2]] },
];
tables.hardSigmoid = [
  ...sameAsInput('hardSigmoid', ['f32', 'f16'], activationStep),
  { step: 'Set options.alpha and options.beta to the result of casting them', args: (o) => [o('f32', [2]), { alpha: -3, beta: 1e300 }], expect: ['f32', [2]] },
];
tables.leakyRelu = [
  ...sameAsInput('leakyRelu', ['f32', 'f16'], activationStep),
  { step: 'Set options.alpha to the result of casting it', args: (o) => [o('f32', [2]), { alpha: 0.5 }], expect: ['f32', [2]] },
];
tables.linear = [
  ...sameAsInput('linear', ['f32', 'f16'], activationStep),
  { step: 'Set options.alpha and options.beta to the result of casting them', args: (o) => [o('f16', [2]), { alpha: 1e-10, beta: 70000 }], expect: ['f16', [2]] },
];

// ---- clamp ----
tables.clamp = [
  ...typeRows('input: any data type; output: copying an MLOperand given input', dataTypes, (t) => (o) => [o(t, [2, 3])], (t) => [t, [2, 3]]),
  { step: 'minValue/maxValue: "When it is not specified, the clamping is not performed" (only minValue)', args: (o) => [o('f32', [2]), { minValue: 0 }], expect: ['f32', [2]] },
  { step: 'minValue/maxValue: "When it is not specified, the clamping is not performed" (only maxValue)', args: (o) => [o('f32', [2]), { maxValue: 6 }], expect: ['f32', [2]] },
  { step: 'minValue equal to maxValue is not greater', args: (o) => [o('f32', [2]), { minValue: 3, maxValue: 3 }], expect: ['f32', [2]] },
  { step: 'If options.minValue is greater than options.maxValue, then throw a TypeError', args: (o) => [o('f32', [2]), { minValue: 2, maxValue: 1 }] },
  { step: 'If options.minValue is greater than options.maxValue, then throw a TypeError', name: 'BigInt bounds on int64', args: (o) => [o('i64', [2]), { minValue: 2n ** 62n + 1n, maxValue: 2n ** 62n }] },
  {
    step: 'minValue and maxValue are compared after casting to input\'s dataType (int8: 200 and 150 both cast to 127)',
    args: (o) => [o('i8', [2]), { minValue: 200, maxValue: 150 }],
    expect: ['i8', [2]],
  },
  {
    step: 'minValue and maxValue are compared after casting to input\'s dataType (float32: 1e40 and 1e39 both cast to +Infinity)',
    args: (o) => [o('f32', [2]), { minValue: 1e40, maxValue: 1e39 }],
    expect: ['f32', [2]],
  },
  {
    step: 'minValue and maxValue are compared after casting to input\'s dataType (uint8: -1 and -5 both cast to 0)',
    args: (o) => [o('u8', [2]), { minValue: -1, maxValue: -5 }],
    expect: ['u8', [2]],
  },
  {
    step: 'minValue and maxValue are compared after casting to input\'s dataType (float16: 70000 and 66000 both cast to +Infinity)',
    args: (o) => [o('f16', [2]), { minValue: 70000, maxValue: 66000 }],
    expect: ['f16', [2]],
  },
  {
    step: 'minValue and maxValue are compared after casting to input\'s dataType (int64: 2^70 casts to 2^63 - 1, equal to maxValue)',
    args: (o) => [o('i64', [2]), { minValue: 2n ** 70n, maxValue: 2n ** 63n - 1n }],
    expect: ['i64', [2]],
  },
  {
    step: 'If options.minValue is greater than options.maxValue, then throw a TypeError (uint64 BigInts above 2^53)',
    args: (o) => [o('u64', [2]), { minValue: 2n ** 64n - 1n, maxValue: 2n ** 64n - 2n }],
  },
  {
    step: 'If options.minValue is greater than options.maxValue (after casting), then throw a TypeError (uint8: 300 → 255 > 254)',
    args: (o) => [o('u8', [2]), { minValue: 300, maxValue: 254 }],
  },
];

// ---- cast ----
tables.cast = [];
for (const from of dataTypes) {
  for (const to of dataTypes) {
    tables.cast.push({
      step: 'dataType: any (output allowed data types); output: copying input with the target dataType',
      name: `${from} to ${to}`,
      args: (o) => [o(from, [2, 3]), to],
      expect: [to, [2, 3]],
    });
  }
}

// ---- prelu ----
tables.prelu = [
  ...typeRows(
    "If the dataType of any of input or slope is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16', 'i64', 'i32', 'i8'],
    (t) => (o) => [o(t, [2, 3]), o(t, [3])],
    (t) => [t, [2, 3]],
  ),
  { step: 'outputShape: bidirectionally broadcasting slope and input (output rank is the larger)', args: (o) => [o('f32', [2, 3]), o('f32', [4, 1, 3])], expect: ['f32', [4, 2, 3]] },
  { step: 'outputShape: scalar slope', args: (o) => [o('f32', [2, 3]), o('f32', [])], expect: ['f32', [2, 3]] },
  { step: "If slope's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: (o) => [o('f32', [2, 3]), o('f16', [3])] },
  { step: 'If bidirectionally broadcasting slope and input returns failure, then throw a TypeError', args: (o) => [o('f32', [2, 3]), o('f32', [2])] },
];

defineOps(tables);
