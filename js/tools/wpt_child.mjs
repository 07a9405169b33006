// One WPT test file in a process of its own, for js/tools/wpt.mjs: a global scope set up as a
// browser window's is for a .any.js test (self, location with the variant's query, fetch of the
// checkout's own files, the package's navigator.ml and interface objects), then WPT's
// testharness.js, the file's `// META: script=` includes and the file itself, each run as a
// classic script in this one global scope. Prints "WPT-RESULT {json}" when the harness completes.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { createRequire } from 'node:module';
import { meta } from './wpt.mjs';

const require = createRequire(import.meta.url);
const webnn = require('../index.js');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1] ?? '';
const root = path.resolve(args.root);
const file = path.resolve(args.file);
const rel = path.relative(root, file).split(path.sep).join('/');

// ---- The global scope of a window running a .any.js test ----

// ECMAScript built-ins that current browsers have and the tests use, where this Node.js lacks them
// (Node 20: the Set methods of ES2025, ArrayBuffer.prototype.transfer and .detached of ES2024). Float16Array is
// not emulated: where it is absent the package takes float16 data as Uint16Array bits, as the
// spec's note and WPT's helpers do.
for (const [name, method] of Object.entries({
  difference(other) { return new Set([...this].filter((x) => !other.has(x))); },
  intersection(other) { return new Set([...this].filter((x) => other.has(x))); },
  union(other) { return new Set([...this, ...other.keys()]); },
  symmetricDifference(other) { const out = new Set(this); for (const x of other.keys()) (out.has(x) ? out.delete(x) : out.add(x)); return out; },
  isSubsetOf(other) { return [...this].every((x) => other.has(x)); },
  isSupersetOf(other) { return [...other.keys()].every((x) => this.has(x)); },
  isDisjointFrom(other) { return [...this].every((x) => !other.has(x)); },
})) {
  if (!Set.prototype[name]) Object.defineProperty(Set.prototype, name, { value: method, writable: true, configurable: true });
}
if (!ArrayBuffer.prototype.transfer) {
  Object.defineProperty(ArrayBuffer.prototype, 'transfer', {
    value(newLength = this.byteLength) {
      const copy = new ArrayBuffer(newLength);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(newLength, this.byteLength)));
      structuredClone(this, { transfer: [this] }); // detaches this buffer
      return copy;
    },
    writable: true,
    configurable: true,
  });
}

if (!Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached')) {
  Object.defineProperty(ArrayBuffer.prototype, 'detached', {
    get() {
      // A view over a detached buffer cannot be made; over a live one (even of length 0) it can.
      try {
        new Uint8Array(this);
        return false;
      } catch {
        return true;
      }
    },
    configurable: true,
  });
}

globalThis.self = globalThis;
// Node.js has SharedArrayBuffer unconditionally: what a page gets by being served with COOP + COEP.
globalThis.crossOriginIsolated = true;
globalThis.GLOBAL = { isWindow: () => true, isWorker: () => false, isShadowRealm: () => false };
globalThis.location = new URL(`https://web-platform.test:8443/${rel.replace(/\.js$/, '.html')}${args.variant ?? ''}`);
webnn.installGlobals(globalThis, { backend: args.backend || undefined, remote: args.remote || undefined, token: args.token || undefined });

// fetch() of the checkout's own files (utils.js reads /webnn/resources/minimum_datatype_set.json).
globalThis.fetch = async (input) => {
  const url = new URL(String(input), globalThis.location);
  const local = path.join(root, decodeURIComponent(url.pathname));
  if (!local.startsWith(root + path.sep) || !fs.existsSync(local)) return new Response('not found', { status: 404 });
  return new Response(fs.readFileSync(local), { status: 200 });
};

// What a window's harness does with errors that escape the tests: the harness fails.
const escaped = [];
process.on('unhandledRejection', (reason) => escaped.push(`unhandled rejection: ${reason?.stack ?? reason}`));
process.on('uncaughtException', (error) => escaped.push(`uncaught exception: ${error?.stack ?? error}`));

function load(scriptPath) {
  vm.runInThisContext(fs.readFileSync(scriptPath, 'utf8'), { filename: scriptPath });
}

const testStatus = ['PASS', 'FAIL', 'TIMEOUT', 'NOTRUN', 'PRECONDITION_FAILED'];
const harnessStatus = ['OK', 'ERROR', 'TIMEOUT', 'PRECONDITION_FAILED'];

load(path.join(root, 'resources', 'testharness.js'));
globalThis.add_completion_callback((tests, status) => {
  const report = {
    harness: { status: harnessStatus[status.status] ?? String(status.status), message: status.message ?? null },
    tests: tests.map((t) => ({ name: t.name, status: testStatus[t.status] ?? String(t.status), message: t.message ?? null })),
  };
  if (escaped.length && report.harness.status === 'OK') report.harness = { status: 'ERROR', message: escaped.join('\n') };
  fs.writeSync(1, `\nWPT-RESULT ${JSON.stringify(report)}\n`);
  process.exit(0);
});

const m = meta(fs.readFileSync(file, 'utf8'));
for (const script of m.scripts) load(script.startsWith('/') ? path.join(root, script) : path.resolve(path.dirname(file), script));
load(file);
