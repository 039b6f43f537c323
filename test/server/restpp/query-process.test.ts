import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseQueryText } from '../../../src/gsql/parser-query.js';
import { registryFor } from '../../../src/query/index.js';
import { scaled, waitFor } from '../../timing.js';
import { call, seed, startHarness, type Harness, type Reply } from './graph-harness.js';

let h: Harness;

async function addQuery(text: string): Promise<void> {
  const [stmt] = parseQueryText(text);
  if (stmt.kind !== 'createQuery') throw new Error('expected CREATE QUERY');
  await registryFor(h.db).create(stmt.query, 'tests', h.db.catalog, true);
  await registryFor(h.db).install('tests', [stmt.query.name], h.db.catalog, true);
}

before(async () => {
  h = await startHarness();
  await seed(h);
  await addQuery(
    'CREATE QUERY spin() FOR GRAPH tests { SumAccum<INT> @@n; WHILE true DO @@n += 1; END; PRINT @@n; }',
  );
  await addQuery(`CREATE QUERY writeSpin() FOR GRAPH tests {
    SumAccum<INT> @@n;
    INSERT INTO vertex4 VALUES (900, 9);
    WHILE true DO @@n += 1; END;
  }`);
  await addQuery(
    'CREATE QUERY writeOnce() FOR GRAPH tests { INSERT INTO vertex4 VALUES (901, 9); PRINT 1 AS one; }',
  );
  await addQuery('CREATE QUERY half(INT x) FOR GRAPH tests { PRINT x / 2 AS r; }');
});
after(async () => h.close());

const REQUEST_ID = /^\d+\.RESTPP_1_1\.\d{13}\.N$/;
const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/;

/** Polls until `probe` returns a value (bounded: a test fails rather than hangs). */
function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  return waitFor(what, probe);
}

type Rec = Record<string, unknown>;

async function runningOne(): Promise<Rec> {
  return until(async () => {
    const list = (await call(h.rest, 'GET', '/showprocesslist/tests')).body.results as Rec[];
    return list.length > 0 ? list[0] : undefined;
  }, 'a running query');
}

test('nothing running: empty process list, abort all aborts nothing', async () => {
  const list = await call(h.rest, 'GET', '/showprocesslist/tests');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.results, []);
  assert.equal(list.body.code, 'REST-0000');
  const abort = await call(h.rest, 'GET', '/abortquery/tests?requestid=all');
  assert.deepEqual(abort.body.results, [{ aborted_queries: [] }]);
  const none = await call(h.rest, 'GET', '/abortquery/tests');
  assert.equal(none.status, 400);
  assert.equal(none.body.code, 'REST-30001');
  const badRegex = await call(h.rest, 'GET', '/abortquery/tests?url=%28');
  assert.equal(badRegex.body.code, 'REST-30001');
  assert.match(badRegex.body.message as string, /not a valid regular expression/);
  assert.equal((await call(h.rest, 'GET', '/showprocesslist/nope')).body.code, 'REST-1004');
});

test('GSQL-TIMEOUT stops a running query with REST-3000', async () => {
  // spin never ends by itself: an answer at all shows the timeout stopped it.
  const r = await call(h.rest, 'GET', '/query/tests/spin', undefined, { 'GSQL-TIMEOUT': '200' });
  assert.equal(r.status, 408);
  assert.equal(r.body.code, 'REST-3000');
  assert.match(r.body.message as string, /timeout of 200 ms/);
  assert.deepEqual((await call(h.rest, 'GET', '/showprocesslist/tests')).body.results, []);
});

test('a query aborted mid-run stops at once and commits nothing', async () => {
  const pending = call(h.rest, 'POST', '/query/tests/writeSpin');
  const rec = await runningOne();
  assert.match(rec.requestid as string, REQUEST_ID);
  assert.match(rec.startTime as string, TIME);
  assert.match(rec.expirationTime as string, TIME);
  assert.equal(rec.url, '/query/tests/writeSpin');
  assert.equal(typeof rec.elapsedTime, 'number');
  const abort = await call(h.rest, 'GET', `/abortquery/tests?requestid=${rec.requestid as string}`);
  assert.deepEqual(abort.body.results, [
    { aborted_queries: [{ requestid: rec.requestid, url: '/query/tests/writeSpin' }] },
  ]);
  // writeSpin never ends by itself: an answer at all shows the abort stopped it.
  const r: Reply = await pending;
  assert.equal(r.body.error, true);
  assert.equal(r.body.code, 'REST-12002');
  assert.match(r.body.message as string, /aborted/);
  const v = await call(h.rest, 'GET', '/graph/tests/vertices/vertex4/900');
  assert.equal(v.body.error, true);
  // The same INSERT in a query that ends is committed.
  assert.equal((await call(h.rest, 'GET', '/query/tests/writeOnce')).body.error, false);
  const written = await call(h.rest, 'GET', '/graph/tests/vertices/vertex4/901');
  assert.equal((written.body.results as Rec[])[0].v_id, '901');
  assert.deepEqual((await call(h.rest, 'GET', '/showprocesslist/tests')).body.results, []);
});

test('abort by url pattern, on the graph named only', async () => {
  const pending = call(h.restpp, 'GET', '/query/tests/spin');
  const rec = await runningOne();
  const otherGraph = await call(h.rest, 'GET', '/abortquery/other?requestid=all');
  assert.deepEqual(otherGraph.body.results, [{ aborted_queries: [] }]);
  const abort = await call(h.rest, 'GET', '/abortquery/tests?url=/query/tests/sp.*');
  assert.deepEqual(abort.body.results, [
    { aborted_queries: [{ requestid: rec.requestid, url: '/query/tests/spin' }] },
  ]);
  assert.equal((await pending).body.code, 'REST-12002');
});

test('detached mode: request id, status, result', async () => {
  const r = await call(h.rest, 'GET', '/query/tests/half?x=10', undefined, { 'GSQL-ASYNC': 'true' });
  assert.equal(r.status, 200);
  assert.equal(r.body.error, false);
  const id = r.body.request_id as string;
  assert.match(id, REQUEST_ID);
  const status = await until(async () => {
    const s = await call(h.rest, 'GET', `/query_status?graph_name=tests&requestid=${id}`);
    const [rec] = s.body.results as Rec[];
    return rec.status === 'running' ? undefined : rec;
  }, 'the detached query');
  assert.equal(status.status, 'success');
  assert.equal(status.requestid, id);
  assert.equal(status.url, '/query/tests/half?x=10');
  assert.match(status.startTime as string, TIME);
  assert.equal(typeof status.elapsedTime, 'number');
  const result = await call(h.rest, 'GET', `/query_result?graph_name=tests&requestid=${id}`);
  assert.deepEqual(result.body, {
    version: { edition: 'enterprise', api: 'v2', schema: 0 },
    error: false,
    message: '',
    results: [{ r: 5 }],
    code: 'REST-0000',
  });
  const all = await call(h.rest, 'GET', '/query_status?graph_name=tests&requestid=all');
  assert.ok((all.body.results as Rec[]).some((x) => x.requestid === id));
  const byDefaultGraph = await call(h.rest, 'GET', '/query_status');
  assert.ok((byDefaultGraph.body.results as Rec[]).some((x) => x.requestid === id));
  const unknown = await call(
    h.rest,
    'GET',
    `/query_status?graph_name=tests&requestid=${id}&requestid=1.RESTPP_1_1.1.N`,
  );
  assert.deepEqual(unknown.body.unknown_requestid, ['1.RESTPP_1_1.1.N']);
  assert.equal((unknown.body.results as Rec[]).length, 1);
  const badGraph = await call(h.rest, 'GET', '/query_status?graph_name=nope');
  assert.equal(badGraph.body.code, 'REST-1004');
});

test('detached: running, aborted and timed-out queries; result errors', async () => {
  const r = await call(h.rest, 'POST', '/query/tests/spin', undefined, { 'GSQL-ASYNC': 'True' });
  const id = r.body.request_id as string;
  const running = await call(h.rest, 'GET', `/query_status?graph_name=tests&requestid=${id}`);
  assert.equal((running.body.results as Rec[])[0].status, 'running');
  const early = await call(h.rest, 'GET', `/query_result?requestid=${id}`);
  assert.equal(early.body.error, true);
  assert.equal(early.body.message, `Unable to retrieve result for query ${id}: the query is still running.`);
  await call(h.rest, 'GET', `/abortquery/tests?requestid=${id}`);
  const aborted = await until(async () => {
    const s = await call(h.rest, 'GET', `/query_status?graph_name=tests&requestid=${id}`);
    const [rec] = s.body.results as Rec[];
    return rec.status === 'running' ? undefined : rec;
  }, 'the abort');
  assert.equal(aborted.status, 'aborted');
  assert.equal((await call(h.rest, 'GET', `/query_result?requestid=${id}`)).body.code, 'REST-12002');

  const t = await call(h.rest, 'GET', '/query/tests/spin', undefined, {
    'GSQL-ASYNC': 'true',
    'GSQL-TIMEOUT': '50',
  });
  const tid = t.body.request_id as string;
  const timedOut = await until(async () => {
    const s = await call(h.rest, 'GET', `/query_status?graph_name=tests&requestid=${tid}`);
    const [rec] = s.body.results as Rec[];
    return rec.status === 'running' ? undefined : rec;
  }, 'the timeout');
  assert.equal(timedOut.status, 'timeout');
  assert.equal((await call(h.rest, 'GET', `/query_result?requestid=${tid}`)).body.code, 'REST-3000');

  const missing = await call(h.rest, 'GET', '/query_result');
  assert.equal(missing.status, 400);
  assert.equal(missing.body.message, "The parameter 'requestid' is required.");
  const unknown = await call(h.rest, 'GET', '/query_result?requestid=7.RESTPP_1_1.1.N');
  assert.equal(unknown.body.code, 'REST-30001');
  assert.match(unknown.body.message as string, /no detached query has this request id/);
});

test('closing the servers stops running queries at once', { timeout: scaled(120_000) }, async () => {
  // close() would wait 10 minutes for requests in flight, and the queries never end by themselves:
  // the test ends only if close() stops them.
  const other = await startHarness({ closeGraceMs: 600_000 });
  const [stmt] = parseQueryText(
    'CREATE QUERY spin() FOR GRAPH tests { SumAccum<INT> @@n; WHILE true DO @@n += 1; END; }',
  );
  if (stmt.kind !== 'createQuery') throw new Error('expected CREATE QUERY');
  await registryFor(other.db).create(stmt.query, 'tests', other.db.catalog, true);
  await registryFor(other.db).install('tests', ['spin'], other.db.catalog, true);
  const detached = await call(other.rest, 'GET', '/query/tests/spin', undefined, {
    'GSQL-ASYNC': 'true',
    'GSQL-TIMEOUT': '600000',
  });
  assert.equal(detached.body.error, false);
  const pending = call(other.rest, 'GET', '/query/tests/spin', undefined, { 'GSQL-TIMEOUT': '600000' });
  await waitFor(
    'both queries to start',
    async () => ((await call(other.rest, 'GET', '/showprocesslist/tests')).body.results as Rec[]).length >= 2,
  );
  await other.close();
  assert.equal((await pending).body.code, 'REST-12002');
});
