/**
 * INSERT INTO with a column list is an upsert of the listed columns, on the real engine. Update
 * workloads (LDBC SNB's inserts among them) name an edge's endpoints with an id-only INSERT before
 * inserting the edge: an existing vertex keeps its other attributes, a missing one is created.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { decodeJsonParams, executeQuery, registryFor } from '../../src/query/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { stringifyJson, type JsonValue } from '../../src/util/json.js';

let dir = '';
let db: Database;

async function gsql(text: string): Promise<void> {
  let out = '';
  const code = await runScript(db, text, { user: 'tigergraph', graph: 'g' }, (t) => (out += t), {});
  assert.equal(code, 0, out);
}

async function run(name: string, params: Record<string, JsonValue> = {}): Promise<JsonValue[]> {
  const q = registryFor(db).installed('g', name, db.catalog);
  const { results } = await executeQuery(db, q, decodeJsonParams(q.params, params));
  return JSON.parse(stringifyJson(results)) as JsonValue[];
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ocelot-upsert-'));
  db = await Database.open({ dataDir: join(dir, 'data'), sync: 'none', rebuildIntervalMs: 0 });
  await gsql(`CREATE VERTEX Member (id UINT PRIMARY KEY, name STRING, joined INT)
CREATE VERTEX Club (id UINT PRIMARY KEY, title STRING)
CREATE DIRECTED EDGE BELONGS (FROM Member, TO Club, since INT) WITH REVERSE_EDGE="BELONGS_REVERSE"
CREATE GRAPH g (*)
USE GRAPH g
CREATE QUERY seed() {
  INSERT INTO Member VALUES (1, "Ann", 2001);
  INSERT INTO Club VALUES (7, "Chess");
}
CREATE QUERY join_club(UINT member, UINT club, INT since) {
  INSERT INTO Member (id) VALUES (member);
  INSERT INTO Club (id) VALUES (club);
  INSERT INTO BELONGS VALUES (member Member, club Club, since);
}
CREATE QUERY rename(UINT member, STRING name) {
  INSERT INTO Member (id, name) VALUES (member, name);
}
CREATE QUERY show() {
  M = {Member.*};
  C = SELECT c FROM M:m -(BELONGS>:e)- Club:c ORDER BY c.id;
  M = SELECT m FROM M:m ORDER BY m.id;
  PRINT M[M.name, M.joined], C[C.title];
}
INSTALL QUERY *`);
  await run('seed');
});

after(async () => {
  await db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const rows = (set: JsonValue): [JsonValue, JsonValue][] =>
  (set as { v_id: string; attributes: Record<string, JsonValue> }[]).map((v) => [v.v_id, v.attributes]);

test('an id-only INSERT keeps an existing vertex attributes and creates a missing vertex with defaults', async () => {
  await run('join_club', { member: 1, club: 7, since: 2010 });
  await run('join_club', { member: 2, club: 8, since: 2011 });
  const [out] = (await run('show')) as Record<string, JsonValue>[];
  assert.deepEqual(rows(out.M), [
    ['1', { 'M.name': 'Ann', 'M.joined': 2001 }],
    ['2', { 'M.name': '', 'M.joined': 0 }],
  ]);
  assert.deepEqual(rows(out.C), [
    ['7', { 'C.title': 'Chess' }],
    ['8', { 'C.title': '' }],
  ]);
});

test('an INSERT of some columns changes only those', async () => {
  await run('rename', { member: 1, name: 'Anna' });
  const [out] = (await run('show')) as Record<string, JsonValue>[];
  assert.deepEqual(rows(out.M)[0], ['1', { 'M.name': 'Anna', 'M.joined': 2001 }]);
});
