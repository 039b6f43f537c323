import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Catalog, VertexType } from '../../../src/catalog/types.js';
import { Database } from '../../../src/engine/database.js';
import { JsonWriter } from '../../../src/server/http/json-writer.js';
import type { ReadTx } from '../../../src/engine/api.js';
import { vertexJson, vertexRowText } from '../../../src/server/restpp/graph-records.js';
import { writeVertexRows } from '../../../src/server/restpp/vertex-bytes.js';
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
/** Integer ids within ±2^53 and no attributes: the list writes them from the id numbers. */
const counter: VertexType = { ...node, name: 'Counter', primaryId: { name: 'id', type: { kind: 'UINT', bytes: 8 } } };
const small: VertexType = { ...node, name: 'Small' };
const catalog: Catalog = {
  version: 1,
  tuples: [],
  jobs: [],
  graphs: [{ name: 'g', vertexTypes: ['Person', 'Event', 'Node', 'Counter', 'Small'], edgeTypes: [] }],
  vertexTypes: [person, event, node, counter, small],
  edgeTypes: [],
};

/** The list's bytes of these rows, as text. */
function listed(
  tx: ReadTx,
  vt: VertexType,
  rows: number[],
  attrs: string[] | undefined,
): string {
  const w = new JsonWriter().begin();
  writeVertexRows(w, tx, vt, rows, attrs, vertexAttrTypes(vt));
  return w.finish().toString('utf8');
}

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
      for (const id of ['0', '9', '10', '99', '100', '2147483647', '2147483648', '9007199254740991']) {
        tx.upsertVertex('Counter', id, {});
      }
      for (const id of ['7', '-0', '-1', '-2147483648', '-2147483649', '123456789012', '-9007199254740991']) {
        tx.upsertVertex('Small', id, {});
      }
    });
    const tx = db.read();
    try {
      assert.notEqual(tx.vertexRows('Counter').idNumbers, null);
      assert.equal(tx.vertexRows('Node').idNumbers, null, 'an id past 2^53');
      for (const vt of [person, event, node, counter, small]) {
        const rows = Array.from(tx.rows(vt.name));
        assert.ok(rows.length >= 1);
        for (const attrs of [undefined, [], ['score', vt.primaryId.name], ['big']]) {
          const types = vertexAttrTypes(vt);
          const records = rows.map((row) => vertexJson(tx.vertex(vt.name, row, attrs), types, tx.catalog));
          const what = `${vt.name} ${String(attrs)}`;
          assert.equal(listed(tx, vt, rows, attrs), stringifyJson(records), what);
          assert.equal(listed(tx, vt, rows.slice(1, 2), attrs), stringifyJson(records.slice(1, 2)), what);
          assert.equal(listed(tx, vt, [], attrs), '[]', what);
          rows.forEach((row, i) => {
            const one = vertexRowText(tx, vt, row, attrs, types);
            // Marked ASCII exactly where the type and selection can only write ASCII.
            assert.deepEqual(one, { json: stringifyJson(records[i]), ascii: vt !== person }, what);
            if (one.ascii) assert.match(one.json, /^[\x20-\x7e]*$/, what);
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
