// js/index.d.ts compiles under TypeScript's strict mode and types the spec's API as a program
// uses it (test/types/usage.ts, compiled with tsc --noEmit; its @ts-expect-error lines must fail).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsc = path.join(here, '..', 'node_modules', 'typescript', 'bin', 'tsc');

test('index.d.ts type-checks a program written against the spec', { skip: !fs.existsSync(tsc) && 'typescript is not installed (scripts/setup.sh)' }, () => {
  const r = spawnSync(
    process.execPath,
    [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'commonjs', '--lib', 'es2022,dom',
      path.join(here, 'types', 'usage.ts')],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
