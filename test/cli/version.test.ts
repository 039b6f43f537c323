import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { spawn } from 'node:child_process';
import { killAll, OCELOT, runOcelot } from './spawn.js';

after(killAll);

/** The repository's package.json, read here rather than through the code under test. */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

test('ocelot --version (and -V) prints its version and the TigerGraph release it follows', async () => {
  assert.match(PACKAGE_VERSION, /^\d+\.\d+\.\d+$/);
  for (const flag of ['--version', '-V']) {
    const r = await runOcelot([flag]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `ocelot ${PACKAGE_VERSION} (TigerGraph 4.2.0 compatible)\n`);
    assert.equal(r.stderr, '');
  }
});

test('a reader that closes its end early ends ocelot quietly, not with an unhandled EPIPE', async () => {
  // The help text is written long after the child starts, so the pipe is already closed by then.
  const child = spawn(process.execPath, [OCELOT, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(stderr, '');
  assert.equal(code, 0);
});
