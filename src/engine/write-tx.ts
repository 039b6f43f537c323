/**
 * The write transaction. Every method validates its whole input before it changes anything, then
 * applies the change in place, stamped with the transaction's commit version so that readers pinned
 * earlier do not see it (new rows/edges carry the version; overwritten values go to column history).
 * Each applied change is also appended to the transaction's WAL record (see wal-record.ts); abort()
 * undoes everything.
 */
import { attributeDefault } from '../catalog/defaults.js';
import type { Attribute, EdgeType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { Column } from '../store/columns.js';
import type { Counter } from '../store/counter.js';
import type { EdgeBlock } from '../store/edge-block.js';
import type { GraphStore } from '../store/graph-store.js';
import { type IdKey, SEGMENT_BITS, type VertexTable, WRITER_VERSION } from '../store/vertex-table.js';
import {
  type AttrShape,
  type AttrUpdate,
  type EdgeHandle,
  type EdgeRun,
  type EdgeRunCounts,
  EngineError,
  type ExternalId,
  type UpsertEdgeOptions,
  type UpsertResult,
  type UpsertVertexOptions,
  type VertexRun,
  type VertexRunCounts,
  type WriteTx,
} from './api.js';
import { upsertEdgeRun } from './edge-run.js';
import { upsertVertexRun } from './vertex-run.js';
import { ReadTxImpl } from './read-tx.js';
import { edgeTypeOf, pairAllowed } from './schema.js';
import { applyOp, checkValue, idText, parseId, typeName } from './values.js';
import { TxChanges } from './tx-changes.js';
import { RecordWriter } from './wal-record.js';

export interface Route {
  et: EdgeType;
  ft: VertexTable;
  tt: VertexTable;
  /** The ids come in TO, FROM order. */
  swap: boolean;
  /** The block of (et, ft, tt), once it exists. */
  block: EdgeBlock | undefined;
}

export const NO_CHECKED: Checked[] = [];
const NO_DISC: ReadonlyMap<string, Value> = new Map();
const NO_CHANGES: [string, Value][] = [];

export interface Checked {
  attr: Attribute;
  value: Value;
  op: AttrUpdate['op'];
}

/** Sets out[n] to a checked value, reusing the entry there (scratch arrays of bulk runs). */
function putChecked(out: Checked[], n: number, attr: Attribute, value: Value, op: AttrUpdate['op']): void {
  const c = out[n];
  if (c === undefined) out[n] = { attr, value, op };
  else {
    c.attr = attr;
    c.value = value;
    c.op = op;
  }
}

export class WriteTxImpl extends ReadTxImpl implements WriteTx {
  readonly record: RecordWriter;
  /** Internal to the engine (edge-run.ts), as are route, checkAttrs and insertVertex. */
  readonly changes: TxChanges;
  private routes = new Map<string, Route>();
  private lastRoute: [string, string, string, Route] | undefined;

  constructor(
    store: GraphStore,
    /** The version this transaction's changes become visible at. */
    readonly commitVersion: number,
  ) {
    super(store, WRITER_VERSION, () => undefined);
    this.record = new RecordWriter(commitVersion);
    this.changes = new TxChanges(commitVersion);
  }

  /** Columns that got history entries in this transaction. */
  get historyColumns(): ReadonlySet<Column> {
    return this.changes.historyColumns;
  }

  /** Counters (live vertices/edges) this transaction changed. */
  get touchedCounters(): ReadonlySet<Counter> {
    return this.changes.touchedCounters;
  }

  /** The store this transaction writes. */
  get graph(): GraphStore {
    return this.store;
  }

  /** A vertex type's table (REST-2004 for an unknown type). */
  tableOf(name: string): VertexTable {
    return this.table(name);
  }

  /** A write transaction pins nothing: Database.write ends it. */
  override release(): void {}

  /** Whether the transaction changed anything. */
  get changed(): boolean {
    return this.record.ops > 0;
  }

  /** Marks the segments of both endpoints of an edge changed (for the rebuild summary). */
  private touchEdge(b: EdgeBlock, eid: number): void {
    const [f, t] = b.endpoints(eid);
    this.table(b.fromType).dirtySegments.add(f >>> SEGMENT_BITS);
    this.table(b.toType).dirtySegments.add(t >>> SEGMENT_BITS);
  }

  /**
   * The checked values of an attribute record, in its order (unknown and `skip` names ignored);
   * into `out` when given, reusing its entries (an edge run checks one edge after another without
   * garbage), else into a new array.
   */
  checkAttrs(
    attrs: Record<string, AttrUpdate>,
    declared: readonly Attribute[],
    skip: readonly string[],
    where: () => string,
    out?: Checked[],
  ): Checked[] {
    // Object.keys, not for-in: a record of one shape keeps its key list cached.
    const names = Object.keys(attrs);
    if (names.length === 0) return NO_CHECKED;
    const into = out ?? [];
    let n = 0;
    for (const name of names) {
      const attr = declared.find((a) => a.name === name);
      // An unknown attribute name is ignored, as TigerGraph's upsert does.
      if (!attr || skip.includes(name)) continue;
      const u = attrs[name];
      putChecked(into, n++, attr, this.checkedValue(attr, u.value, where), u.op ?? 'set');
    }
    into.length = n;
    return into;
  }

  /**
   * checkAttrs for attributes given by shape (EdgeRun.shapes): `declared[j]` is the attribute the
   * shape's j-th name sets (undefined: unknown, ignored), its value `values[at + j]`. Fills `out`,
   * reusing its entries (a bulk run checks one edge after another without garbage).
   */
  checkShaped(
    shape: AttrShape,
    declared: readonly (Attribute | undefined)[],
    values: ArrayLike<Value>,
    at: number,
    where: () => string,
    out: Checked[],
  ): Checked[] {
    let n = 0;
    for (let j = 0; j < declared.length; j++) {
      const attr = declared[j];
      if (attr === undefined) continue;
      putChecked(out, n++, attr, this.checkedValue(attr, values[at + j], where), shape.ops[j] ?? 'set');
    }
    out.length = n;
    return out;
  }

  private checkedValue(attr: Attribute, given: Value, where: () => string): Value {
    const value = checkValue(attr.type, given, this.store.catalog);
    if (value === undefined) {
      throw new EngineError(
        'REST-30200',
        `Invalid value for attribute '${attr.name}' of ${where()}: expected ${typeName(attr.type)}.`,
      );
    }
    return value;
  }

  upsertVertex(
    vertexType: string,
    id: ExternalId,
    attrs: Record<string, AttrUpdate>,
    opts: UpsertVertexOptions = {},
  ): UpsertResult {
    const t = this.table(vertexType);
    const vt = t.type;
    const pid = parseId(vt, id);
    const where = (): string => `vertex type '${vertexType}' (id '${idText(vt, pid.value)}')`;
    const checked = this.checkAttrs(attrs, vt.attributes, vt.keyAttributes, where);
    const row = t.lookup(pid.key, WRITER_VERSION);
    if (row !== undefined) {
      if (opts.newOnly) return 'skipped';
      this.updateVertexCells(t, row, checked, where, false);
      return 'updated';
    }
    if (opts.updateOnly || t.permanentlyDeleted.has(pid.key)) return 'skipped';
    this.insertVertex(t, pid.key, pid.value, pid.keyValues, checked);
    return 'inserted';
  }

  /** Appends a vertex row; `log` false leaves it out of the WAL record (an edge run's replay re-creates it). */
  insertVertex(
    t: VertexTable,
    key: IdKey,
    idValue: Value,
    keyValues: Value[],
    checked: Checked[],
    log = true,
  ): number {
    const vt = t.type;
    this.changes.markTable(t);
    const row = t.allocRow(key, this.commitVersion);
    t.idColumn.init(row, idValue);
    // Each attribute takes its key value, else the given value (every upsert op keeps the given
    // value on insert), else its default. Plain loops: this runs once per new vertex.
    for (const a of vt.attributes) {
      let v: Value | undefined;
      const k = vt.keyAttributes.length === 0 ? -1 : vt.keyAttributes.indexOf(a.name);
      if (k >= 0) v = keyValues[k];
      else {
        for (const c of checked) {
          if (c.attr === a) {
            v = c.value;
            break;
          }
        }
      }
      (t.columns.get(a.name) as Column).init(
        row,
        v === undefined ? attributeDefault(this.store.catalog, a) : v,
      );
    }
    t.live.current++;
    if (!log) return row;
    this.record.upsertVertex(
      vt.name,
      idValue,
      checked.length === 0 ? NO_CHANGES : checked.map((c) => [c.attr.name, c.value]),
    );
    return row;
  }

  /**
   * Applies checked updates to an existing row and logs the resulting values: as its own op, or as
   * the next vertex of the open vertex run (`inRun`, vertex-run.ts).
   */
  updateVertexCells(
    t: VertexTable,
    row: number,
    checked: Checked[],
    where: () => string,
    inRun: boolean,
  ): void {
    const changes: [string, Value][] = [];
    for (const c of checked) {
      const col = t.columns.get(c.attr.name) as Column;
      const nv = applyOp(c.op, c.attr.type, col.get(row), c.value, false, where);
      if (nv !== undefined) changes.push([c.attr.name, nv]);
    }
    const m = this.changes.markTable(t);
    const isNew = row >= m.count;
    for (const [name, v] of changes) this.changes.writeCell(t.columns.get(name) as Column, row, v, isNew);
    t.dirtySegments.add(row >>> SEGMENT_BITS);
    if (!inRun) {
      this.record.upsertVertex(t.type.name, t.idColumn.get(row), changes);
      return;
    }
    this.record.runVertex(t.idColumn.get(row), changes.length);
    for (const [name, v] of changes) this.record.runAttr(name, v);
  }

  setVertexAttrs(vertexType: string, row: number, attrs: Record<string, AttrUpdate>): void {
    const t = this.table(vertexType);
    if (!t.isVisible(row, WRITER_VERSION))
      throw new EngineError('REST-30000', `No such ${vertexType} vertex.`);
    const where = (): string => `vertex type '${vertexType}' (id '${idText(t.type, t.idColumn.get(row))}')`;
    this.updateVertexCells(
      t,
      row,
      this.checkAttrs(attrs, t.type.attributes, t.type.keyAttributes, where),
      where,
      false,
    );
  }

  /** How an (edge type, from type, to type) as given maps to storage; cached per transaction. */
  route(edgeType: string, fromType: string, toType: string): Route {
    const last = this.lastRoute;
    if (last && last[0] === edgeType && last[1] === fromType && last[2] === toType)
      return this.fresh(last[3]);
    const key = `${edgeType}\u0000${fromType}\u0000${toType}`;
    let r = this.routes.get(key);
    if (r) {
      this.lastRoute = [edgeType, fromType, toType, r];
      return this.fresh(r);
    }
    const res = edgeTypeOf(this.store.catalog, edgeType);
    const et = res.stored;
    let swap = res.reverse;
    let [fT, tT] = swap ? [toType, fromType] : [fromType, toType];
    this.table(fT);
    this.table(tT);
    if (!pairAllowed(et, fT, tT)) {
      if (!et.directed && pairAllowed(et, tT, fT)) {
        [fT, tT] = [tT, fT];
        swap = !swap;
      } else {
        throw new EngineError(
          'REST-30000',
          `Edge type '${edgeType}' does not connect vertex type '${fromType}' to vertex type '${toType}'.`,
        );
      }
    }
    r = { et, ft: this.table(fT), tt: this.table(tT), swap, block: this.store.getBlock(et.name, fT, tT) };
    this.routes.set(key, r);
    this.lastRoute = [edgeType, fromType, toType, r];
    return r;
  }

  /**
   * A cached route without a block may be out of date: another route to the same stored edge type
   * (a reverse edge type, the other orientation of an undirected one) may have created it since.
   */
  private fresh(r: Route): Route {
    if (r.block === undefined) r.block = this.store.getBlock(r.et.name, r.ft.type.name, r.tt.type.name);
    return r;
  }

  /** Resolves an edge write to its stored type and stored FROM/TO orientation. */
  private resolveEdge(
    edgeType: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
  ): { et: EdgeType; ft: VertexTable; fId: ExternalId; tt: VertexTable; tId: ExternalId } {
    const r = this.route(edgeType, fromType, toType);
    return r.swap
      ? { et: r.et, ft: r.ft, fId: toId, tt: r.tt, tId: fromId }
      : { et: r.et, ft: r.ft, fId: fromId, tt: r.tt, tId: toId };
  }

  /** Live edges of a stored type between two rows in either stored orientation (undirected). */
  private storedEdges(
    et: EdgeType,
    ft: VertexTable,
    fRow: number,
    tt: VertexTable,
    tRow: number,
  ): [EdgeBlock, number][] {
    const out: [EdgeBlock, number][] = [];
    const b = this.store.getBlock(et.name, ft.type.name, tt.type.name);
    if (b) for (const e of b.find(fRow, tRow, WRITER_VERSION)) out.push([b, e]);
    if (!et.directed && !(ft === tt && fRow === tRow)) {
      const rb = this.store.getBlock(et.name, tt.type.name, ft.type.name);
      if (rb) for (const e of rb.find(tRow, fRow, WRITER_VERSION)) out.push([rb, e]);
    }
    return out;
  }

  /** The live edge between two rows for a type without discriminator (either orientation if undirected). */
  private storedEdge(
    et: EdgeType,
    ft: VertexTable,
    fRow: number,
    tt: VertexTable,
    tRow: number,
  ): [EdgeBlock, number] | undefined {
    const b = this.store.getBlock(et.name, ft.type.name, tt.type.name);
    if (b) {
      const e = b.findOne(fRow, tRow, WRITER_VERSION);
      if (e >= 0) return [b, e];
    }
    if (!et.directed && !(ft === tt && fRow === tRow)) {
      const rb = ft === tt ? b : this.store.getBlock(et.name, tt.type.name, ft.type.name);
      if (rb) {
        const e = rb.findOne(tRow, fRow, WRITER_VERSION);
        if (e >= 0) return [rb, e];
      }
    }
    return undefined;
  }

  private discriminatorMatches(b: EdgeBlock, eid: number, disc: ReadonlyMap<string, Value>): boolean {
    for (const [name, v] of disc) if ((b.columns.get(name) as Column).get(eid) !== v) return false;
    return true;
  }

  upsertEdge(
    edgeType: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: Record<string, AttrUpdate>,
    opts: UpsertEdgeOptions = { createMissingEndpoints: true },
  ): UpsertResult {
    const route = this.route(edgeType, fromType, toType);
    const { et, ft, tt } = route;
    const fp = parseId(ft.type, route.swap ? toId : fromId);
    const tp = parseId(tt.type, route.swap ? fromId : toId);
    const where = (): string =>
      `edge type '${edgeType}' (${ft.type.name} '${idText(ft.type, fp.value)}' -> ${tt.type.name} '${idText(tt.type, tp.value)}')`;
    const checked = this.checkAttrs(attrs, et.attributes, [], where);
    let disc = NO_DISC;
    if (et.discriminator.length > 0) {
      const m = new Map<string, Value>();
      for (const name of et.discriminator) {
        const c = checked.find((x) => x.attr.name === name);
        const a = et.attributes.find((x) => x.name === name) as Attribute;
        m.set(name, c ? c.value : attributeDefault(this.store.catalog, a));
      }
      disc = m;
    }
    let fRow = ft.lookup(fp.key, WRITER_VERSION);
    let tRow = tt.lookup(tp.key, WRITER_VERSION);
    if (fRow === undefined || tRow === undefined) {
      if (!opts.createMissingEndpoints) return 'skipped';
      if (fRow === undefined && ft.permanentlyDeleted.has(fp.key)) return 'skipped';
      if (tRow === undefined && tt.permanentlyDeleted.has(tp.key)) return 'skipped';
      fRow ??= this.insertVertex(ft, fp.key, fp.value, fp.keyValues, NO_CHECKED);
      tRow ??=
        ft === tt && fp.key === tp.key
          ? fRow
          : this.insertVertex(tt, tp.key, tp.value, tp.keyValues, NO_CHECKED);
    }
    let found: [EdgeBlock, number] | undefined;
    if (disc.size > 0) {
      found = this.storedEdges(et, ft, fRow, tt, tRow).find(([b, e]) =>
        this.discriminatorMatches(b, e, disc),
      );
    } else if (et.directed && route.block) {
      // Fast path: one block, one orientation.
      const e = route.block.findOne(fRow, tRow, WRITER_VERSION);
      if (e >= 0) found = [route.block, e];
    } else if (!et.directed) found = this.storedEdge(et, ft, fRow, tt, tRow);
    if (found) {
      const [b, eid] = found;
      const changes: [string, Value][] = [];
      for (const c of checked) {
        if (et.discriminator.includes(c.attr.name)) continue;
        const col = b.columns.get(c.attr.name) as Column;
        const nv = applyOp(c.op, c.attr.type, col.get(eid), c.value, false, where);
        if (nv !== undefined) changes.push([c.attr.name, nv]);
      }
      const m = this.changes.markBlock(b);
      const isNew = eid >= b.nBase + m.dCount;
      for (const [name, v] of changes) this.changes.writeCell(b.columns.get(name) as Column, eid, v, isNew);
      this.logEdge(b, eid, changes);
      return 'updated';
    }
    const values = new Map<string, Value>();
    for (const c of checked)
      values.set(c.attr.name, applyOp(c.op, c.attr.type, c.value, c.value, true, where) as Value);
    const b = (route.block ??= this.store.ensureBlock(et, ft.type.name, tt.type.name, this.commitVersion));
    this.changes.markBlock(b);
    const eid = b.addEdge(fRow, tRow, this.commitVersion);
    for (const a of et.attributes) {
      const v = values.get(a.name);
      (b.columns.get(a.name) as Column).init(
        eid,
        v === undefined ? attributeDefault(this.store.catalog, a) : v,
      );
    }
    b.live.current++;
    this.logEdge(b, eid, values.size === 0 ? NO_CHANGES : [...values], fRow, tRow, ft, tt);
    return 'inserted';
  }

  upsertVertices(run: VertexRun): VertexRunCounts {
    return upsertVertexRun(this, run);
  }

  upsertEdges(run: EdgeRun, opts: UpsertEdgeOptions = { createMissingEndpoints: true }): EdgeRunCounts {
    return upsertEdgeRun(this, run, opts);
  }

  /** Logs an edge write in stored orientation, with its discriminator so replay finds the same edge. */
  private logEdge(
    b: EdgeBlock,
    eid: number,
    changes: [string, Value][],
    fRow?: number,
    tRow?: number,
    ft = this.table(b.fromType),
    tt = this.table(b.toType),
  ): void {
    if (fRow === undefined || tRow === undefined) [fRow, tRow] = b.endpoints(eid);
    ft.dirtySegments.add(fRow >>> SEGMENT_BITS);
    tt.dirtySegments.add(tRow >>> SEGMENT_BITS);
    let all = changes;
    if (b.edgeType.discriminator.length > 0) {
      const m = new Map(changes);
      for (const d of b.edgeType.discriminator)
        if (!m.has(d)) m.set(d, (b.columns.get(d) as Column).get(eid));
      all = [...m];
    }
    this.record.upsertEdge(
      b.edgeType.name,
      b.fromType,
      ft.idColumn.get(fRow),
      b.toType,
      tt.idColumn.get(tRow),
      all,
    );
  }

  setEdgeAttrs(edge: EdgeHandle, attrs: Record<string, AttrUpdate>): void {
    const b = this.blockOf(edge);
    if (!b.isLive(edge.eid, WRITER_VERSION)) throw new EngineError('REST-30000', 'No such edge.');
    const et = b.edgeType;
    const where = (): string => `edge type '${et.name}'`;
    const checked = this.checkAttrs(attrs, et.attributes, et.discriminator, where);
    const changes: [string, Value][] = [];
    for (const c of checked) {
      const col = b.columns.get(c.attr.name) as Column;
      const nv = applyOp(c.op, c.attr.type, col.get(edge.eid), c.value, false, where);
      if (nv !== undefined) changes.push([c.attr.name, nv]);
    }
    const m = this.changes.markBlock(b);
    const isNew = edge.eid >= b.nBase + m.dCount;
    for (const [name, v] of changes)
      this.changes.writeCell(b.columns.get(name) as Column, edge.eid, v, isNew);
    this.logEdge(b, edge.eid, changes);
  }

  private tombstone(b: EdgeBlock, eid: number): void {
    this.changes.markBlock(b);
    b.bury(eid, this.commitVersion);
    b.live.current--;
    this.touchEdge(b, eid);
    this.changes.onAbort(() => b.unbury(eid));
  }

  deleteVertex(vertexType: string, id: ExternalId, opts: { permanent?: boolean } = {}): boolean {
    const t = this.table(vertexType);
    const pid = parseId(t.type, id);
    const row = t.lookup(pid.key, WRITER_VERSION);
    if (row === undefined) return false;
    this.changes.markTable(t);
    t.markDeleted(pid.key, row, this.commitVersion);
    t.live.current--;
    this.changes.onAbort(() => t.unmarkDeleted(pid.key, row));
    if (opts.permanent && !t.permanentlyDeleted.has(pid.key)) {
      t.permanentlyDeleted.add(pid.key);
      this.changes.onAbort(() => t.permanentlyDeleted.delete(pid.key));
    }
    for (const id of this.store.outBlocks.get(vertexType) ?? []) {
      const b = this.store.blocks[id];
      b.forEachOut(row, WRITER_VERSION, (_dst, eid) => this.tombstone(b, eid));
    }
    for (const id of this.store.inBlocks.get(vertexType) ?? []) {
      const b = this.store.blocks[id];
      b.forEachIn(row, WRITER_VERSION, (_src, eid) => this.tombstone(b, eid));
    }
    this.record.deleteVertex(vertexType, pid.value, opts.permanent === true);
    return true;
  }

  deleteEdge(
    edgeType: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    discriminator?: Record<string, Value>,
  ): number {
    const { et, ft, fId, tt, tId } = this.resolveEdge(edgeType, fromType, fromId, toType, toId);
    const fRow = ft.lookup(parseId(ft.type, fId).key, WRITER_VERSION);
    const tRow = tt.lookup(parseId(tt.type, tId).key, WRITER_VERSION);
    if (fRow === undefined || tRow === undefined) return 0;
    const disc = new Map<string, Value>();
    for (const [name, v] of Object.entries(discriminator ?? {})) {
      const a = et.attributes.find((x) => x.name === name);
      if (!a) continue;
      const c = checkValue(a.type, v, this.store.catalog);
      if (c === undefined) throw new EngineError('REST-30200', `Invalid discriminator value for '${name}'.`);
      disc.set(name, c);
    }
    let n = 0;
    for (const [b, eid] of this.storedEdges(et, ft, fRow, tt, tRow)) {
      if (!this.discriminatorMatches(b, eid, disc)) continue;
      this.deleteStored(b, eid);
      n++;
    }
    return n;
  }

  private deleteStored(b: EdgeBlock, eid: number): void {
    const [fRow, tRow] = b.endpoints(eid);
    const disc: [string, Value][] = b.edgeType.discriminator.map((d) => [
      d,
      (b.columns.get(d) as Column).get(eid),
    ]);
    this.tombstone(b, eid);
    const ft = this.table(b.fromType);
    const tt = this.table(b.toType);
    this.record.deleteEdge(
      b.edgeType.name,
      b.fromType,
      ft.idColumn.get(fRow),
      b.toType,
      tt.idColumn.get(tRow),
      disc,
    );
  }

  deleteEdgeHandle(edge: EdgeHandle): boolean {
    const b = this.blockOf(edge);
    if (!b.isLive(edge.eid, WRITER_VERSION)) return false;
    this.deleteStored(b, edge.eid);
    return true;
  }

  /** Undoes every change of this transaction. */
  abort(): void {
    this.changes.abort();
  }
}
