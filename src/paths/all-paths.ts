/**
 * Every path of at most maxLength edges from any source to any target.
 *
 * Loops: only simple paths are returned — no vertex appears twice on a path, so a path never
 * contains a cycle (TigerGraph warns that its paths may contain loops; here they never do). A path
 * may pass through one target on its way to another. A source that is also a target yields the path
 * of length 0. Parallel edges (several edges between the same two vertices) make distinct paths.
 *
 * Work is bounded: a backward BFS from all targets first gives each vertex within maxLength − 1
 * hops its distance to the nearest target, and the depth-first enumeration only extends a path of
 * length k to a vertex v when v is within that ball and k + 1 + dist(v) <= maxLength (exact: a
 * vertex after the source needs dist <= maxLength − 1; the ball's last level, usually its largest,
 * is never built). The enumeration keeps only the current path (an explicit stack,
 * no recursion), reports paths to a sink as it finds them, and checks the budget as it goes.
 */
import { runLevels } from './bfs.js';
import type { Budget } from './budget.js';
import type { PathEdge, PathGraph } from './graph.js';
import { emitPath, scratch, usable, type PathSink } from './shortest.js';

export interface AllPathsOptions {
  maxLength: number;
  budget: Budget;
}

interface Frame {
  /** Candidate moves from this vertex: neighbour, and the edge to it. */
  next: PathEdge[];
  i: number;
}

export async function allPaths(
  pg: PathGraph,
  sources: readonly number[],
  targets: readonly number[],
  opts: AllPathsOptions,
  sink: PathSink,
): Promise<void> {
  const S = usable(pg, sources);
  const T = usable(pg, targets);
  if (S.length === 0 || T.length === 0) return;
  const { maxLength, budget } = opts;
  const toTarget = scratch(pg, 1);
  toTarget.reset('back');
  for (const t of T) toTarget.root(t);
  await runLevels(toTarget, maxLength - 1, budget, () => false);
  const isTarget = new Set(T);
  const onPath = new Uint8Array(pg.size);
  const base = pg.base;

  /** Moves from `x` (at depth `depth`) that can still end at a target in time. */
  const movesFrom = (x: number, depth: number): PathEdge[] => {
    const moves: PathEdge[] = [];
    if (depth >= maxLength) return moves;
    const t = pg.typeOf(x);
    for (const step of pg.out[t]) {
      const tb = base[step.tgtType];
      step.view.forEach(x - base[t], (yRow, eid) => {
        const y = tb + yRow;
        if (onPath[y] !== 0 || !toTarget.seen(y) || depth + 1 + toTarget.dist[y] > maxLength) return;
        // toTarget only holds vertices that pass the vertex filters; the edge is checked here.
        if (!pg.edgeOk(step, eid)) return;
        moves.push({ step, eid, from: x, to: y });
      });
    }
    budget.tick(moves.length + 1);
    return moves;
  };

  for (const s of S) {
    const vertices = [s];
    const edges: PathEdge[] = [];
    onPath[s] = 1;
    if (isTarget.has(s)) emitPath(sink, { vertices: [s], edges: [] });
    const frames: Frame[] = [{ next: movesFrom(s, 0), i: 0 }];
    while (frames.length > 0) {
      const f = frames[frames.length - 1];
      if (f.i === f.next.length) {
        frames.pop();
        onPath[vertices.pop() as number] = 0;
        if (frames.length > 0) edges.pop();
        continue;
      }
      const e = f.next[f.i++];
      if (onPath[e.to] !== 0) continue;
      vertices.push(e.to);
      edges.push(e);
      onPath[e.to] = 1;
      if (isTarget.has(e.to)) emitPath(sink, { vertices: [...vertices], edges: [...edges] });
      frames.push({ next: movesFrom(e.to, edges.length), i: 0 });
      if (budget.due) await budget.pause();
    }
  }
}
