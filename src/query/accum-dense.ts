/**
 * Vertex-attached SumAccum, MinAccum and MaxAccum over INT/UINT/FLOAT/DOUBLE and OrAccum/AndAccum,
 * kept for one run in one Float64Array indexed by the vertex's run index (`Vtx.gid`, see
 * RunContext.base) instead of one
 * object per vertex: an update in a SELECT touches one array cell, not a chain of objects.
 *
 * Integer cells hold safe integers; MinAccum/MaxAccum<INT|UINT> cells are 32-bit (half the memory a
 * label-propagation pass reads at random). A cell its array cannot hold (a sum past ±2^53, a
 * Min/MaxAccum value outside the 32-bit range or still at its 64-bit initial value) holds the spill
 * mark (NaN, or INT32_SPILL in a 32-bit column), and its accumulator object lives in `spill`
 * (absent: the declared initial state). Floating-point cells never spill, so NaN is an ordinary
 * value there.
 */
import type { Accum } from './accumulators.js';
import type { AccumT } from './types.js';
import { fillCells } from './shared-fill.js';
import { toNumber } from './values.js';

export const enum DenseKind {
  SumFloat,
  SumFloat32,
  MinFloat,
  MaxFloat,
  SumInt,
  MinInt,
  MaxInt,
  Or,
  And,
}

/** The dense kind of an accumulator type, or undefined when its values are not plain numbers. */
export function denseKind(t: AccumT): DenseKind | undefined {
  const e = t.elem.kind;
  const float = e === 'FLOAT' || e === 'DOUBLE';
  const int = e === 'INT' || e === 'UINT';
  switch (t.accum) {
    case 'SumAccum':
      return e === 'FLOAT'
        ? DenseKind.SumFloat32
        : float
          ? DenseKind.SumFloat
          : int
            ? DenseKind.SumInt
            : undefined;
    case 'MinAccum':
      return float ? DenseKind.MinFloat : int ? DenseKind.MinInt : undefined;
    case 'MaxAccum':
      return float ? DenseKind.MaxFloat : int ? DenseKind.MaxInt : undefined;
    case 'OrAccum':
      return DenseKind.Or;
    case 'AndAccum':
      return DenseKind.And;
    default:
      return undefined;
  }
}

/** The typed array of a dense column's cells. */
export type Cells = Float64Array | Float32Array | Int32Array | Uint8Array;

/** The spill mark of a 32-bit integer column (the one 32-bit value it does not store). */
export const INT32_SPILL = -2147483648;

/** Which typed array a kind's cells live in. */
export function cellArray(kind: DenseKind): 'f64' | 'f32' | 'i32' | 'u8' {
  if (kind === DenseKind.Or || kind === DenseKind.And) return 'u8';
  if (kind === DenseKind.MinInt || kind === DenseKind.MaxInt) return 'i32';
  return kind === DenseKind.SumFloat32 ? 'f32' : 'f64';
}

function newCells(kind: DenseKind, n: number): Cells {
  const a = cellArray(kind);
  return a === 'u8'
    ? new Uint8Array(n)
    : a === 'f32'
      ? new Float32Array(n)
      : a === 'i32'
        ? new Int32Array(n)
        : new Float64Array(n);
}

/**
 * Snapshot cells for `like`'s, `n` of them, in shared memory when `shared`: bytes and 32-bit
 * integers as they are, others as doubles (a FLOAT column's initial state is kept unrounded).
 */
function snapshotCells(like: Cells, n: number, shared: boolean): Cells {
  const buffer = (bytes: number): ArrayBuffer | SharedArrayBuffer =>
    shared ? new SharedArrayBuffer(n * bytes) : new ArrayBuffer(n * bytes);
  if (like instanceof Uint8Array) return new Uint8Array(buffer(1));
  if (like instanceof Int32Array) return new Int32Array(buffer(4));
  return new Float64Array(buffer(8));
}

/** Cells per chunk: a chunk is filled with the initial state when first written. */
const CHUNK_BITS = 10;

export class DenseColumn {
  /**
   * The cells; those of chunks not yet `ready` hold leftovers of an earlier run. OrAccum/AndAccum
   * cells are bytes (0/1) and SumAccum<FLOAT> cells 32-bit floats (its values are rounded to
   * FLOAT anyway): denser cells where a traversal touches one per edge.
   */
  vals: Cells;
  /** Per chunk of 1,024 cells: 1 once the chunk holds real values (select-kernel.ts reads it inline). */
  ready: Uint8Array;
  /**
   * For `@x'`: per cell, the stamp of the SELECT that last changed it and the value it had before
   * that SELECT (null when the query never reads `@x'`). An integer cell that had spilled keeps
   * its spill mark there and its value in `prevSpill`.
   */
  prevAt: Int32Array | null = null;
  prevVals: Float64Array | null = null;
  private readonly prevSpill = new Map<number, unknown>();
  /**
   * A copy-on-write snapshot for a clause that reads what it updates (select-kernel.ts): per chunk,
   * the stamp of the SELECT whose clause copied it, the copied cells (bytes and 32-bit integers in
   * an array of their own kind: a copy is a move of bytes, half or an eighth of doubles), and the
   * values of copied integer cells that had spilled.
   */
  snapAt: Int32Array | null = null;
  snapVals: Cells | null = null;
  private readonly snapSpill = new Map<number, unknown>();
  /** Integer cells whose value is not a safe integer (their cell is NaN). */
  private readonly spill = new Map<number, Accum>();
  /**
   * Per chunk, at least the number of its cells that hold the spill mark (an integer column's): a
   * snapshot looks for spilled cells only in chunks that may have one (WCC's `@cc`, every cell
   * set by `getvid`, took a 1.2 ms search of its million cells per round). Only the column's own
   * methods write the mark (the kernels' inline updates never overwrite a cell holding it); a
   * count may stay high (a helper's update of a spilled cell), never low.
   */
  private marked: Int32Array;
  /** Chunks prepare() filled one at a time. */
  private chunksFilled = 0;
  /** The stored form of the initial state (NaN when it needs an object). */
  readonly init: number;
  private readonly bool: boolean;
  private readonly int: boolean;
  /** Cells are 32-bit integers (spill mark INT32_SPILL instead of NaN). */
  private readonly i32: boolean;

  constructor(
    readonly kind: DenseKind,
    /** Creates one accumulator in the declared initial state. */
    readonly make: () => Accum,
    /** Reused cells, at least as many as the run's vertex index limit (bytes for the boolean kinds). */
    cells: Cells,
  ) {
    this.bool = kind === DenseKind.Or || kind === DenseKind.And;
    this.int = kind === DenseKind.SumInt || kind === DenseKind.MinInt || kind === DenseKind.MaxInt;
    this.i32 = cellArray(kind) === 'i32';
    this.init = this.encode(make().value());
    this.vals = cells;
    this.ready = new Uint8Array((cells.length >> CHUNK_BITS) + 1);
    this.marked = new Int32Array(this.ready.length);
  }

  /** Chunk c was filled with the initial state: every cell holds the mark when that spills. */
  private filled(c: number): void {
    this.marked[c] = this.int && this.spilled(this.init) ? 1 << CHUNK_BITS : 0;
  }

  /** Whether the cells are in shared memory (a run on a query worker): its other arrays are too. */
  private get shared(): boolean {
    return this.vals.buffer instanceof SharedArrayBuffer;
  }

  /** Keeps previous values for `@x'`. */
  keepPrevious(): void {
    const n = this.vals.length;
    this.prevAt = this.shared ? new Int32Array(new SharedArrayBuffer(n * 4)) : new Int32Array(n);
    this.prevVals = this.shared ? new Float64Array(new SharedArrayBuffer(n * 8)) : new Float64Array(n);
  }

  /** Before cell g first changes in the SELECT with `stamp`: keeps its value for `@x'`. */
  remember(g: number, stamp: number): void {
    const at = this.prevAt!;
    if (at[g] === stamp) return;
    at[g] = stamp;
    const x = g < this.vals.length && this.ready[g >> CHUNK_BITS] === 1 ? this.vals[g] : this.init;
    this.prevVals![g] = x;
    if (this.int && this.spilled(x)) this.prevSpill.set(g, this.get(g));
  }

  /** Makes room for snapshots (once per run). */
  ensureSnapshot(): void {
    if (this.snapAt !== null) return;
    this.snapAt = new Int32Array(this.ready.length);
    this.snapVals = snapshotCells(this.vals, this.vals.length, this.shared);
  }

  /**
   * The cells whose values live in objects (spilled): current values, `@x'` values and snapshot
   * values, by cell (a thread that ran part of a clause hands its own over, see parallel.ts).
   */
  spills(): { spill: [number, unknown][]; prev: [number, unknown][]; snap: [number, unknown][] } {
    return {
      spill: [...this.spill].map(([g, a]) => [g, a.value()]),
      prev: [...this.prevSpill],
      snap: [...this.snapSpill],
    };
  }

  /** Takes over spilled cells another thread's column has (see spills). */
  adoptSpills(s: { spill: [number, unknown][]; prev: [number, unknown][]; snap: [number, unknown][] }): void {
    for (const [g, v] of s.spill) {
      const a = this.make();
      a.set(v);
      this.spill.set(g, a);
      // Its cell holds the mark now (the helper wrote it); counted again if it held it already.
      if (g >> CHUNK_BITS < this.marked.length) this.marked[g >> CHUNK_BITS]++;
    }
    for (const [g, v] of s.prev) this.prevSpill.set(g, v);
    for (const [g, v] of s.snap) this.snapSpill.set(g, v);
  }

  /**
   * A column over another thread's shared arrays, every chunk ready (a helper running part of a
   * wide kernel's clause, which its owner prepared: see parallel.ts).
   */
  static over(
    kind: DenseKind,
    make: () => Accum,
    arrays: {
      vals: Cells;
      prevAt: Int32Array | null;
      prevVals: Float64Array | null;
      snapVals: Cells | null;
    },
  ): DenseColumn {
    const c = new DenseColumn(kind, make, arrays.vals);
    c.ready.fill(1);
    // The owner filled the chunks: any cell may hold the mark.
    c.marked.fill(1 << CHUNK_BITS);
    c.prevAt = arrays.prevAt;
    c.prevVals = arrays.prevVals;
    // The owner took the snapshot whole (a wide kernel reads no chunk stamps): keep its copy.
    c.snapVals = arrays.snapVals;
    if (arrays.snapVals !== null) c.snapAt = new Int32Array(c.ready.length);
    return c;
  }

  /** Before chunk c first changes in the clause with `stamp`: keeps a copy of it for the clause's reads. */
  snapshotChunk(c: number, stamp: number): void {
    this.snapAt![c] = stamp;
    const from = c << CHUNK_BITS;
    const to = Math.min(this.vals.length, from + (1 << CHUNK_BITS));
    const snap = this.snapVals!;
    if (this.ready[c] === 0) {
      fillCells(snap, this.init, from, to);
      if (this.int && this.spilled(this.init))
        for (let g = from; g < to; g++) this.snapSpill.set(g, this.make().value());
      return;
    }
    snap.set(this.vals.subarray(from, to), from);
    if (this.int) this.keepSpilledSnapshots(from, to);
  }

  /**
   * Keeps the values of the cells in `[from, to)` that had spilled, for snapshotValue. No other
   * thread writes the cells meanwhile, so a chunk searched whole gets its exact count (a helper's
   * updates, as a split `getvid` pass, leave the owner's counts high until then).
   */
  private keepSpilledSnapshots(from: number, to: number): void {
    const n = this.vals.length;
    for (let c = from >> CHUNK_BITS; c << CHUNK_BITS < to; c++) {
      if (this.marked[c] === 0) continue;
      const lo = Math.max(from, c << CHUNK_BITS);
      const hi = Math.min(to, n, (c + 1) << CHUNK_BITS);
      const found = this.keepSpilledIn(lo, hi);
      if (lo === c << CHUNK_BITS && hi === Math.min(n, (c + 1) << CHUNK_BITS)) this.marked[c] = found;
    }
  }

  /** keepSpilledSnapshots within one chunk: how many cells there had spilled. */
  private keepSpilledIn(from: number, to: number): number {
    const vals = this.vals;
    let found = 0;
    if (vals instanceof Int32Array) {
      // A native search for the 32-bit spill mark: most snapshots have no spilled cell at all.
      const part = vals.subarray(from, to);
      for (let i = part.indexOf(INT32_SPILL); i >= 0; i = part.indexOf(INT32_SPILL, i + 1), found++)
        this.snapSpill.set(from + i, this.get(from + i));
      return found;
    }
    for (let g = from; g < to; g++)
      if (this.spilled(vals[g])) {
        this.snapSpill.set(g, this.get(g));
        found++;
      }
    return found;
  }

  /**
   * Fills every chunk not written yet with the initial state (every cell then holds its value),
   * each run of such chunks in one fill: a call per chunk cost more than its kilobyte of cells
   * (a 3-hop's `@visited` on RMAT 2^20: 1,024 calls, about 0.8 ms, against 0.12 ms for one).
   */
  prepareAll(): void {
    const ready = this.ready;
    let c = 0;
    while (c < ready.length) {
      if (ready[c] === 1) {
        c++;
        continue;
      }
      let end = c + 1;
      while (end < ready.length && ready[end] === 0) end++;
      fillCells(this.vals, this.init, c << CHUNK_BITS, Math.min(this.vals.length, end << CHUNK_BITS));
      for (; c < end; c++) {
        ready[c] = 1;
        this.filled(c);
      }
    }
  }

  /**
   * Takes the snapshot of every chunk at once, for a clause that will touch most of them. The
   * values of spilled cells are kept only within `reads` (run-index ranges), the cells the clause
   * may read: the cells of vertex types it does not reach may still hold a spilled initial state
   * (WCC's `@cc` of the graph's other types), and keeping each costs a map entry per snapshot and
   * rules the split by sources out (parallel.ts).
   */
  snapshotAll(stamp: number, reads: readonly (readonly [number, number])[] = [[0, Infinity]]): void {
    this.ensureSnapshot();
    this.prepareAll();
    const snap = this.snapVals!;
    snap.set(this.vals.length === snap.length ? this.vals : this.vals.subarray(0, snap.length));
    this.snapAt!.fill(stamp);
    if (this.int)
      for (const [from, to] of reads)
        if (from < Math.min(to, snap.length)) this.keepSpilledSnapshots(from, Math.min(to, snap.length));
  }

  /** The snapshot value of an integer cell that had spilled (its snapshot cell is NaN). */
  snapshotValue(g: number): unknown {
    return this.snapSpill.get(g);
  }

  /** `@x'`: the value before the SELECT with `stamp` changed cell g, else its value. */
  previous(g: number, stamp: number): unknown {
    if (this.prevAt![g] !== stamp) return this.get(g);
    const x = this.prevVals![g];
    if (this.bool) return x === 1;
    return this.int && this.spilled(x) ? this.prevSpill.get(g) : x;
  }

  /** Whether an integer cell's stored number (or a copy of it) is the spill mark. */
  private spilled(x: number): boolean {
    return this.i32 ? x === INT32_SPILL : x !== x;
  }

  /** Whether an integer cell can store the number v as it is. */
  private fits(v: number): boolean {
    return this.i32 ? (v | 0) === v && v !== INT32_SPILL : Number.isSafeInteger(v);
  }

  /** The stored number for a value, the spill mark when an integer cell must spill. */
  private encode(v: unknown): number {
    if (this.bool) return v === true ? 1 : 0;
    if (this.int) return typeof v === 'number' && this.fits(v) ? v : this.i32 ? INT32_SPILL : NaN;
    return typeof v === 'number' ? v : toNumber(v);
  }

  /** Makes cell g writable: fills its chunk with the initial state first (and grows if needed). */
  prepare(g: number): void {
    if (g >= this.vals.length) {
      const n = Math.max(g + 1, this.vals.length * 2);
      const next = newCells(this.kind, n);
      next.set(this.vals);
      this.vals = next;
      const ready = new Uint8Array((next.length >> CHUNK_BITS) + 1);
      ready.set(this.ready);
      this.ready = ready;
      const marked = new Int32Array(ready.length);
      marked.set(this.marked);
      this.marked = marked;
    }
    const c = g >> CHUNK_BITS;
    if (this.ready[c] === 0) {
      // A SELECT that writes cells all over (a 3-hop's second hop marks 36,000 targets among a
      // million) fills the rest at once after a sixteenth of the chunks came one by one.
      if (++this.chunksFilled > this.ready.length >> 4) {
        this.prepareAll();
        return;
      }
      this.ready[c] = 1;
      fillCells(this.vals, this.init, c << CHUNK_BITS, Math.min(this.vals.length, (c + 1) << CHUNK_BITS));
      this.filled(c);
    }
  }

  /** The value of cell g as the accumulator reads in an expression. */
  get(g: number): unknown {
    const x = g < this.vals.length && this.ready[g >> CHUNK_BITS] === 1 ? this.vals[g] : this.init;
    if (this.bool) return x === 1;
    if (!this.int || !this.spilled(x)) return x;
    return this.object(g, x).value();
  }

  /** `+=`. */
  add(g: number, v: unknown): void {
    if (g >= this.vals.length || this.ready[g >> CHUNK_BITS] === 0) this.prepare(g);
    const vals = this.vals;
    const cur = vals[g];
    switch (this.kind) {
      case DenseKind.SumFloat:
        vals[g] = cur + (typeof v === 'number' ? v : toNumber(v));
        return;
      case DenseKind.SumFloat32:
        vals[g] = Math.fround(cur + (typeof v === 'number' ? v : toNumber(v)));
        return;
      case DenseKind.MinFloat:
        // MinAccum compares with compareValues: NaN on either side changes nothing.
        if (typeof v === 'number' && v < cur) vals[g] = v;
        return;
      case DenseKind.MaxFloat:
        if (typeof v === 'number' && v > cur) vals[g] = v;
        return;
      case DenseKind.Or:
        if (v === true) vals[g] = 1;
        return;
      case DenseKind.And:
        if (v !== true) vals[g] = 0;
        return;
      case DenseKind.SumInt:
        if (typeof v === 'number' && cur === cur) {
          const r = cur + Math.trunc(v);
          if (Number.isSafeInteger(r)) {
            vals[g] = r;
            return;
          }
        }
        break;
      case DenseKind.MinInt:
        if (typeof v === 'number' && !this.spilled(cur)) {
          if (!(v < cur)) return;
          if (this.fits(v)) {
            vals[g] = v;
            return;
          }
        }
        break;
      case DenseKind.MaxInt:
        if (typeof v === 'number' && !this.spilled(cur)) {
          if (!(v > cur)) return;
          if (this.fits(v)) {
            vals[g] = v;
            return;
          }
        }
        break;
    }
    const a = this.object(g, cur);
    a.add(v);
    this.store(g, a);
  }

  /** `=`. */
  set(g: number, v: unknown): void {
    if (g >= this.vals.length || this.ready[g >> CHUNK_BITS] === 0) this.prepare(g);
    if (this.bool) {
      this.vals[g] = v === true ? 1 : 0;
      return;
    }
    if (this.kind === DenseKind.SumFloat32) {
      this.vals[g] = Math.fround(typeof v === 'number' ? v : toNumber(v));
      return;
    }
    if (!this.int) {
      this.vals[g] = typeof v === 'number' ? v : toNumber(v);
      return;
    }
    if (typeof v === 'number' && this.fits(v)) {
      if (this.spilled(this.vals[g])) this.marked[g >> CHUNK_BITS]--;
      this.vals[g] = v;
      return;
    }
    const a = this.make();
    a.set(v);
    this.store(g, a);
  }

  /** The accumulator object of an integer cell (for the rare values a number cannot hold). */
  private object(g: number, cur: number): Accum {
    if (!this.spilled(cur)) {
      const a = this.make();
      a.set(cur);
      return a;
    }
    return this.spill.get(g) ?? this.make();
  }

  /** Keeps an updated integer accumulator: as a number when it is one, otherwise spilled. */
  private store(g: number, a: Accum): void {
    const x = this.encode(a.value());
    const was = this.spilled(this.vals[g]);
    this.vals[g] = x;
    if (!this.spilled(x)) this.spill.delete(g);
    else this.spill.set(g, a);
    if (was !== this.spilled(x)) this.marked[g >> CHUNK_BITS] += was ? -1 : 1;
  }

  /** An Accum view of cell g, for the code paths that work on accumulator objects. */
  cell(g: number): Accum {
    return new DenseCell(this, g);
  }
}

class DenseCell implements Accum {
  constructor(
    private readonly col: DenseColumn,
    private readonly g: number,
  ) {}
  add(v: unknown): void {
    this.col.add(this.g, v);
  }
  set(v: unknown): void {
    this.col.set(this.g, v);
  }
  value(): unknown {
    return this.col.get(this.g);
  }
  fresh(): Accum {
    return this.col.make();
  }
}
