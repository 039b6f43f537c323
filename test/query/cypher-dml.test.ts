import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { financeDb, printedJson, type FinanceDb } from '../fixtures/query/finance.js';

let f: FinanceDb;
before(async () => {
  f = await financeDb();
});
after(async () => {
  await f.close();
});

interface Envelope {
  error: boolean;
  message: string;
  results: Record<string, unknown>[];
}

/** Runs shell statements on the finance graph; returns the envelopes printed. */
async function shell(text: string): Promise<Envelope[]> {
  const { code, out } = await f.shell(`USE GRAPH finance\n${text}`);
  assert.equal(code, 0, out);
  return printedJson(out) as Envelope[];
}

const ABBY_EDGES = `INTERPRET OPENCYPHER QUERY () FOR GRAPH finance {
  MATCH (s:Account {name: "Abby"})-[e:transfer]->(t) RETURN s.isBlocked AS blocked, t.name AS to, e.amount AS amount, e.date AS date ORDER BY date
}`;

test('openCypher CREATE, SET and DELETE change the graph when the query ends', async () => {
  const [created] = await shell(`CREATE OPENCYPHER QUERY addAccount(STRING name, BOOL blocked) {
  CREATE (p:Account {name: $name, isBlocked: $blocked})
}
CREATE OPENCYPHER QUERY addTransfer(VERTEX<Account> s, VERTEX<Account> t, DATETIME dt, UINT amt) {
  CREATE (s)-[:transfer {date: $dt, amount: $amt}]->(t)
}
INSTALL QUERY addAccount, addTransfer
RUN QUERY addAccount("Abby", true)
RUN QUERY addTransfer("Abby", "Eli", "2025-01-01", 100)
INTERPRET QUERY addTransfer("Abby", "Eli", "2025-01-09", 200)
${ABBY_EDGES}`);
  assert.deepEqual(created.results, []);
  const after1 = await shell(ABBY_EDGES);
  assert.deepEqual(after1[0].results, [
    {
      T: [
        { blocked: true, to: 'Eli', amount: 100, date: '2025-01-01 00:00:00' },
        { blocked: true, to: 'Eli', amount: 200, date: '2025-01-09 00:00:00' },
      ],
    },
  ]);

  // SET on a vertex and on the edges a WHERE keeps; a default parameter value through `_`.
  const [, , after2] = await shell(`CREATE OPENCYPHER QUERY unblock(STRING name = "Abby") {
  MATCH (s:Account {name: $name}) SET s.isBlocked = false
}
CREATE OPENCYPHER QUERY raise(STRING name = "Abby", UINT amt = 7) {
  MATCH (s:Account {name: $name})-[e:transfer]->(t) WHERE e.amount > 150 SET e.amount = $amt
}
INTERPRET QUERY unblock(_)
INTERPRET QUERY raise(_, 300)
${ABBY_EDGES}`);
  assert.deepEqual(after2.results, [
    {
      T: [
        { blocked: false, to: 'Eli', amount: 100, date: '2025-01-01 00:00:00' },
        { blocked: false, to: 'Eli', amount: 300, date: '2025-01-09 00:00:00' },
      ],
    },
  ]);

  // DELETE of the edges a WHERE keeps, then of the vertex (its other edges go with it).
  const [, after3, , after4] = await shell(`CREATE OPENCYPHER QUERY dropSmall() {
  MATCH (s:Account {name: "Abby"})-[e:transfer]->() WHERE e.amount < 200 DELETE e
}
INTERPRET QUERY dropSmall()
${ABBY_EDGES}
INTERPRET OPENCYPHER QUERY () FOR GRAPH finance { MATCH (s:Account {name: "Abby"}) DETACH DELETE s }
INTERPRET OPENCYPHER QUERY () FOR GRAPH finance { MATCH (s:Account) RETURN count(*) AS accounts }`);
  assert.deepEqual(after3.results, [
    { T: [{ blocked: false, to: 'Eli', amount: 300, date: '2025-01-09 00:00:00' }] },
  ]);
  assert.deepEqual(after4.results, [{ T: [{ accounts: 6 }] }]);
});

test('CREATE of a path makes its new nodes and the relationship between them', async () => {
  const [, check] = await shell(`INTERPRET OPENCYPHER QUERY () FOR GRAPH finance {
  CREATE (a:Account {name: "Gus", isBlocked: false})<-[:transfer {date: "2025-02-02", amount: 9}]-(b:Account {name: "Hal", isBlocked: true})
}
INTERPRET OPENCYPHER QUERY () FOR GRAPH finance {
  MATCH (x:Account)-[e:transfer]->(y:Account) WHERE e.amount = 9 RETURN x.name AS src, x.isBlocked AS blocked, y.name AS dst
}`);
  assert.deepEqual(check.results, [{ T: [{ src: 'Hal', blocked: true, dst: 'Gus' }] }]);
});

test('a write error commits nothing of the query', async () => {
  const { code, out } = await f.shell(`USE GRAPH finance
INTERPRET OPENCYPHER QUERY () FOR GRAPH finance {
  MATCH (s:Account {name: "Ava"})
  SET s.isBlocked = true
  CREATE (z:City {name: "Quito"})-[:transfer {date: "2025-01-01", amount: 1}]->(s)
}`);
  assert.equal(code, 0, out);
  const [env] = printedJson(out) as Envelope[];
  assert.equal(env.error, true);
  assert.match(env.message, /transfer/);
  const [after] = await shell(`INTERPRET OPENCYPHER QUERY () FOR GRAPH finance {
  MATCH (s:Account {name: "Ava"}), (c:City) RETURN s.isBlocked AS blocked, count(c) AS cities
}`);
  assert.deepEqual(after.results, [{ T: [{ blocked: false, cities: 2 }] }]);
});
