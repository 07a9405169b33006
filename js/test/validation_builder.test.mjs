// The spec's validation steps of the MLGraphBuilder methods that are not operators: the
// constructor (#api-mlgraphbuilder-constructor), input() (#api-mlgraphbuilder-input), the three
// constant() overloads (#api-mlgraphbuilder-constant-buffer, -constant-tensor,
// -constant-datatype-value) and build() (#api-mlgraphbuilder-build). Synchronous steps throw;
// build()'s steps reject.
import assert from 'node:assert/strict';
import {
  ml,
  MLGraphBuilder,
  MLOperand,
  dataTypes,
  sharedContext,
  throwsWith,
  rejectsWith,
  assertDescriptor,
  vtest,
  kMaxLong,
} from './validation_support.mjs';
import { webnn } from './support.mjs';

const f32 = (shape) => ({ dataType: 'float32', shape });

// A builder that has built (a graph of identity(x)).
async function builtBuilder(context) {
  const b = new MLGraphBuilder(context);
  (await b.build({ y: b.identity(b.input('x', f32([2]))) })).destroy();
  return b;
}

// A builder whose context is lost.
async function lostBuilder() {
  const context = await ml.createContext();
  const b = new MLGraphBuilder(context);
  context.destroy();
  return b;
}

// Typed arrays matching each data type (the spec's appendix; float16 is left to the Uint8Array row,
// as Node.js 20 has no Float16Array).
const views = {
  float32: Float32Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  int8: Int8Array,
  uint8: Uint8Array,
};

vtest('MLGraphBuilder(context)', async (t) => {
  const context = await sharedContext();
  await t.test('a builder of a live context', () => {
    assert.ok(new MLGraphBuilder(context) instanceof MLGraphBuilder);
  });
  await t.test('If context is lost, then throw an "InvalidStateError"', async () => {
    const lost = await ml.createContext();
    lost.destroy();
    throwsWith(() => new MLGraphBuilder(lost), 'InvalidStateError');
  });
});

vtest('input(name, descriptor)', async (t) => {
  const context = await sharedContext();
  const b = new MLGraphBuilder(context);
  for (const dataType of dataTypes) {
    await t.test(`returns an operand with descriptor (${dataType})`, () => {
      assertDescriptor(b.input(`x_${dataType}`, { dataType, shape: [2, 3] }), [dataType, [2, 3]]);
    });
  }
  await t.test('returns an operand with descriptor (a scalar, shape « »)', () => {
    assertDescriptor(b.input('scalar', { dataType: 'float32', shape: [] }), ['float32', []]);
  });
  await t.test('returns an operand with descriptor (the largest valid dimension, 2^31 - 1 elements)', () => {
    assertDescriptor(b.input('largest', { dataType: 'uint8', shape: [kMaxLong] }), ['uint8', [kMaxLong]]);
  });
  await t.test('If this can not build ([[hasBuilt]]), then throw an "InvalidStateError"', async () => {
    const built = await builtBuilder(context);
    throwsWith(() => built.input('z', f32([2])), 'InvalidStateError');
  });
  await t.test('If this can not build (context lost), then throw an "InvalidStateError"', async () => {
    const lost = await lostBuilder();
    throwsWith(() => lost.input('z', f32([2])), 'InvalidStateError');
  });
  await t.test('"can not build" comes before the name steps (built builder, empty name)', async () => {
    const built = await builtBuilder(context);
    throwsWith(() => built.input('', f32([2])), 'InvalidStateError');
  });
  await t.test('If name is empty, then throw a TypeError', () => {
    throwsWith(() => b.input('', f32([2])), 'TypeError');
  });
  await t.test('If an input of the graph has a [[name]] equal to name, then throw a TypeError', () => {
    b.input('dup', f32([2]));
    throwsWith(() => b.input('dup', f32([2])), 'TypeError');
    throwsWith(() => b.input('dup', { dataType: 'int8', shape: [7] }), 'TypeError');
  });
  await t.test('If checking dimensions returns false (a dimension of 0), then throw a TypeError', () => {
    throwsWith(() => b.input('zero', f32([2, 0])), 'TypeError');
  });
  await t.test('If checking dimensions returns false (a dimension of 2^31, not in the range of long), then throw a TypeError', () => {
    throwsWith(() => b.input('huge', { dataType: 'uint8', shape: [2 ** 31] }), 'TypeError');
  });
  await t.test('If checking dimensions returns false (element count 46341 * 46341 > 2^31 - 1), then throw a TypeError', () => {
    throwsWith(() => b.input('count', { dataType: 'uint8', shape: [46341, 46341] }), 'TypeError');
  });
  await t.test('a failed input() adds no input: its name stays free', () => {
    throwsWith(() => b.input('again', f32([0])), 'TypeError');
    assertDescriptor(b.input('again', f32([1])), ['float32', [1]]);
  });
});

vtest('constant(descriptor, buffer)', async (t) => {
  const context = await sharedContext();
  const b = new MLGraphBuilder(context);
  for (const [dataType, View] of Object.entries(views)) {
    await t.test(`returns an operand with descriptor (${dataType} from its ${View.name})`, () => {
      assertDescriptor(b.constant({ dataType, shape: [2, 2] }, new View(4)), [dataType, [2, 2]]);
    });
  }
  await t.test('a Uint8Array matches any data type (float16)', () => {
    assertDescriptor(b.constant({ dataType: 'float16', shape: [3] }, new Uint8Array(6)), ['float16', [3]]);
  });
  await t.test('a Uint8Array matches any data type (int64)', () => {
    assertDescriptor(b.constant({ dataType: 'int64', shape: [1] }, new Uint8Array(8)), ['int64', [1]]);
  });
  await t.test('an ArrayBuffer of the byte length', () => {
    assertDescriptor(b.constant({ dataType: 'int32', shape: [3] }, new ArrayBuffer(12)), ['int32', [3]]);
  });
  await t.test('a SharedArrayBuffer of the byte length', () => {
    assertDescriptor(b.constant({ dataType: 'float16', shape: [2] }, new SharedArrayBuffer(4)), ['float16', [2]]);
  });
  await t.test('a scalar (shape « ») of one element', () => {
    assertDescriptor(b.constant({ dataType: 'float32', shape: [] }, new Float32Array([7])), ['float32', []]);
  });
  await t.test('If this can not build ([[hasBuilt]]), then throw an "InvalidStateError"', async () => {
    const built = await builtBuilder(context);
    throwsWith(() => built.constant(f32([2]), new Float32Array(2)), 'InvalidStateError');
  });
  await t.test('If this can not build (context lost), then throw an "InvalidStateError"', async () => {
    const lost = await lostBuilder();
    throwsWith(() => lost.constant(f32([2]), new Float32Array(2)), 'InvalidStateError');
  });
  await t.test('"can not build" comes before the buffer steps (built builder, wrong buffer)', async () => {
    const built = await builtBuilder(context);
    throwsWith(() => built.constant(f32([2]), new Float32Array(3)), 'InvalidStateError');
  });
  await t.test('If checking dimensions returns false (a dimension of 0), then throw a TypeError', () => {
    throwsWith(() => b.constant(f32([0]), new ArrayBuffer(0)), 'TypeError');
  });
  await t.test('If checking dimensions returns false (element count above 2^31 - 1), then throw a TypeError', () => {
    throwsWith(() => b.constant({ dataType: 'uint8', shape: [65536, 65536] }, new Uint8Array(1)), 'TypeError');
  });
  await t.test("If validating buffer with descriptor returns false (byte length too small), then throw a TypeError", () => {
    throwsWith(() => b.constant(f32([2, 2]), new Float32Array(3)), 'TypeError');
  });
  await t.test("If validating buffer with descriptor returns false (byte length too large), then throw a TypeError", () => {
    throwsWith(() => b.constant(f32([2]), new ArrayBuffer(12)), 'TypeError');
  });
  await t.test('If validating buffer with descriptor returns false (a view of another type: Int32Array for float32), then throw a TypeError', () => {
    throwsWith(() => b.constant(f32([2]), new Int32Array(2)), 'TypeError');
  });
  await t.test('If validating buffer with descriptor returns false (Float32Array for int32), then throw a TypeError', () => {
    throwsWith(() => b.constant({ dataType: 'int32', shape: [2] }, new Float32Array(2)), 'TypeError');
  });
  await t.test('If validating buffer with descriptor returns false (Int8Array for uint8), then throw a TypeError', () => {
    throwsWith(() => b.constant({ dataType: 'uint8', shape: [2] }, new Int8Array(2)), 'TypeError');
  });
  await t.test('If validating buffer with descriptor returns false (Uint8ClampedArray is not a Uint8Array), then throw a TypeError', () => {
    throwsWith(() => b.constant({ dataType: 'uint8', shape: [2] }, new Uint8ClampedArray(2)), 'TypeError');
  });
  await t.test('If validating buffer with descriptor returns false (a DataView matches no data type), then throw a TypeError', () => {
    throwsWith(() => b.constant(f32([2]), new DataView(new ArrayBuffer(8))), 'TypeError');
  });
});

vtest('constant(tensor)', async (t) => {
  const context = await sharedContext();
  const b = new MLGraphBuilder(context);
  const desc = { dataType: 'int32', shape: [2, 3] };
  await t.test("returns an operand with the tensor's descriptor", async () => {
    const tensor = await context.createConstantTensor(desc, new Int32Array(6));
    assertDescriptor(b.constant(tensor), ['int32', [2, 3]]);
  });
  await t.test("If tensor's [[context]] is not this's [[context]], then throw a TypeError", async () => {
    const other = await ml.createContext();
    const tensor = await other.createConstantTensor(desc, new Int32Array(6));
    throwsWith(() => b.constant(tensor), 'TypeError');
    other.destroy();
  });
  await t.test("If tensor's [[isDestroyed]] is true, then throw a TypeError", async () => {
    const tensor = await context.createConstantTensor(desc, new Int32Array(6));
    tensor.destroy();
    throwsWith(() => b.constant(tensor), 'TypeError');
  });
  await t.test("If tensor's [[isConstant]] is false, then throw a TypeError", async () => {
    const tensor = await context.createTensor({ ...desc, writable: true, readable: true });
    throwsWith(() => b.constant(tensor), 'TypeError');
    tensor.destroy();
  });
  await t.test('If this can not build ([[hasBuilt]]), then throw an "InvalidStateError"', async () => {
    const tensor = await context.createConstantTensor(desc, new Int32Array(6));
    const built = await builtBuilder(context);
    throwsWith(() => built.constant(tensor), 'InvalidStateError');
  });
  await t.test('the tensor steps come before "can not build" (built builder, a tensor that is not constant: TypeError)', async () => {
    const tensor = await context.createTensor({ ...desc, writable: true });
    const built = await builtBuilder(context);
    throwsWith(() => built.constant(tensor), 'TypeError');
    tensor.destroy();
  });
});

vtest('constant(dataType, value)', async (t) => {
  const context = await sharedContext();
  const b = new MLGraphBuilder(context);
  for (const dataType of dataTypes) {
    await t.test(`returns a scalar operand, shape « » (${dataType})`, () => {
      assertDescriptor(b.constant(dataType, 3), [dataType, []]);
    });
  }
  await t.test('casting the value never fails (1e40 to int8, -1 to uint8, NaN to int32, 2^64 to int64)', () => {
    assertDescriptor(b.constant('int8', 1e40), ['int8', []]);
    assertDescriptor(b.constant('uint8', -1), ['uint8', []]);
    assertDescriptor(b.constant('int32', NaN), ['int32', []]);
    assertDescriptor(b.constant('int64', 2n ** 64n), ['int64', []]);
    assertDescriptor(b.constant('float16', 1e10), ['float16', []]);
  });
  await t.test('If this can not build ([[hasBuilt]]), then throw an "InvalidStateError"', async () => {
    const built = await builtBuilder(context);
    throwsWith(() => built.constant('float32', 1), 'InvalidStateError');
  });
  await t.test('If this can not build (context lost), then throw an "InvalidStateError"', async () => {
    const lost = await lostBuilder();
    throwsWith(() => lost.constant('float32', 1), 'InvalidStateError');
  });
});

vtest('build(outputs)', async (t) => {
  const context = await sharedContext();
  await t.test('resolves with an MLGraph (two outputs)', async () => {
    const b = new MLGraphBuilder(context);
    const x = b.input('x', f32([2]));
    const graph = await b.build({ a: b.relu(x), b: b.neg(x) });
    assert.ok(graph instanceof webnn.MLGraph);
    graph.destroy();
  });
  await t.test('no step forbids one operand under two names, an output named like an input, or a graph without inputs', async () => {
    const b = new MLGraphBuilder(context);
    const x = b.input('x', f32([2]));
    const y = b.relu(x);
    (await b.build({ a: y, b: y, x: b.neg(x) })).destroy();
    const k = new MLGraphBuilder(context);
    (await k.build({ y: k.neg(k.constant('float32', 2)) })).destroy();
  });
  await t.test('If this can not build ([[hasBuilt]]), then return a promise rejected with an "InvalidStateError"', async () => {
    const b = new MLGraphBuilder(context);
    const y = b.relu(b.input('x', f32([2])));
    (await b.build({ y })).destroy();
    await rejectsWith(() => b.build({ y }), 'InvalidStateError');
  });
  await t.test('[[hasBuilt]] is set before build() returns: a second call rejects, an op throws', async () => {
    const b = new MLGraphBuilder(context);
    const x = b.input('x', f32([2]));
    const y = b.relu(x);
    const first = b.build({ y });
    await rejectsWith(() => b.build({ y }), 'InvalidStateError');
    throwsWith(() => b.relu(x), 'InvalidStateError');
    (await first).destroy();
  });
  await t.test('If this can not build (context lost), then return a promise rejected with an "InvalidStateError"', async () => {
    const lostContext = await ml.createContext();
    const b = new MLGraphBuilder(lostContext);
    const y = b.relu(b.input('x', f32([2])));
    lostContext.destroy();
    await rejectsWith(() => b.build({ y }), 'InvalidStateError');
  });
  await t.test('"can not build" comes before the outputs steps (built builder, empty outputs)', async () => {
    const b = await builtBuilder(context);
    await rejectsWith(() => b.build({}), 'InvalidStateError');
  });
  await t.test('If outputs is empty, then return a promise rejected with a TypeError', async () => {
    const b = new MLGraphBuilder(context);
    b.relu(b.input('x', f32([2])));
    await rejectsWith(() => b.build({}), 'TypeError');
  });
  await t.test('If name is empty, then return a promise rejected with a TypeError', async () => {
    const b = new MLGraphBuilder(context);
    const y = b.relu(b.input('x', f32([2])));
    await rejectsWith(() => b.build({ '': y }), 'TypeError');
  });
  await t.test('If validating operand returns false (an operand of another builder), then return a promise rejected with a TypeError', async () => {
    const b = new MLGraphBuilder(context);
    const other = new MLGraphBuilder(context);
    const y = b.relu(b.input('x', f32([2])));
    const z = other.relu(other.input('x', f32([2])));
    await rejectsWith(() => b.build({ y, z }), 'TypeError');
  });
  await t.test("If operand is in this's graph's inputs, then return a promise rejected with a TypeError", async () => {
    const b = new MLGraphBuilder(context);
    const x = b.input('x', f32([2]));
    await rejectsWith(() => b.build({ y: b.relu(x), x }), 'TypeError');
  });
  await t.test("If operand is in this's graph's constants, then return a promise rejected with a TypeError", async () => {
    const b = new MLGraphBuilder(context);
    const c = b.constant(f32([2]), new Float32Array(2));
    await rejectsWith(() => b.build({ c }), 'TypeError');
  });
  await t.test("If operand is in this's graph's constants (a scalar constant), then return a promise rejected with a TypeError", async () => {
    const b = new MLGraphBuilder(context);
    const c = b.constant('float32', 1);
    await rejectsWith(() => b.build({ c }), 'TypeError');
  });
  await t.test("If operand is in this's graph's constants (from a constant tensor), then return a promise rejected with a TypeError", async () => {
    const b = new MLGraphBuilder(context);
    const c = b.constant(await context.createConstantTensor(f32([2]), new Float32Array(2)));
    await rejectsWith(() => b.build({ c }), 'TypeError');
  });
  await t.test('a rejected build() leaves [[hasBuilt]] false: the builder still builds', async () => {
    const b = new MLGraphBuilder(context);
    const x = b.input('x', f32([2]));
    const y = b.relu(x);
    await rejectsWith(() => b.build({ x }), 'TypeError');
    await rejectsWith(() => b.build({}), 'TypeError');
    assert.ok(b.neg(y) instanceof MLOperand);
    (await b.build({ y })).destroy();
  });
});
