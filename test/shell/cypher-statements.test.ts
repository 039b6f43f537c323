import assert from 'node:assert/strict';
import { test } from 'node:test';
import { financeDb, printedJson } from '../fixtures/query/finance.js';

type Envelope = { error: boolean; message: string; results: unknown[] };

test('openCypher typed in the shell runs as an interpreted query, one statement per line', async () => {
  const f = await financeDb();
  try {
    const { code, out } = await f.shell(`USE GRAPH finance
MATCH (s:Account) WHERE s.name IN ["Ava", "Cleo"] RETURN s.name ORDER BY s.name
MATCH (s:Account {name: "Dan"})-[e:transfer]->(t)
RETURN t.name AS to, e.amount AS amt ORDER BY amt
MATCH (s:Account)-[:transfer]->(t:Account {name: "Ava"}) RETURN count(*) AS n
MATCH (s:Account {name: "Fay"}) OPTIONAL MATCH (s)-[:transfer]->(t:Account) RETURN s.name AS who, t.name AS payee
`);
    assert.equal(code, 0, out);
    const docs = printedJson(out) as Envelope[];
    assert.deepEqual(
      docs.map((d) => d.results),
      [
        [{ T: [{ name: 'Ava' }, { name: 'Cleo' }] }],
        [
          {
            T: [
              { to: 'Eli', amt: 650 },
              { to: 'Ava', amt: 900 },
            ],
          },
        ],
        [{ T: [{ n: 2 }] }],
        // TigerGraph names the table of a query with OPTIONAL MATCH after its numbered stages.
        [{ T_2: [{ who: 'Fay', payee: null }] }],
      ],
    );
  } finally {
    await f.close();
  }
});

test('shell CREATE, MATCH … SET and MATCH … DELETE change the graph; a line break ends each', async () => {
  const f = await financeDb();
  try {
    const { code, out } = await f.shell(`USE GRAPH finance
CREATE (a:Account {name: "Gus", isBlocked: false})
MATCH (a:Account {name: "Gus"}) SET a.isBlocked = true
MATCH (a:Account) WHERE a.isBlocked RETURN a.name AS blocked ORDER BY blocked
MATCH (a:Account {name: "Gus"}) DELETE a
MATCH (a:Account) RETURN count(a) AS n
`);
    assert.equal(code, 0, out);
    const tables = (printedJson(out) as Envelope[]).map((d) => d.results).filter((r) => r.length > 0);
    assert.deepEqual(tables, [[{ T: [{ blocked: 'Cleo' }, { blocked: 'Gus' }] }], [{ T: [{ n: 6 }] }]]);
  } finally {
    await f.close();
  }
});

test('a shell openCypher statement with a mistake is refused with its place and changes nothing', async () => {
  const f = await financeDb();
  try {
    const { code, out } = await f.shell(`USE GRAPH finance
MATCH (a:Account {name: "Ava"}) SET a.isBlocked = true RETURN a.nosuch`);
    assert.notEqual(code, 0, out);
    assert.match(out, /"nosuch" is not an attribute of vertex type Account \(line 2, column 65\)/);
    const check = await f.shell(`USE GRAPH finance
MATCH (a:Account {name: "Ava"}) RETURN a.isBlocked AS b`);
    assert.deepEqual(
      (printedJson(check.out) as Envelope[]).map((d) => d.results),
      [[{ T: [{ b: false }] }]],
    );
  } finally {
    await f.close();
  }
});
