/**
 * How a split SELECT's result and lists are put back in storage order from what its threads
 * marked or listed (parallel.ts): the partitions' listings put together, a split by sources'
 * listing shared by the threads once every source range is done, and the lists relisted from
 * their marks.
 */
import { clearRange, listMarks as listMarked } from './mark-list.js';
import { listChanged } from './parallel-labels.js';
import type { AccumJob, Gathering, Relisted } from './parallel-job.js';
import { piecesList } from './run-buffers.js';
import type { SelectRun } from './select-kernel-types.js';

/**
 * The partitions' listed targets (see AccumJob's `listing`) as the result, in order: the list the
 * threads put together as they went (gatherPieces) with the pieces left, else one new list
 * (run-buffers.ts's piecesList), which the SELECT returns as it is.
 */
export function gather(st: SelectRun, bounds: number[], listing: NonNullable<AccumJob['listing']>): void {
  const g = listing.gathering;
  if (g === undefined) {
    st.result = piecesList(st.result, bounds, listing.listed, st.newList);
    st.resultCount = st.result.length;
    return;
  }
  gatherPieces(g, bounds, listing.listed, st.result);
  st.result = g.list;
  st.resultCount = Atomics.load(g.at, bounds.length - 1);
}

/**
 * A gathering for a split of `parts` partitions (AccumJob listing's `gathering`): its list is one
 * of the run's kept arrays, room for every run index. Undefined when it would not be shared.
 */
export function newGathering(st: SelectRun, limit: number, parts: number): Gathering | undefined {
  const list = st.newList(limit);
  if (!(list.buffer instanceof SharedArrayBuffer)) return undefined;
  // One shared buffer for both arrays (each one costs a few microseconds to make).
  const cells = new Int32Array(new SharedArrayBuffer(8 * (parts + 1)));
  return { list, state: cells.subarray(0, parts + 1), at: cells.subarray(parts + 1) };
}

/**
 * Partition p's targets are listed in `from` at `bounds[p]` (`listed[p]` of them): any thread then
 * copies into the gathering's list every piece whose place is known, in order. The copies happen
 * while the other threads still run partitions, instead of all at once on the owner after the
 * split (a 3-hop's last hop on RMAT 2^20: 450,000 run indexes, 0.15 ms).
 */
export function pieceListed(
  g: Gathering,
  p: number,
  bounds: readonly number[],
  listed: Int32Array,
  from: Int32Array,
): void {
  Atomics.store(g.state, 1 + p, 1);
  gatherPieces(g, bounds, listed, from);
}

/**
 * Copies the next pieces whose partitions are listed. A piece's place is the previous one's plus
 * its count: whoever reads the counter at c writes `at[c + 1]` (every thread that does writes the
 * same number) before taking piece c, so the taker of c + 1 finds it written.
 */
function gatherPieces(g: Gathering, bounds: readonly number[], listed: Int32Array, from: Int32Array): void {
  const { state, at, list } = g;
  for (;;) {
    const c = Atomics.load(state, 0);
    if (c + 1 >= bounds.length || Atomics.load(state, 1 + c) === 0) return;
    const place = Atomics.load(at, c);
    const n = listed[c];
    Atomics.store(at, c + 1, place + n);
    if (Atomics.compareExchange(state, 0, c, c + 1) !== c) continue;
    list.set(from.subarray(bounds[c], bounds[c] + n), place);
  }
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
    if (job.listing!.gathering) pieceListed(job.listing!.gathering, r, ranges, listed, result);
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
