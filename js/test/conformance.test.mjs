// Every case of ../shared/wpt/conformance/ and conformance-extra/ rebuilt call by call through the
// JavaScript API (MLGraphBuilder methods, createTensor, writeTensor, dispatch, readTensor) on every
// backend of the build, judged by the library's one comparator with the WPT tolerances.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { webnn, backends, shared, conformanceCases, runCase } from './support.mjs';

const sets = ['conformance', 'conformance-extra'];

for (const set of sets) {
  const dir = path.join(shared, 'wpt', set);
  const cases = conformanceCases(dir);
  for (const backend of backends) {
    test(`${set} on ${backend}`, { skip: cases.length === 0 && `${dir} is absent` }, async (t) => {
      const context = await webnn.ml.createContext({ backend });
      let passed = 0;
      const failures = [];
      for (const c of cases) {
        try {
          const mismatch = await runCase(context, c.graph);
          if (mismatch === null) passed += 1;
          else failures.push(`${c.file} ${c.name}: ${mismatch}`);
        } catch (e) {
          failures.push(`${c.file} ${c.name}: ${e.name}: ${e.message}`);
        }
      }
      context.destroy();
      t.diagnostic(`${passed} passed, ${failures.length} failed of ${cases.length}`);
      assert.deepEqual(failures, []);
      assert.equal(passed, cases.length);
    });
  }
}

test('the conformance data is there', { skip: !process.env.CI && conformanceCases(path.join(shared, 'wpt', 'conformance')).length === 0 && 'no ../shared' }, () => {
  assert.ok(conformanceCases(path.join(shared, 'wpt', 'conformance')).length >= 1470);
  assert.ok(conformanceCases(path.join(shared, 'wpt', 'conformance-extra')).length >= 441);
});
