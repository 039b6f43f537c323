/**
 * The cost of a plan, estimated before it runs from the graph's degree statistics: how many
 * vertices and edges the response would hold (1 unit each) plus the rows filters, sorts and
 * aggregates read without returning them (1 unit per 100). Roots are the vertices a list names by
 * id, or its limit, or the whole type; each edge level multiplies by the field's fan-out — the
 * exact degrees of roots named by id, the average degree for scanned roots, and for a vertex
 * reached over an edge the degree-weighted mean Σd²/Σd (a neighbour's expected degree, which on
 * skewed graphs is far above the average). Aliases and fragments count as often as they occur.
 */
import type { ReadTx } from '../engine/api.js';
import type { VertexFilter } from './filter.js';
import type { EdgeFieldModel } from './model.js';
import type { ConnectionField, EdgeSelection, Plan, RowSource, VertexSelection } from './plan.js';

/** Rows read but not returned cost this much each. */
const SCAN = 0.01;

interface Fanout {
  /** Edges of the field per source vertex. */
  avg: number;
  /** Expected fan-out of a vertex reached over an edge: Σd²/Σd. */
  next: number;
  /** The edge count the numbers were computed at (recomputed once it moves by a tenth). */
  edges: number;
}

/** Degree statistics per edge field, cached across requests and refreshed as the graph changes. */
export class DegreeStatistics {
  private readonly cache = new Map<string, Fanout>();

  fanout(tx: ReadTx, edge: EdgeFieldModel): Fanout {
    const id = `${edge.edgeType}|${edge.sourceType}|${edge.targetType}`;
    const edges = tx.edgeCount(edge.edgeType, edge.sourceType, edge.targetType);
    const cached = this.cache.get(id);
    if (cached && Math.abs(cached.edges - edges) <= cached.edges / 10) return cached;
    const views = tx.adjacency(edge.edgeType, edge.sourceType, edge.targetType);
    const rows = tx.rowLimit(edge.sourceType);
    let sum = 0;
    let squares = 0;
    for (let r = 0; r < rows; r++) {
      let d = 0;
      for (const v of views) {
        if (v.clean) d += r + 1 < v.offsets.length ? v.offsets[r + 1] - v.offsets[r] : 0;
        else d += v.degree(r);
      }
      sum += d;
      squares += d * d;
    }
    const vertices = Math.max(1, tx.vertexCount(edge.sourceType));
    const f = { avg: sum / vertices, next: sum === 0 ? 0 : Math.max(sum / vertices, squares / sum), edges };
    this.cache.set(id, f);
    return f;
  }
}

class Estimator {
  constructor(
    private readonly tx: ReadTx,
    private readonly stats: DegreeStatistics,
  ) {}

  private filterCost(filter: VertexFilter | undefined): number {
    if (!filter) return 0;
    let per = 1;
    for (const n of filter.neighbours)
      per += this.stats.fanout(this.tx, n.edge).avg * (1 + this.filterCost(n.target));
    return per;
  }

  /** `n` vertices selected by `sel`; `rootDegree` gives the first hop's fan-out when known exactly. */
  vertices(
    sel: VertexSelection,
    n: number,
    hop: 'root' | 'next',
    exact?: (e: EdgeFieldModel) => number,
  ): number {
    let cost = n;
    for (const f of sel.fields) {
      if (f.k === 'edgeAggregate') {
        cost += n * this.stats.fanout(this.tx, f.edge).avg * SCAN;
        continue;
      }
      if (f.k !== 'edges') continue;
      const fan = this.stats.fanout(this.tx, f.edge);
      let m = exact ? exact(f.edge) : n * (hop === 'root' ? fan.avg : fan.next);
      if (f.filter || f.order.length > 0) cost += m * SCAN;
      if (f.page.limit !== undefined) m = Math.min(m, n * f.page.limit);
      cost += this.edges(f.sel, m);
    }
    return cost;
  }

  edges(sel: EdgeSelection, m: number): number {
    let cost = m;
    for (const f of sel.fields) {
      if (f.k !== 'end') continue;
      cost += m * SCAN * this.filterCost(f.filter);
      cost += this.vertices(f.sel, m, f.side === 'to' ? 'next' : 'root') - m;
    }
    return cost;
  }

  /** Roots of a source and the cost of finding them. */
  source(s: RowSource): { roots: number; cost: number; exact?: (e: EdgeFieldModel) => number } {
    const type = s.vm.type.name;
    if (s.seek) {
      const rows = s.seek.flatMap((id) => {
        const r = this.tx.lookup(type, id);
        return r === undefined ? [] : [r];
      });
      const exact = (e: EdgeFieldModel) => {
        const views = this.tx.adjacency(e.edgeType, e.sourceType, e.targetType);
        let d = 0;
        for (const r of rows) for (const v of views) d += v.degree(r);
        return d;
      };
      return { roots: rows.length, cost: rows.length * SCAN * this.filterCost(s.filter), exact };
    }
    const count = this.tx.vertexCount(type);
    const read = s.filter || s.order.length > 0 ? count * SCAN * Math.max(1, this.filterCost(s.filter)) : 0;
    return { roots: count, cost: read };
  }

  plan(plan: Plan): number {
    let cost = 0;
    for (const root of plan.fields) {
      if (root.k === 'graph') {
        for (const f of root.fields) {
          if (f.k === 'const' || f.k === 'failed') continue;
          const src = this.source(f.source);
          cost += src.cost;
          if (f.k === 'aggregate') {
            const degrees = f.sel.fields.some((s) => s.name === 'degree') ? f.source.vm.edges.length : 0;
            cost += src.roots * SCAN * (1 + degrees);
            continue;
          }
          let roots = src.roots;
          if (f.k === 'list' && f.page.limit !== undefined) roots = Math.min(roots, f.page.limit);
          if (f.k === 'connection' && f.first !== undefined) roots = Math.min(roots, f.first);
          const exact = roots === src.roots ? src.exact : undefined;
          const sel = f.k === 'list' ? f.sel : nodeSelection(f);
          if (f.k === 'connection') cost += src.roots * SCAN;
          if (sel) cost += this.vertices(sel, roots, 'root', exact);
          else cost += roots;
        }
      } else if (root.k === 'mutations') {
        for (const f of root.fields) {
          if (f.k !== 'mutation') continue;
          const rows = f.rows(this.tx);
          cost +=
            f.sel.kind === 'vertices' ? this.vertices(f.sel.sel, rows, 'root') : this.edges(f.sel.sel, rows);
        }
      }
    }
    const node = plan.changed?.fields.find((f) => f.k === 'node');
    if (node && node.k === 'node') cost += this.vertices(node.sel, 1, 'next');
    return Math.ceil(cost);
  }
}

function nodeSelection(f: ConnectionField): VertexSelection | undefined {
  for (const p of f.fields) {
    if (p.k !== 'edges') continue;
    for (const q of p.fields) if (q.k === 'node') return q.sel;
  }
  return undefined;
}

/** The estimated cost of a plan over the snapshot `tx`. */
export function estimateCost(plan: Plan, tx: ReadTx, stats: DegreeStatistics): number {
  return new Estimator(tx, stats).plan(plan);
}

/**
 * The most a point lookup (inline.ts: ids looked up, attributes read) can cost over any snapshot:
 * what estimateCost gives when every id it names is found.
 */
export function pointCostBound(plan: Plan): number {
  let cost = 0;
  for (const root of plan.fields) {
    if (root.k !== 'graph') continue;
    for (const f of root.fields) {
      if (f.k === 'list' && f.source.seek) cost += f.source.seek.length * (1 + (f.source.filter ? SCAN : 0));
    }
  }
  return Math.ceil(cost);
}
