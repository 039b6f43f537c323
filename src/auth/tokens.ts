/**
 * REST++ tokens: issued for a secret or for user credentials plus a graph, renewed, deleted,
 * validated, and removed once expired (see the token lifecycle, spec §3). Tokens are stored as
 * digests; expired ones stay (and are refused) until DELETE /expiredtoken removes them.
 */
import type { SecurityState, TokenRecord } from '../catalog/security.js';
import type { Principal } from './authorize.js';
import { AuthError, invalid, TOKEN_NOT_FOUND_CODE, unauthenticated } from './errors.js';
import { digestOf, maskToken, newCredential, sameDigest } from './random.js';

/** 30 days, TigerGraph's default token lifetime. */
export const DEFAULT_TOKEN_LIFETIME = 2_592_000;
/** Longest accepted lifetime: about 100 years (pyTigerGraph asks for 10^9 s for JWTs). */
const MAX_LIFETIME = 3_200_000_000;

/** Seconds from a body field (number or numeric string); absent -> the default. */
export function parseLifetime(value: unknown): number {
  if (value === undefined || value === null || value === '') return DEFAULT_TOKEN_LIFETIME;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (!Number.isInteger(n) || n <= 0 || n > MAX_LIFETIME) {
    throw invalid(`Invalid lifetime '${String(value)}': it must be a positive number of seconds.`);
  }
  return n;
}

export interface IssuedToken {
  state: SecurityState;
  token: string;
  record: TokenRecord;
}

export function issueToken(
  state: SecurityState,
  opts: { user: string; graph?: string; secretAlias?: string; lifetime: number; now: number },
): IssuedToken {
  const token = newCredential();
  const record: TokenRecord = {
    digest: digestOf(token),
    user: opts.user,
    ...(opts.graph === undefined ? {} : { graph: opts.graph }),
    ...(opts.secretAlias === undefined ? {} : { secretAlias: opts.secretAlias }),
    issuedAt: opts.now,
    expiresAt: opts.now + opts.lifetime,
  };
  return { state: { ...state, tokens: [...state.tokens, record] }, token, record };
}

/**
 * Token lookup by digest. The map is built once per state object (states are immutable), so a
 * request costs one SHA-256 and one map probe. The probe compares digests, never the token, so
 * its timing says nothing about a valid token; the final comparison is constant-time anyway.
 */
const indexes = new WeakMap<SecurityState, Map<string, TokenRecord>>();

export function findToken(state: SecurityState, token: string): TokenRecord | undefined {
  let index = indexes.get(state);
  if (!index) {
    index = new Map(state.tokens.map((t) => [t.digest, t]));
    indexes.set(state, index);
  }
  const digest = digestOf(token);
  const record = index.get(digest);
  return record && sameDigest(record.digest, digest) ? record : undefined;
}

/** The caller a Bearer token stands for, or a 401 with TigerGraph's REST-10016 message. */
export function authenticateToken(state: SecurityState, token: string, now: number): Principal {
  const shown = maskToken(token);
  if (token.length < 12) {
    throw unauthenticated(`Access Denied because the input token = '${shown}' is empty or too short`);
  }
  const record = findToken(state, token);
  if (!record || !state.users.some((u) => u.name === record.user)) {
    throw unauthenticated(`Access Denied because the input token = '${shown}' is not valid`);
  }
  if (record.expiresAt <= now) {
    throw unauthenticated(`Access Denied because the input token = '${shown}' has expired`);
  }
  return {
    user: record.user,
    via: 'token',
    ...(record.graph === undefined ? {} : { graph: record.graph }),
    ...(record.secretAlias === undefined ? {} : { secretAlias: record.secretAlias }),
  };
}

/** The token named in a refresh/delete request, which the caller must own (or hold WRITE_USER). */
function ownedToken(state: SecurityState, token: string, owner: string, mayWriteUsers: boolean): TokenRecord {
  if (typeof token !== 'string' || token.length === 0)
    throw invalid("The request body must name the 'token'.");
  const record = findToken(state, token);
  if (!record) {
    throw new AuthError('not_found', TOKEN_NOT_FOUND_CODE, `The token '${maskToken(token)}' does not exist.`);
  }
  if (record.user !== owner && !mayWriteUsers) {
    throw new AuthError(
      'forbidden',
      'REST-10016',
      `Access denied: the token '${maskToken(token)}' belongs to another user and WRITE_USER is required.`,
    );
  }
  return record;
}

/** PUT /requesttoken: same token, new expiration `now + lifetime`. An expired token cannot be renewed. */
export function refreshToken(
  state: SecurityState,
  opts: { token: string; owner: string; mayWriteUsers: boolean; lifetime: number; now: number },
): { state: SecurityState; expiresAt: number } {
  const record = ownedToken(state, opts.token, opts.owner, opts.mayWriteUsers);
  if (record.expiresAt <= opts.now) {
    throw unauthenticated(`Access Denied because the input token = '${maskToken(opts.token)}' has expired`);
  }
  const expiresAt = opts.now + opts.lifetime;
  return {
    state: { ...state, tokens: state.tokens.map((t) => (t === record ? { ...t, expiresAt } : t)) },
    expiresAt,
  };
}

/** DELETE /requesttoken. */
export function deleteToken(
  state: SecurityState,
  opts: { token: string; owner: string; mayWriteUsers: boolean },
): SecurityState {
  const record = ownedToken(state, opts.token, opts.owner, opts.mayWriteUsers);
  return { ...state, tokens: state.tokens.filter((t) => t !== record) };
}

/**
 * DELETE /expiredtoken. Without users or secrets: every expired token the caller may remove (all
 * of them with WRITE_USER, else the caller's own). With lists: the expired tokens of those users
 * and of tokens requested with those secrets. Atomic: an unknown user or secret, or another
 * user's tokens without WRITE_USER, removes nothing.
 */
export function removeExpiredTokens(
  state: SecurityState,
  opts: {
    caller: string;
    mayWriteUsers: boolean;
    users?: readonly string[];
    /** Secrets already resolved to their owner and alias (the caller looks the values up). */
    secrets?: readonly { user: string; alias: string }[];
    now: number;
  },
): { state: SecurityState; removed: number } {
  const users = opts.users ?? [];
  const secrets = opts.secrets ?? [];
  for (const u of users) {
    if (!state.users.some((r) => r.name === u))
      throw invalid(`User '${u}' does not exist; no token was removed.`);
  }
  const others = [...users, ...secrets.map((s) => s.user)].filter((u) => u !== opts.caller);
  if (others.length > 0 && !opts.mayWriteUsers) {
    throw new AuthError(
      'forbidden',
      'REST-10016',
      `Access denied: removing the tokens of user '${others[0]}' requires the privilege WRITE_USER; no token was removed.`,
    );
  }
  const everything = users.length === 0 && secrets.length === 0;
  const selected = (t: TokenRecord): boolean =>
    everything
      ? opts.mayWriteUsers || t.user === opts.caller
      : users.includes(t.user) || secrets.some((s) => s.user === t.user && s.alias === t.secretAlias);
  const kept = state.tokens.filter((t) => !(t.expiresAt <= opts.now && selected(t)));
  return { state: { ...state, tokens: kept }, removed: state.tokens.length - kept.length };
}
