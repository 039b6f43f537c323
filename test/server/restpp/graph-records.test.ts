import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Catalog, VertexType } from '../../../src/catalog/types.js';
import { Database } from '../../../src/engine/database.js';
import { vertexJson, vertexRowTexts } from '../../../src/server/restpp/graph-records.js';
import { vertexAttrTypes } from '../../../src/server/restpp/graph-schema.js';
import { stringifyJson } from '../../../src/util/json.js';

const person: VertexType = {
  name: 'Person',
  keyKind: 'primary_id',
  primaryId: { name: 'pid', type: { kind: 'STRING', compress: false } },
  keyAttributes: [],
  primaryIdAsAttribute: true,
  attributes: [
    { name: 'age', type: { kind: 'INT', bytes: 8 } },
    { name: 'score', type: { kind: 'DOUBLE' } },
    { name: 'tags', type: { kind: 'SET', element: { kind: 'STRING', compress: false } } },
  ],
  stats: 'OUTDEGREE_BY_EDGETYPE',
};
const event: VertexType = {
  name: 'Event',
  keyKind: 'primary_id',
  primaryId: { name: 'at', type: { kind: 'DATETIME' } },
  keyAttributes: [],
  primaryIdAsAttribute: false,
  attributes: [{ name: 'big', type: { kind: 'UINT', bytes: 8 } }],
  stats: 'OUTDEGREE_BY_EDGETYPE',
};
const catalog: Catalog = {
  version: 1,
  tuples: [],
  jobs: [],
  graphs: [{ name: 'g', vertexTypes: ['Person', 'Event'], edgeTypes: [] }],
  vertexTypes: [person, event],
  edgeTypes: [],
};

test('vertex rows written from columns are the texts of their records, selected or not', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-records-'));
  const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  try {
    await db.changeCatalog(catalog);
    await db.write((tx) => {
      tx.upsertVertex('Person', 'a"\\é', {
        age: { value: -7, op: 'set' },
        score: { value: 0.1, op: 'set' },
        tags: { value: ['x', 'y\n'], op: 'set' },
      });
      tx.upsertVertex('Person', 'b', {});
      tx.upsertVertex('Event', '2024-06-15 12:30:45', { big: { value: 18446744073709551615n, op: 'set' } });
    });
    const tx = db.read();
    try {
      for (const vt of [person, event]) {
        const rows = Array.from(tx.rows(vt.name));
        for (const attrs of [undefined, [], ['score', vt.primaryId.name], ['big']]) {
          const types = vertexAttrTypes(vt);
          const expected = rows.map((row) =>
            stringifyJson(vertexJson(tx.vertex(vt.name, row, attrs), types, tx.catalog)),
          );
          assert.deepEqual(
            vertexRowTexts(tx, vt, rows, attrs, types),
            expected,
            `${vt.name} ${String(attrs)}`,
          );
        }
      }
      const [first] = vertexRowTexts(
        tx,
        person,
        [tx.lookup('Person', 'a"\\é')!],
        undefined,
        vertexAttrTypes(person),
      );
      assert.deepEqual(JSON.parse(first), {
        v_id: 'a"\\é',
        v_type: 'Person',
        attributes: { pid: 'a"\\é', age: -7, score: 0.1, tags: ['x', 'y\n'] },
      });
    } finally {
      tx.release();
    }
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
});
