/**
 * Secrets: random strings a user creates (CREATE SECRET, POST /gsql/v1/secrets) to request tokens
 * or to log in as `__GSQL__secret`. Stored as digests; shown masked. Aliases are unique per user;
 * a missing alias is generated as AUTO_GENERATED_ALIAS_ plus seven random characters.
 */
import type { SecretRecord, SecurityState } from '../catalog/security.js';
import { AuthError, invalid } from './errors.js';
import { digestOf, maskSecret, newCredential, randomString, sameDigest } from './random.js';

export const AUTO_ALIAS_PREFIX = 'AUTO_GENERATED_ALIAS_';
const ALIAS = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
/** A caller-chosen secret (POST /gsql/v1/secrets?value=): long enough to resist guessing. */
const SECRET_VALUE = /^[!-~]{16,256}$/;

export interface CreatedSecret {
  state: SecurityState;
  secret: string;
  record: SecretRecord;
}

export function createSecret(
  state: SecurityState,
  opts: { user: string; graph?: string; alias?: string; value?: string; now: number },
): CreatedSecret {
  let alias = opts.alias;
  if (alias === undefined || alias === '') {
    do alias = AUTO_ALIAS_PREFIX + randomString(7);
    while (state.secrets.some((s) => s.user === opts.user && s.alias === alias));
  } else {
    if (!ALIAS.test(alias)) throw invalid(`Invalid secret alias "${alias}".`, 'GSQL-5002');
    if (state.secrets.some((s) => s.user === opts.user && s.alias === alias)) {
      throw new AuthError('conflict', 'GSQL-5003', `The secret with alias ${alias} already exists.`);
    }
  }
  const secret = opts.value ?? newCredential();
  if (opts.value !== undefined && !SECRET_VALUE.test(opts.value)) {
    throw invalid('A secret value must be 16 to 256 printable characters without spaces.', 'GSQL-5002');
  }
  if (opts.value !== undefined && findSecret(state, opts.value)) {
    throw new AuthError('conflict', 'GSQL-5003', 'That secret value is already in use; choose another.');
  }
  const record: SecretRecord = {
    alias,
    user: opts.user,
    ...(opts.graph === undefined ? {} : { graph: opts.graph }),
    digest: digestOf(secret),
    masked: maskSecret(secret),
    createdAt: opts.now,
  };
  return { state: { ...state, secrets: [...state.secrets, record] }, secret, record };
}

/** The record of a secret value, found by digest and compared in constant time. */
export function findSecret(state: SecurityState, secret: string): SecretRecord | undefined {
  if (secret.length === 0) return undefined;
  const digest = digestOf(secret);
  return state.secrets.find((s) => sameDigest(s.digest, digest));
}

export function secretsOf(state: SecurityState, user: string): SecretRecord[] {
  return state.secrets.filter((s) => s.user === user);
}

/**
 * Drops the user's secrets with these aliases, and the tokens requested with them. All or
 * nothing: an unknown alias drops none.
 */
export function dropSecrets(state: SecurityState, user: string, aliases: readonly string[]): SecurityState {
  const missing = aliases.filter((a) => !state.secrets.some((s) => s.user === user && s.alias === a));
  if (missing.length > 0) {
    throw new AuthError(
      'not_found',
      'GSQL-5008',
      `Failed to drop secrets: ${missing.map((a) => `'${a}'`).join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist for user '${user}'.`,
    );
  }
  const gone = new Set(aliases);
  return {
    ...state,
    secrets: state.secrets.filter((s) => !(s.user === user && gone.has(s.alias))),
    tokens: state.tokens.filter(
      (t) => !(t.user === user && t.secretAlias !== undefined && gone.has(t.secretAlias)),
    ),
  };
}
