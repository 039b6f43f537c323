import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseQueryText } from '../../../src/gsql/parser-query.js';
import { registryFor } from '../../../src/query/index.js';
import { waitFor } from '../../timing.js';
import { call, seed, startHarness, type Harness } from '../restpp/graph-harness.js';

let h: Harness;
let admin: string;
let gsql: string;

async function create(text: string): Promise<void> {
  const [stmt] = parseQueryText(text);
  if (stmt.kind !== 'createQuery') throw new Error('expected CREATE QUERY');
  await registryFor(h.db).create(stmt.query, 'tests', h.db.catalog, true);
}

before(async () => {
  h = await startHarness();
  admin = h.servers.urls.admin;
  gsql = h.servers.urls.gsql;
  await seed(h);
  await create('CREATE QUERY a() FOR GRAPH tests { PRINT 1 AS one; }');
  await create('CREATE QUERY b(INT x) FOR GRAPH tests { PRINT x AS x; }');
  await create('CREATE QUERY c() FOR GRAPH tests { PRINT 3 AS three; }');
  await create('CREATE QUERY spin() FOR GRAPH tests { SumAccum<INT> @@n; WHILE true DO @@n += 1; END; }');
});
after(async () => h.close());

type Rec = Record<string, unknown>;

function finalState(base: string, location: string): Promise<Rec> {
  return waitFor(`install ${location} to finish`, async () => {
    const r = await call(base, 'GET', location);
    assert.equal(r.status, 200, r.text);
    return (r.body.state === 'SUCCESS' || r.body.state === 'FAILURE') && r.body;
  });
}

test('3.x: POST /gsql/queries/install with repeated names, then its status', async () => {
  const r = await call(
    admin,
    'POST',
    '/gsql/queries/install?graph=tests&queries=a&queries=b&queries=missing',
  );
  assert.equal(r.status, 200, r.text);
  const location = r.body.location as string;
  assert.match(location, /^\/gsql\/queries\/install\/\d+$/);
  const id = location.split('/').pop() ?? '';
  assert.deepEqual(r.body, {
    location,
    error: false,
    message: `Request ${id} successfully created`,
    results: '',
  });
  const done = await finalState(admin, location);
  // SUCCESS: every query had its chance, even though one could not be installed.
  assert.equal(done.state, 'SUCCESS');
  assert.equal(done.graph, 'tests');
  assert.equal(done.error, false);
  const queries = done.queries as Rec[];
  assert.deepEqual(
    queries.map((q) => [q.name, q.state]),
    [
      ['a', 'SUCCESS'],
      ['b', 'SUCCESS'],
      ['missing', 'FAILED'],
    ],
  );
  assert.match(queries[2].message as string, /missing does not exist/);
  assert.deepEqual((await call(h.rest, 'GET', '/query/tests/b?x=4')).body.results, [{ x: 4 }]);
});

test('3.x: * installs every query not installed yet', async () => {
  const r = await call(admin, 'POST', '/gsql/queries/install?graph=tests&queries=*');
  const done = await finalState(admin, r.body.location as string);
  assert.equal(done.state, 'SUCCESS');
  assert.deepEqual((done.queries as Rec[]).map((q) => q.name).sort(), ['c', 'spin']);
  assert.deepEqual((await call(h.rest, 'GET', '/query/tests/c')).body.results, [{ three: 3 }]);
});

test('an install request waits (NEW) while a query of its graph runs', async () => {
  // spin runs until it is aborted below (the timeout is only a backstop).
  const running = call(h.rest, 'GET', '/query/tests/spin', undefined, { 'GSQL-TIMEOUT': '600000' });
  await waitFor(
    'the query to start',
    async () => ((await call(h.rest, 'GET', '/showprocesslist/tests')).body.results as Rec[]).length > 0,
  );
  const r = await call(admin, 'POST', '/gsql/queries/install?graph=tests&queries=a&force=true');
  const location = r.body.location as string;
  const waiting = await call(admin, 'GET', location);
  assert.equal(waiting.body.state, 'NEW');
  assert.deepEqual(waiting.body.queries, [{ name: 'a', state: 'NEW' }]);
  assert.equal((await call(admin, 'GET', location)).body.state, 'NEW', 'still waiting');
  await call(h.rest, 'GET', '/abortquery/tests?requestid=all');
  assert.equal((await running).body.code, 'REST-12002');
  assert.equal((await finalState(admin, location)).state, 'SUCCESS');
});

test('3.x: bad install requests', async () => {
  const noGraph = await call(admin, 'POST', '/gsql/queries/install?queries=a');
  assert.equal(noGraph.status, 400);
  assert.equal(noGraph.body.message, "The parameter 'graph' is required.");
  const badGraph = await call(admin, 'POST', '/gsql/queries/install?graph=nope&queries=a');
  assert.equal(badGraph.body.code, 'REST-1004');
  assert.equal(badGraph.body.message, 'The graph nope does not exist.');
  const noQueries = await call(admin, 'POST', '/gsql/queries/install?graph=tests');
  assert.equal(noQueries.body.code, 'REST-30001');
  const unknown = await call(admin, 'GET', '/gsql/queries/install/999999');
  assert.equal(unknown.body.error, true);
  assert.equal(unknown.body.message, 'The query installation request 999999 does not exist.');
  const noAuth = await fetch(`${admin}/gsql/queries/install?graph=tests&queries=a`, { method: 'POST' });
  assert.equal(noAuth.status, 401);
});

test('4.x: GET /gsql/v1/queries/install with a comma list and -force; status by requestId', async () => {
  const r = await call(gsql, 'GET', '/gsql/v1/queries/install?graph=tests&queries=a,c&flag=-force');
  assert.equal(r.status, 200, r.text);
  const id = r.body.requestId as string;
  assert.equal(r.body.error, false);
  assert.equal(r.body.message, `Query installation request ${id} SUCCESS`);
  const s = await call(gsql, 'GET', `/gsql/v1/queries/install/${id}`);
  assert.deepEqual(s.body, {
    error: false,
    message: `Query installation request ${id} SUCCESS`,
    requestId: id,
    results: {
      requestId: id,
      graph: 'tests',
      state: 'SUCCESS',
      queries: [
        { name: 'a', state: 'SUCCESS' },
        { name: 'c', state: 'SUCCESS' },
      ],
    },
  });
  const all = await call(gsql, 'GET', '/gsql/v1/queries/install?graph=tests&queries=all');
  assert.match(all.body.message as string, /SUCCESS/);
  const badFlag = await call(gsql, 'GET', '/gsql/v1/queries/install?graph=tests&queries=a&flag=-fast');
  assert.equal(badFlag.body.code, 'REST-30001');
  assert.match(badFlag.body.message as string, /-fast/);
  const unknown = await call(gsql, 'GET', '/gsql/v1/queries/install/424242');
  assert.equal(unknown.body.error, true);
});
