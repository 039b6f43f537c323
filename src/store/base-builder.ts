/**
 * The adjacency half of a merge: a block's edges live at one version (its base and its delta slots)
 * become a new compressed-sparse-row base in both directions. It reads and writes typed arrays only,
 * so it runs the same on the main thread (the rebuild, edge-block.ts `mergeBlock`) and on a merge
 * thread over the block's shared arrays (base-thread.ts, the background merge after a load).
 *
 * New edge ids follow (FROM row, TO row, old edge id), through two stable counting sorts; `order`
 * maps each new id to its old one, so the caller can carry attribute columns and later writes over.
 */
import { sharedU32 } from './shared.js';

/** What the build reads of a block: every array is read-only and may be shared with the writer. */
export interface BaseSource {
  nBase: number;
  outOffsets: Uint32Array;
  outTargets: Uint32Array;
  /** Delta slots to consider (the count at `version` or later; later slots are skipped by version). */
  dCount: number;
  dSrc: Uint32Array;
  dDst: Uint32Array;
  dVersion: Uint32Array;
  /** Edge ids tombstoned at or before `version`. */
  dead: Uint32Array;
  version: number;
  fromRows: number;
  toRows: number;
}

/** A new base: `n` edges, both directions, and each new edge id's old id. */
export interface BuiltBase {
  n: number;
  outOffsets: Uint32Array;
  outTargets: Uint32Array;
  inOffsets: Uint32Array;
  inSources: Uint32Array;
  inEids: Uint32Array;
  order: Uint32Array;
}

export function buildBase(src: BaseSource): BuiltBase {
  const limit = src.nBase + src.dCount;
  let deadMark: Uint8Array | undefined;
  if (src.dead.length > 0) {
    deadMark = new Uint8Array(limit);
    for (let i = 0; i < src.dead.length; i++) if (src.dead[i] < limit) deadMark[src.dead[i]] = 1;
  }
  // Compact the live edges: old ids, FROM rows and TO rows side by side, in old id order.
  const keep = new Uint32Array(limit);
  const keepSrc = new Uint32Array(limit);
  const keepDst = new Uint32Array(limit);
  let n = 0;
  let maxSrc = src.fromRows;
  let maxDst = src.toRows;
  const rows = src.outOffsets.length - 1;
  for (let r = 0; r < rows; r++) {
    const end = src.outOffsets[r + 1];
    for (let e = src.outOffsets[r]; e < end; e++) {
      if (deadMark !== undefined && deadMark[e] === 1) continue;
      keep[n] = e;
      keepSrc[n] = r;
      keepDst[n] = src.outTargets[e];
      n++;
    }
  }
  if (rows > maxSrc) maxSrc = rows;
  for (let s = 0; s < src.dCount; s++) {
    const e = src.nBase + s;
    if (src.dVersion[s] > src.version || (deadMark !== undefined && deadMark[e] === 1)) continue;
    keep[n] = e;
    keepSrc[n] = src.dSrc[s];
    keepDst[n] = src.dDst[s];
    if (keepSrc[n] >= maxSrc) maxSrc = keepSrc[n] + 1;
    n++;
  }
  for (let i = 0; i < n; i++) if (keepDst[i] >= maxDst) maxDst = keepDst[i] + 1;
  // Bucket by FROM row (stable, so old id order within a row), then sort each row by TO row.
  const p1 = countingSortCarry(n, keepSrc, maxSrc, keep, keepDst);
  const order = p1.carriedA;
  const targets = p1.carriedB;
  const offsets = p1.offsets;
  for (let r = 0; r < maxSrc; r++) sortRow(targets, order, offsets[r], offsets[r + 1]);
  // In-adjacency: sort the new edge ids by TO row, carrying each edge's FROM row.
  const identity = new Uint32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  const p2 = countingSortCarry(n, targets, maxDst, identity, p1.sortedKeys);
  return {
    n,
    outOffsets: offsets,
    outTargets: targets,
    inOffsets: p2.offsets,
    inEids: p2.carriedA,
    inSources: p2.carriedB,
    order,
  };
}

/** Rows up to this degree are sorted by insertion; longer ones with the native sort. */
const SMALL_ROW = 24;
const POSITION_SPAN = 2 ** 21;
let sortScratch = new Float64Array(1024);

/**
 * Sorts targets[lo..hi) ascending, ties by ids (ascending on entry: old edge ids), moving ids along.
 * Short rows: insertion sort. Long rows: the native sort of float64 keys target · 2^21 + position,
 * exact below 2^53 while a row has at most 2^21 edges; longer rows use a comparator.
 */
function sortRow(targets: Uint32Array, ids: Uint32Array, lo: number, hi: number): void {
  const len = hi - lo;
  if (len < 2) return;
  if (len <= SMALL_ROW) {
    for (let i = lo + 1; i < hi; i++) {
      const t = targets[i];
      const id = ids[i];
      let j = i - 1;
      while (j >= lo && (targets[j] > t || (targets[j] === t && ids[j] > id))) {
        targets[j + 1] = targets[j];
        ids[j + 1] = ids[j];
        j--;
      }
      targets[j + 1] = t;
      ids[j + 1] = id;
    }
    return;
  }
  const oldTargets = targets.slice(lo, hi);
  const oldIds = ids.slice(lo, hi);
  let positions: ArrayLike<number>;
  if (len <= POSITION_SPAN) {
    if (sortScratch.length < len) sortScratch = new Float64Array(len * 2);
    const keys = sortScratch.subarray(0, len);
    for (let i = 0; i < len; i++) keys[i] = oldTargets[i] * POSITION_SPAN + i;
    keys.sort();
    for (let i = 0; i < len; i++) keys[i] = keys[i] % POSITION_SPAN;
    positions = keys;
  } else {
    const idx = Array.from({ length: len }, (_, i) => i);
    idx.sort((x, y) => oldTargets[x] - oldTargets[y] || x - y);
    positions = idx;
  }
  for (let i = 0; i < len; i++) {
    const p = positions[i];
    targets[lo + i] = oldTargets[p];
    ids[lo + i] = oldIds[p];
  }
}

/**
 * Stable counting sort of n items by keys[i] in [0, range), moving two parallel columns along.
 * Returns the bucket offsets, the sorted keys and the two columns in sorted order.
 */
export function countingSortCarry(
  n: number,
  keys: Uint32Array,
  range: number,
  a: Uint32Array,
  b: Uint32Array,
): { offsets: Uint32Array; sortedKeys: Uint32Array; carriedA: Uint32Array; carriedB: Uint32Array } {
  // The offsets and carried columns become a block's base: shared memory.
  const offsets = sharedU32(range + 1);
  for (let i = 0; i < n; i++) offsets[keys[i] + 1]++;
  for (let k = 0; k < range; k++) offsets[k + 1] += offsets[k];
  const pos = offsets.slice(0, range);
  const sortedKeys = new Uint32Array(n);
  const carriedA = sharedU32(n);
  const carriedB = sharedU32(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    const p = pos[k]++;
    sortedKeys[p] = k;
    carriedA[p] = a[i];
    carriedB[p] = b[i];
  }
  return { offsets, sortedKeys, carriedA, carriedB };
}
