// The remote path: a test starts `webnn serve` and the JavaScript API reaches it through the
// non-spec `remote` option (the context, its graphs and tensors live in a sandboxed worker of the
// service): the WPT conformance sets pass through it, MobileNetV2's embedding is bit-identical to
// the in-process one, and a wrong token is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { webnn, cli, shared, conformanceCases, runCase, readNpy } from './support.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'webnn-js-remote-'));
const socket = path.join(work, 'webnn.sock');
const token = 'a token';
let server;

before(async () => {
  fs.writeFileSync(path.join(work, "token"), token); // the token is the file's bytes, exactly
  server = spawn(cli, ['serve', '--socket', socket, '--token-file', path.join(work, 'token')], { stdio: 'ignore' });
  for (let i = 0; i < 200 && !fs.existsSync(socket); ++i) await new Promise((r) => setTimeout(r, 50));
  assert.ok(fs.existsSync(socket), 'webnn serve is listening');
});

after(() => {
  server?.kill('SIGTERM');
  fs.rmSync(work, { recursive: true, force: true });
});

const remote = () => webnn.ml.createContext({ remote: `unix:${socket}`, token });

for (const set of ['conformance', 'conformance-extra']) {
  const cases = conformanceCases(path.join(shared, 'wpt', set));
  test(`${set} through a remote context`, { skip: cases.length === 0 && 'no ../shared' }, async () => {
    const context = await remote();
    const failures = [];
    for (const c of cases) {
      try {
        const mismatch = await runCase(context, c.graph);
        if (mismatch !== null) failures.push(`${c.file} ${c.name}: ${mismatch}`);
      } catch (e) {
        failures.push(`${c.file} ${c.name}: ${e.name}: ${e.message}`);
      }
    }
    context.destroy();
    assert.deepEqual(failures, []);
  });
}

const model = path.join(shared, 'models', 'mobilenetv2');
test('MobileNetV2 through a remote context is bit-identical to the in-process run', { skip: !fs.existsSync(model) && 'no model' }, async () => {
  const input = readNpy(path.join(model, 'input.npy'));
  const embeddings = [];
  for (const context of [await remote(), await webnn.ml.createContext()]) {
    const { graph, inputs, outputs } = await webnn.loadGraph(context, path.join(model, 'mobilenetv2.json'));
    const x = await context.createTensor({ ...inputs.input, writable: true });
    const y = await context.createTensor({ ...outputs.embedding, readable: true });
    context.writeTensor(x, input.bytes);
    context.dispatch(graph, { input: x }, { embedding: y });
    embeddings.push(Buffer.from(await context.readTensor(y)));
    context.destroy();
  }
  assert.equal(Buffer.compare(embeddings[0], embeddings[1]), 0);
});

test('a wrong token or no service is a rejection, not a crash', async () => {
  await assert.rejects(webnn.ml.createContext({ remote: `unix:${socket}`, token: 'wrong' }), (e) => e instanceof DOMException);
  await assert.rejects(webnn.ml.createContext({ remote: `unix:${work}/nothing.sock` }), (e) => e instanceof DOMException);
  await assert.rejects(webnn.ml.createContext({ remote: 'tcp:1.2.3.4' }), (e) => e instanceof DOMException || e instanceof TypeError);
});
