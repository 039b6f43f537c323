/**
 * A bottom-up step's sources as one bit per run index (select-bottom-up.ts's `member`): set before
 * the step, by ranges of the ascending source list that threads may set at once, and zeroed after.
 */
import { fillCells } from './shared-fill.js';

/**
 * Sets the bits of sources `gids[from..to)` (ascending). A word whose every source lies inside the
 * range is stored whole once its bits are gathered: a thread that sets the range again stores the
 * same word, and no partly built word is ever stored; the range's first and last words, which the
 * neighbouring ranges may share, are or-ed atomically.
 */
export function setMemberBits(bits: Int32Array, gids: Int32Array, from: number, to: number): void {
  if (from >= to) return;
  const first = gids[from] >>> 5;
  const last = gids[to - 1] >>> 5;
  let word = first;
  let acc = 0;
  for (let n = from; n < to; n++) {
    const g = gids[n];
    const w = g >>> 5;
    if (w !== word) {
      if (word === first) Atomics.or(bits, word, acc);
      else bits[word] = acc;
      word = w;
      acc = 0;
    }
    acc |= 1 << (g & 31);
  }
  Atomics.or(bits, last, acc);
}

/**
 * Zeroes the bits of sources `gids` (only their words hold bits): all words at once when the
 * sources are many (a pass over 300,000 sources took 0.2 ms, the 32,768 words of RMAT 2^20 a few
 * microseconds). `limit`: one past the largest run index.
 */
export function clearMemberBits(bits: Int32Array, gids: Int32Array, limit: number): void {
  const words = (limit >>> 5) + 1;
  if (gids.length * 8 > words) fillCells(bits, 0, 0, Math.min(bits.length, words));
  else for (let n = 0; n < gids.length; n++) bits[gids[n] >>> 5] = 0;
}
