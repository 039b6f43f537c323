/**
 * A split by sources whose threads write only their own targets (ParallelAccum's bySource
 * `owned`, label propagation such as WCC). With compare-and-swap on shared cells every thread
 * walks edges into every target, the hubs most of all, so the cache lines of cells and result
 * marks move between cores on each write. Here the target run indexes are cut into one range per
 * thread slot: a thread updates and marks the targets of its own range directly, and for any other
 * target keeps the best value its rows give in a proposal array of its own, which starts as a
 * copy of the clause's snapshot of the column (so a row proposes only what beats the cell's value
 * before the clause or a better proposal). Once every source range is done, the listing of the
 * result (parallel.ts's `listAfter`, range by range) first applies every thread's proposals to the
 * range: one that beats the cell changes and marks it. Min and Max do not depend on the order of
 * updates, and a target is collected when some row's value beats the cell it had before the clause
 * (a proposal that does not beat the live cell is one some other row already bettered, which
 * marked the target), so the cells and the result are the ones one thread gives.
 */
import type { RunContext } from './context.js';
import type { OwnedAccum, SelectRun } from './select-kernel-types.js';
import { INT32_SPILL } from './accum-dense.js';

/** What the threads of an owned split share (AccumJob's `owned`). */
export interface OwnedJob {
  /** One proposal array per thread slot (run-sized). */
  proposals: Int32Array[];
  /** Slot s writes the target run indexes [bounds[s], bounds[s + 1]). */
  bounds: number[];
  /**
   * `slots[0]`: the slots handed out so far (one per thread that joined); `slots[1 + s]`: 1 once
   * slot s's proposals hold the snapshot (before its thread takes a source range).
   */
  slots: Int32Array;
  min: boolean;
  /** The column's cells and the clause's snapshot of them (shared). */
  cells: Int32Array;
  snap: Int32Array;
}

/**
 * Sources per run index below which the owned walk is not worth it: the proposals' copy and their
 * application read every thread's array over every run index, which a split of few rows would not
 * repay.
 */
const MIN_SOURCE_SHARE = 1 / 16;

/** Whether an owned split of `sources` sources pays for its proposals' passes over `limit` run indexes. */
export function worthOwning(sources: number, limit: number, threads: number): boolean {
  return threads >= 2 && sources >= limit * MIN_SOURCE_SHARE;
}

/** Per query run, its proposal arrays (kept for the run's next owned split: WCC's next round). */
const pools = new WeakMap<RunContext, Int32Array[]>();

const shared = (a: unknown): a is Int32Array => a instanceof Int32Array && a.buffer instanceof SharedArrayBuffer;

/**
 * The job of an owned split over `limit` run indexes for `threads` thread slots; undefined when the
 * column's cells or its snapshot are not 32-bit integers in shared memory.
 */
export function ownedJob(ctx: RunContext, owned: OwnedAccum, limit: number, threads: number): OwnedJob | undefined {
  const col = ctx.dense[owned.column];
  const cells = col?.vals;
  const snap = col?.snapVals;
  if (!shared(cells) || !shared(snap) || snap.length < limit || cells.length < limit) return undefined;
  let arrays = pools.get(ctx);
  if (!arrays || arrays.length < threads || arrays[0].length < limit) {
    arrays = Array.from({ length: threads }, () => new Int32Array(new SharedArrayBuffer(limit * 4)));
    pools.set(ctx, arrays);
  }
  const size = Math.ceil(limit / threads);
  return {
    proposals: arrays.slice(0, threads),
    bounds: Array.from({ length: threads + 1 }, (_, s) => Math.min(limit, s * size)),
    slots: new Int32Array(new SharedArrayBuffer(4 * (1 + threads))),
    min: owned.min,
    cells,
    snap,
  };
}

/**
 * A thread joins an owned split: takes the next slot, fills its proposals outside its own range
 * from the snapshot and points `st.owned` at them. False when every slot is taken (more threads
 * than the job has slots): the thread must take no source range.
 */
export function joinOwned(job: OwnedJob, st: SelectRun): boolean {
  const s = Atomics.add(job.slots, 0, 1);
  if (s >= job.proposals.length) return false;
  const p = job.proposals[s];
  const [lo, hi] = [job.bounds[s], job.bounds[s + 1]];
  p.set(job.snap.subarray(0, lo));
  p.set(job.snap.subarray(hi, job.bounds[job.bounds.length - 1]), hi);
  Atomics.store(job.slots, 1 + s, 1);
  st.owned = { lo, hi, proposals: p };
  return true;
}

/**
 * Applies the proposals of every slot that took part to the targets `[lo, hi)` (every source range
 * is done, and this thread alone lists the range): a proposal that beats the cell changes it and
 * marks the target.
 */
export function applyProposals(job: OwnedJob, mark: Uint8Array, lo: number, hi: number): void {
  const joined = Math.min(job.proposals.length, Atomics.load(job.slots, 0));
  for (let s = 0; s < joined; s++) {
    // A slot still filling its proposals took no source range; a slot proposes nothing in its own range.
    if (Atomics.load(job.slots, 1 + s) !== 1) continue;
    const own = [Math.max(lo, job.bounds[s]), Math.min(hi, job.bounds[s + 1])];
    if (own[0] >= own[1]) apply(job, s, mark, lo, hi);
    else {
      apply(job, s, mark, lo, own[0]);
      apply(job, s, mark, own[1], hi);
    }
  }
}

function apply(job: OwnedJob, slot: number, mark: Uint8Array, lo: number, hi: number): void {
  const p = job.proposals[slot];
  const cells = job.cells;
  if (job.min) {
    for (let t = lo; t < hi; t++) {
      const v = p[t];
      if (v < cells[t] && v !== INT32_SPILL) {
        cells[t] = v;
        mark[t] = 1;
      }
    }
  } else {
    for (let t = lo; t < hi; t++) {
      const v = p[t];
      if (v > cells[t]) {
        cells[t] = v;
        mark[t] = 1;
      }
    }
  }
}
