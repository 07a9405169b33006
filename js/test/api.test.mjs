// The package's behaviour as the spec and WebIDL define it: errors (TypeError and DOMException
// names, thrown or rejected), promises on the context timeline, MLNumber and buffer sources,
// lifetimes, and an event loop that never waits for a compute or a compile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { webnn, backends } from './support.mjs';

const { ml, MLGraphBuilder, MLTensor, MLOperand } = webnn;
const f32 = (shape) => ({ dataType: 'float32', shape });

async function rejectsWith(promise, name) {
  assert.ok(promise instanceof Promise, 'returns a promise (a rejection, not a throw)');
  await assert.rejects(promise, (e) => {
    assert.equal(e.name, name, e.message);
    if (name === 'TypeError') assert.ok(e instanceof TypeError);
    else assert.ok(e instanceof DOMException);
    return true;
  });
}

function throwsWith(fn, name) {
  assert.throws(fn, (e) => {
    assert.equal(e.name, name, e.message);
    if (name === 'TypeError') assert.ok(e instanceof TypeError);
    else assert.ok(e instanceof DOMException, `${e} is a DOMException`);
    return true;
  });
}

// c = relu(a + b), shapes [n]
async function addRelu(context, n = 4) {
  const b = new MLGraphBuilder(context);
  const x = b.input('a', f32([n]));
  const y = b.input('b', f32([n]));
  return b.build({ c: b.relu(b.add(x, y)) });
}

// addRelu's graph with tensors for it: a and b writable, c readable.
async function addReluWithTensors(context) {
  const graph = await addRelu(context);
  const [a, b, c] = await Promise.all([
    context.createTensor({ ...f32([4]), writable: true }),
    context.createTensor({ ...f32([4]), writable: true }),
    context.createTensor({ ...f32([4]), readable: true }),
  ]);
  return { graph, a, b, c };
}

// Waits until a compute of `context` has reached the gate of webnn._testing.holdComputes.
async function untilHeld(context) {
  while (webnn._testing.computesArrived(context) < 1) await new Promise((r) => setTimeout(r, 1));
}

test('createContext: backends, options and their errors', async () => {
  for (const backend of backends) {
    const c = await ml.createContext({ backend });
    assert.equal(c.accelerated, true, 'accelerated reflects the option (spec: [[accelerated]])');
    c.destroy();
  }
  const cpu = await ml.createContext({ accelerated: false, powerPreference: 'low-power' });
  assert.equal(cpu.accelerated, false);
  await rejectsWith(ml.createContext({ powerPreference: 'fastest' }), 'TypeError');
  await rejectsWith(ml.createContext({ backend: 'no-such-backend' }), 'NotSupportedError');
  await rejectsWith(ml.createContext({ numThreads: -1 }), 'TypeError');
  await rejectsWith(ml.createContext({ numThreads: 1e9 }), 'TypeError');
  await rejectsWith(ml.createContext(5), 'TypeError');
  await rejectsWith(ml.createContext.call({}), 'TypeError');
});

test('sync steps throw, async ones reject, with the spec names', async () => {
  const context = await ml.createContext();
  const b = new MLGraphBuilder(context);
  const x = b.input('x', f32([2]));
  throwsWith(() => b.input('x', f32([2])), 'TypeError'); // duplicate name
  throwsWith(() => b.input('', f32([2])), 'TypeError');
  throwsWith(() => b.input('y', { dataType: 'float32', shape: [0] }), 'TypeError');
  throwsWith(() => b.input('y', { shape: [2] }), 'TypeError'); // required member missing
  throwsWith(() => b.add(x), 'TypeError'); // not enough arguments
  throwsWith(() => b.add(x, {}), 'TypeError'); // not an MLOperand
  throwsWith(() => b.softmax(x, 5), 'TypeError'); // axis out of range (validation)
  throwsWith(() => b.conv2d(x, x, { inputLayout: 'nwhc' }), 'TypeError'); // enum
  throwsWith(() => b.relu.call({}, x), 'TypeError'); // illegal invocation
  await rejectsWith(b.build({ y: x }), 'TypeError'); // an input as output
  await rejectsWith(b.build('x'), 'TypeError');
  await rejectsWith(context.createTensor({ dataType: 'float32' }), 'TypeError');
  await rejectsWith(context.readTensor({}), 'TypeError');
  const y = b.relu(x);
  await b.build({ y });
  throwsWith(() => b.relu(x), 'InvalidStateError'); // built
  await rejectsWith(b.build({ y }), 'InvalidStateError');
  context.destroy();
  throwsWith(() => new MLGraphBuilder(context), 'InvalidStateError');
  await rejectsWith(context.createTensor(f32([2])), 'InvalidStateError');
});

test('dispatch, writeTensor and readTensor run in call order on the timeline', async () => {
  const context = await ml.createContext();
  const { graph, a, b, c } = await addReluWithTensors(context);
  const reads = [];
  for (let i = 0; i < 5; ++i) {
    context.writeTensor(a, new Float32Array([i, -i, 1, 2]));
    context.writeTensor(b, new Float32Array([1, 1, -5, 0]));
    context.dispatch(graph, { a, b }, { c });
    reads.push(context.readTensor(c));
  }
  const order = [];
  const results = await Promise.all(reads.map((p, i) => p.then((r) => (order.push(i), new Float32Array(r)))));
  assert.deepEqual(order, [0, 1, 2, 3, 4], 'promises settle in timeline order');
  results.forEach((r, i) => assert.deepEqual([...r], [i + 1, Math.max(0, 1 - i), 0, 2]));
  // BYOB: into a Uint8Array view of a bigger buffer, and a SharedArrayBuffer.
  const big = new Uint8Array(32);
  await context.readTensor(c, big.subarray(8, 24));
  assert.deepEqual([...new Float32Array(big.buffer, 8, 4)], [5, 0, 0, 2]);
  const shared = new SharedArrayBuffer(16);
  await context.readTensor(c, shared);
  assert.deepEqual([...new Float32Array(shared)], [5, 0, 0, 2]);
  await rejectsWith(context.readTensor(c, new Float32Array(3)), 'TypeError'); // too small
  await rejectsWith(context.readTensor(c, new Int32Array(4)), 'TypeError'); // wrong view type
  await rejectsWith(context.readTensor(a), 'TypeError'); // not readable
  throwsWith(() => context.writeTensor(c, new Float32Array(4)), 'TypeError'); // not writable
  throwsWith(() => context.writeTensor(a, new DataView(new ArrayBuffer(16))), 'TypeError');
  context.writeTensor(a, new Uint8Array(16)); // Uint8Array fits every type
  throwsWith(() => context.dispatch(graph, { a, b }, { c: a }), 'TypeError'); // a twice
  throwsWith(() => context.dispatch(graph, { a }, { c }), 'TypeError'); // b missing
  graph.destroy();
  throwsWith(() => context.dispatch(graph, { a, b }, { c }), 'InvalidStateError');
  context.destroy();
});

test('each read settles in a task of its own, also when the completions reach the event loop together', async () => {
  // The spec queues a task per settled read: the reactions to one run before the next settles.
  // The JavaScript thread is kept busy while the timeline runs all three reads, so that their
  // completions wait for it together (js/src/addon.hpp, Dispatcher).
  const context = await ml.createContext();
  const { graph, a, b, c } = await addReluWithTensors(context);
  context.writeTensor(a, new Float32Array([1, -2, 3, -4]));
  context.writeTensor(b, new Float32Array(4));
  webnn._testing.holdComputes(context);
  context.dispatch(graph, { a, b }, { c });
  const reads = [context.readTensor(c), context.readTensor(c), context.readTensor(c)];
  const pendingWhenSettled = [];
  reads.forEach((read) => read.then(() => pendingWhenSettled.push(reads.map((r) => inspect(r).includes('<pending>')))));
  await untilHeld(context);
  webnn._testing.releaseComputes(context);
  const busyUntil = Date.now() + 200;
  while (Date.now() < busyUntil);
  const results = await Promise.all(reads);
  for (const r of results) assert.deepEqual([...new Float32Array(r)], [1, 0, 3, 0]);
  assert.deepEqual(pendingWhenSettled, [
    [false, true, true],
    [false, false, true],
    [false, false, false],
  ]);
  context.destroy();
});

test('completions posted by many timelines at once each settle once, every context in its order', async () => {
  // Six timeline threads post 200 completions each into one environment's queue at the same time.
  const contexts = await Promise.all(Array.from({ length: 6 }, () => ml.createContext()));
  const order = contexts.map(() => []);
  const reads = [];
  for (const [k, context] of contexts.entries()) {
    const { graph, a, b, c } = await addReluWithTensors(context);
    const t = await context.createTensor({ ...f32([2]), readable: true, writable: true });
    webnn._testing.holdComputes(context);
    context.dispatch(graph, { a, b }, { c }); // the reads below queue behind it
    for (let i = 0; i < 200; ++i) {
      context.writeTensor(t, new Float32Array([k, i]));
      reads.push(
        context.readTensor(t).then((bytes) => {
          order[k].push(i);
          assert.deepEqual([...new Float32Array(bytes)], [k, i]);
        }),
      );
    }
  }
  for (const context of contexts) await untilHeld(context);
  for (const context of contexts) webnn._testing.releaseComputes(context);
  await Promise.all(reads);
  for (const o of order) assert.deepEqual(o, Array.from({ length: 200 }, (_, i) => i));
  for (const context of contexts) context.destroy();
});

test('destroy: lost resolves, pending reads reject with InvalidStateError', async () => {
  const context = await ml.createContext();
  const graph = await addRelu(context);
  const a = await context.createTensor({ ...f32([4]), writable: true, readable: true });
  const b = await context.createTensor({ ...f32([4]), writable: true });
  const c = await context.createTensor({ ...f32([4]), readable: true });
  webnn._testing.holdComputes(context);
  context.dispatch(graph, { a, b }, { c });
  const read = context.readTensor(c);
  const destroyedTensorRead = context.readTensor(a);
  await untilHeld(context);
  a.destroy();
  await rejectsWith(destroyedTensorRead, 'InvalidStateError');
  const lost = context.lost;
  context.destroy(); // returns at once, the compute still held on the timeline
  assert.deepEqual(await lost, { message: 'destroy() was called' });
  await rejectsWith(read, 'InvalidStateError');
  webnn._testing.releaseComputes(context);
  assert.equal(context.lost, lost, 'the same promise');
  await rejectsWith(context.readTensor(c), 'TypeError'); // destroyed with its context
  context.destroy(); // idempotent
});

// spec: readTensor's bytes are written to outputData, and its promise resolved, in a task queued
// for it; the context may copy the bytes before the call returns (its timeline had nothing left
// to run: docs/runtime.md), but the script that called sees outputData as it was.
test('readTensor(tensor, outputData) writes outputData in the task that settles it, not during the call', async () => {
  const context = await ml.createContext();
  const t = await context.createTensor({ ...f32([4]), readable: true, writable: true });
  for (let i = 0; i < 50; ++i) {
    context.writeTensor(t, new Float32Array([i, 2, 3, 4]));
    await context.readTensor(t); // the timeline soon has nothing left to run
    const out = new Float32Array(4).fill(-1);
    let settled = false;
    const read = context.readTensor(t, out).then(() => (settled = true));
    assert.deepEqual([...out], [-1, -1, -1, -1], 'untouched until the promise settles');
    await Promise.resolve();
    assert.equal(settled, false, 'not settled by a microtask of the calling script');
    await read;
    assert.deepEqual([...out], [i, 2, 3, 4]);
  }
  context.destroy();
});

test('MLTensor.destroy() rejects the reads still pending with InvalidStateError ([[pendingPromises]])', async () => {
  const context = await ml.createContext();
  const t = await context.createTensor({ ...f32([2, 3]), readable: true, writable: true });
  context.writeTensor(t, new Float32Array([1, 2, 3, 4, 5, 6]));
  assert.deepEqual([...new Float32Array(await context.readTensor(t))], [1, 2, 3, 4, 5, 6]);
  // Nothing held on the timeline: the reads would complete, but destroy() comes first in script.
  const copy = context.readTensor(t);
  const byob = new Float32Array(6).fill(-1);
  const into = context.readTensor(t, byob);
  t.destroy();
  await rejectsWith(copy, 'InvalidStateError');
  await rejectsWith(into, 'InvalidStateError');
  assert.deepEqual([...byob], [-1, -1, -1, -1, -1, -1], 'a rejected read writes nothing');
  await rejectsWith(context.readTensor(t), 'TypeError'); // spec: [[isDestroyed]] -> TypeError
  t.destroy(); // idempotent
  // A read that settled before destroy() stays as it was.
  const u = await context.createTensor({ ...f32([1]), readable: true, writable: true });
  context.writeTensor(u, new Float32Array([7]));
  const done = await context.readTensor(u);
  u.destroy();
  assert.deepEqual([...new Float32Array(done)], [7]);
  context.destroy();
});

test('the event loop keeps running during a long dispatch and a long build', async () => {
  const context = await ml.createContext();
  const { graph, a, b: b2, c } = await addReluWithTensors(context);
  webnn._testing.holdComputes(context);
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 1);
  context.dispatch(graph, { a, b: b2 }, { c }); // returns at once
  const read = context.readTensor(c);
  while (ticks < 20) await new Promise((r) => setTimeout(r, 1));
  assert.equal(webnn._testing.computesArrived(context), 1, 'the compute is running (held)');
  webnn._testing.releaseComputes(context);
  await read;
  // A build that takes a while: a chain of 300 convolutions compiled off the main thread.
  const b = new MLGraphBuilder(context);
  let x = b.input('x', f32([1, 16, 32, 32]));
  const w = b.constant(f32([16, 16, 3, 3]), new Float32Array(16 * 16 * 9).fill(0.01));
  for (let i = 0; i < 300; ++i) x = b.conv2d(x, w, { padding: [1, 1, 1, 1] });
  const before = ticks;
  const started = performance.now();
  const built = b.build({ y: x });
  const returnedAfter = performance.now() - started;
  await built;
  const buildMs = performance.now() - started;
  clearInterval(timer);
  assert.ok(returnedAfter < buildMs, 'build() returned before compiling');
  assert.ok(ticks - before >= 3, `timers fired ${ticks - before} times during a ${buildMs.toFixed(0)} ms build`);
  context.destroy();
});

test('MLNumber: BigInt held exactly; numbers and strings converted as WebIDL says', async () => {
  const context = await ml.createContext();
  const b = new MLGraphBuilder(context);
  const big = 2n ** 62n + 1n; // not a double
  const k = b.constant('int64', big);
  const u = b.constant('uint64', 2n ** 64n - 1n);
  const s = b.constant('float32', '0.5'); // ToNumeric("0.5")
  const huge = b.constant('int64', 2n ** 100n); // cast clamps
  const x = b.input('x', { dataType: 'int64', shape: [] });
  const y = b.clamp(x, { minValue: -(2n ** 62n), maxValue: big });
  const graph = await b.build({ k: b.identity(k), u: b.identity(u), s: b.identity(s), h: b.identity(huge), y });
  const out = {};
  const desc = { k: 'int64', u: 'uint64', s: 'float32', h: 'int64', y: 'int64' };
  for (const [n, t] of Object.entries(desc)) out[n] = await context.createTensor({ dataType: t, shape: [], readable: true });
  const tx = await context.createTensor({ dataType: 'int64', shape: [], writable: true });
  context.writeTensor(tx, new BigInt64Array([2n ** 63n - 1n]));
  context.dispatch(graph, { x: tx }, out);
  assert.equal(new BigInt64Array(await context.readTensor(out.k))[0], big);
  assert.equal(new BigUint64Array(await context.readTensor(out.u))[0], 2n ** 64n - 1n);
  assert.equal(new Float32Array(await context.readTensor(out.s))[0], 0.5);
  assert.equal(new BigInt64Array(await context.readTensor(out.h))[0], 2n ** 63n - 1n);
  assert.equal(new BigInt64Array(await context.readTensor(out.y))[0], big);
  throwsWith(() => new MLGraphBuilder(context).constant('float32', Symbol('x')), 'TypeError');
  context.destroy();
});

test('buffer sources: every kind accepted where it fits, detached and resizable refused', async () => {
  const context = await ml.createContext();
  const b = new MLGraphBuilder(context);
  const half = b.constant({ dataType: 'float16', shape: [2] }, new Uint16Array([0x3c00, 0xc000])); // 1, -2
  const fromShared = b.constant(f32([2]), new Float32Array(new SharedArrayBuffer(8)).fill(3));
  const fromBuffer = b.constant(f32([2]), new Float32Array([4, 5]).buffer);
  throwsWith(() => b.constant(f32([2]), new Float64Array(2)), 'TypeError');
  throwsWith(() => b.constant(f32([2]), new DataView(new ArrayBuffer(8))), 'TypeError');
  const resizable = new ArrayBuffer(8, { maxByteLength: 16 });
  if (resizable.resizable === true) throwsWith(() => b.constant(f32([2]), resizable), 'TypeError'); // Node 20+
  const detached = new ArrayBuffer(8);
  structuredClone(detached, { transfer: [detached] });
  throwsWith(() => b.constant(f32([2]), detached), 'TypeError');
  throwsWith(() => b.constant(f32([2]), 'abcdefgh'), 'TypeError');
  const graph = await b.build({
    h: b.cast(half, 'float32'),
    s: b.identity(fromShared),
    a: b.identity(fromBuffer),
  });
  const out = {};
  for (const n of ['h', 's', 'a']) out[n] = await context.createTensor({ ...f32([2]), readable: true });
  context.dispatch(graph, {}, out);
  assert.deepEqual([...new Float32Array(await context.readTensor(out.h))], [1, -2]);
  assert.deepEqual([...new Float32Array(await context.readTensor(out.s))], [3, 3]);
  assert.deepEqual([...new Float32Array(await context.readTensor(out.a))], [4, 5]);
  // A BYOB buffer detached while its read is pending: TypeError (spec).
  const ab = new ArrayBuffer(8);
  webnn._testing.holdComputes(context);
  context.dispatch(graph, {}, out);
  const pending = context.readTensor(out.a, ab);
  structuredClone(ab, { transfer: [ab] });
  webnn._testing.releaseComputes(context);
  await rejectsWith(pending, 'TypeError');
  context.destroy();
});

test('constant tensors, operand and tensor attributes', async () => {
  const context = await ml.createContext();
  const t = await context.createConstantTensor(f32([2]), new Float32Array([1, 2]));
  assert.ok(t instanceof MLTensor);
  assert.equal(t.constant, true);
  assert.equal(t.readable, false);
  assert.deepEqual(t.shape, [2]);
  assert.ok(Object.isFrozen(t.shape));
  assert.equal(t.shape, t.shape, 'the same FrozenArray each time');
  const b = new MLGraphBuilder(context);
  const k = b.constant(t);
  assert.ok(k instanceof MLOperand);
  assert.equal(k.dataType, 'float32');
  const graph = await b.build({ y: b.mul(k, k) });
  t.destroy(); // the graph keeps its constant (spec note)
  const y = await context.createTensor({ ...f32([2]), readable: true });
  context.dispatch(graph, {}, { y });
  assert.deepEqual([...new Float32Array(await context.readTensor(y))], [1, 4]);
  const plain = await context.createTensor({ ...f32([2]), writable: true });
  throwsWith(() => new MLGraphBuilder(context).constant(plain), 'TypeError'); // not constant
  await rejectsWith(context.createConstantTensor(f32([2]), new Float32Array(3)), 'TypeError');
  context.destroy();
});

test('operands of another builder and objects of another context are TypeErrors', async () => {
  const c1 = await ml.createContext();
  const c2 = await ml.createContext();
  const b1 = new MLGraphBuilder(c1);
  const b2 = new MLGraphBuilder(c2);
  const x1 = b1.input('x', f32([2]));
  const x2 = b2.input('x', f32([2]));
  throwsWith(() => b1.add(x1, x2), 'TypeError');
  throwsWith(() => b1.conv2d(x1, x1, { bias: x2 }), 'TypeError');
  await rejectsWith(b1.build({ y: x2 }), 'TypeError');
  const g2 = await b2.build({ y: b2.relu(x2) });
  const t1 = await c1.createTensor({ ...f32([2]), writable: true });
  const t2 = await c2.createTensor({ ...f32([2]), readable: true });
  throwsWith(() => c1.dispatch(g2, { x: t1 }, { y: t2 }), 'TypeError');
  throwsWith(() => c2.dispatch(g2, { x: t1 }, { y: t2 }), 'TypeError');
  await rejectsWith(c1.readTensor(t2), 'TypeError');
  // A builder keeps working after a failed call.
  const y1 = b1.relu(x1);
  await b1.build({ y1 });
  c1.destroy();
  c2.destroy();
});
