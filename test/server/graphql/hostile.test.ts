/**
 * Hostile documents against a served graph (2,000 vertices, 20 edges each): deep, wide, alias and
 * fragment bombs are refused before they run, each naming its limit; a document within the cost
 * budget that still runs long is cut off by GSQL-TIMEOUT or by its client leaving — and while it runs,
 * REST++ on the same process keeps answering (echoes complete before the GraphQL answer does).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { DEFAULT_LIMITS } from '../../../src/graphql/index.js';
import { BASIC, serveFixture } from './serve-fixture.js';

const N = 2000;
const FANOUT = 20;

const served = serveFixture({
  gsql: 'CREATE VERTEX v (PRIMARY_ID id INT, name STRING)\nCREATE DIRECTED EDGE e (FROM v, TO v)\nCREATE GRAPH G (v, e)',
  prepare: (db) =>
    db.write((tx) => {
      for (let i = 0; i < N; i++) tx.upsertVertex('v', i, { name: { value: `n${i}`, op: 'set' } });
      for (let i = 0; i < N; i++)
        for (let k = 1; k <= FANOUT; k++) tx.upsertEdge('e', 'v', i, 'v', (i * 31 + k * 97) % N, {});
    }),
  // No one-graph listener; a budget of 10 million: the bombs below are far over it, the long
  // document is within it.
  servers: [{ graphqlGraph: undefined, graphql: { limits: { ...DEFAULT_LIMITS, maxCost: 10_000_000 } } }],
});
let url: string;
before(async () => {
  await served.ready;
  url = `${served.urls.gsql}/api/graphql/gsql/G`;
});

async function post(query: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: BASIC, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] },
  };
}

const hops = (k: number, root = 'v') => `${root} { ${'e { to { '.repeat(k)} name ${'} } '.repeat(k)} }`;

test('deep, wide, alias and fragment bombs are refused before they run, naming the limit', async () => {
  const cases: [string, string, number, string][] = [
    ['deep', `{ G { ${hops(20)} } }`, 400, 'GRAPHQL-DEPTH'],
    ['six hops from one root', `{ G { ${hops(6, 'v(where: {_id: {_eq: 1}})')} } }`, 400, 'GRAPHQL-COST'],
    [
      '30 aliases of two hops over the type',
      `{ G { ${Array.from({ length: 30 }, (_, i) => `a${i}: ${hops(2)}`).join(' ')} } }`,
      400,
      'GRAPHQL-COST',
    ],
    ['one field 60 times', `{ G { ${'v { name } '.repeat(60)} } }`, 400, 'GRAPHQL-FIELDS'],
    [
      'fragments doubling at every level',
      `{ G { v(limit: 1) { ...F0 } } } ${Array.from({ length: 6 }, (_, i) => `fragment F${i} on v { a: e { to { ...F${i + 1} } } b: e { to { ...F${i + 1} } } }`).join(' ')} fragment F6 on v { name }`,
      400,
      'GRAPHQL-COST',
    ],
  ];
  for (const [what, query, status, code] of cases) {
    const r = await post(query);
    assert.equal(r.status, status, `${what}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.errors?.[0].extensions?.code, code, what);
  }
  const huge = await post(`{ G { ${'v { name } '.repeat(4000)} } }`);
  assert.equal(huge.status, 400);
  assert.match(huge.body.errors?.[0].message ?? '', /more that 10000 tokens/);
});

// Neighbour filters nested four deep that never match: 2000·20^4 edge checks, no output.
const NEVER = '{name: {_eq: "none"}}';
const SLOW = `{ G { v(where: ${[1, 2, 3, 4].reduce((inner) => `{e: {_some: {to: ${inner}}}}`, NEVER)}) { name } } }`;

test('a long document within the budget is cut off by its timeout', async () => {
  const r = await post(SLOW, { 'GSQL-TIMEOUT': '1500' });
  assert.equal(r.status, 408, JSON.stringify(r.body));
  assert.equal(r.body.errors?.[0].extensions?.code, 'GSQL-TIMEOUT');
});

test('REST++ keeps answering while a long GraphQL request runs, and GraphQL answers after its client left', async () => {
  // No clock in the assertion: three echoes must complete while the long request is still open.
  const leave = new AbortController();
  let graphqlDone = false;
  const heavy = fetch(url, {
    method: 'POST',
    headers: { authorization: BASIC, 'content-type': 'application/json', 'GSQL-TIMEOUT': '600000' },
    body: JSON.stringify({ query: SLOW }),
    signal: leave.signal,
  })
    .then((res) => res.text())
    .catch((e: unknown) => (e instanceof Error && e.name === 'AbortError' ? 'aborted' : Promise.reject(e)))
    .finally(() => (graphqlDone = true));
  for (let i = 0; i < 3; i++) {
    const r = await fetch(`${served.urls.restpp}/echo`);
    assert.equal(r.status, 200);
    await r.text();
  }
  assert.equal(graphqlDone, false, 'the long GraphQL request finished before three echoes did');
  leave.abort();
  assert.equal(await heavy, 'aborted');
  const again = await post('{ G { v(limit: 1) { name } } }');
  assert.equal(again.status, 200, JSON.stringify(again.body));
});
