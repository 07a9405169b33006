// The bad-input walk (docs/javascript.md, "Bad input"): every method and attribute of every
// interface the package exports — found by walking the prototypes, typed by the spec's IDL
// (idl_model.mjs) — is called validly, then with each argument, each dictionary member, each
// first sequence item and record value, the receiver and an extra argument replaced in turn by each
// hostile value (hostile.mjs). An independent WebIDL conversion (the oracle in idl_model.mjs) says
// what each call must do: throw (or reject with) a TypeError, let a caller's own exception
// through, fail with the spec's error, behave as the valid call, or any of success, TypeError and
// the spec's DOMExceptions when only the spec's validation can tell. Never anything else: no other
// error, no crash, no hang (every promise has a time limit; the walk runs in a child process that a
// watchdog ends), and no damage: after every method the objects made before keep computing the
// same numbers, each operator's builder, after its walk, builds a graph bit-identical in its results
// to a pristine builder's, and at the end the contexts, graphs and tensors made before the walk on
// every backend compute and hold what they did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { types } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { webnn, backends, shared, argument, tensorData, conformanceCases } from './support.mjs';
import { model, convert, resolveOverload, haveSpec, specPath, isObject } from './idl_model.mjs';
import { hostileValues, isHuge, SENTINEL, LIE, CallerError, detach } from './hostile.mjs';

const here = fileURLToPath(import.meta.url);
const kChildFlag = 'WEBNN_BAD_INPUT_WALK';
const kPromiseLimitMs = 30_000; // a promise that has not settled by then is a hang
const kSilenceLimitMs = 120_000; // a child that reports nothing for this long is hung

// ---- The parent: runs the walk in a child process, ends it if it goes silent ----

function runChild() {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, [kChildFlag]: '1' };
    delete env.NODE_TEST_CONTEXT;
    const child = fork(here, [], { env, execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let last = '(nothing yet)';
    let done = null;
    let timer;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the walk hung: nothing for ${kSilenceLimitMs / 1000} s after ${last}`));
      }, kSilenceLimitMs);
    };
    arm();
    child.on('message', (m) => {
      arm();
      if (m.at) last = m.at;
      if (m.done) done = m.done;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (done && code === 0) resolve(done);
      else reject(new Error(`the walk's process ended (code ${code}, signal ${signal}) during ${last}`));
    });
  });
}

// ---- The child: the walk ----

async function walk() {
  const { ml, MLGraphBuilder } = webnn;
  const m = model();
  const findings = [];
  const counts = { calls: 0, receiver: 0, arity: 0, argument: 0, member: 0, item: 0, extra: 0, state: 0, shared: 0, midCall: 0 };
  const expected = {};
  let methods = 0;
  const finding = (text) => {
    if (findings.length < 500) findings.push(text);
  };
  process.on('unhandledRejection', (e) => finding(`an unhandled rejection: ${describeError(e)}`));

  // Real platform objects the walk made, by interface (the oracle's brand check).
  const brands = new WeakMap();
  const remember = (o, name) => {
    if (isObject(o)) brands.set(o, name);
    return o;
  };
  const isPlatform = (v, name) => isObject(v) && brands.get(v) === name;

  const memberNames = new Set();
  for (const name of m.dictionaries.keys()) for (const member of m.members(name)) memberNames.add(member.name);
  const hostile = hostileValues([...memberNames]);

  const f32 = (shape) => ({ dataType: 'float32', shape });
  const A = new Float32Array([1, -2, 3, -4]);
  const B = new Float32Array([0.5, 0.5, 0.5, 0.5]);
  const C = [1.5, 0, 3.5, 0]; // relu(A + B)

  // A context with c = relu(a + b) built, its tensors, and one of everything else a call needs.
  async function makeEnv(backend) {
    const context = remember(await ml.createContext({ backend }), 'MLContext');
    const builder = remember(new MLGraphBuilder(context), 'MLGraphBuilder');
    const graph = remember(
      await builder.build({ c: builder.relu(builder.add(builder.input('a', f32([4])), builder.input('b', f32([4])))) }),
      'MLGraph',
    );
    const tensor = async (d) => remember(await context.createTensor(d), 'MLTensor');
    const env = {
      backend,
      context,
      graph,
      ta: await tensor({ ...f32([4]), writable: true }),
      tb: await tensor({ ...f32([4]), writable: true }),
      tc: await tensor({ ...f32([4]), readable: true }),
      tensor: await tensor({ ...f32([2, 2]), readable: true, writable: true }),
      constantTensor: remember(await context.createConstantTensor(f32([2, 2]), new Float32Array([1, 2, 3, 4])), 'MLTensor'),
      builder: remember(new MLGraphBuilder(context), 'MLGraphBuilder'),
    };
    env.operand = remember(env.builder.input('x', f32([2, 2])), 'MLOperand');
    return env;
  }

  async function check(env, where) {
    env.context.writeTensor(env.ta, A);
    env.context.writeTensor(env.tb, B);
    env.context.dispatch(env.graph, { a: env.ta, b: env.tb }, { c: env.tc });
    const got = [...new Float32Array(await limit(env.context.readTensor(env.tc), `${where}: readTensor`))];
    if (JSON.stringify(got) !== JSON.stringify(C))
      finding(`${where}: the context computes ${JSON.stringify(got)} instead of ${JSON.stringify(C)} afterwards`);
  }

  // ---- Objects made before the walk, on every backend: checked at the end ----
  const before = [];
  for (const backend of backends) {
    const env = await makeEnv(backend);
    env.kept = await env.context.createTensor({ ...f32([4]), readable: true, writable: true });
    env.context.writeTensor(env.kept, new Float32Array([9, 8, 7, 6]));
    const b = new MLGraphBuilder(env.context);
    env.constGraph = await b.build({ y: b.mul(b.constant(env.constantTensor), b.input('x', f32([2, 2]))) });
    before.push(env);
  }

  const env = await makeEnv(backends[0]);
  const other = await makeEnv(backends[0]);
  const doomed = await makeEnv(backends[0]);
  const objects = {
    foreignOperand: remember(new MLGraphBuilder(env.context).input('x', f32([2, 2])), 'MLOperand'),
    foreignTensor: other.tensor,
    foreignGraph: other.graph,
    destroyedTensor: remember(await env.context.createTensor({ ...f32([2, 2]), readable: true, writable: true }), 'MLTensor'),
    destroyedGraph: remember(await (async () => {
      const b = new MLGraphBuilder(env.context);
      return b.build({ c: b.relu(b.input('a', f32([4]))) });
    })(), 'MLGraph'),
    destroyedContext: doomed.context,
  };
  objects.destroyedTensor.destroy();
  objects.destroyedGraph.destroy();
  objects.destroyedContext.destroy();

  // A tiny graph file for loadGraph.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webnn-bad-input-'));
  const graphFile = path.join(dir, 'tiny.webnn');
  fs.writeFileSync(graphFile, 'webnn_graph "tiny" v2 {\n  inputs { x: f32[2]; }\n  nodes { y = relu(x); }\n  outputs { y; }\n}\n');

  // ---- Valid arguments, by IDL type (with the few that need the argument's name) ----
  let names = 0;
  const validByType = (type, where) => {
    const byName = {
      'MLContext.dispatch.inputs': () => ({ a: env.ta, b: env.tb }),
      'MLContext.dispatch.outputs': () => ({ c: env.tc }),
      'MLContext.readTensor.outputData': () => new Float32Array(4),
      'MLGraphBuilder.constant.tensor': () => env.constantTensor,
      'WebnnPackage.loadGraph.path': () => graphFile,
      'ML.createContext.options': () => ({ backend: env.backend }),
    };
    if (byName[where]) return byName[where]();
    switch (type.kind) {
      case 'interface':
        return { MLContext: env.context, MLGraph: env.graph, MLTensor: env.tensor, MLOperand: env.operand, MLGraphBuilder: env.builder }[
          type.name
        ];
      case 'dictionary':
        return (
          {
            MLOperandDescriptor: () => f32([2, 2]),
            MLTensorDescriptor: () => ({ ...f32([2, 2]), readable: true, writable: true }),
          }[type.name] ?? (() => ({}))
        )();
      case 'buffer':
        return new Float32Array([1, 2, 3, 4]);
      case 'string':
        return `n${names++}`;
      case 'enum':
        return type.values[0];
      case 'union':
        return 0.5; // MLNumber
      case 'record':
        return { out: env.operand };
      case 'object':
        return {};
      default:
        throw new Error(`no valid value for ${where} (${type.kind})`);
    }
  };

  // ---- Calls, outcomes and their judgement ----

  function describeError(e) {
    if (e === SENTINEL) return "the caller's own exception";
    if (e === LIE) return 'a lying buffer property was read';
    if (e instanceof DOMException) return `DOMException ${e.name}: ${e.message}`;
    if (e instanceof Error) return `${e.constructor.name}: ${e.message}`;
    return `a thrown ${typeof e}: ${String(e)}`;
  }

  const kSpecDomExceptions = new Set(['DataError', 'OperationError', 'NotSupportedError', 'InvalidStateError', 'AbortError']);
  // V8's own TypeErrors (a property read of undefined inside the package, a call of a non-function)
  // are bugs, not the spec's TypeError.
  const engineMessage = /^(Cannot read properties of|Cannot set properties of|.* is not a function|Cannot destructure)/;
  const isTypeError = (e) => e instanceof TypeError && e.name === 'TypeError' && !engineMessage.test(e.message);
  const isSpecError = (e) => isTypeError(e) || (e instanceof DOMException && kSpecDomExceptions.has(e.name));

  async function limit(promise, where) {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${where}: not settled after ${kPromiseLimitMs / 1000} s (a hang)`)), kPromiseLimitMs);
    });
    try {
      return await Promise.race([promise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  function cleanUp(value) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v instanceof webnn.MLGraph || v instanceof webnn.MLTensor || v instanceof webnn.MLContext) v.destroy();
      else if (v && v.graph instanceof webnn.MLGraph) v.graph.destroy();
    }
  }

  // expectation: { kind: 'valid' | 'reject' | 'error' | 'any' | 'loose' | 'propagate', error? }
  //   valid: must succeed; reject: a TypeError; error: a TypeError or the spec's DOMException;
  //   any: success or either error; loose: any, or the caller's own exception; propagate: exactly
  //   the exception the conversion meets (the caller's, or ECMAScript's own).
  async function call(kind, label, fn, expectation, { promise = false, log = null } = {}) {
    counts.calls += 1;
    counts[kind] += 1;
    expected[expectation.kind] = (expected[expectation.kind] ?? 0) + 1;
    process.send({ at: label });
    let outcome;
    try {
      const value = fn();
      if (promise) {
        if (!(value instanceof Promise)) {
          finding(`${label}: returned ${typeof value}, not a promise`);
          return;
        }
        const reads = log ? log.length : 0;
        try {
          outcome = { value: await limit(value, label) };
        } catch (e) {
          outcome = { error: e };
        }
        if (log && log.length !== reads)
          finding(`${label}: read the caller's object after returning (${log.slice(reads).join(', ')})`);
      } else {
        outcome = { value };
      }
    } catch (e) {
      if (promise) finding(`${label}: threw ${describeError(e)} instead of returning a rejected promise`);
      outcome = { error: e };
    }
    judge(label, expectation, outcome);
    if (!('error' in outcome)) cleanUp(outcome.value);
    return outcome;
  }

  function judge(label, expectation, outcome) {
    const failed = 'error' in outcome;
    const e = outcome.error;
    let ok;
    switch (expectation.kind) {
      case 'valid':
        ok = !failed;
        break;
      case 'reject':
        ok = failed && isTypeError(e);
        break;
      case 'error':
        ok = failed && isSpecError(e);
        break;
      case 'any':
        ok = !failed || isSpecError(e);
        break;
      case 'loose':
        ok = !failed || isSpecError(e) || e instanceof CallerError;
        break;
      case 'propagate':
        ok =
          failed &&
          (e === expectation.error ||
            (!(expectation.error instanceof CallerError) &&
              e?.constructor === expectation.error.constructor &&
              e.message === expectation.error.message));
        break;
      default:
        throw new Error(`unknown expectation ${expectation.kind}`);
    }
    if (!ok) {
      const wanted = expectation.kind === 'propagate' ? `${expectation.kind} (${describeError(expectation.error)})` : expectation.kind;
      finding(`${label}: expected ${wanted}, got ${failed ? describeError(e) : 'success'}`);
    }
  }

  // ---- The expectation of one call, from the oracle ----

  // A copy of the call's arguments for the oracle: buffers copied (a detaching getter of the
  // oracle's hostile copy detaches these), everything else shared (valid values are not changed by
  // a conversion).
  function oracleCopy(args) {
    const buffers = [];
    const copy = args.map((a) => {
      if (ArrayBuffer.isView(a) && !types.isSharedArrayBuffer(a.buffer)) {
        const c = new a.constructor(a);
        buffers.push(c.buffer);
        return c;
      }
      return a;
    });
    return { copy, buffers };
  }

  // `signature`: { overloads (webidl2 operations), overload (the index the valid call uses) }.
  // `place(args, value)`: puts a value into its slot of an argument list (a copy);
  // `slotType`: the IDL type of the slot (for the semantic of a real object in it).
  function expect(signature, validArgs, place, slotType, h, ctxFor, validValue) {
    const { copy, buffers } = oracleCopy(validArgs);
    const log = [];
    const v = h.make(ctxFor({ buffers, log }));
    const args = place(copy, v);
    const overloads = signature.overloads;
    const index = overloads.length > 1 ? resolveOverload(m, overloads, args, isPlatform) : 0;
    if (index < 0) return { kind: 'reject' };
    const operation = overloads[index];
    try {
      operation.arguments.forEach((a, i) => {
        if (i >= args.length) return;
        convert(m, m.argType(a), args[i], { optional: a.optional, isPlatform, isHuge });
      });
    } catch (e) {
      if (e instanceof TypeError && !(e instanceof CallerError)) return { kind: 'reject' };
      return { kind: 'propagate', error: e };
    }
    if (index !== signature.overload) return { kind: 'any' };
    if (h.semantic === 'wrong-object' && slotType.kind === 'interface') return { kind: 'error' };
    if (h.semantic === 'resize') return { kind: 'reject' };
    if (buffers.some((b) => b.byteLength === 0)) return { kind: 'reject' }; // detached during the call
    // A logging Proxy of a given value converts to it (of an absent one, to "undefined" or NaN).
    const given = validValue !== undefined;
    if (h.semantic === 'same' && given && slotType.kind !== 'boolean' && slotType.kind !== 'object') return { kind: 'valid' };
    if (slotType.kind === 'object') return { kind: 'loose' };
    return { kind: 'any' };
  }

  // Copies arrays, plain objects and typed arrays (not platform objects) so a slot can be replaced.
  function fresh(v) {
    if (Array.isArray(v)) return v.map(fresh);
    if (isObject(v) && Object.getPrototypeOf(v) === Object.prototype)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fresh(x)]));
    if (ArrayBuffer.isView(v) && !types.isSharedArrayBuffer(v.buffer)) return new v.constructor(v);
    return v;
  }

  // The call's ArrayBuffers (what a detaching or resizing getter acts on).
  const buffersOf = (args) => args.filter((a) => ArrayBuffer.isView(a)).map((a) => a.buffer);

  // A resizable copy of every buffer argument (for the resizing getter).
  function resizableBuffers(args) {
    return args.map((a) => {
      if (!ArrayBuffer.isView(a)) return a;
      const rab = new ArrayBuffer(a.byteLength, { maxByteLength: a.byteLength * 4 });
      const view = new a.constructor(rab, 0, a.length);
      view.set(a);
      return view;
    });
  }

  // Every slot of a call, as { kind, name, type, get(args), place(args, value) }: each argument,
  // each member of a dictionary argument, the first item of a sequence and the first value of a
  // record (at the top level and in a dictionary member).
  function slotsOf(operation, validArgs) {
    const slots = [];
    const itemType = (t) =>
      t.kind === 'sequence' ? t.item : t.kind === 'union' ? t.members.find((u) => u.kind === 'sequence')?.item : t.kind === 'record' ? t.value : null;
    // The slots inside a value: its first item (a sequence) or first record value.
    const inner = (type, value, name, get, place) => {
      const t = itemType(type);
      if (!t) return;
      if (Array.isArray(value) && value.length > 0)
        slots.push({ kind: 'item', name: `${name}[0]`, type: t, get: (args) => get(args)[0], place: (args, v) => place(args, set(get(args), 0, v)) });
      else if (type.kind === 'record' && isObject(value) && Object.keys(value).length > 0) {
        const key = Object.keys(value)[0];
        slots.push({ kind: 'item', name: `${name}.${key}`, type: t, get: (args) => get(args)[key], place: (args, v) => place(args, { ...get(args), [key]: v }) });
      }
    };
    operation.arguments.forEach((a, i) => {
      const type = m.argType(a);
      const get = (args) => args[i];
      const place = (args, v) => set(args, i, v);
      slots.push({ kind: 'argument', name: a.name, type, get, place });
      inner(type, validArgs[i], a.name, get, place);
      if (type.kind !== 'dictionary') return;
      for (const member of m.members(type.name)) {
        const getMember = (args) => (isObject(args[i]) ? args[i][member.name] : undefined);
        const placeMember = (args, v) => set(args, i, { ...(isObject(args[i]) ? args[i] : {}), [member.name]: v });
        slots.push({ kind: 'member', name: `${a.name}.${member.name}`, type: member.type, get: getMember, place: placeMember });
        inner(member.type, getMember(validArgs), `${a.name}.${member.name}`, getMember, placeMember);
      }
    });
    return slots;
  }

  function set(list, i, v) {
    const copy = Array.isArray(list) ? [...list] : list;
    copy[i] = v;
    return copy;
  }

  // Walks one method: `fixture()` gives { receiver, args } (fresh where the method consumes them);
  // `invoke(receiver, args)` calls it.
  async function walkMethod(label, signature, fixture, invoke, { promise, after, iface } = {}) {
    methods += 1;
    const operation = signature.overloads[signature.overload];
    // Fewer arguments than every overload takes.
    const required = Math.min(...signature.overloads.map((o) => o.arguments.filter((a) => !a.optional).length));
    const base = await fixture();
    const ctxFor = (extra) => ({ objects, log: [], buffers: [], ...extra });
    // The valid call.
    await call('argument', `${label}(valid)`, () => invoke(base.receiver, base.args), { kind: 'valid' }, { promise });
    // Hostile receivers (a real object of the interface in another state may succeed).
    for (const h of iface ? hostile : []) {
      const f = await fixture();
      const receiver = h.make(ctxFor({ valid: f.receiver, buffers: buffersOf(f.args) }));
      const expectation = { kind: isPlatform(receiver, iface) ? 'any' : 'reject' };
      if (receiver !== f.receiver) await call('receiver', `${label} on ${h.name}`, () => invoke(receiver, f.args), expectation, { promise });
      await f.dispose?.();
    }
    // Too few arguments.
    for (let n = 0; n < required; ++n) {
      const f = await fixture();
      await call('arity', `${label} with ${n} arguments`, () => invoke(f.receiver, f.args.slice(0, n)), { kind: 'reject' }, { promise });
      await f.dispose?.();
    }
    // Each slot, each hostile value.
    for (const slot of slotsOf(operation, base.args)) {
      for (const h of hostile) {
        if ((h.semantic === 'detach' || h.semantic === 'resize') && buffersOf(base.args).length === 0) continue;
        const f = await fixture();
        let args = f.args;
        if (h.semantic === 'resize') args = resizableBuffers(args);
        if (h.semantic === 'detach' || h.semantic === 'resize') counts.midCall += 1;
        const expectation = expect(signature, args, slot.place, slot.type, h, (extra) => ctxFor({ valid: slot.get(args), ...extra }), slot.get(args));
        const log = [];
        const buffers = h.semantic === 'resize' ? args.filter((a) => ArrayBuffer.isView(a)).map((a) => a.buffer) : buffersOf(args);
        const v = h.make(ctxFor({ valid: slot.get(args), buffers, log }));
        const hostileArgs = slot.place(args, v);
        await call(slot.kind, `${label}: ${slot.name} = ${h.name}`, () => invoke(f.receiver, hostileArgs), expectation, { promise, log });
        await f.dispose?.();
      }
    }
    // An extra argument is ignored (WebIDL), whatever it is.
    const longest = Math.max(...signature.overloads.map((o) => o.arguments.length));
    if (base.args.length === longest) {
      for (const h of hostile) {
        const f = await fixture();
        const v = h.make(ctxFor({ valid: undefined, buffers: buffersOf(f.args) }));
        if (h.semantic === 'detach' || h.semantic === 'resize') continue;
        await call('extra', `${label} with an extra argument ${h.name}`, () => invoke(f.receiver, [...f.args, v]), { kind: 'valid' }, { promise });
        await f.dispose?.();
      }
    }
    if (after) await after();
  }

  // ---- The interfaces, from the package's prototypes ----

  const exported = Object.entries(webnn).filter(([, v]) => typeof v === 'function' && v.prototype);
  const interfaceNames = exported.filter(([name]) => m.interfaces.has(name)).map(([name]) => name);
  const packageFunctions = Object.entries(webnn).filter(([name, v]) => typeof v === 'function' && !m.interfaces.has(name));
  for (const [name] of packageFunctions)
    if (!m.interfaces.get('WebnnPackage').operations.has(name)) finding(`the package function ${name} has no signature in idl_model.mjs`);
  for (const name of m.interfaces.keys())
    if (name !== 'WebnnPackage' && !interfaceNames.includes(name)) finding(`the IDL interface ${name} is not exported`);

  const operators = new Set(Object.keys(webnn._testing.generated.operators));
  const cases = operatorCases(operators);
  const ref = await makeEnv(backends.includes('reference') ? 'reference' : backends[0]);

  for (const iface of interfaceNames) {
    const proto = webnn[iface].prototype;
    const idl = m.interfaces.get(iface);
    for (const key of Reflect.ownKeys(proto)) {
      if (key === 'constructor' || typeof key === 'symbol') continue;
      const desc = Object.getOwnPropertyDescriptor(proto, key);
      if (desc.get) {
        const attribute = idl.attributes.find((a) => a.name === key);
        if (!attribute) finding(`${iface}.${key} is on the prototype but not in the IDL`);
        else await walkAttribute(iface, key, desc.get, attribute.idlType.generic === 'Promise');
        continue;
      }
      const overloads = idl.operations.get(key);
      if (!overloads) {
        finding(`${iface}.${key} is on the prototype but not in the IDL`);
        continue;
      }
      if (iface === 'MLGraphBuilder' && operators.has(key)) {
        await walkOperator(key, overloads, cases.get(key));
        continue;
      }
      for (let o = 0; o < overloads.length; ++o) {
        if (overloads[o].arguments.some((a) => m.argType(a).kind === 'interface' && a.idlType.idlType === 'GPUDevice'))
          continue; // createContext(gpuDevice): no GPUDevice here; it rejects with NotSupportedError (api.test.mjs)
        await walkOperation(iface, key, { overloads, overload: o });
      }
    }
    for (const member of idl.operations.keys())
      if (!(member in proto)) finding(`${iface}.${member} is in the IDL but not on the prototype`);
  }
  await walkConstructor();
  for (const [name] of packageFunctions) await walkPackageFunction(name);
  await sharedBufferDuringWrites();
  await destroyedStates();

  // ---- The objects made before the walk still work ----
  for (const e of before) {
    await check(e, `after the walk, ${e.backend}`);
    const kept = [...new Float32Array(await limit(e.context.readTensor(e.kept), 'kept'))];
    if (JSON.stringify(kept) !== '[9,8,7,6]') finding(`after the walk, ${e.backend}: a tensor written before holds ${kept}`);
    const x = await e.context.createTensor({ ...f32([2, 2]), writable: true });
    const y = await e.context.createTensor({ ...f32([2, 2]), readable: true });
    e.context.writeTensor(x, new Float32Array([1, 1, 2, 2]));
    e.context.dispatch(e.constGraph, { x }, { y });
    const got = [...new Float32Array(await limit(e.context.readTensor(y), 'constGraph'))];
    if (JSON.stringify(got) !== '[1,2,6,8]') finding(`after the walk, ${e.backend}: a graph built before computes ${got}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });

  const summary =
    `${counts.calls} calls over ${methods} methods and attributes (${operators.size} operators) with ` +
    `${hostile.length} hostile values: ${counts.argument} arguments, ${counts.member} dictionary members, ` +
    `${counts.item} sequence items and record values, ${counts.receiver} receivers, ${counts.arity} short argument lists, ` +
    `${counts.extra} extra arguments, ${counts.state} calls in destroyed or built states, ${counts.shared} shared-buffer calls ` +
    `during another thread's writes, ${counts.midCall} calls whose getters detach or resize the call's buffer. ` +
    `The oracle expected: ${expected.reject ?? 0} TypeErrors, ${expected.propagate ?? 0} caller's or ECMAScript's own ` +
    `exceptions, ${expected.valid ?? 0} successes, ${expected.error ?? 0} spec errors, ${(expected.any ?? 0) + (expected.loose ?? 0)} ` +
    `left to the spec's validation; ${findings.length} findings`;
  console.log(`bad input: ${summary}`);
  for (const f of findings.slice(0, 100)) console.log(`  finding: ${f}`);
  process.send({ done: { calls: counts.calls, summary, findings } });
  for (const e of [...before, env, other, ref]) e.context.destroy();

  // ---- Walkers ----

  async function walkOperation(iface, name, signature) {
    const operation = signature.overloads[signature.overload];
    const label = `${iface}.${name}${signature.overloads.length > 1 ? `#${signature.overload}` : ''}`;
    const promise = operation.idlType.generic === 'Promise';
    const consumes = name === 'destroy' || name === 'build';
    const receiverOf = async () => {
      if (!consumes) return { ML: ml, MLContext: env.context, MLGraphBuilder: env.builder, MLTensor: env.tensor, MLGraph: env.graph }[iface];
      if (iface === 'MLContext') return remember(await ml.createContext({ backend: env.backend }), 'MLContext');
      if (iface === 'MLTensor') return remember(await env.context.createTensor(f32([2])), 'MLTensor');
      const b = remember(new MLGraphBuilder(env.context), 'MLGraphBuilder');
      if (iface === 'MLGraph') return remember(await b.build({ y: b.relu(b.input('x', f32([2]))) }), 'MLGraph');
      return b;
    };
    const fixture = async () => {
      const receiver = await receiverOf();
      const args = operation.arguments.map((a) => {
        const type = m.argType(a);
        if (name === 'build' && type.kind === 'record') {
          const y = remember(receiver.relu(receiver.input('x', f32([2]))), 'MLOperand');
          return { y };
        }
        return validByType(type, `${iface}.${name}.${a.name}`);
      });
      // A receiver made for this call and left alive by it (a hostile receiver) goes now.
      const dispose = consumes && iface !== 'MLGraphBuilder' ? () => receiver.destroy() : undefined;
      return { receiver, args, dispose };
    };
    await walkMethod(label, signature, fixture, (r, args) => webnn[iface].prototype[name].apply(r, args), {
      promise,
      iface,
      after: () => check(env, `after ${label}`),
    });
  }

  // An attribute getter: on its interface's object, and on every hostile receiver (a TypeError;
  // a rejected promise where the attribute is a promise, as WebIDL's getter steps say).
  async function walkAttribute(iface, name, getter, promise) {
    methods += 1;
    const receiver = { ML: ml, MLContext: env.context, MLTensor: env.tensor, MLOperand: env.operand, MLGraph: env.graph, MLGraphBuilder: env.builder }[iface];
    const value = await call('receiver', `${iface}.${name}(valid)`, () => getter.call(receiver), { kind: 'valid' });
    if (promise && !(value?.value instanceof Promise)) finding(`${iface}.${name} is not a promise`);
    for (const h of hostile) {
      const v = h.make({ objects, valid: receiver, log: [], buffers: [] });
      if (v === receiver) continue;
      // A real object of the interface in another state (destroyed, of another builder) answers.
      if (isPlatform(v, iface)) await call('receiver', `${iface}.${name} on ${h.name}`, () => getter.call(v), { kind: 'valid' });
      else await call('receiver', `${iface}.${name} on ${h.name}`, () => getter.call(v), { kind: 'reject' }, { promise });
    }
  }

  async function walkConstructor() {
    methods += 1;
    const signature = { overloads: m.interfaces.get('MLGraphBuilder').constructors.map((c) => ({ ...c, idlType: { generic: '' } })), overload: 0 };
    const fixture = async () => ({ receiver: undefined, args: [env.context] });
    await walkMethod('new MLGraphBuilder', signature, fixture, (_, args) => new MLGraphBuilder(...args));
    await call('receiver', 'MLGraphBuilder(context) without new', () => MLGraphBuilder(env.context), { kind: 'error' });
  }

  async function walkPackageFunction(name) {
    const overloads = m.interfaces.get('WebnnPackage').operations.get(name);
    const operation = overloads[0];
    const promise = operation.idlType.generic === 'Promise';
    const fixture = async () => ({
      receiver: undefined,
      args: operation.arguments.map((a) => validByType(m.argType(a), `WebnnPackage.${name}.${a.name}`)),
    });
    // A package function has no receiver to check: `this` is ignored.
    methods += 1;
    const base = await fixture();
    await call('argument', `${name}(valid)`, () => webnn[name](...base.args), { kind: 'valid' }, { promise });
    for (let n = 0; n < operation.arguments.filter((a) => !a.optional).length; ++n)
      await call('arity', `${name} with ${n} arguments`, () => webnn[name](...base.args.slice(0, n)), { kind: 'reject' }, { promise });
    for (const slot of slotsOf(operation, base.args)) {
      for (const h of hostile) {
        if (h.semantic === 'detach' || h.semantic === 'resize') continue;
        const f = await fixture();
        const ctx = (extra) => ({ objects, log: [], buffers: [], valid: slot.get(f.args), ...extra });
        const expectation = expect({ overloads, overload: 0 }, f.args, slot.place, slot.type, h, ctx, slot.get(f.args));
        const log = [];
        const hostileArgs = slot.place(f.args, h.make(ctx({ log })));
        await call(slot.kind, `${name}: ${slot.name} = ${h.name}`, () => webnn[name](...hostileArgs), expectation, { promise, log });
      }
    }
    await check(env, `after ${name}`);
  }

  // One operator: its valid call from a conformance case (or the few made here), walked on a
  // builder of its own; then that builder builds the valid call, and its graph must compute what a
  // pristine builder's graph computes, bit for bit.
  async function walkOperator(name, overloads, kase) {
    const label = `MLGraphBuilder.${name}`;
    if (!kase) {
      finding(`${label}: no valid call (no conformance case and none in extraCases)`);
      return;
    }
    const context = ref.context;
    const walked = operatorFixture(context, kase);
    const operation = overloads[0];
    const fixture = async () => ({ receiver: walked.builder, args: padArgs(operation, fresh(walked.args)) });
    await walkMethod(label, { overloads, overload: 0 }, fixture, (r, args) => webnn.MLGraphBuilder.prototype[name].apply(r, args), {
      iface: 'MLGraphBuilder',
    });
    const pristine = operatorFixture(context, kase);
    const results = [];
    for (const fx of [walked, pristine]) {
      const out = fx.builder[name](...padArgs(operation, fresh(fx.args)));
      const outputs = Array.isArray(out) ? Object.fromEntries(out.map((o, i) => [`out${i}`, o])) : { out };
      const graph = await limit(fx.builder.build(outputs), `${label}: build`);
      const inputs = {};
      for (const [n, desc, data] of fx.feeds) {
        inputs[n] = await context.createTensor({ ...desc, writable: true });
        context.writeTensor(inputs[n], data);
      }
      const outs = {};
      for (const [n, o] of Object.entries(outputs))
        outs[n] = await context.createTensor({ dataType: o.dataType, shape: o.shape, readable: true });
      context.dispatch(graph, inputs, outs);
      const bytes = {};
      for (const [n, t] of Object.entries(outs)) bytes[n] = Buffer.from(await limit(context.readTensor(t), `${label}: read`));
      results.push(bytes);
      // A built builder refuses the operator with the spec's InvalidStateError.
      counts.calls += 1;
      counts.state += 1;
      try {
        fx.builder[name](...padArgs(operation, fresh(fx.args)));
        finding(`${label}: a built builder accepted the call`);
      } catch (e) {
        if (!(e instanceof DOMException && e.name === 'InvalidStateError'))
          finding(`${label} on a built builder: ${describeError(e)} instead of InvalidStateError`);
      }
      graph.destroy();
    }
    for (const n of Object.keys(results[1]))
      if (!results[0][n] || Buffer.compare(results[0][n], results[1][n]) !== 0)
        finding(`${label}: after the walk, its builder's graph computes other ${n} bytes than a pristine builder's`);
    await check(env, `after ${label}`);
  }

  // The IDL's optional dictionary arguments the case left out, as {} (their members are walked).
  function padArgs(operation, args) {
    const out = [...args];
    for (let i = out.length; i < operation.arguments.length; ++i) {
      const type = m.argType(operation.arguments[i]);
      out.push(type.kind === 'dictionary' ? {} : undefined);
    }
    return out;
  }

  function operatorFixture(context, kase) {
    const builder = remember(new MLGraphBuilder(context), 'MLGraphBuilder');
    const operands = {};
    const feeds = [];
    for (const [n, entry] of Object.entries(kase.inputs)) {
      const descriptor = { dataType: entry.descriptor.dataType, shape: entry.descriptor.shape };
      const data = tensorData(entry);
      operands[n] = remember(entry.constant ? builder.constant(descriptor, data) : builder.input(n, descriptor), 'MLOperand');
      if (!entry.constant) feeds.push([n, descriptor, data]);
    }
    const op = kase.operators[0];
    return { builder, feeds, args: op.arguments.map((a) => argument(Object.values(a)[0], operands)) };
  }

  // writeTensor, constant() and createConstantTensor from a SharedArrayBuffer that another thread
  // rewrites all the while: each call copies whatever bytes it sees — every byte one of the two the
  // writer writes — and nothing else happens.
  async function sharedBufferDuringWrites() {
    methods += 1;
    const n = 4096;
    const sab = new SharedArrayBuffer(n + 4);
    const writer = new Worker(
      `const { workerData } = require('node:worker_threads');
       const bytes = new Uint8Array(workerData, 0, ${n});
       const stop = new Int32Array(workerData, ${n}, 1);
       for (let i = 0; Atomics.load(stop, 0) === 0; ++i) bytes.fill(i & 1 ? 0xaa : 0x55);`,
      { eval: true, workerData: sab },
    );
    const view = new Uint8Array(sab, 0, n);
    const u8 = { dataType: 'uint8', shape: [n] };
    const context = env.context;
    const t = await context.createTensor({ ...u8, readable: true, writable: true });
    const allowed = (bytes, where) => {
      const bad = bytes.findIndex((b) => b !== 0x55 && b !== 0xaa);
      if (bad >= 0) finding(`${where}: byte ${bad} is ${bytes[bad]}, which the writer never wrote`);
    };
    while (view[0] === 0) await new Promise((r) => setTimeout(r, 1));
    for (let i = 0; i < 50; ++i) {
      await call('shared', `writeTensor from a SharedArrayBuffer being written (${i})`, () => context.writeTensor(t, view), { kind: 'valid' });
      allowed(new Uint8Array(await limit(context.readTensor(t), 'shared read')), 'writeTensor');
      await call('shared', `readTensor into a SharedArrayBuffer being written (${i})`, () => context.readTensor(t, view), { kind: 'valid' }, { promise: true });
    }
    const b = new MLGraphBuilder(context);
    const k = b.constant(u8, view);
    counts.calls += 1;
    counts.shared += 1;
    const ct = await context.createConstantTensor(u8, view);
    counts.calls += 1;
    counts.shared += 1;
    const g = await b.build({ k: b.identity(k), c: b.identity(b.constant(ct)) });
    const outs = { k: await context.createTensor({ ...u8, readable: true }), c: await context.createTensor({ ...u8, readable: true }) };
    context.dispatch(g, {}, outs);
    allowed(new Uint8Array(await context.readTensor(outs.k)), 'constant()');
    allowed(new Uint8Array(await context.readTensor(outs.c)), 'createConstantTensor()');
    Atomics.store(new Int32Array(sab, n, 1), 0, 1);
    await new Promise((r) => writer.once('exit', r));
    await check(env, 'after the shared-buffer writes');
  }

  // Every method on objects in a state the spec refuses: a lost context, destroyed tensors and
  // graphs, a builder whose context is lost; a BYOB buffer detached while its read is pending.
  async function destroyedStates() {
    methods += 1;
    const c = remember(await ml.createContext({ backend: env.backend }), 'MLContext');
    const b = new MLGraphBuilder(c);
    const x = b.input('x', f32([2, 2]));
    const g = await b.build({ y: b.relu(x) });
    const t = await c.createTensor({ ...f32([2, 2]), readable: true, writable: true });
    const laterBuilder = new MLGraphBuilder(c);
    const laterOperands = Object.fromEntries([...operators].map((op) => [op, operatorFixture(c, cases.get(op))]));
    const pending = c.readTensor(t);
    c.destroy();
    const state = (label, fn, promise, expectation = { kind: 'error' }) => call('state', label, fn, expectation, { promise });
    // The read may have run before destroy() (then it resolves), or not (InvalidStateError).
    await state('readTensor pending at destroy()', () => pending, true, { kind: 'any' });
    await state('dispatch on a lost context', () => c.dispatch(g, { x: t }, { y: t }), false);
    await state('createTensor on a lost context', () => c.createTensor(f32([2])), true);
    await state('createConstantTensor on a lost context', () => c.createConstantTensor(f32([2]), new Float32Array(2)), true);
    await state('readTensor on a lost context', () => c.readTensor(t), true);
    await state('readTensor(byob) on a lost context', () => c.readTensor(t, new Float32Array(4)), true);
    await state('writeTensor on a lost context', () => c.writeTensor(t, new Float32Array(4)), false);
    await state('opSupportLimits on a lost context', () => c.opSupportLimits(), false, { kind: 'any' });
    await state('destroy() again', () => c.destroy(), false, { kind: 'valid' });
    await state('new MLGraphBuilder on a lost context', () => new MLGraphBuilder(c), false);
    await state('input on a lost context', () => laterBuilder.input('z', f32([2])), false);
    await state('constant on a lost context', () => laterBuilder.constant(f32([2]), new Float32Array(2)), false);
    await state('build on a lost context', () => laterBuilder.build({ z: x }), true);
    await state('loadGraph on a lost context', () => webnn.loadGraph(c, graphFile), true);
    for (const [op, fx] of Object.entries(laterOperands))
      await state(`MLGraphBuilder.${op} on a lost context`, () => fx.builder[op](...padArgs(m.interfaces.get('MLGraphBuilder').operations.get(op)[0], fresh(fx.args))), false);
    await state('tensor.destroy() of a lost context', () => t.destroy(), false, { kind: 'valid' });
    await state('graph.destroy() of a lost context', () => g.destroy(), false, { kind: 'valid' });
    // A tensor destroyed with its read pending; a BYOB buffer detached while its read is pending.
    const t2 = await env.context.createTensor({ ...f32([2, 2]), readable: true, writable: true });
    const r2 = env.context.readTensor(t2);
    t2.destroy();
    await state('readTensor pending at tensor.destroy()', () => r2, true, { kind: 'any' });
    await state('writeTensor to a destroyed tensor', () => env.context.writeTensor(t2, new Float32Array(4)), false);
    const t3 = await env.context.createTensor({ ...f32([2, 2]), readable: true, writable: true });
    const out = new Float32Array(4);
    const r3 = env.context.readTensor(t3, out);
    detach(out.buffer);
    await state('readTensor(byob) whose buffer was detached while pending', () => r3, true, { kind: 'reject' });
    t3.destroy();
    const g2 = await (async () => {
      const bb = new MLGraphBuilder(env.context);
      return bb.build({ c: bb.relu(bb.add(bb.input('a', f32([4])), bb.input('b', f32([4])))) });
    })();
    g2.destroy();
    await state('dispatch of a destroyed graph', () => env.context.dispatch(g2, { a: env.ta, b: env.tb }, { c: env.tc }), false);
    await check(env, 'after the destroyed states');
  }
}

// ---- Valid calls for every operator ----

// A valid call of each operator: the smallest single-operator conformance case (the one with the
// most options first, so that their members have values to replace), or, for the operators no
// conformance file covers, the few written here in the same form.
const extraCases = {
  argMin: { inputs: { x: f32Input([2, 3], [1, 5, -2, 4, 0, 3]) }, operators: [op('argMin', [{ input: 'x' }, { axis: 1 }, { options: { keepDimensions: true } }])] },
  argMax: { inputs: { x: f32Input([2, 3], [1, 5, -2, 4, 0, 3]) }, operators: [op('argMax', [{ input: 'x' }, { axis: 1 }, { options: { keepDimensions: true } }])] },
  prelu: { inputs: { x: f32Input([2, 2], [-1, 2, -3, 4]), slope: f32Input([2, 2], [0.1, 0.2, 0.3, 0.4], true) }, operators: [op('prelu', [{ input: 'x' }, { slope: 'slope' }])] },
  triangular: { inputs: { x: f32Input([3, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9]) }, operators: [op('triangular', [{ input: 'x' }, { options: { upper: false, diagonal: 1 } }])] },
  l2Pool2d: { inputs: { x: f32Input([1, 1, 2, 2], [1, 2, 3, 4]) }, operators: [op('l2Pool2d', [{ input: 'x' }, { options: { windowDimensions: [2, 2], strides: [1, 1], padding: [0, 0, 0, 0] } }])] },
  gru: {
    inputs: { x: f32Input([1, 1, 2], [1, 2]), w: f32Input([1, 3, 2], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], true), r: f32Input([1, 3, 1], [0.1, 0.2, 0.3], true) },
    operators: [op('gru', [{ input: 'x' }, { weight: 'w' }, { recurrentWeight: 'r' }, { steps: 1 }, { hiddenSize: 1 }, { options: { returnSequence: true, activations: ['sigmoid', 'tanh'] } }])],
  },
  lstm: {
    inputs: { x: f32Input([1, 1, 2], [1, 2]), w: f32Input([1, 4, 2], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], true), r: f32Input([1, 4, 1], [0.1, 0.2, 0.3, 0.4], true) },
    operators: [op('lstm', [{ input: 'x' }, { weight: 'w' }, { recurrentWeight: 'r' }, { steps: 1 }, { hiddenSize: 1 }, { options: { returnSequence: true, activations: ['sigmoid', 'tanh', 'tanh'] } }])],
  },
};

function f32Input(shape, data, constant = false) {
  return { data, descriptor: { dataType: 'float32', shape }, constant };
}

function op(name, args) {
  return { name, arguments: args, outputs: 'out' };
}

function operatorCases(operators) {
  const best = new Map();
  const size = (kase) => Object.values(kase.inputs).reduce((n, e) => n + e.descriptor.shape.reduce((a, b) => a * b, 1), 0);
  const options = (kase) => {
    const last = kase.operators[0].arguments.at(-1);
    const v = last && Object.values(last)[0];
    return isObject(v) && !Array.isArray(v) ? Object.keys(v).length : 0;
  };
  for (const set of ['conformance', 'conformance-extra']) {
    for (const { graph } of conformanceCases(path.join(shared, 'wpt', set))) {
      if (graph.operators.length !== 1) continue;
      const name = graph.operators[0].name;
      if (!operators.has(name) || size(graph) > 4096) continue;
      if (Object.values(graph.inputs).some((e) => !Array.isArray(e.data))) continue;
      const current = best.get(name);
      if (!current || options(graph) > options(current) || (options(graph) === options(current) && size(graph) < size(current)))
        best.set(name, graph);
    }
  }
  for (const [name, kase] of Object.entries(extraCases)) if (!best.has(name)) best.set(name, kase);
  return best;
}

// ---- Entry: the test, or (in its child process) the walk ----

if (process.env[kChildFlag] === '1') {
  await walk();
} else {
  // The findings of the walk, each as its own case (they failed before their fixes).

  test('a buffer source is read through its internal slots, never its own properties', async () => {
    const context = await webnn.ml.createContext();
    const b = new webnn.MLGraphBuilder(context);
    const desc = { dataType: 'float32', shape: [2] };
    // A view whose own `buffer` property names other bytes: the view's own bytes are the constant.
    const view = new Float32Array([1, 2]);
    Object.defineProperty(view, 'buffer', { get: () => new Float32Array([7, 8]).buffer });
    // A view whose own byteLength getter detaches its buffer: never called.
    const detaching = new Float32Array([3, 4]);
    Object.defineProperty(detaching, 'byteLength', {
      get() {
        detach(detaching.buffer);
        return 8;
      },
    });
    const graph = await b.build({ v: b.identity(b.constant(desc, view)), d: b.identity(b.constant(desc, detaching)) });
    // A resizable buffer that says it is not (an own `resizable`), and a view that names a plain
    // buffer as its own: still refused (where the runtime has resizable buffers: Node.js 20).
    const rab = new ArrayBuffer(8, { maxByteLength: 16 });
    if (rab.resizable === true) {
      Object.defineProperty(rab, 'resizable', { value: false });
      assert.throws(() => new webnn.MLGraphBuilder(context).constant(desc, rab), TypeError);
      const overRab = new Float32Array(new ArrayBuffer(8, { maxByteLength: 16 }));
      Object.defineProperty(overRab, 'buffer', { value: new ArrayBuffer(8) });
      assert.throws(() => new webnn.MLGraphBuilder(context).constant(desc, overRab), TypeError);
    }
    const out = { v: await context.createTensor({ ...desc, readable: true }), d: await context.createTensor({ ...desc, readable: true }) };
    context.dispatch(graph, {}, out);
    assert.deepEqual([...new Float32Array(await context.readTensor(out.v))], [1, 2]);
    assert.deepEqual([...new Float32Array(await context.readTensor(out.d))], [3, 4]);
    // readTensor into a view with a lying byteLength: the view's own memory is written.
    const target = new Float32Array(2);
    Object.defineProperty(target, 'byteLength', { get: () => 0 });
    await context.readTensor(out.v, target);
    assert.deepEqual([...target], [1, 2]);
    context.destroy();
  });

  test('MLContext.lost on another object is a rejected promise, not a throw (WebIDL)', async () => {
    const get = Object.getOwnPropertyDescriptor(webnn.MLContext.prototype, 'lost').get;
    const p = get.call({});
    assert.ok(p instanceof Promise);
    await assert.rejects(p, TypeError);
  });

  test('loadGraph without a path is a TypeError, not a file named "undefined"', async () => {
    const context = await webnn.ml.createContext();
    await assert.rejects(webnn.loadGraph(context), (e) => e instanceof TypeError && /2 arguments required/.test(e.message));
    context.destroy();
  });

  test('installGlobals converts its defaults at the call', async () => {
    assert.throws(() => webnn.installGlobals({}, { numThreads: -1 }), TypeError);
    assert.throws(() => webnn.installGlobals({}, { backend: Symbol('b') }), TypeError);
    const reads = [];
    const defaults = { get numThreads() { reads.push('numThreads'); return 1; } };
    const ml = webnn.installGlobals({}, defaults);
    const c1 = await ml.createContext();
    const c2 = await ml.createContext();
    assert.deepEqual(reads, ['numThreads'], 'read once, at installGlobals');
    c1.destroy();
    c2.destroy();
  });

  test('bad input: every method, argument, member and receiver, each hostile value in turn', { skip: !haveSpec && `${specPath} is absent`, timeout: 30 * 60_000 }, async (t) => {
    const result = await runChild();
    t.diagnostic(result.summary);
    assert.deepEqual(result.findings.slice(0, 40), [], `${result.findings.length} findings`);
    assert.ok(result.calls > 10_000, `${result.calls} calls made`);
  });
}
