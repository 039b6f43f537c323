/**
 * User-defined roles (CREATE ROLE, DROP ROLE) and their privileges (GRANT/REVOKE PRIVILEGE), as
 * pure transitions over SecurityState. A local role belongs to one graph and holds privileges on
 * it only; a global role holds global privileges and per-graph ones.
 */
import type { RoleRecord, SecurityState } from '../catalog/security.js';
import { AuthError, invalid } from './errors.js';
import { expandPrivilegeName, GLOBAL_ONLY_PRIVILEGES, type Privilege } from './privileges.js';
import { BUILTIN_ROLES } from './roles.js';

const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export function createRoles(
  state: SecurityState,
  names: readonly string[],
  graph: string | undefined,
): SecurityState {
  for (const name of names) {
    if (!ROLE_NAME.test(name)) throw invalid(`Invalid role name "${name}".`, 'GSQL-5002');
    if (BUILTIN_ROLES.has(name) || state.roles.some((r) => r.name === name)) {
      throw new AuthError('conflict', 'GSQL-5003', `The role "${name}" already exists.`);
    }
  }
  const added: RoleRecord[] = names.map((name) => ({
    name,
    ...(graph === undefined ? {} : { graph }),
    globalPrivileges: [],
    graphPrivileges: {},
  }));
  return { ...state, roles: [...state.roles, ...added] };
}

/** Drops roles and every grant of them. */
export function dropRoles(state: SecurityState, names: readonly string[]): SecurityState {
  for (const name of names) {
    if (BUILTIN_ROLES.has(name)) throw invalid(`The built-in role "${name}" cannot be dropped.`, 'GSQL-5005');
    requireRole(state, name);
  }
  const gone = new Set(names);
  return {
    ...state,
    roles: state.roles.filter((r) => !gone.has(r.name)),
    users: state.users.map((u) => ({
      ...u,
      globalRoles: u.globalRoles.filter((r) => !gone.has(r)),
      graphRoles: Object.fromEntries(
        Object.entries(u.graphRoles)
          .map(([g, rs]) => [g, rs.filter((r) => !gone.has(r))] as const)
          .filter(([, rs]) => rs.length > 0),
      ),
    })),
  };
}

export function requireRole(state: SecurityState, name: string): RoleRecord {
  const role = state.roles.find((r) => r.name === name);
  if (!role) {
    if (BUILTIN_ROLES.has(name)) {
      throw invalid(`The privileges of the built-in role "${name}" cannot be changed.`, 'GSQL-5005');
    }
    throw new AuthError('not_found', 'GSQL-5006', `Role "${name}" does not exist.`);
  }
  return role;
}

/** Privilege names (case-insensitive, WRITE_DATA expanded) or an error naming the unknown one. */
export function parsePrivileges(names: readonly string[]): Privilege[] {
  const out: Privilege[] = [];
  for (const name of names) {
    const expanded = expandPrivilegeName(name);
    if (!expanded) throw invalid(`Unknown privilege "${name}".`, 'GSQL-5007');
    for (const p of expanded) if (!out.includes(p)) out.push(p);
  }
  return out;
}

function checkScope(role: RoleRecord, privileges: readonly Privilege[], graph: string | undefined): void {
  if (role.graph !== undefined && graph !== undefined && graph !== role.graph) {
    throw invalid(`The role "${role.name}" is local to graph '${role.graph}'.`, 'GSQL-5005');
  }
  const onGraph = graph !== undefined || role.graph !== undefined;
  if (!onGraph) return;
  const globalOnly = privileges.filter((p) => GLOBAL_ONLY_PRIVILEGES.has(p));
  if (globalOnly.length > 0) {
    throw invalid(
      `The privilege ${globalOnly.join(', ')} can only be granted on the global scope.`,
      'GSQL-5005',
    );
  }
}

function update(
  role: RoleRecord,
  graph: string | undefined,
  change: (current: readonly string[]) => string[],
): RoleRecord {
  const target = graph ?? role.graph;
  if (target === undefined) return { ...role, globalPrivileges: change(role.globalPrivileges) };
  const graphPrivileges = { ...role.graphPrivileges };
  const next = change(graphPrivileges[target] ?? []);
  if (next.length === 0) delete graphPrivileges[target];
  else graphPrivileges[target] = next;
  return { ...role, graphPrivileges };
}

export function grantPrivileges(
  state: SecurityState,
  privilegeNames: readonly string[],
  graph: string | undefined,
  roleNames: readonly string[],
): SecurityState {
  const privileges = parsePrivileges(privilegeNames);
  for (const name of roleNames) checkScope(requireRole(state, name), privileges, graph);
  const targets = new Set(roleNames);
  return {
    ...state,
    roles: state.roles.map((r) =>
      targets.has(r.name)
        ? update(r, graph, (cur) => [...cur, ...privileges.filter((p) => !cur.includes(p))])
        : r,
    ),
  };
}

export function revokePrivileges(
  state: SecurityState,
  privilegeNames: readonly string[],
  graph: string | undefined,
  roleNames: readonly string[],
): SecurityState {
  const privileges: readonly string[] = parsePrivileges(privilegeNames);
  for (const name of roleNames) requireRole(state, name);
  const targets = new Set(roleNames);
  return {
    ...state,
    roles: state.roles.map((r) =>
      targets.has(r.name) ? update(r, graph, (cur) => cur.filter((p) => !privileges.includes(p))) : r,
    ),
  };
}
