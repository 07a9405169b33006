// The spec's validation steps of gather (#api-mlgraphbuilder-gather), gatherElements
// (#api-mlgraphbuilder-gatherelements), gatherND (#api-mlgraphbuilder-gathernd), scatterElements
// (#api-mlgraphbuilder-scatterelements) and scatterND (#api-mlgraphbuilder-scatternd).
import { defineOps, typeRows, dataTypes } from './validation_support.mjs';

const tables = {};
const indexTypes = ['i32', 'u32', 'i64'];
const two = (input, indices, options, types = ['f32', 'i32']) => (o) => [o(types[0], input), o(types[1], indices), ...(options ? [options] : [])];

// ---- gather ----
// outputShape: input's dimensions before axis, then indices' shape, then input's dimensions after axis.
tables.gather = [
  { step: 'output: indices\' shape replaces input\'s axis 0 (default)', args: two([4, 5], [3]), expect: ['f32', [3, 5]] },
  ...typeRows("If indices's dataType is not one of its allowed data types, then throw a TypeError", indexTypes, (t) => two([4, 5], [2], undefined, ['f32', t]), () => ['f32', [2, 5]]),
  ...typeRows('input: any data type', dataTypes, (t) => two([4, 5], [2], { axis: 1 }, [t, 'i32']), (t) => [t, [4, 2]]),
  { step: 'output: axis in the middle, 2-D indices', args: two([4, 5, 6], [2, 3], { axis: 1 }), expect: ['f32', [4, 2, 3, 6]] },
  { step: 'output: scalar indices remove the axis', args: two([4, 5], [], { axis: 1 }), expect: ['f32', [4]] },
  { step: 'output: the last axis', args: two([4, 5, 6], [7], { axis: 2 }), expect: ['f32', [4, 5, 7]] },
  { step: "If axis is greater than or equal to inputRank, then throw a TypeError", args: two([4, 5], [2], { axis: 2 }) },
  { step: "If axis is greater than or equal to inputRank, then throw a TypeError", name: 'scalar input', args: two([], [2]) },
];

// ---- gatherElements ----
// The method steps make the output by "copying an MLOperand given input"; the spec's examples give
// it the indices' shape (input [4, 3], indices [2, 3] → output [2, 3]); rows where the two differ
// follow the examples (reported).
tables.gatherElements = [
  { step: 'output: indices with the input\'s shape', args: two([4, 3], [4, 3]), expect: ['f32', [4, 3]] },
  ...typeRows("If indices's dataType is not one of its allowed data types, then throw a TypeError", indexTypes, (t) => two([4, 3], [4, 3], undefined, ['f32', t]), () => ['f32', [4, 3]]),
  ...typeRows('input: any data type', dataTypes, (t) => two([4, 3], [4, 3], { axis: 1 }, [t, 'i32']), (t) => [t, [4, 3]]),
  { step: 'output: the spec\'s example, input [4, 3], indices [2, 3], axis 0 → output [2, 3]', args: two([4, 3], [2, 3]), expect: ['f32', [2, 3]] },
  { step: 'output: the spec\'s example, input [4, 3], indices [4, 1], axis 1 → output [4, 1]', args: two([4, 3], [4, 1], { axis: 1 }), expect: ['f32', [4, 1]] },
  { step: "If the rank of input is not its allowed rank (1 to N), then throw a TypeError", args: two([], []) },
  { step: "If the rank of indices is not its allowed rank (same as input), then throw a TypeError", args: two([4, 3], [4, 3, 1]) },
  { step: "If axis is greater than or equal to input's rank, then throw a TypeError", args: two([4, 3], [4, 3], { axis: 2 }) },
  { step: "If indices's shape is not equal to input's shape with shape[axis] replaced, then throw a TypeError", args: two([4, 3], [4, 2]) },
  { step: "If indices's shape is not equal to input's shape with shape[axis] replaced, then throw a TypeError", name: 'axis 1', args: two([4, 3], [2, 3], { axis: 1 }) },
];

// ---- gatherND ----
// outputShape: indices' shape without its last dimension, then input's dimensions from coordinateSize on.
tables.gatherND = [
  { step: 'output: indicesShape[0 .. indexableSize) then inputShape[coordinateSize ..)', args: two([2, 3, 4], [5, 2]), expect: ['f32', [5, 4]] },
  ...typeRows("If indices's dataType is not one of its allowed data types, then throw a TypeError", indexTypes, (t) => two([2, 3], [5, 1], undefined, ['f32', t]), () => ['f32', [5, 3]]),
  ...typeRows('input: any data type', dataTypes, (t) => two([2, 3], [5, 1], undefined, [t, 'i32']), (t) => [t, [5, 3]]),
  { step: 'output: full coordinates gather elements', args: two([2, 3, 4], [5, 3]), expect: ['f32', [5]] },
  { step: 'output: multi-dimensional indices', args: two([2, 3, 4], [2, 1, 1]), expect: ['f32', [2, 1, 3, 4]] },
  { step: 'output: one full coordinate gives a scalar', args: two([2, 3], [2]), expect: ['f32', []] },
  { step: 'If the rank of input is not its allowed rank (1 to N), then throw a TypeError', args: two([], [1]) },
  { step: 'If the rank of indices is not its allowed rank (1 to N), then throw a TypeError', args: two([2, 3], []) },
  { step: 'If coordinateSize is greater than inputRank, then throw a TypeError', args: two([2, 3], [1, 3]) },
];

// ---- scatterElements ----
const three = (input, indices, updates, options, types = ['f32', 'i32', 'f32']) => (o) => [
  o(types[0], input),
  o(types[1], indices),
  o(types[2], updates),
  ...(options ? [options] : []),
];
tables.scatterElements = [
  { step: 'output: copying an MLOperand given input', args: three([4, 5], [2, 5], [2, 5]), expect: ['f32', [4, 5]] },
  ...typeRows("If indices's dataType is not one of its allowed data types, then throw a TypeError", indexTypes, (t) => three([4, 5], [2, 5], [2, 5], undefined, ['f32', t, 'f32']), () => ['f32', [4, 5]]),
  ...typeRows('input: any data type (updates: the same)', dataTypes, (t) => three([4, 5], [4, 2], [4, 2], { axis: 1 }, [t, 'i32', t]), (t) => [t, [4, 5]]),
  { step: 'output: indices larger than input along the axis', args: three([4, 5], [6, 5], [6, 5]), expect: ['f32', [4, 5]] },
  { step: "If updates's dataType is not equal to input's dataType, then throw a TypeError", args: three([4, 5], [2, 5], [2, 5], undefined, ['f32', 'i32', 'f16']) },
  { step: 'If the rank of input is not its allowed rank (1 to N), then throw a TypeError', args: three([], [], []) },
  { step: 'If the rank of indices is not its allowed rank (same as input), then throw a TypeError', args: three([4, 5], [2, 5, 1], [2, 5]) },
  { step: 'If the rank of updates is not its allowed rank (same as input), then throw a TypeError', args: three([4, 5], [2, 5], [2, 5, 1]) },
  { step: "If axis is greater than or equal to input's rank, then throw a TypeError", args: three([4, 5], [2, 5], [2, 5], { axis: 2 }) },
  { step: "If indices's shape is not equal to input's shape with shape[axis] replaced, then throw a TypeError", args: three([4, 5], [2, 4], [2, 4]) },
  { step: "If updates's shape is not equal to indices's shape, then throw a TypeError", args: three([4, 5], [2, 5], [3, 5]) },
];

// ---- scatterND ----
// expectedUpdatesShape: indices' shape without its last dimension, then input's dimensions from
// coordinateSize on.
tables.scatterND = [
  { step: 'output: copying input\'s shape (updates of the expected shape)', args: three([4, 5, 6], [2, 2], [2, 6]), expect: ['f32', [4, 5, 6]] },
  ...typeRows("If indices's dataType is not one of its allowed data types, then throw a TypeError", indexTypes, (t) => three([4, 5], [3, 1], [3, 5], undefined, ['f32', t, 'f32']), () => ['f32', [4, 5]]),
  ...typeRows('input: any data type (updates: the same)', dataTypes, (t) => three([4, 5], [3, 1], [3, 5], undefined, [t, 'i32', t]), (t) => [t, [4, 5]]),
  { step: 'output: one full coordinate and scalar updates', args: three([4, 5, 6], [3], []), expect: ['f32', [4, 5, 6]] },
  { step: 'output: multi-dimensional indices', args: three([4, 5, 6], [2, 3, 1], [2, 3, 5, 6]), expect: ['f32', [4, 5, 6]] },
  { step: "If updates's dataType is not equal to input's dataType, then throw a TypeError", args: three([4, 5], [3, 1], [3, 5], undefined, ['i32', 'i32', 'u32']) },
  { step: 'If the rank of input is not its allowed rank (1 to N), then throw a TypeError', args: three([], [1], []) },
  { step: 'If the rank of indices is not its allowed rank (1 to N), then throw a TypeError', args: three([4, 5], [], [4, 5]) },
  { step: 'If coordinateSize is greater than inputRank, then throw a TypeError', args: three([4, 5], [2, 3], [2]) },
  { step: "If updates's shape is not equal to expectedUpdatesShape, then throw a TypeError", args: three([4, 5, 6], [2, 2], [2, 5]) },
  { step: "If updates's shape is not equal to expectedUpdatesShape, then throw a TypeError", name: 'updates of the input\'s shape', args: three([4, 5], [3, 1], [4, 5]) },
];

defineOps(tables);
