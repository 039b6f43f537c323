/**
 * A SELECT's ACCUM clause on several threads (the query worker pool, src/workers).
 *
 * GSQL's ACCUM is map-reduce: every row reads the accumulators as they were before the clause and
 * the updates are combined when it ends. A wide kernel whose clause is eligible (select-kernel.ts's
 * ParallelAccum: all code inline, updates only of the target's cells, copy-on-write snapshots for
 * cells it also reads, global updates that combine exactly) is split by target vertex: the run
 * indexes are cut into partitions (parallel-plan.ts: large first, small last), and each thread
 * takes partitions from a shared counter and does the rows whose target lies in its partition, either pushed (for every
 * source in order, its edges into the partition) or pulled (for every target of the partition,
 * its in-edges back to the sources, see pullSources). A target's cell thus receives exactly the
 * updates one thread would give it, in the same order: sums of floating-point numbers come out
 * bit for bit the same at any thread count, whichever thread did which partition. A clause whose
 * every update threads may make at once on one cell (Or, And, 32-bit Min/Max by compare-and-swap:
 * ParallelAccum's `bySource`) is instead cut into ranges of its sources, so no thread walks
 * another's sources.
 * Each helper thread adds its updates of global accumulators into fresh ones of its own, which
 * the owner adds to the real ones at the end (Or, And, Min, Max and integer Sum give the same value
 * in any order). The vertices collected (result, sources, targets) are marked in shared arrays;
 * a result of targets is listed by the threads per partition (AccumJob's `listing`), the rest from
 * the marks afterwards, in storage order as always.
 *
 * The owner's run keeps its cells and marks in shared memory (run-buffers.ts's shareRunArrays);
 * a helper compiles the same query (same text, same schema version), finds the kernel by its
 * compile-order index, and runs the partitioned phase on a RunContext of its own over the same
 * snapshot, with the owner's layout, variables and cells (`AccumJob`).
 */
import type { EdgeFilter } from '../engine/api.js';
import { clearRange, listMarks as listMarked } from './mark-list.js';
import { setMemberBits } from './member-bits.js';
import { joinOwned, labelJob } from './parallel-labels.js';
import type { AccumJob, HelperOutcome, Relisted, SharedColumn } from './parallel-job.js';
import { gather, listTargets, newGathering, pieceListed, relist, sourcesDone } from './parallel-list.js';
import type { CompiledQuery } from './compile-query.js';
import { RunContext } from './context.js';
import {
  equalBounds,
  parallelSelect,
  pullSources,
  rangeBounds,
  sourceBounds,
  weightedBounds,
  worthPushing,
} from './parallel-plan.js';
import type {
  KernelHop,
  KernelPhase,
  KernelVariant,
  ParallelAccum,
  SelectKernel,
  SelectRun,
} from './select-kernel-types.js';
import type { AccumT } from './types.js';

export type {
  AccumJob,
  HelperOutcome,
  ParallelHost,
  PullJob,
  Relisted,
  SharedColumn,
} from './parallel-job.js';

/** Whether some SELECT of the query may run on several threads (a wide kernel with a split phase). */
export function splitsSelects(query: CompiledQuery): boolean {
  return (query.kernels ?? []).some((k) => {
    const wide = (k as SelectKernel).wide;
    return wide.parallel !== undefined || wide.parallelPosts.some((p) => p !== undefined);
  });
}

function shareable(v: unknown): boolean {
  const t = typeof v;
  if (v === null || v === undefined || t === 'number' || t === 'string' || t === 'boolean' || t === 'bigint')
    return true;
  return (
    Array.isArray(v) &&
    v.every((x) => x === null || ['number', 'string', 'boolean', 'bigint'].includes(typeof x))
  );
}

/**
 * Whether a SELECT from `gids` is worth splitting (the caller runs the wide variant then): many
 * sources, or fewer sources with many rows, as the last hops of a k-hop from one vertex. A clause
 * split by sources (`bySource`: each thread walks only its own sources, so the split adds only its
 * own round) needs 16 × `minSources` rows: on RMAT 2^20 a 3-hop's hop of 400 sources and 160,000
 * rows took 12.5 ms alone and 5.3 ms split, one of 70 sources and 70,000 rows about the same either
 * way. Any other needs at least one row per vertex of the run too, so the wide variant's
 * per-vertex bookkeeping (a target split's passes over the run's marks) stays small beside the
 * rows. A vertex with a not yet compacted adjacency counts its rows too.
 */
export function worthSplitting(ctx: RunContext, gids: Int32Array, st: SelectRun, bySource: boolean): boolean {
  const host = ctx.opts.parallel;
  if (!host || host.threads < 2) return false;
  if (gids.length >= parallelSelect.minSources) return true;
  const least = parallelSelect.minSources * 16;
  const enough = bySource ? least : Math.max(ctx.gidLimit(), least);
  let rows = 0;
  let start = 0;
  let end = 0;
  let plan: KernelHop[][] = [];
  for (let n = 0; n < gids.length; n++) {
    const g = gids[n];
    if (g < start || g >= end) {
      plan = st.locate(g);
      start = st.start;
      end = st.end;
    }
    const row = g - start;
    for (const hops of plan)
      for (const { view } of hops) {
        if (!view.clean) rows += view.degree(row);
        else if (row + 1 < view.offsets.length) rows += view.offsets[row + 1] - view.offsets[row];
      }
    if (rows >= enough) return true;
  }
  return false;
}

/**
 * The owner's side of a split ACCUM (the caller checked worthSplitting): describes the job and runs it with the host. Returns false
 * when the SELECT must run here alone (no host, not the top-level query's kernel, arrays not
 * shared, no helper).
 */
export function startParallelAccum(
  ctx: RunContext,
  kernel: SelectKernel,
  variant: KernelVariant,
  gids: Int32Array,
  st: SelectRun,
  steps: EdgeFilter[],
  targetTypes: string[],
  lists: Relisted,
): boolean {
  const phase = variant.parallel;
  const host = ctx.opts.parallel;
  if (!phase || !host) return false;
  const limit = ctx.gidLimit();
  if (phase.bySource) {
    const split = splitBySource(ctx, kernel, phase, gids, st, steps, targetTypes, lists);
    if (split !== 'other walk') return split === 'split';
    // Cut by target instead: from a few sources only with a row per run index (worthSplitting).
    if (!worthSplitting(ctx, gids, st, false)) return false;
  }
  const pull = pullSources(ctx, st, gids, phase, host.threads);
  if (!pull && !worthPushing(ctx, st, gids, host.threads)) return false;
  const bounds = pull ? weightedBounds(st, limit, host.threads) : equalBounds(limit, host.threads);
  const where = { phase: -1, steps, targetTypes, bounds };
  const job = describe(ctx, kernel, st, gids, gids.length, phase.globals, where);
  if (!job) return false;
  if (lists.resultIsTarget && st.result.buffer instanceof SharedArrayBuffer)
    job.listing = listingOf(st, limit, bounds);
  let ran: boolean;
  if (pull) {
    const member = pull.full ? null : ctx.memberStamps();
    if (member !== null && !(member.buffer instanceof SharedArrayBuffer)) return false;
    if (member !== null) for (let n = 0; n < gids.length; n++) member[gids[n]] = st.stamp;
    job.pull = { source: pull.source, member };
    st.pullSource = pull.source;
    st.member = member;
    if (phase.hoist) {
      st.hoisted = hoistBuffers(ctx, st, phase.hoist.count);
      if (st.hoisted === undefined) return false;
      job.pull.hoisted = { arrays: st.hoisted, ...newFills(gids.length, host.threads) };
    }
    try {
      ran = runJob(ctx, job, st, phase.pull, phase.hoist?.fill);
    } finally {
      st.member = null;
      st.hoisted = undefined;
    }
  } else ran = runJob(ctx, job, st, phase.accum);
  if (!ran) return false;
  if (job.listing) gather(st, bounds, job.listing);
  st.resultMarksClear = job.listing !== undefined;
  relist(st, limit, lists, job.listing === undefined);
  return true;
}

/** A split's listing (AccumJob's `listing`) of partitions `bounds` over `st.result`, gathered as it goes. */
export function listingOf(st: SelectRun, limit: number, bounds: readonly number[]): AccumJob['listing'] {
  const gathering = newGathering(st, limit, bounds.length - 1);
  return {
    result: st.result,
    listed: new Int32Array(new SharedArrayBuffer(bounds.length * 4)),
    ...(gathering ? { gathering } : {}),
  };
}

/**
 * A split ACCUM over ranges of the sources (ParallelAccum's `bySource`), of about equal rows, a few
 * per thread: no thread walks another's sources. 'other walk' when the run's state does not allow
 * it (see `bySource`), 'alone' when the SELECT must run here alone (too few rows, arrays not
 * shared, no helper).
 */
function splitBySource(
  ctx: RunContext,
  kernel: SelectKernel,
  phase: ParallelAccum,
  gids: Int32Array,
  st: SelectRun,
  steps: EdgeFilter[],
  targetTypes: string[],
  lists: Relisted,
): 'split' | 'alone' | 'other walk' {
  const host = ctx.opts.parallel!;
  const own = phase.bySource!;
  const limit = ctx.gidLimit();
  const listed = lists.resultIsTarget && st.result.buffer instanceof SharedArrayBuffer;
  const sizes = { limit, sources: gids.length, threads: host.threads, stamp: st.stamp };
  const labels = own.labels && listed ? labelJob(ctx, own.labels, sizes) : undefined;
  if (own.onlyLabels && !labels) return 'other walk';
  // A label walk records `@x'` of the cells it changed as it lists them (parallel-labels.ts).
  const keepsPrevious = (i: number): boolean => ctx.dense[i]?.prevAt !== null && i !== own.labels?.column;
  if (own.writes.some((i) => (labels ? keepsPrevious(i) : ctx.dense[i]?.prevAt !== null)))
    return 'other walk';
  const bounds = sourceBounds(st, gids, host.threads);
  if (!bounds) return 'alone';
  const where = { phase: -1, steps, targetTypes, bounds };
  const job = describe(ctx, kernel, st, gids, gids.length, phase.globals, where);
  if (!job) return 'alone';
  if (job.columns.some((c) => c.spill.length > 0 || c.snap.length > 0)) return 'other walk';
  job.bySource = true;
  let fn = own.accum;
  let post: KernelPhase | undefined;
  if (listed) {
    const ranges = equalBounds(limit, host.threads * 4);
    job.listing = listingOf(st, limit, ranges);
    job.listAfter = { ranges, progress: new Int32Array(new SharedArrayBuffer(8)) };
    if (labels) {
      job.labels = labels;
      fn = labels.owned ? own.labels!.owned : own.labels!.accum;
    } else if (phase.existsPosts) {
      post = kernel.wide.posts[0];
      job.fusedPost = true;
    }
  }
  if (!runJob(ctx, job, st, fn, undefined, post)) return 'alone';
  if (job.listAfter) {
    // Every source range is done now; the ranges no thread listed are listed here.
    listTargets(job, st, fusing(ctx, st, post));
    st.postsFused = post !== undefined;
    gather(st, job.listAfter.ranges, job.listing!);
    st.resultMarksClear = true;
  }
  relist(st, limit, lists, job.listAfter === undefined);
  return 'split';
}

/**
 * A pull's first step on each thread (PullJob's `hoisted` and `members`): fills ranges of the
 * sources until none is left to take, then fills again the ranges others took and have not
 * finished (the same values: a fill reads only what the clause does not change), so no thread
 * waits for another, which may have died or not be running.
 */
function fillRanges(
  { fills, filling }: { fills: number[]; filling: Int32Array },
  fill: (from: number, to: number) => void,
): void {
  const ranges = fills.length - 1;
  for (let f = Atomics.add(filling, 0, 1); f < ranges; f = Atomics.add(filling, 0, 1)) {
    fill(fills[f], fills[f + 1]);
    Atomics.store(filling, 1 + f, 1);
  }
  for (let f = 0; f < ranges; f++)
    if (Atomics.load(filling, 1 + f) === 0) {
      fill(fills[f], fills[f + 1]);
      Atomics.store(filling, 1 + f, 1);
    }
}

/** Ranges of `count` sources for the threads' fills (PullJob's `hoisted` and `members`). */
export function newFills(count: number, threads: number): { fills: number[]; filling: Int32Array } {
  const fills = rangeBounds(count, threads);
  return { fills, filling: new Int32Array(new SharedArrayBuffer(4 * fills.length)) };
}

/** `count` shared arrays of `limit` cells for hoisted values; undefined when memory is not shared. */
function hoistBuffers(ctx: RunContext, st: SelectRun, count: number): Float64Array[] | undefined {
  if (!(st.result.buffer instanceof SharedArrayBuffer)) return undefined;
  const arrays = ctx.hoistCells(count);
  return arrays.every((a) => a.buffer instanceof SharedArrayBuffer) ? arrays : undefined;
}

/**
 * The owner's side of a split POST-ACCUM group: threads take ranges of `list[0..count)` (each
 * vertex's statements touch only its own cells, see select-kernel.ts's ParallelPost). False: it
 * must run here alone.
 */
export function startParallelPost(
  ctx: RunContext,
  kernel: SelectKernel,
  variant: KernelVariant,
  group: number,
  list: Int32Array,
  count: number,
  st: SelectRun,
): boolean {
  const split = variant.parallelPosts[group];
  const host = ctx.opts.parallel;
  if (!split || !host || count < parallelSelect.minSources) return false;
  const where = { phase: group, steps: [], targetTypes: [], bounds: rangeBounds(count, host.threads) };
  const job = describe(ctx, kernel, st, list, count, split.globals, where);
  return job !== undefined && runJob(ctx, job, st, variant.posts[group]);
}

/** The job of a wide kernel's phase, or undefined when the run's arrays are not all shared. */
export function describe(
  ctx: RunContext,
  kernel: SelectKernel,
  st: SelectRun,
  gids: Int32Array,
  count: number,
  globals: [number, AccumT][],
  where: Pick<AccumJob, 'phase' | 'steps' | 'targetTypes' | 'bounds'>,
): AccumJob | undefined {
  if (kernel.index < 0 || ctx.query === undefined || ctx.query.kernels?.[kernel.index] !== kernel)
    return undefined;
  const columns: SharedColumn[] = [];
  for (const [i, c] of ctx.dense.entries()) {
    if (!c) continue;
    if (!(c.vals.buffer instanceof SharedArrayBuffer)) return undefined;
    const spilled = c.spills();
    columns.push({
      index: i,
      kind: c.kind,
      vals: c.vals,
      prevAt: c.prevAt,
      prevVals: c.prevVals,
      snapVals: c.snapVals,
      spill: spilled.spill,
      prev: spilled.prev,
      snap: spilled.snap,
    });
  }
  const shared = (a: ArrayBufferView | null): boolean => a === null || a.buffer instanceof SharedArrayBuffer;
  const marks: [Uint8Array, Uint8Array, Uint8Array] = [st.resultMark, st.sourceMark, st.targetMark];
  if (!marks.every(shared) || !shared(st.counts)) return undefined;
  const vars: [number, unknown][] = [];
  ctx.vars.forEach((v, slot) => {
    if (shareable(v)) vars.push([slot, v]);
  });
  return {
    kernel: kernel.index,
    ...where,
    stamp: st.stamp,
    gids: gids.buffer instanceof SharedArrayBuffer ? gids : shareGids(gids.subarray(0, count)),
    count,
    counts: st.counts,
    marks,
    layout: ctx.layoutOf(),
    vars,
    columns,
    globals,
    ...(ctx.opts.deadline !== undefined ? { deadline: ctx.opts.deadline } : {}),
  };
}

/**
 * Runs a job with the host and merges what the helpers did; false when no helper was at hand.
 * `fill`: a hoisting pull's fill (PullJob's `hoisted`).
 */
export function runJob(
  ctx: RunContext,
  job: AccumJob,
  st: SelectRun,
  fn: KernelPhase,
  fill?: KernelPhase,
  post?: KernelPhase,
): boolean {
  const host = ctx.opts.parallel!;
  const outcomes = host.accum(ctx.query!, job, () =>
    runPartitions(ctx, fn, job, st, () => host.take(), fill, post),
  );
  if (!outcomes) return false;
  for (const o of outcomes) merge(ctx, o);
  return true;
}

/**
 * Runs partitions taken from `take` until none is left (owner and helpers alike): of the targets
 * for a split ACCUM, of the list for a split POST-ACCUM.
 */
export function runPartitions(
  ctx: RunContext,
  fn: KernelPhase,
  job: AccumJob,
  st: SelectRun,
  take: () => number,
  fill?: KernelPhase,
  post?: KernelPhase,
): void {
  const pull = job.pull;
  if (pull?.hoisted && fill) fillRanges(pull.hoisted, (from, to) => fill(ctx, job.gids, from, to, st));
  if (pull?.members && st.member)
    fillRanges(pull.members, (from, to) => setMemberBits(st.member!, job.gids, from, to));
  // A thread left without a slot of an owned split takes no source range (it may still list).
  const joined = job.labels?.owned === undefined || joinOwned(job.labels, st, job.listAfter!.ranges.at(-1)!);
  for (let p = joined ? take() : -1; p >= 0; p = take()) {
    if (job.phase >= 0 || job.bySource) {
      fn(ctx, job.gids, job.bounds[p], job.bounds[p + 1], st);
      if (job.listAfter && Atomics.add(job.listAfter.progress, 1, 1) + 2 === job.bounds.length)
        Atomics.notify(job.listAfter.progress, 1);
      continue;
    }
    st.lo = job.bounds[p];
    st.hi = job.bounds[p + 1];
    if (job.listing) st.resultCount = st.lo;
    fn(ctx, job.gids, 0, job.count, st);
    if (job.listing) {
      const end = job.pull ? st.resultCount : listMarked(st.result, st.resultMark, st.lo, st.hi);
      job.listing.listed[p] = end - st.lo;
      // Only this partition marks targets in [lo, hi): listed, their marks are no longer read.
      clearRange(st.resultMark, st.result, st.lo, end, st.lo, st.hi);
      if (job.listing.gathering)
        pieceListed(job.listing.gathering, p, job.bounds, job.listing.listed, st.result);
    }
  }
  if (job.listAfter && sourcesDone(job.listAfter.progress, job.bounds.length - 1))
    listTargets(job, st, fusing(ctx, st, post));
  st.lo = 0;
  st.hi = 0x7fffffff;
  st.owned = undefined;
}

/** A fused POST-ACCUM group (AccumJob's `fusedPost`) as the listing calls it. */
function fusing(
  ctx: RunContext,
  st: SelectRun,
  post: KernelPhase | undefined,
): ((list: Int32Array, from: number, to: number) => void) | undefined {
  return post && ((list, from, to) => post(ctx, list, from, to, st));
}

/** The owner adds a helper's partial globals and spilled cells to its own. */
function merge(ctx: RunContext, o: HelperOutcome): void {
  for (const [slot, v] of o.globals) {
    const acc = ctx.vars[slot] as { add(v: unknown): void };
    if (ctx.pending !== null)
      ctx.pending.push(acc as Parameters<NonNullable<RunContext['pending']>['push']>[0], true, v);
    else acc.add(v);
  }
  for (const [i, s] of o.spills) ctx.dense[i]?.adoptSpills({ ...s, snap: [] });
}

function shareGids(gids: Int32Array): Int32Array {
  const list = new Int32Array(new SharedArrayBuffer(Math.max(1, gids.length) * 4)).subarray(0, gids.length);
  list.set(gids);
  return list;
}
