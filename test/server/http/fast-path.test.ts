/**
 * Which requests a listener's fast path answers and which it leaves to Fastify: the fast read and
 * the Fastify handler of the same route here answer differently (`via`), so each answer shows
 * which path served it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { AuthService } from '../../../src/auth/service.js';
import { Database } from '../../../src/engine/database.js';
import { createListenerApp, fastPathOf, queryOf } from '../../../src/server/http/app.js';
import { okEnvelope, RestError } from '../../../src/server/http/envelope.js';
import { LatencyRecorder } from '../../../src/server/http/latency.js';
import { lineLogger } from '../../../src/util/logger.js';

const LIST = '/graph/:graph_name/vertices/:vertex_type';
const RUN = '/query/:graph_name/:query_name';
const RUN_ENDPOINT = 'GET /query/{graph_name}/{query_name}';
const ENDPOINT = 'GET /graph/{graph_name}/vertices/{vertex_type}';
const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;

let dir: string;
let db: Database;
let app: FastifyInstance;
let base: string;
const recorder = new LatencyRecorder();
const logged: string[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocelot-fast-path-'));
  db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  app = createListenerApp({
    recorder,
    logger: lineLogger((line) => logged.push(line)),
    access: { listener: 'restpp', db },
    fastPath: true,
  });
  fastPathOf(app)!.add(LIST, ENDPOINT, (r) => {
    if (r.params.vertex_type === 'bad') throw new Error('refused here');
    return okEnvelope({ via: 'fast', params: r.params, limit: r.query.get('limit') ?? null });
  });
  app.get(LIST, { config: { endpoint: ENDPOINT } }, (req) =>
    okEnvelope({ via: 'fastify', params: req.params, limit: queryOf(req).get('limit') ?? null }),
  );
  // A run route: `sync` throws before starting (Fastify answers), `slow` answers after a while,
  // `busy` and `crash` fail once started (the fast path answers their errors).
  const outcome = (name: string, via: string): Promise<unknown> => {
    if (name === 'busy')
      return Promise.reject(new RestError('REST-30000', 'busy', { status: 429, retryAfter: 7 }));
    if (name === 'crash') return Promise.reject(new Error('boom'));
    const wait = name === 'slow' ? 50 : 0;
    return new Promise((resolve) => setTimeout(() => resolve(okEnvelope({ via, name })), wait));
  };
  fastPathOf(app)!.add(RUN, RUN_ENDPOINT, {
    run: (r) => {
      if (r.params.query_name === 'sync') throw new Error('refused here');
      return outcome(r.params.query_name, 'fast');
    },
  });
  app.get(RUN, { config: { endpoint: RUN_ENDPOINT } }, (req) =>
    outcome((req.params as { query_name: string }).query_name, 'fastify'),
  );
  // A static segment where the fast route has a parameter: Fastify's router prefers it.
  app.get('/graph/:graph_name/vertices/static', () => ({ via: 'static' }));
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

after(async () => {
  await app.close();
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

async function via(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(base + path, { headers });
  const parsed = (await res.json()) as { results: Record<string, unknown> };
  // A success's results; an error's whole envelope.
  return { status: res.status, body: res.status === 200 ? parsed.results : parsed };
}

test('a plain GET of a fast route is answered by the fast path, with its params and query', async () => {
  const r = await via('/graph/g/vertices/Person?limit=5');
  assert.deepEqual(r, {
    status: 200,
    body: { via: 'fast', params: { graph_name: 'g', vertex_type: 'Person' }, limit: '5' },
  });
});

test('requests that are not plain go to Fastify', async () => {
  const cases: [string, Record<string, string>][] = [
    ['/graph/g/vertices/%50erson', {}],
    ['/graph/g/vertices/Person/', {}],
    ['/graph//g/vertices/Person', {}],
    ['/graph/g/vertices/Person', { 'GSQL-TIMEOUT': '1000' }],
    ['/graph/g/vertices/Person', { 'RESPONSE-LIMIT': '100000' }],
    ['/graph/g/vertices/Person', { 'Sec-Fetch-Site': 'same-origin' }],
    ['/graph/g/vertices/Person', { Origin: base }],
    // The route's read throws: Fastify runs the route again and answers.
    ['/graph/g/vertices/bad', {}],
  ];
  for (const [path, headers] of cases) {
    const r = await via(path, headers);
    assert.equal(r.status, 200, path);
    assert.equal(r.body.via, 'fastify', `${path} ${JSON.stringify(headers)}`);
  }
  // The static route wins in Fastify's router (and, having no access rule, is refused there).
  const shadowed = await via('/graph/g/vertices/static');
  assert.equal(shadowed.status, 403);
  assert.match(String(shadowed.body.message), /vertices\/static has no access rule/);
  // A foreign page is still refused (by Fastify's browser guard).
  const foreign = await via('/graph/g/vertices/Person', { Origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
});

test('a GET with a body goes to Fastify', async () => {
  const body = await new Promise<string>((resolve, reject) => {
    const req = http.request(
      `${base}/graph/g/vertices/Person`,
      { method: 'GET', headers: { 'content-length': '2' } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
  assert.equal((JSON.parse(body) as { results: { via: string } }).results.via, 'fastify');
});

test('a fast answer records its latency sample and writes its access line', async () => {
  logged.length = 0;
  const before = recorder.report(60)[ENDPOINT]?.CompletedRequests ?? 0;
  await via('/graph/g/vertices/Person?limit=1&password=secret');
  assert.equal(recorder.report(60)[ENDPOINT]?.CompletedRequests, before + 1);
  const line = logged.find((l) => l.startsWith('request'));
  assert.ok(line, logged.join('\n'));
  assert.match(line, /method=GET/);
  assert.match(line, /status=200/);
  assert.match(line, /reqId=\S*RESTPP_1_1/);
  assert.doesNotMatch(line, /secret/);
});

test('with REST++ authentication, only a caller verified before is answered by the fast path', async () => {
  const svc = AuthService.for(db);
  svc.restppAuth = true;
  try {
    const none = await via('/graph/g/vertices/Person');
    assert.equal(none.status, 401);
    const wrong = `Basic ${Buffer.from('tigergraph:nope').toString('base64')}`;
    for (let i = 0; i < 2; i++)
      assert.equal((await via('/graph/g/vertices/Person', { Authorization: wrong })).status, 401);
    // The first request verifies the credentials (Fastify's access hook), the next is decided at once.
    assert.equal((await via('/graph/g/vertices/Person', { Authorization: BASIC })).body.via, 'fastify');
    logged.length = 0;
    assert.equal((await via('/graph/g/vertices/Person', { Authorization: BASIC })).body.via, 'fast');
    assert.match(logged.find((l) => l.startsWith('request')) ?? '', /user=tigergraph/);
  } finally {
    svc.restppAuth = false;
  }
});

/** Sends `raw` in one write and reads `count` responses (content-length framed) off the socket. */
async function pipelined(raw: string, count: number): Promise<{ status: number; body: string }[]> {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  let data = Buffer.alloc(0);
  const out: { status: number; body: string }[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (d: Buffer) => {
      data = Buffer.concat([data, d]);
      for (;;) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) break;
        const head = data.subarray(0, end).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
        if (data.length < end + 4 + length) break;
        out.push({
          status: Number(head.split(' ')[1]),
          body: data.subarray(end + 4, end + 4 + length).toString('utf8'),
        });
        data = data.subarray(end + 4 + length);
      }
      if (out.length === count) resolve();
    });
    socket.write(raw);
  });
  socket.destroy();
  return out;
}

test('pipelined requests are answered in order, whichever path answers each', async () => {
  const get = (path: string, extra = ''): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;
  const raw = [
    get('/graph/g/vertices/A?limit=1'),
    get('/graph/g/vertices/B', 'GSQL-TIMEOUT: 1000\r\n'),
    get('/graph/g/vertices/C?limit=3'),
    get('/graph/g/vertices/bad'),
    get('/graph/g/vertices/D'),
    `GET /graph/g/vertices/E HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`,
    get('/graph/g/vertices/F?limit=6'),
  ].join('');
  const answers = await pipelined(raw, 7);
  const seen = answers.map(({ status, body }) => {
    const r = (JSON.parse(body) as { results: { via: string; params: { vertex_type: string } } }).results;
    return `${status} ${r.params.vertex_type} ${r.via}`;
  });
  assert.deepEqual(seen, [
    '200 A fast',
    '200 B fastify',
    '200 C fast',
    '200 bad fastify',
    '200 D fast',
    '200 E fastify',
    '200 F fast',
  ]);
});

test('a run route: started runs are answered by the fast path, errors as the listener answers them', async () => {
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, { headers });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      retryAfter: res.headers.get('retry-after'),
      body: await res.text(),
    };
  };
  const ok = await get('/query/g/ok');
  assert.equal(ok.status, 200);
  assert.deepEqual((JSON.parse(ok.body) as { results: unknown }).results, { via: 'fast', name: 'ok' });
  const refused = await get('/query/g/sync');
  assert.deepEqual((JSON.parse(refused.body) as { results: unknown }).results, {
    via: 'fastify',
    name: 'sync',
  });
  for (const name of ['busy', 'crash']) {
    logged.length = 0;
    const fast = await get(`/query/g/${name}`);
    const routed = await get(`/query/g/${name}`, { 'RESPONSE-LIMIT': '100000' });
    assert.deepEqual(fast, routed, name);
    if (name === 'crash') {
      // Both answers were logged as internal errors, neither with a stack trace to the client.
      assert.equal(fast.status, 500);
      assert.match(fast.body, /"code":"REST-10005"/);
      assert.equal(logged.filter((l) => l.includes('internal error')).length, 2, logged.join('\n'));
    } else {
      assert.equal(fast.status, 429);
      assert.equal(fast.retryAfter, '7');
    }
    assert.equal(fast.type, 'application/json; charset=utf-8');
  }
});

test('a slow run pipelined before fast reads is answered first', async () => {
  const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
  const answers = await pipelined(
    [get('/query/g/slow'), get('/graph/g/vertices/A'), get('/query/g/busy'), get('/graph/g/vertices/B')].join(
      '',
    ),
    4,
  );
  const seen = answers.map(({ status, body }) => {
    const env = JSON.parse(body) as {
      results: { via?: string; name?: string; params?: { vertex_type: string } };
    };
    return `${status} ${env.results.name ?? env.results.params?.vertex_type ?? '-'} ${env.results.via ?? ''}`.trim();
  });
  assert.deepEqual(seen, ['200 slow fast', '200 A fast', '429 -', '200 B fast']);
});
