/**
 * A label propagation split by sources (ParallelAccum's bySource `labels`, e.g. WCC's
 * `WHERE s.@cc < t.@cc ACCUM t.@cc += s.@cc`). A target is in the result exactly when its cell
 * changed, so no row sets a result mark: once every source range is done, the listing (parallel.ts's
 * `listAfter`, range by range) lists the targets whose cell differs from the clause's snapshot.
 * Result marks written by every thread for every target, the hubs most of all, were cache lines
 * moving between cores on each write.
 *
 * With `owned`, the cells are not written by two threads either: the target run indexes are cut
 * into one range per thread slot, a thread updates the cells of its own range directly, and for
 * any other target keeps the best value of its rows in a proposal array of its own, which starts
 * as a copy of the snapshot (so a row proposes only what beats the cell's value before the clause
 * or a better proposal). The listing first applies every thread's proposals to its range: one that
 * beats the cell changes it. Min and Max do not depend on the order of updates, so the cells, and
 * with them the result, are the ones one thread gives.
 */
import type { RunContext } from './context.js';
import { INT32_SPILL } from './accum-dense.js';
import type { LabelAccum, SelectRun } from './select-kernel-types.js';

/** What the threads of a label propagation split share (AccumJob's `labels`). */
export interface LabelJob {
  /** The column's cells and the clause's snapshot of them (shared). */
  cells: Int32Array;
  snap: Int32Array;
  min: boolean;
  /** The owned walk's proposals (see the file's header); absent: compare-and-swap on the cells. */
  owned?: {
    /** One proposal array per thread slot (run-sized). */
    proposals: Int32Array[];
    /** Slot s writes the target run indexes [bounds[s], bounds[s + 1]). */
    bounds: number[];
    /**
     * `slots[0]`: the slots handed out so far (one per thread that joined); `slots[1 + s]`: 1 once
     * slot s's proposals hold the snapshot (before its thread takes a source range).
     */
    slots: Int32Array;
  };
}

/**
 * Sources per run index below which the owned walk is not worth it: the proposals' copy and their
 * application read every thread's array over every run index, which a split of few rows would not
 * repay.
 */
const MIN_SOURCE_SHARE = 1 / 16;

/** Whether label propagation splits may take the owned walk (tests compare it with the unmarked one). */
export const labelWalks: { owned: boolean } = { owned: process.env.OCELOT_WCC_WALK !== 'unmarked' };

/** Per query run, its proposal arrays (kept for the run's next owned split: WCC's next round). */
const pools = new WeakMap<RunContext, Int32Array[]>();

const shared = (a: unknown): a is Int32Array => a instanceof Int32Array && a.buffer instanceof SharedArrayBuffer;

/**
 * The job of a label propagation split over `limit` run indexes of `sources` sources, owned when
 * allowed and worth it for `threads` threads; undefined when the column's cells or its snapshot
 * are not 32-bit integers in shared memory.
 */
export function labelJob(
  ctx: RunContext,
  labels: LabelAccum,
  sizes: { limit: number; sources: number; threads: number },
): LabelJob | undefined {
  const { limit, sources, threads } = sizes;
  const col = ctx.dense[labels.column];
  const cells = col?.vals;
  const snap = col?.snapVals;
  if (!shared(cells) || !shared(snap) || snap.length < limit || cells.length < limit) return undefined;
  const job: LabelJob = { cells, snap, min: labels.min };
  if (!labelWalks.owned || threads < 2 || sources < limit * MIN_SOURCE_SHARE) return job;
  let arrays = pools.get(ctx);
  if (!arrays || arrays.length < threads || arrays[0].length < limit) {
    arrays = Array.from({ length: threads }, () => new Int32Array(new SharedArrayBuffer(limit * 4)));
    pools.set(ctx, arrays);
  }
  const size = Math.ceil(limit / threads);
  job.owned = {
    proposals: arrays.slice(0, threads),
    bounds: Array.from({ length: threads + 1 }, (_, s) => Math.min(limit, s * size)),
    slots: new Int32Array(new SharedArrayBuffer(4 * (1 + threads))),
  };
  return job;
}

/**
 * A thread joins an owned split: takes the next slot, fills its proposals outside its own range
 * from the snapshot and points `st.owned` at them. False when every slot is taken (more threads
 * than the job has slots): the thread must take no source range.
 */
export function joinOwned(job: LabelJob, st: SelectRun): boolean {
  const owned = job.owned!;
  const s = Atomics.add(owned.slots, 0, 1);
  if (s >= owned.proposals.length) return false;
  const p = owned.proposals[s];
  const [lo, hi] = [owned.bounds[s], owned.bounds[s + 1]];
  p.set(job.snap.subarray(0, lo));
  p.set(job.snap.subarray(hi, owned.bounds[owned.bounds.length - 1]), hi);
  Atomics.store(owned.slots, 1 + s, 1);
  st.owned = { lo, hi, proposals: p };
  return true;
}

/**
 * Lists into `list` from `lo` on the targets of `[lo, hi)` whose cell changed (every source range
 * is done, and this thread alone lists the range), after applying the proposals of every slot that
 * took part to them; returns the end of the list.
 */
export function listChanged(job: LabelJob, list: Int32Array, lo: number, hi: number): number {
  const owned = job.owned;
  const joined = owned ? Math.min(owned.proposals.length, Atomics.load(owned.slots, 0)) : 0;
  for (let s = 0; s < joined; s++) {
    // A slot still filling its proposals took no source range; a slot proposes nothing in its own range.
    if (Atomics.load(owned!.slots, 1 + s) !== 1) continue;
    const p = owned!.proposals[s];
    const own = [Math.max(lo, owned!.bounds[s]), Math.min(hi, owned!.bounds[s + 1])];
    if (own[0] >= own[1]) apply(job, p, lo, hi);
    else {
      apply(job, p, lo, own[0]);
      apply(job, p, own[1], hi);
    }
  }
  const { cells, snap } = job;
  let n = lo;
  for (let t = lo; t < hi; t++) if (cells[t] !== snap[t]) list[n++] = t;
  return n;
}

/** Applies the proposals `p` to the cells of `[lo, hi)`. */
function apply(job: LabelJob, p: Int32Array, lo: number, hi: number): void {
  const cells = job.cells;
  if (job.min) {
    for (let t = lo; t < hi; t++) {
      const v = p[t];
      if (v < cells[t] && v !== INT32_SPILL) cells[t] = v;
    }
  } else {
    for (let t = lo; t < hi; t++) {
      const v = p[t];
      if (v > cells[t]) cells[t] = v;
    }
  }
}
