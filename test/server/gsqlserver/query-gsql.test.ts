import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, seed, startHarness, type Harness } from '../restpp/graph-harness.js';

let h: Harness;
let gsql: string;

const SIG = `CREATE QUERY sig(INT a, SET<STRING> b, VERTEX<vertex4> v, DATETIME d) FOR GRAPH tests {
  SumAccum<INT> @@summa;
  SetAccum<VERTEX> @@vs;
  S = {vertex4.*};
  @@summa += a;
  PRINT @@summa AS ret;
  PRINT @@vs, S.size(), b;
}`;

before(async () => {
  h = await startHarness();
  gsql = h.servers.urls.gsql;
  await seed(h);
});
after(async () => h.close());

type Rec = Record<string, unknown>;

test('4.x create, list, read a query', async () => {
  const created = await call(gsql, 'POST', '/gsql/v1/queries?graph=tests', SIG);
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.error, false);
  assert.equal(created.body.message, 'Successfully created queries: [sig].');
  const list = await call(gsql, 'GET', '/gsql/v1/queries?graph=tests');
  assert.deepEqual(list.body.results, ['sig']);
  const one = await call(gsql, 'GET', '/gsql/v1/queries/sig?graph=tests');
  assert.deepEqual(one.body, {
    error: false,
    message: '',
    queryContent: SIG,
    name: 'sig',
    syntax: 'GSQL v2',
    status: 'VALID',
    installed: false,
  });
  const bad = await call(
    gsql,
    'POST',
    '/gsql/v1/queries?graph=tests',
    'CREATE QUERY x() FOR GRAPH tests { PRINT nope; }',
  );
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'REST-30000');
  assert.match(bad.body.message as string, /Semantic Check Error/);
  const notQuery = await call(gsql, 'POST', '/gsql/v1/queries?graph=tests', 'DROP ALL');
  assert.equal(notQuery.body.error, true);
  const unknown = await call(gsql, 'GET', '/gsql/v1/queries/nope?graph=tests');
  assert.equal(unknown.body.message, 'The query nope does not exist in graph tests.');
});

test('queryinfo and signature: ordered input, output following the PRINTs', async () => {
  const expected = {
    output: [{ ret: 'int' }, { '@@vs': 'SetAccum<vertex>' }, { 'S.size()': 'int' }, { b: 'set<string>' }],
    input: [{ a: 'int' }, { b: 'set<string>' }, { v: 'vertex<vertex4>' }, { d: 'datetime' }],
    queryname: 'sig',
    error: false,
    message: '',
    version: { schema: 0, edition: 'enterprise', api: 'V2' },
  };
  const info = await call(gsql, 'GET', '/gsqlserver/gsql/queryinfo?graph=tests&query=sig');
  assert.deepEqual(info.body, expected);
  for (const method of ['GET', 'POST']) {
    const sig = await call(gsql, method, '/gsql/v1/queries/signature?graph=tests&queryName=sig');
    assert.deepEqual(sig.body, expected);
  }
  const noQuery = await call(gsql, 'GET', '/gsqlserver/gsql/queryinfo?graph=tests');
  assert.equal(noQuery.body.message, "The parameter 'query' is required.");
  const noGraph = await call(gsql, 'GET', '/gsqlserver/gsql/queryinfo?query=sig');
  assert.equal(noGraph.body.message, "The parameter 'graph' is required.");
  const badGraph = await call(gsql, 'GET', '/gsqlserver/gsql/queryinfo?graph=nope&query=sig');
  assert.equal(badGraph.body.code, 'REST-1004');
  const noAuth = await fetch(`${gsql}/gsqlserver/gsql/queryinfo?graph=tests&query=sig`);
  assert.equal(noAuth.status, 401);
  const info4 = await call(gsql, 'GET', '/gsql/v1/queries/info?graph=tests');
  const [row] = info4.body.results as Rec[];
  assert.equal(row.name, 'sig');
  assert.equal(row.status, 'VALID');
  assert.equal(row.installed, false);
  assert.equal(row.syntax, 'GSQL v2');
  assert.deepEqual(row.output, expected.output);
  const names = async (status: string) =>
    (
      (await call(gsql, 'GET', `/gsql/v1/queries/info?graph=tests&status=${status}`)).body.results as Rec[]
    ).map((r) => r.name);
  assert.deepEqual(await names('installed'), []);
  assert.deepEqual(await names('VALID'), ['sig']);
  assert.deepEqual(await names('valid'), ['sig']);
  assert.deepEqual(await names('INVALID'), []);
  assert.equal(
    (await call(gsql, 'GET', '/gsql/v1/queries/info?graph=tests&status=odd')).body.code,
    'REST-30001',
  );
});

test('interpreted queries (3.x and 4.x) answer the query envelope', async () => {
  const text = 'INTERPRET QUERY (INT a, STRING s) FOR GRAPH tests { PRINT a + 1 AS b, s; }';
  for (const url of ['/gsqlserver/interpreted_query', '/gsql/v1/queries/interpret']) {
    const r = await call(gsql, 'POST', `${url}?a=5&s=x%20y`, text);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      version: { edition: 'enterprise', api: 'v2', schema: 0 },
      error: false,
      message: '',
      results: [{ b: 6, s: 'x y' }],
      code: 'REST-0000',
    });
  }
  const syntax = await call(gsql, 'POST', '/gsqlserver/interpreted_query', 'INTERPRET QUERY ( FOR');
  assert.equal(syntax.status, 400);
  assert.equal(syntax.body.code, 'REST-30000');
  assert.match(syntax.body.message as string, /Syntax Error: line 1/);
  const empty = await call(gsql, 'POST', '/gsqlserver/interpreted_query', '');
  assert.equal(empty.body.code, 'REST-30000');
  assert.match(empty.body.message as string, /must be the query text/);
  const badParam = await call(gsql, 'POST', '/gsqlserver/interpreted_query?a=x', text);
  assert.equal(badParam.body.code, 'REST-30000');
  assert.match(badParam.body.message as string, /parameter a/);
  const badGraph = await call(
    gsql,
    'POST',
    '/gsqlserver/interpreted_query',
    'INTERPRET QUERY () FOR GRAPH nope { PRINT 1; }',
  );
  assert.equal(badGraph.body.code, 'REST-1004');
  const spin = 'INTERPRET QUERY () FOR GRAPH tests { SumAccum<INT> @@n; WHILE true DO @@n += 1; END; }';
  const slow = await call(gsql, 'POST', '/gsql/v1/queries/interpret', spin, { 'GSQL-TIMEOUT': '100' });
  assert.equal(slow.status, 408);
  assert.equal(slow.body.code, 'REST-3000');
  const detached = await call(gsql, 'POST', '/gsql/v1/queries/interpret?a=1', text, { 'GSQL-ASYNC': 'true' });
  assert.match(detached.body.request_id as string, /RESTPP_1_1/);
});

test('query descriptions round-trip', async () => {
  const put = await call(gsql, 'PUT', '/gsql/v1/description?graph=tests', {
    queries: [
      {
        queryName: 'sig',
        description: 'sums a',
        parameters: [
          { paramName: 'v', description: 'a vertex' },
          { paramName: 'a', description: 'the number' },
        ],
      },
    ],
  });
  assert.equal(put.body.error, false, put.text);
  const got = await call(gsql, 'GET', '/gsql/v1/description?graph=tests&query=sig');
  assert.deepEqual((got.body.results as Rec).queries, [
    {
      queryName: 'sig',
      description: 'sums a',
      parameters: [
        { paramName: 'a', description: 'the number' },
        { paramName: 'v', description: 'a vertex' },
      ],
    },
  ]);
  const badParam = await call(gsql, 'PUT', '/gsql/v1/description?graph=tests', {
    queries: [
      { queryName: 'sig', description: 'changed', parameters: [{ paramName: 'zz', description: '' }] },
    ],
  });
  assert.equal(badParam.body.message, 'The query sig has no parameter zz.');
  const drop = await call(gsql, 'DELETE', '/gsql/v1/description?graph=tests', {
    queries: ['sig'],
    queryParameters: ['sig.*'],
  });
  assert.equal(drop.body.error, false);
  const after = await call(gsql, 'GET', '/gsql/v1/description?graph=tests&query=all');
  assert.deepEqual((after.body.results as Rec).queries, [{ queryName: 'sig', parameters: [] }]);
  const notJson = await call(gsql, 'PUT', '/gsql/v1/description?graph=tests', '[1]');
  assert.equal(notJson.body.code, 'REST-30000');
});

test('4.x drop: all named queries must exist', async () => {
  await call(
    gsql,
    'POST',
    '/gsql/v1/queries?graph=tests',
    'CREATE QUERY gone() FOR GRAPH tests { PRINT 1 AS one; }',
  );
  const partial = await call(gsql, 'DELETE', '/gsql/v1/queries?graph=tests&query=gone&query=nope');
  assert.equal(partial.body.error, true);
  assert.deepEqual((await call(gsql, 'GET', '/gsql/v1/queries?graph=tests')).body.results, ['sig', 'gone']);
  const one = await call(gsql, 'DELETE', '/gsql/v1/queries/gone?graph=tests');
  assert.equal(one.body.message, "Successfully dropped queries on the graph 'tests': [gone].");
  assert.deepEqual(one.body.dropped, ['gone']);
  assert.deepEqual(one.body.failedToDrop, []);
  assert.deepEqual((await call(gsql, 'GET', '/gsql/v1/queries?graph=tests')).body.results, ['sig']);
  const again = await call(gsql, 'DELETE', '/gsql/v1/queries/gone?graph=tests');
  assert.equal(again.status, 400);
  assert.equal(again.body.error, true);
});

test('semantic check: errors and warnings, never an error envelope for a faulty query', async () => {
  const ok = await call(gsql, 'POST', '/gsql/v1/internal/check/query?graph=tests', {
    code: 'CREATE QUERY fine() FOR GRAPH tests { PRINT 1 AS one; }',
  });
  assert.deepEqual(ok.body, { error: false, message: '', warnings: [], errors: [] });
  const faulty = await call(gsql, 'POST', '/gsql/v1/internal/check/query?graph=tests', {
    code: 'CREATE QUERY broken() FOR GRAPH tests { PRINT nope; }',
  });
  assert.equal(faulty.status, 200);
  assert.equal(faulty.body.error, false);
  const [err] = faulty.body.errors as { message: string }[];
  assert.match(err.message, /Semantic Check Error/);
  const syntax = await call(gsql, 'POST', '/gsql/v1/internal/check/query?graph=tests', {
    code: 'CREATE QUERY (',
  });
  assert.match((syntax.body.errors as { message: string }[])[0].message, /Syntax Error/);
  const noCode = await call(gsql, 'POST', '/gsql/v1/internal/check/query?graph=tests', { text: 'x' });
  assert.equal(noCode.body.code, 'REST-30000');
  assert.deepEqual((await call(gsql, 'GET', '/gsql/v1/queries?graph=tests')).body.results, ['sig']);
});
