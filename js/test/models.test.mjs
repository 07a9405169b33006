// MobileNetV2 of ../shared/models through JavaScript: loaded from its graph file with the package's
// loadGraph(), fed the shared input, and its embedding bit-identical to what `webnn run` writes for
// the same graph on the same backend.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { webnn, backends, shared, readNpy, runCli } from './support.mjs';

const model = path.join(shared, 'models', 'mobilenetv2');
const skip = !fs.existsSync(model) && `${model} is absent`;

for (const backend of backends) {
  test(`MobileNetV2 on ${backend}: the embedding is bit-identical to webnn run's`, { skip }, async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'webnn-js-mobilenet-'));
    try {
      await runCli(['run', path.join(model, 'mobilenetv2.json'), '--input', `input=${path.join(model, 'input.npy')}`,
        '--output-dir', out, '--backend', backend]);
      const expected = readNpy(path.join(out, 'embedding.npy'));
      const input = readNpy(path.join(model, 'input.npy'));

      const context = await webnn.ml.createContext({ backend });
      const { graph, inputs, outputs } = await webnn.loadGraph(context, path.join(model, 'mobilenetv2.json'));
      assert.deepEqual(inputs.input, { dataType: 'float32', shape: input.shape });
      assert.deepEqual(outputs.embedding.shape, expected.shape);
      const x = await context.createTensor({ ...inputs.input, writable: true });
      const y = await context.createTensor({ ...outputs.embedding, readable: true });
      context.writeTensor(x, input.bytes);
      context.dispatch(graph, { input: x }, { embedding: y });
      const actual = new Uint8Array(await context.readTensor(y));
      assert.equal(actual.length, expected.bytes.length);
      assert.ok(Buffer.compare(Buffer.from(actual), Buffer.from(expected.bytes)) === 0, 'bit-identical');
      // The text form of the same network gives the same bytes.
      const text = await webnn.loadGraph(context, path.join(model, 'mobilenetv2.webnn'));
      context.dispatch(text.graph, { input: x }, { embedding: y });
      assert.ok(Buffer.compare(Buffer.from(await context.readTensor(y)), Buffer.from(expected.bytes)) === 0);
      context.destroy();
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
}

test('loadGraph refuses what it cannot read, as a rejection', async () => {
  const context = await webnn.ml.createContext();
  await assert.rejects(webnn.loadGraph(context, '/nonexistent/graph.json'), { name: 'DataError' });
  await assert.rejects(webnn.loadGraph({}, 'x.json'), TypeError);
  context.destroy();
});
