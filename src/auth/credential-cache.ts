/**
 * The verified-credential cache: which Authorization header values (Basic user and password, a
 * `__GSQL__secret` secret, a Bearer token) were verified against which security state, so that the
 * next request presenting the same header costs one keyed SHA-256 and a map probe instead of
 * decoding the header, a password HMAC or token digest, several promise turns and a walk over the
 * user's roles. It is fail-closed:
 *
 * - Entries belong to one SecurityState object. States are immutable: every change of users,
 *   passwords, roles, grants, secrets or tokens makes a new one, and the first lookup that sees a
 *   new state empties the cache. An entry is only stored when the state it was verified against is
 *   still the current one.
 * - Only successful verifications are stored; a wrong credential always takes the full path
 *   (scrypt, throttle counting), and so does anything the cache cannot decide.
 * - Keyed by SHA-256 over a per-process random key and the header, never by the header: the cache
 *   holds no password, secret or token. The full digests are compared in constant time.
 * - A token's entry keeps the token's expiry and is not used from then on.
 * - Bounded: at most MAX_ENTRIES entries; the oldest goes first.
 * - Access decisions (rule, graph) are remembered per entry only when allowed; a refusal is always
 *   worked out again on the full path, which builds its message.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecurityState } from '../catalog/security.js';
import type { AccessRule } from './access-table.js';
import type { Principal } from './authorize.js';

/** Distinct headers remembered at once (each a few hundred bytes). */
export const MAX_ENTRIES = 1024;

/** A header verified once: who it stands for, and what that caller was allowed since. */
export interface VerifiedCredential {
  readonly principal: Readonly<Principal>;
  /** The name the login throttle counts for it (Basic credentials only). */
  readonly throttleName?: string;
  /** Epoch seconds from which it is no longer valid (tokens). */
  readonly expiresAt?: number;
  /** Rules (by identity) and the scopes (graph, undefined: global) they were allowed on. */
  readonly allowed: Map<AccessRule, Set<string | undefined>>;
}

interface Entry {
  digest: Buffer;
  credential: VerifiedCredential;
}

export class CredentialCache {
  private readonly key = randomBytes(32).toString('hex');
  private owner: SecurityState | undefined;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  /** Entries currently held (tests). */
  get size(): number {
    return this.entries.size;
  }

  private digestOf(header: string): Buffer {
    // createHash, not crypto.hash: the one-shot form needs Node 20.12, and package.json allows 20.0.
    return createHash('sha256').update(`${this.key}\n${header}`).digest();
  }

  /** Forgets everything unless the entries belong to `state`. */
  private own(state: SecurityState): void {
    if (this.owner === state) return;
    this.entries.clear();
    this.owner = state;
  }

  /** The credential `header` was verified as under `state`, when still valid at `now` (epoch s). */
  find(state: SecurityState, header: string, now: number): VerifiedCredential | undefined {
    this.own(state);
    if (this.entries.size === 0) return undefined;
    const digest = this.digestOf(header);
    const id = digest.toString('latin1', 0, 16);
    const entry = this.entries.get(id);
    if (!entry || !timingSafeEqual(entry.digest, digest)) return undefined;
    const expiresAt = entry.credential.expiresAt;
    if (expiresAt !== undefined && expiresAt <= now) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.credential;
  }

  /** Remembers that `header` was verified as `principal` under `state` (the current state). */
  remember(
    state: SecurityState,
    header: string,
    principal: Principal,
    extra: { throttleName?: string; expiresAt?: number } = {},
  ): void {
    this.own(state);
    const digest = this.digestOf(header);
    const id = digest.toString('latin1', 0, 16);
    this.entries.delete(id);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(id, {
      digest,
      credential: { principal: Object.freeze({ ...principal }), ...extra, allowed: new Map() },
    });
  }
}

/** Whether `rule` was allowed on `graph` for this credential before. */
export function allowedBefore(c: VerifiedCredential, rule: AccessRule, graph: string | undefined): boolean {
  return c.allowed.get(rule)?.has(graph) === true;
}

/** Remembers that `rule` is allowed on `graph` for this credential (under the entry's state). */
export function rememberAllowed(c: VerifiedCredential, rule: AccessRule, graph: string | undefined): void {
  let scopes = c.allowed.get(rule);
  if (!scopes) c.allowed.set(rule, (scopes = new Set()));
  scopes.add(graph);
}
