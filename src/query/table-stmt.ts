/**
 * `SELECT … INTO T FROM …;` in a query body: runs the SQL-like SELECT and keeps its rows in the
 * table variable T (a list of tuples of its columns: `PRINT T` shows the rows, `PRINT T TO_CSV f`
 * writes them).
 */
import type { TableSelectStmt } from '../gsql/ast-v3.js';
import { compileError } from './errors.js';
import { Flow, type BodyStmt, type Cx } from './scope.js';
import { compileTable } from './table-select.js';
import { declareTable } from './table-scope.js';

export function compileTableSelectStmt(cx: Cx, s: TableSelectStmt): BodyStmt {
  const into = s.select.into;
  if (!into) throw compileError(s.pos, 'a SQL-like SELECT in a query needs INTO table');
  const table = compileTable(cx, s.select);
  const slot = declareTable(cx, into.name, table.rowType.fields, into.pos).slot;
  return async (ctx) => {
    await ctx.tick();
    ctx.vars[slot] = await table.run(ctx);
    return Flow.Next;
  };
}
