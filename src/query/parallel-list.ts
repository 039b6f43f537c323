/**
 * How a split SELECT's result and lists are put back in storage order from what its threads
 * marked or listed (parallel.ts): the partitions' listings put together, a split by sources'
 * listing shared by the threads once every source range is done, and the lists relisted from
 * their marks.
 */
import { clearRange, listMarks as listMarked } from './mark-list.js';
import { listChanged } from './parallel-labels.js';
import type { AccumJob, Relisted } from './parallel-job.js';
import { piecesList } from './run-buffers.js';
import type { SelectRun } from './select-kernel-types.js';

/**
 * The partitions' listed targets (see AccumJob's `listing`) as the result, in order: one new list
 * (run-buffers.ts's piecesList), which the SELECT returns as it is.
 */
export function gather(st: SelectRun, bounds: number[], listed: Int32Array): void {
  st.result = piecesList(st.result, bounds, listed, st.newList);
  st.resultCount = st.result.length;
}

/**
 * How long a thread out of source ranges waits for the others' last ones to list the targets
 * with them (ms): with guided ranges the last is small, and the listing (a pass over every run
 * index's mark, about 1.3 ms of a 3-hop reach on RMAT 2^20) is then shared instead of done by the
 * thread that ends last. The owner would wait for its helpers anyway; a helper would idle. The
 * bound only keeps a thread from waiting on one that failed or was lost.
 */
const LIST_WAIT_MS = 20;

/**
 * Whether all `ranges` source ranges of a split by sources are done (AccumJob's `listAfter`),
 * waiting up to LIST_WAIT_MS for the ones other threads still run.
 */
export function sourcesDone(progress: Int32Array, ranges: number): boolean {
  const until = performance.now() + LIST_WAIT_MS;
  for (let done = Atomics.load(progress, 1); done < ranges; done = Atomics.load(progress, 1)) {
    const left = until - performance.now();
    if (left <= 0) return false;
    Atomics.wait(progress, 1, done, left);
  }
  return true;
}

/**
 * A split by sources' listing (AccumJob's `listAfter`), once every source range is done: lists the
 * marked (for a label propagation, changed) targets of the run-index ranges not taken yet, and
 * runs `post` (AccumJob's `fusedPost`) over each range's list: no row runs any more, and the group
 * touches only its own target's cells.
 */
export function listTargets(
  job: AccumJob,
  st: SelectRun,
  post?: (list: Int32Array, from: number, to: number) => void,
): void {
  const { ranges, progress } = job.listAfter!;
  const { result, listed } = job.listing!;
  for (let r = Atomics.add(progress, 0, 1); r + 1 < ranges.length; r = Atomics.add(progress, 0, 1)) {
    const end = job.labels
      ? listChanged(job.labels, result, ranges[r], ranges[r + 1])
      : listMarked(result, st.resultMark, ranges[r], ranges[r + 1]);
    listed[r] = end - ranges[r];
    post?.(result, ranges[r], end);
    // Every source range is done: nothing marks this range any more, and its marks are listed.
    clearRange(st.resultMark, result, ranges[r], end, ranges[r], ranges[r + 1]);
  }
}

/**
 * Lists the marked vertices again (the threads each listed theirs), in run-index order: the result
 * and the lists the SELECT reads later.
 */
export function relist(st: SelectRun, limit: number, lists: Relisted, result: boolean): void {
  const fill = (list: Int32Array, mark: Uint8Array): number => listMarked(list, mark, 0, limit);
  if (result) st.resultCount = fill(st.result, st.resultMark);
  if (lists.sources) st.sourceCount = fill(st.sources, st.sourceMark);
  if (lists.targets) st.targetCount = fill(st.targets, st.targetMark);
}
