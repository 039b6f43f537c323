/**
 * `ocelot serve` end to end: a real data directory, the gsql client against it, signals, restart.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logLines } from '../log-lines.js';
import { killAll, runOcelot, startOcelot } from './spawn.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ocelot-serve-'));
  dirs.push(d);
  return d;
}
after(() => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const READY = /Admin listening on http:\/\/127\.0\.0\.1:\d+\n/;
const FREE_PORTS = ['--restpp-port', '0', '--gsql-port', '0', '--admin-port', '0'];

function urls(stdout: string): { restpp: string; gsql: string; admin: string } {
  const find = (re: RegExp) => {
    const m = re.exec(stdout);
    assert.ok(m, `no match for ${re} in ${stdout}`);
    return m[1];
  };
  return {
    restpp: find(/^REST\+\+ listening on (http:\/\/\S+)$/m),
    gsql: find(/^GSQL server listening on (http:\/\/\S+) /m),
    admin: find(/^Admin listening on (http:\/\/\S+)$/m),
  };
}

const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;

test('serve, gsql script/command/wrong password, SIGTERM, schema still there after restart', async () => {
  const data = join(tempDir(), 'data');
  const first = await startOcelot(['serve', '--data', data, ...FREE_PORTS], READY);
  const u = urls(first.output().stdout);
  const ip = u.gsql.replace('http://', '');

  const script = join(tempDir(), 'schema.gsql');
  writeFileSync(
    script,
    'CREATE VERTEX person (PRIMARY_ID id STRING, name STRING)\nCREATE UNDIRECTED EDGE knows (FROM person, TO person)\nCREATE GRAPH social (person, knows)\n',
  );
  const created = await runOcelot(['gsql', '-ip', ip, script]);
  assert.equal(created.code, 0, created.stdout + created.stderr);
  assert.match(created.stdout, /The graph social is created\./);
  assert.doesNotMatch(created.stdout, /__GSQL__/);

  const ls = await runOcelot(['gsql', '-ip', ip, '-g', 'social', 'ls']);
  assert.equal(ls.code, 0);
  assert.match(ls.stdout, /VERTEX person\(PRIMARY_ID id STRING, name STRING\)/);

  const syntax = await runOcelot(['gsql', '-ip', ip, 'CREATE VERTX oops']);
  assert.equal(syntax.code, 211, syntax.stdout);

  const denied = await runOcelot(['gsql', '-ip', ip, '-p', 'nope', 'ls']);
  assert.equal(denied.code, 41);
  assert.equal(denied.stdout, 'Invalid username or password!\n');

  const echo = await fetch(`${u.restpp}/echo`);
  assert.equal(await echo.text(), '{"error":false,"message":"Hello GSQL"}');

  first.child.kill('SIGTERM');
  const stopped = await first.exited;
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.ok(
    logLines(stopped.stderr).some((l) => l.level === 'info' && l.msg === 'SIGTERM received, stopping'),
    stopped.stderr,
  );

  const second = await startOcelot(['serve', '--data', data, ...FREE_PORTS], READY);
  try {
    const v = urls(second.output().stdout);
    const res = await fetch(`${v.gsql}/gsqlserver/gsql/schema?graph=social`, {
      headers: { authorization: BASIC },
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      results: { GraphName: string; VertexTypes: { Name: string }[]; EdgeTypes: { Name: string }[] };
    };
    assert.equal(body.results.GraphName, 'social');
    assert.deepEqual(
      body.results.VertexTypes.map((t) => t.Name),
      ['person'],
    );
    assert.deepEqual(
      body.results.EdgeTypes.map((t) => t.Name),
      ['knows'],
    );
  } finally {
    second.child.kill('SIGINT');
    const end = await second.exited;
    assert.equal(end.code, 0);
  }
});

test('a port in use: clear error naming the port and the flag, exit 1', async () => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const r = await runOcelot([
      'serve',
      '--data',
      join(tempDir(), 'd'),
      '--restpp-port',
      String(port),
      '--gsql-port',
      '0',
      '--admin-port',
      '0',
    ]);
    assert.equal(r.code, 1);
    const errors = logLines(r.stderr).filter((l) => l.level === 'error');
    assert.deepEqual(
      errors.map((l) => l.msg),
      [`Port ${port} on 127.0.0.1 is already in use (set another with --restpp-port).`],
    );
    assert.equal(r.stdout, '');
  } finally {
    await new Promise((r) => blocker.close(r));
  }
});

test('environment variables configure serve; flags win over them', async () => {
  const env = {
    ...process.env,
    OCELOT_DATA: join(tempDir(), 'envdata'),
    OCELOT_RESTPP_PORT: '0',
    OCELOT_GSQL_PORT: '0',
    OCELOT_ADMIN_PORT: '0',
    OCELOT_TIGERGRAPH_VERSION: '3.9.3',
    OCELOT_SYNC: 'none',
    OCELOT_BODY_LIMIT_MB: '1',
  };
  const s = await startOcelot(['serve', '--tigergraph-version', '4.1.2'], READY, { env });
  try {
    const u = urls(s.output().stdout);
    assert.match(s.output().stdout, new RegExp(`Data directory: ${env.OCELOT_DATA}`));
    const v = (await (await fetch(`${u.restpp}/version`)).json()) as { message: string };
    assert.match(v.message, /release_4\.1\.2_/);
    // A body over OCELOT_BODY_LIMIT_MB is refused on both REST++ listeners.
    for (const base of [u.restpp, `${u.gsql}/restpp`]) {
      const big = await fetch(`${base}/ddl/g?tag=j&filename=f`, {
        method: 'POST',
        body: 'a,b\n'.repeat(400_000),
      });
      assert.equal(big.status, 413);
      assert.deepEqual(await big.json(), {
        version: { edition: 'enterprise', api: 'v2', schema: 0 },
        error: true,
        message: `The request body exceeds the limit of ${1024 * 1024} bytes.`,
        code: 'REST-30000',
        results: [],
      });
    }
  } finally {
    s.child.kill('SIGTERM');
    assert.equal((await s.exited).code, 0);
  }
});

test('bad serve arguments: exit 1 with the reason', async () => {
  const r = await runOcelot(['serve', '--sync', 'maybe']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^ocelot serve: --sync must be always, batch or none, not 'maybe'/);
});

test('a data directory in use by another server: exit 1 naming the directory', async () => {
  const data = join(tempDir(), 'shared');
  const first = await startOcelot(['serve', '--data', data, ...FREE_PORTS], READY);
  try {
    const second = await runOcelot(['serve', '--data', data, ...FREE_PORTS]);
    assert.equal(second.code, 1);
    const errors = logLines(second.stderr).filter((l) => l.level === 'error');
    assert.equal(errors.length, 1, second.stderr);
    assert.ok(errors[0].msg.startsWith(`cannot start: data directory ${data} is in use`), errors[0].msg);
    assert.equal(second.stdout, '');
  } finally {
    first.child.kill('SIGTERM');
    assert.equal((await first.exited).code, 0);
  }
});

test('serve --auth: REST++ asks for a token, /echo stays public', async () => {
  const s = await startOcelot(['serve', '--auth', '--data', join(tempDir(), 'auth'), ...FREE_PORTS], READY);
  try {
    const u = urls(s.output().stdout);
    assert.equal(await (await fetch(`${u.restpp}/echo`)).text(), '{"error":false,"message":"Hello GSQL"}');
    const denied = await fetch(`${u.gsql}/restpp/endpoints`);
    assert.equal(denied.status, 401);
    assert.equal(((await denied.json()) as { code: string }).code, 'REST-10016');
  } finally {
    s.child.kill('SIGTERM');
    assert.equal((await s.exited).code, 0);
  }
});
