// Runs a graph file (webnn-graph JSON or text with its weights beside it, or ONNX) on an input
// given as a .npy file, and prints a summary of each output and the timings.
//
//   node examples/js/run_model.mjs ../shared/models/mobilenetv2/mobilenetv2.json \
//        ../shared/models/mobilenetv2/input.npy [--backend onednn|reference] [--runs N]
import fs from 'node:fs';
import webnn from '../../js/index.js';

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.subarray(0, 6).toString('latin1') !== '\x93NUMPY') throw new Error(`${file} is not a .npy file`);
  const v1 = buf[6] === 1;
  const length = v1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = v1 ? 10 : 12;
  const header = buf.subarray(start, start + length).toString('latin1');
  if (!/'descr':\s*'<f4'/.test(header)) throw new Error(`${file}: only little-endian float32 .npy files are read here`);
  return new Float32Array(buf.buffer.slice(buf.byteOffset + start + length, buf.byteOffset + buf.length));
}

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [, value] = args.splice(i, 2);
  return value;
};
const backend = option('--backend', undefined);
const runs = Number(option('--runs', '20'));
if (args.length !== 2) {
  console.error('usage: node examples/js/run_model.mjs GRAPH INPUT.npy [--backend NAME] [--runs N]');
  process.exit(2);
}
const [graphPath, inputPath] = args;

const context = await webnn.ml.createContext({ backend });
let t = performance.now();
const { graph, inputs, outputs } = await webnn.loadGraph(context, graphPath);
console.log(`loaded and compiled ${graphPath} in ${(performance.now() - t).toFixed(1)} ms`);

const [inputName, inputDesc] = Object.entries(inputs)[0];
const data = readNpy(inputPath);
const input = await context.createTensor({ ...inputDesc, writable: true });
context.writeTensor(input, data);
const results = {};
for (const [name, desc] of Object.entries(outputs)) results[name] = await context.createTensor({ ...desc, readable: true });

const times = [];
for (let i = 0; i < runs; ++i) {
  t = performance.now();
  context.dispatch(graph, { [inputName]: input }, results);
  await context.readTensor(Object.values(results)[0]);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
for (const [name, tensor] of Object.entries(results)) {
  const values = new Float32Array(await context.readTensor(tensor));
  let best = 0;
  for (let i = 1; i < values.length; ++i) if (values[i] > values[best]) best = i;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`${name}: ${tensor.dataType}[${tensor.shape}] mean ${mean.toFixed(6)}, largest ${values[best].toFixed(6)} at ${best}`);
}
console.log(`${runs} runs: p50 ${times[Math.floor(runs / 2)].toFixed(3)} ms, min ${times[0].toFixed(3)} ms`);
context.destroy();
