/**
 * Online backup and offline restore, end to end: writers keep writing while `ocelot backup create`
 * runs; the restored server has every write acknowledged before the backup started, a consistent
 * cut (each writer's writes up to some point, never one with a gap), and the users, secret and
 * installed query of the original.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { scaled } from '../timing.js';
import { killAll, runOcelot, startOcelot } from './spawn.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ocelot-backup-'));
  dirs.push(d);
  return d;
}
after(() => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const READY = /Admin listening on http:\/\/127\.0\.0\.1:\d+\n/;
const FREE_PORTS = ['--restpp-port', '0', '--gsql-port', '0', '--admin-port', '0', '--log-level', 'warn'];
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN = basic('tigergraph', 'tigergraph');

async function serve(data: string) {
  const s = await startOcelot(['serve', '--data', data, ...FREE_PORTS], READY);
  const find = (re: RegExp) => re.exec(s.output().stdout)![1];
  return {
    ...s,
    restpp: find(/^REST\+\+ listening on (\S+)$/m),
    gsql: find(/^GSQL server listening on (\S+) /m),
    async stop() {
      s.child.kill('SIGTERM');
      assert.equal((await s.exited).code, 0);
    },
  };
}

async function gsql(base: string, text: string, auth = ADMIN): Promise<string> {
  const r = await fetch(`${base}/gsql/v1/statements`, {
    method: 'POST',
    headers: { authorization: auth },
    body: text,
  });
  const out = await r.text();
  assert.equal(r.status, 200, out);
  return out;
}

const SETUP = `CREATE VERTEX W (PRIMARY_ID id STRING, writer INT, seq INT) WITH primary_id_as_attribute="true"
CREATE GRAPH G (W)
CREATE USER alice WITH PASSWORD "alice-pw-3141"
GRANT ROLE queryreader ON GRAPH G TO alice
USE GRAPH G
CREATE QUERY countW() FOR GRAPH G { S = {W.*}; PRINT S.size() AS n; }
INSTALL QUERY countW
CREATE SECRET backup_secret`;

const WRITERS = 3;

test(
  'an online backup under concurrent writes restores every acknowledged write, consistently',
  { timeout: scaled(180_000) },
  async () => {
    const root = tempDir();
    const original = await serve(join(root, 'data'));
    const setup = await gsql(original.gsql, SETUP);
    const secret = /[a-z0-9]{32}/.exec(setup)?.[0];
    assert.ok(secret, setup);

    // Each writer upserts its vertices one at a time, in sequence, remembering what was acknowledged.
    const acked = Array.from({ length: WRITERS }, () => 0);
    let writing = true;
    const writer = async (w: number) => {
      for (let seq = 1; writing; seq++) {
        const body = { vertices: { W: { [`w${w}-${seq}`]: { writer: { value: w }, seq: { value: seq } } } } };
        const r = await fetch(`${original.restpp}/graph/G`, { method: 'POST', body: JSON.stringify(body) });
        assert.equal(r.status, 200, await r.text());
        acked[w] = seq;
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    // Let some writes land first, so the backup cuts through a stream of them.
    while (acked.some((n) => n < 20)) await new Promise((r) => setTimeout(r, 5));

    const denied = await fetch(`${original.gsql}/ocelot/v1/backup`, {
      method: 'POST',
      headers: { authorization: basic('alice', 'alice-pw-3141') },
    });
    assert.equal(denied.status, 403, 'a queryreader may not take a backup');
    assert.equal((await fetch(`${original.gsql}/ocelot/v1/backup`, { method: 'POST' })).status, 401);

    const file = join(root, 'g.backup');
    const before = [...acked];
    const created = await runOcelot(['backup', 'create', file, '--url', original.gsql]);
    const afterBackup = [...acked];
    writing = false;
    await Promise.all(writers);
    assert.equal(created.code, 0, created.stderr);
    assert.match(
      created.stdout,
      new RegExp(`^Backup of version \\d+ \\([\\d.]+ MB, taken \\S+\\) written to ${file}\\n$`),
    );
    const final = [...acked];
    await original.stop();

    const restoredDir = join(root, 'restored');
    const restored = await runOcelot(['backup', 'restore', file, '--data', restoredDir]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, new RegExp(`^Restored version \\d+ .* into ${restoredDir}\\n$`));

    const again = await serve(restoredDir);
    try {
      const list = await fetch(`${again.restpp}/graph/G/vertices/W`);
      const rows = ((await list.json()) as { results: { attributes: { writer: number; seq: number } }[] })
        .results;
      const seqs = Array.from({ length: WRITERS }, () => new Set<number>());
      for (const r of rows) seqs[r.attributes.writer].add(r.attributes.seq);
      for (let w = 0; w < WRITERS; w++) {
        const n = seqs[w].size;
        assert.ok(
          n >= before[w],
          `writer ${w}: ${before[w]} writes were acknowledged before the backup, ${n} restored`,
        );
        assert.ok(
          n <= afterBackup[w],
          `writer ${w}: ${n} restored, only ${afterBackup[w]} acknowledged when the backup ended`,
        );
        for (let s = 1; s <= n; s++)
          assert.ok(seqs[w].has(s), `writer ${w}: write ${s} missing below ${n} (not one commit)`);
      }
      assert.ok(
        final.some((n, w) => n >= seqs[w].size),
        'writes went on',
      );

      // The catalog came back: the installed query, the user and her role, the secret.
      const count = await fetch(`${again.restpp}/query/G/countW`);
      assert.deepEqual(((await count.json()) as { results: unknown[] }).results, [{ n: rows.length }]);
      const asAlice = await fetch(`${again.gsql}/gsql/v1/schema/graphs/G`, {
        headers: { authorization: basic('alice', 'alice-pw-3141') },
      });
      assert.equal(asAlice.status, 200, await asAlice.text());
      const bySecret = await fetch(`${again.gsql}/gsql/v1/schema/graphs/G`, {
        headers: { authorization: basic('__GSQL__secret', secret) },
      });
      assert.equal(bySecret.status, 200);
      const wrong = await fetch(`${again.gsql}/gsql/v1/schema/graphs/G`, {
        headers: { authorization: basic('alice', 'wrong') },
      });
      assert.equal(wrong.status, 401);
    } finally {
      await again.stop();
    }
  },
);

test('restore refuses a damaged file and a directory in use; nothing is left behind', async () => {
  const root = tempDir();
  const garbage = join(root, 'garbage');
  writeFileSync(garbage, 'not a backup');
  const r = await runOcelot(['backup', 'restore', garbage, '--data', join(root, 'd1')]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    `ocelot backup: ${garbage} is not a usable Ocelot backup: it does not start with an Ocelot backup header.\n`,
  );
  const occupied = join(root, 'occupied');
  const s = await serve(occupied);
  const file = join(root, 'b');
  assert.equal((await runOcelot(['backup', 'create', file, '--url', s.gsql])).code, 0);
  const noPassword = await runOcelot(['backup', 'create', join(root, 'x'), '--url', s.gsql, '-p', 'nope']);
  assert.equal(noPassword.code, 1);
  assert.match(noPassword.stderr, /^ocelot backup: the server refused the backup \(HTTP 401\): /);
  await s.stop();
  const busy = await runOcelot(['backup', 'restore', file, '--data', occupied]);
  assert.equal(busy.code, 1);
  assert.equal(
    busy.stderr,
    `ocelot backup: The data directory ${occupied} is not empty; restore into a new or empty directory.\n`,
  );
  const usage = await runOcelot(['backup', 'restore', file]);
  assert.equal(usage.code, 1);
  assert.match(usage.stderr, /^ocelot backup: restore needs --data DIR\n/);
  const unreachable = await runOcelot(['backup', 'create', join(root, 'y'), '-ip', '127.0.0.1:1']);
  assert.equal(unreachable.code, 1);
  assert.match(unreachable.stderr, /^ocelot backup: cannot reach the server at http:\/\/127\.0\.0\.1:1/);
});
