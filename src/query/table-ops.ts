/**
 * A table statement of the query body (INIT, ORDER, FILTER, PROJECT, JOIN, UNION, UNWIND): bound
 * at CREATE time (table-bind.ts), run over the run's tables (table-run.ts).
 */
import type { TableOpStmt } from '../gsql/ast-table.js';
import type { BodyStmt, Cx } from './scope.js';
import { bindTableOp } from './table-bind.js';
import { tableOpRunner } from './table-run.js';

export function compileTableOpStmt(cx: Cx, s: TableOpStmt): BodyStmt {
  return tableOpRunner(bindTableOp(cx, s.table, s.pos));
}
