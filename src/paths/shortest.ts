/**
 * Unweighted shortest paths (fewest hops, at most maxLength) between every source/target pair.
 *
 * One pair: bidirectional BFS, expanding the smaller frontier a level at a time and stopping at the
 * level where the two searches meet; every shortest path is then found from the vertices where they
 * met, through the shortest-path DAG of each side (edges u→v with dist(v) = dist(u) + 1). A few
 * sources and targets: pair by pair as above. Many: one BFS per vertex of the smaller side (forwards from sources, or backwards from targets),
 * stopping once every vertex of the other side is reached; one path follows BFS parents, all paths
 * follow the DAG back from the far end. A source that is
 * also a target has the path of length 0.
 */
import { Bfs, runLevels, type Direction } from './bfs.js';
import type { Budget } from './budget.js';
import type { Path, PathEdge, PathGraph, Step } from './graph.js';

/**
 * Receives results. With `path`, every path is reported on its own; without it, only the vertices
 * and edges on some path are (possibly more than once), which lets every-shortest-path answers be
 * computed without enumerating exponentially many paths.
 */
export interface PathSink {
  path?(p: Path): void;
  vertex?(g: number): void;
  edge?(e: PathEdge): void;
}

export interface ShortestOptions {
  maxLength: number;
  /** Every shortest path per pair instead of one. */
  all: boolean;
  budget: Budget;
  /** Largest side searched pair by pair (default PAIRWISE_MAX); beyond it, one BFS per root. */
  pairwiseMax?: number;
}

export const PAIRWISE_MAX = 32;

const scratchOf = new WeakMap<PathGraph, Bfs[]>();

/** Reusable BFS state for a PathGraph (index 0 and 1: the two sides of a bidirectional search). */
export function scratch(pg: PathGraph, i: number): Bfs {
  let list = scratchOf.get(pg);
  if (!list) scratchOf.set(pg, (list = []));
  return (list[i] ??= new Bfs(pg));
}

/** Gives the BFS arrays of a PathGraph back to the pool once its searches are over. */
export function releaseScratch(pg: PathGraph): void {
  for (const b of scratchOf.get(pg) ?? []) b?.release();
  scratchOf.delete(pg);
}

export function emitPath(sink: PathSink, p: Path): void {
  if (sink.path) {
    sink.path(p);
    return;
  }
  for (const v of p.vertices) sink.vertex?.(v);
  for (const e of p.edges) sink.edge?.(e);
}

/** Distinct vertices that pass the vertex filters, in the order given. */
export function usable(pg: PathGraph, vs: readonly number[]): number[] {
  return [...new Set(vs)].filter((v) => pg.vertexOk(v));
}

export async function shortestPaths(
  pg: PathGraph,
  sources: readonly number[],
  targets: readonly number[],
  opts: ShortestOptions,
  sink: PathSink,
): Promise<void> {
  const S = usable(pg, sources);
  const T = usable(pg, targets);
  if (S.length === 0 || T.length === 0) return;
  // Pair by pair, bidirectional searches stay small (and stop at once when either side is cut off);
  // one BFS per root explores until every vertex of the other side is found, which for an
  // unreachable one means its whole reach. Pairwise wins until a side has a few dozen vertices.
  if (Math.max(S.length, T.length) <= (opts.pairwiseMax ?? PAIRWISE_MAX)) {
    for (const s of S) for (const t of T) await onePair(pg, s, t, opts, sink);
    return;
  }
  // Root the searches at the smaller side.
  if (S.length <= T.length) await rooted(pg, S, T, 'out', opts, sink);
  else await rooted(pg, T, S, 'back', opts, sink);
}

interface Meeting {
  F: Bfs;
  B: Bfs;
  /** Levels the forward search expanded. */
  fLevels: number;
  /** The shortest length, and one vertex where the searches met on a shortest path. */
  length: number;
  meet: number;
}

/**
 * Bidirectional BFS: expands the smaller frontier one whole level at a time and stops after the
 * level in which the searches first meet (every meeting found in that level has the same, shortest,
 * length).
 */
async function meetInTheMiddle(
  pg: PathGraph,
  s: number,
  t: number,
  maxLength: number,
  budget: Budget,
): Promise<Meeting | undefined> {
  const F = scratch(pg, 0);
  const B = scratch(pg, 1);
  F.reset('out');
  B.reset('back');
  F.root(s);
  B.root(t);
  if (s === t) return { F, B, fLevels: 0, length: 0, meet: s };
  let fFrom = 0;
  let bFrom = 0;
  let fLevels = 0;
  let depth = 0;
  let meet = -1;
  let best = Infinity;
  while (depth < maxLength && fFrom < F.count && bFrom < B.count && meet < 0) {
    const forward = F.count - fFrom <= B.count - bFrom;
    const [X, Y] = forward ? [F, B] : [B, F];
    const from = forward ? fFrom : bFrom;
    const end = X.count;
    const onFound = (y: number): void => {
      if (!Y.seen(y)) return;
      const len = X.dist[y] + Y.dist[y];
      if (len < best) {
        best = len;
        meet = y;
      }
    };
    for (let i = from; i < end; i += 1024) {
      X.expand(i, Math.min(i + 1024, end), budget, onFound);
      if (budget.due) await budget.pause();
    }
    if (forward) {
      fFrom = end;
      fLevels++;
    } else bFrom = end;
    depth++;
  }
  return meet < 0 ? undefined : { F, B, fLevels, length: best, meet };
}

async function onePair(
  pg: PathGraph,
  s: number,
  t: number,
  opts: ShortestOptions,
  sink: PathSink,
): Promise<void> {
  const m = await meetInTheMiddle(pg, s, t, opts.maxLength, opts.budget);
  if (!m) return;
  const { F, B } = m;
  if (!opts.all) {
    emitPath(sink, join(parentPath(F, m.meet), parentPath(B, m.meet)));
    return;
  }
  // Every shortest path has exactly one vertex at forward distance p (its p-th vertex), and both
  // searches reached it: p ≤ the forward levels and length − p ≤ the backward ones.
  const p = Math.min(m.fLevels, m.length);
  const meets: number[] = [];
  for (let i = 0; i < F.count; i++) {
    const v = F.order[i];
    if (F.dist[v] === p && B.seen(v) && B.dist[v] === m.length - p) meets.push(v);
  }
  if (!sink.path) {
    const fMarked = new Set<number>();
    const bMarked = new Set<number>();
    for (const v of meets) {
      await dagUnion(F, v, opts.budget, sink, fMarked);
      await dagUnion(B, v, opts.budget, sink, bMarked);
    }
    return;
  }
  for (const v of meets) {
    const lefts: Path[] = [];
    const rights: Path[] = [];
    await allPathsInDag(F, v, opts.budget, (q) => lefts.push(q));
    await allPathsInDag(B, v, opts.budget, (q) => rights.push(q));
    for (const l of lefts) for (const r of rights) emitPath(sink, join(l, r));
  }
}

/** A path ending at vertex v followed by a path starting at v. */
function join(left: Path, right: Path): Path {
  return {
    vertices: [...left.vertices, ...right.vertices.slice(1)],
    edges: [...left.edges, ...right.edges],
  };
}

async function rooted(
  pg: PathGraph,
  roots: readonly number[],
  others: readonly number[],
  dir: Direction,
  opts: ShortestOptions,
  sink: PathSink,
): Promise<void> {
  const bfs = scratch(pg, 0);
  const wanted = new Set(others);
  for (const r of roots) {
    bfs.reset(dir);
    bfs.root(r);
    let remaining = wanted.size - (wanted.has(r) ? 1 : 0);
    await runLevels(
      bfs,
      opts.maxLength,
      opts.budget,
      () => remaining === 0,
      (y) => {
        if (wanted.has(y)) remaining--;
      },
    );
    // The DAGs of one root overlap: each vertex is walked from once per root.
    const marked = new Set<number>();
    for (const o of others) {
      if (!bfs.seen(o)) continue;
      if (!opts.all) emitPath(sink, parentPath(bfs, o));
      else if (sink.path) await allPathsInDag(bfs, o, opts.budget, (p) => emitPath(sink, p));
      else await dagUnion(bfs, o, opts.budget, sink, marked);
    }
  }
}

/** The path along BFS parents between the root and `o`, in path order. */
function parentPath(bfs: Bfs, o: number): Path {
  const vertices = [o];
  const edges: PathEdge[] = [];
  for (let v = o; bfs.parent[v] >= 0; v = bfs.parent[v]) {
    edges.push(bfs.parentEdge(v));
    vertices.push(bfs.parent[v]);
  }
  if (bfs.direction === 'out') {
    vertices.reverse();
    edges.reverse();
  }
  return { vertices, edges };
}

/**
 * Calls fn for each DAG edge leaving `x` towards the root: a neighbour one level closer, over the
 * steps opposite to the search direction. The edge is oriented the way paths run.
 */
function forEachDagEdge(bfs: Bfs, x: number, fn: (y: number, e: PathEdge) => void): void {
  const pg = bfs.pg;
  const t = pg.typeOf(x);
  const d = bfs.dist[x] - 1;
  const steps: Step[] = bfs.direction === 'out' ? pg.back[t] : pg.out[t];
  for (const step of steps) {
    const tb = pg.base[step.tgtType];
    step.view.forEach(x - pg.base[t], (yRow, eid) => {
      const y = tb + yRow;
      if (!bfs.seen(y) || bfs.dist[y] !== d || !pg.edgeOk(step, eid)) return;
      fn(y, bfs.direction === 'out' ? { step, eid, from: y, to: x } : { step, eid, from: x, to: y });
    });
  }
}

/**
 * Reports every vertex and edge of the shortest-path DAG between the root and `o`; vertices in
 * `marked` have been walked from already.
 */
async function dagUnion(
  bfs: Bfs,
  o: number,
  budget: Budget,
  sink: PathSink,
  marked: Set<number>,
): Promise<void> {
  if (marked.has(o)) return;
  marked.add(o);
  const stack = [o];
  while (stack.length > 0) {
    const x = stack.pop() as number;
    sink.vertex?.(x);
    forEachDagEdge(bfs, x, (y, e) => {
      sink.edge?.(e);
      if (!marked.has(y)) {
        marked.add(y);
        stack.push(y);
      }
    });
    budget.tick();
    if (budget.due) await budget.pause();
  }
}

/** Reports every shortest path between the root and `o` one by one, in path order. */
async function allPathsInDag(bfs: Bfs, o: number, budget: Budget, emit: (p: Path) => void): Promise<void> {
  const vertices = [o];
  const edges: PathEdge[] = [];
  const walk = async (x: number): Promise<void> => {
    if (bfs.dist[x] === 0) {
      const p = { vertices: [...vertices], edges: [...edges] };
      if (bfs.direction === 'out') {
        p.vertices.reverse();
        p.edges.reverse();
      }
      emit(p);
      return;
    }
    const next: [number, PathEdge][] = [];
    forEachDagEdge(bfs, x, (y, e) => next.push([y, e]));
    for (const [y, e] of next) {
      vertices.push(y);
      edges.push(e);
      budget.tick();
      if (budget.due) await budget.pause();
      await walk(y);
      vertices.pop();
      edges.pop();
    }
  };
  await walk(o);
}
