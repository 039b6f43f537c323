import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphDef } from '../../../src/catalog/types.js';
import type { ReadTx } from '../../../src/engine/api.js';
import { Database } from '../../../src/engine/database.js';
import { applyUpsert, type UpsertFlags } from '../../../src/server/restpp/graph-upsert-apply.js';
import { decodeUpsertBody } from '../../../src/server/restpp/graph-upsert-body.js';
import { prepareUpsert } from '../../../src/server/restpp/graph-upsert.js';
import { JsonReader } from '../../../src/util/json-parse.js';
import { testCatalog } from './graph-fixture.js';

const NO_FLAGS: UpsertFlags = {
  newVertexOnly: false,
  updateVertexOnly: false,
  vertexMustExist: false,
  sourceVertexMustExist: false,
  targetVertexMustExist: false,
};

async function upsert(db: Database, text: string, flags = NO_FLAGS) {
  const graph = db.catalog.graphs[0] as GraphDef;
  const plan = prepareUpsert(db.catalog, graph, decodeUpsertBody(new JsonReader(text)));
  return db.write((tx) => applyUpsert(tx, plan, flags));
}

/** Every edge read from each vertex4 and vertex5 vertex (undirected and reverse edges from both ends), sorted. */
function edges(r: ReadTx): string[] {
  const out: string[] = [];
  for (const type of ['vertex4', 'vertex5']) {
    for (const row of r.rows(type)) {
      for (const e of r.edges(type, row)) {
        const rec = r.edgeRecord(e);
        out.push(
          `${rec.e_type} ${rec.from_type}:${rec.from_id}>${rec.to_type}:${rec.to_id} ${JSON.stringify(rec.attributes)}`,
        );
      }
    }
  }
  return out.sort();
}

test('edges of several types, orientations and repeats apply in body order, and survive a restart', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-upsert-apply-'));
  try {
    let db = await Database.open({ dataDir: dir, sync: 'always', rebuildIntervalMs: 0 });
    await db.changeCatalog(testCatalog());
    const counts = await upsert(
      db,
      '{"vertices":{"vertex4":{"1":{"a01":{"value":10}}}},"edges":{' +
        '"vertex4":{"1":{"edge2_directed":{"vertex5":{"1":{"a01":{"value":1}},"2":{}}},' +
        '"edge1_undirected":{"vertex5":{"1":{"a01":{"value":5}}}},' +
        '"edge7_multi":{"vertex5":{"1":{"d":{"value":1}},"1":{"d":{"value":2},"a01":{"value":9}}}}},' +
        '"2":{"edge2_directed":{"vertex5":{"1":{"a01":{"value":2}}}}}},' +
        '"vertex5":{"3":{"edge1_undirected":{"vertex4":{"1":{"a01":{"value":7}}}},' +
        '"edge3_directed_with_reverse_reverse_edge":{"vertex4":{"3":{"a01":{"value":3}}}}}}}}',
    );
    assert.deepEqual(counts, { accepted_vertices: 1, accepted_edges: 8 });
    // The same directed edge again, with "+": an update of the edge written above, in the same run shape.
    const again = await upsert(
      db,
      '{"edges":{"vertex4":{"1":{"edge2_directed":{"vertex5":{"1":{"a01":{"value":5,"op":"+"}},"1":{"a01":{"value":1,"op":"+"}}}}}}}}',
    );
    assert.deepEqual(again, { accepted_vertices: 0, accepted_edges: 2 });
    const expected = [
      'edge1_undirected vertex4:1>vertex5:1 {"a01":5}',
      'edge1_undirected vertex4:1>vertex5:3 {"a01":7}',
      'edge1_undirected vertex5:1>vertex4:1 {"a01":5}',
      'edge1_undirected vertex5:3>vertex4:1 {"a01":7}',
      'edge2_directed vertex4:1>vertex5:1 {"a01":7}',
      'edge2_directed vertex4:1>vertex5:2 {"a01":0}',
      'edge2_directed vertex4:2>vertex5:1 {"a01":2}',
      'edge3_directed_with_reverse vertex4:3>vertex5:3 {"a01":3}',
      'edge3_directed_with_reverse_reverse_edge vertex5:3>vertex4:3 {"a01":3}',
      'edge7_multi vertex4:1>vertex5:1 {"d":1,"a01":0}',
      'edge7_multi vertex4:1>vertex5:1 {"d":2,"a01":9}',
    ];
    let r = db.read();
    assert.deepEqual(edges(r), expected);
    // Endpoints the edges named were created with default attributes.
    assert.deepEqual(
      [...r.rows('vertex4')].map((row) => r.vertexId('vertex4', row)),
      ['1', '2', '3'],
    );
    assert.equal(r.attr('vertex4', r.lookup('vertex4', '2') as number, 'a01'), 0);
    r.release();
    await db.close();
    db = await Database.open({ dataDir: dir, sync: 'always', rebuildIntervalMs: 0 });
    r = db.read();
    assert.deepEqual(edges(r), expected);
    r.release();
    await db.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
