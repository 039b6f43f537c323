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
 * How a list of `count` distinct indexes between `lo` and `hi` is put in order: rebuilt from its
 * marks (four at a time, mark-list.ts) once it covers 1/8 of its range; below that, a radix sort
 * from RADIX_MIN indexes on (a 3-hop's second hop on RMAT 2^20, 36,000 run indexes among a
 * million: marks 0.5 ms, radix 0.25 ms, the typed array's sort 1.5 ms); a smaller one is rebuilt
 * from its marks within 1/64 of its range, else sorted.
 */
const RADIX_MIN = 2048;
function sortWay(lo: number, hi: number, count: number): 'marks' | 'radix' | 'sort' {
  if (hi - lo <= count * 8) return 'marks';
  if (count >= RADIX_MIN) return 'radix';
  return hi - lo <= count * 64 ? 'marks' : 'sort';
}

/** The radix sort's buckets and second buffer (grown as needed; one thread uses them at a time). */
let radixCounts = new Int32Array(0);
let radixSpare = new Int32Array(0);

/**
 * Sorts list[0..count), whose values lie in [lo, hi], ascending: least significant digit first,
 * digits of at most 11 bits (buckets that stay in the first-level cache) over the bits of hi - lo.
 */
function radixSort(list: Int32Array, count: number, lo: number, hi: number): void {
  const bits = 32 - Math.clz32(hi - lo);
  const passes = Math.max(1, Math.ceil(bits / 11));
  const width = Math.ceil(bits / passes);
  const buckets = 1 << width;
  const mask = buckets - 1;
  if (radixCounts.length < buckets) radixCounts = new Int32Array(buckets);
  if (radixSpare.length < count) radixSpare = new Int32Array(Math.max(count, radixSpare.length * 2));
  const counts = radixCounts;
  let from: Int32Array = list;
  let to: Int32Array = radixSpare;
  for (let shift = 0; shift < width * passes; shift += width) {
    counts.fill(0, 0, buckets);
    for (let i = 0; i < count; i++) counts[((from[i] - lo) >>> shift) & mask]++;
    let at = 0;
    for (let b = 0; b < buckets; b++) {
      const c = counts[b];
      counts[b] = at;
      at += c;
    }
    for (let i = 0; i < count; i++) {
      const g = from[i];
      to[counts[((g - lo) >>> shift) & mask]++] = g;
    }
    const t = from;
    from = to;
    to = t;
  }
  if (from !== list) list.set(from.subarray(0, count));
}

/**
 * Sorts list[0..count) ascending. Every listed index is marked (mark[g] === 1) and no other index
 * in the list's range is, so a dense list is rebuilt from the marks of its range (sortWay).
 * Cells from list[count] on may be overwritten.
 */
export function sortCollected(list: Int32Array, count: number, mark: Uint8Array): void {
  if (count < 2) return;
  const { lo, hi, sorted } = span(list, count);
  if (sorted) return;
  const way = sortWay(lo, hi, count);
  if (way === 'marks') listMarks(list, mark, lo, hi + 1, 0);
  else if (way === 'radix') radixSort(list, count, lo, hi);
  else list.subarray(0, count).sort();
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
  const way = sorted ? undefined : sortWay(lo, hi, count);
  if (way === 'marks') {
    listMarks(out, mark, lo, hi + 1, 0);
    return out;
  }
  out.set(list.subarray(0, count));
  if (way === 'radix') radixSort(out, count, lo, hi);
  else if (way === 'sort') out.sort();
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
