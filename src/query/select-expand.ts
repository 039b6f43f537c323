/**
 * Walking one edge step of a pattern from a vertex: the adjacencies of its edge types (read in
 * place, as SELECT kernels do) or, for steps naming no edge type, the engine's edge handles; and
 * the breadth-first search of a repeated step (`E*1..3`), which reaches each vertex at its shortest
 * distance and counts the shortest paths to it (GSQL's shortest-path semantics for repetition).
 */
import type { AdjacencyView, EdgeFilter } from '../engine/api.js';
import type { BoundEdgeAtom } from './bound-select.js';
import type { RunContext } from './context.js';

interface Adjacency {
  view: AdjacencyView;
  base: number;
}

/** What one source vertex type walks: adjacencies, and filters read through edge handles. */
interface TypeWalk {
  adjacency: Adjacency[];
  handles: EdgeFilter[];
}

/**
 * The adjacencies of one edge step (its atoms, reversed or not) from each source vertex type,
 * towards `targetTypes` (all types when undefined), resolved once per SELECT run.
 */
export class StepWalk {
  private readonly byType: (TypeWalk | undefined)[] = [];
  private readonly filters: EdgeFilter[];
  private readonly named: { edgeType: string; direction: 'out' | 'in' }[];
  constructor(
    private readonly ctx: RunContext,
    atoms: readonly BoundEdgeAtom[],
    reversed: boolean,
    private readonly targetTypes: readonly string[] | undefined,
  ) {
    const flip = (d: 'out' | 'in'): 'out' | 'in' => (reversed ? (d === 'out' ? 'in' : 'out') : d);
    this.named = [];
    this.filters = [];
    for (const a of atoms) {
      const direction = flip(a.direction);
      if (a.dynamic) for (const edgeType of a.dynamic(ctx)) this.named.push({ edgeType, direction });
      else if (a.edgeType !== undefined) this.named.push({ edgeType: a.edgeType, direction });
      else this.filters.push({ direction });
    }
  }

  /** The walk from vertices of the type with index `ti` (see RunContext.typeIndexAt). */
  of(ti: number): TypeWalk {
    let w = this.byType[ti];
    if (w) return w;
    const ctx = this.ctx;
    const st = ctx.typeNameAt(ti);
    const adjacency: Adjacency[] = [];
    for (const { edgeType, direction } of this.named)
      for (const tt of this.targetTypes ?? ctx.graph.catalog.vertexTypes.map((v) => v.name)) {
        const base = ctx.base(tt);
        for (const view of ctx.graph.adjacency(edgeType, st, tt, direction)) adjacency.push({ view, base });
      }
    w = { adjacency, handles: this.filters };
    this.byType[ti] = w;
    return w;
  }

  /** Calls `fn` with the run index of every vertex one step from `gid` (once per edge). */
  forEach(gid: number, fn: (tg: number) => void): void {
    const ctx = this.ctx;
    const ti = ctx.typeIndexAt(gid);
    const row = gid - ctx.typeStartAt(ti);
    const w = this.of(ti);
    for (let h = 0; h < w.adjacency.length; h++) {
      const { view, base } = w.adjacency[h];
      if (!view.clean) {
        view.forEach(row, (tr) => fn(base + tr));
        continue;
      }
      const offsets = view.offsets;
      if (row + 1 >= offsets.length) continue;
      const end = offsets[row + 1];
      const tgts = view.targets;
      ctx.steps(end - offsets[row]);
      if (view.skipSelfLoops) {
        for (let i = offsets[row]; i < end; i++) if (tgts[i] !== row) fn(base + tgts[i]);
      } else for (let i = offsets[row]; i < end; i++) fn(base + tgts[i]);
    }
    if (w.handles.length === 0) return;
    const type = ctx.typeNameAt(ti);
    const allowed = this.targetTypes;
    for (const f of w.handles)
      for (const e of ctx.graph.edges(type, row, f)) {
        ctx.step();
        if (!allowed || allowed.includes(e.tgtType)) fn(ctx.base(e.tgtType) + e.tgtRow);
      }
  }
}

/**
 * Every vertex whose shortest distance from `from` over `walk` is within [min, max], with the
 * number of shortest paths reaching it (parallel edges count as distinct paths), in breadth-first
 * order. Distance 0 is `from` itself; when `min` is above 0, `from` is reached again at its
 * shortest return distance like any other vertex, as TigerGraph reports it (`-(E>*1..)-` from a
 * vertex on a cycle includes it; so does an undirected `-[:e*1..3]-` from a vertex with an edge,
 * which walks back to it in two steps).
 */
export function shortestReach(
  ctx: RunContext,
  walk: StepWalk,
  from: number,
  min: number,
  max: number,
  out: (gid: number, paths: number) => void,
): void {
  const s = ctx.bfsScratch();
  const search = ++s.search;
  const { seen, dist, paths } = s;
  seen[from] = search;
  dist[from] = 0;
  paths[from] = 1;
  if (min === 0) out(from, 1);
  // The shortest cycles back to `from`: its distance is already 0, so they are counted apart.
  let cycles = min === 0 ? -1 : 0;
  let frontier = [from];
  for (let level = 0; frontier.length > 0 && level < max; level++) {
    const next: number[] = [];
    const d = level + 1;
    for (const u of frontier) {
      const pu = paths[u];
      walk.forEach(u, (v) => {
        if (seen[v] !== search) {
          seen[v] = search;
          dist[v] = d;
          paths[v] = pu;
          next.push(v);
        } else if (v === from) {
          if (cycles >= 0) cycles += pu;
        } else if (dist[v] === d) paths[v] += pu;
      });
    }
    if (cycles > 0) {
      if (d >= min) out(from, cycles);
      cycles = -1;
    }
    if (d >= min) for (const v of next) out(v, paths[v]);
    frontier = next;
  }
}
