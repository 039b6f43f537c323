/**
 * The edges of one stored edge type between one FROM vertex type and one TO vertex type.
 *
 * Base (immutable between rebuilds), compressed sparse row in both directions:
 *   out: targets of FROM row r are outTargets[outOffsets[r] .. outOffsets[r+1]), sorted by target row;
 *        the edge id of a base edge is its position in outTargets (no separate array).
 *   in:  sources of TO row r are inSources[inOffsets[r] .. inOffsets[r+1]) with edge ids inEids.
 *   That is 12 bytes per edge for both directions, plus 8 bytes per vertex row.
 * Delta (edges written since the last rebuild): slot s holds edge id nBase + s, with its endpoints,
 *   commit version and a link to the previous delta edge of the same FROM row (out) and TO row (in).
 *   An open-addressing hash over (from row, to row) finds delta edges of a pair in O(1). An entry is
 *   the slot + 1 in the bits below the table size and the pair hash's upper bits above them, so a
 *   probe reads the slot's endpoints (two more cache misses) only when those bits match.
 * Tombstones: edge id -> deleting version, until the next rebuild drops the edge.
 * Attribute columns are indexed by edge id.
 *
 * Every array is in shared memory, read by worker threads while the writer appends (store/
 * mirror.ts). A slot is written before it is linked: the heads and the hash are written with
 * Atomics.store, so a reader that follows a link sees the slot's fields. A delta array that must
 * grow is replaced by a larger copy (the five slot arrays together; `gen` counts replacements); a
 * slot below a published count is never rewritten, so an array set a reader holds stays consistent
 * even where a newer set shares its slot arrays; dropping slots (a transaction abort) first copies
 * the whole set if a running worker task may read it (epochs.ts; `born` dates the slot arrays).
 * Readers bound delta slots by their version's `dCount`. Tombstones are a Map on each thread: the
 * writer logs them (`tombLog`) for the mirrors.
 *
 * Appended, not yet settled: a bulk load of a directed edge type without discriminator appends its
 * edges to the slot arrays only (`appendUnchecked`: no duplicate check, no lists, no hash), counting
 * each one live; an edge with attributes is appended so only when its line sets every attribute
 * (engine/edge-run-writer.ts). Slots from `settled` on are in that state; `settle` links them in
 * slot order, tombstoning each one whose pair already had a live edge (that edge's id stays, as an
 * upsert keeps it) and taking it off the live counts; with attributes, the repeat's values are
 * first written over that edge's at the repeat's version (with history for older readers), as the
 * upsert's update would have. That is the state the upserts would have left. Everything that
 * reads the delta on the writer's thread settles first (findOne, find, forEachOut, forEachIn,
 * addEdge, adjacency views), and so do new readers (Database.read) and a worker's image
 * (mirror.ts); a merge instead drops the duplicates while it sorts (`dedupe`), keeping the last of
 * a pair's edges where they have attributes (its values are the last upsert's; where the pair
 * repeats, the edge ids and order a merge gives do not depend on which one it keeps).
 */
import type { EdgeType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import { type BaseSource, buildBase, type BuiltBase } from './base-builder.js';
import { type Column, type HistoryEntry, makeColumn, newUid, ValueColumn } from './columns.js';
import { type Counter, newCounter, uncount } from './counter.js';
import { epochs } from './epochs.js';
import { grownShared, sharedI32, sharedU32 } from './shared.js';
import { WRITER_VERSION } from './vertex-table.js';

function pairHash(src: number, dst: number): number {
  let h = Math.imul(src, 0x9e3779b1) ^ Math.imul(dst + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) >>> 0;
}

/** Delta edges whose hash entries a rehash reads before it writes them (see rehash). */
const REHASH_CHUNK = 256;
/** Where rehash's reads go, so that the optimizer cannot drop them as dead code. */
let _rehashSink = 0;

export class EdgeBlock {
  readonly uid = newUid();
  // Base.
  nBase = 0;
  outOffsets: Uint32Array = sharedU32(1);
  outTargets: Uint32Array = sharedU32(0);
  inOffsets: Uint32Array = sharedU32(1);
  inSources: Uint32Array = sharedU32(0);
  inEids: Uint32Array = sharedU32(0);
  // Delta.
  dCount = 0;
  dSrc: Uint32Array = sharedU32(16);
  dDst: Uint32Array = sharedU32(16);
  dVersion: Uint32Array = sharedU32(16);
  outNext: Int32Array = sharedI32(16);
  inNext: Int32Array = sharedI32(16);
  outHead: Int32Array = sharedI32(16).fill(-1);
  inHead: Int32Array = sharedI32(16).fill(-1);
  hash: Int32Array = sharedI32(64);
  /** Replacements of the delta arrays and the hash (for workers' mirrors); the epoch of the last. */
  gen = 0;
  born = epochs.current;
  readonly tomb = new Map<number, number>();
  /** Tombstones in the order they were set: edge id, version (NaN: removed by an abort). */
  readonly tombLog: number[] = [];
  readonly columns = new Map<string, Column>();
  readonly live: Counter;
  /** Changed since the last rebuild. */
  dirty = false;
  /** Delta slots below this are in the lists and the hash; the rest wait for `settle`. */
  settled = 0;
  /** Edge ids `settle` tombstoned as duplicates (an abort takes back those it drops). */
  private readonly dupIds: number[] = [];
  /**
   * With attributes: the earlier edge each repeat's values were written to by `settle`, with the
   * repeat's slot and each column's history entry (an abort reverts those of the slots it drops).
   */
  private readonly dupWrites: { slot: number; eid: number; entries: HistoryEntry[] }[] = [];
  /** `settle` wrote history to the columns since `takeHistory` (the reader pins trim it). */
  private wroteHistory = false;

  constructor(
    readonly edgeType: EdgeType,
    readonly fromType: string,
    readonly toType: string,
    version: number,
  ) {
    for (const a of edgeType.attributes) this.columns.set(a.name, makeColumn(a.type));
    this.live = newCounter(version);
    this.live.later = (v) => this.unsettledAfter(v);
  }

  /** Unsettled slots of versions after `version` (slots are in version order: a binary search). */
  private unsettledAfter(version: number): number {
    let lo = this.settled;
    let hi = this.dCount;
    if (lo === hi || this.dVersion[hi - 1] <= version) return 0;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.dVersion[mid] > version) hi = mid;
      else lo = mid + 1;
    }
    return this.dCount - lo;
  }

  get edgeLimit(): number {
    return this.nBase + this.dCount;
  }

  isLive(eid: number, version: number): boolean {
    if (eid >= this.nBase && this.dVersion[eid - this.nBase] > version) return false;
    if (this.tomb.size === 0) return true;
    const t = this.tomb.get(eid);
    return t === undefined || t > version;
  }

  /** Tombstones edge `eid` at `version`. */
  bury(eid: number, version: number): void {
    this.tomb.set(eid, version);
    this.tombLog.push(eid, version);
  }

  /** Undoes `bury` (transaction abort). */
  unbury(eid: number): void {
    this.tomb.delete(eid);
    this.tombLog.push(eid, NaN);
  }

  /** Appends a delta edge; the caller initialises its attribute columns. */
  addEdge(src: number, dst: number, version: number): number {
    if (this.settled !== this.dCount) this.settle();
    const s = this.dCount;
    const n = s + 1;
    if (n > this.dSrc.length || src >= this.outHead.length || dst >= this.inHead.length)
      this.growDelta(n, src + 1, dst + 1);
    this.dSrc[s] = src;
    this.dDst[s] = dst;
    this.dVersion[s] = version;
    this.outNext[s] = this.outHead[src];
    this.inNext[s] = this.inHead[dst];
    Atomics.store(this.outHead, src, s);
    Atomics.store(this.inHead, dst, s);
    this.dCount = n;
    this.settled = n;
    if (n * 2 > this.hash.length) this.rehash(this.hash.length * 2);
    else this.hashInsert(s);
    const eid = this.nBase + s;
    if (this.columns.size > 0) for (const c of this.columns.values()) c.ensure(eid + 1);
    this.dirty = true;
    return eid;
  }

  /**
   * Appends a delta edge without checking for its pair or linking it (see the file's header): for
   * edge types without discriminator only, counted live by the caller, which initialises its
   * attribute columns (every attribute).
   */
  appendUnchecked(src: number, dst: number, version: number): number {
    const s = this.dCount;
    if (s + 1 > this.dSrc.length) this.growDelta(s + 1, 0, 0);
    this.dSrc[s] = src;
    this.dDst[s] = dst;
    this.dVersion[s] = version;
    this.dCount = s + 1;
    this.dirty = true;
    const eid = this.nBase + s;
    if (this.columns.size > 0) for (const c of this.columns.values()) c.ensure(eid + 1);
    return eid;
  }

  /** Of the duplicates `settle` tombstoned from the `from`th on, those of versions up to `version`. */
  dupsSince(from: number, version: number): number {
    let n = 0;
    for (let i = from; i < this.dupIds.length; i++)
      if (this.dVersion[this.dupIds[i] - this.nBase] <= version) n++;
    return n;
  }

  /** Whether `settle` wrote history to the columns since the last call. */
  takeHistory(): boolean {
    const wrote = this.wroteHistory;
    this.wroteHistory = false;
    return wrote;
  }

  /** Duplicates `settle` tombstoned that stand (a transaction mark keeps it, see tx-changes.ts). */
  get dupCount(): number {
    return this.dupIds.length;
  }

  /**
   * Links the slots appended unchecked into the lists and the hash, in slot order; a slot whose
   * pair has a live edge already is tombstoned at its own version (never visible) and taken off
   * the live counts of its version on, its attribute values written over that edge's.
   */
  settle(): void {
    const from = this.settled;
    const to = this.dCount;
    if (from === to) return;
    let maxSrc = 0;
    let maxDst = 0;
    for (let s = from; s < to; s++) {
      if (this.dSrc[s] >= maxSrc) maxSrc = this.dSrc[s] + 1;
      if (this.dDst[s] >= maxDst) maxDst = this.dDst[s] + 1;
    }
    if (maxSrc > this.outHead.length || maxDst > this.inHead.length) this.growDelta(0, maxSrc, maxDst);
    if (to * 2 > this.hash.length) this.rehash(to * 2);
    const lastWins = this.columns.size > 0;
    let dups = 0;
    let dupVersion = 0;
    let sink = 0;
    for (let s = from; s < to; s++) {
      // A chunk's cache lines are read ahead, so that their misses overlap (see touch).
      if ((s - from) % REHASH_CHUNK === 0)
        for (let k = s, end = Math.min(to, s + REHASH_CHUNK); k < end; k++)
          sink ^= this.touch(this.dSrc[k], this.dDst[k]);
      const src = this.dSrc[s];
      const dst = this.dDst[s];
      const v = this.dVersion[s];
      const earlier = this.firstLive(src, dst, WRITER_VERSION);
      this.outNext[s] = this.outHead[src];
      this.inNext[s] = this.inHead[dst];
      Atomics.store(this.outHead, src, s);
      Atomics.store(this.inHead, dst, s);
      this.settled = s + 1;
      this.hashInsert(s);
      if (earlier < 0) continue;
      if (lastWins) this.writeOver(earlier, s, v);
      this.bury(this.nBase + s, v);
      this.dupIds.push(this.nBase + s);
      if (v !== dupVersion && dups > 0) {
        uncount(this.live, dupVersion, dups);
        dups = 0;
      }
      dupVersion = v;
      dups++;
    }
    if (dups > 0) uncount(this.live, dupVersion, dups);
    _rehashSink ^= sink;
  }

  /** Writes slot s's attribute values over edge `eid` at `version`, as the upsert's update would. */
  private writeOver(eid: number, s: number, version: number): void {
    const entries: HistoryEntry[] = [];
    for (const c of this.columns.values()) entries.push(c.update(eid, c.get(this.nBase + s), version));
    this.dupWrites.push({ slot: s, eid, entries });
    this.wroteHistory = true;
  }

  /** Makes room for `extra` more slots, for edges appended unchecked (no hash to size). */
  reserveSlots(extra: number): void {
    const n = this.dCount + extra;
    if (n > this.dSrc.length) this.growDelta(n, 0, 0);
  }

  /** Makes room for `extra` more delta edges, so that a bulk run appends without regrowing or rehashing. */
  reserve(extra: number): void {
    const n = this.dCount + extra;
    if (n > this.dSrc.length) this.growDelta(n, 0, 0);
    if (n * 2 > this.hash.length) this.rehash(n * 2);
  }

  /**
   * Makes room for `slots` edges and `outRows` / `inRows` head rows: an array too small is replaced
   * by a larger copy, the five slot arrays together (`copy`: every array is copied at its size, a
   * copy-on-write). Heads outgrown by new vertex rows leave the slot arrays in place: copying them
   * each time would cost a bulk load that reserved many slots a copy of all of them per growth.
   */
  private growDelta(slots: number, outRows: number, inRows: number, copy = false): void {
    const moved = copy || slots > this.dSrc.length;
    if (moved) {
      this.dSrc = grownShared(this.dSrc, slots, undefined, copy);
      this.dDst = grownShared(this.dDst, slots, undefined, copy);
      this.dVersion = grownShared(this.dVersion, slots, undefined, copy);
      this.outNext = grownShared(this.outNext, slots, undefined, copy);
      this.inNext = grownShared(this.inNext, slots, undefined, copy);
      // Only the slot arrays are rewritten in place by truncateDelta: their birth is what counts.
      this.born = epochs.current;
    }
    // A reader pinned before keeps the old slot arrays: a head it shares must never name a slot
    // past them (it would follow that slot off its arrays), so the heads move with the slots.
    this.outHead = grownShared(this.outHead, outRows, -1, moved);
    this.inHead = grownShared(this.inHead, inRows, -1, moved);
    this.gen++;
  }

  private hashInsert(s: number): void {
    const mask = this.hash.length - 1;
    const h = pairHash(this.dSrc[s], this.dDst[s]);
    let i = h & mask;
    while (this.hash[i] !== 0) i = (i + 1) & mask;
    // At most half the table is used, so slot + 1 fits below the mask.
    Atomics.store(this.hash, i, (h & ~mask) | (s + 1));
  }

  private rehash(size: number): void {
    let cap = 64;
    while (cap < size) cap *= 2;
    const hash = sharedI32(cap);
    this.hash = hash;
    const mask = cap - 1;
    const n = this.settled;
    const hs = new Uint32Array(Math.min(n, REHASH_CHUNK));
    // In chunks: the pair hashes first, with a read of each home entry, so that the CPU overlaps
    // the cache misses of many inserts (a large table is mostly out of cache) before they are made.
    for (let lo = 0; lo < n; lo += REHASH_CHUNK) {
      const hi = Math.min(n, lo + REHASH_CHUNK);
      let sink = 0;
      for (let s = lo; s < hi; s++) {
        const h = pairHash(this.dSrc[s], this.dDst[s]);
        hs[s - lo] = h;
        sink |= hash[h & mask];
      }
      _rehashSink ^= sink;
      for (let s = lo; s < hi; s++) {
        const h = hs[s - lo];
        let i = h & mask;
        while (hash[i] !== 0) i = (i + 1) & mask;
        Atomics.store(hash, i, (h & ~mask) | (s + 1));
      }
    }
    this.gen++;
  }

  /** Drops delta edges from slot `mark` on (transaction abort). */
  truncateDelta(mark: number): void {
    if (mark === this.dCount) return;
    // A running worker task may be walking the slots about to be reused: give it the old set.
    if (epochs.exposed(this.born)) this.growDelta(0, 0, 0, true);
    for (let s = this.settled - 1; s >= mark; s--) {
      this.outHead[this.dSrc[s]] = this.outNext[s];
      this.inHead[this.dDst[s]] = this.inNext[s];
    }
    // Duplicates settle tombstoned among the dropped slots go with them.
    const limit = this.nBase + mark;
    while (this.dupIds.length > 0 && this.dupIds[this.dupIds.length - 1] >= limit)
      this.unbury(this.dupIds.pop() as number);
    // And the values they wrote over earlier edges, newest first.
    while (this.dupWrites.length > 0 && this.dupWrites[this.dupWrites.length - 1].slot >= mark) {
      const w = this.dupWrites.pop() as { eid: number; entries: HistoryEntry[] };
      let k = w.entries.length;
      for (const c of this.columns.values()) c.revert(w.eid, w.entries[--k]);
    }
    this.dCount = mark;
    if (this.settled > mark) this.settled = mark;
    this.rehash(mark * 2);
  }

  /**
   * Reads what findOne and addEdge for (src, dst) will read first, so that a loop touching many
   * pairs before using them overlaps their cache misses; returns a value only to keep the reads.
   */
  touch(src: number, dst: number): number {
    let v = this.hash[pairHash(src, dst) & (this.hash.length - 1)];
    if (src < this.outHead.length) v ^= this.outHead[src];
    if (dst < this.inHead.length) v ^= this.inHead[dst];
    return v;
  }

  /** The first live edge id from `src` to `dst` at `version`, or -1 (for types without discriminator). */
  findOne(src: number, dst: number, version: number): number {
    if (this.settled !== this.dCount) this.settle();
    return this.firstLive(src, dst, version);
  }

  private firstLive(src: number, dst: number, version: number): number {
    const lo = this.baseSlotOf(src, dst);
    if (lo >= 0) {
      const end = this.outOffsets[src + 1];
      for (let i = lo; i < end && this.outTargets[i] === dst; i++) if (this.isLive(i, version)) return i;
    }
    if (this.settled > 0) {
      const mask = this.hash.length - 1;
      const h = pairHash(src, dst);
      const tag = h & ~mask;
      for (let i = h & mask; ; i = (i + 1) & mask) {
        const e = this.hash[i];
        if (e === 0) break;
        if ((e & ~mask) !== tag) continue;
        const s = (e & mask) - 1;
        if (this.dSrc[s] === src && this.dDst[s] === dst && this.isLive(this.nBase + s, version))
          return this.nBase + s;
      }
    }
    return -1;
  }

  /** The first base edge from `src` to `dst`, live or not, or -1. */
  baseEdgeOf(src: number, dst: number): number {
    const lo = this.baseSlotOf(src, dst);
    return lo >= 0 && lo < this.outOffsets[src + 1] && this.outTargets[lo] === dst ? lo : -1;
  }

  /** Where `dst` is or would be in `src`'s sorted base out-targets (binary search), or -1 if `src` has no base row. */
  private baseSlotOf(src: number, dst: number): number {
    if (src + 1 >= this.outOffsets.length) return -1;
    let lo = this.outOffsets[src];
    let hi = this.outOffsets[src + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.outTargets[mid] < dst) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Edge ids from `src` to `dst` live at `version`, base first. */
  find(src: number, dst: number, version: number): number[] {
    if (this.settled !== this.dCount) this.settle();
    const out: number[] = [];
    if (src + 1 < this.outOffsets.length) {
      let lo = this.outOffsets[src];
      let hi = this.outOffsets[src + 1];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.outTargets[mid] < dst) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < this.outOffsets[src + 1] && this.outTargets[i] === dst; i++) {
        if (this.isLive(i, version)) out.push(i);
      }
    }
    if (this.dCount > 0) {
      const mask = this.hash.length - 1;
      const h = pairHash(src, dst);
      const tag = h & ~mask;
      for (let i = h & mask; this.hash[i] !== 0; i = (i + 1) & mask) {
        const e = this.hash[i];
        if ((e & ~mask) !== tag) continue;
        const s = (e & mask) - 1;
        if (this.dSrc[s] === src && this.dDst[s] === dst && this.isLive(this.nBase + s, version)) {
          out.push(this.nBase + s);
        }
      }
      if (out.length > 1) out.sort((a, b) => a - b);
    }
    return out;
  }

  /** Calls fn(target row, edge id) for every out-edge of `src` live at `version`, oldest first. */
  forEachOut(src: number, version: number, fn: (dst: number, eid: number) => void): void {
    if (this.settled !== this.dCount) this.settle();
    if (src + 1 < this.outOffsets.length) {
      const end = this.outOffsets[src + 1];
      for (let i = this.outOffsets[src]; i < end; i++) if (this.isLive(i, version)) fn(this.outTargets[i], i);
    }
    if (src < this.outHead.length && this.outHead[src] >= 0) {
      const slots: number[] = [];
      for (let s = this.outHead[src]; s >= 0; s = this.outNext[s]) slots.push(s);
      for (let k = slots.length - 1; k >= 0; k--) {
        const eid = this.nBase + slots[k];
        if (this.isLive(eid, version)) fn(this.dDst[slots[k]], eid);
      }
    }
  }

  /** Calls fn(source row, edge id) for every in-edge of `dst` live at `version`, oldest first. */
  forEachIn(dst: number, version: number, fn: (src: number, eid: number) => void): void {
    if (this.settled !== this.dCount) this.settle();
    if (dst + 1 < this.inOffsets.length) {
      const end = this.inOffsets[dst + 1];
      for (let i = this.inOffsets[dst]; i < end; i++) {
        const eid = this.inEids[i];
        if (this.isLive(eid, version)) fn(this.inSources[i], eid);
      }
    }
    if (dst < this.inHead.length && this.inHead[dst] >= 0) {
      const slots: number[] = [];
      for (let s = this.inHead[dst]; s >= 0; s = this.inNext[s]) slots.push(s);
      for (let k = slots.length - 1; k >= 0; k--) {
        const eid = this.nBase + slots[k];
        if (this.isLive(eid, version)) fn(this.dSrc[slots[k]], eid);
      }
    }
  }

  /** FROM and TO rows of an edge id (binary search over the base offsets for base edges). */
  endpoints(eid: number): [number, number] {
    if (eid >= this.nBase) return [this.dSrc[eid - this.nBase], this.dDst[eid - this.nBase]];
    let lo = 0;
    let hi = this.outOffsets.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.outOffsets[mid] <= eid) lo = mid;
      else hi = mid - 1;
    }
    return [lo, this.outTargets[eid]];
  }
}

/** The edge ids tombstoned at or before `version` (what a merge at that version drops). */
export function deadAt(b: EdgeBlock, version: number): Uint32Array {
  const dead: number[] = [];
  for (const [eid, v] of b.tomb) if (v <= version) dead.push(eid);
  return Uint32Array.from(dead);
}

/** What `buildBase` reads of a block to merge it at `version`. */
export function baseSource(b: EdgeBlock, version: number, fromRows: number, toRows: number): BaseSource {
  return {
    nBase: b.nBase,
    outOffsets: b.outOffsets,
    outTargets: b.outTargets,
    dCount: b.dCount,
    dSrc: b.dSrc,
    dDst: b.dDst,
    dVersion: b.dVersion,
    dead: deadAt(b, version),
    version,
    fromRows,
    toRows,
    dedupe: b.settled < b.dCount,
    keepLast: b.columns.size > 0,
  };
}

/**
 * A fresh block whose base is `built` (made from `old`'s edges live at `version`), its attribute
 * columns sized but not yet filled (`carryColumns`, then `sealColumns`). Readers pinned to the old
 * block keep an unchanged view.
 */
export function blockOnBase(
  old: EdgeBlock,
  built: BuiltBase,
  version: number,
  edgeType: EdgeType = old.edgeType,
): EdgeBlock {
  const b = new EdgeBlock(edgeType, old.fromType, old.toType, version);
  const n = built.n;
  b.nBase = n;
  b.outOffsets = built.outOffsets;
  b.outTargets = built.outTargets;
  b.inOffsets = built.inOffsets;
  b.inSources = built.inSources;
  b.inEids = built.inEids;
  for (const nc of b.columns.values()) nc.ensure(n);
  b.live.current = n;
  b.live.log = [version, n];
  return b;
}

/**
 * Fills base rows [from, to) of `b`'s columns from `old`'s through `order` (new id -> old id);
 * attributes `old` lacks or stores as another type (a schema change) are filled by `fill`.
 */
export function carryColumns(
  b: EdgeBlock,
  old: EdgeBlock,
  order: Uint32Array,
  from: number,
  to: number,
  fill?: (attribute: string) => Value,
): void {
  for (const [name, nc] of b.columns) {
    const col = old.columns.get(name);
    if (col && JSON.stringify(col.type) === JSON.stringify(nc.type)) nc.carry(col, order, from, to);
    else if (fill) {
      const v = fill(name);
      for (let i = from; i < to; i++) nc.init(i, v);
    }
  }
}

/** Once the base rows are filled: value columns fold them into their shared heap. */
export function sealColumns(b: EdgeBlock): void {
  for (const nc of b.columns.values()) if (nc instanceof ValueColumn) nc.rebase(b.nBase);
}

/**
 * Builds a block's new base from every edge live at `version` (the rebuild merge, on the calling
 * thread). The result is a fresh block, so readers pinned to the old one keep an unchanged view.
 */
export function mergeBlock(
  old: EdgeBlock,
  version: number,
  fromRows: number,
  toRows: number,
  /** A changed edge type (schema change): attributes it adds are filled by `fill`. */
  edgeType: EdgeType = old.edgeType,
  fill?: (attribute: string) => Value,
): EdgeBlock {
  const built = buildBase(baseSource(old, version, fromRows, toRows));
  const b = blockOnBase(old, built, version, edgeType);
  carryColumns(b, old, built.order, 0, built.n, fill);
  sealColumns(b);
  return b;
}
