// The spec's validation steps of gru (#api-mlgraphbuilder-gru), gruCell (#api-mlgraphbuilder-grucell),
// lstm (#api-mlgraphbuilder-lstm) and lstmCell (#api-mlgraphbuilder-lstmcell).
//
// Shapes used: steps 2, batchSize 3, inputSize 4, hiddenSize 5. The "hiddenSize * 6 (or 8) is not a
// valid dimension" steps have no row: recurrentWeight ([.., 3 * hiddenSize, hiddenSize]) would
// itself not be a valid tensor long before.
import { defineOps, typeRows } from './validation_support.mjs';

const tables = {};

// Builds (o) => args from a descriptor list: every operand is [dataType, shape]; `rest` are the
// non-operand arguments; options entries that are [dataType, shape] become operands.
function call(operands, rest, options) {
  return (o) => {
    const args = operands.map(([t, s]) => o(t, s));
    args.push(...rest);
    if (options) {
      const opts = {};
      for (const [k, v] of Object.entries(options)) opts[k] = Array.isArray(v) && typeof v[0] === 'string' && Array.isArray(v[1]) ? o(v[0], v[1]) : v;
      args.push(opts);
    }
    return args;
  };
}
const F = (shape) => ['f32', shape];
const H = (shape) => ['f16', shape];

// ---- gru ----
// weight [numDirections, 3 * hiddenSize, inputSize], recurrentWeight [numDirections, 3 * hiddenSize, hiddenSize]
function gru(o = {}) {
  const input = o.input ?? F([2, 3, 4]);
  const weight = o.weight ?? F([1, 15, 4]);
  const recurrentWeight = o.recurrentWeight ?? F([1, 15, 5]);
  return call([input, weight, recurrentWeight], [o.steps ?? 2, o.hiddenSize ?? 5], o.options);
}
tables.gru = [
  { step: 'output: « numDirections, batchSize, hiddenSize »', args: gru(), expect: [['f32', [1, 3, 5]]] },
  ...typeRows(
    'If the dataType of any of input, weight or recurrentWeight is not one of its allowed data types, then throw a TypeError',
    ['f32', 'f16'],
    (t) => call([[t, [2, 3, 4]], [t, [1, 15, 4]], [t, [1, 15, 5]]], [2, 5]),
    (t) => [[t, [1, 3, 5]]],
  ),
  { step: 'output: returnSequence adds « steps, numDirections, batchSize, hiddenSize »', args: gru({ options: { returnSequence: true } }), expect: [['f32', [1, 3, 5]], ['f32', [2, 1, 3, 5]]] },
  {
    step: 'output: direction "both" has numDirections 2',
    args: gru({ weight: F([2, 15, 4]), recurrentWeight: F([2, 15, 5]), options: { direction: 'both', returnSequence: true } }),
    expect: [['f32', [2, 3, 5]], ['f32', [2, 2, 3, 5]]],
  },
  {
    step: 'output: with bias, recurrentBias, initialHiddenState, layout and two activations',
    args: gru({ options: { bias: F([1, 15]), recurrentBias: F([1, 15]), initialHiddenState: F([1, 3, 5]), layout: 'rzn', resetAfter: false, activations: ['relu', 'tanh'] } }),
    expect: [['f32', [1, 3, 5]]],
  },
  { step: "If weight's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: gru({ weight: H([1, 15, 4]) }) },
  { step: "If recurrentWeight's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: gru({ recurrentWeight: H([1, 15, 5]) }) },
  { step: "If input's rank is not its allowed rank (3), then throw a TypeError", args: gru({ input: F([3, 4]) }) },
  { step: "If weight's rank is not its allowed rank (3), then throw a TypeError", args: gru({ weight: F([15, 4]) }) },
  { step: "If recurrentWeight's rank is not its allowed rank (3), then throw a TypeError", args: gru({ recurrentWeight: F([1, 1, 15, 5]) }) },
  { step: "If input's shape[0] is not equal to steps, then throw a TypeError", args: gru({ steps: 3 }) },
  { step: "If input's shape[0] is not equal to steps, then throw a TypeError", name: 'steps 0', args: gru({ steps: 0 }) },
  { step: "If weight's shape is not equal to « numDirections, 3 * hiddenSize, inputSize », then throw a TypeError", args: gru({ weight: F([1, 12, 4]) }) },
  { step: "If weight's shape is not equal to « numDirections, 3 * hiddenSize, inputSize », then throw a TypeError", name: 'direction "both"', args: gru({ recurrentWeight: F([2, 15, 5]), options: { direction: 'both' } }) },
  { step: "If weight's shape is not equal to « numDirections, 3 * hiddenSize, inputSize », then throw a TypeError", name: 'inputSize', args: gru({ weight: F([1, 15, 3]) }) },
  { step: "If recurrentWeight's shape is not equal to « numDirections, 3 * hiddenSize, hiddenSize », then throw a TypeError", args: gru({ recurrentWeight: F([1, 15, 4]) }) },
  { step: "If options.bias's dataType is not one of its allowed data types, then throw a TypeError", args: gru({ options: { bias: H([1, 15]) } }) },
  { step: "If options.bias's shape is not equal to « numDirections, 3 * hiddenSize », then throw a TypeError", args: gru({ options: { bias: F([15]) } }) },
  { step: "If options.recurrentBias's dataType is not one of its allowed data types, then throw a TypeError", args: gru({ options: { recurrentBias: ['i32', [1, 15]] } }) },
  { step: "If options.recurrentBias's shape is not equal to « numDirections, 3 * hiddenSize », then throw a TypeError", args: gru({ options: { recurrentBias: F([1, 10]) } }) },
  { step: "If options.initialHiddenState's dataType is not one of its allowed data types, then throw a TypeError", args: gru({ options: { initialHiddenState: H([1, 3, 5]) } }) },
  { step: "If options.initialHiddenState's shape is not equal to « numDirections, batchSize, hiddenSize », then throw a TypeError", args: gru({ options: { initialHiddenState: F([1, 2, 5]) } }) },
  { step: "If options.activations's size is not 2, then throw a TypeError", args: gru({ options: { activations: ['sigmoid'] } }) },
  { step: "If options.activations's size is not 2, then throw a TypeError", name: 'three', args: gru({ options: { activations: ['sigmoid', 'tanh', 'tanh'] } }) },
];

// ---- gruCell ----
function gruCell(o = {}) {
  const operands = [o.input ?? F([3, 4]), o.weight ?? F([15, 4]), o.recurrentWeight ?? F([15, 5]), o.hiddenState ?? F([3, 5])];
  return call(operands, [o.hiddenSize ?? 5], o.options);
}
tables.gruCell = [
  { step: 'output: « batchSize, hiddenSize »', args: gruCell(), expect: ['f32', [3, 5]] },
  ...typeRows(
    'If the dataType of any of input, weight, recurrentWeight or hiddenState is not one of its allowed data types, then throw a TypeError',
    ['f32', 'f16'],
    (t) => call([[t, [3, 4]], [t, [15, 4]], [t, [15, 5]], [t, [3, 5]]], [5]),
    (t) => [t, [3, 5]],
  ),
  {
    step: 'output: with bias, recurrentBias, layout and two activations',
    args: gruCell({ options: { bias: F([15]), recurrentBias: F([15]), layout: 'rzn', resetAfter: false, activations: ['sigmoid', 'relu'] } }),
    expect: ['f32', [3, 5]],
  },
  { step: "If hiddenState's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: gruCell({ hiddenState: H([3, 5]) }) },
  { step: "If weight's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: gruCell({ weight: H([15, 4]) }) },
  { step: "If input's rank is not its allowed rank (2), then throw a TypeError", args: gruCell({ input: F([1, 3, 4]) }) },
  { step: "If weight's rank is not its allowed rank (2), then throw a TypeError", args: gruCell({ weight: F([1, 15, 4]) }) },
  { step: "If recurrentWeight's rank is not its allowed rank (2), then throw a TypeError", args: gruCell({ recurrentWeight: F([75]) }) },
  { step: "If hiddenState's rank is not its allowed rank (2), then throw a TypeError", args: gruCell({ hiddenState: F([1, 3, 5]) }) },
  { step: "If weight's shape is not equal to « 3 * hiddenSize, inputSize », then throw a TypeError", args: gruCell({ weight: F([15, 3]) }) },
  { step: "If recurrentWeight's shape is not equal to « 3 * hiddenSize, hiddenSize », then throw a TypeError", args: gruCell({ recurrentWeight: F([10, 5]) }) },
  { step: "If hiddenState's shape is not equal to « batchSize, hiddenSize », then throw a TypeError", args: gruCell({ hiddenState: F([2, 5]) }) },
  { step: "If options.bias's dataType is not one of its allowed data types, then throw a TypeError", args: gruCell({ options: { bias: H([15]) } }) },
  { step: "If options.bias's shape is not equal to « 3 * hiddenSize », then throw a TypeError", args: gruCell({ options: { bias: F([1, 15]) } }) },
  { step: "If options.recurrentBias's dataType is not one of its allowed data types, then throw a TypeError", args: gruCell({ options: { recurrentBias: H([15]) } }) },
  { step: "If options.recurrentBias's shape is not equal to « 3 * hiddenSize », then throw a TypeError", args: gruCell({ options: { recurrentBias: F([5]) } }) },
  { step: "If options.activations's size is not 2, then throw a TypeError", args: gruCell({ options: { activations: [] } }) },
];

// ---- lstm ----
// weight [numDirections, 4 * hiddenSize, inputSize], recurrentWeight [numDirections, 4 * hiddenSize, hiddenSize]
function lstm(o = {}) {
  const input = o.input ?? F([2, 3, 4]);
  const weight = o.weight ?? F([1, 20, 4]);
  const recurrentWeight = o.recurrentWeight ?? F([1, 20, 5]);
  return call([input, weight, recurrentWeight], [o.steps ?? 2, o.hiddenSize ?? 5], o.options);
}
tables.lstm = [
  { step: 'output: hidden and cell state, « numDirections, batchSize, hiddenSize »', args: lstm(), expect: [['f32', [1, 3, 5]], ['f32', [1, 3, 5]]] },
  ...typeRows(
    'If the dataType of any of input, weight or recurrentWeight is not one of its allowed data types, then throw a TypeError',
    ['f32', 'f16'],
    (t) => call([[t, [2, 3, 4]], [t, [1, 20, 4]], [t, [1, 20, 5]]], [2, 5]),
    (t) => [[t, [1, 3, 5]], [t, [1, 3, 5]]],
  ),
  {
    step: 'output: returnSequence adds « steps, numDirections, batchSize, hiddenSize »',
    args: lstm({ options: { returnSequence: true } }),
    expect: [['f32', [1, 3, 5]], ['f32', [1, 3, 5]], ['f32', [2, 1, 3, 5]]],
  },
  {
    step: 'output: direction "both" has numDirections 2',
    args: lstm({ weight: F([2, 20, 4]), recurrentWeight: F([2, 20, 5]), options: { direction: 'both' } }),
    expect: [['f32', [2, 3, 5]], ['f32', [2, 3, 5]]],
  },
  {
    step: 'output: with every optional operand, layout and three activations',
    args: lstm({
      options: {
        bias: F([1, 20]),
        recurrentBias: F([1, 20]),
        peepholeWeight: F([1, 15]),
        initialHiddenState: F([1, 3, 5]),
        initialCellState: F([1, 3, 5]),
        layout: 'ifgo',
        direction: 'backward',
        activations: ['sigmoid', 'relu', 'tanh'],
      },
    }),
    expect: [['f32', [1, 3, 5]], ['f32', [1, 3, 5]]],
  },
  { step: "If weight's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: lstm({ weight: H([1, 20, 4]) }) },
  { step: "If recurrentWeight's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: lstm({ input: H([2, 3, 4]), weight: H([1, 20, 4]) }) },
  { step: "If input's rank is not its allowed rank (3), then throw a TypeError", args: lstm({ input: F([2, 3, 4, 1]) }) },
  { step: "If weight's rank is not its allowed rank (3), then throw a TypeError", args: lstm({ weight: F([20, 4]) }) },
  { step: "If recurrentWeight's rank is not its allowed rank (3), then throw a TypeError", args: lstm({ recurrentWeight: F([20, 5]) }) },
  { step: 'If steps is 0, then throw a TypeError', args: lstm({ steps: 0 }) },
  { step: "If input's shape[0] is not equal to steps, then throw a TypeError", args: lstm({ steps: 1 }) },
  { step: "If weight's shape is not equal to « numDirections, 4 * hiddenSize, inputSize », then throw a TypeError", args: lstm({ weight: F([1, 15, 4]) }) },
  { step: "If weight's shape is not equal to « numDirections, 4 * hiddenSize, inputSize », then throw a TypeError", name: 'direction "both"', args: lstm({ recurrentWeight: F([2, 20, 5]), options: { direction: 'both' } }) },
  { step: "If recurrentWeight's shape is not equal to « numDirections, 4 * hiddenSize, hiddenSize », then throw a TypeError", args: lstm({ recurrentWeight: F([1, 20, 4]) }) },
  { step: "If options.bias's dataType is not one of its allowed data types, then throw a TypeError", args: lstm({ options: { bias: H([1, 20]) } }) },
  { step: "If options.bias's shape is not equal to « numDirections, 4 * hiddenSize », then throw a TypeError", args: lstm({ options: { bias: F([1, 15]) } }) },
  { step: "If options.recurrentBias's dataType is not one of its allowed data types, then throw a TypeError", args: lstm({ options: { recurrentBias: H([1, 20]) } }) },
  { step: "If options.recurrentBias's shape is not equal to « numDirections, 4 * hiddenSize », then throw a TypeError", args: lstm({ options: { recurrentBias: F([20]) } }) },
  { step: "If options.peepholeWeight's dataType is not one of its allowed data types, then throw a TypeError", args: lstm({ options: { peepholeWeight: H([1, 15]) } }) },
  { step: "If options.peepholeWeight's shape is not equal to « numDirections, 3 * hiddenSize », then throw a TypeError", args: lstm({ options: { peepholeWeight: F([1, 20]) } }) },
  { step: "If options.initialHiddenState's dataType is not one of its allowed data types, then throw a TypeError", args: lstm({ options: { initialHiddenState: H([1, 3, 5]) } }) },
  { step: "If options.initialHiddenState's shape is not equal to « numDirections, batchSize, hiddenSize », then throw a TypeError", args: lstm({ options: { initialHiddenState: F([3, 5]) } }) },
  { step: "If options.initialCellState's dataType is not one of its allowed data types, then throw a TypeError", args: lstm({ options: { initialCellState: ['i32', [1, 3, 5]] } }) },
  { step: "If options.initialCellState's shape is not equal to « numDirections, batchSize, hiddenSize », then throw a TypeError", args: lstm({ options: { initialCellState: F([1, 3, 4]) } }) },
  { step: "If options.activations's size is not 3, then throw a TypeError", args: lstm({ options: { activations: ['sigmoid', 'tanh'] } }) },
];

// ---- lstmCell ----
function lstmCell(o = {}) {
  const operands = [
    o.input ?? F([3, 4]),
    o.weight ?? F([20, 4]),
    o.recurrentWeight ?? F([20, 5]),
    o.hiddenState ?? F([3, 5]),
    o.cellState ?? F([3, 5]),
  ];
  return call(operands, [o.hiddenSize ?? 5], o.options);
}
tables.lstmCell = [
  { step: 'output: hidden and cell state, « batchSize, hiddenSize »', args: lstmCell(), expect: [['f32', [3, 5]], ['f32', [3, 5]]] },
  ...typeRows(
    'If the dataType of any of input, weight, recurrentWeight, hiddenState or cellState is not one of its allowed data types, then throw a TypeError',
    ['f32', 'f16'],
    (t) => call([[t, [3, 4]], [t, [20, 4]], [t, [20, 5]], [t, [3, 5]], [t, [3, 5]]], [5]),
    (t) => [[t, [3, 5]], [t, [3, 5]]],
  ),
  {
    step: 'output: with bias, recurrentBias, peepholeWeight, layout and three activations',
    args: lstmCell({ options: { bias: F([20]), recurrentBias: F([20]), peepholeWeight: F([15]), layout: 'ifgo', activations: ['relu', 'relu', 'relu'] } }),
    expect: [['f32', [3, 5]], ['f32', [3, 5]]],
  },
  { step: "If cellState's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: lstmCell({ cellState: H([3, 5]) }) },
  { step: "If hiddenState's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: lstmCell({ hiddenState: H([3, 5]) }) },
  { step: "If input's rank is not its allowed rank (2), then throw a TypeError", args: lstmCell({ input: F([12]) }) },
  { step: "If weight's rank is not its allowed rank (2), then throw a TypeError", args: lstmCell({ weight: F([1, 20, 4]) }) },
  { step: "If recurrentWeight's rank is not its allowed rank (2), then throw a TypeError", args: lstmCell({ recurrentWeight: F([1, 20, 5]) }) },
  { step: "If hiddenState's rank is not its allowed rank (2), then throw a TypeError", args: lstmCell({ hiddenState: F([15]) }) },
  { step: "If cellState's rank is not its allowed rank (2), then throw a TypeError", args: lstmCell({ cellState: F([1, 3, 5]) }) },
  { step: "If weight's shape is not equal to « 4 * hiddenSize, inputSize », then throw a TypeError", args: lstmCell({ weight: F([15, 4]) }) },
  { step: "If recurrentWeight's shape is not equal to « 4 * hiddenSize, hiddenSize », then throw a TypeError", args: lstmCell({ recurrentWeight: F([20, 4]) }) },
  { step: "If hiddenState's shape is not equal to « batchSize, hiddenSize », then throw a TypeError", args: lstmCell({ hiddenState: F([3, 4]) }) },
  { step: "If cellState's shape is not equal to « batchSize, hiddenSize », then throw a TypeError", args: lstmCell({ cellState: F([2, 5]) }) },
  { step: "If options.bias's dataType is not one of its allowed data types, then throw a TypeError", args: lstmCell({ options: { bias: H([20]) } }) },
  { step: "If options.bias's shape is not equal to « 4 * hiddenSize », then throw a TypeError", args: lstmCell({ options: { bias: F([15]) } }) },
  { step: "If options.recurrentBias's dataType is not one of its allowed data types, then throw a TypeError", args: lstmCell({ options: { recurrentBias: H([20]) } }) },
  { step: "If options.recurrentBias's shape is not equal to « 4 * hiddenSize », then throw a TypeError", args: lstmCell({ options: { recurrentBias: F([1, 20]) } }) },
  { step: "If options.peepholeWeight's dataType is not one of its allowed data types, then throw a TypeError", args: lstmCell({ options: { peepholeWeight: H([15]) } }) },
  { step: "If options.peepholeWeight's shape is not equal to « 3 * hiddenSize », then throw a TypeError", args: lstmCell({ options: { peepholeWeight: F([20]) } }) },
  { step: "If options.activations's size is not 3, then throw a TypeError", args: lstmCell({ options: { activations: ['sigmoid', 'tanh', 'tanh', 'tanh'] } }) },
];

defineOps(tables);
