/**
 * The commit pipeline: a commit's record is appended to the WAL (its fsync shared with concurrent
 * commits by the WAL's group commit) and its version published strictly in commit order once
 * durable. On a cluster leader the record goes to the cluster log first (`replicateThrough`).
 * Exclusive sections (schema changes, clears, rebuilds, a merge's switch) wait until no commit is
 * in flight, and no write starts while one runs.
 */
import type { WriteAheadLog } from '../durability/index.js';
import { type CommitReplicator, EngineError } from './api.js';

/** A commit's record that the cluster log refused or did not confirm. */
class ReplicationFailure extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'ReplicationFailure';
  }
}

/** What the pipeline needs of its Database. */
export interface CommitHost {
  /** The error that stopped writes, if one did. */
  fatal(): Error | undefined;
  /** Stops writes for good: a record could not be made durable. */
  fail(err: Error): void;
  /** After every publication (history no reader needs can go). */
  afterPublish(): void;
}

/** Where a (re)opened data directory left the log. */
export interface LogPosition {
  wal: WriteAheadLog;
  version: number;
  lsn: number;
}

export class CommitPipeline {
  /** The version of the last commit started (visible once durable). */
  staged: number;
  /** The last published (visible) version. */
  published: number;
  /** The LSN of the last published commit's record. */
  lastLsn: number;
  private wal: WriteAheadLog;
  /** Resolves when every staged commit is published (or failed). */
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  /** Runs of `exclusive`: settles when the last one ends. */
  private paused: Promise<void> = Promise.resolve();
  /** A cluster leader's replication of each commit. */
  private replicator: CommitReplicator | undefined;
  /** The first replication failure; writes are refused until `reset`. */
  private replicationFailure: ReplicationFailure | undefined;
  /** Settles when the last replicated commit may be appended to the WAL (rejects after a failure). */
  private appendGate: Promise<void> = Promise.resolve();
  /** Commits queued behind the append gate (appends must then keep going through it, in order). */
  private gated = 0;

  constructor(
    at: LogPosition,
    private readonly host: CommitHost,
  ) {
    this.wal = at.wal;
    this.published = at.version;
    this.staged = at.version;
    this.lastLsn = at.lsn;
  }

  /** Write-ahead log counters (appends, writes, fsyncs). */
  get walStats(): Readonly<{ appends: number; writes: number; syncs: number; rolls: number }> {
    return this.wal.stats;
  }

  /** Whether a replication failed since the last `reset`. */
  get replicationFailed(): boolean {
    return this.replicationFailure !== undefined;
  }

  /** Every later commit is replicated through `replicator` (none: only the local WAL). */
  replicateThrough(replicator: CommitReplicator | undefined): void {
    this.replicator = replicator;
  }

  /** Appends a record and publishes `version` once it is durable and every earlier one is published. */
  commit(bytes: Uint8Array, version: number, onPublish: () => void): Promise<void> {
    this.staged = version;
    this.pending++;
    const durable = this.logRecord(bytes, version);
    const prev = this.tail;
    const done = (async () => {
      try {
        const lsn = await durable;
        await prev;
        const fatal = this.host.fatal();
        if (fatal) throw fatal;
        this.lastLsn = lsn;
        this.published = version;
        onPublish();
        this.host.afterPublish();
      } catch (err) {
        if (err instanceof ReplicationFailure) {
          this.replicationFailure ??= err;
          throw new EngineError(
            'SYS-0001',
            `The cluster log did not confirm this write (${err.message}); its outcome is unknown: it is ` +
              'applied on every node if the log holds it, and nowhere otherwise.',
          );
        }
        this.host.fail(err instanceof Error ? err : new Error(String(err)));
        throw new EngineError('SYS-FATAL', `The write could not be made durable: ${String(err)}`);
      } finally {
        this.pending--;
      }
    })();
    this.tail = done.catch(() => undefined);
    return done;
  }

  /**
   * Writes a commit's record to the WAL. On a cluster leader the record goes to the cluster log
   * first and the local append waits for its confirmation, so the local log never holds what the
   * cluster log does not; appends stay in commit order, and once one replication fails no later
   * record is appended.
   */
  private logRecord(bytes: Uint8Array, version: number): Promise<number> {
    const replicator = this.replicator;
    if (!replicator && this.gated === 0) return this.wal.append(bytes);
    // Settled at once into a value, so a refusal is never an unhandled rejection while it waits.
    const outcome = (replicator ? replicator.replicate(bytes, version) : Promise.resolve()).then(
      () => undefined,
      (e: unknown) => new ReplicationFailure(e),
    );
    const gate = this.appendGate.then(async () => {
      const failure = await outcome;
      if (failure) throw failure;
    });
    this.appendGate = gate;
    this.gated++;
    return gate.then(() => this.wal.append(bytes)).finally(() => this.gated--);
  }

  /** Settles when every commit staged so far is published (or failed). */
  allPublished(): Promise<void> {
    return this.tail;
  }

  /** Waits until no commit is in flight. */
  async quiesce(): Promise<void> {
    while (this.pending > 0) await this.tail;
  }

  /** Runs `fn` exclusively: once no commit is in flight, and no write starts until it finishes. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const prev = this.paused;
    let release!: () => void;
    this.paused = new Promise<void>((r) => (release = r));
    try {
      await prev;
      await this.quiesce();
      return await fn();
    } finally {
      release();
    }
  }

  /** Waits out an exclusive section, including one that starts while we wait. */
  async unpaused(): Promise<void> {
    for (let r = this.paused; ; r = this.paused) {
      await r;
      if (r === this.paused) break;
    }
  }

  /** Settles when the exclusive section running or queued last ends. */
  lastExclusive(): Promise<void> {
    return this.paused;
  }

  /** Starts again from a re-recovered data directory: commits staged after it are forgotten. */
  reset(at: LogPosition): void {
    this.wal = at.wal;
    this.published = at.version;
    this.staged = at.version;
    this.lastLsn = at.lsn;
    this.tail = Promise.resolve();
    this.appendGate = Promise.resolve();
    this.replicationFailure = undefined;
  }
}
