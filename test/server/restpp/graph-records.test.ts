import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Catalog, VertexType } from '../../../src/catalog/types.js';
import { Database } from '../../../src/engine/database.js';
import { vertexJson, vertexRowsJson, vertexRowText } from '../../../src/server/restpp/graph-records.js';
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
const node: VertexType = {
  name: 'Node',
  keyKind: 'primary_id',
  primaryId: { name: 'id', type: { kind: 'INT', bytes: 8 } },
  keyAttributes: [],
  primaryIdAsAttribute: false,
  attributes: [],
  stats: 'OUTDEGREE_BY_EDGETYPE',
};
const catalog: Catalog = {
  version: 1,
  tuples: [],
  jobs: [],
  graphs: [{ name: 'g', vertexTypes: ['Person', 'Event', 'Node'], edgeTypes: [] }],
  vertexTypes: [person, event, node],
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
      for (const id of ['0', '-12', '9007199254740993']) tx.upsertVertex('Node', id, {});
    });
    const tx = db.read();
    try {
      for (const vt of [person, event, node]) {
        const rows = Array.from(tx.rows(vt.name));
        assert.ok(rows.length >= 1);
        for (const attrs of [undefined, [], ['score', vt.primaryId.name], ['big']]) {
          const types = vertexAttrTypes(vt);
          const records = rows.map((row) => vertexJson(tx.vertex(vt.name, row, attrs), types, tx.catalog));
          const what = `${vt.name} ${String(attrs)}`;
          const all = vertexRowsJson(tx, vt, rows, attrs, types);
          assert.equal(all.json, stringifyJson(records), what);
          // Marked ASCII exactly where the type and selection can only write ASCII.
          assert.equal(all.ascii, vt !== person, what);
          if (all.ascii) assert.match(all.json, /^[\x20-\x7e]*$/, what);
          assert.deepEqual(vertexRowsJson(tx, vt, [], attrs, types), { json: '[]', ascii: all.ascii }, what);
          rows.forEach((row, i) => {
            const one = vertexRowText(tx, vt, row, attrs, types);
            assert.deepEqual(one, { json: stringifyJson(records[i]), ascii: all.ascii }, what);
          });
        }
      }
      const first = vertexRowText(tx, person, tx.lookup('Person', 'a"\\é')!, undefined, vertexAttrTypes(person)).json;
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
