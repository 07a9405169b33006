// The package in whole processes: worker_threads (the addon is context-aware, each worker has its
// own contexts, a worker ended mid-compute goes cleanly), a process that exits with work queued,
// and objects freed by the garbage collector without destroy().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'index.js');

// Runs `source` (an ES module) in a fresh node; returns { status, signal, stdout, stderr }.
function node(source, args = []) {
  const r = spawnSync(process.execPath, [...args, '--input-type=module', '-e', source], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, WEBNN_PACKAGE: pkg },
  });
  return r;
}

const prelude = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const webnn = require(process.env.WEBNN_PACKAGE);
const { ml, MLGraphBuilder } = webnn;
async function matmulGraph(context, n) {
  const b = new MLGraphBuilder(context);
  const a = b.input('a', { dataType: 'float32', shape: [n, n] });
  let y = a;
  for (let i = 0; i < 8; ++i) y = b.matmul(y, a);
  return b.build({ y });
}
`;

test('worker_threads: each worker has its own contexts; a worker ended mid-compute goes cleanly', () => {
  const r = node(`${prelude}
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
const body = \`
  const { parentPort, workerData } = require('node:worker_threads');
  const { ml, MLGraphBuilder } = require(workerData.pkg);
  (async () => {
    const context = await ml.createContext();
    const b = new MLGraphBuilder(context);
    const x = b.input('x', { dataType: 'float32', shape: [2] });
    const graph = await b.build({ y: b.mul(x, b.constant('float32', workerData.k)) });
    const tx = await context.createTensor({ dataType: 'float32', shape: [2], writable: true });
    const ty = await context.createTensor({ dataType: 'float32', shape: [2], readable: true });
    context.writeTensor(tx, new Float32Array([1, 2]));
    context.dispatch(graph, { x: tx }, { y: ty });
    parentPort.postMessage([...new Float32Array(await context.readTensor(ty))]);
    if (workerData.hang) {
      const n = 512;
      const bb = new MLGraphBuilder(context);
      const a = bb.input('a', { dataType: 'float32', shape: [n, n] });
      let y = a;
      for (let i = 0; i < 16; ++i) y = bb.matmul(y, a);
      const g = await bb.build({ y });
      const ta = await context.createTensor({ dataType: 'float32', shape: [n, n], writable: true });
      const tb = await context.createTensor({ dataType: 'float32', shape: [n, n], readable: true });
      for (let i = 0; i < 50; ++i) context.dispatch(g, { a: ta }, { y: tb });
      parentPort.postMessage('computing');
      await context.readTensor(tb);
    }
  })();
\`;
const run = (k, hang = false) => new Promise((resolve, reject) => {
  const w = new Worker(body, { eval: true, execArgv: [], workerData: { pkg: process.env.WEBNN_PACKAGE, k, hang } });
  const messages = [];
  w.on('message', (m) => {
    messages.push(m);
    if (m === 'computing') w.terminate();
  });
  w.on('error', reject);
  w.on('exit', (code) => resolve({ code, messages }));
});
const results = await Promise.all([run(2), run(3), run(5, true)]);
const main = await ml.createContext();
const b = new MLGraphBuilder(main);
await b.build({ y: b.relu(b.input('x', { dataType: 'float32', shape: [1] })) });
console.log(JSON.stringify(results));
`);
  assert.equal(r.status, 0, r.stderr);
  const results = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.deepEqual(results[0], { code: 0, messages: [[2, 4]] });
  assert.deepEqual(results[1], { code: 0, messages: [[3, 6]] });
  assert.deepEqual(results[2].messages, [[5, 10], 'computing']);
  assert.equal(results[2].code, 1, 'terminated');
});

test('a process that exits with work queued exits cleanly', () => {
  for (const ending of ['process.exit(0)', '/* the script just ends */']) {
    const r = node(`${prelude}
const context = await ml.createContext();
const graph = await matmulGraph(context, 384);
const a = await context.createTensor({ dataType: 'float32', shape: [384, 384], writable: true });
const y = await context.createTensor({ dataType: 'float32', shape: [384, 384], readable: true });
for (let i = 0; i < 200; ++i) context.dispatch(graph, { a }, { y });
const pending = context.readTensor(y); // never awaited
console.log('queued');
${ending}
`);
    assert.equal(r.status, 0, `${ending}: ${r.stderr}`);
    assert.equal(r.signal, null);
    assert.match(r.stdout, /queued/);
  }
});

test('contexts, graphs and tensors dropped without destroy() are collected', () => {
  const r = node(
    `${prelude}
import fs from 'node:fs';
const threads = () => Number(/Threads:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
const before = threads();
for (let round = 0; round < 20; ++round) {
  for (let i = 0; i < 10; ++i) {
    const context = await ml.createContext();
    const graph = await matmulGraph(context, 64);
    const a = await context.createTensor({ dataType: 'float32', shape: [64, 64], writable: true });
    const y = await context.createTensor({ dataType: 'float32', shape: [64, 64], readable: true });
    context.dispatch(graph, { a }, { y });
    await context.readTensor(y);
  }
  await new Promise((r) => setTimeout(r, 10));
  globalThis.gc();
}
await new Promise((r) => setTimeout(r, 50));
globalThis.gc();
await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify({ before, after: threads(), rss: process.memoryUsage().rss }));
`,
    ['--expose-gc'],
  );
  assert.equal(r.status, 0, r.stderr);
  const { before, after, rss } = JSON.parse(r.stdout.trim().split('\n').pop());
  // 200 contexts were made, each with a timeline thread: collected ones have stopped theirs.
  assert.ok(after - before < 40, `threads: ${before} before, ${after} after 200 contexts`);
  assert.ok(rss < 1024 * 1024 * 1024, `rss ${rss}`);
});
