import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';

// dist/test/shell -> the fixture sources in test/fixtures/query/gsql101
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/query/gsql101');

const STEP1 = `CREATE VERTEX person (PRIMARY_ID name STRING, name STRING, age INT, gender STRING, state STRING)
CREATE UNDIRECTED EDGE friendship (FROM person, TO person, connect_day DATETIME)
CREATE GRAPH social (person, friendship)
USE GRAPH social
CREATE LOADING JOB load_social FOR GRAPH social {
   DEFINE FILENAME file1="${join(FIXTURES, 'person.csv')}";
   DEFINE FILENAME file2="${join(FIXTURES, 'friendship.csv')}";
   LOAD file1 TO VERTEX person VALUES ($"name", $"name", $"age", $"gender", $"state") USING header="true", separator=",";
   LOAD file2 TO EDGE friendship VALUES ($0, $1, $2) USING header="true", separator=",";
}
RUN LOADING JOB load_social
`;

const STEP3 = `USE GRAPH social
CREATE QUERY hello(VERTEX<person> p) {
  Start = {p};
  Result = SELECT tgt
           FROM Start:s-(friendship:e) ->person:tgt;
  PRINT Result;
}
CREATE QUERY hello2 (VERTEX<person> p) {
  OrAccum  @visited = false;
  AvgAccum @@avgAge;
  Start = {p};

  FirstNeighbors = SELECT tgt
                   FROM Start:s -(friendship:e)- person:tgt
                   ACCUM tgt.@visited += true, s.@visited += true;

  SecondNeighbors = SELECT tgt
                    FROM FirstNeighbors -(:e)- :tgt
                    WHERE tgt.@visited == false
                    POST_ACCUM @@avgAge += tgt.age;

  PRINT SecondNeighbors;
  PRINT @@avgAge;
}
INSTALL QUERY hello, hello2
RUN QUERY hello("Tom")
RUN QUERY hello2("Tom")
`;

interface VertexJson {
  v_id: string;
  v_type: string;
  attributes: Record<string, unknown>;
}

/** The JSON documents a gsql session printed for its RUN QUERY statements. */
function envelopes(out: string): { error: boolean; results: Record<string, unknown>[] }[] {
  const docs: { error: boolean; results: Record<string, unknown>[] }[] = [];
  const re = /^\{\n[\s\S]*?^\}$/gm;
  for (const m of out.match(re) ?? [])
    docs.push(JSON.parse(m) as { error: boolean; results: Record<string, unknown>[] });
  return docs;
}

const byId = (a: VertexJson, b: VertexJson): number => (a.v_id < b.v_id ? -1 : 1);

test('GSQL 101 end to end through the shell: schema, loading job, hello and hello2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-gsql101-'));
  const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  try {
    let out = '';
    const session = { user: 'tigergraph' };
    assert.equal(await runScript(db, STEP1, session, (t) => (out += t), { importDirs: [FIXTURES] }), 0, out);
    out = '';
    const code = await runScript(db, STEP3, session, (t) => (out += t), { importDirs: [FIXTURES] });
    assert.equal(code, 0, out);
    assert.match(
      out,
      /Successfully created queries: \[hello\]\.\nSuccessfully created queries: \[hello2\]\./,
    );
    assert.match(out, /Query installation finished\./);
    const [hello, hello2] = envelopes(out);
    assert.equal(hello.error, false);
    const person = (name: string, age: number, gender: string, state: string, extra = {}): VertexJson => ({
      v_id: name,
      v_type: 'person',
      attributes: { name, age, gender, state, ...extra },
    });
    assert.deepEqual((hello.results[0].Result as VertexJson[]).sort(byId), [
      person('Dan', 34, 'male', 'ny'),
      person('Jenny', 25, 'female', 'tx'),
    ]);
    assert.deepEqual((hello2.results[0].SecondNeighbors as VertexJson[]).sort(byId), [
      person('Amily', 22, 'female', 'ca', { '@visited': false }),
      person('Kevin', 28, 'male', 'az', { '@visited': false }),
      person('Nancy', 20, 'female', 'ky', { '@visited': false }),
    ]);
    assert.deepEqual(hello2.results[1], { '@@avgAge': 23.33333333333333 });
    out = '';
    assert.equal(
      await runScript(db, 'USE GRAPH social\nls', session, (t) => (out += t), { importDirs: [FIXTURES] }),
      0,
      out,
    );
    assert.match(
      out,
      /Queries:\n {2}- hello\(VERTEX<person> p\) \(installed v2\)\n {2}- hello2\(VERTEX<person> p\) \(installed v2\)\n/,
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
