/**
 * A GSQL boolean expression over the attributes of one vertex or edge type, checked and compiled by
 * the query compiler and evaluated per element (GraphQL's whereExpr). Each attribute is bound as a
 * read-only variable of its GSQL type; only the attributes the expression names are read.
 */
import type { Attribute, Catalog } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { Expr } from '../gsql/ast-query.js';
import './compile-expr.js';
import { compileExpr, fromStored } from './expr-support.js';
import { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { QueryGraph } from './graph.js';
import { Cx } from './scope.js';
import { namesIn } from './select-clauses.js';
import { attrTypeToQ, typeText } from './types.js';

/** Reads one attribute of the element being tested. */
export type AttrReader = (attribute: string) => Value;

/** A compiled attribute predicate, bound to one snapshot by `bind`. */
export interface AttributePredicate {
  /** The test for elements of the snapshot; it throws QueryRuntimeError when evaluation fails. */
  bind(graph: QueryGraph): (read: AttrReader) => boolean;
}

/**
 * Compiles `expr` (the parsed text `src`) over `attributes`. Throws QueryCompileError (with line
 * and column) for an unknown name, a type error, a SELECT block, or a result that is not BOOL.
 */
export function compileAttributePredicate(
  expr: Expr,
  src: string,
  attributes: readonly Attribute[],
  catalog: Catalog,
  graph: string,
): AttributePredicate {
  const cx = new Cx('', src, catalog, graph, 'v2');
  cx.compileSelect = (_cx, _block, pos) => {
    throw compileError(pos, 'a SELECT block is not allowed here');
  };
  const used = namesIn(expr, new Set());
  const slots: { name: string; slot: number }[] = [];
  for (const a of attributes) {
    const b = cx.declare(a.name, attrTypeToQ(a.type, catalog.tuples), expr.pos, true);
    if (used.has(a.name)) slots.push({ name: a.name, slot: b.slot });
  }
  const typed = compileExpr(cx, expr);
  if (typed.t.kind !== 'BOOL') {
    throw compileError(expr.pos, `the expression must be BOOL, but it is ${typeText(typed.t)}`);
  }
  const f = typed.f;
  const slotCount = cx.slots;
  return {
    bind(g) {
      const ctx = new RunContext(g, graph, slotCount);
      return (read) => {
        for (const s of slots) ctx.vars[s.slot] = fromStored(ctx, read(s.name), cx.tuples);
        return f(ctx) === true;
      };
    },
  };
}
