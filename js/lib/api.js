'use strict';
// The spec's interfaces (ML, MLContext, MLGraphBuilder, MLOperand, MLGraph, MLTensor) over the
// native addon. Argument conversion is generated from the spec's IDL (lib/generated.js); this file
// holds the method steps that need JavaScript objects (brand checks, "validate buffer with
// descriptor", promises) and hands the rest to the C++ runtime, whose errors arrive as the spec's
// TypeError or DOMException. Every promise-returning method rejects, never throws, as WebIDL
// requires.

const { types } = require('node:util');
const native = require('./native');
const W = require('./webidl');
const generate = require('./generated');

const kConstruct = Symbol('webnn: internal construction');

// The error objects the spec names: TypeError, or a DOMException with the spec's name.
function makeError(kind, message) {
  if (kind === 'TypeError') return new TypeError(message);
  return new DOMException(message, kind);
}
native.init(makeError);

const opKinds = native.opKinds();

// ---- MLOperandDataType and ArrayBufferView compatibility (spec appendix) ----

const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), Symbol.toStringTag).get;
const viewTypeOf = {
  float32: 'Float32Array',
  // Where the runtime has no Float16Array, float16 data is a Uint16Array of binary16 bits (the
  // spec's note on Float16Array; WPT's helpers do the same).
  float16: typeof Float16Array === 'function' ? 'Float16Array' : 'Uint16Array',
  int64: 'BigInt64Array',
  uint64: 'BigUint64Array',
  int32: 'Int32Array',
  uint32: 'Uint32Array',
  int8: 'Int8Array',
  uint8: 'Uint8Array',
};
const elementSize = { float32: 4, float16: 2, int64: 8, uint64: 8, int32: 4, uint32: 4, int8: 1, uint8: 1 };

function byteLengthOfDescriptor(descriptor) {
  let n = elementSize[descriptor.dataType];
  for (const d of descriptor.shape) n *= d;
  return n;
}

// spec: #validate-buffer-with-descriptor (the byte length, then the view's type).
function bufferMatches(source, descriptor) {
  if (W.byteLengthOf(source) !== byteLengthOfDescriptor(descriptor)) return false;
  if (!ArrayBuffer.isView(source)) return true;
  const tag = typedArrayTag.call(source);
  if (tag === 'Uint8Array') return true;
  return tag === viewTypeOf[descriptor.dataType];
}

function illegalInvocation(where) {
  return new TypeError(`${where}: Illegal invocation`);
}

function rejectOnThrow(body) {
  try {
    return body();
  } catch (e) {
    return Promise.reject(e);
  }
}

// Makes a class read as a WebIDL interface: its operations and attributes enumerable, its
// prototype's @@toStringTag the interface name.
function exposeAsInterface(cls) {
  const proto = cls.prototype;
  for (const key of Reflect.ownKeys(proto)) {
    if (key === 'constructor') continue;
    const desc = Reflect.getOwnPropertyDescriptor(proto, key);
    desc.enumerable = true;
    Object.defineProperty(proto, key, desc);
  }
  Object.defineProperty(proto, Symbol.toStringTag, { value: cls.name, configurable: true });
}

// ---- Internal slots, reachable only from this file ----

let operandSlots, tensorSlots, graphSlots, contextSlots, builderSlots;

class MLOperand {
  #builder;
  #id;
  #dataType;
  #shape;

  constructor(token, builder, [id, dataType, shape]) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
    this.#builder = builder;
    this.#id = id;
    this.#dataType = dataType;
    this.#shape = Object.freeze(shape);
  }

  get dataType() {
    if (!(W.isObject(this) && #id in this)) throw illegalInvocation('MLOperand.dataType');
    return this.#dataType;
  }

  get shape() {
    if (!(W.isObject(this) && #id in this)) throw illegalInvocation('MLOperand.shape');
    return this.#shape;
  }

  static {
    operandSlots = (o) => (W.isObject(o) && #id in o ? { builder: o.#builder, id: o.#id } : undefined);
  }
}

class MLTensor {
  #context;
  #handle;
  #descriptor;
  #constant;
  #shape;
  // spec: [[pendingPromises]], the reject functions of the reads in flight; destroy() rejects them.
  #pendingReads = new Set();

  constructor(token, context, handle, descriptor, constant) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
    this.#context = context;
    this.#handle = handle;
    this.#descriptor = descriptor;
    this.#constant = constant;
    this.#shape = Object.freeze([...descriptor.shape]);
  }

  static #check(o, where) {
    if (!(W.isObject(o) && #handle in o)) throw illegalInvocation(`MLTensor.${where}`);
    return o;
  }

  get dataType() {
    return MLTensor.#check(this, 'dataType').#descriptor.dataType;
  }
  get shape() {
    return MLTensor.#check(this, 'shape').#shape;
  }
  get readable() {
    return MLTensor.#check(this, 'readable').#descriptor.readable;
  }
  get writable() {
    return MLTensor.#check(this, 'writable').#descriptor.writable;
  }
  get constant() {
    return MLTensor.#check(this, 'constant').#constant;
  }

  // spec: #api-mltensor-destroy. The reads still pending reject with InvalidStateError, in the order
  // they were made; the tensor's memory is released on the timeline after the work before it.
  destroy() {
    const self = MLTensor.#check(this, 'destroy');
    native.destroyTensor(self.#handle);
    const pending = [...self.#pendingReads];
    self.#pendingReads.clear();
    for (const reject of pending) reject(makeError('InvalidStateError', 'readTensor: the tensor was destroyed while the read was pending'));
  }

  static {
    tensorSlots = (o) =>
      W.isObject(o) && #handle in o
        ? { context: o.#context, handle: o.#handle, descriptor: o.#descriptor, constant: o.#constant,
            pendingReads: o.#pendingReads }
        : undefined;
  }
}

class MLGraph {
  #context;
  #handle;

  constructor(token, context, handle) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
    this.#context = context;
    this.#handle = handle;
  }

  // spec: #api-mlgraph-destroy
  destroy() {
    if (!(W.isObject(this) && #handle in this)) throw illegalInvocation('MLGraph.destroy');
    native.destroyGraph(this.#handle);
  }

  static {
    graphSlots = (o) => (W.isObject(o) && #handle in o ? { context: o.#context, handle: o.#handle } : undefined);
  }
}

// A { name: [dataType, shape] } map from the addon as { name: MLOperandDescriptor }.
function descriptors(map) {
  const out = {};
  for (const [name, [dataType, shape]] of Object.entries(map)) out[name] = { dataType, shape };
  return out;
}

class MLContext {
  #handle;
  #accelerated;
  #lost;
  #resolveLost;

  constructor(token, handle, accelerated) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
    this.#handle = handle;
    this.#accelerated = accelerated;
    let resolve;
    this.#lost = new Promise((r) => {
      resolve = r;
    });
    // Only the resolver goes to the native side: a callback holding the context itself would keep
    // it (and its native context) alive forever.
    const settled = { done: false };
    this.#resolveLost = (message) => {
      if (settled.done) return;
      settled.done = true;
      resolve({ message });
    };
    native.onLost(handle, this.#resolveLost);
  }

  static #check(o, where) {
    if (!(W.isObject(o) && #handle in o)) throw illegalInvocation(`MLContext.${where}`);
    return o;
  }

  get accelerated() {
    return MLContext.#check(this, 'accelerated').#accelerated;
  }

  // A promise attribute rejects instead of throwing, as WebIDL's getter steps say.
  get lost() {
    if (!(W.isObject(this) && #handle in this)) return Promise.reject(illegalInvocation('MLContext.lost'));
    return this.#lost;
  }

  // spec: #api-mlcontext-dispatch
  dispatch(graph, inputs, outputs) {
    const self = MLContext.#check(this, 'dispatch');
    [graph, inputs, outputs] = G.argumentsOf['MLContext.dispatch'](arguments).args;
    const g = graphSlots(graph);
    const handles = (pairs) => pairs.map(([name, t]) => [name, tensorSlots(t).handle]);
    native.dispatch(self.#handle, g.handle, handles(inputs), handles(outputs));
  }

  // spec: #api-mlcontext-createtensor
  createTensor(descriptor) {
    return rejectOnThrow(() => {
      const self = MLContext.#check(this, 'createTensor');
      [descriptor] = G.argumentsOf['MLContext.createTensor'](arguments).args;
      const handle = native.createTensor(
        self.#handle,
        descriptor.dataType,
        descriptor.shape,
        descriptor.readable,
        descriptor.writable,
      );
      const tensor = new MLTensor(kConstruct, self, handle, { ...descriptor, shape: [...descriptor.shape] }, false);
      return new Promise((resolve, reject) => {
        native.whenReached(self.#handle, handle, (error) => (error ? reject(error) : resolve(tensor)));
      });
    });
  }

  // spec: #api-mlcontext-createconstanttensor
  createConstantTensor(descriptor, inputData) {
    return rejectOnThrow(() => {
      const self = MLContext.#check(this, 'createConstantTensor');
      [descriptor, inputData] = G.argumentsOf['MLContext.createConstantTensor'](arguments).args;
      if (native.contextIsLost(self.#handle))
        throw makeError('InvalidStateError', 'createConstantTensor: the context is lost');
      if (!validDimensions(descriptor.shape)) throw new TypeError('createConstantTensor: the shape has a dimension of 0');
      if (!bufferMatches(inputData, descriptor))
        throw new TypeError(`createConstantTensor: ${bufferMismatch(inputData, descriptor)}`);
      const handle = native.createConstantTensor(
        self.#handle,
        descriptor.dataType,
        descriptor.shape,
        W.bytesOf(inputData),
      );
      const tensor = new MLTensor(
        kConstruct,
        self,
        handle,
        { dataType: descriptor.dataType, shape: [...descriptor.shape], readable: false, writable: false },
        true,
      );
      return new Promise((resolve, reject) => {
        native.whenReached(self.#handle, null, (error) => (error ? reject(error) : resolve(tensor)));
      });
    });
  }

  // spec: #api-mlcontext-readtensor and #api-mlcontext-readtensor-byob
  readTensor(tensor, outputData = undefined) {
    return rejectOnThrow(() => {
      const self = MLContext.#check(this, 'readTensor');
      const { overload, args } = G.argumentsOf['MLContext.readTensor'](arguments);
      const t = tensorSlots(args[0]);
      self.#checkTensor(t, 'readTensor');
      if (!t.descriptor.readable) throw new TypeError('readTensor: the tensor was not created with readable: true');
      const output = overload === 1 ? args[1] : undefined;
      if (output !== undefined && !bufferMatches(output, t.descriptor))
        throw new TypeError(`readTensor: ${bufferMismatch(output, t.descriptor)}`);
      const length = output === undefined ? 0 : W.byteLengthOf(output);
      return new Promise((resolve, reject) => {
        t.pendingReads.add(reject);
        const settle = (error, bytes) => {
          // Settled already when the tensor was destroyed meanwhile (spec: removed from [[pendingPromises]]).
          if (!t.pendingReads.delete(reject)) return;
          if (error) return reject(error);
          if (output === undefined) return resolve(bytes);
          if (bytes === undefined) return resolve(undefined); // the addon wrote `output` (still attached)
          // The buffer may have been detached while the read was pending (spec: TypeError).
          if (W.byteLengthOf(output) !== length)
            return reject(new TypeError('readTensor: the output buffer was detached'));
          W.bytesOf(output).set(new Uint8Array(bytes));
          resolve(undefined);
        };
        native.readTensor(self.#handle, t.handle, settle, output === undefined ? undefined : W.bytesOf(output));
      });
    });
  }

  // spec: #api-mlcontext-writetensor
  writeTensor(tensor, inputData) {
    const self = MLContext.#check(this, 'writeTensor');
    [tensor, inputData] = G.argumentsOf['MLContext.writeTensor'](arguments).args;
    const t = tensorSlots(tensor);
    self.#checkTensor(t, 'writeTensor');
    if (!t.descriptor.writable) throw new TypeError('writeTensor: the tensor was not created with writable: true');
    if (!bufferMatches(inputData, t.descriptor)) throw new TypeError(`writeTensor: ${bufferMismatch(inputData, t.descriptor)}`);
    native.writeTensor(self.#handle, t.handle, W.bytesOf(inputData));
  }

  // spec: #api-mlcontext-opsupportlimits
  opSupportLimits() {
    return native.opSupportLimits(MLContext.#check(this, 'opSupportLimits').#handle);
  }

  // spec: #api-mlcontext-destroy. The lost promise resolves first, then the pending reads reject,
  // as the spec's "lose" steps order them.
  destroy() {
    const self = MLContext.#check(this, 'destroy');
    if (native.contextIsLost(self.#handle)) return;
    self.#resolveLost('destroy() was called');
    native.destroyContext(self.#handle);
  }

  // The checks readTensor and writeTensor share: the tensor is this context's and alive.
  #checkTensor(t, method) {
    if (t.context !== this) throw new TypeError(`${method}: the tensor belongs to another context`);
    if (native.tensorIsDestroyed(t.handle)) throw new TypeError(`${method}: the tensor is destroyed`);
  }

  static {
    contextSlots = (o) => (W.isObject(o) && #handle in o ? { handle: o.#handle } : undefined);
  }
}

function validDimensions(shape) {
  return shape.every((d) => d > 0);
}

function bufferMismatch(source, descriptor) {
  const want = byteLengthOfDescriptor(descriptor);
  const have = W.byteLengthOf(source);
  if (have !== want) return `the buffer holds ${have} bytes but ${descriptor.dataType}[${descriptor.shape}] needs ${want}`;
  return `a ${typedArrayTag.call(source) ?? 'DataView'} cannot hold ${descriptor.dataType} data (use ${viewTypeOf[descriptor.dataType]} or Uint8Array)`;
}

class MLGraphBuilder {
  #context;
  #handle;

  // spec: #api-mlgraphbuilder-constructor
  constructor(context) {
    if (arguments.length < 1) throw notEnoughArguments('MLGraphBuilder constructor', 1, 0);
    const c = contextSlots(context);
    if (!c) throw new TypeError("MLGraphBuilder constructor: argument 1 (context) is not of type 'MLContext'");
    this.#context = context;
    this.#handle = native.createBuilder(c.handle);
  }

  static #check(o, where) {
    if (!(W.isObject(o) && #handle in o)) throw illegalInvocation(`MLGraphBuilder.${where}`);
    return o;
  }

  #operand(result) {
    return new MLOperand(kConstruct, this, result);
  }

  // spec: #api-mlgraphbuilder-input
  input(name, descriptor) {
    const self = MLGraphBuilder.#check(this, 'input');
    [name, descriptor] = G.argumentsOf['MLGraphBuilder.input'](arguments).args;
    return self.#operand(native.input(self.#handle, name, descriptor.dataType, descriptor.shape));
  }

  // spec: #api-mlgraphbuilder-constant-buffer, -constant-datatype-value, -constant-tensor
  constant(descriptorOrDataTypeOrTensor, bufferOrValue = undefined) {
    const self = MLGraphBuilder.#check(this, 'constant');
    const { overload, args } = G.argumentsOf['MLGraphBuilder.constant'](arguments);
    if (overload === 0) {
      const [descriptor, buffer] = args;
      native.checkCanBuild(self.#handle, 'constant');
      if (!validDimensions(descriptor.shape)) throw new TypeError('constant: the shape has a dimension of 0');
      if (!bufferMatches(buffer, descriptor)) throw new TypeError(`constant: ${bufferMismatch(buffer, descriptor)}`);
      return self.#operand(native.constant(self.#handle, descriptor.dataType, descriptor.shape, W.bytesOf(buffer)));
    }
    if (overload === 1) {
      const [dataType, value] = args;
      return self.#operand(native.constantScalar(self.#handle, dataType, numberForNative(value)));
    }
    const t = tensorSlots(args[0]);
    return self.#operand(native.constantTensor(self.#handle, t.handle));
  }

  // spec: #api-mlgraphbuilder-build
  build(outputs) {
    return rejectOnThrow(() => {
      const self = MLGraphBuilder.#check(this, 'build');
      [outputs] = G.argumentsOf['MLGraphBuilder.build'](arguments).args;
      native.checkCanBuild(self.#handle, 'build');
      if (outputs.length === 0) throw new TypeError('build: outputs is empty');
      for (const [name] of outputs) if (name === '') throw new TypeError('build: an output name is empty');
      const refs = outputs.map(([name, operand]) => [name, ref(operand)]);
      const context = self.#context;
      return new Promise((resolve, reject) => {
        native.build(self.#handle, refs, (error, handle) => {
          if (error) return reject(error);
          resolve(new MLGraph(kConstruct, context, handle));
        });
      });
    });
  }

  static {
    builderSlots = (o) => (W.isObject(o) && #handle in o ? { handle: o.#handle, builder: o } : undefined);
  }
}

function notEnoughArguments(where, required, given) {
  return new TypeError(`${where}: ${required} argument${required === 1 ? '' : 's'} required, but only ${given} present`);
}

// An MLNumber for the addon: a BigInt outside the 64-bit range as the nearest number (the spec's
// cast then clamps or rounds it as it would the exact value).
function numberForNative(value) {
  if (typeof value === 'bigint' && (value < -(2n ** 63n) || value >= 2n ** 64n)) return Number(value);
  return value;
}

// An operand as the addon takes it: [its builder's handle, its id].
function ref(operand) {
  const o = operandSlots(operand);
  return [builderSlots(o.builder).handle, o.id];
}

const platformObjects = {
  MLOperand: operandSlots,
  MLTensor: tensorSlots,
  MLGraph: graphSlots,
  MLContext: contextSlots,
  MLGraphBuilder: builderSlots,
};

// WebIDL overload resolution at the distinguishing argument (https://webidl.spec.whatwg.org/#es-overloads,
// step 12): `candidates` are { overload, categories, optional } for the entries of one length.
function selectOverload(v, candidates, where) {
  const has = (category) => candidates.find((c) => c.categories.includes(category));
  const pick = (c) => (c ? c.overload : -1);
  if (v === undefined) {
    const optional = candidates.find((c) => c.optional);
    if (optional) return optional.overload;
  }
  if ((v === undefined || v === null) && has('dictionary')) return pick(has('dictionary'));
  if (W.isObject(v)) {
    for (const [name, slots] of Object.entries(platformObjects))
      if (slots(v) && has(`interface:${name}`)) return pick(has(`interface:${name}`));
    if ((ArrayBuffer.isView(v) || types.isAnyArrayBuffer(v)) && has('buffer'))
      return pick(has('buffer'));
    if (has('sequence') && v[Symbol.iterator] !== undefined && v[Symbol.iterator] !== null)
      return pick(has('sequence'));
    if (has('dictionary') || has('record')) return pick(has('dictionary') || has('record'));
  }
  if (typeof v === 'boolean' && has('boolean')) return pick(has('boolean'));
  if (typeof v === 'number' && has('numeric')) return pick(has('numeric'));
  if (typeof v === 'bigint' && has('bigint')) return pick(has('bigint'));
  for (const category of ['string', 'numeric', 'bigint', 'boolean']) if (has(category)) return pick(has(category));
  throw new TypeError(`${where} matches no overload`);
}

const helpers = {
  builderOf(value, where) {
    const b = builderSlots(value);
    if (!b) throw illegalInvocation(where);
    return b;
  },
  notEnoughArguments,
  platformObject(name, v, where) {
    const slots = platformObjects[name];
    if (!slots || !slots(v)) throw new TypeError(`${where} is not of type '${name}'`);
    return v;
  },
  ref,
  selectOverload,
  addOperation(b, name, operands, attrs, label, returnsSequence) {
    const refs = operands.map(([argument, operand]) => [argument, ref(operand)]);
    for (const key of Object.keys(attrs)) if (typeof attrs[key] === 'bigint') attrs[key] = numberForNative(attrs[key]);
    const results = native.addOperation(b.handle, opKinds[name], refs, attrs, label);
    const operands_ = results.map((r) => new MLOperand(kConstruct, b.builder, r));
    return returnsSequence ? operands_ : operands_[0];
  },
};

const G = generate(helpers);
for (const [name, method] of Object.entries(G.operators)) {
  Object.defineProperty(MLGraphBuilder.prototype, name, {
    value: method,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

// The package's own context options (not in the spec), converted as WebIDL would convert them.
function packageOptions(options, defaults, where) {
  const get = (name) => (W.isObject(options) ? options[name] : undefined);
  const pick = (name, convert, fallback) => {
    const v = get(name);
    if (v !== undefined) return convert(v, `${where}.${name}`);
    return defaults[name] !== undefined ? convert(defaults[name], `defaults.${name}`) : fallback;
  };
  return {
    backend: pick('backend', W.domString, ''),
    numThreads: pick('numThreads', (v, w) => W.integer('unsigned long', true, v, w), 0),
    remote: pick('remote', W.domString, ''),
    token: pick('token', W.domString, ''),
  };
}

class ML {
  #defaults;

  constructor(token, defaults) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
    this.#defaults = defaults;
  }

  // spec: #api-ml-createcontext
  createContext(options = undefined) {
    return rejectOnThrow(() => {
      if (!(W.isObject(this) && #defaults in this)) throw illegalInvocation('ML.createContext');
      const raw = arguments[0];
      const { overload, args } = G.argumentsOf['ML.createContext'](arguments);
      if (overload !== 0) throw makeError('NotSupportedError', 'createContext: contexts from a GPUDevice are not supported');
      const spec = args[0];
      const ours = packageOptions(raw, this.#defaults, 'createContext: options');
      const all = { powerPreference: spec.powerPreference, accelerated: spec.accelerated, ...ours };
      return new Promise((resolve, reject) => {
        native.createContext(all, (error, handle) => {
          if (error) return reject(error);
          resolve(new MLContext(kConstruct, handle, spec.accelerated));
        });
      });
    });
  }
}

for (const cls of [ML, MLContext, MLGraph, MLOperand, MLTensor, MLGraphBuilder]) exposeAsInterface(cls);

// Contexts still computing when the process exits are lost first, so that no step runs while the
// process tears down (the addon does the same for worker threads).
process.on('exit', () => native.shutdown());

// installGlobals' defaults, converted once at the call as createContext converts the same members
// (a bad default is a TypeError there, not at every later createContext).
function convertDefaults(defaults) {
  if (defaults !== undefined && defaults !== null && !W.isObject(defaults))
    throw new TypeError('installGlobals: defaults must be an object');
  return packageOptions(defaults, {}, 'installGlobals: defaults');
}

const ml = new ML(kConstruct, {});

// Defines target.navigator.ml and the interface objects, as a browser does.
function installGlobals(target = globalThis, defaults = {}) {
  if (!W.isObject(target)) throw new TypeError('installGlobals: target must be an object');
  const instance = new ML(kConstruct, convertDefaults(defaults));
  let navigator = target.navigator;
  if (!W.isObject(navigator)) {
    navigator = {};
    Object.defineProperty(target, 'navigator', { value: navigator, writable: true, configurable: true });
  }
  Object.defineProperty(navigator, 'ml', { value: instance, enumerable: true, configurable: true });
  for (const cls of [ML, MLContext, MLGraph, MLOperand, MLTensor, MLGraphBuilder])
    Object.defineProperty(target, cls.name, { value: cls, writable: true, configurable: true });
  return instance;
}

// Not in the spec: a graph file (webnn-graph JSON or text, or ONNX) compiled for `context`.
function loadGraph(context, path) {
  return rejectOnThrow(() => {
    if (arguments.length < 2) throw notEnoughArguments('loadGraph', 2, arguments.length);
    const c = contextSlots(context);
    if (!c) throw new TypeError("loadGraph: argument 1 (context) is not of type 'MLContext'");
    path = W.domString(path, 'loadGraph: argument 2 (path)');
    return new Promise((resolve, reject) => {
      native.loadGraph(c.handle, path, (error, handle, inputs, outputs) => {
        if (error) return reject(error);
        resolve({ graph: new MLGraph(kConstruct, context, handle), inputs: descriptors(inputs), outputs: descriptors(outputs) });
      });
    });
  });
}

module.exports = {
  ML,
  MLContext,
  MLGraph,
  MLOperand,
  MLTensor,
  MLGraphBuilder,
  ml,
  installGlobals,
  loadGraph,
};

// For the package's own tests, not API: the generated tables and the addon's test hooks on the
// objects' handles.
Object.defineProperty(module.exports, '_testing', {
  value: {
    generated: G,
    compareOutput: (graph, name, expected, actual) =>
      native.testing.compareOutput(graphSlots(graph).handle, name, expected, actual),
    holdComputes: (context) => native.testing.holdComputes(contextSlots(context).handle),
    computesArrived: (context) => native.testing.computesArrived(contextSlots(context).handle),
    releaseComputes: (context) => native.testing.releaseComputes(contextSlots(context).handle),
  },
});
