/**
 * The graph as path finding walks it: every vertex of the graph's types gets one dense global
 * number (type base + row), and each vertex type lists its traversal steps — one per typed-array
 * adjacency view — forwards (edges in their traversable directions: directed edges FROM→TO, reverse
 * edge types TO→FROM as declared, undirected edges both ways) and backwards (the same relation read
 * from the far end, for bidirectional and target-rooted searches). Filters are applied here.
 *
 * Filter semantics: a filter `{type, condition}` constrains the elements of its type; filters on the
 * same type are ORed; elements of a type no filter names are not constrained (so a vertex filter on
 * one type leaves the other types traversable, as TigerGraph's samples use them). Vertex filters
 * apply to every vertex of a path, sources and targets included. An edge filter names the edge type
 * as paths show it (a reverse edge type by its own name).
 */
import type { AttrType, Catalog, GraphDef } from '../catalog/types.js';
import type {
  AdjacencyView,
  EdgeHandle,
  EdgeRecord,
  ExternalId,
  ReadTx,
  VertexRecord,
} from '../engine/api.js';
import { compileCondition, type Condition } from './condition.js';
import { PathError } from './errors.js';

export interface FilterSpec {
  type: string;
  /** Absent or empty: every element of the type passes. */
  condition?: string;
}

export interface VertexRef {
  type: string;
  id: ExternalId;
}

/** One adjacency view read from vertices of `srcType` (row space) to `tgtType`. */
export interface Step {
  /** Index in PathGraph.steps. */
  id: number;
  /** Edge type name as paths show it (a reverse edge type's own name). */
  name: string;
  directed: boolean;
  reverseName: boolean;
  /** A backward step reads the relation from the edge's far end: its edges run tgtType → srcType. */
  backward: boolean;
  /** Vertex type indexes: the view's rows are srcType vertices, its neighbours tgtType vertices. */
  srcType: number;
  tgtType: number;
  view: AdjacencyView;
  /** Conditions of the edge filters on this type (undefined: unconstrained). */
  conditions: Condition[] | undefined;
  /** The storage block, found on first need (see blockOf). */
  block: number | undefined;
}

/** One edge of a path, oriented the way the path runs (`from` before `to`). */
export interface PathEdge {
  step: Step;
  eid: number;
  from: number;
  to: number;
}

export interface Path {
  vertices: number[];
  edges: PathEdge[];
}

export class PathGraph {
  readonly typeNames: string[];
  /** First global number of each vertex type; base[types] is the total. */
  readonly base: number[];
  readonly size: number;
  readonly out: Step[][];
  readonly back: Step[][];
  /** Every step, forwards and backwards, by id. */
  readonly steps: Step[] = [];
  private readonly vertexConds: (Condition[] | undefined)[];
  /** 0 unknown, 1 passes, 2 fails; only allocated when some vertex type has conditions. */
  private readonly vertexMemo: Uint8Array | undefined;
  private readonly handle: EdgeHandle;

  constructor(
    readonly tx: ReadTx,
    graph: GraphDef,
    vertexFilters: readonly FilterSpec[] = [],
    edgeFilters: readonly FilterSpec[] = [],
  ) {
    const catalog = tx.catalog;
    this.typeNames = graph.vertexTypes.filter((n) => catalog.vertexTypes.some((v) => v.name === n));
    this.base = [0];
    for (const t of this.typeNames) this.base.push(this.base[this.base.length - 1] + tx.rowLimit(t));
    this.size = this.base[this.typeNames.length];
    this.vertexConds = this.compileVertexFilters(catalog, vertexFilters);
    this.vertexMemo = this.vertexConds.some((c) => c !== undefined) ? new Uint8Array(this.size) : undefined;
    const edgeConds = this.compileEdgeFilters(catalog, graph, edgeFilters);
    this.out = this.typeNames.map(() => []);
    this.back = this.typeNames.map(() => []);
    this.buildSteps(catalog, graph, edgeConds);
    this.handle = {
      edgeType: '',
      directed: false,
      reversed: false,
      srcType: '',
      srcRow: 0,
      tgtType: '',
      tgtRow: 0,
      block: 0,
      eid: 0,
    };
  }

  typeIndex(name: string): number {
    return this.typeNames.indexOf(name);
  }

  /** The global number of a vertex; a PathError for an unknown type or id. */
  resolve(ref: VertexRef, role: string): number {
    const t = this.typeIndex(ref.type);
    if (t < 0)
      throw new PathError(`The ${role} vertex type '${ref.type}' is not a vertex type of the graph.`);
    // pyTigerGraph sends ids with their Python type: 50 may name the STRING id "50".
    let row = this.tx.lookup(ref.type, ref.id);
    if (row === undefined && typeof ref.id !== 'string') row = this.tx.lookup(ref.type, String(ref.id));
    if (row === undefined) {
      throw new PathError(`The ${role} vertex '${ref.type}' '${String(ref.id)}' does not exist.`);
    }
    return this.base[t] + row;
  }

  typeOf(g: number): number {
    const b = this.base;
    let t = 0;
    while (g >= b[t + 1]) t++;
    return t;
  }

  vertexOk(g: number): boolean {
    const memo = this.vertexMemo;
    if (!memo) return true;
    const m = memo[g];
    if (m !== 0) return m === 1;
    const t = this.typeOf(g);
    const conds = this.vertexConds[t];
    let ok = true;
    if (conds) {
      const type = this.typeNames[t];
      const row = g - this.base[t];
      const read = (a: string): ReturnType<ReadTx['attr']> => this.tx.attr(type, row, a);
      ok = conds.some((c) => c(read));
    }
    memo[g] = ok ? 1 : 2;
    return ok;
  }

  /** Whether an edge of a step passes the edge filters (only the block and edge id are read). */
  edgeOk(step: Step, eid: number): boolean {
    const conds = step.conditions;
    if (!conds) return true;
    const h = this.fillHandle(step, step.srcType, 0, step.tgtType, 0, eid);
    return conds.some((c) => c((a) => this.tx.edgeAttr(h, a)));
  }

  vertexRecord(g: number): VertexRecord {
    const t = this.typeOf(g);
    return this.tx.vertex(this.typeNames[t], g - this.base[t]);
  }

  edgeRecord(e: PathEdge): EdgeRecord {
    return this.tx.edgeRecord({ ...this.orientedHandle(e) });
  }

  /** Identifies an edge (an undirected edge walked either way is the same edge). */
  edgeKey(e: PathEdge): string {
    return `${e.step.name}|${this.blockOf(e.step)}|${e.eid}`;
  }

  /** The edge as read from the path's earlier vertex (records show the path's direction). */
  private orientedHandle(e: PathEdge): EdgeHandle {
    const s = e.step;
    const [ft, tt] = s.backward ? [s.tgtType, s.srcType] : [s.srcType, s.tgtType];
    return this.fillHandle(s, ft, e.from - this.base[ft], tt, e.to - this.base[tt], e.eid);
  }

  /** The shared scratch handle for reading one edge (copy it to keep it). */
  private fillHandle(
    step: Step,
    ft: number,
    fromRow: number,
    tt: number,
    toRow: number,
    eid: number,
  ): EdgeHandle {
    const h = this.handle;
    h.edgeType = step.name;
    h.directed = step.directed;
    // Only a reverse edge type is read against the stored direction; records then show it as walked.
    h.reversed = step.reverseName;
    h.srcType = this.typeNames[ft];
    h.srcRow = fromRow;
    h.tgtType = this.typeNames[tt];
    h.tgtRow = toRow;
    h.block = this.blockOf(step);
    h.eid = eid;
    return h;
  }

  /**
   * The storage block behind a view. AdjacencyView does not name it, so it is found once by reading
   * edges of the view through edgesBetween until exactly one block matches their edge ids.
   */
  private blockOf(step: Step): number {
    if (step.block !== undefined) return step.block;
    const rowType = this.typeNames[step.srcType];
    const otherType = this.typeNames[step.tgtType];
    let candidates: Set<number> | undefined;
    const limit = this.tx.rowLimit(rowType);
    for (let r = 0; r < limit && (candidates === undefined || candidates.size > 1); r++) {
      step.view.forEach(r, (y, eid) => {
        if (candidates !== undefined && candidates.size <= 1) return;
        const blocks = new Set<number>();
        const between = step.backward
          ? this.tx.edgesBetween(step.name, otherType, y, rowType, r)
          : this.tx.edgesBetween(step.name, rowType, r, otherType, y);
        for (const h of between) if (h.eid === eid) blocks.add(h.block);
        if (candidates === undefined) candidates = blocks;
        else for (const b of candidates) if (!blocks.has(b)) candidates.delete(b);
      });
    }
    const found = candidates?.size === 1 ? [...candidates][0] : undefined;
    if (found === undefined)
      throw new PathError(`Cannot locate the storage of edge type '${step.name}'.`, 'REST-10000');
    step.block = found;
    return found;
  }

  private compileVertexFilters(
    catalog: Catalog,
    filters: readonly FilterSpec[],
  ): (Condition[] | undefined)[] {
    const conds: (Condition[] | undefined)[] = this.typeNames.map(() => undefined);
    const always: Condition = () => true;
    filters.forEach((f, i) => {
      const t = this.typeNames.indexOf(f.type);
      if (t < 0) throw new PathError(`vertexFilters[${i}]: '${f.type}' is not a vertex type of the graph.`);
      const vt = catalog.vertexTypes.find((v) => v.name === f.type);
      const types = new Map<string, AttrType>();
      if (vt) {
        if (vt.keyKind === 'primary_id' && vt.primaryIdAsAttribute)
          types.set(vt.primaryId.name, vt.primaryId.type);
        for (const a of vt.attributes) types.set(a.name, a.type);
      }
      const c = hasText(f.condition)
        ? compileCondition(f.condition, types, `vertex filter vertexFilters[${i}] on '${f.type}'`)
        : always;
      (conds[t] ??= []).push(c);
    });
    return conds;
  }

  private compileEdgeFilters(
    catalog: Catalog,
    graph: GraphDef,
    filters: readonly FilterSpec[],
  ): Map<string, Condition[]> {
    const conds = new Map<string, Condition[]>();
    filters.forEach((f, i) => {
      const et = catalog.edgeTypes.find(
        (e) => graph.edgeTypes.includes(e.name) && (e.name === f.type || e.reverseEdge === f.type),
      );
      if (!et) throw new PathError(`edgeFilters[${i}]: '${f.type}' is not an edge type of the graph.`);
      const types = new Map<string, AttrType>(et.attributes.map((a) => [a.name, a.type]));
      const c: Condition = hasText(f.condition)
        ? compileCondition(f.condition, types, `edge filter edgeFilters[${i}] on '${f.type}'`)
        : () => true;
      const list = conds.get(f.type) ?? [];
      list.push(c);
      conds.set(f.type, list);
    });
    return conds;
  }

  private buildSteps(catalog: Catalog, graph: GraphDef, edgeConds: Map<string, Condition[]>): void {
    const seen = new Set<string>();
    const expand = (t: string): string[] =>
      t === '*' ? this.typeNames : this.typeNames.includes(t) ? [t] : [];
    for (const et of catalog.edgeTypes) {
      if (!graph.edgeTypes.includes(et.name)) continue;
      const readings: { name: string; from: string; to: string; reverseName: boolean }[] = [];
      for (const p of et.pairs) {
        for (const from of expand(p.from)) {
          for (const to of expand(p.to)) {
            readings.push({ name: et.name, from, to, reverseName: false });
            if (!et.directed) readings.push({ name: et.name, from: to, to: from, reverseName: false });
            else if (et.reverseEdge)
              readings.push({ name: et.reverseEdge, from: to, to: from, reverseName: true });
          }
        }
      }
      for (const r of readings) {
        const key = `${r.name}|${r.from}|${r.to}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const s = this.typeNames.indexOf(r.from);
        const t = this.typeNames.indexOf(r.to);
        const conditions = edgeConds.get(r.name);
        const make = (view: AdjacencyView, srcType: number, tgtType: number, backward: boolean): Step => {
          const step: Step = {
            id: this.steps.length,
            name: r.name,
            directed: et.directed,
            reverseName: r.reverseName,
            backward,
            srcType,
            tgtType,
            view,
            conditions,
            block: undefined,
          };
          this.steps.push(step);
          return step;
        };
        for (const v of this.tx.adjacency(r.name, r.from, r.to, 'out'))
          this.out[s].push(make(v, s, t, false));
        for (const v of this.tx.adjacency(r.name, r.to, r.from, 'in')) this.back[t].push(make(v, t, s, true));
      }
    }
  }
}

function hasText(c: string | undefined): c is string {
  return c !== undefined && c.trim() !== '';
}
