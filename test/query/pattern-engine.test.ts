/**
 * Pattern and parameter forms on the real engine, through the shell as a user runs them: a repeated
 * step that comes back to its start, an edge alias over several edge types reading and writing an
 * attribute only some of them have, and a DATETIME parameter whose default is written as text.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';

let dir = '';
let db: Database;

async function shell(text: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runScript(db, text, { user: 'tigergraph', graph: 'g' }, (t) => (out += t));
  return { code, out };
}

async function gsql(text: string): Promise<string> {
  const { code, out } = await shell(text);
  assert.equal(code, 0, out);
  return out;
}

/** RUN QUERY's printed results. */
async function runQuery(call: string): Promise<unknown[]> {
  const out = await gsql(`RUN QUERY ${call}`);
  const reply = JSON.parse(out.slice(out.indexOf('{'))) as { error: boolean; results: unknown[] };
  assert.equal(reply.error, false, out);
  return reply.results;
}

const ids = (printed: unknown): string[] => (printed as { v_id: string }[]).map((v) => v.v_id).sort();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ocelot-pattern-engine-'));
  db = await Database.open({ dataDir: join(dir, 'data'), sync: 'none', rebuildIntervalMs: 0 });
  // E: a→b→c→a and a→d→c (two shortest cycles through a, of length 3); F: a→c only; U: a–b;
  // H: none.
  await gsql(`
CREATE VERTEX N (PRIMARY_ID id STRING, w INT) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE E (FROM N, TO N, amount INT) WITH REVERSE_EDGE="rE"
CREATE DIRECTED EDGE F (FROM N, TO N, amount DOUBLE, note STRING)
CREATE DIRECTED EDGE H (FROM N, TO N, amount STRING)
CREATE UNDIRECTED EDGE U (FROM N, TO N)
CREATE GRAPH g (*)
USE GRAPH g
INTERPRET QUERY () FOR GRAPH g {
  INSERT INTO N VALUES ("a", 1); INSERT INTO N VALUES ("b", 2);
  INSERT INTO N VALUES ("c", 3); INSERT INTO N VALUES ("d", 4);
  INSERT INTO E VALUES ("a", "b", 10); INSERT INTO E VALUES ("b", "c", 20);
  INSERT INTO E VALUES ("c", "a", 30); INSERT INTO E VALUES ("a", "d", 40);
  INSERT INTO E VALUES ("d", "c", 50);
  INSERT INTO F VALUES ("a", "c", 1.5, "x");
  INSERT INTO U VALUES ("a", "b");
}`);
});

after(async () => {
  await db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a repeated step reaches its start again through its shortest cycles', async () => {
  await gsql(`
CREATE QUERY reach(VERTEX<N> s, STRING how) FOR GRAPH g SYNTAX v2 {
  SumAccum<INT> @@back;
  S = {s};
  IF how == "out" THEN
    R = SELECT t FROM S:x -(E>*1..)- N:t ACCUM IF t == x THEN @@back += 1 END;
  ELSE IF how == "out2" THEN
    R = SELECT t FROM S:x -(E>*1..2)- N:t ACCUM IF t == x THEN @@back += 1 END;
  ELSE IF how == "in" THEN
    R = SELECT t FROM S:x -(<E*1..)- N:t ACCUM IF t == x THEN @@back += 1 END;
  ELSE IF how == "reverse" THEN
    R = SELECT t FROM S:x -(rE>*1..)- N:t ACCUM IF t == x THEN @@back += 1 END;
  ELSE IF how == "both" THEN
    R = SELECT t FROM S:x -((E>|rE>)*1..)- N:t ACCUM IF t == x THEN @@back += 1 END;
  ELSE
    R = SELECT t FROM S:x -(U*1..)- N:t ACCUM IF t == x THEN @@back += 1 END;
  END;
  PRINT R, @@back;
}
INSTALL QUERY reach`);
  const reach = async (how: string): Promise<[string[], number]> => {
    const [r] = (await runQuery(`reach("a", "${how}")`)) as { R: unknown; '@@back': number }[];
    return [ids(r.R), r['@@back']];
  };
  // a→b→c→a and a→d→c→a: a is reached at distance 3, once per shortest cycle.
  assert.deepEqual(await reach('out'), [['a', 'b', 'c', 'd'], 2]);
  // The cycle is longer than the upper bound.
  assert.deepEqual(await reach('out2'), [['b', 'c', 'd'], 0]);
  // Against the direction (and through the reverse type) the same cycles, walked backwards.
  assert.deepEqual(await reach('in'), [['a', 'b', 'c', 'd'], 2]);
  assert.deepEqual(await reach('reverse'), [['a', 'b', 'c', 'd'], 2]);
  // Both ways, a walk comes straight back over any edge it left by: a is reached at distance 2,
  // once per neighbour edge (b, c and d; over U, b), as TigerGraph's tutorial shows for an
  // undirected -[:transfer*1..3]- step from a blocked account.
  assert.deepEqual(await reach('both'), [['a', 'b', 'c', 'd'], 3]);
  assert.deepEqual(await reach('undirected'), [['a', 'b'], 1]);
});

test('an edge alias over several edge types reads and writes the matched edge type’s attribute', async () => {
  await gsql(`
CREATE QUERY amounts() FOR GRAPH g SYNTAX v2 {
  MapAccum<STRING, SumAccum<DOUBLE>> @@byType;
  SumAccum<INT> @@noted;
  SumAccum<INT> @@noNote;
  R = SELECT t FROM N:x -((E>|F>):e)- N:t
      WHERE e.amount > 1
      ACCUM @@byType += (e.type -> e.amount),
            IF e.note == "x" THEN @@noted += 1 END,
            IF e.note IS NULL THEN @@noNote += 1 END;
  PRINT @@byType, @@noted, @@noNote;
}
CREATE QUERY renote() FOR GRAPH g SYNTAX v2 {
  R = SELECT t FROM N:x -((E>|F>):e)- N:t ACCUM e.note = "y", e.amount = e.amount + 1;
}
INSTALL QUERY amounts, renote`);
  assert.deepEqual(await runQuery('amounts()'), [
    { '@@byType': { E: 150, F: 1.5 }, '@@noted': 1, '@@noNote': 5 },
  ]);
  // The write changes F's note and both types' amounts; E edges have no note to write.
  await runQuery('renote()');
  assert.deepEqual(await runQuery('amounts()'), [
    { '@@byType': { E: 155, F: 2.5 }, '@@noted': 0, '@@noNote': 5 },
  ]);
  const bad = await shell(`
CREATE QUERY nothing() FOR GRAPH g SYNTAX v2 {
  SumAccum<INT> @@n;
  R = SELECT t FROM N:x -((E>|F>):e)- N:t ACCUM @@n += e.nothing;
}`);
  assert.notEqual(bad.code, 0);
  assert.match(bad.out, /"nothing" is not an attribute of edge type E or F \(line 4, column \d+\)/);
  const mixed = await shell(`
CREATE QUERY mixed() FOR GRAPH g SYNTAX v2 {
  SumAccum<INT> @@n;
  R = SELECT t FROM N:x -((E>|H>):e)- N:t WHERE e.amount > 1;
}`);
  assert.notEqual(mixed.code, 0);
  assert.match(
    mixed.out,
    /attribute "amount" has different types in the alias's edge types: INT in E, STRING in H \(line 4, column \d+\)/,
  );
  assert.doesNotMatch(await gsql('SHOW QUERY *'), /\b(nothing|mixed)\b/);
});

test('a DATETIME parameter takes its default as text', async () => {
  await gsql(`
CREATE QUERY since(DATETIME d = "2020-01-02 03:04:05") FOR GRAPH g { PRINT d, year(d) AS y; }
INSTALL QUERY since`);
  assert.deepEqual(await runQuery('since()'), [{ d: '2020-01-02 03:04:05', y: 2020 }]);
  assert.deepEqual(await runQuery('since("2021-06-07 08:09:10")'), [{ d: '2021-06-07 08:09:10', y: 2021 }]);
  const bad = await shell('CREATE QUERY late(DATETIME d = "the 5th of May") FOR GRAPH g { PRINT d; }');
  assert.notEqual(bad.code, 0);
  assert.match(bad.out, /the default of parameter d is not a DATETIME: "the 5th of May"/);
  assert.doesNotMatch(await gsql('SHOW QUERY *'), /\blate\b/);
});
