/**
 * A label propagation split by sources (ParallelAccum's bySource `labels`, e.g. WCC's
 * `WHERE s.@cc < t.@cc ACCUM t.@cc += s.@cc`). A target is in the result exactly when its cell
 * changed, so no row sets a result mark: once every source range is done, the listing (parallel.ts's
 * `listAfter`, range by range) lists the targets whose cell differs from the clause's snapshot.
 * The marks were a second random write per changed target, made by every thread on every target's
 * cache line (the hubs' most of all), and a random read per row that passed the filter.
 *
 * With `owned`, no thread writes memory another thread writes while the rows run: each thread
 * (one slot per thread) keeps the best value of its rows for every target in a proposal array of
 * its own, which starts as a copy of the clause's snapshot (a row proposes only what beats the
 * cell's value before the clause and the thread's own earlier proposals). The cells are written
 * by the listing alone, one thread per range of run indexes: a cell becomes the best of the
 * proposals of every thread that took part. Min and Max do not depend on the order of updates,
 * so the cells, and with them the result, are the ones one thread gives. When both cores
 * compare-and-swapped the same random cache lines, their CPU rose by a quarter to a half in some
 * minutes on the 2-core box (docs/performance-log.md, "Wave 8: WCC owner-only writes").
 */
import type { RunContext } from './context.js';
import type { LabelAccum, SelectRun } from './select-kernel-types.js';

/** What the threads of a label propagation split share (AccumJob's `labels`). */
export interface LabelJob {
  /** The column's cells and the clause's snapshot of them (shared). */
  cells: Int32Array;
  snap: Int32Array;
  min: boolean;
  /**
   * When the query reads `@x'` of the column: its shared arrays (DenseColumn's `prevAt` and
   * `prevVals`) and the SELECT's stamp. The rows keep no previous values; the listing records
   * the snapshot's value of each cell it lists (changed in this clause).
   */
  prev?: { at: Int32Array; vals: Float64Array; stamp: number };
  /** The owned walk's proposals (see the file's header); absent: compare-and-swap on the cells. */
  owned?: OwnedLabels;
}

/** An owned walk's thread slots and their proposals. */
export interface OwnedLabels {
  /** One proposal array per thread slot (run-sized). */
  proposals: Int32Array[];
  /**
   * `slots[0]`: the slots handed out so far (one per thread that joined); `slots[1 + s]`: 1 once
   * slot s's proposals hold the snapshot (before its thread takes a source range).
   */
  slots: Int32Array;
  /** `applied[0]`: the cells the listing changed (what tests observe). */
  applied: Int32Array;
}

/**
 * The owned walk is taken when the sources number at least limit × threads / OWNED_SHARE: each
 * thread copies the snapshot into its proposals and the listing reads every thread's proposals
 * over every run index, a cost per thread of a few passes over the run, which a thread's share of
 * the rows must outweigh. At 8, on RMAT (32 rows per vertex), each thread has at least 4 rows per
 * run index: WCC's first four rounds at 2 threads (a half to all of the vertices, 60–100% of the
 * edges), not the fifth (a tenth to a third of the vertices, 1% of the edges).
 */
const OWNED_SHARE = 8;

/** Whether label propagation splits may take the owned walk (tests compare it with compare-and-swap). */
export const labelWalks: { owned: boolean } = { owned: true };

/** Per query run, its proposal arrays (kept for the run's next owned split: WCC's next round). */
const pools = new WeakMap<RunContext, Int32Array[]>();

const shared = (a: unknown): a is Int32Array =>
  a instanceof Int32Array && a.buffer instanceof SharedArrayBuffer;

/**
 * The job of a label propagation split over `limit` run indexes of `sources` sources in the SELECT
 * with `stamp`, owned when allowed and worth it for `threads` threads; undefined when the column's
 * cells, its snapshot or its previous values are not in shared memory over every run index.
 */
export function labelJob(
  ctx: RunContext,
  labels: LabelAccum,
  sizes: { limit: number; sources: number; threads: number; stamp: number },
): LabelJob | undefined {
  const { limit, sources, threads, stamp } = sizes;
  const col = ctx.dense[labels.column];
  const cells = col?.vals;
  const snap = col?.snapVals;
  if (!shared(cells) || !shared(snap) || snap.length < limit || cells.length < limit) return undefined;
  const job: LabelJob = { cells, snap, min: labels.min };
  if (col!.prevAt !== null) {
    const [at, vals] = [col!.prevAt, col!.prevVals!];
    if (!shared(at) || !(vals.buffer instanceof SharedArrayBuffer) || at.length < limit) return undefined;
    job.prev = { at, vals, stamp };
  }
  if (!labelWalks.owned || threads < 2 || sources * OWNED_SHARE < limit * threads) return job;
  let arrays = pools.get(ctx);
  if (!arrays || arrays.length < threads || arrays[0].length < limit) {
    arrays = Array.from({ length: threads }, () => new Int32Array(new SharedArrayBuffer(limit * 4)));
    pools.set(ctx, arrays);
  }
  job.owned = {
    proposals: arrays.slice(0, threads),
    slots: new Int32Array(new SharedArrayBuffer(4 * (1 + threads))),
    applied: new Int32Array(new SharedArrayBuffer(4)),
  };
  return job;
}

/**
 * A thread joins an owned split: takes the next slot, fills its proposals from the snapshot over
 * the listing's run indexes (`limit`) and points `st.owned` at them. False when every slot is
 * taken (more threads than the job has slots): the thread must take no source range.
 */
export function joinOwned(job: LabelJob, st: SelectRun, limit: number): boolean {
  const owned = job.owned!;
  const s = Atomics.add(owned.slots, 0, 1);
  if (s >= owned.proposals.length) return false;
  const p = owned.proposals[s];
  p.set(job.snap.subarray(0, limit));
  Atomics.store(owned.slots, 1 + s, 1);
  st.owned = { proposals: p };
  return true;
}

/**
 * Lists into `list` from `lo` on the targets of `[lo, hi)` whose cell changed (every source range
 * is done, and this thread alone lists the range), after applying the proposals of every slot that
 * took part to them; returns the end of the list.
 */
export function listChanged(job: LabelJob, list: Int32Array, lo: number, hi: number): number {
  if (job.owned) applyProposals(job, job.owned, lo, hi);
  const { cells, snap, prev } = job;
  let n = lo;
  if (prev === undefined) {
    for (let t = lo; t < hi; t++) if (cells[t] !== snap[t]) list[n++] = t;
    return n;
  }
  for (let t = lo; t < hi; t++)
    if (cells[t] !== snap[t]) {
      list[n++] = t;
      prev.at[t] = prev.stamp;
      prev.vals[t] = snap[t];
    }
  return n;
}

/**
 * Sets each cell of `[lo, hi)` to the best of its value and the proposals of the slots that took
 * part (a slot still filling its proposals took no source range), one slot after another: a
 * pass per slot runs three times as fast as one pass taking the best of all slots per cell.
 * No proposal is a spill mark: the split runs only when no cell of the column has spilled, and
 * the rows stop at a value that is not a 32-bit integer.
 */
function applyProposals(job: LabelJob, owned: OwnedLabels, lo: number, hi: number): void {
  const joined = Math.min(owned.proposals.length, Atomics.load(owned.slots, 0));
  let applied = 0;
  for (let s = 0; s < joined; s++)
    if (Atomics.load(owned.slots, 1 + s) === 1)
      applied += (job.min ? applyMin : applyMax)(job.cells, owned.proposals[s], lo, hi);
  if (applied > 0) Atomics.add(owned.applied, 0, applied);
}

function applyMin(cells: Int32Array, p: Int32Array, lo: number, hi: number): number {
  let changed = 0;
  for (let t = lo; t < hi; t++) {
    const v = p[t];
    if (v < cells[t]) {
      cells[t] = v;
      changed++;
    }
  }
  return changed;
}

function applyMax(cells: Int32Array, p: Int32Array, lo: number, hi: number): number {
  let changed = 0;
  for (let t = lo; t < hi; t++) {
    const v = p[t];
    if (v > cells[t]) {
      cells[t] = v;
      changed++;
    }
  }
  return changed;
}
