/**
 * Edge-attached accumulators (`OrAccum EDGE @visited`), on the finance graph: one accumulator per
 * edge, updated in ACCUM with GSQL's clause semantics, read in later SELECTs and printed with edges.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { financeDb, printedJson, type FinanceDb } from '../fixtures/query/finance.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

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

function ids(result: unknown): string[] {
  return (result as { v_id: string }[]).map((v) => v.v_id).sort();
}

test("the V3 tutorial's question: accounts reached by a transfer the given account did not send", async () => {
  // Installed with TigerGraph's `-single` flag and run in the shell, as the tutorial does.
  const { code, out } = await f.shell(`USE GRAPH finance
CREATE OR REPLACE QUERY not_sent_by (STRING acct) SYNTAX v3 {
  OrAccum EDGE @seen;
  R = SELECT t FROM (s:Account {name: acct})-[e:transfer]->(t:Account) ACCUM e.@seen += TRUE;
  R = SELECT t FROM (s:Account)-[e:transfer]->(t:Account) WHERE NOT e.@seen;
  PRINT R;
}
INSTALL QUERY -single not_sent_by
RUN QUERY not_sent_by("Ava")
`);
  assert.equal(code, 0, out);
  const [env] = printedJson(out) as Envelope[];
  assert.equal(env.error, false, env.message);
  // Ava sent both transfers into Ben; every other transfer reaches its target.
  assert.deepEqual(ids(env.results[0].R), ['Ava', 'Cleo', 'Dan', 'Eli', 'Fay']);
  // The same question from Ben (two transfers out): the other six transfers' targets.
  const [ben] = printedJson(
    (await f.shell('USE GRAPH finance\nRUN QUERY not_sent_by("Ben")')).out,
  ) as Envelope[];
  assert.deepEqual(ids(ben.results[0].R), ['Ava', 'Ben', 'Eli', 'Fay']);
});

test('a printed edge shows its edge-attached accumulators after its attributes', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q(STRING acct) SYNTAX v3 {
       OrAccum EDGE @seen;
       SumAccum<INT> EDGE @n = 10;
       ListAccum<EDGE> @@sent;
       R = SELECT t FROM (s:Account {name: acct})-[e:transfer]->(t:Account)
           WHERE e.amount > 500 ACCUM e.@seen += TRUE, e.@n += e.amount;
       R = SELECT t FROM (s:Account {name: acct})-[e:transfer]->(t:Account) ACCUM @@sent += e;
       PRINT @@sent;
     }`,
    { acct: 'Ava' },
  );
  const edge = (date: string, amount: number, seen: boolean, n: number): unknown => ({
    e_type: 'transfer',
    from_id: 'Ava',
    from_type: 'Account',
    to_id: 'Ben',
    to_type: 'Account',
    directed: true,
    discriminator: `${date} 00:00:00`,
    attributes: { date: `${date} 00:00:00`, amount, '@seen': seen, '@n': n },
  });
  // Parallel edges (told apart by their discriminator) each have their own accumulators.
  const sent = (out[0] as { '@@sent': unknown[] })['@@sent'];
  assert.deepEqual(
    [...sent].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    [edge('2024-01-10', 300, false, 10), edge('2024-03-05', 700, true, 710)],
  );
});

test('ACCUM reads of an edge accumulator see the value from before the clause; the next SELECT sees the sum', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v3 {
       SumAccum<INT> EDGE @n = 5;
       SumAccum<INT> @@before;
       SumAccum<INT> @@after;
       R = SELECT b FROM (a:Account {name: "Ava"})-[e:transfer]->(b:Account) ACCUM e.@n += 1, @@before += e.@n;
       R = SELECT b FROM (a:Account {name: "Ava"})-[e:transfer]->(b:Account) ACCUM @@after += e.@n;
       PRINT @@before, @@after;
     }`,
  );
  assert.deepEqual(out, [{ '@@before': 10, '@@after': 12 }]);
});

test('a path pattern updates its edge once per matched path', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v3 {
       SumAccum<INT> EDGE @paths;
       MapAccum<STRING, INT> @@m;
       R = SELECT c FROM (a:Account)-[e:transfer]->(b:Account)-[:transfer]->(c:Account) ACCUM e.@paths += 1;
       R = SELECT b FROM (a:Account)-[e:transfer]->(b:Account)
           ACCUM @@m += (a.name + ">" + b.name + ":" + to_string(e.amount) -> e.@paths);
       PRINT @@m;
     }`,
  );
  // Each transfer into b lies on as many two-hop paths as b sends transfers.
  assert.deepEqual(out, [
    {
      '@@m': {
        'Ava>Ben:300': 2,
        'Ava>Ben:700': 2,
        'Ben>Cleo:1200': 1,
        'Ben>Dan:510': 2,
        'Cleo>Ava:50': 2,
        'Dan>Ava:900': 2,
        'Dan>Eli:650': 1,
        'Eli>Fay:80': 0,
      },
    },
  ]);
});

test('an undirected edge has one accumulator from either end; several edge types share the declaration', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v3 {
       SumAccum<INT> EDGE @hits;
       ListAccum<EDGE> @@es;
       SetAccum<STRING> @@located;
       R = SELECT t FROM (s:Account {name: "Ben"})-[e:hasPhone|isLocatedIn]-(t) ACCUM e.@hits += 1;
       R = SELECT s FROM (p:Phone {number: "111"})-[e:hasPhone]-(s:Account) ACCUM e.@hits += 10, @@es += e;
       R = SELECT c FROM (s:Account)-[e:isLocatedIn]->(c:City) WHERE e.@hits > 0 ACCUM @@located += s.name;
       PRINT @@es, @@located;
     }`,
  );
  const phone = (acct: string, hits: number): unknown => ({
    e_type: 'hasPhone',
    from_id: '111',
    from_type: 'Phone',
    to_id: acct,
    to_type: 'Account',
    directed: false,
    attributes: { '@hits': hits },
  });
  assert.deepEqual(out, [{ '@@es': [phone('Ava', 10), phone('Ben', 11)], '@@located': ['Ben'] }]);
});

test('a directed edge walked through its reverse edge type reads the same accumulator', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v3 {
       SumAccum<INT> EDGE @n;
       MapAccum<STRING, INT> @@m;
       R = SELECT b FROM (a:Account {name: "Ben"})-[e:transfer]->(b:Account) ACCUM e.@n += 1;
       R = SELECT b FROM (a:Account)-[e:transfer_reverse]->(b:Account) WHERE a.name == "Dan"
           ACCUM @@m += (a.name + "<" + b.name + ":" + to_string(e.amount) -> e.@n);
       PRINT @@m;
     }`,
  );
  assert.deepEqual(out, [{ '@@m': { 'Dan<Ben:510': 1 } }]);
});

test('V2 patterns declare and read edge accumulators the same way', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() {
       MaxAccum<INT> EDGE @big;
       SetAccum<STRING> @@out;
       R = SELECT t FROM Account:s -(transfer>:e)- Account:t ACCUM e.@big += e.amount * 2;
       R = SELECT t FROM Account:s -(transfer>:e)- Account:t WHERE e.@big > 1000 ACCUM @@out += s.name + "-" + t.name;
       PRINT @@out;
     }`,
  );
  assert.deepEqual(out, [{ '@@out': ['Ava-Ben', 'Ben-Cleo', 'Ben-Dan', 'Dan-Ava', 'Dan-Eli'] }]);
});

test('an EDGE value held in a collection reads and updates its accumulator outside a SELECT', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v3 {
       AvgAccum EDGE @a;
       OrAccum EDGE @v;
       ListAccum<EDGE> @@es;
       SetAccum<STRING> @@unseen;
       R = SELECT b FROM (a:Account {name: "Eli"})-[e:transfer]->(b:Account) ACCUM e.@a += 1, e.@a += 4, @@es += e;
       FOREACH x IN @@es DO x.@a += 10; x.@v += TRUE; END;
       R = SELECT b FROM (a:Account)-[e:transfer]->(b:Account) WHERE e.@v == FALSE AND a.name == "Dan"
           ACCUM @@unseen += b.name;
       PRINT @@es, @@unseen;
     }`,
  );
  assert.deepEqual(out, [
    {
      '@@es': [
        {
          e_type: 'transfer',
          from_id: 'Eli',
          from_type: 'Account',
          to_id: 'Fay',
          to_type: 'Account',
          directed: true,
          discriminator: '2024-07-01 00:00:00',
          attributes: { date: '2024-07-01 00:00:00', amount: 80, '@a': 5, '@v': true },
        },
      ],
      '@@unseen': ['Ava', 'Eli'],
    },
  ]);
});

test('a SQL-like SELECT and a two-pattern SELECT read and update edge accumulators', async () => {
  const table = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v3 {
       SumAccum<INT> EDGE @n;
       R = SELECT b FROM (a:Account {name: "Ava"})-[e:transfer]->(b:Account) ACCUM e.@n += e.amount;
       SELECT a.name AS src, b.name AS dst, e.@n AS n INTO T FROM (a:Account)-[e:transfer]->(b:Account)
         WHERE a.name == "Ava" OR a.name == "Eli";
       PRINT T;
     }`,
  );
  const rows = (table[0] as { T: { src: string; dst: string; n: number }[] }).T;
  assert.deepEqual(
    [...rows].sort((x, y) => x.n - y.n),
    [
      { src: 'Eli', dst: 'Fay', n: 0 },
      { src: 'Ava', dst: 'Ben', n: 300 },
      { src: 'Ava', dst: 'Ben', n: 700 },
    ],
  );
  const joined = await runText(
    f.db,
    `CREATE QUERY q() SYNTAX v3 {
       SumAccum<INT> EDGE @n;
       SetAccum<STRING> @@s;
       R = SELECT c FROM (a:Account)-[e:transfer]->(b:Account), (b)-[f:isLocatedIn]->(c:City)
           ACCUM e.@n += 1, f.@n += 100;
       R = SELECT c FROM (a:Account)-[e:isLocatedIn]->(c:City) ACCUM @@s += a.name + ":" + to_string(e.@n);
       PRINT @@s;
     }`,
  );
  // An account's isLocatedIn edge is on one matched path per transfer it receives.
  assert.deepEqual(joined, [{ '@@s': ['Ava:200', 'Ben:200', 'Cleo:100', 'Dan:100', 'Eli:100', 'Fay:100'] }]);
});

test('edge accumulators start fresh in every run', async () => {
  const src = `CREATE QUERY q() SYNTAX v3 {
    SumAccum<INT> EDGE @n;
    SumAccum<INT> @@total;
    R = SELECT b FROM (a:Account {name: "Eli"})-[e:transfer]->(b:Account) ACCUM e.@n += 1;
    R = SELECT b FROM (a:Account {name: "Eli"})-[e:transfer]->(b:Account) ACCUM @@total += e.@n;
    PRINT @@total;
  }`;
  assert.deepEqual(await runText(f.db, src), [{ '@@total': 1 }]);
  assert.deepEqual(await runText(f.db, src), [{ '@@total': 1 }]);
});

test('edge accumulators are refused where TigerGraph refuses them, with the reason', () => {
  const err = (body: string): string => compileErrorOf(f.db, `CREATE QUERY q() SYNTAX v3 {\n${body}\n}`);
  const sel = 'R = SELECT b FROM (a:Account)-[e:transfer]->(b:Account)';
  assert.match(err('OrAccum EDGE @@v; PRINT 1;'), /edge-attached accumulator is named @v, not @@v/);
  assert.match(err('ListAccum<INT> EDGE @v; PRINT 1;'), /only primitive accumulators .* not ListAccum/);
  assert.match(err('OrAccum EDGE @v; OrAccum @v; PRINT 1;'), /@v is already declared/);
  assert.match(err('OrAccum @v; OrAccum EDGE @v; PRINT 1;'), /@v is already declared/);
  assert.match(
    err(`OrAccum EDGE @v; ${sel} ACCUM b.@v += TRUE; PRINT R;`),
    /needs an edge on the left of "\."/,
  );
  assert.match(err(`OrAccum EDGE @v; ${sel} WHERE e.@v'; PRINT R;`), /previous value .* not supported/);
  assert.match(
    err(`OrAccum EDGE @v; ${sel} POST-ACCUM e.@v += TRUE; PRINT R;`),
    /edge alias e cannot be used in POST-ACCUM/,
  );
});
