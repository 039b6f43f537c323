/**
 * ArrayAccum: a fixed-size array (one or more dimensions) of accumulators of one type, declared
 * `ArrayAccum<SumAccum<INT>> @@a[3][4];` and updated cell by cell (`@@a[1][2] += 5`).
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

  add(): void {
    throw new QueryRuntimeError('Runtime Error: an ArrayAccum is updated one cell at a time.');
  }

  set(): void {
    throw new QueryRuntimeError('Runtime Error: an ArrayAccum is updated one cell at a time.');
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
