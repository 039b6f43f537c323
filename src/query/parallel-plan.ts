/**
 * How a split ACCUM walks and cuts its work (see parallel.ts): whether it pulls each target's
 * in-edges or pushes every source's edges into each partition, whether a push gains anything, and
 * its partitions (of targets, or of sources for a split by sources): guided, large first and small
 * last, except a push's one per thread.
 */
import type { AdjacencyView } from '../engine/api.js';
import type { RunContext } from './context.js';
import { ascendingList } from './storage-order.js';
import type { KernelHop, ParallelAccum, SelectRun } from './select-kernel-types.js';

/**
 * When a SELECT is worth splitting: at least `minSources` sources, partitions of at least
 * `minPartition` run indexes (tests lower them to split small graphs). `sourceCost`: what walking
 * one source costs a pushed partition (two offsets and a binary search per hop), in in-edges a
 * pull reads: on RMAT 2^18 a partition spent about 70 ns per source of WCC's two steps, a pull
 * about 5 ns per in-edge. It decides between pull and push, and whether a push gains anything.
 * `pullCost`: what a pulled in-edge costs against a pushed row (a pull reads the source's cells
 * at random per in-edge, a push once per source): on RMAT 2^20 at 2 threads a pulled WCC took
 * twice the CPU of a pushed one, PageRank 1.1x more; a pull whose values over the source are
 * hoisted (ParallelAccum's `hoist`) counts 1.
 */
export const parallelSelect = {
  minSources: 4096,
  minPartition: 4096,
  sourceCost: 12,
  pullCost: 2,
  /**
   * The least guided partition is 1/tailParts of a split's work (see guidedCuts): the thread that
   * ends last runs at most about one of them alone. On RMAT 2^20 at 2 threads a 3-hop's last hop
   * or a PageRank round is 40-90 ms of work, so 1/64 left the other thread waiting up to 1.4 ms
   * (0.6-1.7 ms measured); a partition costs a few microseconds (a take and a phase's set-up).
   */
  tailParts: 256,
  /**
   * An existence-only hop goes bottom-up when its rows times this reach the target types' in-edges
   * plus run indexes (bottomUpSources; measured, see docs/performance-log.md "Wave 8: bottom-up k-hop").
   */
  bottomUpAlpha: 6,
  /**
   * What a target weighs beside one in-edge in a bottom-up step's partitions (weightedBounds): the
   * step stops at a target's first source, so its cost follows the targets more than the in-edges.
   * On RMAT 2^20 a partition of the low-degree tail cost about 13 ns per target, one of the hubs
   * 0.1-0.9 ns per in-edge; weighing a target as one in-edge left the last partitions 60,000
   * targets (0.6-0.9 ms) each, and the thread that ended last alone for up to one of them.
   */
  bottomUpTargetWeight: 32,
};

/**
 * A pushed ACCUM's partitions: one range of run indexes per thread, of equal size (each partition
 * reads every source's adjacency offsets, so more cost more; ranges weighted by in-edges measured
 * slower on RMAT 2^20). The answer does not depend on them (see parallel.ts).
 */
export function equalBounds(limit: number, threads: number): number[] {
  const parts = Math.max(1, Math.min(threads, Math.ceil(limit / parallelSelect.minPartition)));
  const size = Math.ceil(limit / parts / 64) * 64;
  const bounds: number[] = [];
  for (let b = 0; b < limit; b += size) bounds.push(b);
  bounds.push(limit);
  return bounds;
}

/**
 * Where guided partitions of work `total` end, as cumulative work in (0, total), for `threads`
 * threads taking them in order from a shared counter: each takes 1/(2 × threads) of the work left
 * while that is more than 1/`tailParts` of the whole and 1/`most` of it (at most `most`
 * partitions); the rest is cut into equal partitions of at most that least size. The first are
 * large (few takes), the last small: when the counter runs out, the thread still working ends at
 * most a small partition after the other (measured at 2 threads on RMAT 2^20: with 8 equal
 * partitions the owner waited 4-18 ms per split for the helper's last one), and an error in the
 * estimated work of a large partition is made up by the small ones after it.
 */
export function guidedCuts(total: number, threads: number, most: number): number[] {
  const cuts: number[] = [];
  if (!(total > 0)) return cuts;
  const least = total / Math.max(1, Math.min(most, parallelSelect.tailParts));
  for (let done = 0; ;) {
    const step = (total - done) / (2 * threads);
    if (step <= least) {
      // The tail: equal partitions, none larger than `least` (nor, the first, than the last guided one).
      const parts = Math.ceil((total - done) / least - 1e-9);
      for (let i = 1; i < parts; i++) cuts.push(done + ((total - done) * i) / parts);
      return cuts;
    }
    done += step;
    cuts.push(done);
  }
}

/**
 * A pulled ACCUM's partitions: guided ranges (guidedCuts) of the run indexes `[0, limit)`, a run
 * index weighing `perTarget` plus its in-edges in the block's steps (hubs cluster at low rows:
 * ranges of equal size put most edges in the first), taken from the shared counter. The answer
 * does not depend on them (see parallel.ts).
 */
export function weightedBounds(st: SelectRun, limit: number, threads: number, perTarget = 1): number[] {
  // Work before run index g: g × perTarget, plus the in-edges of the targets below g in each reverse hop.
  const hops: { start: number; end: number; hops: KernelHop[] }[] = [];
  for (let g = 0; g < limit;) {
    const plan = st.pullPlan(g);
    hops.push({ start: st.start, end: st.end, hops: plan });
    g = Math.max(st.end, g + 1);
  }
  const before = (g: number): number => {
    let w = g * perTarget;
    for (const t of hops) {
      const row = Math.min(g, t.end) - t.start;
      if (row <= 0) continue;
      for (const { view } of t.hops) w += view.offsets[Math.min(row, view.offsets.length - 1)];
    }
    return w;
  };
  const bounds: number[] = [0];
  for (const want of guidedCuts(before(limit), threads, Math.ceil(limit / parallelSelect.minPartition))) {
    let lo = bounds[bounds.length - 1];
    let hi = limit;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (before(m) < want) lo = m + 1;
      else hi = m;
    }
    const b = Math.min(limit, Math.ceil(lo / 64) * 64);
    if (b > bounds[bounds.length - 1] && b < limit) bounds.push(b);
  }
  bounds.push(limit);
  return bounds;
}

/**
 * Guided ranges (guidedCuts) of a list of `count` vertices of about equal work each, as a split
 * POST-ACCUM's partitions and a hoisting pull's fills.
 */
export function rangeBounds(count: number, threads: number): number[] {
  const bounds = [0];
  for (const cut of guidedCuts(count, threads, Math.ceil(count / parallelSelect.minPartition))) {
    const b = Math.ceil(cut);
    if (b > bounds[bounds.length - 1] && b < count) bounds.push(b);
  }
  bounds.push(count);
  return bounds;
}

/**
 * The weights of a list of sources, a source weighing one plus its rows in the block's steps:
 * `weight[s]` is the weight of the list positions before s × `stride`. Beyond `most` sources the
 * weights are those of every k-th source, each standing for the k from it (a pass over every
 * source's offsets would cost a large frontier about a tenth of its split).
 */
export function sourceWeights(
  st: SelectRun,
  gids: Int32Array,
  most = 4096,
): { weight: Float64Array; stride: number; samples: number; total: number } {
  const n = gids.length;
  const stride = Math.max(1, Math.floor(n / most));
  const samples = Math.ceil(n / stride);
  const weight = new Float64Array(samples + 1);
  let start = 0;
  let end = 0;
  let views: AdjacencyView[] = [];
  let w = 0;
  for (let s = 0; s < samples; s++) {
    const g = gids[s * stride];
    if (g < start || g >= end) {
      views = st.locate(g).flatMap((hops) => hops.map((h) => h.view));
      start = st.start;
      end = st.end;
    }
    const row = g - start;
    let rows = 1;
    for (let h = 0; h < views.length; h++) {
      const view = views[h];
      const off = view.offsets;
      if (!view.clean) rows += view.degree(row);
      else if (row + 1 < off.length) rows += off[row + 1] - off[row];
    }
    w += rows * Math.min(stride, n - s * stride);
    weight[s + 1] = w;
  }
  return { weight, stride, samples, total: w };
}

/**
 * A split by sources' partitions (ParallelAccum's `bySource`): guided ranges (guidedCuts) of the
 * list positions `[0, gids.length)`, a source weighing one plus its rows in the block's steps (hubs
 * cluster at low rows; sourceWeights), taken from the shared counter. The answer does not
 * depend on the ranges. Undefined when the whole weighs less than `minSources` × 16 (what
 * worthSplitting asks of a few sources' rows): no thread walks another's sources, so only the
 * split's own cost (a round of messages and wake-ups) can outweigh what it saves.
 */
export function sourceBounds(st: SelectRun, gids: Int32Array, threads: number): number[] | undefined {
  const n = gids.length;
  const { weight, stride, samples, total: w } = sourceWeights(st, gids);
  if (w < parallelSelect.minSources * 16) return undefined;
  const bounds = [0];
  let s = 0;
  // At least 64 sources a partition, but up to 16 partitions of a few sources with many rows (a
  // k-hop's middle hop: hubs weigh most, and two partitions left one thread a hub's rows alone).
  for (const want of guidedCuts(w, threads, Math.max(Math.ceil(n / 64), Math.min(n, 16)))) {
    while (s < samples && weight[s] < want) s++;
    const b = Math.min(n, s * stride);
    if (b > bounds[bounds.length - 1] && b < n) bounds.push(b);
  }
  bounds.push(n);
  return bounds;
}

/**
 * Whether splitting a push saves time: each partition walks every source (sourceCost apiece), so
 * `threads` partitions cost threads × sourceCost × sources beside the rows, which they share.
 * Rows are counted from the compacted adjacencies of the first source type's vertices (a delta's
 * edges are spread evenly over the type's rows), until they are enough.
 */
export function worthPushing(ctx: RunContext, st: SelectRun, gids: Int32Array, threads: number): boolean {
  const n = gids.length;
  const enough = (threads * parallelSelect.sourceCost * n) / (threads - 1);
  const range = ctx.typeRange(ctx.typeIndexAt(gids[0]));
  const hops = st.plan(range.type).flat();
  const size = Math.max(1, range.end - range.start);
  let rows = hops.reduce((r, { view }) => r + (view.deltaCount * n) / size, 0);
  for (let i = 0; i < n && rows <= enough; i++) {
    const row = gids[i] - range.start;
    if (row < 0 || row >= size) continue;
    for (const { view } of hops) {
      const off = view.offsets;
      if (row + 1 < off.length) rows += off[row + 1] - off[row];
    }
  }
  return rows > enough;
}

/** Whether each thread's targets' in-edges are sorted by source (cached per stored array). */
const sortedByView = new WeakMap<Uint32Array, boolean>();

function sortedRows(view: AdjacencyView): boolean {
  let known = sortedByView.get(view.targets);
  if (known === undefined) {
    const off = view.offsets;
    const t = view.targets;
    known = true;
    for (let r = 0; r + 1 < off.length && known; r++)
      for (let i = off[r] + 1; i < off[r + 1]; i++)
        if (t[i] < t[i - 1]) {
          known = false;
          break;
        }
    sortedByView.set(view.targets, known);
  }
  return known;
}

/** The edges of some hops: their compacted base and the delta (none when the views are clean). */
const edgesOf = (hops: KernelHop[]): number =>
  hops.reduce((n, { view }) => n + view.offsets[view.offsets.length - 1] + view.deltaCount, 0);

/** A list of sources a pull may read back to: their type, and whether they are all of it. */
export interface PullSources {
  source: string;
  full: boolean;
  /** The in-edges of the target types over the reverse hops, and the target run indexes. */
  inEdges: number;
  targets: number;
}

/**
 * Whether a pull may read the rows of a SELECT from `gids` back from its targets: the sources are
 * of one type and in storage order (ascending run indexes, the order a pull meets them in), every
 * adjacency is compacted both ways with the same edges, and, unless the clause is `orderFree`, one
 * hop reaches each target type with in-edges sorted by source (then a target's rows come in the
 * push order: the same updates bit for bit).
 */
function pullable(
  ctx: RunContext,
  st: SelectRun,
  gids: Int32Array,
  orderFree: boolean,
): PullSources | undefined {
  const n = gids.length;
  if (n === 0) return undefined;
  const ti = ctx.typeIndexAt(gids[0]);
  if (ctx.typeIndexAt(gids[n - 1]) !== ti || !ascendingList(gids)) return undefined;
  const range = ctx.typeRange(ti);
  const fwd = st.plan(range.type).flat();
  if (fwd.some((h) => !h.view.clean)) return undefined;
  st.pullSource = range.type;
  let inEdges = 0;
  let targets = 0;
  for (const type of new Set(fwd.map((h) => h.view.targetType))) {
    const tr = ctx.typeRange(ctx.typeIndexOf(type));
    if (tr.end === tr.start) continue;
    const into = fwd.filter((h) => h.view.targetType === type);
    const back = st.pullPlan(tr.start);
    if (back.some((h) => !h.view.clean) || edgesOf(back) !== edgesOf(into)) return undefined;
    if (!orderFree && (into.length !== 1 || back.length !== 1 || !sortedRows(back[0].view))) return undefined;
    inEdges += edgesOf(back);
    targets += tr.end - tr.start;
  }
  return { source: range.type, full: n === range.end - range.start, inEdges, targets };
}

/**
 * Whether a split ACCUM pulls (ParallelAccum's `pull`), and from which source type: the rows may
 * be pulled (pullable) and walking every in-edge of the target types costs less than each thread
 * walking every source (the push's partitions each read every source's offsets) plus its share of
 * the sources' rows.
 */
export function pullSources(
  ctx: RunContext,
  st: SelectRun,
  gids: Int32Array,
  phase: ParallelAccum,
  threads: number,
): PullSources | undefined {
  const p = pullable(ctx, st, gids, phase.orderFree);
  if (!p) return undefined;
  // Per thread, a pull reads (in-edges + targets) / threads (pullCost per in-edge), a push reads
  // every source's offsets (sourceCost) plus its share of the rows (from the average degree).
  const n = gids.length;
  const range = ctx.typeRange(ctx.typeIndexAt(gids[0]));
  const sources = range.end - range.start;
  const rows = (n * p.inEdges) / Math.max(1, sources);
  // A pull that reads its values over the source from hoisted arrays costs what a pushed row does.
  const pulled = (phase.hoist ? 1 : parallelSelect.pullCost) * p.inEdges + p.targets;
  if (pulled > threads * parallelSelect.sourceCost * n + rows) return undefined;
  return p;
}

/**
 * Whether an existence-only SELECT hop (ParallelAccum's `exists`) takes the bottom-up step
 * (select-bottom-up.ts), at any thread count: its rows may be pulled and the push's rows (the
 * sources' out-edges, estimated from samples as sourceBounds weighs them) are at least
 * 1/`bottomUpAlpha` of the target types' in-edges and run indexes, the most a bottom-up step reads
 * (Beamer et al.'s switch from top-down to bottom-up: the step stops at a target's first source,
 * so it reads far fewer when the frontier is large).
 */
export function bottomUpSources(ctx: RunContext, st: SelectRun, gids: Int32Array): PullSources | undefined {
  const p = pullable(ctx, st, gids, true);
  if (!p) return undefined;
  // Only the total counts here, from samples (each source's offsets are a cache miss: 4096 of them
  // took 0.14 ms of a 3-hop's serial part on RMAT 2^20, 1024 of a 300,000-source frontier 0.12 ms):
  // 256 first, and 1024 only when those leave the choice within a factor of two.
  const need = p.inEdges + p.targets;
  const alpha = parallelSelect.bottomUpAlpha;
  const rough = (sourceWeights(st, gids, 256).total - gids.length) * alpha;
  if (gids.length <= 256 || rough >= 2 * need || rough * 2 < need) return rough >= need ? p : undefined;
  const rows = sourceWeights(st, gids, 1024).total - gids.length;
  return rows * alpha >= need ? p : undefined;
}
