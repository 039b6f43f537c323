/**
 * Users and their role grants, as pure transitions over SecurityState: each function returns a new
 * state or throws an AuthError with TigerGraph's wording. Hashing happens before (it is async).
 */
import type { PasswordHash, SecurityState, UserRecord } from '../catalog/security.js';
import { AuthError, invalid } from './errors.js';
import { BUILTIN_ROLES, GLOBAL_ONLY_ROLES } from './roles.js';

export const DEFAULT_USER = 'tigergraph';
export const DEFAULT_PASSWORD = 'tigergraph';
/** The user name under which a secret is presented as a password (gsql client, pyTigerGraph). */
export const SECRET_USER = '__GSQL__secret';

const USER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.@-]{0,127}$/;

/** A new data directory: only the default superuser. */
export function initialSecurityState(defaultPassword: PasswordHash): SecurityState {
  return {
    users: [{ name: DEFAULT_USER, password: defaultPassword, globalRoles: ['superuser'], graphRoles: {} }],
    roles: [],
    secrets: [],
    tokens: [],
  };
}

export function findUser(state: SecurityState, name: string): UserRecord | undefined {
  return state.users.find((u) => u.name === name);
}

export function requireUser(state: SecurityState, name: string): UserRecord {
  const user = findUser(state, name);
  if (!user) throw new AuthError('not_found', 'GSQL-5001', `User "${name}" does not exist.`);
  return user;
}

export function validateUserName(name: string): void {
  if (name === SECRET_USER || !USER_NAME.test(name)) {
    throw invalid(
      `Invalid user name "${name}": use letters, digits, '_', '.', '@' or '-' (at most 128 characters).`,
      'GSQL-5002',
    );
  }
}

export function createUser(state: SecurityState, name: string, password: PasswordHash): SecurityState {
  validateUserName(name);
  if (findUser(state, name))
    throw new AuthError('conflict', 'GSQL-5003', `The user "${name}" already exists.`);
  return { ...state, users: [...state.users, { name, password, globalRoles: [], graphRoles: {} }] };
}

/** Drops users with their secrets and tokens. The default superuser cannot be dropped. */
export function dropUsers(state: SecurityState, names: readonly string[]): SecurityState {
  for (const name of names) {
    requireUser(state, name);
    if (name === DEFAULT_USER) {
      throw new AuthError('forbidden', 'GSQL-5004', `The user "${DEFAULT_USER}" cannot be dropped.`);
    }
  }
  const gone = new Set(names);
  return {
    ...state,
    users: state.users.filter((u) => !gone.has(u.name)),
    secrets: state.secrets.filter((s) => !gone.has(s.user)),
    tokens: state.tokens.filter((t) => !gone.has(t.user)),
  };
}

export function setPassword(state: SecurityState, name: string, password: PasswordHash): SecurityState {
  requireUser(state, name);
  return { ...state, users: state.users.map((u) => (u.name === name ? { ...u, password } : u)) };
}

/** A role name that can be granted on `graph` (undefined: the global scope). */
export function requireGrantableRole(state: SecurityState, role: string, graph: string | undefined): void {
  if (BUILTIN_ROLES.has(role)) {
    if (graph !== undefined && GLOBAL_ONLY_ROLES.has(role)) {
      throw invalid(`The role "${role}" can only be granted on the global scope.`, 'GSQL-5005');
    }
    return;
  }
  const def = state.roles.find((r) => r.name === role);
  if (!def) throw new AuthError('not_found', 'GSQL-5006', `Role "${role}" does not exist.`);
  if (def.graph !== undefined && def.graph !== graph) {
    throw invalid(
      `The role "${role}" is local to graph '${def.graph}' and can only be granted on it.`,
      'GSQL-5005',
    );
  }
}

function withRoles(user: UserRecord, graph: string | undefined, roles: string[]): UserRecord {
  if (graph === undefined) return { ...user, globalRoles: roles };
  const graphRoles = { ...user.graphRoles };
  if (roles.length === 0) delete graphRoles[graph];
  else graphRoles[graph] = roles;
  return { ...user, graphRoles };
}

function rolesOn(user: UserRecord, graph: string | undefined): string[] {
  return graph === undefined ? user.globalRoles : (user.graphRoles[graph] ?? []);
}

export function grantRoles(
  state: SecurityState,
  roles: readonly string[],
  graph: string | undefined,
  users: readonly string[],
): SecurityState {
  for (const role of roles) requireGrantableRole(state, role, graph);
  for (const u of users) requireUser(state, u);
  const targets = new Set(users);
  return {
    ...state,
    users: state.users.map((u) => {
      if (!targets.has(u.name)) return u;
      const current = rolesOn(u, graph);
      return withRoles(u, graph, [...current, ...roles.filter((r) => !current.includes(r))]);
    }),
  };
}

export function revokeRoles(
  state: SecurityState,
  roles: readonly string[],
  graph: string | undefined,
  users: readonly string[],
): SecurityState {
  for (const role of roles) {
    if (!BUILTIN_ROLES.has(role) && !state.roles.some((r) => r.name === role)) {
      throw new AuthError('not_found', 'GSQL-5006', `Role "${role}" does not exist.`);
    }
  }
  for (const u of users) requireUser(state, u);
  if (graph === undefined && roles.includes('superuser') && users.includes(DEFAULT_USER)) {
    throw new AuthError(
      'forbidden',
      'GSQL-5004',
      `The role "superuser" cannot be revoked from "${DEFAULT_USER}".`,
    );
  }
  const targets = new Set(users);
  return {
    ...state,
    users: state.users.map((u) =>
      targets.has(u.name)
        ? withRoles(
            u,
            graph,
            rolesOn(u, graph).filter((r) => !roles.includes(r)),
          )
        : u,
    ),
  };
}
