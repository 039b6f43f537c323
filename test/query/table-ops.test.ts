/**
 * The table statements (INIT, ORDER, FILTER, PROJECT, JOIN, SEMIJOIN, LEFT JOIN, UNION [ALL],
 * UNWIND) on the finance fixture, checked against answers computed here from the fixture's own
 * CSV files by plain loops (the reference), not by the engine.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FINANCE_FILES, financeDb, printedJson, type FinanceDb } from '../fixtures/query/finance.js';
import { runText } from '../fixtures/query/run.js';

let f: FinanceDb;
before(async () => {
  f = await financeDb();
});
after(async () => {
  await f.close();
});

type Row = Record<string, unknown>;

// ---- the reference: the fixture's data read straight from its CSV text ----------------------

function csv(name: string): string[][] {
  return FINANCE_FILES[name]
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').map((x) => x.trim()));
}
const transfers = csv('transfer.csv').map(([src, tgt, , amount]) => ({ src, tgt, amount: Number(amount) }));
const phones = csv('hasPhone.csv').map(([accnt, phone]) => ({ accnt, phone }));
const blocked = new Set(
  csv('account.csv')
    .filter(([, b]) => b === 'true')
    .map(([n]) => n),
);

/** Per sender, the sum of its transfers (the rows of `sums` below). */
function senderSums(): Row[] {
  const m = new Map<string, number>();
  for (const t of transfers) m.set(t.src, (m.get(t.src) ?? 0) + t.amount);
  return [...m].map(([acct, amt]) => ({ acct, amt }));
}

const sorted = (rows: Row[]): Row[] =>
  [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/** The SQL-like SELECTs the tests start from. */
const SUMS = 'SELECT s.name AS acct, sum(e.amount) AS amt INTO S FROM (s:Account)-[e:transfer]->(t:Account);';
const PHONES = 'SELECT a.name, p.number AS phone INTO P FROM (a:Account)-[:hasPhone]-(p:Phone);';

async function run(body: string, params = '', args: Record<string, unknown> = {}): Promise<Row[][]> {
  const out = await runText(f.db, `CREATE QUERY q(${params}) SYNTAX v3 {\n${body}\n}`, args);
  return out.map((o) => Object.values(o as Record<string, Row[]>)[0]);
}

// ---- INIT -------------------------------------------------------------------------------------

test('INIT makes a one-row table of constants, parameters and function results', async () => {
  const [t] = await run(
    'INIT T 7 AS a, false AS b, [1.5, -2.5] AS c, n * 2 AS d, split("x;y", ";") AS e, "s" + "t" AS g; PRINT T;',
    'INT n = 4',
  );
  assert.deepEqual(t, [{ a: 7, b: false, c: [1.5, -2.5], d: 8, e: ['x', 'y'], g: 'st' }]);
});

// ---- ORDER and FILTER ---------------------------------------------------------------------------

test('ORDER sorts in place by several keys, with LIMIT and an OFFSET computed from a parameter', async () => {
  const [t] = await run(
    `${SUMS} ORDER S BY amt DESC, acct LIMIT 2 OFFSET page * 1; PRINT S;`,
    'INT page = 1',
    {
      page: 1,
    },
  );
  const ref = senderSums()
    .sort((a, b) => (b.amt as number) - (a.amt as number) || String(a.acct).localeCompare(String(b.acct)))
    .slice(1, 3);
  assert.deepEqual(t, ref);
});

test('ORDER ascending by default; LIMIT alone keeps the first rows', async () => {
  const [t] = await run(`${SUMS} ORDER S BY amt LIMIT 1; PRINT S;`);
  const min = senderSums().sort((a, b) => (a.amt as number) - (b.amt as number))[0];
  assert.deepEqual(t, [min]);
});

test('FILTER keeps the rows where the condition holds; filters apply one after the other', async () => {
  const [first, second] = await run(`
    SELECT s.name AS src, e.amount AS amt, t.name AS tgt INTO T FROM (s:Account)-[e:transfer]->(t:Account);
    FILTER T ON src == "Ben" OR amt > 600;
    PRINT T;
    FILTER T ON T.src != "Ben";
    PRINT T;`);
  const rows = transfers.map((t) => ({ src: t.src, amt: t.amount, tgt: t.tgt }));
  const one = rows.filter((r) => r.src === 'Ben' || r.amt > 600);
  assert.deepEqual(sorted(first), sorted(one));
  assert.deepEqual(sorted(second), sorted(one.filter((r) => r.src !== 'Ben')));
});

// ---- PROJECT ------------------------------------------------------------------------------------

test('PROJECT derives a new table and leaves the original as it was', async () => {
  const [s, t] = await run(`${SUMS}
    PROJECT S ON S.acct + "!" AS tag, S.amt * 2 AS twice, amt % 7 AS m7, S.amt > 1000 AS big, S.amt INTO T;
    PRINT S; PRINT T;`);
  assert.deepEqual(sorted(s), sorted(senderSums()));
  const ref = senderSums().map((r) => {
    const amt = r.amt as number;
    return { tag: `${String(r.acct)}!`, twice: amt * 2, m7: amt % 7, big: amt > 1000, amt };
  });
  assert.deepEqual(sorted(t), sorted(ref));
});

test('PROJECT ON DISTINCT drops repeated rows', async () => {
  const [t] = await run(`
    SELECT s.name AS src, t.name AS tgt INTO T FROM (s:Account)-[e:transfer]->(t:Account);
    PROJECT T ON DISTINCT T.src AS who INTO U;
    PRINT U;`);
  assert.deepEqual(t.map((r) => r.who).sort(), [...new Set(transfers.map((x) => x.src))].sort());
});

test('PROJECT ON VERTEX COLUMN makes vertex sets that later SELECTs start from', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v3 {
       SELECT t AS tgt, p AS ph INTO T FROM (s:Account {name: "Ben"})-[:transfer]->(t:Account)-[:hasPhone]-(p:Phone);
       PROJECT T ON VERTEX COLUMN tgt INTO Targets, ph INTO Phones;
       A = SELECT x FROM (x:Targets);
       B = SELECT y FROM Phones:y;
       PRINT A.size() AS a, B.size() AS b;
       PRINT A[A.name] AS names, B[B.number] AS numbers;
     }`,
  );
  // Ben sends to Cleo and Dan; of those only Dan has a phone (222).
  const targets = new Set(transfers.filter((t) => t.src === 'Ben').map((t) => t.tgt));
  const withPhone = phones.filter((p) => targets.has(p.accnt));
  const accts = new Set(withPhone.map((p) => p.accnt));
  const nums = new Set(withPhone.map((p) => p.phone));
  assert.deepEqual(out[0], { a: accts.size, b: nums.size });
  const shown = out[1] as { names: { v_id: string; attributes: Row }[]; numbers: { v_id: string }[] };
  assert.deepEqual(shown.names.map((v) => v.v_id).sort(), [...accts].sort());
  assert.deepEqual(shown.numbers.map((v) => v.v_id).sort(), [...nums].sort());
});

// ---- JOINs --------------------------------------------------------------------------------------

test('JOIN … ON pairs the matching rows of both tables', async () => {
  const [t] = await run(`${SUMS} ${PHONES}
    JOIN S s WITH P p ON s.acct == p.name
    PROJECT s.acct + ":" + p.phone AS id, s.amt AS total
    INTO J;
    PRINT J;`);
  const ref: Row[] = [];
  for (const s of senderSums())
    for (const p of phones)
      if (p.accnt === s.acct) ref.push({ id: `${String(s.acct)}:${p.phone}`, total: s.amt });
  assert.deepEqual(sorted(t), sorted(ref));
});

test('JOIN without ON is the cross product; PROJECT DISTINCT drops repeats', async () => {
  const [all, distinct] = await run(`${SUMS} ${PHONES}
    JOIN S s WITH P p PROJECT s.acct AS a, p.phone AS ph INTO X;
    JOIN S s WITH P p PROJECT DISTINCT p.phone AS ph INTO Y;
    PRINT X; PRINT Y;`);
  assert.equal(all.length, senderSums().length * phones.length);
  assert.deepEqual(distinct.map((r) => r.ph).sort(), [...new Set(phones.map((p) => p.phone))].sort());
});

test('SEMIJOIN keeps each matching left row once and reads only the left table', async () => {
  const [t] = await run(`${SUMS} ${PHONES}
    SEMIJOIN S s WITH P p ON s.acct == p.name
    PROJECT s.acct AS acct, s.amt AS amt
    INTO J;
    PRINT J;`);
  // Ben has two phones: still one row.
  const ref = senderSums().filter((s) => phones.some((p) => p.accnt === s.acct));
  assert.deepEqual(sorted(t), sorted(ref));
});

test('LEFT JOIN keeps unmatched left rows, the right columns NULL', async () => {
  const [t] = await run(`${SUMS} ${PHONES}
    LEFT JOIN S s WITH P p ON s.acct == p.name
    PROJECT s.acct AS acct, p.phone AS phone, s.amt AS amt
    INTO J;
    PRINT J;`);
  const ref: Row[] = [];
  for (const s of senderSums()) {
    const mine = phones.filter((p) => p.accnt === s.acct);
    if (mine.length === 0) ref.push({ acct: s.acct, phone: null, amt: s.amt });
    for (const p of mine) ref.push({ acct: s.acct, phone: p.phone, amt: s.amt });
  }
  assert.deepEqual(sorted(t), sorted(ref));
});

test('a JOIN condition may compare more than equality; a table may join itself; aliases may be left out', async () => {
  const [t, k] = await run(`${SUMS}
    JOIN S a WITH S b ON a.amt < b.amt AND a.acct != b.acct
    PROJECT a.acct AS lo, b.acct AS hi
    INTO J;
    JOIN S WITH J ON S.acct == J.lo PROJECT S.acct AS who INTO K;
    PRINT J; PRINT K;`);
  const sums = senderSums();
  const ref: Row[] = [];
  for (const a of sums)
    for (const b of sums) if ((a.amt as number) < (b.amt as number)) ref.push({ lo: a.acct, hi: b.acct });
  assert.deepEqual(sorted(t), sorted(ref));
  // Without aliases the tables' names serve.
  assert.deepEqual(k.map((r) => r.who).sort(), ref.map((r) => r.lo).sort());
});

test('a JOIN on equalities (hashed) gives what the same condition tried on every pair gives', async () => {
  // `OR false` hides the equalities, so the second join tries every pair of rows.
  const [hashed, paired] = await run(`
    UNWIND [1, 2, 3, 3] AS k INTO A;
    UNWIND [3.0, 1.0, 4.5, 3.0] AS k INTO B0;
    ${PHONES}
    LEFT JOIN B0 b WITH P p ON b.k == 1 PROJECT b.k AS k, p.phone AS ph INTO B;
    PROJECT B ON B.k AS k, B.ph AS ph INTO B2;
    JOIN A a WITH B b ON a.k == b.k AND b.k > 1 AND b.ph == b.ph PROJECT a.k AS ak, b.k AS bk, b.ph AS ph INTO H;
    JOIN A a WITH B2 b ON (a.k == b.k AND b.k > 1 AND b.ph == b.ph) OR false
      PROJECT a.k AS ak, b.k AS bk, b.ph AS ph INTO N;
    PRINT H; PRINT N;`);
  assert.deepEqual(hashed, paired);
  assert.ok(hashed.length > 0);
});

// ---- UNION --------------------------------------------------------------------------------------

test('UNION drops repeated rows across tables; UNION ALL keeps them, table after table', async () => {
  const [u, a] = await run(`
    SELECT s AS v INTO A1 FROM (s:Account)-[:transfer]->(t:Account) WHERE t.name == "Ava";
    SELECT s AS v INTO B1 FROM (s:Account) WHERE s.isBlocked;
    SELECT s AS v INTO C1 FROM (s:Account)-[:transfer]->(t:Account) WHERE t.name == "Ava";
    SELECT s AS v INTO A2 FROM (s:Account)-[:transfer]->(t:Account) WHERE t.name == "Ava";
    SELECT s AS v INTO B2 FROM (s:Account) WHERE s.isBlocked;
    UNION A1 WITH B1 WITH C1 INTO U;
    UNION ALL A2 WITH B2 INTO W;
    PRINT U; PRINT W;`);
  const toAva = transfers.filter((t) => t.tgt === 'Ava').map((t) => t.src);
  const all = [...toAva, ...blocked];
  assert.deepEqual(u.map((r) => r.v).sort(), [...new Set(all)].sort());
  // A2's rows, then B2's.
  assert.deepEqual(
    a
      .slice(0, toAva.length)
      .map((r) => r.v)
      .sort(),
    [...toAva].sort(),
  );
  assert.deepEqual(
    a.slice(toAva.length).map((r) => r.v),
    [...blocked],
  );
});

test('UNION of numeric columns of different types', async () => {
  const [t] = await run('INIT A 1 AS x; INIT B 2.5 AS y; UNION A WITH B INTO U; PRINT U;');
  assert.deepEqual(t, [{ x: 1 }, { x: 2.5 }]);
});

// ---- UNWIND -------------------------------------------------------------------------------------

test('UNWIND a list makes a table of one column, one row per item', async () => {
  const [t] = await run('UNWIND [3, 1, 2] AS k INTO T; PRINT T;');
  assert.deepEqual(t, [{ k: 3 }, { k: 1 }, { k: 2 }]);
});

test('UNWIND a table ON a list computed from each row keeps its columns and adds one', async () => {
  const [t] = await run(`${SUMS}
    UNWIND S ON [amt, amt * 10] AS scaled INTO U;
    JOIN S s WITH U u ON s.acct == u.acct PROJECT u.acct AS acct, u.scaled AS scaled INTO J;
    PRINT U;`);
  const ref: Row[] = [];
  for (const s of senderSums())
    for (const x of [s.amt as number, (s.amt as number) * 10]) ref.push({ ...s, scaled: x });
  assert.deepEqual(sorted(t), sorted(ref));
});

test('UNWIND a list column of a SELECT … INTO table', async () => {
  const [t] = await run(`
    SELECT s.name AS acct, collect(t.name) AS tos INTO T FROM (s:Account {name: "Dan"})-[:transfer]->(t:Account);
    UNWIND T ON tos AS to INTO U;
    PROJECT U ON U.to AS to INTO V;
    PRINT V;`);
  assert.deepEqual(
    t.map((r) => r.to).sort(),
    transfers
      .filter((x) => x.src === 'Dan')
      .map((x) => x.tgt)
      .sort(),
  );
});

// ---- through the shell: interpreted queries and names that are also keywords ---------------------

test('an interpreted query runs the table statements', async () => {
  const { code, out } = await f.shell(`USE GRAPH finance
INTERPRET QUERY () SYNTAX v3 {
  ${SUMS}
  FILTER S ON amt > 1000;
  ORDER S BY acct;
  PRINT S;
}`);
  assert.equal(code, 0, out);
  const [doc] = printedJson(out) as { results: { S: Row[] }[] }[];
  const ref = senderSums()
    .filter((r) => (r.amt as number) > 1000)
    .sort((a, b) => String(a.acct).localeCompare(String(b.acct)));
  assert.deepEqual(doc.results[0].S, ref);
});

test('a vertex column reads its attributes; statements run in loops and branches', async () => {
  const [t, u] = await run(`
    SELECT s AS acct, count(*) AS n INTO T FROM (s:Account)-[:transfer]->(t:Account);
    FILTER T ON NOT acct.isBlocked AND acct.name != "Ava";
    INT i = 0;
    WHILE i < 2 DO
      IF i == 0 THEN
        UNWIND [10, 20, 30] AS k INTO U;
      END;
      FILTER U ON k > 10 * i;
      i = i + 1;
    END;
    PRINT T; PRINT U;`);
  const counts = new Map<string, number>();
  for (const x of transfers) counts.set(x.src, (counts.get(x.src) ?? 0) + 1);
  const ref = [...counts].filter(([a]) => !blocked.has(a) && a !== 'Ava').map(([acct, n]) => ({ acct, n }));
  assert.deepEqual(sorted(t), sorted(ref));
  // First pass keeps k > 0, second k > 10.
  assert.deepEqual(u, [{ k: 20 }, { k: 30 }]);
});

test('the table statements work in a SYNTAX v2 query', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() {
       SELECT s.name AS acct, sum(e.amount) AS amt INTO S FROM Account:s -(transfer>:e)- Account:t;
       FILTER S ON amt >= 1000;
       ORDER S BY amt DESC;
       PRINT S;
     }`,
  );
  const ref = senderSums()
    .filter((r) => (r.amt as number) >= 1000)
    .sort((a, b) => (b.amt as number) - (a.amt as number));
  assert.deepEqual(out, [{ S: ref }]);
});

test('variables named filter, order, project, init, union and unwind still assign', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() {
       INT filter = 1; INT order = 2; INT project = 3; INT init = 4; INT union = 5; INT unwind = 6;
       filter = filter + order + project + init + union + unwind;
       PRINT filter;
     }`,
  );
  assert.deepEqual(out, [{ filter: 21 }]);
});
