#!/usr/bin/env node
// The ONNX Runtime peer of webnn-cpp: runs and benchmarks ONNX models (for example those of
// `webnn convert GRAPH --to onnx OUT.onnx`) on ONNX Runtime's CPU execution provider, through the
// onnxruntime-node package (installed by scripts/setup.sh into tools/ort/node_modules).
//
//   node tools/ort/ort_run.mjs run MODEL.onnx --input NAME=FILE.npy ... --output-dir DIR [--threads N]
//   node tools/ort/ort_run.mjs bench MODEL.onnx [--input NAME=FILE.npy ...] [--iterations N]
//                                  [--warmup N] [--threads N]
//   node tools/ort/ort_run.mjs batch JOBS.json RESULTS.json [--threads N]
//   node tools/ort/ort_run.mjs decode MODEL.onnx --ids IDS.npy --prompt N --contexts P,... --steps S
//                                   [--threads N]
//
// run writes every output as DIR/NAME.npy. bench times session creation, the first run and then
// the steady state, and prints "p50_ms=<x> mean_ms=<x> min_ms=<x>" as `webnn bench` does (inputs
// not given are seeded random data). batch runs many models in one process: JOBS.json is
// {"jobs": [{"model": M, "inputs": {NAME: FILE.npy}, "output_dir": DIR}, ...]}; RESULTS.json gets
// one entry per job, {"status": "ok"}, {"status": "no_kernel", "message": ...} when ONNX Runtime
// has no kernel for a node of the model, or {"status": "error", "message": ...}.
//
// decode drives a decoder exported the way Hugging Face exports them (input_ids [1, S] int64 and
// past_key.i / past_value.i [1, kv_heads, past, head_dim] in; logits [1, S, vocab] and
// present_key.i / present_value.i out, the past growing by one position a step; see
// bench/decode.py) greedily. It prints {"ready": build_ms} once the session exists, then for each
// line "run" read from stdin one JSON line: the time to the first token of a prompt of --prompt ids
// (first_ms: the prefill and the arg-max), and for each context P of --contexts the decode rate of S
// steps that fill positions P - S .. P - 1 after a prefill of P - S ids (decode: {P: tokens/s}) with
// the tokens they chose (tokens: {P: [...]}); "quit" or the end of the input ends it. The ids come from IDS.npy (int64).
// The presents of a step are fed back as the next step's pasts as they are (no copy on our side;
// onnxruntime-node has no IO binding for the CPU provider).
//
// Sessions use intraOpNumThreads = --threads (default 0: ONNX Runtime's choice), one inter-op
// thread, sequential execution and every graph optimization. .npy files: little-endian float16,
// float32, float64, int8..int64, uint8..uint64 and bool, C order, header versions 1.0 to 3.0.
import { readFileSync, writeFileSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
let ort;
try {
  ort = require('onnxruntime-node');
} catch (e) {
  process.stderr.write('ort_run: onnxruntime-node is not installed (run scripts/setup.sh, or ' +
                       '`npm ci --ignore-scripts` in tools/ort): ' + e.message + '\n');
  process.exit(3);
}

// This process's peak resident memory in MiB: VmHWM of /proc/self/status, which starts afresh at
// exec (getrusage's maxRSS keeps the high-water mark of the process that forked and exec'd us).
function peakRssMb() {
  try {
    const m = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync('/proc/self/status', 'latin1'));
    if (m) return Number(m[1]) / 1024;
  } catch (e) {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS / 1024;  // KiB
}

// ---- .npy ----

// ONNX Runtime tensor type <-> numpy descr, and the typed array that holds it.
const TYPES = [
  ['float32', '<f4', Float32Array],  ['float16', '<f2', Uint16Array],  ['float64', '<f8', Float64Array],
  ['int8', '|i1', Int8Array],        ['uint8', '|u1', Uint8Array],     ['int16', '<i2', Int16Array],
  ['uint16', '<u2', Uint16Array],    ['int32', '<i4', Int32Array],     ['uint32', '<u4', Uint32Array],
  ['int64', '<i8', BigInt64Array],   ['uint64', '<u8', BigUint64Array], ['bool', '|b1', Uint8Array],
];
const BY_DESCR = new Map(TYPES.map(([type, descr, array]) => [descr, { type, array }]));
const BY_TYPE = new Map(TYPES.map(([type, descr, array]) => [type, { descr, array }]));

function fail(message) {
  throw new Error(message);
}

function readNpy(path) {
  const buf = readFileSync(path);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY') fail(`${path}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString(major === 3 ? 'utf8' : 'latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const order = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !order || !shape) fail(`${path}: unreadable .npy header ${header}`);
  let d = descr[1];
  if (d.length === 3 && d[0] === '=') d = (d[2] === '1' ? '|' : '<') + d.slice(1);
  if (d === '<i1' || d === '<u1' || d === '<b1') d = '|' + d.slice(1);
  const kind = BY_DESCR.get(d);
  if (!kind) fail(`${path}: unsupported dtype ${descr[1]}`);
  if (order[1] === 'True') fail(`${path}: Fortran order is not supported`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s.length).map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const bytes = count * kind.array.BYTES_PER_ELEMENT;
  const offset = start + headerLen;
  if (buf.length - offset !== bytes) fail(`${path}: holds ${buf.length - offset} data bytes, shape needs ${bytes}`);
  const storage = new ArrayBuffer(bytes);  // aligned for the typed array
  new Uint8Array(storage).set(buf.subarray(offset, offset + bytes));
  return new ort.Tensor(kind.type, new kind.array(storage), dims);
}

function npyBytes(tensor) {
  const kind = BY_TYPE.get(tensor.type);
  if (!kind) fail(`output of type ${tensor.type} cannot be written as .npy`);
  const dims = tensor.dims.map(Number);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${kind.descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  return Buffer.concat([prefix, Buffer.from(header, 'latin1'),
                        Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}

function writeNpy(path, tensor) {
  const temp = `${path}.tmp${process.pid}`;
  writeFileSync(temp, npyBytes(tensor));
  renameSync(temp, path);
}

// ---- Sessions ----

function sessionOptions(threads) {
  return {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    logSeverityLevel: 4,
  };
}

// ONNX Runtime reports a node it has no kernel for (an op, or an op for that data type) as
// NOT_IMPLEMENTED when the session is created.
function isNoKernel(message) {
  return /NOT_IMPLEMENTED|Could not find an implementation/.test(message);
}

function parseInputs(specs) {
  const feeds = {};
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    if (eq <= 0) fail(`--input "${spec}": expected NAME=FILE.npy`);
    feeds[spec.slice(0, eq)] = readNpy(spec.slice(eq + 1));
  }
  return feeds;
}

function checkFeeds(session, feeds) {
  for (const name of session.inputNames)
    if (!(name in feeds)) fail(`missing input ${name}: pass --input ${name}=FILE.npy`);
  for (const name of Object.keys(feeds))
    if (!session.inputNames.includes(name)) fail(`--input ${name}: the model has no input of that name`);
}

function writeOutputs(results, dir) {
  mkdirSync(dir, { recursive: true });
  const written = {};
  for (const [name, tensor] of Object.entries(results)) {
    const file = join(dir, `${name}.npy`);
    writeNpy(file, tensor);
    written[name] = file;
  }
  return written;
}

// Seeded random data in [-1, 1) for floats and small non-negative integers, as `webnn bench`.
function randomTensor(meta, seed) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  const dims = meta.shape.map((d) => (typeof d === 'number' ? d : 1));
  const count = dims.reduce((a, b) => a * b, 1);
  const kind = BY_TYPE.get(meta.type);
  if (!kind) fail(`input of type ${meta.type}: cannot generate data`);
  const data = new kind.array(count);
  for (let i = 0; i < count; ++i) {
    if (meta.type === 'float32' || meta.type === 'float64') data[i] = next() * 2 - 1;
    else if (meta.type === 'float16') data[i] = float16Bits(next() * 2 - 1);
    else if (meta.type === 'int64' || meta.type === 'uint64') data[i] = BigInt(Math.floor(next() * 4));
    else data[i] = Math.floor(next() * 4);
  }
  return new ort.Tensor(meta.type, data, dims);
}

function float16Bits(value) {
  const f32 = new Float32Array([value]);
  const u32 = new Uint32Array(f32.buffer)[0];
  const sign = (u32 >>> 16) & 0x8000;
  const exp = ((u32 >>> 23) & 0xff) - 127 + 15;
  const mant = u32 & 0x7fffff;
  if (exp <= 0) return sign;  // |value| < 2^-14 (the data is in [-1, 1)): flush to zero
  return sign | (exp << 10) | (mant >>> 13);
}

// ---- Modes ----

async function run(model, inputs, outputDir, threads) {
  const session = await ort.InferenceSession.create(model, sessionOptions(threads));
  const feeds = parseInputs(inputs);
  checkFeeds(session, feeds);
  const results = await session.run(feeds);
  for (const [name, file] of Object.entries(writeOutputs(results, outputDir)))
    console.log(`${name}: ${results[name].type}[${results[name].dims.join(', ')}] -> ${file}`);
  await session.release();
}

async function bench(model, inputs, iterations, warmup, threads) {
  if (!(iterations >= 1)) fail('--iterations must be at least 1');
  if (!(warmup >= 0)) fail('--warmup must not be negative');
  let t0 = performance.now();
  const session = await ort.InferenceSession.create(model, sessionOptions(threads));
  console.log(`build_ms=${(performance.now() - t0).toFixed(3)} backend=onnxruntime-cpu-${ort.env.versions.node}`);
  const feeds = parseInputs(inputs);
  let seed = 42;
  for (const name of session.inputNames) {
    if (name in feeds) continue;
    const meta = session.inputMetadata.find((m) => m.name === name);
    if (!meta || !meta.isTensor) fail(`input ${name}: not a tensor`);
    feeds[name] = randomTensor(meta, seed++);
  }
  checkFeeds(session, feeds);
  t0 = performance.now();
  await session.run(feeds);
  console.log(`first_run_ms=${(performance.now() - t0).toFixed(3)}`);
  for (let i = 0; i < warmup; ++i) await session.run(feeds);
  const times = [];
  for (let i = 0; i < iterations; ++i) {
    t0 = performance.now();
    await session.run(feeds);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const mid = times.length >> 1;
  const p50 = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  console.log(`p50_ms=${p50.toFixed(3)} mean_ms=${mean.toFixed(3)} min_ms=${times[0].toFixed(3)}`);
  console.log(`peak_rss_mb=${peakRssMb().toFixed(1)}`);
  await session.release();
}

async function batch(jobsPath, resultsPath, threads) {
  const { jobs } = JSON.parse(readFileSync(jobsPath, 'utf8'));
  if (!Array.isArray(jobs)) fail(`${jobsPath}: expected {"jobs": [...]}`);
  const results = [];
  for (const job of jobs) {
    let session;
    try {
      session = await ort.InferenceSession.create(job.model, sessionOptions(threads));
      const feeds = {};
      for (const [name, file] of Object.entries(job.inputs || {})) feeds[name] = readNpy(file);
      checkFeeds(session, feeds);
      const outputs = await session.run(feeds);
      writeOutputs(outputs, job.output_dir);
      results.push({ status: 'ok' });
    } catch (e) {
      const message = String(e && e.message ? e.message : e);
      results.push({ status: isNoKernel(message) ? 'no_kernel' : 'error', message });
    } finally {
      if (session) await session.release();
    }
  }
  writeFileSync(resultsPath, JSON.stringify({ results }));
}

function argmaxLastRow(tensor) {
  const vocab = tensor.dims[tensor.dims.length - 1];
  const data = tensor.data;
  const base = data.length - vocab;
  let best = 0;
  for (let i = 1; i < vocab; ++i) if (data[base + i] > data[base + best]) best = i;
  return best;
}

async function decode(model, options, threads) {
  const prompt = Number(options.prompt);
  const steps = Number(options.steps);
  const contexts = String(options.contexts).split(',').map(Number);
  if (!(Number.isInteger(prompt) && prompt >= 1)) fail('--prompt must be a positive integer');
  if (!(Number.isInteger(steps) && steps >= 1)) fail('--steps must be a positive integer');
  if (!contexts.every((p) => Number.isInteger(p) && p > steps)) fail('--contexts: each must exceed --steps');
  if (!options.ids) fail('decode needs --ids IDS.npy');
  const ids = readNpy(options.ids);
  if (ids.type !== 'int64') fail(`--ids: expected int64 ids, got ${ids.type}`);
  if (ids.data.length < Math.max(prompt, ...contexts)) fail('--ids: fewer ids than the longest prompt');
  let t0 = performance.now();
  const session = await ort.InferenceSession.create(model, sessionOptions(threads));
  const pasts = session.inputNames.filter((n) => n.startsWith('past_'));
  const emptyPast = {};
  for (const name of pasts) {
    const meta = session.inputMetadata.find((m) => m.name === name);
    const dims = meta.shape.map((d) => (typeof d === 'number' ? d : 0));
    dims[0] = 1;
    emptyPast[name] = new ort.Tensor('float32', new Float32Array(0), dims);
  }
  console.log(JSON.stringify({ ready: performance.now() - t0 }));
  // Runs `tokens` (int64 ids) after `past`; returns the arg-max and the presents as the next past.
  const forward = async (tokens, past) => {
    const feeds = { input_ids: new ort.Tensor('int64', tokens, [1, tokens.length]), ...past };
    const out = await session.run(feeds);
    const next = {};
    for (const name of pasts) next[name] = out[name.replace('past_', 'present_')];
    return [argmaxLastRow(out.logits), next];
  };
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() === 'quit') break;
    if (line.trim() !== 'run') fail(`decode: expected "run" or "quit", got ${JSON.stringify(line)}`);
    const result = { decode: {}, tokens: {} };
    t0 = performance.now();
    await forward(ids.data.slice(0, prompt), emptyPast);
    result.first_ms = performance.now() - t0;
    for (const context of contexts) {
      let [token, past] = await forward(ids.data.slice(0, context - steps), emptyPast);
      const chosen = [token];
      t0 = performance.now();
      for (let i = 0; i < steps; ++i) {
        [token, past] = await forward(BigInt64Array.of(BigInt(token)), past);
        chosen.push(token);
      }
      result.decode[context] = steps / ((performance.now() - t0) / 1000);
      result.tokens[context] = chosen;
    }
    console.log(JSON.stringify(result));
  }
  lines.close();
  process.stdin.destroy();
  await session.release();
}

// ---- Command line ----

function parseArgs(argv) {
  const positional = [];
  const options = { input: [], 'output-dir': null, iterations: '20', warmup: '3', threads: '0', ids: null,
                    prompt: '128', contexts: '128', steps: '32' };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const key = a.slice(2);
    if (!(key in options)) fail(`unknown option ${a}`);
    if (i + 1 >= argv.length) fail(`${a} needs a value`);
    if (key === 'input') options.input.push(argv[++i]);
    else options[key] = argv[++i];
  }
  return { positional, options };
}

const USAGE = `usage: ort_run.mjs run MODEL.onnx --input NAME=FILE.npy ... --output-dir DIR [--threads N]
       ort_run.mjs bench MODEL.onnx [--input NAME=FILE.npy ...] [--iterations N] [--warmup N] [--threads N]
       ort_run.mjs batch JOBS.json RESULTS.json [--threads N]
       ort_run.mjs decode MODEL.onnx --ids IDS.npy [--prompt N] [--contexts P,...] [--steps S] [--threads N]`;

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  const { positional, options } = parseArgs(rest);
  const threads = Number(options.threads);
  if (!Number.isInteger(threads) || threads < 0) fail('--threads must be a non-negative integer');
  if (mode === 'run' && positional.length === 1 && options['output-dir'])
    return run(positional[0], options.input, options['output-dir'], threads);
  if (mode === 'bench' && positional.length === 1)
    return bench(positional[0], options.input, Number(options.iterations), Number(options.warmup), threads);
  if (mode === 'batch' && positional.length === 2) return batch(positional[0], positional[1], threads);
  if (mode === 'decode' && positional.length === 1) return decode(positional[0], options, threads);
  process.stderr.write(USAGE + '\n');
  process.exit(2);
}

main().catch((e) => {
  process.stderr.write(`ort_run: ${e && e.message ? e.message : e}\n`);
  process.exit(1);
});
