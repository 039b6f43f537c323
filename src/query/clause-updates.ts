/**
 * Accumulator updates of one ACCUM/POST-ACCUM clause that wait for the clause's end (GSQL's
 * map-reduce semantics). Updates of dense vertex accumulators are kept as (column, cell, value)
 * entries rather than one closure each; each accumulator's (and variable's) updates keep their order.
 */
import type { Accum } from './accumulators.js';
import type { DenseColumn } from './accum-dense.js';

export class ClauseUpdates {
  private readonly accums: Accum[] = [];
  private readonly values: unknown[] = [];
  private readonly adds: boolean[] = [];
  private readonly cols: DenseColumn[] = [];
  private readonly cells: number[] = [];
  private readonly denseValues: unknown[] = [];
  private readonly denseAdds: boolean[] = [];
  private readonly actions: (() => void)[] = [];

  /** An update of an accumulator object. */
  push(a: Accum, add: boolean, v: unknown): void {
    this.accums.push(a);
    this.adds.push(add);
    this.values.push(v);
  }

  /** An update of cell g of a dense column. */
  pushDense(col: DenseColumn, g: number, add: boolean, v: unknown): void {
    this.cols.push(col);
    this.cells.push(g);
    this.denseAdds.push(add);
    this.denseValues.push(v);
  }

  /** Any other change that waits for the clause's end (a query variable's assignment). */
  later(action: () => void): void {
    this.actions.push(action);
  }

  /** Applies every update in arrival order. */
  apply(): void {
    const { cols, cells, denseAdds, denseValues } = this;
    for (let i = 0; i < cols.length; i++) {
      if (denseAdds[i]) cols[i].add(cells[i], denseValues[i]);
      else cols[i].set(cells[i], denseValues[i]);
    }
    const { accums, adds, values } = this;
    for (let i = 0; i < accums.length; i++) {
      if (adds[i]) accums[i].add(values[i]);
      else accums[i].set(values[i]);
    }
    for (const a of this.actions) a();
  }
}
