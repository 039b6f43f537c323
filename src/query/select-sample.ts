/**
 * SELECT's `SAMPLE n [%] EDGE WHEN cond`: for each source vertex for which cond holds, a uniform
 * random sample (without replacement) of the edges the FROM clause matches from it — n edges, or
 * n percent of them rounded to the nearest count (at least one) — instead of all of them. Where cond is false, all
 * edges are used. WHERE and ACCUM then see only the sampled rows.
 */
import type { SelectBlock } from '../gsql/ast-query.js';
import type { EdgeFilter, EdgeHandle } from '../engine/api.js';
import { compileExpr, expectType } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx, Eval } from './scope.js';
import { isInteger, T, typeText } from './types.js';
import { QueryRuntimeError, toNumber, type Vtx } from './values.js';

export interface Sampler {
  /** The rows to match from source s (bound to its alias): sampled, or all when WHEN is false. */
  pick(
    ctx: RunContext,
    s: Vtx,
    filters: readonly EdgeFilter[],
    targetTypes: Set<string> | undefined,
  ): EdgeHandle[];
}

/** Compiles a SELECT's SAMPLE clause (after its aliases are declared); undefined when it has none. */
export function compileSample(cx: Cx, spec: SelectBlock['sample'], oneHop: boolean): Sampler | undefined {
  if (!spec) return undefined;
  if (!oneHop) throw compileError(spec.pos, 'SAMPLE needs an edge step: FROM must be one edge step');
  const size = compileExpr(cx, spec.size);
  if (!isInteger(size.t)) {
    throw compileError(spec.size.pos, `the SAMPLE size must be an integer, not ${typeText(size.t)}`);
  }
  const when: Eval = cx.inClause('WHERE', () => {
    const c = compileExpr(cx, spec.when);
    expectType(c, T.BOOL, spec.when.pos, 'SAMPLE … WHEN');
    return c.f;
  });
  const sizeF = size.f;
  const percent = spec.percent;
  return {
    pick(ctx, s, filters, targetTypes) {
      const all: EdgeHandle[] = [];
      for (const f of filters) {
        for (const h of ctx.graph.edges(s.type, s.row, f)) {
          if (!targetTypes || targetTypes.has(h.tgtType)) all.push(h);
        }
      }
      if (when(ctx) !== true) return all;
      const n = toNumber(sizeF(ctx));
      if (!(n > 0)) {
        throw new QueryRuntimeError(`Runtime Error: the SAMPLE size must be a positive integer, not ${n}.`);
      }
      const k = percent ? Math.max(1, Math.round((all.length * Math.min(n, 100)) / 100)) : n;
      if (k >= all.length) return all;
      // A partial Fisher-Yates shuffle: the first k entries are a uniform sample.
      for (let i = 0; i < k; i++) {
        const j = i + Math.floor(Math.random() * (all.length - i));
        const t = all[i];
        all[i] = all[j];
        all[j] = t;
      }
      return all.slice(0, k);
    },
  };
}
