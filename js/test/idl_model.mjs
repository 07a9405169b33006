// The spec's IDL as data, for the tests that walk the package by it (idl.test.mjs,
// bad_input.test.mjs) and the fuzz driver (tools/fuzz.mjs): the IDL blocks of
// ../shared/spec/webnn.bs parsed by webidl2 (an independent parser; the package's generator has its
// own), plus the package's own additions written as IDL, and an independent WebIDL conversion of a
// value to an IDL type (the oracle the bad-input walk judges the package by).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { types } from 'node:util';
import { shared } from './support.mjs';

const require = createRequire(import.meta.url);

export const specPath = path.join(shared, 'spec', 'webnn.bs');
export const haveSpec = fs.existsSync(specPath);

// The spec's IDL blocks, parsed.
export function parseSpec() {
  const { parse } = require('webidl2');
  const text = fs.readFileSync(specPath, 'utf8');
  const blocks = [...text.matchAll(/<script type=["']?idl["']?>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  return parse(blocks.join('\n'));
}

// The package's additions (docs/javascript.md, "The package's own additions"), in IDL: the
// non-spec context options, and the package's two functions as operations of a pseudo-interface.
// installGlobals' defaults are converted as createContext converts them.
const packageIdl = `
partial dictionary MLContextOptions {
  DOMString backend;
  [EnforceRange] unsigned long numThreads;
  DOMString remote;
  DOMString token;
};
dictionary WebnnPackageDefaults {
  DOMString backend;
  [EnforceRange] unsigned long numThreads;
  DOMString remote;
  DOMString token;
};
[Exposed=Window] interface WebnnPackage {
  ML installGlobals(optional object target, optional WebnnPackageDefaults defaults = {});
  Promise<any> loadGraph(MLContext context, DOMString path);
};
`;

// { interfaces, dictionaries, enums, typedefs } with partials merged; interfaces map a name to
// { operations: Map(name -> [overload]), attributes: [member], constructors: [member] }.
export function model({ withPackage = true } = {}) {
  const { parse } = require('webidl2');
  const defs = parseSpec();
  if (withPackage) defs.push(...parse(packageIdl));
  const interfaces = new Map();
  const dictionaries = new Map();
  const enums = new Map();
  const typedefs = new Map();
  for (const def of defs) {
    if (def.type === 'interface') {
      if (!interfaces.has(def.name))
        interfaces.set(def.name, { members: [], operations: new Map(), attributes: [], constructors: [] });
      const iface = interfaces.get(def.name);
      iface.members.push(...def.members);
      for (const m of def.members) {
        if (m.type === 'operation') {
          if (!iface.operations.has(m.name)) iface.operations.set(m.name, []);
          iface.operations.get(m.name).push(m);
        } else if (m.type === 'attribute') {
          iface.attributes.push(m);
        } else if (m.type === 'constructor') {
          iface.constructors.push(m);
        }
      }
    } else if (def.type === 'dictionary') {
      if (!dictionaries.has(def.name)) dictionaries.set(def.name, { inheritance: null, members: [] });
      const d = dictionaries.get(def.name);
      if (def.inheritance) d.inheritance = def.inheritance;
      d.members.push(...def.members);
    } else if (def.type === 'enum') {
      enums.set(
        def.name,
        def.values.map((v) => v.value),
      );
    } else if (def.type === 'typedef') {
      typedefs.set(def.name, def.idlType);
    }
  }
  const m = { interfaces, dictionaries, enums, typedefs };
  // An argument's or member's type: webidl2 puts a leading [EnforceRange] on the argument or member.
  m.typeOf = (idlType, extAttrs = []) => typeOf(m, idlType, extAttrs);
  m.argType = (a) => typeOf(m, a.idlType, a.extAttrs ?? []);
  // A dictionary's members in WebIDL's conversion order (inherited first, each level by name), as
  // { name, type, required }.
  m.members = (name) => {
    const chain = [];
    for (let d = dictionaries.get(name); d; d = d.inheritance ? dictionaries.get(d.inheritance) : null) chain.unshift(d);
    const out = [];
    for (const level of chain) {
      const sorted = [...level.members].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const member of sorted) out.push({ name: member.name, type: m.argType(member), required: member.required });
    }
    return out;
  };
  return m;
}

// A webidl2 type as { kind, ... }: interface, dictionary, enum, sequence, record, union, buffer,
// boolean, string, integer, double, bigint, object, any, promise.
function typeOf(m, t, extAttrs = []) {
  if (t.union) return { kind: 'union', members: t.idlType.map((u) => typeOf(m, u)) };
  if (t.generic === 'sequence' || t.generic === 'FrozenArray')
    return { kind: 'sequence', item: typeOf(m, t.idlType[0]) };
  if (t.generic === 'record') return { kind: 'record', value: typeOf(m, t.idlType[1]) };
  if (t.generic === 'Promise') return { kind: 'promise' };
  const name = t.idlType;
  const enforce = [...(t.extAttrs ?? []), ...extAttrs].some((e) => e.name === 'EnforceRange');
  if (m.typedefs.has(name)) return typeOf(m, m.typedefs.get(name), extAttrs);
  if (m.dictionaries.has(name)) return { kind: 'dictionary', name };
  if (m.enums.has(name)) return { kind: 'enum', name, values: m.enums.get(name) };
  if (m.interfaces.has(name) || name === 'GPUDevice') return { kind: 'interface', name };
  const integers = {
    'unsigned long': [0, 2 ** 32 - 1],
    long: [-(2 ** 31), 2 ** 31 - 1],
    'unsigned long long': [0, Number.MAX_SAFE_INTEGER],
    'long long': [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  };
  if (name in integers) return { kind: 'integer', name, enforce, range: integers[name] };
  switch (name) {
    case 'boolean':
      return { kind: 'boolean' };
    case 'DOMString':
    case 'USVString':
      return { kind: 'string' };
    case 'AllowSharedBufferSource':
      return { kind: 'buffer' };
    case 'bigint':
      return { kind: 'bigint' };
    case 'double':
      return { kind: 'double', restricted: true, float: false };
    case 'float':
      return { kind: 'double', restricted: true, float: true };
    case 'unrestricted double':
      return { kind: 'double', restricted: false, float: false };
    case 'unrestricted float':
      return { kind: 'double', restricted: false, float: true };
    case 'object':
      return { kind: 'object' };
    case 'any':
    case 'undefined':
      return { kind: 'any' };
    default:
      throw new Error(`idl_model: no rule for the IDL type ${name}`);
  }
}

// ---- An independent WebIDL conversion: the oracle ----
//
// convert(m, type, v, { optional, isPlatform }) performs WebIDL's conversion of `v` to `type`
// (https://webidl.spec.whatwg.org/#js-type-mapping) and throws what it throws: a TypeError, or
// whatever a getter, a trap or ECMAScript itself (ToString of a 10^9-element array: RangeError)
// throws on the way. It reads `v` exactly as the conversion does, so it runs on a fresh copy of a
// hostile value, never on the one handed to the package. `isPlatform(v, name)` tells a real
// platform object of interface `name`. The package's one documented bound is applied too: a
// sequence of more than 2^20 items is a TypeError.
export const kMaxSequenceLength = 2 ** 20;

export function isObject(v) {
  return (typeof v === 'object' && v !== null) || typeof v === 'function';
}

function toPrimitive(v, hint) {
  if (!isObject(v)) return v;
  const exotic = v[Symbol.toPrimitive];
  if (exotic !== undefined && exotic !== null) {
    if (typeof exotic !== 'function') throw new TypeError('@@toPrimitive is not callable');
    const r = exotic.call(v, hint);
    if (isObject(r)) throw new TypeError('@@toPrimitive returned an object');
    return r;
  }
  for (const name of hint === 'string' ? ['toString', 'valueOf'] : ['valueOf', 'toString']) {
    const method = v[name];
    if (typeof method === 'function') {
      const r = method.call(v);
      if (!isObject(r)) return r;
    }
  }
  throw new TypeError('no primitive value');
}

function toNumber(v) {
  const p = toPrimitive(v, 'number');
  if (typeof p === 'bigint' || typeof p === 'symbol') throw new TypeError('ToNumber');
  return Number(p);
}

function toStringValue(v) {
  const p = toPrimitive(v, 'string');
  if (typeof p === 'symbol') throw new TypeError('ToString');
  return String(p);
}

function bufferOf(v) {
  if (types.isAnyArrayBuffer(v)) return v;
  const get = types.isDataView(v)
    ? Object.getOwnPropertyDescriptor(DataView.prototype, 'buffer').get
    : Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'buffer').get;
  return get.call(v);
}

export function convert(m, type, v, options = {}) {
  const { optional = false, isPlatform, isHuge } = options;
  if (v === undefined && optional) return;
  switch (type.kind) {
    case 'any':
    case 'boolean':
      return;
    case 'object':
      if (!isObject(v)) throw new TypeError('not an object');
      return;
    case 'interface':
      if (!isPlatform(v, type.name)) throw new TypeError(`not an ${type.name}`);
      return;
    case 'buffer': {
      if (!(types.isAnyArrayBuffer(v) || ArrayBuffer.isView(v))) throw new TypeError('not a buffer source');
      const b = bufferOf(v);
      const proto = types.isSharedArrayBuffer(b) ? SharedArrayBuffer.prototype : ArrayBuffer.prototype;
      const resizable = Object.getOwnPropertyDescriptor(proto, types.isSharedArrayBuffer(b) ? 'growable' : 'resizable');
      if (resizable && resizable.get.call(b)) throw new TypeError('resizable');
      return;
    }
    case 'string':
      toStringValue(v);
      return;
    case 'enum':
      if (!type.values.includes(toStringValue(v))) throw new TypeError('not an enum value');
      return;
    case 'integer': {
      const x = toNumber(v);
      if (type.enforce) {
        if (!Number.isFinite(x)) throw new TypeError('not finite');
        const i = Math.trunc(x);
        if (i < type.range[0] || i > type.range[1]) throw new TypeError('out of range');
      }
      return;
    }
    case 'double': {
      const x = toNumber(v);
      if (type.restricted && !Number.isFinite(type.float ? Math.fround(x) : x)) throw new TypeError('not finite');
      return;
    }
    case 'bigint': {
      // ToBigInt: a BigInt, a boolean or a string of digits; anything else is a TypeError.
      const p = toPrimitive(v, 'number');
      if (typeof p === 'bigint' || typeof p === 'boolean') return;
      if (typeof p !== 'string') throw new TypeError('ToBigInt');
      BigInt(p); // a SyntaxError for a string that is not an integer, as ToBigInt
      return;
    }
    case 'union':
      return convertUnion(m, type, v, options);
    case 'sequence': {
      if (!isObject(v)) throw new TypeError('not an object');
      const method = v[Symbol.iterator];
      if (method === undefined || method === null) throw new TypeError('not iterable');
      return convertSequence(m, type, v, method, options);
    }
    case 'record': {
      if (!isObject(v)) throw new TypeError('not an object');
      for (const key of Reflect.ownKeys(v)) {
        const desc = Reflect.getOwnPropertyDescriptor(v, key);
        if (desc === undefined || !desc.enumerable) continue;
        toStringValue(key);
        convert(m, type.value, v[key], { isPlatform, isHuge: options.isHuge });
      }
      return;
    }
    case 'dictionary': {
      if (v !== undefined && v !== null && !isObject(v)) throw new TypeError('not a dictionary');
      for (const member of m.members(type.name)) {
        const value = v === undefined || v === null ? undefined : v[member.name];
        if (value === undefined) {
          if (member.required) throw new TypeError(`${member.name} is required`);
        } else {
          convert(m, member.type, value, { isPlatform, isHuge: options.isHuge });
        }
      }
      return;
    }
    default:
      throw new Error(`idl_model: cannot convert to ${type.kind}`);
  }
}

function convertSequence(m, type, v, method, options) {
  if (options.isHuge?.(v)) throw new TypeError('more items than the bound'); // known, not iterated
  if (typeof method !== 'function') throw new TypeError('@@iterator is not callable');
  const iterator = method.call(v);
  if (!isObject(iterator)) throw new TypeError('the iterator is not an object');
  const next = iterator.next;
  for (let n = 0; ; ++n) {
    const step = next.call(iterator);
    if (!isObject(step)) throw new TypeError('next() did not return an object');
    if (step.done) return;
    if (n >= kMaxSequenceLength) throw new TypeError('too many items');
    convert(m, type.item, step.value, { isPlatform: options.isPlatform, isHuge: options.isHuge });
  }
}

// WebIDL's union conversion for the unions WebNN has: MLNumber (bigint or unrestricted double)
// and split's ([EnforceRange] unsigned long or sequence<[EnforceRange] unsigned long>).
function convertUnion(m, type, v, options) {
  const has = (kind) => type.members.find((t) => t.kind === kind);
  if (isObject(v)) {
    for (const t of type.members)
      if (t.kind === 'interface' && options.isPlatform(v, t.name)) return;
    if (has('buffer') && (types.isAnyArrayBuffer(v) || ArrayBuffer.isView(v))) return convert(m, has('buffer'), v, options);
    if (has('sequence')) {
      const method = v[Symbol.iterator];
      if (method !== undefined && method !== null) return convertSequence(m, has('sequence'), v, method, options);
    }
    if (has('dictionary')) return convert(m, has('dictionary'), v, options);
    if (has('record')) return convert(m, has('record'), v, options);
  }
  if (typeof v === 'boolean' && has('boolean')) return;
  const numeric = type.members.find((t) => t.kind === 'integer' || t.kind === 'double');
  if (numeric && has('bigint')) {
    // ToNumeric, then the numeric type or bigint.
    const p = toPrimitive(v, 'number');
    if (typeof p === 'bigint') return;
    if (typeof p === 'symbol') throw new TypeError('ToNumeric');
    return convert(m, numeric, p, options);
  }
  if (typeof v === 'number' && numeric) return convert(m, numeric, v, options);
  if (typeof v === 'bigint' && has('bigint')) return;
  if (has('string')) return convert(m, has('string'), v, options);
  if (numeric) return convert(m, numeric, v, options);
  if (has('bigint')) return convert(m, has('bigint'), v, options);
  throw new TypeError('matches no member of the union');
}

// WebIDL's overload resolution (https://webidl.spec.whatwg.org/#es-overloads), for the overload
// sets WebNN has: the overload (an index into `overloads`) that `args` select, or -1.
export function resolveOverload(m, overloads, args, isPlatform) {
  const fits = overloads
    .map((o, i) => ({ o, i }))
    .filter(({ o }) => {
      const required = o.arguments.filter((a) => !a.optional).length;
      return args.length >= required && args.length <= o.arguments.length;
    });
  const longest = Math.max(...overloads.map((o) => o.arguments.length));
  const count = Math.min(longest, args.length);
  const candidates = fits.filter(({ o }) => o.arguments.length >= count && o.arguments.filter((a) => !a.optional).length <= count);
  if (candidates.length <= 1) return candidates.length ? candidates[0].i : -1;
  // The distinguishing argument: the first index where the candidates' types differ.
  let d = 0;
  const typeAt = (o, i) => JSON.stringify(o.arguments[i]?.idlType);
  while (d < count && candidates.every(({ o }) => typeAt(o, d) === typeAt(candidates[0].o, d))) d += 1;
  const v = args[d];
  const kinds = candidates.map(({ o, i }) => ({ i, type: m.argType(o.arguments[d]), optional: o.arguments[d].optional }));
  const pick = (pred) => kinds.find(({ type }) => pred(type));
  if (v === undefined) {
    const optional = kinds.find((k) => k.optional);
    if (optional) return optional.i;
  }
  let chosen;
  if (v === undefined || v === null) chosen = pick((t) => t.kind === 'dictionary');
  if (!chosen && isObject(v)) {
    chosen =
      pick((t) => t.kind === 'interface' && isPlatform(v, t.name)) ??
      pick((t) => t.kind === 'buffer' && (types.isAnyArrayBuffer(v) || ArrayBuffer.isView(v))) ??
      pick((t) => t.kind === 'dictionary' || t.kind === 'record');
  }
  if (!chosen && typeof v === 'boolean') chosen = pick((t) => t.kind === 'boolean');
  if (!chosen && typeof v === 'number') chosen = pick((t) => t.kind === 'integer' || t.kind === 'double');
  if (!chosen && typeof v === 'bigint') chosen = pick((t) => t.kind === 'bigint');
  if (!chosen) chosen = pick((t) => t.kind === 'string' || t.kind === 'enum');
  if (!chosen) chosen = pick((t) => t.kind === 'integer' || t.kind === 'double' || t.kind === 'union');
  return chosen ? chosen.i : -1;
}
