/**
 * Breadth-first search state over a PathGraph: per-vertex distance and one parent (vertex, step,
 * edge id) in typed arrays indexed by global vertex number, reset in O(1) with a generation stamp.
 * The arrays come from a small pool shared by requests (see acquire/release), so that a search on a
 * graph of millions of vertices does not allocate and zero tens of megabytes per request.
 */
import type { Budget } from './budget.js';
import type { PathEdge, PathGraph } from './graph.js';

export type Direction = 'out' | 'back';

interface Buffers {
  seenAt: Uint32Array;
  /** The stamp of the current search; seenAt[g] === gen means g was reached. */
  gen: number;
  dist: Int32Array;
  parent: Int32Array;
  parentEid: Uint32Array;
  /** Index into PathGraph.steps (numbers, so that a pooled buffer keeps no old snapshot alive). */
  parentStep: Int32Array;
  order: Int32Array;
}

const pool: Buffers[] = [];
// Two buffer sets serve a bidirectional search; more would keep memory for little gain.
const POOL_SIZE = 2;

function acquire(n: number): Buffers {
  const i = pool.findIndex((b) => b.seenAt.length >= n);
  if (i >= 0) return pool.splice(i, 1)[0];
  return {
    seenAt: new Uint32Array(n),
    gen: 0,
    dist: new Int32Array(n),
    parent: new Int32Array(n),
    parentEid: new Uint32Array(n),
    parentStep: new Int32Array(n),
    order: new Int32Array(n),
  };
}

export class Bfs {
  private b: Buffers;
  count = 0;
  direction: Direction = 'out';

  constructor(readonly pg: PathGraph) {
    this.b = acquire(pg.size);
  }

  /** Returns the arrays to the pool; the Bfs must not be used afterwards. */
  release(): void {
    pool.push(this.b);
    if (pool.length > POOL_SIZE) pool.shift();
  }

  get dist(): Int32Array {
    return this.b.dist;
  }
  get parent(): Int32Array {
    return this.b.parent;
  }
  /** Vertices in discovery order (so in non-decreasing distance). */
  get order(): Int32Array {
    return this.b.order;
  }

  reset(direction: Direction): void {
    this.direction = direction;
    this.count = 0;
    if (++this.b.gen === 0xffffffff) {
      this.b.seenAt.fill(0);
      this.b.gen = 1;
    }
  }

  seen(g: number): boolean {
    return this.b.seenAt[g] === this.b.gen;
  }

  /** Marks a root (distance 0). */
  root(g: number): void {
    const b = this.b;
    b.seenAt[g] = b.gen;
    b.dist[g] = 0;
    b.parent[g] = -1;
    b.parentStep[g] = -1;
    b.order[this.count++] = g;
  }

  /**
   * Expands the vertices of order[from, to) by one level. `onFound` sees each newly reached vertex.
   * Only vertices and edges that pass the filters are taken.
   */
  expand(from: number, to: number, budget: Budget, onFound?: (g: number) => void): void {
    const pg = this.pg;
    const steps = this.direction === 'out' ? pg.out : pg.back;
    const base = pg.base;
    const { seenAt, gen, dist, parent, parentEid, parentStep, order } = this.b;
    for (let i = from; i < to; i++) {
      const x = order[i];
      const t = pg.typeOf(x);
      const row = x - base[t];
      const d = dist[x] + 1;
      for (const step of steps[t]) {
        const tb = base[step.tgtType];
        step.view.forEach(row, (yRow, eid) => {
          const y = tb + yRow;
          if (seenAt[y] === gen) return;
          if (!pg.vertexOk(y) || !pg.edgeOk(step, eid)) return;
          seenAt[y] = gen;
          dist[y] = d;
          parent[y] = x;
          parentEid[y] = eid;
          parentStep[y] = step.id;
          order[this.count++] = y;
          onFound?.(y);
        });
      }
      budget.tick(steps[t].length + 1);
    }
  }

  /** The edge by which `g` was reached, oriented the way paths run (sources towards targets). */
  parentEdge(g: number): PathEdge {
    const p = this.b.parent[g];
    const step = this.pg.steps[this.b.parentStep[g]];
    const eid = this.b.parentEid[g];
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
