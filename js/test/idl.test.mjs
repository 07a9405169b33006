// An idlharness of our own: the spec's IDL, extracted from ../shared/spec/webnn.bs and parsed by
// webidl2 (an independent parser; the package's generator has its own), checked against the
// package: every interface object, attribute, operation (with its overloads' arity), constructor,
// enum value and dictionary member (read in WebIDL's order; output dictionaries present in what the
// package returns).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webnn } from './support.mjs';
import { model, specPath, haveSpec } from './idl_model.mjs';

// The spec's IDL alone (partials merged), without the package's additions.
const spec = haveSpec ? model({ withPackage: false }) : null;
const skip = !haveSpec && `${specPath} is absent`;

test('every interface of the IDL is an interface object of the package', { skip }, () => {
  const target = {};
  webnn.installGlobals(target);
  for (const name of spec.interfaces.keys()) {
    assert.equal(typeof target[name], 'function', `${name} is installed`);
    assert.equal(target[name], webnn[name], `${name} is the package's export`);
    assert.equal(Object.prototype.toString.call(target[name].prototype), `[object ${name}]`);
  }
  assert.equal(Object.getPrototypeOf(target.navigator.ml), webnn.ML.prototype);
});

test('attributes are getters on the prototypes, and reject other receivers', { skip }, async () => {
  for (const [name, iface] of spec.interfaces) {
    for (const m of iface.members.filter((m) => m.type === 'attribute')) {
      const desc = Object.getOwnPropertyDescriptor(webnn[name].prototype, m.name);
      assert.ok(desc && typeof desc.get === 'function', `${name}.${m.name} is an accessor`);
      assert.equal(desc.enumerable, true, `${name}.${m.name} is enumerable`);
      assert.equal(desc.set, undefined, `${name}.${m.name} is read-only`);
      // A promise attribute's getter rejects instead of throwing (WebIDL's attribute getter steps).
      if (m.idlType.generic === 'Promise') await assert.rejects(desc.get.call({}), TypeError, `${name}.${m.name} on another object`);
      else assert.throws(() => desc.get.call({}), TypeError, `${name}.${m.name} on another object`);
    }
  }
});

test('operations exist with the arity of their shortest overload', { skip }, () => {
  let count = 0;
  for (const [name, iface] of spec.interfaces) {
    const byName = new Map();
    for (const m of iface.members.filter((m) => m.type === 'operation')) {
      if (!byName.has(m.name)) byName.set(m.name, []);
      byName.get(m.name).push(m);
    }
    for (const [op, overloads] of byName) {
      const method = webnn[name].prototype[op];
      assert.equal(typeof method, 'function', `${name}.${op} exists`);
      const required = Math.min(...overloads.map((o) => o.arguments.filter((a) => !a.optional).length));
      assert.equal(method.length, required, `${name}.${op}.length`);
      assert.equal(Object.getOwnPropertyDescriptor(webnn[name].prototype, op).enumerable, true);
      count += 1;
    }
  }
  assert.ok(count > 100, `${count} operations checked`);
});

test('constructors: MLGraphBuilder(context) only', { skip }, () => {
  for (const [name, iface] of spec.interfaces) {
    const ctors = iface.members.filter((m) => m.type === 'constructor');
    if (ctors.length) {
      assert.equal(webnn[name].length, Math.min(...ctors.map((c) => c.arguments.filter((a) => !a.optional).length)));
      assert.throws(() => new webnn[name](), TypeError);
    } else {
      assert.throws(() => new webnn[name](), TypeError, `${name} has no constructor`);
    }
  }
});

// Records the property reads a dictionary conversion makes.
function recordingProxy(reads) {
  return new Proxy(
    {},
    {
      get(target, key) {
        if (typeof key === 'string') reads.push(key);
        return undefined;
      },
    },
  );
}

test('input dictionaries: every member is read, in WebIDL order', { skip }, () => {
  const { dictionaries } = webnn._testing.generated;
  const outputs = new Set(['MLOpSupportLimits', 'MLContextLostInfo', 'MLRankRange', 'MLTensorLimits']);
  let checked = 0;
  for (const name of spec.dictionaries.keys()) {
    if (outputs.has(name) || name.endsWith('SupportLimits')) continue;
    const convert = dictionaries[name];
    assert.equal(typeof convert, 'function', `${name} has a converter`);
    const reads = [];
    try {
      convert(recordingProxy(reads), name);
    } catch (e) {
      // A required member is missing: the reads up to it are still in order.
      assert.ok(e instanceof TypeError);
    }
    // In WebIDL's order: inherited members first, each level by name.
    const expected = spec.members(name).map((m) => m.name);
    const required = spec.members(name).filter((m) => m.required);
    if (required.length === 0) assert.deepEqual(reads, expected, `${name} reads`);
    else assert.deepEqual(reads, expected.slice(0, reads.length), `${name} reads in order`);
    checked += 1;
  }
  assert.ok(checked > 30, `${checked} dictionaries checked`);
});

test('output dictionaries: opSupportLimits() holds every member the IDL declares', { skip }, async () => {
  const context = await webnn.ml.createContext({ backend: 'reference' });
  const limits = context.opSupportLimits();
  const check = (value, dictName, where) => {
    for (const m of spec.members(dictName)) {
      assert.ok(m.name in value, `${where}.${m.name}`);
      if (m.type.kind === 'dictionary') check(value[m.name], m.type.name, `${where}.${m.name}`);
    }
  };
  check(limits, 'MLOpSupportLimits', 'opSupportLimits()');
  const lost = context.lost;
  context.destroy();
  const info = await lost;
  for (const m of spec.dictionaries.get('MLContextLostInfo').members) assert.ok(m.name in info, `lost.${m.name}`);
});

test('enums: every value accepted, anything else a TypeError', { skip }, () => {
  const { enums } = webnn._testing.generated;
  for (const [name, values] of spec.enums) {
    assert.deepEqual([...enums[name]], values, `${name}`);
  }
});
