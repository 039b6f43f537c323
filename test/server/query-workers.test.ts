/**
 * Queries on worker threads, seen from a client: a query that never ends stops at its GSQL-TIMEOUT
 * while the server keeps answering /echo and point reads; /abortquery stops it too; a query past the
 * per-query memory limit ends with a clear error and the next query runs; a worker that dies fails
 * its query only; a query reads one version while writes commit.
 * No timing is asserted: requests are polled with generous limits.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import type { Database } from '../../src/engine/database.js';
import { registryFor } from '../../src/query/index.js';
import type { RunningServers } from '../../src/server/start.js';
import { runScript } from '../../src/shell/run-script.js';
import { poolFor } from '../../src/workers/index.js';
import { type Harness, startHarness } from './restpp/graph-harness.js';

const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;

const SETUP = `
CREATE VERTEX P (PRIMARY_ID id INT, x INT)
CREATE DIRECTED EDGE E (FROM P, TO P)
CREATE GRAPH g (*)
USE GRAPH g
CREATE QUERY spin() FOR GRAPH g {
  SumAccum<INT> @@n;
  WHILE TRUE DO @@n += 1; END;
  PRINT @@n;
}
CREATE QUERY hog() FOR GRAPH g {
  ListAccum<STRING> @@l;
  WHILE TRUE DO @@l += "a string that takes some room, again and again and again"; END;
  PRINT @@l.size();
}
CREATE QUERY sums(INT rounds) FOR GRAPH g {
  SumAccum<INT> @@total; ListAccum<INT> @@each; INT i = 0;
  All = {P.*};
  WHILE i < rounds DO
    @@total = 0;
    S = SELECT v FROM All:v ACCUM @@total += v.x;
    @@each += @@total;
    i = i + 1;
  END;
  PRINT @@each;
}
INSTALL QUERY spin, hog, sums
`;

const N = 2000;
let h: Harness;
let db: Database;
let s: RunningServers;

before(async () => {
  h = await startHarness({ threads: 2, queryMemoryMb: 32 }, {}, async (db) => {
    let out = '';
    assert.equal(await runScript(db, SETUP, { user: 'tigergraph' }, (t) => (out += t)), 0, out);
    await db.write((tx) => {
      for (let i = 0; i < N; i++) tx.upsertVertex('P', i, { x: { value: 1, op: 'set' } });
    });
  });
  db = h.db;
  s = h.servers;
});
after(() => h.close());

async function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${s.urls.restpp}${path}`, { headers });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

test('a query that never ends stops at its timeout while the server keeps answering', async () => {
  const running = get('/query/g/spin', { 'GSQL-TIMEOUT': '4000' });
  let answered = 0;
  let done = false;
  void running.then(() => (done = true));
  // Reads are answered while the query holds its worker.
  while (!done) {
    const echo = await get('/echo');
    assert.equal(echo.status, 200);
    const read = await get('/graph/g/vertices/P/7');
    assert.deepEqual((read.body.results as { attributes: unknown }[])[0].attributes, { x: 1 });
    answered++;
    await new Promise((r) => setTimeout(r, 20));
  }
  const r = await running;
  assert.equal(r.status, 408);
  assert.equal(r.body.code, 'REST-3000');
  assert.ok(answered > 0);
});

/** Starts `spin` and waits until /showprocesslist lists it (so its worker runs it); its request id. */
async function spinning(): Promise<{
  id: string;
  answer: Promise<{ status: number; body: Record<string, unknown> }>;
}> {
  const answer = get('/query/g/spin', { 'GSQL-TIMEOUT': '120000' });
  for (let i = 0; i < 2000; i++) {
    const list = (await get('/showprocesslist/g')).body.results as { requestid: string; url: string }[];
    const run = list.find((r) => r.url.startsWith('/query/g/spin'));
    if (run) return { id: run.requestid, answer };
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('spin never showed up in /showprocesslist');
}

test('/abortquery stops a query in a tight loop; the server and the pool go on', async () => {
  const { id, answer } = await spinning();
  const aborted = await get(`/abortquery/g?requestid=${id}`);
  assert.deepEqual(aborted.body.results, [{ aborted_queries: [{ requestid: id, url: '/query/g/spin' }] }]);
  const r = await answer;
  assert.equal(r.body.error, true);
  assert.equal(r.body.code, 'REST-12002');
  assert.equal(r.body.message, `The query ${id} was aborted by the user; nothing it changed was committed.`);
  assert.equal((await get('/echo')).status, 200);
  assert.deepEqual((await get('/query/g/sums?rounds=1')).body.results, [{ '@@each': [N] }]);
});

test('a worker that dies fails its query with an error, not the server', async () => {
  const pool = poolFor(db);
  assert.ok(pool);
  const { answer } = await spinning();
  // A crash seen from outside: the worker running spin ends without answering.
  const slots = (pool as unknown as { slots: { worker?: Worker; running?: unknown }[] }).slots;
  const busy = slots.find((sl) => sl.running !== undefined)?.worker;
  assert.ok(busy, 'a worker runs spin');
  await busy.terminate();
  const r = await answer;
  assert.equal(r.body.error, true);
  assert.equal(r.body.code, 'GSQL-8001');
  assert.equal(
    r.body.message,
    'Runtime Error: The worker thread running the query failed; the query was stopped.',
  );
  assert.equal((await get('/echo')).status, 200);
  assert.deepEqual((await get('/query/g/sums?rounds=1')).body.results, [{ '@@each': [N] }]);
});

test('a query past the memory limit ends with a clear error; the next query runs', async () => {
  const r = await get('/query/g/hog', { 'GSQL-TIMEOUT': '120000' });
  assert.equal(r.status, 500);
  assert.equal(r.body.error, true);
  assert.equal(r.body.code, 'SYS-0002');
  assert.equal(
    r.body.message,
    'Runtime Error: The query ran out of memory (the limit is 32 MB per query, --query-memory-mb) and was stopped.',
  );
  assert.equal((await get('/echo')).status, 200);
  const next = await get('/query/g/sums?rounds=1');
  assert.deepEqual(next.body.results, [{ '@@each': [N] }]);
});

test('GSQL-QueryLocalMemLimitMB below --query-memory-mb stops a query at its own limit on a worker of its own', async () => {
  const pool = poolFor(db);
  assert.ok(pool);
  const started = pool.stats.started;
  const r = await get('/query/g/hog', { 'GSQL-TIMEOUT': '120000', 'GSQL-QueryLocalMemLimitMB': '20' });
  assert.equal(r.status, 500);
  assert.equal(r.body.error, true);
  assert.equal(r.body.code, 'SYS-0002');
  assert.equal(
    r.body.message,
    'Runtime Error: The query ran out of memory (the limit is 20 MB per query, GSQL-QueryLocalMemLimitMB) and was stopped.',
  );
  assert.equal(pool.stats.started, started + 1, 'one worker was started for the query');
  assert.equal((await get('/echo')).status, 200);
  // A query within its own limit answers as usual, on a worker of its own too.
  const ok = await get('/query/g/sums?rounds=2', { 'GSQL-QueryLocalMemLimitMB': '28.5' });
  assert.deepEqual(ok.body.results, [{ '@@each': [N, N] }]);
  assert.equal(pool.stats.started, started + 2);
  // Above the server's limit (and 0) the server's limit applies: the pool's workers run it.
  const capped = await get('/query/g/hog', { 'GSQL-TIMEOUT': '120000', 'GSQL-QueryLocalMemLimitMB': '4096' });
  assert.equal(capped.body.code, 'SYS-0002');
  assert.equal(
    capped.body.message,
    'Runtime Error: The query ran out of memory (the limit is 32 MB per query, --query-memory-mb) and was stopped.',
  );
  const zero = await get('/query/g/sums?rounds=1', { 'GSQL-QueryLocalMemLimitMB': '0' });
  assert.deepEqual(zero.body.results, [{ '@@each': [N] }]);
  const bad = await get('/query/g/sums?rounds=1', { 'GSQL-QueryLocalMemLimitMB': '-3' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'REST-30001');
});

test('queries with a heap limit of their own wait for a turn: at most --threads such workers at once', async () => {
  const pool = poolFor(db);
  assert.ok(pool);
  let most = 0;
  const watch = setInterval(() => {
    most = Math.max(most, pool.ownWorkers);
  }, 1);
  try {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => get('/query/g/sums?rounds=2', { 'GSQL-QueryLocalMemLimitMB': '28.5' })),
    );
    for (const a of answers) assert.deepEqual(a.body.results, [{ '@@each': [N, N] }]);
  } finally {
    clearInterval(watch);
  }
  assert.ok(most >= 1, 'the queries ran on workers of their own');
  assert.ok(most <= pool.threads, `at most ${pool.threads} at once, saw ${most}`);
  assert.equal(pool.ownWorkers, 0);
});

test('a query reads the version it started at while writes commit', async () => {
  const rounds = 300;
  const running = get(`/query/g/sums?rounds=${rounds}`, { 'GSQL-TIMEOUT': '120000' });
  // Meanwhile every x becomes 2, one write at a time.
  for (let i = 0; i < N; i += 50) {
    await db.write((tx) => {
      for (let j = i; j < i + 50; j++) tx.upsertVertex('P', j, { x: { value: 2, op: 'set' } });
    });
  }
  const r = await running;
  const each = (r.body.results as { '@@each': number[] }[])[0]['@@each'];
  assert.equal(each.length, rounds);
  // One snapshot: every round saw the same sum, that of the version the query pinned when it began
  // (it may begin after some writes committed: a whole number of 50-vertex writes, never part of one).
  assert.equal(new Set(each).size, 1, `rounds saw ${[...new Set(each)].join(', ')}`);
  const committed = each[0] - N;
  assert.ok(committed >= 0 && committed <= N && committed % 50 === 0, `sum ${each[0]}`);
  assert.deepEqual((await get('/query/g/sums?rounds=1')).body.results, [{ '@@each': [2 * N] }]);
  assert.ok(registryFor(db).get('g', 'sums'));
});

test('GraphQL point lookups and mutations run on the event loop, other queries on a worker', async () => {
  const pool = poolFor(db);
  assert.ok(pool);
  const post = async (query: string): Promise<unknown> => {
    const r = await fetch(`${s.urls.gsql}/api/graphql/gsql/g`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: BASIC },
      body: JSON.stringify({ query }),
    });
    return r.json();
  };
  let before = pool.stats.tasks;
  assert.deepEqual(await post('{ g { P(where: { _id: { _eq: "3" } }) { _id x } } }'), {
    data: { g: { P: [{ _id: 3, x: 2 }] } },
  });
  assert.deepEqual(await post('{ g { P(where: { _id: { _in: ["3", "4"] } }) { _id } } }'), {
    data: { g: { P: [{ _id: 3 }, { _id: 4 }] } },
  });
  assert.equal(pool.stats.tasks, before, 'point lookups by id ran inline');

  // A scan of every P (cost N) and a walk over edges from one id run on a worker.
  before = pool.stats.tasks;
  const all = (await post('{ g { P { _id } } }')) as { data: { g: { P: unknown[] } } };
  assert.equal(all.data.g.P.length, N);
  assert.equal(pool.stats.tasks, before + 1, 'a scan ran on a worker');
  assert.deepEqual(await post('{ g { P(where: { _id: { _eq: "3" } }) { _id E { to { _id } } } } }'), {
    data: { g: { P: [{ _id: 3, E: [] }] } },
  });
  assert.equal(pool.stats.tasks, before + 2, 'an edge field ran on a worker');

  before = pool.stats.tasks;
  const m = (await post('mutation { g { insert_P(objects: [{ id: 5000, x: 9 }]) { _id } } }')) as {
    data?: unknown;
    errors?: unknown;
  };
  assert.equal(m.errors, undefined, JSON.stringify(m));
  assert.equal(pool.stats.tasks, before, 'the mutation ran where the writer is');
  assert.deepEqual((await get('/graph/g/vertices/P/5000')).body.results, [
    { v_id: '5000', v_type: 'P', attributes: { x: 9 } },
  ]);
});
