'use strict';
// WebIDL's conversions from JavaScript values to IDL values (https://webidl.spec.whatwg.org/,
// "JavaScript type mapping"), for the types the WebNN IDL uses. lib/generated.js composes them per
// method and dictionary as the spec's IDL declares them; every failure is a TypeError whose
// message says where the value was ("MLGraphBuilder.conv2d: options.padding[1]").

const { types } = require('node:util');

// Sequences longer than this are refused: WebIDL sets no bound, but an iterable that never ends
// (or yields a billion items) must not hang or exhaust the process. No WebNN argument needs more
// items than this (shapes, axes, permutations, paddings are bounded by rank).
const kMaxSequenceLength = 1 << 20;

function describe(v) {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return 'a string';
    case 'symbol':
      return 'a Symbol';
    case 'bigint':
      return 'a BigInt';
    case 'number':
      return `the number ${v}`;
    case 'boolean':
      return `the boolean ${v}`;
    case 'function':
      return 'a function';
    default:
      return 'an object';
  }
}

function fail(where, what) {
  return new TypeError(`${where} ${what}`);
}

function isObject(v) {
  return (typeof v === 'object' && v !== null) || typeof v === 'function';
}

// ECMAScript ToNumber: a BigInt or a Symbol is a TypeError (unary plus throws for both).
function toNumber(v, where) {
  try {
    return +v;
  } catch (e) {
    if (e instanceof TypeError) throw fail(where, `cannot be converted to a number (${describe(v)})`);
    throw e;
  }
}

// [EnforceRange] integer types: NaN, ±Infinity and values outside [lower, upper] are TypeErrors;
// fractions are truncated.
function enforceRange(v, lower, upper, where) {
  const x = toNumber(v, where);
  if (!Number.isFinite(x)) throw fail(where, `must be a finite number, got ${describe(v)}`);
  const i = Math.trunc(x);
  if (i < lower || i > upper) throw fail(where, `is outside the range [${lower}, ${upper}]: ${i}`);
  return i === 0 ? 0 : i;
}

// Integer types without [EnforceRange]: ECMAScript's modulo conversion (ToUint32 and friends).
function wrapUnsigned(v, bits, where) {
  const x = toNumber(v, where);
  if (!Number.isFinite(x)) return 0;
  const m = 2 ** bits;
  const i = Math.trunc(x) % m;
  return i < 0 ? i + m : i === 0 ? 0 : i;
}

function wrapSigned(v, bits, where) {
  const u = wrapUnsigned(v, bits, where);
  return u >= 2 ** (bits - 1) ? u - 2 ** bits : u;
}

const integerTypes = {
  'unsigned long': { lower: 0, upper: 2 ** 32 - 1, wrap: (v, w) => wrapUnsigned(v, 32, w) },
  long: { lower: -(2 ** 31), upper: 2 ** 31 - 1, wrap: (v, w) => wrapSigned(v, 32, w) },
  'unsigned long long': { lower: 0, upper: Number.MAX_SAFE_INTEGER, wrap: (v, w) => wrapUnsigned(v, 53, w) },
  'long long': { lower: Number.MIN_SAFE_INTEGER, upper: Number.MAX_SAFE_INTEGER, wrap: (v, w) => wrapSigned(v, 53, w) },
};

function integer(type, enforce, v, where) {
  const t = integerTypes[type];
  return enforce ? enforceRange(v, t.lower, t.upper, where) : t.wrap(v, where);
}

// double and float: NaN and ±Infinity are TypeErrors; float rounds to binary32, and a value that
// rounds to ±Infinity is one too.
function restrictedDouble(v, where) {
  const x = toNumber(v, where);
  if (!Number.isFinite(x)) throw fail(where, `must be a finite number, got ${describe(v)}`);
  return x;
}

function unrestrictedDouble(v, where) {
  return toNumber(v, where);
}

function restrictedFloat(v, where) {
  const x = restrictedDouble(v, where);
  const y = Math.fround(x);
  if (!Number.isFinite(y)) throw fail(where, `is outside the range of a float: ${x}`);
  return y;
}

function unrestrictedFloat(v, where) {
  return Math.fround(toNumber(v, where));
}

function boolean(v) {
  return Boolean(v);
}

function domString(v, where) {
  if (typeof v === 'symbol') throw fail(where, 'cannot be converted to a string (a Symbol)');
  return String(v);
}

// USVString: lone surrogates become U+FFFD (String.prototype.toWellFormed where the runtime has
// it: Node.js 20; the same replacement by hand on Node.js 18).
const wellFormed =
  typeof String.prototype.toWellFormed === 'function'
    ? (s) => s.toWellFormed()
    : (s) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

function usvString(v, where) {
  return wellFormed(domString(v, where));
}

function enumeration(v, values, typeName, where) {
  const s = domString(v, where);
  if (!values.includes(s)) throw fail(where, `"${s}" is not a valid value of the enum ${typeName}`);
  return s;
}

// bigint: a BigInt as it is; anything else through ToBigInt (a number, a Symbol, undefined or
// null is a TypeError).
function bigint(v, where) {
  if (typeof v === 'bigint') return v;
  try {
    return BigInt(toPrimitive(v, 'number'));
  } catch (e) {
    throw fail(where, `cannot be converted to a BigInt (${describe(v)})`);
  }
}

// ECMAScript ToPrimitive with a hint, for the union conversions that must tell a BigInt result
// from a number (ToNumeric).
function toPrimitive(v, hint) {
  if (!isObject(v)) return v;
  const exotic = v[Symbol.toPrimitive];
  if (exotic !== undefined && exotic !== null) {
    if (typeof exotic !== 'function') throw new TypeError('Symbol.toPrimitive is not a function');
    const r = exotic.call(v, hint);
    if (isObject(r)) throw new TypeError('Symbol.toPrimitive returned an object');
    return r;
  }
  for (const name of hint === 'string' ? ['toString', 'valueOf'] : ['valueOf', 'toString']) {
    const method = v[name];
    if (typeof method === 'function') {
      const r = method.call(v);
      if (!isObject(r)) return r;
    }
  }
  throw new TypeError('cannot convert an object to a primitive value');
}

// ToNumeric, then the numeric type: a union of bigint and a numeric type (MLNumber).
function bigintOrNumeric(v, numeric, where) {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return numeric(v, where);
  if (typeof v === 'symbol') throw fail(where, 'cannot be converted to a number (a Symbol)');
  const p = toPrimitive(v, 'number');
  if (typeof p === 'bigint') return p;
  return numeric(p, where);
}

// sequence<T> from any iterable object.
function sequence(v, convertItem, where) {
  if (!isObject(v)) throw fail(where, `must be an iterable object, got ${describe(v)}`);
  const method = v[Symbol.iterator];
  if (method === undefined || method === null) throw fail(where, 'is not iterable');
  return sequenceFromMethod(v, method, convertItem, where);
}

function sequenceFromMethod(v, method, convertItem, where) {
  if (typeof method !== 'function') throw fail(where, 'has a Symbol.iterator that is not a function');
  const iterator = method.call(v);
  if (!isObject(iterator)) throw fail(where, 'has an iterator that is not an object');
  const next = iterator.next;
  const out = [];
  for (;;) {
    const step = next.call(iterator);
    if (!isObject(step)) throw fail(where, "has an iterator whose next() result is not an object");
    if (step.done) break;
    if (out.length >= kMaxSequenceLength) {
      if (typeof iterator.return === 'function') iterator.return();
      throw fail(where, `has more than ${kMaxSequenceLength} items`);
    }
    out.push(convertItem(step.value, `${where}[${out.length}]`));
  }
  return out;
}

// record<USVString, T> from an object's own enumerable properties, in property order: an array of
// [key, value] pairs.
function record(v, convertValue, where) {
  if (!isObject(v)) throw fail(where, `must be an object, got ${describe(v)}`);
  const out = [];
  const seen = new Set();
  for (const key of Reflect.ownKeys(v)) {
    const desc = Reflect.getOwnPropertyDescriptor(v, key);
    if (desc === undefined || !desc.enumerable) continue;
    const typedKey = usvString(key, `${where} key`);
    const value = convertValue(v[key], `${where}["${typedKey}"]`);
    if (seen.has(typedKey)) {
      out[out.findIndex(([k]) => k === typedKey)][1] = value;
    } else {
      seen.add(typedKey);
      out.push([typedKey, value]);
    }
  }
  return out;
}

// A dictionary: `members` in WebIDL's conversion order (inherited dictionaries first, each one's
// members sorted by name), each { name, convert, required, default (a function) }. Returns an
// object with the members present (given, or defaulted) only.
function dictionary(v, members, typeName, where) {
  if (v !== undefined && v !== null && !isObject(v))
    throw fail(where, `must be a dictionary (${typeName}), got ${describe(v)}`);
  const out = {};
  for (const m of members) {
    const value = v === undefined || v === null ? undefined : v[m.name];
    if (value !== undefined) {
      out[m.name] = m.convert(value, `${where}.${m.name}`);
    } else if (m.required) {
      throw fail(`${where}.${m.name}`, `is required in ${typeName}`);
    } else if (m.default !== undefined) {
      out[m.name] = m.default();
    }
  }
  return out;
}

// A buffer source is read through its internal slots, as WebIDL does: the intrinsic getters of
// %TypedArray%.prototype, DataView.prototype, ArrayBuffer.prototype and SharedArrayBuffer.prototype,
// taken here before any caller code runs. Properties of the object itself (an own `buffer`,
// `byteLength` or `resizable` a caller defined) are never consulted: they could lie about the bytes
// or run code (detach the buffer) in the middle of a call.
function intrinsicGetter(proto, name) {
  const desc = Object.getOwnPropertyDescriptor(proto, name);
  return desc ? desc.get : undefined;
}
const typedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const slots = {
  typedArrayBuffer: intrinsicGetter(typedArrayPrototype, 'buffer'),
  typedArrayByteOffset: intrinsicGetter(typedArrayPrototype, 'byteOffset'),
  typedArrayByteLength: intrinsicGetter(typedArrayPrototype, 'byteLength'),
  dataViewBuffer: intrinsicGetter(DataView.prototype, 'buffer'),
  dataViewByteOffset: intrinsicGetter(DataView.prototype, 'byteOffset'),
  dataViewByteLength: intrinsicGetter(DataView.prototype, 'byteLength'),
  arrayBufferByteLength: intrinsicGetter(ArrayBuffer.prototype, 'byteLength'),
  sharedByteLength: intrinsicGetter(SharedArrayBuffer.prototype, 'byteLength'),
  // Absent before resizable buffers existed (Node.js 18): no buffer is resizable there.
  arrayBufferResizable: intrinsicGetter(ArrayBuffer.prototype, 'resizable'),
  sharedGrowable: intrinsicGetter(SharedArrayBuffer.prototype, 'growable'),
};

function bufferByteLength(buffer) {
  return types.isSharedArrayBuffer(buffer)
    ? slots.sharedByteLength.call(buffer)
    : slots.arrayBufferByteLength.call(buffer);
}

function isResizable(buffer) {
  if (types.isSharedArrayBuffer(buffer)) return slots.sharedGrowable ? slots.sharedGrowable.call(buffer) : false;
  return slots.arrayBufferResizable ? slots.arrayBufferResizable.call(buffer) : false;
}

// { buffer, offset, length } of a buffer source; a detached buffer has no bytes.
function sourceParts(source) {
  if (types.isArrayBuffer(source) || types.isSharedArrayBuffer(source))
    return { buffer: source, offset: 0, length: bufferByteLength(source) };
  if (types.isDataView(source)) {
    const buffer = slots.dataViewBuffer.call(source);
    // A DataView's own getters throw once its buffer is detached (a detached buffer has length 0).
    if (bufferByteLength(buffer) === 0) return { buffer, offset: 0, length: 0 };
    return { buffer, offset: slots.dataViewByteOffset.call(source), length: slots.dataViewByteLength.call(source) };
  }
  return {
    buffer: slots.typedArrayBuffer.call(source),
    offset: slots.typedArrayByteOffset.call(source),
    length: slots.typedArrayByteLength.call(source),
  };
}

// AllowSharedBufferSource: an ArrayBuffer, a SharedArrayBuffer or any ArrayBufferView, not
// resizable or growable (no [AllowResizable]). Returned as it is; bytesOf() views its bytes.
function bufferSource(v, where) {
  if (!(types.isAnyArrayBuffer(v) || ArrayBuffer.isView(v)))
    throw fail(where, `must be an ArrayBuffer, a SharedArrayBuffer or an ArrayBufferView, got ${describe(v)}`);
  if (isResizable(sourceParts(v).buffer))
    throw fail(where, 'is backed by a resizable buffer, which WebNN does not accept');
  return v;
}

// The bytes of a buffer source as a Uint8Array over the same memory (a detached buffer: no bytes).
function bytesOf(source) {
  const { buffer, offset, length } = sourceParts(source);
  if (length === 0) return new Uint8Array(0);
  return new Uint8Array(buffer, offset, length);
}

function byteLengthOf(source) {
  return sourceParts(source).length;
}

module.exports = {
  kMaxSequenceLength,
  describe,
  fail,
  isObject,
  integer,
  restrictedDouble,
  unrestrictedDouble,
  restrictedFloat,
  unrestrictedFloat,
  boolean,
  domString,
  usvString,
  enumeration,
  bigint,
  bigintOrNumeric,
  toPrimitive,
  sequence,
  sequenceFromMethod,
  record,
  dictionary,
  bufferSource,
  bytesOf,
  byteLengthOf,
};
