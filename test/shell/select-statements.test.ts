import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';
import { financeDb, printedJson } from '../fixtures/query/finance.js';

// dist/test/shell -> the fixture sources in test/fixtures/query/gsql101
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/query/gsql101');

/** GSQL 101 as its shell session goes: schema, loading, built-in SELECTs, then its two queries. */
const SESSION = `DROP ALL
CREATE VERTEX person (PRIMARY_ID name STRING, name STRING, age INT, gender STRING, state STRING)
CREATE UNDIRECTED EDGE friendship (FROM person, TO person, connect_day DATETIME)
CREATE GRAPH social (person, friendship)
CREATE LOADING JOB load_social FOR GRAPH social {
   DEFINE FILENAME file1="${join(FIXTURES, 'person.csv')}";
   DEFINE FILENAME file2="${join(FIXTURES, 'friendship.csv')}";
   LOAD file1 TO VERTEX person VALUES ($"name", $"name", $"age", $"gender", $"state") USING header="true", separator=",";
   LOAD file2 TO EDGE friendship VALUES ($0, $1, $2) USING header="true", separator=",";
}
RUN LOADING JOB load_social
USE GRAPH social
SELECT count(*) FROM person
SELECT count() FROM person-(friendship)-person
SELECT * FROM person WHERE primary_id=="Tom"
SELECT name FROM person WHERE state=="ca"
SELECT name, age FROM person WHERE age > 30 LIMIT 2
SELECT * FROM person-(friendship)->person WHERE from_id =="Tom"
SELECT count(*) FROM person-(ANY)->ANY WHERE from_id == "Dan" OR to_id == "Dan"
CREATE QUERY hello(VERTEX<person> p) FOR GRAPH social {
  Start = {p};
  Result = SELECT tgt FROM Start:s-(friendship:e) ->person:tgt;
  PRINT Result;
}
INSTALL QUERY hello
RUN QUERY hello("Tom")
`;

const person = (name: string, attributes: Record<string, unknown>) => ({
  v_id: name,
  attributes,
  v_type: 'person',
});

test('the GSQL 101 shell session runs end to end with the built-in SELECTs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-gsql101-select-'));
  const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  try {
    let out = '';
    const code = await runScript(db, SESSION, { user: 'tigergraph' }, (t) => (out += t), {
      importDirs: [FIXTURES],
    });
    assert.equal(code, 0, out);
    const docs = printedJson(out);
    assert.deepEqual(docs.slice(0, 7), [
      [{ count: 7, v_type: 'person' }],
      [{ count: 7, e_type: 'friendship' }],
      [person('Tom', { name: 'Tom', age: 40, gender: 'male', state: 'ca' })],
      [person('Tom', { name: 'Tom' }), person('Amily', { name: 'Amily' })],
      [person('Tom', { name: 'Tom', age: 40 }), person('Dan', { name: 'Dan', age: 34 })],
      [
        {
          e_type: 'friendship',
          directed: false,
          from_id: 'Tom',
          from_type: 'person',
          to_id: 'Dan',
          to_type: 'person',
          attributes: { connect_day: '2017-06-03 00:00:00' },
        },
        {
          e_type: 'friendship',
          directed: false,
          from_id: 'Tom',
          from_type: 'person',
          to_id: 'Jenny',
          to_type: 'person',
          attributes: { connect_day: '2015-01-01 00:00:00' },
        },
      ],
      [{ count: 4, e_type: 'friendship' }],
    ]);
    // The printed text is TigerGraph's: the array, indented by two spaces.
    assert.match(out, /^\[\n {2}\{\n {4}"count": 7,\n {4}"v_type": "person"\n {2}\}\n\]$/m);
    const hello = docs[7] as { results: { Result: { v_id: string }[] }[] };
    assert.deepEqual(hello.results[0].Result.map((v) => v.v_id).sort(), ['Dan', 'Jenny']);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('built-in SELECT errors name what is wrong; the session goes on with SET exit_on_error', async () => {
  const f = await financeDb();
  try {
    const { code, out } = await f.shell(`SET exit_on_error = FALSE
USE GRAPH finance
SELECT * FROM Nobody
SELECT colour FROM Account
SELECT * FROM Account WHERE name > 3
SELECT count(*) FROM Account WHERE isBlocked`);
    assert.equal(code, 212, out);
    assert.match(out, /"Nobody" is not a vertex type of graph finance\./);
    assert.match(out, /"colour" is not an attribute of vertex type Account\./);
    assert.match(out, /line 5, col/);
    assert.deepEqual(printedJson(out), [[{ count: 1, v_type: 'Account' }]]);
  } finally {
    await f.close();
  }
});

test('one-block SELECTs over V3 patterns print a vertex set, a table, or one aggregate row', async () => {
  const f = await financeDb();
  try {
    const { code, out } = await f.shell(`USE GRAPH finance
SELECT s FROM (s:Account) WHERE s.name IN ("Ava", "Cleo") ORDER BY s.name DESC
SELECT s.name, e.amount AS amt FROM (s:Account)-[e:transfer]->(t:Account) ORDER BY amt DESC LIMIT 2
SELECT count(*) FROM (x:Account:City)
BEGIN
LET
  SumAccum<INT> @@n;
  SumAccum<INT> @got;
IN
  SELECT t FROM (s:Account {name: "Ava"})-[e:transfer]->(t:Account)
  ACCUM t.@got += e.amount, @@n += 1;
END
LET STRING who = "Dan"; IN SELECT s, count(t) AS reach FROM (s:Account {name: who})-[:transfer*1..2]->(t:Account);
`);
    assert.equal(code, 0, out);
    const results = (printedJson(out) as { results: unknown[] }[]).map((d) => d.results);
    const account = (name: string, blocked: boolean, extra = {}) => ({
      v_id: name,
      v_type: 'Account',
      attributes: { name, isBlocked: blocked, ...extra },
    });
    assert.deepEqual(results, [
      [{ Result_Vertex_Set: [account('Cleo', true), account('Ava', false)] }],
      [
        {
          Result_Table: [
            { name: 'Ben', amt: 1200 },
            { name: 'Dan', amt: 900 },
          ],
        },
      ],
      [{ Result_Table: { count_lparen_1_rparen_: 8 } }],
      [{ Result_Vertex_Set: [account('Ben', false, { '@got': 1000 })] }, { '@@n': 2 }],
      [{ Result_Table: [{ s: 'Dan', reach: 5 }] }],
    ]);
  } finally {
    await f.close();
  }
});
