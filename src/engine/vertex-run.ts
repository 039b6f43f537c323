/**
 * Bulk vertex upsert (WriteTx.upsertVertices): a run of vertices of one type, as a REST++ upsert body
 * lists them. The outcome is that of upsertVertex on each vertex in order. What upsertVertex does per
 * vertex is done once per run here: the table, its columns and defaults, marking the table. A new vertex's attributes are read straight from its input (per-vertex records, or
 * per-attribute columns) into the table's columns, without an intermediate list. The run is logged as one UPSERT_VERTICES op (wal-record.ts).
 */
import { attributeDefault } from '../catalog/defaults.js';
import type { Value } from '../catalog/value.js';
import type { Column } from '../store/columns.js';
import { WRITER_VERSION } from '../store/vertex-table.js';
import {
  type AttrShape,
  type AttrUpdate,
  type EdgeRunShapes,
  EngineError,
  type ExternalId,
  type UpsertOp,
  type VertexRun,
  type VertexRunColumn,
  type VertexRunCounts,
} from './api.js';
import { idReader } from './id-reader.js';
import { checkValue, parseId, typeName } from './values.js';
import type { Checked, WriteTxImpl } from './write-tx.js';

const NO_CHECKED: Checked[] = [];
const NO_KEY_VALUES: Value[] = [];

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

export function upsertVertexRun(tx: WriteTxImpl, run: VertexRun): VertexRunCounts {
  const counts: VertexRunCounts = { inserted: 0, updated: 0, skipped: 0, invalid: 0 };
  if (run.end <= run.start) return counts;
  const t = tx.tableOf(run.vertexType);
  const vt = t.type;
  const catalog = tx.graph.catalog;
  const version = tx.commitVersion;
  const record = tx.record;
  const reader = idReader(vt);
  // Key attributes (PRIMARY KEY / composite types) take the id's values, never the given ones.
  const keyAttrs = vt.keyAttributes;
  const attributes = vt.attributes;
  const n = attributes.length;
  const keyIndex = attributes.map((a) => (keyAttrs.length === 0 ? -1 : keyAttrs.indexOf(a.name)));
  const names = attributes.map((a) => a.name);
  const cols = attributes.map((a) => t.columns.get(a.name) as Column);
  const defaults = attributes.map((a) => attributeDefault(catalog, a));
  // Collection defaults are objects: each new vertex gets its own, as upsertVertex gives it.
  const shared = defaults.map((d) => typeof d !== 'object' || d === null);
  const given: (Value | undefined)[] = new Array<Value | undefined>(n).fill(undefined);
  const givenOp: UpsertOp[] = new Array<UpsertOp>(n).fill('set');
  const columns = run.columns;
  // The attribute a name writes: -1 for a name the type lacks or a key attribute (ignored).
  const attrOf = (name: string): number => {
    const j = names.indexOf(name);
    return j >= 0 && keyIndex[j] < 0 ? j : -1;
  };
  // The attribute each column writes.
  const columnAttr = columns === undefined ? [] : columns.map((c) => attrOf(c.name));
  // The vertex being written, for error messages.
  let cur: ExternalId = '';
  const where = (): string => `vertex type '${vt.name}' (id '${String(cur)}')`;
  const invalidValue = (name: string, i: number): EngineError =>
    new EngineError(
      'REST-30200',
      `Invalid value for attribute '${name}' of ${where()}: expected ${typeName(attributes[i].type)}.`,
    );
  /** Checks value u of attribute j into `given` (its op into `givenOp`); 1 when j had none yet. */
  const give = (j: number, u: Value, op: UpsertOp): number => {
    const v = checkValue(attributes[j].type, u, catalog);
    if (v === undefined) throw invalidValue(names[j], j);
    const fresh = given[j] === undefined ? 1 : 0;
    given[j] = v;
    givenOp[j] = op;
    return fresh;
  };
  /** Checks vertex i's column values into `given` (and their ops into `givenOp`); returns how many. */
  const gather = (i: number): number => {
    const cs = columns as readonly VertexRunColumn[];
    let count = 0;
    for (let c = 0; c < cs.length; c++) {
      const j = columnAttr[c];
      if (j < 0) continue;
      const u = cs[c].values[i];
      if (u !== undefined) count += give(j, u, cs[c].ops?.[i] ?? 'set');
    }
    return count;
  };
  const shapes = columns === undefined ? run.shapes : undefined;
  // The attribute each name of a shape writes, worked out once per shape.
  const shapeAttrs = new Map<AttrShape, Int32Array>();
  const attrsOf = (shape: AttrShape): Int32Array => {
    let out = shapeAttrs.get(shape);
    if (out === undefined) {
      out = Int32Array.from(shape.names, attrOf);
      shapeAttrs.set(shape, out);
    }
    return out;
  };
  /** Whether vertex i's attributes are given by shape (VertexRun.shapes). */
  const byShape = (i: number): boolean =>
    shapes !== undefined && (run.attrs === null || run.attrs[i] === null) && shapes.of[i] >= 0;
  /** gather for a vertex given by shape. */
  const gatherShape = (i: number): number => {
    const sh = shapes as EdgeRunShapes;
    const shape = sh.list[sh.of[i]];
    const to = attrsOf(shape);
    const at = sh.at[i];
    let count = 0;
    for (let c = 0; c < to.length; c++) {
      const j = to[c];
      if (j >= 0) count += give(j, sh.values[at + c], shape.ops[c]);
    }
    return count;
  };
  /** The gathered values as upsertVertex's checked updates, `given` cleared. */
  const takeChecked = (): Checked[] => {
    const out: Checked[] = [];
    for (let j = 0; j < n; j++) {
      const v = given[j];
      if (v === undefined) continue;
      out.push({ attr: attributes[j], value: v, op: givenOp[j] });
      given[j] = undefined;
    }
    return out;
  };
  tx.changes.markTable(t);
  // Rows are made room for as they are allocated (geometrically): reserving the run's length up
  // front would leave rows past the table's count in the value columns' tails when some of the
  // run's vertices exist, which the background merge then counts as not folded.
  record.beginVertexRun(vt.name);
  try {
    for (let i = run.start; i < run.end; i++) {
      const id = run.ids[i];
      cur = id;
      try {
        const key = reader.keyOf(id);
        const attrs: Record<string, AttrUpdate> | null =
          run.attrs === null || columns !== undefined ? null : run.attrs[i];
        const hasAttrs = attrs !== null && !isEmpty(attrs);
        const shaped = byShape(i);
        const row = t.lookup(key, WRITER_VERSION);
        if (row !== undefined) {
          let checked = NO_CHECKED;
          if (columns !== undefined) {
            if (gather(i) > 0) checked = takeChecked();
          } else if (shaped) {
            if (gatherShape(i) > 0) checked = takeChecked();
          } else if (hasAttrs) checked = tx.checkAttrs(attrs, attributes, keyAttrs, where);
          tx.updateVertexCells(t, row, checked, where, true);
          counts.updated++;
          continue;
        }
        if (t.permanentlyDeleted.size > 0 && t.permanentlyDeleted.has(key)) {
          counts.skipped++;
          continue;
        }
        // Every value is checked before the row exists, so a refused vertex leaves nothing behind.
        let logged = 0;
        if (columns !== undefined) logged = gather(i);
        else if (shaped) logged = gatherShape(i);
        else if (hasAttrs) {
          for (let j = 0; j < n; j++) {
            if (keyIndex[j] >= 0) continue;
            const u = attrs[names[j]];
            if (u === undefined || !Object.hasOwn(attrs, names[j])) continue;
            const v = checkValue(attributes[j].type, u.value, catalog);
            if (v === undefined) throw invalidValue(names[j], j);
            given[j] = v;
            logged++;
          }
        }
        let idValue: Value = key;
        let keyValues = NO_KEY_VALUES;
        if (!reader.keyIsValue) {
          const p = parseId(vt, id);
          idValue = p.value;
          keyValues = p.keyValues;
        }
        const newRow = t.allocRow(key, version);
        t.idColumn.init(newRow, idValue);
        t.live.current++;
        counts.inserted++;
        record.runVertex(idValue, logged);
        for (let j = 0; j < n; j++) {
          const k = keyIndex[j];
          const g = given[j];
          if (k >= 0) cols[j].init(newRow, keyValues[k]);
          else if (g !== undefined) {
            cols[j].init(newRow, g);
            record.runAttr(names[j], g);
            given[j] = undefined;
          } else cols[j].init(newRow, shared[j] ? defaults[j] : attributeDefault(catalog, attributes[j]));
        }
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        given.fill(undefined);
        counts.invalid++;
      }
    }
  } finally {
    record.endRun();
  }
  return counts;
}
