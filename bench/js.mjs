#!/usr/bin/env node
// The JavaScript package's cost, each figure beside its peer in the same run (docs/javascript.md,
// "Speed"):
//   1. a tiny graph (relu(x + c) over 64 float32 values, reference backend): write + dispatch +
//      read through JavaScript, against the same through the C++ API (build/bench/webnn_capi_bench,
//      BM_RoundTrip_Cpp); target: under 10 us more;
//   2. MobileNetV2 (../shared/models): write + dispatch + read through JavaScript, against
//      `webnn bench` (C++, compute(): the input read in place) on the same graph and backend;
//      target: at most 1.02x; and against `webnn bench --tensors`, the same three calls in C++;
//      and dispatch + read with the input written once, the work compute() does, against
//      `webnn bench`;
//   3. the same network through onnxruntime-node in this same process, on the ONNX export of the
//      same graph (`webnn convert --to onnx`), two threads each.
// Medians over --rounds alternating rounds of --iterations runs each, and the median of the rounds'
// own differences and ratios (each JavaScript figure against its peer of the same round).
//
//   node bench/js.mjs [--rounds 5] [--iterations 200] [--threads 2] [--backend onednn]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = process.env.WEBNN_BUILD_DIR ?? path.join(root, 'build');
const shared = process.env.WEBNN_SHARED_DIR ?? path.join(root, '..', 'shared');
const webnn = require(path.join(root, 'js'));

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const rounds = Number(option('--rounds', '5'));
const iterations = Number(option('--iterations', '200'));
const threads = Number(option('--threads', '2'));
const backend = option('--backend', 'onednn');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---- 1. The tiny graph ----

async function tinyJs() {
  const context = await webnn.ml.createContext({ backend: 'reference' });
  const b = new webnn.MLGraphBuilder(context);
  const d = { dataType: 'float32', shape: [64] };
  const graph = await b.build({ y: b.relu(b.add(b.input('x', d), b.constant(d, new Float32Array(64).fill(-0.25)))) });
  const x = await context.createTensor({ ...d, writable: true });
  const y = await context.createTensor({ ...d, readable: true });
  const input = new Float32Array(64).fill(0.5);
  const out = new Float32Array(64);
  const once = async () => {
    context.writeTensor(x, input);
    context.dispatch(graph, { x }, { y });
    await context.readTensor(y, out);
  };
  // As its C++ peer is timed (Google Benchmark, --benchmark_min_time=0.2): batches of round trips
  // until 0.2 s have passed, after 2,000 untimed ones (the JIT's tiers settle over the first
  // thousands; 200 left the first rounds 3-4x slower than the rest).
  for (let i = 0; i < 2000; ++i) await once();
  let runs = 0;
  const t0 = process.hrtime.bigint();
  while (runs < iterations * 10 || process.hrtime.bigint() - t0 < 200_000_000n) {
    for (let i = 0; i < 1000; ++i) await once();
    runs += 1000;
  }
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / runs;
  if (out[0] !== 0.25) throw new Error(`tiny graph: got ${out[0]}, expected 0.25`);
  context.destroy();
  return us;
}

function tinyCpp() {
  const exe = path.join(build, 'bench', 'webnn_capi_bench');
  const out = execFileSync(exe, ['--benchmark_filter=BM_RoundTrip_Cpp', '--benchmark_format=json', '--benchmark_min_time=0.2'], {
    encoding: 'utf8',
  });
  const run = JSON.parse(out).benchmarks.find((b) => b.name.startsWith('BM_RoundTrip_Cpp'));
  const scale = { ns: 1e-3, us: 1, ms: 1e3 }[run.time_unit];
  return run.real_time * scale;
}

// ---- 2 and 3. MobileNetV2 ----

function readNpyFloat32(file) {
  const buf = fs.readFileSync(file);
  const v1 = buf[6] === 1;
  const length = v1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = v1 ? 10 : 12;
  return new Float32Array(buf.buffer.slice(buf.byteOffset + start + length, buf.byteOffset + buf.length));
}

// Runs alternate between the round trip a caller with a new input makes (writeTensor, dispatch,
// readTensor) and the same with the input written once and left in its tensor (dispatch,
// readTensor): the work `webnn bench`'s compute() does on an input it reads in place.
async function mobilenetJs(model, input) {
  const context = await webnn.ml.createContext({ backend, numThreads: threads });
  const { graph, inputs, outputs } = await webnn.loadGraph(context, path.join(model, 'mobilenetv2.json'));
  const x = await context.createTensor({ ...inputs.input, writable: true });
  const y = await context.createTensor({ ...outputs.embedding, readable: true });
  const out = new Float32Array(outputs.embedding.shape.reduce((a, b) => a * b, 1));
  const once = async (write) => {
    if (write) context.writeTensor(x, input);
    context.dispatch(graph, { input: x }, { embedding: y });
    await context.readTensor(y, out);
  };
  for (let i = 0; i < 10; ++i) await once(true);
  const times = { write: [], resident: [] };
  for (let i = 0; i < 2 * iterations; ++i) {
    const write = i % 2 === 0;
    const t0 = process.hrtime.bigint();
    await once(write);
    times[write ? 'write' : 'resident'].push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  context.destroy();
  return { p50: median(times.write), resident: median(times.resident), out };
}

// `webnn bench`: compute(), or with `tensors` the calls the JavaScript loop makes (writeTensor,
// dispatch, readTensor) through the C++ API.
function mobilenetCpp(model, tensors = false) {
  const out = execFileSync(
    path.join(build, 'webnn'),
    ['bench', path.join(model, 'mobilenetv2.json'), '--input', `input=${path.join(model, 'input.npy')}`,
      '--iterations', String(iterations), '--warmup', '10', '--backend', backend, '--threads', String(threads),
      ...(tensors ? ['--tensors'] : [])],
    { encoding: 'utf8' },
  );
  return Number(/p50_ms=([\d.]+)/.exec(out)[1]);
}

async function mobilenetOrt(session, input, shape) {
  const ort = require(path.join(root, 'tools', 'ort', 'node_modules', 'onnxruntime-node'));
  const feeds = { input: new ort.Tensor('float32', input, shape) };
  for (let i = 0; i < 10; ++i) await session.run(feeds);
  const times = [];
  let out;
  for (let i = 0; i < iterations; ++i) {
    const t0 = process.hrtime.bigint();
    out = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { p50: median(times), out: Object.values(out)[0].data };
}

async function main() {
  const model = path.join(shared, 'models', 'mobilenetv2');
  const haveModel = fs.existsSync(model);
  const ortPath = path.join(root, 'tools', 'ort', 'node_modules', 'onnxruntime-node');
  let session = null;
  let onnxFile = null;
  if (haveModel && fs.existsSync(ortPath)) {
    const ort = require(ortPath);
    onnxFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'webnn-js-bench-')), 'mobilenetv2.onnx');
    execFileSync(path.join(build, 'webnn'), ['convert', path.join(model, 'mobilenetv2.json'), '--to', 'onnx', onnxFile]);
    session = await ort.InferenceSession.create(onnxFile, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  }
  const input = haveModel ? readNpyFloat32(path.join(model, 'input.npy')) : null;
  const results = { tinyJs: [], tinyCpp: [], mobilenetJs: [], mobilenetJsResident: [], mobilenetCpp: [], mobilenetCppTensors: [], mobilenetOrt: [] };
  let maxDiff = 0;
  for (let r = 0; r < rounds; ++r) {
    results.tinyJs.push(await tinyJs());
    results.tinyCpp.push(tinyCpp());
    if (haveModel) {
      const js = await mobilenetJs(model, input);
      results.mobilenetJs.push(js.p50);
      results.mobilenetJsResident.push(js.resident);
      results.mobilenetCpp.push(mobilenetCpp(model));
      results.mobilenetCppTensors.push(mobilenetCpp(model, true));
      if (session) {
        const o = await mobilenetOrt(session, input, [1, 3, 224, 224]);
        results.mobilenetOrt.push(o.p50);
        for (let i = 0; i < js.out.length; ++i) maxDiff = Math.max(maxDiff, Math.abs(js.out[i] - o.out[i]));
      }
    }
    process.stderr.write(`round ${r + 1}/${rounds}\n`);
  }
  const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, v.length ? median(v) : NaN]));
  // Each round's JavaScript figure against its peer of the same round: the VM's speed drifts over a
  // run, and a pair taken seconds apart shares the drift that medians taken apart do not.
  const paired = (a, b, f) => {
    const v = results[a].map((x, i) => f(x, results[b][i]));
    return { median: median(v), min: Math.min(...v), max: Math.max(...v) };
  };
  const range = (p, digits, unit = '') =>
    `median of the rounds' own: ${p.median.toFixed(digits)}${unit} (${p.min.toFixed(digits)} to ${p.max.toFixed(digits)})`;
  console.log(`rounds=${rounds} iterations=${iterations} threads=${threads} backend=${backend} node=${process.version}`);
  console.log('| measurement | JavaScript | peer | difference |');
  console.log('|---|---:|---:|---:|');
  console.log(`| tiny graph write+dispatch+read (reference) | ${m.tinyJs.toFixed(2)} us | C++ ${m.tinyCpp.toFixed(2)} us | +${(m.tinyJs - m.tinyCpp).toFixed(2)} us |`);
  if (haveModel) {
    console.log(`| MobileNetV2 p50 (${backend}) | ${m.mobilenetJs.toFixed(3)} ms | webnn bench ${m.mobilenetCpp.toFixed(3)} ms | ${(m.mobilenetJs / m.mobilenetCpp).toFixed(3)}x |`);
    console.log(`| MobileNetV2 p50, input written once (dispatch+read) | ${m.mobilenetJsResident.toFixed(3)} ms | webnn bench ${m.mobilenetCpp.toFixed(3)} ms | ${(m.mobilenetJsResident / m.mobilenetCpp).toFixed(3)}x |`);
    console.log(`| MobileNetV2 p50, the same calls in C++ | ${m.mobilenetJs.toFixed(3)} ms | webnn bench --tensors ${m.mobilenetCppTensors.toFixed(3)} ms | ${(m.mobilenetJs / m.mobilenetCppTensors).toFixed(3)}x |`);
    if (session)
      console.log(`| MobileNetV2 p50, same process | ${m.mobilenetJs.toFixed(3)} ms | onnxruntime-node ${m.mobilenetOrt.toFixed(3)} ms | ${(m.mobilenetJs / m.mobilenetOrt).toFixed(3)}x |`);
    if (session) console.log(`largest |difference| of the embeddings, JavaScript vs ONNX Runtime: ${maxDiff.toExponential(2)}`);
    console.log(`MobileNetV2, JavaScript / webnn bench, ${range(paired('mobilenetJs', 'mobilenetCpp', (js, cpp) => js / cpp), 3, 'x')}`);
    console.log(`MobileNetV2, input written once, JavaScript / webnn bench, ${range(paired('mobilenetJsResident', 'mobilenetCpp', (js, cpp) => js / cpp), 3, 'x')}`);
    console.log(`MobileNetV2, JavaScript / webnn bench --tensors, ${range(paired('mobilenetJs', 'mobilenetCppTensors', (js, cpp) => js / cpp), 3, 'x')}`);
  } else {
    console.log(`(${model} is absent: MobileNetV2 not measured)`);
  }
  console.log(`tiny graph, JavaScript - C++, ${range(paired('tinyJs', 'tinyCpp', (js, cpp) => js - cpp), 2, ' us')}`);
  if (onnxFile) fs.rmSync(path.dirname(onnxFile), { recursive: true, force: true });
}

main();
