#!/usr/bin/env node
// A seeded random driver of the package (docs/javascript.md, "Bad input"), for the sanitizer build:
// random calls with random arguments — valid-ish ones typed by the spec's IDL, hostile ones
// (js/test/hostile.mjs), and WPT conformance graphs with arguments mutated — on random live
// contexts, builders, operands, tensors and graphs; promises awaited with a time limit; objects
// destroyed, dropped and garbage-collected at random (finalizers run while work is pending); a
// SharedArrayBuffer rewritten by another thread while it is written to tensors.
//
//   node js/tools/fuzz.mjs [--seconds N] [--seed S] [--backend NAME] [--verbose]
//
// Under scripts/sanitize.sh it runs on the AddressSanitizer + UBSan build of the addon
// (WEBNN_NODE_ADDON=build-asan/js/webnn.node, the sanitizer runtime preloaded): a memory error in
// the addon or the library aborts the run. Without a sanitizer it still checks what it can see:
// every error is a TypeError, the spec's DOMException or the caller's own exception; no promise
// stays pending past its limit; canary contexts made at the start (untouched by the random calls)
// compute the same numbers all along. It ends by exiting with work still queued on them. Exits 1
// on any finding, after printing them and the seed. The seed fixes every choice the driver makes,
// and every promise is settled before the next batch of calls, so a run repeats closely; the
// moments a worker is terminated or a finalizer runs still vary.
import { Worker } from 'node:worker_threads';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { types } from 'node:util';
import { webnn, backends, shared, tensorData, argument, conformanceCases, arrayTypes } from '../test/support.mjs';
import { model } from '../test/idl_model.mjs';
import { hostileValues, CallerError, detach } from '../test/hostile.mjs';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

function usage(message) {
  if (message) console.error(`fuzz.mjs: ${message}`);
  console.error('usage: node js/tools/fuzz.mjs [--seconds N] [--seed S] [--backend NAME] [--verbose]');
  process.exit(2);
}

const options = { seconds: 30, seed: Date.now() % 2 ** 31, backend: '', verbose: false };
for (let i = 2; i < process.argv.length; ++i) {
  const a = process.argv[i];
  const value = () => {
    if (i + 1 >= process.argv.length) usage(`${a} needs a value`);
    return process.argv[++i];
  };
  if (a === '--seconds') options.seconds = Number(value());
  else if (a === '--seed') options.seed = Number(value());
  else if (a === '--backend') options.backend = value();
  else if (a === '--verbose') options.verbose = true;
  else usage(`unknown argument ${a}`);
}
if (!(options.seconds > 0) || !Number.isInteger(options.seed)) usage('--seconds wants a positive number, --seed an integer');
const useBackends = options.backend ? [options.backend] : backends;

// ---- Randomness (xorshift32, seeded) ----
let state = options.seed >>> 0 || 1;
function random() {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 2 ** 32;
}
const chance = (p) => random() < p;
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const pick = (list) => list[Math.floor(random() * list.length)];

// ---- What happened ----
const kLimitMs = 30_000;
const stats = { calls: 0, ok: 0, caller: 0, errors: {}, actions: {}, made: { contexts: 0, builders: 0, operands: 0, graphs: 0, tensors: 0 }, dispatches: 0, reads: 0, gcs: 0 };
const findings = [];
const finding = (text) => {
  if (findings.length < 200) findings.push(text);
  if (options.verbose) console.log(`finding: ${text}`);
};
const kSpecDomExceptions = new Set(['DataError', 'OperationError', 'NotSupportedError', 'InvalidStateError', 'AbortError']);
const engineMessage = /^(Cannot read properties of|Cannot set properties of|.* is not a function|Cannot destructure)/;

// An error is acceptable when it is the spec's (TypeError, a DOMException the spec names) or the
// caller's own (a throwing getter's, ECMAScript's own RangeError for a 10^9-element array's
// string). Anything else is a finding.
const byLabel = {}; // label -> [succeeded, failed], for --verbose
const tally = (label, ok) => {
  const t = (byLabel[label.split(' ')[0]] ??= [0, 0]);
  t[ok ? 0 : 1] += 1;
};

function judgeError(label, e) {
  tally(label, false);
  if (e instanceof CallerError || (e instanceof RangeError && e.message === 'Invalid string length')) {
    stats.caller += 1;
    return;
  }
  const kind = e instanceof DOMException ? e.name : e instanceof TypeError ? 'TypeError' : `${e?.constructor?.name}`;
  stats.errors[kind] = (stats.errors[kind] ?? 0) + 1;
  if (e instanceof TypeError && !engineMessage.test(e.message)) return;
  if (e instanceof DOMException && kSpecDomExceptions.has(e.name)) return;
  finding(`${label}: ${kind}: ${e?.message}`);
}

const inflight = new Set();
// Calls `fn`; a promise it returns is tracked (settled within the limit, judged, `then` on success)
// unless it may rightly stay pending (`lost` of a live context): then only a rejection is judged.
function attempt(label, fn, then, { track = true } = {}) {
  stats.calls += 1;
  let value;
  try {
    value = fn();
  } catch (e) {
    judgeError(label, e);
    return undefined;
  }
  if (value instanceof Promise && !track) {
    value.catch((e) => judgeError(label, e));
    return undefined;
  }
  if (value instanceof Promise) {
    const entry = { label, started: Date.now() };
    const p = value.then(
      (v) => {
        stats.ok += 1;
        tally(label, true);
        if (then) then(v);
      },
      (e) => judgeError(label, e),
    );
    entry.promise = p.finally(() => inflight.delete(entry));
    inflight.add(entry);
    return undefined;
  }
  stats.ok += 1;
  tally(label, true);
  return value;
}

// Waits for every promise in flight (so that the pools, and the run, follow from the seed); one
// pending past the limit is a hang.
async function settle() {
  const deadline = Date.now() + kLimitMs;
  while (inflight.size && Date.now() < deadline) {
    let timer;
    await Promise.race([...[...inflight].map((e) => e.promise), new Promise((r) => (timer = setTimeout(r, 100)))]);
    clearTimeout(timer);
  }
  for (const entry of inflight) finding(`${entry.label}: not settled after ${kLimitMs / 1000} s (a hang)`);
  inflight.clear();
}

// ---- The IDL, the hostile values, the live objects ----
const m = model();
const memberNames = new Set();
for (const name of m.dictionaries.keys()) for (const member of m.members(name)) memberNames.add(member.name);
const hostile = hostileValues([...memberNames]);
const operatorNames = Object.keys(webnn._testing.generated.operators);
const builderOps = m.interfaces.get('MLGraphBuilder').operations;
const { ml, MLGraphBuilder } = webnn;

const live = { contexts: [], builders: [], graphs: [], tensors: [] };
const kCaps = { contexts: 4, builders: 24, graphs: 24, tensors: 160 };
let names = 0;

const dataTypes = ['float32', 'float32', 'float32', 'float16', 'int32', 'uint32', 'int64', 'uint64', 'int8', 'uint8'];
const count = (shape) => shape.reduce((a, b) => a * b, 1);
const randomShape = () => Array.from({ length: int(0, 4) }, () => int(1, 4));
const randomDescriptor = () => ({ dataType: pick(dataTypes), shape: randomShape() });

// Data of a descriptor: the right typed array with random values, or (sometimes) a Uint8Array, a
// SharedArrayBuffer view, or bytes of the wrong length.
function dataFor(desc) {
  const Type = arrayTypes[desc.dataType] ?? Float32Array;
  const n = count(desc.shape ?? []);
  const r = random();
  if (r < 0.05) return new Type(n + 1);
  if (r < 0.1) return new Uint8Array(n * Type.BYTES_PER_ELEMENT);
  if (r < 0.15) return new Uint8Array(sharedBytes.buffer, 0, Math.min(n * Type.BYTES_PER_ELEMENT, sharedBytes.length));
  const a = new Type(n);
  for (let i = 0; i < n; ++i) a[i] = Type === BigInt64Array || Type === BigUint64Array ? BigInt(int(0, 9)) : int(-8, 8) / 2;
  return a;
}

function pickHostile(valid, record) {
  const h = pick(hostile);
  const ctx = {
    valid,
    log: [],
    buffers: ArrayBuffer.isView(valid) ? [valid.buffer] : [],
    objects: hostileObjects(record),
  };
  return h.make(ctx);
}

// Real objects in the wrong place or state, from what is live now.
function hostileObjects(record) {
  const otherBuilder = pick(live.builders.filter((b) => b !== record && b.operands.length));
  return {
    foreignOperand: otherBuilder ? pick(otherBuilder.operands).operand : undefined,
    foreignTensor: pick(live.tensors)?.tensor,
    destroyedTensor: pick(live.tensors.filter((t) => t.destroyed))?.tensor,
    foreignGraph: pick(live.graphs)?.graph,
    destroyedGraph: pick(live.graphs.filter((g) => g.destroyed))?.graph,
    destroyedContext: pick(live.contexts.filter((c) => c.destroyed))?.context,
  };
}

// A random value of an IDL type, mostly valid-ish, `hostileRate` of the time hostile.
function generate(type, record, hostileRate) {
  const valid = validish(type, record);
  return chance(hostileRate) ? pickHostile(valid, record) : valid;
}

function validish(type, record) {
  switch (type.kind) {
    case 'interface':
      if (type.name === 'MLOperand') {
        const from = chance(0.95) ? record : pick(live.builders);
        return from?.operands.length ? pick(from.operands).operand : undefined;
      }
      if (type.name === 'MLTensor') return pick(live.tensors)?.tensor;
      if (type.name === 'MLGraph') return pick(live.graphs)?.graph;
      if (type.name === 'MLContext') return pick(live.contexts)?.context;
      return undefined;
    case 'dictionary': {
      if (type.name === 'MLOperandDescriptor' || type.name === 'MLTensorDescriptor')
        return { ...randomDescriptor(), readable: chance(0.5), writable: chance(0.5) };
      const out = {};
      for (const member of m.members(type.name)) if (member.required || chance(0.3)) out[member.name] = generate(member.type, record, 0.05);
      return out;
    }
    case 'enum':
      return chance(0.02) ? 'bogus' : pick(type.values);
    case 'integer':
      return chance(0.9) ? int(0, 4) : pick([2 ** 32 - 1, 2 ** 31, 1e6]);
    case 'double':
      return pick([0, 1, -1, 0.5, 2, 1e-5, -0, 3.5, 1e30]);
    case 'union':
      if (type.members.some((t) => t.kind === 'bigint')) return chance(0.3) ? pick([0n, 1n, -1n, 2n ** 63n - 1n, 2n ** 64n - 1n]) : pick([0, 1, -2.5, NaN, Infinity, -Infinity, 2 ** 53]);
      return chance(0.5) ? int(1, 4) : Array.from({ length: int(1, 3) }, () => int(1, 3));
    case 'sequence':
      if (type.item.kind === 'interface') return Array.from({ length: int(1, 3) }, () => validish(type.item, record));
      return Array.from({ length: int(0, 4) }, () => validish(type.item, record));
    case 'record': {
      const out = {};
      for (let i = int(1, 3); i > 0; --i) out[`out${i}`] = validish(type.value, record);
      return out;
    }
    case 'buffer':
      return dataFor(randomDescriptor());
    case 'string':
      return pick(['x', `n${names++}`, `n${names++}`, '', 'a\0b']);
    case 'boolean':
      return chance(0.5);
    case 'object':
      return {};
    default:
      return undefined;
  }
}

// The graph inputs an operand depends on, from the MLOperands among its arguments.
function dependencies(record, args) {
  const deps = new Set();
  // Only the driver's own arrays and dictionaries are looked into: not a hostile 10^9-element
  // array, nor a Proxy (whose traps may throw).
  const visit = (v, depth) => {
    if (depth > 3 || v === null || typeof v !== 'object' || types.isProxy(v)) return;
    const known = record.deps.get(v);
    if (known) {
      for (const d of known) deps.add(d);
      return;
    }
    if (Array.isArray(v) && v.length <= 64) v.forEach((x) => visit(x, depth + 1));
    else if (Object.getPrototypeOf(v) === Object.prototype) Object.values(v).forEach((x) => visit(x, depth + 1));
  };
  try {
    visit(args, 0);
  } catch (e) {
    if (!(e instanceof CallerError)) throw e; // a hostile value's getter
  }
  return deps;
}

function addOperands(record, result, deps) {
  for (const operand of Array.isArray(result) ? result : [result]) {
    if (!(operand instanceof webnn.MLOperand)) continue;
    record.operands.push({ operand, deps });
    record.deps.set(operand, deps);
    stats.made.operands += 1;
  }
}

function newBuilderRecord(contextRecord) {
  const builder = attempt('new MLGraphBuilder', () => new MLGraphBuilder(contextRecord.context));
  if (!builder) return undefined;
  const record = { builder, context: contextRecord, operands: [], deps: new Map(), inputs: new Map(), built: false };
  live.builders.push(record);
  stats.made.builders += 1;
  return record;
}

// ---- The canaries: made first, never handed to a random call ----
const canaries = [];
const sharedBytes = new Uint8Array(new SharedArrayBuffer(4096 + 4), 0, 4096);
const writer = new Worker(
  `const { workerData } = require('node:worker_threads');
   const bytes = new Uint8Array(workerData, 0, 4096);
   const stop = new Int32Array(workerData, 4096, 1);
   for (let i = 0; Atomics.load(stop, 0) === 0; ++i) bytes.fill(i & 1 ? 0xaa : 0x55);`,
  { eval: true, workerData: sharedBytes.buffer },
);

async function makeCanary(backend) {
  const context = await ml.createContext({ backend });
  const b = new MLGraphBuilder(context);
  const d = { dataType: 'float32', shape: [4] };
  const graph = await b.build({ c: b.relu(b.add(b.input('a', d), b.constant(d, new Float32Array([0.5, 0.5, 0.5, 0.5])))) });
  const a = await context.createTensor({ ...d, writable: true });
  const c = await context.createTensor({ ...d, readable: true });
  const kept = await context.createTensor({ ...d, readable: true, writable: true });
  context.writeTensor(kept, new Float32Array([9, 8, 7, 6]));
  return { backend, context, graph, a, c, kept };
}

async function checkCanary(canary, when) {
  const { context } = canary;
  context.writeTensor(canary.a, new Float32Array([1, -2, 3, -4]));
  context.dispatch(canary.graph, { a: canary.a }, { c: canary.c });
  const got = [...new Float32Array(await context.readTensor(canary.c))].join();
  if (got !== '1.5,0,3.5,0') finding(`canary on ${canary.backend} ${when}: computes ${got}`);
  const kept = [...new Float32Array(await context.readTensor(canary.kept))].join();
  if (kept !== '9,8,7,6') finding(`canary on ${canary.backend} ${when}: a tensor written at the start holds ${kept}`);
}

// ---- WPT conformance graphs, to mutate ----
const cases = [];
for (const set of ['conformance', 'conformance-extra']) {
  for (const c of conformanceCases(path.join(shared, 'wpt', set))) {
    const size = Object.values(c.graph.inputs).reduce((n, e) => n + count(e.descriptor.shape), 0);
    if (size <= 1024 && Object.values(c.graph.inputs).every((e) => Array.isArray(e.data))) cases.push(c.graph);
  }
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webnn-fuzz-'));
const graphFiles = [path.join(dir, 'tiny.webnn'), path.join(dir, 'garbage.json'), path.join(dir, 'missing.onnx')];
fs.writeFileSync(graphFiles[0], 'webnn_graph "tiny" v2 {\n  inputs { x: f32[2]; }\n  nodes { y = relu(x); }\n  outputs { y; }\n}\n');
fs.writeFileSync(graphFiles[1], '{"format": "webnn-graph-json", "version": 2, "inputs": {"x": ');

const packagePath = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'index.js');
const workers = new Set();
const workerSource = `
  const { workerData } = require('node:worker_threads');
  const webnn = require(workerData.pkg);
  (async () => {
    const c = await webnn.ml.createContext({ backend: workerData.backend });
    const b = new webnn.MLGraphBuilder(c);
    const d = { dataType: 'float32', shape: [32, 32] };
    let y = b.input('x', d);
    for (let i = 0; i < 8; ++i) y = b.matmul(y, b.constant(d, new Float32Array(1024).fill(0.01)));
    const g = await b.build({ y });
    const x = await c.createTensor({ ...d, writable: true });
    const out = await c.createTensor({ ...d, readable: true });
    for (;;) {
      c.writeTensor(x, new Float32Array(1024).fill(1));
      c.dispatch(g, { x }, { y: out });
      await c.readTensor(out);
    }
  })();
`;

// ---- Actions ----
const liveContexts = () => live.contexts.filter((c) => !c.destroyed);
const openBuilders = () => live.builders.filter((b) => !b.built);

const actions = {
  createContext: [3, () => {
    if (liveContexts().length >= kCaps.contexts) return;
    const opts = chance(0.8) ? { backend: pick(useBackends), numThreads: int(0, 2) } : generate(m.typeOf({ idlType: 'MLContextOptions' }), null, 0.3);
    attempt('createContext', () => ml.createContext(opts), (context) => {
      live.contexts.push({ context, backend: opts?.backend, destroyed: false });
      stats.made.contexts += 1;
    });
  }],
  newBuilder: [4, () => {
    if (live.contexts.length) newBuilderRecord(pick(live.contexts));
  }],
  input: [10, () => {
    const record = pick(openBuilders());
    if (!record) return;
    const name = chance(0.95) ? `in${names++}` : generate({ kind: 'string' }, record, 0.5);
    const desc = chance(0.9) ? randomDescriptor() : generate(m.typeOf({ idlType: 'MLOperandDescriptor' }), record, 0.5);
    const operand = attempt('input', () => record.builder.input(name, desc));
    if (operand) {
      record.inputs.set(name, operand);
      addOperands(record, operand, new Set([name]));
    }
  }],
  constant: [6, () => {
    const record = pick(openBuilders());
    if (!record) return;
    const r = random();
    let operand;
    if (r < 0.6) {
      const desc = randomDescriptor();
      const data = dataFor(desc);
      operand = attempt('constant(descriptor, buffer)', () => record.builder.constant(chance(0.9) ? desc : pickHostile(desc, record), data));
    } else if (r < 0.85) {
      operand = attempt('constant(type, value)', () =>
        record.builder.constant(pick(dataTypes), generate(m.typeOf({ idlType: 'MLNumber' }), record, 0.1)),
      );
    } else {
      const t = pick(live.tensors);
      if (t) operand = attempt('constant(tensor)', () => record.builder.constant(t.tensor));
    }
    if (operand) addOperands(record, operand, new Set());
  }],
  operator: [30, () => {
    const record = pick(openBuilders());
    if (!record || record.operands.length === 0) return;
    const name = pick(operatorNames);
    const operation = builderOps.get(name)[0];
    const args = [];
    for (const a of operation.arguments) {
      if (a.optional && chance(0.3)) break;
      args.push(generate(m.argType(a), record, 0.03));
    }
    const result = attempt(`MLGraphBuilder.${name}`, () => record.builder[name](...args));
    if (result) addOperands(record, result, dependencies(record, args));
  }],
  build: [5, () => {
    const record = pick(openBuilders());
    if (!record) return;
    const candidates = record.operands.filter((o) => !(o.deps.size === 1 && record.inputs.get([...o.deps][0]) === o.operand));
    if (!candidates.length && chance(0.9)) return;
    const outputs = {};
    for (let i = int(1, 3); i > 0 && candidates.length; --i) outputs[`out${i}`] = pick(candidates).operand;
    const hostileOutputs = chance(0.05);
    if (!hostileOutputs) record.built = true;
    attempt('build', () => record.builder.build(hostileOutputs ? pickHostile(outputs, record) : outputs), (graph) => {
      record.built = true;
      const inputs = new Set();
      for (const o of Object.values(outputs)) for (const d of record.deps.get(o) ?? []) inputs.add(d);
      const describe = (o) => ({ dataType: o.dataType, shape: [...o.shape] });
      live.graphs.push({
        graph,
        context: record.context,
        inputs: [...inputs].map((n) => [n, describe(record.inputs.get(n))]),
        outputs: Object.entries(outputs).map(([n, o]) => [n, describe(o)]),
        destroyed: false,
      });
      stats.made.graphs += 1;
    });
  }],
  wptGraph: [4, () => {
    const contextRecord = pick(liveContexts());
    if (!contextRecord || !cases.length) return;
    const kase = pick(cases);
    const record = newBuilderRecord(contextRecord);
    if (!record) return;
    const operands = {};
    for (const [n, entry] of Object.entries(kase.inputs)) {
      const desc = { dataType: entry.descriptor.dataType, shape: entry.descriptor.shape };
      const operand = attempt('wpt input', () => (entry.constant ? record.builder.constant(desc, tensorData(entry)) : record.builder.input(n, desc)));
      if (!operand) return;
      operands[n] = operand;
      if (!entry.constant) record.inputs.set(n, operand);
      addOperands(record, operand, entry.constant ? new Set() : new Set([n]));
    }
    for (const op of kase.operators) {
      const operation = builderOps.get(op.name)?.[0];
      const args = op.arguments.map((a, i) => {
        const v = argument(Object.values(a)[0], operands);
        return chance(0.08) && operation?.arguments[i] ? generate(m.argType(operation.arguments[i]), record, 0.5) : v;
      });
      const result = attempt(`wpt ${op.name}`, () => record.builder[op.name](...args));
      if (!result) return;
      const outs = Array.isArray(op.outputs) ? op.outputs : [op.outputs];
      const results = Array.isArray(result) ? result : [result];
      outs.forEach((n, i) => (operands[n] = results[i]));
      addOperands(record, result, dependencies(record, args));
    }
    const outputs = {};
    for (const n of Object.keys(kase.expectedOutputs)) if (operands[n]) outputs[n] = operands[n];
    record.built = true;
    attempt('wpt build', () => record.builder.build(outputs), (graph) => {
      const describe = (o) => ({ dataType: o.dataType, shape: [...o.shape] });
      live.graphs.push({
        graph,
        context: contextRecord,
        inputs: [...record.inputs].map(([n, o]) => [n, describe(o)]),
        outputs: Object.entries(outputs).map(([n, o]) => [n, describe(o)]),
        destroyed: false,
      });
      stats.made.graphs += 1;
    });
  }],
  createTensor: [8, () => {
    const contextRecord = pick(live.contexts);
    if (!contextRecord || live.tensors.length >= kCaps.tensors) return;
    // Mostly the descriptors a graph of this context needs, so that dispatches can run.
    const graph = pick(live.graphs.filter((g) => g.context === contextRecord));
    let desc;
    if (graph && chance(0.8)) {
      const entry = pick([...graph.inputs, ...graph.outputs]);
      if (entry) desc = { ...entry[1], readable: true, writable: true };
    }
    desc ??= chance(0.9) ? { ...randomDescriptor(), readable: chance(0.7), writable: chance(0.7) } : generate(m.typeOf({ idlType: 'MLTensorDescriptor' }), null, 0.5);
    attempt('createTensor', () => contextRecord.context.createTensor(desc), (tensor) => {
      live.tensors.push({ tensor, context: contextRecord, destroyed: false });
      stats.made.tensors += 1;
    });
  }],
  createConstantTensor: [2, () => {
    const contextRecord = pick(live.contexts);
    if (!contextRecord || live.tensors.length >= kCaps.tensors) return;
    const desc = randomDescriptor();
    attempt('createConstantTensor', () => contextRecord.context.createConstantTensor(desc, dataFor(desc)), (tensor) => {
      live.tensors.push({ tensor, context: contextRecord, destroyed: false });
      stats.made.tensors += 1;
    });
  }],
  writeTensor: [8, () => {
    const t = pick(live.tensors);
    if (!t) return;
    const desc = { dataType: t.tensor.dataType, shape: t.tensor.shape };
    const context = chance(0.95) || !live.contexts.length ? t.context.context : pick(live.contexts).context;
    attempt('writeTensor', () => context.writeTensor(chance(0.97) ? t.tensor : pickHostile(t.tensor, null), chance(0.95) ? dataFor(desc) : pickHostile(dataFor(desc), null)));
  }],
  readTensor: [8, () => {
    const t = pick(live.tensors);
    if (!t) return;
    const context = t.context.context;
    stats.reads += 1;
    if (chance(0.7)) {
      attempt('readTensor', () => context.readTensor(t.tensor));
    } else {
      const out = dataFor({ dataType: t.tensor.dataType, shape: t.tensor.shape });
      attempt('readTensor(byob)', () => context.readTensor(t.tensor, out));
      if (chance(0.3) && !(out.buffer instanceof SharedArrayBuffer)) detach(out.buffer); // while pending
    }
  }],
  dispatch: [10, () => {
    const g = chance(0.9) ? pick(live.graphs.filter((x) => !x.destroyed && !x.context.destroyed)) : pick(live.graphs);
    if (!g) return;
    // The graph's own tensors, made on first use (readable and writable, so any can be read back);
    // until they exist, tensors of the same descriptors from the pool.
    if (!g.tensors) {
      g.tensors = {};
      for (const [n, d] of [...g.inputs, ...g.outputs]) {
        attempt('createTensor for a graph', () => g.context.context.createTensor({ ...d, readable: true, writable: true }), (tensor) => {
          g.tensors[n] = tensor;
          live.tensors.push({ tensor, context: g.context, destroyed: false });
          stats.made.tensors += 1;
        });
      }
    }
    const pool = live.tensors.filter((t) => t.context === g.context && !t.destroyed);
    const find = (n, desc) => {
      if (g.tensors[n] && chance(0.9)) return g.tensors[n];
      const fits = pool.filter((t) => t.tensor.dataType === desc.dataType && t.tensor.shape.join() === desc.shape.join());
      return fits.length ? pick(fits).tensor : undefined;
    };
    const inputs = {};
    const outputs = {};
    for (const [n, d] of g.inputs) {
      inputs[n] = find(n, d);
      if (inputs[n] && chance(0.7)) attempt('writeTensor before dispatch', () => g.context.context.writeTensor(inputs[n], dataFor(d)));
    }
    for (const [n, d] of g.outputs) outputs[n] = find(n, d);
    if (chance(0.1)) {
      const which = chance(0.5) ? inputs : outputs;
      const key = pick(Object.keys(which));
      if (key) which[key] = chance(0.5) ? pick(live.tensors)?.tensor : pickHostile(which[key], null);
    }
    stats.dispatches += 1;
    attempt('dispatch', () => g.context.context.dispatch(g.graph, inputs, outputs));
    for (const t of Object.values(outputs)) if (t && chance(0.5)) attempt('readTensor after dispatch', () => g.context.context.readTensor(t));
  }],
  hostileCall: [8, () => {
    // Any method or attribute of any live object, arguments mostly hostile.
    const kinds = [
      ['MLContext', live.contexts.map((c) => c.context)],
      ['MLGraphBuilder', live.builders.map((b) => b.builder)],
      ['MLTensor', live.tensors.map((t) => t.tensor)],
      ['MLGraph', live.graphs.map((g) => g.graph)],
      ['MLOperand', live.builders.flatMap((b) => b.operands.map((o) => o.operand))],
      ['ML', [ml]],
    ];
    const [iface, objects] = pick(kinds);
    const target = chance(0.9) ? pick(objects) : pickHostile(pick(objects), null);
    const proto = webnn[iface].prototype;
    const key = pick(Reflect.ownKeys(proto).filter((k) => k !== 'constructor' && typeof k === 'string'));
    const desc = Object.getOwnPropertyDescriptor(proto, key);
    if (desc.get) {
      attempt(`${iface}.${key}`, () => desc.get.call(target), undefined, { track: false });
      return;
    }
    if (key === 'destroy') return; // the destroy action does that
    const overloads = m.interfaces.get(iface)?.operations.get(key);
    if (!overloads) return;
    const operation = pick(overloads);
    const record = live.builders.find((b) => b.builder === target) ?? pick(live.builders);
    const args = operation.arguments.map((a) => generate(m.argType(a), record, 0.5));
    const result = attempt(`${iface}.${key} (hostile)`, () => proto[key].apply(target, args), (v) => {
      if (v instanceof webnn.MLContext) v.destroy();
      else if (v instanceof webnn.MLGraph || v instanceof webnn.MLTensor) v.destroy();
    });
    if (result instanceof webnn.MLOperand && record && record.builder === target) addOperands(record, result, new Set());
  }],
  loadGraph: [1, () => {
    const c = pick(live.contexts);
    if (!c) return;
    attempt('loadGraph', () => webnn.loadGraph(chance(0.95) ? c.context : pickHostile(c.context, null), chance(0.9) ? pick(graphFiles) : pickHostile('', null)), (r) => {
      if (chance(0.5)) r.graph.destroy();
    });
  }],
  installGlobals: [1, () => {
    const target = {};
    const ml2 = attempt('installGlobals', () => webnn.installGlobals(target, chance(0.7) ? { backend: pick(useBackends) } : generate(m.typeOf({ idlType: 'WebnnPackageDefaults' }), null, 0.4)));
    if (ml2 && chance(0.3)) attempt('installGlobals createContext', () => ml2.createContext(), (c) => c.destroy());
  }],
  destroy: [4, () => {
    const r = random();
    const list = r < 0.1 ? live.contexts : r < 0.4 ? live.graphs : live.tensors;
    const entry = pick(list);
    if (!entry) return;
    const object = entry.context && list === live.contexts ? entry.context : entry.graph ?? entry.tensor;
    attempt('destroy', () => object.destroy());
    entry.destroyed = true;
  }],
  drop: [4, () => {
    // Forget an object without destroying it: its finalizer frees it (maybe with work pending).
    const list = pick([live.builders, live.graphs, live.tensors, live.contexts]);
    if (list.length) list.splice(Math.floor(random() * list.length), 1);
  }],
  worker: [1, () => {
    // A worker_threads worker with a context of its own, computing in a loop, terminated at a
    // random moment (its environment's teardown loses its contexts mid-compute).
    if (workers.size >= 2) return;
    const w = new Worker(workerSource, { eval: true, workerData: { pkg: packagePath, backend: pick(useBackends) } });
    workers.add(w);
    w.on('error', (e) => finding(`a worker failed: ${e?.stack ?? e}`));
    w.on('exit', () => workers.delete(w));
    setTimeout(() => w.terminate(), int(0, 300));
  }],
  gc: [1, () => {
    stats.gcs += 1;
    gc();
  }],
};

// Keeps the pools bounded: the oldest objects are destroyed or dropped.
function trim() {
  for (const [key, cap] of Object.entries(kCaps)) {
    while (live[key].length > cap) {
      const entry = live[key].shift();
      if (chance(0.5)) {
        const object = key === 'contexts' ? entry.context : key === 'graphs' ? entry.graph : key === 'tensors' ? entry.tensor : null;
        if (object) attempt(`trim ${key}`, () => object.destroy());
      }
    }
  }
}

const weighted = [];
for (const [name, [weight, run]] of Object.entries(actions)) for (let i = 0; i < weight; ++i) weighted.push([name, run]);

// ---- The run ----
process.on('unhandledRejection', (e) => finding(`an unhandled rejection: ${e?.stack ?? e}`));
const started = Date.now();
for (const backend of useBackends) canaries.push(await makeCanary(backend));
while (sharedBytes[0] === 0) await new Promise((r) => setTimeout(r, 1));
for (const backend of useBackends) {
  const context = await ml.createContext({ backend });
  live.contexts.push({ context, backend, destroyed: false });
}
let steps = 0;
let lastCanary = Date.now();
const deadline = started + options.seconds * 1000;
while (Date.now() < deadline) {
  const [name, run] = pick(weighted);
  stats.actions[name] = (stats.actions[name] ?? 0) + 1;
  const t0 = Date.now();
  try {
    run();
  } catch (e) {
    finding(`the driver's ${name} action failed: ${e?.stack ?? e}`);
  }
  if (options.verbose && Date.now() - t0 > 500) console.log(`fuzz: ${name} took ${Date.now() - t0} ms`);
  steps += 1;
  if (steps % 25 === 0) {
    trim();
    await settle();
    if (liveContexts().length === 0) actions.createContext[1]();
  }
  if (Date.now() - lastCanary > 2000) {
    for (const canary of canaries) await checkCanary(canary, `after ${stats.calls} calls`);
    lastCanary = Date.now();
  }
}
await settle();
for (const canary of canaries) await checkCanary(canary, 'at the end');
Atomics.store(new Int32Array(sharedBytes.buffer, 4096, 1), 0, 1);
await new Promise((r) => writer.once('exit', r));
fs.rmSync(dir, { recursive: true, force: true });

// Which addon ran, and whether AddressSanitizer was in the process (scripts/sanitize.sh).
const maps = fs.existsSync('/proc/self/maps') ? fs.readFileSync('/proc/self/maps', 'utf8') : '';
const addon = maps.split('\n').find((l) => l.endsWith('.node') && l.includes('webnn'))?.split(' ').pop() ?? '?';
console.log(`fuzz: addon ${addon}; AddressSanitizer ${/libasan|libclang_rt\.asan/.test(maps) ? 'loaded' : 'not loaded'}`);
const seconds = (Date.now() - started) / 1000;
const errors = Object.entries(stats.errors)
  .sort((a, b) => b[1] - a[1])
  .map(([k, v]) => `${v} ${k}`)
  .join(', ');
console.log(
  `fuzz: seed ${options.seed}, ${seconds.toFixed(1)} s, ${stats.calls} calls (${Math.round(stats.calls / seconds)}/s): ` +
    `${stats.ok} succeeded, ${errors || 'no errors'}, ${stats.caller} caller exceptions passed through; ` +
    `made ${stats.made.contexts} contexts, ${stats.made.builders} builders, ${stats.made.operands} operands, ` +
    `${stats.made.graphs} graphs, ${stats.made.tensors} tensors; ${stats.dispatches} dispatches, ${stats.reads} reads, ` +
    `${stats.gcs} collections; ${findings.length} findings`,
);
if (options.verbose) console.log(`fuzz: actions ${JSON.stringify(stats.actions)}\nfuzz: [succeeded, failed] by call ${JSON.stringify(byLabel)}`);
for (const f of findings) console.log(`fuzz: finding: ${f}`);
// The process exits with work queued on the canaries' contexts (and maybe a worker computing):
// at exit every context is lost and its running step awaited, with nothing touched after it is
// freed (docs/javascript.md, "Lifetimes").
for (const canary of canaries) {
  for (let i = 0; i < 8; ++i) {
    canary.context.dispatch(canary.graph, { a: canary.a }, { c: canary.c });
    canary.context.readTensor(canary.c).catch(() => {});
  }
}
process.exit(findings.length ? 1 : 0);
