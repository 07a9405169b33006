// Shared by the validation tests (validation_*.test.mjs): the spec's validation steps of every
// MLGraphBuilder method (../shared/spec/webnn.bs), written as tables of cases.
//
// An operator's table is a list of rows. Every row names the spec step it exercises (`step`) and
// builds the call's arguments with `args(o)`, where `o(dataType, shape)` makes a fresh input
// operand on the builder under test. A row either expects the call to succeed with the output
// descriptor the spec's steps compute (`expect: [dataType, shape]`, or a list of them for the
// methods that return sequence<MLOperand>), or to throw (`error`, TypeError unless named). Every
// row passes a label in the options and an error must carry it as `[label]` (docs/javascript.md).
//
// From the first succeeding row each operator also gets the generic cases: the builder has built
// ("can not build": InvalidStateError), its context is lost (the same), and each operand in turn
// replaced by one of another builder ("validating operand": TypeError).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webnn } from './support.mjs';

export const { ml, MLGraphBuilder, MLOperand } = webnn;

export const dataTypes = ['float32', 'float16', 'int32', 'uint32', 'int64', 'uint64', 'int8', 'uint8'];
const short = { f32: 'float32', f16: 'float16', i32: 'int32', u32: 'uint32', i64: 'int64', u64: 'uint64', i8: 'int8', u8: 'uint8' };
export const typeName = (t) => short[t] ?? t;

// The largest valid dimension: "an integer greater than zero and in the range of long".
export const kMaxLong = 2 ** 31 - 1;
// The largest valid tensor count.
export const kMaxTensorCount = 8192;

// The coverage test imports the validation files to see which operators they cover; then nothing
// is registered with node:test.
const kCollect = Symbol.for('webnn.validation.collect');
const collecting = () => globalThis[kCollect] === true;
export const covered = new Map(); // operator → number of rows
export function startCollecting() {
  globalThis[kCollect] = true;
}

// A test of its own (not an operator table), skipped while collecting coverage.
export function vtest(name, fn) {
  if (!collecting()) test(name, fn);
}

let contextPromise;
export function sharedContext() {
  contextPromise ??= ml.createContext();
  return contextPromise;
}

function isError(e, name) {
  assert.equal(e.name, name, `expected ${name}, got ${e.name}: ${e.message}`);
  if (name === 'TypeError') assert.ok(e instanceof TypeError, `${e} is a TypeError`);
  else assert.ok(e instanceof DOMException, `${e} is a DOMException`);
}

// A synchronous method step failed: thrown (not returned), of the spec's kind, with the label.
export function throwsWith(fn, name, label = undefined) {
  let result;
  try {
    result = fn();
  } catch (e) {
    isError(e, name);
    if (label !== undefined) assert.ok(e.message.includes(`[${label}]`), `message names the label [${label}]: ${e.message}`);
    return;
  }
  assert.fail(`expected ${name} to be thrown, but the call returned ${describe(result)}`);
}

// An asynchronous method step failed: a promise (not a throw), rejected with the spec's kind.
export async function rejectsWith(fn, name) {
  let promise;
  assert.doesNotThrow(() => {
    promise = fn();
  }, 'a promise-returning method rejects instead of throwing');
  assert.ok(promise instanceof Promise, 'returns a promise');
  await assert.rejects(promise, (e) => {
    isError(e, name);
    return true;
  });
}

function describe(result) {
  if (result instanceof MLOperand) return `an operand ${result.dataType} [${result.shape}]`;
  if (Array.isArray(result)) return `[${result.map(describe).join(', ')}]`;
  return String(result);
}

// Asserts an operand (or a list of them) has the expected descriptor(s).
export function assertDescriptor(actual, expect) {
  if (Array.isArray(expect[0])) {
    assert.ok(Array.isArray(actual), `a sequence<MLOperand>, got ${describe(actual)}`);
    assert.equal(actual.length, expect.length, `${expect.length} outputs, got ${describe(actual)}`);
    expect.forEach((e, i) => assertDescriptor(actual[i], e));
    return;
  }
  assert.ok(actual instanceof MLOperand, `an MLOperand, got ${describe(actual)}`);
  const [dataType, shape] = expect;
  assert.deepEqual(
    { dataType: actual.dataType, shape: [...actual.shape] },
    { dataType: typeName(dataType), shape },
    'output descriptor',
  );
}

// Makes input operands on `builder`: o(dataType, shape). With `foreign` set, the operand made at
// that position (counting from 0) comes from `foreign.builder` instead.
function operandMaker(builder, foreign = undefined) {
  let count = 0;
  const o = (dataType, shape) => {
    const index = count++;
    const b = foreign && foreign.index === index ? foreign.builder : builder;
    return b.input(`in${nextName++}`, { dataType: typeName(dataType), shape });
  };
  o.count = () => count;
  return o;
}
let nextName = 0;

// The argument list of a row's call, with `label` in the options dictionary (every operator's
// options are its one optional argument, after the `length` required ones).
function callArgs(builder, op, row, o, label) {
  const args = row.args(o);
  const at = MLGraphBuilder.prototype[op].length;
  assert.ok(args.length >= at && args.length <= at + 1, `${op}: the row gives ${args.length} arguments`);
  args[at] = { ...(args[at] ?? {}), label };
  return args;
}

function rowName(row) {
  return row.name ? `${row.step} — ${row.name}` : row.step;
}

// Registers the tests of a family's operators: tables is { operator: rows }.
export function defineOps(tables) {
  for (const [op, rows] of Object.entries(tables)) {
    covered.set(op, rows.length);
    if (collecting()) continue;
    test(op, async (t) => {
      const context = await sharedContext();
      const builder = new MLGraphBuilder(context);
      let firstOutput;
      let index = 0;
      for (const row of rows) {
        const label = `${op}_${index++}`;
        await t.test(rowName(row), () => {
          const args = callArgs(builder, op, row, operandMaker(builder), label);
          if (row.expect) {
            const out = builder[op](...args);
            assertDescriptor(out, row.expect);
            firstOutput ??= Array.isArray(out) ? out[0] : out;
          } else {
            throwsWith(() => builder[op](...args), row.error ?? 'TypeError', label);
          }
        });
      }
      const base = rows.find((r) => r.expect);
      assert.ok(base, `${op} has a succeeding row`);
      await genericCases(t, op, base);
      await t.test('the builder still builds after the failed calls (each step throws before "make graph connections")', async () => {
        assert.ok(firstOutput, 'a succeeding row gave an output');
        const graph = await builder.build({ out: firstOutput });
        graph.destroy();
      });
    });
  }
}

// The steps every operator shares.
async function genericCases(t, op, base) {
  const context = await sharedContext();
  await t.test('If this can not build ([[hasBuilt]] is true), then throw an "InvalidStateError"', async () => {
    const b = new MLGraphBuilder(context);
    const args = callArgs(b, op, base, operandMaker(b), `${op}_built`);
    const extra = b.input('extra', { dataType: 'float32', shape: [1] });
    (await b.build({ out: b.identity(extra) })).destroy();
    throwsWith(() => b[op](...args), 'InvalidStateError', `${op}_built`);
  });
  // dequantizeLinear and quantizeLinear check [[hasBuilt]] only, not "can not build".
  if (!['dequantizeLinear', 'quantizeLinear'].includes(op)) {
    await t.test('If this can not build (its context is lost), then throw an "InvalidStateError"', async () => {
      const lostContext = await ml.createContext();
      const b = new MLGraphBuilder(lostContext);
      const args = callArgs(b, op, base, operandMaker(b), `${op}_lost`);
      lostContext.destroy();
      throwsWith(() => b[op](...args), 'InvalidStateError', `${op}_lost`);
    });
  }
  const counter = operandMaker(new MLGraphBuilder(context));
  base.args(counter);
  for (let index = 0; index < counter.count(); ++index) {
    await t.test(`If validating operand returns false (operand ${index} of another builder), then throw a TypeError`, () => {
      const b = new MLGraphBuilder(context);
      const other = new MLGraphBuilder(context);
      const args = callArgs(b, op, base, operandMaker(b, { index, builder: other }), `${op}_foreign`);
      throwsWith(() => b[op](...args), 'TypeError', `${op}_foreign`);
    });
  }
}

// One row per data type: those in `allowed` succeed with expect(t), the others throw a TypeError.
// args(t) returns the row's args function for data type t.
export function typeRows(step, allowed, args, expect) {
  const ok = allowed.map(typeName);
  return dataTypes.map((t) =>
    ok.includes(t) ? { step, name: `${t} allowed`, args: args(t), expect: expect(t) } : { step, name: `${t} not allowed`, args: args(t) },
  );
}
