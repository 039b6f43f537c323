/**
 * Bottom-up steps (direction-optimizing breadth-first search, Beamer et al.) for existence-only
 * SELECT hops: `T = SELECT t FROM S:v -(E>)- Tgt:t [WHERE <t only>] [POST-ACCUM <t only>]` has no
 * ACCUM, so a target is in the result exactly when some edge from S reaches it and WHERE holds for
 * it. When S's out-edges are many beside the target types' in-edges (parallel-plan.ts's
 * bottomUpSources), the step walks the targets instead of the sources: each target's in-edges
 * (the reverse adjacency, as a pulled ACCUM reads them) until the first source in S (marked with
 * one bit per run index in `memberBits`, or none when S is the whole type), then WHERE once
 * (ParallelAccum's `exists`, select-bottom-up-code.ts). Threads split the target run indexes, so
 * each writes only its own targets' result marks (a split by sources had both cores write marks of
 * random targets in the same cache lines) and lists them in ascending order, then runs the hop's
 * POST-ACCUM over them when it touches only their cells (fusedPost); one thread runs the same step
 * over every target, so the answer and its order are the same at any thread count.
 */
import type { EdgeFilter } from '../engine/api.js';
import type { RunContext } from './context.js';
import { clearMemberBits, setMemberBits } from './member-bits.js';
import { describe, listingOf, newFills, runJob, type Relisted } from './parallel.js';
import { gather, relist } from './parallel-list.js';
import { parallelSelect, weightedBounds, type PullSources } from './parallel-plan.js';
import type { KernelPhase, ParallelAccum, SelectKernel, SelectRun } from './select-kernel-types.js';

/** How many SELECTs took the bottom-up step (tests check the planner's choice with it). */
export const bottomUpSteps = { runs: 0 };

/** Target run indexes one call of the step does between two chances to yield. */
const TARGETS_PER_CALL = 65536;

/**
 * Runs the step of `kernel`'s wide variant (bottomUpSources chose it) on several threads when that
 * is worth it, else here alone. Returns whether the result is listed already (a split's listing).
 */
export function* bottomUpStep(
  ctx: RunContext,
  kernel: SelectKernel,
  gids: Int32Array,
  st: SelectRun,
  where: { steps: EdgeFilter[]; targetTypes: string[] },
  lists: Relisted,
  p: PullSources,
): Generator<undefined, boolean, undefined> {
  const phase = kernel.wide.parallel;
  if (!phase?.exists) throw new Error('bottom-up step: the kernel has none');
  bottomUpSteps.runs++;
  st.pullSource = p.source;
  // The sources' bits: a split's threads set them first (PullJob's `members`), else they are set here.
  const bits = p.full ? null : ctx.memberBits();
  st.member = bits;
  try {
    if (splitBottomUp(ctx, kernel, phase, gids, st, where, lists, p)) return true;
    if (bits !== null) setMemberBits(bits, gids, 0, gids.length);
    yield* bottomUpAlone(ctx, phase.exists, gids, st, where.targetTypes);
    return false;
  } finally {
    if (bits !== null) clearMemberBits(bits, gids, ctx.gidLimit());
    st.member = null;
    st.lo = 0;
    st.hi = 0x7fffffff;
  }
}

/**
 * The step on several threads (the query's helpers, parallel.ts): guided ranges of the target run
 * indexes taken from the shared counter, each thread listing its ranges' targets where they
 * start. False when it must run here alone (no helper, too little work, arrays not shared).
 */
function splitBottomUp(
  ctx: RunContext,
  kernel: SelectKernel,
  phase: ParallelAccum,
  gids: Int32Array,
  st: SelectRun,
  where: { steps: EdgeFilter[]; targetTypes: string[] },
  lists: Relisted,
  p: PullSources,
): boolean {
  const host = ctx.opts.parallel;
  if (!host || host.threads < 2 || !phase.exists) return false;
  // A split costs a round of messages and wake-ups: worth it from what a split by sources asks.
  if (p.targets + p.inEdges < parallelSelect.minSources * 16) return false;
  if (st.member !== null && !(st.member.buffer instanceof SharedArrayBuffer)) return false;
  const limit = ctx.gidLimit();
  const bounds = weightedBounds(st, limit, host.threads, parallelSelect.bottomUpTargetWeight);
  const job = describe(ctx, kernel, st, gids, gids.length, phase.globals, { phase: -1, ...where, bounds });
  if (!job) return false;
  if (lists.resultIsTarget && st.result.buffer instanceof SharedArrayBuffer)
    job.listing = listingOf(st, limit, bounds);
  job.pull = { source: p.source, member: st.member, exists: true };
  // The threads set the sources' bits before they step (a 300,000-source frontier: 0.3 ms alone).
  if (st.member !== null) job.pull.members = newFills(gids.length, host.threads);
  if (!runJob(ctx, job, st, phase.exists)) return false;
  if (job.listing) gather(st, bounds, job.listing);
  st.resultMarksClear = job.listing !== undefined;
  relist(st, limit, lists, job.listing === undefined);
  return true;
}

/**
 * The step on this thread alone: the target types' run indexes in ascending order, a slice per
 * call (the result comes out in storage order, as a split lists it).
 */
function* bottomUpAlone(
  ctx: RunContext,
  fn: KernelPhase,
  gids: Int32Array,
  st: SelectRun,
  targetTypes: readonly string[],
): Generator<undefined, void, undefined> {
  const ranges = targetTypes
    .map((type) => ctx.typeIndexOf(type))
    .filter((i) => i >= 0)
    .map((i) => ctx.typeRange(i))
    .sort((a, b) => a.start - b.start);
  for (const { start, end } of ranges)
    for (let lo = start; lo < end; lo += TARGETS_PER_CALL) {
      st.lo = lo;
      st.hi = Math.min(end, lo + TARGETS_PER_CALL);
      fn(ctx, gids, 0, gids.length, st);
      yield;
    }
}
