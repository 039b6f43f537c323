import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { killAll, runOcelot } from './spawn.js';

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
