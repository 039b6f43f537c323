/**
 * The adjacency half of a merge: a block's edges live at one version (its base and its delta slots)
 * become a new compressed-sparse-row base in both directions. It reads and writes typed arrays only,
 * so it runs the same on the main thread (the rebuild, edge-block.ts `mergeBlock`) and on a merge
 * thread over the block's shared arrays (base-thread.ts, the background merge after a load).
 *
 * New edge ids follow (FROM row, TO row, old edge id), through stable counting sorts; `order`
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
  /**
   * Pairs may repeat (edges appended unchecked, edge-block.ts): only the first edge of each (FROM
   * row, TO row), the lowest old id, is kept, as the upserts would have kept it.
   */
  dedupe?: boolean;
  /**
   * With `dedupe`: keep the last edge of each pair instead (the highest old id), whose attribute
   * values are the last upsert's (a block with attributes, EdgeBlock.settle).
   */
  keepLast?: boolean;
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
  /** Repeats of a pair left out (BaseSource.dedupe), counted live by the block until now. */
  dropped: number;
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
  // Two stable counting sorts, by TO row and then by FROM row: edges end up ordered by (FROM row,
  // TO row, old id) in linear time, whatever the degrees.
  const p0 = countingSortCarry(n, keepDst, maxDst, keep, keepSrc, false);
  const p1 = countingSortCarry(n, p0.carriedB, maxSrc, p0.carriedA, p0.sortedKeys);
  const out = src.dedupe ? keptOfPairs(p1, n, src.keepLast === true) : { n, ...p1 };
  const dropped = n - out.n;
  n = out.n;
  const order = out.carriedA;
  const targets = out.carriedB;
  const offsets = out.offsets;
  // In-adjacency: sort the new edge ids by TO row, carrying each edge's FROM row.
  const identity = new Uint32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  const p2 = countingSortCarry(n, targets, maxDst, identity, out.sortedKeys);
  return {
    n,
    outOffsets: offsets,
    outTargets: targets,
    inOffsets: p2.offsets,
    inEids: p2.carriedA,
    inSources: p2.carriedB,
    order,
    dropped,
  };
}

/** Whether item i of edges sorted by (FROM, TO, old id) is the first of its pair. */
function firstOfPair(from: Uint32Array, to: Uint32Array, i: number): boolean {
  return i === 0 || to[i] !== to[i - 1] || from[i] !== from[i - 1];
}

/**
 * Whether item i of the n edges sorted by (FROM, TO, old id) is the one of its pair a dedupe keeps:
 * the first, or the last (BaseSource.keepLast).
 */
export function keptOfPair(from: Uint32Array, to: Uint32Array, i: number, n: number, last: boolean): boolean {
  if (!last) return firstOfPair(from, to, i);
  return i === n - 1 || to[i] !== to[i + 1] || from[i] !== from[i + 1];
}

/** The index of the first item of item i's pair (edges sorted by (FROM, TO, old id)). */
export function pairStart(from: Uint32Array, to: Uint32Array, i: number): number {
  while (!firstOfPair(from, to, i)) i--;
  return i;
}

/** The out-direction sort's result without the repeats of a pair (see BaseSource.dedupe). */
function keptOfPairs(
  p: { offsets: Uint32Array; sortedKeys: Uint32Array; carriedA: Uint32Array; carriedB: Uint32Array },
  n: number,
  last: boolean,
): {
  n: number;
  offsets: Uint32Array;
  sortedKeys: Uint32Array;
  carriedA: Uint32Array;
  carriedB: Uint32Array;
} {
  const from = p.sortedKeys;
  const to = p.carriedB;
  let k = 0;
  for (let i = 0; i < n; i++) if (keptOfPair(from, to, i, n, last)) k++;
  if (k === n) return { n, ...p };
  const offsets = sharedU32(p.offsets.length);
  const sortedKeys = new Uint32Array(k);
  const carriedA = sharedU32(k);
  const carriedB = sharedU32(k);
  let j = 0;
  for (let i = 0; i < n; i++) {
    if (!keptOfPair(from, to, i, n, last)) continue;
    sortedKeys[j] = from[i];
    carriedA[j] = p.carriedA[i];
    carriedB[j] = to[i];
    offsets[from[i] + 1]++;
    j++;
  }
  for (let r = 0; r + 1 < offsets.length; r++) offsets[r + 1] += offsets[r];
  return { n: k, offsets, sortedKeys, carriedA, carriedB };
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
  /** The result becomes a block's base: shared memory (an intermediate pass needs none). */
  shared = true,
): { offsets: Uint32Array; sortedKeys: Uint32Array; carriedA: Uint32Array; carriedB: Uint32Array } {
  const alloc = shared ? sharedU32 : (len: number): Uint32Array => new Uint32Array(len);
  const offsets = alloc(range + 1);
  for (let i = 0; i < n; i++) offsets[keys[i] + 1]++;
  for (let k = 0; k < range; k++) offsets[k + 1] += offsets[k];
  const pos = offsets.slice(0, range);
  const sortedKeys = new Uint32Array(n);
  const carriedA = alloc(n);
  const carriedB = alloc(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    const p = pos[k]++;
    sortedKeys[p] = k;
    carriedA[p] = a[i];
    carriedB[p] = b[i];
  }
  return { offsets, sortedKeys, carriedA, carriedB };
}
