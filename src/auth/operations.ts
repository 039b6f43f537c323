/**
 * The security operations behind the GSQL statements and the HTTP endpoints, each with its
 * privilege checks: the shell and the servers call these and only format the outcome.
 */
import type { SecretRecord, SecurityState, UserRecord } from '../catalog/security.js';
import { privilegesOf, requireGraphScope, type Principal } from './authorize.js';
import { checkAccess, SECRET_PRIVILEGES, WRITE_ROLE, WRITE_USER, type AccessRule } from './access-table.js';
import { AuthError, forbidden, invalid, unauthenticated } from './errors.js';
import { hashPassword } from './password.js';
import { maskSecret } from './random.js';
import { createRoles, dropRoles, grantPrivileges, revokePrivileges } from './role-defs.js';
import { createSecret, dropSecrets, findSecret, secretsOf } from './secrets.js';
import { AuthService } from './service.js';
import { deleteToken, issueToken, refreshToken, removeExpiredTokens } from './tokens.js';
import { createUser, dropUsers, findUser, grantRoles, revokeRoles, setPassword } from './users.js';

async function requireRule(
  svc: AuthService,
  caller: Principal,
  rule: AccessRule,
  graph?: string,
): Promise<SecurityState> {
  const state = await svc.state();
  checkAccess(state, caller, rule, graph);
  return state;
}

function requireGraphIfNamed(svc: AuthService, graph: string | undefined): void {
  if (graph !== undefined) svc.requireGraph(graph);
}

// ---- users ------------------------------------------------------------------------------------

export async function createUserOp(
  svc: AuthService,
  caller: Principal,
  name: string,
  password: string,
): Promise<void> {
  await requireRule(svc, caller, WRITE_USER);
  AuthService.validatePassword(password);
  const hash = await hashPassword(password);
  await svc.mutate((s) => ({ state: createUser(s, name, hash), result: undefined }));
}

export async function dropUsersOp(
  svc: AuthService,
  caller: Principal,
  names: readonly string[],
): Promise<void> {
  await requireRule(svc, caller, WRITE_USER);
  if (names.includes(caller.user)) throw invalid(`You cannot drop yourself ("${caller.user}").`, 'GSQL-5004');
  await svc.mutate((s) => ({ state: dropUsers(s, names), result: undefined }));
}

/** ALTER PASSWORD [user]: one's own always; another user's with WRITE_USER. */
export async function alterPasswordOp(
  svc: AuthService,
  caller: Principal,
  target: string | undefined,
  password: string,
): Promise<string> {
  const user = target ?? caller.user;
  if (user !== caller.user) await svc.requireGlobal(caller, 'WRITE_USER', "changing another user's password");
  AuthService.validatePassword(password);
  const hash = await hashPassword(password);
  await svc.mutate((s) => ({ state: setPassword(s, user, hash), result: undefined }));
  return user;
}

export interface UserView {
  name: string;
  globalRoles: string[];
  graphRoles: Record<string, string[]>;
  secrets: { alias: string; masked: string; graph?: string }[];
}

function viewOf(state: SecurityState, u: UserRecord): UserView {
  return {
    name: u.name,
    globalRoles: [...u.globalRoles],
    graphRoles: { ...u.graphRoles },
    secrets: secretsOf(state, u.name).map((s) => ({
      alias: s.alias,
      masked: s.masked,
      ...(s.graph === undefined ? {} : { graph: s.graph }),
    })),
  };
}

/** SHOW USER: every user with READ_USER, else only the caller. */
export async function showUsersOp(svc: AuthService, caller: Principal): Promise<UserView[]> {
  const state = await svc.state();
  const all = await svc.hasPrivilege(caller.user, 'READ_USER');
  return state.users.filter((u) => all || u.name === caller.user).map((u) => viewOf(state, u));
}

// ---- roles ------------------------------------------------------------------------------------

export async function createRolesOp(
  svc: AuthService,
  caller: Principal,
  names: readonly string[],
  graph: string | undefined,
): Promise<void> {
  requireGraphIfNamed(svc, graph);
  await requireRule(svc, caller, WRITE_ROLE, graph);
  await svc.mutate((s) => ({ state: createRoles(s, names, graph), result: undefined }));
}

export async function dropRolesOp(
  svc: AuthService,
  caller: Principal,
  names: readonly string[],
  graph: string | undefined,
): Promise<void> {
  await requireRule(svc, caller, WRITE_ROLE, graph);
  await svc.mutate((s) => ({ state: dropRoles(s, names), result: undefined }));
}

/** A grant or revoke: the graph must exist, the caller must hold WRITE_ROLE there, then `change`. */
async function scopedChangeOp(
  svc: AuthService,
  caller: Principal,
  graph: string | undefined,
  change: (s: SecurityState) => SecurityState,
): Promise<void> {
  requireGraphIfNamed(svc, graph);
  await requireRule(svc, caller, WRITE_ROLE, graph);
  await svc.mutate((s) => ({ state: change(s), result: undefined }));
}

export function grantRolesOp(
  svc: AuthService,
  caller: Principal,
  roles: readonly string[],
  graph: string | undefined,
  users: readonly string[],
): Promise<void> {
  return scopedChangeOp(svc, caller, graph, (s) => grantRoles(s, roles, graph, users));
}

export function revokeRolesOp(
  svc: AuthService,
  caller: Principal,
  roles: readonly string[],
  graph: string | undefined,
  users: readonly string[],
): Promise<void> {
  return scopedChangeOp(svc, caller, graph, (s) => revokeRoles(s, roles, graph, users));
}

export function grantPrivilegesOp(
  svc: AuthService,
  caller: Principal,
  privileges: readonly string[],
  graph: string | undefined,
  roles: readonly string[],
): Promise<void> {
  return scopedChangeOp(svc, caller, graph, (s) => grantPrivileges(s, privileges, graph, roles));
}

export function revokePrivilegesOp(
  svc: AuthService,
  caller: Principal,
  privileges: readonly string[],
  graph: string | undefined,
  roles: readonly string[],
): Promise<void> {
  return scopedChangeOp(svc, caller, graph, (s) => revokePrivileges(s, privileges, graph, roles));
}

// ---- secrets ----------------------------------------------------------------------------------

/**
 * Whose secrets an operation addresses: the caller's own, or (with `forUser`) another user's,
 * which needs WRITE_USER for changes and READ_USER for listing.
 */
async function secretOwner(
  svc: AuthService,
  caller: Principal,
  forUser: string | undefined,
  write: boolean,
): Promise<string> {
  if (forUser === undefined || forUser === '' || forUser === caller.user) return caller.user;
  const privilege = write ? 'WRITE_USER' : 'READ_USER';
  await svc.requireGlobal(caller, privilege, "managing another user's secrets");
  if (!findUser(await svc.state(), forUser)) {
    throw new AuthError('not_found', 'GSQL-5001', `User "${forUser}" does not exist.`);
  }
  return forUser;
}

export async function createSecretOp(
  svc: AuthService,
  caller: Principal,
  opts: { alias?: string; graph?: string; forUser?: string; value?: string },
): Promise<{ secret: string; record: SecretRecord }> {
  requireGraphIfNamed(svc, opts.graph);
  // A caller proved by a graph's token or secret makes secrets of that graph only.
  if (caller.graph !== undefined) requireGraphScope(caller, opts.graph);
  const state = await svc.state();
  if (opts.graph !== undefined) {
    checkAccess(state, caller, { kind: 'any', privileges: SECRET_PRIVILEGES }, opts.graph);
  } else {
    // A secret for no graph in particular: data access on some graph (or globally) is enough,
    // since its tokens act with the user's own privileges.
    const scopes = [undefined, ...svc.graphNames()];
    if (!scopes.some((g) => SECRET_PRIVILEGES.some((p) => privilegesOf(state, caller.user, g).has(p)))) {
      throw forbidden(
        `Access denied: user '${caller.user}' needs one of the privileges ${SECRET_PRIVILEGES.join(', ')} on some graph to create a secret.`,
      );
    }
  }
  const user = await secretOwner(svc, caller, opts.forUser, true);
  return svc.mutate((s) => {
    const created = createSecret(s, {
      user,
      graph: opts.graph,
      alias: opts.alias,
      value: opts.value,
      now: svc.now(),
    });
    return { state: created.state, result: { secret: created.secret, record: created.record } };
  });
}

export async function listSecretsOp(
  svc: AuthService,
  caller: Principal,
  forUser?: string,
): Promise<SecretRecord[]> {
  const user = await secretOwner(svc, caller, forUser, false);
  return secretsOf(await svc.state(), user);
}

export async function dropSecretsOp(
  svc: AuthService,
  caller: Principal,
  aliases: readonly string[],
  forUser?: string,
): Promise<void> {
  if (aliases.length === 0) throw invalid('Name at least one secret alias to drop.', 'GSQL-5002');
  const user = await secretOwner(svc, caller, forUser, true);
  await svc.mutate((s) => ({ state: dropSecrets(s, user, aliases), result: undefined }));
}

// ---- tokens -----------------------------------------------------------------------------------

/** The caller a secret in a request body stands for. */
export async function principalOfSecret(svc: AuthService, secret: unknown): Promise<Principal> {
  if (typeof secret !== 'string' || secret.length === 0)
    throw invalid("The 'secret' must be a non-empty string.");
  const record = findSecret(await svc.state(), secret);
  if (!record)
    throw unauthenticated(`Access Denied because the input secret = '${maskSecret(secret)}' is not valid`);
  return {
    user: record.user,
    via: 'secret',
    secretAlias: record.alias,
    ...(record.graph === undefined ? {} : { graph: record.graph }),
  };
}

export interface TokenGrant {
  token: string;
  expiration: number;
  user: string;
  graph?: string;
}

/**
 * A new token for a caller proved by a secret (graph: the secret's, else the one asked for, else
 * global) or by user credentials (graph required; the user must hold a privilege on it).
 */
export async function requestTokenOp(
  svc: AuthService,
  caller: Principal,
  graph: string | undefined,
  lifetime: number,
): Promise<TokenGrant> {
  let scope = graph;
  if (caller.via === 'secret') {
    if (caller.graph !== undefined && graph !== undefined && graph !== caller.graph) {
      throw invalid(`The secret was created for graph '${caller.graph}', not for graph '${graph}'.`);
    }
    scope = caller.graph ?? graph;
  } else if (graph === undefined) {
    throw invalid("A token requested with a user name and password needs the 'graph' it is for.");
  }
  if (scope !== undefined) {
    if (!svc.graphExists(scope))
      throw new AuthError('not_found', 'REST-1004', `Graph '${scope}' does not exist.`, 400);
    const state = await svc.state();
    if (privilegesOf(state, caller.user, scope).size === 0) {
      throw new AuthError(
        'forbidden',
        'REST-10016',
        `Access denied: user '${caller.user}' has no role on graph '${scope}'.`,
      );
    }
  }
  const now = svc.now();
  return svc.mutate((s) => {
    const issued = issueToken(s, {
      user: caller.user,
      graph: scope,
      secretAlias: caller.secretAlias,
      lifetime,
      now,
    });
    return {
      state: issued.state,
      result: {
        token: issued.token,
        expiration: issued.record.expiresAt,
        user: caller.user,
        ...(scope === undefined ? {} : { graph: scope }),
      },
    };
  });
}

export async function refreshTokenOp(
  svc: AuthService,
  caller: Principal,
  token: string,
  lifetime: number,
): Promise<number> {
  const mayWriteUsers = await svc.hasPrivilege(caller.user, 'WRITE_USER');
  return svc.mutate((s) => {
    const r = refreshToken(s, { token, owner: caller.user, mayWriteUsers, lifetime, now: svc.now() });
    return { state: r.state, result: r.expiresAt };
  });
}

export async function deleteTokenOp(svc: AuthService, caller: Principal, token: string): Promise<void> {
  const mayWriteUsers = await svc.hasPrivilege(caller.user, 'WRITE_USER');
  await svc.mutate((s) => ({
    state: deleteToken(s, { token, owner: caller.user, mayWriteUsers }),
    result: undefined,
  }));
}

/** DELETE /expiredtoken; `secrets` are secret values, resolved (all or nothing) here. */
export async function removeExpiredTokensOp(
  svc: AuthService,
  caller: Principal,
  opts: { users?: readonly string[]; secrets?: readonly string[] },
): Promise<number> {
  const mayWriteUsers = await svc.hasPrivilege(caller.user, 'WRITE_USER');
  return svc.mutate((s) => {
    const secrets = (opts.secrets ?? []).map((value) => {
      const record = findSecret(s, value);
      if (!record) throw invalid(`The secret '${maskSecret(value)}' does not exist; no token was removed.`);
      return { user: record.user, alias: record.alias };
    });
    const r = removeExpiredTokens(s, {
      caller: caller.user,
      mayWriteUsers,
      users: opts.users,
      secrets,
      now: svc.now(),
    });
    return { state: r.state, result: r.removed };
  });
}
