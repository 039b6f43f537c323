/** A fatal storage error stops `ocelot serve` with a clear message and a non-zero exit. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultyFileLayer } from '../../src/durability/index.js';
import { FATAL_STORAGE_EXIT, runServe } from '../../src/cli/serve.js';
import { collectingDestination, logLines } from '../log-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'ocelot-fatal-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('an fsync failure stops the server with exit 3; the client gets an error, not a stack', async () => {
  const layer = new FaultyFileLayer();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = collectingDestination();
  let ready!: (urls: { gsql: string }) => void;
  const up = new Promise<{ gsql: string }>((r) => (ready = r));
  const exit = runServe(
    ['--data', join(dir, 'data'), '--restpp-port', '0', '--gsql-port', '0', '--admin-port', '0'],
    {
      stdout: (l) => stdout.push(l),
      stderr: (l) => stderr.push(l),
      env: {},
      logDestination: log,
      fileLayer: layer,
      onReady: ready,
    },
  );
  const urls = await up;
  assert.deepEqual(
    logLines(log.text())
      .filter((l) => l.msg.includes('default password'))
      .map((l) => [l.level, l.msg]),
    [
      [
        'warn',
        'Warning: the user "tigergraph" still has its default password; change it with ALTER PASSWORD in gsql.',
      ],
    ],
  );
  layer.failWhen((op) => op.kind === 'sync' || op.kind === 'write');
  const res = await fetch(`${urls.gsql}/gsql/v1/statements`, {
    method: 'POST',
    body: 'CREATE VERTEX person (PRIMARY_ID id STRING)',
    headers: { authorization: `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}` },
  });
  const text = await res.text();
  assert.doesNotMatch(text, /Successfully created/);
  assert.doesNotMatch(text, /\s+at .*\.js:\d+/);
  const code = await exit;
  assert.equal(code, FATAL_STORAGE_EXIT);
  const fatal = logLines(log.text()).filter((l) => l.msg === 'fatal storage error, stopping');
  assert.equal(fatal.length, 1, log.text());
  assert.equal(fatal[0].level, 'error');
  assert.match(String(fatal[0].err), /./);
  assert.deepEqual(stderr, [], 'nothing but the log');
  assert.match(stdout[1], /^REST\+\+ listening on http:\/\/127\.0\.0\.1:\d+$/);
});
