/**
 * Bulk edge upsert (WriteTx.upsertEdges): a run of edges of one edge type between one FROM and one
 * TO vertex type, as a loading batch produces them. The outcome is that of upsertEdge on each edge in
 * order. What upsertEdge does per edge is done once per run here: the route, the blocks, attribute
 * columns and defaults, sizing the delta, marking the block and the changed segments. The run is
 * logged as one UPSERT_EDGES op (wal-record.ts): ids and attributes only, with no op for endpoints
 * the run creates, because replaying the run creates them again in the same order.
 */
import { attributeDefault } from '../catalog/defaults.js';
import type { Value } from '../catalog/value.js';
import type { Column } from '../store/columns.js';
import type { EdgeBlock } from '../store/edge-block.js';
import { type IdKey, SEGMENT_BITS, type VertexTable, WRITER_VERSION } from '../store/vertex-table.js';
import type { Attribute } from '../catalog/types.js';
import {
  type AttrShape,
  type AttrUpdate,
  type EdgeRun,
  type EdgeRunCounts,
  EngineError,
  type ExternalId,
  type UpsertEdgeOptions,
} from './api.js';
import { type IdReader, idReader } from './id-reader.js';
import { applyOp, parseId } from './values.js';
import type { Checked, WriteTxImpl } from './write-tx.js';

const NO_CHECKED: Checked[] = [];
const NO_KEY_VALUES: Value[] = [];
const NOTHING_SKIPPED: string[] = [];
const NO_ATTRS: Record<string, AttrUpdate> = {};
/** Edges whose rows and adjacency are looked up together before they are written (see touchChunk). */
const CHUNK = 256;
/** Where the touched values go, so that the optimizer cannot drop the reads as dead code. */
let _touchSink = 0;

/** An id index entry that no row can have (~row is above it for every row an Int32Array holds). */
const ABSENT = -0x80000000;

/** The id index entry of an external id (row, or ~row when deleted), or ABSENT. */
function indexEntry(t: VertexTable, r: IdReader, id: ExternalId): number {
  try {
    return t.index.get(r.keyOf(id)) ?? ABSENT;
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    return ABSENT;
  }
}

/** Turns the first n index entries into the rows the writer sees (lookup at WRITER_VERSION), or -1. */
function writerRows(t: VertexTable, entries: Int32Array, n: number): void {
  const count = t.count;
  const deleted = t.deleted;
  for (let k = 0; k < n; k++) {
    const e = entries[k];
    const row = e === ABSENT ? -1 : e < 0 ? ~e : e;
    entries[k] = row >= 0 && row < count && deleted[row] === 0 ? row : -1;
  }
}

/** The segments a run touches, as bits, added to the table's dirty set once at the end. */
class SegmentMarks {
  private bits = new Uint8Array(16);
  constructor(private readonly table: VertexTable) {}

  mark(row: number): void {
    const s = row >>> SEGMENT_BITS;
    if (s >= this.bits.length) {
      const b = new Uint8Array(Math.max(s + 1, this.bits.length * 2));
      b.set(this.bits);
      this.bits = b;
    }
    this.bits[s] = 1;
  }

  flush(): void {
    for (let s = 0; s < this.bits.length; s++) if (this.bits[s] === 1) this.table.dirtySegments.add(s);
  }
}

export function upsertEdgeRun(tx: WriteTxImpl, run: EdgeRun, opts: UpsertEdgeOptions): EdgeRunCounts {
  const counts: EdgeRunCounts = { inserted: 0, updated: 0, skipped: 0, invalid: 0 };
  if (run.end <= run.start) return counts;
  const route = tx.route(run.edgeType, run.fromType, run.toType);
  // Discriminated edge types match on attribute values; they take the per-edge path.
  if (route.et.discriminator.length > 0) return oneByOne(tx, run, opts, counts);
  const { et, ft, tt } = route;
  const store = tx.graph;
  const version = tx.commitVersion;
  const changes = tx.changes;
  const record = tx.record;
  const fIds = route.swap ? run.toIds : run.fromIds;
  const tIds = route.swap ? run.fromIds : run.toIds;
  const attributes = et.attributes;
  const nAttrs = attributes.length;
  const attrsOf = nAttrs > 0 ? run.attrs : null;
  const shapes = nAttrs > 0 ? run.shapes : undefined;
  // The attribute each name of a shape sets, found once per shape and run.
  const shapeAttrs = new Map<AttrShape, (Attribute | undefined)[]>();
  let lastShape: AttrShape | undefined;
  let lastDeclared: (Attribute | undefined)[] = [];
  const checkShaped = (shape: AttrShape, vals: ArrayLike<Value>, at: number, out: Checked[]): Checked[] => {
    // Runs of a loading batch use one shape or two: the last one asked for is usually asked again.
    if (shape === lastShape) return tx.checkShaped(shape, lastDeclared, vals, at, where, out);
    let declared = shapeAttrs.get(shape);
    if (declared === undefined) {
      declared = shape.names.map((n) => attributes.find((x) => x.name === n));
      shapeAttrs.set(shape, declared);
    }
    lastShape = shape;
    lastDeclared = declared;
    return tx.checkShaped(shape, declared, vals, at, where, out);
  };
  // Reused by every edge of the run (an edge's checked values are used before the next edge's).
  const scratch: Checked[] = [];
  const sameType = ft === tt;
  const fr = idReader(ft.type);
  const tr = sameType ? fr : idReader(tt.type);
  const ftName = ft.type.name;
  const ttName = tt.type.name;
  // An undirected edge may be stored the other way round, in the reverse block (the same block
  // when both ends have one type). This run only writes its own block, so the lookup holds.
  const reverse = et.directed || sameType ? undefined : store.getBlock(et.name, ttName, ftName);
  const defaults = attributes.map((a) => attributeDefault(store.catalog, a));
  // Collection defaults are objects: each new edge gets its own, as upsertEdge gives it.
  const shared = defaults.map((d) => typeof d !== 'object' || d === null);
  const values: Value[] = defaults.slice();
  let block = route.block;
  let cols: Column[] = [];
  const useBlock = (b: EdgeBlock): void => {
    b.reserve(Math.max(run.end - run.start, opts.expectEdges ?? 0));
    cols = attributes.map((a) => b.columns.get(a.name) as Column);
  };
  if (block) useBlock(block);
  const fSegs = new SegmentMarks(ft);
  const tSegs = sameType ? fSegs : new SegmentMarks(tt);
  // The edge being written, for error messages.
  let curFrom: ExternalId = '';
  let curTo: ExternalId = '';
  const where = (): string =>
    `edge type '${run.edgeType}' (${ftName} '${String(curFrom)}' -> ${ttName} '${String(curTo)}')`;
  const newEndpoint = (t: VertexTable, r: IdReader, id: ExternalId, key: IdKey): number => {
    if (r.keyIsValue) return tx.insertVertex(t, key, key, NO_KEY_VALUES, NO_CHECKED, false);
    const p = parseId(t.type, id);
    return tx.insertVertex(t, p.key, p.value, p.keyValues, NO_CHECKED, false);
  };
  const createMissing = opts.createMissingEndpoints;
  const fRows = new Int32Array(CHUNK);
  const tRows = new Int32Array(CHUNK);
  // Rows remembered by id code (RowCache): checked like looked-up rows, and kept up to date here.
  const codes = run.codes;
  const fCodes = codes === undefined ? undefined : route.swap ? codes.to : codes.from;
  const tCodes = codes === undefined ? undefined : route.swap ? codes.from : codes.to;
  const fHints = codes === undefined ? undefined : codes.cache.rows(ft, ft.rowsTakenBack);
  const tHints = codes === undefined ? undefined : sameType ? fHints : codes.cache.rows(tt, tt.rowsTakenBack);
  // The rows of a chunk's endpoints, and the cache lines of their adjacency, are read first, in
  // passes of small independent iterations (id index entries, then the rows' deleted stamps, then
  // the block's hash and list heads): the CPU then overlaps many cache misses instead of taking
  // them one after the other. Rows found there stay valid (a run deletes nothing); missing ones are
  // looked up again, since an earlier edge of the chunk may create them.
  const touchChunk = (lo: number, hi: number): number => {
    const n = hi - lo;
    if (fHints !== undefined && tHints !== undefined && fCodes !== undefined && tCodes !== undefined) {
      for (let i = lo; i < hi; i++) {
        const f = fHints[fCodes[i]];
        const t = tHints[tCodes[i]];
        fRows[i - lo] = f >= 0 ? f : indexEntry(ft, fr, fIds[i]);
        tRows[i - lo] = t >= 0 ? t : indexEntry(tt, tr, tIds[i]);
      }
    } else
      for (let i = lo; i < hi; i++) {
        fRows[i - lo] = indexEntry(ft, fr, fIds[i]);
        tRows[i - lo] = indexEntry(tt, tr, tIds[i]);
      }
    writerRows(ft, fRows, n);
    writerRows(tt, tRows, n);
    let sink = 0;
    if (block !== undefined)
      for (let k = 0; k < n; k++) {
        const f = fRows[k];
        const t = tRows[k];
        if (f >= 0 && t >= 0) sink ^= block.touch(f, t);
      }
    return sink;
  };
  let touched = 0;
  let chunkStart = run.start;
  let chunkEnd = run.start;

  record.beginEdgeRun(et.name, ftName, ttName);
  try {
    for (let i = run.start; i < run.end; i++) {
      if (i === chunkEnd) {
        chunkStart = i;
        chunkEnd = Math.min(run.end, i + CHUNK);
        touched ^= touchChunk(i, chunkEnd);
      }
      const fid = fIds[i];
      const tid = tIds[i];
      curFrom = fid;
      curTo = tid;
      try {
        const fKey = fr.keyOf(fid);
        const tKey = tr.keyOf(tid);
        let checked = NO_CHECKED;
        const a = attrsOf === null ? null : attrsOf[i];
        if (a !== null) {
          checked = tx.checkAttrs(a, attributes, NOTHING_SKIPPED, where, scratch);
        } else if (shapes !== undefined) {
          const k = shapes.of[i];
          if (k >= 0) checked = checkShaped(shapes.list[k], shapes.values, shapes.at[i], scratch);
        }
        const k = i - chunkStart;
        let fRow = fRows[k] >= 0 ? fRows[k] : ft.lookup(fKey, WRITER_VERSION);
        let tRow = tRows[k] >= 0 ? tRows[k] : tt.lookup(tKey, WRITER_VERSION);
        if (fRow === undefined || tRow === undefined) {
          if (
            !createMissing ||
            (fRow === undefined && ft.permanentlyDeleted.size > 0 && ft.permanentlyDeleted.has(fKey)) ||
            (tRow === undefined && tt.permanentlyDeleted.size > 0 && tt.permanentlyDeleted.has(tKey))
          ) {
            counts.skipped++;
            continue;
          }
          fRow ??= newEndpoint(ft, fr, fid, fKey);
          tRow ??= sameType && fKey === tKey ? fRow : newEndpoint(tt, tr, tid, tKey);
        }
        if (fHints !== undefined && tHints !== undefined && fCodes !== undefined && tCodes !== undefined) {
          fHints[fCodes[i]] = fRow;
          tHints[tCodes[i]] = tRow;
        }
        let eb = block;
        let eid = block === undefined ? -1 : block.findOne(fRow, tRow, WRITER_VERSION);
        if (eid < 0 && !et.directed && !(sameType && fRow === tRow)) {
          eb = sameType ? block : reverse;
          if (eb !== undefined) eid = eb.findOne(tRow, fRow, WRITER_VERSION);
        }
        fSegs.mark(fRow);
        tSegs.mark(tRow);
        const fVal = fr.keyIsValue ? fKey : ft.idColumn.get(fRow);
        const tVal = tr.keyIsValue ? tKey : tt.idColumn.get(tRow);
        if (eid >= 0) {
          counts.updated++;
          if (checked.length === 0) continue;
          const b = eb as EdgeBlock;
          const next: [string, Value][] = [];
          for (const c of checked) {
            const col = b.columns.get(c.attr.name) as Column;
            const nv = applyOp(c.op, c.attr.type, col.get(eid), c.value, false, where);
            if (nv !== undefined) next.push([c.attr.name, nv]);
          }
          // An update that changes nothing is not logged: replaying it would do nothing.
          if (next.length === 0) continue;
          const m = changes.markBlock(b);
          const isNew = eid >= b.nBase + m.dCount;
          record.runEdge(fVal, tVal, next.length);
          for (const [name, v] of next) {
            changes.writeCell(b.columns.get(name) as Column, eid, v, isNew);
            record.runAttr(name, v);
          }
          continue;
        }
        if (block === undefined) {
          block = store.ensureBlock(et, ftName, ttName, version);
          route.block = block;
          useBlock(block);
        }
        changes.markBlock(block);
        eid = block.addEdge(fRow, tRow, version);
        block.live.current++;
        counts.inserted++;
        record.runEdge(fVal, tVal, checked.length);
        if (nAttrs === 0) continue;
        // A new edge takes the given values as they are (every upsert op keeps the value on insert).
        for (const c of checked) {
          values[attributes.indexOf(c.attr)] = c.value;
          record.runAttr(c.attr.name, c.value);
        }
        for (let j = 0; j < nAttrs; j++) {
          cols[j].init(eid, values[j]);
          values[j] = shared[j] ? defaults[j] : attributeDefault(store.catalog, attributes[j]);
        }
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        counts.invalid++;
      }
    }
  } finally {
    _touchSink ^= touched;
    record.endRun();
    fSegs.flush();
    if (!sameType) tSegs.flush();
  }
  return counts;
}

/** The per-edge path (discriminated edge types), with the run's counting. */
function oneByOne(
  tx: WriteTxImpl,
  run: EdgeRun,
  opts: UpsertEdgeOptions,
  counts: EdgeRunCounts,
): EdgeRunCounts {
  for (let i = run.start; i < run.end; i++) {
    try {
      const r = tx.upsertEdge(
        run.edgeType,
        run.fromType,
        run.fromIds[i],
        run.toType,
        run.toIds[i],
        run.attrs?.[i] ?? shapedAttrs(run, i),
        opts,
      );
      counts[r]++;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      counts.invalid++;
    }
  }
  return counts;
}

/** The attributes of edge i of a run given by shape (EdgeRun.shapes) as a record. */
function shapedAttrs(run: EdgeRun, i: number): Record<string, AttrUpdate> {
  const shapes = run.shapes;
  const k = shapes === undefined ? -1 : shapes.of[i];
  if (shapes === undefined || k < 0) return NO_ATTRS;
  const shape = shapes.list[k];
  const values = shapes.values;
  const at = shapes.at[i];
  const out: Record<string, AttrUpdate> = {};
  shape.names.forEach((name, j) => (out[name] = { value: values[at + j], op: shape.ops[j] }));
  return out;
}
