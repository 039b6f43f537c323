/**
 * The Studio's login sessions, in memory: a session is a random token held by the browser in an
 * HttpOnly cookie and stored here only as its SHA-256 digest, with the user, the password hash the
 * login matched (a changed password ends the session) and an absolute expiry. Sessions do not
 * survive a restart: the browser then simply logs in again.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface StudioSession {
  readonly user: string;
  /** The user's stored password hash when the session was made. */
  readonly passwordHash: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

export interface StudioSessionOptions {
  /** How long a session lasts after login (default 8 hours). */
  ttlMs?: number;
  /** Epoch milliseconds; tests move time with it. */
  clock?: () => number;
  /** Most sessions kept at once; the oldest goes first (default 10,000). */
  maxSessions?: number;
}

export const DEFAULT_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
const TOKEN_BYTES = 32;
/** base64url of TOKEN_BYTES bytes. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export class StudioSessions {
  readonly ttlMs: number;
  private readonly clock: () => number;
  private readonly maxSessions: number;
  /** Insertion order is creation order, so the first entry is the oldest. */
  private readonly byDigest = new Map<string, StudioSession>();

  constructor(options: StudioSessionOptions = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_SESSION_TTL_MS;
    this.clock = options.clock ?? Date.now;
    this.maxSessions = options.maxSessions ?? 10_000;
  }

  now(): number {
    return this.clock();
  }

  /** A new session; the token is returned once, for the cookie, and never stored. */
  create(user: string, passwordHash: string): { token: string; session: StudioSession } {
    this.dropExpired();
    while (this.byDigest.size >= this.maxSessions) {
      const oldest = this.byDigest.keys().next().value;
      if (oldest === undefined) break;
      this.byDigest.delete(oldest);
    }
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const session: StudioSession = { user, passwordHash, expiresAt: this.clock() + this.ttlMs };
    this.byDigest.set(digestOf(token), session);
    return { token, session };
  }

  /** The live session of a token, or undefined (unknown, malformed or expired). */
  find(token: string): StudioSession | undefined {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    // Looked up by digest: timing of the lookup says nothing an attacker can steer toward a token.
    const digest = digestOf(token);
    const session = this.byDigest.get(digest);
    if (!session) return undefined;
    if (session.expiresAt <= this.clock()) {
      this.byDigest.delete(digest);
      return undefined;
    }
    return session;
  }

  /** Ends a session (logout); an unknown token is ignored. */
  revoke(token: string): void {
    if (TOKEN_PATTERN.test(token)) this.byDigest.delete(digestOf(token));
  }

  get size(): number {
    return this.byDigest.size;
  }

  private dropExpired(): void {
    const now = this.clock();
    for (const [digest, s] of this.byDigest) if (s.expiresAt <= now) this.byDigest.delete(digest);
  }
}
