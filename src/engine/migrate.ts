/**
 * Schema change: builds the store for a new catalog from the current one. Vertex types kept with the
 * same primary id keep their rows (attributes of an unchanged type are copied, added ones get their
 * defaults, dropped ones vanish); edge types kept keep the edges whose two endpoint types are still
 * allowed; dropped types disappear with their edges; new types start empty. The old store is not
 * touched, so readers pinned to it are unaffected.
 */
import { attributeDefault } from '../catalog/defaults.js';
import type { Catalog, VertexType } from '../catalog/types.js';
import { mergeBlock } from '../store/edge-block.js';
import { GraphStore } from '../store/graph-store.js';
import { VertexTable } from '../store/vertex-table.js';
import { pairAllowed } from './schema.js';

function sameType(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameKey(a: VertexType, b: VertexType): boolean {
  return (
    a.keyKind === b.keyKind &&
    sameType(a.primaryId.type, b.primaryId.type) &&
    sameType(a.keyAttributes, b.keyAttributes)
  );
}

function migrateTable(old: VertexTable, vt: VertexType, next: Catalog, version: number): VertexTable {
  const t = new VertexTable(vt, version);
  const n = old.count;
  t.ensure(n);
  t.count = n;
  t.created.set(old.created.subarray(0, n));
  t.deleted.set(old.deleted.subarray(0, n));
  t.prev.set(old.prev.subarray(0, n));
  for (const [k, v] of old.index.entries()) t.index.set(k, v);
  for (const k of old.permanentlyDeleted) t.permanentlyDeleted.add(k);
  for (let r = 0; r < n; r++) t.idColumn.init(r, old.idColumn.get(r));
  for (const a of vt.attributes) {
    const col = t.columns.get(a.name);
    const oc = old.columns.get(a.name);
    if (!col) continue;
    if (oc && sameType(oc.type, a.type)) for (let r = 0; r < n; r++) col.init(r, oc.get(r));
    else {
      const d = attributeDefault(next, a);
      for (let r = 0; r < n; r++) col.init(r, d);
    }
  }
  t.live.current = old.live.current;
  t.live.log = [version, old.live.current];
  t.rebase();
  return t;
}

/** True when the catalog change leaves every stored type as it was (only queries, jobs, security…). */
function sameStoredSchema(a: Catalog, b: Catalog): boolean {
  const same = <T>(x: T, y: T): boolean => x === y || sameType(x, y);
  return same(a.vertexTypes, b.vertexTypes) && same(a.edgeTypes, b.edgeTypes) && same(a.tuples, b.tuples);
}

export function migrateStore(old: GraphStore, next: Catalog, version: number): GraphStore {
  if (sameStoredSchema(old.catalog, next)) {
    // Share the tables and blocks, as a rebuild shares tables: nothing stored depends on the change.
    const store = new GraphStore(next, version, old.tables);
    for (const b of old.blocks) store.addBlock(b);
    return store;
  }
  const tables = new Map<string, VertexTable>();
  const carried = new Set<string>();
  for (const vt of next.vertexTypes) {
    const ot = old.tables.get(vt.name);
    if (ot && sameKey(ot.type, vt)) {
      tables.set(vt.name, migrateTable(ot, vt, next, version));
      carried.add(vt.name);
    } else tables.set(vt.name, new VertexTable(vt, version));
  }
  const store = new GraphStore(next, version, tables);
  for (const et of next.edgeTypes) {
    for (const id of old.byEdgeType.get(et.name) ?? []) {
      const b = old.blocks[id];
      if (!carried.has(b.fromType) || !carried.has(b.toType) || !pairAllowed(et, b.fromType, b.toType))
        continue;
      if (et.directed !== b.edgeType.directed) continue;
      const fill = (name: string): ReturnType<typeof attributeDefault> => {
        const a = et.attributes.find((x) => x.name === name);
        return a ? attributeDefault(next, a) : '';
      };
      const from = tables.get(b.fromType) as VertexTable;
      const to = tables.get(b.toType) as VertexTable;
      store.addBlock(mergeBlock(b, version, from.count, to.count, et, fill));
    }
  }
  return store;
}
