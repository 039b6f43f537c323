/**
 * The pure authorization checks: which privileges a user holds on a scope, and whether a caller
 * may do what an access rule asks. A refusal names the missing privilege and the scope.
 */
import type { SecurityState, UserRecord } from '../catalog/security.js';
import { forbidden } from './errors.js';
import { GLOBAL_ONLY_PRIVILEGES, isPrivilege, type Privilege } from './privileges.js';
import { BUILTIN_ROLES } from './roles.js';
import { findUser } from './users.js';

/** Who is calling, and how they proved it. */
export interface Principal {
  user: string;
  via: 'password' | 'secret' | 'token';
  /** A secret or token is valid for one graph only (undefined: any graph). */
  graph?: string;
  /** The alias of the secret used directly or to request the token. */
  secretAlias?: string;
}

function add(out: Set<Privilege>, names: Iterable<string>, onGraph: boolean): void {
  for (const n of names) {
    if (isPrivilege(n) && !(onGraph && GLOBAL_ONLY_PRIVILEGES.has(n))) out.add(n);
  }
}

function rolePrivileges(
  state: SecurityState,
  role: string,
  grantedOn: string | undefined,
  graph: string | undefined,
): Set<Privilege> {
  const out = new Set<Privilege>();
  const builtin = BUILTIN_ROLES.get(role);
  if (builtin) {
    add(out, builtin, grantedOn !== undefined);
    return out;
  }
  const def = state.roles.find((r) => r.name === role);
  if (!def) return out;
  if (grantedOn === undefined) {
    add(out, def.globalPrivileges, false);
    if (graph !== undefined) add(out, def.graphPrivileges[graph] ?? [], true);
  } else {
    add(out, def.globalPrivileges, true);
    add(out, def.graphPrivileges[grantedOn] ?? [], true);
  }
  return out;
}

function collect(state: SecurityState, user: UserRecord, graph: string | undefined): Set<Privilege> {
  const out = new Set<Privilege>();
  for (const role of user.globalRoles)
    for (const p of rolePrivileges(state, role, undefined, graph)) out.add(p);
  if (graph !== undefined) {
    for (const role of user.graphRoles[graph] ?? [])
      for (const p of rolePrivileges(state, role, graph, graph)) out.add(p);
  }
  return out;
}

/**
 * The privileges `user` holds on `graph` (global grants included), or on the global scope when
 * `graph` is undefined (global grants only).
 */
export function privilegesOf(state: SecurityState, user: string, graph?: string): Set<Privilege> {
  const record = findUser(state, user);
  return record ? collect(state, record, graph) : new Set();
}

export function hasPrivilege(
  state: SecurityState,
  user: string,
  privilege: Privilege,
  graph?: string,
): boolean {
  return privilegesOf(state, user, graph).has(privilege);
}

function scopeText(graph: string | undefined): string {
  return graph === undefined ? 'the global scope' : `graph '${graph}'`;
}

/** Throws 403 unless the token/secret scope admits `graph`. */
export function requireGraphScope(principal: Principal, graph: string | undefined): void {
  if (principal.graph !== undefined && graph !== principal.graph) {
    const kind = principal.via === 'token' ? 'token' : 'secret';
    throw forbidden(
      `Access denied: the ${kind} in use is valid for graph '${principal.graph}' only, not for ${scopeText(graph)}.`,
    );
  }
}

/** Throws 403 unless the caller holds every privilege of `all` on `graph`. */
export function requireAll(
  state: SecurityState,
  principal: Principal,
  all: readonly Privilege[],
  graph: string | undefined,
): void {
  requireGraphScope(principal, graph);
  const held = privilegesOf(state, principal.user, graph);
  const missing = all.filter((p) => !held.has(p));
  if (missing.length > 0) {
    throw forbidden(
      `Access denied: user '${principal.user}' does not have the privilege ${missing.join(', ')} on ${scopeText(graph)}.`,
    );
  }
}

/** Throws 403 unless the caller holds at least one privilege of `any` on `graph`. */
export function requireAny(
  state: SecurityState,
  principal: Principal,
  any: readonly Privilege[],
  graph: string | undefined,
): void {
  requireGraphScope(principal, graph);
  const held = privilegesOf(state, principal.user, graph);
  if (!any.some((p) => held.has(p))) {
    throw forbidden(
      `Access denied: user '${principal.user}' needs one of the privileges ${any.join(', ')} on ${scopeText(graph)}.`,
    );
  }
}
