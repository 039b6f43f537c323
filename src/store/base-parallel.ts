/**
 * The base build of base-builder.ts split over a team of merge threads sharing the block's arrays:
 * every pass runs on one slice of its input per thread, and the threads meet at a barrier between
 * passes. The result is the same, bit for bit, as `buildBase` on one thread: compaction keeps old
 * id order (each slice writes at the prefix of the live counts before it), and each counting sort
 * stays stable (thread t's items of a bucket go after those of threads before t, and within a
 * thread in input order).
 */
import type { BaseSource, BuiltBase } from './base-builder.js';
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
  // Compact the live edges: old ids, FROM rows and TO rows side by side, in old id order.
  const keep = team.share(() => ({ id: sharedU32(n), from: sharedU32(n), to: sharedU32(n) }));
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
  const p0 = teamSort(team, n, keep.to, toRows, keep.id, keep.from);
  const p1 = teamSort(team, n, p0.carriedB, fromRows, p0.carriedA, p0.sortedKeys);
  const p2 = teamSort(team, n, p1.carriedB, toRows, undefined, p1.sortedKeys, false);
  return {
    n,
    outOffsets: p1.offsets,
    outTargets: p1.carriedB,
    inOffsets: p2.offsets,
    inEids: p2.carriedA,
    inSources: p2.carriedB,
    order: p1.carriedA,
  };
}

/**
 * countingSortCarry over the team: each thread counts the keys of its slice, the leader turns the
 * thread × bucket counts into positions (bucket by bucket, threads in order), each thread scatters
 * its slice. `a` undefined carries the item's index (identity); the sorted keys are written only
 * when `withKeys` (a later pass reads them).
 */
function teamSort(
  team: Team,
  n: number,
  keys: Uint32Array,
  range: number,
  a: Uint32Array | undefined,
  b: Uint32Array,
  withKeys = true,
): { offsets: Uint32Array; sortedKeys: Uint32Array; carriedA: Uint32Array; carriedB: Uint32Array } {
  const { index: t, size } = team;
  const out = team.share(() => ({
    counts: sharedU32(size * range),
    offsets: sharedU32(range + 1),
    sortedKeys: sharedU32(withKeys ? n : 0),
    carriedA: sharedU32(n),
    carriedB: sharedU32(n),
  }));
  const { counts, offsets, sortedKeys, carriedA, carriedB } = out;
  const [lo, hi] = slice(n, t, size);
  const base = t * range;
  for (let i = lo; i < hi; i++) counts[base + keys[i]]++;
  team.sync();
  if (t === 0) {
    let s = 0;
    for (let key = 0; key < range; key++) {
      offsets[key] = s;
      for (let u = 0; u < size; u++) {
        const c = counts[u * range + key];
        counts[u * range + key] = s;
        s += c;
      }
    }
    offsets[range] = s;
  }
  team.sync();
  for (let i = lo; i < hi; i++) {
    const key = keys[i];
    const p = counts[base + key]++;
    if (withKeys) sortedKeys[p] = key;
    carriedA[p] = a === undefined ? i : a[i];
    carriedB[p] = b[i];
  }
  team.sync();
  return { offsets, sortedKeys, carriedA, carriedB };
}
