/**
 * GET /query/{graph}/{query} on the REST++ listener's fast path (http/fast-path.ts) answers exactly
 * as the Fastify route does: each request is sent twice to the same server, once plain (the fast
 * path takes it) and once with a RESPONSE-LIMIT far above the answer (the fast path leaves that to
 * Fastify, where it changes nothing), and the status, content type, length and body must be equal
 * (a request id in a message aside). fastAnswers() tells which path answered. Queries run on a
 * worker pool, so timeouts and aborts are the pool's.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { AuthService } from '../../../src/auth/service.js';
import type { Database } from '../../../src/engine/database.js';
import { fastAnswers } from '../../../src/server/http/fast-path.js';
import type { RunningServers } from '../../../src/server/start.js';
import { runScript } from '../../../src/shell/run-script.js';
import { type Harness, startHarness } from './graph-harness.js';

const SETUP = `
CREATE VERTEX P (PRIMARY_ID id INT, x INT)
CREATE DIRECTED EDGE E (FROM P, TO P)
CREATE GRAPH g (*)
USE GRAPH g
CREATE QUERY reach(VERTEX<P> s, INT k) FOR GRAPH g {
  SumAccum<INT> @@n; OrAccum @seen; INT i = 0;
  F = {s};
  WHILE i < k DO
    F = SELECT t FROM F:v -(E>)- P:t WHERE t.@seen == FALSE ACCUM t.@seen += TRUE POST-ACCUM @@n += 1;
    i = i + 1;
  END;
  PRINT @@n AS reached, "naïve ✓" AS text;
}
CREATE QUERY spin() FOR GRAPH g {
  SumAccum<INT> @@n;
  WHILE TRUE DO @@n += 1; END;
  PRINT @@n;
}
CREATE QUERY bump(VERTEX<P> s) FOR GRAPH g {
  S = {s};
  S = SELECT v FROM S:v POST-ACCUM v.x = v.x + 1;
  PRINT S.size() AS n;
}
INSTALL QUERY reach, spin, bump
CREATE USER nobody WITH PASSWORD "pw1"
CREATE USER reader WITH PASSWORD "pw2"
GRANT ROLE queryreader ON GRAPH g TO reader
`;

const N = 200;
let h: Harness;
let db: Database;
let s: RunningServers;

before(async () => {
  h = await startHarness({ threads: 2 }, {}, async (db) => {
    let out = '';
    assert.equal(await runScript(db, SETUP, { user: 'tigergraph' }, (t) => (out += t)), 0, out);
    await db.write((tx) => {
      for (let i = 0; i < N; i++) {
        tx.upsertVertex('P', i, { x: { value: i, op: 'set' } });
        tx.upsertEdge('E', 'P', i, 'P', (i * 7 + 1) % N, {});
        tx.upsertEdge('E', 'P', i, 'P', (i * 13 + 5) % N, {});
      }
    });
  });
  db = h.db;
  s = h.servers;
});
after(() => h.close());

interface Answer {
  status: number;
  type: string | undefined;
  length: string | undefined;
  retryAfter: string | undefined;
  body: string;
}

function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(`${s.urls.restpp}${path}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers['content-type'],
          length: res.headers['content-length'],
          retryAfter: res.headers['retry-after'],
          body,
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** A request id in a message (`<n>.RESTPP_1_1.<ms>.N`) differs between the two requests. */
function sameShape(a: Answer): Answer {
  return { ...a, body: a.body.replace(/\d+\.RESTPP_1_1\.\d+\.N/g, 'ID'), length: undefined };
}

/**
 * Sends the request plainly and through Fastify; asserts the two answers are the same and says
 * whether the fast path answered the plain one.
 */
async function both(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ answer: Answer; fast: boolean }> {
  const before = fastAnswers();
  const plain = await get(path, headers);
  const fast = fastAnswers() === before + 1;
  const routed = await get(path, { ...headers, 'RESPONSE-LIMIT': '100000000' });
  assert.equal(fastAnswers(), before + (fast ? 1 : 0), 'the request with RESPONSE-LIMIT went to Fastify');
  assert.deepEqual(sameShape(plain), sameShape(routed), path);
  // Lengths match wherever the bodies do byte for byte (no request id in them).
  if (plain.body === routed.body) assert.equal(plain.length, routed.length);
  assert.equal(Number(plain.length), Buffer.byteLength(plain.body));
  return { answer: plain, fast };
}

test('a successful run: the same 200 envelope, non-ASCII text included, with GSQL-TIMEOUT or a heap limit of its own', async () => {
  const plain: Record<string, string> = {};
  // A heap limit of its own runs the query alone, on a worker started for it.
  for (const headers of [plain, { 'GSQL-TIMEOUT': '60000' }, { 'GSQL-QueryLocalMemLimitMB': '256' }]) {
    const { answer, fast } = await both('/query/g/reach?s=1&k=3', headers);
    assert.ok(fast);
    assert.equal(answer.status, 200);
    assert.equal(answer.type, 'application/json; charset=utf-8');
    const env = JSON.parse(answer.body) as {
      error: boolean;
      code: string;
      results: { reached: number; text: string }[];
    };
    assert.equal(env.error, false);
    assert.equal(env.code, 'REST-0000');
    assert.equal(env.results[0].text, 'naïve ✓');
    assert.ok(env.results[0].reached > 0);
  }
});

test('refusals before the run are answered by Fastify, the same way', async () => {
  const cases: [string, Record<string, string>, number, string][] = [
    ['/query/g/nope?s=1', {}, 404, 'REST-1000'],
    ['/query/nograph/reach?s=1&k=1', {}, 400, 'REST-1004'],
    ['/query/g/reach?s=1&k=abc', {}, 400, 'REST-30000'],
    ['/query/g/reach?k=1', {}, 400, 'GSQL-1001'],
    ['/query/g/reach?s=1&k=1', { 'GSQL-TIMEOUT': 'soon' }, 400, 'REST-30001'],
    ['/query/g/reach?s=1&k=1', { 'GSQL-REPLICA': '2' }, 400, 'REST-30001'],
    ['/query/g/reach?s=1&k=1', { 'GSQL-QueryLocalMemLimitMB': 'lots' }, 400, 'REST-30001'],
    ['/query/g/reach?s=1&k=1&read_committed=maybe', {}, 400, 'REST-30001'],
  ];
  for (const [path, headers, status, code] of cases) {
    const { answer, fast } = await both(path, headers);
    assert.equal(fast, false, path);
    assert.equal(answer.status, status, `${path}: ${answer.body}`);
    assert.equal((JSON.parse(answer.body) as { code: string }).code, code, path);
  }
});

test('a run that fails at run time is answered by the fast path as the route answers it', async () => {
  // The worker finds that the vertex does not exist.
  const missing = await both('/query/g/reach?s=99999&k=1');
  assert.ok(missing.fast);
  assert.equal(missing.answer.status, 400);
  assert.match(missing.answer.body, /"code":"REST-30000"/);
  const { answer, fast } = await both('/query/g/spin', { 'GSQL-TIMEOUT': '200' });
  assert.ok(fast);
  assert.equal(answer.status, 408);
  const env = JSON.parse(answer.body) as { error: boolean; code: string; message: string };
  assert.equal(env.code, 'REST-3000');
  assert.match(env.message, /did not finish within its timeout of 200 ms/);
});

/** Starts `spin` with `headers`, aborts it through /abortquery once it runs, and returns its answer. */
async function spinAborted(headers: Record<string, string>): Promise<Answer> {
  const answer = get('/query/g/spin', headers);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const list = await get('/showprocesslist/g');
    const running = (JSON.parse(list.body) as { results: { requestid: string; url: string }[] }).results;
    const run = running.find((r) => r.url.startsWith('/query/g/spin'));
    if (run) {
      const aborted = await get(`/abortquery/g?requestid=${encodeURIComponent(run.requestid)}`);
      assert.equal(aborted.status, 200, aborted.body);
      break;
    }
    assert.ok(Date.now() < deadline, 'spin never showed up in /showprocesslist');
    await new Promise((r) => setTimeout(r, 20));
  }
  return answer;
}

test('/abortquery stops a run the fast path started, with the route’s answer', async () => {
  const before = fastAnswers();
  const fast = await spinAborted({});
  assert.equal(fastAnswers() > before, true);
  const routed = await spinAborted({ 'RESPONSE-LIMIT': '100000000' });
  assert.deepEqual(sameShape(fast), sameShape(routed));
  assert.equal((JSON.parse(fast.body) as { code: string }).code, 'REST-12002');
});

test('with REST++ authentication: unknown callers and missing privileges go to Fastify; a verified reader runs fast', async () => {
  const svc = AuthService.for(db);
  svc.restppAuth = true;
  const basic = (user: string, pw: string) => ({
    Authorization: `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`,
  });
  try {
    const none = await both('/query/g/reach?s=1&k=1');
    assert.equal(none.fast, false);
    assert.equal(none.answer.status, 401);
    const wrong = await both('/query/g/reach?s=1&k=1', basic('nobody', 'nope'));
    assert.equal(wrong.fast, false);
    assert.equal(wrong.answer.status, 401);
    for (let i = 0; i < 2; i++) {
      const forbidden = await both('/query/g/reach?s=1&k=1', basic('nobody', 'pw1'));
      assert.equal(forbidden.fast, false);
      assert.equal(forbidden.answer.status, 403);
    }
    // The first request verifies the credential (Fastify); later ones are decided at once.
    await get('/query/g/reach?s=1&k=1', basic('reader', 'pw2'));
    const read = await both('/query/g/reach?s=1&k=2', basic('reader', 'pw2'));
    assert.equal(read.fast, true);
    assert.equal(read.answer.status, 200);
    // A query that writes needs the write privilege checked: Fastify answers (a query reader may not).
    const write = await both('/query/g/bump?s=1', basic('reader', 'pw2'));
    assert.equal(write.fast, false);
    assert.equal(write.answer.status, 403, write.answer.body);
  } finally {
    svc.restppAuth = false;
  }
});
