/**
 * ArrayAccum: an array (one or more dimensions) of accumulators of one type, declared
 * `ArrayAccum<SumAccum<INT>> @@a[3][4];` (or `[]`, size set later), updated cell by cell
 * (`@@a[1][2] += 5`) or as a whole: `=` takes another array's sizes, dimensions and values, `+=`
 * adds another array of the same sizes cell by cell.
 */
import type { Accum } from './accumulators.js';
import { QueryRuntimeError } from './values.js';

/** Nested arrays whose leaves are the cells' accumulators. */
type Cells = Accum | Cells[];

export class ArrayAccum implements Accum {
  private cells: Cells[] = [];

  constructor(
    private readonly makeCell: () => Accum,
    private sizes: number[],
  ) {
    this.reallocate(sizes);
  }

  /** Discards every cell and builds fresh ones with new sizes (GSQL's `reallocate`). */
  reallocate(sizes: number[]): void {
    for (const n of sizes) {
      if (!Number.isInteger(n) || n < 0)
        throw new QueryRuntimeError(
          `Runtime Error: an ArrayAccum size must be a non-negative integer, not ${n}.`,
        );
    }
    this.sizes = sizes;
    const build = (d: number): Cells[] =>
      Array.from({ length: sizes[d] }, () => (d + 1 === sizes.length ? this.makeCell() : build(d + 1)));
    this.cells = sizes.length === 0 ? [] : build(0);
  }

  /** The accumulator of one cell; an index outside the array stops the query. */
  cell(index: number[]): Accum {
    if (index.length !== this.sizes.length) {
      throw new QueryRuntimeError(
        `Runtime Error: this ArrayAccum has ${this.sizes.length} dimensions, but ${index.length} indexes are given.`,
      );
    }
    let level: Cells = this.cells;
    for (let d = 0; d < index.length; d++) {
      const i = index[d];
      const arr = level as Cells[];
      if (!Number.isInteger(i) || i < 0 || i >= arr.length) {
        throw new QueryRuntimeError(
          `Runtime Error: index ${i} is out of range [0, ${arr.length}) of an ArrayAccum.`,
          'GSQL-2620',
        );
      }
      level = arr[i];
    }
    return level as Accum;
  }

  /** The size of the first dimension. */
  size(): number {
    return this.cells.length;
  }

  /** The sizes of every dimension. */
  dimensions(): readonly number[] {
    return this.sizes;
  }

  /** `+=` of a whole array: each cell of `o` is added into this array's cell at the same place. */
  add(o: unknown): void {
    const other = o as ArrayAccum;
    if (other.sizes.join() !== this.sizes.join()) {
      throw new QueryRuntimeError(
        `Runtime Error: ArrayAccums of sizes [${this.sizes.join('][')}] and [${other.sizes.join('][')}] cannot be combined cell by cell.`,
      );
    }
    const src: Accum[] = [];
    other.map((a) => src.push(a));
    let i = 0;
    this.map((a) => a.add(src[i++].value()));
  }

  /** `=` of a whole array: this one takes the other's sizes, dimensions and values. */
  set(o: unknown): void {
    const other = o as ArrayAccum;
    const src: Accum[] = [];
    other.map((a) => src.push(a));
    this.reallocate([...other.sizes]);
    let i = 0;
    this.map((a) => a.set(src[i++].value()));
  }

  /** A new array with this one's sizes and values, then `o` added cell by cell (`A + B`). */
  plus(o: ArrayAccum): ArrayAccum {
    const r = new ArrayAccum(this.makeCell, []);
    r.set(this);
    r.add(o);
    return r;
  }

  value(): unknown {
    return this.map((a) => a.value());
  }

  /** The cells' nested structure with fn applied to each cell. */
  map<R>(fn: (a: Accum) => R): unknown[] {
    const walk = (c: Cells): unknown => (Array.isArray(c) ? c.map(walk) : fn(c));
    return this.cells.map(walk);
  }

  fresh(): Accum {
    return new ArrayAccum(this.makeCell, this.sizes);
  }
}
