/** What the security statement handlers share: the caller, the scope, and error translation. */
import type { Principal } from '../auth/authorize.js';
import { AuthError } from '../auth/errors.js';
import { AuthService } from '../auth/service.js';
import type { AuthScope } from '../gsql/parser-auth.js';
import { ShellError, type ShellContext } from './context.js';

export function authService(ctx: ShellContext): AuthService {
  return AuthService.for(ctx.store);
}

/** The session's caller (as the transport authenticated it, or a password login). */
export function caller(ctx: ShellContext): Principal {
  return ctx.session.principal ?? { user: ctx.session.user, via: 'password' };
}

/** ON GRAPH g -> g; ON GLOBAL -> undefined; nothing -> the graph in use (or global). */
export function resolveScope(ctx: ShellContext, scope: AuthScope | undefined): string | undefined {
  if (scope === undefined) return ctx.session.graph;
  return scope.kind === 'graph' ? scope.name : undefined;
}

/** Runs `fn`, reporting an AuthError as a ShellError at the statement. */
export async function atStatement<T>(
  pos: { line: number; column: number },
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AuthError) throw new ShellError(e.message, pos);
    throw e;
  }
}

export function bracketList(names: readonly string[]): string {
  return `[${names.join(', ')}]`;
}
