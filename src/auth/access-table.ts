/**
 * What a request or a statement requires: an access rule, checked on one scope (a graph, or the
 * global scope). The rules themselves live in two tables, one per kind of caller: the route table
 * (route-rules.ts, every HTTP route of every listener) and the statement table
 * (shell/statement-access.ts, every GSQL statement kind). Neither has a default: what has no rule
 * is refused.
 *
 * Scope: a rule is checked on the graph the request or statement will act on (a privilege held
 * globally counts on every graph), or on the global scope when it acts on no graph.
 */
import type { SecurityState } from '../catalog/security.js';
import { requireAll, requireAny, requireGraphScope, type Principal } from './authorize.js';
import { PRIVILEGES, type Privilege } from './privileges.js';

export type AccessRule =
  /** No credentials at all (health checks, echo, the token endpoints that check their own). */
  | { kind: 'public' }
  /** Any valid caller; finer checks, if any, happen where the table says. */
  | { kind: 'authenticated' }
  /** Every one of these privileges. */
  | { kind: 'all'; privileges: readonly Privilege[] }
  /** At least one of these privileges. */
  | { kind: 'any'; privileges: readonly Privilege[] };

export const PUBLIC: AccessRule = { kind: 'public' };
export const AUTHENTICATED: AccessRule = { kind: 'authenticated' };
export const all = (...privileges: Privilege[]): AccessRule => ({ kind: 'all', privileges });
export const any = (...privileges: Privilege[]): AccessRule => ({ kind: 'any', privileges });

export const READ_DATA = all('READ_DATA');
/** An upsert may create and may update. */
export const UPSERT_DATA = all('CREATE_DATA', 'UPDATE_DATA');
export const DELETE_DATA = all('DELETE_DATA');
export const READ_SCHEMA = all('READ_SCHEMA');
export const WRITE_SCHEMA = all('WRITE_SCHEMA');
export const READ_QUERY = all('READ_QUERY');
export const WRITE_QUERY = all('WRITE_QUERY');
export const WRITE_USER = all('WRITE_USER');
export const READ_USER = all('READ_USER');
export const WRITE_ROLE = all('WRITE_ROLE');
export const READ_ROLE = all('READ_ROLE');

/** Every privilege on the global scope: the superuser role (or a global role holding as much). */
export const SUPERUSER = all(...PRIVILEGES);

/** TigerGraph: creating a secret needs one of these (queryreader and up, not observer). */
export const SECRET_PRIVILEGES: readonly Privilege[] = [
  'READ_DATA',
  'CREATE_DATA',
  'UPDATE_DATA',
  'DELETE_DATA',
  'EXECUTE_LOADINGJOB',
];

/**
 * Throws a 403 AuthError unless `principal` may do what `rule` asks on `graph` (undefined: the
 * global scope). Public and authenticated rules still honour a token's or secret's graph.
 */
export function checkAccess(
  state: SecurityState,
  principal: Principal,
  rule: AccessRule,
  graph: string | undefined,
): void {
  switch (rule.kind) {
    case 'public':
      return;
    case 'authenticated':
      if (graph !== undefined) requireGraphScope(principal, graph);
      return;
    case 'all':
      requireAll(state, principal, rule.privileges, graph);
      return;
    case 'any':
      requireAny(state, principal, rule.privileges, graph);
      return;
  }
}
