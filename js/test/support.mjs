// Shared by the package's tests: the package, the addon's test hooks, the shared data's location
// and the WPT conformance data's encoding (../shared/wpt/README.md).
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const webnn = require('../index.js');
export const native = require('../lib/native.js');

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const shared = process.env.WEBNN_SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared');
export const buildDir = process.env.WEBNN_BUILD_DIR ?? path.join(repoRoot, 'build');
export const cli = path.join(buildDir, 'webnn');

// The backends this build has, best first (as `webnn backends` prints them).
export const backends = native.backends();

// binary16 bits of a number, rounded to nearest even (the WPT data gives float16 values as
// decimal numbers).
export function halfBits(x) {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00; // 65520 is halfway between 65504 and 2^16: even is infinity
  const roundEven = (v) => {
    const f = Math.floor(v);
    const d = v - f;
    return d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
  };
  if (a < 2 ** -14) return sign | roundEven(a * 2 ** 24); // subnormal (1024 is the smallest normal)
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;
  if (2 ** (e + 1) <= a) e += 1;
  let m = roundEven((a / 2 ** e - 1) * 1024);
  if (m === 1024) {
    m = 0;
    e += 1;
  }
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | m;
}

// The typed array each data type's values are given in (float16 as binary16 bits, as WPT does).
export const arrayTypes = {
  float32: Float32Array,
  float16: Uint16Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  int8: Int8Array,
  uint8: Uint8Array,
};

// A WPT number: a JSON number or a string (BigInt "123n", digits, "Infinity", "NaN").
export function wptNumber(value) {
  if (typeof value !== 'string') return value;
  if (/^-?\d+n$/.test(value)) return BigInt(value.slice(0, -1));
  if (/^-?\d+$/.test(value)) return BigInt(value);
  return { Infinity: Infinity, '-Infinity': -Infinity, NaN: NaN }[value] ?? Number(value);
}

function element(value, dataType) {
  const v = wptNumber(value);
  if (dataType === 'int64' || dataType === 'uint64') {
    if (typeof v === 'bigint') return v;
    return BigInt(Math.trunc(v));
  }
  const n = typeof v === 'bigint' ? Number(v) : v;
  return dataType === 'float16' ? halfBits(n) : n;
}

// The typed array of a WPT tensor entry ({ data, descriptor }).
export function tensorData(entry) {
  const { dataType, shape } = entry.descriptor;
  const count = shape.reduce((a, b) => a * b, 1);
  const Type = arrayTypes[dataType];
  const out = new Type(count);
  if (!Array.isArray(entry.data)) {
    out.fill(element(entry.data, dataType));
    return out;
  }
  entry.data.forEach((v, i) => {
    out[i] = element(v, dataType);
  });
  return out;
}

// Every case of a conformance directory: [{ file, name, graph }].
export function conformanceCases(dir) {
  if (!fs.existsSync(dir)) return [];
  const cases = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const doc = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    for (const test of doc.tests) cases.push({ file, name: test.name, graph: test.graph });
  }
  return cases;
}

export function argument(value, operands) {
  if (typeof value === 'string' && value in operands) return operands[value];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v in operands))
    return value.map((v) => operands[v]);
  if (typeof value === 'string' && /^-?\d+n$/.test(value)) return BigInt(value.slice(0, -1));
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = argument(v, operands);
    return out;
  }
  return value;
}

// Builds a WPT case's graph through the JavaScript API, call by call. Returns the graph, the input
// tensors (written) and the output tensors.
export async function buildCase(context, graph) {
  const builder = new webnn.MLGraphBuilder(context);
  const operands = {};
  const feeds = [];
  for (const [name, entry] of Object.entries(graph.inputs)) {
    const data = tensorData(entry);
    const descriptor = { dataType: entry.descriptor.dataType, shape: entry.descriptor.shape };
    if (entry.constant) {
      operands[name] = builder.constant(descriptor, data);
    } else {
      operands[name] = builder.input(name, descriptor);
      feeds.push([name, descriptor, data]);
    }
  }
  for (const op of graph.operators) {
    const args = op.arguments.map((a) => argument(Object.values(a)[0], operands));
    const result = builder[op.name](...args);
    const names = Array.isArray(op.outputs) ? op.outputs : [op.outputs];
    const results = Array.isArray(result) ? result : [result];
    if (results.length !== names.length) throw new Error(`${op.name} returned ${results.length} outputs`);
    names.forEach((n, i) => {
      operands[n] = results[i];
    });
  }
  const outputs = {};
  for (const name of Object.keys(graph.expectedOutputs)) outputs[name] = operands[name];
  const built = await builder.build(outputs);
  const inputs = {};
  for (const [name, descriptor, data] of feeds) {
    inputs[name] = await context.createTensor({ ...descriptor, writable: true });
    context.writeTensor(inputs[name], data);
  }
  const outs = {};
  for (const name of Object.keys(graph.expectedOutputs))
    outs[name] = await context.createTensor({ ...graph.expectedOutputs[name].descriptor, readable: true });
  return { graph: built, inputs, outputs: outs };
}

// Runs a case and judges each output with the library's one comparator (the WPT tolerances of the
// operation that produces it). Returns null, or a description of the first mismatch.
export async function runCase(context, graph) {
  const built = await buildCase(context, graph);
  context.dispatch(built.graph, built.inputs, built.outputs);
  for (const [name, entry] of Object.entries(graph.expectedOutputs)) {
    const actual = new Uint8Array(await context.readTensor(built.outputs[name]));
    const expected = tensorData(entry);
    const mismatch = webnn._testing.compareOutput(
      built.graph,
      name,
      new Uint8Array(expected.buffer, expected.byteOffset, expected.byteLength),
      actual,
    );
    if (mismatch !== null) return mismatch;
  }
  built.graph.destroy();
  for (const t of [...Object.values(built.inputs), ...Object.values(built.outputs)]) t.destroy();
  return null;
}

// A .npy file (version 1 or 2, little-endian, C order): { descr, shape, bytes }.
export function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.subarray(0, 6).toString('latin1') !== '\x93NUMPY') throw new Error(`${file} is not a .npy file`);
  const major = buf[6];
  const headerLength = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.subarray(start, start + headerLength).toString('latin1');
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file} is in Fortran order`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset + start + headerLength, buf.length - start - headerLength);
  return { descr, shape, bytes: new Uint8Array(bytes) };
}

// Runs the CLI; resolves with its stdout, rejects with its stderr.
export function runCli(args) {
  return new Promise((resolve, reject) => {
    execFile(cli, args, { maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`webnn ${args.join(' ')}: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}
