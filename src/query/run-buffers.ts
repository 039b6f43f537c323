/**
 * Typed arrays sized by a run's vertex index space (marks, dense accumulator cells), kept for reuse
 * by later runs: allocating and zeroing them per run would cost a small query more than its work.
 * Mark arrays are handed out zeroed and come back zeroed: a SELECT clears the cells it marked (the
 * lists it collected say which), and a run that ended with some uncleared is zeroed on release.
 */

import { fillCells } from './shared-fill.js';

const KEEP = 16;
/**
 * A run's result lists of at least this many cells come from the kept arrays (RunBuffers's
 * resultList), at most `perRun` of them per run: a fresh list of 445,000 run indexes (a 3-hop's
 * last hop on RMAT 2^20) cost 0.6 ms to write, nearly all of it the first touch of its pages, a
 * kept one 0.05 ms. Smaller lists, and those of a run that holds `perRun` already (a long
 * WHILE loop), are made fresh and left to the garbage collector.
 */
export const resultLists = { min: 4096, perRun: 8 };
/** Set on a query worker thread: run arrays live in shared memory, readable by helper threads. */
let shared = false;

/** Makes this thread's runs allocate their arrays in shared memory (see parallel.ts). */
export function shareRunArrays(): void {
  shared = true;
}

type ArrayCtor<A> = new (b: ArrayBufferLike | number) => A;

function alloc<A extends Int32Array | Float64Array | Float32Array | Uint8Array>(
  ctor: ArrayCtor<A> & { BYTES_PER_ELEMENT: number },
): (n: number) => A {
  return (n) => (shared ? new ctor(new SharedArrayBuffer(n * ctor.BYTES_PER_ELEMENT)) : new ctor(n));
}
const newMarks = alloc(Uint8Array);
const newInt32 = alloc(Int32Array);
const newFloat64 = alloc(Float64Array);
const newFloat32 = alloc(Float32Array);
const freeMarks: Uint8Array[] = [];
const freeInt32: Int32Array[] = [];
const freeFloat64: Float64Array[] = [];
const freeUint8: Uint8Array[] = [];
const freeFloat32: Float32Array[] = [];
let lastStamp = 0;

function take<A extends Int32Array | Float64Array | Float32Array | Uint8Array>(
  free: A[],
  n: number,
  make: (n: number) => A,
): A {
  const i = free.findIndex((a) => a.length >= n);
  if (i < 0) return make(Math.max(n, 1));
  const [a] = free.splice(i, 1);
  return a;
}

function giveBack<A extends Int32Array | Float64Array | Float32Array | Uint8Array>(free: A[], a: A): void {
  if (free.length >= KEEP) free.shift();
  free.push(a);
}

/**
 * A list of exactly `count` run indexes that helper threads can read without another copy (shared
 * memory on a query worker, see shareRunArrays): a SELECT's result is the next SELECT's sources,
 * so it is written once, into the list the SELECT returns.
 */
export function newGidList(count: number): Int32Array {
  return shared ? newInt32(Math.max(1, count)).subarray(0, count) : new Int32Array(count);
}

/** A copy of `list[0..count)` as a new list (`make`). */
export function gidList(list: Int32Array, count: number, make: NewList = newGidList): Int32Array {
  const out = make(count);
  out.set(list.subarray(0, count));
  return out;
}

/** Makes a list of exactly n cells that helper threads can read (newGidList, or a run's resultList). */
export type NewList = (n: number) => Int32Array;

/**
 * The pieces `list[bounds[p] .. bounds[p] + counts[p])`, in order, as one new list (`make`): a
 * split's partitions list their targets where their range starts (parallel.ts), and the result is
 * made from them in one copy instead of moving them together in place and copying them again.
 */
export function piecesList(
  list: Int32Array,
  bounds: readonly number[],
  counts: Int32Array,
  make: NewList = newGidList,
): Int32Array {
  let count = 0;
  for (let p = 0; p + 1 < bounds.length; p++) count += counts[p];
  const out = make(count);
  let n = 0;
  for (let p = 0; p + 1 < bounds.length; p++) {
    out.set(list.subarray(bounds[p], bounds[p] + counts[p]), n);
    n += counts[p];
  }
  return out;
}

/**
 * Per live-row list of the snapshot (the store keeps one per vertex type and version) and first
 * run index: the type's run indexes, ascending, shared with helper threads. Kept while the row
 * list lives, so a loop of runs over one snapshot (`{T.*}`) builds it once.
 */
const typeLists = new WeakMap<Uint32Array, { base: number; gids: Int32Array }>();

/** `base + rows[i]` for every row, as a list to be read only (see typeLists). */
export function typeGidList(rows: Uint32Array, base: number): Int32Array {
  const known = typeLists.get(rows);
  if (known !== undefined && known.base === base) return known.gids;
  const gids = newInt32(Math.max(1, rows.length)).subarray(0, rows.length);
  for (let i = 0; i < rows.length; i++) gids[i] = base + rows[i];
  typeLists.set(rows, { base, gids });
  return gids;
}

/**
 * `list` itself when helper threads can read it as it is (shared memory, or not a query worker),
 * else a copy they can: a SELECT that keeps its sources as they are returns them as its result.
 */
export function readableList(list: Int32Array): Int32Array {
  return !shared || list.buffer instanceof SharedArrayBuffer ? list : gidList(list, list.length);
}

/** A number no recent SELECT used (`@x'` and snapshots tell their SELECT's cells apart by it). */
export function newStamp(): number {
  if (lastStamp === 0x7fffffff) lastStamp = 0;
  return ++lastStamp;
}

/** The arrays one run borrows; `release` returns them when the run ends. */
export class RunBuffers {
  private readonly markArrays: Uint8Array[] = [];
  private readonly ints: Int32Array[] = [];
  private readonly floats: Float64Array[] = [];
  private readonly bytes: Uint8Array[] = [];
  private readonly floats32: Float32Array[] = [];

  private listsTaken = 0;

  /**
   * A SELECT's result list of exactly `n` cells (as newGidList), valid until the run ends: a large
   * one is a view of a kept array of at least `limit` cells (see resultLists), so a vertex set
   * must not outlive its run (a subquery's RETURN value is copied before its run ends).
   */
  resultList(n: number, limit: number): Int32Array {
    if (n < resultLists.min || this.listsTaken >= resultLists.perRun) return newGidList(n);
    this.listsTaken++;
    const a = take(freeInt32, n, (m) => newInt32(Math.max(m, limit)));
    this.ints.push(a);
    return a.subarray(0, n);
  }

  /** A zeroed Uint8Array of at least n cells, to be returned zeroed (see release). */
  marks(n: number): Uint8Array {
    const a = take(freeMarks, n, newMarks);
    this.markArrays.push(a);
    return a;
  }

  /** An Int32Array of at least n cells with arbitrary contents. */
  int32Cells(n: number): Int32Array {
    const a = take(freeInt32, n, newInt32);
    this.ints.push(a);
    return a;
  }

  /** A Float64Array of at least n cells with arbitrary contents. */
  cells(n: number): Float64Array {
    const a = take(freeFloat64, n, newFloat64);
    this.floats.push(a);
    return a;
  }

  /** A Float32Array of at least n cells with arbitrary contents. */
  float32Cells(n: number): Float32Array {
    const a = take(freeFloat32, n, newFloat32);
    this.floats32.push(a);
    return a;
  }

  /** A Uint8Array of at least n cells with arbitrary contents. */
  byteCells(n: number): Uint8Array {
    const a = take(freeUint8, n, newMarks);
    this.bytes.push(a);
    return a;
  }

  /** Returns the arrays to the pool; `marksDirty`: some marks were not cleared, so zero them. */
  release(marksDirty: boolean): void {
    for (const a of this.markArrays) giveBack(freeMarks, marksDirty ? fillCells(a, 0) : a);
    for (const a of this.ints) giveBack(freeInt32, a);
    for (const a of this.floats) giveBack(freeFloat64, a);
    for (const a of this.bytes) giveBack(freeUint8, a);
    for (const a of this.floats32) giveBack(freeFloat32, a);
    this.floats32.length = 0;
    this.listsTaken = 0;
    this.bytes.length = 0;
    this.markArrays.length = 0;
    this.ints.length = 0;
    this.floats.length = 0;
  }
}
