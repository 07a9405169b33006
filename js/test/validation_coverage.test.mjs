// Every operator of MLGraphBuilder (each method but input, constant and build) has a validation
// table in one of the validation_*.test.mjs files, with at least one succeeding row (which also
// gives it the generic "can not build" and "validating operand" cases).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MLGraphBuilder, covered, startCollecting } from './validation_support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const self = path.basename(fileURLToPath(import.meta.url));

test('every MLGraphBuilder operator has a validation table', async () => {
  startCollecting();
  const files = fs.readdirSync(here).filter((f) => /^validation_.*\.test\.mjs$/.test(f) && f !== self);
  for (const file of files) await import(path.join(here, file));
  const operators = Object.keys(Object.getOwnPropertyDescriptors(MLGraphBuilder.prototype)).filter(
    (name) => typeof MLGraphBuilder.prototype[name] === 'function' && !['constructor', 'input', 'constant', 'build'].includes(name),
  );
  assert.ok(operators.length >= 95, `${operators.length} operators`);
  const missing = operators.filter((op) => !covered.has(op));
  assert.deepEqual(missing, [], 'operators without a validation table');
  const unknown = [...covered.keys()].filter((op) => !operators.includes(op));
  assert.deepEqual(unknown, [], 'tables of methods MLGraphBuilder does not have');
});
