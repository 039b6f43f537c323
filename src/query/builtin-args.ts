/**
 * Helpers shared by the built-in functions and methods: argument counts and typed arguments.
 */
import type { Expr } from '../gsql/ast-query.js';
import { compileExpr, expectType } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx, Eval } from './scope.js';
import { isNumeric, typeText, type QType } from './types.js';
import { toNumber } from './values.js';

export type Call = Expr & { kind: 'call' };
export type Method = Expr & { kind: 'method' };

export function arity(e: Call | Method, min: number, max = min): void {
  if (e.args.length < min || e.args.length > max) {
    const n = min === max ? `${min}` : `${min} to ${max}`;
    throw compileError(e.pos, `${e.name}() takes ${n} argument${max === 1 ? '' : 's'}, not ${e.args.length}`);
  }
}

export function num(cx: Cx, e: Expr): (ctx: RunContext) => number {
  const x = compileExpr(cx, e);
  if (!isNumeric(x.t)) throw compileError(e.pos, `a number is needed here, not ${typeText(x.t)}`);
  const f = x.f;
  return (ctx) => toNumber(f(ctx));
}

export function typed(cx: Cx, e: Expr, t: QType, what: string): Eval {
  const x = compileExpr(cx, e);
  expectType(x, t, e.pos, what);
  return x.f;
}
