/**
 * Listing the marked run indexes of a range (a split SELECT's result, sources and targets are
 * rebuilt from their marks in storage order, see parallel.ts). Marks are bytes holding 0 or 1.
 */

import { fillCells } from './shared-fill.js';

/** Whether this machine stores the low byte of a word first (then byte g of a word is bits 8g..8g+7). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Zeroes the marks of `[lo, hi)`, which `list[from..end)` lists (every marked index of the range):
 * the whole range at once when it is densely marked, else one listed index at a time.
 */
export function clearRange(
  mark: Uint8Array,
  list: Int32Array,
  from: number,
  end: number,
  lo: number,
  hi: number,
): void {
  if ((end - from) * 16 > hi - lo) fillCells(mark, 0, lo, hi);
  else for (let n = from; n < end; n++) mark[list[n]] = 0;
}

/**
 * Lists the marked run indexes of `[lo, hi)` in `list` from `at` (by default `lo`) on, ascending;
 * returns where the list ends. Writes only `list[at..at + hi - lo)` (a cell past the returned end
 * may be overwritten). Four
 * marks are read as one word: a word of zeros is skipped, and otherwise each index is written and
 * the count advanced by its mark, without a branch per mark (with half of a range marked at random,
 * a branch per mark mispredicts half the time and costs six times as much).
 */
export function listMarks(list: Int32Array, mark: Uint8Array, lo: number, hi: number, at = lo): number {
  let n = at;
  let g = lo;
  if (!LITTLE_ENDIAN || (mark.byteOffset & 3) !== 0) {
    for (; g < hi; g++) if (mark[g] === 1) list[n++] = g;
    return n;
  }
  const words = new Int32Array(mark.buffer, mark.byteOffset, mark.length >> 2);
  for (; g < hi && (g & 3) !== 0; g++) {
    list[n] = g;
    n += mark[g];
  }
  for (const end = hi & ~3; g < end; g += 4) {
    const w = words[g >> 2];
    if (w === 0) continue;
    list[n] = g;
    n += w & 1;
    list[n] = g + 1;
    n += (w >> 8) & 1;
    list[n] = g + 2;
    n += (w >> 16) & 1;
    list[n] = g + 3;
    n += (w >>> 24) & 1;
  }
  for (; g < hi; g++) {
    list[n] = g;
    n += mark[g];
  }
  return n;
}
