#!/usr/bin/env node
// Runs WPT's own WebNN test files, unchanged, on this package (docs/javascript.md, "WPT").
//
//   node js/tools/wpt.mjs WPT_ROOT [--backend NAME] [--filter TEXT] [--remote unix:PATH]
//                         [--token TOKEN] [--timeout SECONDS] [--jobs N] [--verbose] [--json FILE]
//
// Every WPT_ROOT/webnn/{conformance_tests,validation_tests}/**/*.https.any.js (not the gpu/
// folders) runs under WPT's harness (WPT_ROOT/resources/testharness.js) with the scripts its
// `// META: script=` lines name, in a Node.js process of its own with a time limit — once per
// CPU variant (`?cpu`, `?device=cpu&...`; a file without variants runs once). The process
// installs the package's globals (navigator.ml, MLGraphBuilder, ...) as a browser page has them,
// then reports each subtest. One line per file, then "N passed, N failed, N skipped" over the
// subtests (skipped: NOTRUN and PRECONDITION_FAILED, i.e. optional features the harness did not
// run). A file whose harness errors, crashes or runs out of time counts one failure besides its
// subtests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function usage(message) {
  if (message) console.error(`wpt.mjs: ${message}`);
  console.error(
    'usage: node js/tools/wpt.mjs WPT_ROOT [--backend NAME] [--filter TEXT] [--remote unix:PATH] ' +
      '[--token TOKEN] [--timeout SECONDS] [--jobs N] [--verbose] [--json FILE]',
  );
  process.exit(2);
}

function parseArgs(argv) {
  const options = { root: null, backend: '', filter: '', remote: '', token: '', timeout: 120, jobs: 1, verbose: false, json: '' };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--backend') options.backend = value();
    else if (a === '--filter') options.filter = value();
    else if (a === '--remote') options.remote = value();
    else if (a === '--token') options.token = value();
    else if (a === '--timeout') options.timeout = Number(value());
    else if (a === '--jobs') options.jobs = Number(value());
    else if (a === '--json') options.json = value();
    else if (a === '--verbose') options.verbose = true;
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else if (options.root === null) options.root = a;
    else usage(`unexpected argument ${a}`);
  }
  if (options.root === null) usage('WPT_ROOT is missing');
  if (!Number.isFinite(options.timeout) || options.timeout <= 0) usage('--timeout must be a positive number');
  if (!Number.isInteger(options.jobs) || options.jobs < 1) usage('--jobs must be a positive integer');
  return options;
}

// The test files under webnn/conformance_tests and webnn/validation_tests, sorted.
function testFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'gpu') walk(full);
      } else if (entry.name.endsWith('.https.any.js')) {
        out.push(full);
      }
    }
  };
  for (const sub of ['conformance_tests', 'validation_tests']) {
    const dir = path.join(root, 'webnn', sub);
    if (fs.existsSync(dir)) walk(dir);
  }
  return out;
}

// The `// META:` lines of a test file: scripts, variants, timeout.
export function meta(source) {
  const out = { scripts: [], variants: [], long: false, title: '' };
  for (const line of source.split('\n')) {
    const m = line.match(/^\/\/\s*META:\s*(\w+)=(.*)$/);
    if (!m) {
      if (line.trim() && !line.startsWith('//')) break;
      continue;
    }
    const [, key, value] = m;
    if (key === 'script') out.scripts.push(value.trim());
    else if (key === 'variant') out.variants.push(value.trim());
    else if (key === 'timeout' && value.trim() === 'long') out.long = true;
    else if (key === 'title') out.title = value.trim();
  }
  return out;
}

// The variants that run on the CPU: "?cpu", or any whose device parameter is cpu.
export function cpuVariants(variants) {
  if (variants.length === 0) return [''];
  return variants.filter((v) => {
    const params = new URLSearchParams(v.startsWith('?') ? v.slice(1) : v);
    return v === '?cpu' || params.get('device') === 'cpu';
  });
}

function runOne(job, options) {
  return new Promise((resolve) => {
    const args = [
      path.join(here, 'wpt_child.mjs'),
      '--root', options.root,
      '--file', job.file,
      '--variant', job.variant,
      '--backend', options.backend,
      '--remote', options.remote,
      '--token', options.token,
    ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const limit = options.timeout * (job.long ? 5 : 1) * 1000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limit);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const marker = stdout.lastIndexOf('\nWPT-RESULT ');
      let report = null;
      if (marker >= 0) {
        try {
          report = JSON.parse(stdout.slice(marker + '\nWPT-RESULT '.length).split('\n')[0]);
        } catch {
          report = null;
        }
      }
      resolve({ job, report, code, signal, timedOut, stderr, limit });
    });
  });
}

function summarize(result) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const failures = [];
  const { report } = result;
  for (const t of report ? report.tests : []) {
    if (t.status === 'PASS') counts.passed += 1;
    else if (t.status === 'NOTRUN' || t.status === 'PRECONDITION_FAILED') counts.skipped += 1;
    else {
      counts.failed += 1;
      failures.push(`${t.status} ${t.name}: ${t.message ?? ''}`);
    }
  }
  let problem = '';
  if (result.timedOut) problem = `ran past its ${result.limit / 1000} s limit`;
  else if (!report) problem = `exited with ${result.signal ?? result.code} before reporting: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`;
  else if (report.harness.status !== 'OK') problem = `harness ${report.harness.status}: ${report.harness.message ?? ''}`;
  if (problem) {
    counts.failed += 1;
    failures.unshift(`FILE ${problem}`);
  }
  return { counts, failures };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  options.root = path.resolve(options.root);
  if (!fs.existsSync(path.join(options.root, 'resources', 'testharness.js')))
    usage(`${options.root}/resources/testharness.js is missing: WPT_ROOT must be a WPT checkout (docs/javascript.md)`);
  const jobs = [];
  for (const file of testFiles(options.root)) {
    const rel = path.relative(path.join(options.root, 'webnn'), file);
    const m = meta(fs.readFileSync(file, 'utf8'));
    for (const variant of cpuVariants(m.variants)) {
      const name = rel + variant;
      if (options.filter && !name.includes(options.filter)) continue;
      jobs.push({ file, variant, name, long: m.long });
    }
  }
  if (jobs.length === 0) usage('no test file matched');
  const results = new Array(jobs.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(options.jobs, jobs.length) }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await runOne(jobs[i], options);
      const { counts, failures } = summarize(results[i]);
      const status = counts.failed ? 'FAIL' : 'ok  ';
      console.log(
        `${status} ${jobs[i].name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
      );
      if (options.verbose || counts.failed) for (const f of failures.slice(0, options.verbose ? Infinity : 5)) console.log(`       ${f}`);
    }
  });
  await Promise.all(workers);
  const total = { passed: 0, failed: 0, skipped: 0 };
  const perFile = [];
  for (const r of results) {
    const { counts, failures } = summarize(r);
    for (const k of Object.keys(total)) total[k] += counts[k];
    perFile.push({ file: r.job.name, ...counts, failures });
  }
  if (options.json) fs.writeFileSync(options.json, JSON.stringify({ total, files: perFile }, null, 1));
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exitCode = total.failed ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
