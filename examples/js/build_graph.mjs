// A small network built by hand with the WebNN API in Node.js: a 3x3 convolution with bias and
// relu, average pooling, and a matmul head; run on one input.
//
//   node examples/js/build_graph.mjs          (after the README's first command)
import webnn from '../../js/index.js';

const { ml, MLGraphBuilder } = webnn;

const context = await ml.createContext();
const builder = new MLGraphBuilder(context);

const image = builder.input('image', { dataType: 'float32', shape: [1, 2, 4, 4] });
const filter = builder.constant(
  { dataType: 'float32', shape: [3, 2, 3, 3] },
  Float32Array.from({ length: 54 }, (_, i) => ((i % 7) - 3) / 10),
);
const bias = builder.constant({ dataType: 'float32', shape: [3] }, new Float32Array([0.1, 0, -0.1]));
const features = builder.relu(builder.conv2d(image, filter, { padding: [1, 1, 1, 1], bias, label: 'conv' }));
const pooled = builder.averagePool2d(features, { windowDimensions: [4, 4] }); // [1, 3, 1, 1]
const flat = builder.reshape(pooled, [1, 3]);
const weights = builder.constant({ dataType: 'float32', shape: [3, 2] }, new Float32Array([1, -1, 0.5, 0.5, -1, 1]));
const scores = builder.softmax(builder.matmul(flat, weights), 1);

const graph = await builder.build({ scores });
const input = await context.createTensor({ dataType: 'float32', shape: [1, 2, 4, 4], writable: true });
const output = await context.createTensor({ dataType: 'float32', shape: [1, 2], readable: true });
context.writeTensor(input, Float32Array.from({ length: 32 }, (_, i) => i / 32));
context.dispatch(graph, { image: input }, { scores: output });
console.log('scores', [...new Float32Array(await context.readTensor(output))].map((v) => v.toFixed(6)));
context.destroy();
