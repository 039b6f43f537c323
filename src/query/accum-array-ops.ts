/**
 * Whole-array ArrayAccum expressions on the right of `@@a = …` / `@@a += …`: another global
 * ArrayAccum of the same cell type, or a sum `@@b + @@c (+ …)` of them (cell by cell, equal sizes).
 */
import type { Expr } from '../gsql/ast-query.js';
import { ArrayAccum } from './accum-array.js';
import { compileError } from './errors.js';
import type { Cx, Eval } from './scope.js';
import { typeText, type AccumT } from './types.js';

/** The closure of a whole-array value for target type `t`; undefined when `e` is not one. */
export function compileArrayValue(cx: Cx, t: AccumT, e: Expr): Eval | undefined {
  if (e.kind === 'global' && !e.index && !e.prev) {
    const g = cx.globals.get(e.name);
    if (!g || g.t.accum !== 'ArrayAccum') return undefined;
    const cell = typeText(g.t.elem);
    if (cell !== typeText(t.elem)) {
      throw compileError(
        e.pos,
        `@@${e.name} is an ArrayAccum of ${cell}, not of ${typeText(t.elem)}; whole arrays combine only with the same cell type`,
      );
    }
    const slot = g.slot;
    return (ctx) => ctx.vars[slot];
  }
  if (e.kind === 'binary' && e.op === '+') {
    const l = compileArrayValue(cx, t, e.left);
    const r = compileArrayValue(cx, t, e.right);
    if (!l || !r) return undefined;
    return (ctx) => (l(ctx) as ArrayAccum).plus(r(ctx) as ArrayAccum);
  }
  return undefined;
}
