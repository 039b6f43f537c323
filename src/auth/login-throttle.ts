/**
 * Throttling of failed password checks, per user name and per client address. After a few free
 * failures each further failure blocks its key for a delay that doubles (1 s, 2 s, 4 s, …) up to a
 * cap; while a key is blocked every password check for it is refused with 429 before any hashing
 * is done, a correct password included (so a blocked guesser learns nothing). A user's count
 * starts over after a successful login; an address's does not (one valid account must not reset
 * the guessing of others), and either is forgotten after a quiet period. Time comes from the
 * service's clock (epoch seconds), so tests move it instead of waiting.
 */
import { throttled } from './errors.js';

export interface ThrottlePolicy {
  /** Failures allowed before the first delay. */
  freeFailures: number;
  /** The longest delay, in seconds. */
  maxDelayS: number;
  /** A key with no failure for this long starts over. */
  forgetAfterS: number;
}

/** A user's cap is short: an attacker who blocks a user name locks its owner out only briefly. */
export const USER_POLICY: ThrottlePolicy = { freeFailures: 5, maxDelayS: 60, forgetAfterS: 900 };
export const ADDRESS_POLICY: ThrottlePolicy = { freeFailures: 10, maxDelayS: 300, forgetAfterS: 900 };
/** At most this many keys per kind are remembered (the oldest are dropped first). */
const MAX_KEYS = 10_000;

interface Failures {
  count: number;
  last: number;
  blockedUntil: number;
}

class FailureTable {
  private readonly entries = new Map<string, Failures>();

  constructor(private readonly policy: ThrottlePolicy) {}

  /** Seconds the key is still blocked at `now` (0: not blocked). */
  blockedFor(key: string, now: number): number {
    const f = this.current(key, now);
    return f && f.blockedUntil > now ? f.blockedUntil - now : 0;
  }

  fail(key: string, now: number): void {
    const f = this.current(key, now) ?? { count: 0, last: now, blockedUntil: 0 };
    f.count++;
    f.last = now;
    const over = f.count - this.policy.freeFailures;
    if (over > 0) f.blockedUntil = now + Math.min(2 ** (over - 1), this.policy.maxDelayS);
    this.entries.delete(key);
    this.entries.set(key, f);
    if (this.entries.size > MAX_KEYS) this.trim(now);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  private current(key: string, now: number): Failures | undefined {
    const f = this.entries.get(key);
    if (f && now - f.last >= this.policy.forgetAfterS && f.blockedUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return f;
  }

  /** Drops forgotten keys, then the least recently failed ones, down to the limit. */
  private trim(now: number): void {
    for (const key of [...this.entries.keys()]) this.current(key, now);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= MAX_KEYS) break;
      this.entries.delete(key);
    }
  }
}

export class LoginThrottle {
  private readonly users: FailureTable;
  private readonly addresses: FailureTable;

  constructor(
    private readonly clock: () => number,
    policies: { user?: ThrottlePolicy; address?: ThrottlePolicy } = {},
  ) {
    this.users = new FailureTable(policies.user ?? USER_POLICY);
    this.addresses = new FailureTable(policies.address ?? ADDRESS_POLICY);
  }

  /** Throws a 429 AuthError (with `retryAfter`) while the user or the address is blocked. */
  check(user: string, address: string | undefined): void {
    const now = this.clock();
    const byUser = this.users.blockedFor(user, now);
    const byAddress = address === undefined ? 0 : this.addresses.blockedFor(address, now);
    const wait = Math.max(byUser, byAddress);
    if (wait > 0) {
      throw throttled(
        `Too many failed login attempts ${byAddress >= byUser ? 'from this address' : `for user '${user}'`}; try again in ${Math.ceil(wait)} seconds.`,
        wait,
      );
    }
  }

  failed(user: string, address: string | undefined): void {
    const now = this.clock();
    this.users.fail(user, now);
    if (address !== undefined) this.addresses.fail(address, now);
  }

  succeeded(user: string): void {
    this.users.forget(user);
  }
}
