/**
 * The leader lease: one key of a JetStream key-value bucket whose entries lapse `ttlMs` after their
 * last write. A node takes it with a create (which succeeds only when nobody holds it) and keeps it
 * with updates that name the revision it last wrote; the revision is the fencing token of its term.
 *
 * The holder counts its lease as valid until `ttlMs - margin` after it *sent* its last confirmed
 * renewal (the bucket dates the entry later than that), so it stops acting as leader before any
 * other node can take over. Safety does not rest on clocks: the log's expected-last-sequence
 * check refuses whatever a deposed leader still tries to publish.
 */
import type { KV } from 'nats';
import { LEASE_KEY } from './log-format.js';
import { apiErrorCode } from './nats.js';

/** JetStream API error: wrong last sequence (someone else wrote the key). */
const WRONG_LAST_SEQUENCE = 10071;

export type LeaseKv = Pick<KV, 'create' | 'update' | 'delete' | 'get'>;

export interface LeaderInfo {
  nodeId: string;
  urls: Record<string, string>;
  /** The lease revision (fencing token) when the value was read. */
  revision: number;
}

export class Lease {
  /** The revision of our last confirmed write (0: not held). */
  revision = 0;
  private validUntil = 0;

  constructor(
    private readonly kv: LeaseKv,
    private readonly ttlMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Renewals should come this often (three per lifetime). */
  get renewEveryMs(): number {
    return Math.floor(this.ttlMs / 4);
  }

  /** Whether we hold the lease and it has not lapsed by our own clock. */
  get held(): boolean {
    return this.revision > 0 && this.clock() < this.validUntil;
  }

  /** Tries to take the lease; false when another node holds it. */
  async acquire(value: Uint8Array): Promise<boolean> {
    const sent = this.clock();
    try {
      this.revision = await this.kv.create(LEASE_KEY, value);
    } catch (e) {
      if (apiErrorCode(e) === WRONG_LAST_SEQUENCE) return false;
      throw e;
    }
    this.confirm(sent);
    return true;
  }

  /** 'lost' when another node took the lease; 'unconfirmed' when NATS did not answer. */
  async renew(value: Uint8Array): Promise<'renewed' | 'lost' | 'unconfirmed'> {
    if (this.revision === 0) return 'lost';
    const sent = this.clock();
    try {
      this.revision = await this.kv.update(LEASE_KEY, value, this.revision);
    } catch (e) {
      if (apiErrorCode(e) !== WRONG_LAST_SEQUENCE) return 'unconfirmed';
      this.revision = 0;
      return 'lost';
    }
    this.confirm(sent);
    return 'renewed';
  }

  /** Gives the lease up (best effort) so that another node need not wait for it to lapse. */
  async release(): Promise<void> {
    const revision = this.revision;
    this.revision = 0;
    this.validUntil = 0;
    if (revision > 0) await this.kv.delete(LEASE_KEY, { previousSeq: revision }).catch(() => undefined);
  }

  private confirm(sentAt: number): void {
    this.validUntil = sentAt + this.ttlMs - Math.max(500, this.ttlMs / 4);
  }
}

/** The current holder as the bucket says, or undefined when nobody holds the lease. */
export async function readLeader(kv: LeaseKv): Promise<LeaderInfo | undefined> {
  const e = await kv.get(LEASE_KEY);
  if (!e || e.operation !== 'PUT') return undefined;
  try {
    const v = JSON.parse(new TextDecoder().decode(e.value)) as { nodeId?: unknown; urls?: unknown };
    if (typeof v.nodeId !== 'string' || typeof v.urls !== 'object' || v.urls === null) return undefined;
    return { nodeId: v.nodeId, urls: v.urls as Record<string, string>, revision: e.revision };
  } catch {
    return undefined;
  }
}
