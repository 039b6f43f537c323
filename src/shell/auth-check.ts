/**
 * The privilege check of every GSQL statement, made before its handler runs: the statement table
 * (statement-access.ts) gives the rule and scope from the parsed statement, and the caller's
 * privileges are checked there. A refusal is reported at the statement and nothing runs.
 */
import { requireGraphScope } from '../auth/authorize.js';
import { AuthError } from '../auth/errors.js';
import { requireQueryWrites, type DataWrite } from '../auth/query-access.js';
import type { Pos, Stmt } from '../gsql/ast.js';
import { ShellError, type ShellContext } from './context.js';
import { authService, caller } from './auth-common.js';
import { statementRequirement } from './statement-access.js';

export async function authorizeStatement(stmt: Stmt, ctx: ShellContext): Promise<void> {
  const required = statementRequirement(stmt, ctx.session);
  // A statement the shell does not run is reported without stopping the script, as before.
  if ('refused' in required) throw new ShellError(required.refused, stmt, undefined, false);
  const who = caller(ctx);
  try {
    // A session opened with a graph's token or secret acts on that graph only: not on another one,
    // nor on the global scope (where it could make an unscoped secret or change the password).
    requireGraphScope(who, required.graph);
    await authService(ctx).check(who, required.rule, required.graph);
  } catch (e) {
    if (e instanceof AuthError) throw new ShellError(e.message, stmt);
    throw e;
  }
}

/**
 * A query about to run: the caller also needs the privilege of each kind of write it makes
 * (query/effects.ts), on the graph it runs in.
 */
export async function authorizeQueryWrites(
  ctx: ShellContext,
  pos: Pos,
  graph: string,
  query: string,
  writes: ReadonlySet<DataWrite>,
): Promise<void> {
  if (writes.size === 0) return;
  const svc = authService(ctx);
  try {
    requireQueryWrites(await svc.state(), caller(ctx), graph, query, writes);
  } catch (e) {
    if (e instanceof AuthError) throw new ShellError(e.message, pos);
    throw e;
  }
}
