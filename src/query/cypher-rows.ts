/**
 * The rows an openCypher query passes from clause to clause: each row holds one value per column
 * (a variable of the query, typed). A stage turns the rows so far into the next ones; the query is
 * its stages in order, starting from one empty row. Expressions over a row are compiled in a scope
 * that declares its columns, and bound per row; as in openCypher, an expression reading a column
 * that holds NULL (OPTIONAL MATCH found nothing) is NULL, unless it tests for NULL itself.
 */
import type { Expr, Pos } from '../gsql/ast-query.js';
import type { RunContext } from './context.js';
import { compileExpr } from './expr-support.js';
import { namesIn } from './select-clauses.js';
import type { Cx, Eval, Typed } from './scope.js';
import type { QType } from './types.js';

export interface Column {
  readonly name: string;
  readonly t: QType;
}

export type Row = unknown[];

/** A compiled clause: the next rows from the rows so far. */
export type Stage = (ctx: RunContext, rows: Row[]) => Promise<Row[]>;

/** The columns declared in the current scope, and how to bind a row to them. */
export interface RowScope {
  readonly slots: readonly number[];
  bind(ctx: RunContext, row: Row): void;
}

/** Declares the columns (not the hidden ones) in the current scope. */
export function declareColumns(cx: Cx, columns: readonly Column[], pos: Pos): RowScope {
  const slots = columns.map((c) => cx.declare(c.name, c.t, pos, true).slot);
  return {
    slots,
    bind(ctx, row) {
      for (let i = 0; i < slots.length; i++) ctx.vars[slots[i]] = row[i];
    },
  };
}

const isNull = (v: unknown): boolean => v === null || v === undefined;

/** Whether an expression looks at NULL itself (IS NULL, coalesce). */
function testsNull(e: Expr): boolean {
  let found = false;
  const visit = (node: unknown): void => {
    if (found || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const o = node as { kind?: string; name?: string };
    if (o.kind === 'isnull' || (o.kind === 'call' && o.name?.toLowerCase() === 'coalesce')) found = true;
    else for (const [k, v] of Object.entries(node)) if (k !== 'pos') visit(v);
  };
  visit(e);
  return found;
}

/**
 * The slots of the row variables `e` reads (among `names`, as declared in the current scope),
 * for a NULL guard; empty when the expression tests NULL itself.
 */
export function nullGuardSlots(cx: Cx, e: Expr, names: ReadonlySet<string>): number[] {
  if (testsNull(e)) return [];
  return [...namesIn(e, new Set())].filter((n) => names.has(n)).map((n) => cx.lookup(n)!.slot);
}

/** `f`, or NULL when one of the slots holds NULL. */
export function guarded(slots: readonly number[], f: Eval): Eval {
  if (slots.length === 0) return f;
  return (ctx) => {
    for (const s of slots) if (isNull(ctx.vars[s])) return null;
    return f(ctx);
  };
}

/** An expression over a row: compiled, with its NULL guard. */
export function rowExpr(cx: Cx, e: Expr, names: ReadonlySet<string>): Typed {
  const x = compileExpr(cx, e);
  return { t: x.t, f: guarded(nullGuardSlots(cx, e, names), x.f) };
}
