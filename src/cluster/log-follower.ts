/**
 * A follower's side of the log: an ordered consumer reads the stream from the first message this
 * node does not have, puts records back together and applies each through the engine's replay path
 * (`Database.applyReplicated`), which also writes it to the local WAL. The local data is the
 * checkpoint: its version says where to resume after a restart (`findStartSeq`).
 */
import type { ConsumerMessages } from 'nats';
import type { Database } from '../engine/database.js';
import {
  findStartSeq,
  LOG_STREAM,
  LOG_SUBJECT,
  readPartMeta,
  HEADER_VERSION,
  Reassembler,
} from './log-format.js';
import { errorText, type ClusterConnection } from './nats.js';

export interface FollowerEvents {
  /** A record became durable and visible locally. */
  applied(seq: number, version: number): void;
  /** The log cannot be followed (this node's data does not fit it). */
  failed(err: Error): void;
  log(line: string): void;
}

/** How long a consumer may deliver nothing while the stream holds more, before it is replaced. */
const STALL_MS = 3_000;
/**
 * Each replacement that brings nothing doubles the wait before the next, up to this: while
 * JetStream is slow to create consumers (a Raft election, a loaded machine), replacing them every
 * few seconds would cut off each one before it delivers.
 */
const MAX_STALL_MS = 24_000;
/** The pause before a consumer that ended or failed is replaced. */
const REOPEN_MS = 250;

/** A node whose data cannot continue from the cluster log. */
export class LogMismatchError extends Error {
  override name = 'LogMismatchError';
}

export class LogFollower {
  /** The last stream sequence handled (applied, skipped as already here, or held as a part). */
  processedSeq = 0;
  /** The last stream sequence whose record is durable here. */
  appliedSeq = 0;
  /** The stream's last sequence when start() looked. */
  lastSeqAtStart = 0;
  /** The consumer being opened or read; interrupting it makes the loop open a new one (or stop). */
  private attempt: Attempt | undefined;
  private loop: Promise<void> = Promise.resolve();
  private stopping = false;
  private progressSeq = -1;
  private progressAt = 0;
  private stallMs = STALL_MS;

  constructor(
    private readonly conn: ClusterConnection,
    private readonly db: Database,
    private readonly events: FollowerEvents,
  ) {}

  /** The version the stream holds at `seq` (one message read). */
  private async versionAt(seq: number): Promise<number> {
    const m = await this.conn.jsm.streams.getMessage(LOG_STREAM, { seq });
    return Number(m.header.get(HEADER_VERSION));
  }

  /** Finds where this node's data ends in the stream and starts consuming from there. */
  async start(): Promise<void> {
    const info = await this.conn.jsm.streams.info(LOG_STREAM);
    const { first_seq: firstSeq, last_seq: lastSeq } = info.state;
    this.lastSeqAtStart = lastSeq;
    const version = this.db.stagedVersion;
    const lastVersion = lastSeq >= Math.max(firstSeq, 1) ? await this.versionAt(lastSeq) : 0;
    if (version > lastVersion) {
      throw new LogMismatchError(
        `this node's data is at version ${version} but the cluster log ends at version ${lastVersion}: ` +
          'the data directory belongs to another cluster or the log was lost; start the node on an empty data directory',
      );
    }
    // A log that no longer holds the next version is caught by applyReplicated's version check.
    const start = await findStartSeq(version, firstSeq, lastSeq, (s) => this.versionAt(s));
    this.processedSeq = start - 1;
    this.appliedSeq = Math.max(this.appliedSeq, start - 1);
    this.stopping = false;
    this.loop = this.consume(start);
  }

  private async consume(start: number): Promise<void> {
    const reassembler = new Reassembler();
    let from = start;
    while (!this.stopping) {
      const attempt = new Attempt();
      this.attempt = attempt;
      try {
        // Opening a consumer is a few JetStream requests that the client retries for minutes when
        // JetStream does not answer: stop() and a stall must not wait for them.
        const messages = (await attempt.race(this.open(from))) ?? [];
        for await (const m of messages) {
          const whole = reassembler.push(
            readPartMeta((name) => m.headers?.get(name) ?? ''),
            m.data,
          );
          if (whole && whole.version > this.db.stagedVersion) await this.apply(m.seq, whole.record);
          this.processedSeq = m.seq;
          if (attempt.interrupted) break;
        }
      } catch (e) {
        if (this.stopping) return;
        if (e instanceof LogMismatchError || isEngineRefusal(e)) {
          this.events.failed(e instanceof Error ? e : new Error(String(e)));
          return;
        }
        this.events.log(`cluster: reading the log failed (${errorText(e)}); resuming`);
      } finally {
        attempt.interrupt();
      }
      from = this.processedSeq + 1;
      // A consumer that ends at once again and again must not spin.
      if (!this.stopping) await new Promise((r) => setTimeout(r, REOPEN_MS));
    }
  }

  /** An ordered consumer of the log from `from` on, delivering. */
  private async open(from: number): Promise<ConsumerMessages> {
    const consumer = await this.conn.js.consumers.get(LOG_STREAM, {
      deliver_policy: this.conn.nats.DeliverPolicy.StartSequence,
      opt_start_seq: from,
      filterSubjects: LOG_SUBJECT,
    });
    // Heartbeats every 2.5 s (instead of 15) let the client notice a consumer gone with its server.
    return consumer.consume({ max_messages: 512, expires: 5_000 });
  }

  private async apply(seq: number, record: Uint8Array): Promise<void> {
    const { version, durable } = await this.db.applyReplicated(record);
    durable.then(
      () => {
        if (seq > this.appliedSeq) this.appliedSeq = seq;
        this.events.applied(seq, version);
      },
      (e: unknown) => this.events.failed(e instanceof Error ? e : new Error(String(e))),
    );
  }

  /**
   * Called now and then with the stream's last sequence. A consumer lives on one NATS server: when
   * that server dies it stops delivering, so one that delivered nothing for a while although the
   * stream holds more is replaced by a new one from where this node is.
   */
  watch(lastSeq: number, now = performance.now()): void {
    if (this.processedSeq !== this.progressSeq) this.stallMs = STALL_MS;
    if (lastSeq <= this.processedSeq || this.processedSeq !== this.progressSeq) {
      this.progressSeq = this.processedSeq;
      this.progressAt = now;
      return;
    }
    if (now - this.progressAt < this.stallMs) return;
    this.events.log(
      `cluster: the log stopped arriving at sequence ${this.processedSeq} of ${lastSeq} ` +
        `for ${Math.round((now - this.progressAt) / 1000)} s; reading it again`,
    );
    this.progressAt = now;
    this.stallMs = Math.min(2 * this.stallMs, MAX_STALL_MS);
    this.attempt?.interrupt();
  }

  /** Stops consuming; resolves once every record handed to the engine is durable. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.attempt?.interrupt();
    await this.loop;
    await this.db.settled();
  }
}

/** The engine refused a record: this node's data and the log disagree. */
function isEngineRefusal(e: unknown): boolean {
  return e instanceof Error && e.name === 'EngineError';
}

/**
 * One consumer's life in the follower's loop. Interrupting it stops the consumer's messages, also
 * those of a consumer still being opened: they are stopped the moment they arrive.
 */
class Attempt {
  interrupted = false;
  private messages: ConsumerMessages | undefined;
  private wake: (() => void) | undefined;
  private readonly woken = new Promise<undefined>((resolve) => (this.wake = () => resolve(undefined)));

  /** `opening`'s messages, or undefined when interrupted first. */
  async race(opening: Promise<ConsumerMessages>): Promise<ConsumerMessages | undefined> {
    void opening.then(
      (m) => {
        this.messages = m;
        if (this.interrupted) m.stop();
      },
      () => undefined,
    );
    const m = await Promise.race([opening, this.woken]);
    return this.interrupted ? undefined : m;
  }

  interrupt(): void {
    this.interrupted = true;
    this.messages?.stop();
    this.wake?.();
  }
}
