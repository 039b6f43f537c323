import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createListenerApp, queryOf } from '../../src/server/http/app.js';
import { jsonBody, readJsonBody, rawBody, textBody } from '../../src/server/http/body.js';
import { RestError } from '../../src/server/http/envelope.js';
import { LatencyRecorder } from '../../src/server/http/latency.js';
import { EngineError } from '../../src/engine/api.js';
import { lineLogger } from '../../src/util/logger.js';

let app: FastifyInstance;
let base: string;
const recorder = new LatencyRecorder();
const logged: string[] = [];

before(async () => {
  app = createListenerApp({ recorder, logger: lineLogger((m) => logged.push(m)), bodyLimit: 1024 });
  app.post('/json', { config: { endpoint: 'POST /json' } }, async (req) => ({ body: jsonBody(req) ?? null }));
  app.post('/dup', async (req) => {
    // Reads a flat object key by key: each occurrence of a repeated key is met in source order.
    const entries = readJsonBody(req, (r) => {
      const out: [string, unknown][] = [];
      if (!r.enterObject()) throw new RestError('REST-30000', 'not an object');
      for (let k = r.firstKey(); k !== undefined; k = r.nextKey()) out.push([k, r.value()]);
      r.end();
      return out;
    });
    return { entries: entries ?? null };
  });
  app.post('/raw', async (req) => ({ bytes: rawBody(req).length, text: textBody(req) }));
  app.get('/query', async (req) => queryOf(req).toRecord());
  app.get('/big', async () => ({ n: 9007199254740993n, m: -9223372036854775808n }));
  app.get('/boom', async () => {
    throw new Error('secret detail');
  });
  app.get('/engine', async () => {
    throw new EngineError('REST-2004', "Vertex type 'x' does not exist.");
  });
  app.get('/rest', async () => {
    throw new RestError('REST-30200', 'bad upsert parameter');
  });
  app.get('/id', async (req) => ({ id: req.id }));
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await app.close();
});

async function call(path: string, init: RequestInit = {}) {
  const r = await fetch(base + path, init);
  const text = await r.text();
  return { status: r.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

test('JSON bodies are parsed whatever the Content-Type, or none', async () => {
  for (const headers of [
    { 'content-type': 'application/json' },
    { 'content-type': 'text/plain' },
    {},
  ] as Record<string, string>[]) {
    const r = await call('/json', { method: 'POST', body: '{"a":[1,2],"b":12345678901234567890}', headers });
    assert.equal(r.status, 200);
    assert.equal(r.text, '{"body":{"a":[1,2],"b":12345678901234567890}}');
  }
  const form = await call('/json', {
    method: 'POST',
    body: '{"x":1}',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(form.text, '{"body":{"x":1}}');
  assert.equal((await call('/json', { method: 'POST' })).text, '{"body":null}');
});

test('a body without any Content-Type header is read as JSON (pyTigerGraph sends such bodies)', async () => {
  const url = new URL(base);
  const answer = await new Promise<string>((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: '/json', method: 'POST', headers: { 'content-length': 7 } },
      (res) => {
        let d = '';
        res.on('data', (c: Buffer) => (d += c.toString()));
        res.on('end', () => resolve(d));
      },
    );
    req.on('error', reject);
    req.end('{"a":1}');
  });
  assert.equal(answer, '{"body":{"a":1}}');
});

test('malformed JSON is REST-30000 naming where it broke', async () => {
  const r = await call('/json', {
    method: 'POST',
    body: '{"a":1,\n "b": }',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(r.status, 400);
  assert.equal(r.body.code, 'REST-30000');
  assert.equal(r.body.error, true);
  assert.match(String(r.body.message), /^Invalid JSON payload: .*line 2, column \d+\.$/);
  assert.deepEqual(r.body.results, []);
});

test('the pull body reader meets every occurrence of a repeated key, in source order', async () => {
  const r = await call('/dup', { method: 'POST', body: '{"t":{"d":1},"2":[],"t":{"d":2}}' });
  assert.equal(r.text, '{"entries":[["t",{"d":1}],["2",[]],["t",{"d":2}]]}');
  assert.equal((await call('/dup', { method: 'POST', body: ' ' })).text, '{"entries":null}');
});

test('the pull body reader reports a syntax error after the point where the shape failed', async () => {
  const shape = await call('/dup', { method: 'POST', body: '[1]' });
  assert.equal(shape.status, 400);
  assert.equal(shape.body.message, 'not an object');
  const both = await call('/dup', { method: 'POST', body: '[1,\n 2' });
  assert.equal(both.status, 400);
  assert.equal(both.body.code, 'REST-30000');
  assert.match(String(both.body.message), /^Invalid JSON payload: .*line 2, column \d+\.$/);
  const trailing = await call('/dup', { method: 'POST', body: '{"a":1} x' });
  assert.match(String(trailing.body.message), /^Invalid JSON payload: Unexpected data after the JSON value/);
});

test('raw bytes stay available', async () => {
  const r = await call('/raw', {
    method: 'POST',
    body: '1,2\n3,4\n',
    headers: { 'content-type': 'text/csv' },
  });
  assert.deepEqual(r.body, { bytes: 8, text: '1,2\n3,4\n' });
});

test('bodies beyond the limit are refused with an envelope', async () => {
  const r = await call('/raw', { method: 'POST', body: 'x'.repeat(2000) });
  assert.equal(r.status, 413);
  assert.equal(r.body.code, 'REST-30000');
  assert.equal(r.body.message, 'The request body exceeds the limit of 1024 bytes.');
});

test('the TigerGraph query-string parser is the router’s', async () => {
  const r = await call('/query?p=1&p=2&f=a%3E%3D3&v%5B0%5D=x');
  assert.deepEqual(r.body, { p: ['1', '2'], f: 'a>=3', 'v[0]': 'x' });
});

test('64-bit integers are written exactly', async () => {
  assert.equal((await call('/big')).text, '{"n":9007199254740993,"m":-9223372036854775808}');
});

test('errors become envelopes; no stack trace reaches the client', async () => {
  const boom = await call('/boom');
  assert.equal(boom.status, 500);
  assert.equal(boom.body.code, 'REST-10005');
  assert.equal(boom.body.message, 'Internal error while processing the request: secret detail');
  assert.doesNotMatch(boom.text, /at .*\.js/);
  assert.ok(
    logged.some(
      (l) => l.startsWith('error: internal error ') && l.includes('url=/boom') && l.includes('secret detail'),
    ),
  );
  const engine = await call('/engine');
  assert.equal(engine.status, 400);
  assert.deepEqual(engine.body, {
    version: { edition: 'enterprise', api: 'v2', schema: 0 },
    error: true,
    message: "Vertex type 'x' does not exist.",
    results: [],
    code: 'REST-2004',
  });
  const rest = await call('/rest');
  assert.equal(rest.status, 400);
  assert.equal(rest.body.code, 'REST-30200');
});

test('request ids have TigerGraph’s shape and differ', async () => {
  const a = (await call('/id')).body.id as string;
  const b = (await call('/id')).body.id as string;
  assert.match(a, /^\d+\.RESTPP_1_1\.\d{13}\.N$/);
  assert.notEqual(a, b);
});

test('latency is recorded per declared endpoint', async () => {
  await call('/json', { method: 'POST', body: '{}' });
  const report = recorder.report(60, 4);
  assert.ok(report['POST /json'].CompletedRequests >= 1);
  assert.equal(report['POST /json'].LatencyPercentile.length, 4);
  assert.equal('GET /query' in report, false, 'routes without an endpoint key are not recorded');
});

test('LatencyRecorder: window, percentiles, timeouts', () => {
  let now = 1_000_000;
  const r = new LatencyRecorder(() => now);
  for (const ms of [10, 20, 30, 40]) r.record('GET /x', ms);
  r.record('GET /x', 5000, true);
  const rep = r.report(10, 2)['GET /x'];
  assert.deepEqual(rep, {
    CompletedRequests: 4,
    QPS: 0.4,
    TimeoutRequests: 1,
    AverageLatency: 25,
    MaxLatency: 40,
    MinLatency: 10,
    LatencyPercentile: [20, 40],
  });
  now += 11_000;
  assert.deepEqual(r.report(10), {});
});

test('LatencyRecorder keeps exactly the last minute across many samples', () => {
  let now = 0;
  const r = new LatencyRecorder(() => now);
  // 10 samples per second for 3 minutes: the arrays grow, then drop and reuse expired room.
  for (let i = 0; i < 1800; i++) {
    now = i * 100;
    r.record('GET /y', i % 7, i % 100 === 0);
  }
  // now = 179,900 ms: the window holds the samples taken at 119,900 ms and later.
  const inWindow = Array.from({ length: 1800 }, (_, i) => i).filter((i) => i * 100 >= now - 60_000);
  const done = inWindow.filter((i) => i % 100 !== 0).map((i) => i % 7);
  const rep = r.report(60, 1)['GET /y'];
  assert.equal(rep.CompletedRequests, done.length);
  assert.equal(rep.TimeoutRequests, inWindow.length - done.length);
  assert.equal(rep.AverageLatency, done.reduce((a, b) => a + b, 0) / done.length);
  assert.deepEqual([rep.MinLatency, rep.MaxLatency, rep.LatencyPercentile], [0, 6, [6]]);
  const last10 = r.report(10)['GET /y'];
  assert.equal(last10.CompletedRequests + last10.TimeoutRequests, 101);
  // The sampler's count (no report built) agrees with the report, over every endpoint.
  r.record('GET /z', 1);
  for (const s of [1, 10, 60]) {
    const all = Object.values(r.report(s)).reduce((n, e) => n + e.CompletedRequests, 0);
    assert.equal(r.completed(s), all, `last ${s} s`);
  }
  assert.equal(r.completed(60), done.length + 1);
});

test('a malformed percent-escape in the path is REST-30000 in the envelope', async () => {
  const r = await call('/query/%zz');
  assert.equal(r.status, 400);
  assert.deepEqual(r.body, {
    version: { edition: 'enterprise', api: 'v2', schema: 0 },
    error: true,
    message: "Invalid url: '/query/%zz' is not a valid url component.",
    results: [],
    code: 'REST-30000',
  });
});

test('an oversized url is answered with the envelope (431)', async () => {
  const r = await call(`/query?x=${'a'.repeat(20_000)}`);
  assert.equal(r.status, 431);
  assert.equal(r.body.code, 'REST-30000');
  assert.equal(
    r.body.message,
    'The request url and headers are too large; send large parameters in the request body.',
  );
});
