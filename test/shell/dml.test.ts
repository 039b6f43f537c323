import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';

let dir: string;
let db: Database;

const SCHEMA = `
CREATE VERTEX vertex4 (PRIMARY_ID id INT, a01 INT)
CREATE VERTEX vertex5 (PRIMARY_ID id INT)
CREATE VERTEX person (PRIMARY_ID name STRING, born DATETIME, tags LIST<INT>)
CREATE VERTEX comp (a01 INT, a02 STRING, a03 BOOL, PRIMARY KEY (a01, a02))
CREATE UNDIRECTED EDGE edge1_undirected (FROM vertex4, TO vertex5, a01 INT)
CREATE DIRECTED EDGE edge2_directed (FROM vertex4, TO vertex5, a01 INT)
CREATE GRAPH tests (vertex4, vertex5, person, comp, edge1_undirected, edge2_directed)
`;

async function run(text: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runScript(db, text, { user: 'tigergraph', graph: 'tests' }, (t) => {
    out += t;
  });
  return { code, out };
}

function vertices(type: string): Record<string, unknown>[] {
  const tx = db.read();
  try {
    return Array.from(tx.rows(type), (row) => {
      const r = tx.vertex(type, row);
      return { id: r.v_id, ...r.attributes };
    });
  } finally {
    tx.release();
  }
}

function edgeCount(type: string): number {
  const tx = db.read();
  try {
    return tx.edgeCount(type);
  } finally {
    tx.release();
  }
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocelot-dml-'));
  db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  let out = '';
  const code = await runScript(db, SCHEMA, { user: 'tigergraph' }, (t) => {
    out += t;
  });
  assert.equal(code, 0, out);
});
after(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

test("pyTigerGraph's test-graph UPSERT lines load vertices and edges", async () => {
  const lines = [1, 2, 3, 4, 5].map((i) => `UPSERT vertex4 VALUES(${i}, ${i})`);
  lines.push(...[1, 2, 3, 4, 5].map((i) => `UPSERT vertex5 VALUES(${i})`));
  for (const [s, t, a] of [
    [1, 1, 1],
    [1, 2, 2],
    [1, 3, 2],
    [2, 2, 2],
  ]) {
    lines.push(`UPSERT vertex4 -(edge1_undirected)->            vertex5 VALUES (${s}, ${t}, ${a})`);
  }
  lines.push('UPSERT vertex4 -(edge2_directed)-> vertex5 VALUES (2, 1, 2);');
  const r = await run(lines.join('\n'));
  assert.equal(r.code, 0, r.out);
  assert.equal(r.out, '');
  assert.deepEqual(
    vertices('vertex4').map((v) => [v.id, v.a01]),
    [
      ['1', 1],
      ['2', 2],
      ['3', 3],
      ['4', 4],
      ['5', 5],
    ],
  );
  assert.equal(vertices('vertex5').length, 5);
  assert.equal(edgeCount('edge1_undirected'), 4);
  assert.equal(edgeCount('edge2_directed'), 1);
  // Upserting again updates in place.
  assert.equal((await run('UPSERT vertex4 VALUES (3, 30)')).code, 0);
  assert.equal(vertices('vertex4').find((v) => v.id === '3')?.a01, 30);
});

test('UPSERT converts strings, datetimes, lists and composite keys', async () => {
  const r = await run(
    'UPSERT person VALUES ("Ann", "2020-01-02 03:04:05", [1, 2])\nUPSERT comp VALUES (7, "x", true)',
  );
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(vertices('person'), [
    { id: 'Ann', born: Date.UTC(2020, 0, 2, 3, 4, 5) / 1000, tags: [1, 2] },
  ]);
  assert.deepEqual(vertices('comp'), [{ id: '7,x', a01: 7, a02: 'x', a03: true }]);
});

test('bad UPSERTs report the problem with its position and change nothing', async () => {
  const before4 = vertices('vertex4');
  const cases: [string, string, number][] = [
    ['UPSERT vertex4 VALUES (9)', 'expects 2 value(s) (id, a01) but got 1. (line 1, column 1)', 212],
    ['UPSERT vertex4 VALUES (9, "abc")', "Invalid value 'abc' for attribute 'a01'", 212],
    ['UPSERT vertex4 VALUES ("x", 1)', "Invalid id 'x'", 212],
    ['UPSERT nope VALUES (1)', "The vertex type 'nope' does not exist in graph 'tests'", 212],
    ['UPSERT vertex4 -(nope)-> vertex5 VALUES (1, 2)', "The edge type 'nope' does not exist", 212],
    [
      'UPSERT vertex5 -(edge2_directed)-> vertex4 VALUES (1, 2, 3)',
      "does not connect vertex type 'vertex5' to 'vertex4'",
      212,
    ],
    ['UPSERT vertex4 VALUES (9 9)', 'line 1, column 26: expected ")" but found "9"', 211],
  ];
  for (const [text, fragment, code] of cases) {
    const r = await run(text);
    assert.equal(r.code, code, `${text}: ${r.out}`);
    assert.ok(r.out.includes(fragment), `${text}: ${r.out}`);
  }
  assert.deepEqual(vertices('vertex4'), before4);
});

test('DELETE vertices by condition and edges by pattern', async () => {
  let r = await run('DELETE FROM vertex4 -(edge1_undirected)-> vertex5 WHERE from_id == 1 AND a01 > 1');
  assert.equal(r.code, 0, r.out);
  assert.equal(edgeCount('edge1_undirected'), 2);
  r = await run('DELETE FROM vertex4 WHERE a01 >= 4 OR primary_id == 1');
  assert.equal(r.code, 0, r.out);
  // vertex4 3 has a01 = 30 since the update above.
  assert.deepEqual(
    vertices('vertex4').map((v) => v.id),
    ['2'],
  );
  // Deleting vertex 1 removed its remaining edge.
  assert.equal(edgeCount('edge1_undirected'), 1);
  r = await run('DELETE FROM vertex4 WHERE nope == 1');
  assert.equal(r.code, 212);
  assert.ok(r.out.includes("'nope' is not an attribute of vertex type 'vertex4'"), r.out);
  r = await run('DELETE FROM comp WHERE primary_id == "7,x"');
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(vertices('comp'), []);
  r = await run('DELETE FROM vertex5');
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(vertices('vertex5'), []);
  assert.equal(edgeCount('edge2_directed'), 0);
});

test('other unsupported statements still report themselves', async () => {
  const r = await run('CREATE DATA_SOURCE S3 s1');
  assert.ok(r.out.includes('CREATE DATA_SOURCE is not supported yet.'), r.out);
});
