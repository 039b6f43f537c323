/**
 * The edges of a query run's virtual edge types (CREATE … VIRTUAL EDGE) and the graph a run with
 * them reads: the snapshot plus those edges, which SELECT walks like stored ones.
 *
 * Edges inserted while a SELECT runs wait in a pending list and are added when the next SELECT
 * starts (`flushVirtualEdges`), so a block never walks edges its own ACCUM is adding. One edge per
 * (FROM, TO) pair and type (an undirected edge's ends in either order): inserting it again replaces
 * its attributes, as INSERT does for a stored edge type without a discriminator.
 *
 * Adjacency views over virtual edges are never `clean`: readers go through `forEach`/`degree`,
 * which read the current lists, so views cached for a run stay right as edges are added. Edge
 * handles of virtual edges carry a negative block (-1 - the type's index).
 */
import type { Catalog, EdgeType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { AdjacencyView, EdgeFilter, EdgeHandle, EdgeRecord } from '../engine/api.js';
import type { QueryGraph } from './graph.js';

/** Rows by vertex row: the ids of the edges listed there. */
type RowLists = Map<number, number[]>;

const EMPTY_U32 = new Uint32Array(0);
const EMPTY_I32 = new Int32Array(0);

/** The edges of one virtual edge type in one run. */
export class VirtualEdgeSet {
  /** The value of each attribute an INSERT does not give (set when the declaration runs). */
  defaults: Value[];
  readonly srcType: string[] = [];
  readonly srcRow: number[] = [];
  readonly tgtType: string[] = [];
  readonly tgtRow: number[] = [];
  readonly attrs: Value[][] = [];
  private readonly byPair = new Map<string, number>();
  /** By FROM row, per `from>to` vertex type pair. */
  private readonly fwd = new Map<string, RowLists>();
  /** By TO row, per `to<from` vertex type pair. */
  private readonly bwd = new Map<string, RowLists>();
  private pending: { s: string; sr: number; t: string; tr: number; attrs: Value[] }[] = [];
  private readonly views = new Map<string, AdjacencyView>();

  constructor(
    readonly def: EdgeType,
    readonly block: number,
  ) {
    // Every pair's lists exist from the start, so views can hold them.
    for (const { from, to } of def.pairs) {
      if (!this.fwd.has(`${from}>${to}`)) this.fwd.set(`${from}>${to}`, new Map());
      if (!this.bwd.has(`${to}<${from}`)) this.bwd.set(`${to}<${from}`, new Map());
    }
    this.defaults = def.attributes.map((a) =>
      a.type.kind === 'STRING' ? '' : a.type.kind === 'BOOL' ? false : 0,
    );
  }

  insert(s: string, sr: number, t: string, tr: number, attrs: Value[]): void {
    this.pending.push({ s, sr, t, tr, attrs });
  }

  flush(): void {
    const list = this.pending;
    if (list.length === 0) return;
    this.pending = [];
    for (const e of list) this.add(e.s, e.sr, e.t, e.tr, e.attrs);
  }

  private add(s: string, sr: number, t: string, tr: number, attrs: Value[]): void {
    const key = `${s}\u0000${sr}\u0000${t}\u0000${tr}`;
    const same =
      this.byPair.get(key) ??
      (this.def.directed ? undefined : this.byPair.get(`${t}\u0000${tr}\u0000${s}\u0000${sr}`));
    if (same !== undefined) {
      this.attrs[same] = attrs;
      return;
    }
    const eid = this.srcType.length;
    this.byPair.set(key, eid);
    this.srcType.push(s);
    this.srcRow.push(sr);
    this.tgtType.push(t);
    this.tgtRow.push(tr);
    this.attrs.push(attrs);
    listAt(this.fwd, `${s}>${t}`, sr).push(eid);
    listAt(this.bwd, `${t}<${s}`, tr).push(eid);
  }

  /** Calls fn(otherRow, eid, reversed) for each edge at `row` of `type` towards `other` vertices. */
  each(
    type: string,
    row: number,
    other: string,
    direction: 'out' | 'in',
    fn: (otherRow: number, eid: number, reversed: boolean) => void,
  ): void {
    const forward = !this.def.directed || direction === 'out';
    const backward = !this.def.directed || direction === 'in';
    if (forward)
      for (const eid of this.fwd.get(`${type}>${other}`)?.get(row) ?? []) fn(this.tgtRow[eid], eid, false);
    if (backward) {
      for (const eid of this.bwd.get(`${type}<${other}`)?.get(row) ?? []) {
        // An undirected self-loop was listed by the forward half already.
        if (forward && type === other && this.srcRow[eid] === row) continue;
        fn(this.srcRow[eid], eid, true);
      }
    }
  }

  view(sourceType: string, targetType: string, direction: 'out' | 'in'): AdjacencyView {
    const key = `${direction}\u0000${sourceType}\u0000${targetType}`;
    let v = this.views.get(key);
    if (!v) {
      const directed = this.def.directed;
      const fwd = !directed || direction === 'out' ? this.fwd.get(`${sourceType}>${targetType}`) : undefined;
      const bwd = !directed || direction === 'in' ? this.bwd.get(`${sourceType}<${targetType}`) : undefined;
      // An undirected self-loop is listed by the forward half only.
      const loops = fwd !== undefined && sourceType === targetType;
      const { srcRow, tgtRow } = this;
      const walk = (row: number, fn: (otherRow: number, eid: number) => void): void => {
        const f = fwd?.get(row);
        if (f) for (const eid of f) fn(tgtRow[eid], eid);
        const b = bwd?.get(row);
        if (b) for (const eid of b) if (!(loops && srcRow[eid] === row)) fn(srcRow[eid], eid);
      };
      v = {
        edgeType: this.def.name,
        sourceType,
        targetType,
        offsets: EMPTY_U32,
        targets: EMPTY_U32,
        eids: null,
        deltaHead: EMPTY_I32,
        deltaNext: EMPTY_I32,
        deltaTarget: EMPTY_U32,
        deltaBase: 0,
        deltaVersion: EMPTY_U32,
        deltaCount: 0,
        version: 0,
        clean: false,
        skipSelfLoops: false,
        live: () => true,
        forEach: walk,
        degree(row) {
          let n = 0;
          walk(row, () => n++);
          return n;
        },
      };
      this.views.set(key, v);
    }
    return v;
  }
}

function listAt(lists: Map<string, RowLists>, key: string, row: number): number[] {
  let byRow = lists.get(key);
  if (!byRow) lists.set(key, (byRow = new Map()));
  let l = byRow.get(row);
  if (!l) byRow.set(row, (l = []));
  return l;
}

/** The snapshot with a run's virtual edge types added. */
export class VirtualEdgeGraph implements QueryGraph {
  readonly catalog: Catalog;
  private readonly sets = new Map<string, VirtualEdgeSet>();
  private readonly byBlock: VirtualEdgeSet[] = [];

  constructor(
    private readonly base: QueryGraph,
    graphName: string,
    defs: readonly EdgeType[],
  ) {
    defs.forEach((d, i) => {
      const set = new VirtualEdgeSet(d, -1 - i);
      this.sets.set(d.name, set);
      this.byBlock[i] = set;
    });
    const c = base.catalog;
    const names = defs.map((d) => d.name);
    this.catalog = {
      ...c,
      edgeTypes: [...c.edgeTypes, ...defs],
      graphs: c.graphs.map((g) =>
        g.name === graphName ? { ...g, edgeTypes: [...g.edgeTypes, ...names] } : g,
      ),
    };
  }

  /** The edges of virtual edge type `name`. */
  set(name: string): VirtualEdgeSet {
    return this.sets.get(name)!;
  }

  /** Makes every edge inserted so far visible (a SELECT is about to start). */
  flush(): void {
    for (const s of this.byBlock) s.flush();
  }

  rows(vertexType: string): Uint32Array {
    return this.base.rows(vertexType);
  }
  rowLimit(vertexType: string): number {
    return this.base.rowLimit(vertexType);
  }
  lookup(...a: Parameters<QueryGraph['lookup']>): number | undefined {
    return this.base.lookup(...a);
  }
  vertexId(vertexType: string, row: number): string {
    return this.base.vertexId(vertexType, row);
  }
  attr(vertexType: string, row: number, attribute: string): Value {
    return this.base.attr(vertexType, row, attribute);
  }
  isLive(vertexType: string, row: number): boolean {
    return this.base.isLive(vertexType, row);
  }

  edges(vertexType: string, row: number, filter?: EdgeFilter): EdgeHandle[] {
    const set = filter?.edgeType === undefined ? undefined : this.sets.get(filter.edgeType);
    // A wildcard edge step walks the stored edge types only (docs/gsql.md, "Virtual edges").
    if (!set) return this.base.edges(vertexType, row, filter);
    const out: EdgeHandle[] = [];
    const others =
      filter?.targetType === undefined
        ? set.def.pairs.map((p) => p.to).concat(set.def.pairs.map((p) => p.from))
        : [filter.targetType];
    const dirs: ('out' | 'in')[] =
      filter?.direction === 'both' && set.def.directed
        ? ['out', 'in']
        : [filter?.direction === 'in' ? 'in' : 'out'];
    for (const other of new Set(others)) {
      for (const d of dirs) {
        set.each(vertexType, row, other, d, (r, eid, reversed) => {
          out.push({
            edgeType: set.def.name,
            directed: set.def.directed,
            reversed,
            srcType: vertexType,
            srcRow: row,
            tgtType: other,
            tgtRow: r,
            block: set.block,
            eid,
          });
        });
      }
    }
    return out;
  }

  edgeAttr(edge: EdgeHandle, attribute: string): Value {
    if (edge.block >= 0) return this.base.edgeAttr(edge, attribute);
    const set = this.byBlock[-1 - edge.block];
    const i = set.def.attributes.findIndex((a) => a.name === attribute);
    return set.attrs[edge.eid][i];
  }

  edgeRecord(edge: EdgeHandle, attrs?: readonly string[]): EdgeRecord {
    if (edge.block >= 0) return this.base.edgeRecord(edge, attrs);
    const set = this.byBlock[-1 - edge.block];
    const attributes: Record<string, Value> = {};
    set.def.attributes.forEach((a, i) => {
      if (attrs === undefined || attrs.includes(a.name)) attributes[a.name] = set.attrs[edge.eid][i];
    });
    // As for stored edges: a directed edge shows its real direction, an undirected one shows the
    // vertex it was reached from as the source.
    const src = { type: edge.srcType, id: this.base.vertexId(edge.srcType, edge.srcRow) };
    const tgt = { type: edge.tgtType, id: this.base.vertexId(edge.tgtType, edge.tgtRow) };
    const [from, to] = set.def.directed && edge.reversed ? [tgt, src] : [src, tgt];
    return {
      e_type: set.def.name,
      directed: set.def.directed,
      from_id: from.id,
      from_type: from.type,
      to_id: to.id,
      to_type: to.type,
      attributes,
    };
  }

  adjacency(
    edgeType: string,
    sourceType: string,
    targetType: string,
    direction?: 'out' | 'in',
  ): AdjacencyView[] {
    const set = this.sets.get(edgeType);
    if (!set) return this.base.adjacency(edgeType, sourceType, targetType, direction);
    const d = direction ?? 'out';
    const connects = set.def.pairs.some((p) =>
      d === 'out' || !set.def.directed
        ? (p.from === sourceType && p.to === targetType) ||
          (!set.def.directed && p.to === sourceType && p.from === targetType)
        : p.to === sourceType && p.from === targetType,
    );
    return connects ? [set.view(sourceType, targetType, d)] : [];
  }
}

/** The run's virtual edges, when its graph has them. */
export function virtualEdgesOf(graph: QueryGraph): VirtualEdgeGraph | undefined {
  return graph instanceof VirtualEdgeGraph ? graph : undefined;
}
