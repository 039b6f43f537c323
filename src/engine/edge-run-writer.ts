/**
 * The writer of one edge run (edge-run.ts `upsertEdgeRun`): what upsertEdge does per edge, with the
 * route, blocks, columns, defaults and id readers found once per run. It is a class of small
 * methods rather than one function with closures because V8 compiles each hot function on its own:
 * a load meets the run's paths one after another (rows remembered or looked up, endpoints created,
 * edges inserted, then updated), and each first visit of a path compiled the whole writer again
 * (about 30–45 ms of a compiler thread per compile of the former 190-line function, 8 compiles per
 * cold social load); now it recompiles only the method that met a new path.
 */
import { attributeDefault } from '../catalog/defaults.js';
import type { Attribute, EdgeType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { Column, NumberColumn } from '../store/columns.js';
import type { EdgeBlock } from '../store/edge-block.js';
import { type IdKey, SEGMENT_BITS, type VertexTable, WRITER_VERSION } from '../store/vertex-table.js';
import {
  type AttrShape,
  type EdgeRun,
  type EdgeRunCounts,
  type EdgeRunShapes,
  EngineError,
  type ExternalId,
  type UpsertEdgeOptions,
} from './api.js';
import { type IdReader, idReader } from './id-reader.js';
import { type NumbersPlan, numbersPlanOf } from './numbers-plan.js';
import { applyOp, parseId, plainNumberFits } from './values.js';
import type { Checked, Route, WriteTxImpl } from './write-tx.js';

const NO_CHECKED: Checked[] = [];
const NO_KEY_VALUES: Value[] = [];
const NOTHING_SKIPPED: string[] = [];
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

/** Rows remembered by id code (RowCache) for both ends of a run, with the codes. */
interface Hints {
  fCodes: ArrayLike<number>;
  tCodes: ArrayLike<number>;
  fRows: Int32Array;
  tRows: Int32Array;
}

export class EdgeRunWriter {
  readonly counts: EdgeRunCounts = { inserted: 0, updated: 0, skipped: 0, invalid: 0 };
  private readonly et: EdgeType;
  private readonly ft: VertexTable;
  private readonly tt: VertexTable;
  private readonly sameType: boolean;
  private readonly fIds: ArrayLike<ExternalId>;
  private readonly tIds: ArrayLike<ExternalId>;
  private readonly fr: IdReader;
  private readonly tr: IdReader;
  private readonly attributes: readonly Attribute[];
  /** An undirected edge may be stored the other way round, in the reverse block (see constructor). */
  private readonly reverse: EdgeBlock | undefined;
  private readonly defaults: Value[];
  /** Whether a default may be shared by edges (not a collection object). */
  private readonly shared: boolean[];
  /** The values of the edge being inserted, defaults where none is given. */
  private readonly values: Value[];
  private block: EdgeBlock | undefined;
  private cols: Column[] = [];
  private readonly fSegs: SegmentMarks;
  private readonly tSegs: SegmentMarks;
  private readonly hints: Hints | undefined;
  /** Edges are appended without the pair lookup (UpsertEdgeOptions.unchecked; checked in the constructor). */
  private readonly unchecked: boolean;
  /** Each chunk's endpoint rows from touchChunk (-1: to be looked up per edge). */
  private readonly fRows = new Int32Array(CHUNK);
  private readonly tRows = new Int32Array(CHUNK);
  private chunkStart = 0;
  /** The rows of the edge being written, once its endpoints are found or created, and their ids. */
  private fRow = -1;
  private tRow = -1;
  private fVal: Value = 0;
  private tVal: Value = 0;
  /** The edge being written, for error messages. */
  private curFrom: ExternalId = '';
  private curTo: ExternalId = '';
  readonly where = (): string =>
    `edge type '${this.run.edgeType}' (${this.ft.type.name} '${String(this.curFrom)}' -> ${this.tt.type.name} '${String(this.curTo)}')`;
  /** Reused by every edge of the run (an edge's checked values are used before the next edge's). */
  private readonly scratch: Checked[] = [];
  /** The attribute each name of a shape sets, found once per shape and run. */
  private readonly shapeAttrs = new Map<AttrShape, (Attribute | undefined)[]>();
  private lastShape: AttrShape | undefined;
  /** Each shape's numbers plan (appendNumbers), and the last one asked for. */
  private readonly plans = new Map<AttrShape, NumbersPlan | null>();
  private lastPlanShape: AttrShape | undefined;
  private lastPlan: NumbersPlan | null = null;
  private lastDeclared: (Attribute | undefined)[] = [];

  constructor(
    private readonly tx: WriteTxImpl,
    private readonly run: EdgeRun,
    private readonly opts: UpsertEdgeOptions,
    private readonly route: Route,
  ) {
    const { et, ft, tt } = route;
    this.et = et;
    this.ft = ft;
    this.tt = tt;
    this.sameType = ft === tt;
    this.fIds = route.swap ? run.toIds : run.fromIds;
    this.tIds = route.swap ? run.fromIds : run.toIds;
    this.fr = idReader(ft.type);
    this.tr = this.sameType ? this.fr : idReader(tt.type);
    this.attributes = et.attributes;
    const store = tx.graph;
    // This run only writes its own block (the same as the reverse one when both ends have one type).
    this.reverse =
      et.directed || this.sameType ? undefined : store.getBlock(et.name, tt.type.name, ft.type.name);
    this.defaults = this.attributes.map((a) => attributeDefault(store.catalog, a));
    this.shared = this.defaults.map((d) => typeof d !== 'object' || d === null);
    this.values = this.defaults.slice();
    this.unchecked = opts.unchecked === true && et.directed && et.discriminator.length === 0;
    this.block = route.block;
    if (this.block) this.useBlock(this.block);
    this.fSegs = new SegmentMarks(ft);
    this.tSegs = this.sameType ? this.fSegs : new SegmentMarks(tt);
    const codes = run.codes;
    if (codes !== undefined) {
      const fRows = codes.cache.rows(ft, ft.rowsTakenBack);
      this.hints = {
        fCodes: route.swap ? codes.to : codes.from,
        tCodes: route.swap ? codes.from : codes.to,
        fRows,
        tRows: this.sameType ? fRows : codes.cache.rows(tt, tt.rowsTakenBack),
      };
    }
  }

  /** Writes the run's edges in order, logged as one UPSERT_EDGES op. */
  write(): EdgeRunCounts {
    const { start, end } = this.run;
    const record = this.tx.record;
    record.beginEdgeRun(this.et.name, this.ft.type.name, this.tt.type.name);
    try {
      if (!this.unchecked) _touchSink ^= this.upsertAll(start, end);
      else if (this.attributes.length > 0) this.appendAllWithValues(start, end);
      else this.appendAll(start, end);
    } finally {
      record.endRun();
      this.fSegs.flush();
      if (!this.sameType) this.tSegs.flush();
    }
    return this.counts;
  }

  /**
   * Upserts edges start..end chunk by chunk. The loops of upserts and of unchecked appends are
   * methods of their own: a load of one kind then leaves the other uncompiled for a later load,
   * instead of compiled without the paths it takes (measured: a social load after an RMAT load
   * deoptimized the one shared loop 13 times, against 5 before the appends existed).
   */
  private upsertAll(start: number, end: number): number {
    let touched = 0;
    for (let lo = start; lo < end; lo += CHUNK) {
      const hi = Math.min(end, lo + CHUNK);
      this.chunkStart = lo;
      this.touchChunk(lo, hi);
      touched ^= this.touchPairs(hi - lo);
      for (let i = lo; i < hi; i++) {
        try {
          this.edge(i);
        } catch (e) {
          if (!(e instanceof EngineError)) throw e;
          this.counts.invalid++;
        }
      }
    }
    return touched;
  }

  /** Appends edges start..end unchecked (see `unchecked`), chunk by chunk. */
  private appendAll(start: number, end: number): void {
    for (let lo = start; lo < end; lo += CHUNK) {
      const hi = Math.min(end, lo + CHUNK);
      this.chunkStart = lo;
      this.touchChunk(lo, hi);
      for (let i = lo; i < hi; i++) {
        try {
          this.appendEdge(i);
        } catch (e) {
          if (!(e instanceof EngineError)) throw e;
          this.counts.invalid++;
        }
      }
    }
  }

  /**
   * appendAll for an edge type with attributes: a loop and methods of its own, so that a load of
   * edges without attributes (RMAT's, before a social load in the bench's server) does not leave
   * them compiled without the attribute paths, as with the upsert loop (see upsertAll).
   */
  private appendAllWithValues(start: number, end: number): void {
    for (let lo = start; lo < end; lo += CHUNK) {
      const hi = Math.min(end, lo + CHUNK);
      this.chunkStart = lo;
      this.touchChunk(lo, hi);
      for (let i = lo; i < hi; i++) {
        try {
          this.appendEdgeWithValues(i);
        } catch (e) {
          if (!(e instanceof EngineError)) throw e;
          this.counts.invalid++;
        }
      }
    }
  }

  private useBlock(b: EdgeBlock): void {
    const room = Math.max(this.run.end - this.run.start, this.opts.expectEdges ?? 0);
    if (this.unchecked) b.reserveSlots(room);
    else b.reserve(room);
    this.cols = this.attributes.map((a) => b.columns.get(a.name) as Column);
  }

  /**
   * The rows of a chunk's endpoints read first in passes of small independent iterations (id index
   * entries or remembered rows, then the rows' deleted stamps; touchPairs then reads the block's
   * hash and list heads): the CPU then overlaps many cache misses instead of taking them one after
   * the other. Rows found here stay valid (a run deletes nothing); missing
   * ones are looked up again per edge, since an earlier edge of the chunk may create them.
   */
  private touchChunk(lo: number, hi: number): void {
    const { fRows, tRows, hints } = this;
    if (hints !== undefined) {
      for (let i = lo; i < hi; i++) {
        const f = hints.fRows[hints.fCodes[i]];
        const t = hints.tRows[hints.tCodes[i]];
        fRows[i - lo] = f >= 0 ? f : indexEntry(this.ft, this.fr, this.fIds[i]);
        tRows[i - lo] = t >= 0 ? t : indexEntry(this.tt, this.tr, this.tIds[i]);
      }
    } else
      for (let i = lo; i < hi; i++) {
        fRows[i - lo] = indexEntry(this.ft, this.fr, this.fIds[i]);
        tRows[i - lo] = indexEntry(this.tt, this.tr, this.tIds[i]);
      }
    const n = hi - lo;
    writerRows(this.ft, fRows, n);
    writerRows(this.tt, tRows, n);
  }

  /** The block's hash entries and list heads of the chunk's first n pairs whose rows touchChunk found. */
  private touchPairs(n: number): number {
    const { fRows, tRows } = this;
    let sink = 0;
    const block = this.block;
    if (block !== undefined)
      for (let k = 0; k < n; k++) {
        const f = fRows[k];
        const t = tRows[k];
        if (f >= 0 && t >= 0) sink ^= block.touch(f, t);
      }
    return sink;
  }

  /** Upserts edge i of the run. */
  private edge(i: number): void {
    this.upsertWith(i, this.checkedOf(i));
  }

  /** Upserts edge i of the run with its checked attribute values. */
  private upsertWith(i: number, checked: Checked[]): void {
    if (!this.ends(i)) return;
    const { fRow, tRow, fVal, tVal } = this;
    const block = this.block;
    const eid = block === undefined ? -1 : block.findOne(fRow, tRow, WRITER_VERSION);
    if (eid >= 0) this.update(block as EdgeBlock, eid, checked, fVal, tVal);
    else if (!this.updateReverse(fRow, tRow, checked, fVal, tVal))
      this.insert(fRow, tRow, checked, fVal, tVal);
  }

  /**
   * Appends edge i of the run without its pair lookup (see `unchecked`). A method of its own, so
   * that a load of such edges leaves `edge` uncompiled for a later load that needs it, rather than
   * compiled without the paths that load takes.
   */
  private appendEdge(i: number): void {
    if (!this.ends(i)) return;
    const block = this.block ?? this.newBlock();
    this.tx.changes.markBlock(block);
    block.appendUnchecked(this.fRow, this.tRow, this.tx.commitVersion);
    block.live.current++;
    this.counts.inserted++;
    this.tx.record.runEdge(this.fVal, this.tVal, 0);
  }

  /**
   * appendEdge for an edge with attributes: appended only when it sets each one (op `set`), its
   * values then being the edge's whatever it repeats (the settle writes the last repeat's over the
   * pair's edge, store/edge-block.ts); else upserted (after a settle).
   */
  private appendEdgeWithValues(i: number): void {
    if (this.appendNumbers(i)) return;
    const checked = this.checkedOf(i);
    if (!this.setsAll(checked)) {
      this.upsertWith(i, checked);
      return;
    }
    if (!this.ends(i)) return;
    const eid = this.appendLogged(checked.length);
    const record = this.tx.record;
    const { attributes, cols } = this;
    for (const c of checked) {
      cols[attributes.indexOf(c.attr)].init(eid, c.value);
      record.runAttr(c.attr.name, c.value);
    }
  }

  /**
   * Appends the edge between the ends found last (fRow, tRow) unchecked and starts its WAL entry
   * for `attrs` attribute values, which the caller writes; returns its edge id.
   */
  private appendLogged(attrs: number): number {
    const block = this.block ?? this.newBlock();
    this.tx.changes.markBlock(block);
    const eid = block.appendUnchecked(this.fRow, this.tRow, this.tx.commitVersion);
    block.live.current++;
    this.counts.inserted++;
    this.tx.record.runEdge(this.fVal, this.tVal, attrs);
    return eid;
  }

  /**
   * appendEdgeWithValues for an edge whose shape sets every attribute with op `set` and whose
   * attributes are all plain numbers (a DATETIME, a DOUBLE, a 64-bit INT: plainNumberKind), each
   * value fitting its type: the values go from the run's array to the columns and the WAL as
   * numbers, with no Checked entry and no boxed number per value (the social load's `since`:
   * about 2 allocations per edge before). False, having done nothing, for any other edge, which
   * then takes the checked path (and its errors).
   */
  private appendNumbers(i: number): boolean {
    const plan = this.numbersPlan(i);
    if (plan === null) return false;
    const shapes = this.run.shapes as EdgeRunShapes;
    const values = shapes.values;
    const at = shapes.at[i];
    const n = plan.attrs.length;
    for (let j = 0; j < n; j++) {
      const v = values[at + j];
      if (typeof v !== 'number' || !plainNumberFits(plan.kinds[j], v)) return false;
    }
    if (!this.ends(i)) return true;
    const eid = this.appendLogged(n);
    const record = this.tx.record;
    const cols = this.cols;
    for (let j = 0; j < n; j++) {
      const v = values[at + j] as number;
      (cols[plan.attrs[j]] as NumberColumn).initNumber(eid, v);
      record.runNumber(plan.names[j], v);
    }
    return true;
  }

  /** The numbers plan of edge i's shape (see appendNumbers), or null when it has none. */
  private numbersPlan(i: number): NumbersPlan | null {
    const shapes = this.run.shapes;
    if (shapes === undefined || (this.run.attrs !== null && this.run.attrs[i] !== null)) return null;
    const k = shapes.of[i];
    // Before the run's first edge made its block there are no columns to plan with.
    if (k < 0 || this.block === undefined) return null;
    const shape = shapes.list[k];
    if (shape === this.lastPlanShape) return this.lastPlan;
    let plan = this.plans.get(shape);
    if (plan === undefined) {
      plan = numbersPlanOf(shape, this.attributes, this.cols);
      this.plans.set(shape, plan);
    }
    this.lastPlanShape = shape;
    this.lastPlan = plan;
    return plan;
  }

  /** Whether checked values set every attribute of the edge type, each once with op `set`. */
  private setsAll(checked: Checked[]): boolean {
    const n = this.attributes.length;
    if (checked.length !== n) return false;
    for (let k = 0; k < n; k++) {
      const c = checked[k];
      if (c.op !== 'set') return false;
      for (let j = 0; j < k; j++) if (checked[j].attr === c.attr) return false;
    }
    return true;
  }

  /**
   * Finds (or creates) both ends of edge i into fRow/tRow and their id values into fVal/tVal;
   * false, counted as skipped, when the edge is skipped instead.
   */
  private ends(i: number): boolean {
    const fid = this.fIds[i];
    const tid = this.tIds[i];
    this.curFrom = fid;
    this.curTo = tid;
    const fKey = this.fr.keyOf(fid);
    const tKey = this.tr.keyOf(tid);
    const k = i - this.chunkStart;
    let fRow = this.fRows[k];
    let tRow = this.tRows[k];
    if (fRow < 0) fRow = this.ft.lookup(fKey, WRITER_VERSION) ?? -1;
    if (tRow < 0) tRow = this.tt.lookup(tKey, WRITER_VERSION) ?? -1;
    if (fRow < 0 || tRow < 0) {
      if (!this.endpoints(fKey, tKey, fRow, tRow)) {
        this.counts.skipped++;
        return false;
      }
      fRow = this.fRow;
      tRow = this.tRow;
    }
    const hints = this.hints;
    if (hints !== undefined) {
      hints.fRows[hints.fCodes[i]] = fRow;
      hints.tRows[hints.tCodes[i]] = tRow;
    }
    this.fSegs.mark(fRow);
    this.tSegs.mark(tRow);
    this.fRow = fRow;
    this.tRow = tRow;
    this.fVal = this.fr.keyIsValue ? fKey : this.ft.idColumn.get(fRow);
    this.tVal = this.tr.keyIsValue ? tKey : this.tt.idColumn.get(tRow);
    return true;
  }

  /** The checked attribute values of edge i (into the run's scratch). */
  private checkedOf(i: number): Checked[] {
    if (this.attributes.length === 0) return NO_CHECKED;
    const a = this.run.attrs === null ? null : this.run.attrs[i];
    if (a !== null) return this.tx.checkAttrs(a, this.attributes, NOTHING_SKIPPED, this.where, this.scratch);
    const shapes = this.run.shapes;
    if (shapes === undefined) return NO_CHECKED;
    const k = shapes.of[i];
    if (k < 0) return NO_CHECKED;
    const shape = shapes.list[k];
    // Runs of a loading batch use one shape or two: the last one asked for is usually asked again.
    if (shape !== this.lastShape) {
      let declared = this.shapeAttrs.get(shape);
      if (declared === undefined) {
        declared = shape.names.map((n) => this.attributes.find((x) => x.name === n));
        this.shapeAttrs.set(shape, declared);
      }
      this.lastShape = shape;
      this.lastDeclared = declared;
    }
    return this.tx.checkShaped(
      shape,
      this.lastDeclared,
      shapes.values,
      shapes.at[i],
      this.where,
      this.scratch,
    );
  }

  /**
   * Creates the missing endpoints of an edge (-1 rows) into this.fRow/this.tRow; false when the
   * edge is skipped instead (createMissingEndpoints off, or an endpoint deleted permanently).
   */
  private endpoints(fKey: IdKey, tKey: IdKey, fRow: number, tRow: number): boolean {
    const { ft, tt } = this;
    if (
      !this.opts.createMissingEndpoints ||
      (fRow < 0 && ft.permanentlyDeleted.size > 0 && ft.permanentlyDeleted.has(fKey)) ||
      (tRow < 0 && tt.permanentlyDeleted.size > 0 && tt.permanentlyDeleted.has(tKey))
    )
      return false;
    if (fRow < 0) fRow = this.newEndpoint(ft, this.fr, this.curFrom, fKey);
    if (tRow < 0)
      tRow = this.sameType && fKey === tKey ? fRow : this.newEndpoint(tt, this.tr, this.curTo, tKey);
    this.fRow = fRow;
    this.tRow = tRow;
    return true;
  }

  private newEndpoint(t: VertexTable, r: IdReader, id: ExternalId, key: IdKey): number {
    if (r.keyIsValue) return this.tx.insertVertex(t, key, key, NO_KEY_VALUES, NO_CHECKED, false);
    const p = parseId(t.type, id);
    return this.tx.insertVertex(t, p.key, p.value, p.keyValues, NO_CHECKED, false);
  }

  /** For an undirected edge not found as given: updates it if stored the other way round. */
  private updateReverse(fRow: number, tRow: number, checked: Checked[], fVal: Value, tVal: Value): boolean {
    if (this.et.directed || (this.sameType && fRow === tRow)) return false;
    const eb = this.sameType ? this.block : this.reverse;
    const eid = eb === undefined ? -1 : eb.findOne(tRow, fRow, WRITER_VERSION);
    if (eid < 0) return false;
    this.update(eb as EdgeBlock, eid, checked, fVal, tVal);
    return true;
  }

  /** Updates an edge that exists: its changed attributes, logged (an unchanged one is not). */
  private update(b: EdgeBlock, eid: number, checked: Checked[], fVal: Value, tVal: Value): void {
    this.counts.updated++;
    if (checked.length === 0) return;
    const next: [string, Value][] = [];
    for (const c of checked) {
      const col = b.columns.get(c.attr.name) as Column;
      const nv = applyOp(c.op, c.attr.type, col.get(eid), c.value, false, this.where);
      if (nv !== undefined) next.push([c.attr.name, nv]);
    }
    // An update that changes nothing is not logged: replaying it would do nothing.
    if (next.length === 0) return;
    const changes = this.tx.changes;
    const record = this.tx.record;
    const m = changes.markBlock(b);
    const isNew = eid >= b.nBase + m.dCount;
    record.runEdge(fVal, tVal, next.length);
    for (const [name, v] of next) {
      changes.writeCell(b.columns.get(name) as Column, eid, v, isNew);
      record.runAttr(name, v);
    }
  }

  private newBlock(): EdgeBlock {
    const block = this.tx.graph.ensureBlock(
      this.et,
      this.ft.type.name,
      this.tt.type.name,
      this.tx.commitVersion,
    );
    this.route.block = block;
    this.block = block;
    this.useBlock(block);
    return block;
  }

  /** Adds a new edge with the given values, defaults for the rest. */
  private insert(fRow: number, tRow: number, checked: Checked[], fVal: Value, tVal: Value): void {
    const block = this.block ?? this.newBlock();
    this.tx.changes.markBlock(block);
    const eid = block.addEdge(fRow, tRow, this.tx.commitVersion);
    block.live.current++;
    this.counts.inserted++;
    const record = this.tx.record;
    record.runEdge(fVal, tVal, checked.length);
    const nAttrs = this.attributes.length;
    if (nAttrs === 0) return;
    const { attributes, values, defaults, shared, cols } = this;
    // A new edge takes the given values as they are (every upsert op keeps the value on insert).
    for (const c of checked) {
      values[attributes.indexOf(c.attr)] = c.value;
      record.runAttr(c.attr.name, c.value);
    }
    for (let j = 0; j < nAttrs; j++) {
      cols[j].init(eid, values[j]);
      values[j] = shared[j] ? defaults[j] : attributeDefault(this.tx.graph.catalog, attributes[j]);
    }
  }
}
