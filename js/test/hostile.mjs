// The hostile values the bad-input walk (bad_input.test.mjs) and the fuzz driver (tools/fuzz.mjs)
// hand to the package: wrong primitives, numbers out of every range, a 10^9-element shape that must
// not be allocated, objects whose getters or traps throw, Proxies that log, objects of another
// builder or context and destroyed ones, buffers detached, resizable or resized in the middle of
// a call. Each value is made fresh by make(ctx), so the walk's oracle (idl_model.mjs) can run on a
// copy of its own:
//   ctx.valid    the valid value the hostile one replaces (a Proxy that logs forwards to it);
//   ctx.buffers  the ArrayBuffers of the call (what a getter detaches or resizes);
//   ctx.log      an array a logging Proxy appends its traps to;
//   ctx.objects  { foreignOperand, foreignTensor, destroyedTensor, foreignGraph, destroyedGraph,
//                 destroyedContext }: real objects in the wrong place or state.
// `semantic` says what a value means once WebIDL's conversion accepts it: 'same' (it converts to
// the valid value: the call must behave as the valid one), 'wrong-object' (a real object that is
// not the right one: the spec's error), 'detach' and 'resize' (the call's buffers change under it).

// What a caller's getter or trap throws: the call must let it through unchanged (WebIDL rethrows).
export class CallerError extends Error {}
export const SENTINEL = new CallerError('webnn bad input: thrown by a getter of the caller');
// What a typed array's own (lying) buffer, byteOffset, byteLength or length getter throws when
// something reads it: WebIDL reads a buffer source's internal slots, never these properties.
export const LIE = new CallerError('webnn bad input: a buffer source property was read instead of its internal slot');

export const kHugeLength = 1e9;

// Resizable ArrayBuffers and growable SharedArrayBuffers exist from Node.js 20 (V8 11); before,
// the options are ignored and the values below would be plain buffers, so they are left out.
const haveResizable = new ArrayBuffer(1, { maxByteLength: 2 }).resizable === true;
const haveGrowable = new SharedArrayBuffer(1, { maxByteLength: 2 }).growable === true;

// The iterables of 10^9 items (the oracle knows their length without iterating 2^20 of them).
const hugeIterables = new WeakSet();
export const isHuge = (v) => hugeIterables.has(v);

// Every property name a conversion may read, as throwing enumerable getters.
function throwingGetters(names) {
  const o = {};
  for (const key of [...names, 'valueOf', 'toString', 'length', Symbol.toPrimitive, Symbol.iterator]) {
    Object.defineProperty(o, key, {
      get() {
        throw SENTINEL;
      },
      enumerable: true,
      configurable: true,
    });
  }
  return o;
}

const kTraps = [
  'get',
  'set',
  'has',
  'deleteProperty',
  'ownKeys',
  'getOwnPropertyDescriptor',
  'defineProperty',
  'getPrototypeOf',
  'setPrototypeOf',
  'isExtensible',
  'preventExtensions',
  'apply',
  'construct',
];

function throwingProxy() {
  const handler = {};
  for (const trap of kTraps)
    handler[trap] = () => {
      throw SENTINEL;
    };
  return new Proxy({}, handler);
}

// A primitive as an object that converts back to it (ToPrimitive reads @@toPrimitive, then valueOf
// or toString).
function boxed(v) {
  return { valueOf: () => v, toString: () => String(v) };
}

// A Proxy over `target` that forwards every trap and logs it; `before` runs first on each trap.
function forwardingProxy(target, log, before = () => {}) {
  const handler = {};
  for (const trap of kTraps) {
    handler[trap] = (...args) => {
      log.push(typeof args[1] === 'symbol' ? `${trap} ${args[1].description}` : `${trap} ${String(args[1])}`);
      before();
      return Reflect[trap](...args);
    };
  }
  return new Proxy(target, handler);
}

function wrapValid(valid, log, before) {
  const isObj = (typeof valid === 'object' && valid !== null) || typeof valid === 'function';
  return forwardingProxy(isObj ? valid : boxed(valid), log, before);
}

// A copy of a typed array whose own buffer, byteOffset, byteLength and length properties throw
// LIE: a package that reads them instead of the internal slots is caught.
function lyingView(valid) {
  if (!ArrayBuffer.isView(valid)) return valid;
  const copy = new valid.constructor(valid);
  for (const key of ['buffer', 'byteOffset', 'byteLength', 'length']) {
    Object.defineProperty(copy, key, {
      get() {
        throw LIE;
      },
    });
  }
  return copy;
}

function detach(buffer) {
  if (buffer instanceof ArrayBuffer && buffer.byteLength > 0 && !buffer.resizable) structuredClone(buffer, { transfer: [buffer] });
}

function detachedView() {
  const view = new Float32Array(4);
  detach(view.buffer);
  return view;
}

function detachedBuffer() {
  const buffer = new ArrayBuffer(16);
  detach(buffer);
  return buffer;
}

// The hostile values; `memberNames` are every dictionary member name of the IDL (the getters of
// the throwing object).
export function hostileValues(memberNames) {
  const values = [
    { name: 'undefined', make: () => undefined },
    { name: 'null', make: () => null },
    { name: "''", make: () => '' },
    { name: "'a string'", make: () => 'a string' },
    { name: 'a string with NUL and a lone surrogate', make: () => 'x\0\ud800' },
    { name: 'a Symbol', make: () => Symbol('hostile') },
    { name: '1n', make: () => 1n },
    { name: '2n ** 80n', make: () => 2n ** 80n },
    { name: '1', make: () => 1 },
    { name: 'NaN', make: () => NaN },
    { name: '-1', make: () => -1 },
    { name: '2 ** 53', make: () => 2 ** 53 },
    { name: 'Infinity', make: () => Infinity },
    { name: '[1e9]', make: () => [1e9] },
    {
      name: 'an iterable of 10^9 items',
      make: () => {
        const iterable = {
          *[Symbol.iterator]() {
            for (let i = 0; i < kHugeLength; ++i) yield 1;
          },
        };
        hugeIterables.add(iterable);
        return iterable;
      },
    },
    { name: 'an array-like of length 10^9', make: () => ({ length: kHugeLength, 0: 1 }) },
    { name: 'an Array of length 10^9', make: () => new Array(kHugeLength) },
    { name: 'an object whose getters throw', make: () => throwingGetters(memberNames) },
    { name: 'a Proxy that throws on every trap', make: () => throwingProxy() },
    { name: 'a Proxy that logs', semantic: 'same', make: (ctx) => wrapValid(ctx.valid, ctx.log) },
    { name: '{}', make: () => ({}) },
    { name: 'a function', make: () => () => 1 },
    { name: 'an operand of another builder', semantic: 'wrong-object', make: (ctx) => ctx.objects.foreignOperand },
    { name: 'a tensor of another context', semantic: 'wrong-object', make: (ctx) => ctx.objects.foreignTensor },
    { name: 'a destroyed tensor', semantic: 'wrong-object', make: (ctx) => ctx.objects.destroyedTensor },
    { name: 'a graph of another context', semantic: 'wrong-object', make: (ctx) => ctx.objects.foreignGraph },
    { name: 'a destroyed graph', semantic: 'wrong-object', make: (ctx) => ctx.objects.destroyedGraph },
    { name: 'a destroyed context', semantic: 'wrong-object', make: (ctx) => ctx.objects.destroyedContext },
    { name: 'a detached ArrayBuffer', make: () => detachedBuffer() },
    { name: 'a view of a detached buffer', make: () => detachedView() },
    { name: 'a resizable ArrayBuffer', needs: haveResizable, make: () => new ArrayBuffer(16, { maxByteLength: 64 }) },
    { name: 'a growable SharedArrayBuffer', needs: haveGrowable, make: () => new SharedArrayBuffer(16, { maxByteLength: 64 }) },
    { name: 'a view whose own buffer/byteLength properties lie', semantic: 'same', make: (ctx) => lyingView(ctx.valid) },
    {
      name: "a getter that detaches the call's buffers",
      semantic: 'detach',
      make: (ctx) => wrapValid(ctx.valid, ctx.log, () => ctx.buffers.forEach(detach)),
    },
    {
      name: "a getter that resizes the call's (resizable) buffer",
      semantic: 'resize',
      needs: haveResizable,
      make: (ctx) =>
        wrapValid(ctx.valid, ctx.log, () =>
          ctx.buffers.forEach((b) => {
            if (b.resizable) b.resize(b.byteLength === 0 ? b.maxByteLength : 0);
          }),
        ),
    },
  ];
  return values.filter((v) => v.needs !== false);
}

export { detach };
