/**
 * The leader's side of the log: every commit's WAL record is published to the stream before the
 * local WAL gets it (see CommitReplicator), each message with the expected last sequence of the
 * stream, so a deposed leader's publish is refused the moment anyone else has appended.
 *
 * Publishes are pipelined: the k-th message in flight expects `last + k - 1`, which holds as long as
 * this leader is the only writer. Once one publish fails, every later one is failed too (it may
 * still land in the stream, which is why the node then drops its staged state and reads the log
 * back rather than guessing what the stream holds).
 */
import type { CommitReplicator } from '../engine/api.js';
import type { ClusterConnection } from './nats.js';
import { HEADER_PART, HEADER_TERM, HEADER_VERSION, LOG_SUBJECT, splitRecord } from './log-format.js';

export interface PublisherOptions {
  /** The stream's last sequence when this term began. */
  lastSeq: number;
  /** The lease revision of this term. */
  term: number;
  timeoutMs: number;
  /** False once the lease lapsed: nothing more is published. */
  holdsLease: () => boolean;
  /** Called once, at the first failure. */
  onFailure: (err: Error) => void;
  /** Called with each confirmed record's last sequence and version. */
  onConfirmed: (seq: number, version: number) => void;
}

export class LogPublisher implements CommitReplicator {
  /** The sequence the next message gets if all goes well. */
  private nextSeq: number;
  private failure: Error | undefined;

  constructor(
    private readonly conn: ClusterConnection,
    private readonly opts: PublisherOptions,
  ) {
    this.nextSeq = opts.lastSeq + 1;
  }

  get failed(): Error | undefined {
    return this.failure;
  }

  replicate(record: Uint8Array, version: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.opts.holdsLease())
      return Promise.reject(this.fail(new Error('this node no longer holds the leader lease')));
    const parts = splitRecord(record, this.conn.maxPayload);
    const first = this.nextSeq;
    this.nextSeq += parts.length;
    const acks = parts.map((data, i) => this.publishPart(data, version, i, parts.length, first + i));
    return Promise.all(acks).then(
      () => this.opts.onConfirmed(first + parts.length - 1, version),
      (e: unknown) => {
        throw this.fail(e instanceof Error ? e : new Error(String(e)));
      },
    );
  }

  private async publishPart(
    data: Uint8Array,
    version: number,
    i: number,
    n: number,
    seq: number,
  ): Promise<void> {
    const h = this.conn.nats.headers();
    h.set(HEADER_VERSION, String(version));
    h.set(HEADER_PART, `${i + 1}/${n}`);
    h.set(HEADER_TERM, String(this.opts.term));
    const ack = await this.conn.js.publish(LOG_SUBJECT, data, {
      headers: h,
      expect: { lastSequence: seq - 1 },
      timeout: this.opts.timeoutMs,
    });
    if (ack.seq !== seq)
      throw new Error(`the cluster log stored part ${i + 1} of version ${version} at ${ack.seq}, not ${seq}`);
  }

  private fail(err: Error): Error {
    if (!this.failure) {
      this.failure = err;
      this.opts.onFailure(err);
    }
    return this.failure;
  }
}
