/**
 * The base build of base-builder.ts split over a team of merge threads sharing the block's arrays:
 * every pass runs on one slice of its input per thread, and the threads meet at a barrier between
 * passes. The result is the same, bit for bit, as `buildBase` on one thread: compaction keeps old
 * id order (each slice writes at the prefix of the live counts before it), and each counting sort
 * stays stable (thread t's items of a bucket go after those of threads before t, and within a
 * thread in input order).
 */
import { type BaseSource, type BuiltBase, keptOfPair, pairStart } from './base-builder.js';
import { sharedU8, sharedU32 } from './shared.js';

/** One thread's view of the team building a base together. */
export interface Team {
  index: number;
  size: number;
  /** Returns once every thread of the team called it. */
  sync(): void;
  /** The leader's `make()`, handed to every thread (shared memory: no copy); ends in a `sync`. */
  share<T>(make: () => T): T;
}

/** The half-open slice [lo, hi) of n items that thread `t` of `size` takes. */
function slice(n: number, t: number, size: number): [number, number] {
  return [Math.floor((n * t) / size), Math.floor((n * (t + 1)) / size)];
}

/** The base row holding base edge `e` (the last row whose offset is at most e). */
function rowOf(offsets: Uint32Array, e: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid] <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Whether old edge id `e` is live at the source's version (deltas: written by then, not dead). */
function live(src: BaseSource, deadMark: Uint8Array | undefined, e: number): boolean {
  if (deadMark !== undefined && deadMark[e] === 1) return false;
  return e < src.nBase || src.dVersion[e - src.nBase] <= src.version;
}

export function buildBaseTeam(src: BaseSource, team: Team): BuiltBase {
  const { index: t, size } = team;
  const limit = src.nBase + src.dCount;
  const deadMark = src.dead.length > 0 ? team.share(() => sharedU8(limit)) : undefined;
  if (deadMark !== undefined) {
    const [lo, hi] = slice(src.dead.length, t, size);
    for (let i = lo; i < hi; i++) if (src.dead[i] < limit) deadMark[src.dead[i]] = 1;
  }
  // Per thread: live edges in its slice of old ids, and the largest FROM and TO rows among them.
  const stat = team.share(() => sharedU32(3 * size));
  const [lo, hi] = slice(limit, t, size);
  const rows = src.outOffsets.length - 1;
  let count = 0;
  let maxSrc = 0;
  let maxDst = 0;
  for (let e = lo; e < hi; e++) {
    if (!live(src, deadMark, e)) continue;
    count++;
    const d = e < src.nBase ? src.outTargets[e] : src.dDst[e - src.nBase];
    if (d >= maxDst) maxDst = d + 1;
    if (e >= src.nBase && src.dSrc[e - src.nBase] >= maxSrc) maxSrc = src.dSrc[e - src.nBase] + 1;
  }
  stat[3 * t] = count;
  stat[3 * t + 1] = maxSrc;
  stat[3 * t + 2] = maxDst;
  team.sync();
  let n = 0;
  let start = 0;
  let fromRows = Math.max(src.fromRows, rows);
  let toRows = src.toRows;
  for (let u = 0; u < size; u++) {
    if (u === t) start = n;
    n += stat[3 * u];
    fromRows = Math.max(fromRows, stat[3 * u + 1]);
    toRows = Math.max(toRows, stat[3 * u + 2]);
  }
  // Compact the live edges: old ids, FROM rows and TO rows side by side, in old id order. The
  // sorts' arrays come with them, so that each sort meets only twice (after counting, after placing).
  const arrays = team.share(() => ({
    keep: { id: sharedU32(n), from: sharedU32(n), to: sharedU32(n) },
    sorts: [
      sortArrays(size, n, toRows),
      sortArrays(size, n, fromRows),
      // With duplicates to drop, the in-direction sort's size is known only after the drop.
      src.dedupe ? undefined : sortArrays(size, n, toRows, false),
    ] as [SortArrays, SortArrays, SortArrays | undefined],
  }));
  const { keep, sorts } = arrays;
  let k = start;
  let r = lo < src.nBase ? rowOf(src.outOffsets, lo) : rows;
  for (let e = lo; e < hi; e++) {
    if (!live(src, deadMark, e)) continue;
    keep.id[k] = e;
    if (e < src.nBase) {
      while (src.outOffsets[r + 1] <= e) r++;
      keep.from[k] = r;
      keep.to[k] = src.outTargets[e];
    } else {
      keep.from[k] = src.dSrc[e - src.nBase];
      keep.to[k] = src.dDst[e - src.nBase];
    }
    k++;
  }
  team.sync();
  // The sorts of buildBase, each split over the team.
  const p0 = teamSort(team, sorts[0], keep.to, keep.id, keep.from);
  let p1 = teamSort(team, sorts[1], p0.carriedB, p0.carriedA, p0.sortedKeys);
  let sort2 = sorts[2];
  let dropped = 0;
  if (sort2 === undefined) {
    const kept = keptOfPairsTeam(team, p1, n, stat, toRows, src.keepLast === true);
    p1 = kept.out;
    dropped = n - kept.n;
    n = kept.n;
    sort2 = kept.sort2;
  }
  const p2 = teamSort(team, sort2, p1.carriedB, undefined, p1.sortedKeys);
  return {
    n,
    outOffsets: p1.offsets,
    outTargets: p1.carriedB,
    inOffsets: p2.offsets,
    inEids: p2.carriedA,
    inSources: p2.carriedB,
    order: p1.carriedA,
    dropped,
  };
}

/**
 * The out-direction sort's result without the repeats of a pair (BaseSource.dedupe), over the
 * team: each thread keeps the first (or last: BaseSource.keepLast) edges of pairs in its slice and
 * writes them after the kept edges of the threads before it; the new offsets of the rows up to each
 * kept edge's FROM row are written by the thread holding the row's first kept edge (a repeat has
 * its pair's FROM row, so the kept edge before a pair has the FROM row of the item before the
 * pair's first).
 */
function keptOfPairsTeam(
  team: Team,
  p1: SortArrays,
  n: number,
  stat: Uint32Array,
  toRows: number,
  last: boolean,
): { out: SortArrays; n: number; sort2: SortArrays } {
  const { index: t, size } = team;
  const from = p1.sortedKeys;
  const to = p1.carriedB;
  const [lo, hi] = slice(n, t, size);
  let count = 0;
  for (let i = lo; i < hi; i++) if (keptOfPair(from, to, i, n, last)) count++;
  stat[3 * t] = count;
  team.sync();
  let k = 0;
  let start = 0;
  for (let u = 0; u < size; u++) {
    if (u === t) start = k;
    k += stat[3 * u];
  }
  const range = p1.range;
  const arrays = team.share(() => ({
    out: {
      range,
      counts: p1.counts,
      offsets: sharedU32(range + 1),
      sortedKeys: sharedU32(k),
      carriedA: sharedU32(k),
      carriedB: sharedU32(k),
    },
    sort2: sortArrays(size, k, toRows, false),
  }));
  const out = arrays.out;
  let j = start;
  for (let i = lo; i < hi; i++) {
    if (!keptOfPair(from, to, i, n, last)) continue;
    const f = from[i];
    const q = last ? pairStart(from, to, i) : i;
    for (let r = q > 0 ? from[q - 1] + 1 : 0; r <= f; r++) out.offsets[r] = j;
    out.sortedKeys[j] = f;
    out.carriedA[j] = p1.carriedA[i];
    out.carriedB[j] = to[i];
    j++;
  }
  if (t === size - 1) for (let r = n > 0 ? from[n - 1] + 1 : 0; r <= range; r++) out.offsets[r] = k;
  team.sync();
  return { out, n: k, sort2: arrays.sort2 };
}

/** One team sort's shared arrays: every thread's bucket counts, the offsets and the sorted columns. */
interface SortArrays {
  range: number;
  counts: Uint32Array;
  offsets: Uint32Array;
  /** Empty when no later pass reads the sorted keys. */
  sortedKeys: Uint32Array;
  carriedA: Uint32Array;
  carriedB: Uint32Array;
}

function sortArrays(size: number, n: number, range: number, withKeys = true): SortArrays {
  return {
    range,
    counts: sharedU32(size * range),
    offsets: sharedU32(range + 1),
    sortedKeys: sharedU32(withKeys ? n : 0),
    carriedA: sharedU32(n),
    carriedB: sharedU32(n),
  };
}

/**
 * countingSortCarry over the team: each thread counts the keys of its slice; then each works out
 * from all threads' counts where its own items of each bucket go (after the bucket's items of the
 * threads before it) and scatters its slice. `a` undefined carries the item's index (identity).
 */
function teamSort(
  team: Team,
  out: SortArrays,
  keys: Uint32Array,
  a: Uint32Array | undefined,
  b: Uint32Array,
): SortArrays {
  const { index: t, size } = team;
  const { range, counts, offsets, sortedKeys, carriedA, carriedB } = out;
  const withKeys = sortedKeys.length > 0;
  const [lo, hi] = slice(carriedA.length, t, size);
  const base = t * range;
  for (let i = lo; i < hi; i++) counts[base + keys[i]]++;
  team.sync();
  // Only this thread's positions are written (the leader also writes the offsets): the counts stay
  // as they are for the other threads to read.
  const pos = new Uint32Array(range);
  let s = 0;
  for (let key = 0; key < range; key++) {
    if (t === 0) offsets[key] = s;
    for (let u = 0; u < size; u++) {
      if (u === t) pos[key] = s;
      s += counts[u * range + key];
    }
  }
  if (t === 0) offsets[range] = s;
  for (let i = lo; i < hi; i++) {
    const key = keys[i];
    const p = pos[key]++;
    if (withKeys) sortedKeys[p] = key;
    carriedA[p] = a === undefined ? i : a[i];
    carriedB[p] = b[i];
  }
  team.sync();
  return out;
}
