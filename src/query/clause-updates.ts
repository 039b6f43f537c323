/**
 * Accumulator updates of one ACCUM/POST-ACCUM clause that wait for the clause's end (GSQL's
 * map-reduce semantics). Updates of dense vertex accumulators are kept as (column, cell, value)
 * entries in growing typed arrays rather than one closure each; each accumulator's (and
 * variable's) updates keep their order.
 */
import type { Accum } from './accumulators.js';
import type { DenseColumn } from './accum-dense.js';

const ADD = 1;
/** The value is in `boxed` (not a number). */
const BOXED = 2;

export class ClauseUpdates {
  private readonly accums: Accum[] = [];
  private readonly values: unknown[] = [];
  private readonly adds: boolean[] = [];
  private readonly actions: (() => void)[] = [];
  private cols: DenseColumn[] = [];
  private cells = new Int32Array(256);
  private nums = new Float64Array(256);
  private flags = new Uint8Array(256);
  private readonly boxed = new Map<number, unknown>();
  private n = 0;

  /** An update of an accumulator object. */
  push(a: Accum, add: boolean, v: unknown): void {
    this.accums.push(a);
    this.adds.push(add);
    this.values.push(v);
  }

  /** An update of cell g of a dense column. */
  pushDense(col: DenseColumn, g: number, add: boolean, v: unknown): void {
    const i = this.n++;
    if (i === this.cells.length) this.grow();
    this.cols.push(col);
    this.cells[i] = g;
    if (typeof v === 'number') {
      this.nums[i] = v;
      this.flags[i] = add ? ADD : 0;
    } else {
      this.boxed.set(i, v);
      this.flags[i] = (add ? ADD : 0) | BOXED;
    }
  }

  private grow(): void {
    const n = this.cells.length * 2;
    const cells = new Int32Array(n);
    cells.set(this.cells);
    this.cells = cells;
    const nums = new Float64Array(n);
    nums.set(this.nums);
    this.nums = nums;
    const flags = new Uint8Array(n);
    flags.set(this.flags);
    this.flags = flags;
  }

  /** Any other change that waits for the clause's end (a query variable's assignment). */
  later(action: () => void): void {
    this.actions.push(action);
  }

  /** Applies every update in arrival order. */
  apply(): void {
    const { cols, cells, nums, flags } = this;
    for (let i = 0; i < this.n; i++) {
      const f = flags[i];
      const v = (f & BOXED) === 0 ? nums[i] : this.boxed.get(i);
      if ((f & ADD) !== 0) cols[i].add(cells[i], v);
      else cols[i].set(cells[i], v);
    }
    const { accums, adds, values } = this;
    for (let i = 0; i < accums.length; i++) {
      if (adds[i]) accums[i].add(values[i]);
      else accums[i].set(values[i]);
    }
    for (const a of this.actions) a();
  }
}
