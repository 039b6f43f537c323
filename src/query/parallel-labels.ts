/**
 * A label propagation split by sources (ParallelAccum's bySource `labels`, e.g. WCC's
 * `WHERE s.@cc < t.@cc ACCUM t.@cc += s.@cc`). A target is in the result exactly when its cell
 * changed, so no row sets a result mark: once every source range is done, the listing (parallel.ts's
 * `listAfter`, range by range) lists the targets whose cell differs from the clause's snapshot.
 * The marks were a second random write per changed target, made by every thread on every target's
 * cache line (the hubs' most of all), and a random read per row that passed the filter.
 */
import type { RunContext } from './context.js';
import type { LabelAccum } from './select-kernel-types.js';

/** What the threads of a label propagation split share (AccumJob's `labels`). */
export interface LabelJob {
  /** The column's cells and the clause's snapshot of them (shared). */
  cells: Int32Array;
  snap: Int32Array;
}

const shared = (a: unknown): a is Int32Array =>
  a instanceof Int32Array && a.buffer instanceof SharedArrayBuffer;

/**
 * The job of a label propagation split over `limit` run indexes; undefined when the column's cells
 * or its snapshot are not 32-bit integers in shared memory over every run index.
 */
export function labelJob(ctx: RunContext, labels: LabelAccum, limit: number): LabelJob | undefined {
  const col = ctx.dense[labels.column];
  const cells = col?.vals;
  const snap = col?.snapVals;
  if (!shared(cells) || !shared(snap) || snap.length < limit || cells.length < limit) return undefined;
  return { cells, snap };
}

/**
 * Lists into `list` from `lo` on the targets of `[lo, hi)` whose cell changed (every source range
 * is done, and this thread alone lists the range); returns the end of the list.
 */
export function listChanged(job: LabelJob, list: Int32Array, lo: number, hi: number): number {
  const { cells, snap } = job;
  let n = lo;
  for (let t = lo; t < hi; t++) if (cells[t] !== snap[t]) list[n++] = t;
  return n;
}
