import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseQueryText } from '../../../src/gsql/parser-query.js';
import { registryFor } from '../../../src/query/index.js';
import { call, seed, startHarness, type Harness } from './graph-harness.js';

let h: Harness;

/** Creates (and by default installs) a query of graph `tests`. */
export async function addQuery(hh: Harness, text: string, install = true): Promise<void> {
  const [stmt] = parseQueryText(text);
  if (stmt.kind !== 'createQuery') throw new Error('expected CREATE QUERY');
  const registry = registryFor(hh.db);
  await registry.create(stmt.query, 'tests', hh.db.catalog, true);
  if (install) await registry.install('tests', [stmt.query.name], hh.db.catalog, true);
}

const ECHO = `CREATE QUERY echo(INT i, STRING s, BOOL b, DOUBLE f, DATETIME d, SET<INT> si, BAG<STRING> bs,
  VERTEX<vertex4> v, VERTEX vv, SET<VERTEX<vertex4>> sv, SET<VERTEX> svv) FOR GRAPH tests {
  PRINT i, s, b, f, d;
  PRINT si, bs;
  PRINT v, vv, sv, svv;
}`;

before(async () => {
  h = await startHarness();
  await seed(h);
  await addQuery(h, ECHO);
  await addQuery(h, 'CREATE QUERY notInstalled() FOR GRAPH tests { PRINT 1 AS one; }', false);
  await addQuery(h, 'CREATE QUERY fails(INT x) FOR GRAPH tests { PRINT 10 / x AS r; }');
});
after(async () => h.close());

test('GET runs an installed query with every query-string form', async () => {
  const qs =
    'i=-7&s=a%25b%2B%20c&b=True&f=2.5&d=2024-06-15%2012%3A30%3A45&si=1&si=2&si=2&bs=x&bs=x' +
    '&v=1&vv=2&vv.type=vertex5&sv=1&sv=3&svv%5B0%5D=4&svv%5B0%5D.type=vertex4&svv%5B1%5D=5&svv%5B1%5D.type=vertex5';
  for (const base of [h.rest, h.restpp]) {
    const r = await call(base, 'GET', `/query/tests/echo?${qs}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.error, false);
    assert.equal(r.body.code, 'REST-0000');
    const results = r.body.results as Record<string, unknown>[];
    assert.deepEqual(results[0], { i: -7, s: 'a%b+ c', b: true, f: 2.5, d: '2024-06-15 12:30:45' });
    assert.deepEqual(results[1].bs, ['x', 'x']);
    assert.deepEqual([...(results[1].si as number[])].sort(), [1, 2]);
    assert.equal(results[2].v, '1');
    assert.equal(results[2].vv, '2');
    assert.deepEqual([...(results[2].sv as string[])].sort(), ['1', '3']);
    assert.deepEqual([...(results[2].svv as string[])].sort(), ['4', '5']);
  }
});

test('POST runs an installed query with the JSON forms; strings are percent-decoded, + kept', async () => {
  const r = await call(h.rest, 'POST', '/query/tests/echo', {
    i: 3,
    s: 'x%25y+z',
    b: false,
    f: 1,
    d: '2020-01-02 03:04:05',
    si: [5],
    bs: ['p'],
    v: { id: 2 },
    vv: { id: '3', type: 'vertex5' },
    sv: [{ id: 1 }, { id: 2, type: 'vertex4' }],
    svv: [{ id: 1, type: 'vertex5' }],
  });
  assert.equal(r.status, 200, r.text);
  const [scalars, collections, vertices] = r.body.results as Record<string, unknown>[];
  assert.deepEqual(scalars, { i: 3, s: 'x%y+z', b: false, f: 1, d: '2020-01-02 03:04:05' });
  assert.deepEqual(collections, { si: [5], bs: ['p'] });
  assert.deepEqual(
    { ...vertices, sv: [...(vertices.sv as string[])].sort() },
    {
      v: '2',
      vv: '3',
      sv: ['1', '2'],
      svv: ['1'],
    },
  );
});

test('POST with an empty body runs with no parameters', async () => {
  const r = await call(h.rest, 'POST', '/query/tests/fails');
  // x takes its zero value: the division fails at run time, reported in the envelope.
  assert.equal(r.body.error, true);
  assert.equal(typeof r.body.message, 'string');
  const ok = await call(h.rest, 'POST', '/query/tests/fails', { x: 5 });
  assert.deepEqual(ok.body.results, [{ r: 2 }]);
});

test('bad parameters are REST-30000 naming the parameter', async () => {
  const plain = await call(h.rest, 'POST', '/query/tests/echo', { v: 1 });
  assert.equal(plain.status, 400);
  assert.equal(plain.body.code, 'REST-30000');
  assert.match(plain.body.message as string, /'id' is not found in the VERTEX parameter v/);
  const wrongType = await call(h.rest, 'POST', '/query/tests/echo', { v: { id: 1, type: 'vertex5' } });
  assert.equal(wrongType.body.code, 'REST-30000');
  assert.match(wrongType.body.message as string, /vertex5/);
  const notInt = await call(h.rest, 'GET', '/query/tests/echo?i=abc');
  assert.equal(notInt.status, 400);
  assert.equal(notInt.body.code, 'REST-30000');
  assert.match(notInt.body.message as string, /parameter i/);
  const badJson = await call(h.rest, 'POST', '/query/tests/echo', '{"i": ');
  assert.equal(badJson.body.code, 'REST-30000');
  const notObject = await call(h.rest, 'POST', '/query/tests/echo', '[1]');
  assert.equal(notObject.body.code, 'REST-30000');
  const badBool = await call(h.rest, 'GET', '/query/tests/echo?read_committed=maybe');
  assert.equal(badBool.body.code, 'REST-30001');
  const rc = await call(h.rest, 'GET', '/query/tests/fails?x=1&read_committed=true');
  assert.deepEqual(rc.body.results, [{ r: 10 }]);
});

test('unknown graph, unknown or uninstalled query', async () => {
  const g = await call(h.rest, 'GET', '/query/nope/echo');
  assert.equal(g.status, 400);
  assert.equal(g.body.code, 'REST-1004');
  for (const name of ['missing', 'notInstalled']) {
    const r = await call(h.rest, 'GET', `/query/tests/${name}`);
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'REST-1000');
    assert.equal(
      r.body.message,
      `Endpoint is not found from url = /query/tests/${name}, please use GET /endpoints to list all valid endpoints.`,
    );
  }
});

test('the query headers: replica, thread limit, memory limit, response limit', async () => {
  const ok = await call(h.rest, 'GET', '/query/tests/fails?x=1', undefined, {
    'GSQL-REPLICA': '1',
    'GSQL-THREAD-LIMIT': '4',
    'GSQL-QueryLocalMemLimitMB': '100',
    'RESPONSE-LIMIT': '32000000.0',
    'GSQL-TIMEOUT': '5000',
  });
  assert.deepEqual(ok.body.results, [{ r: 10 }]);
  const replica = await call(h.rest, 'GET', '/query/tests/fails?x=1', undefined, { 'GSQL-REPLICA': '2' });
  assert.equal(replica.status, 400);
  assert.equal(replica.body.code, 'REST-30001');
  assert.match(replica.body.message as string, /GSQL-REPLICA/);
  const threads = await call(h.rest, 'GET', '/query/tests/fails?x=1', undefined, {
    'GSQL-THREAD-LIMIT': '0',
  });
  assert.equal(threads.body.code, 'REST-30001');
  assert.match(threads.body.message as string, /GSQL-THREAD-LIMIT/);
  const mem = await call(h.rest, 'GET', '/query/tests/fails?x=1', undefined, {
    'GSQL-QueryLocalMemLimitMB': 'lots',
  });
  assert.equal(mem.body.code, 'REST-30001');
  const asyncBad = await call(h.rest, 'GET', '/query/tests/fails?x=1', undefined, {
    'GSQL-ASYNC': 'perhaps',
  });
  assert.equal(asyncBad.body.code, 'REST-30001');
  const timeoutBad = await call(h.rest, 'GET', '/query/tests/fails?x=1', undefined, { 'GSQL-TIMEOUT': '-1' });
  assert.equal(timeoutBad.body.code, 'REST-30001');
  const full = await call(h.rest, 'GET', '/query/tests/fails?x=1');
  const size = Buffer.byteLength(full.text);
  const cut = await call(h.rest, 'GET', '/query/tests/fails?x=1', undefined, {
    'RESPONSE-LIMIT': String(size - 1),
  });
  assert.equal(cut.body.error, true);
  assert.equal(cut.body.code, 'REST-4000');
  assert.equal(
    cut.body.message,
    `The query response size is ${size} bytes, which exceeds limit ${size - 1} bytes.`,
  );
  const exact = await call(h.rest, 'GET', '/query/tests/fails?x=1', undefined, {
    'RESPONSE-LIMIT': String(size),
  });
  assert.deepEqual(exact.body.results, [{ r: 10 }]);
});

test('installed queries are dynamic endpoints with their parameters', async () => {
  const r = await call(h.rest, 'GET', '/endpoints/tests?dynamic=true');
  const eps = r.body as Record<string, { parameters: Record<string, { type: string; max_count: number }> }>;
  assert.ok(eps['GET /query/tests/echo']);
  assert.ok(eps['POST /query/tests/echo']);
  assert.ok(eps['GET /query/tests/fails']);
  assert.equal(eps['GET /query/tests/notInstalled'], undefined);
  assert.deepEqual(Object.keys(eps['GET /query/tests/echo'].parameters), [
    'i',
    's',
    'b',
    'f',
    'd',
    'si',
    'bs',
    'v',
    'vv',
    'sv',
    'svv',
  ]);
  assert.deepEqual(eps['GET /query/tests/echo'].parameters.i, { max_count: 1, min_count: 0, type: 'INT64' });
  assert.equal(eps['GET /query/tests/echo'].parameters.si.max_count, 2147483647);
  const other = await call(h.rest, 'GET', '/endpoints/other?dynamic=true');
  assert.equal((other.body as Record<string, unknown>)['GET /query/tests/echo'], undefined);
});

test('an installed query the schema no longer fits is a clear error (last: changes the schema)', async () => {
  await addQuery(
    h,
    'CREATE QUERY usesA() FOR GRAPH tests { S = {vertex4.*}; T = SELECT s FROM S:s WHERE s.a01 > 2; PRINT T.size() AS n; }',
  );
  assert.deepEqual((await call(h.rest, 'GET', '/query/tests/usesA')).body.results, [{ n: 3 }]);
  const c = h.db.catalog;
  await h.db.changeCatalog({
    ...c,
    vertexTypes: c.vertexTypes.map((v) =>
      v.name === 'vertex4' ? { ...v, attributes: v.attributes.filter((a) => a.name !== 'a01') } : v,
    ),
  });
  const r = await call(h.rest, 'GET', '/query/tests/usesA');
  assert.equal(r.status, 500);
  assert.equal(r.body.code, 'REST-10005');
  assert.match(
    r.body.message as string,
    /^The installed query usesA no longer fits the schema of graph tests; install it again\./,
  );
  assert.doesNotMatch(r.text, /at .*\.js:\d+/);
});

test('a VERTEX parameter left out is GSQL-1001, not a run from no vertex', async () => {
  await addQuery(
    h,
    'CREATE QUERY around(VERTEX<vertex4> p, INT n = 1) FOR GRAPH tests { S = {p}; PRINT S; }',
  );
  for (const [method, path, body] of [
    ['GET', '/query/tests/around', undefined],
    ['GET', '/query/tests/around?n=2', undefined],
    ['POST', '/query/tests/around', { n: 2 }],
  ] as const) {
    const r = await call(h.rest, method, path, body);
    assert.equal(r.status, 400, `${method} ${path}`);
    assert.deepEqual(r.body, {
      version: { edition: 'enterprise', api: 'v2', schema: 0 },
      error: true,
      message: 'Runtime Error: Parameter p is NULL.',
      results: [],
      code: 'GSQL-1001',
    });
  }
  const ok = await call(h.rest, 'GET', '/query/tests/around?p=1');
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.error, false);
});
