import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASIC, send, startTestServers, type TestServers } from './helpers.js';
import { startServers, ListenError } from '../../src/server/start.js';
import { fakeDatabase } from './fake-database.js';
import { OCELOT_VERSION } from '../../src/util/ocelot-version.js';
import { scaled } from '../timing.js';

let s: TestServers;
const outputDir = mkdtempSync(join(tmpdir(), 'ocelot-listeners-out-'));
before(async () => {
  s = await startTestServers(async () => 0, ['social'], outputDir);
});
after(async () => {
  await s.close();
  rmSync(outputDir, { recursive: true, force: true });
});

const VERSION = { edition: 'enterprise', api: 'v2', schema: 0 };

test('GET and POST /echo on :9000 and :14240/restpp, with and without trailing slash', async () => {
  for (const base of [s.urls.restpp, `${s.urls.gsql}/restpp`]) {
    for (const init of [{}, { method: 'POST' }, { method: 'POST', body: '' }]) {
      for (const path of ['/echo', '/echo/']) {
        const r = await send(base + path, init);
        assert.equal(r.status, 200);
        assert.equal(r.text, '{"error":false,"message":"Hello GSQL"}');
        assert.match(r.headers.get('content-type') ?? '', /application\/json/);
      }
    }
  }
});

test('/echo?sleep waits; a bad sleep is REST-30001', async () => {
  const t0 = Date.now();
  const r = await send(`${s.urls.restpp}/echo?sleep=0.2`);
  assert.equal(r.status, 200);
  assert.ok(Date.now() - t0 >= 190);
  const bad = await send(`${s.urls.restpp}/echo?sleep=abc`);
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json(), {
    version: VERSION,
    error: true,
    message: "The value of parameter 'sleep' must be a non-negative number.",
    results: [],
    code: 'REST-30001',
  });
});

test('unknown paths are REST-1000 with 404 on every listener; /restpp prefix is not named', async () => {
  const cases: [string, string][] = [
    [`${s.urls.restpp}/eco?x=1`, '/eco'],
    [`${s.urls.gsql}/restpp/eco`, '/eco'],
    [`${s.urls.gsql}/nothing/here`, '/nothing/here'],
    [`${s.urls.admin}/nothing`, '/nothing'],
  ];
  for (const [url, shown] of cases) {
    const r = await send(url);
    assert.equal(r.status, 404);
    assert.deepEqual(r.json(), {
      version: VERSION,
      error: true,
      message: `Endpoint is not found from url = ${shown}, please use GET /endpoints to list all valid endpoints.`,
      results: [],
      code: 'REST-1000',
    });
  }
  // REST++ routes exist only under /restpp on the GSQL port.
  assert.equal((await send(`${s.urls.gsql}/echo`)).status, 404);
});

test('GET /api/ping needs no credentials; error is a falsy boolean, as pyTigerGraph ping() needs', async () => {
  const r = await send(`${s.urls.gsql}/api/ping`);
  assert.equal(r.status, 200);
  assert.equal(r.text, '{"error":false,"message":"pong","results":{}}');
});

test('GET /version: the component text pyTigerGraph parses', async () => {
  const r = await send(`${s.urls.restpp}/version`);
  assert.equal(r.status, 200);
  const body = r.json() as { error: string; message: string };
  assert.equal(body.error, 'false');
  const lines = body.message.split('\n');
  assert.equal(lines[0], 'TigerGraph RESTPP: ');
  assert.equal(lines[1], ' --- Version --- ');
  assert.equal(lines[2], 'TigerGraph version: 4.2.0');
  // The last line, which pyTigerGraph skips (TigerGraph's is empty), is Ocelot's own version.
  assert.equal(lines[lines.length - 1], `ocelot ${OCELOT_VERSION} (TigerGraph 4.2.0 compatible)`);
  // pyTigerGraph: skip lines 0-2 and the last; name, version, hash, 3-token datetime.
  const components = lines.slice(3, -1).map((l) => l.split(/\s+/).filter((t) => t !== ''));
  for (const c of components) assert.equal(c.length, 6, c.join(' '));
  const product = components.find((c) => c[0] === 'product');
  assert.ok(product);
  assert.equal(/_.+_/.exec(product[1])?.[0].replace(/^_|_$/g, ''), '4.2.0');
  assert.match(product[2], /^[0-9a-f]{40}$/);
  assert.deepEqual((await send(`${s.urls.gsql}/restpp/version`)).json(), body);
});

test('GET /gsql/v1/version is plain text and needs credentials', async () => {
  const r = await send(`${s.urls.gsql}/gsql/v1/version`, { headers: { authorization: BASIC } });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /text\/plain/);
  assert.match(r.text, /^GSQL version: 4\.2\.0\nGSQL commit number: [0-9a-f]{40}\n/);
  assert.ok(r.text.includes(`\nocelot ${OCELOT_VERSION} (TigerGraph 4.2.0 compatible)\n`), r.text);
  const denied = await send(`${s.urls.gsql}/gsql/v1/version`);
  assert.equal(denied.status, 401);
  assert.equal((denied.json() as { code: string }).code, 'REST-10016');
});

test('--tigergraph-version is what /version and /gsql/v1/version report', async () => {
  const other = await startServers({
    database: fakeDatabase().db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    tigergraphVersion: '3.10.1',
    runScript: async () => 0,
    log: () => {},
  });
  try {
    const v = (await send(`${other.urls.restpp}/version`)).json() as { message: string };
    assert.match(v.message, /\nproduct +release_3\.10\.1_\S+ [0-9a-f]{40} /);
    const g = await send(`${other.urls.gsql}/gsql/v1/version`, { headers: { authorization: BASIC } });
    assert.match(g.text, /^GSQL version: 3\.10\.1\n/);
  } finally {
    await other.close();
  }
});

test('GET /endpoints/{g}: bare map with parameters; kinds filter; unknown graph is REST-1004', async () => {
  const r = await send(`${s.urls.restpp}/endpoints/social?builtin=true`);
  assert.equal(r.status, 200);
  const map = r.json() as Record<string, { parameters: Record<string, unknown> }>;
  assert.deepEqual(map['GET /endpoints/{graph_name}'], {
    parameters: {
      builtin: { default: 'false', max_count: 1, min_count: 0, type: 'BOOL' },
      dynamic: { default: 'false', max_count: 1, min_count: 0, type: 'BOOL' },
      static: { default: 'false', max_count: 1, min_count: 0, type: 'BOOL' },
    },
  });
  assert.deepEqual(map['GET /echo'], { parameters: { sleep: { max_count: 1, min_count: 0, type: 'INT' } } });
  assert.ok('POST /echo' in map);
  assert.ok('GET /rebuildnow/{graph_name}' in map);
  assert.ok('POST /rebuildnow/{graph_name}' in map);
  assert.ok('GET /deleted_vertex_check' in map);
  assert.equal('version' in map, false, 'no envelope');
  assert.deepEqual((await send(`${s.urls.restpp}/endpoints/social?dynamic=true`)).json(), {});
  assert.deepEqual((await send(`${s.urls.gsql}/restpp/endpoints/social`)).json(), map);
  const unknown = await send(`${s.urls.restpp}/endpoints/nope`);
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.json(), {
    version: VERSION,
    error: true,
    message: "Graph name 'nope' parsed from the url = '/endpoints/nope' is not found.",
    results: [],
    code: 'REST-1004',
  });
});

test('GET|POST /rebuildnow/{g} calls the Database with the parameters', async () => {
  s.fake.rebuildCalls.length = 0;
  const r = await send(`${s.urls.restpp}/rebuildnow/social?threadnum=2&vertextype=person&force=true`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json(), {
    version: VERSION,
    error: false,
    message: 'RebuildNow finished, please check details in the folder: /tmp/rebuildnow',
    results: [],
    code: 'REST-0000',
  });
  // The summary folder a client names is created inside the output directory.
  const folder = join(realpathSync(outputDir), 'x');
  const p = await send(`${s.urls.gsql}/restpp/rebuildnow/social?path=x&segid=1,2`, { method: 'POST' });
  assert.equal(
    (p.json() as { message: string }).message,
    `RebuildNow finished, please check details in the folder: ${folder}`,
  );
  assert.deepEqual(s.fake.rebuildCalls, [
    { threadnum: 2, vertextype: ['person'], segid: undefined, path: undefined, force: true },
    { threadnum: undefined, vertextype: undefined, segid: [1, 2], path: folder, force: false },
  ]);
  // Anywhere else is refused before anything runs.
  for (const path of ['/tmp/x', '../x', '/etc']) {
    const refused = await send(`${s.urls.restpp}/rebuildnow/social?path=${encodeURIComponent(path)}`);
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, /Invalid parameter 'path'/);
  }
  assert.equal(s.fake.rebuildCalls.length, 2);
  const bad = await send(`${s.urls.restpp}/rebuildnow/social?threadnum=two`);
  assert.equal(bad.status, 400);
  assert.equal((bad.json() as { code: string }).code, 'REST-30001');
  assert.equal((await send(`${s.urls.restpp}/rebuildnow/nope`)).status, 400);
});

test('GET /deleted_vertex_check', async () => {
  const r = await send(`${s.urls.restpp}/deleted_vertex_check?vertextype=person&verbose=1`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json(), {
    version: VERSION,
    error: false,
    message: 'check passed',
    results: [{ GPE: 'GPE_1_1', PassCheck: true, UnSyncList: [] }],
    code: 'REST-0000',
  });
  assert.deepEqual(s.fake.checkCalls.at(-1), {
    threadnum: undefined,
    vertextype: ['person'],
    segid: undefined,
    verbose: 1,
  });
});

test('a failed deleted-vertex check says so', async () => {
  const failing = await startServers({
    database: fakeDatabase(['g'], false).db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    runScript: async () => 0,
    log: () => {},
  });
  try {
    const r = await send(`${failing.urls.restpp}/deleted_vertex_check`);
    assert.deepEqual(r.json(), {
      version: VERSION,
      error: false,
      message: 'check failed',
      results: [
        {
          GPE: 'GPE_1_1',
          PassCheck: false,
          UnSyncList: [{ Segid: 3, IsRemote: false, VertexType: 'person', GPEDelHash: 1, IDSDelHash: 2 }],
        },
      ],
      code: 'REST-0000',
    });
  } finally {
    await failing.close();
  }
});

test('a port in use is a ListenError naming the port and the flag', async () => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as net.AddressInfo).port;
  const fake = fakeDatabase();
  try {
    await assert.rejects(
      startServers({
        database: fake.db,
        restppPort: 0,
        gsqlPort: port,
        adminPort: 0,
        runScript: async () => 0,
      }),
      (e: unknown) =>
        e instanceof ListenError &&
        e.listener === 'gsql' &&
        e.message === `Port ${port} on 127.0.0.1 is already in use (set another with --gsql-port).`,
    );
    assert.equal(fake.closed(), false, 'a Database passed in is not closed');
  } finally {
    await new Promise((r) => blocker.close(r));
  }
});

test('GET /statistics/{g}: per-endpoint latency of the last seconds', async () => {
  await send(`${s.urls.restpp}/echo`);
  await send(`${s.urls.gsql}/restpp/echo`);
  const r = await send(`${s.urls.restpp}/statistics/social?seconds=60`);
  assert.equal(r.status, 200);
  const stats = r.json() as Record<string, Record<string, unknown>>;
  const echo = stats['GET /echo'];
  assert.ok((echo.CompletedRequests as number) >= 2);
  assert.equal(echo.TimeoutRequests, 0);
  assert.equal((echo.LatencyPercentile as number[]).length, 10);
  assert.deepEqual(Object.keys(echo), [
    'CompletedRequests',
    'QPS',
    'TimeoutRequests',
    'AverageLatency',
    'MaxLatency',
    'MinLatency',
    'LatencyPercentile',
  ]);
  const four = (await send(`${s.urls.restpp}/statistics/social?seconds=5&segments=4`)).json() as typeof stats;
  assert.equal((four['GET /echo'].LatencyPercentile as number[]).length, 4);
  const three = (await send(`${s.urls.restpp}/statistics/social?seconds=5&segment=3`)).json() as typeof stats;
  assert.equal((three['GET /echo'].LatencyPercentile as number[]).length, 3);
  for (const q of ['', '?seconds=0', '?seconds=61', '?seconds=x', '?seconds=5&segments=101']) {
    const bad = await send(`${s.urls.restpp}/statistics/social${q}`);
    assert.equal(bad.status, 400, q);
    assert.equal((bad.json() as { code: string }).code, 'REST-30400', q);
  }
  assert.equal((await send(`${s.urls.restpp}/statistics/nope?seconds=5`)).status, 400);
});

test('an idle server reports {} statistics', async () => {
  const idle = await startServers({
    database: fakeDatabase().db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    runScript: async () => 0,
    log: () => {},
  });
  try {
    assert.equal((await send(`${idle.urls.restpp}/statistics/social?seconds=10`)).text, '{}');
  } finally {
    await idle.close();
  }
});

test('RESPONSE-LIMIT replaces a larger answer by REST-4000; malformed limit headers are refused', async () => {
  const small = await send(`${s.urls.restpp}/echo`, {
    headers: { 'RESPONSE-LIMIT': '32000000.0', 'GSQL-TIMEOUT': '5000' },
  });
  assert.equal(small.text, '{"error":false,"message":"Hello GSQL"}');
  const full = await send(`${s.urls.restpp}/endpoints/social`);
  const big = await send(`${s.urls.restpp}/endpoints/social`, { headers: { 'RESPONSE-LIMIT': '10' } });
  assert.equal(big.status, 400);
  assert.deepEqual(big.json(), {
    version: VERSION,
    error: true,
    message: `The query response size is ${Buffer.byteLength(full.text)} bytes, which exceeds limit 10 bytes.`,
    results: [],
    code: 'REST-4000',
  });
  for (const [name, value] of [
    ['RESPONSE-LIMIT', 'lots'],
    ['GSQL-TIMEOUT', '-5'],
  ]) {
    const r = await send(`${s.urls.restpp}/echo`, { headers: { [name]: value } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.json(), {
      version: VERSION,
      error: true,
      message: `The value '${value}' of header ${name} is not a non-negative number.`,
      results: [],
      code: 'REST-30001',
    });
  }
});

/**
 * Servers whose GSQL executor reports when a script starts and ends it 200 ms later (time for a
 * test to act while it runs); close() would wait 10 minutes for requests in flight, so a test that
 * ends at all shows it did not wait for that grace period.
 */
async function slowServers() {
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const servers = await startServers({
    database: fakeDatabase().db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    runScript: async (_text, _session, out) => {
      started();
      await new Promise((r) => setTimeout(r, scaled(200)));
      out('done\n');
      return 0;
    },
    log: () => {},
    closeGraceMs: 600_000,
  });
  return { servers, running };
}

test(
  'close() lets a request in flight finish, then stops listening',
  { timeout: scaled(60_000) },
  async () => {
    const { servers, running } = await slowServers();
    const inFlight = send(`${servers.urls.gsql}/gsql/v1/statements`, {
      method: 'POST',
      body: 'ls',
      headers: { authorization: BASIC },
    });
    await running;
    await servers.close();
    const r = await inFlight;
    assert.equal(r.status, 200);
    assert.equal(r.text, 'done\n');
    await assert.rejects(fetch(`${servers.urls.gsql}/api/ping`));
  },
);

test(
  'a request arriving while closing is refused with 503 in the envelope',
  { timeout: scaled(60_000) },
  async () => {
    const { servers, running } = await slowServers();
    const socket = net.connect(servers.ports.gsql, '127.0.0.1');
    let raw = '';
    socket.on('data', (d: Buffer) => (raw += d.toString()));
    const ended = new Promise((r) => socket.on('close', r));
    // A second request on the busy keep-alive connection, sent once close() has begun.
    socket.write(
      `POST /gsql/v1/statements HTTP/1.1\r\nHost: x\r\nAuthorization: ${BASIC}\r\nContent-Length: 2\r\n\r\nls`,
    );
    await running;
    const closed = servers.close();
    socket.write('GET /api/ping HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    await ended;
    assert.match(raw, /^HTTP\/1\.1 200 /);
    assert.match(raw, /\r\n\r\n(5\r\n)?done\n/);
    assert.match(raw, /HTTP\/1\.1 503 /);
    assert.ok(
      raw.endsWith(
        '{"version":{"edition":"enterprise","api":"v2","schema":0},"error":true,"message":"The server is shutting down.","results":[],"code":"SYS-0001"}',
      ),
      raw,
    );
  },
);
