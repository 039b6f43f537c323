/**
 * The end of a SELECT: HAVING, ORDER BY and LIMIT/OFFSET on its collected result (compile-select.ts;
 * a kernel applies HAVING itself and LIMIT without ORDER BY to run indexes).
 */
import type { RunContext } from './context.js';
import type { Eval } from './scope.js';
import { compareValues, toNumber, type Vtx } from './values.js';

export interface SelectEnd {
  having: Eval | undefined;
  order: readonly { f: Eval; desc: boolean }[];
  limit: Eval | undefined;
  offset: Eval | undefined;
  /** The slot of the alias the SELECT returns (HAVING and ORDER BY read it). */
  resultSlot: number;
}

export function selectFinish({ having, order, limit, offset, resultSlot }: SelectEnd): {
  /** The [from, to) of the result LIMIT and OFFSET keep, for a result of n vertices. */
  limitWindow: (ctx: RunContext, n: number) => [number, number];
  /** HAVING (unless the kernel applied it), ORDER BY and LIMIT on the collected result. */
  finish: (
    ctx: RunContext,
    result: Vtx[],
    bind: (slot: number, v: Vtx) => void,
    applyHaving: boolean,
  ) => Vtx[];
} {
  const limitWindow = (ctx: RunContext, n: number): [number, number] => {
    const from = offset ? Math.min(n, Math.max(0, toNumber(offset(ctx)))) : 0;
    const count = limit ? Math.max(0, toNumber(limit(ctx))) : n;
    return [from, Math.min(n, from + count)];
  };
  const finish = (
    ctx: RunContext,
    result: Vtx[],
    bind: (slot: number, v: Vtx) => void,
    applyHaving: boolean,
  ): Vtx[] => {
    let out = result;
    if (having && applyHaving) {
      out = out.filter((v) => {
        bind(resultSlot, v);
        return having(ctx) === true;
      });
    }
    if (order.length > 0) {
      const keyed = out.map((v) => {
        bind(resultSlot, v);
        return { v, keys: order.map((o) => o.f(ctx)) };
      });
      keyed.sort((a, b) => {
        for (let i = 0; i < order.length; i++) {
          const c = compareValues(a.keys[i], b.keys[i]);
          if (c !== 0) return order[i].desc ? -c : c;
        }
        return 0;
      });
      out = keyed.map((k) => k.v);
    }
    if (limit || offset) out = out.slice(...limitWindow(ctx, out.length));
    return out;
  };
  return { limitWindow, finish };
}
