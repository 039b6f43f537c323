import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

type Row = Record<string, unknown>;

/** Runs a query printing table T; returns its rows. */
async function table(body: string, syntax = 'SYNTAX v3'): Promise<Row[]> {
  const out = await runText(f.db, `CREATE QUERY q() ${syntax} {\n${body}\nPRINT T;\n}`);
  return (out[0] as { T: Row[] }).T;
}

const byJson = (a: Row, b: Row): number => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

test('GROUP BY an attribute with count(*): the unaliased aggregate is named as TigerGraph names it', async () => {
  const rows = await table('SELECT a.isBlocked, count(*) INTO T FROM (a:Account) GROUP BY a.isBlocked;');
  assert.deepEqual(rows.sort(byJson), [
    { isBlocked: false, count_lparen_1_rparen_: 5 },
    { isBlocked: true, count_lparen_1_rparen_: 1 },
  ]);
});

test('GROUP BY vertices: vertices print as their ids, sums over the matched edges', async () => {
  const rows = await table(
    'SELECT a, b, sum(e.amount) AS total INTO T FROM (a:Account)-[e:transfer]->(b:Account) GROUP BY a, b;',
  );
  assert.deepEqual(rows.sort(byJson), [
    { a: 'Ava', b: 'Ben', total: 1000 },
    { a: 'Ben', b: 'Cleo', total: 1200 },
    { a: 'Ben', b: 'Dan', total: 510 },
    { a: 'Cleo', b: 'Ava', total: 50 },
    { a: 'Dan', b: 'Ava', total: 900 },
    { a: 'Dan', b: 'Eli', total: 650 },
    { a: 'Eli', b: 'Fay', total: 80 },
  ]);
});

test('implied grouping, HAVING on a column name, count(DISTINCT …)', async () => {
  const rows = await table(`SELECT a AS sender, count(b) AS n, count(DISTINCT b) AS partners INTO T
      FROM (a:Account)-[:transfer]->(b:Account)
      HAVING n > 1;`);
  assert.deepEqual(rows.sort(byJson), [
    { sender: 'Ava', n: 2, partners: 1 },
    { sender: 'Ben', n: 2, partners: 2 },
    { sender: 'Dan', n: 2, partners: 2 },
  ]);
});

test('ORDER BY a column and an expression, LIMIT with OFFSET, no grouping keeps every row', async () => {
  const rows = await table(`SELECT s.name, e.amount AS amt INTO T
      FROM (s:Account)-[e:transfer]->(t:Account)
      ORDER BY amt DESC, s.name LIMIT 3 OFFSET 1;`);
  assert.deepEqual(rows, [
    { name: 'Dan', amt: 900 },
    { name: 'Ava', amt: 700 },
    { name: 'Dan', amt: 650 },
  ]);
});

test('SELECT DISTINCT drops repeated rows', async () => {
  const rows = await table('SELECT DISTINCT t.name INTO T FROM (s:Account)-[:transfer]->(t:Account);');
  assert.deepEqual(rows.map((r) => r.name).sort(), ['Ava', 'Ben', 'Cleo', 'Dan', 'Eli', 'Fay']);
});

test('min, max, avg, stdev, stdevp and collect over a group', async () => {
  const [row] =
    await table(`SELECT s.name AS who, min(e.amount) AS lo, max(e.amount) AS hi, avg(e.amount) AS mean,
        stdev(e.amount) AS sd, stdevp(e.amount) AS sdp, collect(t.name) AS targets INTO T
      FROM (s:Account)-[e:transfer]->(t:Account)
      WHERE s.name == "Ben"
      GROUP BY s.name;`);
  assert.equal(row.who, 'Ben');
  assert.equal(row.lo, 510);
  assert.equal(row.hi, 1200);
  assert.equal(row.mean, 855);
  assert.ok(Math.abs((row.sd as number) - 690 / Math.SQRT2) < 1e-9);
  assert.equal(row.sdp, 345);
  assert.deepEqual((row.targets as string[]).sort(), ['Cleo', 'Dan']);
});

test('aggregates over no rows give one row', async () => {
  const rows = await table(
    'SELECT count(*) AS n, sum(e.amount) AS s, max(e.amount) AS m INTO T FROM (a:Account {name: "Fay"})-[e:transfer]->(b);',
  );
  assert.deepEqual(rows, [{ n: 0, s: 0, m: null }]);
});

test('SQL-like SELECT over V2 patterns, and several tables in one query', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v2 {
       SELECT c.name, count(a) AS people INTO T FROM Account:a -(isLocatedIn>)- City:c GROUP BY c.name;
       SELECT p.number INTO U FROM Phone:p WHERE p.isBlocked;
       PRINT T;
       PRINT U;
     }`,
  );
  assert.deepEqual(out, [
    {
      T: [
        { name: 'Oslo', people: 3 },
        { name: 'Lima', people: 3 },
      ],
    },
    { U: [{ number: '222' }] },
  ]);
});

test('an edge column prints as an edge, and a table is written TO_CSV one row per line', async () => {
  const outDir = join(f.dir, 'out');
  mkdirSync(outDir, { recursive: true });
  const out = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v3 {
       SELECT e INTO E FROM (a:Account {name: "Eli"})-[e:transfer]->(b);
       SELECT a.name, sum(e.amount) AS total INTO T FROM (a:Account)-[e:transfer]->(b) GROUP BY a.name ORDER BY total DESC LIMIT 2;
       PRINT E;
       PRINT T TO_CSV "top.csv";
     }`,
    {},
    undefined,
    { outputDir: outDir },
  );
  assert.deepEqual(out, [
    {
      E: [
        {
          e: {
            e_type: 'transfer',
            directed: true,
            from_id: 'Eli',
            from_type: 'Account',
            to_id: 'Fay',
            to_type: 'Account',
            discriminator: '2024-07-01 00:00:00',
            attributes: { date: '2024-07-01 00:00:00', amount: 80 },
          },
        },
      ],
    },
  ]);
  assert.equal(readFileSync(join(outDir, 'top.csv'), 'utf8'), 'Ben,1710\nDan,1550\n');
});

test('table errors: INTO a name in use, an aggregate in GROUP BY, a vertex-set SELECT without assignment', () => {
  assert.match(
    compileErrorOf(
      f.db,
      'CREATE QUERY q() SYNTAX v3 {\n  INT T = 1;\n  SELECT a INTO T FROM (a:Account);\n}',
    ),
    /line 3, col 17\n"T" is already declared/,
  );
  assert.match(
    compileErrorOf(
      f.db,
      'CREATE QUERY q() SYNTAX v3 {\n  SELECT a, count(*) INTO T FROM (a:Account) GROUP BY count(*);\n}',
    ),
    /GROUP BY cannot group by an aggregate/,
  );
  assert.match(
    compileErrorOf(f.db, 'CREATE QUERY q() SYNTAX v3 {\n  SELECT a FROM (a:Account);\n}'),
    /line 2, column 12: expected "INTO table" \(a SQL-like SELECT stores its table; a vertex-set SELECT is assigned: "X = SELECT …"\)/,
  );
});

test('an edge column shows the discriminator that tells parallel edges apart; an edge type without one shows none', async () => {
  const rows = await table(
    'SELECT e INTO T FROM (s:Account {name: "Ava"})-[e:transfer]->(t:Account {name: "Ben"}) ORDER BY e.date;',
  );
  const edge = (date: string, amount: number) => ({
    e: {
      e_type: 'transfer',
      from_id: 'Ava',
      from_type: 'Account',
      to_id: 'Ben',
      to_type: 'Account',
      directed: true,
      discriminator: date,
      attributes: { date, amount },
    },
  });
  assert.deepEqual(rows, [edge('2024-01-10 00:00:00', 300), edge('2024-03-05 00:00:00', 700)]);
  assert.deepEqual(Object.keys(rows[0].e as Row), [
    'e_type',
    'from_id',
    'from_type',
    'to_id',
    'to_type',
    'directed',
    'discriminator',
    'attributes',
  ]);
  const phones = await table('SELECT e INTO T FROM (a:Account {name: "Eli"})-[e:hasPhone]-(p:Phone);');
  assert.deepEqual(phones, [
    {
      e: {
        e_type: 'hasPhone',
        from_id: 'Eli',
        from_type: 'Account',
        to_id: '333',
        to_type: 'Phone',
        directed: false,
        attributes: {},
      },
    },
  ]);
});
