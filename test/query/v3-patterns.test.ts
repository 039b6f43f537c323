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

/** The ids of a printed vertex set, sorted. */
function ids(result: unknown): string[] {
  return (result as { v_id: string }[]).map((v) => v.v_id).sort();
}

async function vset(body: string, args: Record<string, unknown> = {}, params = ''): Promise<string[]> {
  const out = await runText(f.db, `CREATE QUERY q(${params}) SYNTAX v3 {\n${body}\n}`, args);
  return ids((out[0] as Record<string, unknown>).R);
}

test('V3 node pattern: every vertex of the label', async () => {
  assert.deepEqual(await vset('R = SELECT a FROM (a:Account); PRINT R;'), [
    'Ava',
    'Ben',
    'Cleo',
    'Dan',
    'Eli',
    'Fay',
  ]);
});

test('V3 property map on a node filters like WHERE, with the edge alias read in ACCUM', async () => {
  const out = await runText(
    f.db,
    `CREATE QUERY q(STRING n) SYNTAX v3 {
       SumAccum<INT> @total;
       R = SELECT b FROM (a:Account {name: n})-[e:transfer]->(b:Account) ACCUM b.@total += e.amount;
       PRINT R;
     }`,
    { n: 'Ava' },
  );
  assert.deepEqual(out, [
    {
      R: [{ v_id: 'Ben', v_type: 'Account', attributes: { name: 'Ben', isBlocked: false, '@total': 1000 } }],
    },
  ]);
});

test('V3 edge orientations: right, left, any direction and undirected', async () => {
  const from = (pattern: string): Promise<string[]> =>
    vset(`R = SELECT t FROM ${pattern} WHERE s.name == "Ben"; PRINT R;`);
  assert.deepEqual(await from('(s:Account)-[:transfer]->(t:Account)'), ['Cleo', 'Dan']);
  assert.deepEqual(await from('(s:Account)<-[:transfer]-(t:Account)'), ['Ava']);
  assert.deepEqual(await from('(s:Account)-[:transfer]-(t:Account)'), ['Ava', 'Cleo', 'Dan']);
  assert.deepEqual(await from('(s:Account)<-[:transfer]->(t:Account)'), ['Ava', 'Cleo', 'Dan']);
  assert.deepEqual(await from('(s:Account) ~[:hasPhone]~ (t:Phone)'), ['111', '222']);
  assert.deepEqual(await from('(s:Account)-[:hasPhone]-(t:Phone)'), ['111', '222']);
  // Any edge type: to the right only directed edges leave s; `-[]-` adds incoming and undirected ones.
  assert.deepEqual(await from('(s:Account)-[]->(t)'), ['Cleo', 'Dan', 'Lima']);
  assert.deepEqual(await from('(s:Account)-->(t)'), ['Cleo', 'Dan', 'Lima']);
  assert.deepEqual(await from('(s:Account)-[]-(t)'), ['111', '222', 'Ava', 'Cleo', 'Dan', 'Lima']);
  assert.deepEqual(await from('(s:Account)-[:transfer|isLocatedIn]->(t)'), ['Cleo', 'Dan', 'Lima']);
});

test('V3 multi-hop paths, anonymous nodes, and several patterns joined on an alias', async () => {
  assert.deepEqual(
    await vset(
      'R = SELECT c FROM (a:Account {name: "Ava"})-[:transfer]->()-[:transfer]->(c:Account); PRINT R;',
    ),
    ['Cleo', 'Dan'],
  );
  assert.deepEqual(
    await vset(
      'R = SELECT a FROM (a:Account)-[:transfer]->(b:Account), (b)-[:isLocatedIn]->(c:City {name: "Lima"}); PRINT R;',
    ),
    ['Ava', 'Ben', 'Eli'],
  );
});

test('V3 variable-length edges: *min..max inside the brackets and GQL quantifiers after them', async () => {
  const expect = ['Ben', 'Cleo', 'Dan'];
  assert.deepEqual(
    await vset('R = SELECT b FROM (a:Account {name: "Ava"})-[:transfer*1..2]->(b:Account); PRINT R;'),
    expect,
  );
  assert.deepEqual(
    await vset('R = SELECT b FROM (a:Account {name: "Ava"})-[:transfer]->{1,2}(b:Account); PRINT R;'),
    expect,
  );
  assert.deepEqual(
    await vset('R = SELECT b FROM (a:Account {name: "Dan"})-[:transfer*2]->(b:Account); PRINT R;'),
    ['Ben', 'Fay'],
  );
});

test('V3 inline WHERE, multiple labels, vertex-set variables as labels, and = in WHERE', async () => {
  assert.deepEqual(await vset('R = SELECT a FROM (a:Account WHERE a.isBlocked); PRINT R;'), ['Cleo']);
  assert.deepEqual(await vset('R = SELECT x FROM (x:Account:City) WHERE x.name = "Lima"; PRINT R;'), [
    'Lima',
  ]);
  assert.deepEqual(
    await vset(`S = SELECT a FROM (a:Account) WHERE a.name IN ("Ava", "Dan");
                R = SELECT t FROM (x:S)-[:transfer]->(t:Account); PRINT R;`),
    ['Ava', 'Ben', 'Eli'],
  );
});

test('V2 patterns still work in a SYNTAX v3 query', async () => {
  assert.deepEqual(
    await vset('R = SELECT t FROM Account:s -(transfer>)- Account:t WHERE s.name == "Ben"; PRINT R;'),
    ['Cleo', 'Dan'],
  );
});

test('V3 without the header, a directed type under ~[]~, and openCypher in GSQL say what to write', () => {
  assert.equal(
    compileErrorOf(
      f.db,
      'CREATE QUERY q() {\n  R = SELECT b FROM (a:Account)-[e:transfer]->(b);\n  PRINT R;\n}',
    ),
    'Semantic Check Error in query q: line 2, col 21\n' +
      '"(a:Account)-[e:transfer]->(b)" is a SYNTAX v3 pattern; add SYNTAX v3 to the query header: CREATE QUERY q(…) SYNTAX v3 { … }',
  );
  assert.match(
    compileErrorOf(f.db, 'CREATE QUERY q() SYNTAX v3 {\n  R = SELECT b FROM (a:Account)~[:transfer]~(b);\n}'),
    /transfer is a directed edge type; ~\[…\]~ matches undirected edges only: write -\[:transfer\]-> or <-\[:transfer\]-/,
  );
  assert.match(
    compileErrorOf(f.db, 'CREATE QUERY q() {\n  MATCH (a:Account) RETURN a\n}'),
    /line 2, column 3: MATCH is openCypher, not GSQL: declare the query as CREATE OPENCYPHER QUERY/,
  );
});
