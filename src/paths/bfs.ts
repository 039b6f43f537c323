/**
 * Breadth-first search state over a PathGraph: per-vertex distance and one parent (vertex, step,
 * edge id), kept in typed arrays sized to the graph and reset in O(1) with a generation stamp so
 * that repeated searches on one snapshot allocate nothing.
 */
import type { Budget } from './budget.js';
import type { PathEdge, PathGraph, Step } from './graph.js';

export type Direction = 'out' | 'back';

export class Bfs {
  private readonly seenAt: Uint32Array;
  private gen = 0;
  readonly dist: Int32Array;
  readonly parent: Int32Array;
  readonly parentEid: Uint32Array;
  readonly parentStep: (Step | undefined)[];
  /** Vertices in discovery order (so in non-decreasing distance). */
  readonly order: Int32Array;
  count = 0;
  direction: Direction = 'out';

  constructor(readonly pg: PathGraph) {
    const n = pg.size;
    this.seenAt = new Uint32Array(n);
    this.dist = new Int32Array(n);
    this.parent = new Int32Array(n);
    this.parentEid = new Uint32Array(n);
    this.parentStep = new Array<Step | undefined>(n);
    this.order = new Int32Array(n);
  }

  reset(direction: Direction): void {
    this.direction = direction;
    this.count = 0;
    if (++this.gen === 0xffffffff) {
      this.seenAt.fill(0);
      this.gen = 1;
    }
  }

  seen(g: number): boolean {
    return this.seenAt[g] === this.gen;
  }

  /** Marks a root (distance 0). */
  root(g: number): void {
    this.seenAt[g] = this.gen;
    this.dist[g] = 0;
    this.parent[g] = -1;
    this.parentStep[g] = undefined;
    this.order[this.count++] = g;
  }

  /**
   * Expands the vertices of order[from, to) by one level. `onFound` sees each newly reached vertex.
   * Only vertices and edges that pass the filters are taken.
   */
  expand(from: number, to: number, budget: Budget, onFound?: (g: number) => void): void {
    const pg = this.pg;
    const steps = this.direction === 'out' ? pg.out : pg.back;
    const base = pg.base;
    for (let i = from; i < to; i++) {
      const x = this.order[i];
      const t = pg.typeOf(x);
      const row = x - base[t];
      const d = this.dist[x] + 1;
      for (const step of steps[t]) {
        const tb = base[step.tgtType];
        step.view.forEach(row, (yRow, eid) => {
          const y = tb + yRow;
          if (this.seenAt[y] === this.gen) return;
          if (!pg.vertexOk(y) || !pg.edgeOk(step, eid)) return;
          this.seenAt[y] = this.gen;
          this.dist[y] = d;
          this.parent[y] = x;
          this.parentEid[y] = eid;
          this.parentStep[y] = step;
          this.order[this.count++] = y;
          onFound?.(y);
        });
      }
      budget.tick(steps[t].length + 1);
    }
  }

  /** The edge by which `g` was reached, oriented the way paths run (sources towards targets). */
  parentEdge(g: number): PathEdge {
    const p = this.parent[g];
    const step = this.parentStep[g] as Step;
    const eid = this.parentEid[g];
    return this.direction === 'out' ? { step, eid, from: p, to: g } : { step, eid, from: g, to: p };
  }
}

/** Vertices expanded between looks at the budget. */
const CHUNK = 1024;

/**
 * Runs a BFS level by level up to maxDepth, stopping as soon as `done()` holds (checked after every
 * chunk: a vertex found at distance k has all its distance k-1 predecessors already settled), and
 * yielding as the budget asks.
 */
export async function runLevels(
  bfs: Bfs,
  maxDepth: number,
  budget: Budget,
  done: () => boolean,
  onFound?: (g: number) => void,
): Promise<void> {
  let from = 0;
  for (let depth = 0; depth < maxDepth && from < bfs.count && !done(); depth++) {
    const end = bfs.count;
    for (let i = from; i < end && !done(); i += CHUNK) {
      bfs.expand(i, Math.min(i + CHUNK, end), budget, onFound);
      if (budget.due) await budget.pause();
    }
    from = end;
  }
}
