/**
 * Puts a SELECT's collected vertices (run indexes) in storage order: the order `Type.*` lists them,
 * which is run-index order. A SELECT's result, and the lists its POST-ACCUM walks, come out in that
 * order whichever way the SELECT ran, so the next SELECT reads its sources' adjacencies and
 * accumulator cells front to back instead of at random.
 */
import { listMarks } from './mark-list.js';
import { newGidList, type NewList } from './run-buffers.js';

/** The lowest and highest of `list[0..count)` (count > 0), and whether it is ascending already. */
function span(list: Int32Array, count: number): { lo: number; hi: number; sorted: boolean } {
  let lo = list[0];
  let hi = lo;
  let sorted = true;
  for (let i = 1; i < count; i++) {
    const g = list[i];
    if (g < list[i - 1]) sorted = false;
    if (g < lo) lo = g;
    else if (g > hi) hi = g;
  }
  return { lo, hi, sorted };
}

/**
 * Whether a list of `count` distinct indexes between `lo` and `hi` is rebuilt from its marks
 * (four at a time, mark-list.ts) rather than sorted: once it covers more than about 1/64 of its
 * range (a million run indexes: 0.6 ms against 0.8 ms to sort 20,000 of them, 0.7 against 3.2
 * ms for 60,000).
 */
const fromMarks = (lo: number, hi: number, count: number): boolean => hi - lo <= count * 64;

/**
 * Sorts list[0..count) ascending. Every listed index is marked (mark[g] === 1) and no other index
 * in the list's range is, so a dense list is rebuilt from the marks of its range (fromMarks).
 * Cells from list[count] on may be overwritten.
 */
export function sortCollected(list: Int32Array, count: number, mark: Uint8Array): void {
  if (count < 2) return;
  const { lo, hi, sorted } = span(list, count);
  if (sorted) return;
  if (!fromMarks(lo, hi, count)) list.subarray(0, count).sort();
  else listMarks(list, mark, lo, hi + 1, 0);
}

/**
 * list[0..count) ascending, as a new list of exactly `count` cells (`make`, by default
 * run-buffers.ts's newGidList): a dense list is listed from its marks (as sortCollected) straight
 * into the new list, so a SELECT's result is written once.
 */
export function sortedList(
  list: Int32Array,
  count: number,
  mark: Uint8Array,
  make: NewList = newGidList,
): Int32Array {
  const out = make(count);
  if (count === 0) return out;
  const { lo, hi, sorted } = span(list, count);
  if (!sorted && fromMarks(lo, hi, count)) {
    listMarks(out, mark, lo, hi + 1, 0);
    return out;
  }
  out.set(list.subarray(0, count));
  if (!sorted) out.sort();
  return out;
}

/** The same order for a list of distinct vertex objects (the closure path). */
export function inStorageOrder(list: { gid: number }[]): void {
  for (let i = 1; i < list.length; i++) {
    if (list[i].gid < list[i - 1].gid) {
      list.sort((a, b) => a.gid - b.gid);
      return;
    }
  }
}

/**
 * Lists seen strictly ascending. A vertex set's list is not changed once made, and a loop's
 * SELECTs read the same one each round (PageRank's `All`: a million run indexes checked per round,
 * about 1 ms on a split's owner while its helpers wait).
 */
const ascendingLists = new WeakSet<Int32Array>();

/** Whether a vertex set's list is strictly ascending: in storage order, each vertex once. */
export function ascendingList(gids: Int32Array): boolean {
  if (ascendingLists.has(gids)) return true;
  for (let n = 1; n < gids.length; n++) if (gids[n] <= gids[n - 1]) return false;
  ascendingLists.add(gids);
  return true;
}

/** Records that `gids` is strictly ascending (a SELECT's result list is made so). */
export function markAscending(gids: Int32Array): void {
  ascendingLists.add(gids);
}

/** Whether `gids` is known to be strictly ascending, without checking. */
export function knownAscending(gids: Int32Array): boolean {
  return ascendingLists.has(gids);
}
