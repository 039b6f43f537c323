/** Without --cluster nothing of the cluster runs: the `nats` package is never even loaded. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cleanup, request, startServe, tempDir } from '../reliability/server-process.js';

test('a server started without --cluster never loads the nats package', { timeout: 60_000 }, async () => {
  const hook = fileURLToPath(new URL('../../../test/fixtures/cluster/refuse-nats.mjs', import.meta.url));
  // The preload does refuse the package…
  const probe = spawnSync(
    process.execPath,
    ['--import', hook, '--input-type=module', '-e', "await import('nats')"],
    {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
    },
  );
  assert.notEqual(probe.status, 0);
  assert.match(probe.stderr, /the nats package was imported/);
  // …and a server with it starts, writes and reads.
  const dir = tempDir('ocelot-no-nats-');
  try {
    const s = await startServe({ dataDir: dir, nodeArgs: ['--import', hook] });
    const r = await request(`${s.restpp}/echo`);
    assert.equal(r.status, 200);
    await s.kill();
    assert.doesNotMatch(s.stderr(), /the nats package was imported/);
  } finally {
    cleanup();
  }
});
