/**
 * ReadTx over a GraphStore at one pinned version. The write transaction extends it and reads at
 * WRITER_VERSION, which sees its own staged changes.
 */
import { type Catalog, EMPTY_CATALOG } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { Column } from '../store/columns.js';
import { type Counter, countAt } from '../store/counter.js';
import type { EdgeBlock } from '../store/edge-block.js';
import { GraphStore } from '../store/graph-store.js';
import { type VertexTable, WRITER_VERSION } from '../store/vertex-table.js';
import type {
  AdjacencyView,
  AttrStat,
  ColumnView,
  EdgeFilter,
  EdgeHandle,
  EdgeRecord,
  ExternalId,
  ReadTx,
  VertexRecord,
  VertexRowsView,
} from './api.js';
import { EngineError } from './api.js';
import { edgeTypeOf, vertexTypeOf } from './schema.js';
import { idText, parseId } from './values.js';
import { view } from './adjacency-view.js';
import { attrStats } from './attr-stats.js';

const RELEASED = new GraphStore(EMPTY_CATALOG, 0);

export class ReadTxImpl implements ReadTx {
  private released = false;

  constructor(
    protected store: GraphStore,
    readonly version: number,
    private readonly onRelease: (tx: ReadTxImpl) => void,
  ) {}

  get catalog(): Catalog {
    return this.store.catalog;
  }

  /** The store this transaction reads (for a worker thread's mirror of it, see store/mirror.ts). */
  get graphStore(): GraphStore {
    return this.store;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    // Drop the pinned store, so a released transaction object that is still referenced does not
    // keep superseded blocks alive. Using it afterwards sees an empty graph.
    this.store = RELEASED;
    this.onRelease(this);
  }

  protected table(name: string): VertexTable {
    const t = this.store.tables.get(name);
    if (!t) vertexTypeOf(this.store.catalog, name);
    return t as VertexTable;
  }

  protected count(c: Counter): number {
    return this.version === WRITER_VERSION ? c.current : countAt(c, this.version);
  }

  lookup(vertexType: string, id: ExternalId): number | undefined {
    const t = this.table(vertexType);
    let key;
    try {
      key = parseId(t.type, id).key;
    } catch {
      return undefined;
    }
    return t.lookup(key, this.version);
  }

  vertexExists(vertexType: string, id: ExternalId): boolean {
    return this.lookup(vertexType, id) !== undefined;
  }

  isLive(vertexType: string, row: number): boolean {
    return this.table(vertexType).isVisible(row, this.version);
  }

  vertexRows(vertexType: string): VertexRowsView {
    const t = this.table(vertexType);
    const version = this.version;
    const ids = t.idColumn.numbers();
    return {
      limit: t.count,
      isLive: (row) => t.isVisible(row, version),
      idText: (row) => idText(t.type, t.idColumn.get(row)),
      idValue: (row) => t.idColumn.get(row),
      // Ids are written once per row (never updated in place): the array holds them at any version.
      idNumbers: ids instanceof Float64Array && !t.idColumn.hasInexact() ? ids : null,
    };
  }

  vertexIdValue(vertexType: string, row: number): Value {
    return this.table(vertexType).idColumn.get(row);
  }

  vertexId(vertexType: string, row: number): string {
    const t = this.table(vertexType);
    return idText(t.type, t.idColumn.get(row));
  }

  attr(vertexType: string, row: number, attribute: string): Value {
    const t = this.table(vertexType);
    const c = t.columns.get(attribute);
    if (c) return c.getAt(row, this.version);
    if (attribute === t.type.primaryId.name) return t.idColumn.get(row);
    throw new EngineError('REST-30000', `Vertex type '${vertexType}' has no attribute '${attribute}'.`);
  }

  vertex(vertexType: string, row: number, attrs?: readonly string[]): VertexRecord {
    const t = this.table(vertexType);
    const vt = t.type;
    const attributes: Record<string, Value> = {};
    const want = (n: string): boolean => attrs === undefined || attrs.includes(n);
    if (vt.keyKind === 'primary_id' && vt.primaryIdAsAttribute && want(vt.primaryId.name)) {
      attributes[vt.primaryId.name] = t.idColumn.get(row);
    }
    for (const a of vt.attributes) {
      if (want(a.name)) attributes[a.name] = (t.columns.get(a.name) as Column).getAt(row, this.version);
    }
    return { v_id: idText(vt, t.idColumn.get(row)), v_type: vertexType, attributes };
  }

  rows(vertexType: string): Uint32Array {
    return this.table(vertexType).rowsAt(this.version);
  }

  rowLimit(vertexType: string): number {
    return this.table(vertexType).count;
  }

  vertexCount(vertexType?: string): number {
    if (vertexType !== undefined) return this.count(this.table(vertexType).live);
    let n = 0;
    for (const t of this.store.tables.values()) n += this.count(t.live);
    return n;
  }

  /** Calls fn for every edge of `row` selected by the filter (see EdgeFilter). */
  forEachEdge(vertexType: string, row: number, filter: EdgeFilter, fn: (h: EdgeHandle) => void): void {
    this.table(vertexType);
    const dir = filter.direction ?? 'out';
    let only: { name: string; reverse: boolean } | undefined;
    if (filter.edgeType !== undefined) {
      const r = edgeTypeOf(this.store.catalog, filter.edgeType);
      only = { name: r.stored.name, reverse: r.reverse };
    }
    const v = this.version;
    const tgtOk = (t: string): boolean => filter.targetType === undefined || filter.targetType === t;
    for (const id of this.store.outBlocks.get(vertexType) ?? []) {
      const b = this.store.blocks[id];
      const et = b.edgeType;
      if (only && (only.name !== et.name || only.reverse)) continue;
      if (et.directed && dir === 'in') continue;
      if (!tgtOk(b.toType)) continue;
      b.forEachOut(row, v, (dst, eid) =>
        fn(handle(et.name, et.directed, false, vertexType, row, b.toType, dst, id, eid)),
      );
    }
    for (const id of this.store.inBlocks.get(vertexType) ?? []) {
      const b = this.store.blocks[id];
      const et = b.edgeType;
      if (only && only.name !== et.name) continue;
      if (!tgtOk(b.fromType)) continue;
      if (!et.directed) {
        if (only?.reverse) continue;
        const selfType = b.fromType === b.toType;
        b.forEachIn(row, v, (src, eid) => {
          if (!(selfType && src === row))
            fn(handle(et.name, false, true, vertexType, row, b.fromType, src, id, eid));
        });
        continue;
      }
      // 'both' shows an arriving edge once, under its own type, unless the reverse type was asked for.
      const forward = dir !== 'out' && !only?.reverse;
      const reverse =
        et.reverseEdge !== undefined &&
        (dir === 'out' ? !only || only.reverse : dir === 'both' && only?.reverse === true);
      if (forward) {
        b.forEachIn(row, v, (src, eid) =>
          fn(handle(et.name, true, true, vertexType, row, b.fromType, src, id, eid)),
        );
      }
      if (reverse) {
        const rn = et.reverseEdge as string;
        b.forEachIn(row, v, (src, eid) =>
          fn(handle(rn, true, true, vertexType, row, b.fromType, src, id, eid)),
        );
      }
    }
  }

  edges(vertexType: string, row: number, filter: EdgeFilter = {}): EdgeHandle[] {
    const out: EdgeHandle[] = [];
    this.forEachEdge(vertexType, row, filter, (h) => out.push(h));
    return out;
  }

  edgesBetween(
    edgeType: string,
    srcType: string,
    srcRow: number,
    tgtType: string,
    tgtRow: number,
  ): EdgeHandle[] {
    const r = edgeTypeOf(this.store.catalog, edgeType);
    const et = r.stored;
    const out: EdgeHandle[] = [];
    const v = this.version;
    const add = (from: string, fromRow: number, to: string, toRow: number, reversed: boolean): void => {
      const b = this.store.getBlock(et.name, from, to);
      if (!b) return;
      const id = this.store.blockId(b);
      for (const eid of b.find(fromRow, toRow, v)) {
        out.push(handle(edgeType, et.directed, reversed, srcType, srcRow, tgtType, tgtRow, id, eid));
      }
    };
    if (r.reverse) add(tgtType, tgtRow, srcType, srcRow, true);
    else {
      add(srcType, srcRow, tgtType, tgtRow, false);
      if (!et.directed && !(srcType === tgtType && srcRow === tgtRow))
        add(tgtType, tgtRow, srcType, srcRow, true);
    }
    return out;
  }

  protected blockOf(h: EdgeHandle): EdgeBlock {
    const b = this.store.blocks[h.block];
    if (!b) throw new EngineError('REST-30000', 'Stale edge handle.');
    return b;
  }

  edgeAttr(h: EdgeHandle, attribute: string): Value {
    const c = this.blockOf(h).columns.get(attribute);
    if (!c) throw new EngineError('REST-30000', `Edge type '${h.edgeType}' has no attribute '${attribute}'.`);
    return c.getAt(h.eid, this.version);
  }

  edgeRecord(h: EdgeHandle, attrs?: readonly string[]): EdgeRecord {
    const b = this.blockOf(h);
    const attributes: Record<string, Value> = {};
    for (const a of b.edgeType.attributes) {
      if (attrs === undefined || attrs.includes(a.name)) {
        attributes[a.name] = (b.columns.get(a.name) as Column).getAt(h.eid, this.version);
      }
    }
    // A directed edge read from its TO end still shows its real direction; undirected and reverse
    // edges show the vertex they were reached from as the source.
    const swap = h.directed && h.reversed && h.edgeType === b.edgeType.name;
    const src = { type: h.srcType, id: this.vertexId(h.srcType, h.srcRow) };
    const tgt = { type: h.tgtType, id: this.vertexId(h.tgtType, h.tgtRow) };
    const [from, to] = swap ? [tgt, src] : [src, tgt];
    return {
      e_type: h.edgeType,
      directed: h.directed,
      from_id: from.id,
      from_type: from.type,
      to_id: to.id,
      to_type: to.type,
      attributes,
    };
  }

  /** Blocks of a readable edge type whose (reader-facing) source/target types match. */
  protected blocksFor(edgeType?: string, fromType?: string, toType?: string): EdgeBlock[] {
    const out: EdgeBlock[] = [];
    let names: Set<string> | undefined;
    let reverse = false;
    if (edgeType !== undefined) {
      const r = edgeTypeOf(this.store.catalog, edgeType);
      names = new Set([r.stored.name]);
      reverse = r.reverse;
    }
    for (const b of this.store.blocks) {
      if (names && !names.has(b.edgeType.name)) continue;
      const [f, t] = reverse ? [b.toType, b.fromType] : [b.fromType, b.toType];
      if (fromType !== undefined && fromType !== '*' && fromType !== f) continue;
      if (toType !== undefined && toType !== '*' && toType !== t) continue;
      out.push(b);
    }
    return out;
  }

  edgeCount(edgeType?: string, fromType?: string, toType?: string): number {
    let n = 0;
    for (const b of this.blocksFor(edgeType, fromType, toType)) {
      b.settle();
      n += this.count(b.live);
    }
    return n;
  }

  adjacency(
    edgeType: string,
    sourceType: string,
    targetType: string,
    direction: 'out' | 'in' = 'out',
  ): AdjacencyView[] {
    const r = edgeTypeOf(this.store.catalog, edgeType);
    const et = r.stored;
    const views: AdjacencyView[] = [];
    const forwardRead = r.reverse ? direction === 'in' : direction === 'out';
    const fwd = this.store.getBlock(et.name, sourceType, targetType);
    const bwd = this.store.getBlock(et.name, targetType, sourceType);
    if (!et.directed) {
      if (fwd) views.push(view(edgeType, sourceType, targetType, fwd, true, this.version));
      if (bwd) views.push(view(edgeType, sourceType, targetType, bwd, false, this.version, bwd === fwd));
    } else if (forwardRead) {
      if (fwd) views.push(view(edgeType, sourceType, targetType, fwd, true, this.version));
    } else if (bwd) views.push(view(edgeType, sourceType, targetType, bwd, false, this.version));
    return views;
  }

  column(vertexType: string, attribute: string): ColumnView {
    const t = this.table(vertexType);
    const c = t.columns.get(attribute);
    if (!c)
      throw new EngineError('REST-30000', `Vertex type '${vertexType}' has no attribute '${attribute}'.`);
    const v = this.version;
    return {
      numbers: c.numbers(),
      get exact(): boolean {
        return c.history === null && !c.hasInexact();
      },
      get: (row: number) => c.getAt(row, v),
    };
  }

  vertexAttrStats(vertexType: string): AttrStat[] {
    const t = this.table(vertexType);
    const rows = t.rowsAt(this.version);
    const col = (name: string): Column => t.columns.get(name) as Column;
    return attrStats(t.type.attributes, [{ col, ids: rows, n: rows.length }], this.version);
  }

  edgeAttrStats(edgeType: string, fromType?: string, toType?: string): AttrStat[] {
    const blocks = this.blocksFor(edgeType, fromType, toType);
    const et = edgeTypeOf(this.store.catalog, edgeType).stored;
    const sources = blocks.map((b) => {
      const ids = new Uint32Array(b.edgeLimit);
      let n = 0;
      for (let e = 0; e < b.edgeLimit; e++) if (b.isLive(e, this.version)) ids[n++] = e;
      return { col: (name: string) => b.columns.get(name) as Column, ids, n };
    });
    return attrStats(et.attributes, sources, this.version);
  }
}

function handle(
  edgeType: string,
  directed: boolean,
  reversed: boolean,
  srcType: string,
  srcRow: number,
  tgtType: string,
  tgtRow: number,
  block: number,
  eid: number,
): EdgeHandle {
  return { edgeType, directed, reversed, srcType, srcRow, tgtType, tgtRow, block, eid };
}
