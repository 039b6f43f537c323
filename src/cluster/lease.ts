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
import type { JetStreamManager, KV } from 'nats';
import { CLUSTER_BUCKET, LEASE_KEY } from './log-format.js';
import { apiErrorCode } from './nats.js';

/** JetStream API errors: wrong last sequence (someone else wrote the key); no message found. */
const WRONG_LAST_SEQUENCE = 10071;
const NO_MESSAGE = 10037;
/** The header of a key-value entry saying it is a delete or purge marker. */
const KV_OPERATION = 'KV-Operation';

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
  /** When the last confirmed write was sent (by `clock`). */
  confirmedAt = 0;
  private validUntil = 0;
  /** Bumped when the lease is taken or given up: a renewal answered after that is stale. */
  private term = 0;

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
    let revision: number;
    try {
      revision = await this.kv.create(LEASE_KEY, value);
    } catch (e) {
      if (apiErrorCode(e) === WRONG_LAST_SEQUENCE) return false;
      throw e;
    }
    this.term++;
    this.revision = revision;
    this.confirm(sent);
    return true;
  }

  /** 'lost' when another node took the lease; 'unconfirmed' when NATS did not answer. */
  async renew(value: Uint8Array): Promise<'renewed' | 'lost' | 'unconfirmed'> {
    if (this.revision === 0) return 'lost';
    const sent = this.clock();
    const term = this.term;
    let revision: number;
    try {
      revision = await this.kv.update(LEASE_KEY, value, this.revision);
    } catch (e) {
      if (apiErrorCode(e) !== WRONG_LAST_SEQUENCE) return 'unconfirmed';
      if (term === this.term) this.revision = 0;
      return 'lost';
    }
    // Given up meanwhile: the renewal changes nothing (the next holder's create will fence it).
    if (term !== this.term) return 'lost';
    this.revision = revision;
    this.confirm(sent);
    return 'renewed';
  }

  /** Gives the lease up (best effort) so that another node need not wait for it to lapse. */
  async release(): Promise<void> {
    const revision = this.revision;
    this.revision = 0;
    this.validUntil = 0;
    this.term++;
    if (revision > 0) await this.kv.delete(LEASE_KEY, { previousSeq: revision }).catch(() => undefined);
  }

  private confirm(sentAt: number): void {
    this.confirmedAt = sentAt;
    this.validUntil = sentAt + this.ttlMs - Math.max(500, this.ttlMs / 4);
  }
}

/**
 * The current holder as the bucket's stream leader says, or undefined when nobody holds the lease.
 * Read from the stream leader, not with the bucket's direct get: a replica answering a direct get
 * may be behind, and a follower that believed "nobody holds it" would keep trying to take it.
 */
export async function readLeader(jsm: Pick<JetStreamManager, 'streams'>): Promise<LeaderInfo | undefined> {
  let m;
  try {
    m = await jsm.streams.getMessage(`KV_${CLUSTER_BUCKET}`, {
      last_by_subj: `$KV.${CLUSTER_BUCKET}.${LEASE_KEY}`,
    });
  } catch (e) {
    if (apiErrorCode(e) === NO_MESSAGE) return undefined;
    throw e;
  }
  const op = m.header?.get(KV_OPERATION) ?? '';
  if (op !== '' && op !== 'PUT') return undefined;
  try {
    const v = JSON.parse(new TextDecoder().decode(m.data)) as { nodeId?: unknown; urls?: unknown };
    if (typeof v.nodeId !== 'string' || typeof v.urls !== 'object' || v.urls === null) return undefined;
    return { nodeId: v.nodeId, urls: v.urls as Record<string, string>, revision: m.seq };
  } catch {
    return undefined;
  }
}
