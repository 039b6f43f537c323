import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';

/**
 * Bellman-Ford in the algorithm library's style: a round per vertex, then one more round that finds
 * a shorter path only when a negative loop exists, which RAISEs; LOG traces the rounds.
 */
const SSSP = `CREATE QUERY sssp (VERTEX<node> source, STRING e_type, INT debug = 0) SYNTAX V1 {
  MinAccum<FLOAT> @dist = 1000000;
  OrAccum @@has_neg_loop;
  STRING msg = "There is a loop with negative length.";
  EXCEPTION neg_loop (40999);
  All = {ANY};
  Start = {source};
  Start = SELECT s FROM Start:s POST-ACCUM s.@dist = 0;
  FOREACH i IN RANGE[1, All.size() - 1] DO
    S = SELECT t FROM All:s -(e_type:e)- :t
        WHERE s.@dist < 1000000
        ACCUM t.@dist += s.@dist + e.getAttr("w", "INT");
    LOG(debug > 0, "round", i);
  END;
  S = SELECT t FROM All:s -(e_type:e)- :t
      WHERE s.@dist < 1000000 AND s.@dist + e.getAttr("w", "INT") < t.@dist
      ACCUM @@has_neg_loop += TRUE;
  IF @@has_neg_loop THEN
    RAISE neg_loop (msg);
  END;
  R = SELECT s FROM All:s ORDER BY s.id;
  PRINT R[R.@dist];
}`;

test('an installed query RAISEs its exception through the shell: error envelope with code and message', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-raise-'));
  const db = await Database.open({ dataDir: join(dir, 'db'), sync: 'none', rebuildIntervalMs: 0 });
  try {
    writeFileSync(join(dir, 'road.csv'), 'a,b,4\nb,c,-1\na,c,5\n');
    writeFileSync(join(dir, 'loop.csv'), 'a,b,1\nb,c,-3\nc,b,1\n');
    const session = { user: 'tigergraph' };
    let out = '';
    const logged: string[] = [];
    const script = `CREATE VERTEX node (PRIMARY_ID id STRING) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE road (FROM node, TO node, w INT)
CREATE DIRECTED EDGE loop (FROM node, TO node, w INT)
CREATE GRAPH net (node, road, loop)
USE GRAPH net
CREATE LOADING JOB load_net FOR GRAPH net {
  DEFINE FILENAME f1="${join(dir, 'road.csv')}";
  DEFINE FILENAME f2="${join(dir, 'loop.csv')}";
  LOAD f1 TO EDGE road VALUES ($0, $1, $2) USING header="false", separator=",";
  LOAD f2 TO EDGE loop VALUES ($0, $1, $2) USING header="false", separator=",";
}
RUN LOADING JOB load_net
${SSSP}
INSTALL QUERY sssp
RUN QUERY sssp("a", "road", 1)
RUN QUERY sssp("a", "loop")
`;
    const code = await runScript(db, script, session, (t) => (out += t), {
      log: (l) => logged.push(l),
      importDirs: [dir],
    });
    const docs = (out.match(/^\{\n[\s\S]*?^\}$/gm) ?? []).map(
      (m) => JSON.parse(m) as Record<string, unknown>,
    );
    assert.equal(docs.length, 2, out);
    const row = (id: string, d: number): object => ({
      v_id: id,
      v_type: 'node',
      attributes: { 'R.@dist': d },
    });
    assert.deepEqual(docs[0].results, [{ R: [row('a', 0), row('b', 4), row('c', 3)] }]);
    assert.deepEqual(
      { error: docs[1].error, message: docs[1].message, code: docs[1].code, results: docs[1].results },
      { error: true, message: 'There is a loop with negative length.', code: '40999', results: [] },
    );
    assert.deepEqual(logged, ['[ocelot] LOG query sssp: round,1', '[ocelot] LOG query sssp: round,2']);
    assert.equal(code, 0, out);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
