/**
 * Calls of GSQL functions, `lib.sub.f(args)`: parsed as a method call on `lib.sub`, they are
 * function calls when the name before the first dot is not a variable of the query.
 */
import type { Expr } from '../gsql/ast-query.js';
import { compileError } from './errors.js';
import { compileSubqueryCall } from './functions.js';
import type { Cx, Typed } from './scope.js';

/** `a.b` for a chain of names and fields, undefined for anything else. */
function dottedPath(e: Expr): string | undefined {
  if (e.kind === 'name') return e.name;
  if (e.kind === 'field') {
    const left = dottedPath(e.target);
    return left === undefined ? undefined : `${left}.${e.name}`;
  }
  return undefined;
}

/** The call of a GSQL function, or undefined when `e` is an ordinary method call. */
export function compileFunctionCall(cx: Cx, e: Expr & { kind: 'method' }): Typed | undefined {
  const path = dottedPath(e.target);
  if (path === undefined || !cx.resolveFunction) return undefined;
  if (cx.lookup(path.split('.')[0])) return undefined;
  const name = `${path}.${e.name}`;
  const fn = cx.resolveFunction(name);
  if (fn) return compileSubqueryCall(cx, fn, e.args, e.pos, 'function');
  if (cx.catalog.packages?.includes(path)) throw compileError(e.pos, `unknown function ${name}()`);
  return undefined;
}
