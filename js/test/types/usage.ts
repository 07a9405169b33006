// Compiled (not run) by types.test.mjs with tsc --strict against ../../index.d.ts: code written
// for the spec's API type-checks against the package's declarations, and misuse does not.
import { ml, MLGraphBuilder, MLContext, MLOperand, MLTensor, MLGraph, installGlobals, loadGraph } from '../../index';
import type { MLConv2dOptions, MLOperandDescriptor, MLOpSupportLimits, MLNumber } from '../../index';

async function main(): Promise<void> {
  const context: MLContext = await ml.createContext({ powerPreference: 'high-performance', backend: 'reference', numThreads: 2 });
  const builder = new MLGraphBuilder(context);
  const desc: MLOperandDescriptor = { dataType: 'float32', shape: [1, 3, 8, 8] };
  const x: MLOperand = builder.input('x', desc);
  const w = builder.constant({ dataType: 'float32', shape: [4, 3, 3, 3] }, new Float32Array(108));
  const options: MLConv2dOptions = { padding: [1, 1, 1, 1], strides: [1, 1], bias: builder.constant('float32', 0), label: 'c' };
  const y = builder.relu(builder.conv2d(x, w, options));
  const parts: MLOperand[] = builder.split(y, [2, 2], { axis: 1 });
  const big: MLNumber = 2n ** 62n;
  const z = builder.clamp(parts[0], { minValue: 0, maxValue: big });
  const shape: readonly number[] = z.shape;
  const graph: MLGraph = await builder.build({ z, other: parts[1] });
  const t: MLTensor = await context.createTensor({ dataType: 'float32', shape: [1, 3, 8, 8], writable: true });
  context.writeTensor(t, new Float32Array(192));
  const out = await context.createTensor({ ...desc, readable: true });
  context.dispatch(graph, { x: t }, { z: out, other: out });
  const bytes: ArrayBuffer = await context.readTensor(out);
  await context.readTensor(out, new Float32Array(bytes.byteLength / 4));
  const limits: MLOpSupportLimits = context.opSupportLimits();
  const rank: number = limits.input.rankRange.min;
  const lost = await context.lost;
  const message: string = lost.message;
  const loaded = await loadGraph(context, 'model.json');
  const inputs: Record<string, MLOperandDescriptor> = loaded.inputs;
  installGlobals(globalThis, { backend: 'onednn' });
  void [shape, rank, message, inputs];
  // @ts-expect-error: an unknown data type
  builder.input('y', { dataType: 'float64', shape: [1] });
  // @ts-expect-error: conv2d needs a filter
  builder.conv2d(x);
  // @ts-expect-error: MLTensor has no constructor
  new MLTensor();
}
void main;
