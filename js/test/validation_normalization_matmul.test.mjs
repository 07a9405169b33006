// The spec's validation steps of batchNormalization (#api-mlgraphbuilder-batchnorm),
// instanceNormalization (#api-mlgraphbuilder-instancenorm), layerNormalization
// (#api-mlgraphbuilder-layernorm), matmul (#api-mlgraphbuilder-matmul) and gemm
// (#api-mlgraphbuilder-gemm).
import { defineOps, typeRows } from './validation_support.mjs';

const tables = {};

// ---- batchNormalization ----
// input [1, 2, 3, 3], axis 1 (default): mean, variance, scale and bias are « 2 ».
const bn = (input, mean, variance, options) => (o) => [o('f32', input), o('f32', mean), o('f32', variance), ...(options ? [options(o)] : [])];
tables.batchNormalization = [
  { step: "output: input's descriptor", args: bn([1, 2, 3, 3], [2], [2]), expect: ['f32', [1, 2, 3, 3]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => (o) => [o(t, [1, 2, 3]), o(t, [2]), o(t, [2])],
    (t) => [t, [1, 2, 3]],
  ),
  { step: 'output: axis 3 selects the feature dimension', args: bn([1, 2, 3, 4], [4], [4], () => ({ axis: 3 })), expect: ['f32', [1, 2, 3, 4]] },
  { step: 'output: axis 0 of a 1-D input', args: bn([5], [5], [5], () => ({ axis: 0 })), expect: ['f32', [5]] },
  { step: 'output: with scale and bias', args: bn([1, 2, 3, 3], [2], [2], (o) => ({ scale: o('f32', [2]), bias: o('f32', [2]), epsilon: 1e-3 })), expect: ['f32', [1, 2, 3, 3]] },
  { step: 'If options.axis is not in the range 0 to input\'s rank, exclusive, then throw a TypeError', args: bn([1, 2, 3], [2], [2], () => ({ axis: 3 })) },
  { step: 'If options.axis is not in the range 0 to input\'s rank, exclusive, then throw a TypeError', name: 'scalar input, default axis 1', args: bn([], [1], [1]) },
  { step: "If mean's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: (o) => [o('f32', [1, 2, 3]), o('f16', [2]), o('f32', [2])] },
  { step: "If mean's shape is not equal to « input's shape[axis] », then throw a TypeError", args: bn([1, 2, 3], [3], [2]) },
  { step: "If mean's shape is not equal to « input's shape[axis] », then throw a TypeError", name: 'rank 2', args: bn([1, 2, 3], [1, 2], [2]) },
  { step: "If variance's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: (o) => [o('f16', [1, 2, 3]), o('f16', [2]), o('f32', [2])] },
  { step: "If variance's shape is not equal to « input's shape[axis] », then throw a TypeError", args: bn([1, 2, 3], [2], [3]) },
  { step: "If options.scale's dataType is not one of its allowed data types, then throw a TypeError", args: bn([1, 2, 3], [2], [2], (o) => ({ scale: o('f16', [2]) })) },
  { step: "If options.scale's shape is not equal to « input's shape[axis] », then throw a TypeError", args: bn([1, 2, 3], [2], [2], (o) => ({ scale: o('f32', [3]) })) },
  { step: "If options.bias's dataType is not one of its allowed data types, then throw a TypeError", args: bn([1, 2, 3], [2], [2], (o) => ({ bias: o('i32', [2]) })) },
  { step: "If options.bias's shape is not equal to « input's shape[axis] », then throw a TypeError", args: bn([1, 2, 3], [2], [2], (o) => ({ bias: o('f32', [2, 1]) })) },
];

// ---- instanceNormalization ----
const inorm = (input, options) => (o) => [o('f32', input), ...(options ? [options(o)] : [])];
tables.instanceNormalization = [
  { step: 'output: copying an MLOperand given input', args: inorm([1, 2, 3, 4]), expect: ['f32', [1, 2, 3, 4]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => (o) => [o(t, [1, 2, 3, 4])],
    (t) => [t, [1, 2, 3, 4]],
  ),
  { step: 'output: nchw, scale and bias « shape[1] »', args: inorm([1, 2, 3, 4], (o) => ({ scale: o('f32', [2]), bias: o('f32', [2]) })), expect: ['f32', [1, 2, 3, 4]] },
  { step: 'output: nhwc, scale and bias « shape[3] »', args: inorm([1, 2, 3, 4], (o) => ({ layout: 'nhwc', scale: o('f32', [4]), bias: o('f32', [4]) })), expect: ['f32', [1, 2, 3, 4]] },
  { step: "If input's rank is not its allowed rank (4), then throw a TypeError", args: inorm([2, 3, 4]) },
  { step: "If input's rank is not its allowed rank (4), then throw a TypeError", name: 'rank 5', args: inorm([1, 2, 3, 4, 5]) },
  { step: "If options.scale's dataType is not one of its allowed data types, then throw a TypeError", args: inorm([1, 2, 3, 4], (o) => ({ scale: o('f16', [2]) })) },
  { step: "If options.scale's shape is not equal to « input's shape[axis] », then throw a TypeError", args: inorm([1, 2, 3, 4], (o) => ({ scale: o('f32', [4]) })) },
  { step: "If options.scale's shape is not equal to « input's shape[axis] », then throw a TypeError", name: 'nhwc: axis 3', args: inorm([1, 2, 3, 4], (o) => ({ layout: 'nhwc', scale: o('f32', [2]) })) },
  { step: "If options.bias's dataType is not one of its allowed data types, then throw a TypeError", args: inorm([1, 2, 3, 4], (o) => ({ bias: o('f16', [2]) })) },
  { step: "If options.bias's shape is not equal to « input's shape[axis] », then throw a TypeError", args: inorm([1, 2, 3, 4], (o) => ({ bias: o('f32', [1, 2]) })) },
];

// ---- layerNormalization ----
const lnorm = (input, options, t = 'f32') => (o) => [o(t, input), ...(options ? [options(o)] : [])];
tables.layerNormalization = [
  { step: 'output: copying an MLOperand given input (axes default to [1, rank))', args: lnorm([2, 3, 4]), expect: ['f32', [2, 3, 4]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => lnorm([2, 3], undefined, t),
    (t) => [t, [2, 3]],
  ),
  { step: 'output: default axes [1, 2] take scale and bias of shape [3, 4]', args: lnorm([2, 3, 4], (o) => ({ scale: o('f32', [3, 4]), bias: o('f32', [3, 4]) })), expect: ['f32', [2, 3, 4]] },
  { step: 'output: scale shape[index] matches input shape[axes[index]] (axes [2, 0])', args: lnorm([2, 3, 4], (o) => ({ axes: [2, 0], scale: o('f32', [4, 2]) })), expect: ['f32', [2, 3, 4]] },
  { step: 'output: empty axes take a scalar scale', args: lnorm([2, 3], (o) => ({ axes: [], scale: o('f32', []), bias: o('f32', []) })), expect: ['f32', [2, 3]] },
  { step: 'output: a scalar input has empty default axes', args: lnorm([], (o) => ({ scale: o('f32', []) })), expect: ['f32', []] },
  { step: 'output: a 1-D input has empty default axes', args: lnorm([4], (o) => ({ bias: o('f32', []) })), expect: ['f32', [4]] },
  { step: 'Otherwise, if options.axes contains duplicate values, then throw a TypeError', args: lnorm([2, 3, 4], () => ({ axes: [1, 1] })) },
  { step: "Otherwise, if any of options.axes's items is not in the range 0 to input's rank, exclusive, then throw a TypeError", args: lnorm([2, 3, 4], () => ({ axes: [3] })) },
  { step: "If options.scale's dataType is not one of its allowed data types, then throw a TypeError", args: lnorm([2, 3, 4], (o) => ({ scale: o('f16', [3, 4]) })) },
  { step: "If options.scale's rank is not equal to options.axes's size, then throw a TypeError", args: lnorm([2, 3, 4], (o) => ({ scale: o('f32', [4]) })) },
  { step: "If options.bias's dataType is not one of its allowed data types, then throw a TypeError", args: lnorm([2, 3, 4], (o) => ({ bias: o('i32', [3, 4]) })) },
  { step: "If options.bias's rank is not equal to options.axes's size, then throw a TypeError", args: lnorm([2, 3, 4], (o) => ({ axes: [2], bias: o('f32', [1, 4]) })) },
  { step: "If options.scale's shape[index] is not equal to input's shape[axes[index]], then throw a TypeError", args: lnorm([2, 3, 4], (o) => ({ scale: o('f32', [4, 3]) })) },
  { step: "If options.bias's shape[index] is not equal to input's shape[axes[index]], then throw a TypeError", args: lnorm([2, 3, 4], (o) => ({ axes: [0, 2], bias: o('f32', [4, 2]) })) },
];

// ---- matmul ----
const mm = (a, b, t = 'f32') => (o) => [o(t, a), o(t, b)];
tables.matmul = [
  { step: 'output: « rowsA, colsB » for 2-D inputs', args: mm([2, 3], [3, 4]), expect: ['f32', [2, 4]] },
  ...typeRows(
    "If the dataType of any of a or b is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => mm([2, 3], [3, 4], t),
    (t) => [t, [2, 4]],
  ),
  { step: 'output: the batch dimensions are broadcast, b 2-D', args: mm([5, 2, 3], [3, 4]), expect: ['f32', [5, 2, 4]] },
  { step: 'output: the batch dimensions are bidirectionally broadcast', args: mm([2, 1, 2, 3], [4, 3, 5]), expect: ['f32', [2, 4, 2, 5]] },
  { step: "If b's dataType is not one of its allowed data types (same as a), then throw a TypeError", args: (o) => [o('f32', [2, 3]), o('f16', [3, 4])] },
  { step: 'If either rankA or rankB is less than 2, then throw a TypeError', args: mm([3], [3, 4]) },
  { step: 'If either rankA or rankB is less than 2, then throw a TypeError', name: 'b 1-D', args: mm([2, 3], [3]) },
  { step: 'If either rankA or rankB is less than 2, then throw a TypeError', name: 'scalars', args: mm([], []) },
  { step: 'If colsA is not equal to rowsB, then throw a TypeError', args: mm([2, 3], [4, 5]) },
  { step: 'If bidirectionally broadcasting batchShapeA and batchShapeB returns failure, then throw a TypeError', args: mm([2, 2, 3], [3, 3, 4]) },
];

// ---- gemm ----
const gemm = (a, b, options, t = 'f32') => (o) => [o(t, a), o(t, b), ...(options ? [options(o)] : [])];
tables.gemm = [
  { step: 'output: « shapeA[0], shapeB[1] »', args: gemm([2, 3], [3, 4]), expect: ['f32', [2, 4]] },
  ...typeRows(
    "If the dataType of any of a or b is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => gemm([2, 3], [3, 4], undefined, t),
    (t) => [t, [2, 4]],
  ),
  { step: 'output: aTranspose reverses shapeA', args: gemm([3, 2], [3, 4], () => ({ aTranspose: true })), expect: ['f32', [2, 4]] },
  { step: 'output: bTranspose reverses shapeB', args: gemm([2, 3], [4, 3], () => ({ bTranspose: true })), expect: ['f32', [2, 4]] },
  { step: 'output: both transposed', args: gemm([3, 2], [4, 3], () => ({ aTranspose: true, bTranspose: true, alpha: 2, beta: 0.5 })), expect: ['f32', [2, 4]] },
  { step: 'output: c of shape [M, N]', args: gemm([2, 3], [3, 4], (o) => ({ c: o('f32', [2, 4]) })), expect: ['f32', [2, 4]] },
  { step: 'output: c unidirectionally broadcastable, [N]', args: gemm([2, 3], [3, 4], (o) => ({ c: o('f32', [4]) })), expect: ['f32', [2, 4]] },
  { step: 'output: c unidirectionally broadcastable, [M, 1]', args: gemm([2, 3], [3, 4], (o) => ({ c: o('f32', [2, 1]) })), expect: ['f32', [2, 4]] },
  { step: 'output: c a scalar', args: gemm([2, 3], [3, 4], (o) => ({ c: o('f32', []) })), expect: ['f32', [2, 4]] },
  { step: "If b's dataType is not one of its allowed data types (same as a), then throw a TypeError", args: (o) => [o('f16', [2, 3]), o('f32', [3, 4])] },
  { step: 'If the rank of any of a or b is not its allowed rank (2), then throw a TypeError', args: gemm([1, 2, 3], [3, 4]) },
  { step: 'If the rank of any of a or b is not its allowed rank (2), then throw a TypeError', name: 'b 1-D', args: gemm([2, 3], [3]) },
  { step: 'If shapeA[1] is not equal to shapeB[0], then throw a TypeError', args: gemm([2, 3], [4, 3]) },
  { step: 'If shapeA[1] is not equal to shapeB[0], then throw a TypeError', name: 'after aTranspose', args: gemm([2, 3], [3, 4], () => ({ aTranspose: true })) },
  { step: 'If options.c is not unidirectionally broadcastable to « shapeA[0], shapeB[1] », then throw a TypeError', args: gemm([2, 3], [3, 4], (o) => ({ c: o('f32', [3]) })) },
  { step: 'If options.c is not unidirectionally broadcastable to « shapeA[0], shapeB[1] », then throw a TypeError', name: 'c of rank 3', args: gemm([2, 3], [3, 4], (o) => ({ c: o('f32', [1, 2, 4]) })) },
  { step: 'If options.c is not unidirectionally broadcastable to « shapeA[0], shapeB[1] », then throw a TypeError', name: 'c [4, 2] (transposed)', args: gemm([2, 3], [3, 4], (o) => ({ c: o('f32', [4, 2]) })) },
  { step: "If options.c's dataType is not one of its allowed data types (same as a), then throw a TypeError", args: gemm([2, 3], [3, 4], (o) => ({ c: o('f16', [4]) })) },
];

defineOps(tables);
