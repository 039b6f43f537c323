/**
 * Edge-attached accumulators (`OrAccum EDGE @visited`): one accumulator per edge, for one query run.
 * An edge is named by its storage block (edge type with its FROM/TO vertex types) and its id there,
 * which is what tells it from every other edge, parallel edges with a discriminator included; so an
 * edge reached from either end, or through its reverse edge type, has one accumulator.
 */
import type { EdgeHandle } from '../engine/api.js';
import type { Accum } from './accumulators.js';
import type { AccumT } from './types.js';

/** Edge ids stay below 2^32 within a block, so block and id make one exact number key. */
const BLOCK_SPAN = 2 ** 32;

export class EdgeAccums {
  private readonly cells = new Map<number, Accum>();
  constructor(
    readonly name: string,
    readonly t: AccumT,
    /** A fresh accumulator with the declared initial value. */
    private readonly make: () => Accum,
  ) {}

  /** The accumulator of the edge, made on first use. */
  of(h: EdgeHandle): Accum {
    const key = h.block * BLOCK_SPAN + h.eid;
    let a = this.cells.get(key);
    if (a === undefined) this.cells.set(key, (a = this.make()));
    return a;
  }

  /** The value of the edge's accumulator; an edge never updated reads the initial value. */
  value(h: EdgeHandle): unknown {
    return (this.cells.get(h.block * BLOCK_SPAN + h.eid) ?? this.make()).value();
  }
}
