/**
 * Regression tests of bugs the reliability runs found in code owned by others (all fixed by their
 * owners since): a bigint inside a JSON loading line answered 500, `s.id` of a vertex type WITH
 * primary_id_as_attribute was refused in queries, installed queries were lost on restart.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runScript } from '../../src/shell/run-script.js';
import { checkedRequest, startFuzzServer, type FuzzServer } from './fuzz-helpers.js';
import { cleanup, gsql, startServe, tempDir } from './server-process.js';

let fz: FuzzServer;
before(async () => {
  fz = await startFuzzServer();
});
after(async () => {
  await fz.close();
  cleanup();
});

test('POST /ddl JSON line with a big integer inside an array: clean answer, not 500', async () => {
  const body = '{"id": 5, "v": [[-9007199254740993]]}\n';
  await checkedRequest(fz, `${fz.restpp}/ddl/G?tag=load_json&filename=f`, { method: 'POST', body });
});

test('a query reads the primary id of a vertex type WITH primary_id_as_attribute as s.id', async () => {
  let out = '';
  const code = await runScript(
    fz.servers.db,
    'INTERPRET QUERY () FOR GRAPH G { S = {Item.*}; S = SELECT s FROM S:s WHERE s.id == "i1"; PRINT S.size() AS n; }',
    { user: 'tigergraph', graph: 'G' },
    (t) => (out += t),
  );
  assert.equal(code, 0, out);
  assert.match(out, /"n": 1/);
});

test('an installed query survives a restart', async () => {
  const data = join(tempDir(), 'data');
  let s = await startServe({ dataDir: data });
  try {
    const made = await gsql(
      s.gsql,
      'CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)\nUSE GRAPH G\nCREATE QUERY q() FOR GRAPH G { PRINT 1 AS one; }\nINSTALL QUERY q',
    );
    assert.equal(made.code, 0, made.out);
    await s.kill();
    s = await startServe({ dataDir: data });
    const ran = await gsql(s.gsql, 'RUN QUERY q()', 'G');
    assert.equal(ran.code, 0, ran.out);
  } finally {
    await s.kill();
  }
});
