/** Data changes written in SYNTAX v3 (TigerGraph's V3 tutorial shapes, on our own data). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { financeDb, printedJson } from '../fixtures/query/finance.js';
import { runText } from '../fixtures/query/run.js';

const TRANSFERS = `INTERPRET OPENCYPHER QUERY () FOR GRAPH finance {
  MATCH (s:Account)-[e:transfer]->(t:Account) RETURN s.name AS src, t.name AS dst, e.amount AS amount ORDER BY src, dst, amount
}`;

interface Envelope {
  results: { T: { src: string; dst: string; amount: number }[] }[];
}

test('V3 updates, inserts and deletes: ACCUM and POST-ACCUM assignments, INSERT, DELETE … FROM, DELETE(x)', async () => {
  const f = await financeDb();
  try {
    const transfers = async (): Promise<string[]> => {
      const { code, out } = await f.shell(`USE GRAPH finance\n${TRANSFERS}`);
      assert.equal(code, 0, out);
      return (printedJson(out) as Envelope[])[0].results[0].T.map((r) => `${r.src}>${r.dst}:${r.amount}`);
    };
    await runText(
      f.db,
      `CREATE QUERY q() SYNTAX v3 {
         v = SELECT a FROM (a:Account)-[e:transfer]->(b:Account) WHERE a.name = "Ava"
             ACCUM e.amount = e.amount + 1
             POST-ACCUM (a) CASE WHEN NOT a.isBlocked THEN a.isBlocked = TRUE END;
       }`,
    );
    assert.deepEqual(
      (await transfers()).filter((t) => t.startsWith('Ava')),
      ['Ava>Ben:301', 'Ava>Ben:701'],
    );
    await runText(
      f.db,
      `CREATE QUERY q() SYNTAX v3 {
         DATETIME d = to_datetime("2025-03-01");
         v = SELECT a FROM (a:Account)-[:transfer]->()-[:transfer]->(t) WHERE a.name = "Eli"
             ACCUM INSERT INTO transfer VALUES (a.name, t.name, d, 5);
         w = SELECT a FROM (a:Account)-[:transfer]->()-[:transfer]->(t) WHERE a.name = "Dan"
             ACCUM INSERT INTO transfer VALUES (a.name, t.name, d, 6);
       }`,
    );
    assert.deepEqual(
      (await transfers()).filter((t) => t.startsWith('Dan')),
      ['Dan>Ava:900', 'Dan>Ben:6', 'Dan>Eli:650', 'Dan>Fay:6'],
    );
    await runText(
      f.db,
      `CREATE QUERY q() SYNTAX v3 {
         DELETE a FROM (a:Account) WHERE a.name = "Fay";
         DELETE e FROM (a:Account)-[e:transfer]->(t) WHERE a.name = "Dan" AND e.amount < 100;
       }`,
    );
    let now = await transfers();
    assert.ok(!now.some((t) => t.includes('Fay')), now.join(' '));
    assert.deepEqual(
      now.filter((t) => t.startsWith('Dan')),
      ['Dan>Ava:900', 'Dan>Eli:650'],
    );
    await runText(
      f.db,
      `CREATE QUERY q() SYNTAX v3 {
         v = SELECT a FROM (a:Account) WHERE a.name = "Cleo" ACCUM DELETE(a);
         w = SELECT a FROM (a:Account)-[e:transfer]-(t) WHERE a.name = "Eli" ACCUM DELETE(e);
       }`,
    );
    now = await transfers();
    assert.deepEqual(now, ['Ava>Ben:301', 'Ava>Ben:701', 'Ben>Dan:510', 'Dan>Ava:900']);
  } finally {
    await f.close();
  }
});

test('DELETE (e) in ACCUM binds its edge alias in SYNTAX v2 too', async () => {
  const f = await financeDb();
  try {
    await runText(
      f.db,
      `CREATE QUERY q() SYNTAX v2 {
         v = SELECT a FROM Account:a -(transfer>:e)- Account:b WHERE b.name == "Ben" ACCUM DELETE(e);
       }`,
    );
    const out = await runText(
      f.db,
      `CREATE QUERY q() SYNTAX v3 {
         SELECT count(*) AS n INTO T FROM (a:Account)-[:transfer]->(b:Account {name: "Ben"});
         PRINT T;
       }`,
    );
    assert.deepEqual(out, [{ T: [{ n: 0 }] }]);
  } finally {
    await f.close();
  }
});
