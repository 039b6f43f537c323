/**
 * The privilege check of every GSQL statement, made before its handler runs: the statement's
 * leading words are looked up in the access table (src/auth/access-table.ts) and checked on the
 * graph it names, or the graph in use, or the global scope. Statements that create or drop whole
 * graphs, users or the store are checked on the global scope.
 */
import { AuthError } from '../auth/errors.js';
import { statementRuleForText } from '../auth/access-table.js';
import type { Stmt } from '../gsql/ast.js';
import { ShellError, type ShellContext } from './context.js';
import { authService, caller } from './auth-common.js';

const FOR_GRAPH = /\bFOR\s+GRAPH\s+([A-Za-z_][A-Za-z0-9_]*)/i;
const GLOBAL_KINDS: ReadonlySet<string> = new Set([
  'create_graph',
  'drop_graph',
  'drop_all',
  'clear_graph_store',
]);

function graphOf(stmt: Stmt, ctx: ShellContext): string | undefined {
  if (GLOBAL_KINDS.has(stmt.kind)) return undefined;
  if (stmt.kind === 'use_graph') return stmt.name;
  if (stmt.kind === 'use_global') return undefined;
  const named = (stmt as { graph?: unknown }).graph;
  if (typeof named === 'string') return named;
  // `CREATE QUERY q(…) FOR GRAPH g {`, `CREATE LOADING JOB j FOR GRAPH g {`: the header names it.
  const header = stmt.text.split('{', 1)[0];
  return FOR_GRAPH.exec(header)?.[1] ?? ctx.session.graph;
}

export async function authorizeStatement(stmt: Stmt, ctx: ShellContext): Promise<void> {
  const svc = authService(ctx);
  try {
    await svc.check(caller(ctx), statementRuleForText(stmt.text), graphOf(stmt, ctx));
  } catch (e) {
    if (e instanceof AuthError) throw new ShellError(e.message, stmt);
    throw e;
  }
}
