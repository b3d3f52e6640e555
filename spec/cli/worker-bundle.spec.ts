import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerCommandFor } from '../../src/cli/worker-bundle.ts';

// The bundle a run's worker processes start (src/cli/worker-bundle.ts): our sources in one file, the packages
// required from the checkout's node_modules, and V8's compile cache beside it.
const bin = fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url));

test('the worker bundle requires packages from the checkout, runs, and keeps a compile cache in its directory', async () => {
  const { command, dispose } = await workerCommandFor([process.execPath, bin]);
  try {
    assert.ok(command && command.length === 2 && command[1] !== bin, 'a bundle was made');
    const dir = dirname(command[1]!);
    const text = readFileSync(join(dir, 'cli.cjs'), 'utf8');
    const pgMem = createRequire(bin).resolve('pg-mem');
    assert.ok(text.includes(`require(${JSON.stringify(pgMem)})`), 'pg-mem is required by its path in the checkout');
    assert.not.ok(
      /\/\/ node_modules\/(pg-mem|pgsql-ast-parser)\//.test(text),
      'pg-mem and its parser are not in the bundle',
    );
    // `backends` opens every built-in backend's factory: pg-mem among them, loaded from node_modules.
    const r = spawnSync(command[0]!, [command[1]!, 'backends', '--format', 'json'], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    assert.ok(r.stdout.includes('"postgres"'));
    // A process that exits writes the cache (a crash worker, killed, flushes it after its ready).
    const cache = join(dir, 'compile-cache');
    if (typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function') {
      assert.ok(existsSync(cache) && readdirSync(cache).length > 0, 'the compile cache was written');
    }
  } finally {
    dispose();
  }
});

test.run();
