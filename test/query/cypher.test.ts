import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { financeDb, type FinanceDb } from '../fixtures/query/finance.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

let f: FinanceDb;
before(async () => {
  f = await financeDb();
});
after(async () => {
  await f.close();
});

async function cypher(body: string, args: Record<string, unknown> = {}, params = ''): Promise<unknown[]> {
  return runText(f.db, `CREATE OPENCYPHER QUERY q(${params}) FOR GRAPH finance {\n${body}\n}`, args);
}

test('MATCH … RETURN of one node variable prints a vertex set with the columns as attributes', async () => {
  assert.deepEqual(await cypher('MATCH (a:Account) WHERE a.isBlocked RETURN a'), [
    { VS: [{ v_id: 'Cleo', v_type: 'Account', attributes: { a: 'Cleo' } }] },
  ]);
  assert.deepEqual(
    await cypher(
      'MATCH (a:Account {name: $n})-[e:transfer]->(b:Account) RETURN b, sum(e.amount) AS total',
      { n: 'Ben' },
      'STRING n',
    ),
    [
      {
        VS: [
          { v_id: 'Cleo', v_type: 'Account', attributes: { b: 'Cleo', total: 1200 } },
          { v_id: 'Dan', v_type: 'Account', attributes: { b: 'Dan', total: 510 } },
        ],
      },
    ],
  );
});

test('RETURN with aggregation, ORDER BY, SKIP and LIMIT prints a table', async () => {
  assert.deepEqual(
    await cypher(`MATCH (a:Account)-[e:transfer]->(b:Account)
      RETURN a, b, count(*) AS n ORDER BY n DESC, a.name, b.name SKIP 1 LIMIT 2`),
    [
      {
        T: [
          { a: 'Ben', b: 'Cleo', n: 1 },
          { a: 'Ben', b: 'Dan', n: 1 },
        ],
      },
    ],
  );
});

test('WITH … WHERE, string predicates, and a RETURN of the same columns printing that table', async () => {
  assert.deepEqual(
    await cypher(`MATCH (a:Account)
      WITH a.name AS name WHERE name STARTS WITH "E" OR name ENDS WITH "o" OR name CONTAINS "yy"
      RETURN name ORDER BY name`),
    [{ T: [{ name: 'Cleo' }, { name: 'Eli' }] }],
  );
  assert.deepEqual(await cypher('MATCH (a:Account) WITH a WHERE a.name =~ "D.*" RETURN a.name'), [
    { T_1: [{ name: 'Dan' }] },
  ]);
});

test('OPTIONAL MATCH keeps rows that match nothing, with NULL', async () => {
  assert.deepEqual(
    await cypher(`MATCH (a:Account) WHERE a.name IN ["Fay", "Eli"]
      OPTIONAL MATCH (a)-[:transfer]->(b)
      RETURN a.name AS who, b.name AS to, coalesce(b.name, "nobody") AS label ORDER BY who`),
    [
      {
        T_2: [
          { who: 'Eli', to: 'Fay', label: 'Fay' },
          { who: 'Fay', to: null, label: 'nobody' },
        ],
      },
    ],
  );
});

test('several MATCH clauses join on shared variables; a relationship named again is a new one', async () => {
  assert.deepEqual(
    await cypher(`MATCH (s)-[e:transfer]->(m)
      MATCH (m)-[e:transfer]->(t)
      WITH s.name AS src, count(t) AS twoHops
      RETURN src, twoHops ORDER BY twoHops DESC, src`),
    [
      {
        T: [
          { src: 'Ava', twoHops: 4 },
          { src: 'Ben', twoHops: 3 },
          { src: 'Dan', twoHops: 3 },
          { src: 'Cleo', twoHops: 2 },
        ],
      },
    ],
  );
});

test('collect, UNWIND and arithmetic over the unwound values', async () => {
  assert.deepEqual(
    await cypher(`MATCH (a:Account {name: "Dan"})-[e:transfer]->(b)
      WITH a, collect(e.amount) AS amounts
      UNWIND amounts AS x
      RETURN a.name AS who, x * 2 AS twice ORDER BY twice`),
    [
      {
        T_3: [
          { who: 'Dan', twice: 1300 },
          { who: 'Dan', twice: 1800 },
        ],
      },
    ],
  );
  assert.deepEqual(await cypher('UNWIND [3, 1, 2] AS x RETURN x ORDER BY x DESC LIMIT 2'), [
    { T_1: [{ x: 3 }, { x: 2 }] },
  ]);
});

test('UNION removes repeated rows, UNION ALL keeps them', async () => {
  const q = (op: string): Promise<unknown[]> =>
    cypher(`MATCH (a:Account {name: "Ava"}) RETURN a.name AS n
      ${op} MATCH (a:Account) WHERE a.isBlocked RETURN a.name AS n
      ${op} MATCH (a:Account {name: "Ava"}) RETURN a.name AS n`);
  assert.deepEqual(await q('UNION'), [{ T_3: [{ n: 'Ava' }, { n: 'Cleo' }] }]);
  assert.deepEqual(await q('UNION ALL'), [{ T_3: [{ n: 'Ava' }, { n: 'Cleo' }, { n: 'Ava' }] }]);
});

test('variable-length relationships count each shortest path', async () => {
  assert.deepEqual(
    await cypher(
      'MATCH (a:Account {name: "Ava"})-[:transfer*1..2]->(b) RETURN b.name AS n, count(*) AS paths ORDER BY n',
    ),
    [
      {
        T: [
          { n: 'Ben', paths: 2 },
          { n: 'Cleo', paths: 2 },
          { n: 'Dan', paths: 2 },
        ],
      },
    ],
  );
});

test('functions: strings, lists, numbers, types and CASE', async () => {
  const [out] = (await cypher(`MATCH (a:Account {name: "Cleo"})-[e:transfer]->(b)
    RETURN toUpper(a.name) AS up, size(a.name) AS len, substring(a.name, 1, 2) AS mid, left(a.name, 2) AS l,
      a.name + "!" AS bang, type(e) AS rel, labels(b) AS lbl, id(b) AS bid, toString(e.amount) AS s,
      toInteger("42") AS i, size([1, 2, 3]) AS n, head([4, 5]) AS h, range(1, 3) AS r, [7, 8, 9][1] AS second,
      2 ^ 10 AS p, abs(-3) AS ab, round(2.5) AS rd, split("a,b", ",") AS parts, reverse("abc") AS rev,
      CASE WHEN a.isBlocked THEN "blocked" ELSE "open" END AS state`)) as { T: Record<string, unknown>[] }[];
  assert.deepEqual(out.T, [
    {
      up: 'CLEO',
      len: 4,
      mid: 'le',
      l: 'Cl',
      bang: 'Cleo!',
      rel: 'transfer',
      lbl: ['Account'],
      bid: 'Ava',
      s: '50',
      i: 42,
      n: 3,
      h: 4,
      r: [1, 2, 3],
      second: 8,
      p: 1024,
      ab: 3,
      rd: 3,
      parts: ['a', 'b'],
      rev: 'cba',
      state: 'blocked',
    },
  ]);
});

test('openCypher errors say what is wrong and where', () => {
  const err = (body: string): string =>
    compileErrorOf(f.db, `CREATE OPENCYPHER QUERY q() FOR GRAPH finance {\n${body}\n}`);
  assert.match(
    err('MATCH (a:Account) RETURN frobnicate(a)'),
    /line 2, column 26: unknown openCypher function frobnicate\(\)/,
  );
  assert.match(err('MATCH (a:Account) RETURN a MATCH (b) RETURN b'), /RETURN must be the last clause/);
  assert.match(
    err('MATCH (a:Account) MERGE (b:Account) RETURN a'),
    /the openCypher clause MERGE is not supported/,
  );
  assert.match(
    err('MATCH (a:Account) RETURN a.name AS x UNION MATCH (a:Account) RETURN a.name AS y'),
    /the queries of a UNION must return the same columns \(x\)/,
  );
  assert.match(err('MATCH (a:Account) RETURN nosuch'), /nosuch/);
});
