/**
 * `ocelot serve`'s log, end to end: JSON lines on stderr when it is not a terminal, one access line
 * per request, the engine's and the GSQL server's lines through child loggers, and no password,
 * secret or token anywhere in it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { logLines, type LogLine } from '../log-lines.js';
import { killAll, startOcelot } from './spawn.js';

const dirs: string[] = [];
after(() => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const READY = /Admin listening on http:\/\/127\.0\.0\.1:\d+\n/;
const FREE_PORTS = ['--restpp-port', '0', '--gsql-port', '0', '--admin-port', '0'];
const REQUEST_ID = /^\d+\.RESTPP_1_1\.\d{13}\.N$/;
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function serve(extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-log-'));
  dirs.push(dir);
  const s = await startOcelot(['serve', '--data', join(dir, 'data'), ...FREE_PORTS, ...extra], READY);
  const find = (re: RegExp) => re.exec(s.output().stdout)![1];
  return {
    ...s,
    restpp: find(/^REST\+\+ listening on (\S+)$/m),
    gsql: find(/^GSQL server listening on (\S+) /m),
    async stop() {
      s.child.kill('SIGTERM');
      const done = await s.exited;
      assert.equal(done.code, 0, done.stderr);
      return done;
    },
  };
}

async function gsql(base: string, auth: string, text: string): Promise<string> {
  const r = await fetch(`${base}/gsql/v1/statements`, {
    method: 'POST',
    headers: { authorization: auth },
    body: text,
  });
  assert.equal(r.status, 200);
  return r.text();
}

test('JSON log: one access line per request, child loggers, and no credential anywhere', async () => {
  const s = await serve();
  const admin = basic('tigergraph', 'tigergraph');
  const userPassword = 'pw-alice-7f3a';
  const newPassword = 'pw-root-91c2';
  await gsql(s.gsql, admin, `CREATE USER alice WITH PASSWORD "${userPassword}"`);
  await gsql(s.gsql, admin, 'CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)');
  const created = await gsql(s.gsql, admin, 'USE GRAPH G\nCREATE SECRET');
  const secret = /[a-z0-9]{32}/.exec(created)?.[0];
  assert.ok(secret, created);
  // The secret in a url parameter, as user __GSQL__secret, and a password change.
  await fetch(`${s.gsql}/gsql/v1/secrets?alias=x&value=${secret}`, { headers: { authorization: admin } });
  const bySecret = await fetch(`${s.gsql}/gsql/v1/schema/graphs/G`, {
    headers: { authorization: basic('__GSQL__secret', secret) },
  });
  assert.equal(bySecret.status, 200, await bySecret.text());
  await gsql(s.gsql, admin, `ALTER PASSWORD tigergraph WITH PASSWORD "${newPassword}"`);
  const echo = await fetch(`${s.restpp}/echo?token=${userPassword}`);
  assert.equal(echo.status, 200);
  const missing = await fetch(`${s.restpp}/nowhere`);
  assert.equal(missing.status, 404);

  const { stdout, stderr } = await s.stop();
  const lines = logLines(stderr);
  for (const leaked of [userPassword, newPassword, secret, admin.slice(6)]) {
    assert.ok(!stderr.includes(leaked), `the log holds a credential (${leaked}):\n${stderr}`);
    assert.ok(!stdout.includes(leaked), `stdout holds a credential (${leaked})`);
  }

  const access = lines.filter((l) => l.msg === 'request');
  assert.equal(access.length, 8, 'one line for each of the 8 requests');
  for (const a of access) {
    assert.equal(a.level, 'info');
    assert.match(String(a.reqId), REQUEST_ID);
    assert.equal(typeof a.responseTime, 'number');
    assert.ok((a.responseTime as number) >= 0);
  }
  assert.equal(new Set(access.map((a) => a.reqId)).size, access.length, 'request ids are distinct');
  const byUrl = (prefix: string): LogLine[] => access.filter((a) => String(a.url).startsWith(prefix));
  const [echoLine] = byUrl('/echo');
  assert.deepEqual(
    [echoLine.method, echoLine.url, echoLine.status, echoLine.listener, echoLine.user],
    ['GET', '/echo?token=****', 200, 'restpp', undefined],
  );
  assert.deepEqual(
    byUrl('/nowhere').map((a) => [a.status, a.listener]),
    [[404, 'restpp']],
  );
  assert.deepEqual(
    byUrl('/gsql/v1/secrets').map((a) => a.url),
    ['/gsql/v1/secrets?alias=x&value=****'],
  );
  const statements = byUrl('/gsql/v1/statements');
  assert.equal(statements.length, 4);
  for (const a of statements)
    assert.deepEqual([a.method, a.status, a.user, a.listener], ['POST', 200, 'tigergraph', 'gsql']);
  // A secret's caller is its owner, never the secret.
  assert.deepEqual(
    byUrl('/gsql/v1/schema').map((a) => [a.status, a.user]),
    [[200, 'tigergraph']],
  );

  // The GSQL server logs each script (passwords masked) and its exit code.
  const scripts = lines.filter((l) => l.msg === 'gsql script');
  assert.deepEqual(
    scripts.map((l) => [l.component, l.user, l.text]),
    [
      ['gsql', 'tigergraph', 'CREATE USER alice WITH PASSWORD "****"'],
      ['gsql', 'tigergraph', 'CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)'],
      ['gsql', 'tigergraph', 'USE GRAPH G\nCREATE SECRET'],
      ['gsql', 'tigergraph', 'ALTER PASSWORD tigergraph WITH PASSWORD "****"'],
    ],
  );
  assert.deepEqual(
    lines.filter((l) => l.msg === 'gsql script done').map((l) => l.code),
    [0, 0, 0, 0],
  );
  // The engine logs through its own child logger.
  const recovery = lines.find((l) => l.msg.startsWith('recovery: checkpoint LSN'));
  assert.equal(recovery?.component, 'engine');
  assert.ok(lines.some((l) => l.msg === 'SIGTERM received, stopping'));
});

test('--log-level warn drops the access lines; --log-format pretty writes text', async () => {
  const quiet = await serve(['--log-level', 'warn']);
  await fetch(`${quiet.restpp}/echo`);
  const q = await quiet.stop();
  const levels = logLines(q.stderr).map((l) => l.level);
  assert.ok(
    levels.every((l) => l === 'warn' || l === 'error'),
    q.stderr,
  );
  assert.ok(levels.includes('warn'), 'the default-password warning is still there');

  const pretty = await serve(['--log-format', 'pretty']);
  await fetch(`${pretty.restpp}/echo?secret=abc123`);
  const p = await pretty.stop();
  assert.match(
    p.stderr,
    /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[restpp\] GET \/echo\?secret=\*\*\*\* 200 [\d.]+ ms reqId=\S+$/m,
  );
  assert.match(
    p.stderr,
    /^\d\d:\d\d:\d\d\.\d{3} WARN {2}Warning: the user "tigergraph" still has its default password/m,
  );
  assert.doesNotMatch(p.stderr, /abc123/);
  assert.doesNotMatch(p.stderr, /^\{/m, 'no JSON lines');
});
